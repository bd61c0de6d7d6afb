/* A correct program that joins two halves of MPI_COMM_WORLD by an intercommunicator, which
 * the model does not know yet: record must write it, and check must refuse the trace with
 * exit 3 naming the call, never give a verdict that ignores it. */
#include <mpi.h>

int main(int argc, char **argv)
{
	MPI_Comm half, inter;
	int rank, other;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	other = rank % 2 ? 0 : 1;	/* the other half's leader, in MPI_COMM_WORLD */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, other, 5, &inter);
	MPI_Barrier(inter);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
