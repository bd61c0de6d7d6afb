/* mpiverify-test: np=2 record=ok verify=inconclusive
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 posts a receive for a message nobody sends, gives up on it with MPI_Cancel, and
 * completes it; then both ranks exchange a message. A receive that no message can match may
 * only be cancelled (MPI-4.1 3.8.4): its wait returns, and there is no deadlock. verify
 * cannot judge a cancel yet: it leaves rank 0's calls from the cancel on out of its model,
 * and says "inconclusive" (doc/usage.md, "Calls check leaves out"). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, x = 0, y = 1, cancelled = 0;
	MPI_Request r;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&x, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &r);
		MPI_Cancel(&r);
		MPI_Wait(&r, &st);
		MPI_Test_cancelled(&st, &cancelled);
		if (!cancelled)
			fprintf(stderr, "the receive was not cancelled\n");
	}
	MPI_Sendrecv(&y, 1, MPI_INT, 1 - rank, 0, &x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
