/* Who waits for whom in a hung run, from each rank's last calls (window_waits.h). A rank's
 * blocked call says whom it waits for: a send or receive its peer, a send-receive both, a
 * completion call the peers of the calls in the window that made its requests, a collective
 * on MPI_COMM_WORLD the ranks not in a collective themselves. A window cannot say more than
 * it holds: a request, or a communicator, made before it is said to be unknown, never
 * guessed. */
#include <stdlib.h>
#include <string.h>

#include "report_group.h"
#include "window_waits.h"
#include "xalloc.h"

enum ww_state {
	WW_UNKNOWN,  /* the window does not say whom it waits for (why: why) */
	WW_RUNNING,  /* not in a blocking call: its last call returned */
	WW_BLOCKED,  /* in a blocking call: waits for targets, or any rank */
	WW_FINISHED, /* MPI_Finalize, or it ended otherwise */
};

struct ww_rank {
	enum ww_state state;
	const struct mpiv_event *ev; /* its last call */
	int *targets;		     /* the ranks it waits for, ascending */
	int ntargets;
	int any; /* ... or any rank (MPI_ANY_SOURCE) */
	/* in a collective: its members not in one are its targets, known once every rank's
	 * state is (collective_targets()); the members, of MPI_COMM_WORLD if world */
	int coll, world;
	const struct mpiv_newcomm *members;
	const char *why; /* WW_UNKNOWN: why */
};

static void add_target(struct ww_rank *w, int r, int nranks)
{
	int k;

	if (r < 0 || r >= nranks)
		return;
	for (k = 0; k < w->ntargets && w->targets[k] < r; k++)
		;
	if (k < w->ntargets && w->targets[k] == r)
		return;
	w->targets = xrealloc(w->targets, (size_t)(w->ntargets + 1) * sizeof(*w->targets));
	memmove(w->targets + k + 1, w->targets + k, (size_t)(w->ntargets - k) * sizeof(int));
	w->targets[k] = r;
	w->ntargets++;
}

/* The peer of a point-to-point envelope: a rank, or any (MPI_ANY_SOURCE). */
static void add_peer(struct ww_rank *w, int32_t peer, int nranks)
{
	if (peer == MPIV_ANY_SOURCE)
		w->any = 1;
	else
		add_target(w, peer, nranks);
}

/* The call before event e of t that made request id, NULL if not known: a start or a local use
 * of it (MPI_Start, MPI_Pready) is passed over to the call that made it, which may be before
 * the window (its live records). */
static const struct mpiv_event *maker(const struct mpiv_rank_trace *t, long e, int32_t id)
{
	const struct mpiv_event *m = NULL;
	enum mpiv_kind k;
	size_t i;

	do {
		e = mpiv_trace_request_maker(t, e, id);
		m = e < 0 ? NULL : mpiv_trace_event(t, (size_t)e);
		k = m ? mpiv_call_kind(m->call) : MPIV_KIND_INIT;
	} while (m && (k == MPIV_KIND_START || k == MPIV_KIND_LOCAL));
	for (i = 0; !m && i < t->nlive; i++)
		if (t->live[i].req == id)
			m = &t->live[i].maker;
	return m;
}

/* Whether rank v is blocked in a collective (or completing a nonblocking one) on w's
 * communicator: MPI_COMM_WORLD for both, or the same members (a communicator's id is each
 * rank's own; its members, world ranks in its order, are the same on every rank). A member of
 * w's communicator in a collective on another one is one w waits for. */
static int in_same_collective(const struct ww_rank *w, const struct ww_rank *v)
{
	if (v->state != WW_BLOCKED || !v->coll)
		return 0;
	if (w->world || v->world)
		return w->world && v->world;
	return w->members->n == v->members->n &&
	       !memcmp(w->members->members, v->members->members,
		       w->members->n * sizeof(*w->members->members));
}

/* A collective on comm: its members are MPI_COMM_WORLD's, or another communicator's if the
 * window made it. */
static void collective(struct ww_rank *w, const struct mpiv_rank_trace *t, int32_t comm)
{
	size_t k;

	if (comm == MPIV_COMM_SELF)
		return;
	w->coll = 1;
	w->world = comm == MPIV_COMM_WORLD;
	for (k = 0; !w->world && k < t->ncomms; k++)
		if (t->comms[k].id == comm)
			w->members = &t->comms[k];
	if (!w->world && !w->members) {
		w->state = WW_UNKNOWN;
		w->why = "a collective on a communicator made before the window: its members are "
			 "not known";
	}
}

