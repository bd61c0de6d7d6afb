/* The reductions of the search (models/engine.c, "the reductions": interchangeable receives,
 * one rank's choices) against the full search: on random programs, many with runs of
 * MPI_ANY_SOURCE receives and with several ranks receiving from anyone, the reduced search must
 * reach exactly the end states (deadlocked, erroneous or finished) that the full search
 * reaches, in every buffering mode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "unit.h"
#include "xalloc.h"
#include "tr_check.h"

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

#define GEN_RANKS 5

struct gen {
	struct eng_instr *ins[GEN_RANKS];
	int32_t n[GEN_RANKS];
	size_t cap[GEN_RANKS];
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

/* Make g's instructions the program p of nranks ranks (every rank ending), with room for
 * maxlive requests and nsends messages. */
static void finish_program(struct gen *g, struct eng_prog *p, int nranks, int maxlive, int nsends)
{
	int r;

	memset(p, 0, sizeof(*p));
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
	p->maxlive = maxlive;
	p->maxmsg = nsends > 0 ? nsends : 1;
	eng_layout(p);
}

/* A program of nranks ranks: rank 0 is a master that receives with MPI_ANY_SOURCE, the others
 * send to it and to each other, with a few receives of their own; some programs deadlock. */
static void make_program(struct gen *g, struct eng_prog *p, int nranks)
{
	int r, i, nsends = 0, tomaster = 0, maxlive = 1, wants[GEN_RANKS] = {0};

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
	finish_program(g, p, nranks, maxlive + 1, nsends);
}

/* One message of a mixed program: from s to d with tag; sync: MPI_Ssend; big: more bytes
 * than the eager threshold of the tests (EAGER). */
struct gen_msg {
	int s, d, tag, sync, big;
};

#define EAGER 1024

/* A mixed program of nranks ranks (2 to GEN_RANKS): a set of messages, each sent by its
 * sender and received by its receiver (by a receive that names the sender or MPI_ANY_SOURCE,
 * the tag or MPI_ANY_TAG; a few to the sender itself), every rank making its sends and
 * receives in a random order, blocking or not; nonblocking ones are waited for together (a
 * receive from anyone and a send that may block in one MPI_Waitall among them). Some
 * programs deadlock. */
static void make_mixed(struct gen *g, struct eng_prog *p, int nranks)
{
	struct gen_msg msgs[16];
	int nmsgs = 2 + rnd(g, 3 * nranks), k, r, maxlive = 1;

	if (nmsgs > 16)
		nmsgs = 16;
	for (k = 0; k < nmsgs; k++) {
		msgs[k].s = rnd(g, nranks);
		/* most messages go to rank 0, so that it has candidates to choose from */
		msgs[k].d = rnd(g, 2) ? 0 : rnd(g, nranks);
		/* a few to the sender itself */
		if (msgs[k].d == msgs[k].s && rnd(g, 3))
			msgs[k].d = (msgs[k].s + 1) % nranks;
		msgs[k].tag = rnd(g, 2);
		msgs[k].sync = rnd(g, 4) == 0;
		msgs[k].big = rnd(g, 3) == 0;
	}
	for (r = 0; r < nranks; r++) {
		int items[32], n = 0, i, pending[8], npending = 0;

		for (k = 0; k < nmsgs; k++) {
			if (msgs[k].s == r)
				items[n++] = k; /* its send */
			if (msgs[k].d == r)
				items[n++] = -1 - k; /* its receive */
		}
		for (i = n - 1; i > 0; i--) { /* a random order */
			int j = rnd(g, i + 1), t = items[i];

			items[i] = items[j];
			items[j] = t;
		}
		for (i = 0; i < n; i++) {
			const struct gen_msg *m = &msgs[items[i] >= 0 ? items[i] : -1 - items[i]];
			int send = items[i] >= 0, peer, tag;
			struct eng_instr *in;

			peer = send ? m->d : rnd(g, 5) < 3 ? ENG_ANY : m->s;
			tag = send ? m->tag : rnd(g, 2) ? ENG_ANY : m->tag;
			if (rnd(g, 2)) {
				blocking(g, r, send ? ENG_POST_SEND : ENG_POST_RECV, peer, tag,
					 send && m->sync ? ENG_SEND_SYNC : ENG_SEND_STANDARD);
				g->ins[r][g->n[r] - 2].bytes = m->big ? 4 * EAGER : 8;
			} else {
				in = emit(g, r, send ? ENG_POST_SEND : ENG_POST_RECV);
				in->a = peer;
				in->c = tag;
				in->d = send && m->sync ? ENG_SEND_SYNC : ENG_SEND_STANDARD;
				in->bytes = m->big ? 4 * EAGER : 8;
				pending[npending++] = g->n[r] - 1;
			}
			/* wait for what is pending now and then, and at the end */
			if (npending && (npending == 8 || i == n - 1 || rnd(g, 3) == 0)) {
				struct eng_instr *w = emit(g, r, ENG_WAIT);

				w->n = npending;
				w->list = xmalloc((size_t)npending * sizeof(*w->list));
				memcpy(w->list, pending, (size_t)npending * sizeof(*w->list));
				if (npending > maxlive)
					maxlive = npending;
				npending = 0;
			}
		}
	}
	finish_program(g, p, nranks, maxlive + 1, nmsgs);
}

