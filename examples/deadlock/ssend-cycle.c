/* mpiverify-test: np=2 record=hang
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Both ranks MPI_Ssend to each other before receiving: a synchronous send completes only when
 * its receive is posted, so no buffering can save it and every run deadlocks. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, peer, out, in;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	out = rank;
	MPI_Ssend(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
	MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
