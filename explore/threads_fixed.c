/* Whether a run whose ranks call MPI from several threads stands for every run (explore.h,
 * explore_threads_fixed()), or for every run that takes the same decisions, which verify
 * steers thread by thread (explore_threads_steered()). A run leaves nothing to steer when no
 * call is a decision and the calls of a rank that could meet the same message are ordered by
 * the program itself: every run makes the calls of this one and every receive takes the
 * message it took here, whatever the threads' timing. Where the only calls that leave a
 * choice are decisions that verify can steer (a thread's wildcard receive or probe, a
 * completion that chooses among requests its own thread made), each run that
 * takes them as this one did is this one, and verify's runs, steered to each of them, cover
 * every run.
 *
 * The order between a rank's threads is their program order joined by pthread_create and
 * pthread_join (doc/semantics.md 1.3), kept as a vector clock per thread: clock[t][u] is how
 * many of thread u's calls thread t is known to come after. A set of calls is ordered when
 * each comes after the one recorded before it (the recorded order agrees with the program's
 * wherever the program fixes one, so consecutive pairs are enough). A receive from
 * MPI_ANY_SOURCE can take any sender's message: steered to one sender, it still competes with
 * the rank's other receives on its communicator, so where a rank has one, all its receives
 * and probes on that communicator are one set.
 *
 * Alike messages (below) leave no choice to a run that stands for every run, whose model
 * holds every order of them; they do to verify's runs, whose models take which message a
 * receive got for an input, which steering cannot give. Where verify steers, every set must
 * be ordered.
 *
 * Calls in no order the program sets may still meet the same messages where those messages
 * are all alike: a channel (a sender, a receiver, a communicator and a tag) whose every
 * message has the same size and the same data (the sends' digests) gives each receive the
 * same data and the same status whichever of them it takes, so no thread can act on which
 * it took, and every run still makes this one's calls. The model of the run holds every
 * order of them. Communicators are the engine's (tr_comms_build()), one id on every rank. */
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "steer.h"
#include "trace_threads.h"
#include "tr_comm.h"
#include "tr_reqmap.h"
#include "xalloc.h"

/* More threads than this in one rank: not ordered here (the clocks grow as its square). */
#define FIXED_MAX_THREADS 1024

/* The sets of calls that must be ordered, each named by a key. */
enum chan_role {
	CH_SEND = 1,	 /* sends to peer with tag on comm */
	CH_SEND_ANY_TAG, /* sends to peer on comm, which peer receives with MPI_ANY_TAG */
	CH_RECV,	 /* receives and probes from peer with tag on comm */
	CH_RECV_ANY_TAG, /* receives and probes from peer on comm, some with MPI_ANY_TAG */
	CH_COLL,	 /* collectives on comm */
	CH_RECV_WILD,	 /* receives and probes on comm, some from MPI_ANY_SOURCE */
	CH_ANY_TAG_MARK, /* not a set: rank tag receives from peer on comm with MPI_ANY_TAG */
	CH_ANY_SRC_MARK, /* not a set: rank peer receives on comm from MPI_ANY_SOURCE */
	/* not sets: what the messages from peer to `to` on comm carry, with tag (CH_DATA), or
	 * with any tag (CH_DATA_ANY_TAG, tag 0) */
	CH_DATA,
	CH_DATA_ANY_TAG,
};

struct chan_key {
	int32_t role, comm, peer, tag, to;
};

/* A set's last call so far: its thread, that thread's clock at it, its event. A channel's
 * data (CH_DATA, CH_DATA_ANY_TAG): its first message's size, digest and tag, and whether
 * another differs (or one's digest is not known). */
struct chan {
	struct chan_key k;
	int used;
	int32_t thread;
	uint32_t clock;
	long event;
	uint64_t bytes;
	uint32_t data;
	int32_t tag;
	int mixed;
};

struct chans {
	struct chan *slot;
	size_t cap, n; /* cap a power of 2, or 0 */
};

static size_t chan_hash(const struct chan_key *k)
{
	uint64_t h = (uint32_t)k->role;

	h = h * 0x9e3779b97f4a7c15u ^ (uint32_t)k->comm;
	h = h * 0x9e3779b97f4a7c15u ^ (uint32_t)k->peer;
	h = h * 0x9e3779b97f4a7c15u ^ (uint32_t)k->tag;
	h = h * 0x9e3779b97f4a7c15u ^ (uint32_t)k->to;
	return (size_t)(h ^ h >> 29);
}