/* A farm: rank 0 hands out jobs of two kinds (tags) to the others and receives their results
 * with MPI_ANY_SOURCE (and MPI_ANY_TAG, or the job's tag), sending the next job after each
 * result to the worker the trace says; workers receive their jobs from anyone, maybe pass a
 * message to another worker, and reply with the job's tag. The recorded order of results is
 * random, so that the search finds other orders deadlocking in some modes. */
static void make_farm(struct gen *g, struct eng_prog *p, int nranks)
{
	int jobs[GEN_RANKS], total = 0, w, k, nsends = 0, anytag = rnd(g, 3) != 0;
	int kind[GEN_RANKS][4];

	for (w = 1; w < nranks; w++) {
		jobs[w] = 1 + rnd(g, 2);
		total += jobs[w];
		for (k = 0; k < jobs[w]; k++)
			kind[w][k] = 1 + rnd(g, 2);
	}
	/* the master: a first job to each worker, then a result and maybe a next job */
	{
		int given[GEN_RANKS] = {0}, left = total;

		for (w = 1; w < nranks; w++) {
			blocking(g, 0, ENG_POST_SEND, w, kind[w][0], ENG_SEND_STANDARD);
			given[w] = 1;
			nsends++;
		}
		while (left > 0) {
			int next = -1, tries;

			blocking(g, 0, ENG_POST_RECV, ENG_ANY, anytag ? ENG_ANY : 1 + rnd(g, 2),
				 ENG_SEND_STANDARD);
			left--;
			for (tries = 0; tries < 8 && next < 0; tries++) {
				w = 1 + rnd(g, nranks - 1);
				if (given[w] < jobs[w])
					next = w;
			}
			if (next >= 0) {
				blocking(g, 0, ENG_POST_SEND, next, kind[next][given[next]++],
					 rnd(g, 4) ? ENG_SEND_STANDARD : ENG_SEND_SYNC);
				if (rnd(g, 2))
					g->ins[0][g->n[0] - 2].bytes = 4 * EAGER;
				nsends++;
			}
		}
	}
	for (w = 1; w < nranks; w++) {
		for (k = 0; k < jobs[w]; k++) {
			blocking(g, w, ENG_POST_RECV, rnd(g, 2) ? ENG_ANY : 0, ENG_ANY,
				 ENG_SEND_STANDARD);
			if (nranks > 2 && rnd(g, 5) == 0) {
				int other = 1 + (w % (nranks - 1));

				blocking(g, w, ENG_POST_SEND, other, 3, ENG_SEND_STANDARD);
				blocking(g, other, ENG_POST_RECV, ENG_ANY, 3, ENG_SEND_STANDARD);
				nsends++;
			}
			blocking(g, w, ENG_POST_SEND, 0, kind[w][k], ENG_SEND_STANDARD);
			nsends++;
		}
	}
	finish_program(g, p, nranks, 2, nsends);
}

/* What the searches of one program did. */
struct tally {
	int compared, smaller, with_deadlock;
	size_t full_states, reduced_states;
};

