/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Active target with fences: every rank puts its rank into its right neighbour's window and
 * gets its left neighbour's, each epoch between two MPI_Win_fence calls, which meet as a
 * collective over the window's group. One window is made with MPI_Win_create, one with
 * MPI_Win_allocate, one with MPI_Win_allocate_shared (the ranks share one node), and a
 * dynamic one (MPI_Win_create_dynamic) is made and freed: each creation and free is a
 * collective too. (The values are not checked: what matters is the synchronisation.) */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, right, left, slot = -1, got = -1, *mem, *shared;
	MPI_Win win, win2, win3, dyn;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	MPI_Win_create(&slot, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win2);
	*mem = rank;

	MPI_Win_fence(0, win);
	MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	MPI_Win_fence(0, win2);
	MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, win2);
	MPI_Win_fence(0, win2);
	MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &shared,
				&win3);
	MPI_Win_fence(0, win3);
	MPI_Put(&rank, 1, MPI_INT, left, 0, 1, MPI_INT, win3);
	MPI_Win_fence(0, win3);
	MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
	MPI_Win_free(&dyn);
	printf("rank %d: done\n", rank);

	MPI_Win_free(&win3);
	MPI_Win_free(&win2);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
