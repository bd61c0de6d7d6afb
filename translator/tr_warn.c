/* Translator, warnings: what the recorded run did that is no deadlock but probably a bug
 * (doc/semantics.md 9.5): messages sent and never received, receives shorter than their
 * message, requests never completed, communicators never freed, and what the times of a trace
 * with times say of its messages (tr_times.c). The recorded path is replayed on the engine
 * with every wildcard receive taking the source the run recorded, so that matches follow
 * MPI's ordering rules exactly as in the run. */
#include <stdlib.h>
#include <string.h>

#include "tr_reqmap.h"
#include "translate.h"
#include "tr_times.h"
#include "xalloc.h"

static int finished(const struct mpiv_traceset *ts, int r);

struct tr_warn_pass {
	struct tr_warning *w;
	size_t n, cap;
	const struct eng_prog *prog; /* the program whose recorded path is being walked */
	const struct mpiv_traceset *ts;
	struct tr_times times; /* the messages' times */
};

static void add(struct tr_warn_pass *l, const struct tr_warning *w)
{
	xgrow((void **)&l->w, &l->cap, l->n + 1, sizeof(*l->w));
	l->w[l->n] = *w;
	if (!l->w[l->n].count)
		l->w[l->n].count = 1;
	l->n++;
}

/* A warning of kind about rank r's own event (what made a request or a communicator), with
 * peer_event another of its events, or -1. */
static void add_own(struct tr_warn_pass *l, enum tr_warn_kind kind, int r, long event,
		    long peer_event)
{
	struct tr_warning w;

	memset(&w, 0, sizeof(w));
	w.kind = kind;
	w.rank = r;
	w.event = event;
	w.peer = -1;
	w.peer_event = peer_event;
	add(l, &w);
}

/* Does event ev's own buffer size say how much it can receive? (A matched probe has no
 * buffer; MPI_Sendrecv records the size of its send.) */
static int has_recv_bytes(const struct mpiv_event *ev)
{
	enum mpiv_kind k = mpiv_call_kind(ev->call);

	return k == MPIV_KIND_RECV || k == MPIV_KIND_IRECV;
}

static void on_match(void *ctx, int d, int ri, const struct eng_instr *rin, int s, int si,
		     const struct eng_instr *sin)
{
	struct tr_warn_pass *l = ctx;
	const struct mpiv_rank_trace *t = &l->ts->ranks[l->prog->proc_rank[d]];
	struct tr_warning w;

	tr_times_match(&l->times, l->prog->proc_rank[d], rin->ev, l->prog->proc_rank[s], sin->ev);

	/* a receive of 0 bytes is one whose size a hand-written trace left out: a real one
	 * that took a message would have failed the run (MPI_ERR_TRUNCATE); the sizes first, the
	 * event only then (a trace kept as records decodes it) */
	if (rin->bytes <= 0 || sin->bytes <= rin->bytes || rin->ev < 0 ||
	    (size_t)rin->ev >= t->nevents || !has_recv_bytes(mpiv_trace_event(t, (size_t)rin->ev)))
		return;
	memset(&w, 0, sizeof(w));
	w.kind = TR_WARN_TRUNCATED;
	w.rank = l->prog->proc_rank[d];
	w.event = rin->ev;
	w.peer = l->prog->proc_rank[s];
	w.peer_event = sin->ev;
	w.bytes = rin->bytes;
	w.peer_bytes = sin->bytes;
	add(l, &w);
}

/* The recorded path, with every send completing as it did in the run; its end state's
 * messages in flight were never received. */
