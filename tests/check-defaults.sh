#!/bin/bash
# Default options (common/defaults.h, doc/usage.md "Default options"): ~/.mpiverifyrc, then
# ./.mpiverifyrc, then MPIVERIFY_<COMMAND>_OPTIONS go before the command line's options, which
# override them; --no-config leaves them out; a file that cannot be read as one is refused
# naming its line, and an option a command refuses is traced back to where it came from.
# check on a model case (tests/model/cases/bsend-buffer-too-small: a deadlock without
# buffering, none with it) tells which buffering mode the defaults chose by its exit status.
set -u

. "$(dirname "$0")/lib.sh"
require_mpiverify

WORK=$(make_workdir defaults) || exit 1
CASE=$WORK/case
cp -r "$SRCDIR/tests/model/cases/bsend-buffer-too-small" "$CASE" || exit 1
mkdir -p "$WORK/home" "$WORK/project"
cd "$WORK/project" || exit 1

# run NAME WANT [VAR=VALUE...] -- ARGS...: mpiverify ARGS in the project, HOME the work's, with
# the variables given; passes if it exits WANT.
run()
{
	local name=$1 want=$2 vars=()
	shift 2
	while test "$1" != --; do
		vars+=("$1")
		shift
	done
	shift
	run_cmd "$WORK/$name.log" 60 env -u MPIVERIFY_NO_CONFIG HOME="$WORK/home" "${vars[@]}" \
		"$MPIVERIFY" "$@"
	if test "$RC" -eq "$want"; then
		pass "$name"
	else
		fail "$name" "exit $RC, want $want" "$WORK/$name.log"
	fi
}

run "no defaults: check searches both modes and finds the deadlock" 1 -- check "$CASE"
echo 'check --buffering infinite   # the run had buffering' >.mpiverifyrc
run "the project's file: check searches with buffering alone" 0 -- check "$CASE"
run "the command line overrides the file" 1 -- check --buffering zero "$CASE"
run "--no-config before the command leaves the file out" 1 -- --no-config check "$CASE"
run "--no-config after the command leaves the file out" 1 -- check --no-config "$CASE"
rm .mpiverifyrc
printf '# mine\nverify --deadlock-timeout 9\ncheck "--buffering" infinite\n' >"$WORK/home/.mpiverifyrc"
run "the user's file, a word in quotes" 0 -- check "$CASE"
echo 'check --buffering zero' >.mpiverifyrc
run "the project's file after the user's" 1 -- check "$CASE"
run "the variable after both files" 0 MPIVERIFY_CHECK_OPTIONS='--buffering infinite' -- \
	check "$CASE"
rm .mpiverifyrc "$WORK/home/.mpiverifyrc"
run "another command's variable is not check's" 1 MPIVERIFY_VERIFY_OPTIONS='--bogus' -- \
	check "$CASE"

# says NAME LOG TEXT: the run's log (of case NAME) holds TEXT.
says()
{
	if grep -qF -- "$3" "$WORK/$2.log"; then
		pass "$1"
	else
		fail "$1" "not said: $3" "$WORK/$2.log"
	fi
}

# what is refused, and how the user learns where it came from
printf 'check --buffering zero\nchek --buffering zero\n' >.mpiverifyrc
run "a line of no command: refused" 3 -- check "$CASE"
says "the refusal names the file and its line" "a line of no command: refused" \
	"'.mpiverifyrc': line 2: its first word is no command of mpiverify's"
printf 'check "--buffering zero\n' >.mpiverifyrc
run "a quote that does not end: refused" 3 -- check "$CASE"
echo 'check --bogus' >.mpiverifyrc
run "an option check does not know: a usage error" 2 -- check "$CASE"
says "the usage error says the defaults came from .mpiverifyrc:1" \
	"an option check does not know: a usage error" \
	"note: the options include the defaults of .mpiverifyrc:1"
run "--no-config: the same command line without them" 1 -- --no-config check "$CASE"
run "MPIVERIFY_NO_CONFIG: the same" 1 MPIVERIFY_NO_CONFIG=1 -- check "$CASE"
summary
