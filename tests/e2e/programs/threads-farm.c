/* Task farms served by threads (tests/e2e/threads.sh): rank 0's NT server threads each hand
 * out NTASKS tasks to the other ranks, its workers, whichever asks first, while its main
 * thread waits for them; each worker is served by every server in turn. Which worker gets
 * which task is a decision of a server thread: verify steers each thread's own.
 *
 *	-DSERVE=n	how a server takes the next request from any worker:
 *			1 MPI_Recv(MPI_ANY_SOURCE); 2 MPI_Probe(MPI_ANY_SOURCE), then MPI_Recv from
 *			the source found; 3 MPI_Irecv(MPI_ANY_SOURCE) and MPI_Wait; 4 MPI_Iprobe
 *			polled, then MPI_Recv from the source found; 5 an MPI_Irecv from each
 *			worker and MPI_Waitany, the receive of the worker served posted again
 *			while it works on (steered by each server's own requests)
 *	-DNT=n		server threads (1 or more)
 *	-DNEST=1	the servers are made by a thread main made, not by main itself
 *	-DOPENMP=1	the servers are an OpenMP team (compile with -fopenmp): main serves
 *			as its thread 0, the threads the OpenMP runtime makes as the others
 *	-DSHARED=1	every server on MPI_COMM_WORLD, a tag of its own (else a duplicate
 *			communicator each, the way to keep threads' messages apart): servers that
 *			receive from any worker on one communicator race for every request, which
 *			verify cannot steer
 *	-DNTASKS=n	tasks per server
 *	-DBUG=n		0 correct on every path; 1 server 0 expects the notice of its last
 *			task from the highest worker, but the worker that got that task sends it
 *			(once server 0 let it go): a deadlock on the paths where another did. The
 *			other workers ask a little late, so the first run seldom takes such a path:
 *			verify must steer a server there
 *	-DWORKER_THREADS=1  each worker asks every server at once, a thread a server, where
 *			it otherwise asks them in turn
 *	-DINLINE=1	no threads: main serves, each server in turn (the same farm, for
 *			bench/run.sh to set against the threads')
 *	-DIBARRIER=1	every rank ends with MPI_Ibarrier and MPI_Wait, rank 0's main posting
 *			its barrier before it makes the servers: a request of main's, made
 *			while the servers make theirs
 *	-DINIT_THREAD=1	main only starts a thread that does all of the above, MPI_Init_thread
 *			included, and joins it
 *	-DIDLE_BEFORE=1	main first makes a thread that never calls MPI and sleeps to the end,
 *			before MPI_Init (a runtime's or a library's own)
 *
 * Workers: mpirun -np W+1. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#ifndef SERVE
#define SERVE 1
#endif
#ifndef NT
#define NT 1
#endif
#ifndef NEST
#define NEST 0
#endif
#ifndef SHARED
#define SHARED 0
#endif
#ifndef NTASKS
#define NTASKS 2
#endif
#ifndef BUG
#define BUG 0
#endif
#ifndef INLINE
#define INLINE 0
#endif
#ifndef INIT_THREAD
#define INIT_THREAD 0
#endif
#ifndef IDLE_BEFORE
#define IDLE_BEFORE 0
#endif
#ifndef WORKER_THREADS
#define WORKER_THREADS 0
#endif
#ifndef OPENMP
#define OPENMP 0
#endif
#ifndef IBARRIER
#define IBARRIER 0
#endif
#if OPENMP
#include <omp.h>
#endif

/* a server's tags: requests, replies, the notice of its last task */
#define TAG_REQ(s) (10 * (s) + 1)
#define TAG_REPLY(s) (10 * (s) + 2)
#define TAG_LAST(s) (10 * (s) + 3)

static int nworkers;
static MPI_Comm comms[NT];

/* SERVE 5: server s's receive from each worker (MPI_REQUEST_NULL once it stopped), and what
 * it got */
#define MAX_WORKERS 16
static MPI_Request reqs[NT][MAX_WORKERS];
static int vals[NT][MAX_WORKERS];

/* SERVE 5: post server s's receive from worker w (rank w + 1). */
static void post(int s, int w)
{
	MPI_Irecv(&vals[s][w], 1, MPI_INT, w + 1, TAG_REQ(s), comms[s], &reqs[s][w]);
}

