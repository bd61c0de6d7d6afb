/* For tests/e2e/replay.sh (np=3): examples/deadlock/waitany-reply-order.c with the first
 * worker's message taken by the completion call argv[1] names: "testany" (a polling loop),
 * "waitsome" or "testsome" (a polling loop). Rank 1 is the slow worker, rank 2 with a second
 * argument "swap": replay must force the recorded choice whatever the timing, and without
 * buffering the reply deadlocks against the worker's second send. */
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
	} else {
		while (n == 0)
			MPI_Testsome(2, req, &n, idx, st);
		first = idx[0];
	}
	printf("rank 0: %s completed index %d first\n", method, first);
	fflush(stdout);
	return first;
}

int main(int argc, char **argv)
{
	int rank, i, first, slow, val[2] = {0, 0}, msg = 1;
	const char *method = argc > 1 ? argv[1] : "testany";
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
			usleep(300000);
		MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Send(&rank, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		MPI_Recv(&msg, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
