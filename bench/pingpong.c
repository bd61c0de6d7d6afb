/* Recorder overhead: a two-rank small-message ping-pong, timed inside the program so that
 * only the MPI loop is measured. Prints one line: iterations, CPU seconds (bench_clock.h) and
 * MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

int main(int argc, char **argv)
{
	int rank, i, iters = argc > 1 ? atoi(argv[1]) : 20000;
	char buf[8] = {0};
	double t0, t1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = bench_seconds();
	for (i = 0; i < iters; i++) {
		if (rank == 0) {
			MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
		}
	}
	t1 = bench_seconds();
	if (rank == 0)
		/* iterations, seconds, MPI calls of a rank in the loop, in all */
		printf("%d %.6f %d %d\n", iters, t1 - t0, 2 * iters, 2 * iters + 3);
	MPI_Finalize();
	return 0;
}
