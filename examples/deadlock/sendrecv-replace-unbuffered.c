/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 shifts a value with MPI_Sendrecv_replace (its send to rank 1 with tag 0) and then
 * sends rank 1 a second message, tag 5; rank 1 serves rank 0's receive first, but takes the
 * tag-5 message before the tag-0 one. The call's send must therefore complete before rank 1
 * receives it, which it does only while the library buffers the small message, as MPICH
 * does. Replay and verify's steered run send it synchronously out of a packed copy of the
 * buffer (the receive lands in the buffer itself), and the run hangs. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x, y = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	x = rank;
	if (rank == 0) {
		MPI_Sendrecv_replace(&x, 1, MPI_INT, 1, 0, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		MPI_Recv(&y, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
