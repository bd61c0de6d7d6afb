/* verify (doc/verify.md, section 2; model.h): the programs of several runs, one model.
 *
 * Each run's program of a process (translated for verify: a branch wherever the process
 * learns an input) is a path of a tree whose nodes are the same calls after the same calls
 * (a destination or source that follows an input counts as the same call). At a branch, the
 * runs that passed it took some input and went on some way: to the next branch or end of the
 * tree. The model's process is that tree laid out as a graph: each branch compares, of the
 * input in its register, the parts the runs show the process acts on, and goes on in the way
 * a run that took that input went; an input no run took there is a frontier.
 *
 * What a branch compares (doc/verify.md, section 3): what tells apart the ways the runs went
 * from it (the tag, what the message carried, the source, the request, in that order of
 * preference, each added while two runs that went different ways took inputs equal in the
 * parts chosen so far); and, of the parts the call left open (a wildcard source or tag, an
 * any-completion's request, what a message carried), those no run showed to leave the process
 * unmoved: where runs took inputs that differ in a part at one branch of a call site and went
 * the same way, that part is taken not to matter at that call site, anywhere. */
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "model_int.h"
#include "trace_threads.h"
#include "translate.h"
#include "xalloc.h"

#define DEFAULT_MAXMSG 4096

/* ---- sends and receives that follow an input ---- */

/* One call site's votes: where a send or receive from it had a source input on its
 * communicator before it, was its peer that source? And did its peer differ from one to the
 * next (else following changes nothing: a process that talks to one rank alone)? */
struct site_vote {
	int64_t key; /* vote_key() */
	int yes, no;
	int32_t peer; /* the first peer voted, -1 */
	int peers;    /* 1: one peer so far, 2: several */
};

struct votes {
	struct site_vote *v;
	size_t n, cap;
};

/* What a call site's votes decide: whether its sends, its receives, its MPI_Waits
 * (follow_wait()) or its MPI_Waitalls (wait_all_live()) follow the input. */
enum vote_kind { VOTE_SEND, VOTE_RECV, VOTE_WAIT, VOTE_WAITALL };

/* The votes' key of call site key (xm_call_key()) for what they decide. */
static int64_t vote_key(int32_t key, enum vote_kind kind)
{
	return 4 * (int64_t)key + kind;
}

static struct site_vote *vote_of(struct votes *vs, int64_t key)
{
	size_t i;

	for (i = 0; i < vs->n; i++)
		if (vs->v[i].key == key)
			return &vs->v[i];
	xgrow((void **)&vs->v, &vs->cap, vs->n + 1, sizeof(*vs->v));
	memset(&vs->v[vs->n], 0, sizeof(vs->v[vs->n]));
	vs->v[vs->n].key = key;
	vs->v[vs->n].peer = -1;
	return &vs->v[vs->n++];
}

/* The instruction that takes input number id (from 0) in ins[0..n), or -1. */
static int input_post(const struct eng_instr *ins, int n, int id)
{
	int i;

	for (i = 0; i < n; i++)
		if (ins[i].reg == id + 1 && ins[i].op != ENG_BRANCH && ins[i].op != ENG_POST_SEND &&
		    ins[i].op != ENG_WAIT)
			return i;
	return -1;
}

int32_t xm_call_key(const struct mpiv_rank_trace *t, const struct eng_instr *in)
{
	if (in->ev < 0 || (size_t)in->ev >= t->nevents)
		return 0;
	return tr_site_key(t, mpiv_trace_event(t, (size_t)in->ev)->site);
}

/* The change in live requests instruction in makes (the engine's count, as run_tables()
 * keeps it). */
static int live_change(const struct eng_instr *in)
{
	if (in->op == ENG_POST_SEND || in->op == ENG_POST_RECV || in->op == ENG_ICOLL ||
	    in->op == ENG_GREQ)
		return 1;
	if (in->op == ENG_WAIT || in->op == ENG_WAIT_SOME)
		return -in->n;
	return in->op == ENG_WAITANY ? -in->d : 0;
}

/* Does ins[i], a receive, begin a round of them: two or more before the next wait? */
static int posts_a_round(const struct eng_instr *ins, int n, int i)
{
	int posts = 0;

	for (; i < n && posts < 2; i++)
		if (ins[i].op == ENG_POST_RECV)
			posts++;
		else if (ins[i].op == ENG_WAIT || ins[i].op == ENG_WAITANY ||
			 ins[i].op == ENG_WAIT_SOME || ins[i].op == ENG_PROBE)
			break;
	return posts >= 2;
}

/* After an any-completion at ins[k - 1] that left no request live: does a round of receives
 * follow (the first receive posted after it begins two or more before a wait), or none at
 * all? One receive alone is posted again for the worker just answered: the round goes on. */
static int begins_round(const struct eng_instr *ins, int n, int k)
{
	for (; k < n && ins[k].op != ENG_POST_RECV; k++)
		if (ins[k].op == ENG_WAITANY)
			return 0;
	return k == n || posts_a_round(ins, n, k);
}

/* Process a live set of posts: alive[0..*n) as ins[i] leaves it, the posts it made added, the
 * requests it completed taken out. */
static void live_step(const struct eng_instr *ins, int i, int32_t **alive, size_t *n, size_t *cap)
{
	const struct eng_instr *in = &ins[i];
	int j, done = in->op == ENG_WAITANY ? in->d : in->n;
	size_t k;

	if (in->op == ENG_POST_SEND || in->op == ENG_POST_RECV) {
		xgrow((void **)alive, cap, *n + 1, sizeof(**alive));
		(*alive)[(*n)++] = i;
	}
	if (in->op != ENG_WAIT && in->op != ENG_WAITANY && in->op != ENG_WAIT_SOME)
		return;
	for (j = 0; j < done; j++)
		for (k = 0; k < *n; k++)
			if ((*alive)[k] == in->list[j]) {
				memmove(*alive + k, *alive + k + 1, (*n - k - 1) * sizeof(**alive));
				(*n)--;
				break;
			}
}

