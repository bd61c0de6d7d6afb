/* mpiverify-test: np=3 record=ok verify=ok verify-runs=60
 * The NBX sparse exchange (Hoefler, Siebert, Lumsdaine, 2010), as deal.II, PETSc and libMesh
 * use it, in two rounds: each rank sends to two others with MPI_Issend, polls with
 * MPI_Iprobe(MPI_ANY_SOURCE) and receives what it finds, enters MPI_Ibarrier once its own
 * sends completed, and stops when the barrier completes. Correct on every path, in every
 * buffering mode: a synchronous send completes only once received, so the barrier cannot
 * complete with a message unreceived. verify explores which sender each successful probe
 * finds, and where the polls succeed in another order than its runs showed; a model deadlock
 * with a rank stuck in a poll that a run passes is refuted by that run. No deadlock, every
 * decision explored. */
#include <mpi.h>

#ifndef ROUNDS
#define ROUNDS 2
#endif

/* One exchange: returns the first rank heard from. */
static int exchange(int rank, int size, int round)
{
	int i, flag, done = 0, barrier_on = 0, v, first = -1, out[2];
	MPI_Request sreq[2], breq;
	MPI_Status st, sst[2];

	for (i = 0; i < 2; i++) {
		out[i] = round * 100 + rank;
		MPI_Issend(&out[i], 1, MPI_INT, (rank + 1 + i + round) % size, 7, MPI_COMM_WORLD,
			   &sreq[i]);
	}
	while (!done) {
		MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 7, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			if (first < 0)
				first = st.MPI_SOURCE;
		}
		if (!barrier_on) {
			MPI_Testall(2, sreq, &flag, sst);
			if (flag) {
				MPI_Ibarrier(MPI_COMM_WORLD, &breq);
				barrier_on = 1;
			}
		} else {
			MPI_Test(&breq, &done, MPI_STATUS_IGNORE);
		}
	}
	return first;
}

#ifndef NBX_NO_MAIN
int main(int argc, char **argv)
{
	int rank, size, r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (r = 0; r < ROUNDS; r++)
		exchange(rank, size, r);
	MPI_Finalize();
	return 0;
}
#endif