/* Search p in buffering b, in full and reduced, and compare their end states. */
static void compare(struct eng_prog *p, enum eng_buffering b, const char *what, int t,
		    struct tally *tl)
{
	struct stset seen_full = {NULL, 0, 0, 0}, ends_full = {NULL, 0, 0, 0};
	struct stset seen_red = {NULL, 0, 0, 0}, ends_red = {NULL, 0, 0, 0};
	int32_t *st = xmalloc(eng_state_bytes(p));
	size_t i, missing = 0;

	seen_full.bytes = ends_full.bytes = eng_state_bytes(p);
	seen_red.bytes = ends_red.bytes = eng_state_bytes(p);
	eng_set_buffering(p, b, EAGER);
	p->full = 1;
	eng_start(p, st);
	search(p, st, &seen_full, &ends_full);
	p->full = 0;
	eng_start(p, st);
	search(p, st, &seen_red, &ends_red);
	for (i = 0; i < ends_full.cap; i++)
		if (ends_full.slot[i] && !stset_has(&ends_red, ends_full.slot[i]))
			missing++;
	if (missing || ends_red.n != ends_full.n)
		fprintf(stderr,
			"\n%s program %d, buffering %d: full search %zu end states, "
			"reduced %zu, %zu missing\n",
			what, t, b, ends_full.n, ends_red.n, missing);
	CU_ASSERT_EQUAL(missing, 0);
	CU_ASSERT_EQUAL(ends_red.n, ends_full.n);
	for (i = 0; i < ends_full.cap; i++)
		if (ends_full.slot[i] && !eng_all_done(p, ends_full.slot[i])) {
			tl->with_deadlock++;
			break;
		}
	tl->smaller += seen_red.n < seen_full.n;
	tl->full_states += seen_full.n;
	tl->reduced_states += seen_red.n;
	tl->compared++;
	free(st);
	stset_release(&seen_full);
	stset_release(&ends_full);
	stset_release(&seen_red);
	stset_release(&ends_red);
}

static const enum eng_buffering modes[] = {ENG_BUF_ZERO, ENG_BUF_INFINITE, ENG_BUF_EAGER};

/* Generate n programs with make and compare both searches in every mode. */
static void compare_many(void (*make)(struct gen *, struct eng_prog *, int), int n, unsigned salt,
			 const char *what, struct tally *tl)
{
	int t, m;

	memset(tl, 0, sizeof(*tl));
	for (t = 0; t < n; t++) {
		struct gen g;
		struct eng_prog p;

		memset(&g, 0, sizeof(g));
		g.seed = 7919u * (unsigned)t + salt;
		make(&g, &p, 2 + rnd(&g, GEN_RANKS - 1));
		for (m = 0; m < 3; m++)
			compare(&p, modes[m], what, t, tl);
		eng_prog_release(&p);
	}
	fprintf(stderr,
		"\n  %s: %d searches compared, %d smaller with the reductions (%zu states "
		"against %zu), %d with a deadlock ",
		what, tl->compared, tl->smaller, tl->reduced_states, tl->full_states,
		tl->with_deadlock);
}

/* Runs of MPI_ANY_SOURCE receives at a master (the interchangeable receives). */
static void test_master_programs(void)
{
	struct tally tl;

	compare_many(make_program, 400, 1, "master", &tl);
	/* the comparison must have bitten: the reductions applied, and deadlocks were there */
	CU_ASSERT(tl.compared == 1200);
	CU_ASSERT(tl.smaller >= 200);
	CU_ASSERT(tl.with_deadlock >= 50 && tl.with_deadlock <= 1150);
}

/* Every rank sending and receiving, from anyone or not, blocking or waiting together. */
static void test_mixed_programs(void)
{
	struct tally tl;

	compare_many(make_mixed, 400, 2, "mixed", &tl);
	CU_ASSERT(tl.compared == 1200);
	CU_ASSERT(tl.smaller >= 100);
	CU_ASSERT(tl.with_deadlock >= 100 && tl.with_deadlock <= 1100);
}