/* A wait for one request (MPI_Wait), or an empty one (MPI_Wait on MPI_REQUEST_NULL, which the
 * translator makes an ENG_WAIT_FOLLOW), after source input id (-1: none) from src on comm: is
 * it the wait for the request the process keeps per peer, made when it hears from the peer
 * again? Its request is to or from src, the only one live from its call, and an empty wait had
 * none live to or from src at all. vote: count, by the wait's call; else make the waits of the
 * calls that always are so wait for the live request of their call to the input's source. */
static void follow_wait(const struct mpiv_rank_trace *t, const struct eng_instr *ins,
			struct eng_instr *in, const int32_t *alive, size_t nalive, int src,
			int comm, int id, struct votes *vs, int vote)
{
	const struct eng_instr *x = in->n ? &ins[in->list[0]] : NULL;
	int32_t key = xm_call_key(t, in), xk = x ? xm_call_key(t, x) : 0;
	struct site_vote *v = vote_of(vs, vote_key(key, VOTE_WAIT));
	size_t j;
	int to = 0;

	if (vote) { /* decided afresh each time */
		in->a = 0;
		if (x) {
			in->sym &= (int16_t) ~(ENG_WAIT_LIVE | ENG_WAIT_FOLLOW);
			in->reg = 0;
		}
	}
	if (id < 0) {
		v->no += vote;
		return;
	}
	for (j = 0; j < nalive; j++) {
		const struct eng_instr *y = &ins[alive[j]];

		to += y->a == src && y->b == comm && (!x || xm_call_key(t, y) == xk);
	}
	if (vote) {
		int yes = x ? x->a == src && x->b == comm && to == 1 : to == 0;

		v->yes += yes && x;
		v->no += !yes;
	} else if (v->yes && !v->no) {
		in->sym |= ENG_WAIT_LIVE | ENG_WAIT_FOLLOW;
		in->reg = id + 1;
		in->a = key;
	}
}

/* An MPI_Waitall: are its requests every live one its calls made (the last reply to each
 * worker, as many as were served)? vote: count, by the wait's call; else make the waits of the
 * calls that always are so wait for whatever requests their calls have live (ENG_WAIT_LIVE):
 * one call, however many it had. */
static void wait_all_live(const struct mpiv_rank_trace *t, const struct eng_instr *ins,
			  struct eng_instr *in, const int32_t *alive, size_t nalive,
			  struct votes *vs, int vote)
{
	int32_t key = xm_call_key(t, in);
	struct site_vote *v = vote_of(vs, vote_key(key, VOTE_WAITALL));
	size_t j;
	int i, from = 0;

	if (vote) { /* decided afresh each time */
		in->sym &= (int16_t)~ENG_WAIT_LIVE;
		in->a = 0;
		for (j = 0; j < nalive; j++) {
			int32_t k = xm_call_key(t, &ins[alive[j]]);

			for (i = 0; i < in->n && xm_call_key(t, &ins[in->list[i]]) != k; i++)
				;
			from += i < in->n;
		}
		v->yes += from == in->n;
		v->no += from != in->n;
	} else if (v->yes && !v->no) {
		in->sym |= ENG_WAIT_LIVE;
		in->a = key;
	}
}

/* Walk the posts of ins[0..n): for each send or receive that names its peer, the last source
 * input learnt before it (a wildcard receive's or probe's, or the peer of the request an
 * any-completion returned), if on the post's communicator and no collective on it came
 * between, nor a new round of posts. vote: count; else mark the posts of
 * the call sites that follow. */
static void follow_inputs(const struct mpiv_rank_trace *t, struct eng_instr *ins, int n,
			  struct votes *vs, int vote)
{
	int i, src = 0, comm = -1, id = -1, live = 0, drained = 0;
	int32_t *alive = NULL;
	size_t nalive = 0, capalive = 0;

