/* verify (model.h, doc/verify.md section 2): loops. A worker takes a task, works, answers and
 * takes the next, as often as the master gives it tasks: in the tree of its runs each task is
 * a branch node of its own, one deeper than the last, and a worker that got a task at a depth
 * no run gave it one would be a frontier, for every depth and every task. Where the runs
 * show the process going on alike from every branch of a call site, whatever it did before
 * (the same input leading to the same calls, wherever it was taken), the branches of that call
 * site are one: the model's process loops, and takes at any depth the tasks a run showed it
 * taking at some depth.
 *
 * The branches of a call site are one (folded) where
 *   - the call site recurs: a run passed two of its branches;
 *   - no request is live at any of them (what the loop's calls wait for is the loop's), and
 *     the collectives before each are the same calls (the engine numbers collectives per
 *     communicator), so that no collective lies between one and the next;
 *   - no two runs took there the same input (in every part) and went different ways: the
 *     process would act on more than the call site and the input;
 *   - and two runs took there the same input at different branches and went the same way:
 *     the evidence that the process goes on alike at different depths.
 * The rules are checked together: two ways are the same when their calls are and they lead
 * to the same branch, and a folded call site's branches are one branch.
 *
 * A farm served in rounds (a farm per time step, a collective between them) is no loop as
 * a whole: the stop of a round leads to the next round, that of the last to the end. Its
 * call sites are then tried a phase at a time, the branches after the same collectives on the
 * same communicator and tag, under the same rules. A phase's branches are one whatever the
 * phases before did, so that the rounds' runs add up instead of multiplying. Rounds with
 * nothing between them are told apart by the input that ends one: where one input went two
 * ways at a call site (a worker's stop, that starts the next round or ends the run), its
 * branches are tried a round at a time, by how often the run took that input there before. */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

/* Do x (run instruction ox + i) and y (oy + i) make the same call, as the calls of a loop's
 * body are the same at every turn: input numbers are the turn's, and a wait names posts by
 * where they are from the loop's branch. */
static int same_rel(const struct eng_instr *x, int ox, const struct eng_instr *y, int oy)
{
	struct eng_instr a = *x, b = *y;
	int i;

	/* the registers the turn's inputs are numbered by: only whether there is one */
	a.reg = a.reg > 0;
	b.reg = b.reg > 0;
	if (a.op == ENG_POST_RECV) {
		a.rreg = a.rreg > 0;
		b.rreg = b.rreg > 0;
	}
	/* an any-completion that takes an input waits, in the model, for every post of the
	 * calls whose requests it was passed (model_layout.c), whichever those were */
	if (!(a.op == ENG_WAIT || a.op == ENG_WAITANY || a.op == ENG_WAIT_SOME) || a.op != b.op ||
	    (a.op == ENG_WAITANY && a.reg) || (a.op == ENG_WAIT && (a.sym & ENG_WAIT_LIVE)))
		return xm_same_call(&a, &b);
	if (a.n != b.n || a.d != b.d || a.reg != b.reg)
		return 0;
	for (i = 0; i < a.n; i++)
		if (a.list[i] - ox != b.list[i] - oy)
			return 0;
	return 1;
}

static int cut_short(const struct seq *v, const struct pass *p, int end)
{
	return v[p->s].ins[end].op == ENG_STOP;
}

int xm_cut_short(const struct seq *v, const struct pass *p)
{
	return cut_short(v, p, xm_way_of(v, p->s, p->k));
}

/* Are the calls of a's way, before its end, those b's makes first? A run that stopped in a
 * wildcard probe (or in a polling loop, which verify takes as one) found nothing: where b's
 * process found a message, verify took the probe and the receive of what it found as that
 * receive, after a poll's branch (doc/semantics.md 4.5), so the probe is the receive or the
 * branch before it. */
static int prefix_of(const struct seq *v, const struct pass *a, int ea, const struct pass *b,
		     int eb)
{
	int j, n = ea - a->k - 1, len = eb - b->k; /* a's calls; b's way, its end among them */
	const struct eng_instr *last = &v[a->s].ins[ea - 1], *y;
	int probe = n > 0 && last->op == ENG_PROBE;

	if (n + !probe > len)
		return 0;
	for (j = 1; j < n + !probe; j++)
		if (!same_rel(&v[a->s].ins[a->k + j], a->k, &v[b->s].ins[b->k + j], b->k))
			return 0;
	if (!probe)
		return 1;
	y = &v[b->s].ins[b->k + n];
	if (n == len)
		return y->op == ENG_BRANCH && y->a < 0; /* a poll's branch */
	return same_rel(last, a->k, y, b->k) ||
	       (y->op == ENG_POST_RECV && last->a == y->a && last->b == y->b && last->c == y->c);
}

