/* Recorder overhead laid bare: one rank sends to itself on MPI_COMM_SELF (Isend, Recv, Wait),
 * so that nearly all the time is the MPI library's and the recorder's per-call work; with a
 * second argument "dup", on a duplicate of MPI_COMM_SELF, which the recorder must look up in
 * its table of the program's communicators. Prints one line: iterations, CPU seconds
 * (bench_clock.h) and MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

int main(int argc, char **argv)
{
	int i, iters = argc > 1 ? atoi(argv[1]) : 200000;
	char out[8] = {0}, in[8];
	MPI_Request req;
	MPI_Comm comm = MPI_COMM_SELF;
	double t0, t1;

	MPI_Init(&argc, &argv);
	if (argc > 2 && !strcmp(argv[2], "dup"))
		MPI_Comm_dup(MPI_COMM_SELF, &comm);
	t0 = bench_seconds();
	for (i = 0; i < iters; i++) {
		MPI_Isend(out, 8, MPI_CHAR, 0, 0, comm, &req);
		MPI_Recv(in, 8, MPI_CHAR, 0, 0, comm, MPI_STATUS_IGNORE);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	}
	t1 = bench_seconds();
	/* iterations, seconds, MPI calls in the loop, MPI calls in all */
	printf("%d %.6f %d %d\n", iters, t1 - t0, 3 * iters, 3 * iters + 2);
	if (comm != MPI_COMM_SELF)
		MPI_Comm_free(&comm);
	MPI_Finalize();
	return 0;
}
