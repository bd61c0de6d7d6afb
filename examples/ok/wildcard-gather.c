/* mpiverify-test: np=3 record=ok verify=ok verify-runs=2
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 receives one message from each other rank with two MPI_ANY_SOURCE receives: whichever
 * sender the first wildcard matches, the second matches the other, so every match order works. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, val, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		for (i = 0; i < 2; i++)
			MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
	} else {
		val = rank;
		MPI_Send(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
