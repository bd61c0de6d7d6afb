/* mpiverify-test: np=3 record=fail verify=crash verify-runs=1
 * mpiverify-test: buffering=zero expect=inconclusive
 * mpiverify-test: buffering=infinite expect=inconclusive
 * Rank 1 calls MPI_Abort (code 3) before the sends ranks 0 and 2 wait for; the launcher then
 * ends the job, killing them in their receives. Every rank stopped, none finished: check
 * answers inconclusive in every mode, naming how each stopped; verify reports the abort as a
 * crash (exit 1) of rank 1, the one that stopped of itself, not the first rank the launcher
 * killed, with the call it made last.
 * The barrier first: without it the launcher may kill a rank still in MPI_Init, which then
 * leaves no trace at all. (No rank is in MPI_Finalize then: Open MPI 4.1's mpirun sometimes
 * hangs after its ranks are gone when one was, with mpiverify as without it.) */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD); /* every rank is recording before the abort */
	if (rank == 1)
		MPI_Abort(MPI_COMM_WORLD, 3);
	MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
