/* mpiverify-test: np=3 record=any verify=deadlock verify-runs=30
 * nbx.c with a bug after its last exchange: each rank thanks the first rank it heard from and
 * waits for thanks from the next rank, as if every rank heard first from the one before it.
 * Which rank a probe finds first is the library's timing: on the paths where some rank hears
 * first from another, a thanks goes where none is awaited and a rank waits for one that never
 * comes: a deadlock, whatever the library buffers. verify steers the other orders of the
 * probes and confirms it. */
#define NBX_NO_MAIN
#include "nbx.c"

int main(int argc, char **argv)
{
	int rank, size, r, first = -1, v = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (r = 0; r < ROUNDS; r++)
		first = exchange(rank, size, r);
	MPI_Send(&v, 1, MPI_INT, first, 9, MPI_COMM_WORLD);
	MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
