/* verify (model.h): a path of the model, as a run of the program must take it. The path is run
 * on the engine with an observer that notes every instruction each process executes and every
 * input it takes. A process's instructions come in stretches of one run's calls (from one
 * branch to the next); each rank's decisions (enum mpiv_decision, in the order the rank makes
 * them) are those of the events of each stretch, in that run's trace, with the outcomes the
 * path took, up to the first one the path leaves open.
 *
 * A completion names requests by their numbers among the requests of the thread that made
 * them, 0, 1, ... in the order it made them (in a rank of one thread, the recorder's ids):
 * along the path, a stretch of run R's calls that starts where R's thread had made `anchor`
 * requests, and where the path had made `base`, numbers R's request x base + x - anchor. */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "trace_threads.h"
#include "translate.h"
#include "xalloc.h"

/* What the path did, per process. */
struct walked {
	int32_t *seq; /* the instructions executed, in order */
	size_t n, cap;
	int32_t *src;  /* per instruction: the input's source (or request) taken there */
	char *has;     /* per instruction: 1 if an input was taken there */
	char *done;    /* per instruction: 1 if it was executed */
	int32_t *live; /* per instruction: the live requests its any-completion named */
};

static void on_input(void *ctx, int q, int i, const struct eng_instr *in, const int32_t *v)
{
	struct walked *w = &((struct walked *)ctx)[q];

	(void)in;
	w->src[i] = in->op == ENG_WAITANY ? v[3] : v[0];
	w->has[i] = 1;
}

static void on_returned(void *ctx, int q, int i, int live)
{
	((struct walked *)ctx)[q].live[i] = live;
}

static void on_exec(void *ctx, int q, int i, const struct eng_instr *in)
{
	struct walked *w = &((struct walked *)ctx)[q];

	(void)in;
	xgrow((void **)&w->seq, &w->cap, w->n + 1, sizeof(*w->seq));
	w->seq[w->n++] = i;
	w->done[i] = 1;
}

/* The numbering of one process's path: the ids its posts' requests got, as it went. */
struct numbering {
	int32_t *id;	     /* per instruction: its post's request, last time it was executed */
	long base, anchor;   /* the stretch being walked */
	const int32_t *made; /* m's tables of the process */
};

/* The stretch that starts at step j of w: [j, *end), its run. */
static int stretch(const struct xmodel *m, int q, const struct walked *w, size_t j, size_t *end)
{
	size_t k;

	for (k = j + 1; k < w->n && !m->starts[q][w->seq[k]]; k++)
		;
	*end = k;
	return m->run[q][w->seq[j]];
}

/* Add decision d to s. */
static void add_decision(struct mpiv_steer *s, size_t *cap, const struct mpiv_steer_decision *d)
{
	xgrow((void **)&s->d, cap, s->n + 1, sizeof(*s->d));
	s->d[s->n++] = *d;
}

/* The call that makes the source decision of receive or probe instruction in (event e of t):
 * e's, or, for a receive a wildcard probe is fused with (the receive names its source, the
 * instruction does not), the probe's; NULL if none. */
static const struct mpiv_event *source_call(const struct mpiv_rank_trace *t,
					    const struct eng_instr *in, long e)
{
	const struct mpiv_event *ev;
	int32_t thread;
	long k;

	if (in->a != ENG_ANY || e < 0 || (size_t)e >= t->nevents)
		return NULL;
	ev = mpiv_trace_event(t, (size_t)e);
	if (mpiv_event_decision(ev) == MPIV_DEC_SOURCE)
		return ev;
	thread = ev->thread; /* ev is not valid past the events asked for below */
	for (k = e - 1; k >= 0; k--) {
		const struct mpiv_event *pr = mpiv_trace_event(t, (size_t)k);

		if (pr->thread != thread)
			continue;
		if (mpiv_call_kind(pr->call) != MPIV_KIND_PROBE)
			return NULL;
		return tr_fused_receive(t, (size_t)k) == e ? pr : NULL;
	}
	return NULL;
}

/* The decisions of stretch [j, end) of w (run t's calls), in the order the rank makes them:
 * each wildcard receive's or probe's source, each any-completion's request where two or more
 * were live (the recorder counts no decision where one was), with the outcomes the path
 * took. Returns 1 if they were all taken, 0 at the first the path left open. */
