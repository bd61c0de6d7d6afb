/* mpiverify-test: np=2 record=hang
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 0 starts a generalized request (MPI_Grequest_start) and waits for it before it calls
 * MPI_Grequest_complete: with one thread nothing else can complete it, so MPI_Wait never
 * returns (MPICH and Open MPI both spin in their progress engine for ever), and rank 1 waits
 * for a message rank 0 would send after it. A deadlock in every buffering mode. */
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
	int rank, x = 0;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Grequest_start(query, release, cancel, NULL, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE); /* nobody completes it: hangs */
		MPI_Grequest_complete(req);
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