static struct chan *chan_find(struct chans *c, const struct chan_key *k, int add)
{
	size_t i;

	if (add && 2 * (c->n + 1) > c->cap) {
		struct chans bigger = {xcalloc(c->cap ? 2 * c->cap : 64, sizeof(struct chan)),
				       c->cap ? 2 * c->cap : 64, 0};

		for (i = 0; i < c->cap; i++)
			if (c->slot[i].used)
				*chan_find(&bigger, &c->slot[i].k, 1) = c->slot[i];
		free(c->slot);
		*c = bigger;
	}
	if (!c->cap)
		return NULL;
	for (i = chan_hash(k) & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
		struct chan *s = &c->slot[i];

		if (s->used && !memcmp(&s->k, k, sizeof(*k)))
			return s;
		if (!s->used) {
			if (!add)
				return NULL;
			s->used = 1;
			s->k = *k;
			s->thread = -1;
			c->n++;
			return s;
		}
	}
}

/* A persistent request's envelope, from the call that made it. */
struct init_env {
	int32_t id; /* tr_reqmap's */
	int32_t kind, comm, peer, tag;
};

/* One rank's walk. */
struct walk {
	const struct mpiv_traceset *ts;
	int rank;
	const struct tr_comms *cm;
	/* CH_ANY_TAG_MARK, CH_ANY_SRC_MARK, CH_DATA and CH_DATA_ANY_TAG keys of every rank */
	struct chans *marks;
	int steered; /* decisions verify steers are no choice (explore_threads_steered()) */
	struct chans sets;
	struct tr_reqmap inits;
	uint32_t *clock; /* nthreads x nthreads */
	int32_t nthreads;
	char *why;
	size_t size;
};

static int any_tag_receiver(struct walk *w, int32_t receiver, int32_t sender, int32_t comm)
{
	struct chan_key k = {CH_ANY_TAG_MARK, comm, sender, receiver, 0};

	return chan_find(w->marks, &k, 0) != NULL;
}

/* Whether every message from `from` to `to` on comm with tag (any tag: CH_DATA_ANY_TAG) is
 * alike: the same size, data and tag. */
static int messages_alike(const struct walk *w, int32_t role, int32_t comm, int32_t from,
			  int32_t to, int32_t tag)
{
	struct chan_key k = {role, comm, from, role == CH_DATA ? tag : 0, to};
	const struct chan *c = chan_find(w->marks, &k, 0);

	return c && !c->mixed;
}

/* Whether the calls of set k (role, comm, peer, tag) of this rank may meet the same messages
 * in any order: those messages are all alike. */
static int set_alike(const struct walk *w, int32_t role, int32_t comm, int32_t peer, int32_t tag)
{
	switch (role) {
	case CH_SEND:
		return messages_alike(w, CH_DATA, comm, w->rank, peer, tag);
	case CH_SEND_ANY_TAG:
		return messages_alike(w, CH_DATA_ANY_TAG, comm, w->rank, peer, 0);
	case CH_RECV:
		return messages_alike(w, CH_DATA, comm, peer, w->rank, tag);
	case CH_RECV_ANY_TAG:
		return messages_alike(w, CH_DATA_ANY_TAG, comm, peer, w->rank, 0);
	default:
		return 0;
	}
}

static const char *const role_words[] = {
	[CH_SEND] = "send to rank %d with tag %d",
	[CH_SEND_ANY_TAG] = "send to rank %d, which receives with MPI_ANY_TAG,",
	[CH_RECV] = "receive from rank %d with tag %d",
	[CH_RECV_ANY_TAG] = "receive from rank %d, with MPI_ANY_TAG among their tags,",
	[CH_COLL] = "make collective calls",
	[CH_RECV_WILD] = "receive, some from MPI_ANY_SOURCE,",
};

/* Call e of thread t joins the set k: it must come after the set's last call. Returns 0, or
 * -1 with why filled. */
