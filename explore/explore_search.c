/* verify's model of its runs (explore.h): every usable run's trace, translated for verify and
 * merged into one program (doc/verify.md), searched in each buffering mode; each deadlock the
 * search finds and each frontier it meets becomes a run to make, unless one with the same
 * steering was made. */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "srcloc.h"
#include "explore.h"
#include "model.h"
#include "xalloc.h"
#include "tr_check.h"
#include "tr_explore.h"
#include "trace_threads.h"

void explore_threads_unsteered(struct explore *x, const struct xrun *r, const char *why)
{
	if (x->threads_why[0])
		return; /* the first says it */
	snprintf(x->threads_why, sizeof(x->threads_why), "run %d: %s", r->index, why);
}

int explore_add_path(struct explore *x, struct xrun *r)
{
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 1, 0};
	struct mpiv_error err;

	mpiv_error_init(&err);
	/* kept as the files' records, decoded when asked for: a run's trace takes some 8 bytes
	 * an event, not 128, and verify keeps every run's */
	if (mpiv_traceset_load_records(r->dir, &r->ts, &err) < 0)
		return error_report(&err);
	/* a call check cannot judge yet: the rank's calls from there on are left out, and the
	 * run is one where that rank stopped there (classify()) */
	if (tr_translate_judged(&r->ts, &opts, &r->prog, &err) < 0) {
		mpiv_traceset_release(&r->ts);
		return error_report(&err);
	}
	if (r->prog.nprocs != r->prog.nranks) {
		char why[1024];

		/* the first run stands for every run (no decision, no order left open but
		 * among alike messages), or has choices steering cannot make: the caller
		 * answers from this run alone (cli/verify_threads.c) */
		if (!r->item && (explore_threads_fixed(&r->ts, why, sizeof(why)) ||
				 !explore_threads_steered(&r->ts, why, sizeof(why)))) {
			eng_prog_release(&r->prog);
			mpiv_traceset_release(&r->ts);
			x->threaded_run = r->dir;
			return MPIV_EXIT_BAD_INPUT;
		}
		if (r->item && !explore_threads_steered(&r->ts, why, sizeof(why))) {
			/* a later run with such choices: what it shows is kept, but it may
			 * stand for runs none made */
			explore_threads_unsteered(x, r, why);
		}
	}
	xmodel_fill_inputs(&r->prog, &r->ts);
	if (!x->polls_why[0]) {
		char why[1100];

		if (explore_poll_turns(&r->ts, why, sizeof(why)))
			snprintf(x->polls_why, sizeof(x->polls_why), "run %d: %s", r->index, why);
	}
	r->usable = 1;
	return 0;
}

void xitem_release(struct xitem *it)
{
	free(it->steer);
	free(it->call);
	free(it->event);
	free(it->what);
	free(it->key);
	memset(it, 0, sizeof(*it));
}

/* ---- describing ---- */

/* The steering file of a path: its buffering, then each rank's decisions, thread by thread. */
static char *steer_text(const struct xpath *pt, const struct mpiv_buffering *mode)
{
	enum mpiv_steer_buffering b = MPIV_STEER_NATURAL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int r;

	if (!f)
		die(MPIV_EXIT_TOOL, "out of memory");
	if (mode)
		b = mode->mode == MPIV_BUF_ZERO	    ? MPIV_STEER_ZERO :
		    mode->mode == MPIV_BUF_INFINITE ? MPIV_STEER_INFINITE :
						      MPIV_STEER_EAGER;
	mpiv_steer_write_header(f, b, mode ? mode->bytes : 0, mode ? mode->sync_colls : 0);
	for (r = 0; r < pt->nranks; r++)
		mpiv_steer_write_all(f, &pt->steer[r]);
	fclose(f);
	return text;
}

/* ---- the model ---- */

/* One model to search: every run merged, or one run alone. */
struct model {
	struct xmodel m;
	struct mpiv_traceset **runs; /* by run index of m (its runs' trace sets) */
	int id;			     /* tells models apart in places */
};

struct search_ctx {
	const struct explore *x;
	struct model *model;
};

int explore_out_of_time(const struct explore *x)
{
	return x->time_limit > 0 && mpiv_now() - x->started > x->time_limit;
}

/* Polled by the search: the time limit, or a signal. */
static int stop_search(void *ctx, char *why, size_t size)
{
	const struct explore *x = ((struct search_ctx *)ctx)->x;
	int sig = x->interrupted ? x->interrupted() : 0;

	if (sig) {
		snprintf(why, size, "interrupted by signal %d", sig);
		return 1;
	}
	if (!explore_out_of_time(x))
		return 0;
	snprintf(why, size, "the time limit");
	return 1;
}

