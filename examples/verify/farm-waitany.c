/* mpiverify-test: np=4 record=ok verify=ok verify-runs=48
 * A master/worker code in the style of many numerical integration codes: the master keeps
 * one receive posted per worker and serves whichever completes first (MPI_Waitany), replying
 * to that worker and posting its receive again; a negative task stops a worker. Correct on
 * every path. The master's reply and its reposted receive go to the worker of the request
 * MPI_Waitany returned, whichever it is: verify's model follows that worker (doc/verify.md,
 * "Destinations that follow an input"), so one run stands for every order of the answers,
 * and a worker's stop on a negative task is told from its going on by the message's data.
 * No deadlock, every decision explored, in at most 4 x 8 tasks + 16 runs. */
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