static int join(struct walk *w, int32_t role, int32_t comm, int32_t peer, int32_t tag, int32_t t,
		long e)
{
	struct chan_key k = {role, comm, peer, tag, 0};
	struct chan *s = chan_find(&w->sets, &k, 1);
	uint32_t now = w->clock[(size_t)t * (size_t)w->nthreads + (size_t)t];

	if (s->thread >= 0 && s->thread != t &&
	    w->clock[(size_t)t * (size_t)w->nthreads + (size_t)s->thread] < s->clock &&
	    (w->steered || !set_alike(w, role, comm, peer, tag))) {
		char what[128], a[512], b[512];

		snprintf(what, sizeof(what), role_words[role], peer, tag);
		explore_event_where(w->ts, w->rank, s->event, a, sizeof(a));
		explore_event_where(w->ts, w->rank, e, b, sizeof(b));
		snprintf(w->why, w->size,
			 "rank %d's threads %d and %d %s on one communicator in no order the "
			 "program sets (%s; %s), on messages not all alike: which message each "
			 "takes is the threads' timing",
			 w->rank, s->thread, t, what, a, b);
		return -1;
	}
	s->thread = t;
	s->clock = now;
	s->event = e;
	return 0;
}

static int join_send(struct walk *w, int32_t comm, int32_t peer, int32_t tag, int32_t t, long e)
{
	if (peer < 0) /* MPI_PROC_NULL */
		return 0;
	if (join(w, CH_SEND, comm, peer, tag, t, e))
		return -1;
	if (any_tag_receiver(w, peer, w->rank, comm))
		return join(w, CH_SEND_ANY_TAG, comm, peer, 0, t, e);
	return 0;
}

static int join_recv(struct walk *w, int32_t comm, int32_t peer, int32_t tag, int32_t t, long e)
{
	struct chan_key wild = {CH_ANY_SRC_MARK, comm, w->rank, 0, 0};

	if (peer == MPIV_PROC_NULL)
		return 0;
	if (peer == MPIV_ANY_SOURCE && !w->steered) {
		char a[512];

		explore_event_where(w->ts, w->rank, e, a, sizeof(a));
		snprintf(w->why, w->size, "rank %d's %s takes any sender's message", w->rank, a);
		return -1;
	}
	if (chan_find(w->marks, &wild, 0) && join(w, CH_RECV_WILD, comm, 0, 0, t, e))
		return -1;
	if (peer == MPIV_ANY_SOURCE)
		return 0;
	if (tag != MPIV_ANY_TAG && join(w, CH_RECV, comm, peer, tag, t, e))
		return -1;
	if (tag == MPIV_ANY_TAG || any_tag_receiver(w, w->rank, peer, comm))
		return join(w, CH_RECV_ANY_TAG, comm, peer, 0, t, e);
	return 0;
}

/* The engine communicator of rank r's communicator id comm; -1 - comm for one check does
 * not know (apart from every known one; it is refused where the run is checked). */
static int32_t engine_comm(const struct tr_comms *cm, int r, int32_t comm)
{
	int32_t c = tr_comms_id(cm, r, comm);

	return c >= 0 ? c : -1 - comm;
}

/* The sets call e of thread t joins. Returns 0, or -1 with why filled. */
static int call_joins(struct walk *w, const struct mpiv_event *ev, int32_t t, long e)
{
	int32_t comm = engine_comm(w->cm, w->rank, ev->comm);
	struct init_env *init;
	uint32_t i;

	switch (mpiv_call_kind(ev->call)) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_ISEND:
		return join_send(w, comm, ev->peer, ev->tag, t, e);
	case MPIV_KIND_RECV:
	case MPIV_KIND_IRECV:
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		return join_recv(w, comm, ev->peer, ev->tag, t, e);
	case MPIV_KIND_SENDRECV:
	case MPIV_KIND_ISENDRECV:
		return join_send(w, comm, ev->peer, ev->tag, t, e) ||
		       join_recv(w, comm, ev->peer2, ev->tag2, t, e);
	case MPIV_KIND_SEND_INIT:
	case MPIV_KIND_RECV_INIT:
	case MPIV_KIND_COLL_INIT:
		if (ev->nreqs && ev->reqs[0].req >= 0) {
			init = tr_reqmap_put(&w->inits, ev->reqs[0].req);
			init->kind = mpiv_call_kind(ev->call);
			init->comm = comm;
			init->peer = ev->peer;
			init->tag = ev->tag;
		}
		return 0;
	case MPIV_KIND_START:
		for (i = 0; i < ev->nreqs; i++) {
			int rc = 0;

			if (ev->reqs[i].req < 0 ||
			    !(init = tr_reqmap_get(&w->inits, ev->reqs[i].req)))
				continue;
			if (init->kind == MPIV_KIND_SEND_INIT)
				rc = join_send(w, init->comm, init->peer, init->tag, t, e);
			else if (init->kind == MPIV_KIND_RECV_INIT)
				rc = join_recv(w, init->comm, init->peer, init->tag, t, e);
			else
				rc = join(w, CH_COLL, init->comm, 0, 0, t, e);
			if (rc)
				return rc;
		}
		return 0;
	case MPIV_KIND_COLL:
	case MPIV_KIND_ICOLL:
	case MPIV_KIND_COMM_GROUP:
	case MPIV_KIND_WIN_CREATE:
		return join(w, CH_COLL, comm, 0, 0, t, e);
	default:
		return 0;
	}
}

