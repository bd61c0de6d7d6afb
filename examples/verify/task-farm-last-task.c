/* mpiverify-test: np=4 record=any verify=deadlock
 * The task farm of task-farm.c with a bug planted on one path: when worker 1 is the one that
 * gets the last task, the master waits for an acknowledgement (tag 99) that no worker ever
 * sends. Worker 1 is slowed down, so the first run rarely goes that way; verify explores the
 * other answers of the master's wildcard receives until one run takes it, and the run
 * deadlocks there on the real MPI library. */
#include <mpi.h>
#include <unistd.h>

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
				if (sent == NTASKS && st.MPI_SOURCE == 1) /* the bug */
					MPI_Recv(&result, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &st);
			} else {
				MPI_Send(&sent, 1, MPI_INT, st.MPI_SOURCE, STOP, MPI_COMM_WORLD);
			}
		}
	} else {
		for (;;) {
			MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG == STOP)
				break;
			if (rank == 1)
				usleep(20000);
			result = task * task;
			MPI_Send(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
