/* The reduction check's cost (bench/run.sh reduce): MPI_Allreduce of N doubles (MPI_SUM),
 * timed inside the program so that only the loop is measured. Arguments: N, iterations.
 * Prints one line: iterations, CPU seconds (bench_clock.h) and MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8, iters = argc > 2 ? atoi(argv[2]) : 1000;
	int rank, i;
	double *in, *out, t0, t1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	in = malloc(n * sizeof(*in));
	out = malloc(n * sizeof(*out));
	for (i = 0; i < n; i++)
		in[i] = rank + i * 0.5;
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = bench_seconds();
	for (i = 0; i < iters; i++)
		MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	t1 = bench_seconds();
	if (rank == 0)
		/* iterations, seconds, MPI calls of a rank in the loop, in all */
		printf("%d %.6f %d %d\n", iters, t1 - t0, iters, iters + 3);
	free(in);
	free(out);
	MPI_Finalize();
	return 0;
}