/* Farms whose master and workers both receive from anyone. */
static void test_farm_programs(void)
{
	struct tally tl;

	compare_many(make_farm, 300, 3, "farm", &tl);
	CU_ASSERT(tl.compared == 900);
	CU_ASSERT(tl.smaller >= 300);
	CU_ASSERT(2 * tl.reduced_states < tl.full_states);
	CU_ASSERT(tl.with_deadlock >= 50 && tl.with_deadlock <= 850);
}

/* A wait that also waits for a send that may block ends a run of interchangeable receives:
 * rank 0 waits for its MPI_Irecv(ANY) and an MPI_Isend to rank 1 together, then receives once
 * more; rank 1 sends to 0 and then receives from it, rank 2 sends to 0. Without buffering,
 * when rank 0's first receive takes rank 2's message, rank 1 stays in its send and rank 0 in
 * its wait: a deadlock the reduction once lost by taking rank 1's message alone. */
static void test_wait_with_send(void)
{
	struct gen g;
	struct eng_prog p;
	struct tally tl;
	struct eng_instr *w;

	memset(&g, 0, sizeof(g));
	emit(&g, 0, ENG_POST_RECV)->a = ENG_ANY;
	emit(&g, 0, ENG_POST_SEND)->a = 1;
	w = emit(&g, 0, ENG_WAIT);
	w->n = 2;
	w->list = xmalloc(2 * sizeof(*w->list));
	w->list[0] = 0;
	w->list[1] = 1;
	blocking(&g, 0, ENG_POST_RECV, ENG_ANY, 0, 0);
	blocking(&g, 1, ENG_POST_SEND, 0, 0, ENG_SEND_STANDARD);
	blocking(&g, 1, ENG_POST_RECV, 0, 0, 0);
	blocking(&g, 2, ENG_POST_SEND, 0, 0, ENG_SEND_STANDARD);
	finish_program(&g, &p, 3, 3, 3);
	memset(&tl, 0, sizeof(tl));
	compare(&p, ENG_BUF_ZERO, "wait with a send", 0, &tl);
	CU_ASSERT_EQUAL(tl.with_deadlock, 1);
	eng_prog_release(&p);
}

/* A rank's own later send to itself can bring its wildcard receive a candidate: rank 0 posts
 * MPI_Irecv(ANY, tag 0), then receives from rank 1 (which sends only after receiving from
 * rank 2 or 3, and then receives the other one's message), then sends a message to itself and
 * finally receives from rank 2 by name. If the wildcard takes rank 2's message, the last
 * receive finds nothing: so the choices of rank 0, though the fewest, are not enough on their
 * own while its send to itself may come. */
static void test_send_to_self(void)
{
	struct gen g;
	struct eng_prog p;
	struct tally tl;
	struct eng_instr *in;
	int self;

	memset(&g, 0, sizeof(g));
	emit(&g, 0, ENG_POST_RECV)->a = ENG_ANY;
	blocking(&g, 0, ENG_POST_RECV, 1, 5, 0);
	in = emit(&g, 0, ENG_POST_SEND);
	self = g.n[0] - 1;
	in->bytes = 8;
	blocking(&g, 0, ENG_POST_RECV, 2, 0, 0);
	in = emit(&g, 0, ENG_WAIT);
	in->n = 2;
	in->list = xmalloc(2 * sizeof(*in->list));
	in->list[0] = 0;
	in->list[1] = self;
	blocking(&g, 1, ENG_POST_RECV, ENG_ANY, ENG_ANY, 0);
	blocking(&g, 1, ENG_POST_SEND, 0, 5, ENG_SEND_STANDARD);
	blocking(&g, 1, ENG_POST_RECV, ENG_ANY, 0, 0);
	blocking(&g, 2, ENG_POST_SEND, 0, 0, ENG_SEND_STANDARD);
	blocking(&g, 2, ENG_POST_SEND, 1, 0, ENG_SEND_STANDARD);
	blocking(&g, 3, ENG_POST_SEND, 1, 0, ENG_SEND_STANDARD);
	finish_program(&g, &p, 4, 3, 5);
	memset(&tl, 0, sizeof(tl));
	compare(&p, ENG_BUF_INFINITE, "send to itself", 0, &tl);
	CU_ASSERT_EQUAL(tl.with_deadlock, 1);
	CU_ASSERT_EQUAL(tl.smaller, 1);
	eng_prog_release(&p);
}

