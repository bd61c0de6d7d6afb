/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Passive target: ranks 1 and 2 each lock rank 0's window exclusively, accumulate into it,
 * flush and unlock; whichever acquires first releases, then the other goes on. Then every rank
 * but rank 0 reads rank 0's window under MPI_Win_lock_all. Nothing inside the epochs waits for
 * another rank, so no acquisition order deadlocks. (The values are not checked: what matters
 * here is the synchronisation.) */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, slot = 0, one = 1, got = -1;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(&slot, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	if (rank != 0) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
		MPI_Win_flush(0, win);
		MPI_Win_unlock(0, win);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock_all(0, win);
	if (rank != 0)
		MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
	MPI_Win_flush_all(win);
	MPI_Win_unlock_all(win);
	printf("rank %d: done\n", rank);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
