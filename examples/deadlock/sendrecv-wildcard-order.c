/* mpiverify-test: np=3 record=ok matches=other verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 0 sends rank 2 its go-ahead and takes the first result with one MPI_Sendrecv whose
 * receive names MPI_ANY_SOURCE, then waits for rank 1's result by name. Rank 1 is slow: in the
 * recorded run the wildcard takes rank 2's result and all is well. Had it taken rank 1's,
 * rank 0 would wait for a second message from rank 1 that never comes: replay must pin the
 * Sendrecv's receive to rank 1 to show it (before, only MPI_Recv and MPI_Irecv were). */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 0, y = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Sendrecv(&x, 1, MPI_INT, 2, 9, &y, 1, MPI_INT, MPI_ANY_SOURCE, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		usleep(300000);
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&y, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
