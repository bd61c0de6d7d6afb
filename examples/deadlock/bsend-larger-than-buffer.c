/* mpiverify-test: np=2 record=ok replay=not-reproduced
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 0 attaches a buffer with room for 100 bytes of data and sends 4000 bytes with
 * MPI_Bsend: erroneous whatever the library buffers (MPI-4.1 3.6, "an error will occur if
 * there is insufficient buffer space"), since the message is copied into the buffer before
 * it goes anywhere. MPICH fails the call; Open MPI 4.1 lets it through. The program asks for
 * errors to be returned and, when the call fails, sends the data with MPI_Send, so that it
 * completes on either library, and replay cannot show the error as a hang. check reports
 * the buffered send that overflows the buffer in every mode (it once did only without
 * buffering). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1000 /* ints */

int main(int argc, char **argv)
{
	int rank, size = 100 + MPI_BSEND_OVERHEAD, data[N] = {0};
	void *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rank == 0) {
		buf = malloc((size_t)size);
		MPI_Buffer_attach(buf, size);
		if (MPI_Bsend(data, N, MPI_INT, 1, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
			printf("MPI_Bsend failed: no room in the buffer\n");
			MPI_Send(data, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
		}
		MPI_Buffer_detach(&buf, &size);
		free(buf);
	} else if (rank == 1) {
		MPI_Recv(data, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
