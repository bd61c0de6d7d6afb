/* For tests/e2e/replay.sh (np=3): a correct program whose control flow depends on which
 * message its wildcard receive took. Rank 0 receives from MPI_ANY_SOURCE, then from the other
 * sender. The recorded run takes rank 2's message first, so the trace says "then receive from
 * rank 1"; check finds the deadlock of the other match order on that recorded path, and replay,
 * forcing that order, sees the program receive from rank 2 instead: it diverges at event 2. */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, val = 0;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		MPI_Recv(&val, 1, MPI_INT, st.MPI_SOURCE == 1 ? 2 : 1, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		/* Rank 1 is late, so that the recorded run matches rank 2 first. */
		if (rank == 1)
			usleep(300000);
		MPI_Send(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
