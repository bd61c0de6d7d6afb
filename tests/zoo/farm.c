/* The farm zoo's program (tests/zoo/README.md): one master, rank 0, hands out NTASKS tasks to
 * the other ranks, its workers, whoever asks first, in every way the macros below combine.
 * tests/zoo/run.sh compiles it once per shape and runs `mpiverify verify` on each:
 *
 *	-DREPLY=n	how the master serves its workers (REPLY_*)
 *	-DSTOP=n	how the work stops (STOP_*)
 *	-DNTASKS=n	tasks, 1 or more
 *	-DBUG=n		0: correct on every path; else one bug planted on one path (BUG_*)
 *	-DROUNDS=n	the whole farm n times over, as a farm per time step (1 or more);
 *			a bug is planted in the last round only
 *	-DSYNC=n	what parts the rounds (SYNC_*)
 *	-DSENDS=n	how requests and replies travel (SENDS_*)
 *
 * Every worker asks first: it sends a request (tag REQ, the result of its last task, 0 at
 * first), then takes the master's reply. A correct shape deadlocks on no path, whatever order
 * the workers answer in and whether standard sends are buffered or not; a buggy one deadlocks
 * on some paths only. */
#include <mpi.h>
#include <stdlib.h>

#define REPLY_SOURCE 1	 /* MPI_Recv(MPI_ANY_SOURCE), reply to status.MPI_SOURCE */
#define REPLY_WAITANY 2	 /* an MPI_Irecv per worker, MPI_Waitany, repost the one answered */
#define REPLY_TESTANY 3	 /* the same, polling with MPI_Testany */
#define REPLY_WAITSOME 4 /* the same with MPI_Waitsome, serving every worker it returns */
#define REPLY_PROBE 5	 /* MPI_Probe(MPI_ANY_SOURCE), then MPI_Recv from the source it found */
#define REPLY_IPROBE 6	 /* the same, polling with MPI_Iprobe */
#define REPLY_TESTSOME 7 /* the requests of REPLY_WAITSOME, polling with MPI_Testsome */
#define REPLY_TESTEACH 8 /* the same requests, polling each in turn with MPI_Test */
#define REPLY_ISOURCE 9	 /* MPI_Irecv(MPI_ANY_SOURCE) and MPI_Wait, reply to its source */
#define REPLY_TSOURCE 10 /* the same, polling with MPI_Test */
#define REPLY_MPROBE 11	 /* MPI_Mprobe(MPI_ANY_SOURCE), then MPI_Mrecv of the message found */
#define REPLY_IMPROBE 12 /* the same, polling with MPI_Improbe */
/* an MPI_Irecv(MPI_ANY_SOURCE) posted ahead: once it completes the next is posted before the
 * reply, and the last, which no request will meet, is cancelled */
#define REPLY_AHEAD 13

/* the replies that keep a receive posted per worker */
#define REQUESTS                                                                        \
	(REPLY == REPLY_WAITANY || REPLY == REPLY_TESTANY || REPLY == REPLY_WAITSOME || \
	 REPLY == REPLY_TESTSOME || REPLY == REPLY_TESTEACH)
/* the replies that may return several requests at once */
#define SOME (REPLY == REPLY_WAITSOME || REPLY == REPLY_TESTSOME)

#define STOP_TAG 1   /* a reply of tag STOP ends a worker */
#define STOP_VALUE 2 /* a reply whose task is -1 ends a worker */
/* every worker knows how many tasks it gets (NTASKS shared out in
 * rank order) and says FINAL with its last result; no stop message */
#define STOP_COUNT 3
/* rounds: each worker asks once a round; a worker the master has no
 * task for gets NONE; MPI_Bcast says whether another round follows */
#define STOP_BCAST 4

/* worker 1 leaves its loop, without a word, when it gets task NTASKS / 2: the master waits
 * for it forever, on the paths where worker 1 gets that task */
#define BUG_TASK 1
/* the worker that gets the last task tells the master so (tag LAST), and the master expects
 * it from the highest worker: it waits forever where another worker got it */
#define BUG_LAST 2
/* a worker other than the highest that gets the last task aborts (the program assumes the
 * highest one gets it): a crash on the paths where another worker gets it */
#define BUG_ABORT 3

