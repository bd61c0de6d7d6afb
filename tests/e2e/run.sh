#!/bin/bash
# End-to-end tests (make check-e2e): every examples/**/*.c (and *.f90, with MPIFC) is compiled, recorded under the real
# mpirun, checked in each buffering mode its header names, and every deadlock found is replayed
# on the MPI library MPICC and MPIRUN name (MPICH by default; tests/lib.sh). The header states the expected outcomes (see tests/lib.sh, parse_header). Then the
# bad-input cases: missing and garbage traces, malformed and missing counterexamples.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or spin missing).
# KEEP=1 keeps the work directory under tests/out/ even when everything passed.
# E2E_EXAMPLES=PATTERN runs only the examples whose path under examples/ matches the extended
# regular expression PATTERN (and the bad-input cases), for a quick look at one feature.
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built

WORK=$(make_workdir e2e) || exit 1
mkdir -p "$BINDIR"
cd "$SRCDIR" || exit 1

# Safety nets: no case may hang the suite, whatever mpiverify does.
RECORD_LIMIT=90
CHECK_LIMIT=300
REPLAY_LIMIT=90
VERIFY_LIMIT=300

# same_from_start NAME TRACE OUT LOG RC ARGS...: check TRACE ARGS again with SPIN searching
# from the start (MPIVERIFY_SPIN_FROM_START), as check did before its own pass over the paths
# of one choice, into TRACE/OUT-spin: the same exit status RC, the same report (LOG, of the
# check into TRACE/OUT) and the same counterexamples. On MPICH's run only: the two ways are
# mpiverify's own search of a trace, whichever library made it, and the suite runs again on
# Open MPI (tests/run.sh), where they would add time and test nothing new.
same_from_start()
{
	local name=$1 trace=$2 out=$3 log=$4 rc=$5
	shift 5
	test "$MPI_LIB" = mpich || return 0
	rm -rf "$trace/$out-spin"
	run_cmd "$log.spin" "$CHECK_LIMIT" env MPIVERIFY_SPIN_FROM_START=1 "$MPIVERIFY" check \
		"$trace" "$@" -o "$trace/$out-spin"
	WHY=''
	test "$RC" -eq "$rc" || WHY="exit $RC, want $rc"
	same_checks "$trace/$out" "$log" "$trace/$out-spin" "$log.spin"
	if test -n "$WHY"; then
		diff "$log.norm" "$log.spin.norm" >"$log.spin.diff"
		fail "$name: the same with SPIN from the start" "$WHY" "$log.spin.diff"
	else
		pass "$name: the same with SPIN from the start"
	fi
}

# replay_expect NAME CEX PROGRAM LOG WANT WORDS: replay exits WANT with a line starting with
# WORDS, and leaves no process of PROGRAM behind.
replay_expect()
{
	run_cmd "$4" "$REPLAY_LIMIT" "$MPIVERIFY" replay --trace "$2" --deadlock-timeout 5
	if test "$RC" -ne "$5"; then
		fail "$1" "$(describe_rc "$RC"), want $5 ($6)" "$4"
	elif ! grep -q "^$6" "$4"; then
		fail "$1" "exit $5 but no line starting with '$6'" "$4"
	else
		pass "$1"
	fi
	check_leftovers "$1: no leftover processes" "$3"
}

# replay_case NAME CEX PROGRAM LOG: replay must reproduce the deadlock (exit 1, `reproduced`).
replay_case()
{
	replay_expect "$1" "$2" "$3" "$4" 1 reproduced
}

# check_warnings NAME LOG: the report of a check lists the warnings the header names (WARN),
# and none when it names none.
check_warnings()
{
	local kind pattern missing=''
	for kind in $WARN; do
		case $kind in
		unreceived) pattern='sent, never received' ;;
		truncated) pattern='truncated$' ;;
		uncompleted-request) pattern='request never completed' ;;
		unfreed-communicator) pattern='communicator never freed' ;;
		pending-at-disconnect) pattern='request still pending at the MPI_Comm_disconnect' ;;
		*) pattern="unknown warning kind $kind" ;;
		esac
		grep -q "$pattern" "$2" || missing="$missing $kind"
	done
	if test -n "$missing"; then
		fail "$1: warnings" "the report lacks the warning(s)$missing" "$2"
	elif test -z "$WARN" && grep -q '^warnings from the recorded run' "$2"; then
		fail "$1: warnings" "the report has warnings, the header names none" "$2"
	else
		pass "$1: warnings${WARN:+ ($WARN )}"
	fi
}

