/* verify's one model of the runs of a threaded program (explore/model_threads.c): a rank's
 * threads found by their paths whatever order they first called MPI in, a join that waits
 * for the end of whichever way the joined thread went, a receive that follows the source a
 * thread took, a run that hung in a join, requests numbered by the threads that made them, and
 * runs that stay apart where a thread is created after they part. */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "trace_threads.h"
#include "translate.h"
#include "tr_explore.h"
#include "unit.h"

#define EV(call, rest, thread) "{\"call\": \"" call "\"" rest ", \"thread\": " #thread "}"
#define SITE(a) ", \"site\": {\"module\": 0, \"addr\": " #a "}"
#define SEND(peer, tag, site, thread)                                                        \
	EV("MPI_Send",                                                                       \
	   ", \"peer\": " #peer ", \"tag\": " #tag ", \"comm\": 0, \"bytes\": 4" SITE(site), \
	   thread)
#define RECV(peer, tag, src, mtag, site, thread)                                                \
	EV("MPI_Recv",                                                                          \
	   ", \"peer\": " peer ", \"tag\": " #tag ", \"comm\": 0, \"bytes\": 4, \"src\": " #src \
	   ", \"mtag\": " #mtag SITE(site),                                                     \
	   thread)
#define INIT EV("MPI_Init_thread", "", 0)
#define FIN EV("MPI_Finalize", "", 0)
#define RANK(events, threads) \
	"\"thread_level\": 3, \"events\": [" events "], \"threads\": [" threads "]"
#define OP(op, self, other, before)                                                               \
	"{\"op\": \"" op "\", \"thread\": " #self ", \"other\": " #other ", \"before\": " #before \
	"}"

/* A server thread's turn with worker w: its request from any sender (a wildcard), then the
 * request's data from that sender, then the task back to it. */
#define TURN(w) RECV("\"any\"", 1, w, 1, 32, 1) ", " RECV(#w, 4, w, 4, 40, 1) ", " SEND(w, 2, 48, 1)
/* Rank 0: main makes the server (thread 1) and a thread that tells rank 2 something (thread
 * 2), joins both, then tells rank 2 to ask again and takes that request itself. In the first
 * run the server takes worker 1 first, and thread 2 calls MPI last; in the second the other
 * way round, so that the rank's processes come in another order. */
#define THREADS               \
	OP("create", 0, 1, 1) \
	", " OP("create", 0, 2, 1) ", " OP("join", 0, 1, 8) ", " OP("join", 0, 2, 8)
#define MAIN_AFTER SEND(2, 6, 72, 0) ", " RECV("2", 1, 2, 1, 80, 0) ", " FIN
/* The workers: each asks, sends the request's data and takes its task; worker 2 then takes
 * thread 2's word and main's, and asks main. */
#define WORKER1                                                                             \
	RANK(INIT ", " SEND(0, 1, 16, 0) ", " SEND(0, 4, 24, 0) ", " RECV("0", 2, 0, 2, 64, \
									  0) ", " FIN,      \
	     "")
#define WORKER2_ASKED SEND(0, 1, 16, 0) ", " SEND(0, 4, 24, 0) ", " RECV("0", 2, 0, 2, 64, 0)
#define WORKER2                                                                                \
	RANK(INIT ", " WORKER2_ASKED                                                           \
		  ", " RECV("0", 5, 0, 5, 88, 0) ", " RECV("0", 6, 0, 6, 96,                   \
							   0) ", " SEND(0, 1, 16, 0) ", " FIN, \
	     "")
static const char *const farm_12[] = {
	RANK(INIT ", " TURN(1) ", " TURN(2) ", " SEND(2, 5, 56, 2) ", " MAIN_AFTER, THREADS),
	WORKER1,
	WORKER2,
	NULL,
};
static const char *const farm_21[] = {
	RANK(INIT ", " SEND(2, 5, 56, 2) ", " TURN(2) ", " TURN(1) ", " MAIN_AFTER, THREADS),
	WORKER1,
	WORKER2,
	NULL,
};

/* A run that hung: worker 1 died at once, the server waits for its request, main waits in
 * its join, worker 2 for main's word. */