/* what parts one round from the next: without it, a worker's request of the next round could
 * meet the master's receive of the last, unless every worker's round ends on a reply the
 * master sends once it has taken every request of the round (STOP_TAG, STOP_VALUE) */
#define SYNC_NONE 0	 /* nothing: the rounds one after the other on MPI_COMM_WORLD */
#define SYNC_BARRIER 1	 /* MPI_Barrier */
#define SYNC_ALLREDUCE 2 /* MPI_Allreduce of the workers' results, a time step's sum */
#define SYNC_COMM 3	 /* nothing: each round on a duplicate of MPI_COMM_WORLD of its own */

#define SENDS_PLAIN 0 /* MPI_Send and MPI_Recv */
/* the master replies with MPI_Isend, and waits for its last reply to a worker before the
 * next, and for them all at the end */
#define SENDS_ISEND 1
#define SENDS_SENDRECV 2 /* a worker asks with MPI_Sendrecv: its request out, the reply in */
/* a worker posts the reply's MPI_Irecv before it sends its request, then waits for it */
#define SENDS_IRECV_FIRST 3

#ifndef REPLY
#define REPLY REPLY_SOURCE
#endif
#ifndef SENDS
#define SENDS SENDS_PLAIN
#endif
#ifndef STOP
#define STOP STOP_TAG
#endif
#ifndef NTASKS
#define NTASKS 4
#endif
#ifndef BUG
#define BUG 0
#endif
#ifndef ROUNDS
#define ROUNDS 1
#endif
#ifndef SYNC
#define SYNC SYNC_BARRIER
#endif

/* the tags */
enum { TAG_REQ = 1, TAG_WORK, TAG_STOP, TAG_FINAL, TAG_NONE, TAG_LAST };

static int nworkers;
static MPI_Comm comm; /* the round's */
static int bug;	      /* BUG, in the last round; else 0 */

/* ---- the master ---- */

/* What the master keeps between requests. */
struct master {
	int next;	   /* the next task to hand out */
	int working;	   /* workers not stopped yet */
	MPI_Request *rq;   /* REPLY_WAITANY and kin: one receive per worker */
	int *in;	   /* and its buffer */
	int last;	   /* REPLY_TESTEACH: the worker (from 0) whose request completed last */
	MPI_Request *out;  /* SENDS_ISEND: the last reply to each worker */
	int *task;	   /* and its buffer */
	MPI_Request ahead; /* REPLY_AHEAD: the receive posted ahead */
	int inbox;	   /* and its buffer */
};

/* The reply to worker w's request: the next task, or the end (a stop or a NONE). Returns
 * 1 if w asks again. */
static int serve(struct master *m, int w)
{
	int task = m->next < NTASKS ? m->next++ : -1, tag = TAG_WORK;

	if (task < 0 && STOP == STOP_BCAST)
		tag = TAG_NONE;
	else if (task < 0 && STOP == STOP_TAG)
		tag = TAG_STOP;
	if (SENDS == SENDS_ISEND) {
		MPI_Wait(&m->out[w - 1], MPI_STATUS_IGNORE);
		m->task[w - 1] = task;
		MPI_Isend(&m->task[w - 1], 1, MPI_INT, w, tag, comm, &m->out[w - 1]);
	} else {
		MPI_Send(&task, 1, MPI_INT, w, tag, comm);
	}
	if (task >= 0 || STOP == STOP_BCAST)
		return 1;
	m->working--;
	return 0;
}

