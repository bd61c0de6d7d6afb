/* A run that deadlocks late, for bench/run.sh's judge part: two ranks make ROUNDS (argv[1])
 * round trips of 8 bytes, then each sends the other 1 MiB with MPI_Ssend before it
 * receives, a head-to-head that never completes. Built with -DNOHANG, the same run ends
 * after the round trips instead. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	static char big[1 << 20];
	long rounds = argc > 1 ? atol(argv[1]) : 1000, i;
	int rank;
	double x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < rounds && rank < 2; i++) {
		if (rank == 0) {
			MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
		}
	}
#ifndef NOHANG
	if (rank < 2) {
		MPI_Ssend(big, sizeof(big), MPI_CHAR, 1 - rank, 1, MPI_COMM_WORLD);
		MPI_Recv(big, sizeof(big), MPI_CHAR, 1 - rank, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
#endif
	MPI_Finalize();
	return 0;
}
