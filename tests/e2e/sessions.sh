#!/bin/bash
# The Sessions model (MPI-4.1 11.3) end to end, as programs write it: every variant of
# tests/e2e/programs/sessions-family.c (a program that starts with MPI_Init, with a session
# of its own, with two in turn, the work in the second, or with a session then MPI_Init, the
# work on MPI_COMM_WORLD; no library session, a library's own freed in time, or one whose communicator
# outlives it; its communicator from mpi://WORLD or mpi://SELF; correct, a wildcard-order
# deadlock, or head-to-head sends), 3 ranks, recorded under the real mpirun and checked in
# both buffering modes; where check has a verdict on a correct program or a wildcard-order
# deadlock, verify must give it too (confirmed on the real MPI library). Where a library
# session's communicator outlives it, check leaves out each rank's calls from that session's
# end on, naming why, and is inconclusive (exit 5): the work comes after. MPI-4 only: skipped where the
# library's mpi.h is older (Open MPI 4.1's is MPI-3.1).
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped.
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built
if test "$(mpi_version)" -lt 4; then
	echo "skipped: the Sessions model is MPI-4, $MPI_TITLE's mpi.h is MPI-$(mpi_version)"
	exit 77
fi

WORK=$(make_workdir sessions) || exit 1
LIMIT=120
starts=([1]="MPI_Init" [2]="a session" [3]="two sessions in turn"
	[4]="a session, then MPI_Init")
libs=([0]="no library session" [1]="a library session" [2]="a library session outliving its communicator")
bugs=([0]="correct" [1]="a wildcard-order deadlock" [2]="head-to-head sends")

for start in 1 2 3 4; do
	for lib in 0 1 2; do
		for bug in 0 1 2; do
			# the library's process set alternates over the variants
			pset=$(((start + lib + bug) % 2 + 1))
			name="${starts[$start]}, ${libs[$lib]}, ${bugs[$bug]}"
			test "$lib" = 0 || name="$name (mpi://$(test $pset = 1 && echo WORLD || echo SELF))"
			prog=$WORK/family-$start$lib$bug
			if ! "$MPICC" -g -O0 -Wall -DSTART=$start -DLIB=$lib -DPSET=$pset -DBUG=$bug \
				-o "$prog" "$SRCDIR/tests/e2e/programs/sessions-family.c" >"$prog.cc.log" 2>&1 ||
				test -s "$prog.cc.log"; then
				fail "$name: compile" "$MPICC failed or warned" "$prog.cc.log"
				continue
			fi
			# a session begun after the last one ended: MPICH 4.0.2 crashes in it
			# without mpiverify (MPI_Session_init, SIGSEGV), MPI-4.1 11.3 allows it
			if test "$start" = 3; then
				run_cmd "$prog.plain.log" "$LIMIT" "$MPIRUN" -np 3 "$prog"
				if test "$RC" -ne 0; then
					echo "note: $name: fails without mpiverify on $MPI_TITLE" \
						"($(describe_rc "$RC")): skipped"
					continue
				fi
			fi
			run_cmd "$prog.record.log" "$LIMIT" "$MPIVERIFY" record -o "$prog.trace" \
				--deadlock-timeout 5 -- "$MPIRUN" -np 3 "$prog"
			if test "$RC" -ne 0; then
				fail "$name: record" "exit $RC, want 0" "$prog.record.log"
				continue
			fi
			for mode in zero infinite; do
				run_cmd "$prog.$mode.log" "$LIMIT" "$MPIVERIFY" check "$prog.trace" \
					--buffering "$mode" -o "$prog.trace/check-$mode"
				if test "$lib" = 2; then
					expect_text "$name: check --buffering $mode leaves the rest out" \
						5 "$prog.$mode.log" "was left out from its event" \
						"MPI_Session_finalize while the communicator"
				elif test "$bug" = 0 || { test "$bug" = 2 && test "$mode" = infinite; }; then
					expect_text "$name: check --buffering $mode: no deadlock" 0 \
						"$prog.$mode.log" "no deadlock"
				else
					expect_text "$name: check --buffering $mode: the deadlock" 1 \
						"$prog.$mode.log" "sessions-family.c:"
				fi
			done
			test "$lib" != 2 && test "$bug" != 2 || continue
			verify_family "$name" "$prog" 3 "$bug" "sessions-family.c:"
			no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
		done
	done
done
finish_work
