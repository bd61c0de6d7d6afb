/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: matches=other
 * Rank 0 receives from MPI_ANY_SOURCE, then from rank 1: if the wildcard takes rank 1's message,
 * the second receive waits forever (rank 2's message is never received), whatever the buffering. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, val;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		printf("rank 0: the wildcard receive matched rank %d\n", st.MPI_SOURCE);
		fflush(stdout);
		MPI_Recv(&val, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("rank 0: received from rank 1, done\n");
	} else {
		/* Rank 1 arrives late, so the run we watch matches rank 2 first and completes. */
		if (rank == 1)
			usleep(300000);
		val = rank;
		MPI_Send(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