/* What rank r's window says of it. */
static void judge(struct ww_rank *w, const struct mpiv_rank_trace *t, int nranks)
{
	const struct mpiv_event *ev, *m;
	uint32_t k;

	memset(w, 0, sizeof(*w));
	if (!t->nevents) {
		w->state = t->end != MPIV_END_UNKNOWN ? WW_FINISHED : WW_UNKNOWN;
		w->why = "no call in its window";
		return;
	}
	ev = w->ev = mpiv_trace_event(t, t->first + t->nevents - 1);
	/* a rank killed in a blocked call (record ends a hung job so) was blocked there */
	if (mpiv_call_kind(ev->call) == MPIV_KIND_FINALIZE ||
	    (t->end != MPIV_END_UNKNOWN &&
	     !(t->end == MPIV_END_SIGNAL && (ev->flags & MPIV_EV_INCOMPLETE)))) {
		w->state = WW_FINISHED;
		return;
	}
	if (!(ev->flags & MPIV_EV_INCOMPLETE) && !mpiv_event_failed_poll(ev)) {
		w->state = WW_RUNNING;
		return;
	}
	w->state = WW_BLOCKED;
	switch (mpiv_call_kind(ev->call)) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_RECV:
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		add_peer(w, ev->peer, nranks);
		break;
	case MPIV_KIND_SENDRECV:
		add_peer(w, ev->peer, nranks);
		add_peer(w, ev->peer2, nranks);
		break;
	case MPIV_KIND_WAIT:
		for (k = 0; k < ev->nreqs && w->state == WW_BLOCKED; k++) {
			m = maker(t, (long)ev->index, ev->reqs[k].req);
			if (!m) {
				w->state = WW_UNKNOWN;
				w->why = "a request made before the window: whom it waits for is "
					 "not known";
			} else if (mpiv_call_kind(m->call) == MPIV_KIND_ICOLL ||
				   mpiv_call_kind(m->call) == MPIV_KIND_COLL_INIT) {
				collective(w, t, m->comm);
			} else if (mpiv_call_flags(m->call) & MPIV_F_RMA_REQUEST) {
				/* MPI_Rput's and the like complete alone: no one to wait for */
			} else {
				add_peer(w, m->peer, nranks);
			}
		}
		break;
	case MPIV_KIND_COLL:
	case MPIV_KIND_WIN_FENCE:
	case MPIV_KIND_WIN_CREATE:
	case MPIV_KIND_WIN_FREE:
		collective(w, t, ev->comm);
		break;
	default:
		w->state = WW_UNKNOWN;
		w->why = "a call whose partners the window does not name";
		break;
	}
}

/* A collective's targets: those of its members (world, or the communicator's) not in one. */
static void collective_targets(struct ww_rank *ws, int nranks)
{
	int r, k, n, m;

	for (r = 0; r < nranks; r++) {
		struct ww_rank *w = &ws[r];

		if (w->state != WW_BLOCKED || !w->coll)
			continue;
		n = w->world ? nranks : (int)w->members->n;
		for (k = 0; k < n; k++) {
			m = w->world ? k : w->members->members[k];
			if (m != r && m >= 0 && m < nranks && !in_same_collective(w, &ws[m]))
				add_target(w, m, nranks);
		}
	}
}

/* How rank t is, after the rank that waits for it: "", ", which finished", ... */
static const char *target_state(const struct ww_rank *ws, int t)
{
	return ws[t].state == WW_FINISHED ? ", which finished" :
	       ws[t].state == WW_RUNNING  ? ", which is not in MPI" :
					    "";
}

/* What a class shares: rank r's state, its call, and whom it waits for, as words (in a job
 * whose ranks are grouped, a single peer as its distance from r, so that a ring is one class;
 * a collective's laggards by their ranks). */
static void class_key(const struct ww_rank *ws, int r, int nranks, int relative, char *buf,
		      size_t size)
{
	const struct ww_rank *w = &ws[r];
	char who[256];
	int d;

	switch (w->state) {
	case WW_FINISHED:
		snprintf(buf, size, "finished");
		return;
	case WW_RUNNING:
		snprintf(buf, size, "not in a blocking call (its %s returned)",
			 mpiv_call_name(w->ev->call));
		return;
	case WW_UNKNOWN:
		if (w->ev)
			snprintf(buf, size, "in %s: %s", mpiv_call_name(w->ev->call), w->why);
		else
			snprintf(buf, size, "%s", w->why);
		return;
	case WW_BLOCKED:
		break;
	}
	if (w->any && !w->ntargets) {
		snprintf(who, sizeof(who), "any rank (MPI_ANY_SOURCE)");
	} else if (w->ntargets == 1 && !w->any && (!relative || w->coll)) {
		snprintf(who, sizeof(who), "rank %d%s", w->targets[0],
			 target_state(ws, w->targets[0]));
	} else if (w->ntargets == 1 && !w->any) {
		d = (w->targets[0] - r + nranks) % nranks;
		if (d > nranks / 2)
			d -= nranks;
		snprintf(who, sizeof(who), "its rank %s %d%s", d < 0 ? "-" : "+", abs(d),
			 target_state(ws, w->targets[0]));
	} else if (!w->ntargets) {
		snprintf(who, sizeof(who), "no rank: every member is in a collective too");
	} else {
		ranks_text(w->targets, w->ntargets, who, sizeof(who));
		if (w->any)
			strncat(who, ", or any rank", sizeof(who) - strlen(who) - 1);
	}
	snprintf(buf, size, "in %s, waiting for %s", mpiv_call_name(w->ev->call), who);
}

