/* mpiverify-test: np=4 record=ok verify=ok verify-runs=48
 * Numerical integration, master/worker (the MPI-SV benchmarks' shape): the integral of
 * 4 / (1 + x^2) over [0, 1], pi, by the trapezoid rule over NTASKS intervals. A worker asks
 * for work by sending its last partial sum; the master takes requests with MPI_ANY_SOURCE,
 * adds the sum, and replies to status.MPI_SOURCE with the next interval, or with -1 once
 * they are all handed out. The stop is a value in the data. Correct on every path, in every
 * buffering mode: no deadlock, every decision explored, in a number of runs that does not
 * grow with the orders in which the workers answer. */
#include <mpi.h>
#include <stdio.h>

#ifndef NTASKS
#define NTASKS 8
#endif
#define STEPS 1000

static double f(double x)
{
	return 4.0 / (1.0 + x * x);
}

/* The trapezoid rule over interval i of NTASKS. */
static double piece(int i)
{
	double a = (double)i / NTASKS, h = 1.0 / NTASKS / STEPS, s = (f(a) + f(a + STEPS * h)) / 2;
	int k;

	for (k = 1; k < STEPS; k++)
		s += f(a + k * h);
	return s * h;
}

int main(int argc, char **argv)
{
	int rank, size, next = 0, task, stopped = 0;
	double sum = 0, part;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		while (stopped < size - 1) {
			MPI_Recv(&part, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
			sum += part;
			task = next < NTASKS ? next++ : -1;
			stopped += task < 0;
			MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
		}
		printf("pi ~ %.10f\n", sum);
	} else {
		part = 0;
		for (;;) {
			MPI_Send(&part, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
			MPI_Recv(&task, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (task < 0)
				break;
			part = piece(task);
		}
	}
	MPI_Finalize();
	return 0;
}
