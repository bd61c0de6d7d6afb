/* Every rank sends 1 MiB to the right with MPI_Send, then receives from the left: a
 * head-to-head ring, which no MPI library buffers at this size, so every rank waits in its
 * send. One class of ranks, one cycle through it. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, n = 1 << 18;
	int *out, *in;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	out = calloc((size_t)n, sizeof(int));
	in = calloc((size_t)n, sizeof(int));
	MPI_Send(out, n, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
	MPI_Recv(in, n, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	free(out);
	free(in);
	MPI_Finalize();
	return 0;
}