/* A cancel turns the reductions off: rank 0 makes two blocking MPI_ANY_SOURCE receives (an
 * interchangeable run), rank 1 cancels its MPI_Isend to rank 0 and waits for it, rank 2 sends
 * to rank 0. When the cancel succeeds, rank 0's second receive never gets a message: a
 * deadlock the interchangeable run, which offers only the first candidate, would lose. */
static void test_cancel_unreduced(void)
{
	struct gen g;
	struct eng_prog p;
	struct tally tl;
	struct eng_instr *in;
	int m;

	memset(&g, 0, sizeof(g));
	blocking(&g, 0, ENG_POST_RECV, ENG_ANY, 0, 0);
	blocking(&g, 0, ENG_POST_RECV, ENG_ANY, 0, 0);
	in = emit(&g, 1, ENG_POST_SEND);
	in->bytes = 8;
	emit(&g, 1, ENG_CANCEL)->a = 0;
	wait_one(&g, 1, 0);
	blocking(&g, 2, ENG_POST_SEND, 0, 0, ENG_SEND_STANDARD);
	finish_program(&g, &p, 3, 1, 2);
	CU_ASSERT_EQUAL(p.ncancel, 1);
	for (m = 0; m < 3; m++) {
		memset(&tl, 0, sizeof(tl));
		compare(&p, modes[m], "cancel", 0, &tl);
		CU_ASSERT_EQUAL(p.nwenv, 0);
		CU_ASSERT_EQUAL(p.red_persistent, 0);
		CU_ASSERT_EQUAL(tl.smaller, 0);
		CU_ASSERT_EQUAL(tl.with_deadlock, 1);
	}
	eng_prog_release(&p);
}

/* Do the searches of p from st and of c from cst offer the same choices at every step, and end
 * alike (finished or not, each process at its end or not, who is stuck the same process)?
 * Explores at most *budget states of each. */
static int same_search(const struct eng_prog *p, const int32_t *st, const struct eng_prog *c,
		       const int32_t *cst, int *budget)
{
	int n = eng_nchoices(p, st), k, q, same = 1;

	if (n != eng_nchoices(c, cst) || eng_all_done(p, st) != eng_all_done(c, cst) ||
	    st[ENG_ST_ERROR] != cst[ENG_ST_ERROR] || st[ENG_ST_NMSG] != cst[ENG_ST_NMSG])
		return 0;
	for (q = 0; q < p->nprocs; q++)
		if (eng_at_end(p, st, q) != eng_at_end(c, cst, q) ||
		    eng_instr_at(p, st, q)->ev != eng_instr_at(c, cst, q)->ev)
			return 0;
	for (k = 0; k < n && same && --*budget > 0; k++) {
		int32_t *a = xmalloc(eng_state_bytes(p)), *b = xmalloc(eng_state_bytes(c));
		int d1, r1, s1, i1, d2, r2, s2, i2;

		eng_choice(p, st, k, &d1, &r1, &s1, &i1);
		eng_choice(c, cst, k, &d2, &r2, &s2, &i2);
		memcpy(a, st, eng_state_bytes(p));
		memcpy(b, cst, eng_state_bytes(c));
		eng_choose(p, a, k);
		eng_choose(c, b, k);
		same = d1 == d2 && s1 == s2 && same_search(p, a, c, b, budget);
		free(a);
		free(b);
	}
	return same;
}

/* Program t of generator k (masters, mixed programs, farms), seeded by both, into p. */
static void make_nth(int k, int t, struct gen *g, struct eng_prog *p)
{
	static void (*const makes[])(struct gen *, struct eng_prog *,
				     int) = {make_program, make_mixed, make_farm};

	memset(g, 0, sizeof(*g));
	g->seed = 104729u * (unsigned)t + (unsigned)k;
	makes[k](g, p, 2 + rnd(g, GEN_RANKS - 1));
}

/* check's own pass: the state the forced path ends in, cut there (tr_cut), must offer the same
 * search as the whole program from that state, in every mode. */
