/* Partitioned requests paired in the order they were made (tr_part.h). */
#include <stdlib.h>
#include <string.h>

#include "tr_part.h"
#include "xalloc.h"

/* A pair's key: the engine communicator, sender and receiver, the tag, and which of that
 * side's inits with these it is (from 0). */
struct pair_key {
	int32_t comm, from, to, tag, nth;
};

struct pairs {
	struct pair_key *keys; /* by pair tag */
	size_t n, cap;
};

/* The pair tag of key, given the next one if it has none. */
static int32_t pair_of(struct pairs *ps, const struct pair_key *k)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (!memcmp(&ps->keys[i], k, sizeof(*k)))
			return (int32_t)i;
	xgrow((void **)&ps->keys, &ps->cap, ps->n + 1, sizeof(*ps->keys));
	ps->keys[ps->n] = *k;
	return (int32_t)ps->n++;
}

/* How many of seen[0..nseen) are inits of the same side (send) with key's envelope. */
static int32_t nth_of(const struct pair_key *seen, const int *sides, size_t nseen,
		      const struct pair_key *k, int send)
{
	int32_t n = 0;
	size_t i;

	for (i = 0; i < nseen; i++)
		n += sides[i] == send && seen[i].comm == k->comm && seen[i].from == k->from &&
		     seen[i].to == k->to && seen[i].tag == k->tag;
	return n;
}

int tr_may_wait(const struct mpiv_event *ev)
{
	switch (mpiv_call_kind(ev->call)) {
	case MPIV_KIND_LOCAL:
	case MPIV_KIND_ISEND:
	case MPIV_KIND_IRECV:
	case MPIV_KIND_ISENDRECV:
	case MPIV_KIND_SEND_INIT:
	case MPIV_KIND_RECV_INIT:
	case MPIV_KIND_COLL_INIT:
	case MPIV_KIND_START:
	case MPIV_KIND_ICOLL:
	case MPIV_KIND_REQUEST_FREE:
	case MPIV_KIND_GREQ_START:
	case MPIV_KIND_GREQ_COMPLETE:
	case MPIV_KIND_CANCEL:
	case MPIV_KIND_COMM_FREE:
	case MPIV_KIND_BUF_ATTACH:
	case MPIV_KIND_WIN_LOCAL:
		return 0;
	default:
		return !mpiv_event_failed_poll(ev);
	}
}

/* Mark the partitioned sends among rank t's inits ins[0..n) that may wait between readying
 * their first and their last partition at one of their starts (tr_parts_waits()): a call that
 * may wait between a MPI_Pready* of the request and the one flagged parts_ready, in the
 * thread that readies them, or in any thread of a rank whose threads call MPI (another may
 * ready the next partition once it has waited). One pass over the rank's events, the sends
 * being readied counted. */
static void sends_waiting(const struct mpiv_rank_trace *t, struct tr_part_init *ins, size_t n)
{
	int32_t *req = xcalloc(n + 1, sizeof(*req)), *thread = xcalloc(n + 1, sizeof(*thread));
	size_t e, k, readying = 0;

	for (k = 0; k < n; k++) {
		const struct mpiv_event *init = mpiv_trace_event(t, ins[k].event);

		req[k] = mpiv_call_kind(init->call) == MPIV_KIND_SEND_INIT && init->nreqs == 1 ?
				 init->reqs[0].req :
				 -1;
		thread[k] = -1;
	}
	for (e = 0; e < t->nevents; e++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, e);
		int32_t r = ev->nreqs >= 1 ? ev->reqs[0].req : -1;

		if ((mpiv_call_flags(ev->call) & MPIV_F_PARTITIONED) &&
		    mpiv_call_kind(ev->call) == MPIV_KIND_LOCAL) {
			for (k = 0; k < n; k++) {
				if (req[k] != r || r < 0 || ins[k].event > e)
					continue;
				readying -= thread[k] >= 0;
				thread[k] = (ev->flags & MPIV_EV_PARTS_READY) ? -1 : ev->thread;
				readying += thread[k] >= 0;
			}
			continue;
		}
		if (!readying || !tr_may_wait(ev))
			continue;
		for (k = 0; k < n; k++)
			if (thread[k] >= 0 && (thread[k] == ev->thread || t->threaded))
				ins[k].waits = 1;
	}
	free(req);
	free(thread);
}

