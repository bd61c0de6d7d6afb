/* Translator: a long run checked a segment at a time (doc/semantics.md 10), so that check's
 * memory follows a segment's program, not the whole run's.
 *
 * A cut is a position in every rank's trace such that nothing before it waits for anything
 * after it: every message sent before it is received before it and the other way round, every
 * request made before it is completed before it, and the members of each communicator have
 * entered as many collectives before it. Where, before the cut, every receive names its
 * source and tag and no rank has a choice to make, the matching is a function of the calls:
 * the k-th receive of rank d from rank s on a communicator with a tag takes the k-th such
 * message (MPI-4.1 3.5, "Order"), and a rank, whose calls come from one thread, posts its
 * receives after the cut only once those before it have taken their messages. After a
 * wildcard receive or probe or a buffered send, only a collective every rank waits in for
 * every other closes a segment (seek_sync_cut()). Each segment is then a program of its own:
 * a rank can wait only for calls of its own segment, so the whole run deadlocks in a mode
 * exactly when some segment does, the first that does ending where the whole run would (the
 * engine's steps commute, models/README.md, "Why this shape"). Where a segment has a choice
 * to make, a deadlock, or anything the single path does not settle, the caller checks the
 * whole program instead: the segments only ever answer "no deadlock". */
#include <stdlib.h>
#include <string.h>

#include "tr_comm.h"
#include "tr_reqmap.h"
#include "translate.h"
#include "xalloc.h"
#include "tr_check.h"

/* The messages on one envelope so far: those rank `from` sent to rank `to` on engine
 * communicator comm with tag, less the receives `to` posted for them. An envelope at zero
 * stays, for the next message on it, until the table is rebuilt. */
struct chan {
	int32_t from, to, comm, tag;
	int64_t balance;
	int used;
};

/* A persistent request: the envelope each start posts, from its template. */
struct tmpl {
	int64_t event; /* its MPI_Send_init or MPI_Recv_init; -1: no persistent request */
	int32_t peer, tag, comm;
	int send;
};

/* A request of a rank, in its cursor's table while it is live or persistent. */
struct req_state {
	int32_t id;
	int32_t live;
	struct tmpl tmpl; /* tmpl.event < 0: not a persistent request */
};

/* Where one rank's trace is being read. */
struct cursor {
	size_t at;	       /* its next event */
	size_t limit;	       /* its MPI_Finalize: every cut comes before it */
	size_t goal;	       /* where the cut being sought would be, as far as this rank goes */
	long owed;	       /* envelopes it owes messages or receives on */
	long behind;	       /* communicators whose collectives it has entered fewer of */
	long live;	       /* its requests made and not completed */
	int synced;	       /* its last event was a collective that synchronises the world (its
			    * communicator), else -1 */
	struct tr_reqmap reqs; /* its live and persistent requests (struct req_state) */
	/* 1 + the event of the MPI_Buffer_attach whose buffer is attached; 0: none */
	size_t attach;
};

/* One engine communicator's collectives: how many each member entered (by its place in
 * the communicator), and the most any did. */
struct coll_count {
	uint64_t *n;
	uint64_t most;
};

/* Balances of envelopes, in open addressing. */
struct chans {
	struct chan *slot;
	size_t cap, used, live; /* slots, slots taken, envelopes not at zero */
};

struct finder {
	const struct mpiv_traceset *ts;
	struct eng_prog comms_of; /* the communicators only (tr_comms_build()) */
	struct tr_comms cm;
	struct cursor *cur;
	struct coll_count *coll; /* by engine communicator */
	/* by sender, receiver, communicator and tag: what a cut after receives that all name
	 * both needs even, and what ranks owe */
	struct chans fine;
	/* by receiver and communicator alone: what a cut after a wildcard receive needs even */
	struct chans coarse;
	/* the segment being sought has a wildcard receive or probe or a buffered send: it can
	 * only end right after a collective that synchronises the world (seek_sync_cut()) */
	int wild;
};

/* Why rank c cannot be cut where it is: what it owes, collectives it is behind in, a live
 * request. */
static long lag(const struct cursor *c)
{
	return c->owed + c->behind + (c->live > 0);
}

