/* mpiverify-test: np=2 record=fail
 * mpiverify-test: buffering=zero expect=inconclusive
 * mpiverify-test: buffering=infinite expect=inconclusive
 * Rank 0 sends and then dies of SIGSEGV; rank 1 receives that message and waits for a second
 * one that never comes, until the launcher ends the job. Rank 0's trace says it died of the
 * signal after its send: it did not finish, rank 1 waits for it, and check answers
 * inconclusive in every mode (before, it said "deadlock" without buffering and "no
 * deadlock" with). */
#include <mpi.h>
#include <signal.h>

int main(int argc, char **argv)
{
	int rank, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD); /* both ranks are recording before the crash */
	if (rank == 0) {
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		raise(SIGSEGV); /* a crash, without a compiler free to reason about it */
	} else {
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
