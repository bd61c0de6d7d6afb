/* mpiverify-test: np=2 record=hang verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=inconclusive
 * mpiverify-test: buffering=all expect=deadlock
 * Rank 0 sends 100000 bytes that nobody receives, cancels the send and waits for it; then
 * both ranks meet in a barrier. When the cancellation fails, the send goes on as it would
 * have: unbuffered, it waits for a receive that never comes. MPI-4.1 3.8.4 says such a wait
 * returns, but MPICH 4.0.2 and Open MPI 4.1.4 do not cancel a send, and above their eager
 * threshold the wait hangs: a potential deadlock, which the recorded run shows (rank 1 waits
 * in the barrier). The trace ends inside the wait, so under infinite buffering what rank 0
 * would have done next was not recorded (inconclusive). verify, which cannot judge a cancel
 * yet and leaves it out, confirms the hang its first run shows. */
#include <mpi.h>

#define BYTES 100000

static char buf[BYTES];

int main(int argc, char **argv)
{
	int rank;
	MPI_Request r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Isend(buf, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r);
		MPI_Cancel(&r);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
