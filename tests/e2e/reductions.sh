#!/bin/bash
# The reduction check (record --check-reductions), end to end with the real mpirun (make
# check). A faulty MPI library preloaded before libmpi (programs/faulty-mpi.c: its
# PMPI_Allreduce, PMPI_Reduce, PMPI_Scan and PMPI_Iallreduce damage one element on rank 1)
# must be caught on every operation and every family of types it is defined on
# (programs/red-families.c), with MPI_IN_PLACE, a derived datatype, user-defined operations
# commutative or not, a nonblocking reduction checked at its completion and a communicator of
# one member (programs/red-cases.c): the recorder prints each at once, check reports it with
# the rank and exits 1. Without the fault, or without the option, nothing is reported; a
# failing library is reported as such; =correct gives the program the right results; and a
# correct program whose sums round differently in the library's order and in rank order
# (programs/red-rounding.c) is reported only with a tolerance of 0.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or spin missing).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built

WORK=$(make_workdir reductions) || exit 1
LIMIT=120
FAULTY=$WORK/faulty-mpi.so

# compile NAME: tests/e2e/programs/NAME.c into $WORK/NAME, warning-free.
compile()
{
	local log=$WORK/$1.cc.log
	if "$MPICC" -g -O0 -Wall -o "$WORK/$1" "$SRCDIR/tests/e2e/programs/$1.c" \
		</dev/null >"$log" 2>&1 && ! test -s "$log"; then
		pass "compile $1"
	else
		fail "compile $1" "$MPICC failed or warned" "$log"
		return 1
	fi
}

# record NAME NP PROGRAM [OPTION]: record PROGRAM on NP ranks into $WORK/NAME (the program's
# and the recorder's output in $WORK/NAME.log); the faulty library is preloaded when FAULT is
# set, in its mode FAULT (corrupt, fail). RC: record's exit status.
record()
{
	local name=$1 np=$2 prog=$3
	shift 3
	if test -n "${FAULT:-}"; then
		run_cmd "$WORK/$name.log" "$LIMIT" env LD_PRELOAD="$FAULTY" FAULTY_MPI_MODE="$FAULT" \
			"$MPIVERIFY" record -o "$WORK/$name" "$@" -- "$MPIRUN" -np "$np" "$WORK/$prog"
	else
		run_cmd "$WORK/$name.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/$name" "$@" -- \
			"$MPIRUN" -np "$np" "$WORK/$prog"
	fi
	if test "$RC" -ne 0; then
		fail "$name: record" "exit $RC, want 0 (the program's own)" "$WORK/$name.log"
		return 1
	fi
}

# check NAME [OPTION]: check $WORK/NAME into $WORK/NAME.check (text) and NAME.json (--json);
# RC: the text run's exit status, JRC the JSON run's.
check()
{
	run_cmd "$WORK/$1.json" "$LIMIT" "$MPIVERIFY" check --json "$WORK/$1" -o "$WORK/$1.out"
	JRC=$RC
	run_cmd "$WORK/$1.check" "$LIMIT" "$MPIVERIFY" check "$WORK/$1" -o "$WORK/$1.out"
}

# verdict NAME WHY: pass if WHY is empty, else fail with it (showing $WORK/NAME.check).
verdict()
{
	if test -z "$2"; then
		pass "$1"
	else
		fail "$1" "$2" "$WORK/${1%%:*}.check"
	fi
}

# clean NAME: nothing reported, at record or check time; check exits 0.
clean()
{
	local why=''
	grep -q 'mpiverify\[recorder.*reduction' "$WORK/$1.log" &&
		why="the recorder reported a reduction"
	test "$RC" -eq 0 || why="${why:+$why; }check exit $RC, want 0"
	grep -q -E 'in reductions|reductions not checked' "$WORK/$1.check" &&
		why="${why:+$why; }check reports a reduction"
	grep -q '"kind": "reduction' "$WORK/$1.json" &&
		why="${why:+$why; }check --json reports a reduction"
	verdict "$1: nothing reported" "$why"
}

# count PATTERN FILE: lines matching PATTERN (grep -E).
count() { grep -c -E -- "$1" "$2"; }

