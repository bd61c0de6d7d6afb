/* verify's model of a farm served in rounds (doc/verify.md section 2): a worker's loop is
 * one loop in each round, whatever the rounds before it did; a round's places are one where
 * its loop is none, unless a run shows the round acting on the one before; and a receive
 * posted again for the worker that answered follows it in every round, although the same
 * call posts each round's first receives afresh, after a barrier or after nothing. */
#include <stddef.h>

#include "model.h"
#include "tr_explore.h"
#include "unit.h"

#define INIT "{\"call\": \"MPI_Init\"}"
#define FIN "{\"call\": \"MPI_Finalize\"}"
#define BARRIER "{\"call\": \"MPI_Barrier\", \"comm\": 0}"
#define SITE(a) ", \"site\": {\"module\": 0, \"addr\": " #a "}"
#define SEND(peer, tag, site)                                          \
	"{\"call\": \"MPI_Send\", \"peer\": " #peer ", \"tag\": " #tag \
	", \"comm\": 0, \"bytes\": 4" SITE(site) "}"
#define RECV(peer, tag, src, site)                                    \
	"{\"call\": \"MPI_Recv\", \"peer\": " peer ", \"tag\": " #tag \
	", \"comm\": 0, \"bytes\": 4, \"src\": " #src ", \"mtag\": " #tag SITE(site) "}"

/* The farm: in each round the master takes requests (tag 1, from any worker) and replies to
 * the worker that asked, with the round's one task (from call site 48) or, once it is handed
 * out, a stop (from 56); a worker asks until it is stopped. An MPI_Barrier ends each round but
 * the last. */
#define ASK(w) RECV("\"any\"", 1, w, 32)
#define TASK(w) ASK(w) ", " SEND(w, 2, 48)
#define STOP(w) ASK(w) ", " SEND(w, 2, 56)
#define ROUND(first, second) TASK(first) ", " STOP(second) ", " STOP(first)
/* a worker's turn: its request (tag 1, call site 16), then the reply, a task or a stop */
#define GETS SEND(0, 1, 16) ", " RECV("0", 2, 0, 64)
#define WORKED GETS ", " GETS
#define IDLE GETS

/* Run a: worker 1 gets round 1's task, worker 2 round 2's; run b the other way round. */
static const char *const rounds_a[] = {
	"[" INIT ", " ROUND(1, 2) ", " BARRIER ", " ROUND(2, 1) ", " FIN "]",
	"[" INIT ", " WORKED ", " BARRIER ", " IDLE ", " FIN "]",
	"[" INIT ", " IDLE ", " BARRIER ", " WORKED ", " FIN "]",
	NULL,
};
static const char *const rounds_b[] = {
	"[" INIT ", " ROUND(2, 1) ", " BARRIER ", " ROUND(1, 2) ", " FIN "]",
	"[" INIT ", " IDLE ", " BARRIER ", " WORKED ", " FIN "]",
	"[" INIT ", " WORKED ", " BARRIER ", " IDLE ", " FIN "]",
	NULL,
};

/* Each run shows a worker taking the task in one round and not the other. Where the rounds
 * stayed apart, a worker's second round would go on from each way its first went, and
 * taking the task there after having taken it in the first (or after not) is an input no run
 * showed: a frontier. The rounds are each a loop: every input the two runs showed in a
 * round is known there, whatever came before, and nothing is left to run. */
static void test_round_loops(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;

	CU_ASSERT_FATAL(unit_run_load(rounds_a, 1, &r[0]) == 0);
	CU_ASSERT_FATAL(unit_run_load(rounds_b, 1, &r[1]) == 0);
	CU_ASSERT_FATAL(unit_merge_search(r, 2, ENG_BUF_ZERO, &m, &res) == 0);
	unit_expect_explored(&res);
	xmodel_release(&m);
	unit_run_release(&r[0]);
	unit_run_release(&r[1]);
}

/* A master that answers each worker from a call of its own (worker 1 from call site 48,
 * worker 2 from 56) takes one request of each a round, whichever comes first: its second
 * receive of a round ends the round, so that its receive is no loop, in a round or as a
 * whole. */
#define ANSWER_1 ASK(1) ", " SEND(1, 2, 48)
#define ANSWER_2 ASK(2) ", " SEND(2, 2, 56)
#define MROUND(first, second) ANSWER_##first ", " ANSWER_##second
#define MASTER(a, b, c, d) "[" INIT ", " MROUND(a, b) ", " BARRIER ", " MROUND(c, d) ", " FIN "]"
#define ASKER "[" INIT ", " GETS ", " BARRIER ", " GETS ", " FIN "]"

