#!/bin/bash
# make check: the CUnit unit tests, the model cases through SPIN, the preload libraries'
# exports, then the end-to-end tests on the examples, replay's own tests and the recorder's
# robustness tests (crashes, aborts, hangs, threads, a program close to its stack limit), what
# it records of every call, the OTF2 export (read back by otf2-print), the bad input and
# command-line edge cases, a short run of every fuzz target, the reduction check (record
# --check-reductions) against a faulty MPI library, then the check that the committed
# configure is what autoconf makes of configure.ac. Each part prints its own
# summary; this script ends with one line per part and exits non-zero if any part failed
# (a part that exits 77 was skipped: a tool it needs is missing).
set -u

. "$(dirname "$0")/lib.sh"
cd "$BUILDDIR" || exit 1

RESULTS=''
STATUS=0

# part NAME CMD...: run one part, note passed / FAILED / skipped.
part()
{
	local name=$1 rc=0
	shift
	echo "==== $name: $*"
	"$@" </dev/null || rc=$?
	case $rc in
	0) RESULTS="$RESULTS$name: passed"$'\n' ;;
	77) RESULTS="$RESULTS$name: skipped"$'\n' ;;
	*)
		RESULTS="$RESULTS$name: FAILED (exit $rc)"$'\n'
		STATUS=1
		;;
	esac
	echo
}

if test -x tests/unit/run-unit; then
	part unit env MPIV_MODEL_CASES="$SRCDIR/tests/model/cases" tests/unit/run-unit
else
	echo "==== unit: 'tests/unit/run-unit' not built (make tests/unit/run-unit)"
	RESULTS="${RESULTS}unit: FAILED (not built)"$'\n'
	STATUS=1
fi
part model "$SRCDIR/tests/model/run.sh"
part exports "$SRCDIR/tests/exports/check-exports.sh"
part e2e "$SRCDIR/tests/e2e/run.sh"
part replay "$SRCDIR/tests/e2e/replay.sh"
part recorder "$SRCDIR/tests/e2e/recorder.sh"
part record-calls "$SRCDIR/tests/e2e/record-calls.sh"
part otf2 "$SRCDIR/tests/e2e/otf2.sh"
part bad-input "$SRCDIR/tests/e2e/badinput.sh"
part fuzz "$SRCDIR/tests/fuzz/run.sh"
part reductions "$SRCDIR/tests/e2e/reductions.sh"
part configure "$SRCDIR/tests/check-configure.sh" "${AUTOCONF:-$(command -v autoconf || true)}"

echo "==== summary"
printf '%s' "$RESULTS"
exit $STATUS