	for (i = 0; i < n;
	     live += live_change(&ins[i]), live_step(ins, i, &alive, &nalive, &capalive), i++) {
		struct eng_instr *in = &ins[i];
		int recv = in->op == ENG_POST_RECV;
		int64_t key;

		/* An any-completion that left no request live ends a round as a collective
		 * does (drained() below): the receives that begin the next one, several before
		 * a wait (one for every worker), follow no input taken before; the reply to the
		 * input it took, and the one receive posted again for that worker, do. */
		if (in->op == ENG_WAITANY)
			drained = live - in->d == 0;
		if (recv && drained && !live && posts_a_round(ins, n, i))
			id = -1;
		if (recv)
			drained = 0;

		if (vote && (in->op == ENG_POST_SEND || recv)) { /* decided afresh each time */
			in->sym &= (int16_t) ~(ENG_IN_SOURCE | ENG_IN_LAST);
			if (recv)
				in->rreg = 0;
			else
				in->reg = 0;
		}
		if (in->op == ENG_BRANCH && in->a >= 0 && in->list[1] != TR_NO_INPUT) {
			int x = input_post(ins, n, in->a);

			if (x >= 0 && ins[x].op == ENG_WAITANY && in->list[4] >= 0 &&
			    in->list[4] < n) {
				src = in->list[1];
				comm = ins[in->list[4]].b;
				id = in->a;
			} else if (x >= 0 && ins[x].op != ENG_WAITANY && ins[x].a == ENG_ANY) {
				src = in->list[1];
				comm = ins[x].b;
				id = in->a;
			}
			continue;
		}
		/* a collective on its communicator closes a phase of the program: a post after
		 * it follows no input taken before it (a farm's receives posted afresh for
		 * every worker at the start of each round, by the call that posts a worker's
		 * receive again once it answered) */
		if ((in->op == ENG_COLL || in->op == ENG_ICOLL) && in->a == comm)
			id = -1;
		if (in->op == ENG_WAIT && !(in->sym & ENG_POLLED) && in->ev >= 0 &&
		    (size_t)in->ev < t->nevents) {
			unsigned call = mpiv_trace_event(t, (size_t)in->ev)->call;

			if (call == MPIV_CALL_Wait && in->n <= 1)
				follow_wait(t, ins, in, alive, nalive, src, comm, id, vs, vote);
			else if (call == MPIV_CALL_Waitall)
				wait_all_live(t, ins, in, alive, nalive, vs, vote);
		}
		if ((in->op != ENG_POST_SEND && !recv) || in->a < 0 || id < 0 || in->b != comm)
			continue;
		key = vote_key(xm_call_key(t, in), recv ? VOTE_RECV : VOTE_SEND);
		if (vote) {
			struct site_vote *v = vote_of(vs, key);

			v->yes += in->a == src;
			v->no += in->a != src;
			if (v->peer < 0)
				v->peer = in->a;
			v->peers = v->peer == in->a && v->peers < 2 ? 1 : 2;
		} else if (in->a == src) {
			struct site_vote *v = vote_of(vs, key);

			if (!v->yes || v->no || v->peers < 2)
				continue;
			in->sym |= ENG_IN_SOURCE;
			if (recv)
				in->rreg = id + 1;
			else
				in->reg = id + 1;
		}
	}
	free(alive);
}

/* A digest of instruction k of ins, the same for the same call wherever it is made, as the
 * calls of a loop's body are the same at every turn (model_fold.c): input numbers are the
 * run's, and a wait names posts by how far back they are. */
static uint32_t call_digest(const struct eng_instr *ins, int k)
{
	const struct eng_instr *in = &ins[k];
	int follows = (in->op == ENG_POST_SEND || in->op == ENG_POST_RECV) &&
		      (in->sym & ENG_IN_SOURCE);
	uint32_t w[9] = {(uint32_t)in->op,
			 (uint32_t)in->sym,
			 follows ? 0 : (uint32_t)in->a,
			 (uint32_t)in->b,
			 (uint32_t)in->c,
			 (uint32_t)in->d,
			 in->reg > 0,
			 in->op == ENG_POST_SEND ? (uint32_t)in->site : 0,
			 0};
	uint32_t h = 2166136261u;
	int i;

	if (in->op == ENG_BRANCH) {
		w[2] = in->a >= 0;
		w[1] = w[3] = w[4] = w[5] = 0;
	} else if (in->op == ENG_WAITANY && in->reg > 0) {
		w[2] = w[3] = w[4] = 0;
	} else if (in->op == ENG_WAIT && (in->sym & ENG_WAIT_LIVE)) {
		w[5] = 0; /* the wait of its call (a) for its live requests, whatever they were */
	} else if (ENG_LISTED(in->op)) {
		w[8] = (uint32_t)in->n;
		for (i = 0; i < in->n && in->op != ENG_COLL && in->op != ENG_ICOLL; i++)
			w[8] = (w[8] ^ (uint32_t)(k - in->list[i])) * 16777619u;
	} else if (in->op == ENG_POST_RECV) {
		w[8] = in->rreg > 0;
	}
	for (i = 0; i < 9; i++)
		h = (h ^ w[i]) * 16777619u;
	return h;
}

/* Does instruction k of v begin a phase with no collective: the first after an
 * MPI_Waitany or MPI_Testany that completed the last live request, where a round of receives
 * follows (begins_round())? A master that serves its workers so has none live between its
 * rounds only; one that has a single worker left posts that worker's receive again and goes
 * on in the same round, its count of what it handed out carried over. An MPI_Waitsome or
 * MPI_Testsome is one such any-completion per request it returned (split_completion() in
 * translator/tr_build.c), and counts as they do. */
static int drained(const struct seq *v, int k)
{
	return k && !v->live[k] && v->ins[k - 1].op == ENG_WAITANY && begins_round(v->ins, v->n, k);
}

/* v's since of instruction k (struct seq), its tables before it filled in: the calls of the
 * phase summed, as a counter of calls of each kind, so that the same calls made in another
 * order are the same place (the state of a master that counts what it took, whatever order
 * its workers answered in). */
static uint32_t since(const struct seq *v, int k)
{
	uint32_t h;

	if (drained(v, k)) {
		/* the rounds stay apart: the k-th drain's places are not the next one's */
		h = ((v->colls[k] ^ (uint32_t)v->drains[k]) * 16777619u ^ call_digest(v->ins, k)) *
		    16777619u;
	} else if (k && v->colls[k] == v->colls[k - 1]) {
		if (!v->since[k - 1])
			return 0;
		/* each call's digest spread over every bit, so that sums seldom meet */
		h = v->since[k - 1] +
		    (uint32_t)(mpiv_digest_mix(MPIV_DIGEST_SEED, call_digest(v->ins, k)) >> 32);
	} else if (v->live[k]) {
		return 0;
	} else {
		h = (v->colls[k] ^ call_digest(v->ins, k)) * 16777619u;
	}
	return h ? h : 1;
}

/* ---- the tree of a process's runs ---- */