/* Take the next request, wherever it comes from (REPLY); returns its worker, its tag in *tag. */
static int take(struct master *m, int *tag)
{
	MPI_Status st;
	MPI_Request r;
	MPI_Message mm;
	int msg, flag = 0, i, w;

	switch (REPLY) {
	case REPLY_PROBE:
		MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
		MPI_Recv(&msg, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, comm, &st);
		break;
	case REPLY_IPROBE:
		while (!flag)
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st);
		MPI_Recv(&msg, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, comm, &st);
		break;
	case REPLY_WAITANY:
		MPI_Waitany(nworkers, m->rq, &i, &st);
		break;
	case REPLY_TESTANY:
		while (!flag)
			MPI_Testany(nworkers, m->rq, &i, &flag, &st);
		break;
	case REPLY_TESTEACH:
		/* the next worker's request after the one served last, and so on around */
		for (i = m->last; !flag;) {
			i = (i + 1) % nworkers;
			if (m->rq[i] != MPI_REQUEST_NULL)
				MPI_Test(&m->rq[i], &flag, &st);
		}
		m->last = i;
		break;
	case REPLY_MPROBE:
		MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &mm, &st);
		MPI_Mrecv(&msg, 1, MPI_INT, &mm, &st);
		break;
	case REPLY_IMPROBE:
		while (!flag)
			MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &mm, &st);
		MPI_Mrecv(&msg, 1, MPI_INT, &mm, &st);
		break;
	case REPLY_AHEAD:
		MPI_Wait(&m->ahead, &st);
		msg = m->inbox;
		MPI_Irecv(&m->inbox, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &m->ahead);
		break;
	case REPLY_ISOURCE:
	case REPLY_TSOURCE:
		MPI_Irecv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r);
		if (REPLY == REPLY_ISOURCE)
			MPI_Wait(&r, &st);
		while (!flag && REPLY == REPLY_TSOURCE)
			MPI_Test(&r, &flag, &st);
		break;
	default:
		MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
		break;
	}
	*tag = st.MPI_TAG;
	w = st.MPI_SOURCE;
	return w;
}

/* Post worker w's receive (the request kinds). */
static void post(struct master *m, int w)
{
	MPI_Irecv(&m->in[w - 1], 1, MPI_INT, w, MPI_ANY_TAG, comm, &m->rq[w - 1]);
}

/* One request of worker w, tagged tag, served; its receive posted again if it asks again.
 * Returns 1 if the request was a FINAL (STOP_COUNT). */
static int answer(struct master *m, int w, int tag)
{
	int again;

	if (tag == TAG_FINAL) {
		m->working--;
		return 1;
	}
	again = serve(m, w);
	/* rounds post their receives as they start */
	if (again && STOP != STOP_BCAST && REQUESTS)
		post(m, w);
	return 0;
}

/* Requests until every worker stopped (or, rounds, until each asked once). */
static void serve_all(struct master *m, int requests)
{
	MPI_Status *sts = malloc((size_t)nworkers * sizeof(*sts));
	int *idx = malloc((size_t)nworkers * sizeof(*idx));
	int tag, w, n, k, served = 0;

	while (requests ? served < requests : m->working > 0) {
		if (SOME) {
			n = 0;
			if (REPLY == REPLY_WAITSOME)
				MPI_Waitsome(nworkers, m->rq, &n, idx, sts);
			else
				while (n == 0)
					MPI_Testsome(nworkers, m->rq, &n, idx, sts);
			for (k = 0; k < n; k++, served++)
				answer(m, idx[k] + 1, sts[k].MPI_TAG);
			continue;
		}
		w = take(m, &tag);
		answer(m, w, tag);
		served++;
	}
	free(sts);
	free(idx);
}

/* REPLY_AHEAD: post the first receive (start), or cancel the last */
static void ahead(struct master *m, int start)
{
	if (REPLY != REPLY_AHEAD)
		return;
	if (start) {
		MPI_Irecv(&m->inbox, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &m->ahead);
		return;
	}
	MPI_Cancel(&m->ahead);
	MPI_Wait(&m->ahead, MPI_STATUS_IGNORE);
}

static void master(void)
{
	struct master m = {0, nworkers, NULL, NULL, -1, NULL, NULL, MPI_REQUEST_NULL, 0};
	int w, more = 1, tag;

	m.rq = malloc((size_t)nworkers * sizeof(*m.rq));
	m.in = malloc((size_t)nworkers * sizeof(*m.in));
	m.out = malloc((size_t)nworkers * sizeof(*m.out));
	m.task = malloc((size_t)nworkers * sizeof(*m.task));
	for (w = 1; w <= nworkers; w++)
		m.rq[w - 1] = m.out[w - 1] = MPI_REQUEST_NULL;
	if (STOP == STOP_BCAST) {
		while (more) {
			for (w = 1; w <= nworkers && REQUESTS; w++)
				post(&m, w);
			ahead(&m, 1);
			serve_all(&m, nworkers);
			ahead(&m, 0);
			more = m.next < NTASKS;
			MPI_Bcast(&more, 1, MPI_INT, 0, comm);
		}
	} else {
		if (REQUESTS)
			for (w = 1; w <= nworkers; w++)
				post(&m, w);
		ahead(&m, 1);
		serve_all(&m, 0);
		ahead(&m, 0);
	}
	if (SENDS == SENDS_ISEND)
		MPI_Waitall(nworkers, m.out, MPI_STATUSES_IGNORE);
	if (bug == BUG_LAST)
		MPI_Recv(&tag, 1, MPI_INT, nworkers, TAG_LAST, comm, MPI_STATUS_IGNORE);
	free(m.rq);
	free(m.in);
	free(m.out);
	free(m.task);
}