static const char *const farm_hung[] = {
	RANK(INIT ", " SEND(2, 5, 56, 2) ", " TURN(2) ", " EV(
		     "MPI_Recv",
		     ", \"peer\": \"any\", \"tag\": 1, \"comm\": 0, \"bytes\": 4, \"incomplete\": "
		     "true" SITE(32),
		     1),
	     OP("create", 0, 1, 1) ", " OP("create", 0, 2, 1)),
	RANK(INIT, ""),
	RANK(INIT ", " WORKER2_ASKED ", " RECV("0", 5, 0, 5, 88, 0) ", " EV(
		     "MPI_Recv",
		     ", \"peer\": 0, \"tag\": 6, \"comm\": 0, \"bytes\": 4, \"incomplete\": true" SITE(
			     96),
		     0),
	     ""),
	NULL,
};

/* Main takes a request from any worker, then makes a thread that answers worker 1, then
 * takes the other request: the thread is made after main learnt something. */
#define LATE(first, second)                                                                       \
	{                                                                                         \
		RANK(INIT ", " RECV("\"any\"", 7, first, 7, 32,                                   \
				    0) ", " SEND(1, 8, 48, 1) ", " RECV("\"any\"", 7, second, 7,  \
									32, 0) ", " FIN,          \
		     OP("create", 0, 1, 2) ", " OP("join", 0, 1, 4)),                             \
			RANK(INIT ", " SEND(0, 7, 16, 0) ", " RECV("0", 8, 0, 8, 64, 0) ", " FIN, \
			     ""),                                                                 \
			RANK(INIT ", " SEND(0, 7, 16, 0) ", " FIN, ""), NULL,                     \
	}
static const char *const late_12[] = LATE(1, 2);
static const char *const late_21[] = LATE(2, 1);

static int load(const char *const ranks[], struct unit_run *r)
{
	return unit_run_load(ranks, 0, r);
}

/* Search m in both buffering modes: neither deadlock nor frontier in either. */
static void search_clean(struct xmodel *m)
{
	int b;

	for (b = ENG_BUF_ZERO; b <= ENG_BUF_INFINITE; b++) {
		struct tr_explore_opts eo;
		struct tr_explore_result res;

		memset(&eo, 0, sizeof(eo));
		m->prog.buffering = b;
		tr_explore(&m->prog, &eo, &res);
		unit_expect_explored(&res);
	}
}

/* The pairs of process q's ENG_THREAD_AFTERs that name ENG_MARK_END. */
static int end_marks(const struct eng_prog *p, int q)
{
	int i, j, n = 0;

	for (i = 0; i < p->nins[q]; i++)
		for (j = 0; p->ins[q][i].op == ENG_THREAD_AFTER && j + 1 < p->ins[q][i].n; j += 2)
			n += p->ins[q][i].list[j + 1] == ENG_MARK_END;
	return n;
}

/* The two orders of the farm, one model: rank 0's threads matched by path (their processes
 * come in another order in the second run), each way of the server ending where main's join
 * waits; no deadlock in either mode, and no frontier: every order the model holds is one of
 * the runs', which it could not be if main told worker 2 to ask again before the server
 * ended (the server would take that request), nor if the server's receive of the request's
 * data looked for the sender of the recorded run rather than the one it took. */
static void test_threads_merged(void)
{
	struct unit_run r[3];
	struct eng_prog *progs[3];
	struct mpiv_traceset *sets[3];
	struct xmodel m;
	struct mpiv_error err;

	CU_ASSERT_FATAL(load(farm_12, &r[0]) == 0);
	CU_ASSERT_FATAL(load(farm_21, &r[1]) == 0);
	CU_ASSERT_EQUAL_FATAL(r[0].prog.nprocs, 5);
	/* the rank's threads first called MPI in other orders */
	CU_ASSERT_EQUAL(r[0].prog.proc_thread[1], 1);
	CU_ASSERT_EQUAL(r[1].prog.proc_thread[1], 2);
	progs[0] = &r[0].prog;
	progs[1] = &r[1].prog;
	sets[0] = &r[0].ts;
	sets[1] = &r[1].ts;
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(xmodel_build(progs, sets, 2, 0, &m, &err), 0);
	CU_ASSERT_EQUAL(m.prog.nprocs, 5);
	CU_ASSERT_EQUAL(m.prog.proc_thread[1], 1);
	CU_ASSERT_EQUAL(end_marks(&m.prog, 0), 2); /* main joins both threads */
	search_clean(&m);
	xmodel_release(&m);
	/* with a run that hung: main stopped in its join, short of the calls of the others;
	 * it went their way (it made their calls up to there), and the model is theirs */
	CU_ASSERT_FATAL(load(farm_hung, &r[2]) == 0);
	progs[2] = &r[2].prog;
	sets[2] = &r[2].ts;
	CU_ASSERT_EQUAL_FATAL(xmodel_build(progs, sets, 3, 0, &m, &err), 0);
	search_clean(&m);
	xmodel_release(&m);
	unit_run_release(&r[2]);
	/* one run alone: the other order is a frontier of its server thread */
	CU_ASSERT_EQUAL_FATAL(xmodel_build(progs, sets, 1, 0, &m, &err), 0);
	{
		struct tr_explore_opts eo;
		struct tr_explore_result res;

		memset(&eo, 0, sizeof(eo));
		tr_explore(&m.prog, &eo, &res);
		CU_ASSERT_EQUAL(res.nstuck, 0);
		CU_ASSERT(res.nfrontiers >= 1);
		CU_ASSERT(res.nfrontiers < 1 || m.prog.proc_rank[res.frontiers[0].proc] == 0);
		tr_explore_release(&res);
	}
	xmodel_release(&m);
	unit_run_release(&r[0]);
	unit_run_release(&r[1]);
}

