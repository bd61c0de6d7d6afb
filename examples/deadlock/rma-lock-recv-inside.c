/* mpiverify-test: np=3 record=hang verify=deadlock verify-runs=1
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Ranks 0 and 1 lock rank 2's window exclusively; inside its epoch rank 0 receives from rank
 * 1, which sends inside its own. MPI lets MPI_Win_lock block until the lock is acquired
 * (MPI-4.1 13.7.3): rank 0 locks before the barrier, so rank 1 waits in MPI_Win_lock for
 * rank 0, which waits in its receive for rank 1. MPICH (ch4) acquires the lock in
 * MPI_Win_lock and hangs; a library that acquires it lazily, at the first operation or at
 * the unlock, would let this run complete. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, slot = 0, v = 7, msg = 0;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(&slot, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	if (rank == 0) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Recv(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Put(&msg, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
		MPI_Win_unlock(2, win);
	} else if (rank == 1) {
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Win_unlock(2, win);
	} else {
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Win_free(&win);
	printf("rank %d: done\n", rank);
	MPI_Finalize();
	return 0;
}