/* Thread u comes after everything thread t came after so far. */
static void clock_merge(struct walk *w, int32_t u, int32_t t)
{
	uint32_t *cu = w->clock + (size_t)u * (size_t)w->nthreads;
	const uint32_t *ct = w->clock + (size_t)t * (size_t)w->nthreads;
	int32_t i;

	for (i = 0; i < w->nthreads; i++)
		if (ct[i] > cu[i])
			cu[i] = ct[i];
}

/* Whether decision ev of the rank can be steered (w->steered): by its thread's path, which the
 * trace must hold; a completion by its requests' numbers among its thread's (base/steer.h),
 * which are the same in every run where the thread made them all. */
static int steerable(const struct walk *w, const struct mpiv_event *ev)
{
	const struct mpiv_rank_trace *t = &w->ts->ranks[w->rank];
	char path[MPIV_STEER_PATH];
	int32_t nth;
	uint32_t j;

	if (!w->steered || mpiv_thread_path(t, ev->thread, path, sizeof(path)) < 0)
		return 0;
	for (j = 0; mpiv_event_decision(ev) == MPIV_DEC_COMPLETION && j < ev->nreqs; j++)
		if (mpiv_thread_request(t, ev->reqs[j].req, &nth) != ev->thread)
			return 0;
	return 1;
}

static int walk_rank(struct walk *w)
{
	const struct mpiv_rank_trace *rt = &w->ts->ranks[w->rank];
	size_t e, op = 0;
	int32_t most = 0;

	for (e = 0; e < rt->nevents; e++) {
		const struct mpiv_event *ev = mpiv_trace_event(rt, e);

		if (ev->thread > most)
			most = ev->thread;
	}
	for (op = 0; op < rt->nthread_ops; op++) {
		if (rt->thread_ops[op].self > most)
			most = rt->thread_ops[op].self;
		if (rt->thread_ops[op].other > most)
			most = rt->thread_ops[op].other;
	}
	if (most >= FIXED_MAX_THREADS) {
		snprintf(w->why, w->size, "rank %d has more than %d threads", w->rank,
			 FIXED_MAX_THREADS);
		return -1;
	}
	w->nthreads = most + 1;
	w->clock = xcalloc((size_t)w->nthreads * (size_t)w->nthreads, sizeof(*w->clock));
	for (e = 0, op = 0; e < rt->nevents; e++) {
		const struct mpiv_event *ev = mpiv_trace_event(rt, e);
		int32_t t = ev->thread;

		for (; op < rt->nthread_ops && rt->thread_ops[op].before <= e; op++) {
			const struct mpiv_thread_op *o = &rt->thread_ops[op];

			if (o->op == MPIV_THREAD_CREATE)
				clock_merge(w, o->other, o->self);
			else if (o->op == MPIV_THREAD_JOIN)
				clock_merge(w, o->self, o->other);
		}
		if (mpiv_event_decision(ev) != MPIV_DEC_NONE && !steerable(w, ev)) {
			char a[512], path[MPIV_STEER_PATH];

			explore_event_where(w->ts, w->rank, (long)e, a, sizeof(a));
			snprintf(w->why, w->size, "rank %d's %s %s%s", w->rank, a,
				 mpiv_event_decision(ev) == MPIV_DEC_SOURCE ?
					 "takes any sender's message" :
					 "completes one of several requests",
				 !w->steered ?
					 "" :
				 mpiv_thread_path(rt, t, path, sizeof(path)) < 0 ?
					 ", in a thread whose creation the trace does not hold" :
					 ", of requests another thread made");
			return -1;
		}
		w->clock[(size_t)t * (size_t)w->nthreads + (size_t)t]++;
		if (call_joins(w, ev, t, (long)e))
			return -1;
	}
	return 0;
}

