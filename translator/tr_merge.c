/* verify (doc/verify.md): the programs of several runs, one model. Each process gets one
 * variant per distinct behaviour the runs recorded of it. Variants share their instructions
 * up to where they part; the branch before that point (where the process learnt an input)
 * goes on in the variant that recorded the input it gets, and is a frontier when none did.
 *
 * Two variants are the same up to a point when they made the same calls there, whatever
 * inputs they took (a destination that follows the source just received is the same call):
 * a process is assumed to act on what it received only through the calls it makes and the
 * branches that compare inputs. Where two variants part without an input they compared
 * telling them apart, the branch before is made to compare what differs (the tag, or the call
 * site of the send whose message was received: what the model knows of a message's data);
 * where nothing differs, the branch is a choice between them. */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"

#define DEFAULT_MAXMSG 4096

/* One variant being merged: a run's instructions for the process. */
struct var {
	int run;
	struct eng_instr *ins; /* the run's, not copied */
	int n;
	int32_t *node;	   /* per instruction: its node in the process's tree */
	int ninputs;	   /* inputs it takes (the highest register number) */
	int32_t *post;	   /* per input: the instruction that takes it */
	int32_t *lastread; /* per input: the last instruction that reads it, -1 */
};

/* ---- sends whose destination follows an input ---- */

/* One call site's votes: where a send from it had a source input on its communicator before
 * it, did it go to that source? */
struct site_vote {
	int32_t key;
	int yes, no;
};

struct votes {
	struct site_vote *v;
	size_t n, cap;
};

static struct site_vote *vote_of(struct votes *vs, int32_t key)
{
	size_t i;

	for (i = 0; i < vs->n; i++)
		if (vs->v[i].key == key)
			return &vs->v[i];
	xgrow((void **)&vs->v, &vs->cap, vs->n + 1, sizeof(*vs->v));
	memset(&vs->v[vs->n], 0, sizeof(vs->v[vs->n]));
	vs->v[vs->n].key = key;
	return &vs->v[vs->n++];
}

/* The instruction that takes input number id (from 0) in ins[0..n), or -1. */
static int input_post(const struct eng_instr *ins, int n, int id)
{
	int i;

	for (i = 0; i < n; i++)
		if (ins[i].reg == id + 1 && ins[i].op != ENG_BRANCH && ins[i].op != ENG_POST_SEND)
			return i;
	return -1;
}

/* Walk the sends of ins[0..n): for each, the last source input learnt before it (a wildcard
 * receive's or probe's, through its branch), if on the send's communicator. vote: count;
 * else mark the sends of symbolic sites. */
static void follow_inputs(struct eng_instr *ins, int n, struct votes *vs, int vote)
{
	int i, src = 0, comm = -1, id = -1;

	for (i = 0; i < n; i++) {
		struct eng_instr *in = &ins[i];

		if (vote && in->op == ENG_POST_SEND) { /* decided afresh from every run */
			in->sym = 0;
			in->reg = 0;
		}
		if (in->op == ENG_BRANCH && i > 0 && (in->sym & ENG_IN_SOURCE) &&
		    in->b != TR_NO_INPUT) {
			int x = input_post(ins, n, in->a);

			if (x >= 0 && ins[x].op != ENG_WAITANY) {
				src = in->b;
				comm = ins[x].b;
				id = in->a;
			}
			continue;
		}
		if (in->op != ENG_POST_SEND || in->a < 0 || !in->site || id < 0 || in->b != comm)
			continue;
		if (vote) {
			struct site_vote *v = vote_of(vs, in->site);

			v->yes += in->a == src;
			v->no += in->a != src;
		} else if (in->a == src) {
			struct site_vote *v = vote_of(vs, in->site);

			if (v->yes && !v->no) {
				in->sym = ENG_IN_SOURCE;
				in->reg = id + 1;
			}
		}
	}
}

/* ---- the tree of a process's variants ---- */

/* Do two instructions make the same call, whatever inputs they took? */
static int same_call(const struct eng_instr *x, const struct eng_instr *y)
{
	if (x->op != y->op || x->reg != y->reg)
		return 0;
	if (x->op == ENG_BRANCH)
		return x->a == y->a;
	/* sym is a collective's call too (they share storage) */
	if (x->sym != y->sym || x->b != y->b || x->c != y->c || x->d != y->d ||
	    (x->op == ENG_POST_SEND && x->site != y->site))
		return 0;
	if (!(x->op == ENG_POST_SEND && (x->sym & ENG_IN_SOURCE)) && x->a != y->a)
		return 0;
	if (!ENG_LISTED(x->op))
		return x->bytes == y->bytes;
	return x->n == y->n &&
	       (x->n == 0 || !memcmp(x->list, y->list, (size_t)x->n * sizeof(*x->list)));
}

