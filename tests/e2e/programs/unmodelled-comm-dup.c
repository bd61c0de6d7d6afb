/* A correct program that uses MPI_Comm_dup, a call the model does not know yet: record must
 * write it, and check must refuse the trace with exit 3 naming the call, never give a
 * verdict that ignores it. */
#include <mpi.h>

int main(int argc, char **argv)
{
	MPI_Comm dup;

	MPI_Init(&argc, &argv);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Barrier(dup);
	MPI_Comm_free(&dup);
	MPI_Finalize();
	return 0;
}
