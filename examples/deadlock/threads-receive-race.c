/* mpiverify-test: np=2 record=ok verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 1 creates a thread, then receives rank 0's first tag-0 message and replies on tag 5;
 * the thread receives the second, which rank 0 sends only after the reply. Receives of two
 * threads are not ordered (doc/semantics.md 1.3): if the thread's receive is posted first it
 * takes the first message, and the creator waits for the second, which never comes, while
 * rank 0 waits for the reply. The thread starts its receive a little late, so the recorded
 * run always completes; check finds the other order, and replay forces it: it holds the
 * creator's receive back until the thread's has returned. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *second(void *arg)
{
	int x;

	(void)arg;
	usleep(200000);
	MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
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
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else if (rank == 1) {
		pthread_create(&t, NULL, second, NULL);
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
		pthread_join(t, NULL);
	}
	MPI_Finalize();
	return 0;
}