/* Do two variants make the same calls and take the same inputs throughout? */
static int same_variant(const struct var *x, const struct var *y)
{
	int i;

	if (x->n != y->n)
		return 0;
	for (i = 0; i < x->n; i++)
		if (!same_call(&x->ins[i], &y->ins[i]) ||
		    (x->ins[i].op == ENG_BRANCH &&
		     (x->ins[i].b != y->ins[i].b || x->ins[i].c != y->ins[i].c ||
		      x->ins[i].d != y->ins[i].d)))
			return 0;
	return 1;
}

/* A node of a process's tree: instructions that are the same call after the same calls. */
struct node {
	int parent;
	const struct eng_instr *in;
	int child, sibling; /* first child, next sibling; -1 */
	int32_t sym;	    /* a branch: the parts it compares */
	int last;	    /* a reader: no variant through it reads the input later */
};

struct tree {
	struct node *n;
	size_t len, cap;
};

static int tree_child(struct tree *t, int parent, const struct eng_instr *in)
{
	int c = parent < 0 ? (t->len ? 0 : -1) : t->n[parent].child, prev = -1;

	if (parent < 0) {
		/* the roots are chained from node 0 */
		for (c = t->len ? 0 : -1; c >= 0; prev = c, c = t->n[c].sibling)
			if (same_call(t->n[c].in, in))
				return c;
	} else {
		for (; c >= 0; prev = c, c = t->n[c].sibling)
			if (same_call(t->n[c].in, in))
				return c;
	}
	xgrow((void **)&t->n, &t->cap, t->len + 1, sizeof(*t->n));
	c = (int)t->len++;
	t->n[c].parent = parent;
	t->n[c].in = in;
	t->n[c].child = -1;
	t->n[c].sibling = -1;
	t->n[c].sym = in->op == ENG_BRANCH ? in->sym : 0;
	t->n[c].last = 1;
	if (prev >= 0)
		t->n[prev].sibling = c;
	else if (parent >= 0)
		t->n[parent].child = c;
	return c;
}

/* The parts in which the inputs two variants took at branch k differ. */
static int input_diff(const struct var *x, const struct var *y, int k)
{
	const struct eng_instr *a = &x->ins[k], *b = &y->ins[k];

	return (a->b != b->b ? ENG_IN_SOURCE : 0) | (a->c != b->c ? ENG_IN_TAG : 0) |
	       (a->d != b->d ? ENG_IN_SITE : 0);
}

/* Variants x and y part at instruction p (their calls differ there, or one ends). Unless a
 * branch before tells them apart by what it compares, make the last branch whose inputs
 * differ compare that too. */
static void tell_apart(struct tree *t, const struct var *x, const struct var *y, int p)
{
	int k, cand = -1, diff = 0;

	for (k = p - 1; k > 0; k--) {
		int d;

		if (x->ins[k].op != ENG_BRANCH)
			continue;
		d = input_diff(x, y, k);
		if (d & t->n[x->node[k]].sym)
			return; /* told apart already */
		if (d && cand < 0) {
			cand = k;
			diff = d;
		}
	}
	if (cand >= 0)
		t->n[x->node[cand]].sym |= diff;
}

/* ---- registers ---- */

/* The smallest number of registers that lets input i use register i mod R in every variant:
 * no input is taken before the one R earlier was last read. */
static int registers(const struct var *v, int nv)
{
	int most = 1, r, w, i;

	for (w = 0; w < nv; w++)
		if (v[w].ninputs > most)
			most = v[w].ninputs;
	for (r = 1; r < most; r++) {
		int ok = 1;

		for (w = 0; ok && w < nv; w++)
			for (i = 0; ok && i + r < v[w].ninputs; i++) {
				int end = v[w].lastread[i] > v[w].post[i] ? v[w].lastread[i] :
									    v[w].post[i];

				if (v[w].post[i + r] >= 0 && v[w].post[i + r] <= end)
					ok = 0;
			}
		if (ok)
			return r;
	}
	return most;
}

/* ---- one process ---- */

/* The variant w's next branch after instruction k (its node), or its last node. */
static int next_branch(const struct var *w, int k)
{
	int j;

	for (j = k + 1; j < w->n; j++)
		if (w->ins[j].op == ENG_BRANCH)
			return w->node[j];
	return w->node[w->n - 1];
}

