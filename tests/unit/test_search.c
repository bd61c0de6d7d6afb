/* What check makes of a search (translator/tr_search.c): the depth bound, the signature of a
 * deadlock, one entry per distinct deadlock across buffering modes, and whether the recorded
 * run's own choices lead to a deadlock. */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "unit.h"
#include "tr_check.h"

#define INIT "{\"call\": \"MPI_Init\"}"
#define FIN "{\"call\": \"MPI_Finalize\"}"
#define SEND_TO_0 "{\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}"

/* examples/deadlock/wildcard-recv-order.c as recorded: the wildcard took rank 2's message
 * (src), then rank 0 received from rank 1. The other order deadlocks. */
#define WILDCARD_ORDER(src)                                                                   \
	{                                                                                     \
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0,"          \
		" \"comm\": 0, \"bytes\": 4" src "}, {\"call\": \"MPI_Recv\", \"peer\": 1,"   \
		" \"tag\": 0, \"comm\": 0, \"bytes\": 4, \"src\": 1, \"mtag\": 0}, " FIN "]", \
			"[" INIT ", " SEND_TO_0 ", " FIN "]",                                 \
			"[" INIT ", " SEND_TO_0 ", " FIN "]", NULL,                           \
	}

/* Both ranks send to each other first: a deadlock without buffering, whatever happens. */
static const char *const send_cycle[] = {
	"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4},"
	" {\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, \"src\": 1,"
	" \"mtag\": 0}, " FIN "]",
	"[" INIT ", " SEND_TO_0 ", {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0,"
	" \"bytes\": 4, \"src\": 0, \"mtag\": 0}, " FIN "]",
	NULL,
};

static int load(const char *const events[], struct mpiv_traceset *ts, struct eng_prog *prog)
{
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};

	if (unit_load_case(events, ts))
		return -1;
	if (tr_translate(ts, &opts, prog, NULL)) {
		mpiv_traceset_release(ts);
		return -1;
	}
	return 0;
}

/* The counterexample of the first single choice (or of none, with nchoices 0) that leads prog
 * to a deadlock without buffering. Returns 0, or -1 if none does. */
static int first_deadlock(const struct eng_prog *prog, const struct mpiv_traceset *ts, int nchoices,
			  struct mpiv_cex *cex)
{
	static const struct mpiv_buffering zero = {MPIV_BUF_ZERO, 0, 0};
	int k;

	if (!nchoices)
		return tr_cex(prog, ts, 0, NULL, 0, &zero, cex, NULL) == 1 ? 0 : -1;
	for (k = 0; k < nchoices; k++) {
		if (tr_cex(prog, ts, 0, &k, 1, &zero, cex, NULL) == 1)
			return 0;
		mpiv_cex_release(cex);
	}
	return -1;
}

static void test_depth(void)
{
	static const char *const wild[] = WILDCARD_ORDER(", \"src\": 2, \"mtag\": 0");
	struct mpiv_traceset ts;
	struct eng_prog prog;

	CU_ASSERT_EQUAL_FATAL(load(wild, &ts, &prog), 0);
	/* one wildcard receive among 3 ranks */
	CU_ASSERT_EQUAL(tr_search_depth(&prog), 1 * (3 + 3) + 100);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	CU_ASSERT_EQUAL_FATAL(load(send_cycle, &ts, &prog), 0);
	CU_ASSERT_EQUAL(tr_search_depth(&prog), 100);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
}

/* A counterexample of 3 ranks: rank 0 blocked at event 2, rank 1 finished, rank 2 blocked at
 * event 1 in an unbuffered standard send (sync2) or a buffered one; rank 2 finished if r2
 * is -1. The arrays live in the caller. */
