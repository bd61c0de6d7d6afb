/* verify (model.h, doc/verify.md section 2): data no process reads. A send's message carries a
 * digest of its data, so that a receiver that acts on a value (a worker that stops on the
 * task -1) goes on in the model where a run with that value went. Where no receiver acts on
 * it, the digest only tells the sender's paths apart: a worker that sends its last result
 * with each request makes another call for every task it was handed, and each share of the
 * tasks would be a path of its own, the places of its loop never the same, though the master
 * that takes the results stores them and goes on alike.
 *
 * So, once the trees are grown and their branches know what they compare (choose_parts()),
 * a send call site none of whose messages any branch compares by what it carried (no
 * ENG_IN_SITE over an input that came from it) sends, in the model, its call site alone: its
 * calls are the same whatever data they sent, and the trees are grown again. A branch of the
 * new trees may come to compare what a stripped message carried (the sender's tree changed,
 * and with it the evidence its own branches pool); its call site then sends its data again
 * and the trees are grown once more, until no stripped message is compared. What a site
 * keeps it keeps: the rounds end. A message the model sends from a stripped site to a branch
 * that compares what messages carried matches no way of it (a frontier): the run made there
 * shows it, and the site keeps its data in the next model. What the stripped data showed of
 * their senders stays known (model.c's struct parts): a worker whose results differed with the
 * task it was handed compares the tasks' values still, each value it was not handed at a
 * place a frontier there.
 *
 * The data a process sends also tells apart its own states where its calls do not: a worker
 * served in rounds with nothing between them sends the result of its round, 0 after a stop,
 * and the runs that stopped it at some depth part from those that gave it a task there by
 * that alone. Stripped, the same input (the stop) would go two ways from one node of its
 * tree, the next round or the end, a choice the model makes and runs refute. So a process
 * that takes one input two ways more often once stripped keeps the data of all its sends. */
#include <stdint.h>
#include <stdlib.h>

#include "model_int.h"
#include "translate.h"
#include "xalloc.h"

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

static int has(const int32_t *set, size_t n, int32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == x)
			return 1;
	return 0;
}

/* What every branch that compares what a message carried took (ENG_IN_SITE words), sorted. */
static size_t read_messages(struct seq *const *vs, const struct tree *trees, int nprocs,
			    int32_t **out)
{
	size_t n = 0, cap = 0, k, i, np;
	struct pass *pass;
	int q;

	*out = NULL;
	for (q = 0; q < nprocs; q++)
		for (k = 0; k < trees[q].ng; k++) {
			const struct bgroup *g = &trees[q].g[k];

			if (!g->key || !(g->sym & ENG_IN_SITE))
				continue;
			np = xm_group_passes(&trees[q], g, &pass);
			xgrow((void **)out, &cap, n + np + 1, sizeof(**out));
			for (i = 0; i < np; i++)
				if (xm_pass_input(vs[q], &pass[i])[2])
					(*out)[n++] = xm_pass_input(vs[q], &pass[i])[2];
			free(pass);
		}
	if (n)
		qsort(*out, n, sizeof(**out), cmp_i32);
	return n;
}

static int cmp_at(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct xstripped *)a)->at,
		  y = (uintptr_t)((const struct xstripped *)b)->at;

	return x < y ? -1 : x > y;
}

/* Send ins as stripped (of st's first n, sorted), or NULL if it never was. */
static struct xstripped *stripped(const struct xstrip *st, size_t n, struct eng_instr *ins)
{
	struct xstripped x = {ins, 0, 0};

	return n ? bsearch(&x, st->saved, n, sizeof(x), cmp_at) : NULL;
}

/* The choices process v's model makes (tree t): pairs of its runs that took one input at a
 * branch (one node, or one loop) and went two ways from it. */
