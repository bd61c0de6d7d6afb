/* mpiverify-test: np=4 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: buffering=eager:1024 expect=ok
 * MPI_Comm_split makes two halves, {0,1} and {2,3}; in each half the two ranks MPI_Send to
 * each other on the half's communicator before receiving: safe only if the MPI library
 * buffers standard sends (a potential deadlock, in each half). The same tag on
 * MPI_COMM_WORLD, received first by every rank, shows that messages on different
 * communicators do not match: the world exchange runs around a ring after it. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, half, peer, out, in;
	MPI_Comm pair;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
	MPI_Comm_rank(pair, &half);
	peer = 1 - half;
	out = rank;
	/* One int: small enough that MPICH sends it eagerly, so the recorded run completes. */
	MPI_Send(&out, 1, MPI_INT, peer, 0, pair);
	MPI_Recv(&in, 1, MPI_INT, peer, 0, pair, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
		     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Comm_free(&pair);
	MPI_Finalize();
	return 0;
}
