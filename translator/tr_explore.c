/* verify's search of a program (doc/verify.md): every state the engine can reach, depth
 * first, each stored once. It keeps a path to every distinct deadlock and to every frontier
 * (a process at a branch whose input no variant recorded: a decision to explore with a run
 * of the program). check leaves its search to SPIN, which reports a property's violations;
 * verify needs every frontier and one path to each, which is a reachability enumeration, so
 * it walks the same engine itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"

/* ---- the states seen: open addressing over a chunked store ---- */

struct seen {
	size_t words;	/* int32 words per state */
	uint64_t *slot; /* hash table: 1 + index of the state, 0 if empty */
	size_t nslots;
	int32_t **chunk; /* the states, CHUNK to a chunk */
	size_t nchunks, capchunks;
	size_t n; /* states stored */
};

#define CHUNK 4096

static uint64_t hash_state(const int32_t *st, size_t words)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < words; i++)
		h = (h ^ (uint32_t)st[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static int32_t *stored(const struct seen *s, size_t k)
{
	return &s->chunk[k / CHUNK][(k % CHUNK) * s->words];
}

static void rehash(struct seen *s)
{
	size_t n = s->nslots ? 2 * s->nslots : 1 << 16, k;
	uint64_t *slot = xcalloc(n, sizeof(*slot));

	for (k = 0; k < s->n; k++) {
		size_t i = hash_state(stored(s, k), s->words) & (n - 1);

		while (slot[i])
			i = (i + 1) & (n - 1);
		slot[i] = k + 1;
	}
	free(s->slot);
	s->slot = slot;
	s->nslots = n;
}

/* Store st unless it was seen: 1 if it is new. */
static int seen_add(struct seen *s, const int32_t *st)
{
	size_t i, bytes = s->words * sizeof(int32_t);

	if (2 * (s->n + 1) > s->nslots)
		rehash(s);
	i = hash_state(st, s->words) & (s->nslots - 1);
	for (; s->slot[i]; i = (i + 1) & (s->nslots - 1))
		if (!memcmp(stored(s, s->slot[i] - 1), st, bytes))
			return 0;
	if (s->n / CHUNK >= s->nchunks) {
		xgrow((void **)&s->chunk, &s->capchunks, s->nchunks + 1, sizeof(*s->chunk));
		s->chunk[s->nchunks++] = xmalloc(CHUNK * bytes);
	}
	memcpy(stored(s, s->n), st, bytes);
	s->slot[i] = ++s->n;
	return 1;
}

static void seen_release(struct seen *s)
{
	size_t k;

	for (k = 0; k < s->nchunks; k++)
		free(s->chunk[k]);
	free(s->chunk);
	free(s->slot);
}

/* ---- what the search keeps ---- */

static int *copy_path(const int *path, int n)
{
	int *p = xmalloc((size_t)(n + 1) * sizeof(*p));

	if (n) /* the start's path is empty, and may be NULL */
		memcpy(p, path, (size_t)n * sizeof(*p));
	return p;
}

/* Where process q is, as a place of the program: its node (tr_explore_opts.node) or pc. */
static long place(const struct tr_explore_opts *o, const struct eng_prog *p, const int32_t *st,
		  int q)
{
	int pc = eng_pc(p, st, q);

	return o->node ? o->node(o->ctx, q, pc) : pc;
}

/* Every process at a frontier in st that was not met before: noted with the path. */
static void note_frontiers(const struct tr_explore_opts *o, const struct eng_prog *p,
			   const int32_t *st, const int *path, int depth,
			   struct tr_explore_result *res)
{
	int q, k;

	for (q = 0; q < p->nprocs; q++) {
		const struct eng_instr *in;
		struct tr_frontier f;

		if (!eng_at_frontier(p, st, q))
			continue;
		in = eng_instr_at(p, st, q);
		memset(&f, 0, sizeof(f));
		f.proc = q;
		f.place = place(o, p, st, q);
		eng_input(p, st, q, in->a, f.input);
		f.sym = in->sym & ENG_IN_PARTS;
		/* only the parts the branch compares tell inputs apart */
		if (!(in->sym & ENG_IN_SOURCE))
			f.input[0] = 0;
		if (!(in->sym & ENG_IN_TAG))
			f.input[1] = 0;
		if (!(in->sym & ENG_IN_SITE))
			f.input[2] = 0;
		if (!(in->sym & ENG_IN_REQ))
			f.input[3] = 0;
		for (k = 0; k < res->nfrontiers; k++) {
			const struct tr_frontier *g = &res->frontiers[k];

			if (g->proc == f.proc && g->place == f.place &&
			    !memcmp(g->input, f.input, sizeof(f.input)))
				break;
		}
		if (k < res->nfrontiers)
			continue;
		f.path = copy_path(path, depth);
		f.npath = depth;
		xgrow((void **)&res->frontiers, &res->capfrontiers, (size_t)res->nfrontiers + 1,
		      sizeof(*res->frontiers));
		res->frontiers[res->nfrontiers++] = f;
	}
}

/* A deadlock or an erroneous state: noted with the path, unless one with the same processes
 * stuck at the same places was. */
static void note_end(const struct tr_explore_opts *o, const struct eng_prog *p, const int32_t *st,
		     const int *path, int depth, struct tr_explore_result *res)
{
	char *blocked = xcalloc((size_t)p->nprocs, 1);
	struct tr_stuck d;
	int q, k, eq;

	memset(&d, 0, sizeof(d));
	d.error = st[ENG_ST_ERROR] != 0;
	if (!d.error)
		eng_deadlocked(p, st, blocked);
	d.place = xcalloc((size_t)p->nprocs, sizeof(*d.place));
	for (q = 0; q < p->nprocs; q++)
		d.place[q] = blocked[q] || d.error ? place(o, p, st, q) : -1;
	free(blocked);
	for (k = 0; k < res->nstuck; k++) {
		const struct tr_stuck *g = &res->stuck[k];

		eq = g->error == d.error;
		for (q = 0; eq && q < p->nprocs; q++)
			eq = g->place[q] == d.place[q];
		if (eq) {
			free(d.place);
			return;
		}
	}
	d.path = copy_path(path, depth);
	d.npath = depth;
	xgrow((void **)&res->stuck, &res->capstuck, (size_t)res->nstuck + 1, sizeof(*res->stuck));
	res->stuck[res->nstuck++] = d;
}

/* ---- the search ---- */

struct frame {
	int32_t *st;
	int next, n; /* the next choice to take, of n */
};

int tr_explore(const struct eng_prog *prog, const struct tr_explore_opts *o,
	       struct tr_explore_result *res)
{
	struct seen seen;
	struct frame *stack = NULL;
	size_t capstack = 0, bytes = eng_state_bytes(prog);
	int *path = NULL, depth = 0;
	size_t cappath = 0;

	memset(res, 0, sizeof(*res));
	memset(&seen, 0, sizeof(seen));
	seen.words = (size_t)prog->words;
	res->complete = 1;
	xgrow((void **)&stack, &capstack, 1, sizeof(*stack));
	stack[0].st = xmalloc(bytes);
	eng_start(prog, stack[0].st);
	seen_add(&seen, stack[0].st);
	stack[0].next = 0;
	stack[0].n = eng_nchoices(prog, stack[0].st);
	note_frontiers(o, prog, stack[0].st, path, 0, res);
	if (stack[0].n == 0 && (stack[0].st[ENG_ST_ERROR] || !stack[0].st[ENG_ST_DONE]))
		note_end(o, prog, stack[0].st, path, 0, res);
	depth = 1;
	while (depth > 0) {
		struct frame *f = &stack[depth - 1];
		int32_t *next;

		if (f->next >= f->n) {
			free(f->st);
			depth--;
			continue;
		}
		if (o->max_states && seen.n >= (size_t)o->max_states) {
			res->complete = 0;
			snprintf(res->why, sizeof(res->why), "%ld states, the limit",
				 o->max_states);
			break;
		}
		if (o->stop && o->stop(o->ctx)) {
			res->complete = 0;
			snprintf(res->why, sizeof(res->why), "the time limit");
			break;
		}
		next = xmalloc(bytes);
		memcpy(next, f->st, bytes);
		eng_choose(prog, next, f->next);
		xgrow((void **)&path, &cappath, (size_t)depth, sizeof(*path));
		path[depth - 1] = f->next;
		f->next++;
		if (next[ENG_ST_OVERFLOW]) {
			res->complete = 0;
			snprintf(res->why, sizeof(res->why),
				 "more messages in flight than the model "
				 "has room for (%d)",
				 prog->maxmsg);
			free(next);
			continue;
		}
		if (!seen_add(&seen, next)) {
			free(next);
			continue;
		}
		note_frontiers(o, prog, next, path, depth, res);
		xgrow((void **)&stack, &capstack, (size_t)depth + 1, sizeof(*stack));
		stack[depth].st = next;
		stack[depth].next = 0;
		stack[depth].n = eng_nchoices(prog, next);
		if (stack[depth].n == 0 && (next[ENG_ST_ERROR] || !next[ENG_ST_DONE]))
			note_end(o, prog, next, path, depth, res);
		depth++;
	}
	while (depth > 0)
		free(stack[--depth].st);
	res->states = (long)seen.n;
	seen_release(&seen);
	free(stack);
	free(path);
	return 0;
}

void tr_explore_release(struct tr_explore_result *res)
{
	int k;

	for (k = 0; k < res->nfrontiers; k++)
		free(res->frontiers[k].path);
	for (k = 0; k < res->nstuck; k++) {
		free(res->stuck[k].path);
		free(res->stuck[k].place);
	}
	free(res->frontiers);
	free(res->stuck);
	memset(res, 0, sizeof(*res));
}
