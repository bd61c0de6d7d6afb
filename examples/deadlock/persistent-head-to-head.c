/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Both ranks start a persistent standard send to each other (MPI_Send_init, MPI_Start) and
 * wait for it before they receive: safe only while the library buffers the small message, as
 * MPICH does. Replay makes the persistent send synchronous (MPI_Ssend_init), as the
 * counterexample found without buffering needs, and the run hangs; verify's steered run does
 * the same, and so confirms the deadlock. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x = 0, y = 0;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Send_init(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);
	MPI_Start(&req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Request_free(&req);
	MPI_Finalize();
	return 0;
}
