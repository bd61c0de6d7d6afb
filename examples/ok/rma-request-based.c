/* mpiverify-test: np=3 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * The request-based one-sided calls (MPI-4.1 12.3.5): ranks 1 and 2 each lock rank 0's window
 * exclusively, in either order, and inside the epoch make MPI_Rput, MPI_Rget, MPI_Raccumulate
 * and MPI_Rget_accumulate, completed by MPI_Wait, MPI_Test in a loop, MPI_Waitany and
 * MPI_Waitall. Then every rank reads rank 0's window under MPI_Win_lock_all with MPI_Rget.
 * Such a request completes without the target calling MPI (13.7.3): rank 0, which only
 * waits in the barrier, never holds the others up, so no acquisition order deadlocks. What a
 * rank reads back in its own exclusive epoch is checked; the counter is not (MPICH 4.0.2's
 * accumulates miscount here, which is not what this example is about). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, slot[2] = {0, 0}, one = 1, mine, got = -1, old = -1, seen = -1, done = 0, idx;
	MPI_Request r[2];
	MPI_Status st[2];
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(slot, sizeof(slot), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	mine = 10 * rank;
	if (rank != 0) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Rput(&mine, 1, MPI_INT, 0, 1, 1, MPI_INT, win, &r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Rget(&got, 1, MPI_INT, 0, 1, 1, MPI_INT, win, &r[0]);
		while (!done)
			MPI_Test(&r[0], &done, MPI_STATUS_IGNORE);
		MPI_Raccumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win, &r[0]);
		MPI_Waitany(1, r, &idx, MPI_STATUS_IGNORE);
		MPI_Rget_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,
				    win, &r[0]);
		MPI_Rget(&seen, 1, MPI_INT, 0, 1, 1, MPI_INT, win, &r[1]);
		MPI_Waitall(2, r, st);
		MPI_Win_unlock(0, win);
		if (got != mine || seen != mine) {
			fprintf(stderr, "rank %d: read %d and %d in its epoch, wrote %d\n", rank,
				got, seen, mine);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock_all(0, win);
	MPI_Rget(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &r[0]);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_free(&win);
	if (rank == 0)
		printf("request-based one-sided calls done\n");
	MPI_Finalize();
	return 0;
}
