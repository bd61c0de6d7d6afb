/* MPI initialised by another thread than the process's initial one (tests/e2e/threads.sh):
 * a program whose main only starts a thread and joins it, the thread doing all of MPI, as
 * programs that run MPI beside a GUI, a runtime or a language's own main loop do. MPI-4.1
 * 11.6.1 calls the thread that initialised MPI the main thread: below MPI_THREAD_MULTIPLE
 * every call must come from it (FUNNELED) or one at a time (SERIALIZED), and the trace is one
 * sequence of calls whichever thread of the process made them.
 *
 *	-DLEVEL=n	0 MPI_Init; else MPI_Init_thread asking for MPI_THREAD_FUNNELED (1),
 *			SERIALIZED (2) or MULTIPLE (3)
 *	-DNEST=1	the thread that initialises MPI is made by a thread main made
 *	-DBUG=n		0 ranks 0 and 1 exchange a message each way, in order; 1 both send
 *			first (head to head: a deadlock without buffering, MPI-4.1 3.5)
 *	-DINITIAL=1	the initial thread also exchanges a message of its own, on another
 *			tag, once MPI is initialised: two threads that call MPI, at once under
 *			MULTIPLE, one after the other below it (erroneous below SERIALIZED)
 *
 * Ranks: mpirun -np 2. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef LEVEL
#define LEVEL 1
#endif
#ifndef NEST
#define NEST 0
#endif
#ifndef BUG
#define BUG 0
#endif
#ifndef INITIAL
#define INITIAL 0
#endif

static int *argcp;
static char ***argvp;
static pthread_barrier_t ready; /* INITIAL: MPI is initialised */

/* One message each way between ranks 0 and 1 on tag; head to head with bug. */
static void exchange(int tag, int bug)
{
	int rank, out = tag, in = 0, peer;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	if (rank == 0 || bug) {
		MPI_Send(&out, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
		MPI_Recv(&in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&out, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
	}
}

static void *mpi_main(void *arg)
{
	int provided = MPI_THREAD_SINGLE;

	(void)arg;
	if (LEVEL == 0)
		MPI_Init(argcp, argvp);
	else
		MPI_Init_thread(argcp, argvp, LEVEL, &provided);
	if (LEVEL > 0 && provided < LEVEL) {
		fprintf(stderr, "thread level %d not provided\n", LEVEL);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (INITIAL)
		pthread_barrier_wait(&ready);
	exchange(1, BUG);
	if (INITIAL)
		pthread_barrier_wait(&ready); /* the initial thread's exchange may begin */
	if (INITIAL)
		pthread_barrier_wait(&ready); /* and is over */
	MPI_Finalize();
	return NULL;
}

static void *nest(void *arg)
{
	pthread_t t;

	(void)arg;
	if (pthread_create(&t, NULL, mpi_main, NULL) || pthread_join(t, NULL))
		abort();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	argcp = &argc;
	argvp = &argv;
	pthread_barrier_init(&ready, NULL, 2);
	if (pthread_create(&t, NULL, NEST ? nest : mpi_main, NULL))
		abort();
	if (INITIAL) {
		pthread_barrier_wait(&ready);
		/* below MULTIPLE, one thread's calls after the other's */
		if (LEVEL < 3)
			pthread_barrier_wait(&ready);
		exchange(2, 0);
		if (LEVEL == 3)
			pthread_barrier_wait(&ready);
		pthread_barrier_wait(&ready);
	}
	pthread_join(t, NULL);
	return 0;
}