/* Three runs (three_runs): worker 1 first in both rounds, worker 2 first in both, and
 * worker 2 first then worker 1. Where the second round went on from each way the first
 * went, worker 2 first in the second round after worker 1 first in the first is a frontier.
 * A round's places (the same calls since the barrier) are one whatever the round before
 * did, where the runs show it: the third run took at the second round's first receive what
 * the first took there, after another first round, and went on alike. */
static const char *const three_runs[3][4] = {
	{MASTER(1, 2, 1, 2), ASKER, ASKER, NULL},
	{MASTER(2, 1, 2, 1), ASKER, ASKER, NULL},
	{MASTER(2, 1, 1, 2), ASKER, ASKER, NULL},
};

static void test_round_places(void)
{
	static const char *const other[] = {
		"[" INIT ", " MROUND(1, 2) ", " BARRIER
					   ", " ASK(1) ", " SEND(1, 2, 64) ", " ANSWER_2 ", " FIN
									   "]",
		ASKER,
		ASKER,
		NULL,
	};
	struct unit_run r[4];
	struct xmodel m;
	struct tr_explore_result res;
	int i;

	for (i = 0; i < 3; i++)
		CU_ASSERT_FATAL(unit_run_load(three_runs[i], 1, &r[i]) == 0);
	CU_ASSERT_FATAL(unit_merge_search(r, 3, ENG_BUF_ZERO, &m, &res) == 0);
	unit_expect_explored(&res);
	xmodel_release(&m);
	/* a fourth run answers worker 1 from another call (64) in the second round after the
	 * first run's first round: the second round acts on the first, and its places are
	 * not one; worker 2 first there after worker 1 first in the first is a frontier
	 * again */
	CU_ASSERT_FATAL(unit_run_load(other, 1, &r[3]) == 0);
	CU_ASSERT_FATAL(unit_merge_search(r, 4, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT(res.nfrontiers > 0);
	tr_explore_release(&res);
	xmodel_release(&m);
	for (i = 0; i < 4; i++)
		unit_run_release(&r[i]);
}

/* The branches of process q of m the runs leave unsettled (struct xmodel's unsettled), and of
 * res's frontiers those at one of them, into *at. */
static int unsettled(const struct xmodel *m, const struct tr_explore_result *res, int q, int *at)
{
	int k, n = 0;

	for (k = 0; k < m->prog.nins[q]; k++)
		n += m->unsettled[q][k];
	for (k = *at = 0; k < res->nfrontiers; k++)
		*at += res->frontiers[k].proc == q && m->unsettled[q][res->frontiers[k].place];
	return n;
}

/* The first two of three_runs take each second round after another first round, and its
 * first receive's inputs differ: nothing says whether the second round goes on alike
 * whatever the first did, or not. Its branches are unsettled, and so are frontiers
 * there (verify makes their runs first: one of them may show it, as the third run does);
 * the first round's are not. Once the third run shows it, no branch is. */
static void test_round_unsettled(void)
{
	struct unit_run r[3];
	struct xmodel m;
	struct tr_explore_result res;
	int i, at;

	for (i = 0; i < 3; i++)
		CU_ASSERT_FATAL(unit_run_load(three_runs[i], 1, &r[i]) == 0);
	CU_ASSERT_FATAL(unit_merge_search(r, 2, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT(res.nfrontiers > 0);
	CU_ASSERT(unsettled(&m, &res, 0, &at) == 2); /* the second round's first receive */
	CU_ASSERT(at > 0);
	CU_ASSERT(unsettled(&m, &res, 1, &at) == 0);
	tr_explore_release(&res);
	xmodel_release(&m);
	CU_ASSERT_FATAL(unit_merge_search(r, 3, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT(unsettled(&m, &res, 0, &at) == 0);
	unit_expect_explored(&res);
	xmodel_release(&m);
	for (i = 0; i < 3; i++)
		unit_run_release(&r[i]);
}

/* The MPI_Waitany farm in rounds: each round posts a receive for each worker (call site
 * 24), takes the first request to complete, replies to its worker and posts that worker's
 * receive again from the same call site. Round 1 serves worker 1 first, round 2 worker 2. */
#define POST(w, req)                              \
	"{\"call\": \"MPI_Irecv\", \"peer\": " #w \
	", \"tag\": 1, \"comm\": 0, \"bytes\": 4, \"reqs\": [{\"req\": " #req "}]" SITE(24) "}"
#define DONE(req, w) "{\"req\": " #req ", \"src\": " #w ", \"tag\": 1}"
#define PENDING(req) "{\"req\": " #req "}"
#define WAITANY(reqs, pending) \
	"{\"call\": \"MPI_Waitany\", \"pending\": " #pending ", \"reqs\": [" reqs "]" SITE(40) "}"
/* A round: the first posts, worker 1's request p1 and worker 2's p2; then the first to ask,
 * worker f (its request rf), gets the task (call site 48) and its receive posted again (request
 * rn); the other, o (ro), gets a stop (56), and so does f when it asks again. */
#define WTASK(f, rf, ro, rn) \
	WAITANY(DONE(rf, f) ", " PENDING(ro), 1) ", " SEND(f, 2, 48) ", " POST(f, rn)
#define WSTOP(o, ro, rn) WAITANY(DONE(ro, o) ", " PENDING(rn), 1) ", " SEND(o, 2, 56)
#define WLAST(f, rn) WAITANY(DONE(rn, f), 0) ", " SEND(f, 2, 56)
#define WROUND(p1, p2, f, rf, o, ro, rn) \
	POST(1, p1)                      \
	", " POST(2, p2) ", " WTASK(f, rf, ro, rn) ", " WSTOP(o, ro, rn) ", " WLAST(f, rn)
/* Round 1 serves worker 1 first, round 2 worker 2. */
#define WROUND_1 WROUND(0, 1, 1, 0, 2, 1, 2)
#define WROUND_2 WROUND(3, 4, 2, 4, 1, 3, 5)

/* Does the model of the one run of farm have both of its reposted receives (a post of call
 * site 24 between a reply and the next MPI_Waitany) follow the source that MPI_Waitany
 * returned, and no deadlock? */
static void expect_reposts_follow(const char *const *farm)
{
	struct unit_run r;
	struct xmodel m;
	struct tr_explore_result res;
	const struct eng_prog *p;
	int k, reposts = 0;

	CU_ASSERT_FATAL(unit_run_load(farm, 1, &r) == 0);
	CU_ASSERT_FATAL(unit_merge_search(&r, 1, ENG_BUF_ZERO, &m, &res) == 0);
	p = &m.prog;
	for (k = 1; k + 1 < p->nins[0]; k++)
		if (p->ins[0][k].op == ENG_POST_RECV && p->ins[0][k - 1].op == ENG_WAIT &&
		    p->ins[0][k + 1].op == ENG_WAITANY) {
			CU_ASSERT(p->ins[0][k].sym & ENG_IN_SOURCE);
			reposts++;
		}
	CU_ASSERT_EQUAL(reposts, 2);
	CU_ASSERT_EQUAL(res.nstuck, 0);
	tr_explore_release(&res);
	xmodel_release(&m);
	unit_run_release(&r);
}

/* The reposted receive of round 2 must follow the source MPI_Waitany returned, as round 1's
 * does: the round's first posts, to each worker in turn whatever the last round's last
 * input, say nothing against it, whether a barrier parts the rounds or the MPI_Waitany that
 * completed the last live request does. */
static void test_round_posts_afresh(void)
{
	static const char *const parted[] = {
		"[" INIT ", " WROUND_1 ", " BARRIER ", " WROUND_2 ", " FIN "]",
		"[" INIT ", " WORKED ", " BARRIER ", " IDLE ", " FIN "]",
		"[" INIT ", " IDLE ", " BARRIER ", " WORKED ", " FIN "]",
		NULL,
	};
	static const char *const unparted[] = {
		"[" INIT ", " WROUND_1 ", " WROUND_2 ", " FIN "]",
		"[" INIT ", " WORKED ", " IDLE ", " FIN "]",
		"[" INIT ", " IDLE ", " WORKED ", " FIN "]",
		NULL,
	};

	expect_reposts_follow(parted);
	expect_reposts_follow(unparted);
}

static CU_TestInfo tests[] = {
	{"a worker's loop is one loop in each round", test_round_loops},
	{"a round's places are one whatever came before", test_round_places},
	{"a round after two others, its inputs apart, is unsettled", test_round_unsettled},
	{"a receive posted again follows in every round", test_round_posts_afresh},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo verify_rounds_suite = {"verify rounds", NULL, NULL, NULL, NULL, tests};