/* Do variants x and y take the same way on from branch k: the same group (they agree up to
 * their next branch) and the same input in the parts it compares? */
static int same_way(const struct var *v, const int *group, int x, int y, int k, int sym)
{
	const struct eng_instr *a = &v[x].ins[k], *b = &v[y].ins[k];

	return group[x] == group[y] && (!(sym & ENG_IN_SOURCE) || a->b == b->b) &&
	       (!(sym & ENG_IN_TAG) || a->c == b->c) && (!(sym & ENG_IN_SITE) || a->d == b->d);
}

/* The list of variant self's branch at k: (variant, source, tag, site) for every other way on
 * from there, once each. */
static int32_t *branch_list(const struct tree *t, const struct var *v, int nv, int self, int k,
			    int32_t *n)
{
	int node = v[self].node[k], sym = t->n[node].sym & ~ENG_IN_LAST, w, x;
	int32_t *l = xmalloc((size_t)(4 * nv + 1) * sizeof(*l));
	int *group = xmalloc((size_t)nv * sizeof(*group));

	*n = 0;
	for (w = 0; w < nv; w++)
		group[w] = k < v[w].n && v[w].node[k] == node ? next_branch(&v[w], k) : -1;
	for (w = 0; w < nv; w++) {
		if (group[w] < 0 || same_way(v, group, w, self, k, sym))
			continue;
		for (x = 0; x < w && !(group[x] >= 0 && same_way(v, group, x, w, k, sym)); x++)
			;
		if (x < w)
			continue; /* listed already */
		l[(*n)++] = w;
		l[(*n)++] = v[w].ins[k].b;
		l[(*n)++] = v[w].ins[k].c;
		l[(*n)++] = v[w].ins[k].d;
	}
	free(group);
	return l;
}

/* Merge process q of every run into out (its variants), filling m's tables. */
static void merge_proc(struct eng_prog *const *progs, int nruns, int q, struct eng_prog *out,
		       struct tr_merged *m)
{
	struct var *v = xcalloc((size_t)nruns, sizeof(*v));
	struct tree t;
	int nv = 0, i, k, w, x, nregs;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < nruns; i++) {
		struct var cand;

		memset(&cand, 0, sizeof(cand));
		cand.run = i;
		cand.ins = progs[i]->ins[q];
		cand.n = progs[i]->nins[q];
		for (w = 0; w < nv && !same_variant(&v[w], &cand); w++)
			;
		if (w == nv)
			v[nv++] = cand;
	}
	/* the tree, and each variant's inputs */
	for (w = 0; w < nv; w++) {
		int parent = -1;

		v[w].node = xmalloc((size_t)v[w].n * sizeof(*v[w].node));
		for (k = 0; k < v[w].n; k++) {
			parent = tree_child(&t, parent, &v[w].ins[k]);
			v[w].node[k] = parent;
			if (v[w].ins[k].reg > v[w].ninputs)
				v[w].ninputs = v[w].ins[k].reg;
		}
		v[w].post = xmalloc((size_t)(v[w].ninputs + 1) * sizeof(int32_t));
		v[w].lastread = xmalloc((size_t)(v[w].ninputs + 1) * sizeof(int32_t));
		for (i = 0; i < v[w].ninputs; i++) {
			v[w].post[i] = -1;
			v[w].lastread[i] = -1;
		}
		for (k = 0; k < v[w].n; k++) {
			const struct eng_instr *in = &v[w].ins[k];

			if (in->op == ENG_BRANCH && k > 0)
				v[w].lastread[in->a] = k;
			else if (in->op == ENG_POST_SEND && in->reg > 0)
				v[w].lastread[in->reg - 1] = k;
			else if (in->reg > 0 && v[w].post[in->reg - 1] < 0)
				v[w].post[in->reg - 1] = k;
		}
	}
	/* where two variants part, a branch before must tell them apart if it can */
	for (w = 0; w < nv; w++)
		for (x = w + 1; x < nv; x++) {
			for (k = 0; k < v[w].n && k < v[x].n && v[w].node[k] == v[x].node[k]; k++)
				;
			tell_apart(&t, &v[w], &v[x], k);
		}
	/* the last read of each input: no variant through the reader reads it later */
	for (w = 0; w < nv; w++)
		for (k = 0; k < v[w].n; k++) {
			const struct eng_instr *in = &v[w].ins[k];
			int id = in->op == ENG_BRANCH	 ? in->a :
				 in->op == ENG_POST_SEND ? in->reg - 1 :
							   -1;

			if (id < 0 || (in->op == ENG_BRANCH && k == 0))
				continue;
			for (x = 0; x < nv; x++)
				if (k < v[x].n && v[x].node[k] == v[w].node[k] &&
				    id < v[x].ninputs && v[x].lastread[id] > k)
					t.n[v[w].node[k]].last = 0;
		}
	nregs = registers(v, nv);
	if (nregs > out->nregs)
		out->nregs = nregs;
	/* the variants' instructions */
	out->nvar[q] = nv;
	out->vnins[q] = xcalloc((size_t)nv, sizeof(**out->vnins));
	out->vins[q] = xcalloc((size_t)nv, sizeof(**out->vins));
	m->run[q] = xcalloc((size_t)nv, sizeof(**m->run));
	m->node[q] = xcalloc((size_t)nv, sizeof(**m->node));
	for (w = 0; w < nv; w++) {
		struct eng_instr *ins = xcalloc((size_t)v[w].n, sizeof(*ins));

		for (k = 0; k < v[w].n; k++) {
			struct eng_instr *in = &ins[k];
			const struct node *nd = &t.n[v[w].node[k]];

			*in = v[w].ins[k];
			if (ENG_LISTED(in->op))
				in->list = NULL;
			if (in->reg > 0)
				in->reg = (in->reg - 1) % nregs + 1;
			if (in->op == ENG_BRANCH) {
				in->a = k == 0 ? 0 : in->a % nregs;
				in->sym = nd->sym | (k > 0 && nd->last ? ENG_IN_LAST : 0);
				in->list = branch_list(&t, v, nv, w, k, &in->n);
			} else {
				if (in->op == ENG_POST_SEND && in->reg > 0 && nd->last)
					in->sym |= ENG_IN_LAST;
				if (ENG_LISTED(in->op) && in->n) {
					in->list = xmalloc((size_t)in->n * sizeof(*in->list));
					memcpy(in->list, v[w].ins[k].list,
					       (size_t)in->n * sizeof(*in->list));
				}
			}
		}
		out->vins[q][w] = ins;
		out->vnins[q][w] = v[w].n;
		m->run[q][w] = v[w].run;
	}
	out->ins[q] = out->vins[q][0];
	out->nins[q] = out->vnins[q][0];
	for (w = 0; w < nv; w++) {
		m->node[q][w] = v[w].node;
		free(v[w].post);
		free(v[w].lastread);
	}
	free(v);
	free(t.n);
}

