#!/bin/bash
# make demo: the main job on examples/verify/first-sender-branch.c. Rank 0 acts on which of
# ranks 1 and 2 answered first; the first run takes the safe branch, and the deadlock hides on
# the other. verify records that run, models it, runs the program again with the other sender
# first, and confirms the deadlock there on MPICH (MPICC and MPIRUN name another MPI library's
# wrappers: tests/lib.sh).
# Exit status: 0 when verify confirmed the deadlock, 1 otherwise, 77 if mpicc or mpirun is
# missing.
set -u

. "$(dirname "$0")/lib.sh"

require_tools "$MPICC" "$MPIRUN"
require_mpiverify
require_mpi_built

SRC=$SRCDIR/examples/verify/first-sender-branch.c
DEMO=$OUTDIR/demo
PROG=$DEMO/first-sender-branch
rm -rf "$DEMO"
mkdir -p "$DEMO"
cd "$DEMO" || exit 1

# step TEXT: one line of narration.
step()
{
	echo
	echo "== $*"
}

step "1. compile the example: rank 0 acts on which sender its MPI_ANY_SOURCE receive took"
echo "\$ $MPICC -g -o first-sender-branch $SRC"
if ! "$MPICC" -g -o "$PROG" "$SRC"; then
	echo "demo failed: cannot compile '$SRC'"
	exit 1
fi

step "2. verify: record a run (rank 2 answers late, the run completes), model it, run the" \
	"program again with rank 2's message first, and confirm the deadlock it hits"
echo "\$ mpiverify verify -- $MPIRUN -np 3 ./first-sender-branch"
RC=0
timeout -k 5 300 "$MPIVERIFY" verify -o verify --deadlock-timeout 3 -- "$MPIRUN" -np 3 \
	./first-sender-branch </dev/null >verify.log 2>&1 || RC=$?
cat verify.log
echo "[exit status $RC]"
if test "$RC" -ne 1 || ! grep -q '^deadlock 1: confirmed' verify.log; then
	echo "demo failed: verify should have confirmed a deadlock (exit 1, 'deadlock 1: confirmed')"
	exit 1
fi

step "the deadlock on the branch the first run did not take was found and confirmed on $MPI_TITLE"
echo "(every run's trace, steering and output are in $DEMO/verify/runs)"
exit 0