# replay_not_reproduced NAME CEX PROGRAM LOG: the program completes under replay (exit 0, `not
# reproduced`), as the example's header says the MPI library must.
replay_not_reproduced()
{
	replay_expect "$1" "$2" "$3" "$4" 0 'not reproduced'
}

# differential_case NAME TRACE DIR: note TRACE for the differential test after the examples
# (differential_all), with the eager threshold the header names (16 bytes if none). On MPICH's
# run only, as same_from_start: both models are mpiverify's, whichever library made the trace.
differential_case()
{
	local eager=eager:16 word
	test "$MPI_LIB" = mpich || return 0
	for word in $MODES; do
		case $word in eager:*) eager=${word%%=*} ;; esac
	done
	printf '%s\t%s\t%s\n' "$eager" "$2" "$1" >>"$WORK/differential.list"
}

# differential_all: the engine and the standalone Promela model (the model check --promela
# writes, through spin, cc and pan) find the same deadlocks in every recorded trace noted,
# without buffering, with it, and with its eager threshold; a mode it cannot take or search to
# the end is said, not agreed. oracles puts ten traces in one model, whose init chooses the
# trace and the mode (tests/tools/oracles.c), so that one compile of pan serves thirty
# searches: a model per trace and mode took 2.7 times as long over the examples. The plain
# model itself, one mode a #define, is searched through spin by hand in tests/promela/run.sh,
# and over every model case by make differential. pan gets 192 MB: every example whose search
# ends within 512 MB ends within 192 MB too (measured over all of them), and the two whose
# search does not (ok/threads-exchange, verify/send-modes-rounds) say so sooner. One result
# per example, as before: it passes if no comparison of its trace disagreed or failed.
differential_all()
{
	local list=$WORK/differential.list eager log rc trace name not note
	test -s "$list" || return 0
	for eager in $(cut -f1 "$list" | LC_ALL=C sort -u); do
		log=$WORK/differential-$eager.log
		rc=0
		"$BUILDDIR/tests/tools/oracles" case --modes "zero,infinite,$eager" --memory 192 \
			--work "$WORK/oracles-$eager" $(awk -F'\t' -v e="$eager" '$1 == e {print $2}' \
			"$list") >"$log" 2>&1 </dev/null || rc=$?
		case $rc in
		0 | 1) ;;
		*) fail "standalone model against the engine ($eager)" "oracles exited $rc" "$log" ;;
		esac
		while IFS=$'\t' read -r _ trace name; do
			if grep -q -F -e "DISAGREE: $trace " -e "FAIL: $trace" "$log"; then
				grep -F -A8 -e "DISAGREE: $trace " -e "FAIL: $trace" "$log" \
					>"$WORK/differential-failed.log"
				fail "$name: standalone model against the engine" "they disagree, or \
a search failed" "$WORK/differential-failed.log"
				continue
			fi
			not=$(grep -c -F "not comparable: $trace " "$log")
			note=
			test "$not" -gt 0 && note="; $not not comparable, below"
			pass "$name: standalone model agrees with the engine (zero, infinite, $eager$note)"
			grep -F "not comparable: $trace " "$log" | sed -e 's/^/    /'
		done < <(awk -F'\t' -v e="$eager" '$1 == e' "$list")
	done
}

# fortran_sites_case NAME SOURCE LOG: every call site of the report (its "at FILE:LINE" lines)
# is a line of SOURCE that calls MPI, not the MPI library's Fortran binding or another file.
fortran_sites_case()
{
	local name=$1 src=$2 log=$3 base bad='' n=0 line at
	base=$(basename "$src")
	while IFS= read -r at; do
		n=$((n + 1))
		line=$(printf '%s\n' "$at" | sed -n "s/^at $base:\([0-9]*\) .*/\1/p")
		if test -z "$line" || ! sed -n "${line}p" "$src" | grep -q 'call MPI_'; then
			bad="$bad '$at'"
		fi
	done < <(sed -n 's/^ *\(at .*\)/\1/p' "$log" | sed 's/, event [0-9]*$//')
	if test "$n" -eq 0; then
		fail "$name: call sites in $base" "the report names no call site" "$log"
	elif test -n "$bad"; then
		fail "$name: call sites in $base" "not an MPI call of $base:$bad" "$log"
	else
		pass "$name: call sites in $base ($n, each a 'call MPI_' line)"
	fi
}

