/* Translator: the recorded path. The run as it happened, replayed on the engine: every
 * wildcard receive takes the source the run recorded, every any-completion the request it
 * returned. Warnings (tr_warn.c), the stopped ranks' waiters (tr_stop.c), verify's inputs
 * (tr_inputs.c), check's "on the recorded path" (tr_search.c) and the report's drawing of
 * the recorded run (tr_recorded_cex(), cli/report_details.c) all stand on it. */
#include <stdlib.h>

#include "translate.h"
#include "xalloc.h"

/* The completion the recorded run gave the request of event e (a nonblocking receive), or
 * NULL if it has none (never completed). */
static const struct mpiv_reqinfo *recorded_completion(const struct mpiv_rank_trace *t, long e)
{
	const struct mpiv_event *ev = &t->events[e];
	size_t i;
	uint32_t j;

	for (i = (size_t)e + 1; i < t->nevents; i++) {
		const struct mpiv_event *c = &t->events[i];

		if (mpiv_call_kind(c->call) != MPIV_KIND_WAIT)
			continue;
		for (j = 0; j + c->npending < c->nreqs; j++)
			if (c->reqs[j].req == ev->reqs[0].req)
				return &c->reqs[j];
	}
	return NULL;
}

int32_t tr_recorded_source(const struct mpiv_rank_trace *t, long e)
{
	const struct mpiv_event *ev;
	const struct mpiv_reqinfo *done;

	if (e < 0 || (size_t)e >= t->nevents)
		return MPIV_NONE;
	ev = &t->events[e];
	if (ev->src != MPIV_NONE || mpiv_call_kind(ev->call) != MPIV_KIND_IRECV || ev->nreqs != 1)
		return ev->src;
	done = recorded_completion(t, e);
	return done ? done->src : MPIV_NONE;
}

/* Did the recorded run cancel the receive posted at event e? 1: its completion says it was
 * cancelled (the recorder writes no source then), 0: it took a message, -1: the trace does
 * not say (never completed). */
static int recorded_cancelled(const struct mpiv_rank_trace *t, long e)
{
	const struct mpiv_reqinfo *done;

	if (e < 0 || (size_t)e >= t->nevents || t->events[e].nreqs != 1)
		return -1;
	done = recorded_completion(t, e);
	return done ? done->src == MPIV_NONE : -1;
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
		return in->ev >= 0 && (size_t)in->ev < t->nevents && t->events[in->ev].src == si;
	return si == eng_variant(p, st, d);
}

/* tr_recorded_path(), each choice it takes appended to *picks (grown; *npicks of them) when
 * picks is not NULL. */
static int recorded_walk(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			 enum eng_buffering b, long long eager, struct eng_observer *obs,
			 int32_t *st, int **picks, int *npicks)
{
	struct eng_prog q = *prog;	/* shares the program; only what the search does changes */
	size_t cap = 0;
	int n, k, known = 1;

	q.full = 1;		/* the recorded choice must be on offer */
	q.buffering = b;
	q.eager = eager;
	q.obs = obs;
	eng_start(&q, st);
	while ((n = eng_nchoices(&q, st)) > 0) {
		int pick = -1, post = -1, fails = -1;

		for (k = 0; k < n && pick < 0; k++) {
			int d, ri, s, si;
			const struct mpiv_rank_trace *t;

			eng_choice(&q, st, k, &d, &ri, &s, &si);
			t = &ts->ranks[q.proc_rank[d]];
			if (s == -1 && post < 0)
				post = k;	/* a receive posted as a choice: no match yet */
			else if (s >= 0 && (eng_variant_ins(&q, d, eng_variant(&q, st, d))[ri].a !=
						    ENG_ANY ||
					    tr_recorded_source(t, recorded_ev(&q, st, d, ri)) ==
						    q.proc_rank[s]))
				pick = k;	/* a receive naming its source has one match */
			else if (s == -7 && recorded_cancelled(t, recorded_ev(&q, st, d, ri)) == 1)
				pick = k;
			else if (s == -6 && fails < 0)
				fails = k;	/* a send's cancel: the trace does not say */
			else if (s <= -2 && s >= -4 && recorded_input(&q, ts, st, d, s, si))
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
	rc = tr_cex(&q, ts, picks, n, b, cex, err);
	free(picks);
	free(st);
	return rc;
}
