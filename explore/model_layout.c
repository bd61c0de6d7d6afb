/* verify (model.h): a process's tree and branch groups laid out as the model's graph. From its
 * start, each group's ways on are laid out once, at the first of its branches the layout
 * reaches: for each way (the same calls to the same next branch group, or end), the
 * instructions of the first run that went it, up to its next branch, which is a branch of that
 * group (every branch of a group has the group's list of ways, so that a loop's turns share
 * its body). The tables of model.h go beside: which run each instruction comes from, and where
 * that run's request numbering starts. */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

/* Does in post a request? */
static int is_post(const struct eng_instr *in)
{
	return in->op == ENG_POST_SEND || in->op == ENG_POST_RECV || in->op == ENG_ICOLL ||
	       in->op == ENG_GREQ;
}

/* One process being laid out as a graph, with the tables of model.h beside it. */
struct layout {
	struct seq *v;
	struct tree *t;
	struct eng_prog *out; /* whose blocks hold the lists */
	int nregs;	      /* registers the inputs share (the loops' come after) */
	const int32_t *color; /* per input number: the register it shares, from 0 */
	int32_t **loopreg;    /* per run, per input: the register of the loop that reads it, 0 */
	struct eng_instr *ins;
	int32_t *run, *made, *req, *anchor;
	char *starts, *unsettled;
	size_t n, cap, capside[6];
};

/* The model's register (from 1, 0 none) of input number reg (from 1) of run s: a loop's own,
 * else the one it shares. */
static int32_t renumber(const struct layout *L, int s, int32_t reg)
{
	if (reg <= 0)
		return reg;
	if (reg - 1 < L->v[s].ninputs && L->loopreg[s][reg - 1])
		return L->loopreg[s][reg - 1];
	return L->color[reg - 1] + 1;
}

/* The model's instruction of run s's instruction x: the copy on the path being laid out. */
static int32_t mapped(const struct layout *L, int s, int32_t x)
{
	return L->t->n[L->v[s].node[x]].instr;
}

/* A copy of a run's list of n entries in out's blocks; none for an empty one, which the
 * run's program holds (and frees) itself. */
static int32_t *copy_list(struct eng_prog *out, const int32_t *l, int n)
{
	int32_t *c;

	if (n <= 0)
		return NULL;
	c = xcheck(eng_list_alloc(out, (size_t)n), (size_t)n * sizeof(*c));
	memcpy(c, l, (size_t)n * sizeof(*c));
	return c;
}

/* An any-completion's list: the posts any run's passed it, on the path being laid out. */
static void union_list(struct layout *L, const struct tnode *nd, struct eng_instr *in)
{
	int32_t *l = NULL;
	size_t n = 0, cap = 0, p;
	int j;

	for (p = 0; p < nd->npass; p++) {
		const struct eng_instr *w = &L->v[nd->pass[p].s].ins[nd->pass[p].k];

		for (j = 0; j < w->n; j++) {
			int32_t x = mapped(L, nd->pass[p].s, w->list[j]);
			size_t i;

			for (i = 0; i < n && l[i] != x; i++)
				;
			if (i < n)
				continue;
			xgrow((void **)&l, &cap, n + 1, sizeof(*l));
			l[n++] = x;
		}
	}
	in->sym = (int16_t)(ENG_WAIT_LIVE | (in->sym & ENG_POLLED));
	in->n = (int32_t)n;
	in->d = 1;
	in->list = xcheck(eng_list_alloc(L->out, n), n * sizeof(*l));
	memcpy(in->list, l, n * sizeof(*l));
	free(l);
}

/* Give branch instruction bi of group g the group's ways on, now or once they are laid out. */
static void branch_ways(struct layout *L, struct bgroup *g, int bi)
{
	if (g->list) {
		L->ins[bi].list = g->list;
		L->ins[bi].n = g->n;
		return;
	}
	xgrow((void **)&g->copies, &g->capcopies, g->ncopies + 1, sizeof(*g->copies));
	g->copies[g->ncopies++] = bi;
}

