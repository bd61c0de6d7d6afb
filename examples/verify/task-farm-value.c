/* mpiverify-test: np=4 record=ok verify=ok verify-runs=48
 * A task farm whose stop is a value, the most common way to write one: the master receives a
 * request with MPI_ANY_SOURCE and replies to status.MPI_SOURCE with the next task number, or
 * -1 once the tasks have run out; a worker loops while the number it got is not negative.
 * One tag, one reply call site. Correct on every path, in every buffering mode. A worker that
 * stopped and one that goes on received the same call's message: only its data tells them
 * apart, and verify's model compares it (doc/verify.md, section 2). No deadlock, every
 * decision explored, in at most 4 x tasks + 16 runs. */
#include <mpi.h>

#ifndef NTASKS
#define NTASKS 8
#endif

int main(int argc, char **argv)
{
	int rank, size, next = 0, stopped = 0, task = 0, result;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		while (stopped < size - 1) {
			MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
			task = next < NTASKS ? next++ : -1;
			stopped += task < 0;
			MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD);
		}
	} else {
		result = 0;
		while (task >= 0) {
			MPI_Send(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
			MPI_Recv(&task, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			result = task * task;
		}
	}
	MPI_Finalize();
	return 0;
}