static void test_cut_programs(void)
{
	int t, m, g, cut = 0, branching = 0;

	for (g = 0; g < 3; g++)
		for (t = 0; t < 200; t++) {
			struct gen gen;
			struct eng_prog p;

			make_nth(g, t, &gen, &p);
			for (m = 0; m < 3; m++) {
				int32_t *st;
				struct eng_prog c;
				int budget = 5000;

				eng_set_buffering(&p, modes[m], EAGER);
				st = xmalloc(eng_state_bytes(&p));
				tr_forced_path(&p, st);
				if (eng_nchoices(&p, st) > 1) {
					branching++;
					if (tr_cut(&p, st, &c)) {
						int32_t *cst = xmalloc(eng_state_bytes(&c));

						eng_start(&c, cst);
						CU_ASSERT(same_search(&p, st, &c, cst, &budget));
						cut++;
						free(cst);
						eng_prog_release(&c);
					}
				}
				free(st);
			}
			eng_prog_release(&p);
		}
	/* every program of these generators can be cut */
	CU_ASSERT(branching >= 300);
	CU_ASSERT_EQUAL(cut, branching);
}

/* What the model cases' cuts came to: cut and searched alike, refused where they branch, and
 * programs with a generalized request's completion (refused wherever they stand). */
struct cut_tally {
	int cut, refused, greq;
};

static int has_greq_done(const struct eng_prog *p)
{
	int q, i;

	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++)
			if (p->ins[q][i].op == ENG_GREQ_DONE)
				return 1;
	return 0;
}

static void cut_case(const char *dir, void *ctx)
{
	struct cut_tally *tl = ctx;
	struct mpiv_traceset ts;
	int m;

	if (unit_case_load(dir, &ts))
		return;
	for (m = 0; m < 3; m++) {
		struct eng_prog p, c;
		int32_t *st;
		int budget = 5000;

		if (unit_case_translate(dir, &ts, modes[m], EAGER, &p))
			break;
		st = xmalloc(eng_state_bytes(&p));
		tr_forced_path(&p, st);
		if (eng_nchoices(&p, st) > 1) {
			if (tr_cut(&p, st, &c)) {
				int32_t *cst = xmalloc(eng_state_bytes(&c));

				eng_start(&c, cst);
				if (!same_search(&p, st, &c, cst, &budget)) {
					fprintf(stderr,
						"\n%s: buffering %d: the cut searches otherwise\n",
						dir, (int)modes[m]);
					CU_FAIL("a cut model case searches otherwise");
				}
				tl->cut++;
				free(cst);
				eng_prog_release(&c);
			} else {
				tl->refused++;
			}
		}
		/* a completion names its start by instruction: never cut (tr_cut.c) */
		if (has_greq_done(&p)) {
			CU_ASSERT_FALSE(tr_cut(&p, st, &c));
			tl->greq++;
		}
		free(st);
		eng_prog_release(&p);
	}
	mpiv_traceset_release(&ts);
}

/* The same on every model case, as check cuts them: a cut searches as the whole program did
 * from there; a program with a generalized request's completion is searched whole. */
static void test_cut_cases(void)
{
	struct cut_tally tl = {0, 0, 0};

	unit_each_case(cut_case, &tl);
	fprintf(stderr, "\n  %d cut, %d searched whole, %d with generalized requests refused ",
		tl.cut, tl.refused, tl.greq);
	CU_ASSERT(tl.cut >= 20);
	CU_ASSERT(tl.greq >= 1);
}

/* A choice as eng_choice() describes it, for eng_choose_first() to find again. */
struct described {
	int d, ri, s, si;
};

static int is_described(void *ctx, const int32_t *st, int d, int ri, int s, int si)
{
	const struct described *c = ctx;

	(void)st;
	return d == c->d && ri == c->ri && s == c->s && si == c->si;
}

/* Might a match of process d's receive ri with a message of process s be the one described? */
static int may_be_described(void *ctx, const int32_t *st, int d, int ri, int s)
{
	const struct described *c = ctx;

	(void)st;
	return d == c->d && ri == c->ri && s == c->s;
}

/* Random paths of p, each choice taken three times: by its k (eng_choose(), every choice
 * counted, every process swept), and found by its description (eng_choose_first()) on
 * programs whose states count at most count choices and whose closures follow which processes
 * may step, with the senders of other matches passed over or not. All must give the same
 * state, but for the count, and the same k where the walk counts every sender. Returns the
 * choices compared. */