static void recorded_path(struct tr_warn_pass *l)
{
	const struct eng_prog *q = l->prog;
	struct eng_observer obs = {l, on_match, NULL, NULL, NULL, NULL};
	int32_t *st = xmalloc(eng_state_bytes(q));
	int i;

	tr_recorded_path(q, l->ts, ENG_BUF_INFINITE, 0, 0, &obs, st);
	/* a path that deadlocks leaves messages behind because of the deadlock, which check
	 * reports as such; one that stopped leaves those its rank might have received later */
	for (i = 0; eng_all_done(q, st) && i < eng_unreceived(q, st); i++) {
		struct tr_warning w;
		int src, si, dst;

		eng_message(q, st, i, &src, &si, &dst);
		if (!finished(l->ts, dst))
			continue;
		memset(&w, 0, sizeof(w));
		w.kind = TR_WARN_UNRECEIVED;
		w.rank = q->proc_rank[src];
		w.event = q->ins[src][si].ev;
		w.peer = dst;
		w.peer_event = -1;
		w.bytes = q->ins[src][si].bytes;
		add(l, &w);
	}
	free(st);
}

/* Did rank r finish? (Only then is what it left undone a leak rather than the cut.) */
static int finished(const struct mpiv_traceset *ts, int r)
{
	struct tr_stop s;

	tr_stop_of(ts, r, &s);
	return s.kind == TR_FINISHED;
}

/* An MPI_Comm_free or MPI_Comm_disconnect of the trace: its event and the communicator. */
struct comm_free {
	size_t event;
	int32_t comm;
};

/* Communicators a rank that finished got and never freed (MPI_Comm_free, Comm_disconnect)
 * after it got them, of the frees[0..nfrees) it made. */
static void unfreed_comms(struct tr_warn_pass *l, int r, const struct comm_free *frees,
			  size_t nfrees)
{
	const struct mpiv_rank_trace *t = &l->ts->ranks[r];
	size_t k, i;

	for (k = 0; k < t->ncomms; k++) {
		const struct mpiv_newcomm *nc = &t->comms[k];

		for (i = 0; i < nfrees && !(frees[i].comm == nc->id && frees[i].event > nc->event);
		     i++)
			;
		if (i == nfrees)
			add_own(l, TR_WARN_COMM_LEAK, r, nc->event, -1);
	}
}

/* A request active at the end of a rank's trace: its id, and the event that made it active. */
struct made_req {
	int32_t id;
	long event;
};

static int by_id(const void *a, const void *b)
{
	int32_t x = ((const struct made_req *)a)->id, y = ((const struct made_req *)b)->id;

	return (x > y) - (x < y);
}

static int by_event(const void *a, const void *b)
{
	long x = ((const struct made_req *)a)->event, y = ((const struct made_req *)b)->event;

	return (x > y) - (x < y);
}

/* The requests of made still pending at rank r's MPI_Comm_disconnect `event` of communicator
 * comm that were made on it: warnings, in the order of the events that made them. */
static void pending_at_disconnect(struct tr_warn_pass *l, int r, struct tr_reqmap *made, long event,
				  int32_t comm)
{
	const struct mpiv_rank_trace *t = &l->ts->ranks[r];
	struct made_req *m, *on = NULL;
	size_t at = 0, n = 0, cap = 0, i;

	while ((m = tr_reqmap_next(made, &at)) != NULL)
		if (mpiv_trace_event(t, (size_t)m->event)->comm == comm) {
			xgrow((void **)&on, &cap, n + 1, sizeof(*on));
			on[n++] = *m;
		}
	qsort(on, n, sizeof(*on), by_event);
	for (i = 0; i < n; i++)
		add_own(l, TR_WARN_DISCONNECT_PENDING, r, on[i].event, event);
	free(on);
}

/* Requests a rank that finished made and never completed, and communicators it never freed;
 * requests any rank left pending on a communicator it disconnected: followed in its trace, in
 * one pass. */
