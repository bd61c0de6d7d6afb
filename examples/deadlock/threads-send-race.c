/* mpiverify-test: np=2 record=ok verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 1's two threads each send rank 0 a tag-0 message and then wait for an answer, the
 * first thread on tag 1, the one it created on tag 2; rank 0 answers each message in turn,
 * tag 1 after the first, tag 2 after the second. Messages of two threads are not ordered
 * (doc/semantics.md 1.3): if the created thread's message is taken first, rank 0's tag-1
 * answer waits for a receive the first thread posts only once its own send is taken, which
 * rank 0 does only after that answer: without buffering, a deadlock. The created thread
 * sends a little late, so the recorded run completes; check finds the other order, and
 * replay forces it: it holds the first thread's send back until the other's has returned. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *second(void *arg)
{
	int x = 2;

	(void)arg;
	usleep(200000);
	MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
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
		MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
	} else if (rank == 1) {
		pthread_create(&t, NULL, second, NULL);
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		pthread_join(t, NULL);
	}
	MPI_Finalize();
	return 0;
}
