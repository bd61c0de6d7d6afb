/* Translator: the recorded path. The run as it happened, replayed on the engine: every
 * wildcard receive takes the source the run recorded, every any-completion the request it
 * returned. Warnings (tr_warn.c), the stopped ranks' waiters (tr_stop.c), verify's inputs
 * (tr_inputs.c), check's "on the recorded path" (tr_search.c) and the report's drawing of
 * the recorded run (tr_recorded_cex(), reports/report_details.c) all stand on it. */
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
	if (ev->src != MPIV_NONE || ev->nreqs != 1 ||
	    (mpiv_call_kind(ev->call) != MPIV_KIND_IRECV &&
	     mpiv_call_kind(ev->call) != MPIV_KIND_ISENDRECV))
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

/* Instruction i of process d. */
static const struct eng_instr *recorded_instr(const struct eng_prog *p, const int32_t *st, int d,
					      int i)
{
	(void)st;
	return &p->ins[d][i];
}

/* verify's choices (eng_choice() with s <= -2): is it what the run did? An any-completion
 * returns the request the run's did (listed first), a wildcard probe finds the sender the
 * run's found; a branch of a run's own program goes on to its next instruction. */
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
	return si == eng_pc(p, st, d) + 1;
}

/* What recorded_choice() needs: the program walked, the traces, and the last receive it was
 * asked about (process d, instruction in) with its recorded source (a wildcard's). */
struct recorded {
	const struct eng_prog *q;
	const struct mpiv_traceset *ts;
	/* per process: the last wildcard receive asked about and its recorded source (a walk
	 * goes over every process's open receives) */
	const struct eng_instr **in;
	int32_t *src;
};

/* The source the run recorded for process d's wildcard receive in, once for all its
 * candidates (it decodes the receive's event, and its completion's). */
static int32_t wildcard_source(struct recorded *r, int d, const struct eng_instr *in)
{
	if (in != r->in[d]) {
		r->in[d] = in;
		r->src[d] = tr_recorded_source(&r->ts->ranks[r->q->proc_rank[d]], in->ev);
	}
	return r->src[d];
}

/* May process d's receive (instruction ri) take a message of process s, as the recorded run
 * did? A receive naming its source takes its one match; a wildcard receive the source the
 * run recorded. */
static int recorded_sender(void *ctx, const int32_t *st, int d, int ri, int s)
{
	struct recorded *r = ctx;
	const struct eng_instr *in = recorded_instr(r->q, st, d, ri);

	return in->a != ENG_ANY || wildcard_source(r, d, in) == r->q->proc_rank[s];
}

/* The world rank whose processes recorded_sender() may say yes to for process d's receive
 * (instruction ri), -1 for any: one past the last rank when none (the run recorded no
 * source). */
static int recorded_source(void *ctx, const int32_t *st, int d, int ri)
{
	struct recorded *r = ctx;
	const struct eng_instr *in = recorded_instr(r->q, st, d, ri);
	int32_t src;

	if (in->a != ENG_ANY)
		return -1;
	src = wildcard_source(r, d, in);
	return src >= 0 && src < r->q->nranks ? src : r->q->nranks;
}

/* Is choice (d, ri, s, si) of st (eng_choice()) the one the recorded run made? A receive
 * posted as a choice (no match yet) or another step of a process (s -1) is; so is a match
 * recorded_sender() allows, a receive's cancel the run saw succeed, and verify's choices as
 * the run made them. A send's cancel is not: the trace does not say whether it succeeded. */
static int recorded_choice(void *ctx, const int32_t *st, int d, int ri, int s, int si)
{
	struct recorded *r = ctx;

	if (s == -1)
		return 1;
	if (s == -7)
		return recorded_cancelled(&r->ts->ranks[r->q->proc_rank[d]],
					  recorded_instr(r->q, st, d, ri)->ev) == 1;
	if (s <= -2 && s >= -4)
		return recorded_input(r->q, r->ts, st, d, s, si);
	return s >= 0 && recorded_sender(ctx, st, d, ri, s);
}

/* The choice of st to take by listing every one of them: the first the recorded run made
 * (recorded_choice()), else, clearing *known, a send's cancel going on, else the first. */