# compile_example SOURCE PROGRAM LOG: compile a C example with MPICC, a Fortran one with MPIFC.
compile_example()
{
	case $1 in
	*.f90) "$MPIFC" -g -O0 -Wall $MPIFC_FLAGS -o "$2" "$1" </dev/null >"$3" 2>&1 ;;
	*) "$MPICC" -g -O0 -Wall -pthread -o "$2" "$1" </dev/null >"$3" 2>&1 ;;
	esac
}

# example_cases SOURCE: every case of one example.
example_cases()
{
	local src=$1 name prog dir trace log want mode expect i missing cc=$MPICC
	name=${src#examples/}
	name=${name%.*}
	case $src in
	*.f90)
		cc=$MPIFC
		if ! command -v "$MPIFC" >/dev/null 2>&1; then
			echo "skipped $name: no Fortran compiler '$MPIFC' (Debian: gfortran)"
			return
		fi
		;;
	esac
	prog=$BINDIR/$(basename "$name")
	dir=$WORK/$name		# the logs
	trace=$dir/trace	# the trace; check writes into trace/check-MODE

	if ! parse_header "$src" >"$WORK/header.log"; then
		fail "$name: header" "malformed expectation header" "$WORK/header.log"
		return
	fi
	if test -n "$MPI_MIN" && test "$(mpi_version)" -lt "$MPI_MIN"; then
		echo "skipped $name: it calls MPI-$MPI_MIN, $MPI_TITLE's mpi.h is MPI-$(mpi_version)"
		return
	fi
	mkdir -p "$dir"

	log=$dir/compile.log
	if ! compile_example "$src" "$prog" "$log"; then
		fail "$name: compile" "$cc failed" "$log"
		return
	fi
	if test -s "$log"; then
		fail "$name: compile" "warnings from '$cc -g -Wall'" "$log"
	else
		pass "$name: compile"
	fi

	# record: the launcher's status for a run that completes (not 0 for one that failed: a
	# rank aborted or crashed), 1 for one that deadlocks
	log=$dir/record.log
	rm -rf "$trace"
	run_cmd "$log" "$RECORD_LIMIT" "$MPIVERIFY" record -o "$trace" --deadlock-timeout 2 \
		-- "$MPIRUN" -np "$NP" "$prog"
	want=0
	test "$RECORD" = hang && want=1
	if test "$RECORD" = any; then
		if test "$RC" -eq 0 || test "$RC" -eq 1; then
			pass "$name: record (record=any, exit $RC)"
		else
			fail "$name: record (record=any)" "$(describe_rc "$RC"), want 0 or 1" "$log"
		fi
	elif test "$RECORD" = fail; then
		if test "$RC" -eq 0 || test "$RC" -eq 124 || test "$RC" -eq 4; then
			fail "$name: record (record=fail)" "$(describe_rc "$RC"), want the failed run's status" "$log"
		else
			pass "$name: record (record=fail, exit $RC)"
		fi
	elif test "$RC" -ne "$want"; then
		fail "$name: record (record=$RECORD)" "$(describe_rc "$RC"), want $want" "$log"
	else
		pass "$name: record (record=$RECORD)"
	fi
	if test "$RECORD" = hang; then
		# every rank is stuck: record names each one's blocked MPI call
		missing=''
		for ((i = 0; i < NP; i++)); do
			grep -q "rank $i\\b.*MPI_" "$log" || missing="$missing $i"
		done
		if test -n "$missing"; then
			fail "$name: record reports blocked calls" \
				"no 'rank N ... MPI_call' line for rank(s)$missing" "$log"
		else
			pass "$name: record reports blocked calls"
		fi
		check_leftovers "$name: record: no leftover processes" "$prog"
	fi
	missing=''
	for ((i = 0; i < NP; i++)); do
		test -s "$trace/rank-$i.mpivt" || missing="$missing rank-$i.mpivt"
	done
	test -s "$trace/meta.json" || missing="$missing meta.json"
	if test -n "$missing"; then
		fail "$name: trace files" "missing or empty:$missing" "$log"
		return
	fi
	pass "$name: trace files"

	log=$dir/trace.json
	run_cmd "$log" 60 "$MPIVERIFY" trace "$trace"
	if test "$RC" -ne 0 || ! grep -q '[{[]' "$log"; then
		fail "$name: trace" "$(describe_rc "$RC"), want 0 and JSON" "$log"
	else
		pass "$name: trace"
	fi
	differential_case "$name" "$trace" "$dir"

	for i in $MODES; do
		mode=${i%%=*}
		expect=${i#*=}
		want=$(expected_exit "$expect")
		log=$dir/check-$mode.log
		rm -rf "$trace/check-$mode"
		run_cmd "$log" "$CHECK_LIMIT" "$MPIVERIFY" check "$trace" --buffering "$mode" \
			-o "$trace/check-$mode"
		if test "$RC" -ne "$want"; then
			fail "$name: check --buffering $mode (expect=$expect)" \
				"$(describe_rc "$RC"), want $want" "$log"
		else
			pass "$name: check --buffering $mode (expect=$expect)"
		fi
		same_from_start "$name ($mode)" "$trace" "check-$mode" "$log" "$RC" \
			--buffering "$mode"
		check_warnings "$name" "$log"
		if test "$expect" = inconclusive; then
			if grep -q 'ranks that did not finish' "$log"; then
				pass "$name: report lists the ranks that did not finish ($mode)"
			else
				fail "$name: report lists the ranks that did not finish ($mode)" \
					"no 'ranks that did not finish' in the report" "$log"
			fi
		fi
		test "$RC" -eq 1 || continue
		# a deadlock was found: it has a counterexample, points at the source, and replays
		if ! test -s "$trace/check-$mode/cex.json"; then
			fail "$name: cex.json ($mode)" "check exited 1 but wrote no cex.json" "$log"
			continue
		fi
		if grep -q "$(basename "$src"):[0-9]" "$log"; then
			pass "$name: report names file:line ($mode)"
		else
			fail "$name: report names file:line ($mode)" \
				"no '$(basename "$src"):LINE' in the report" "$log"
		fi
		case $src in
		*.f90) fortran_sites_case "$name ($mode)" "$src" "$log" ;;
		esac
		if test -n "$MATCHES"; then
			case $MATCHES in
			recorded) pattern='lead there too: it needs no other' ;;
			*) pattern='the recorded run made others: it needs these' ;;
			esac
			if grep -q "$pattern" "$log"; then
				pass "$name: report says the matches needed ($mode, $MATCHES)"
			else
				fail "$name: report says the matches needed ($mode, $MATCHES)" \
					"no '$pattern' in the report" "$log"
			fi
		fi
		if test "$REPLAY" = not-reproduced; then
			replay_not_reproduced "$name: replay ($mode, not reproduced on $MPI_TITLE)" \
				"$trace/check-$mode/cex.json" "$prog" "$dir/replay-$mode.log"
			continue
		fi
		if test "$REPLAY" = diverged; then
			replay_expect "$name: replay ($mode, the program takes another path)" \
				"$trace/check-$mode/cex.json" "$prog" "$dir/replay-$mode.log" 5 \
				diverged
			continue
		fi
		replay_case "$name: replay ($mode)" "$trace/check-$mode/cex.json" "$prog" \
			"$dir/replay-$mode.log"
	done
	test -z "$VERIFY" || verify_case "$name" "$prog" "$src" "$dir"
}