static size_t chan_hash(int32_t from, int32_t to, int32_t comm, int32_t tag)
{
	uint64_t h = (uint64_t)(uint32_t)from * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)(uint32_t)to + 0x7f4a7c159e3779b9ULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)comm * 0xc2b2ae3d27d4eb4fULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)tag * 0x165667b19e3779f9ULL + (h << 6) + (h >> 2);
	return (size_t)(h ^ (h >> 29));
}

/* Room for the envelopes not at zero, the others dropped. */
static void chan_rehash(struct chans *t)
{
	struct chan *old = t->slot;
	size_t oldcap = t->cap, i;

	t->cap = 64;
	while (t->cap < 4 * (t->live + 1))
		t->cap *= 2;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	t->used = 0;
	for (i = 0; i < oldcap; i++) {
		size_t k;

		if (!old[i].used || !old[i].balance)
			continue;
		k = chan_hash(old[i].from, old[i].to, old[i].comm, old[i].tag) & (t->cap - 1);
		while (t->slot[k].used)
			k = (k + 1) & (t->cap - 1);
		t->slot[k] = old[i];
		t->used++;
	}
	free(old);
}

/* The lagging rank of a balance: the receiver while messages wait for it, the sender while
 * receives do; -1 when even. */
static int32_t lagging(const struct chan *c, int64_t balance)
{
	return balance > 0 ? c->to : balance < 0 ? c->from : -1;
}

/* Add d (a send: 1, a receive: -1) to the balance of the envelope in table t, and, in the
 * fine one, to what the rank that falls behind, or catches up, by it owes. */
static void chan_add(struct finder *f, struct chans *t, int32_t from, int32_t to, int32_t comm,
		     int32_t tag, int d)
{
	struct chan *c;
	int32_t before, after;
	size_t k;

	if (!t->cap || 2 * (t->used + 1) > t->cap)
		chan_rehash(t);
	k = chan_hash(from, to, comm, tag) & (t->cap - 1);
	for (;; k = (k + 1) & (t->cap - 1)) {
		c = &t->slot[k];
		if (!c->used ||
		    (c->from == from && c->to == to && c->comm == comm && c->tag == tag))
			break;
	}
	if (!c->used) {
		c->from = from;
		c->to = to;
		c->comm = comm;
		c->tag = tag;
		c->balance = 0;
		c->used = 1;
		t->used++;
	}
	before = lagging(c, c->balance);
	t->live -= c->balance != 0;
	c->balance += d;
	t->live += c->balance != 0;
	after = lagging(c, c->balance);
	if (t == &f->fine && before != after) {
		if (before >= 0)
			f->cur[before].owed--;
		if (after >= 0)
			f->cur[after].owed++;
	}
}