static int tried(const struct explore *x, const char *steer)
{
	int i;

	for (i = 0; i < x->ntried; i++)
		if (!strcmp(x->tried[i], steer))
			return 1;
	return 0;
}

/* Deadlock item it asks for a run made before: if that run completed on its path, the model
 * with that run still has the deadlock (explore_settle()). */
static void asked_again(struct explore *x, const struct xitem *it)
{
	int i;

	for (i = 0; i < x->ndoubted; i++)
		if (!strcmp(x->doubted[i]->item->steer, it->steer))
			x->doubted[i]->asked_again = 1;
}

/* The sender that decision ev (event e of t, a source decision) took: a receive's or probe's
 * own; an MPI_Irecv's, its request's completion's; MPIV_NONE if the trace does not say. */
static int32_t source_taken(const struct mpiv_rank_trace *t, size_t e, const struct mpiv_event *ev)
{
	int32_t req;
	uint32_t j;

	if (ev->src != MPIV_NONE || mpiv_call_kind(ev->call) != MPIV_KIND_IRECV || !ev->nreqs)
		return ev->src;
	req = ev->reqs[0].req; /* ev is not valid past the events asked for below */
	for (e++; e < t->nevents; e++) {
		const struct mpiv_event *c = mpiv_trace_event(t, e);

		for (j = 0; mpiv_call_kind(c->call) == MPIV_KIND_WAIT && j < c->nreqs; j++)
			if (c->reqs[j].req == req && j < c->nreqs - c->npending)
				return c->reqs[j].src;
	}
	return MPIV_NONE;
}

/* Whether thread of t made decisions d[0..n) first, each as steering has it (the recorder's
 * test, rec_steer.c: the call, its communicator and tag) with the same outcome. */
static int thread_took(const struct mpiv_rank_trace *t, int32_t thread,
		       const struct mpiv_steer_decision *d, size_t n)
{
	size_t k = 0;
	uint32_t j;
	long e;

	for (e = mpiv_thread_next_decision(t, thread, 0); e >= 0 && k < n;
	     e = mpiv_thread_next_decision(t, thread, (size_t)e + 1)) {
		const struct mpiv_event *ev = mpiv_trace_event(t, (size_t)e);
		enum mpiv_decision kind = mpiv_event_decision(ev);

		if (ev->call != d[k].call)
			return 0;
		if (mpiv_steer_free(&d[k])) {
			k++;
			continue;
		}
		/* source_taken() last: ev is not valid past it */
		if (kind == MPIV_DEC_SOURCE && (d[k].src == MPIV_NONE || d[k].comm != ev->comm ||
						d[k].tag != mpiv_event_recv_tag(ev) ||
						d[k].src != source_taken(t, (size_t)e, ev)))
			return 0;
		if (kind == MPIV_DEC_COMPLETION) {
			int32_t nth;

			if (d[k].nreqs != ev->nreqs - ev->npending)
				return 0;
			/* by the requests' numbers among the thread's (base/steer.h) */
			for (j = 0; j < d[k].nreqs; j++)
				if (mpiv_thread_request(t, ev->reqs[j].req, &nth) != thread ||
				    d[k].reqs[j] != nth)
					return 0;
		}
		k++;
	}
	return k == n;
}

/* Whether run r took every decision of steering text: each thread's (by its path) as its
 * first, with the same outcomes. Then r is a run of that steering, made already. */
static int run_took(const struct xrun *r, const char *text)
{
	int k, took = 1;

	for (k = 0; k < r->ts.nranks && took; k++) {
		const struct mpiv_rank_trace *t = &r->ts.ranks[k];
		struct mpiv_steer s;
		char why[128];
		size_t i;

		if (mpiv_steer_parse(text, strlen(text), k, &s, why, sizeof(why)) < 0) {
			mpiv_steer_release(&s);
			return 0;
		}
		took = thread_took(t, 0, s.d, s.n);
		for (i = 0; i < s.nthreads && took; i++) {
			int32_t thread = mpiv_thread_of_path(t, s.threads[i].path);

			took = thread >= 0 &&
			       thread_took(t, thread, s.threads[i].d, s.threads[i].n);
		}
		mpiv_steer_release(&s);
	}
	return took;
}

/* Whether a run made so far took every decision of frontier item it: with runs modelled each
 * on its own, the model of one run asks for what another run took (one that was steered to
 * fewer decisions, and took these freely). */