# verify_case NAME PROGRAM SOURCE DIR: `mpiverify verify` on the example, run at most
# VERIFY_RUNS times, gives the verdict of its header (VERIFY), names file:line for a
# deadlock, and leaves no process behind.
verify_case()
{
	local name=$1 prog=$2 src=$3 dir=$4 log=$4/verify.log runs want
	want=$(expected_exit "$VERIFY")
	rm -rf "$dir/verify"
	run_cmd "$log" "$VERIFY_LIMIT" "$MPIVERIFY" verify -o "$dir/verify" --deadlock-timeout 2 \
		--jobs 1 ${VERIFY_RUNS:+--max-runs "$VERIFY_RUNS"} --json -- "$MPIRUN" -np "$NP" \
		"$prog"
	if test "$RC" -ne "$want"; then
		fail "$name: verify (verify=$VERIFY)" "$(describe_rc "$RC"), want $want" "$log"
	else
		pass "$name: verify (verify=$VERIFY)"
	fi
	runs=$(sed -n 's/^ *"runs": \([0-9]*\),$/\1/p' "$log" | head -n 1)
	if test -n "$VERIFY_RUNS"; then
		if test -n "$runs" && test "$runs" -le "$VERIFY_RUNS"; then
			pass "$name: verify takes at most $VERIFY_RUNS runs ($runs)"
		else
			fail "$name: verify takes at most $VERIFY_RUNS runs" "${runs:-no count} runs" \
				"$log"
		fi
	fi
	# an inconclusive answer says why, as words a script tests (doc/verify.md)
	if test "$VERIFY" = inconclusive && test "$RC" -eq 5; then
		if grep -qE '^  "inconclusive": \[' "$log" &&
			sed -n '/^  "inconclusive": \[/,/\]/p' "$log" |
			grep -qE '"(decisions-left|search-cut|unconfirmed|threads-unsteered|polls-unsteered|calls-left-out|ranks-stopped)"'; then
			pass "$name: verify --json says why it is inconclusive"
		else
			fail "$name: verify --json says why it is inconclusive" \
				"no \"inconclusive\" reasons" "$log"
		fi
	fi
	if test "$VERIFY" = deadlock || test "$VERIFY" = crash; then
		if grep -q "$(basename "$src"):[0-9]" "$log"; then
			pass "$name: verify names file:line"
		else
			fail "$name: verify names file:line" "no '$(basename "$src"):LINE'" "$log"
		fi
	fi
	# a crash is a finding of its own kind, with the stack down to the program's line
	if test "$VERIFY" = crash; then
		if grep -q '"kind": "crash"' "$log" && grep -q "$(basename "$src"):[0-9]* (main)" "$log"
		then
			pass "$name: verify reports a crash, with its stack"
		else
			fail "$name: verify reports a crash, with its stack" \
				"no crash finding with a frame in main" "$log"
		fi
	fi
	check_leftovers "$name: verify: no leftover processes" "$prog"
	# with one run after the first at most, no round can ask for two, and --jobs 2 makes the
	# runs --jobs 1 made, one after another
	test "${runs:-0}" -le 2 || verify_jobs_case "$name" "$prog" "$dir" "$log"
}

