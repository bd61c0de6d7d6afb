/* verify's search of a program (doc/verify.md): every state the engine can reach, depth
 * first, each stored once. It keeps a path to every distinct deadlock and to every frontier
 * (a process at a branch whose input no run took there: a decision to explore with a run of
 * the program). check leaves its search to SPIN, which reports a property's violations;
 * verify needs every frontier and one path to each, which is a reachability enumeration, so
 * it walks the same engine itself.
 *
 * Each stored state keeps the state it was first reached from and the choice that led to it,
 * so that a path is read back from the store when it is asked for, and the stack of the
 * search holds state numbers: what the search holds grows with the states, not with their
 * paths. Where a process is at a frontier the search goes no further: what that process does
 * next is for a run to show, and every state after would wait for it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"
#include "tr_explore.h"

/* ---- the states seen: open addressing over a compact store ---- */

/* A state is mostly zeros (room for messages and requests the state does not use) and small
 * numbers: each is stored encoded, a run of zero words as a 0 byte and the run's length, any
 * other word as a variable-length number (7 bits a byte, zigzag), which is never 0 in its
 * first byte. The encoding is canonical, so that two states are equal when their encodings
 * are; a state takes some tens of bytes where its words take a kilobyte. */

struct seen {
	size_t words;	/* int32 words per state */
	uint64_t *slot; /* hash table: 1 + index of the state, 0 if empty */
	size_t nslots;
	uint8_t **arena; /* the encoded states, back to back, ARENA bytes to a chunk */
	size_t narena, caparena, used; /* chunks, and bytes used of the last */
	uint64_t **at;		       /* per state: its chunk << 32 | offset; CHUNK to a chunk */
	int32_t **from; /* per state, two words: the state it was first reached from (-1: the
			 * start) and the choice taken there; CHUNK to a chunk */
	size_t nchunks, capchunks;
	size_t n;      /* states stored */
	uint8_t *code; /* room to encode one state */
};

#define CHUNK 4096
#define ARENA (1u << 20)

