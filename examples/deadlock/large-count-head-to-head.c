/* mpiverify-test: np=2 record=ok mpi=4 verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Both ranks send first and receive after, with MPI-4's large-count calls (MPI_Send_c,
 * MPI_Recv_c; MPI-4.1 2.5.8): the same operations as MPI_Send and MPI_Recv, their counts
 * an MPI_Count. Each message is one int, which MPICH buffers, so the recorded run completes;
 * without buffering both sends wait for receives that come after them. Unrecorded, these
 * calls once made check answer "no deadlock" here; a count that fits an int is followed
 * as its int-count twin's (doc/mpi-calls.md). */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, out, in = -1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	out = rank;
	if (rank < 2) {
		MPI_Send_c(&out, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
		MPI_Recv_c(&in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