# verify_answer LOG: what must not depend on --jobs in verify --json's answer: the verdict,
# the decisions left, and the calls (file:line) of every deadlock confirmed, sorted.
verify_answer()
{
	sed -n 's/^  "verdict": \(.*\),$/verdict \1/p; s/^ *"decisions_left": \(.*\),$/left \1/p' "$1"
	grep -o 'blocked in MPI_[A-Za-z_]* ([^)]*) at [^ ]*:[0-9]*' "$1" |
		sed 's/ (event [0-9]*)//' | LC_ALL=C sort -u
}

# verify_jobs_case NAME PROGRAM DIR LOG: verify --jobs 2 gives the answer --jobs 1 gave (LOG),
# with two runs under way at once. On MPICH's pass only: how verify schedules its runs does not
# depend on the library.
verify_jobs_case()
{
	local name=$1 prog=$2 dir=$3 log1=$4 log=$3/verify-jobs2.log
	test "$MPI_LIB" = mpich || return 0
	rm -rf "$dir/verify2"
	run_cmd "$log" "$VERIFY_LIMIT" "$MPIVERIFY" verify -o "$dir/verify2" --deadlock-timeout 2 \
		--jobs 2 ${VERIFY_RUNS:+--max-runs "$VERIFY_RUNS"} --json -- "$MPIRUN" -np "$NP" \
		"$prog"
	verify_answer "$log1" >"$dir/answer-jobs1"
	verify_answer "$log" >"$dir/answer-jobs2"
	if ! grep -q '^verdict' "$dir/answer-jobs2"; then
		fail "$name: verify --jobs 2" "$(describe_rc "$RC"), no answer" "$log"
	elif cmp -s "$dir/answer-jobs1" "$dir/answer-jobs2"; then
		pass "$name: verify --jobs 2 answers as --jobs 1"
	else
		diff "$dir/answer-jobs1" "$dir/answer-jobs2" >"$dir/answer-diff"
		fail "$name: verify --jobs 2 answers as --jobs 1" "the answers differ" \
			"$dir/answer-diff"
	fi
	case $(runs_overlap "$log") in
	overlap) pass "$name: verify --jobs 2 had two runs under way at once" ;;
	alone) pass "$name: verify --jobs 2: no round asked for two runs" ;;
	*) fail "$name: verify --jobs 2 had two runs under way at once" \
		"a round asked for several runs, made one after another" "$log" ;;
	esac
	check_leftovers "$name: verify --jobs 2: no leftover processes" "$prog"
}

