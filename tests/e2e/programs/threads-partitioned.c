/* Partitioned sends whose partitions threads ready (doc/semantics.md 4.9), for tests/e2e/
 * threads.sh: two ranks, each sending the other PARTS partitions a round and receiving as
 * many, over ROUNDS rounds of the same persistent requests (MPI_Psend_init, MPI_Precv_init).
 * The main thread starts both requests each round; NT threads ready the send's partitions,
 * each its share, and the main thread its own as well with OWNER=1; then it completes both.
 * Compile-time choices (-D):
 *	START=0 MPI_Startall of both requests, 1 MPI_Start of the send, then of the receive
 *		(the send's message goes from the main thread at its first call that may wait)
 *	READY=0 MPI_Pready one partition at a time, 1 MPI_Pready_range, 2 MPI_Pready_list
 *	DONE=0	MPI_Wait of each request, 1 MPI_Waitall, 2 MPI_Test on the send until it
 *		completes, then MPI_Wait of the receive; 3 an MPI_Send to the peer before the
 *		waits (check cannot judge that call between the start and the wait yet)
 *	TEAM=0	threads made each round and joined once the requests are complete
 *		(pthread_create, pthread_join), 1 threads made once that meet the main thread
 *		at barriers each round, 2 an OpenMP team whose master thread completes the
 *		requests once it readied its share (compile with -fopenmp; OWNER is 1)
 *	BUG=1	each rank's first thread (the team's last), before it readies its partitions, waits
 *		for a message
 *		the peer sends only once its own send is complete: neither send completes, a
 *		deadlock in every buffering mode
 * Expected: BUG=0 no deadlock in both buffering modes, BUG=1 a deadlock in both. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NT
#define NT 2
#endif
#ifndef START
#define START 0
#endif
#ifndef READY
#define READY 0
#endif
#ifndef DONE
#define DONE 0
#endif
#ifndef TEAM
#define TEAM 0
#endif
#ifndef OWNER
#define OWNER 1
#endif
#ifndef BUG
#define BUG 0
#endif
#ifndef ROUNDS
#define ROUNDS 3
#endif

#define SHARES (NT + OWNER)  /* who readies partitions */
#define PER 2		     /* partitions each readies */
#define PARTS (SHARES * PER) /* partitions of a send */
#define COUNT 4		     /* doubles a partition */

static double out[PARTS * COUNT], in[PARTS * COUNT];
static MPI_Request req[2];
static int peer;
#if TEAM == 1
static pthread_barrier_t started, completed;
#endif

/* Share s's partitions of the send made ready; share 0 is the first thread's. */
static void ready(int s)
{
	int p = s * PER, i, list[PER];

	if (BUG && s == (TEAM == 2 ? SHARES - 1 : 0)) {
		double x;

		MPI_Recv(&x, 1, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	for (i = 0; i < PER; i++)
		out[(p + i) * COUNT] = p + i;
	if (READY == 0)
		for (i = 0; i < PER; i++)
			MPI_Pready(p + i, req[0]);
	else if (READY == 1)
		MPI_Pready_range(p, p + PER - 1, req[0]);
	else {
		for (i = 0; i < PER; i++)
			list[i] = p + PER - 1 - i;
		MPI_Pready_list(PER, list, req[0]);
	}
}

#if TEAM != 2
static void *worker(void *arg)
{
	int s = (int)(long)arg;
#if TEAM == 1
	int round;

	for (round = 0; round < ROUNDS; round++) {
		pthread_barrier_wait(&started);
		ready(s);
		pthread_barrier_wait(&completed);
	}
#else
	ready(s);
#endif
	return NULL;
}
#endif

static void complete(void)
{
	int done = 0;

	if (DONE == 3) {
		double x = 1;

		MPI_Send(&x, 1, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	if (DONE == 1) {
		MPI_Status st[2];

		MPI_Waitall(2, req, st);
		return;
	}
	if (DONE == 2)
		while (!done)
			MPI_Test(&req[0], &done, MPI_STATUS_IGNORE);
	else
		MPI_Wait(&req[0], MPI_STATUS_IGNORE);
	MPI_Wait(&req[1], MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	int provided, rank, round;
#if TEAM != 2
	pthread_t th[NT];
	long s;
#endif
#if TEAM == 2 && !OWNER
#error "an OpenMP team's master readies a share (OWNER=1)"
#endif

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "no MPI_THREAD_MULTIPLE\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	MPI_Psend_init(out, PARTS, COUNT, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
		       &req[0]);
	MPI_Precv_init(in, PARTS, COUNT, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
		       &req[1]);
#if TEAM == 1
	pthread_barrier_init(&started, NULL, NT + 1);
	pthread_barrier_init(&completed, NULL, NT + 1);
	for (s = 0; s < NT; s++)
		pthread_create(&th[s], NULL, worker, (void *)s);
#endif
	for (round = 0; round < ROUNDS; round++) {
		if (START) {
			MPI_Start(&req[0]);
			MPI_Start(&req[1]);
		} else {
			MPI_Startall(2, req);
		}
#if TEAM == 0
		for (s = 0; s < NT; s++)
			pthread_create(&th[s], NULL, worker, (void *)s);
		if (OWNER)
			ready(NT);
		complete();
		for (s = 0; s < NT; s++)
			pthread_join(th[s], NULL);
#elif TEAM == 1
		pthread_barrier_wait(&started);
		if (OWNER)
			ready(NT);
		complete();
		pthread_barrier_wait(&completed);
#else
#pragma omp parallel num_threads(SHARES)
		{
#pragma omp for schedule(static) nowait
			for (int s = 0; s < SHARES; s++)
				ready(s);
#pragma omp master
			complete();
		}
#endif
		if (BUG) {
			double x = 2;

			MPI_Send(&x, 1, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD);
		}
	}
#if TEAM == 1
	for (s = 0; s < NT; s++)
		pthread_join(th[s], NULL);
#endif
	MPI_Request_free(&req[0]);
	MPI_Request_free(&req[1]);
	MPI_Finalize();
	return 0;
}
