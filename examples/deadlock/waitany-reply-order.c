/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 waits for the first of two workers' messages (MPI_Waitany), replies to that worker
 * with a standard send, then receives its second message; each worker sends twice before it
 * receives the reply. Without buffering rank 0's reply and the worker's second send wait for
 * each other. Which worker comes first is timing (rank 1 is slow here; with the argument
 * "swap", rank 2 is), and the reply's destination depends on it: replay forces the recorded
 * MPI_Waitany choice, whatever the timing of the replayed run. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, i, first, slow, val[2] = {0, 0}, msg = 1;
	MPI_Request req[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	slow = argc > 1 && !strcmp(argv[1], "swap") ? 2 : 1;
	if (rank == 0) {
		for (i = 0; i < 2; i++)
			MPI_Irecv(&val[i], 1, MPI_INT, i + 1, 0, MPI_COMM_WORLD, &req[i]);
		MPI_Waitany(2, req, &first, MPI_STATUS_IGNORE);
		printf("rank 0: MPI_Waitany completed index %d (rank %d's message)\n", first,
		       first + 1);
		fflush(stdout);
		MPI_Send(&msg, 1, MPI_INT, first + 1, 1, MPI_COMM_WORLD);
		MPI_Recv(&val[first], 1, MPI_INT, first + 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req[1 - first], MPI_STATUS_IGNORE);
		MPI_Send(&msg, 1, MPI_INT, 2 - first, 1, MPI_COMM_WORLD);
		MPI_Recv(&val[1 - first], 1, MPI_INT, 2 - first, 2, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		if (rank == slow)
			usleep(300000);
		MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Send(&rank, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		MPI_Recv(&msg, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