static int frontier_run(const struct explore *x, const struct xitem *it)
{
	int i;

	if (x->merged || it->kind != XITEM_FRONTIER)
		return 0; /* one model of every run: no run took what it asks for */
	for (i = 0; i < x->nruns; i++)
		if (x->runs[i]->usable && run_took(x->runs[i], it->steer))
			return 1;
	return 0;
}

/* Add it to items unless an item with the same steering is there or was made, or a run took
 * what it asks for. */
static void add_item(struct explore *x, struct xitem **items, int *n, size_t *cap, struct xitem *it)
{
	int i;

	if (frontier_run(x, it)) {
		xitem_release(it);
		return;
	}
	if (tried(x, it->steer)) {
		if (it->kind == XITEM_DEADLOCK)
			asked_again(x, it);
		xitem_release(it);
		return;
	}
	for (i = 0; i < *n; i++)
		if (!strcmp((*items)[i].steer, it->steer)) {
			xitem_release(it);
			return;
		}
	xgrow((void **)items, cap, (size_t)*n + 1, sizeof(**items));
	(*items)[(*n)++] = *it;
}

/* Is event e of t a poll that succeeded, or the receive of what a wildcard one found? */
static int polled_event(const struct mpiv_rank_trace *t, long e)
{
	const struct mpiv_event *ev = mpiv_trace_event(t, (size_t)e), *before;

	if (mpiv_call_flags(ev->call) & MPIV_F_POLL)
		return 1;
	if (e == 0 || mpiv_call_kind(ev->call) != MPIV_KIND_RECV)
		return 0;
	before = mpiv_trace_event(t, (size_t)e - 1);
	return (mpiv_call_flags(before->call) & MPIV_F_POLL) &&
	       mpiv_call_kind(before->call) == MPIV_KIND_PROBE && before->src != MPIV_NONE;
}

/* The run a model's deadlock asks for: confirm it, steered along its path, standard sends
 * forced as the mode has them. */
static int deadlock_item(const struct explore *x, struct model *md, const struct tr_stuck *s,
			 const struct mpiv_buffering *mode, struct xitem *it)
{
	struct xpath pt;
	char buf[1024];
	char *what = NULL;
	size_t wlen = 0;
	struct xkey sig;
	FILE *w;
	int r, q;

	if (xpath_of(&md->m, md->runs, s->path, s->npath, &pt) < 0) {
		xpath_release(&pt);
		return -1;
	}
	memset(it, 0, sizeof(*it));
	it->kind = XITEM_DEADLOCK;
	it->mode = *mode;
	it->error = s->error;
	it->nranks = pt.nranks;
	it->call = xmalloc((size_t)pt.nranks * sizeof(*it->call));
	it->event = xmalloc((size_t)pt.nranks * sizeof(*it->event));
	w = open_memstream(&what, &wlen);
	if (!w)
		die(MPIV_EXIT_TOOL, "out of memory");
	xkey_open(&sig);
	for (r = 0; r < pt.nranks; r++) {
		const struct mpiv_rank_trace *t = &md->runs[pt.run[r]]->ranks[r];
		long e = pt.event[r];

		it->event[r] = -1;
		it->call[r] = -1;
		if (!pt.at_end[r] && e >= 0 && (size_t)e < t->nevents) {
			it->call[r] = mpiv_trace_event(t, (size_t)e)->call;
			it->event[r] = e;
		}
	}
	/* each process blocked: a rank's threads each where it is */
	for (q = 0; q < pt.nprocs; q++) {
		const struct mpiv_traceset *ts = md->runs[pt.prun[q]];
		const struct mpiv_rank_trace *t;
		const struct mpiv_event *ev;
		long e = pt.pevent[q];

		r = md->m.prog.proc_rank[q];
		t = &ts->ranks[r];
		if (s->place[q] < 0 || e < 0 || (size_t)e >= t->nevents)
			continue;
		ev = mpiv_trace_event(t, (size_t)e);
		it->polled |= polled_event(t, e);
		xkey_rank(&sig, ev->call, ev->site ? mpiv_trace_module(t, ev->site) : NULL,
			  MPIV_SITE_ADDR(ev->site));
		explore_event_where(ts, r, e, buf, sizeof(buf));
		fprintf(w, "%srank %d in %s", wlen ? "; " : "", r, buf);
		fflush(w);
	}
	fclose(w);
	it->what = what;
	it->key = xkey_close(&sig);
	it->steer = steer_text(&pt, mode);
	xpath_release(&pt);
	if (explore_known(x, it->key)) {
		xitem_release(it);
		return -1;
	}
	return 0;
}