static int stretch_decisions(const struct xmodel *m, int q, const struct mpiv_rank_trace *t,
			     const struct walked *w, size_t j, size_t end,
			     const struct numbering *nb, struct mpiv_steer *s, size_t *cap)
{
	const struct eng_prog *p = &m->prog;
	long done = -1; /* the last recorded completion decision taken as the run's */
	size_t k;

	for (k = j; k < end; k++) {
		int i = w->seq[k];
		const struct eng_instr *in = &p->ins[q][i];
		const struct mpiv_event *ev = in->ev >= 0 && (size_t)in->ev < t->nevents ?
						      mpiv_trace_event(t, (size_t)in->ev) :
						      NULL;
		struct mpiv_steer_decision d;

		if (!ev)
			continue;
		memset(&d, 0, sizeof(d));
		d.call = ev->call;
		d.comm = MPIV_NONE;
		d.tag = MPIV_NONE;
		d.src = MPIV_NONE;
		if ((in->op == ENG_POST_RECV || in->op == ENG_PROBE) && in->reg > 0) {
			const struct mpiv_event *call = source_call(t, in, in->ev);

			if (!call)
				continue;
			if (!w->has[i])
				return 0;
			d.call = call->call;
			d.comm = call->comm;
			d.tag = mpiv_event_recv_tag(call);
			d.src = w->src[i];
		} else if (in->op == ENG_WAITANY && (in->reg > 0 || (in->sym & ENG_WAIT_LIVE))) {
			if (w->live[i] < 2)
				continue;  /* one request: no decision */
			if (in->reg > 0) { /* the model chose: the request it returned */
				if (!w->has[i] || nb->id[w->src[i]] < 0)
					return 0;
				d.nreqs = 1;
				d.reqs = xmalloc(sizeof(*d.reqs));
				d.reqs[0] = nb->id[w->src[i]];
			} /* else one the program does not act on: the run's own ("free") */
		} else if ((in->op == ENG_WAIT || in->op == ENG_WAITANY ||
			    in->op == ENG_WAIT_SOME) &&
			   mpiv_event_decision(ev) == MPIV_DEC_COMPLETION && in->ev != done) {
			/* one the model does not choose: as the run did, renumbered (each request
			 * by its number among its thread's, which are the calling thread's where
			 * steering takes the decision) */
			int32_t thread = ev->thread, nth;
			uint32_t x;

			done = in->ev;
			d.nreqs = ev->nreqs - ev->npending;
			d.reqs = xmalloc((d.nreqs + 1) * sizeof(*d.reqs));
			for (x = 0; x < d.nreqs; x++)
				d.reqs[x] = mpiv_thread_request(t, ev->reqs[x].req, &nth) ==
							    thread ?
						    (int32_t)(nb->base + nth - nb->anchor) :
						    -1;
		} else {
			continue;
		}
		add_decision(s, cap, &d);
	}
	return 1;
}

/* Process q's decisions on path w, into s. */
static void proc_decisions(const struct xmodel *m, struct mpiv_traceset *const *sets, int q,
			   const struct walked *w, struct mpiv_steer *s)
{
	const struct eng_prog *p = &m->prog;
	struct numbering nb;
	size_t j, end, k, cap = 0;

	nb.id = xmalloc((size_t)p->nins[q] * sizeof(*nb.id));
	memset(nb.id, 0xff, (size_t)p->nins[q] * sizeof(*nb.id));
	nb.base = 0;
	nb.anchor = 0;
	nb.made = m->made[q];
	for (j = 0; j < w->n; j = end) {
		int run = stretch(m, q, w, j, &end), first = w->seq[j];
		const struct mpiv_rank_trace *t = &sets[run]->ranks[p->proc_rank[q]];

		if (j > 0) { /* a way on: the branch before is where the numberings meet */
			int b = w->seq[j - 1];

			nb.base += m->made[q][b] - nb.anchor;
			nb.anchor = m->anchor[q][first];
		}
		for (k = j; k < end; k++) {
			int i = w->seq[k];

			if (m->req[q][i] >= 0)
				nb.id[i] = (int32_t)(nb.base + m->req[q][i] - nb.anchor);
		}
		if (!stretch_decisions(m, q, t, w, j, end, &nb, s, &cap))
			break;
	}
	free(nb.id);
}

/* Process q's decisions on path w, into rank steering s: its initial thread's, or a thread
 * line named by the thread's path in the run it comes from (base/steer.h). A thread whose
 * path is not known is not steered (a run whose threads' decisions are steered has them all
 * known: explore_threads_fixed()). */
