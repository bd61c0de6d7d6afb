/* mpiverify-test: np=2 record=ok
 * mpiverify-test: lib=openmpi record=hang
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: lib=openmpi buffering=infinite expect=inconclusive
 * mpiverify-test: buffering=all expect=deadlock
 * Both ranks MPI_Send 6000 bytes to each other before receiving: a potential deadlock, which
 * happens or not with the library's eager threshold (base/mpilib.c). MPICH 4.0.2 buffers up
 * to 8255 bytes between ranks on one host, so the recorded run completes; Open MPI 4.1.4 up to
 * 4040, so it hangs, and the trace ends inside the sends: what a run that buffered them would
 * do next was not recorded (inconclusive under infinite buffering). check --buffering all
 * says of each library's trace whether the deadlock happens with that library's buffering. */
#include <mpi.h>

#define BYTES 6000

int main(int argc, char **argv)
{
	static char out[BYTES], in[BYTES];
	int rank, peer;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	MPI_Send(out, BYTES, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
	MPI_Recv(in, BYTES, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