/* Lay out run s's instruction k (of tree node nd) as the model's next instruction. */
static int emit(struct layout *L, int s, int k)
{
	const struct seq *v = &L->v[s];
	struct tnode *nd = &L->t->n[v->node[k]];
	struct eng_instr *in;
	int i = (int)L->n, j;

	xgrow((void **)&L->ins, &L->cap, L->n + 1, sizeof(*L->ins));
	xgrow((void **)&L->run, &L->capside[0], L->n + 1, sizeof(*L->run));
	xgrow((void **)&L->made, &L->capside[1], L->n + 1, sizeof(*L->made));
	xgrow((void **)&L->req, &L->capside[2], L->n + 1, sizeof(*L->req));
	xgrow((void **)&L->anchor, &L->capside[3], L->n + 1, sizeof(*L->anchor));
	xgrow((void **)&L->starts, &L->capside[4], L->n + 1, sizeof(*L->starts));
	xgrow((void **)&L->unsettled, &L->capside[5], L->n + 1, sizeof(*L->unsettled));
	in = &L->ins[L->n++];
	*in = v->ins[k];
	L->run[i] = v->run;
	L->made[i] = v->made[k];
	L->req[i] = v->req[k];
	L->anchor[i] = 0;
	L->starts[i] = 0;
	L->unsettled[i] = in->op == ENG_BRANCH && nd->unsettled;
	nd->instr = i;
	if (in->op != ENG_BRANCH)
		in->reg = renumber(L, s, in->reg);
	if (in->op == ENG_POST_RECV)
		in->rreg = renumber(L, s, in->rreg);
	if ((in->op == ENG_POST_SEND || in->op == ENG_POST_RECV) && (in->sym & ENG_IN_SOURCE) &&
	    nd->last)
		in->sym |= ENG_IN_LAST;
	if (in->op == ENG_BRANCH) {
		struct bgroup *g = &L->t->g[nd->group];

		in->a = in->a >= 0 ? renumber(L, s, in->a + 1) - 1 : -1;
		/* a branch on no input (the start, before a poll) compares nothing */
		in->sym = in->a < 0 ? 0 : (int16_t)(g->sym | (k > 0 && g->last ? ENG_IN_LAST : 0));
		in->list = NULL;
		in->n = 0;
		branch_ways(L, g, i);
	} else if (in->op == ENG_WAITANY && in->reg > 0) {
		union_list(L, nd, in);
	} else if (in->op == ENG_WAIT || in->op == ENG_WAITANY || in->op == ENG_WAIT_SOME) {
		int32_t *l = xcheck(eng_list_alloc(L->out, (size_t)in->n),
				    (size_t)in->n * sizeof(*l));

		for (j = 0; j < in->n; j++)
			l[j] = mapped(L, s, v->ins[k].list[j]);
		in->list = l;
	} else if (ENG_LISTED(in->op)) {
		in->list = copy_list(L->out, v->ins[k].list, in->n);
	} else if (in->op == ENG_GREQ_DONE) {
		in->a = mapped(L, s, in->a);
	}
	return i;
}

/* The pass of pass[0..n) whose way pass[p] is laid out by, or -1: its own. A whole way is
 * laid out by the first whole one before it that went the same way. One cut short goes the way
 * of any that made the same calls up to there, of two that went apart too (xm_same_way()), so
 * it lays out no other: it takes a whole way it may be, one that took its input (in the parts
 * sym compared) first, else the first cut way before it that went its way. */
static long laid_like(const struct layout *L, const struct pass *pass, size_t n, size_t p, int sym)
{
	const struct pass *a = &pass[p];
	long whole = -1, cut = -1;
	size_t q;

	if (!xm_cut_short(L->v, a)) {
		for (q = 0; q < p; q++)
			if (!xm_cut_short(L->v, &pass[q]) && xm_same_way(L->v, L->t, &pass[q], a))
				return (long)q;
		return -1;
	}
	for (q = 0; q < n; q++) {
		if (q == p || !xm_same_way(L->v, L->t, &pass[q], a))
			continue;
		if (!xm_cut_short(L->v, &pass[q])) {
			if (!(xm_input_diff(xm_pass_input(L->v, &pass[q]), xm_pass_input(L->v, a)) &
			      sym))
				return (long)q;
			if (whole < 0)
				whole = (long)q;
		} else if (q < p && cut < 0) {
			cut = (long)q;
		}
	}
	return whole >= 0 ? whole : cut;
}