static int rank_pairs(const struct mpiv_rank_trace *t, const struct tr_comms *cm, struct pairs *ps,
		      struct tr_parts *pt, struct mpiv_error *err)
{
	struct pair_key *seen = NULL, k;
	int *sides = NULL;
	size_t cap = 0, scap = 0, nseen = 0, icap = 0, e;

	for (e = 0; e < t->nevents; e++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, e);
		int send = mpiv_call_kind(ev->call) == MPIV_KIND_SEND_INIT;

		if (!(mpiv_call_flags(ev->call) & MPIV_F_PARTITIONED) ||
		    (!send && mpiv_call_kind(ev->call) != MPIV_KIND_RECV_INIT))
			continue;
		if (!send && (ev->peer == MPIV_ANY_SOURCE || ev->tag == MPIV_ANY_TAG)) {
			free(seen);
			free(sides);
			return mpiv_error_set(
				err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)e,
				"%s with MPI_ANY_SOURCE or MPI_ANY_TAG: a partitioned "
				"receive names its source and tag (MPI-4.1 4.2.2)",
				mpiv_call_name(ev->call));
		}
		k.comm = tr_comms_id(cm, t->rank, ev->comm);
		k.from = send ? t->rank : ev->peer;
		k.to = send ? ev->peer : t->rank;
		k.tag = ev->tag;
		k.nth = nth_of(seen, sides, nseen, &k, send); /* a rank may send to itself */
		xgrow((void **)&seen, &cap, nseen + 1, sizeof(*seen));
		xgrow((void **)&sides, &scap, nseen + 1, sizeof(*sides));
		seen[nseen] = k;
		sides[nseen++] = send;
		xgrow((void **)&pt->inits[t->rank], &icap, pt->ninits[t->rank] + 1,
		      sizeof(**pt->inits));
		pt->inits[t->rank][pt->ninits[t->rank]++] = (struct tr_part_init){(uint32_t)e,
										  pair_of(ps, &k),
										  0};
	}
	free(seen);
	free(sides);
	sends_waiting(t, pt->inits[t->rank], pt->ninits[t->rank]);
	return 0;
}

int tr_parts_build(const struct mpiv_traceset *ts, const struct tr_comms *cm, struct tr_parts *pt,
		   struct mpiv_error *err)
{
	struct pairs ps = {NULL, 0, 0};
	int r, rc = 0;
	size_t i;

	memset(pt, 0, sizeof(*pt));
	pt->nranks = ts->nranks;
	pt->comm = -1;
	pt->inits = xcalloc((size_t)ts->nranks, sizeof(*pt->inits));
	pt->ninits = xcalloc((size_t)ts->nranks, sizeof(*pt->ninits));
	for (r = 0; r < ts->nranks && !rc; r++)
		if (ts->ranks[r].call_flags & MPIV_F_PARTITIONED)
			rc = rank_pairs(&ts->ranks[r], cm, &ps, pt, err);
	pt->npairs = (int32_t)ps.n;
	free(ps.keys);
	pt->waits = xcalloc((size_t)pt->npairs + 1, 1);
	for (r = 0; r < ts->nranks; r++)
		for (i = 0; i < pt->ninits[r]; i++)
			if (pt->inits[r][i].waits)
				pt->waits[pt->inits[r][i].pair] = 1;
	return rc;
}

int tr_parts_waits(const struct tr_parts *pt, int32_t pair)
{
	return pt && pt->waits && pair >= 0 && pair < pt->npairs && pt->waits[pair];
}

int32_t tr_parts_pair(const struct tr_parts *pt, int rank, uint32_t event)
{
	size_t lo = 0, hi;

	if (!pt || rank < 0 || rank >= pt->nranks)
		return -1;
	hi = pt->ninits[rank];
	while (lo < hi) { /* by event, ascending */
		size_t mid = lo + (hi - lo) / 2;

		if (pt->inits[rank][mid].event < event)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pt->ninits[rank] && pt->inits[rank][lo].event == event ?
		       pt->inits[rank][lo].pair :
		       -1;
}

void tr_parts_release(struct tr_parts *pt)
{
	int r;

	for (r = 0; pt->inits && r < pt->nranks; r++)
		free(pt->inits[r]);
	free(pt->inits);
	free(pt->ninits);
	free(pt->waits);
	memset(pt, 0, sizeof(*pt));
}
