/* A task farm that hangs: the manager hands each worker one task, takes the answers as they
 * come (MPI_ANY_SOURCE), and then waits for one answer more than it handed out, while every
 * worker waits for its next task or the stop that never comes. Whatever order the answers
 * come in, the same hang: the manager in MPI_Recv, the workers in MPI_Recv from the manager. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, task, w, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		for (w = 1; w < size; w++)
			MPI_Send(&w, 1, MPI_INT, w, 1, MPI_COMM_WORLD);
		for (i = 0; i < size; i++) /* one too many: size - 1 were handed out */
			MPI_Recv(&task, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		for (w = 1; w < size; w++)
			MPI_Send(&w, 1, MPI_INT, w, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&task, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		task *= 2;
		MPI_Send(&task, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		MPI_Recv(&task, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