int xm_same_call(const struct eng_instr *x, const struct eng_instr *y)
{
	int follows = (x->op == ENG_POST_SEND || x->op == ENG_POST_RECV) &&
		      (x->sym & ENG_IN_SOURCE);

	if (x->op != y->op || x->reg != y->reg)
		return 0;
	if (x->op == ENG_BRANCH)
		return x->a == y->a;
	/* an any-completion of the same array, whatever it held then (ENG_WAIT_LIVE) */
	if (x->op == ENG_WAITANY && x->reg > 0)
		return x->d == y->d;
	/* the wait of its call (a) for the input's peer, whether it had a request
	 * (ENG_WAIT_FOLLOW), or for what its calls have live, however many */
	if (x->op == ENG_WAIT && (x->sym & ENG_WAIT_LIVE))
		return x->sym == y->sym && x->a == y->a;
	/* sym is a collective's call too (they share storage) */
	if (x->sym != y->sym || x->b != y->b || x->c != y->c || x->d != y->d ||
	    (x->op == ENG_POST_SEND && x->site != y->site) ||
	    (x->op == ENG_POST_RECV && x->rreg != y->rreg))
		return 0;
	if (!follows && x->a != y->a)
		return 0;
	/* a receive's size decides nothing in the model (a receive sized by what a probe
	 * found is the same call whatever it found) */
	if (!ENG_LISTED(x->op))
		return x->op == ENG_POST_RECV || x->bytes == y->bytes;
	return x->n == y->n &&
	       (x->n == 0 || !memcmp(x->list, y->list, (size_t)x->n * sizeof(*x->list)));
}

/* The child of parent (-1: a root) that makes the call in, added if there is none. */
static int tree_child(struct tree *t, const struct seq *v, int parent, const struct eng_instr *in)
{
	int c = parent < 0 ? (t->len ? 0 : -1) : t->n[parent].child, prev = -1;

	for (; c >= 0; prev = c, c = t->n[c].sibling) {
		const struct pass *p = &t->n[c].pass[0];

		if (xm_same_call(&v[p->s].ins[p->k], in))
			return c;
	}
	xgrow((void **)&t->n, &t->cap, t->len + 1, sizeof(*t->n));
	c = (int)t->len++;
	memset(&t->n[c], 0, sizeof(t->n[c]));
	t->n[c].parent = parent;
	t->n[c].child = -1;
	t->n[c].sibling = -1;
	t->n[c].group = -1;
	t->n[c].last = 1;
	if (prev >= 0)
		t->n[prev].sibling = c;
	else if (parent >= 0)
		t->n[parent].child = c;
	return c;
}

static void add_pass(struct tnode *nd, int s, int k)
{
	xgrow((void **)&nd->pass, &nd->cappass, nd->npass + 1, sizeof(*nd->pass));
	nd->pass[nd->npass].s = s;
	nd->pass[nd->npass++].k = k;
}

int xm_way_of(const struct seq *v, int s, int k)
{
	int j;

	for (j = k + 1; j < v[s].n - 1 && v[s].ins[j].op != ENG_BRANCH; j++)
		;
	return j;
}

/* ---- what a branch compares ---- */

/* Is node nd a branch on an input (not the start's, which compares nothing)? */
static int is_learning(const struct seq *v, const struct tnode *nd)
{
	const struct eng_instr *in = &v[nd->pass[0].s].ins[nd->pass[0].k];

	return in->op == ENG_BRANCH && in->a >= 0;
}

int xm_input_diff(const int32_t *a, const int32_t *b)
{
	return (a[0] != b[0] ? ENG_IN_SOURCE : 0) | (a[1] != b[1] ? ENG_IN_TAG : 0) |
	       (a[2] != b[2] ? ENG_IN_SITE : 0) | (a[3] != b[3] ? ENG_IN_REQ : 0);
}

const int32_t *xm_pass_input(const struct seq *v, const struct pass *p)
{
	return &v[p->s].ins[p->k].list[1];
}

/* The parts a branch must compare to tell apart the ways its runs (pass[0..n)) went, as far
 * as any part does: added one at a time, each the part that tells apart most of the pairs
 * still alike, in the order of preference on a tie. */
static int required_parts(const struct seq *v, const struct tree *t, const struct pass *pass,
			  size_t n)
{
	static const int order[] = {ENG_IN_TAG, ENG_IN_SITE, ENG_IN_SOURCE, ENG_IN_REQ};
	char *apart = xcalloc(n * n + 1, 1); /* apart[i * n + j]: they went different ways */
	int req = 0, k;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			apart[i * n + j] = !xm_same_way(v, t, &pass[i], &pass[j]);
	for (;;) {
		int best = 0, most = 0;

		for (k = 0; k < 4; k++) {
			int part = order[k], count = 0;

			if (req & part)
				continue;
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++) {
					int d = xm_input_diff(xm_pass_input(v, &pass[i]),
							      xm_pass_input(v, &pass[j]));

					count += apart[i * n + j] && !(d & req) && (d & part);
				}
			if (count > most) {
				most = count;
				best = part;
			}
		}
		if (!best)
			break;
		req |= best;
	}
	free(apart);
	return req;
}

/* A call site's pooled knowledge: parts some branch of it needs, and parts in which runs'
 * inputs differed at one branch while they went the same way. */
struct site_parts {
	int32_t key;
	int needed, unmoved;
};

/* What every call site's branches showed, over each time the trees were grown: a part the
 * runs' own sends showed the process acting on stays needed once those sends are stripped of
 * data no one reads (model_unread.c), so that a worker whose results show it acting on each
 * task's value is still handed every value at every place. */
struct parts {
	struct site_parts *sp;
	size_t n, cap;
};