# runs_overlap LOG: "overlap" if two runs of verify --json's answer were under way at the same
# time, "alone" if no round (the runs one search asked for) had two runs, else "sequential".
runs_overlap()
{
	awk '/"round": / { gsub(/[^0-9]/, ""); round[n] = $0 }
		/"started": / { gsub(/[^0-9.]/, ""); start[n] = $0 + 0 }
		/"ended": / { gsub(/[^0-9.]/, ""); end[n] = $0 + 0; n++ }
		END {
			several = 0; overlap = 0
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++) {
					if (round[i] == round[j])
						several = 1
					if (start[i] < end[j] && start[j] < end[i])
						overlap = 1
				}
			print overlap ? "overlap" : several ? "sequential" : "alone"
		}' "$1"
}

# ---- the examples ----
# how long each example took, for the slowest ones' list at the end
: >"$WORK/times"
while IFS= read -r src; do
	started=$SECONDS
	example_cases "$src"
	echo "$((SECONDS - started)) $src" >>"$WORK/times"
done < <(find examples -name '*.c' -o -name '*.f90' | LC_ALL=C sort |
	grep -E -- "${E2E_EXAMPLES:-.}")
differential_all

# ---- bad input ----
BAD=$WORK/bad
mkdir -p "$BAD"

# expect_exit NAME WANT LOG [PATTERN]: the last run_cmd exited WANT and LOG matches PATTERN.
expect_exit()
{
	if test "$RC" -ne "$2"; then
		fail "$1" "$(describe_rc "$RC"), want $2" "$3"
	elif test -n "${4:-}" && ! grep -q -- "$4" "$3"; then
		fail "$1" "exit $2 but the message does not name '$4'" "$3"
	else
		pass "$1"
	fi
}

run_cmd "$BAD/missing.log" 60 "$MPIVERIFY" check "$BAD/no-such-trace" -o "$BAD/missing-check"
expect_exit "bad input: check on a missing directory" 3 "$BAD/missing.log" "no-such-trace"

# A real trace (any example's that was recorded) with rank 0's file replaced by garbage; a
# directory holding only the garbage file if no recording worked.
good=$(find "$WORK" -name meta.json -path '*/trace/*' | LC_ALL=C sort | head -n 1)
if test -n "$good"; then
	cp -r "$(dirname "$good")" "$BAD/garbage"
	rm -rf "$BAD"/garbage/check-*
else
	mkdir -p "$BAD/garbage"
fi
printf 'this is not an mpiverify trace\n' >"$BAD/garbage/rank-0.mpivt"
run_cmd "$BAD/garbage.log" 60 "$MPIVERIFY" check "$BAD/garbage" -o "$BAD/garbage-check"
expect_exit "bad input: check on a garbage rank-0.mpivt" 3 "$BAD/garbage.log" "rank-0.mpivt"

printf '{"format": "mpiverify-cex", "version": 1, "ranks": \n' >"$BAD/truncated-cex.json"
run_cmd "$BAD/cex-json.log" 60 "$MPIVERIFY" replay --trace "$BAD/truncated-cex.json" --timeout 5
expect_exit "bad input: replay of a cex.json that is not JSON" 3 "$BAD/cex-json.log" \
	"truncated-cex.json"

printf '{"format": "something-else", "version": 1}\n' >"$BAD/wrong-format-cex.json"
run_cmd "$BAD/cex-format.log" 60 "$MPIVERIFY" replay --trace "$BAD/wrong-format-cex.json" \
	--timeout 5
