/* Translator: the operations of a run on one time line (tr_timeline.h). Which send each
 * receive of a recorded run took follows from what the receive recorded (its source and tag)
 * and MPI's order of messages: between two ranks, on one communicator and tag, the k-th
 * receive posted took the k-th message sent. A counterexample says it of each of its
 * receives. */
#include <stdlib.h>
#include <string.h>

#include "tr_timeline.h"
#include "translate.h"
#include "xalloc.h"

/* A message sent, to be paired with its receive. */
struct tl_send {
	int32_t src, dst, comm, tag; /* world ranks, communicator, tag */
	int32_t rank;		     /* = src */
	uint32_t ev;		     /* the send's event */
};

static int send_cmp(const void *a, const void *b)
{
	const struct tl_send *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The first of sends[0..n) with key k's src, dst, comm and tag, or n. */
static size_t first_of(const struct tl_send *sends, size_t n, const struct tl_send *k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct tl_send m = sends[mid];

		m.ev = 0;
		if (send_cmp(&m, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The communicator of rank r's trace comm id, or -1. */
static int32_t comm_of(const struct tr_timeline *tl, int r, int32_t comm)
{
	return tr_comms_id(&tl->comms, r, comm);
}

/* Every message the ranks sent, in each rank's order. */
static struct tl_send *collect_sends(const struct tr_timeline *tl, size_t *n)
{
	struct tl_send *sends = NULL;
	size_t cap = 0, i;
	int r;

	*n = 0;
	for (r = 0; r < tl->nranks; r++) {
		const struct mpiv_rank_trace *t = &tl->ts->ranks[r];

		for (i = 0; i < t->nevents; i++) {
			const struct mpiv_event *ev = &t->events[i];
			enum mpiv_kind k = mpiv_call_kind(ev->call);

			if ((k != MPIV_KIND_SEND && k != MPIV_KIND_ISEND &&
			     k != MPIV_KIND_SENDRECV && k != MPIV_KIND_ISENDRECV) ||
			    ev->peer < 0 || (ev->flags & MPIV_EV_INCOMPLETE))
				continue;
			xgrow((void **)&sends, &cap, *n + 1, sizeof(*sends));
			sends[*n].src = r;
			sends[*n].dst = ev->peer;
			sends[*n].comm = comm_of(tl, r, ev->comm);
			sends[*n].tag = ev->tag;
			sends[*n].rank = r;
			sends[*n].ev = (uint32_t)i;
			(*n)++;
		}
	}
	qsort(sends, *n, sizeof(*sends), send_cmp);
	return sends;
}

/* The source and tag a receive of rank r, event e, took: its own (a blocking one), its
 * completion's (a nonblocking one; done: tr_completions()). Returns 0, or -1 if it took
 * none (it never completed, or from MPI_PROC_NULL). */
static int taken(const struct mpiv_rank_trace *t, const int32_t *done, size_t e, int32_t *src,
		 int32_t *tag)
{
	const struct mpiv_event *ev = &t->events[e], *d;
	enum mpiv_kind k = mpiv_call_kind(ev->call);
	uint32_t j;

	*src = *tag = MPIV_NONE;
	if (k == MPIV_KIND_RECV || k == MPIV_KIND_SENDRECV || k == MPIV_KIND_MPROBE) {
		*src = ev->src;
		*tag = ev->mtag;
	} else if ((k == MPIV_KIND_IRECV || k == MPIV_KIND_ISENDRECV) && ev->nreqs == 1 &&
		   done[e] >= 0) {
		d = &t->events[done[e]];
		for (j = 0; j < d->nreqs; j++)
			if (d->reqs[j].req == ev->reqs[0].req) {
				*src = d->reqs[j].src;
				*tag = d->reqs[j].tag;
			}
	}
	return *src >= 0 ? 0 : -1;
}

/* The operation of rank r at event ev, or NULL (ops are in event order). */
static struct tl_op *op_at(const struct tr_timeline *tl, int r, uint32_t ev)
{
	size_t lo = 0, hi;

	if (r < 0 || r >= tl->nranks)
		return NULL;
	hi = tl->nops[r];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl->ops[r][mid].ev < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tl->nops[r] && tl->ops[r][lo].ev == ev ? &tl->ops[r][lo] : NULL;
}

/* Rank r's operation op completes the receive that took send's message. */
static void add_dep(struct tr_timeline *tl, int r, size_t op, int32_t rank, uint32_t ev,
		    size_t *cap)
{
	xgrow((void **)&tl->deps[r], cap, tl->ndeps[r] + 1, sizeof(*tl->deps[r]));
	tl->deps[r][tl->ndeps[r]].op = op;
	tl->deps[r][tl->ndeps[r]].rank = rank;
	tl->deps[r][tl->ndeps[r]].ev = ev;
	tl->ndeps[r]++;
}

static int dep_cmp(const void *a, const void *b)
{
	const struct tl_dep *x = a, *y = b;

	return x->op < y->op ? -1 : x->op > y->op;
}

/* The dependencies of rank r's receives (ops from_rank, from_ev filled): a blocking one's on
 * itself, a nonblocking one's on the operation that completed it (done: tr_completions(),
 * by event), if it is one of ops. */
static void receive_deps(struct tr_timeline *tl, int r, const int32_t *done)
{
	size_t i, cap = 0;

	for (i = 0; i < tl->nops[r]; i++) {
		const struct tl_op *op = &tl->ops[r][i];
		enum mpiv_kind k;
		struct tl_op *at;

		if (op->from_rank < 0)
			continue;
		k = mpiv_call_kind(tl->ts->ranks[r].events[op->ev].call);
		if (k != MPIV_KIND_IRECV) {
			add_dep(tl, r, i, op->from_rank, op->from_ev, &cap);
			continue;
		}
		at = done[op->ev] >= 0 ? op_at(tl, r, (uint32_t)done[op->ev]) : NULL;
		if (at)
			add_dep(tl, r, (size_t)(at - tl->ops[r]), op->from_rank, op->from_ev, &cap);
	}
	qsort(tl->deps[r], tl->ndeps[r], sizeof(*tl->deps[r]), dep_cmp);
}

/* The recorded run's operations: every event, each receive paired with its send. */
static void recorded_ops(struct tr_timeline *tl)
{
	size_t nsends, *next, i, g;
	struct tl_send *sends = collect_sends(tl, &nsends);
	int r;

	/* next[g]: sends of the group starting at g already taken */
	next = xcalloc(nsends + 1, sizeof(*next));
	for (r = 0; r < tl->nranks; r++) {
		const struct mpiv_rank_trace *t = &tl->ts->ranks[r];
		int32_t *done = tr_completions(t);
		struct tl_send key;

		tl->ops[r] = xcalloc(t->nevents + 1, sizeof(*tl->ops[r]));
		tl->nops[r] = t->nevents;
		memset(&key, 0, sizeof(key));
		for (i = 0; i < t->nevents; i++) {
			struct tl_op *op = &tl->ops[r][i];

			op->ev = (uint32_t)i;
			op->from_rank = -1;
			op->blocked = (t->events[i].flags & MPIV_EV_INCOMPLETE) != 0;
			if (taken(t, done, i, &key.src, &key.tag) != 0)
				continue;
			key.dst = r;
			key.comm = comm_of(tl, r, t->events[i].comm);
			g = first_of(sends, nsends, &key);
			if (g + next[g] < nsends) {
				struct tl_send *s = &sends[g + next[g]];

				if (s->src == key.src && s->dst == r && s->comm == key.comm &&
				    s->tag == key.tag) {
					op->from_rank = s->rank;
					op->from_ev = s->ev;
					next[g]++;
				}
			}
		}
		receive_deps(tl, r, done);
		free(done);
	}
	free(next);
	free(sends);
}

/* The counterexample's operations, as it matched them. */
static void cex_ops(struct tr_timeline *tl, const struct mpiv_cex *cex)
{
	int r;
	size_t i;

	for (r = 0; r < tl->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];

		tl->ops[r] = xcalloc(cr->nops + 1, sizeof(*tl->ops[r]));
		tl->nops[r] = cr->nops;
		for (i = 0; i < cr->nops; i++) {
			struct tl_op *op = &tl->ops[r][i];

			op->ev = cr->ops[i].op;
			op->from_rank = cr->ops[i].match_rank;
			op->from_ev = (uint32_t)cr->ops[i].match_op;
			op->blocked = i + 1 == cr->nops && cr->blocked_op == (long)op->ev;
		}
	}
	for (r = 0; r < tl->nranks; r++) {
		int32_t *done = tr_completions(&tl->ts->ranks[r]);

		receive_deps(tl, r, done);
		free(done);
	}
}

/* Synthetic times: each operation a step after the rank's one before, a receive also after
 * the send it took. A receive whose send has no time yet waits; if every rank waits (a
 * pairing that cannot be, from a damaged trace), the first waiting receive goes on. */
static void synthetic_times(struct tr_timeline *tl)
{
	size_t *pos = xcalloc((size_t)tl->nranks, sizeof(*pos));
	size_t *dep = xcalloc((size_t)tl->nranks, sizeof(*dep)); /* next in deps */
	uint64_t *last = xcalloc((size_t)tl->nranks, sizeof(*last));
	size_t left = 0, d;
	int r, moved, force = 0;

	for (r = 0; r < tl->nranks; r++)
		left += tl->nops[r];
	while (left > 0) {
		moved = 0;
		for (r = 0; r < tl->nranks; r++) {
			while (pos[r] < tl->nops[r]) {
				struct tl_op *op = &tl->ops[r][pos[r]], *from;
				uint64_t t = last[r] + TL_STEP;
				int waits = 0;

				for (d = dep[r]; d < tl->ndeps[r] && tl->deps[r][d].op == pos[r];
				     d++) {
					from = op_at(tl, tl->deps[r][d].rank, tl->deps[r][d].ev);
					if (from && !from->enter)
						waits = 1; /* its send has no time yet */
					else if (from && from->enter + TL_STEP > t)
						t = from->enter + TL_STEP;
				}
				if (waits && !force)
					break;
				dep[r] = d;
				op->enter = t;
				op->leave = t + TL_STEP / 2;
				last[r] = op->leave;
				pos[r]++;
				left--;
				moved = 1;
				force = 0;
			}
		}
		force = !moved;
	}
	tl->end = 0;
	for (r = 0; r < tl->nranks; r++)
		if (last[r] > tl->end)
			tl->end = last[r];
	tl->end += TL_STEP;
	/* a call that never returned is left at the end, as in a recorded run */
	for (r = 0; r < tl->nranks; r++)
		for (d = 0; d < tl->nops[r]; d++)
			if (tl->ops[r][d].blocked)
				tl->ops[r][d].leave = tl->end;
	free(pos);
	free(dep);
	free(last);
}

/* The run's own times, from the earliest entering of any rank. */
static void recorded_times(struct tr_timeline *tl)
{
	const struct mpiv_traceset *ts = tl->ts;
	int64_t start = INT64_MAX, end = INT64_MIN, t;
	size_t i;
	int r;

	for (r = 0; r < tl->nranks; r++)
		for (i = 0; i < tl->nops[r]; i++) {
			const struct mpiv_event *ev = &ts->ranks[r].events[tl->ops[r][i].ev];

			t = mpiv_trace_realtime(&ts->ranks[r], ev->enter);
			if (t < start)
				start = t;
			if (ev->leave && mpiv_trace_realtime(&ts->ranks[r], ev->leave) > end)
				end = mpiv_trace_realtime(&ts->ranks[r], ev->leave);
			if (t > end)
				end = t;
		}
	if (start == INT64_MAX)
		start = end = 0;
	tl->start = start;
	tl->end = (uint64_t)(end - start);
	for (r = 0; r < tl->nranks; r++)
		for (i = 0; i < tl->nops[r]; i++) {
			struct tl_op *op = &tl->ops[r][i];
			const struct mpiv_event *ev = &ts->ranks[r].events[op->ev];

			op->enter = (uint64_t)(mpiv_trace_realtime(&ts->ranks[r], ev->enter) -
					       start);
			op->leave = ev->leave && !op->blocked ?
					    (uint64_t)(mpiv_trace_realtime(&ts->ranks[r],
									   ev->leave) -
						       start) :
					    tl->end;
		}
}

int tr_timeline_build(struct tr_timeline *tl, const struct mpiv_traceset *ts,
		      const struct mpiv_cex *cex, struct mpiv_error *err)
{
	struct eng_prog prog;
	int r, timed = 1;

	memset(tl, 0, sizeof(*tl));
	memset(&prog, 0, sizeof(prog));
	tl->ts = ts;
	tl->nranks = ts->nranks;
	prog.nranks = ts->nranks;
	if (tr_comms_build(ts, &prog, &tl->comms, err)) {
		tl->comm = prog.comms;
		tl->ncomms = prog.ncomms;
		tr_timeline_release(tl);
		return -1;
	}
	tl->comm = prog.comms;
	tl->ncomms = prog.ncomms;
	tl->ops = xcalloc((size_t)(tl->nranks ? tl->nranks : 1), sizeof(*tl->ops));
	tl->nops = xcalloc((size_t)(tl->nranks ? tl->nranks : 1), sizeof(*tl->nops));
	tl->deps = xcalloc((size_t)(tl->nranks ? tl->nranks : 1), sizeof(*tl->deps));
	tl->ndeps = xcalloc((size_t)(tl->nranks ? tl->nranks : 1), sizeof(*tl->ndeps));
	for (r = 0; r < ts->nranks; r++)
		timed &= ts->ranks[r].clock != MPIV_CLOCK_NONE;
	if (cex)
		cex_ops(tl, cex);
	else
		recorded_ops(tl);
	tl->synthetic = cex || !timed;
	if (tl->synthetic)
		synthetic_times(tl);
	else
		recorded_times(tl);
	return 0;
}

void tr_timeline_release(struct tr_timeline *tl)
{
	int r;

	for (r = 0; tl->ops && r < tl->nranks; r++) {
		free(tl->ops[r]);
		free(tl->deps[r]);
	}
	free(tl->ops);
	free(tl->nops);
	free(tl->deps);
	free(tl->ndeps);
	tr_comms_release(&tl->comms);
	for (r = 0; r < tl->ncomms; r++)
		free(tl->comm[r].members);
	free(tl->comm);
	memset(tl, 0, sizeof(*tl));
}