static long choices(const struct seq *v, const struct tree *t)
{
	struct pass *pass;
	size_t k, n, i, j;
	long c = 0;

	for (k = 0; k < t->ng; k++) {
		if (!t->g[k].key)
			continue;
		n = xm_group_passes(t, &t->g[k], &pass);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				c += !xm_input_diff(xm_pass_input(v, &pass[i]),
						    xm_pass_input(v, &pass[j])) &&
				     !xm_same_way(v, t, &pass[i], &pass[j]);
		free(pass);
	}
	return c;
}

/* Keep the data of the sends of call site key (none: 0). */
static void keep(struct xstrip *st, int32_t key)
{
	if (!key || has(st->keep, st->nkeep, key))
		return;
	xgrow((void **)&st->keep, &st->capkeep, st->nkeep + 1, sizeof(*st->keep));
	st->keep[st->nkeep++] = key;
}

/* Keep the data of every send of process q (runs v[0..nruns)). */
static void keep_sends(struct xstrip *st, const struct seq *v, int nruns)
{
	int s, k;

	for (s = 0; s < nruns; s++)
		for (k = 0; k < v[s].n; k++)
			if (v[s].ins[k].op == ENG_POST_SEND)
				keep(st, xm_call_key(v[s].t, &v[s].ins[k]));
}

int xm_strip_unread(struct seq *const *vs, const struct tree *trees, int nprocs, int nruns,
		    struct xstrip *st)
{
	int32_t *read, key, was;
	size_t nread = read_messages(vs, trees, nprocs, &read), i, n0 = st->nsaved;
	struct xstripped *x;
	int q, s, k, changed = 0;

	/* a process that makes more choices stripped keeps its data */
	for (q = 0; q < nprocs; q++) {
		long c = choices(vs[q], &trees[q]);

		if (!st->choices)
			st->choices = xcalloc((size_t)nprocs, sizeof(*st->choices));
		if (!st->nsaved)
			st->choices[q] = c;
		else if (c > st->choices[q])
			keep_sends(st, vs[q], nruns);
	}
	/* the call sites whose messages some branch compares keep their data */
	for (q = 0; nread && q < nprocs; q++)
		for (s = 0; s < nruns; s++)
			for (k = 0; k < vs[q][s].n; k++) {
				struct eng_instr *in = &vs[q][s].ins[k];

				if (in->op != ENG_POST_SEND)
					continue;
				x = stripped(st, n0, in);
				was = x ? x->was : in->site;
				if (bsearch(&was, read, nread, sizeof(*read), cmp_i32))
					keep(st, xm_call_key(vs[q][s].t, in));
			}
	free(read);
	/* a site kept now sends its data again */
	for (i = 0; i < st->nsaved; i++) {
		x = &st->saved[i];
		if (x->at->site != x->was && has(st->keep, st->nkeep, x->key)) {
			x->at->site = x->was;
			changed = 1;
		}
	}
	/* the others send their call site alone */
	for (q = 0; q < nprocs; q++)
		for (s = 0; s < nruns; s++)
			for (k = 0; k < vs[q][s].n; k++) {
				struct eng_instr *in = &vs[q][s].ins[k];

				if (in->op != ENG_POST_SEND || stripped(st, n0, in))
					continue;
				key = xm_call_key(vs[q][s].t, in);
				if (!key || has(st->keep, st->nkeep, key))
					continue;
				xgrow((void **)&st->saved, &st->capsaved, st->nsaved + 1,
				      sizeof(*st->saved));
				st->saved[st->nsaved++] = (struct xstripped){in, in->site, key};
				in->site = tr_message_key(key, 0);
				changed |= in->site != st->saved[st->nsaved - 1].was;
			}
	if (st->nsaved > n0)
		qsort(st->saved, st->nsaved, sizeof(*st->saved), cmp_at);
	return changed;
}

void xm_strip_restore(struct xstrip *st)
{
	size_t i;

	for (i = 0; i < st->nsaved; i++)
		st->saved[i].at->site = st->saved[i].was;
	free(st->saved);
	free(st->keep);
	free(st->choices);
}