/* The next request from any worker on server s's communicator: its value, and who sent it. */
static int take_request(int s, int *source)
{
	MPI_Status st;
	MPI_Request req;
	int v, flag = 0;

	switch (SERVE) {
	case 1:
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, TAG_REQ(s), comms[s], &st);
		break;
	case 2:
		MPI_Probe(MPI_ANY_SOURCE, TAG_REQ(s), comms[s], &st);
		MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_REQ(s), comms[s], &st);
		break;
	case 3:
		MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, TAG_REQ(s), comms[s], &req);
		MPI_Wait(&req, &st);
		break;
	case 4:
		while (!flag)
			MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQ(s), comms[s], &flag, &st);
		MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_REQ(s), comms[s], &st);
		break;
	default:
		MPI_Waitany(nworkers, reqs[s], &flag, &st);
		v = vals[s][flag];
	}
	*source = st.MPI_SOURCE;
	return v;
}

static void *serve(void *arg)
{
	int s = (int)(long)arg, served = 0, stopped = 0, source, task, v, w;

	for (w = 0; SERVE == 5 && w < nworkers; w++)
		post(s, w);
	while (stopped < nworkers) {
		take_request(s, &source);
		task = served < NTASKS ? served++ : -1;
		stopped += task < 0;
		MPI_Send(&task, 1, MPI_INT, source, TAG_REPLY(s), comms[s]);
		if (SERVE == 5 && task >= 0)
			post(s, source - 1); /* its next request */
	}
	if (s == 0 && NTASKS > 0)
		MPI_Recv(&v, 1, MPI_INT, BUG == 1 ? nworkers : MPI_ANY_SOURCE, TAG_LAST(s),
			 comms[s], MPI_STATUS_IGNORE);
	return NULL;
}

static void *servers(void *arg)
{
	pthread_t t[NT];
	long s;

	(void)arg;
	for (s = 0; s < NT; s++)
		pthread_create(&t[s], NULL, serve, (void *)s);
	for (s = 0; s < NT; s++)
		pthread_join(t[s], NULL);
	return NULL;
}

static int my_rank;

/* A worker's turn with server s: ask until it says stop. */
static void *ask(void *arg)
{
	int s = (int)(long)arg, task = 0, result, last = 0;

	for (result = 0;; result = 2 * task) {
		if (my_rank != nworkers)
			usleep(20000);
		MPI_Send(&result, 1, MPI_INT, 0, TAG_REQ(s), comms[s]);
		MPI_Recv(&task, 1, MPI_INT, 0, TAG_REPLY(s), comms[s], MPI_STATUS_IGNORE);
		if (task < 0)
			break;
		last |= task == NTASKS - 1;
	}
	if (s == 0 && last)
		MPI_Send(&task, 1, MPI_INT, 0, TAG_LAST(s), comms[s]);
	return NULL;
}

static void work(void)
{
	pthread_t t[NT];
	long s;

	for (s = 0; s < NT; s++)
		if (WORKER_THREADS)
			pthread_create(&t[s], NULL, ask, (void *)s);
		else
			ask((void *)s);
	for (s = 0; s < NT && WORKER_THREADS; s++)
		pthread_join(t[s], NULL);
}

static int farm(int argc, char **argv)
{
	int provided, rank, size, s;
	MPI_Request end;
	pthread_t t;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	nworkers = size - 1;
	for (s = 0; s < NT; s++)
		if (SHARED)
			comms[s] = MPI_COMM_WORLD;
		else
			MPI_Comm_dup(MPI_COMM_WORLD, &comms[s]);
	if (IBARRIER && rank == 0)
		MPI_Ibarrier(MPI_COMM_WORLD, &end);
	if (rank == 0 && OPENMP) {
#if OPENMP
#pragma omp parallel num_threads(NT)
		serve((void *)(long)omp_get_thread_num());
#endif
	} else if (rank == 0 && INLINE) {
		for (s = 0; s < NT; s++)
			serve((void *)(long)s);
	} else if (rank == 0 && NEST) {
		pthread_create(&t, NULL, servers, NULL);
		pthread_join(t, NULL);
	} else if (rank == 0) {
		servers(NULL);
	} else {
		my_rank = rank;
		work();
	}
	if (IBARRIER && rank != 0)
		MPI_Ibarrier(MPI_COMM_WORLD, &end);
	if (IBARRIER)
		MPI_Wait(&end, MPI_STATUS_IGNORE);
	else
		MPI_Barrier(MPI_COMM_WORLD);
	for (s = 0; s < NT && !SHARED; s++)
		MPI_Comm_free(&comms[s]);
	MPI_Finalize();
	return 0;
}

static int argc_;
static char **argv_;

static void *farm_thread(void *arg)
{
	(void)arg;
	farm(argc_, argv_);
	return NULL;
}

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (IDLE_BEFORE && !pthread_create(&t, NULL, idle, NULL))
		pthread_detach(t);
	if (!INIT_THREAD)
		return farm(argc, argv);
	argc_ = argc;
	argv_ = argv;
	pthread_create(&t, NULL, farm_thread, NULL);
	pthread_join(t, NULL);
	return 0;
}
