/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Both ranks MPI_Send to each other before receiving: each send can only complete once it is
 * buffered, so the program is safe only if the MPI library buffers standard sends. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, peer, out, in;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	out = rank;
	/* One int: small enough that MPICH sends it eagerly, so the recorded run completes. */
	MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
	MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