static struct site_parts *parts_of(struct parts *ps, int32_t key)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->sp[i].key == key)
			return &ps->sp[i];
	xgrow((void **)&ps->sp, &ps->cap, ps->n + 1, sizeof(*ps->sp));
	memset(&ps->sp[ps->n], 0, sizeof(*ps->sp));
	ps->sp[ps->n].key = key;
	return &ps->sp[ps->n++];
}

/* ---- registers ---- */

/* The inputs of a process that are held at once share no register: each run's input i is
 * held from where it is taken to where it is last read, and two inputs may share a register
 * if in no run they are held at once. First fit over the inputs in the order they are first
 * taken, a register counted busy in a run until the last input it holds there is last read
 * (so that an input taken before one that got the register cannot get it: more registers,
 * never two held at once). Fills color (per input number, from 0) and returns how many
 * registers. */
static int registers(const struct seq *v, int nv, int32_t **color)
{
	int most = 0, w, i, c, n = 0;
	int32_t *order, **busy;
	size_t capc = 0;

	for (w = 0; w < nv; w++)
		n = v[w].ninputs > n ? v[w].ninputs : n;
	*color = xmalloc((size_t)(n + 1) * sizeof(**color));
	order = xmalloc((size_t)(n + 1) * sizeof(*order));
	busy = xcalloc((size_t)nv, sizeof(*busy));
	for (i = 0; i < n; i++)
		order[i] = i;
	/* by where it is first taken, in any run (insertion: inputs come nearly in order) */
	for (i = 1; i < n; i++) {
		int32_t x = order[i], tx = INT32_MAX, j;

		for (w = 0; w < nv; w++)
			if (x < v[w].ninputs && v[w].post[x] >= 0 && v[w].post[x] < tx)
				tx = v[w].post[x];
		for (j = i - 1; j >= 0; j--) {
			int32_t y = order[j], ty = INT32_MAX;

			for (w = 0; w < nv; w++)
				if (y < v[w].ninputs && v[w].post[y] >= 0 && v[w].post[y] < ty)
					ty = v[w].post[y];
			if (ty <= tx)
				break;
			order[j + 1] = y;
		}
		order[j + 1] = x;
	}
	for (i = 0; i < n; i++) {
		int32_t x = order[i];

		for (c = 0; c < most; c++) {
			for (w = 0; w < nv; w++)
				if (x < v[w].ninputs && v[w].post[x] >= 0 &&
				    busy[w][c] >= v[w].post[x])
					break;
			if (w == nv)
				break;
		}
		if (c == most) {
			size_t cap = capc;

			most++;
			for (w = 0; w < nv; w++) {
				cap = capc;
				xgrow((void **)&busy[w], &cap, (size_t)most, sizeof(**busy));
				busy[w][most - 1] = -1;
			}
			capc = cap;
		}
		(*color)[x] = c;
		for (w = 0; w < nv; w++)
			if (x < v[w].ninputs && v[w].post[x] >= 0) {
				int32_t end = v[w].lastread[x] > v[w].post[x] ? v[w].lastread[x] :
										v[w].post[x];

				busy[w][c] = end > busy[w][c] ? end : busy[w][c];
			}
	}
	for (w = 0; w < nv; w++)
		free(busy[w]);
	free(busy);
	free(order);
	return most > 0 ? most : 1;
}

/* The register instruction k of run v reads (an input number, from 0), or -1: a branch reads
 * its own, a post that follows an input the input's. */
static int32_t reads(const struct seq *v, int k)
{
	const struct eng_instr *in = &v->ins[k];

	if (in->op == ENG_BRANCH && in->a >= 0 && k > 0)
		return in->a;
	if (in->op == ENG_POST_SEND && (in->sym & ENG_IN_SOURCE))
		return in->reg - 1;
	if (in->op == ENG_POST_RECV && (in->sym & ENG_IN_SOURCE))
		return in->rreg - 1;
	if (in->op == ENG_WAIT && (in->sym & ENG_WAIT_FOLLOW))
		return in->reg - 1;
	return -1;
}