static int choose_first_paths(const struct eng_prog *p, int count, struct gen *g)
{
	struct eng_prog c = *p, cf;
	size_t size = eng_state_bytes(p);
	int32_t *a = xmalloc(size), *b = xmalloc(size), *f = xmalloc(size);
	int path, n, k, j, compared = 0;

	c.count = count;
	cf = c;
	/* each walk takes every choice where its last step left the state: its closures follow
	 * which processes may step (eng_sweep_new()) */
	c.sweep = eng_sweep_new(&c);
	cf.sweep = eng_sweep_new(&cf);
	for (path = 0; path < 4; path++) {
		eng_start(p, a);
		eng_start(&c, b);
		eng_start(&cf, f);
		n = a[ENG_ST_NCHOICES];
		CU_ASSERT_EQUAL(b[ENG_ST_NCHOICES], n < count ? n : count);
		b[ENG_ST_NCHOICES] = n;
		f[ENG_ST_NCHOICES] = n;
		while ((n = a[ENG_ST_NCHOICES]) > 0) {
			struct described want, at;
			struct eng_chooser by_all = {is_described, NULL, &want, NULL};
			struct eng_chooser by_sender = {is_described, may_be_described, &want,
							NULL};

			k = rnd(g, n);
			eng_choice(p, a, k, &want.d, &want.ri, &want.s, &want.si);
			/* the first choice so described (k, unless two are described alike) */
			for (j = 0; j < k; j++) {
				eng_choice(p, a, j, &at.d, &at.ri, &at.s, &at.si);
				if (!memcmp(&at, &want, sizeof(at)))
					break;
			}
			eng_choose(p, a, j);
			CU_ASSERT_EQUAL_FATAL(eng_choose_first(&c, b, &by_all), j);
			CU_ASSERT_FATAL(eng_choose_first(&cf, f, &by_sender) >= 0);
			n = a[ENG_ST_NCHOICES];
			CU_ASSERT_EQUAL(b[ENG_ST_NCHOICES], n < count ? n : count);
			b[ENG_ST_NCHOICES] = n;
			f[ENG_ST_NCHOICES] = n;
			CU_ASSERT_FATAL(memcmp(a, b, size) == 0);
			CU_ASSERT_FATAL(memcmp(a, f, size) == 0);
			compared++;
		}
	}
	eng_sweep_free(c.sweep);
	eng_sweep_free(cf.sweep);
	free(a);
	free(b);
	free(f);
	return compared;
}

/* eng_choose_first() and the counts a program may cap (eng_prog.count), against eng_choose()
 * and the whole count, on random programs of every kind, reduced or not, in every mode. */
static void test_choose_first(void)
{
	int t, m, k, compared = 0;

	for (k = 0; k < 3; k++)
		for (t = 0; t < 60; t++) {
			struct gen g;
			struct eng_prog p;

			make_nth(k, t, &g, &p);
			for (m = 0; m < 3; m++) {
				eng_set_buffering(&p, modes[m], 16);
				p.full = 0;
				compared += choose_first_paths(&p, 1 + t % 3, &g);
				p.full = 1;
				compared += choose_first_paths(&p, 1 + t % 3, &g);
			}
			eng_prog_release(&p);
		}
	fprintf(stderr, "\n  eng_choose_first: %d choices compared ", compared);
	CU_ASSERT(compared >= 5000);
}

static CU_TestInfo reduction_tests[] = {
	{"reduced search reaches the same end states: masters", test_master_programs},
	{"reduced search reaches the same end states: mixed", test_mixed_programs},
	{"reduced search reaches the same end states: farms", test_farm_programs},
	{"a wait for a send that may block ends the interchangeable run", test_wait_with_send},
	{"a rank's send to itself can bring its wildcard a candidate", test_send_to_self},
	{"a program with a cancel is searched without the reductions", test_cancel_unreduced},
	{"a search cut where it branches offers the same choices", test_cut_programs},
	{"the model cases cut where they branch, generalized requests not", test_cut_cases},
	{"a choice found by its description is the one of its index", test_choose_first},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo reduction_suite = {"reduction", NULL, NULL, NULL, NULL, reduction_tests};
