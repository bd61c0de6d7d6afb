/* mpiverify-test: np=3 record=hang
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Every rank first receives from its left neighbour and only then sends to its right one: each
 * waits for a message nobody has sent yet, so the ring deadlocks in every run and every mode. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, left, right, val;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	MPI_Recv(&val, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	val = rank;
	MPI_Send(&val, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
