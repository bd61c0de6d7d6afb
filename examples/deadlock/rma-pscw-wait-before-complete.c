/* mpiverify-test: np=2 record=hang
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * MPI-4.1 section 13.7.3, figure 33: the synchronisation between complete and wait is not
 * symmetric. Rank 1 posts and waits for rank 0's MPI_Win_complete before it sends; rank 0
 * starts, puts, then waits in a receive of that send before it completes. Rank 1's wait
 * cannot return, so the send never comes: a deadlock whatever the library buffers, and MPICH
 * hangs (record and replay). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, slot = 0, v = 7, msg = 0, peer;
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
		MPI_Recv(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Win_complete(win);
	} else {
		MPI_Win_post(other, 0, win);
		MPI_Win_wait(win);
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	printf("rank %d: done\n", rank);
	MPI_Win_free(&win);
	MPI_Group_free(&other);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