int xm_same_way(const struct seq *v, const struct tree *t, const struct pass *a,
		const struct pass *b)
{
	int ea = xm_way_of(v, a->s, a->k), eb = xm_way_of(v, b->s, b->k), j, na, nb;

	/* a run that stopped on the way (a hang: its last call never returned, and the
	 * program's was not the choice of the branch before) went the way of any that made the
	 * same calls up to there */
	if (cut_short(v, a, ea) != cut_short(v, b, eb))
		return cut_short(v, a, ea) ? prefix_of(v, a, ea, b, eb) :
					     prefix_of(v, b, eb, a, ea);
	/* two that stopped on the way: the one that stopped sooner made the other's calls up to
	 * there (one blocked in a send, the other in the receive after it) */
	if (cut_short(v, a, ea))
		return ea - a->k <= eb - b->k ? prefix_of(v, a, ea, b, eb) :
						prefix_of(v, b, eb, a, ea);
	na = v[a->s].node[ea];
	nb = v[b->s].node[eb];
	/* from one node the tree tells: the same calls lead to the same node */
	if (v[a->s].node[a->k] == v[b->s].node[b->k])
		return na == nb;
	if (ea - a->k != eb - b->k)
		return 0;
	for (j = 1; j < ea - a->k; j++)
		if (!same_rel(&v[a->s].ins[a->k + j], a->k, &v[b->s].ins[b->k + j], b->k))
			return 0;
	if (t->n[na].group >= 0 || t->n[nb].group >= 0)
		return t->n[na].group == t->n[nb].group;
	return same_rel(&v[a->s].ins[ea], a->k, &v[b->s].ins[eb], b->k);
}

/* ---- groups ---- */

static int new_group(struct tree *t, int32_t key, int folded)
{
	struct bgroup *g;

	xgrow((void **)&t->g, &t->capg, t->ng + 1, sizeof(*t->g));
	g = &t->g[t->ng];
	memset(g, 0, sizeof(*g));
	g->key = key;
	g->folded = folded;
	g->last = 1;
	return (int)t->ng++;
}

static void group_add(struct tree *t, int g, int node)
{
	struct bgroup *b = &t->g[g];

	xgrow((void **)&b->nodes, &b->capnodes, b->nnodes + 1, sizeof(*b->nodes));
	b->nodes[b->nnodes++] = node;
	b->last &= t->n[node].last;
	t->n[node].group = g;
}

/* Is node nd a branch (on an input, or the start)? */
static int is_branch(const struct seq *v, const struct tnode *nd)
{
	return v[nd->pass[0].s].ins[nd->pass[0].k].op == ENG_BRANCH;
}

/* A call site that may be a loop: every branch node of it (CAND_WHOLE), or those of one
 * phase (CAND_PHASE; struct tnode's phase: a farm served again after a collective, or on
 * another communicator or tag), or those of one place in a phase whatever came before it
 * (CAND_PLACE: the same calls since the phase began, in any order: struct tnode's path). */
enum { CAND_WHOLE, CAND_PHASE, CAND_PLACE, CAND_ROUND };
struct cand {
	int32_t key;
	int kind;
	uint32_t phase, path;
};

static int cand_has(const struct cand *c, const struct tnode *nd)
{
	/* the branches before a poll at a place (no call site: they take no input) */
	if (!c->key)
		return nd->poll && nd->phase == c->phase && nd->path == c->path;
	if (c->kind == CAND_ROUND)
		return nd->key == c->key && nd->phase == c->phase && nd->exits == c->path;
	return nd->key && nd->key == c->key &&
	       (c->kind == CAND_WHOLE ||
		(nd->phase == c->phase && (c->kind == CAND_PHASE || nd->path == c->path)));
}

/* Group t's branch nodes: those of each candidate in c[0..nc) one group, every other branch
 * node a group of its own. */
static void regroup(const struct seq *v, struct tree *t, const struct cand *c, int nc)
{
	size_t k;
	int i;

	for (k = 0; k < t->ng; k++) {
		free(t->g[k].nodes);
		free(t->g[k].copies);
	}
	t->ng = 0;
	for (i = 0; i < nc; i++)
		new_group(t, c[i].key, c[i].key != 0);
	for (k = 0; k < t->len; k++) {
		struct tnode *nd = &t->n[k];

		nd->group = -1;
		if (!is_branch(v, nd))
			continue;
		for (i = 0; i < nc && !cand_has(&c[i], nd); i++)
			;
		group_add(t, i < nc ? i : new_group(t, nd->key, 0), (int)k);
	}
}

