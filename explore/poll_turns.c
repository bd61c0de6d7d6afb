/* verify (explore.h): receives polled in turn. A master that tests each worker's request with
 * MPI_Test, one after the other, until one has come (or probes each worker with MPI_Iprobe),
 * acts on which of its polls found something first: a Testany written by hand. verify steers
 * which message a poll finds and which request an any-completion returns, not which of
 * several polls succeeds first (doc/verify.md, "Limits"), and the model takes a polling loop
 * for one call at the poll that succeeded: the orders no run showed are paths no run is
 * steered to, and verify never then answers "no deadlock". A run shows such polls where a
 * poll of one receive found nothing and a poll of another then found its message, with
 * nothing but polls between them. A loop that polls one receive (or one set of them, as
 * MPI_Testany does) until it comes, and polls of something else between (the barrier request
 * of the NBX exchange), are none. */
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "xalloc.h"

/* The receive requests of one rank: a bit per request id. */
struct recv_ids {
	unsigned char *bit;
	size_t cap; /* bytes */
};

static void mark_recv(struct recv_ids *ids, int32_t id)
{
	size_t byte;

	if (id < 0)
		return;
	byte = (size_t)id / 8;
	if (byte >= ids->cap) {
		size_t cap = ids->cap ? ids->cap : 64;

		while (cap <= byte)
			cap *= 2;
		ids->bit = xrealloc(ids->bit, cap);
		memset(ids->bit + ids->cap, 0, cap - ids->cap);
		ids->cap = cap;
	}
	ids->bit[byte] |= (unsigned char)(1u << (id % 8));
}

static int is_recv(const struct recv_ids *ids, int32_t id)
{
	return id >= 0 && (size_t)id / 8 < ids->cap && (ids->bit[id / 8] >> (id % 8) & 1);
}

/* What poll ev polls for, if it polls for receives only: its requests (in any order, as an
 * any-completion lists them as they stood) or a probe's envelope, as a key other than 0; 0
 * for any other call. */
static uint64_t recv_target(const struct mpiv_event *ev, const struct recv_ids *ids)
{
	uint64_t sum = 0, mix = 0;
	uint32_t j;

	if (!(mpiv_call_flags(ev->call) & MPIV_F_POLL))
		return 0;
	switch (mpiv_call_kind(ev->call)) {
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		return 1 + ((uint64_t)(uint32_t)ev->peer << 32 ^ (uint64_t)(uint32_t)ev->tag << 8 ^
			    (uint64_t)(uint32_t)ev->comm);
	case MPIV_KIND_WAIT:
		if (ev->nreqs == 0)
			return 0;
		for (j = 0; j < ev->nreqs; j++) {
			uint64_t v = (uint64_t)(uint32_t)ev->reqs[j].req * 0x9e3779b97f4a7c15ULL;

			if (!is_recv(ids, ev->reqs[j].req))
				return 0;
			sum += v;
			mix ^= v >> 7;
		}
		return (sum ^ mix) | 1;
	default:
		return 0;
	}
}

/* A thread's run of polls: a receive target a poll of it missed (0: none yet), and that
 * poll's event. Threads poll on their own: one thread's miss and another's find are no
 * turn. */
struct poll_run {
	uint64_t failed;
	long missed;
};

/* Rank r's polls in turn, if any: 1 with why filled, else 0. */
static int rank_polls_in_turn(const struct mpiv_traceset *ts, int r, char *why, size_t size)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	struct recv_ids ids = {NULL, 0};
	struct poll_run *runs = NULL, *p;
	size_t i, nruns = 0;
	int found = 0;

	for (i = 0; i < t->nevents && !found; i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);
		unsigned kind = mpiv_call_kind(ev->call);
		uint64_t target;

		if (ev->thread < 0)
			continue;
		if ((size_t)ev->thread >= nruns) {
			size_t n = (size_t)ev->thread + 1;

			runs = xrealloc(runs, n * sizeof(*runs));
			memset(runs + nruns, 0, (n - nruns) * sizeof(*runs));
			nruns = n;
		}
		p = &runs[ev->thread];
		if ((kind == MPIV_KIND_IRECV || kind == MPIV_KIND_RECV_INIT) && ev->nreqs)
			mark_recv(&ids, ev->reqs[0].req);
		target = recv_target(ev, &ids);
		if (mpiv_event_failed_poll(ev)) {
			if (target && !p->failed) {
				p->failed = target;
				p->missed = (long)i;
			}
			continue; /* polls of something else between: still one run of polls */
		}
		if (target && p->failed && target != p->failed) {
			char a[400], b[400];

			explore_event_where(ts, r, p->missed, a, sizeof(a));
			explore_event_where(ts, r, (long)i, b, sizeof(b));
			snprintf(
				why, size,
				"rank %d polls several receives in turn (%s found nothing, then %s "
				"found its message): which of them finds a message first is a "
				"decision no run is steered to",
				r, a, b);
			found = 1;
		}
		p->failed = 0;
	}
	free(ids.bit);
	free(runs);
	return found;
}

int explore_poll_turns(const struct mpiv_traceset *ts, char *why, size_t size)
{
	int r;

	for (r = 0; r < ts->nranks; r++)
		if (rank_polls_in_turn(ts, r, why, size))
			return 1;
	return 0;
}
