#!/bin/bash
# make check: the C sources against .clang-format, every command's options the same in its
# --help and the man page (tests/check-options.sh), every MPI function of MPICH's mpi.h
# modelled, refused or listed as passing through (tests/check-calls.sh), the CUnit unit tests,
# the model cases through SPIN, the standalone Promela model against the engine
# (tests/promela/run.sh), the preload libraries' exports, then the end-to-end tests on the
# examples, verify on the farm zoo and on programs that branch on which peer answered first
# (tests/zoo), verify under a memory limit and stopped by signals in its search
# (tests/e2e/verify-limits.sh), replay's own tests and the recorder's robustness tests (crashes,
# aborts, hangs, threads, a program close to its stack limit), record --last's windows of a long
# run's last calls (tests/e2e/triage.sh), what it records of every call, the OTF2 export (read
# back by otf2-print), the bad input and command-line edge cases, a short run of every fuzz
# target, the reduction check (record --check-reductions) against a faulty MPI library, the
# report files (HTML in headless Chromium, SARIF, Graphviz) and suppressions, record, replay and
# verify through srun on a Slurm cluster the test starts itself, which build of the preload
# libraries a job gets (MPICH's, Open MPI's, or refused), the CMake module under ctest
# (tests/ctest), Python programs through mpi4py (on the MPI library Debian builds it for),
# verify on a family of threaded exchanges and on task farms served by threads
# (tests/e2e/threads.sh; a few of its cases on Open MPI too), the Sessions model in the ways
# programs use it (tests/e2e/sessions.sh, MPI-4 libraries only), intercommunicators made, used
# and ended in the ways programs do (tests/e2e/intercomms.sh), then the check that the committed
# configure is what autoconf makes of configure.ac. The parts that run MPI programs run on MPICH
# (tests/lib.sh: MPICC, MPIRUN), then again on Open MPI where it is installed (below: which
# parts, and why). The parts run in three lanes side by side, each taking the next part of one
# queue (below). Each part prints its own summary; this script ends with one line per part and
# the time of the whole, and exits non-zero if any part failed (a part that exits 77 was
# skipped: a tool it needs is missing).
set -u

. "$(dirname "$0")/lib.sh"
cd "$BUILDDIR" || exit 1

RESULTS=$(mktemp -d "${TMPDIR:-/tmp}/mpiverify-check.XXXXXX") || exit 1
trap 'rm -rf "$RESULTS"' EXIT
# the lanes, named a, b, c...: CHECK_LANES of them, 1 to 8 (below)
case ${CHECK_LANES:=3} in
[1-8]) LANES=$(echo a b c d e f g h | cut -d' ' -f"1-$CHECK_LANES") ;;
*)
	echo "CHECK_LANES=$CHECK_LANES: want 1 to 8" >&2
	exit 2
	;;
esac
for l in $LANES; do
	touch "$RESULTS/$l"
done
STARTED=$SECONDS

# part NAME CMD...: run one part, note in its lane's results passed / FAILED / skipped and
# how long it took.
part()
{
	local name=$1 rc=0 start=$SECONDS line
	shift
	echo "==== $name: $*"
	"$@" </dev/null || rc=$?
	local took="$((SECONDS - start)) s"
	case $rc in
	0) line="$name: passed ($took)" ;;
	77) line="$name: skipped ($took)" ;;
	*) line="$name: FAILED (exit $rc, $took)" ;;
	esac
	echo "$line" >>"$RESULTS/$LANE"
	echo
}

# ---- on Open MPI ----
# The examples end to end (record, check, replay, verify; of verify's own, a few), replay's
# and the recorder's own tests (divergence, stacks; crashes, aborts, hangs, threads under
# Open MPI's mpirun), record --last's windows, and what is recorded of every call: what depends on the MPI library and
# its launcher. The bad input cases, the reduction check's and the OTF2 export's are left to
# the MPICH run: they test mpiverify's readers, arithmetic and writer, which are the same
# whatever library made the run. Of examples/verify/, whose runs go through the interposition
# the other examples test: those whose verdict names Open MPI (lib=openmpi), a confirmed
# deadlock, a crash and a farm. `make check-openmpi` runs every example on Open MPI.
verify_picks=$(cd "$SRCDIR/examples/verify" && grep -l 'lib=openmpi' -- *.c | sed 's/\.c$//' |
	paste -sd '|')
OPENMPI_EXAMPLES="^examples/(deadlock|ok|stopped)/|^examples/verify/(first-sender-branch|race-assert|farm-waitany${verify_picks:+|$verify_picks})\.c\$"
# of threads.sh: a family exchange, farms served by threads (MPI_Recv, two servers'
# MPI_Waitany beside main's request) and by an OpenMP team, correct and buggy; MPI
# initialised by a thread main made
OPENMPI_THREADS="a tag per thread, 2 threads|served by 2 thread\(s\) with MPI_Recv, bug 0|with MPI_Waitany, main's request beside, bug 1|OpenMP team of 2 with MPI_Probe, bug 1|initialised by a thread main made, FUNNELED, head to head"
HAVE_OPENMPI=0
command -v mpicc.openmpi >/dev/null 2>&1 && command -v mpirun.openmpi >/dev/null 2>&1 &&
	HAVE_OPENMPI=1

