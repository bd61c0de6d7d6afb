/* MPI_THREAD_MULTIPLE, for tests/e2e/recorder.sh: on each of two ranks, two threads each play
 * N round trips with the other rank, on their own tag, while the main thread waits for them.
 * Every record must say which thread made it, and the trace must read back in index order.
 * With "blocked", the threads pause 5 ms a round, and rank 0's main thread waits in MPI_Recv
 * for rank 1's main thread, which sends 1.5 s after its threads are done: the recorder writes
 * that call as incomplete after a second, among the threads' calls, then replaces it when it
 * returns.
 * Usage: rec-threads N [blocked] */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, rounds, blocked;
/* Neither thread ends before both made calls: the recorder gives a new thread the number of
 * one that ended. */
static pthread_barrier_t first;

static void *player(void *arg)
{
	int tag = (int)(long)arg, i, buf = 0;
	MPI_Request req;

	for (i = 0; i < rounds; i++) {
		if (rank == 0) {
			MPI_Isend(&i, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &req);
			MPI_Recv(&buf, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
		}
		if (i == 0)
			pthread_barrier_wait(&first);
		if (blocked)
			usleep(5000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	int provided, i;

	rounds = argc > 1 ? atoi(argv[1]) : 1000;
	blocked = argc > 2 && !strcmp(argv[2], "blocked");
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided != MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 77);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	pthread_barrier_init(&first, NULL, 2);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, player, (void *)(long)i);
	if (blocked && rank == 0)
		MPI_Recv(&i, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (blocked && rank == 1) {
		usleep(1500000);
		MPI_Send(&provided, 1, MPI_INT, 0, 99, MPI_COMM_WORLD);
	}
	pthread_barrier_destroy(&first);
	MPI_Finalize();
	return 0;
}