/* What a frontier's input is, as "takes rank 2's message": the parts its branch compares. */
static void input_desc(const struct tr_frontier *f, char *buf, size_t size)
{
	if (f->sym & ENG_IN_REQ)
		snprintf(buf, size, "completes another request first");
	else if (f->sym & ENG_IN_SOURCE)
		snprintf(buf, size, "takes rank %d's message", f->input[0]);
	else if (f->sym & ENG_IN_TAG)
		snprintf(buf, size, "takes a message with tag %d", f->input[1]);
	else
		snprintf(buf, size, "takes a message with other data, or from another call");
}

/* The run a frontier asks for: steered along its path, then free. */
static int frontier_item(struct model *md, const struct tr_frontier *f, struct xitem *it)
{
	const struct eng_prog *p = &md->m.prog;
	int r = p->proc_rank[f->proc];
	char buf[1024], input[128];
	const struct mpiv_traceset *ts;
	struct xpath pt;
	size_t len;

	if (xpath_of(&md->m, md->runs, f->path, f->npath, &pt) < 0) {
		xpath_release(&pt);
		return -1;
	}
	memset(it, 0, sizeof(*it));
	it->kind = XITEM_FRONTIER;
	it->unsettled = f->place >= 0 && f->place < p->nins[f->proc] &&
			md->m.unsettled[f->proc][f->place];
	it->nranks = pt.nranks;
	it->steer = steer_text(&pt, NULL);
	/* the call of the process (the thread) that takes the input */
	ts = md->runs[pt.prun[f->proc]];
	explore_event_where(ts, r, pt.pevent[f->proc], buf, sizeof(buf));
	input_desc(f, input, sizeof(input));
	len = strlen(buf) + strlen(input) + 64;
	it->what = xmalloc(len);
	snprintf(it->what, len, "rank %d's %s %s", r, buf, input);
	xpath_release(&pt);
	return 0;
}

/* The most paths of frontiers and deadlocks a search reads back: a round runs a few, and the
 * next search finds the rest again if the round's runs do not settle them. */
#define XSEARCH_PATHS 256

/* What a search of model m may hold: the memory limit, less the model and the runs' programs
 * (each instruction, the tables beside it, and the blocks of their lists); 0 if they take it
 * all, and no bound without a limit (SIZE_MAX). */
static size_t model_room(const struct explore *x, const struct xmodel *m)
{
	size_t limit = (size_t)x->memory_mb << 20, held = 0;
	int i, q;

	if (!x->memory_mb)
		return 0;
	held = eng_list_bytes(&m->prog);
	for (q = 0; q < m->prog.nprocs; q++)
		held += (size_t)m->prog.nins[q] * (TR_INSTR_BYTES + 6 * sizeof(int32_t));
	for (i = 0; i < x->nruns; i++) {
		if (!x->runs[i]->usable)
			continue;
		held += eng_list_bytes(&x->runs[i]->prog);
		for (q = 0; q < x->runs[i]->prog.nprocs; q++)
			held += (size_t)x->runs[i]->prog.nins[q] * TR_INSTR_BYTES;
	}
	return held < limit ? limit - held : 0;
}

/* Search one model in every mode, the buffered ones also with every collective synchronising
 * where that differs (tr_searches()); add what it asks for to items. */