# on_openmpi PART...: each part (exports, e2e, replay, recorder, triage, record-calls,
# intercomms: Open MPI's MPI_Comm_disconnect synchronises, MPICH's does not; threads: a few
# of its cases, the interposition of pthread_create and the steering of threads under Open
# MPI's own threads) again on Open MPI, as PART-openmpi.
on_openmpi()
{
	local p script pick
	if test "$HAVE_OPENMPI" = 0; then
		echo "==== openmpi: skipped: Open MPI is not installed (no mpicc.openmpi and" \
			"mpirun.openmpi: Debian's openmpi-bin and libopenmpi-dev)"
		echo
		echo "openmpi ($*): skipped (not installed)" >>"$RESULTS/$LANE"
		return
	fi
	for p in "$@"; do
		case $p in
		exports) script=$SRCDIR/tests/exports/check-exports.sh ;;
		e2e) script=$SRCDIR/tests/e2e/run.sh ;;
		*) script=$SRCDIR/tests/e2e/$p.sh ;;
		esac
		pick=.
		test "$p" = e2e && pick=$OPENMPI_EXAMPLES
		part "$p-openmpi" env MPICC=mpicc.openmpi MPIRUN=mpirun.openmpi \
			E2E_EXAMPLES="$pick" THREADS_CASES="$OPENMPI_THREADS" "$script"
	done
}

# The parts run in three lanes side by side (CHECK_LANES), on the two cores of a small
# machine: much of a part's time is waiting (a confirmation's 0.7 s, a timeout, mpirun's
# start), and since the ranks of verify's and replay's runs sleep while they wait
# (preload/calm.h), a third lane fills it (two lanes took 897 s, three 669 s, the cores 89 %
# busy). Each lane takes the next part from one queue when it has finished its last, so that
# the lanes end together whatever each part took in this run: the queue lists the parts
# longest first (by the times of a recent run, in its summary), the short ones last to fill
# the end. Parts share nothing but the build: each works in a directory of its own and checks
# for leftovers of its own programs only. CHECK_LANES=1 runs them all in one lane, in the
# queue's order.
queue()
{
	cat <<'EOF'
part e2e "$SRCDIR/tests/e2e/run.sh"
on_openmpi e2e
part zoo "$SRCDIR/tests/zoo/run.sh"
part promela "$SRCDIR/tests/promela/run.sh"
part model "$SRCDIR/tests/model/run.sh"
on_openmpi recorder
part recorder "$SRCDIR/tests/e2e/recorder.sh"
part slurm "$SRCDIR/tests/e2e/slurm.sh"
part fuzz "$SRCDIR/tests/fuzz/run.sh"
part sessions "$SRCDIR/tests/e2e/sessions.sh"
part intercomms "$SRCDIR/tests/e2e/intercomms.sh"
on_openmpi replay
part replay "$SRCDIR/tests/e2e/replay.sh"
part python "$SRCDIR/tests/e2e/python.sh"
part triage "$SRCDIR/tests/e2e/triage.sh"
part reports "$SRCDIR/tests/e2e/reports.sh"
on_openmpi triage
on_openmpi intercomms
part format "$SRCDIR/tests/check-format.sh"
part verify-limits "$SRCDIR/tests/e2e/verify-limits.sh"
part bad-input "$SRCDIR/tests/e2e/badinput.sh"
part mpi-libs "$SRCDIR/tests/e2e/mpilibs.sh"
part threads "$SRCDIR/tests/e2e/threads.sh"
on_openmpi threads
part first-sender "$SRCDIR/tests/zoo/first.sh"
part reductions "$SRCDIR/tests/e2e/reductions.sh"
part record-calls "$SRCDIR/tests/e2e/record-calls.sh"
on_openmpi record-calls
part ctest "$SRCDIR/tests/ctest/run.sh"
part otf2 "$SRCDIR/tests/e2e/otf2.sh"
part calls "$SRCDIR/tests/check-calls.sh"
unit
part exports "$SRCDIR/tests/exports/check-exports.sh"
on_openmpi exports
part options "$SRCDIR/tests/check-options.sh"
part commits "$SRCDIR/tests/check-commits.sh"
part defaults "$SRCDIR/tests/check-defaults.sh"
part configure "$SRCDIR/tests/check-configure.sh" "${AUTOCONF:-$(command -v autoconf || true)}"
EOF
}

# The unit tests, if they were built.
unit()
{
	if test -x tests/unit/run-unit; then
		part unit env MPIV_MODEL_CASES="$SRCDIR/tests/model/cases" \
			MPIV_UNIT_DATA="$SRCDIR/tests/unit/data" tests/unit/run-unit
	else
		echo "==== unit: 'tests/unit/run-unit' not built (make tests/unit/run-unit)"
		echo "unit: FAILED (not built)" >>"$RESULTS/$LANE"
	fi
}

# The queue's next part, taken off it (nothing once it is empty).
next_part()
{
	(
		flock 9
		head -n 1 "$RESULTS/queue"
		sed -i 1d "$RESULTS/queue"
	) 9>"$RESULTS/queue.lock"
}

# lane NAME: run parts off the queue until it is empty.
lane()
{
	local entry
	LANE=$1
	while entry=$(next_part) && test -n "$entry"; do
		eval "$entry"
	done
}

queue >"$RESULTS/queue"
# the other lanes' output waits in files, each shown whole once lane a is done
for l in ${LANES#a}; do
	lane "$l" >"$RESULTS/$l.log" 2>&1 &
done
lane a
wait
for l in ${LANES#a}; do
	echo "==== lane $l (run beside the parts above)"
	cat "$RESULTS/$l.log"
done

echo "==== summary: $((SECONDS - STARTED)) s in all (each part's own time below)"
(cd "$RESULTS" && cat $LANES)
! (cd "$RESULTS" && grep -q FAILED $LANES)
