/* mpiverify-test: np=3 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 waits with MPI_Probe(MPI_ANY_SOURCE) until a message is there, then receives from
 * rank 1 and from rank 2, sources it names whatever the probe found. A probe takes no message:
 * each receive gets its own sender's message in every behaviour, even one where the probe
 * finds rank 2's message first. */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 1;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		if (rank == 2)
			usleep(200000);
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
