#!/bin/bash
# The CMake module (cmake/mpiverifyConfig.cmake) in a project of its own (this folder):
# configured with MPICC as its compiler and MPIRUN as its launcher, built, and run by ctest.
# The correct ring passes, the program with a deadlock on one path fails as its WILL_FAIL
# says (verify exits 1), the farm cut at one run is skipped (verify exits 5); ctest's own
# summary must say so, and each test's report must be where the module puts it.
set -u

. "$(dirname "$0")/../lib.sh"
require_tools cmake ctest "$MPICC" "$MPIRUN"
require_mpiverify
require_mpi_built

WORK=$(make_workdir ctest) || exit 1
LOG=$WORK/ctest.log
run_cmd "$WORK/configure.log" 120 env CC="$MPICC" cmake -S "$SRCDIR/tests/ctest" \
	-B "$WORK/build" -Dmpiverify_DIR="$SRCDIR/cmake" -Dmpiverify_EXECUTABLE="$MPIVERIFY" \
	-DMPIEXEC="$MPIRUN"
if test "$RC" -ne 0; then
	fail "cmake configures the project" "$(describe_rc "$RC")" "$WORK/configure.log"
	summary
fi
pass "cmake configures the project (find_package(mpiverify))"
run_cmd "$WORK/build.log" 300 cmake --build "$WORK/build"
if test "$RC" -ne 0; then
	fail "the project builds" "$(describe_rc "$RC")" "$WORK/build.log"
	summary
fi
pass "the project builds"
run_cmd "$LOG" 900 ctest --test-dir "$WORK/build" --output-on-failure
if test "$RC" -eq 0; then
	pass "ctest passes (exit 0)"
else
	fail "ctest passes" "$(describe_rc "$RC")" "$LOG"
fi
# ctest's lines: "1/3 Test #1: ring ......   Passed", "***Skipped", "100% tests passed"
for want in 'Test #1: ring .*Passed' 'Test #2: branch .*Passed' 'Test #3: farm .*Skipped' \
	'100% tests passed, 0 tests failed out of 3' 'farm \(Skipped\)'; do
	if grep -Eq "$want" "$LOG"; then
		pass "ctest says: $want"
	else
		fail "ctest says: $want" "not in its output" "$LOG"
	fi
done
for t in ring branch farm; do
	if test -s "$WORK/build/mpiverify-$t/report.sarif"; then
		pass "$t: its report in mpiverify-$t/"
	else
		fail "$t: its report in mpiverify-$t/" "no report.sarif" "$LOG"
	fi
done
summary
