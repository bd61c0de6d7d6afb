/* verify (explore.h): receives polled in turn. A master that tests each worker's request with
 * MPI_Test, one after the other, until one has come (or probes each worker with MPI_Iprobe),
 * and serves the one it found, acts on which of its polls found something first: a Testany
 * written by hand. verify steers which message a poll finds and which request an
 * any-completion returns, not which of several polls succeeds first (doc/verify.md,
 * "Limits"), and the model takes a polling loop for one call at the poll that succeeded: the
 * orders no run showed are paths no run is steered to, and verify never then answers "no
 * deadlock". A run shows such polls where a call site polled one receive (MPI_Test of a
 * request, MPI_Iprobe of a source), found nothing, and its next poll, with nothing but polls
 * between, was of another receive. A run whose tests all found their request at once shows
 * no turn, and looks the same as a loop over an array that tests each request until it
 * comes: where a test found its request at once while a receive from another peer waited,
 * and no test of that call site found nothing and was followed by a test of the same request
 * while another waited (the array's loop), it may be either, and counts as a turn. A loop
 * that polls one receive until it comes, then the next, MPI_Testany and MPI_Testsome (a
 * decision verify steers), a wildcard probe, receives from one peer (MPI's order is theirs)
 * and polls of something else between (the NBX exchange's barrier request) are none. */
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "xalloc.h"

/* The receive requests of one rank, by id: each one's peer (its source as posted; MPIV_NONE
 * for an id that is no receive) and whether it is alive (posted, not completed); how many
 * are alive, how many of those are from each peer (by world rank, then MPI_ANY_SOURCE and
 * any other value), and from how many peers. */
struct recvs {
	int32_t *peer;
	unsigned char *alive;
	size_t cap;
	int n;
	int *from; /* size + 2 */
	int size, peers;
};

static void note_recv(struct recvs *a, int32_t id, int32_t peer)
{
	if (id < 0)
		return;
	if ((size_t)id >= a->cap) {
		size_t n = a->cap ? a->cap : 64, k;

		while (n <= (size_t)id)
			n *= 2;
		a->peer = xrealloc(a->peer, n * sizeof(*a->peer));
		a->alive = xrealloc(a->alive, n);
		for (k = a->cap; k < n; k++)
			a->peer[k] = MPIV_NONE;
		memset(a->alive + a->cap, 0, n - a->cap);
		a->cap = n;
	}
	a->peer[id] = peer;
}

static int is_recv(const struct recvs *a, int32_t id)
{
	return id >= 0 && (size_t)id < a->cap && a->peer[id] != MPIV_NONE;
}

static int is_alive(const struct recvs *a, int32_t id)
{
	return is_recv(a, id) && a->alive[id];
}

/* What poll ev polls for, if it polls for one receive: its request's id, or a probe's
 * envelope with a source, as a key other than 0; 0 for any other call (a poll of several
 * requests at once, MPI_Testany and kin, takes a decision verify steers; a wildcard probe,
 * one verify steers too). */
static uint64_t recv_target(const struct mpiv_event *ev, const struct recvs *recvs)
{
	if (!(mpiv_call_flags(ev->call) & MPIV_F_POLL))
		return 0;
	switch (mpiv_call_kind(ev->call)) {
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		if (ev->peer == MPIV_ANY_SOURCE)
			return 0;
		return (1 + ((uint64_t)(uint32_t)ev->peer << 32 ^ (uint64_t)(uint32_t)ev->tag << 8 ^
			     (uint64_t)(uint32_t)ev->comm))
		       << 1;
	case MPIV_KIND_WAIT:
		if (ev->nreqs != 1 || ev->call == MPIV_CALL_Testany ||
		    ev->call == MPIV_CALL_Testsome || !is_recv(recvs, ev->reqs[0].req))
			return 0;
		return (uint64_t)(uint32_t)ev->reqs[0].req << 1 | 1;
	default:
		return 0;
	}
}

/* A poll call site of one thread: the target of its last poll, when, and whether it found
 * nothing, with only polls since (the thread's other calls clear it); and what its polls of
 * one request showed: a turn (after a miss, another receive next), a request found at its
 * first poll while other receives waited (a loop over an array, or a farm whose polls all
 * found at once: ambiguous), and a request polled again after a miss while others waited
 * (the array's loop: what makes the first none). */
struct poll_site {
	int32_t thread;
	uint64_t site, last;
	long last_at;
	long turn_at, turn_after; /* the poll of the turn, and the poll that missed before it */
	long first_at;
	int missed, again;
};

/* The slot of a->from that counts the receives of request id. */
static int from_slot(const struct recvs *a, int32_t id)
{
	int32_t peer = a->peer[id];

	if (peer >= 0 && peer < a->size)
		return peer;
	return peer == MPIV_ANY_SOURCE ? a->size : a->size + 1;
}

/* Is a receive from another peer than request id's alive (id itself not)? A loop that polls
 * one peer's receives one after the other keeps the order MPI gives them; receives from
 * several, a farm's, may come in any. */
