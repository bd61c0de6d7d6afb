/* mpiverify-test: np=2 record=hang verify=deadlock verify-runs=1
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Each rank probes for the other's message before it sends its own: MPI_Probe blocks until a
 * message is there, and neither will ever be sent. The recorded run hangs inside both
 * probes; the trace ends there, and check must find the rank stuck in its probe, not read a
 * probe that never returned as one that found nothing. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x = 0;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Probe(1 - rank, 0, MPI_COMM_WORLD, &st);
	MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
