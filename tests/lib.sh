# shellcheck shell=bash disable=SC2034
# Shared helpers of mpiverify's test scripts (sourced, not run): where the build tree and its
# ./mpiverify are, scratch directories under tests/out/, the examples' expectation headers,
# and `ok NAME` / `FAIL NAME: why` counting that ends in one `N passed, M failed` line.
#
# Exit status conventions of the scripts that use it: 0 all passed, 1 something failed,
# 77 skipped (a required tool is missing), as automake's test drivers read them.

# ---- where things are ----
# The source tree is the parent of tests/; the build tree is the directory holding ./mpiverify
# (configure builds in place, so both are usually the same). MPIVERIFY_BUILDDIR overrides it.
SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if test -n "${MPIVERIFY_BUILDDIR:-}"; then
	BUILDDIR=$(cd "$MPIVERIFY_BUILDDIR" && pwd)
elif test -x "$PWD/mpiverify" && test -f "$PWD/Makefile"; then
	BUILDDIR=$PWD
else
	BUILDDIR=$SRCDIR
fi
MPIVERIFY=$BUILDDIR/mpiverify
OUTDIR=$BUILDDIR/tests/out
# no default options of the developer's (~/.mpiverifyrc) or a project's: tests/check-defaults.sh
# unsets it for its own cases
export MPIVERIFY_NO_CONFIG=1

# ---- the MPI library the tests run on ----
# Named by its wrappers, MPICC and MPIRUN: MPICH's by default (Debian's mpicc.mpich and
# mpirun.mpich; the plain mpicc and mpirun where those are missing), since installing Open MPI
# beside MPICH makes the plain names Open MPI's. tests/run.sh runs the end-to-end parts a second
# time with MPICC=mpicc.openmpi MPIRUN=mpirun.openmpi. MPI_LIB is the library MPICC compiles
# for (mpich, openmpi; base/mpilib.c), MPI_TITLE its name in messages.
if test -z "${MPICC:-}"; then
	MPICC=mpicc
	command -v mpicc.mpich >/dev/null 2>&1 && MPICC=mpicc.mpich
fi
if test -z "${MPIRUN:-}"; then
	MPIRUN=mpirun
	command -v mpirun.mpich >/dev/null 2>&1 && MPIRUN=mpirun.mpich
fi
# mpi_cpp LINE: LINE after #include <mpi.h>, preprocessed by MPICC (-x c: Open MPI's wrapper
# adds its include path only for a source language it knows).
mpi_cpp()
{
	printf '#include <mpi.h>\n%s\n' "$1" | "$MPICC" -E -P -x c - 2>/dev/null | tail -n 1
}
MPI_LIB=$(printf '#include <mpi.h>\n#if defined(OPEN_MPI)\nopenmpi\n#elif defined(MPICH)\nmpich\n#endif\n' |
	"$MPICC" -E -P -x c - 2>/dev/null | grep -E '^(openmpi|mpich)$' | tail -n 1)
case $MPI_LIB in
openmpi) MPI_TITLE='Open MPI' ;;
mpich) MPI_TITLE=MPICH ;;
*) MPI_TITLE="the MPI library of '$MPICC'" ;;
esac
# MPIFC compiles the Fortran examples for that library: its own wrapper, mpif90.mpich or
# mpif90.openmpi (the plain mpif90 where that is missing), with MPIFC_FLAGS. Debian's
# mpif90.openmpi names no library directory of its own, so its -lmpi finds the default
# libmpi.so (MPICH's, when MPICH is the default MPI): the flags add the directory of Open MPI's
# libmpi, as its mpicc does (doc/usage.md, "Fortran").
if test -z "${MPIFC:-}"; then
	MPIFC=mpif90
	command -v "mpif90.$MPI_LIB" >/dev/null 2>&1 && MPIFC=mpif90.$MPI_LIB
fi
MPIFC_FLAGS=''
if test "$MPI_LIB" = openmpi; then
	for d in $("$MPICC" --showme:libdirs 2>/dev/null); do
		MPIFC_FLAGS="$MPIFC_FLAGS -L$d"
	done