/* Can the programs of several runs be one model? Their communicators must be the same;
 * one-sided calls and threads are not merged yet (their instructions name other processes'
 * instructions, which differ from variant to variant). */
static const char *unmergeable(struct eng_prog *const *progs, int nruns)
{
	int i, c, q, k;

	for (i = 0; i < nruns; i++) {
		const struct eng_prog *p = progs[i];

		if (p->nprocs != p->nranks)
			return "ranks call MPI from several threads";
		if (p->nlocks)
			return "the program takes window locks";
		for (q = 0; q < p->nprocs; q++)
			for (k = 0; k < p->nins[q]; k++)
				if (ENG_WIN_OP(p->ins[q][k].op))
					return "the program uses one-sided synchronisation";
		if (p->nranks != progs[0]->nranks || p->ncomms != progs[0]->ncomms)
			return "the runs made different communicators";
		for (c = 0; c < p->ncomms; c++)
			if (p->comms[c].n != progs[0]->comms[c].n ||
			    memcmp(p->comms[c].members, progs[0]->comms[c].members,
				   (size_t)p->comms[c].n * sizeof(int32_t)))
				return "the runs made different communicators";
	}
	return NULL;
}

int tr_merge(struct eng_prog *const *progs, int nruns, const struct tr_opts *opts,
	     struct tr_merged *m, struct mpiv_error *err)
{
	struct eng_prog *out = &m->prog;
	struct votes vs;
	const char *why;
	int i, q, k, c, w;
	long sends = 0;

