/* Translator: the recorded path. The run as it happened, replayed on the engine: every
 * wildcard receive takes the source the run recorded, every any-completion the request it
 * returned. Warnings (tr_warn.c), the stopped ranks' waiters (tr_stop.c), verify's inputs
 * (tr_inputs.c), check's "on the recorded path" (tr_search.c) and the report's drawing of
 * the recorded run (tr_recorded_cex(), cli/report_details.c) all stand on it. */
#include <stdlib.h>

#include "translate.h"
#include "xalloc.h"

/* The source of the completion the recorded run gave the request of event e (a nonblocking
 * receive) in *src; returns 0 if it has none (never completed). */
static int recorded_completion(const struct mpiv_rank_trace *t, long e, int32_t *src)
{
	/* a copy: the events read after it may take its place */
	int32_t req = mpiv_trace_event(t, (size_t)e)->reqs[0].req;
	size_t i;
	uint32_t j;

	for (i = (size_t)e + 1; i < t->nevents; i++) {
		const struct mpiv_event *c = mpiv_trace_event(t, i);

		if (mpiv_call_kind(c->call) != MPIV_KIND_WAIT)
			continue;
		for (j = 0; j + c->npending < c->nreqs; j++)
			if (c->reqs[j].req == req) {
				*src = c->reqs[j].src;
				return 1;
			}
	}
	return 0;
}

int32_t tr_recorded_source(const struct mpiv_rank_trace *t, long e)
{
	const struct mpiv_event *ev;
	int32_t src;

	if (e < 0 || (size_t)e >= t->nevents)
		return MPIV_NONE;
	ev = mpiv_trace_event(t, (size_t)e);
	if (ev->src != MPIV_NONE || mpiv_call_kind(ev->call) != MPIV_KIND_IRECV || ev->nreqs != 1)
		return ev->src;
	return recorded_completion(t, e, &src) ? src : MPIV_NONE;
}

/* Did the recorded run cancel the receive posted at event e? 1: its completion says it was
 * cancelled (the recorder writes no source then), 0: it took a message, -1: the trace does
 * not say (never completed). */
static int recorded_cancelled(const struct mpiv_rank_trace *t, long e)
{
	int32_t src;

	if (e < 0 || (size_t)e >= t->nevents || mpiv_trace_event(t, (size_t)e)->nreqs != 1)
		return -1;
	return recorded_completion(t, e, &src) ? src == MPIV_NONE : -1;
}

/* The event of instruction i of process d, in the variant it is in. */
static long recorded_ev(const struct eng_prog *p, const int32_t *st, int d, int i)
{
	return eng_variant_ins(p, d, eng_variant(p, st, d))[i].ev;
}

/* verify's choices (eng_choice() with s <= -2): is it what the run did? An any-completion
 * returns the request the run's did (listed first), a wildcard probe finds the sender the
 * run's found; a branch goes on in the variant it is in. */
static int recorded_input(const struct eng_prog *p, const struct mpiv_traceset *ts,
			  const int32_t *st, int d, int s, int si)
{
	const struct eng_instr *in = eng_instr_at(p, st, d);
	const struct mpiv_rank_trace *t = &ts->ranks[p->proc_rank[d]];

	if (s == -2)
		return si == in->list[0];
	if (s == -3)
		return in->ev >= 0 && (size_t)in->ev < t->nevents &&
		       mpiv_trace_event(t, (size_t)in->ev)->src == si;
	return si == eng_variant(p, st, d);
}

/* tr_recorded_path(), each choice it takes appended to *picks (grown; *npicks of them) when
 * picks is not NULL. */
static int recorded_walk(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			 enum eng_buffering b, long long eager, struct eng_observer *obs,
			 int32_t *st, int **picks, int *npicks)
{
	struct eng_prog q = *prog; /* shares the program; only what the search does changes */
	size_t cap = 0;
	int *d = NULL, *ri = NULL, *s = NULL, *si = NULL, n, k, seen, known = 1, max = 0;
	int32_t src = MPIV_NONE;

	q.full = 1; /* the recorded choice must be on offer */
	q.buffering = b;
	q.eager = eager;
	q.obs = obs;
	eng_start(&q, st);
	while ((n = st[ENG_ST_NCHOICES]) > 0) {
		int pick = -1, post = -1, fails = -1;

		if (n > max) { /* room for every choice, listed in one walk */
			max = 2 * n;
			d = xrealloc(d, (size_t)max * sizeof(*d));
			ri = xrealloc(ri, (size_t)max * sizeof(*ri));
			s = xrealloc(s, (size_t)max * sizeof(*s));
			si = xrealloc(si, (size_t)max * sizeof(*si));
		}
		if (eng_choice_list(&q, st, d, ri, s, si, max) != n)
			abort(); /* the count the engine left is the list's */
		for (k = 0, seen = -1; k < n && pick < 0; k++) {
			const struct mpiv_rank_trace *t = &ts->ranks[q.proc_rank[d[k]]];
			int named = s[k] >= 0 &&
				    eng_variant_ins(&q, d[k], eng_variant(&q, st, d[k]))[ri[k]].a !=
					    ENG_ANY;

			/* a wildcard's recorded source, once for all its candidates (it decodes the
			 * receive's event) */
			if (s[k] >= 0 && !named &&
			    (seen < 0 || d[k] != d[seen] || ri[k] != ri[seen])) {
				seen = k;
				src = tr_recorded_source(t, recorded_ev(&q, st, d[k], ri[k]));
			}
			if (s[k] == -1 && post < 0)
				post = k; /* a receive posted as a choice: no match yet */
			else if (s[k] >= 0 && (named || src == q.proc_rank[s[k]]))
				pick = k; /* a receive naming its source has one match */
			else if (s[k] == -7 &&
				 recorded_cancelled(t, recorded_ev(&q, st, d[k], ri[k])) == 1)
				pick = k;
			else if (s[k] == -6 && fails < 0)
				fails = k; /* a send's cancel: the trace does not say */
			else if (s[k] <= -2 && s[k] >= -4 &&
				 recorded_input(&q, ts, st, d[k], s[k], si[k]))
				pick = k;
		}
		if (post >= 0) {
			pick = post;
		} else if (pick < 0) {
			known = 0;
			pick = fails;
		}
		if (pick < 0)
			pick = 0;
		if (picks) {
			xgrow((void **)picks, &cap, (size_t)*npicks + 1, sizeof(**picks));
			(*picks)[(*npicks)++] = pick;
		}
		eng_choose(&q, st, pick);
	}
	free(d);
	free(ri);
	free(s);
	free(si);
	return known;
}

int tr_recorded_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		     enum eng_buffering b, long long eager, struct eng_observer *obs, int32_t *st)
{
	return recorded_walk(prog, ts, b, eager, obs, st, NULL, NULL);
}

int tr_recorded_cex(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		    const struct mpiv_buffering *b, struct mpiv_cex *cex, struct mpiv_error *err)
{
	struct eng_prog q = *prog;
	int32_t *st = xmalloc(eng_state_bytes(prog));
	int *picks = NULL, n = 0, rc;

	recorded_walk(prog, ts, (enum eng_buffering)b->mode, b->bytes, NULL, st, &picks, &n);
	/* the same program as the walk ran: every choice on offer, sends buffered as b says */
	q.full = 1;
	q.buffering = (enum eng_buffering)b->mode;
	q.eager = b->bytes;
	rc = tr_cex(&q, ts, 0, picks, n, b, cex, err);
	free(picks);
	free(st);
	return rc;
}