fi
# Programs of the tests, compiled for that library, a folder per script: make check runs
# scripts side by side (tests/run.sh), and a script's check for leftover processes goes by the
# program's path, which must not be another script's running program.
BINDIR=$OUTDIR/bin-${MPI_LIB:-unknown}-$(basename "$(dirname "$0")")-$(basename "$0" .sh)
# Open MPI's mpirun refuses to run as root without --allow-run-as-root and to start more ranks
# than there are cores without --oversubscribe: the tests give it both through its
# environment (the same settings as the options, mpirun(1)), so that the command lines stay
# those a user types for MPICH. A user passes the options (doc/usage.md, "MPICH and Open MPI"); mpiverify passes the
# launcher command as it is given.
if test "$MPI_LIB" = openmpi; then
	if test "$(id -u)" -eq 0; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	export OMPI_MCA_rmaps_base_oversubscribe=1
	# Open MPI's mpirun keeps a session directory (ompi.HOST.UID/pid.PID, about 8 MB) in its
	# temporary directory until it exits: each script gives it one of its own, so that
	# check_leftovers can tell that a job mpiverify ended left none behind.
	OMPI_SESSIONS=$(mktemp -d "${TMPDIR:-/tmp}/mpiverify-ompi.XXXXXX") || exit 1
	export OMPI_MCA_orte_tmpdir_base=$OMPI_SESSIONS
	# removed however the script ends (a script that sets a trap of its own removes it in
	# summary)
	trap 'rm -rf "$OMPI_SESSIONS"' EXIT
fi

# ---- tools ----
# require_tools TOOL...: exit 77 (skip) naming the first tool that is not on PATH.
require_tools()
{
	local t
	for t in "$@"; do
		if ! command -v "$t" >/dev/null 2>&1; then
			echo "skipped: '$t' not found (install mpich, libmpich-dev and spin)"
			exit 77
		fi
	done
}

# require_mpi_built: exit 77 (skip) unless MPICC compiles for an MPI library the build has
# preload libraries for (configure finds every one installed).
require_mpi_built()
{
	if test -z "$MPI_LIB"; then
		echo "skipped: '$MPICC' compiles for no MPI library mpiverify knows"
		exit 77
	fi
	if ! test -f "$BUILDDIR/lib/$MPI_LIB/librecorder.so"; then
		echo "skipped: mpiverify was not built for $MPI_TITLE (no" \
			"'$BUILDDIR/lib/$MPI_LIB/librecorder.so': configure did not find it)"
		exit 77
	fi
}

# mpi_version: the MPI_VERSION of the MPI library's mpi.h (0 if it cannot be had). The preload
# libraries wrap MPI-4 calls only when it is 4 or more (base/mpi_calls.def, MPIV_OTHER4).
mpi_version()
{
	local v
	v=$(mpi_cpp MPI_VERSION)
	case $v in
	'' | *[!0-9]*) echo 0 ;;
	*) echo "$v" ;;
	esac
}

# require_mpiverify: exit 1 unless the build tree has its ./mpiverify (run make first).
require_mpiverify()
{
	if ! test -x "$MPIVERIFY"; then
		echo "FAIL setup: '$MPIVERIFY' not found: run ./configure && make first"
		echo "0 passed, 1 failed"
		exit 1
	fi
}

# make_workdir PREFIX: a fresh private directory under tests/out/, its path on stdout.
make_workdir()
{
	mkdir -p "$OUTDIR" && mktemp -d "$OUTDIR/$1.XXXXXX"
}

# ---- running commands ----
# run_cmd LOG SECONDS CMD...: run CMD with stdin closed, stdout and stderr into LOG, killed
# (with its process group) after SECONDS as a safety net; sets RC to its exit status
# (124 if it was cut off).
run_cmd()
{
	local log=$1 secs=$2
	shift 2
	RC=0
	timeout -k 5 "$secs" "$@" </dev/null >"$log" 2>&1 || RC=$?
}