static void leaks(struct tr_warn_pass *l, int r)
{
	const struct mpiv_rank_trace *t = &l->ts->ranks[r];
	/* the active requests: id -> the event that made it active (a table, not an array by
	 * id: ids are the trace's, which a damaged file may make huge) */
	struct tr_reqmap made;
	struct made_req *m, *left = NULL;
	struct comm_free *frees = NULL;
	size_t nfrees = 0, capfrees = 0, i, at = 0, nleft = 0;
	int32_t id;
	uint32_t j;

	int done = finished(l->ts, r);
	int requests = (t->kinds & (1ULL << MPIV_KIND_ISEND | 1ULL << MPIV_KIND_IRECV |
				    1ULL << MPIV_KIND_ICOLL | 1ULL << MPIV_KIND_ISENDRECV |
				    1ULL << MPIV_KIND_MRECV | 1ULL << MPIV_KIND_START)) != 0;

	/* nothing to follow (a pass that decodes every event of a long trace): no request and
	 * no communicator to free, or, for a rank that did not finish (only one that did is
	 * held to complete and free everything), no request on a communicator it made */
	if (done ? !requests && !t->ncomms : !requests || !t->ncomms)
		return;
	tr_reqmap_init(&made, sizeof(struct made_req));
	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);
		enum mpiv_kind k = mpiv_call_kind(ev->call);
		uint32_t ndone = ev->nreqs - (ev->npending <= ev->nreqs ? ev->npending : ev->nreqs);

		if (mpiv_call_frees_comm(ev->call) && t->ncomms) {
			xgrow((void **)&frees, &capfrees, nfrees + 1, sizeof(*frees));
			frees[nfrees].event = i;
			frees[nfrees++].comm = ev->comm;
		}
		if (ev->call == MPIV_CALL_Comm_disconnect) {
			pending_at_disconnect(l, r, &made, (long)i, ev->comm);
			ev = mpiv_trace_event(t, i); /* the walk may have decoded others */
		}
		for (j = 0; j < ev->nreqs; j++) {
			id = ev->reqs[j].req;
			if (id < 0)
				continue;
			switch (k) {
			case MPIV_KIND_ISEND:
			case MPIV_KIND_IRECV:
			case MPIV_KIND_ISENDRECV:
			case MPIV_KIND_ICOLL:
			case MPIV_KIND_MRECV:
			case MPIV_KIND_START:
				m = tr_reqmap_put(&made, id);
				m->event = (long)i;
				break;
			case MPIV_KIND_WAIT:
				if (j < ndone)
					tr_reqmap_del(&made, id);
				break;
			case MPIV_KIND_REQUEST_FREE:
				/* completes on its own, unobserved: allowed */
				tr_reqmap_del(&made, id);
				break;
			default:
				break;
			}
		}
	}
	/* by request id, as the program made them */
	left = xmalloc((made.n ? made.n : 1) * sizeof(*left));
	while ((m = tr_reqmap_next(&made, &at)) != NULL)
		left[nleft++] = *m;
	qsort(left, nleft, sizeof(*left), by_id);
	for (i = 0; i < nleft && done; i++)
		add_own(l, TR_WARN_UNCOMPLETED, r, left[i].event, -1);
	if (done)
		unfreed_comms(l, r, frees, nfrees);
	tr_reqmap_release(&made);
	free(left);
	free(frees);
}

struct tr_warn_pass *tr_warnings_begin(const struct mpiv_traceset *ts)
{
	struct tr_warn_pass *l = xcalloc(1, sizeof(*l));

	l->ts = ts;
	tr_times_init(&l->times, ts);
	return l;
}

void tr_warnings_path(struct tr_warn_pass *l, const struct eng_prog *prog)
{
	l->prog = prog;
	recorded_path(l);
	l->prog = NULL;
}

int tr_warnings_end(struct tr_warn_pass *l, struct tr_warning **out)
{
	struct tr_warning *times;
	size_t i, n;
	int r;

	n = tr_times_finish(&l->times, &times);
	for (i = 0; i < n; i++)
		add(l, &times[i]);
	free(times);
	for (r = 0; r < l->ts->nranks; r++)
		leaks(l, r);
	*out = l->w;
	n = l->n;
	free(l);
	return (int)n;
}

int tr_warnings(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		struct tr_warning **out)
{
	struct tr_warn_pass *l = tr_warnings_begin(ts);

	tr_warnings_path(l, prog);
	return tr_warnings_end(l, out);
}