static uint64_t hash_state(const int32_t *st, size_t words)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < words; i++)
		h = (h ^ (uint32_t)st[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static size_t put_number(uint8_t *out, uint32_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

static const uint8_t *get_number(const uint8_t *in, uint32_t *v)
{
	unsigned shift = 0;

	*v = 0;
	do
		*v |= (uint32_t)(*in & 0x7f) << shift, shift += 7;
	while (*in++ & 0x80);
	return in;
}

/* Encode st (words) into out (room for 6 bytes a word); returns the bytes. */
static size_t encode(const int32_t *st, size_t words, uint8_t *out)
{
	size_t i = 0, n = 0, run;

	while (i < words) {
		if (st[i] == 0) {
			for (run = 0; i < words && st[i] == 0; i++)
				run++;
			out[n++] = 0;
			n += put_number(out + n, (uint32_t)run);
			continue;
		}
		n += put_number(out + n, ((uint32_t)st[i] << 1) ^ (uint32_t)(st[i] >> 31));
		i++;
	}
	return n;
}

static void decode(const uint8_t *in, size_t words, int32_t *st)
{
	size_t i = 0;
	uint32_t v;

	while (i < words) {
		if (*in == 0) {
			in = get_number(in + 1, &v);
			memset(st + i, 0, (size_t)v * sizeof(*st));
			i += v;
			continue;
		}
		in = get_number(in, &v);
		st[i++] = (int32_t)((v >> 1) ^ (0u - (v & 1)));
	}
}

static uint64_t *at_of(const struct seen *s, size_t k)
{
	return &s->at[k / CHUNK][k % CHUNK];
}

static int32_t *from_of(const struct seen *s, size_t k)
{
	return &s->from[k / CHUNK][(k % CHUNK) * 2];
}

/* State k's encoding, its length (a number before it) into *len. */
static const uint8_t *code_of(const struct seen *s, size_t k, uint32_t *len)
{
	uint64_t a = *at_of(s, k);

	return get_number(s->arena[a >> 32] + (uint32_t)a, len);
}

/* State k into st. */
static void seen_get(const struct seen *s, size_t k, int32_t *st)
{
	uint32_t len;

	decode(code_of(s, k, &len), s->words, st);
}

/* What the store holds, in bytes. */
static size_t seen_bytes(const struct seen *s)
{
	return s->narena * (size_t)ARENA + s->nchunks * CHUNK * (sizeof(uint64_t) + 8) +
	       s->nslots * sizeof(*s->slot);
}

static void rehash(struct seen *s, int32_t *scratch)
{
	size_t n = s->nslots ? 2 * s->nslots : 1 << 16, k;
	uint64_t *slot = xcalloc(n, sizeof(*slot));

	for (k = 0; k < s->n; k++) {
		size_t i;

		seen_get(s, k, scratch);
		i = hash_state(scratch, s->words) & (n - 1);
		while (slot[i])
			i = (i + 1) & (n - 1);
		slot[i] = k + 1;
	}
	free(s->slot);
	s->slot = slot;
	s->nslots = n;
}

/* Store st, reached from state parent by choice k, unless it was seen: its number, or -1 if
 * it was seen before. */
static long seen_add(struct seen *s, const int32_t *st, long parent, int k)
{
	size_t i, len, need;
	uint8_t head[8];
	uint32_t have;

	if (!s->code)
		s->code = xmalloc(6 * s->words + 16);
	if (2 * (s->n + 1) > s->nslots) {
		int32_t *scratch = xmalloc(s->words * sizeof(*scratch) + 1);

		rehash(s, scratch);
		free(scratch);
	}
	len = encode(st, s->words, s->code);
	i = hash_state(st, s->words) & (s->nslots - 1);
	for (; s->slot[i]; i = (i + 1) & (s->nslots - 1)) {
		const uint8_t *c = code_of(s, s->slot[i] - 1, &have);

		if (have == len && !memcmp(c, s->code, len))
			return -1;
	}
	need = put_number(head, (uint32_t)len) + len;
	if (!s->narena || s->used + need > ARENA) {
		xgrow((void **)&s->arena, &s->caparena, s->narena + 1, sizeof(*s->arena));
		s->arena[s->narena++] = xmalloc(need > ARENA ? need : ARENA);
		s->used = 0;
	}
	if (s->n / CHUNK >= s->nchunks) {
		size_t cap = s->capchunks;

		xgrow((void **)&s->at, &s->capchunks, s->nchunks + 1, sizeof(*s->at));
		xgrow((void **)&s->from, &cap, s->nchunks + 1, sizeof(*s->from));
		s->at[s->nchunks] = xmalloc(CHUNK * sizeof(uint64_t));
		s->from[s->nchunks++] = xmalloc(CHUNK * 2 * sizeof(int32_t));
	}
	*at_of(s, s->n) = (uint64_t)(s->narena - 1) << 32 | s->used;
	memcpy(s->arena[s->narena - 1] + s->used, head, need - len);
	memcpy(s->arena[s->narena - 1] + s->used + (need - len), s->code, len);
	s->used += need;
	from_of(s, s->n)[0] = (int32_t)parent;
	from_of(s, s->n)[1] = k;
	s->slot[i] = ++s->n;
	return (long)s->n - 1;
}

static void seen_release(struct seen *s)
{
	size_t k;

	for (k = 0; k < s->narena; k++)
		free(s->arena[k]);
	for (k = 0; k < s->nchunks; k++) {
		free(s->at[k]);
		free(s->from[k]);
	}
	free(s->arena);
	free(s->at);
	free(s->from);
	free(s->slot);
	free(s->code);
}

/* The choices that lead from the start to state k, into *path (malloc'ed), *n of them. */
static void path_to(const struct seen *s, long k, int **path, int *n)
{
	long j;
	int d = 0;

	for (j = k; from_of(s, (size_t)j)[0] >= 0; j = from_of(s, (size_t)j)[0])
		d++;
	*path = xmalloc((size_t)(d + 1) * sizeof(**path));
	*n = d;
	for (j = k; from_of(s, (size_t)j)[0] >= 0; j = from_of(s, (size_t)j)[0])
		(*path)[--d] = from_of(s, (size_t)j)[1];
}

/* ---- what the search keeps ---- */

/* Where process q is, as a place of the program: its node (tr_explore_opts.node) or pc. */
static long place(const struct tr_explore_opts *o, const struct eng_prog *p, const int32_t *st,
		  int q)
{
	int pc = eng_pc(p, st, q);

	return o->node ? o->node(o->ctx, q, pc) : pc;
}

/* Every process at a frontier in st (state number k) that was not met before: noted. Returns
 * whether some process is at a frontier in st. */
static int note_frontiers(const struct tr_explore_opts *o, const struct eng_prog *p,
			  const int32_t *st, long k, struct tr_explore_result *res)
{
	int q, j, any = 0;

	for (q = 0; q < p->nprocs; q++) {
		const struct eng_instr *in;
		struct tr_frontier f;

		if (!eng_at_frontier(p, st, q))
			continue;
		any = 1;
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
		for (j = 0; j < res->nfrontiers; j++) {
			const struct tr_frontier *g = &res->frontiers[j];

			if (g->proc == f.proc && g->place == f.place &&
			    !memcmp(g->input, f.input, sizeof(f.input)))
				break;
		}
		if (j < res->nfrontiers)
			continue;
		f.state = k;
		xgrow((void **)&res->frontiers, &res->capfrontiers, (size_t)res->nfrontiers + 1,
		      sizeof(*res->frontiers));
		res->frontiers[res->nfrontiers++] = f;
	}
	return any;
}

/* A deadlock or an erroneous state (state number k): noted, unless one with the same
 * processes stuck at the same places was. */
static void note_end(const struct tr_explore_opts *o, const struct eng_prog *p, const int32_t *st,
		     long k, struct tr_explore_result *res)
{
	char *blocked = xcalloc((size_t)p->nprocs, 1);
	struct tr_stuck d;
	int q, j, eq;

	memset(&d, 0, sizeof(d));
	d.error = st[ENG_ST_ERROR] != 0;
	if (!d.error)
		eng_deadlocked(p, st, blocked);
	d.place = xcalloc((size_t)p->nprocs, sizeof(*d.place));
	for (q = 0; q < p->nprocs; q++)
		d.place[q] = blocked[q] || d.error ? place(o, p, st, q) : -1;
	free(blocked);
	for (j = 0; j < res->nstuck; j++) {
		const struct tr_stuck *g = &res->stuck[j];

		eq = g->error == d.error;
		for (q = 0; eq && q < p->nprocs; q++)
			eq = g->place[q] == d.place[q];
		if (eq) {
			free(d.place);
			return;
		}
	}
	d.state = k;
	xgrow((void **)&res->stuck, &res->capstuck, (size_t)res->nstuck + 1, sizeof(*res->stuck));
	res->stuck[res->nstuck++] = d;
}

/* ---- the search ---- */

struct frame {
	long state;  /* its number in the store */
	int next, n; /* the next choice to take, of n */
};

/* Note what state k (st) is, and push it. */
static void visit(const struct tr_explore_opts *o, const struct eng_prog *p, const int32_t *st,
		  long k, struct frame **stack, size_t *cap, int *depth,
		  struct tr_explore_result *res)
{
	struct frame *f;

	xgrow((void **)stack, cap, (size_t)*depth + 1, sizeof(**stack));
	f = &(*stack)[(*depth)++];
	f->state = k;
	f->next = 0;
	/* a process at a frontier: what it does next is for a run to show */
	if (note_frontiers(o, p, st, k, res)) {
		f->n = 0;
		return;
	}
	f->n = eng_nchoices(p, st);
	if (f->n == 0 && (st[ENG_ST_ERROR] || !st[ENG_ST_DONE]))
		note_end(o, p, st, k, res);
}

/* Stop the search: incomplete, why. */
static void cut(struct tr_explore_result *res, const char *why)
{
	res->complete = 0;
	snprintf(res->why, sizeof(res->why), "%s", why);
}

int tr_explore(const struct eng_prog *prog, const struct tr_explore_opts *o,
	       struct tr_explore_result *res)
{
	struct seen seen;
	struct frame *stack = NULL;
	size_t capstack = 0, bytes = eng_state_bytes(prog);
	int32_t *next = xmalloc(bytes);
	int depth = 0, i;
	long k, steps = 0;

	memset(res, 0, sizeof(*res));
	memset(&seen, 0, sizeof(seen));
	seen.words = (size_t)prog->words;
	res->complete = 1;
	eng_start(prog, next);
	k = seen_add(&seen, next, -1, 0);
	visit(o, prog, next, k, &stack, &capstack, &depth, res);
	while (depth > 0) {
		struct frame *f = &stack[depth - 1];

		if (f->next >= f->n) {
			depth--;
			continue;
		}
		if (o->max_states && seen.n >= (size_t)o->max_states) {
			snprintf(res->why, sizeof(res->why), "%ld states, the limit",
				 o->max_states);
			res->complete = 0;
			break;
		}
		if (o->max_bytes && seen_bytes(&seen) + capstack * sizeof(*stack) >= o->max_bytes) {
			char why[160];

			snprintf(why, sizeof(why), "the memory limit of %zu MB (--memory-limit)",
				 o->max_bytes >> 20);
			cut(res, why);
			res->memory = 1;
			break;
		}
		/* a step of a large program takes milliseconds, a look at the clock and a flag
		 * nanoseconds: often, so that a signal ends the search at once */
		if (o->stop && (++steps & 15) == 0 && o->stop(o->ctx, res->why, sizeof(res->why))) {
			res->complete = 0;
			break;
		}
		seen_get(&seen, (size_t)f->state, next);
		eng_choose(prog, next, f->next);
		i = f->next++;
		if (next[ENG_ST_OVERFLOW]) {
			char why[160];

			snprintf(why, sizeof(why),
				 "more messages in flight than the model has room for (%d)",
				 prog->maxmsg);
			cut(res, why);
			res->overflow = 1;
			continue;
		}
		k = seen_add(&seen, next, f->state, i);
		if (k >= 0)
			visit(o, prog, next, k, &stack, &capstack, &depth, res);
	}
	/* the paths asked for, read back from the store */
	for (i = 0; i < res->nfrontiers; i++)
		if (!o->max_paths || i < o->max_paths)
			path_to(&seen, res->frontiers[i].state, &res->frontiers[i].path,
				&res->frontiers[i].npath);
	for (i = 0; i < res->nstuck; i++)
		if (!o->max_paths || i < o->max_paths)
			path_to(&seen, res->stuck[i].state, &res->stuck[i].path,
				&res->stuck[i].npath);
	res->states = (long)seen.n;
	res->bytes = seen_bytes(&seen) + capstack * sizeof(*stack);
	seen_release(&seen);
	free(stack);
	free(next);
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
