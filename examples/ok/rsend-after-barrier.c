/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * The correct use of MPI_Rsend: rank 1 posts its receive before a barrier, rank 0 starts its
 * ready send after it, so the receive is always posted first. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, val = 42;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1)
		MPI_Irecv(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		MPI_Rsend(&val, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	else
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