/* Lay out the ways on of group gi: for each, the instructions of the first run that went it up
 * to its end, a branch of the next group, laid out in turn if it is not yet (the whole ways
 * first, then those cut short, laid_like()); then the group's list: a way for each input, in
 * the parts it compares, a run took to there. */
static void layout_group(struct layout *L, int gi)
{
	struct bgroup *g = &L->t->g[gi];
	struct pass *pass;
	size_t n = xm_group_passes(L->t, g, &pass), p, i, nl = 0;
	long q;
	int32_t *target = xmalloc((n + 1) * sizeof(*target));
	int32_t *l = xmalloc((n + 1) * ENG_BRANCH_WORDS * sizeof(*l));
	int sym = g->sym & ENG_IN_PARTS;

	g->laid = 1;
	for (i = 0; i < 2 * n; i++) {
		const struct pass *a = &pass[p = i % n];
		int j, end = xm_way_of(L->v, a->s, a->k);
		const struct tnode *last;

		if (xm_cut_short(L->v, a) != (i >= n))
			continue;
		q = laid_like(L, pass, n, p, sym);
		if (q >= 0) { /* laid out by another pass that went there */
			target[p] = target[q];
			continue;
		}
		target[p] = (int32_t)L->n;
		for (j = a->k + 1; j <= end; j++)
			emit(L, a->s, j);
		L->starts[target[p]] = 1;
		L->anchor[target[p]] = L->v[a->s].made[a->k];
		last = &L->t->n[L->v[a->s].node[end]];
		if (last->group >= 0 && !L->t->g[last->group].laid)
			layout_group(L, last->group);
	}
	/* one way per input, in the parts compared, and target */
	for (p = 0; p < n; p++) {
		const int32_t *in = xm_pass_input(L->v, &pass[p]);

		for (i = 0; i < nl; i += ENG_BRANCH_WORDS)
			if (l[i] == target[p] && !(xm_input_diff(&l[i + 1], in) & sym))
				break;
		if (i < nl)
			continue;
		l[nl] = target[p];
		memcpy(&l[nl + 1], in, (ENG_BRANCH_WORDS - 1) * sizeof(*l));
		nl += ENG_BRANCH_WORDS;
	}
	g->n = (int32_t)nl;
	g->list = xcheck(eng_list_alloc(L->out, nl), nl * sizeof(*l));
	memcpy(g->list, l, nl * sizeof(*l));
	for (p = 0; p < g->ncopies; p++) {
		L->ins[g->copies[p]].list = g->list;
		L->ins[g->copies[p]].n = g->n;
	}
	g->ncopies = 0;
	free(l);
	free(target);
	free(pass);
}

/* The call site of the model's instruction i (laid out from some run's). */
static int32_t instr_key(const struct layout *L, int i)
{
	return xm_call_key(L->v[L->run[i]].t, &L->ins[i]);
}

/* An any-completion waits for the live requests of the array the program passed it; which
 * requests those are depends on the path (the requests of the workers that answered, reposted
 * for them; those another order returned already). Its list names every post of the process
 * made at the calls that made the requests some run's array held at that any-completion's
 * call: the array the call passes is the same wherever the call is made. The waits of one
 * call share one list (in ascending order, as the engine looks entries up): a program
 * unrolled over many rounds has thousands of each, and a list as long as its posts. */
