/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=4
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 waits for the first of two workers' messages (MPI_Waitany), replies to that worker
 * with a standard send, then receives its second message; each worker sends twice before it
 * receives the reply. Without buffering rank 0's reply and the worker's second send wait for
 * each other. Which worker comes first is timing (rank 1 is a second late here, long enough
 * that a loaded machine keeps the order; with a second argument "swap", rank 2 is), and the
 * reply's destination depends on it: replay forces the recorded choice, whatever the timing
 * of the replayed run. A first argument "testany", "waitsome" or
 * "testsome" takes the first message with that call instead (tests/e2e/replay.sh). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The index of the first request of req[2] to complete, by method. */
static int first_done(const char *method, MPI_Request req[2])
{
	int idx[2], n = 0, first = -1, flag = 0;
	MPI_Status st[2];

	if (!strcmp(method, "testany")) {
		while (!flag)
			MPI_Testany(2, req, &first, &flag, MPI_STATUS_IGNORE);
	} else if (!strcmp(method, "waitsome")) {
		MPI_Waitsome(2, req, &n, idx, st);
		first = idx[0];
	} else if (!strcmp(method, "testsome")) {
		while (n == 0)
			MPI_Testsome(2, req, &n, idx, st);
		first = idx[0];
	} else {
		MPI_Waitany(2, req, &first, MPI_STATUS_IGNORE);
	}
	printf("rank 0: %s completed index %d first (rank %d's message)\n", method, first,
	       first + 1);
	fflush(stdout);
	return first;
}

int main(int argc, char **argv)
{
	int rank, i, first, slow, val[2] = {0, 0}, msg = 1;
	const char *method = argc > 1 ? argv[1] : "waitany";
	MPI_Request req[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	slow = argc > 2 && !strcmp(argv[2], "swap") ? 2 : 1;
	if (rank == 0) {
		for (i = 0; i < 2; i++)
			MPI_Irecv(&val[i], 1, MPI_INT, i + 1, 0, MPI_COMM_WORLD, &req[i]);
		first = first_done(method, req);
		MPI_Send(&msg, 1, MPI_INT, first + 1, 1, MPI_COMM_WORLD);
		MPI_Recv(&val[first], 1, MPI_INT, first + 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req[1 - first], MPI_STATUS_IGNORE);
		MPI_Send(&msg, 1, MPI_INT, 2 - first, 1, MPI_COMM_WORLD);
		MPI_Recv(&val[1 - first], 1, MPI_INT, 2 - first, 2, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		if (rank == slow)
			usleep(1000000);
		MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Send(&rank, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		MPI_Recv(&msg, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
