/* mpiverify-test: np=2 record=hang
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=inconclusive
 * Rank 0 sends a large message with MPI_Bsend through its attached buffer, then detaches the
 * buffer, then sends rank 1 a small message. MPI_Buffer_detach waits until the buffered
 * message is delivered (MPI-4.1 3.6.1), but rank 1 receives it only after the small one:
 * a deadlock whenever the library keeps the buffered message until it is received (MPICH
 * does for messages above its eager threshold, as this one is). A library that transmits
 * buffered messages at once (infinite) would get past the detach, beyond where the recorded
 * run ended: inconclusive there, since the trace does not say what comes after a hang. */
#include <mpi.h>
#include <stdlib.h>

#define BIG 100000

int main(int argc, char **argv)
{
	int rank, x = 0, size;
	char *big = calloc(BIG, 1), *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		size = BIG + MPI_BSEND_OVERHEAD;
		buf = malloc(size);
		MPI_Buffer_attach(buf, size);
		MPI_Bsend(big, BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
		MPI_Buffer_detach(&buf, &size);
		MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
		free(buf);
	} else {
		MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(big, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	free(big);
	return 0;
}
