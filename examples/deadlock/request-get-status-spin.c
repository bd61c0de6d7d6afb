/* mpiverify-test: np=2 record=hang verify=deadlock verify-runs=1
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * A progress loop that waits for the wrong thing: rank 0 posts a receive from rank 1 and
 * polls it with MPI_Request_get_status until it completes, and only then sends to rank 1;
 * rank 1 receives from rank 0 before it sends. Rank 0 polls for good, rank 1 waits in its
 * receive: a deadlock whatever the buffering, found though rank 0 is never blocked in a call. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, v = 7, in = -1, flag = 0;
	MPI_Request r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
		while (!flag)
			MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	printf("rank %d: done\n", rank);
	MPI_Finalize();
	return 0;
}
