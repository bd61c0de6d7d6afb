/* mpiverify-test: np=3 record=hang verify=deadlock verify-runs=1
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * A fence on a window of a split communicator, one member late: ranks 0 and 1 make a window
 * on a communicator split from MPI_COMM_WORLD that rank 2 is not in. Rank 0 receives from
 * rank 1 before its fence; rank 1 fences before it sends. MPI_Win_fence synchronises the
 * window's group (MPI-4.1 12.5.1): rank 1 waits in it for rank 0, which waits for rank 1's
 * message, a deadlock whatever the buffering. Rank 2, not in the window's group, is not held
 * up by it: it waits in the closing barrier of MPI_COMM_WORLD. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, slot = 0, v = 7, in = -1;
	MPI_Comm pair;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
	if (pair != MPI_COMM_NULL) {
		MPI_Win_create(&slot, sizeof(int), sizeof(int), MPI_INFO_NULL, pair, &win);
		MPI_Win_fence(0, win);
		if (rank == 0) {
			MPI_Recv(&in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Win_fence(0, win);
		} else {
			MPI_Win_fence(0, win);
			MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
		MPI_Win_free(&win);
		MPI_Comm_free(&pair);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d: done\n", rank);
	MPI_Finalize();
	return 0;
}
