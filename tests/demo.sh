#!/bin/bash
# make demo: the whole story on examples/deadlock/wildcard-recv-order.c. The recorded run
# completes, check finds the deadlock hidden in another match order of the wildcard receive,
# and replay forces that order on MPICH and shows the program hang.
# Exit status: 0 when check found the deadlock and replay reproduced it, 1 otherwise,
# 77 if mpicc, mpirun or spin is missing.
set -u

. "$(dirname "$0")/lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify

SRC=$SRCDIR/examples/deadlock/wildcard-recv-order.c
DEMO=$OUTDIR/demo
PROG=$DEMO/wildcard-recv-order
rm -rf "$DEMO"
mkdir -p "$DEMO"
cd "$DEMO" || exit 1

# step TEXT: one line of narration.
step()
{
	echo
	echo "== $1"
}

step "1. compile the example: rank 0 receives from MPI_ANY_SOURCE, then from rank 1"
echo "\$ $MPICC -g -o wildcard-recv-order $SRC"
if ! "$MPICC" -g -o "$PROG" "$SRC"; then
	echo "demo failed: cannot compile '$SRC'"
	exit 1
fi

step "2. record a run: rank 1 sends late, so the wildcard matches rank 2 and the run completes"
echo "\$ mpiverify record -o trace -- $MPIRUN -np 3 ./wildcard-recv-order"
RC=0
timeout -k 5 120 "$MPIVERIFY" record -o trace -- "$MPIRUN" -np 3 ./wildcard-recv-order \
	</dev/null || RC=$?
echo "[exit status $RC]"
if test "$RC" -ne 0; then
	echo "demo failed: the recorded run should have completed (exit 0), record exited $RC"
	exit 1
fi

step "3. check every behaviour of the recorded trace: the other match order deadlocks"
echo "\$ mpiverify check trace"
RC=0
timeout -k 5 300 "$MPIVERIFY" check trace </dev/null || RC=$?
echo "[exit status $RC]"
if test "$RC" -ne 1 || ! test -s trace/check/cex.json; then
	echo "demo failed: check should have found a deadlock (exit 1, trace/check/cex.json)"
	exit 1
fi

step "4. replay the counterexample on MPICH: force the wildcard to take rank 1's message"
echo "\$ mpiverify replay --trace trace/check/cex.json --timeout 5"
RC=0
timeout -k 5 120 "$MPIVERIFY" replay --trace trace/check/cex.json --timeout 5 </dev/null \
	>replay.log 2>&1 || RC=$?
cat replay.log
echo "[exit status $RC]"
if test "$RC" -ne 1 || ! grep -q '^reproduced' replay.log; then
	echo "demo failed: replay should have reproduced the deadlock (exit 1, 'reproduced')"
	exit 1
fi

step "the deadlock the recorded run never showed was found by check and reproduced by replay"
echo "(files in $DEMO)"
exit 0