/* The rank w waits for, if it waits for exactly one blocked rank; else -1. */
static int single(const struct ww_rank *ws, int r)
{
	const struct ww_rank *w = &ws[r];

	if (w->state != WW_BLOCKED || w->any || w->ntargets != 1 ||
	    ws[w->targets[0]].state != WW_BLOCKED)
		return -1;
	return w->targets[0];
}

/* Whether cycle member i is inside a run of ranks one apart: not its first or last. */
static int interior(const int *cyc, int len, int i)
{
	return i > 0 && i + 1 < len && abs(cyc[i] - cyc[i - 1]) == 1 &&
	       cyc[i + 1] - cyc[i] == cyc[i] - cyc[i - 1];
}

/* Print a cycle of single waits, if there is one: "0 -> ... -> 15 -> 0", a run of ranks one
 * apart (up or down) shortened. Returns the lines printed. */
static int print_cycle(FILE *f, const struct ww_rank *ws, int nranks)
{
	int *walk = xcalloc((size_t)nranks, sizeof(*walk)); /* the walk that reached a rank, + 1 */
	int r, s, t, i, k, start = -1, len = 0, *cyc;

	for (r = 0; r < nranks && start < 0; r++) {
		for (s = r; s >= 0 && !walk[s]; s = single(ws, s))
			walk[s] = r + 1;
		if (s >= 0 && walk[s] == r + 1)
			start = s; /* this walk came back to s: a cycle through it */
	}
	free(walk);
	if (start < 0)
		return 0;
	cyc = xmalloc((size_t)nranks * sizeof(*cyc));
	t = start;
	do {
		cyc[len++] = t;
		t = single(ws, t);
	} while (t != start);
	fprintf(f, "  a wait-for cycle of %d rank%s:", len, len == 1 ? "" : "s");
	for (i = 0; i < len; i++) {
		/* the inside of a run of ranks one apart, up or down, is left out if it is more
		 * than one rank */
		for (k = i; interior(cyc, len, k); k++)
			;
		if (k - i >= 2) {
			fprintf(f, " ... ->");
			i = k - 1;
			continue;
		}
		fprintf(f, " %d ->", cyc[i]);
	}
	fprintf(f, " %d\n", start);
	free(cyc);
	return 1;
}

int mpiv_window_waits(FILE *f, const struct mpiv_traceset *ts)
{
	int n = ts->nranks, r, lines = 0, *waited;
	struct ww_rank *ws = xcalloc((size_t)(n ? n : 1), sizeof(*ws));
	struct rank_classes cs = RANK_CLASSES(n);
	char key[512], ranks[256];
	size_t k;

	for (r = 0; r < n; r++)
		judge(&ws[r], &ts->ranks[r], n);
	collective_targets(ws, n);
	/* A peer is named by its distance so that a ring is one class; one that several ranks
	 * wait for alone (a task farm's manager) by its number, so that they are one class. */
	waited = xcalloc((size_t)(n ? n : 1), sizeof(*waited));
	for (r = 0; r < n; r++)
		if (ws[r].state == WW_BLOCKED && ws[r].ntargets == 1 && !ws[r].any)
			waited[ws[r].targets[0]]++;
	for (r = 0; r < n; r++) {
		class_key(ws, r, n,
			  n >= GROUP_FROM_RANKS &&
				  !(ws[r].ntargets == 1 && waited[ws[r].targets[0]] > 1),
			  key, sizeof(key));
		classes_add(&cs, key, r);
	}
	free(waited);
	fprintf(f, "who waits for whom, from each rank's last calls (record --last):\n");
	lines++;
	for (k = 0; k < cs.n; k++) {
		ranks_text(cs.c[k].ranks, cs.c[k].n, ranks, sizeof(ranks));
		/* a rank alone says whom it waits for by number */
		if (cs.c[k].n == 1)
			class_key(ws, cs.c[k].ranks[0], n, 0, key, sizeof(key));
		fprintf(f, "  %s: %s\n", ranks, cs.c[k].n == 1 ? key : cs.c[k].key);
		lines++;
	}
	lines += print_cycle(f, ws, n);
	for (r = 0; r < n; r++)
		free(ws[r].targets);
	free(ws);
	classes_release(&cs);
	return lines;
}