static void widen_live_waits(struct layout *L)
{
	int32_t *keys = NULL, *site = NULL, *done = NULL, **lists = NULL, *nlist = NULL;
	size_t nkeys = 0, capkeys = 0, ndone = 0, capdone = 0, caplists = 0, capn = 0, x;
	int i, j, k, d;

	/* (the wait's call, a post's call) for every post some run's wait listed */
	for (i = 0; i < (int)L->n; i++) {
		const struct eng_instr *w = &L->ins[i];

		if (!(w->op == ENG_WAITANY || w->op == ENG_WAIT) || !(w->sym & ENG_WAIT_LIVE))
			continue;
		for (j = 0; j < w->n; j++) {
			int32_t wk = instr_key(L, i), pk = instr_key(L, w->list[j]);

			for (k = 0; k < (int)nkeys && !(keys[2 * k] == wk && keys[2 * k + 1] == pk);
			     k++)
				;
			if (k < (int)nkeys)
				continue;
			xgrow((void **)&keys, &capkeys, 2 * (nkeys + 1), sizeof(*keys));
			keys[2 * nkeys] = wk;
			keys[2 * nkeys++ + 1] = pk;
		}
	}
	site = xmalloc((L->n + 1) * sizeof(*site));
	for (i = 0; i < (int)L->n; i++)
		site[i] = is_post(&L->ins[i]) ? instr_key(L, i) : 0;
	for (i = 0; i < (int)L->n; i++) {
		struct eng_instr *w = &L->ins[i];
		int32_t wk, *l = NULL;
		int n = 0;

		if (!(w->op == ENG_WAITANY || w->op == ENG_WAIT) || !(w->sym & ENG_WAIT_LIVE))
			continue;
		wk = instr_key(L, i);
		for (d = 0; d < (int)ndone && done[d] != wk; d++)
			;
		if (d == (int)ndone) { /* the first wait of its call: make the list */
			for (j = 0; j < 2; j++) {
				if (j)
					l = xcheck(eng_list_alloc(L->out, (size_t)n),
						   (size_t)n * sizeof(*l));
				for (k = 0, n = 0; k < (int)L->n; k++) {
					for (x = 0;
					     site[k] && x < nkeys &&
					     !(keys[2 * x] == wk && keys[2 * x + 1] == site[k]);
					     x++)
						;
					if (!site[k] || x == nkeys)
						continue;
					if (j)
						l[n] = k;
					n++;
				}
			}
			xgrow((void **)&done, &capdone, ndone + 1, sizeof(*done));
			xgrow((void **)&lists, &caplists, ndone + 1, sizeof(*lists));
			xgrow((void **)&nlist, &capn, ndone + 1, sizeof(*nlist));
			done[ndone] = wk;
			lists[ndone] = l;
			nlist[ndone++] = n;
		}
		w->list = lists[d];
		w->n = nlist[d];
	}
	free(site);
	free(keys);
	free(done);
	free(lists);
	free(nlist);
}

/* Is part (ENG_IN_*) of an any-completion's input the same whichever of the posts of its
 * list it returns? A request's peer where each names the same one, its tag where each names
 * the same one; what a message carried, where each is a send from one call. */
static int part_constant(const struct layout *L, const struct eng_instr *w, int part)
{
	const struct eng_instr *first = &L->ins[w->list[0]];
	int j;

	if (part == ENG_IN_REQ)
		return w->n == 1;
	for (j = 0; j < w->n; j++) {
		const struct eng_instr *p = &L->ins[w->list[j]];

		if (p->op != first->op || (p->op != ENG_POST_SEND && p->op != ENG_POST_RECV))
			return 0;
		if (part == ENG_IN_SOURCE &&
		    (p->a != first->a || p->a == ENG_ANY || (p->sym & ENG_IN_SOURCE)))
			return 0;
		if (part == ENG_IN_TAG && (p->c != first->c || p->c == ENG_ANY))
			return 0;
		if (part == ENG_IN_SITE && (p->op != ENG_POST_SEND || p->site != first->site))
			return 0;
	}
	return 1;
}

/* An any-completion whose outcome the process does not act on (the branch that learns it
 * compares only parts that are the same whichever request it returns, and nothing reads it
 * after) returns the first complete request, with no choice: the order in which requests are
 * returned would only multiply the states. */
