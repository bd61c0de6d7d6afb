/* mpiverify-test: np=2 record=fail verify=crash verify-runs=1
 * mpiverify-test: buffering=zero expect=inconclusive
 * mpiverify-test: buffering=infinite expect=inconclusive
 * Rank 0 sends one message and calls MPI_Abort while rank 1 is still computing, before it
 * reaches the two receives it will post. The job ends there: neither rank finished, so the
 * traces are not a whole run and check answers inconclusive, naming how each rank stopped
 * (the abort and its code; rank 1 killed while computing), never "no deadlock". verify
 * reports the abort as a crash on the path the run took (exit 1). */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD); /* both ranks are recording before the abort */
	if (rank == 0) {
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Abort(MPI_COMM_WORLD, 3);
	} else {
		sleep(2);
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