static void proc_steer(const struct xmodel *m, struct mpiv_traceset *const *sets, int q,
		       const struct walked *w, struct mpiv_steer *s)
{
	const struct eng_prog *p = &m->prog;
	struct mpiv_steer tmp;
	struct mpiv_steer_thread *t;
	char path[MPIV_STEER_PATH];
	int32_t thread = p->proc_thread[q];

	memset(&tmp, 0, sizeof(tmp));
	proc_decisions(m, sets, q, w, &tmp);
	if (thread == 0) {
		s->d = tmp.d;
		s->n = tmp.n;
		return;
	}
	if (!tmp.n || !p->nins[q] ||
	    mpiv_thread_path(&sets[m->run[q][0]]->ranks[p->proc_rank[q]], thread, path,
			     sizeof(path)) < 0) {
		mpiv_steer_release(&tmp);
		return;
	}
	s->threads = xrealloc(s->threads, (s->nthreads + 1) * sizeof(*s->threads));
	t = &s->threads[s->nthreads++];
	memcpy(t->path, path, sizeof(path));
	t->d = tmp.d;
	t->n = tmp.n;
}

int xpath_of(const struct xmodel *m, struct mpiv_traceset *const *sets, const int *path, int npath,
	     struct xpath *out)
{
	const struct eng_prog *p = &m->prog;
	struct eng_prog run = *p;
	struct eng_observer obs;
	struct walked *w = xcalloc((size_t)p->nprocs, sizeof(*w));
	int32_t *st = xcalloc(eng_state_bytes(p), 1);
	int q, i, r;

	memset(out, 0, sizeof(*out));
	for (q = 0; q < p->nprocs; q++) {
		w[q].src = xcalloc((size_t)p->nins[q], sizeof(*w[q].src));
		w[q].has = xcalloc((size_t)p->nins[q], 1);
		w[q].done = xcalloc((size_t)p->nins[q], 1);
		w[q].live = xcalloc((size_t)p->nins[q], sizeof(*w[q].live));
	}
	memset(&obs, 0, sizeof(obs));
	obs.ctx = w;
	obs.input = on_input;
	obs.exec = on_exec;
	obs.returned = on_returned;
	run.obs = &obs;
	eng_start(&run, st);
	for (i = 0; i < npath; i++) {
		if (path[i] < 0 || path[i] >= eng_nchoices(&run, st))
			break;
		eng_choose(&run, st, path[i]);
	}
	out->ok = i == npath;
	out->nranks = p->nranks;
	out->steer = xcalloc((size_t)p->nranks, sizeof(*out->steer));
	out->run = xcalloc((size_t)p->nranks, sizeof(*out->run));
	out->event = xcalloc((size_t)p->nranks, sizeof(*out->event));
	out->at_end = xcalloc((size_t)p->nranks, sizeof(*out->at_end));
	out->nprocs = p->nprocs;
	out->prun = xcalloc((size_t)p->nprocs, sizeof(*out->prun));
	out->pevent = xcalloc((size_t)p->nprocs, sizeof(*out->pevent));
	for (r = 0; r < p->nranks; r++)
		out->steer[r].rank = r;
	for (q = p->nprocs - 1; q >= 0; q--) { /* a rank's first process (thread 0) last */
		int pc = eng_pc(p, st, q);

		r = p->proc_rank[q];
		out->prun[q] = m->run[q][pc];
		out->pevent[q] = p->ins[q][pc].ev;
		out->run[r] = m->run[q][pc];
		out->event[r] = p->ins[q][pc].ev;
		out->at_end[r] = eng_at_end(p, st, q);
		proc_steer(m, sets, q, &w[q], &out->steer[r]);
	}
	for (q = 0; q < p->nprocs; q++) {
		free(w[q].seq);
		free(w[q].src);
		free(w[q].has);
		free(w[q].done);
		free(w[q].live);
	}
	free(w);
	free(st);
	return out->ok ? 0 : -1;
}

void xpath_release(struct xpath *pt)
{
	int r;

	for (r = 0; pt->steer && r < pt->nranks; r++)
		mpiv_steer_release(&pt->steer[r]);
	free(pt->steer);
	free(pt->run);
	free(pt->event);
	free(pt->at_end);
	free(pt->prun);
	free(pt->pevent);
	memset(pt, 0, sizeof(*pt));
}