	memset(m, 0, sizeof(*m));
	if (nruns < 1)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, NULL, -1, -1, "no run to merge");
	/* one run is its own model, whatever it does */
	why = nruns > 1 ? unmergeable(progs, nruns) : NULL;
	if (why)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, NULL, -1, -1,
				      "the runs cannot be one model: %s", why);
	/* destinations that follow inputs, decided by call site over every run */
	memset(&vs, 0, sizeof(vs));
	for (i = 0; i < nruns; i++)
		for (q = 0; q < progs[i]->nprocs; q++)
			follow_inputs(progs[i]->ins[q], progs[i]->nins[q], &vs, 1);
	for (i = 0; i < nruns; i++)
		for (q = 0; q < progs[i]->nprocs; q++)
			follow_inputs(progs[i]->ins[q], progs[i]->nins[q], &vs, 0);
	free(vs.v);

	out->nranks = progs[0]->nranks;
	out->nprocs = progs[0]->nprocs;
	out->ncomms = progs[0]->ncomms;
	out->comms = xcalloc((size_t)out->ncomms, sizeof(*out->comms));
	for (c = 0; c < out->ncomms; c++) {
		out->comms[c].n = progs[0]->comms[c].n;
		out->comms[c].members = xcalloc((size_t)out->comms[c].n + 1, sizeof(int32_t));
		memcpy(out->comms[c].members, progs[0]->comms[c].members,
		       (size_t)out->comms[c].n * sizeof(int32_t));
	}
	out->proc_rank = xcalloc((size_t)out->nprocs, sizeof(*out->proc_rank));
	out->proc_thread = xcalloc((size_t)out->nprocs, sizeof(*out->proc_thread));
	out->rank_proc = xcalloc((size_t)out->nranks + 1, sizeof(*out->rank_proc));
	memcpy(out->proc_rank, progs[0]->proc_rank, (size_t)out->nprocs * sizeof(int32_t));
	memcpy(out->proc_thread, progs[0]->proc_thread, (size_t)out->nprocs * sizeof(int32_t));
	memcpy(out->rank_proc, progs[0]->rank_proc, (size_t)(out->nranks + 1) * sizeof(int32_t));
	out->ins = xcalloc((size_t)out->nprocs, sizeof(*out->ins));
	out->nins = xcalloc((size_t)out->nprocs, sizeof(*out->nins));
	out->nvar = xcalloc((size_t)out->nprocs, sizeof(*out->nvar));
	out->vnins = xcalloc((size_t)out->nprocs, sizeof(*out->vnins));
	out->vins = xcalloc((size_t)out->nprocs, sizeof(*out->vins));
	out->locks = xcalloc((size_t)progs[0]->nlocks + 1, sizeof(*out->locks));
	if (nruns == 1 && progs[0]->nlocks) {
		out->nlocks = progs[0]->nlocks;
		memcpy(out->locks, progs[0]->locks, (size_t)out->nlocks * sizeof(*out->locks));
	}
	out->nregs = 1;
	m->nruns = nruns;
	m->run = xcalloc((size_t)out->nprocs, sizeof(*m->run));
	m->node = xcalloc((size_t)out->nprocs, sizeof(*m->node));
	for (q = 0; q < out->nprocs; q++)
		merge_proc(progs, nruns, q, out, m);
	/* sizes: the most any run needed; messages in flight: every send a process's variants
	 * could make at once */
	out->maxlive = 1;
	for (i = 0; i < nruns; i++) {
		if (progs[i]->maxlive > out->maxlive)
			out->maxlive = progs[i]->maxlive;
		if (progs[i]->bsend_overhead > out->bsend_overhead)
			out->bsend_overhead = progs[i]->bsend_overhead;
	}
	for (q = 0; q < out->nprocs; q++) {
		long most = 0;

		for (w = 0; w < out->nvar[q]; w++) {
			long n = 0;

			for (k = 0; k < out->vnins[q][w]; k++)
				n += out->vins[q][w][k].op == ENG_POST_SEND;
			if (n > most)
				most = n;
		}
		sends += most;
	}
	out->buffering = opts->buffering;
	out->eager = opts->eager;
	out->maxmsg = opts->maxmsg > 0 ? opts->maxmsg : DEFAULT_MAXMSG;
	if (sends < out->maxmsg)
		out->maxmsg = sends > 0 ? (int)sends : 1;
	eng_layout(out);
	return 0;
}

long tr_merged_node(void *ctx, int q, int v, int pc)
{
	const struct tr_merged *m = ctx;

	return m->node[q][v][pc];
}

void tr_merged_release(struct tr_merged *m)
{
	int q, w;

	for (q = 0; m->node && q < m->prog.nprocs; q++) {
		for (w = 0; m->node[q] && w < m->prog.nvar[q]; w++)
			free(m->node[q][w]);
		free(m->node[q]);
		free(m->run[q]);
	}
	free(m->node);
	free(m->run);
	eng_prog_release(&m->prog);
	memset(m, 0, sizeof(*m));
}