/* Can the nodes of candidate c be one loop, whatever the runs show of their ways: does it
 * recur, with no request live at it and the same collectives before each of its nodes? A
 * collective on a way on is no obstacle: one on a way back to the loop would make the
 * collectives before its nodes differ, and one on a way out has the same number whichever
 * turn the loop ends at. */
static int loop_shape(const struct seq *v, int nv, const struct tree *t, const struct cand *c)
{
	int s, k, recur = 0, nodes = 0;
	uint32_t colls = 0;

	for (s = 0; s < nv; s++) {
		int here = 0;

		for (k = 1; k < v[s].n; k++) {
			if (v[s].ins[k].op != ENG_BRANCH || !cand_has(c, &t->n[v[s].node[k]]))
				continue;
			if (v[s].live[k])
				return 0;
			if (nodes++ && v[s].colls[k] != colls)
				return 0;
			colls = v[s].colls[k];
			recur |= ++here > 1;
		}
	}
	return recur;
}

/* What the runs show of group g: 0 if one input there went two ways; else 1, 3 if some took
 * one input at two of its nodes and went the same way (the process goes on alike from
 * them). */
static int loop_evidence(const struct seq *v, const struct tree *t, const struct bgroup *g)
{
	struct pass *pass;
	size_t n = xm_group_passes(t, g, &pass), i, j;
	int alike = 0, ok = 1;

	for (i = 0; ok && i < n; i++)
		for (j = i + 1; ok && j < n; j++) {
			int same_in = !xm_input_diff(xm_pass_input(v, &pass[i]),
						     xm_pass_input(v, &pass[j]));
			int same = same_in && xm_same_way(v, t, &pass[i], &pass[j]);

			if (same_in && !same)
				ok = 0;
			alike |= same &&
				 v[pass[i].s].node[pass[i].k] != v[pass[j].s].node[pass[j].k];
		}
	free(pass);
	return ok ? 1 + 2 * alike : 0;
}

/* Do ways a and b make the same calls, up to their next branches? */
static int same_calls(const struct seq *v, const struct pass *a, const struct pass *b)
{
	int ea = xm_way_of(v, a->s, a->k), eb = xm_way_of(v, b->s, b->k), j;

	if (ea - a->k != eb - b->k)
		return 0;
	for (j = 1; j <= ea - a->k; j++)
		if (!same_rel(&v[a->s].ins[a->k + j], a->k, &v[b->s].ins[b->k + j], b->k))
			return 0;
	return 1;
}

/* What the runs show of group g of branches before a poll, as loop_evidence() does: 0 if
 * two runs made the same calls from there and went on to different branches (the poll that
 * succeeded first is a choice: runs that went different ways by making other calls say
 * nothing against the group), else 3. */
static int poll_evidence(const struct seq *v, const struct tree *t, const struct bgroup *g)
{
	struct pass *pass;
	size_t n = xm_group_passes(t, g, &pass), i, j;
	int ok = 1;

	for (i = 0; ok && i < n; i++)
		for (j = i + 1; ok && j < n; j++)
			ok = !same_calls(v, &pass[i], &pass[j]) ||
			     xm_same_way(v, t, &pass[i], &pass[j]);
	free(pass);
	return 3 * ok;
}

/* Add candidate c to *cs if it has a loop's shape. */
static void cand_try(const struct seq *v, int nv, const struct tree *t, struct cand c,
		     struct cand **cs, int *n, size_t *cap)
{
	int i;

	for (i = 0; i < *n; i++)
		if ((*cs)[i].key == c.key && (*cs)[i].kind == c.kind && (*cs)[i].phase == c.phase &&
		    (*cs)[i].path == c.path)
			return;
	if (c.kind != CAND_PLACE && !loop_shape(v, nv, t, &c))
		return;
	xgrow((void **)cs, cap, (size_t)*n + 1, sizeof(**cs));
	(*cs)[(*n)++] = c;
}

/* Drop each candidate the runs do not show to be one, until every one left is: a loop or a
 * place where one input went two ways, a loop with no evidence that it goes on alike, and
 * the places of a phase none of which has any. Every one that fails is dropped at once:
 * dropping a candidate parts its branches, which only takes evidence from the others. */