/* Forget every envelope of t. */
static void chans_clear(struct chans *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* Rank r entered a collective on engine communicator c. Returns 0, or -1 if r is no member
 * (the translator says why). */
static int coll_enter(struct finder *f, int r, int c)
{
	const struct eng_comm *cm = &f->comms_of.comms[c];
	struct coll_count *cc = &f->coll[c];
	int32_t i, me = -1;

	for (i = 0; i < cm->n; i++)
		if (cm->members[i] == r)
			me = i;
	if (me < 0)
		return -1;
	if (!cc->n)
		cc->n = xcalloc((size_t)cm->n, sizeof(*cc->n));
	if (cc->n[me] == cc->most) {
		/* the first to enter the next one: every member at the old most falls behind */
		for (i = 0; i < cm->n; i++)
			if (i != me && cc->n[i] == cc->most)
				f->cur[cm->members[i]].behind++;
		cc->most++;
	} else if (cc->n[me] + 1 == cc->most) {
		f->cur[r].behind--; /* caught up */
	}
	cc->n[me]++;
	return 0;
}

/* Request req of rank r is live (1) or not (0) now. Returns 0, or -1 for an id that cannot be
 * one. */
static int req_set(struct finder *f, int r, int32_t req, int live)
{
	struct cursor *c = &f->cur[r];
	struct req_state *e;

	if (req < 0)
		return live ? -1 : 0;
	e = tr_reqmap_get(&c->reqs, req);
	if (!e) {
		if (!live)
			return 0;
		e = tr_reqmap_put(&c->reqs, req);
		e->tmpl.event = -1;
	}
	if (e->live == live)
		return 0;
	e->live = live;
	c->live += live ? 1 : -1;
	if (!live && e->tmpl.event < 0)
		tr_reqmap_del(&c->reqs, req);
	return 0;
}

/* Is request req of rank r live? */
static int req_live(const struct finder *f, int r, int32_t req)
{
	const struct req_state *e = req >= 0 ? tr_reqmap_get(&f->cur[r].reqs, req) : NULL;

	return e && e->live;
}

/* The persistent request req of rank r, or NULL. */
static const struct tmpl *tmpl_of(const struct finder *f, int r, int32_t req)
{
	const struct req_state *e = req >= 0 ? tr_reqmap_get(&f->cur[r].reqs, req) : NULL;

	return e && e->tmpl.event >= 0 ? &e->tmpl : NULL;
}

/* A peer a message can be counted on: a world rank, or MPI_PROC_NULL (0: nothing to count);
 * -1 for one that makes the matching a choice (MPI_ANY_SOURCE) or is out of the world. */
static int countable_peer(const struct finder *f, int32_t peer)
{
	if (peer == MPIV_PROC_NULL)
		return 0;
	return peer >= 0 && peer < f->ts->nranks ? 1 : -1;
}

/* Count one send (send 1) or receive of rank r with peer and tag on trace communicator comm:
 * by envelope, and by receiver and communicator alone. A receive from MPI_ANY_SOURCE or with
 * MPI_ANY_TAG is counted by receiver alone, and makes the segment a wild one. Returns 0, or -1
 * for what the counts cannot take (a peer outside the world, an intercommunicator). */
static int count_p2p(struct finder *f, int r, int32_t peer, int32_t tag, int32_t comm, int send)
{
	int c = tr_comms_id(&f->cm, r, comm), wild = 0;

	if (c < 0 || tr_comms_split(&f->cm, c))
		return -1;
	if (!send && (peer == MPIV_ANY_SOURCE || tag == MPIV_ANY_TAG))
		wild = 1;
	if (peer == MPIV_PROC_NULL)
		return 0;
	if ((peer != MPIV_ANY_SOURCE || send) && countable_peer(f, peer) <= 0)
		return -1;
	if (tag < 0 && (tag != MPIV_ANY_TAG || send))
		return -1;
	if (wild)
		f->wild = 1;
	else if (send)
		chan_add(f, &f->fine, r, peer, c, tag, 1);
	else
		chan_add(f, &f->fine, peer, r, c, tag, -1);
	chan_add(f, &f->coarse, -1, send ? peer : r, c, -1, send ? 1 : -1);
	return 0;
}

/* Rank r's event ev makes a persistent request (send 1: a send). Returns 0, or -1 for one
 * whose starts cannot be counted (a wildcard) or that replaces a live one. */
static int tmpl_make(struct finder *f, int r, const struct mpiv_event *ev, int send)
{
	int32_t req = ev->reqs[0].req;
	int comm = tr_comms_id(&f->cm, r, ev->comm);
	struct req_state *e;

	if (req < 0 || req_live(f, r, req) || countable_peer(f, ev->peer) < 0 || ev->tag < 0 ||
	    comm < 0 || tr_comms_split(&f->cm, comm))
		return -1;
	e = tr_reqmap_put(&f->cur[r].reqs, req);
	e->tmpl.event = (int64_t)ev->index;
	e->tmpl.peer = ev->peer;
	e->tmpl.tag = ev->tag;
	e->tmpl.comm = ev->comm;
	e->tmpl.send = send;
	return 0;
}

/* Take rank r's next event into the counts. Returns 0, or -1 for an event a cut cannot pass:
 * one that makes a choice (a wildcard receive, another thread, ready sends), or one this file
 * does not follow (matched probes, one-sided calls, cancels, generalized requests,
 * intercommunicators, a request let go of while active). */
static int step(struct finder *f, int r)
{
	const struct mpiv_rank_trace *t = &f->ts->ranks[r];
	const struct mpiv_event *ev = mpiv_trace_event(t, f->cur[r].at);
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	unsigned flags = mpiv_call_flags(ev->call);
	uint32_t j;
	int c;

	f->cur[r].synced = -1;
	/* a partitioned send's message goes at a later call than its start: not counted */
	if (ev->thread != 0 || (ev->flags & MPIV_EV_INCOMPLETE) || (flags & MPIV_F_READY) ||
	    (flags & MPIV_F_PARTITIONED) ||
	    (kind == MPIV_KIND_SEND_INIT && (flags & MPIV_F_BUFFERED)))
		return -1;
	/* A buffered send completes at once, and its message occupies the attached buffer
	 * until it is received, maybe after a later buffered send of the rank needed room
	 * there: the count of messages does not see that. Only a collective every rank waits in
	 * for every other closes its segment, as after a wildcard receive (seek_sync_cut()):
	 * there every message sent before it has been received before any rank goes on, and
	 * each buffer is empty. */
	if (flags & MPIV_F_BUFFERED)
		f->wild = 1;
	switch (kind) {
	case MPIV_KIND_BUF_ATTACH:
		/* the buffer goes on into the next segment, empty (below); a second one attached
		 * is erroneous: the whole program says so */
		if (f->cur[r].attach)
			return -1;
		f->cur[r].attach = (size_t)f->cur[r].at + 1;
		break;
	case MPIV_KIND_BUF_DETACH:
		if (!f->cur[r].attach)
			return -1;
		f->cur[r].attach = 0;
		break;
	case MPIV_KIND_INIT:
	case MPIV_KIND_LOCAL:
	case MPIV_KIND_COMM_FREE:
		break;
	case MPIV_KIND_SEND:
	case MPIV_KIND_RECV:
		if (count_p2p(f, r, ev->peer, ev->tag, ev->comm, kind == MPIV_KIND_SEND))
			return -1;
		break;
	case MPIV_KIND_ISEND:
	case MPIV_KIND_IRECV:
		if (ev->nreqs != 1 ||
		    count_p2p(f, r, ev->peer, ev->tag, ev->comm, kind == MPIV_KIND_ISEND) ||
		    req_set(f, r, ev->reqs[0].req, 1))
			return -1;
		break;
	case MPIV_KIND_SENDRECV:
		if (count_p2p(f, r, ev->peer, ev->tag, ev->comm, 1) ||
		    count_p2p(f, r, ev->peer2, ev->tag2, ev->comm, 0))
			return -1;
		break;
	case MPIV_KIND_WAIT:
		/* an any-completion too: check's program completes there the requests the trace
		 * says it completed (doc/semantics.md 1.2); the others stay live */
		if (ev->npending > ev->nreqs)
			return -1;
		for (j = 0; j + ev->npending < ev->nreqs; j++)
			req_set(f, r, ev->reqs[j].req, 0);
		break;
	case MPIV_KIND_PROBE:
		/* it takes no message, and waits until one is there (an MPI_Iprobe that found
		 * nothing changes nothing); a wildcard one may find a later message than the
		 * run's, so its segment ends as a wildcard receive's does */
		if (ev->src == MPIV_NONE)
			break;
		if (ev->peer == MPIV_ANY_SOURCE || ev->tag == MPIV_ANY_TAG)
			f->wild = 1;
		else if (countable_peer(f, ev->peer) < 0 || ev->tag < 0)
			return -1;
		break;
	case MPIV_KIND_SEND_INIT:
	case MPIV_KIND_RECV_INIT:
		if (ev->nreqs != 1 || tmpl_make(f, r, ev, kind == MPIV_KIND_SEND_INIT))
			return -1;
		break;
	case MPIV_KIND_START:
		for (j = 0; j < ev->nreqs; j++) {
			int32_t req = ev->reqs[j].req;
			const struct tmpl *tm = tmpl_of(f, r, req);

			if (!tm || req_live(f, r, req) ||
			    count_p2p(f, r, tm->peer, tm->tag, tm->comm, tm->send) ||
			    req_set(f, r, req, 1))
				return -1;
		}
		break;
	case MPIV_KIND_REQUEST_FREE:
		/* an active request completes unobserved: nothing says when */
		for (j = 0; j < ev->nreqs; j++) {
			if (req_live(f, r, ev->reqs[j].req))
				return -1;
			if (tmpl_of(f, r, ev->reqs[j].req))
				tr_reqmap_del(&f->cur[r].reqs, ev->reqs[j].req);
		}
		break;
	case MPIV_KIND_COLL:
	case MPIV_KIND_ICOLL:
		c = tr_comms_id(&f->cm, r, ev->comm);
		if (ev->call == MPIV_CALL_Intercomm_create || c < 0 || tr_comms_split(&f->cm, c) ||
		    coll_enter(f, r, c))
			return -1;
		if (kind == MPIV_KIND_ICOLL &&
		    (ev->nreqs != 1 || req_set(f, r, ev->reqs[0].req, 1)))
			return -1;
		if (kind == MPIV_KIND_COLL && tr_coll_synchronises(ev->call) &&
		    f->comms_of.comms[c].n == f->ts->nranks)
			f->cur[r].synced = c;
		break;
	case MPIV_KIND_COMM_GROUP: {
		const struct mpiv_newcomm *nc = mpiv_trace_newcomm(t, ev->index);

		if (ev->call == MPIV_CALL_Intercomm_create_from_groups)
			return -1; /* both groups meet: as MPI_Intercomm_create above */
		if (!nc)
			break; /* not a member of the group: no effect */
		c = tr_comms_id(&f->cm, r, nc->id);
		if (c < 0 || tr_comms_split(&f->cm, c) || coll_enter(f, r, c))
			return -1;
		break;
	}
	default:
		return -1;
	}
	f->cur[r].at++;
	return 0;
}

/* How many collectives rank r entered on engine communicator c. */
static uint64_t colls_of(const struct finder *f, int c, int r)
{
	const struct eng_comm *cm = &f->comms_of.comms[c];
	int32_t i;

	for (i = 0; i < cm->n && f->coll[c].n; i++)
		if (cm->members[i] == r)
			return f->coll[c].n[i];
	return 0;
}

/* A cut after a wild segment: a wildcard receive may take any message that is there, so the
 * matching is no function of the calls, and a later message might be there. Right after the
 * k-th collective of every rank on one communicator of the whole world that synchronises
 * whatever the buffering, the same k for all, no rank goes on before every other has entered
 * it, every receive of its own matched: no receive before the cut can take a message sent
 * after it. There every request must be completed, every communicator's collectives even,
 * and each rank's messages on each communicator all received, by count (which receive took
 * which is the search's); so is every buffered message, and each attached buffer is empty
 * when its rank goes on. Returns 1 at a cut, 0 where there is none before some rank's
 * MPI_Finalize, -1 at an event no cut can pass. */
static int seek_sync_cut(struct finder *f)
{
	struct cursor *c0 = &f->cur[0];
	uint64_t k = 0;
	int r, c, ok;

	/* rank 0 to the next such collective, its communicator the one: the first will do, since
	 * the reductions settle the choices of a short stretch of wildcard receives where those
	 * of a long one may branch (a segment of one round of a master's is one path, of two may
	 * not be) */
	while (c0->at < c0->limit && c0->synced < 0)
		if (step(f, 0))
			return -1;
	if (c0->synced < 0)
		return 0;
	c = c0->synced;
	/* the first k that no rank is past */
	for (r = 0; r < f->ts->nranks; r++) {
		uint64_t n = colls_of(f, c, r) + (f->cur[r].synced != c);

		if (n > k)
			k = n;
	}
	for (;; k++) {
		for (r = 0; r < f->ts->nranks; r++) {
			struct cursor *cr = &f->cur[r];

			while (cr->at < cr->limit && colls_of(f, c, r) < k)
				if (step(f, r))
					return -1;
			if (colls_of(f, c, r) < k)
				return 0;
		}
		/* each rank's k-th one on c a blocking one that synchronises (not an
		 * MPI_Iallreduce, say) */
		ok = !f->coarse.live;
		for (r = 0; r < f->ts->nranks && ok; r++)
			ok = !f->cur[r].live && !f->cur[r].behind && f->cur[r].synced == c;
		if (ok)
			break;
	}
	/* what the fine counts owe is no debt now: every message of the segment was taken */
	chans_clear(&f->fine);
	for (r = 0; r < f->ts->nranks; r++)
		f->cur[r].owed = 0;
	f->wild = 0;
	return 1;
}

/* Move every rank to its goal, and on until none lags (after a wildcard receive, to the next
 * collective that synchronises the world: seek_sync_cut()). Returns 1 at a cut, 0 where there
 * is none before some rank's MPI_Finalize, -1 at an event no cut can pass. */
static int seek_cut(struct finder *f)
{
	int r, moved;

	do {
		moved = 0;
		for (r = 0; r < f->ts->nranks; r++) {
			struct cursor *c = &f->cur[r];

			while ((c->at < c->goal || lag(c) > 0) && c->at < c->limit) {
				if (step(f, r))
					return -1;
				if (f->wild)
					return seek_sync_cut(f);
				moved = 1;
			}
			if (lag(c) > 0)
				return 0;
		}
	} while (moved);
	return 1;
}

/* Each rank's MPI_Finalize, which every cut comes before. Returns 0, or -1 if a rank did not
 * end in one. */
static int find_limits(struct finder *f)
{
	int r;

	for (r = 0; r < f->ts->nranks; r++) {
		const struct mpiv_rank_trace *t = &f->ts->ranks[r];

		if (!t->nevents || t->absent ||
		    mpiv_call_kind(mpiv_trace_event(t, t->nevents - 1)->call) != MPIV_KIND_FINALIZE)
			return -1;
		f->cur[r].limit = t->nevents - 1;
	}
	return 0;
}

static void finder_release(struct finder *f)
{
	int r, c;

	for (r = 0; f->cur && r < f->ts->nranks; r++)
		tr_reqmap_release(&f->cur[r].reqs);
	free(f->cur);
	for (c = 0; f->coll && c < f->comms_of.ncomms; c++)
		free(f->coll[c].n);
	free(f->coll);
	chans_clear(&f->fine);
	chans_clear(&f->coarse);
	tr_comms_release(&f->cm);
	eng_prog_release(&f->comms_of);
}

/* Room in the arrays of a struct tr_cuts being filled. */
struct cuts_room {
	size_t at, first, tmpl;
};

/* The search for the cuts of a run, kept between tr_cuts_next() calls. */
struct tr_cut_finder {
	struct finder f;
	struct cuts_room room;
	size_t target; /* events a segment should have */
	size_t total;  /* events of the run */
};

/* Add the cut the cursors are at to cuts, with the persistent requests and the attached
 * buffer of each rank. */
static void add_cut(const struct finder *f, struct tr_cuts *cuts, struct cuts_room *room)
{
	size_t n = (size_t)f->ts->nranks, k = (size_t)(cuts->n - cuts->dropped) * n, i;
	int r;

	xgrow((void **)&cuts->at, &room->at, k + n, sizeof(*cuts->at));
	xgrow((void **)&cuts->first, &room->first, k + n + 1, sizeof(*cuts->first));
	for (r = 0; r < f->ts->nranks; r++) {
		const struct cursor *c = &f->cur[r];

		const struct req_state *e;

		cuts->at[k + (size_t)r] = c->at;
		for (i = 0; (e = tr_reqmap_next(&c->reqs, &i));) {
			if (e->tmpl.event < 0)
				continue;
			xgrow((void **)&cuts->tmpl, &room->tmpl, cuts->ntmpl + 1,
			      sizeof(*cuts->tmpl));
			cuts->tmpl[cuts->ntmpl].req = e->id;
			cuts->tmpl[cuts->ntmpl++].event = (uint32_t)e->tmpl.event;
		}
		if (c->attach) {
			xgrow((void **)&cuts->tmpl, &room->tmpl, cuts->ntmpl + 1,
			      sizeof(*cuts->tmpl));
			cuts->tmpl[cuts->ntmpl].req = TR_TMPL_BUFFER;
			cuts->tmpl[cuts->ntmpl++].event = (uint32_t)(c->attach - 1);
		}
		cuts->first[k + (size_t)r + 1] = cuts->ntmpl;
	}
	cuts->n++;
}

/* The search for more cuts is over: its memory freed. */
static void cuts_done(struct tr_cuts *cuts)
{
	if (cuts->finder) {
		finder_release(&cuts->finder->f);
		free(cuts->finder);
		cuts->finder = NULL;
	}
	cuts->done = 1;
}

int tr_cuts_start(const struct mpiv_traceset *ts, size_t target, struct tr_cuts *cuts)
{
	struct tr_cut_finder *cf;
	struct finder *f;
	struct mpiv_error err;
	int r;

	memset(cuts, 0, sizeof(*cuts));
	cuts->nranks = ts->nranks;
	cuts->first = xcalloc(1, sizeof(*cuts->first));
	cuts->done = 1;
	if (ts->nranks < 1 || !tr_all_finished(ts))
		return 0;
	/* a rank's threads make their calls in no order the trace gives: one's later call may
	 * take a message another's earlier one did in the run */
	for (r = 0; r < ts->nranks; r++)
		if (ts->ranks[r].threaded)
			return 0;
	cf = xcalloc(1, sizeof(*cf));
	cf->room.first = 1;
	cf->target = target;
	cuts->finder = cf;
	cuts->done = 0;
	f = &cf->f;
	f->ts = ts;
	mpiv_error_init(&err);
	f->comms_of.nranks = ts->nranks;
	if (tr_comms_build(ts, &f->comms_of, &f->cm, &err)) {
		cuts_done(cuts);
		return 0;
	}
	f->cur = xcalloc((size_t)ts->nranks, sizeof(*f->cur));
	for (r = 0; r < ts->nranks; r++)
		tr_reqmap_init(&f->cur[r].reqs, sizeof(struct req_state));
	f->coll = xcalloc((size_t)(f->comms_of.ncomms ? f->comms_of.ncomms : 1), sizeof(*f->coll));
	if (find_limits(f)) {
		cuts_done(cuts);
		return 0;
	}
	for (r = 0; r < ts->nranks; r++)
		cf->total += ts->ranks[r].nevents;
	return tr_cuts_next(cuts);
}

int tr_cuts_next(struct tr_cuts *cuts)
{
	struct tr_cut_finder *cf = cuts->finder;
	struct finder *f;
	int r, all_end = 1;

	if (!cf)
		return 0;
	f = &cf->f;
	for (r = 0; r < f->ts->nranks; r++) {
		struct cursor *c = &f->cur[r];
		/* each rank's share of the segment, by its share of the run */
		size_t share = (size_t)((double)cf->target * (double)f->ts->ranks[r].nevents /
					(double)cf->total) +
			       1;

		c->goal = c->limit - c->at > share ? c->at + share : c->limit;
	}
	if (seek_cut(f) <= 0) {
		cuts_done(cuts);
		return 0;
	}
	for (r = 0; r < f->ts->nranks; r++)
		if (f->cur[r].at < f->cur[r].limit)
			all_end = 0;
	if (all_end) { /* the last segment would hold only the MPI_Finalize calls */
		cuts_done(cuts);
		return 0;
	}
	add_cut(f, cuts, &cf->room);
	return 1;
}

int tr_cuts_find(const struct mpiv_traceset *ts, size_t target, struct tr_cuts *cuts)
{
	if (tr_cuts_start(ts, target, cuts))
		while (tr_cuts_next(cuts))
			;
	return cuts->n;
}

void tr_cuts_drop(struct tr_cuts *cuts, int j)
{
	size_t n = (size_t)cuts->nranks, m, held, base, i;

	if (j <= cuts->dropped)
		return;
	m = (size_t)(j - cuts->dropped);
	held = (size_t)(cuts->n - cuts->dropped);
	base = cuts->first[m * n];
	memmove(cuts->at, cuts->at + m * n, (held - m) * n * sizeof(*cuts->at));
	if (cuts->ntmpl) /* else tmpl may be NULL */
		memmove(cuts->tmpl, cuts->tmpl + base, (cuts->ntmpl - base) * sizeof(*cuts->tmpl));
	for (i = 0; i <= (held - m) * n; i++)
		cuts->first[i] = cuts->first[i + m * n] - base;
	cuts->ntmpl -= base;
	cuts->dropped = j;
}

void tr_cuts_release(struct tr_cuts *cuts)
{
	cuts_done(cuts);
	free(cuts->at);
	free(cuts->tmpl);
	free(cuts->first);
	memset(cuts, 0, sizeof(*cuts));
}

const struct tr_tmpl *tr_cuts_tmpl(const struct tr_cuts *cuts, int k, int r, size_t *ntmpl)
{
	size_t i = (size_t)(k - cuts->dropped) * (size_t)cuts->nranks + (size_t)r;

	*ntmpl = cuts->first[i + 1] - cuts->first[i];
	return *ntmpl ? cuts->tmpl + cuts->first[i] : NULL;
}

void tr_segment_bounds(const struct mpiv_traceset *ts, const struct tr_cuts *cuts, int j, int r,
		       size_t *from, size_t *to)
{
	size_t n = (size_t)ts->nranks;

	*from = j ? cuts->at[(size_t)(j - 1 - cuts->dropped) * n + (size_t)r] : 0;
	*to = j < cuts->n ? cuts->at[(size_t)(j - cuts->dropped) * n + (size_t)r] :
			    ts->ranks[r].nevents;
}

/* Each rank's span of segment j of cuts (cuts j - 1 and j held) into span[0..nranks). */
static void segment_spans(const struct mpiv_traceset *ts, const struct tr_cuts *cuts, int j,
			  struct tr_span *span)
{
	int r;

	for (r = 0; r < ts->nranks; r++) {
		span[r].ntmpl = 0;
		span[r].tmpl = j ? tr_cuts_tmpl(cuts, j - 1, r, &span[r].ntmpl) : NULL;
		tr_segment_bounds(ts, cuts, j, r, &span[r].from, &span[r].to);
	}
}

/* Every search of out on one segment's program: check's own pass, which must end with every
 * process done, no choice ever offered but one at a time, and no room missing for messages.
 * Returns 0, or -1 where the segment does not settle it. */
static int search_segment(struct eng_prog *prog, struct tr_segmented *out)
{
	int32_t *st = xmalloc(eng_state_bytes(prog));
	int m, rc = 0;

	for (m = 0; m < out->nmodes && !rc; m++) {
		long lead;

		eng_set_buffering(prog, tr_buffering(out->modes[m].mode), out->modes[m].bytes);
		prog->sync_colls = out->modes[m].sync_colls;
		lead = tr_forced_path(prog, st);
		if (st[ENG_ST_NCHOICES] > 0 || st[ENG_ST_OVERFLOW] || st[ENG_ST_ERROR] ||
		    !eng_all_done(prog, st))
			rc = -1;
		out->lead[m] += lead;
	}
	free(st);
	return rc;
}

/* One try of tr_check_segments() with the searches twins says. Returns 1 when decided, 0 when
 * not, -1 when a segment asks for the twins and twins is 0 (try again with them). The cuts
 * are found as the segments are checked, and each dropped once its segment is: what is held
 * is one segment, however many there are. */
static int check_segments(const struct mpiv_traceset *ts, size_t target,
			  const struct mpiv_buffering *given, int ngiven, size_t max_instrs,
			  int twins, struct tr_segmented *out)
{
	struct tr_opts topts = {tr_buffering(given[0].mode), given[0].bytes, 0, 0, max_instrs};
	struct tr_warn_pass *wp;
	struct mpiv_error err;
	struct tr_span *span;
	struct tr_cuts cuts;
	int j, r, rc = 1;

	if (!tr_cuts_start(ts, target, &cuts)) {
		tr_cuts_release(&cuts);
		return 0;
	}
	span = xcalloc((size_t)ts->nranks, sizeof(*span));
	wp = tr_warnings_begin(ts);
	out->twins = twins;
	out->nmodes = tr_searches(twins, given, ngiven, out->modes);
	memset(out->lead, 0, sizeof(out->lead));
	out->most = 0;
	for (j = 0; rc == 1; j++) {
		struct eng_prog prog;
		size_t events = 0;

		/* segment j ends at cut j, or at the end once no cut is left */
		if (j == cuts.n)
			tr_cuts_next(&cuts);
		if (j > cuts.n)
			break;
		mpiv_error_init(&err);
		/* a bad event, or too many instructions: the whole program's translation says
		 * which, as usual */
		segment_spans(ts, &cuts, j, span);
		if (tr_translate_spans(ts, &topts, span, &prog, &err)) {
			rc = 0;
			break;
		}
		if (!twins && tr_colls_partial(&prog))
			rc = -1;
		else if (search_segment(&prog, out))
			rc = 0;
		else
			tr_warnings_path(wp, &prog);
		eng_prog_release(&prog);
		for (r = 0; r < ts->nranks; r++)
			events += span[r].to - span[r].from;
		if (events > out->most)
			out->most = events;
		tr_cuts_drop(&cuts, j); /* segment j + 1 starts at cut j */
	}
	out->nwarns = tr_warnings_end(wp, &out->warns);
	if (rc != 1) {
		free(out->warns);
		out->warns = NULL;
		out->nwarns = 0;
	}
	out->nsegments = cuts.n + 1;
	free(span);
	tr_cuts_release(&cuts);
	return rc;
}

int tr_check_segments(const struct mpiv_traceset *ts, size_t target,
		      const struct mpiv_buffering *given, int ngiven, size_t max_instrs,
		      struct tr_segmented *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (ngiven < 1 || ngiven > TR_SEGMENT_MODES)
		return 0;
	rc = check_segments(ts, target, given, ngiven, max_instrs, 0, out);
	if (rc < 0)
		rc = check_segments(ts, target, given, ngiven, max_instrs, 1, out);
	return rc == 1;
}