cd "$WORK" || exit 1
compile red-families || exit 1
compile red-cases || exit 1
compile red-rounding || exit 1
if "$MPICC" -Wall -shared -fPIC -o "$FAULTY" "$SRCDIR/tests/e2e/programs/faulty-mpi.c" \
	</dev/null >"$WORK/faulty.cc.log" 2>&1 && ! test -s "$WORK/faulty.cc.log"; then
	pass "compile faulty-mpi.so"
else
	fail "compile faulty-mpi.so" "$MPICC failed or warned" "$WORK/faulty.cc.log"
	summary
	exit
fi

# ---- every operation on every family of types: clean, then with the faulty library ----
if FAULT='' record fam-clean 2 red-families --check-reductions; then
	check fam-clean
	clean fam-clean
fi

if FAULT=corrupt record fam-faulty 2 red-families --check-reductions; then
	check fam-faulty
	want=$(count '^reduction ' fam-faulty.log)
	why=''
	test "$want" -ge 100 || why="the program ran $want reductions, want every combination"
	test "$RC" -eq 1 || why="${why:+$why; }check exit $RC, want 1"
	test "$JRC" -eq 1 || why="${why:+$why; }check --json exit $JRC, want 1"
	got=$(count '^  rank 1 .*elements differ' fam-faulty.check)
	test "$got" -eq "$want" || why="${why:+$why; }$got mismatches reported, want $want"
	test "$(count '^  rank 0 ' fam-faulty.check)" -eq 0 ||
		why="${why:+$why; }a mismatch reported on rank 0, which the library did not damage"
	test "$(count '"kind": "reduction-mismatch"' fam-faulty.json)" -eq "$want" ||
		why="${why:+$why; }not $want entries of kind reduction-mismatch in --json"
	verdict "fam-faulty: $want damaged reductions reported, one each" "$why"
	# each one by name: the call, the operation and the type the program says it ran
	missing=''
	while read -r _ call op type; do
		grep -F "  rank 1 $call(" fam-faulty.check | grep -q -F ": $op on $type: " ||
			missing="$missing $call/$op/$type"
	done < <(grep '^reduction ' fam-faulty.log)
	verdict "fam-faulty: each operation and type caught" \
		"${missing:+not reported:$missing}"
	# at once, by the recorder, with file:line: the first ten, then a line saying so
	grep -q -E '^mpiverify\[recorder rank 1\]: reduction mismatch: MPI_Allreduce at red-families\.c:[0-9]+ \(run\), event 1: MPI_MAX on MPI_INT: 1 of 4 elements differ; the first is element 1 \(MPI_INT\): library 5, reliable 4 \(compared exactly\)$' \
		fam-faulty.log && test "$(count '^mpiverify\[recorder rank 1\]: reduction mismatch' fam-faulty.log)" -eq 10 &&
		grep -q 'further reduction findings are written to the trace only' fam-faulty.log
	verdict "fam-faulty: the recorder prints them at once, with file:line" \
		"$(test $? -eq 0 || echo "not the first 10 lines in the recorded run's output")"
	# the trace as JSON (mpiverify trace -o) keeps the findings
	mkdir -p "$WORK/fam-json"
	run_cmd "$WORK/fam-json.log" "$LIMIT" "$MPIVERIFY" trace -o "$WORK/fam-json" "$WORK/fam-faulty"
	check fam-json
	verdict "fam-json: the findings survive the JSON form" \
		"$(test "$RC" -eq 1 && test "$(count '^  rank 1 .*elements differ' fam-json.check)" -eq "$want" ||
			echo "check exit $RC, $(count '^  rank 1 .*elements differ' fam-json.check) mismatches, want 1 and $want")"
fi

# the same damage, unchecked: nothing says so (the report is the check's)
if FAULT=corrupt record fam-unchecked 2 red-families; then
	check fam-unchecked
	clean fam-unchecked
fi

# a library that fails: each failure reported with the library's error
if FAULT=fail record fam-fail 2 red-families --check-reductions; then
	check fam-fail
	want=$(count '^reduction ' fam-fail.log)
	got=$(count '^  rank 1 .*the library returned error [0-9]+: ' fam-fail.check)
	verdict "fam-fail: $want failed reductions reported" \
		"$(test "$RC" -eq 1 && test "$got" -eq "$want" &&
			test "$(count '"kind": "reduction-failed"' fam-fail.json)" -eq "$want" ||
			echo "check exit $RC, $got failures reported, want 1 and $want")"