static int other_peer_alive(const struct recvs *a, int32_t id)
{
	return a->peers - (a->from[from_slot(a, id)] > 0) > 0;
}

/* Receive request id is posted (on) or completed. */
static void set_alive(struct recvs *a, int32_t id, int on)
{
	int *from;

	if (!is_recv(a, id) || a->alive[id] == on)
		return;
	from = &a->from[from_slot(a, id)];
	a->alive[id] = (unsigned char)on;
	if (on) {
		a->n++;
		a->peers += (*from)++ == 0;
	} else {
		a->n--;
		a->peers -= --(*from) == 0;
	}
}

/* Rank r's polls in turn, if any: 1 with why filled, else 0. */
static int rank_polls_in_turn(const struct mpiv_traceset *ts, int r, char *why, size_t size)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	struct recvs recvs = {NULL, NULL, 0, 0, NULL, t->size > 0 ? t->size : 1, 0};
	struct poll_site *sites = NULL, *s;
	size_t i, nsites = 0, capsites = 0, k;
	long at = -1, before = -1;
	uint32_t j;

	recvs.from = xcalloc((size_t)recvs.size + 2, sizeof(*recvs.from));
	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);
		unsigned kind = mpiv_call_kind(ev->call);
		uint64_t target;
		int failed = mpiv_event_failed_poll(ev), others;

		if ((kind == MPIV_KIND_IRECV || kind == MPIV_KIND_RECV_INIT) && ev->nreqs)
			note_recv(&recvs, ev->reqs[0].req, ev->peer);
		if (kind == MPIV_KIND_IRECV && ev->nreqs)
			set_alive(&recvs, ev->reqs[0].req, 1);
		if (kind == MPIV_KIND_START)
			for (j = 0; j < ev->nreqs; j++)
				set_alive(&recvs, ev->reqs[j].req, 1);
		target = recv_target(ev, &recvs);
		/* the other receives waiting while this call polls one */
		others = recvs.n - (target & 1 && is_alive(&recvs, ev->reqs[0].req));
		if (kind == MPIV_KIND_WAIT && !failed)
			for (j = 0; j < ev->nreqs - ev->npending; j++)
				set_alive(&recvs, ev->reqs[j].req, 0);
		if (!(mpiv_call_flags(ev->call) & MPIV_F_POLL)) {
			/* a call that is no poll: the thread went on, whatever it missed */
			for (k = 0; k < nsites; k++)
				if (sites[k].thread == ev->thread)
					sites[k].missed = 0;
			continue;
		}
		if (!target)
			continue; /* a poll of something else (the NBX barrier's request) */
		for (k = 0;
		     k < nsites && (sites[k].thread != ev->thread || sites[k].site != ev->site);
		     k++)
			;
		if (k == nsites) {
			xgrow((void **)&sites, &capsites, nsites + 1, sizeof(*sites));
			sites[nsites++] = (struct poll_site){.thread = ev->thread,
							     .site = ev->site,
							     .last_at = -1,
							     .turn_at = -1,
							     .turn_after = -1,
							     .first_at = -1};
		}
		s = &sites[k];
		if (s->missed && s->last != target && s->turn_at < 0) {
			s->turn_at = (long)i;
			s->turn_after = s->last_at;
		} else if (s->missed && s->last == target && others)
			s->again = 1;
		else if (!s->missed && !failed && others && (target & 1) && s->first_at < 0 &&
			 other_peer_alive(&recvs, ev->reqs[0].req))
			s->first_at = (long)i;
		s->last = target;
		s->last_at = (long)i;
		s->missed = failed;
	}
	for (k = 0; k < nsites && at < 0; k++)
		if (sites[k].turn_at >= 0) {
			at = sites[k].turn_at;
			before = sites[k].turn_after;
		}
	if (at >= 0) {
		char a[400], b[400];

		explore_event_where(ts, r, before, a, sizeof(a));
		explore_event_where(ts, r, at, b, sizeof(b));
		snprintf(why, size,
			 "rank %d polls several receives in turn at one call site (%s found "
			 "nothing, and %s was next): which of them finds its message first is a "
			 "decision no run is steered to",
			 r, a, b);
	}
	for (k = 0; k < nsites && at < 0; k++)
		if (sites[k].first_at >= 0 && !sites[k].again) {
			char a[400];

			at = sites[k].first_at;
			explore_event_where(ts, r, at, a, sizeof(a));
			snprintf(
				why, size,
				"rank %d's %s found each receive it polled at its first poll, with "
				"other receives waiting: whether it polls them in turn, acting on "
				"which comes first, no run shows",
				r, a);
		}
	free(recvs.peer);
	free(recvs.alive);
	free(recvs.from);
	free(sites);
	return at >= 0;
}

int explore_poll_turns(const struct mpiv_traceset *ts, char *why, size_t size)
{
	int r;

	for (r = 0; r < ts->nranks; r++)
		if (rank_polls_in_turn(ts, r, why, size))
			return 1;
	return 0;
}
