/* mpiverify-test: np=3 record=ok verify=ok verify-runs=8
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * The master probes with MPI_ANY_SOURCE and MPI_ANY_TAG, then receives exactly the probed
 * message (source and tag from the probe's status): whichever worker's result comes first,
 * every result is received. In about one verify in three, the model folds the master's probes
 * into a loop whose exit it takes for the last message's envelope and has the master finish
 * early; the run steered there completes on that path, and the model with that run no longer
 * deadlocks there: the deadlock is refuted (doc/verify.md, "Loops whose exit is a count"),
 * and verify answers no deadlock in 3 to 6 runs. */
#include <mpi.h>
#include <stdio.h>

#define RESULTS 2

int main(int argc, char **argv)
{
	int rank, size, i, val;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		for (i = 0; i < RESULTS * (size - 1); i++) {
			MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			MPI_Recv(&val, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
		printf("master: %d results\n", RESULTS * (size - 1));
	} else {
		for (i = 0; i < RESULTS; i++) {
			val = rank * 10 + i;
			MPI_Send(&val, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
