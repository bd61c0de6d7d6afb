/* mpiverify-test: np=2 record=ok verify=ok verify-runs=1
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * General active target, MPI-4.1 section 13.7.3, figure 34: rank 1 posts its window, then
 * waits in a receive; rank 0's start-put-complete can proceed once the post happened, then its
 * send releases rank 1, whose MPI_Win_wait finds the complete done. Then rank 1 polls a second
 * epoch with MPI_Win_test. No deadlock whatever the library does. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, slot = 0, v = 7, msg = 0, flag = 0, peer;
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
		MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Win_start(other, 0, win);
		MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
		MPI_Win_complete(win);
	} else {
		MPI_Win_post(other, 0, win);
		MPI_Recv(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Win_wait(win);
		MPI_Win_post(other, 0, win);
		while (!flag)
			MPI_Win_test(win, &flag);
		printf("rank 1: done\n");
	}
	MPI_Win_free(&win);
	MPI_Group_free(&other);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
