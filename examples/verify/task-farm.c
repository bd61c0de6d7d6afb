/* mpiverify-test: np=4 record=ok verify=ok verify-runs=52
 * A task farm: the master hands out 9 tasks, one at a time, to whichever of the 3 workers
 * answers first (MPI_ANY_SOURCE), replying to status.MPI_SOURCE, and stops each worker with
 * a message of tag STOP once the tasks are done. Correct on every path: whichever worker
 * answers, the reply goes to it. A check of one run alone keeps the recorded destinations
 * while it lets the wildcard match other workers, and finds executions the program never
 * makes; verify follows the destination to the sender and explores the other answers with
 * runs of their own: no deadlock, every decision explored. */
#include <mpi.h>

#ifndef NTASKS
#define NTASKS 9
#endif
#define WORK 1
#define STOP 2

int main(int argc, char **argv)
{
	int rank, size, task, result, sent = 0, done = 0, w;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		for (w = 1; w < size && sent < NTASKS; w++, sent++)
			MPI_Send(&sent, 1, MPI_INT, w, WORK, MPI_COMM_WORLD);
		while (done < sent) {
			MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
			done++;
			if (sent < NTASKS) {
				MPI_Send(&sent, 1, MPI_INT, st.MPI_SOURCE, WORK, MPI_COMM_WORLD);
				sent++;
			} else {
				MPI_Send(&sent, 1, MPI_INT, st.MPI_SOURCE, STOP, MPI_COMM_WORLD);
			}
		}
	} else {
		for (;;) {
			MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG == STOP)
				break;
			result = task * task;
			MPI_Send(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
