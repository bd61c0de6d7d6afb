/* A receiver that comes late, for tests/e2e/record-calls.sh: rank 0 sends 1 MiB (past any
 * eager threshold: the send waits for its receive) while rank 1 sleeps three seconds before
 * receiving it. Recorded with --timestamps, check must warn of a long send: one ten times as
 * long as its receive, which a loaded machine (the other lane of make check, another job
 * beside it) can stretch to a few hundred milliseconds, and rank 0 may come to its send late
 * by as much. */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

#define BYTES (1 << 20)

int main(int argc, char **argv)
{
	char *buf = calloc(BYTES, 1);
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Send(buf, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
	} else {
		sleep(3);
		MPI_Recv(buf, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	free(buf);
	return 0;
}
