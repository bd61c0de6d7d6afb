/* mpiverify-test: np=2 record=ok mpi=4 verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 1 sends to rank 0 before a gather that rank 0, its root, enters before receiving, as
 * deadlock/bcast-before-recv.c does with MPI_Bcast, here with MPI-4's large-count
 * MPI_Gatherv_c (its counts an MPI_Count array, its displacements MPI_Aint ones: MPI-4.1
 * 2.5.8). MPICH buffers the small send, so the recorded run completes; but the send may wait
 * for its receive, and the root's gather for rank 1's part, which comes after the send: each
 * rank then waits for the other. Every count fits an int, so the call is followed as
 * MPI_Gatherv (doc/mpi-calls.md); refused, as it once was, it would leave check no verdict. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Count counts[2] = {1, 1};
	MPI_Aint displs[2] = {0, 1};
	int rank, part, all[2], msg = 7;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	part = rank;
	if (rank == 0) {
		MPI_Gatherv_c(&part, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
		MPI_Recv(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("rank 0: gathered %d %d, then received %d\n", all[0], all[1], msg);
	} else if (rank == 1) {
		MPI_Send(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Gatherv_c(&part, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