/* ---- a worker ---- */

/* How many tasks worker w gets with STOP_COUNT: NTASKS shared out in rank order. */
static int quota(int w)
{
	return NTASKS / nworkers + (w - 1 < NTASKS % nworkers);
}

/* One request and its reply; returns the task, or -1 once the worker is to stop. */
static int ask(int rank, int result, int *round_over)
{
	MPI_Status st;
	MPI_Request r;
	int task;

	if (SENDS == SENDS_SENDRECV) {
		MPI_Sendrecv(&result, 1, MPI_INT, 0, TAG_REQ, &task, 1, MPI_INT, 0, MPI_ANY_TAG,
			     comm, &st);
	} else if (SENDS == SENDS_IRECV_FIRST) {
		MPI_Irecv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, comm, &r);
		MPI_Send(&result, 1, MPI_INT, 0, TAG_REQ, comm);
		MPI_Wait(&r, &st);
	} else {
		MPI_Send(&result, 1, MPI_INT, 0, TAG_REQ, comm);
		MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, comm, &st);
	}
	*round_over = st.MPI_TAG == TAG_NONE;
	if (st.MPI_TAG == TAG_STOP || st.MPI_TAG == TAG_NONE)
		return -1;
	(void)rank;
	return task;
}

static MPI_Request last = MPI_REQUEST_NULL;
static int lasttask;

static void work(int rank, int task, int *result)
{
	*result = task * task + rank;
	if (bug == BUG_ABORT && task == NTASKS - 1 && rank != nworkers)
		abort();
	/* waited for as the worker ends: the master takes it after its loop */
	if (bug == BUG_LAST && task == NTASKS - 1) {
		lasttask = task;
		MPI_Isend(&lasttask, 1, MPI_INT, 0, TAG_LAST, comm, &last);
	}
}

/* A round of the worker's; returns its last result. */
static int worker(int rank)
{
	int result = 0, task, done = 0, more = 1, idle;

	if (STOP == STOP_BCAST) {
		while (more) {
			task = ask(rank, result, &idle);
			if (bug == BUG_TASK && rank == 1 && task == NTASKS / 2)
				return result;
			if (task >= 0)
				work(rank, task, &result);
			MPI_Bcast(&more, 1, MPI_INT, 0, comm);
		}
		return result;
	}
	for (;;) {
		if (STOP == STOP_COUNT && done == quota(rank)) {
			MPI_Send(&result, 1, MPI_INT, 0, TAG_FINAL, comm);
			return result;
		}
		task = ask(rank, result, &idle);
		if (task < 0)
			return result;
		if (bug == BUG_TASK && rank == 1 && task == NTASKS / 2)
			return result;
		work(rank, task, &result);
		done++;
	}
}

int main(int argc, char **argv)
{
	MPI_Comm comms[ROUNDS];
	int rank, size, r, result = 0, sum;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	nworkers = size - 1;
	if (nworkers < 1)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (r = 0; r < ROUNDS; r++)
		if (SYNC == SYNC_COMM)
			MPI_Comm_dup(MPI_COMM_WORLD, &comms[r]);
		else
			comms[r] = MPI_COMM_WORLD;
	for (r = 0; r < ROUNDS; r++) {
		comm = comms[r];
		bug = r == ROUNDS - 1 ? BUG : 0;
		if (rank == 0)
			master();
		else
			result = worker(rank);
		if (r == ROUNDS - 1)
			break;
		if (SYNC == SYNC_BARRIER)
			MPI_Barrier(MPI_COMM_WORLD);
		else if (SYNC == SYNC_ALLREDUCE)
			MPI_Allreduce(&result, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank != 0)
		MPI_Wait(&last, MPI_STATUS_IGNORE);
	for (r = 0; r < ROUNDS && SYNC == SYNC_COMM; r++)
		MPI_Comm_free(&comms[r]);
	MPI_Finalize();
	return 0;
}
