/* Every rank but the last enters MPI_Barrier; the last waits for a message from rank 0 that
 * rank 0 sends only after the barrier: a collective one member never reaches. Two classes:
 * the ranks in the barrier, and the rank in MPI_Recv. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == size - 1)
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		MPI_Send(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