expect_exit "bad input: replay of a cex.json of another format" 3 "$BAD/cex-format.log" \
	"wrong-format-cex.json"

run_cmd "$BAD/cex-missing.log" 60 "$MPIVERIFY" replay --trace "$BAD/no-such-cex.json" --timeout 5
expect_exit "bad input: replay of a missing cex.json" 3 "$BAD/cex-missing.log" "no-such-cex.json"

# unmodelled MODE CALL TEXT: a program using CALL is recorded, and check leaves out the
# calls of a rank from CALL on, saying TEXT, inconclusive (exit 5; tests/e2e/programs/
# unmodelled.c)
unmodelled()
{
	local mode=$1 call=$2 text=$3

	run_cmd "$BAD/$mode-record.log" 60 "$MPIVERIFY" record -o "$BAD/$mode" --deadlock-timeout 5 \
		-- "$MPIRUN" -np 2 "$BINDIR/unmodelled" "$mode"
	expect_exit "unmodelled call: record of a program using $call" 0 "$BAD/$mode-record.log"
	run_cmd "$BAD/$mode-check.log" 120 "$MPIVERIFY" check "$BAD/$mode" -o "$BAD/$mode/check"
	expect_exit "unmodelled call: check leaves out the calls from $call on" 5 \
		"$BAD/$mode-check.log" "$text" &&
		expect_exit "unmodelled call: check says it left them out" 5 \
			"$BAD/$mode-check.log" "was left out from its event"
	# verify leaves them out the same way: inconclusive, with the reason a script tests
	run_cmd "$BAD/$mode-verify.log" 120 "$MPIVERIFY" verify --json -o "$BAD/$mode-verify" \
		--deadlock-timeout 5 -- "$MPIRUN" -np 2 "$BINDIR/unmodelled" "$mode"
	expect_exit "unmodelled call: verify leaves out the calls from $call on" 5 \
		"$BAD/$mode-verify.log" "$text" &&
		expect_exit "unmodelled call: verify says why it is inconclusive" 5 \
			"$BAD/$mode-verify.log" '"calls-left-out"'
}
if "$MPICC" -g -O0 -o "$BINDIR/unmodelled" "$SRCDIR/tests/e2e/programs/unmodelled.c" \
	>"$BAD/unmodelled-cc.log" 2>&1; then
	unmodelled intercomm MPI_Comm_split \
		"MPI_Comm_split of an intercommunicator, which check cannot judge yet"
	unmodelled persistent-cancel MPI_Cancel "MPI_Cancel of request 0: "
	if test "$(mpi_version)" -ge 4; then
		unmodelled partitioned MPI_Parrived \
			"MPI_Parrived of request 0, whose sender waits for another rank between"
		unmodelled large-count MPI_Send_c \
			"the trace uses MPI_Send_c with a count past 2^31 - 1, which check cannot"
		unmodelled large-count-arrays MPI_Allgatherv_c \
			"the trace uses MPI_Allgatherv_c with a count past 2^31 - 1, which check"
	fi
else
	fail "unmodelled call: compile" "mpicc failed" "$BAD/unmodelled-cc.log"
fi

# ---- the command line ----
run_cmd "$BAD/version.log" 10 "$MPIVERIFY" --version
expect_exit "cli: --version" 0 "$BAD/version.log" "mpiverify"
run_cmd "$BAD/help.log" 10 "$MPIVERIFY" help
expect_exit "cli: help" 0 "$BAD/help.log" "record"
usage_dir=$BAD/garbage
test -n "$good" && usage_dir=$(dirname "$good")
run_cmd "$BAD/usage.log" 10 "$MPIVERIFY" check --buffering sometimes "$usage_dir"
expect_exit "cli: check --buffering sometimes is a usage error" 2 "$BAD/usage.log"