/* Fill run v's tables: its inputs, where each is taken and last read, and its requests. */
static void run_tables(struct seq *v)
{
	const struct mpiv_rank_trace *t = v->t;
	int32_t mine = 0, nth, r;
	size_t e = 0;
	int k, i;

	for (k = 0; k < v->n; k++)
		if (v->ins[k].reg > v->ninputs && v->ins[k].op != ENG_POST_SEND &&
		    v->ins[k].op != ENG_BRANCH)
			v->ninputs = v->ins[k].reg;
	v->post = xmalloc((size_t)(v->ninputs + 1) * sizeof(int32_t));
	v->lastread = xmalloc((size_t)(v->ninputs + 1) * sizeof(int32_t));
	v->made = xmalloc((size_t)v->n * sizeof(int32_t));
	v->req = xmalloc((size_t)v->n * sizeof(int32_t));
	v->live = xmalloc((size_t)v->n * sizeof(int32_t));
	v->colls = xmalloc((size_t)v->n * sizeof(uint32_t));
	v->since = xmalloc((size_t)v->n * sizeof(uint32_t));
	v->drains = xmalloc((size_t)v->n * sizeof(int32_t));
	for (i = 0; i < v->ninputs; i++)
		v->post[i] = v->lastread[i] = -1;
	for (k = 0; k < v->n; k++) {
		const struct eng_instr *in = &v->ins[k];

		/* requests live before it, and the collectives made before it */
		v->live[k] = k ? v->live[k - 1] : 0;
		v->colls[k] = k ? v->colls[k - 1] : 2166136261u;
		if (k) {
			const struct eng_instr *b = &v->ins[k - 1];

			if (b->op == ENG_POST_SEND || b->op == ENG_POST_RECV ||
			    b->op == ENG_ICOLL || b->op == ENG_GREQ)
				v->live[k]++;
			else if (b->op == ENG_WAIT || b->op == ENG_WAIT_SOME)
				v->live[k] -= b->n;
			else if (b->op == ENG_WAITANY)
				v->live[k] -= b->d;
			if (b->op == ENG_COLL || b->op == ENG_ICOLL)
				v->colls[k] = (v->colls[k] ^ (uint32_t)(b->a * 31 + b->call) ^
					       (uint32_t)b->d << 16) *
					      16777619u;
		}
		v->drains[k] = (k ? v->drains[k - 1] : 0) + drained(v, k);
		v->since[k] = since(v, k);

		/* where an input is taken: a probe's or an any-completion's there, a receive's
		 * where its request completes (the engine's live_release()) */
		if ((in->op == ENG_PROBE || in->op == ENG_WAITANY) && in->reg > 0 &&
		    v->post[in->reg - 1] < 0)
			v->post[in->reg - 1] = k;
		if ((in->op == ENG_WAIT || in->op == ENG_WAIT_SOME ||
		     (in->op == ENG_WAITANY && !in->reg)))
			for (i = 0; i < in->n; i++) {
				const struct eng_instr *x = &v->ins[in->list[i]];

				if (x->op == ENG_POST_RECV && x->reg > 0 && v->post[x->reg - 1] < 0)
					v->post[x->reg - 1] = k;
			}
		r = reads(v, k);
		if (r >= 0 && r < v->ninputs && v->lastread[r] < k)
			v->lastread[r] = k;
		/* the requests the thread made before the event: it numbers its own in the
		 * order it makes them, and an event names a request after the one that made
		 * it */
		for (; in->ev >= 0 && e < (size_t)in->ev && e < t->nevents; e++) {
			const struct mpiv_event *ev = mpiv_trace_event(t, e);
			uint32_t j;

			for (j = 0; j < ev->nreqs; j++)
				if (mpiv_thread_request(t, ev->reqs[j].req, &nth) == v->thread &&
				    nth >= mine)
					mine = nth + 1;
		}
		v->made[k] = mine;
		v->req[k] = -1;
		if ((in->op == ENG_POST_SEND || in->op == ENG_POST_RECV || in->op == ENG_ICOLL ||
		     in->op == ENG_GREQ) &&
		    in->ev >= 0 && (size_t)in->ev < t->nevents) {
			const struct mpiv_event *ev = mpiv_trace_event(t, (size_t)in->ev);
			int j = 0, x;

			/* the j-th post of its event is its j-th request (MPI_Startall) */
			for (x = k - 1; x >= 0 && v->ins[x].ev == in->ev; x--)
				j += v->ins[x].op == ENG_POST_SEND ||
				     v->ins[x].op == ENG_POST_RECV || v->ins[x].op == ENG_ICOLL ||
				     v->ins[x].op == ENG_GREQ;
			if ((uint32_t)j < ev->nreqs &&
			    mpiv_thread_request(t, ev->reqs[j].req, &nth) == v->thread)
				v->req[k] = nth;
		}
	}
}

/* ---- one model ---- */

/* Can the programs of several runs be one model? Their communicators must be the same;
 * one-sided calls are not merged yet (their instructions name other processes' instructions,
 * which differ from run to run), nor partitioned requests (their pairs' tags are one run's).
 * Threads are, where model_threads.c finds it can. */
