/* A ring of standard sends of 1 MiB, each rank sending to the next before it receives from
 * the one before: no MPI library buffers them, and the ranks hang in MPI_Send, each waited
 * for by the rank before it (whose send needs its receive). */
#include <mpi.h>
#include <stdlib.h>

#define N (1 << 18) /* ints: 1 MiB */

int main(int argc, char **argv)
{
	int rank, size, *out = calloc(N, sizeof(int)), *in = calloc(N, sizeof(int));

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Send(out, N, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
	MPI_Recv(in, N, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	free(out);
	free(in);
	return 0;
}
