/* For tests/e2e/replay.sh (np=2): both ranks MPI_Ssend to each other two function calls below
 * main, so every run deadlocks; the reports of record and replay must show each blocked rank's
 * stack: exchange, then step, then main. */
#include <mpi.h>

static void exchange(int peer)
{
	int out = 1, in;

	MPI_Ssend(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
	MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void step(int rank)
{
	exchange(1 - rank);
}

int main(int argc, char **argv)
{
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	step(rank);
	MPI_Finalize();
	return 0;
}