static const char *unmergeable(struct eng_prog *const *progs, int nruns)
{
	int i, c, q, k;

	for (i = 0; i < nruns; i++) {
		const struct eng_prog *p = progs[i];

		if (p->nlocks)
			return "the program takes window locks";
		if (p->partitioned)
			return "the program uses partitioned communication";
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

/* The phase of the program in which branch k of run v learns the input of post x: the
 * collectives made before it, and the communicator and tag of a receive or probe
 * (model_fold.c). */
static uint32_t phase_of(const struct seq *v, int k, int x)
{
	uint32_t h = v->colls[k];
	const struct eng_instr *in = x >= 0 ? &v->ins[x] : NULL;

	if (in && (in->op == ENG_POST_RECV || in->op == ENG_PROBE))
		h = ((h ^ (uint32_t)in->b) * 16777619u ^ (uint32_t)in->c) * 16777619u;
	return h;
}

/* Process q of every run: its runs' tables and its tree, each run's instructions its nodes. */
static void build_tree(struct eng_prog *const *progs, struct mpiv_traceset *const *sets, int nruns,
		       const struct xthreads *th, int q, struct seq *v, struct tree *t)
{
	int s, k;

	memset(t, 0, sizeof(*t));
	for (s = 0; s < nruns; s++) {
		int parent = -1;

		memset(&v[s], 0, sizeof(v[s]));
		v[s].run = s;
		v[s].t = &sets[s]->ranks[progs[s]->proc_rank[xm_threads_proc(th, s, q)]];
		v[s].thread = progs[s]->proc_thread[xm_threads_proc(th, s, q)];
		v[s].ins = xm_threads_ins(th, progs, s, q, &v[s].n);
		v[s].node = xmalloc((size_t)v[s].n * sizeof(*v[s].node));
		run_tables(&v[s]);
		for (k = 0; k < v[s].n; k++) {
			parent = tree_child(t, v, parent, &v[s].ins[k]);
			v[s].node[k] = parent;
			add_pass(&t->n[parent], s, k);
		}
	}
	/* a reader is the last of its register where no run through it reads that later */
	for (k = 0; k < (int)t->len; k++) {
		struct tnode *nd = &t->n[k];
		size_t p;

		for (p = 0; p < nd->npass; p++) {
			const struct seq *w = &v[nd->pass[p].s];
			int32_t r = reads(w, nd->pass[p].k);

			if (r >= 0 && r < w->ninputs && w->lastread[r] > nd->pass[p].k)
				nd->last = 0;
		}
		if (is_learning(v, nd)) {
			const struct pass *p0 = &nd->pass[0];
			int x = input_post(v[p0->s].ins, v[p0->s].n, v[p0->s].ins[p0->k].a);

			nd->key = x >= 0 ? xm_call_key(v[p0->s].t, &v[p0->s].ins[x]) : 0;
			nd->phase = phase_of(&v[p0->s], p0->k, x);
			nd->path = v[p0->s].since[p0->k];
		} else if (v[nd->pass[0].s].ins[nd->pass[0].k].op == ENG_BRANCH &&
			   nd->pass[0].k > 0) {
			nd->poll = 1;
			nd->phase = v[nd->pass[0].s].colls[nd->pass[0].k];
			nd->path = v[nd->pass[0].s].since[nd->pass[0].k];
		}
	}
}

/* What each branch of every process compares: what tells its runs' ways apart, and of the
 * parts its call left open those no run showed to leave the process unmoved at that call
 * site (the knowledge of a call site pooled over every process and branch, and into ps over
 * every time the trees were grown). */
static void choose_parts(struct seq *const *vs, struct tree *trees, int nprocs, unsigned flags,
			 struct parts *ps)
{
	struct site_parts *x;
	size_t k, i, j, n;
	struct pass *pass;
	int q;

	for (q = 0; q < nprocs; q++)
		for (k = 0; k < trees[q].ng; k++) {
			struct bgroup *g = &trees[q].g[k];

			if (!g->key)
				continue; /* the start: it compares nothing */
			n = xm_group_passes(&trees[q], g, &pass);
			g->sym = (int16_t)required_parts(vs[q], &trees[q], pass, n);
			x = parts_of(ps, g->key);
			x->needed |= g->sym;
			/* a way cut short shows nothing unmoved: it goes any way that made its
			 * calls (xm_cut_short()) */
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++)
					if (!xm_cut_short(vs[q], &pass[i]) &&
					    !xm_cut_short(vs[q], &pass[j]) &&
					    xm_same_way(vs[q], &trees[q], &pass[i], &pass[j]))
						x->unmoved |= xm_input_diff(
							xm_pass_input(vs[q], &pass[i]),
							xm_pass_input(vs[q], &pass[j]));
			free(pass);
		}
	for (q = 0; q < nprocs; q++)
		for (k = 0; k < trees[q].ng; k++) {
			struct bgroup *g = &trees[q].g[k];
			const struct pass *p0;
			int open;

			if (!g->key)
				continue;
			p0 = &trees[q].n[g->nodes[0]].pass[0];
			open = vs[q][p0->s].ins[p0->k].sym & ENG_IN_PARTS;
			x = parts_of(ps, g->key);
			if (flags & XMODEL_EXHAUSTIVE)
				g->sym = (int16_t)(g->sym | open);
			else
				g->sym = (int16_t)(g->sym | (open & ~(x->unmoved & ~x->needed)));
		}
}

size_t xm_group_passes(const struct tree *t, const struct bgroup *g, struct pass **out)
{
	size_t n = 0, i, cap = 0;

	*out = NULL;
	for (i = 0; i < g->nnodes; i++) {
		const struct tnode *nd = &t->n[g->nodes[i]];

		xgrow((void **)out, &cap, n + nd->npass + 1, sizeof(**out));
		memcpy(*out + n, nd->pass, nd->npass * sizeof(**out));
		n += nd->npass;
	}
	return n;
}

static void seqs_release(struct seq *v, int nv, struct tree *t)
{
	size_t k;
	int s;

	for (s = 0; s < nv; s++) {
		free(v[s].node);
		free(v[s].post);
		free(v[s].lastread);
		free(v[s].made);
		free(v[s].req);
		free(v[s].live);
		free(v[s].colls);
		free(v[s].since);
		free(v[s].drains);
	}
	for (k = 0; k < t->len; k++)
		free(t->n[k].pass);
	for (k = 0; k < t->ng; k++) {
		free(t->g[k].nodes);
		free(t->g[k].copies);
	}
	free(t->n);
	free(t->g);
}

int xmodel_build(struct eng_prog *const *progs, struct mpiv_traceset *const *sets, int nruns,
		 unsigned flags, struct xmodel *m, struct mpiv_error *err)
{
	struct eng_prog *out = &m->prog;
	struct seq **vs;
	struct tree *trees;
	int32_t **colors;
	struct votes votes;
	struct xthreads th;
	struct xstrip strip;
	struct parts known = {NULL, 0, 0};
	const char *why;
	int i, q, k, c, nregs = 1, copy;
	long sends = 0;

	memset(m, 0, sizeof(*m));
	if (nruns < 1)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, NULL, -1, -1, "no run to merge");
	why = unmergeable(progs, nruns);
	if (why && nruns > 1)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, NULL, -1, -1,
				      "the runs cannot be one model: %s", why);
	/* one run alone is its own model, whatever it does */
	copy = why != NULL;
	/* destinations and sources that follow inputs, decided by call site over every run */
	memset(&votes, 0, sizeof(votes));
	for (k = 1; k >= 0; k--)
		for (i = 0; i < nruns; i++)
			for (q = 0; q < progs[i]->nprocs; q++)
				follow_inputs(&sets[i]->ranks[progs[i]->proc_rank[q]],
					      progs[i]->ins[q], progs[i]->nins[q], &votes, k);
	free(votes.v);
	memset(&th, 0, sizeof(th));
	memset(&strip, 0, sizeof(strip));
	why = copy ? NULL : xm_threads_prepare(progs, sets, nruns, &th);
	if (why && nruns > 1)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, NULL, -1, -1,
				      "the runs cannot be one model: %s", why);
	copy |= why != NULL;

	out->verify = 1;
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
	out->locks = xcalloc((size_t)progs[0]->nlocks + 1, sizeof(*out->locks));
	if (nruns == 1 && progs[0]->nlocks) {
		out->nlocks = progs[0]->nlocks;
		memcpy(out->locks, progs[0]->locks, (size_t)out->nlocks * sizeof(*out->locks));
	}
	m->nruns = nruns;
	m->run = xcalloc((size_t)out->nprocs, sizeof(*m->run));
	m->made = xcalloc((size_t)out->nprocs, sizeof(*m->made));
	m->req = xcalloc((size_t)out->nprocs, sizeof(*m->req));
	m->anchor = xcalloc((size_t)out->nprocs, sizeof(*m->anchor));
	m->starts = xcalloc((size_t)out->nprocs, sizeof(*m->starts));
	m->unsettled = xcalloc((size_t)out->nprocs, sizeof(*m->unsettled));
	vs = xcalloc((size_t)out->nprocs, sizeof(*vs));
	trees = xcalloc((size_t)out->nprocs, sizeof(*trees));
	colors = xcalloc((size_t)out->nprocs, sizeof(*colors));
	for (q = 0; q < out->nprocs; q++)
		vs[q] = xcalloc((size_t)nruns, sizeof(**vs));
	/* the trees, grown again while a send's data is found unread, or read after all */
	for (;;) {
		for (q = 0, nregs = 1; q < out->nprocs; q++) {
			build_tree(progs, sets, nruns, &th, q, vs[q], &trees[q]);
			k = registers(vs[q], nruns, &colors[q]);
			nregs = k > nregs ? k : nregs;
			if (!copy)
				xm_fold(vs[q], nruns, &trees[q], !(flags & XMODEL_EXHAUSTIVE));
		}
		if (copy)
			break;
		choose_parts(vs, trees, out->nprocs, flags, &known);
		if (!xm_strip_unread(vs, trees, out->nprocs, nruns, &strip))
			break;
		for (q = 0; q < out->nprocs; q++) {
			seqs_release(vs[q], nruns, &trees[q]);
			free(colors[q]);
		}
	}
	/* the registers inputs share, and one of its own for each loop */
	out->nregs = copy ? progs[0]->nregs : nregs;
	for (q = 0; q < out->nprocs && !copy; q++) {
		int loops = 0;

		for (k = 0; k < (int)trees[q].ng; k++)
			loops += trees[q].g[k].folded;
		if (nregs + loops > out->nregs)
			out->nregs = nregs + loops;
	}
	for (q = 0; q < out->nprocs; q++) {
		if (copy)
			xm_copy(m, &vs[q][0], q);
		else
			xm_layout(m, vs[q], nruns, &trees[q], nregs, colors[q], flags, q);
	}
	xm_threads_fix(m, vs, trees, &th);
	xm_strip_restore(&strip);
	free(known.sp);
	for (q = 0; q < out->nprocs; q++) {
		seqs_release(vs[q], nruns, &trees[q]);
		free(vs[q]);
		free(colors[q]);
	}
	free(vs);
	free(trees);
	free(colors);
	/* sizes: the most any run needed; messages in flight: every send of a process's runs */
	out->maxlive = 1;
	for (i = 0; i < nruns; i++) {
		if (progs[i]->maxlive > out->maxlive)
			out->maxlive = progs[i]->maxlive;
		if (progs[i]->bsend_overhead > out->bsend_overhead)
			out->bsend_overhead = progs[i]->bsend_overhead;
	}
	for (q = 0; q < out->nprocs; q++) {
		long most = 0;

		for (i = 0; i < nruns; i++) {
			int pq = xm_threads_proc(&th, i, q);
			long n = 0;

			for (k = 0; k < progs[i]->nins[pq]; k++)
				n += progs[i]->ins[pq][k].op == ENG_POST_SEND;
			most = n > most ? n : most;
		}
		sends += most;
	}
	xm_threads_release(&th);
	out->buffering = progs[0]->buffering;
	out->eager = progs[0]->eager;
	out->maxmsg = XMODEL_MSGS;
	if (sends < out->maxmsg)
		out->maxmsg = sends > 0 ? (int)sends : 1;
	m->maxmsg = sends < DEFAULT_MAXMSG ? (sends > 0 ? (int)sends : 1) : DEFAULT_MAXMSG;
	eng_layout(out);
	return 0;
}

int xmodel_more_room(struct xmodel *m)
{
	if (m->prog.maxmsg >= m->maxmsg)
		return 0;
	m->prog.maxmsg = m->prog.maxmsg * 4 < m->maxmsg ? m->prog.maxmsg * 4 : m->maxmsg;
	eng_layout(&m->prog);
	return 1;
}

void xmodel_release(struct xmodel *m)
{
	int q;

	for (q = 0; m->run && q < m->prog.nprocs; q++) {
		free(m->run[q]);
		free(m->made[q]);
		free(m->req[q]);
		free(m->anchor[q]);
		free(m->starts[q]);
		free(m->unsettled[q]);
	}
	free(m->run);
	free(m->made);
	free(m->req);
	free(m->anchor);
	free(m->starts);
	free(m->unsettled);
	eng_prog_release(&m->prog);
	memset(m, 0, sizeof(*m));
}
