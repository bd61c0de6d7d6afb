/* mpiverify-test: np=4 record=any verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 0 receives from MPI_ANY_SOURCE, probes with MPI_ANY_SOURCE, then receives from rank 1
 * and from rank 3, sources it names whatever the probe found. If the wildcard receive takes
 * rank 3's (late) message, rank 2's MPI_Ssend is never received, so rank 2 never sends rank 1
 * the message it waits for before it sends to rank 0: rank 0 waits in its receive from rank 1,
 * whatever the buffering. The probe takes no message and does not make that receive a
 * wildcard one. */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 1;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Recv(&x, 1, MPI_INT, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	} else if (rank == 2) {
		MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
	} else {
		usleep(300000);
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
