/* mpiverify-test: np=2 record=ok verify=inconclusive
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: replay=not-reproduced
 * Rank 0 sends a message, then cancels the send, while rank 1 counts on receiving it. The
 * cancellation may succeed (MPI-4.1 3.8.4: either the send completes or it is cancelled),
 * and then rank 1 waits for good, whatever the library buffers. MPICH 4.0.2 and Open MPI
 * 4.1.4 do not cancel a send (MPI_Test_cancelled says false), so the run completes and
 * replay cannot make the cancellation succeed: it says "not reproduced". verify, which
 * cannot judge a cancel yet, leaves rank 0's calls from it on out and says "inconclusive". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, x = 7, cancelled = 0;
	MPI_Request r;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
		MPI_Cancel(&r);
		MPI_Wait(&r, &st);
		MPI_Test_cancelled(&st, &cancelled);
		printf("send cancelled: %d\n", cancelled);
	} else {
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
