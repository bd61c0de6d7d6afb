/* mpiverify-test: np=4 record=ok verify=inconclusive verify-runs=12
 * A master/worker code in the style of many numerical integration codes: the master keeps
 * one receive posted per worker and serves whichever completes first (MPI_Waitany), replying
 * to that worker and posting its receive again; a negative task stops a worker. Correct on
 * every path. But the calls the master makes after MPI_Waitany (whom it replies to, which
 * request it reposts) change with the index it returned, so every order of indices is a
 * path of its own for verify (doc/verify.md, "Limits"): within 12 runs it has decisions
 * left, and says so (inconclusive), never "no deadlock" and never a deadlock. */
#include <mpi.h>

#ifndef NTASKS
#define NTASKS 8
#endif
#define MAXW 8

int main(int argc, char **argv)
{
	int rank, size, task, result[MAXW], sent = 0, active, w, idx, stop = -1;
	MPI_Request req[MAXW];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		active = size - 1;
		for (w = 1; w < size; w++) {
			MPI_Send(&sent, 1, MPI_INT, w, 0, MPI_COMM_WORLD);
			sent++;
			MPI_Irecv(&result[w - 1], 1, MPI_INT, w, 0, MPI_COMM_WORLD, &req[w - 1]);
		}
		while (active > 0) {
			MPI_Waitany(size - 1, req, &idx, MPI_STATUS_IGNORE);
			if (sent < NTASKS) {
				MPI_Send(&sent, 1, MPI_INT, idx + 1, 0, MPI_COMM_WORLD);
				sent++;
				MPI_Irecv(&result[idx], 1, MPI_INT, idx + 1, 0, MPI_COMM_WORLD,
					  &req[idx]);
			} else {
				MPI_Send(&stop, 1, MPI_INT, idx + 1, 0, MPI_COMM_WORLD);
				active--;
			}
		}
	} else {
		for (;;) {
			MPI_Recv(&task, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (task < 0)
				break;
			task *= 2;
			MPI_Send(&task, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
