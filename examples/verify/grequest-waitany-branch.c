/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=3
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 waits with MPI_Waitany for the first of a receive from rank 1 and a generalized
 * request it completes itself (MPI_Grequest_start, MPI_Grequest_complete), and acts on the
 * index it returns. Rank 1 sends late, so the recorded run gets the generalized request and
 * goes on correctly: check finds no deadlock on that path. When the receive completes first,
 * rank 0 waits for a second message from rank 1 (tag 1) that is never sent. verify runs the
 * program with MPI_Waitany forced to return the receive and confirms the deadlock. */
#include <mpi.h>
#include <unistd.h>

static int query(void *extra, MPI_Status *status)
{
	(void)extra;
	MPI_Status_set_elements(status, MPI_BYTE, 0);
	MPI_Status_set_cancelled(status, 0);
	status->MPI_SOURCE = MPI_UNDEFINED;
	status->MPI_TAG = MPI_UNDEFINED;
	return MPI_SUCCESS;
}

static int release(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int rank, x = 0, y = 0, idx;
	MPI_Request req[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
		MPI_Grequest_start(query, release, cancel, NULL, &req[1]);
		MPI_Grequest_complete(req[1]);
		MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
		if (idx == 0) /* the receive first */
			MPI_Recv(&y, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req[1 - idx], MPI_STATUS_IGNORE);
	} else {
		usleep(200000);
		MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
