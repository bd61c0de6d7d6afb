#!/bin/bash
# make check: the C sources against .clang-format, the CUnit unit tests, the model cases
# through SPIN, the standalone Promela model against the engine (tests/promela/run.sh), the
# preload libraries' exports, then the end-to-end tests on the examples, verify on the farm
# zoo (tests/zoo), verify under a memory limit and stopped by signals in its search
# (tests/e2e/verify-limits.sh), replay's own tests and the recorder's robustness tests
# (crashes, aborts, hangs, threads, a program close to its stack limit), what it records of
# every call, the OTF2 export (read back by otf2-print), the bad input and command-line edge
# cases, a short run of every fuzz target, the reduction check (record --check-reductions)
# against a faulty MPI library, the report files (HTML in headless Chromium, SARIF, Graphviz)
# and suppressions, record, replay and verify through srun on a Slurm cluster the test starts
# itself, which build of the preload libraries a job gets (MPICH's, Open MPI's, or refused),
# then the check that the committed configure is what autoconf makes of configure.ac. The
# parts that run MPI programs run on MPICH (tests/lib.sh: MPICC, MPIRUN), then again on Open
# MPI where it is installed (below: which parts, and why). Each part prints its own summary;
# this script ends with one line per part and exits non-zero if any part failed (a part that
# exits 77 was skipped: a tool it needs is missing).
set -u

. "$(dirname "$0")/lib.sh"
cd "$BUILDDIR" || exit 1

RESULTS=''
STATUS=0

# part NAME CMD...: run one part, note passed / FAILED / skipped and how long it took.
part()
{
	local name=$1 rc=0 start=$SECONDS
	shift
	echo "==== $name: $*"
	"$@" </dev/null || rc=$?
	local took="$((SECONDS - start)) s"
	case $rc in
	0) RESULTS="$RESULTS$name: passed ($took)"$'\n' ;;
	77) RESULTS="$RESULTS$name: skipped ($took)"$'\n' ;;
	*)
		RESULTS="$RESULTS$name: FAILED (exit $rc, $took)"$'\n'
		STATUS=1
		;;
	esac
	echo
}

part format "$SRCDIR/tests/check-format.sh"
if test -x tests/unit/run-unit; then
	part unit env MPIV_MODEL_CASES="$SRCDIR/tests/model/cases" tests/unit/run-unit
else
	echo "==== unit: 'tests/unit/run-unit' not built (make tests/unit/run-unit)"
	RESULTS="${RESULTS}unit: FAILED (not built)"$'\n'
	STATUS=1
fi
part model "$SRCDIR/tests/model/run.sh"
part promela "$SRCDIR/tests/promela/run.sh"
part exports "$SRCDIR/tests/exports/check-exports.sh"
part e2e "$SRCDIR/tests/e2e/run.sh"
part zoo "$SRCDIR/tests/zoo/run.sh"
part verify-limits "$SRCDIR/tests/e2e/verify-limits.sh"
part replay "$SRCDIR/tests/e2e/replay.sh"
part recorder "$SRCDIR/tests/e2e/recorder.sh"
part record-calls "$SRCDIR/tests/e2e/record-calls.sh"
part otf2 "$SRCDIR/tests/e2e/otf2.sh"
part bad-input "$SRCDIR/tests/e2e/badinput.sh"
part fuzz "$SRCDIR/tests/fuzz/run.sh"
part reductions "$SRCDIR/tests/e2e/reductions.sh"
part slurm "$SRCDIR/tests/e2e/slurm.sh"
part reports "$SRCDIR/tests/e2e/reports.sh"
part mpi-libs "$SRCDIR/tests/e2e/mpilibs.sh"

# ---- again on Open MPI ----
# The examples end to end (record, check, replay, verify; of verify's own, a few), replay's
# and the recorder's own
# tests (divergence, stacks; crashes, aborts, hangs, threads under Open MPI's mpirun) and what
# is recorded of every call: what depends on the MPI library and its launcher. The bad input
# cases, the reduction check's and the OTF2 export's are left to the MPICH run: they test
# mpiverify's readers, arithmetic and writer, which are the same whatever library made the run.
# Of examples/verify/, whose runs go through the interposition the other examples test: those
# whose verdict names Open MPI (lib=openmpi), a confirmed deadlock, a crash and a farm. `make
# check-openmpi` runs every example on Open MPI.
verify_picks=$(cd "$SRCDIR/examples/verify" && grep -l 'lib=openmpi' -- *.c | sed 's/\.c$//' |
	paste -sd '|')
OPENMPI_EXAMPLES="^examples/(deadlock|ok|stopped)/|^examples/verify/(first-sender-branch|race-assert|farm-waitany${verify_picks:+|$verify_picks})\.c\$"
if command -v mpicc.openmpi >/dev/null 2>&1 && command -v mpirun.openmpi >/dev/null 2>&1; then
	for p in exports e2e replay recorder record-calls; do
		case $p in
		exports) script=$SRCDIR/tests/exports/check-exports.sh ;;
		e2e) script=$SRCDIR/tests/e2e/run.sh ;;
		*) script=$SRCDIR/tests/e2e/$p.sh ;;
		esac
		pick=.
		test "$p" = e2e && pick=$OPENMPI_EXAMPLES
		part "$p-openmpi" env MPICC=mpicc.openmpi MPIRUN=mpirun.openmpi \
			E2E_EXAMPLES="$pick" "$script"
	done
else
	echo "==== openmpi: skipped: Open MPI is not installed (no mpicc.openmpi and" \
		"mpirun.openmpi: Debian's openmpi-bin and libopenmpi-dev)"
	echo
	RESULTS="${RESULTS}openmpi: skipped (not installed)"$'\n'
fi
part configure "$SRCDIR/tests/check-configure.sh" "${AUTOCONF:-$(command -v autoconf || true)}"

echo "==== summary"
printf '%s' "$RESULTS"
exit $STATUS
