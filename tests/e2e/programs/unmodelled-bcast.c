/* A correct program that uses MPI_Bcast, a call the model does not know yet: record must
 * write it, and check must refuse the trace with exit 3 naming the call, never give a
 * verdict that ignores it. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, v = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		v = 42;
	MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return v == 42 ? 0 : 1;
}
