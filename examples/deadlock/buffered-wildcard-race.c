/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: matches=other
 * Rank 0 receives from MPI_ANY_SOURCE, then from rank 1. Unbuffered, rank 1's message to 0 can
 * only leave after rank 2 has received from 1, which is after 0 has taken rank 2's message; once
 * sends are buffered the wildcard may take rank 1's message first and the second receive hangs. */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, val = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&val, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		/* Late, so that in the recorded run rank 2's message reaches the wildcard first. */
		usleep(300000);
		MPI_Send(&val, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
		MPI_Send(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	} else {
		MPI_Send(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Recv(&val, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
