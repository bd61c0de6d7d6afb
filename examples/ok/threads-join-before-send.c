/* mpiverify-test: np=2 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 1 creates a thread that sends rank 0 a tag-0 message and receives its tag-7 answer,
 * joins it, and then sends the second tag-0 message. Messages of two threads are not ordered
 * (doc/semantics.md 1.3), but these are: pthread_join returns after everything the thread
 * did. Without that order, the second message could be taken first, and without buffering
 * rank 0's answer and the thread's message would wait for each other: a deadlock no run can
 * have. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static void *ask(void *arg)
{
	int x = 0;

	(void)arg;
	MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	MPI_Recv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, rank, x = 1;
	pthread_t t;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		pthread_create(&t, NULL, ask, NULL);
		pthread_join(t, NULL);
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