# usage_case NAME LOG WANT ARGS...: mpiverify ARGS is a usage error (exit 2) saying WANT, then
# "try 'mpiverify <command> --help'", the same way for every command (cli/options.c).
usage_case()
{
	local name=$1 log=$2 want=$3 cmd=$4
	shift 3
	run_cmd "$log" 10 "$MPIVERIFY" "$@"
	expect_exit "$name" 2 "$log" "^mpiverify: $want\$" &&
		expect_exit "$name: points to the help" 2 "$log" "^try 'mpiverify $cmd --help'\$"
}
for cmd in verify record check replay trace; do
	usage_case "cli: $cmd --foo" "$BAD/usage-$cmd-foo.log" "unknown option '--foo'" \
		"$cmd" --foo
	usage_case "cli: $cmd -Z" "$BAD/usage-$cmd-Z.log" "unknown option '-Z'" "$cmd" -Z
	usage_case "cli: $cmd --help=x" "$BAD/usage-$cmd-help.log" \
		"option '--help' takes no value" "$cmd" --help=x
done
usage_case "cli: record -o without a value" "$BAD/usage-record-o.log" \
	"option '-o' needs a value" record -o
usage_case "cli: check --buffering without a value" "$BAD/usage-check-buffering.log" \
	"option '--buffering' needs a value" check --buffering
usage_case "cli: replay --trace without a value" "$BAD/usage-replay-trace.log" \
	"option '--trace' needs a value" replay --trace
usage_case "cli: trace -r without a value" "$BAD/usage-trace-r.log" \
	"option '-r' needs a value" trace -r
usage_case "cli: verify without a launcher" "$BAD/usage-verify-none.log" \
	"no launcher command given (for example: mpiverify verify -- mpirun -np 2 ./app)" verify
usage_case "cli: verify --max-runs 0" "$BAD/usage-verify-runs.log" \
	"invalid --max-runs '0': expected a positive number" verify --max-runs 0 -- x
usage_case "cli: verify --buffering sometimes" "$BAD/usage-verify-buffering.log" \
	"invalid --buffering 'sometimes': expected zero, infinite, eager:BYTES or all" verify \
	--buffering sometimes -- x

# verify of what runs no MPI program under the recorder, or of no launcher at all: a tool
# failure (exit 4), never a verdict
run_cmd "$BAD/verify-true.log" 60 "$MPIVERIFY" verify -o "$BAD/verify-true" -- "$MPIRUN" -np 2 true
expect_exit "verify: a program that writes no trace is a tool failure" 4 "$BAD/verify-true.log" \
	"no rank wrote a trace"
run_cmd "$BAD/verify-nolauncher.log" 10 "$MPIVERIFY" verify -o "$BAD/verify-none" -- \
	no-such-launcher-here
expect_exit "verify: a launcher that cannot run is a tool failure" 4 \
	"$BAD/verify-nolauncher.log" "no-such-launcher-here"

# verify's text answer names each decision at its call, and a second verify into the same
# directory replaces the first one's runs
prog=$BINDIR/first-sender-branch
if test -x "$prog"; then
	for i in 1 2; do
		run_cmd "$BAD/verify-again-$i.log" "$VERIFY_LIMIT" "$MPIVERIFY" verify \
			-o "$BAD/verify-again" --deadlock-timeout 2 -- "$MPIRUN" -np 3 "$prog"
	done
	expect_exit "verify: a second verify into the same directory" 1 "$BAD/verify-again-2.log" \
		"^verdict: 1 deadlock confirmed"
	expect_exit "verify: the decisions are named at their calls" 1 "$BAD/verify-again-2.log" \
		"rank 0: MPI_Recv(source=ANY, .*) at first-sender-branch.c:[0-9]* (main) takes rank 2's message"
	if test "$(find "$BAD/verify-again/runs" -name '*.steer' | wc -l)" -eq 1; then
		pass "verify: the earlier verify's runs are gone"
	else
		fail "verify: the earlier verify's runs are gone" "steering files of both" \
			"$BAD/verify-again-2.log"
	fi
fi

# verify's line for a run in which ranks stopped names the one that stopped of itself (it
# called MPI_Abort), not a rank the launcher killed after it
log=$WORK/stopped/abort-before-send/verify.log
want='"stopped": "rank 1 called MPI_Abort with error code 3; [12] other ranks\? did not finish'
if ! test -f "$log"; then
	: # the example did not run (E2E_EXAMPLES)
elif grep -q -- "$want" "$log"; then
	pass "verify: the rank that stopped of itself is named"
else
	fail "verify: the rank that stopped of itself is named" "no '$want'" "$log"
fi

echo "slowest examples (seconds):"
sort -rn "$WORK/times" | head -n 8 | sed -e 's/^/    /'
finish_work
