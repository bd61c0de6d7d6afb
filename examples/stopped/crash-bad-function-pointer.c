/* mpiverify-test: np=2 record=fail verify=crash verify-runs=1
 * mpiverify-test: buffering=zero expect=inconclusive
 * mpiverify-test: buffering=infinite expect=inconclusive
 * Rank 1 calls through a function pointer that points nowhere (as a program does that
 * broadcasts a function's address to processes whose code is loaded elsewhere) and dies of
 * SIGSEGV with the instruction pointer at an address that is not mapped. The recorder's
 * handler must not walk the stack from there (the unwinder reads the instruction it points
 * at, and a fault in the handler kills the rank before its trace is written): the trace
 * keeps the calls before, the rank's end says the signal, and verify reports the crash
 * after its last call (exit 1), where it once answered inconclusive with every trace cut
 * back to MPI_Init. */
#include <mpi.h>

typedef void (*function)(void);

int main(int argc, char **argv)
{
	int rank;
	/* the address a function of another process's map might have: nothing here */
	function volatile f = (function)(void *)0x10;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD); /* both ranks are recording before the crash */
	if (rank == 1)
		f();
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