static void make_cex(struct mpiv_cex *c, struct mpiv_cex_rank ranks[3], struct mpiv_cex_op *op2,
		     long r2, int sync2, enum mpiv_buffering_mode mode)
{
	memset(c, 0, sizeof(*c));
	memset(ranks, 0, 3 * sizeof(*ranks));
	c->buffering.mode = mode;
	c->nranks = 3;
	c->ranks = ranks;
	ranks[0].blocked_op = 2;
	ranks[1].rank = 1;
	ranks[1].blocked_op = -1;
	ranks[2].rank = 2;
	ranks[2].blocked_op = r2;
	memset(op2, 0, sizeof(*op2));
	op2->op = 1;
	op2->match_rank = -1;
	op2->match_op = -1;
	op2->sync = sync2;
	ranks[2].ops = op2;
	ranks[2].nops = 1;
}

/* sig is the n ranks' blocked events want (-1: not blocked). */
static int same_sig(const long *sig, const long *want, int n)
{
	return !memcmp(sig, want, (size_t)n * sizeof(*sig));
}

/* d was found in the modes of want ("zero, infinite"), in that order. */
static void assert_modes(const struct tr_deadlock *d, const char *want)
{
	char got[128];

	tr_deadlock_modes(d, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void test_signature(void)
{
	static const long all[3] = {2, -1, 1}, core[3] = {2, -1, -1};
	struct mpiv_cex_rank ranks[3];
	struct mpiv_cex_op op2;
	struct mpiv_cex c;
	long *sig;

	make_cex(&c, ranks, &op2, 1, 1, MPIV_BUF_ZERO);
	sig = tr_deadlock_signature(&c, 0);
	CU_ASSERT(same_sig(sig, all, 3));
	free(sig);
	/* the core leaves out rank 2, blocked in its unbuffered standard send */
	sig = tr_deadlock_signature(&c, 1);
	CU_ASSERT(same_sig(sig, core, 3));
	free(sig);
	make_cex(&c, ranks, &op2, 1, -1, MPIV_BUF_ZERO);
	sig = tr_deadlock_signature(&c, 1);
	CU_ASSERT(same_sig(sig, all, 3));
	free(sig);
	/* an MPI_Sendrecv whose receive half nothing matched waits with buffering too */
	make_cex(&c, ranks, &op2, 1, 1, MPIV_BUF_ZERO);
	op2.recv_open = 1;
	sig = tr_deadlock_signature(&c, 1);
	CU_ASSERT(same_sig(sig, all, 3));
	free(sig);
}

/* tr_deadlocks_add() takes a malloc'ed counterexample: a copy of c's arrays. */
static struct mpiv_cex owned(const struct mpiv_cex *c)
{
	struct mpiv_cex o = *c;
	int r;

	o.ranks = calloc(3, sizeof(*o.ranks));
	for (r = 0; r < 3; r++) {
		o.ranks[r] = c->ranks[r];
		o.ranks[r].ops = NULL;
		if (c->ranks[r].nops) {
			o.ranks[r].ops = malloc(c->ranks[r].nops * sizeof(*o.ranks[r].ops));
			memcpy(o.ranks[r].ops, c->ranks[r].ops,
			       c->ranks[r].nops * sizeof(*o.ranks[r].ops));
		}
	}
	return o;
}

static void test_add_and_merge(void)
{
	struct tr_deadlocks set = {NULL, 0};
	struct mpiv_cex_rank ranks[3];
	struct mpiv_cex_op op2;
	struct mpiv_cex c, o;

	/* without buffering: rank 2 stuck in its send */
	make_cex(&c, ranks, &op2, 1, 1, MPIV_BUF_ZERO);
	o = owned(&c);
	tr_deadlocks_add(&set, &o);
	CU_ASSERT_EQUAL(set.n, 1);
	CU_ASSERT_PTR_NULL(o.ranks); /* taken */
	/* the same trail again in the same mode: one entry */
	o = owned(&c);
	tr_deadlocks_add(&set, &o);
	CU_ASSERT_EQUAL(set.n, 1);
	/* with infinite buffering: rank 2 finished, rank 0 stuck the same way */
	make_cex(&c, ranks, &op2, -1, 0, MPIV_BUF_INFINITE);
	o = owned(&c);
	tr_deadlocks_add(&set, &o);
	CU_ASSERT_EQUAL(set.n, 2);
	/* eager: another deadlock (rank 0 stuck elsewhere) */
	make_cex(&c, ranks, &op2, -1, 0, MPIV_BUF_EAGER);
	c.buffering.bytes = 64;
	ranks[0].blocked_op = 3;
	o = owned(&c);
	tr_deadlocks_add(&set, &o);
	CU_ASSERT_EQUAL_FATAL(set.n, 3);
	assert_modes(&set.d[2], "eager-64");

	/* zero's and infinite's are one deadlock, which keeps zero's counterexample */
	tr_deadlocks_merge(&set);
	CU_ASSERT_EQUAL_FATAL(set.n, 2);
	assert_modes(&set.d[0], "zero, infinite");
	CU_ASSERT(set.d[0].in_zero && set.d[0].in_buffered && !set.d[0].in_eager);
	CU_ASSERT_EQUAL(set.d[0].cex.buffering.mode, MPIV_BUF_ZERO);
	CU_ASSERT_EQUAL(set.d[0].cex.ranks[2].blocked_op, 1);
	assert_modes(&set.d[1], "eager-64");
	CU_ASSERT(set.d[1].in_eager && !set.d[1].in_zero);
	tr_deadlocks_release(&set);
	CU_ASSERT_EQUAL(set.n, 0);

	/* the same deadlock with collectives synchronising, then without: both named (a name
	 * that begins another, as "infinite" does "infinite-sync", is still its own) */
	make_cex(&c, ranks, &op2, -1, 0, MPIV_BUF_INFINITE);
	c.buffering.sync_colls = 1;
	o = owned(&c);
	tr_deadlocks_add(&set, &o);
	c.buffering.sync_colls = 0;
	o = owned(&c);
	tr_deadlocks_add(&set, &o);
	tr_deadlocks_merge(&set);
	CU_ASSERT_EQUAL_FATAL(set.n, 1);
	assert_modes(&set.d[0], "infinite-sync, infinite");
	tr_deadlocks_release(&set);
}

static void test_on_recorded_path(void)
{
	static const char *const recorded[] = WILDCARD_ORDER(", \"src\": 2, \"mtag\": 0");
	static const char *const unknown[] = WILDCARD_ORDER("");
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct mpiv_cex cex;

	/* the recorded run took rank 2's message: the deadlock needs the other match */
	CU_ASSERT_EQUAL_FATAL(load(recorded, &ts, &prog), 0);
	CU_ASSERT_EQUAL_FATAL(first_deadlock(&prog, &ts, 2, &cex), 0);
	CU_ASSERT_EQUAL(cex.ranks[0].blocked_op, 2);
	CU_ASSERT_EQUAL(tr_on_recorded_path(&prog, &ts, &cex), 0);
	mpiv_cex_release(&cex);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);

	/* the trace does not say which message the wildcard took */
	CU_ASSERT_EQUAL_FATAL(load(unknown, &ts, &prog), 0);
	CU_ASSERT_EQUAL_FATAL(first_deadlock(&prog, &ts, 2, &cex), 0);
	CU_ASSERT_EQUAL(tr_on_recorded_path(&prog, &ts, &cex), -1);
	mpiv_cex_release(&cex);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);

	/* no choice at all: the recorded path is the deadlock */
	CU_ASSERT_EQUAL_FATAL(load(send_cycle, &ts, &prog), 0);
	CU_ASSERT_EQUAL_FATAL(first_deadlock(&prog, &ts, 0, &cex), 0);
	CU_ASSERT_EQUAL(tr_on_recorded_path(&prog, &ts, &cex), 1);
	mpiv_cex_release(&cex);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
}

static CU_TestInfo search_tests[] = {
	{"depth bound", test_depth},
	{"deadlock signature", test_signature},
	{"one entry per deadlock across modes", test_add_and_merge},
	{"on the recorded path", test_on_recorded_path},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo search_suite = {"search", NULL, NULL, NULL, NULL, search_tests};