static void settle_any_completions(struct layout *L)
{
	int i, part;

	for (i = 0; i + 1 < (int)L->n; i++) {
		struct eng_instr *w = &L->ins[i], *br = &L->ins[i + 1];

		if (w->op != ENG_WAITANY || w->reg <= 0 || !w->n || br->op != ENG_BRANCH ||
		    br->a != w->reg - 1 || !(br->sym & ENG_IN_LAST))
			continue;
		for (part = ENG_IN_SOURCE; part <= ENG_IN_REQ; part <<= 1)
			if ((br->sym & part) && part != ENG_IN_LAST && !part_constant(L, w, part))
				break;
		if (part <= ENG_IN_REQ)
			continue;
		w->reg = 0;
		br->a = -1;
		br->sym = 0;
	}
}

/* Each loop's register (nregs + 1, ...), and which inputs of the runs it holds: those its
 * branches learn. */
static void loop_registers(struct layout *L, int nv)
{
	int s, reg = L->nregs;
	size_t gi, p, n;

	L->loopreg = xcalloc((size_t)nv, sizeof(*L->loopreg));
	for (s = 0; s < nv; s++)
		L->loopreg[s] = xcalloc((size_t)L->v[s].ninputs + 1, sizeof(**L->loopreg));
	for (gi = 0; gi < L->t->ng; gi++) {
		struct bgroup *g = &L->t->g[gi];
		struct pass *pass;

		if (!g->folded)
			continue;
		g->reg = ++reg;
		n = xm_group_passes(L->t, g, &pass);
		for (p = 0; p < n; p++) {
			int a = L->v[pass[p].s].ins[pass[p].k].a;

			if (a >= 0 && a < L->v[pass[p].s].ninputs)
				L->loopreg[pass[p].s][a] = g->reg;
		}
		free(pass);
	}
}

void xm_layout(struct xmodel *m, struct seq *v, int nv, struct tree *t, int nregs,
	       const int32_t *color, unsigned flags, int q)
{
	struct layout L;
	int s;

	memset(&L, 0, sizeof(L));
	L.v = v;
	L.t = t;
	L.out = &m->prog;
	L.nregs = nregs;
	L.color = color;
	loop_registers(&L, nv);
	/* the start, every run's first instruction: a branch on no input */
	emit(&L, 0, 0);
	layout_group(&L, t->n[v[0].node[0]].group);
	widen_live_waits(&L);
	if (!(flags & XMODEL_EXHAUSTIVE))
		settle_any_completions(&L);
	m->prog.ins[q] = L.ins;
	m->prog.nins[q] = (int32_t)L.n;
	m->run[q] = L.run;
	m->made[q] = L.made;
	m->req[q] = L.req;
	m->anchor[q] = L.anchor;
	m->starts[q] = L.starts;
	m->unsettled[q] = L.unsettled;
	for (s = 0; s < nv; s++)
		free(L.loopreg[s]);
	free(L.loopreg);
}

void xm_copy(struct xmodel *m, const struct seq *v, int q)
{
	struct eng_instr *ins = xmalloc((size_t)v->n * sizeof(*ins));
	int k;

	for (k = 0; k < v->n; k++) {
		ins[k] = v->ins[k];
		if (ENG_LISTED(ins[k].op))
			ins[k].list = copy_list(&m->prog, v->ins[k].list, ins[k].n);
	}
	m->prog.ins[q] = ins;
	m->prog.nins[q] = v->n;
	m->run[q] = xcalloc((size_t)v->n, sizeof(int32_t));
	m->made[q] = xmalloc((size_t)v->n * sizeof(int32_t));
	m->req[q] = xmalloc((size_t)v->n * sizeof(int32_t));
	memcpy(m->made[q], v->made, (size_t)v->n * sizeof(int32_t));
	memcpy(m->req[q], v->req, (size_t)v->n * sizeof(int32_t));
	m->anchor[q] = xcalloc((size_t)v->n, sizeof(int32_t));
	m->starts[q] = xcalloc((size_t)v->n, 1);
	m->unsettled[q] = xcalloc((size_t)v->n, 1);
}
