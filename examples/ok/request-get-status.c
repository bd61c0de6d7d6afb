/* mpiverify-test: np=2 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI_Request_get_status as a progress loop (MPI-4.1 3.7.3): each rank posts a receive from
 * the other and a send to it, polls the receive with MPI_Request_get_status until it says it
 * is complete (the request lives on), then the send the same way, and only then completes
 * both with MPI_Waitall, which returns at once. A persistent receive is started and polled
 * the same way, then waited for. The receives are posted before anything waits: correct
 * whatever the buffering. The messages are checked. */
#include <mpi.h>
#include <stdio.h>

/* Poll r until MPI_Request_get_status says it is complete; count the polls. */
static int poll_until_done(MPI_Request r)
{
	int flag = 0, polls = 0;
	MPI_Status st;

	while (!flag) {
		MPI_Request_get_status(r, &flag, &st);
		polls++;
	}
	return polls;
}

int main(int argc, char **argv)
{
	int rank, other, out, in = -1, again = -1;
	MPI_Request r[2], p;
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	other = 1 - rank;
	out = 100 + rank;
	MPI_Irecv(&in, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &r[0]);
	MPI_Isend(&out, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &r[1]);
	poll_until_done(r[0]);
	poll_until_done(r[1]);
	MPI_Waitall(2, r, st);

	MPI_Recv_init(&again, 1, MPI_INT, other, 1, MPI_COMM_WORLD, &p);
	MPI_Start(&p);
	MPI_Send(&out, 1, MPI_INT, other, 1, MPI_COMM_WORLD);
	poll_until_done(p);
	MPI_Wait(&p, MPI_STATUS_IGNORE);
	MPI_Request_free(&p);
	if (in != 100 + other || again != 100 + other) {
		fprintf(stderr, "rank %d: received %d and %d\n", rank, in, again);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0)
		printf("messages as expected\n");
	MPI_Finalize();
	return 0;
}
