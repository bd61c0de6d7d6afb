/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Each rank posts an Irecv from its left neighbour before its blocking Send to the right: even an
 * unbuffered send completes against a receive that is already posted, so the ring cannot hang. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, left, right, out, in;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	out = rank;
	MPI_Irecv(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &req);
	MPI_Send(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
