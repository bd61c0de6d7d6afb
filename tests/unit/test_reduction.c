/* The wildcard reduction (models/engine.c, "interchangeable receives") against the full
 * search: on random programs, many with runs of MPI_ANY_SOURCE receives that the reduction
 * applies to, the reduced search must reach exactly the end states (deadlocked or finished)
 * that the full search reaches, in every buffering mode. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "unit.h"
#include "xalloc.h"

/* ---- a set of states (open addressing; states are compared as bytes) ---- */

struct stset {
	int32_t **slot;
	size_t cap, n, bytes;
};

static size_t st_hash(const int32_t *st, size_t bytes)
{
	const unsigned char *b = (const unsigned char *)st;
	size_t h = 1469598103934665603ULL, i;

	for (i = 0; i < bytes; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* Insert a copy of st; returns 1 if it was new. */
static int stset_add(struct stset *s, const int32_t *st)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct stset bigger = {NULL, s->cap ? 2 * s->cap : 256, 0, s->bytes};

		bigger.slot = xcalloc(bigger.cap, sizeof(*bigger.slot));
		for (i = 0; i < s->cap; i++)
			if (s->slot[i]) {
				size_t j = st_hash(s->slot[i], s->bytes) & (bigger.cap - 1);

				while (bigger.slot[j])
					j = (j + 1) & (bigger.cap - 1);
				bigger.slot[j] = s->slot[i];
				bigger.n++;
			}
		free(s->slot);
		*s = bigger;
	}
	for (i = st_hash(st, s->bytes) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (!memcmp(s->slot[i], st, s->bytes))
			return 0;
	s->slot[i] = xmalloc(s->bytes);
	memcpy(s->slot[i], st, s->bytes);
	s->n++;
	return 1;
}

static int stset_has(const struct stset *s, const int32_t *st)
{
	size_t i;

	if (!s->cap)
		return 0;
	for (i = st_hash(st, s->bytes) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (!memcmp(s->slot[i], st, s->bytes))
			return 1;
	return 0;
}

static void stset_release(struct stset *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

/* Depth-first search from st, storing states in seen and the end states in ends. */
static void search(const struct eng_prog *p, const int32_t *st, struct stset *seen,
		   struct stset *ends)
{
	int n = eng_nchoices(p, st), k;

	if (!stset_add(seen, st))
		return;
	if (n == 0) {
		stset_add(ends, st);
		return;
	}
	for (k = 0; k < n; k++) {
		int32_t *next = xmalloc(eng_state_bytes(p));

		memcpy(next, st, eng_state_bytes(p));
		eng_choose(p, next, k);
		search(p, next, seen, ends);
		free(next);
	}
}

/* ---- random programs ---- */

struct gen {
	struct eng_instr *ins[4];
	int32_t n[4];
	size_t cap[4];
	unsigned seed;
};

static int rnd(struct gen *g, int n)
{
	g->seed = g->seed * 1103515245u + 12345u;
	return (int)((g->seed >> 16) % (unsigned)n);
}

static struct eng_instr *emit(struct gen *g, int r, int op)
{
	struct eng_instr *in;

	xgrow((void **)&g->ins[r], &g->cap[r], (size_t)g->n[r] + 1, sizeof(*in));
	in = &g->ins[r][g->n[r]++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->ev = g->n[r] - 1;
	return in;
}

static void wait_one(struct gen *g, int r, int post)
{
	struct eng_instr *w = emit(g, r, ENG_WAIT);

	w->n = 1;
	w->list = xmalloc(sizeof(*w->list));
	w->list[0] = post;
}

static void blocking(struct gen *g, int r, int op, int peer, int tag, int mode)
{
	struct eng_instr *in = emit(g, r, op);
	int at = g->n[r] - 1;

	in->a = peer;
	in->c = tag;
	in->d = mode;
	in->bytes = 8;
	wait_one(g, r, at);
}

/* A program of nranks ranks: rank 0 is a master that receives with MPI_ANY_SOURCE, the others
 * send to it and to each other, with a few receives of their own; some programs deadlock. */
static void make_program(struct gen *g, struct eng_prog *p, int nranks)
{
	int r, i, nsends = 0, tomaster = 0, maxlive = 1, wants[4] = {0, 0, 0, 0};

	memset(p, 0, sizeof(*p));
	for (r = 1; r < nranks; r++) {
		int ops = 1 + rnd(g, 3);

		for (i = 0; i < ops; i++) {
			int what = rnd(g, 10), other = 1 + rnd(g, nranks - 1);

			if (what < 6) {
				blocking(g, r, ENG_POST_SEND, 0, rnd(g, 4) == 0, rnd(g, 3) == 0);
				tomaster++;
				nsends++;
			} else if (what < 8) {
				blocking(g, r, ENG_POST_SEND, other, 0, rnd(g, 2));
				nsends++;
				/* the receiver takes it somewhere in its program, or never */
				if (rnd(g, 4))
					blocking(g, other, ENG_POST_RECV, r, 0, 0);
			} else if (what == 8) {
				blocking(g, r, ENG_POST_RECV, 0, 0, 0);
				wants[r]++;
			} else {
				blocking(g, r, ENG_POST_RECV, ENG_ANY, 0, 0);
				if (rnd(g, 4) && other != r) {
					blocking(g, other, ENG_POST_SEND, r, 0, rnd(g, 2));
					nsends++;
				}
			}
		}
	}
	/* the master: a run of identical wildcard receives (sometimes one short, sometimes
	 * with a tag that only some messages carry; sometimes nonblocking, then waited for
	 * together), then its sends to the ranks that receive from it, then maybe one more
	 * receive */
	{
		int run = tomaster > 0 ? tomaster - (rnd(g, 4) == 0) : 0;
		int tag = rnd(g, 3) ? ENG_ANY : 0;
		int irecvs = rnd(g, 2) ? rnd(g, run + 1) : 0, posts[8], k;

		if (irecvs > 8)
			irecvs = 8;
		for (k = 0; k < irecvs; k++) {
			struct eng_instr *in = emit(g, 0, ENG_POST_RECV);

			in->a = ENG_ANY;
			in->c = tag;
			posts[k] = g->n[0] - 1;
		}
		if (irecvs) {
			struct eng_instr *w = emit(g, 0, ENG_WAIT);

			w->n = irecvs;
			w->list = xmalloc((size_t)irecvs * sizeof(*w->list));
			memcpy(w->list, posts, (size_t)irecvs * sizeof(*w->list));
			if (irecvs > maxlive)
				maxlive = irecvs;
		}
		for (k = irecvs; k < run; k++)
			blocking(g, 0, ENG_POST_RECV, ENG_ANY, tag, 0);
		for (r = 1; r < nranks; r++)
			for (k = 0; k < wants[r]; k++) {
				blocking(g, 0, ENG_POST_SEND, r, 0, rnd(g, 2));
				nsends++;
			}
		if (rnd(g, 3) == 0)
			blocking(g, 0, ENG_POST_RECV, rnd(g, 2) ? ENG_ANY : 1, ENG_ANY, 0);
	}
	p->nranks = nranks;
	p->ncomms = 1;
	p->comms = xcalloc(1, sizeof(*p->comms));
	p->comms[0].n = nranks;
	p->comms[0].members = xcalloc((size_t)nranks, sizeof(int32_t));
	for (r = 0; r < nranks; r++)
		p->comms[0].members[r] = r;
	p->nins = xcalloc((size_t)nranks, sizeof(*p->nins));
	p->ins = xcalloc((size_t)nranks, sizeof(*p->ins));
	for (r = 0; r < nranks; r++) {
		emit(g, r, ENG_END);
		p->nins[r] = g->n[r];
		p->ins[r] = g->ins[r];
		g->ins[r] = NULL;
		g->n[r] = 0;
		g->cap[r] = 0;
	}
	p->maxlive = maxlive + 1;
	p->maxmsg = nsends > 0 ? nsends : 1;
	eng_layout(p);
}

static void test_same_end_states(void)
{
	int t, m, reduced_smaller = 0, with_deadlock = 0, compared = 0;
	static const int modes[] = {ENG_BUF_ZERO, ENG_BUF_INFINITE};

	for (t = 0; t < 400; t++) {
		struct gen g;
		struct eng_prog p;

		memset(&g, 0, sizeof(g));
		g.seed = 7919u * (unsigned)t + 1;
		make_program(&g, &p, 2 + rnd(&g, 3));
		for (m = 0; m < 2; m++) {
			struct stset seen_full = {NULL, 0, 0, 0}, ends_full = {NULL, 0, 0, 0};
			struct stset seen_red = {NULL, 0, 0, 0}, ends_red = {NULL, 0, 0, 0};
			int32_t *st = xmalloc(eng_state_bytes(&p));
			size_t i, missing = 0;

			seen_full.bytes = ends_full.bytes = eng_state_bytes(&p);
			seen_red.bytes = ends_red.bytes = eng_state_bytes(&p);
			p.buffering = modes[m];
			p.full = 1;
			eng_start(&p, st);
			search(&p, st, &seen_full, &ends_full);
			p.full = 0;
			eng_start(&p, st);
			search(&p, st, &seen_red, &ends_red);
			for (i = 0; i < ends_full.cap; i++)
				if (ends_full.slot[i] && !stset_has(&ends_red, ends_full.slot[i]))
					missing++;
			if (missing || ends_red.n != ends_full.n)
				fprintf(stderr, "\nprogram %d, buffering %d: full search %zu end "
						"states, reduced %zu, %zu missing\n",
					t, modes[m], ends_full.n, ends_red.n, missing);
			CU_ASSERT_EQUAL(missing, 0);
			CU_ASSERT_EQUAL(ends_red.n, ends_full.n);
			for (i = 0; i < ends_full.cap; i++)
				if (ends_full.slot[i] && !eng_all_done(&p, ends_full.slot[i])) {
					with_deadlock++;
					break;
				}
			reduced_smaller += seen_red.n < seen_full.n;
			compared++;
			free(st);
			stset_release(&seen_full);
			stset_release(&ends_full);
			stset_release(&seen_red);
			stset_release(&ends_red);
		}
		eng_prog_release(&p);
	}
	/* the comparison must have bitten: the reduction applied, and deadlocks were there */
	CU_ASSERT(compared == 800);
	CU_ASSERT(reduced_smaller >= 100);
	CU_ASSERT(with_deadlock >= 50 && with_deadlock <= 750);
	fprintf(stderr, "\n  %d searches compared, %d smaller with the reduction, %d with a "
			"deadlock ", compared, reduced_smaller, with_deadlock);
}

static CU_TestInfo reduction_tests[] = {
	{"reduced search reaches the same end states", test_same_end_states},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo reduction_suite = {"reduction", NULL, NULL, NULL, NULL, reduction_tests};
