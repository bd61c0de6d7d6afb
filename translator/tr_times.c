/* Translator: what the times of a recorded run (record --timestamps) say of its messages, as
 * the message matching of an OTF2 analysis does. For each message the recorded path matched
 * (tr_warn.c), its send's entering time and the time its receive completed are compared: a
 * message received before it was sent means that the clocks of the two ranks' hosts disagree
 * (a warning, never an error: the run itself is what it is); a blocking send that took much
 * longer than its blocking receive waited for a receiver that came late. Warnings repeat for
 * every message between the same two call sites: each pair of sites is one warning, with how
 * many messages and the worst. */
#include <stdlib.h>
#include <string.h>

#include "tr_times.h"
#include "xalloc.h"

int32_t *tr_completions(const struct mpiv_rank_trace *t)
{
	int32_t *done = xmalloc((t->nevents ? t->nevents : 1) * sizeof(*done));
	int32_t *open = NULL; /* request id -> the receive that posted it, -1 */
	size_t cap = 0, i;
	uint32_t j;

	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *ev = &t->events[i];
		enum mpiv_kind k = mpiv_call_kind(ev->call);

		done[i] = -1;
		for (j = 0; j < ev->nreqs; j++) {
			int32_t id = ev->reqs[j].req;

			if (id < 0)
				continue;
			if ((size_t)id >= cap) {
				size_t old = cap;

				xgrow((void **)&open, &cap, (size_t)id + 1, sizeof(*open));
				memset(open + old, 0xff, (cap - old) * sizeof(*open));
			}
			if (k == MPIV_KIND_IRECV || k == MPIV_KIND_ISENDRECV)
				open[id] = (int32_t)i;
			else if (k == MPIV_KIND_WAIT && j + ev->npending < ev->nreqs &&
				 open[id] >= 0) {
				done[open[id]] = (int32_t)i;
				open[id] = -1;
			}
		}
	}
	free(open);
	return done;
}

void tr_times_init(struct tr_times *tt, const struct mpiv_traceset *ts)
{
	int r;

	memset(tt, 0, sizeof(*tt));
	tt->ts = ts;
	tt->done = xcalloc((size_t)(ts->nranks ? ts->nranks : 1), sizeof(*tt->done));
	for (r = 0; r < ts->nranks; r++)
		if (ts->ranks[r].clock != MPIV_CLOCK_NONE)
			tt->done[r] = tr_completions(&ts->ranks[r]);
}

/* The event that completed receive e of rank r (itself for a blocking one), -1 if unknown. */
static long completed_at(const struct tr_times *tt, int r, long e)
{
	enum mpiv_kind k = mpiv_call_kind(tt->ts->ranks[r].events[e].call);

	if (k == MPIV_KIND_RECV || k == MPIV_KIND_SENDRECV || k == MPIV_KIND_MRECV)
		return e;
	return k == MPIV_KIND_IRECV || k == MPIV_KIND_ISENDRECV ? tt->done[r][e] : -1;
}

/* Note one message of kind between rank's event and peer's peer_event, with ns (and
 * peer_ns): a new warning for a pair of call sites not seen with this kind, else one more
 * message of that one, the worst kept. */
static void note(struct tr_times *tt, enum tr_warn_kind kind, int rank, long event, int peer,
		 long peer_event, long long ns, long long peer_ns)
{
	const struct mpiv_traceset *ts = tt->ts;
	uint64_t site = ts->ranks[rank].events[event].site;
	uint64_t peer_site = ts->ranks[peer].events[peer_event].site;
	struct tr_warning *w;
	size_t i;

	for (i = 0; i < tt->n; i++) {
		w = &tt->w[i];
		if (w->kind == kind && w->rank == rank && w->peer == peer &&
		    ts->ranks[rank].events[w->event].site == site &&
		    ts->ranks[peer].events[w->peer_event].site == peer_site) {
			w->count++;
			if (ns > w->ns) {
				w->ns = ns;
				w->peer_ns = peer_ns;
			}
			return;
		}
	}
	xgrow((void **)&tt->w, &tt->cap, tt->n + 1, sizeof(*tt->w));
	w = &tt->w[tt->n++];
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->rank = rank;
	w->event = event;
	w->peer = peer;
	w->peer_event = peer_event;
	w->count = 1;
	w->ns = ns;
	w->peer_ns = peer_ns;
}

void tr_times_match(struct tr_times *tt, int recv, long recv_ev, int send, long send_ev)
{
	const struct mpiv_traceset *ts = tt->ts;
	const struct mpiv_rank_trace *rt = &ts->ranks[recv], *st = &ts->ranks[send];
	const struct mpiv_event *rev, *sev, *done;
	long d;
	int64_t late;

	if (!tt->done[recv] || !tt->done[send] || recv_ev < 0 || send_ev < 0 ||
	    (size_t)recv_ev >= rt->nevents || (size_t)send_ev >= st->nevents)
		return;
	d = completed_at(tt, recv, recv_ev);
	if (d < 0 || !rt->events[d].leave)
		return;
	rev = &rt->events[recv_ev];
	sev = &st->events[send_ev];
	done = &rt->events[d];
	/* received (the receive returned) before the send was even entered */
	late = mpiv_trace_ns_between(rt, done->leave, st, sev->enter);
	if (late > 0)
		note(tt, TR_WARN_RECV_BEFORE_SEND, recv, recv_ev, send, send_ev, late, 0);
	/* a blocking send that waited long for a blocking receive that did not */
	if (mpiv_call_kind(sev->call) == MPIV_KIND_SEND &&
	    mpiv_call_kind(rev->call) == MPIV_KIND_RECV && sev->leave && rev->leave &&
	    sev->leave - sev->enter >= TR_LONG_SEND_NS &&
	    sev->leave - sev->enter >= TR_LONG_SEND_RATIO * (rev->leave - rev->enter))
		note(tt, TR_WARN_LONG_SEND, send, send_ev, recv, recv_ev,
		     (long long)(sev->leave - sev->enter), (long long)(rev->leave - rev->enter));
}

size_t tr_times_finish(struct tr_times *tt, struct tr_warning **out)
{
	size_t n = tt->n;
	int r;

	for (r = 0; r < tt->ts->nranks; r++)
		free(tt->done[r]);
	free(tt->done);
	*out = tt->w;
	memset(tt, 0, sizeof(*tt));
	return n;
}