static int listed_choice(const struct eng_prog *q, const int32_t *st, struct recorded *r,
			 int *known)
{
	int n = eng_nchoices(q, st), k, pick = -1, fails = -1;
	size_t size = (size_t)(n > 0 ? n : 1) * sizeof(int);
	int *d = xmalloc(size), *ri = xmalloc(size), *s = xmalloc(size), *si = xmalloc(size);

	if (eng_choice_list(q, st, d, ri, s, si, n) != n)
		abort(); /* the count is the list's */
	for (k = 0; k < n && pick < 0; k++) {
		if (recorded_choice(r, st, d[k], ri[k], s[k], si[k]))
			pick = k;
		else if (s[k] == -6 && fails < 0)
			fails = k;
	}
	if (pick < 0) {
		*known = 0;
		pick = fails >= 0 ? fails : 0;
	}
	free(d);
	free(ri);
	free(s);
	free(si);
	return pick;
}

/* tr_recorded_path(), each choice it takes appended to *picks (grown; *npicks of them) when
 * picks is not NULL. Each state's choice is the first the run made, found by walking the
 * choices only up to it (eng_choose_first()), past the candidates of senders the run's
 * receive did not take when no pick is asked for (no index is needed then), the engine
 * counting no more of a state's choices than whether there is one and sweeping only the
 * processes a choice may have set going (eng_sweep_new()); or, with listed, by
 * listing every choice of every state (the same choices, in more time:
 * tests/unit/test_recorded.c compares them). */
static int recorded_walk(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			 enum eng_buffering b, long long eager, int sync_colls,
			 struct eng_observer *obs, int32_t *st, int listed, int **picks,
			 int *npicks)
{
	struct eng_prog q = *prog; /* shares the program; only what the search does changes */
	struct recorded r = {&q, ts, xcalloc((size_t)prog->nprocs, sizeof(*r.in)),
			     xcalloc((size_t)prog->nprocs, sizeof(*r.src))};
	struct eng_chooser c = {recorded_choice, picks ? NULL : recorded_sender, &r,
				picks ? NULL : recorded_source};
	size_t cap = 0;
	int known = 1;

	q.full = 1; /* the recorded choice must be on offer */
	q.count = listed ? 0 : 1;
	q.sweep = listed ? NULL : eng_sweep_new(&q); /* each choice where the last left st */
	q.buffering = b;
	q.eager = eager;
	q.sync_colls = sync_colls;
	q.obs = obs;
	eng_start(&q, st);
	while (st[ENG_ST_NCHOICES] > 0) {
		int pick = listed ? -1 : eng_choose_first(&q, st, &c);

		if (pick < 0) {
			pick = listed_choice(&q, st, &r, &known);
			eng_choose(&q, st, pick);
		}
		if (picks) {
			xgrow((void **)picks, &cap, (size_t)*npicks + 1, sizeof(**picks));
			(*picks)[(*npicks)++] = pick;
		}
	}
	eng_sweep_free(q.sweep);
	free(r.in);
	free(r.src);
	return known;
}

int tr_recorded_picks(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		      enum eng_buffering b, long long eager, int listed, int **picks, int *npicks)
{
	int32_t *st = xmalloc(eng_state_bytes(prog));
	int known;

	*picks = NULL;
	*npicks = 0;
	known = recorded_walk(prog, ts, b, eager, 0, NULL, st, listed, picks, npicks);
	free(st);
	return known;
}

int tr_recorded_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		     enum eng_buffering b, long long eager, int sync_colls,
		     struct eng_observer *obs, int32_t *st)
{
	return recorded_walk(prog, ts, b, eager, sync_colls, obs, st, 0, NULL, NULL);
}

int tr_recorded_cex(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		    const struct mpiv_buffering *b, struct mpiv_cex *cex, struct mpiv_error *err)
{
	struct eng_prog q = *prog;
	int32_t *st = xmalloc(eng_state_bytes(prog));
	int *picks = NULL, n = 0, rc;

	recorded_walk(prog, ts, tr_buffering(b->mode), b->bytes, b->sync_colls, NULL, st, 0, &picks,
		      &n);
	/* the same program as the walk ran: every choice on offer, sends buffered as b says */
	q.full = 1;
	q.buffering = tr_buffering(b->mode);
	q.eager = b->bytes;
	q.sync_colls = b->sync_colls;
	rc = tr_cex(&q, ts, 0, picks, n, b, cex, err);
	free(picks);
	free(st);
	return rc;
}
