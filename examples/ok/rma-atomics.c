/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Passive target with the atomic data calls: every rank, inside one MPI_Win_lock_all epoch,
 * adds 1 to its right neighbour's counter (MPI_Fetch_and_op), swaps a flag there
 * (MPI_Compare_and_swap) and adds its rank while reading the old value (MPI_Get_accumulate);
 * then all meet in MPI_Barrier and rank 0 checks its counter. Local calls, as MPI_Accumulate
 * is: recorded with their target and bytes, and no deadlock whatever the buffering. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, right, one = 1, old = 0, flag = 1, zero = 0, got = 0;
	int *mem;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
	mem[0] = mem[1] = 0;
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock_all(0, win);
	MPI_Fetch_and_op(&one, &old, MPI_INT, right, 0, MPI_SUM, win);
	MPI_Win_flush(right, win);
	MPI_Compare_and_swap(&flag, &zero, &got, MPI_INT, right, 1, win);
	MPI_Get_accumulate(&rank, 1, MPI_INT, &old, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0 && mem[0] != 1 + size - 1)
		printf("rank 0: counter %d, want %d\n", mem[0], size);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
