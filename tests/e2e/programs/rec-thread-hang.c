/* Threads blocked in MPI calls (tests/e2e/recorder.sh): on each of 2 ranks, under
 * MPI_THREAD_MULTIPLE, main waits for a message of tag 6 from the other rank, and with "pair"
 * a thread it made waits for one of tag 5.
 *
 *	rec-thread-hang alone|pair		nobody sends them: a deadlock
 *	rec-thread-hang alone|pair before	a thread made before MPI_Init sends them, 2 s
 *						after the others blocked: the run completes
 *	rec-thread-hang alone|pair after	the same thread, made after MPI_Init
 *
 * record judges a hang on its traces once every thread of a rank that may call MPI is
 * blocked in a call, and must not take the runs with a late sender for hangs while it
 * sleeps: it has made no MPI call yet, and could. */
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank;
static int pair;		 /* a second thread waits */
static pthread_barrier_t inited; /* MPI is initialised: the late thread may call it */

static void *waiter(void *arg)
{
	int x;

	(void)arg;
	MPI_Recv(&x, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return NULL;
}

static void *late(void *arg)
{
	int x = 7;

	(void)arg;
	pthread_barrier_wait(&inited);
	sleep(2);
	if (pair)
		MPI_Send(&x, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD);
	MPI_Send(&x, 1, MPI_INT, 1 - rank, 6, MPI_COMM_WORLD);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *when = argc > 2 ? argv[2] : "";
	int provided, x, sender = *when != '\0';
	pthread_t w, l;

	pair = argc > 1 && !strcmp(argv[1], "pair");
	pthread_barrier_init(&inited, NULL, 2);
	if (!strcmp(when, "before") && pthread_create(&l, NULL, late, NULL))
		abort();
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!strcmp(when, "after") && pthread_create(&l, NULL, late, NULL))
		abort();
	if (sender)
		pthread_barrier_wait(&inited);
	if (pair && pthread_create(&w, NULL, waiter, NULL))
		abort();
	MPI_Recv(&x, 1, MPI_INT, 1 - rank, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (pair)
		pthread_join(w, NULL);
	if (sender)
		pthread_join(l, NULL);
	MPI_Finalize();
	return 0;
}