fi

# ---- MPI_IN_PLACE, derived datatypes, user-defined operations, nonblocking ----
if FAULT='' record cases-clean 3 red-cases --check-reductions; then
	check cases-clean
	clean cases-clean
	verdict "cases-clean: every result right under the check" \
		"$(grep -q 'result wrong' cases-clean.log && echo 'a result is wrong')"
fi

if FAULT=corrupt record cases-faulty 3 red-cases --check-reductions; then
	check cases-faulty
	missing=''
	while read -r _ name call; do
		grep -q -E "^  rank 1 $call\(.*\(case_$name\), event [0-9]+.*elements differ" \
			cases-faulty.check || missing="$missing $name/$call"
	done < <(grep '^case ' cases-faulty.log)
	verdict "cases-faulty: each case caught ($(grep -c '^case ' cases-faulty.log) cases)" \
		"$(test "$RC" -eq 1 || echo "check exit $RC, want 1; ")${missing:+not reported:$missing}"
	# the damage reaches the program: it is what the check is for
	verdict "cases-faulty: the program sees the damaged results" \
		"$(test "$(count '^rank 1 .*result wrong' cases-faulty.log)" -eq 6 || echo 'not 6 wrong results on rank 1')"
	verdict "cases-faulty: a nonblocking reduction is checked at its completion" \
		"$(grep -q -E '^  rank 1 MPI_Iallreduce\(.*\(case_nonblocking\), event [0-9]+, checked at event [0-9]+ \(MPI_Wait\)' cases-faulty.check &&
			grep -q -E '^  rank 1 MPI_Iallreduce\(.*\(case_others\), event [0-9]+, checked at event [0-9]+ \(MPI_Waitsome\)' cases-faulty.check ||
			echo 'no line checked at MPI_Wait and MPI_Waitsome')"
	verdict "cases-faulty: the user-defined operations say whether they commute" \
		"$(grep -q 'user-defined (not commutative) on derived' cases-faulty.check &&
			grep -q 'user-defined (commutative) on derived' cases-faulty.check ||
			echo 'no line naming a derived datatype under each kind of user-defined operation')"
fi

if FAULT=corrupt record cases-correct 3 red-cases --check-reductions=correct; then
	check cases-correct
	n=$(count '^  rank 1 .*elements differ.*written over' cases-correct.check)
	verdict "cases-correct: the program gets the reliable results" \
		"$(grep -q 'result wrong' cases-correct.log && echo 'a result is wrong'
			test "$RC" -eq 1 && test "$n" -ge 6 || echo "check exit $RC, $n corrected mismatches")"
fi

# ---- rounding: a correct library's order is not a fault ----
if FAULT='' record rounding 4 red-rounding --check-reductions; then
	if grep -q '^rank order and library differ' rounding.log; then
		pass "rounding: the library's sums and rank order's differ"
	else
		fail "rounding: the library's sums and rank order's differ" \
			"they agree: the case shows nothing" "$WORK/rounding.log"
	fi
	check rounding
	clean rounding
fi
if FAULT='' record rounding-exact 4 red-rounding --check-reductions=0; then
	check rounding-exact
	verdict "rounding-exact: with a tolerance of 0 the difference is reported" \
		"$(test "$RC" -eq 1 && grep -q 'MPI_SUM on MPI_DOUBLE: .* by the given tolerance' rounding-exact.check ||
			echo "check exit $RC, or no mismatch within the given tolerance")"
fi

# ---- the option's values ----
for bad in abc -1 correct,detect 1,2; do
	run_cmd "$WORK/bad.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/bad" \
		"--check-reductions=$bad" -- "$MPIRUN" -np 1 true
	if test "$RC" -eq 2 && grep -q "invalid --check-reductions '$bad'" "$WORK/bad.log"; then
		pass "--check-reductions=$bad: usage error"
	else
		fail "--check-reductions=$bad: usage error" "exit $RC, want 2" "$WORK/bad.log"
	fi
done

summary