/* A message from `from` to `to` on comm with tag, of bytes bytes and digest data (0: not
 * known, unless it is empty), joins what its channels carry. */
static void data_seen(struct chans *marks, int32_t comm, int32_t from, int32_t to, int32_t tag,
		      uint64_t bytes, uint32_t data)
{
	int32_t role;

	if (to < 0) /* MPI_PROC_NULL */
		return;
	for (role = CH_DATA; role <= CH_DATA_ANY_TAG; role++) {
		struct chan_key k = {role, comm, from, role == CH_DATA ? tag : 0, to};
		struct chan *c = chan_find(marks, &k, 1);

		if (c->thread < 0) { /* its first message */
			c->thread = 0;
			c->bytes = bytes;
			c->data = data;
			c->tag = tag;
			c->mixed = bytes && !data;
		} else if (c->bytes != bytes || c->data != data || c->tag != tag) {
			c->mixed = 1;
		}
	}
}

/* Every rank's receives and probes that name a source but MPI_ANY_TAG, as marks, and what
 * every channel's messages carry. A persistent send, or a send-receive's send, makes its
 * channel one of messages not all alike (their sizes are not kept apart from the receive's). */
static void mark_channels(const struct mpiv_traceset *ts, const struct tr_comms *cm,
			  struct chans *marks)
{
	int r;
	size_t e;

	for (r = 0; r < ts->nranks; r++)
		for (e = 0; e < ts->ranks[r].nevents; e++) {
			const struct mpiv_event *ev = mpiv_trace_event(&ts->ranks[r], e);
			enum mpiv_kind kind = mpiv_call_kind(ev->call);
			int32_t comm = engine_comm(cm, r, ev->comm), peer = ev->peer, tag = ev->tag;

			if (kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND)
				data_seen(marks, comm, r, peer, tag, ev->bytes, ev->data);
			if (kind == MPIV_KIND_SEND_INIT)
				data_seen(marks, comm, r, peer, tag, 1, 0);
			if (kind == MPIV_KIND_SENDRECV || kind == MPIV_KIND_ISENDRECV) {
				data_seen(marks, comm, r, peer, tag, 1, 0);
				peer = ev->peer2;
				tag = ev->tag2;
			} else if (kind != MPIV_KIND_RECV && kind != MPIV_KIND_IRECV &&
				   kind != MPIV_KIND_PROBE && kind != MPIV_KIND_MPROBE &&
				   kind != MPIV_KIND_RECV_INIT) {
				continue;
			}
			if (tag == MPIV_ANY_TAG && peer >= 0) {
				struct chan_key k = {CH_ANY_TAG_MARK, comm, peer, r, 0};

				chan_find(marks, &k, 1);
			}
			if (peer == MPIV_ANY_SOURCE) {
				struct chan_key k = {CH_ANY_SRC_MARK, comm, r, 0, 0};

				chan_find(marks, &k, 1);
			}
		}
}

/* explore_threads_fixed() and explore_threads_steered(). */
static int threads_fixed(const struct mpiv_traceset *ts, int steered, char *why, size_t size)
{
	struct chans marks = {NULL, 0, 0};
	struct eng_prog prog;
	struct tr_comms cm;
	struct mpiv_error err;
	int r, rc = 0;

	memset(&prog, 0, sizeof(prog));
	prog.nranks = ts->nranks;
	mpiv_error_init(&err);
	if (tr_comms_build(ts, &prog, &cm, &err) < 0) {
		snprintf(why, size, "%s", err.text);
		rc = -1;
	}
	if (!rc)
		mark_channels(ts, &cm, &marks);
	for (r = 0; r < ts->nranks && !rc; r++) {
		struct walk w = {ts,  r,    &cm, &marks, steered, {NULL, 0, 0},
				 {0}, NULL, 0,	 why,	 size};

		tr_reqmap_init(&w.inits, sizeof(struct init_env));
		rc = walk_rank(&w);
		tr_reqmap_release(&w.inits);
		free(w.sets.slot);
		free(w.clock);
	}
	free(marks.slot);
	tr_comms_release(&cm);
	eng_prog_release(&prog);
	return !rc;
}

int explore_threads_fixed(const struct mpiv_traceset *ts, char *why, size_t size)
{
	return threads_fixed(ts, 0, why, size);
}

int explore_threads_steered(const struct mpiv_traceset *ts, char *why, size_t size)
{
	return threads_fixed(ts, 1, why, size);
}
