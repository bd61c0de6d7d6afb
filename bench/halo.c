/* Recorder overhead on a realistic loop: a 1-D ring halo exchange (Irecv left and right, Isend
 * right and left, Waitall) around a stencil sweep over each rank's cells, so that computation
 * dominates as it does in applications. Prints one line on rank 0: iterations, CPU seconds
 * (bench_clock.h) and MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

#define CELLS 20000 /* cells per rank: a few tens of microseconds of stencil per iteration */

int main(int argc, char **argv)
{
	int rank, size, left, right, i, k, iters = argc > 1 ? atoi(argv[1]) : 2000;
	double *u, *v, *t, t0, t1, sum = 0.0;
	MPI_Request reqs[4];
	MPI_Status st[4];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	/* two ghost cells: u[0] from the left, u[CELLS + 1] from the right */
	u = calloc(CELLS + 2, sizeof(*u));
	v = calloc(CELLS + 2, sizeof(*v));
	if (!u || !v)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (k = 1; k <= CELLS; k++)
		u[k] = (double)((rank * CELLS + k) % 97);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = bench_seconds();
	for (i = 0; i < iters; i++) {
		MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
		MPI_Irecv(&u[CELLS + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
		MPI_Isend(&u[CELLS], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[2]);
		MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[3]);
		MPI_Waitall(4, reqs, st);
		for (k = 1; k <= CELLS; k++)
			v[k] = 0.25 * u[k - 1] + 0.5 * u[k] + 0.25 * u[k + 1];
		t = u;
		u = v;
		v = t;
	}
	t1 = bench_seconds();
	for (k = 1; k <= CELLS; k++)
		sum += u[k];
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		/* iterations, seconds, MPI calls of a rank in the loop, in all */
		printf("%d %.6f %d %d\n", iters, t1 - t0, 5 * iters, 5 * iters + 4);
	if (sum < 0) /* keeps the stencil from being optimised away */
		printf("%g\n", sum);
	free(u);
	free(v);
	MPI_Finalize();
	return 0;
}
