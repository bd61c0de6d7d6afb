/* mpiverify-test: np=2 record=ok verify=inconclusive
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 sends two tag-0 messages; rank 1 receives them in two threads side by side, each
 * with the same source and tag. Correct on every path, but which thread takes which message
 * is the threads' timing (doc/semantics.md 1.3), and a thread could act on what it got:
 * verify, which steers a thread's decisions but not the threads' timing, answers
 * inconclusive and names the two receives that compete, where ok/threads-exchange.c, whose
 * threads receive on tags of their own, leaves nothing to steer and is answered "no
 * deadlock" from its first run. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static void *take(void *arg)
{
	int x;

	(void)arg;
	MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, rank, x = 1;
	pthread_t t[2];

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		x = 2;
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else if (rank == 1) {
		pthread_create(&t[0], NULL, take, NULL);
		pthread_create(&t[1], NULL, take, NULL);
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
	}
	MPI_Finalize();
	return 0;
}
