/* For tests/e2e/replay.sh: rank 1 polls an exposure epoch with MPI_Win_test (as many times as
 * the timing gives) until rank 0's access epoch completes, then both ranks MPI_Ssend to each
 * other: a deadlock. Replay must line the polls up with the recorded ones and find each rank
 * blocked at its recorded MPI_Ssend, without calling the loop a divergence. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, slot = 0, v = 7, flag = 0, peer;
	MPI_Group world, other;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &peer, &other);
	MPI_Win_create(&slot, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	if (rank == 0) {
		MPI_Win_start(other, 0, win);
		MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
		MPI_Win_complete(win);
	} else {
		MPI_Win_post(other, 0, win);
		while (!flag)
			MPI_Win_test(win, &flag);
	}
	MPI_Ssend(&v, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
	MPI_Recv(&v, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Win_free(&win);
	MPI_Group_free(&other);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