/* A thread made after its creator learnt an input is not made on every path of the model:
 * such runs are not one model (verify models them each on its own), and one of them alone
 * still is its own. */
static void test_threads_created_late(void)
{
	struct unit_run r[2];
	struct eng_prog *progs[2];
	struct mpiv_traceset *sets[2];
	struct xmodel m;
	struct mpiv_error err;

	CU_ASSERT_FATAL(load(late_12, &r[0]) == 0);
	CU_ASSERT_FATAL(load(late_21, &r[1]) == 0);
	progs[0] = &r[0].prog;
	progs[1] = &r[1].prog;
	sets[0] = &r[0].ts;
	sets[1] = &r[1].ts;
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(xmodel_build(progs, sets, 2, 0, &m, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(err.text, "a thread is created after its creator learnt an input"));
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(xmodel_build(progs, sets, 1, 0, &m, &err), 0);
	CU_ASSERT_EQUAL(m.prog.nprocs, 4);
	xmodel_release(&m);
	unit_run_release(&r[0]);
	unit_run_release(&r[1]);
}

/* Requests by their makers: main and thread 1 make two each, main's second written before
 * thread 1's first, whose id is lower (ids are given as requests are made, events written
 * as calls return), and main waits for its second; steering names each by its number among
 * its thread's. */
static void test_request_numbers(void)
{
#define IRECV(req, thread)                                                                      \
	EV("MPI_Irecv", ", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, \"req\": " #req, \
	   thread)
	static const char *const ranks[] = {
		RANK(INIT ", " IRECV(0, 0) ", " IRECV(2, 0) ", " IRECV(1, 1) ", " EV(
			     "MPI_Wait", ", \"reqs\": [{\"req\": 2, \"src\": 1, \"tag\": 0}]",
			     0) ", " IRECV(3, 1) ", " FIN,
		     OP("create", 0, 1, 1)),
		RANK(INIT ", " FIN, ""),
		NULL,
	};
#undef IRECV
	static const int32_t thread[] = {0, 1, 0, 1}, nth[] = {0, 0, 1, 1};
	struct mpiv_traceset ts;
	int32_t id, n;

	CU_ASSERT_FATAL(unit_load_ranks(ranks, &ts) == 0);
	for (id = 0; id < 4; id++) {
		CU_ASSERT_EQUAL(mpiv_thread_request(&ts.ranks[0], id, &n), thread[id]);
		CU_ASSERT_EQUAL(n, nth[id]);
		CU_ASSERT_EQUAL(mpiv_thread_request_id(&ts.ranks[0], thread[id], nth[id]), id);
	}
	CU_ASSERT_EQUAL(mpiv_thread_request(&ts.ranks[0], 4, &n), -1);
	CU_ASSERT_EQUAL(mpiv_thread_request_id(&ts.ranks[0], 1, 2), -1);
	CU_ASSERT_EQUAL(mpiv_thread_request_id(&ts.ranks[0], 2, 0), -1);
	/* a rank of one thread: the ids */
	CU_ASSERT_EQUAL(mpiv_thread_request(&ts.ranks[1], 0, &n), -1); /* it made none */
	mpiv_traceset_release(&ts);
}

static CU_TestInfo tests[] = {
	{"requests numbered by their threads", test_request_numbers},
	{"runs of threads, one model", test_threads_merged},
	{"a thread made after an input", test_threads_created_late},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo verify_threads_suite = {"verify threads", NULL, NULL, NULL, NULL, tests};