static void keep_evidenced(const struct seq *v, struct tree *t, struct cand *cs, int *n)
{
	int *ev = NULL, i, j, kept, alike;
	char *keep = NULL;
	size_t k;

	do {
		regroup(v, t, cs, *n);
		ev = xrealloc(ev, ((size_t)*n + 1) * sizeof(*ev));
		keep = xrealloc(keep, (size_t)*n + 1);
		for (i = 0; i < *n; i++)
			ev[i] = (cs[i].key ? loop_evidence : poll_evidence)(v, t, &t->g[i]);
		/* what each keeps is decided on every one's evidence, none's verdict: a place
		 * late in cs has the evidence of those before it as one early has theirs */
		for (i = 0; i < *n; i++) {
			int fine = cs[i].kind == CAND_PLACE || cs[i].kind == CAND_ROUND;

			/* a place, or a round, may go on alike where another of its phase does */
			for (j = 0, alike = ev[i] == 3; fine && j < *n; j++)
				alike |= cs[j].kind == cs[i].kind && cs[j].key == cs[i].key &&
					 cs[j].phase == cs[i].phase && ev[j] == 3;
			/* one the runs say nothing against, but nothing for: unsettled */
			for (k = 0; fine && ev[i] && !alike && k < t->g[i].nnodes; k++)
				t->n[t->g[i].nodes[k]].unsettled = 1;
			keep[i] = ev[i] && alike;
		}
		for (i = kept = 0; i < *n; i++)
			if (keep[i])
				cs[kept++] = cs[i];
		j = *n;
		*n = kept;
	} while (kept < j);
	free(keep);
	free(ev);
}

/* Does way p of a branch of call site key leave it: end the run, or go on to a branch of
 * another call site? 2: unknown, its run stopped on the way (xm_cut_short()). */
static int leaves(const struct seq *v, const struct tree *t, const struct pass *p, int32_t key)
{
	int e = xm_way_of(v, p->s, p->k);

	if (cut_short(v, p, e))
		return 2;
	return v[p->s].ins[e].op != ENG_BRANCH || t->n[v[p->s].node[e]].key != key;
}

/* Forget the rounds of the branch nodes of call site key in phase. */
static void clear_rounds(struct tree *t, int32_t key, uint32_t phase)
{
	size_t k;

	for (k = 0; k < t->len; k++)
		if (t->n[k].key == key && t->n[k].phase == phase)
			t->n[k].exits = 0;
}

/* Number the branch nodes of call site key in phase by round: each node's exits is 1 + how
 * often its run took, at the site's branches before it, an input that went two ways at the
 * site (the same in every part, back to the site on one way and out of it on another; a way
 * cut short goes neither). Returns 0, numbering nothing, where no input went two ways or a
 * node would take two numbers (the rounds are not told apart by that input alone). */
static int number_rounds(const struct seq *v, int nv, struct tree *t, int32_t key, uint32_t phase)
{
	struct pass *pass = NULL, **ends = NULL;
	size_t n = 0, cap = 0, nends = 0, capends = 0, i, j, k;
	int s, ok = 1;
	char *out;

	for (k = 0; k < t->len; k++) {
		const struct tnode *nd = &t->n[k];

		if (nd->key != key || nd->phase != phase || !is_branch(v, nd))
			continue;
		xgrow((void **)&pass, &cap, n + nd->npass, sizeof(*pass));
		memcpy(pass + n, nd->pass, nd->npass * sizeof(*pass));
		n += nd->npass;
	}
	out = xmalloc(n + 1);
	for (i = 0; i < n; i++)
		out[i] = (char)leaves(v, t, &pass[i], key);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (out[i] != out[j] && out[i] != 2 && out[j] != 2 &&
			    !xm_input_diff(xm_pass_input(v, &pass[i]),
					   xm_pass_input(v, &pass[j]))) {
				for (k = 0; k < nends && xm_input_diff(xm_pass_input(v, ends[k]),
								       xm_pass_input(v, &pass[i]));
				     k++)
					;
				if (k == nends) {
					xgrow((void **)&ends, &capends, nends + 1, sizeof(*ends));
					ends[nends++] = &pass[i];
				}
			}
	clear_rounds(t, key, phase);
	for (s = 0; nends && ok && s < nv; s++) {
		uint32_t round = 1;
		int x;

		for (x = 0; ok && x < v[s].n; x++) {
			struct tnode *nd = &t->n[v[s].node[x]];
			struct pass p = {s, x};

			if (nd->key != key || nd->phase != phase || v[s].ins[x].op != ENG_BRANCH)
				continue;
			ok = !nd->exits || nd->exits == round;
			nd->exits = round;
			for (k = 0; k < nends; k++)
				if (!xm_input_diff(xm_pass_input(v, ends[k]),
						   xm_pass_input(v, &p))) {
					round++;
					break;
				}
		}
	}
	if (!ok || !nends)
		clear_rounds(t, key, phase);
	free(out);
	free(ends);
	free(pass);
	return ok && nends;
}

