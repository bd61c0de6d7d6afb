/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Each rank starts a generalized request (MPI_Grequest_start) that stands for work of its
 * own, polls it once (MPI_Test: not complete yet, flag 0), exchanges a message with the other
 * rank, completes the request (MPI_Grequest_complete) and only then waits for it together
 * with its send: the wait returns, in every buffering mode. */
#include <mpi.h>
#include <stddef.h>

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
	int rank, x = 0, y = 0, flag = 1;
	MPI_Request req[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Grequest_start(query, release, cancel, NULL, &req[0]);
	MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE); /* not complete: flag is 0 */
	MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req[1]);
	MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Grequest_complete(req[0]);
	MPI_Waitall(2, req, st);
	MPI_Finalize();
	return flag;
}