# procs_of PROGRAM: the pids of running processes whose command line mentions PROGRAM (an
# absolute path), one a line; pgrep -f if procps is installed, else a scan of /proc.
procs_of()
{
	if command -v pgrep >/dev/null 2>&1; then
		pgrep -f -- "$1( |\$)" || true
	else
		procs_of_scan "$1"
	fi
}

procs_of_scan()
{
	local prog=$1 dir pid args
	for dir in /proc/[0-9]*; do
		pid=${dir#/proc/}
		test "$pid" = "$$" && continue
		mapfile -d '' args 2>/dev/null <"$dir/cmdline" || continue
		case " ${args[*]} " in
		*" $prog "*) echo "$pid" ;;
		esac
	done
}

# no_leftovers PROGRAM: succeed if no process of PROGRAM runs (allowing it 20 s to exit: an
# Open MPI job torn down while the other lane of make check keeps both cores busy has taken
# more than 8);
# otherwise print the survivors into LEFTOVERS, kill them by pid and fail.
no_leftovers()
{
	local prog=$1 pids
	for _ in $(seq 100); do
		pids=$(procs_of "$prog")
		test -z "$pids" && return 0
		sleep 0.2
	done
	LEFTOVERS=$(ps -o pid=,args= -p "$(echo "$pids" | tr ' ' ,)" 2>/dev/null || echo "$pids")
	# shellcheck disable=SC2086
	kill -9 $pids 2>/dev/null || true
	return 1
}