/* Is call site key a loop as a whole, or in phase, by the candidates cs[0..n)? */
static int folded(const struct cand *cs, int n, int32_t key, uint32_t phase)
{
	int i;

	for (i = 0; i < n; i++)
		if (cs[i].key == key && (cs[i].kind == CAND_WHOLE ||
					 (cs[i].kind == CAND_PHASE && cs[i].phase == phase)))
			return 1;
	return 0;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	return x->path < y->path ? -1 : x->path > y->path;
}

void xm_fold(struct seq *v, int nv, struct tree *t, int loops)
{
	struct cand *cs = NULL, *phases = NULL;
	size_t cap = 0, k, j, e, nr = 0;
	int n = 0, i;

	/* the call sites that may be loops, each as a whole */
	for (k = 0; loops && k < t->len; k++)
		if (t->n[k].key && is_branch(v, &t->n[k]))
			cand_try(v, nv, t, (struct cand){t->n[k].key, CAND_WHOLE, 0, 0}, &cs, &n,
				 &cap);
	keep_evidenced(v, t, cs, &n);
	if (!loops) {
		free(cs);
		return;
	}
	/* a call site that is no loop as a whole may be one in each of its phases */
	phases = xmalloc((t->len + 1) * sizeof(*phases));
	for (k = 0; k < t->len; k++)
		if (t->n[k].key && is_branch(v, &t->n[k]))
			phases[nr++] = (struct cand){t->n[k].key, CAND_PHASE, t->n[k].phase, 0};
	qsort(phases, nr, sizeof(*phases), cand_cmp);
	for (k = 0; k < nr; k = e) {
		for (e = k; e < nr && phases[e].key == phases[k].key; e++)
			;
		for (i = 0; i < n && cs[i].key != phases[k].key; i++)
			;
		/* a loop as a whole, or of one phase (tried as a whole) */
		if (i < n || phases[e - 1].phase == phases[k].phase)
			continue;
		for (j = k; j < e; j++)
			if (j == k || phases[j].phase != phases[j - 1].phase)
				cand_try(v, nv, t, phases[j], &cs, &n, &cap);
	}
	keep_evidenced(v, t, cs, &n);
	/* a call site that is no loop in a phase either, where an input went two ways: the
	 * rounds of a loop with nothing between them, a loop each */
	for (k = 0; k < nr; k++) {
		const struct cand *c = &phases[k];

		if ((k && phases[k - 1].key == c->key && phases[k - 1].phase == c->phase) ||
		    folded(cs, n, c->key, c->phase) || !number_rounds(v, nv, t, c->key, c->phase))
			continue;
		for (j = 0; j < t->len; j++)
			if (t->n[j].exits && t->n[j].key == c->key && t->n[j].phase == c->phase)
				cand_try(v, nv, t,
					 (struct cand){c->key, CAND_ROUND, c->phase, t->n[j].exits},
					 &cs, &n, &cap);
	}
	keep_evidenced(v, t, cs, &n);
	/* the branch nodes of a place in a phase that is no loop either, where the phases
	 * before it went different ways */
	for (k = nr = 0; k < t->len; k++) {
		const struct tnode *nd = &t->n[k];

		for (i = 0; i < n && !cand_has(&cs[i], nd); i++)
			;
		if ((nd->key || nd->poll) && nd->path && i == n && is_branch(v, nd))
			phases[nr++] = (struct cand){nd->key, CAND_PLACE, nd->phase, nd->path};
	}
	qsort(phases, nr, sizeof(*phases), cand_cmp);
	for (k = 0; k + 1 < nr; k++)
		if (!cand_cmp(&phases[k], &phases[k + 1]) &&
		    (!k || cand_cmp(&phases[k - 1], &phases[k])))
			cand_try(v, nv, t, phases[k], &cs, &n, &cap);
	free(phases);
	keep_evidenced(v, t, cs, &n);
	/* a round left unsettled may be folded as a place after all (the groups of the
	 * candidates kept come first, regroup()) */
	for (k = 0; k < t->len; k++)
		if (t->n[k].group >= 0 && t->n[k].group < n)
			t->n[k].unsettled = 0;
	free(cs);
}
