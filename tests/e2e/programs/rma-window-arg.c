/* For tests/e2e/replay.sh: MPI-4.1 13.7.3's figure 33 deadlock (as in
 * examples/deadlock/rma-pscw-wait-before-complete.c) over one of two windows: rank 1 posts and
 * waits on the window its argument names (0 or 1, default 0), rank 0 always starts on window 0.
 * Recorded with 0 and replayed with 1, the program names another window than the trace at rank
 * 1's MPI_Win_post: replay must say that it diverged. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, slot[2] = {0, 0}, v = 7, msg = 0, peer, which = argc > 1 ? atoi(argv[1]) : 0;
	MPI_Group world, other;
	MPI_Win win[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &peer, &other);
	MPI_Win_create(&slot[0], sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win[0]);
	MPI_Win_create(&slot[1], sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win[1]);
	if (rank == 0) {
		MPI_Win_start(other, 0, win[0]);
		MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win[0]);
		MPI_Recv(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Win_complete(win[0]);
	} else {
		MPI_Win_post(other, 0, win[which != 0]);
		MPI_Win_wait(win[which != 0]);
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Win_free(&win[1]);
	MPI_Win_free(&win[0]);
	MPI_Group_free(&other);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