# ---- expectation headers ----
# An example starts with lines of this grammar (one key=value set per line):
#   /* mpiverify-test: np=3 record=ok
#    * mpiverify-test: buffering=zero expect=deadlock
#    * mpiverify-test: buffering=infinite expect=ok
#    * mpiverify-test: lib=openmpi buffering=all expect=ok
#    * what the pattern is and why */
# A line with lib=LIBRARY (mpich, openmpi) holds only for that MPI library, where it
# legitimately differs (an eager threshold, a collective one library completes): it is read
# after the others and replaces what they say (for a buffering mode, its verdict).
# A line with mpi=4 says the example calls MPI-4 (MPI_Isendrecv): it is skipped where the
# library's mpi.h is older (MPI_MIN; Open MPI 4.1's is MPI-3.1).
# parse_header FILE sets NP, RECORD (ok, hang, fail, or any: the first run may go either
# way), MODES (a list of MODE=EXPECT words), VERIFY (the verdict of `mpiverify verify`, every
# mode: ok, deadlock or inconclusive; empty: not run) and VERIFY_RUNS (the most runs it may
# take: its --max-runs; empty: its default) and WARN (the kinds of
# warning check must report from the recorded run: unreceived, truncated, uncompleted-request,
# unfreed-communicator, pending-at-disconnect;
# none when empty) and MATCHES (for a deadlock reached through wildcard matches: `recorded` if
# the recorded run's own matches lead there, `other` if it needs others) and REPLAY
# (`not-reproduced` when the MPI library cannot show the error the counterexample describes,
# `diverged` when the program leaves the counterexample's path, which needs another branch
# than the recorded run's; by default, or `reproduced`,
# every counterexample replays as reproduced), for the MPI library MPI_LIB, or prints why the
# header is malformed and fails.
parse_header()
{
	local file=$1 line word key val mode expect lib pass
	NP='' RECORD='' MODES='' WARN='' MATCHES='' REPLAY='' VERIFY='' VERIFY_RUNS='' MPI_MIN=''
	for pass in all lib; do
		while IFS= read -r line; do
			line=${line#*mpiverify-test:}
			line=${line%%\*/*}
			lib=''
			for word in $line; do
				case $word in
				lib=*) lib=${word#lib=} ;;
				esac
			done
			case $lib in
			'' | mpich | openmpi) ;;
			*)
				echo "bad lib '$lib' (want mpich or openmpi)"
				return 1
				;;
			esac
			# generic lines first, then those of this library
			if test "$pass" = all; then
				test -z "$lib" || continue
			else
				test -n "$lib" && test "$lib" = "$MPI_LIB" || continue
			fi
			mode='' expect=''
			for word in $line; do
				key=${word%%=*}
				val=${word#*=}
				if test "$key" = "$word"; then
					echo "malformed word '$word' (want key=value)"
					return 1
				fi
				case $key in
				lib) ;;
				np) NP=$val ;;
				record) RECORD=$val ;;
				warn) WARN="$WARN ${val//,/ }" ;;
				matches) MATCHES=$val ;;
				replay) REPLAY=$val ;;
				verify) VERIFY=$val ;;
				verify-runs) VERIFY_RUNS=$val ;;
				mpi) MPI_MIN=$val ;;
				buffering) mode=$val ;;
				expect) expect=$val ;;
				*)
					echo "unknown key '$key'"
					return 1
					;;
				esac
			done
			if test -n "$mode$expect"; then
				case $mode in
				zero | infinite | all | eager:[0-9]*) ;;
				*)
					echo "bad buffering '$mode'"
					return 1
					;;
				esac
				case $expect in
				ok | deadlock | inconclusive) ;;
				*)
					echo "bad expect '$expect' (want ok, deadlock or inconclusive)"
					return 1
					;;
				esac
				# a later line's verdict for a mode replaces an earlier one's
				MODES=$(for word in $MODES; do
					test "${word%%=*}" = "$mode" || printf ' %s' "$word"
				done)
				MODES="$MODES $mode=$expect"
			fi
		done < <(grep 'mpiverify-test:' "$file")
	done
	case $REPLAY in
	'' | reproduced | not-reproduced | diverged) ;;
	*)
		echo "bad replay='$REPLAY' (want reproduced, not-reproduced or diverged)"
		return 1
		;;
	esac
	case $NP in
	[1-9] | [1-9][0-9]) ;;
	*)
		echo "missing or bad np='$NP'"
		return 1
		;;
	esac
	case $RECORD in
	ok | hang | fail | any) ;;
	*)
		echo "missing or bad record='$RECORD' (want ok, hang, fail or any)"
		return 1
		;;
	esac
	case $VERIFY in
	'' | ok | deadlock | crash | inconclusive) ;;
	*)
		echo "bad verify='$VERIFY' (want ok, deadlock, crash or inconclusive)"
		return 1
		;;
	esac
	case $VERIFY_RUNS in
	'' | [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;;
	*)
		echo "bad verify-runs='$VERIFY_RUNS'"
		return 1
		;;
	esac
	if test -z "$MODES" && test -z "$VERIFY"; then
		echo "no 'buffering=MODE expect=VERDICT' line and no verify=VERDICT"
		return 1
	fi
}

# expected_exit VERDICT: the exit status `check` gives for it.
expected_exit()
{
	case $1 in
	deadlock | crash) echo 1 ;;
	inconclusive) echo 5 ;;
	*) echo 0 ;;
	esac
}

# describe_rc RC: an exit status in words, for a failure's message.
describe_rc()
{
	case $1 in
	124) echo "timed out" ;;
	*) echo "exit $1" ;;
	esac
}

# sessions_left: the session directories of Open MPI's mpirun that outlived it, one a line, after
# allowing a second for one that is still on its way out; none on another library.
sessions_left()
{
	local d left
	test -n "${OMPI_SESSIONS:-}" || return 0
	for _ in $(seq 5); do
		left=''
		for d in "$OMPI_SESSIONS"/ompi.*/pid.*; do
			test -d "$d" && left="$left$d"$'\n'
		done
		test -z "$left" && return 0
		sleep 0.2
	done
	printf '%s' "$left"
}

# check_leftovers NAME PROGRAM: one case asserting that no process of PROGRAM survived and that
# no launcher left its session directory behind (WORK holds their list when some did).
check_leftovers()
{
	local left
	if ! no_leftovers "$2"; then
		echo "$LEFTOVERS" >"$WORK/leftovers.log"
		fail "$1" "processes of '$2' still running (killed now)" "$WORK/leftovers.log"
		return
	fi
	left=$(sessions_left)
	if test -n "$left"; then
		echo "$left" >"$WORK/leftovers.log"
		rm -rf "$OMPI_SESSIONS"/ompi.*
		fail "$1" "Open MPI's mpirun left its session directory (removed now)" \
			"$WORK/leftovers.log"
		return
	fi
	pass "$1"
}

# ---- counting ----
PASSED=0
FAILED=0

# pass NAME
pass()
{
	PASSED=$((PASSED + 1))
	echo "ok $1"
}

# fail NAME WHY [LOG]: count a failure and show LOG (the command's output), indented.
fail()
{
	FAILED=$((FAILED + 1))
	echo "FAIL $1: $2"
	if test -n "${3:-}" && test -f "$3"; then
		sed -e 's/^/    | /' "$3" | head -n 60
	fi
}

# expect NAME WANT LOG PATTERN...: the last run_cmd exited WANT and LOG matches every
# PATTERN (grep -E); one case, passed or failed. expect_text: the same with fixed strings.
expect()
{
	expect_grep -E "$@"
}

expect_text()
{
	expect_grep -F "$@"
}

expect_grep()
{
	local how=$1 name=$2 want=$3 log=$4 pat
	shift 4
	if test "$RC" -ne "$want"; then
		fail "$name" "exit $RC, want $want" "$log"
		return 1
	fi
	for pat in "$@"; do
		if ! grep "$how" -q -- "$pat" "$log"; then
			fail "$name" "exit $want but no line matching '$pat'" "$log"
			return 1
		fi
	done
	pass "$name"
}

# verify_family NAME PROG NP BUG WORDS: verify PROG under $MPIRUN -np NP (its report in
# PROG.verify.log, its outputs in PROG.verify): "no deadlock" (exit 0) where BUG is 0, else the
# deadlock confirmed (exit 1) with WORDS in the report.
verify_family()
{
	run_cmd "$2.verify.log" "$LIMIT" "$MPIVERIFY" verify -o "$2.verify" \
		--deadlock-timeout "${VERIFY_TIMEOUT:-5}" -- "$MPIRUN" -np "$3" "$2"
	if test "$4" = 0; then
		expect_text "$1: verify: no deadlock" 0 "$2.verify.log" "no deadlock"
	else
		expect_text "$1: verify: confirmed" 1 "$2.verify.log" "$5"
	fi
}

# same_checks A ALOG B BLOG: two checks, into the directories A and B, whose reports are ALOG
# and BLOG, said the same (each directory's name read as OUT) and wrote the same
# counterexamples (cex*.json); appends what differs to WHY, and leaves the reports so read in
# ALOG.norm and BLOG.norm.
same_checks()
{
	local a=$1 alog=$2 b=$3 blog=$4 f
	sed "s|$a|OUT|g" "$alog" >"$alog.norm"
	sed "s|$b|OUT|g" "$blog" >"$blog.norm"
	cmp -s "$alog.norm" "$blog.norm" || WHY="${WHY:+$WHY; }the reports differ"
	for f in "$a"/cex*.json "$b"/cex*.json; do
		test -e "$f" || continue
		cmp -s "$a/${f##*/}" "$b/${f##*/}" || WHY="${WHY:+$WHY; }${f##*/} differs"
	done
}

# summary: the last line of every test script; returns 1 if anything failed.
summary()
{
	test -n "${OMPI_SESSIONS:-}" && rm -rf "$OMPI_SESSIONS"
	echo "$PASSED passed, $FAILED failed"
	test "$FAILED" -eq 0
}

# finish_work: the end of a script that worked in $WORK: the summary, then $WORK removed if
# everything passed (KEEP=1 keeps it), named if not; exits 0 or 1.
finish_work()
{
	if summary; then
		test -n "${KEEP:-}" || rm -rf "$WORK"
		exit 0
	fi
	echo "outputs kept in $WORK"
	exit 1
}
