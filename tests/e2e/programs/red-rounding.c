/* A correct program whose floating-point sums round differently in the library's order and in
 * rank order (tests/e2e/reductions.sh): the reduction check must not report it by default,
 * and must with a tolerance of 0. Four or more ranks: with two, both orders are the same sum.
 *
 * Rank r contributes, per element k, a value that makes the sum depend on the order in which
 * it is added up: 1 + 1e-16 + 1e-16 - 1 is 0 from left to right, 2.2e-16 from right to left,
 * and 1.1e-16 as (1 + 1e-16) + (1e-16 - 1), the pairwise order MPICH's recursive doubling
 * uses. Rank 0 gathers every input, adds them up in rank order itself and prints whether
 * the library's result differs ("rank order and library differ" or "... agree"): when they
 * agree the case shows nothing, and the test says so. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 8

int main(int argc, char **argv)
{
	double x[N], sum[N], *all;
	int rank, size, k, r, differ = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (k = 0; k < N; k++) {
		/* a large value first and its negative last, small ones between; the element
		 * shifts the pattern so that other positions are tried too */
		int p = (rank + k) % size;

		x[k] = p == 0 ? 1.0 : p == size - 1 ? -1.0 : 1e-16 * (1 + k % 3);
	}
	MPI_Allreduce(x, sum, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	all = malloc(sizeof(double) * N * size);
	MPI_Gather(x, N, MPI_DOUBLE, all, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (k = 0; k < N; k++) {
			double s = all[k];

			for (r = 1; r < size; r++)
				s += all[r * N + k];
			if (s != sum[k])
				differ++;
		}
		printf("rank order and library %s (%d of %d elements)\n",
		       differ ? "differ" : "agree", differ, N);
	}
	free(all);
	MPI_Finalize();
	return 0;
}
