/* mpiverify-test: np=2 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 sends two "go" messages, both the same int, on tag 0; rank 1 receives them in two
 * threads side by side, each with the same source and tag. Which thread takes which message
 * is the threads' timing, as in ok/threads-shared-tag.c, but here the messages are alike
 * (the same size, the same data: their digests): whichever a thread takes, it gets the same
 * data and status, so no thread can act on which it took, and verify answers "no deadlock"
 * from the first run, whose model holds every order of the threads. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static void *take(void *arg)
{
	int x;

	(void)arg;
	MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	printf("a thread got %d\n", x);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, rank, go = 1;
	pthread_t t[2];

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else if (rank == 1) {
		pthread_create(&t[0], NULL, take, NULL);
		pthread_create(&t[1], NULL, take, NULL);
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
	}
	MPI_Finalize();
	return 0;
}