static void search_model(struct explore *x, struct model *md, struct xitem **items, int *n,
			 size_t *cap)
{
	struct search_ctx ctx = {x, md};
	struct tr_explore_opts eo;
	struct mpiv_buffering modes[2 * EXPLORE_MAX_MODES];
	int k, i, nmodes = tr_searches(tr_colls_partial(&md->m.prog), x->modes, x->nmodes, modes);

	memset(&eo, 0, sizeof(eo));
	eo.max_states = x->max_states;
	eo.max_bytes = model_room(x, &md->m);
	eo.max_paths = XSEARCH_PATHS;
	eo.stop = stop_search;
	eo.ctx = &ctx;
	if (x->memory_mb && !eo.max_bytes) {
		x->incomplete = 1;
		snprintf(x->incomplete_why, sizeof(x->incomplete_why),
			 "the model of the runs takes more than the memory limit of %ld MB "
			 "(--memory-limit)",
			 x->memory_mb);
		return;
	}
	for (k = 0; k < nmodes; k++) {
		struct tr_explore_result res;

		md->m.prog.buffering = tr_buffering(modes[k].mode);
		md->m.prog.eager = modes[k].bytes;
		md->m.prog.sync_colls = modes[k].sync_colls;
		tr_explore(&md->m.prog, &eo, &res);
		/* more messages in flight than the model had room for: again, with more */
		while (res.overflow && xmodel_more_room(&md->m)) {
			tr_explore_release(&res);
			tr_explore(&md->m.prog, &eo, &res);
		}
		x->states += res.states;
		if (!res.complete && !x->incomplete) {
			char limit[64];

			/* the search had what the model left of the limit: name the limit */
			snprintf(limit, sizeof(limit),
				 "the memory limit of %ld MB (--memory-limit)", x->memory_mb);
			x->incomplete = 1;
			snprintf(x->incomplete_why, sizeof(x->incomplete_why),
				 "%s, in the search of the model of %d run%s",
				 res.memory ? limit : res.why, md->m.nruns,
				 md->m.nruns > 1 ? "s" : "");
		}
		if (!res.complete && x->interrupted && x->interrupted())
			x->signal = x->interrupted();
		if (x->signal) { /* no other mode, nor anything it found */
			tr_explore_release(&res);
			break;
		}
		for (i = 0; i < res.nstuck; i++) {
			struct xitem it;

			if (deadlock_item(x, md, &res.stuck[i], &modes[k], &it) == 0)
				add_item(x, items, n, cap, &it);
		}
		for (i = 0; i < res.nfrontiers; i++) {
			struct xitem it;

			if (frontier_item(md, &res.frontiers[i], &it) == 0)
				add_item(x, items, n, cap, &it);
		}
		tr_explore_release(&res);
	}
}

/* Deadlocks first (to confirm), then the frontiers of unsettled branches, then the others,
 * each in the order found. A round makes only the first few (EXPLORE_ROUND): the run of an
 * unsettled branch's frontier takes there an input the runs took at another branch of its
 * place, and may show that the process goes on alike from both. The model then takes them as
 * one, and the frontiers that the branches apart made (a copy of the rest of the phase each)
 * are gone: a farm whose workers answered in a new order in one run costs a round, not one
 * round per frontier of that order. */
static void deadlocks_first(struct xitem *items, int n)
{
	struct xitem *sorted = xmalloc((size_t)n * sizeof(*sorted));
	int i, k = 0, pass;

	/* pass 0: deadlocks; 1: unsettled frontiers; 2: the other frontiers */
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < n; i++)
			if ((items[i].kind == XITEM_DEADLOCK ? 0 :
			     items[i].unsettled		     ? 1 :
							       2) == pass)
				sorted[k++] = items[i];
	memcpy(items, sorted, (size_t)n * sizeof(*items));
	free(sorted);
}

int explore_search(struct explore *x, struct xitem **items, int *n)
{
	struct eng_prog **progs = xcalloc((size_t)x->nruns + 1, sizeof(*progs));
	struct mpiv_traceset **sets = xcalloc((size_t)x->nruns + 1, sizeof(*sets));
	struct mpiv_error err;
	struct model md;
	size_t cap = 0;
	int i, np = 0;

	*items = NULL;
	*n = 0;
	x->states = 0;
	x->incomplete = 0;
	for (i = 0; i < x->nruns; i++)
		if (x->runs[i]->usable) {
			progs[np] = &x->runs[i]->prog;
			sets[np++] = &x->runs[i]->ts;
		}
	mpiv_error_init(&err);
	memset(&md, 0, sizeof(md));
	if (np && xmodel_build(progs, sets, np, x->model_flags, &md.m, &err) == 0) {
		x->merged = 1;
		md.runs = sets;
		search_model(x, &md, items, n, &cap);
		xmodel_release(&md.m);
	} else if (np) {
		/* one model per run: what a run did is not known to the others' */
		x->merged = 0;
		snprintf(x->unmerged_why, sizeof(x->unmerged_why), "%s", err.text);
		for (i = 0; i < np; i++) {
			mpiv_error_init(&err);
			if (xmodel_build(&progs[i], &sets[i], 1, x->model_flags, &md.m, &err) < 0) {
				free(progs);
				free(sets);
				return error_report(&err);
			}
			md.runs = &sets[i];
			md.id = i;
			search_model(x, &md, items, n, &cap);
			xmodel_release(&md.m);
		}
	}
	free(progs);
	free(sets);
	deadlocks_first(*items, *n);
	explore_settle(x);
	return 0;
}
