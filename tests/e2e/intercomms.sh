#!/bin/bash
# Intercommunicators end to end, as programs make, use and end them: variants of
# tests/e2e/programs/intercomm-family.c (made by MPI_Intercomm_create or, on MPI-4 libraries,
# MPI_Intercomm_create_from_groups; groups of even and odd ranks, of halves, or one rank
# against the rest; led by their first or their last member; ended by MPI_Comm_free,
# MPI_Comm_disconnect, or a merge and a sum; correct, a member that comes to the creation only
# after a message sent after it, or leaders naming different tags), 4 ranks, recorded under
# the real mpirun, checked in both buffering modes and verified: a correct variant is "no
# deadlock" everywhere, a buggy one a deadlock that verify confirms on the real MPI library.
# The leader and the ending rotate over the makers, groups and bugs, so that each appears
# with each.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped.
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built

WORK=$(make_workdir intercomms) || exit 1
LIMIT=120
makes=([1]="MPI_Intercomm_create" [2]="MPI_Intercomm_create_from_groups")
splits=([0]="evens and odds" [1]="halves" [2]="rank 0 against the rest")
leaders=([0]="first members lead" [1]="last members lead")
ends=([0]="freed" [1]="disconnected" [2]="merged")
bugs=([0]="correct" [1]="a member late" [2]="leaders' tags differ")
MAKES="1 2"
test "$(mpi_version)" -ge 4 || MAKES=1

for make in $MAKES; do
	for split in 0 1 2; do
		for bug in 0 1 2; do
			leader=$(((split + bug) % 2))
			end=$(((make + split + bug) % 3))
			name="${makes[$make]}, ${splits[$split]}, ${leaders[$leader]}, ${ends[$end]}, ${bugs[$bug]}"
			prog=$WORK/family-$make$split$leader$end$bug
			if ! "$MPICC" -g -O0 -Wall -DMAKE=$make -DSPLIT=$split -DLEADER=$leader \
				-DEND=$end -DBUG=$bug -o "$prog" \
				"$SRCDIR/tests/e2e/programs/intercomm-family.c" >"$prog.cc.log" 2>&1 ||
				test -s "$prog.cc.log"; then
				fail "$name: compile" "$MPICC failed or warned" "$prog.cc.log"
				continue
			fi
			run_cmd "$prog.record.log" "$LIMIT" "$MPIVERIFY" record -o "$prog.trace" \
				--deadlock-timeout 5 -- "$MPIRUN" -np 4 "$prog"
			if test "$bug" = 0 && test "$RC" -ne 0; then
				fail "$name: record" "exit $RC, want 0" "$prog.record.log"
				continue
			elif test "$RC" -ne 0 && test "$RC" -ne 1; then
				fail "$name: record" "exit $RC, want 0 or 1" "$prog.record.log"
				continue
			fi
			for mode in zero infinite; do
				run_cmd "$prog.$mode.log" "$LIMIT" "$MPIVERIFY" check "$prog.trace" \
					--buffering "$mode" -o "$prog.trace/check-$mode"
				if test "$bug" = 0; then
					expect_text "$name: check --buffering $mode: no deadlock" 0 \
						"$prog.$mode.log" "no deadlock"
				else
					expect_text "$name: check --buffering $mode: the deadlock" 1 \
						"$prog.$mode.log" "intercomm-family.c:"
				fi
			done
			verify_family "$name" "$prog" 4 "$bug" "intercomm-family.c:"
			no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
		done
	done
done
finish_work
