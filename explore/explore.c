/* The loop of verify (explore.h, doc/verify.md): a first run; then, until the model of every
 * run so far asks for nothing new, a round of every run it asks for (deadlocks of the model to
 * confirm before frontiers to explore), as many under way at once as the runner has slots,
 * searching again after each round. What a round's runs showed is taken in the order they
 * were asked for, once all have ended, so that the answer does not depend on how many ran at
 * once nor on which ended first. Then the answer: deadlocks a run showed, the model's a run
 * did not, and what is left. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "explore.h"
#include "steer.h"
#include "stuck.h"
#include "trace_threads.h"
#include "xalloc.h"

/* Could the last call of rank t (event e) wait on a decision steering pins: a wildcard
 * receive or probe, an any-completion, or a completion of a request some wildcard receive
 * made (or one whose making the trace does not show plainly: a persistent request)? */
static int waits_on_pin(const struct mpiv_rank_trace *t, long e)
{
	const struct mpiv_event *ev = mpiv_trace_event(t, (size_t)e);
	uint32_t j;

	if (ev->peer == MPIV_ANY_SOURCE || ev->peer2 == MPIV_ANY_SOURCE)
		return 1;
	if (mpiv_call_kind(ev->call) != MPIV_KIND_WAIT)
		return 0;
	if (mpiv_call_any_completion(ev->call))
		return 1;
	for (j = 0; j < ev->nreqs; j++) {
		long m = mpiv_trace_request_maker(t, e, ev->reqs[j].req);
		const struct mpiv_event *mk = m >= 0 ? mpiv_trace_event(t, (size_t)m) : NULL;

		if (!mk || mk->peer == MPIV_ANY_SOURCE ||
		    mpiv_call_kind(mk->call) == MPIV_KIND_START)
			return 1;
	}
	return 0;
}

/* Is some rank of run r, at its end, in a call that could wait on a pinned decision? A hang in
 * which none is cannot be the steering's doing. */
static int hang_may_be_pinned(const struct xrun *r)
{
	int k;

	for (k = 0; k < r->ts.nranks; k++) {
		const struct mpiv_rank_trace *t = &r->ts.ranks[k];

		if (t->nevents && waits_on_pin(t, (long)t->nevents - 1))
			return 1;
	}
	return 0;
}

/* Is some thread of run r, whose ranks call MPI from several threads, blocked in a decision
 * the steering forced (a receive or probe pinned to one sender, a completion to its
 * requests)? Those decisions a thread took before are each a match MPI allows, so a hang
 * with none pinned is the program's. The thread's steered decisions are counted in the
 * trace as the recorder counts them: its own, in its order. */
static int threads_pinned(const struct xrun *r)
{
	int k;

	for (k = 0; k < r->ts.nranks; k++) {
		const struct mpiv_rank_trace *t = &r->ts.ranks[k];
		const struct mpiv_steer_decision *d;
		struct mpiv_steer s;
		char why[128], path[MPIV_STEER_PATH];
		size_t e, n, nth;
		long i;
		int pinned = 0;

		if (mpiv_steer_parse(r->item->steer, strlen(r->item->steer), k, &s, why,
				     sizeof(why)) < 0) {
			mpiv_steer_release(&s);
			return 1; /* written by verify: not so */
		}
		for (e = 0; e < t->nevents && !pinned; e++) {
			const struct mpiv_event *ev = mpiv_trace_event(t, e);
			int32_t thread = ev->thread;

			if (!(ev->flags & MPIV_EV_INCOMPLETE) ||
			    mpiv_event_decision(ev) == MPIV_DEC_NONE ||
			    mpiv_thread_path(t, thread, path, sizeof(path)) < 0)
				continue;
			/* which of the thread's decisions it is */
			for (nth = 0, i = mpiv_thread_next_decision(t, thread, 0);
			     i >= 0 && (size_t)i < e;
			     i = mpiv_thread_next_decision(t, thread, (size_t)i + 1))
				nth++;
			mpiv_steer_decisions_of(&s, path, &d, &n);
			pinned = nth < n && !mpiv_steer_free(&d[nth]);
		}
		mpiv_steer_release(&s);
		if (pinned)
			return 1;
	}
	return 0;
}

/* A steered run hung: is it a deadlock of the program, or did a receive the steering pinned
 * to one sender wait for a message another sender's could have stood for? Where no rank is in
 * a call that could wait on a pin, the hang is the program's. Otherwise the run's own trace is
 * replayed on the model (sends completing as they were forced to, or as the library does): a
 * deadlock there has no choice left at its end. With buffering, a collective of the run may
 * have waited for every member, as MPI lets any do (doc/semantics.md 5.2): the path is walked
 * both ways. */
static int genuine_hang(struct xrun *r)
{
	enum eng_buffering b;
	long long eager;

	if (!hang_may_be_pinned(r))
		return 1;
	/* the model of a hung run of threads cannot tell (another thread may be about to call
	 * MPI): what the steering pinned can */
	if (r->prog.nprocs != r->prog.nranks)
		return !threads_pinned(r);
	b = explore_run_buffering(&r->ts, r->item, &eager, NULL);
	return explore_stuck_on_path(&r->prog, &r->ts, b, eager, 0, 0) ||
	       (b != ENG_BUF_ZERO && explore_stuck_on_path(&r->prog, &r->ts, b, eager, 1, 0));
}

/* The collective mismatch run r's own trace shows (doc/semantics.md 5.1): members of a
 * communicator that called different collectives, or named different roots, at the same
 * place. The run made that error, whether or not the library completed it. Returns its
 * description, one line a call (malloc'ed), with its key in *key, or NULL if there is none. */
static char *run_mismatch(const struct xrun *r, char **key)
{
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	struct tr_event_ref *at = NULL;
	struct eng_prog p;
	struct mpiv_error err;
	struct xkey k;
	char *text = NULL, where[1024];
	size_t len = 0, n = 0, shown = 0, i;
	FILE *f;

	mpiv_error_init(&err);
	if (!r->usable || tr_translate(&r->ts, &opts, &p, &err) < 0)
		return NULL; /* translated for verify already: it cannot fail here */
	n = tr_coll_mismatches(&p, &at);
	eng_prog_release(&p);
	f = open_memstream(&text, &len);
	if (!f)
		die(MPIV_EXIT_TOOL, "out of memory");
	xkey_open(&k);
	for (i = 0; i < n; i++) {
		const struct mpiv_rank_trace *t = &r->ts.ranks[at[i].rank];
		const struct mpiv_event *ev;

		if ((size_t)at[i].ev >= t->nevents)
			continue;
		ev = mpiv_trace_event(t, (size_t)at[i].ev);
		xkey_rank(&k, ev->call, mpiv_trace_module(t, ev->site), MPIV_SITE_ADDR(ev->site));
		explore_event_where(&r->ts, at[i].rank, at[i].ev, where, sizeof(where));
		fprintf(f, "rank %d: %s, event %ld\n", at[i].rank, where, at[i].ev);
		shown++;
	}
	fclose(f);
	free(at);
	*key = xkey_close(&k);
	if (shown)
		return text;
	free(text);
	free(*key);
	*key = NULL;
	return NULL;
}

/* How telling a way of stopping is, most first: a rank that aborted, crashed or exited stopped
 * of itself; one that record ended, or that died of a signal launchers end jobs with (Open
 * MPI's mpirun sends SIGTERM to the other ranks when one stops), most likely stopped because
 * of it; one killed without a word, the least telling. */
static int stop_rank(const struct tr_stop *s)
{
	switch (s->kind) {
	case TR_STOP_ABORTED:
	case TR_STOP_EXIT:
		return 0;
	case TR_STOP_SIGNAL:
		return s->code == SIGTERM || s->code == SIGINT || s->code == SIGHUP ||
		       s->code == SIGKILL;
	case TR_STOP_ENDED:
		return 1;
	default:
		return 2;
	}
}

/* How r ended, from what the runner saw and its trace. */
static void classify(struct explore *x, struct xrun *r)
{
	struct tr_stop first = {0};
	int k, others = 0, left_out = 0;

	switch (r->seen) {
	case XSEEN_INTERRUPTED:
		r->end = XRUN_INTERRUPTED;
		return;
	case XSEEN_PREDICTED:
		r->end = XRUN_CONFIRMED; /* ended as soon as sure: not a whole path */
		return;
	case XSEEN_KNOWN:
		r->end = XRUN_HUNG;
		return;
	case XSEEN_HUNG:
		if (explore_add_path(x, r))
			r->end = XRUN_FAILED;
		else if (!r->item || genuine_hang(r))
			r->end = XRUN_HUNG;
		else
			r->end = XRUN_PINNED;
		return;
	default:
		break;
	}
	if (explore_add_path(x, r)) {
		r->end = XRUN_FAILED;
		return;
	}
	r->end = XRUN_COMPLETED;
	for (k = 0; k < r->ts.nranks; k++) {
		struct tr_stop s;

		tr_stop_of(&r->ts, k, &s);
		if (s.kind == TR_FINISHED)
			continue;
		left_out += s.kind == TR_STOP_UNJUDGED;
		others += r->end == XRUN_STOPPED;
		/* the rank that stopped of itself (aborted, crashed, exited) rather than one the
		 * launcher then killed, or record ended */
		if (r->end != XRUN_STOPPED || stop_rank(&s) < stop_rank(&first))
			first = s;
		r->end = XRUN_STOPPED;
	}
	if (r->end == XRUN_STOPPED) {
		char buf[300];

		r->crashed = stop_rank(&first) == 0;
		r->left_out = left_out;
		tr_stop_describe(&r->ts, &first, buf, sizeof(buf));
		r->stopped = xmalloc(strlen(buf) + 120);
		sprintf(r->stopped, "rank %d %s", first.rank, buf);
		/* the others: left out as well (SERIALIZED threads in every rank, say), or not */
		left_out -= first.kind == TR_STOP_UNJUDGED;
		if (left_out)
			sprintf(r->stopped + strlen(r->stopped), "; %d other rank%s left out so",
				left_out, left_out > 1 ? "s" : "");
		if (others - left_out)
			sprintf(r->stopped + strlen(r->stopped), "; %d other rank%s did not finish",
				others - left_out, others - left_out > 1 ? "s" : "");
	}
}

/* A new run for item (NULL: the first), its files named; its steering written. Returns it,
 * or NULL after an error. */
static struct xrun *new_run(struct explore *x, struct xitem *item)
{
	struct xrun *r = xcalloc(1, sizeof(*r));
	char path[4200];
	FILE *f;

	r->index = ++x->made;
	r->round = x->rounds;
	snprintf(path, sizeof(path), "%s/runs/%d", x->outdir, r->index);
	r->dir = xstrdup(path);
	snprintf(path, sizeof(path), "%s/runs/%d.out", x->outdir, r->index);
	r->out_path = xstrdup(path);
	if (!item)
		return r;
	r->item = xmalloc(sizeof(*r->item));
	*r->item = *item;
	memset(item, 0, sizeof(*item));
	snprintf(path, sizeof(path), "%s/runs/%d.steer", x->outdir, r->index);
	r->steer_path = xstrdup(path);
	f = fopen(path, "w");
	if (!f || fputs(r->item->steer, f) < 0 || fclose(f) != 0) {
		error("cannot write the steering file '%s': %s", path, strerror(errno));
		if (f)
			fclose(f);
		xrun_free(r);
		return NULL;
	}
	xgrow((void **)&x->tried, &x->captried, (size_t)x->ntried + 1, sizeof(*x->tried));
	x->tried[x->ntried++] = xstrdup(r->item->steer);
	return r;
}

int explore_crash_rank(const struct mpiv_traceset *ts, struct tr_stop *s)
{
	int k;

	for (k = 0; k < ts->nranks; k++) {
		tr_stop_of(ts, k, s);
		if (s->kind != TR_FINISHED && !stop_rank(s))
			return k;
	}
	return -1;
}

/* The key of crashed run r (explore_known()): how its rank stopped, after which call; and,
 * when the run left no stack of it (MPI_Abort, an exit), its report: that call. */
static char *crash_key(struct xrun *r)
{
	const struct mpiv_rank_trace *t;
	const char *module = NULL;
	uint64_t site = 0;
	char key[800], where[1024];
	struct tr_stop s;
	int k = explore_crash_rank(&r->ts, &s);

	if (k < 0)
		return xstrdup("stop;");
	t = &r->ts.ranks[k];
	if (s.event >= 0) {
		site = mpiv_trace_event(t, (size_t)s.event)->site;
		module = mpiv_trace_module(t, site);
		if (!r->report) {
			explore_event_where(&r->ts, k, s.event, where, sizeof(where));
			r->report = xmalloc(strlen(where) + 64);
			sprintf(r->report, "rank %d's last MPI call: %s\n", k, where);
		}
	}
	snprintf(key, sizeof(key), "stop %d %d@%s+0x%llx;", (int)s.kind, s.code,
		 module ? module : "?", (unsigned long long)MPIV_SITE_ADDR(site));
	return xstrdup(key);
}

/* Add what run r showed to the answer's findings. */
static void found(struct explore *x, struct xrun *r, enum xfound_kind kind)
{
	const struct xitem *it = r->item;
	struct xdeadlock *d;
	char mode[48];

	xgrow((void **)&x->found, &x->capfound, (size_t)x->nfound + 1, sizeof(*x->found));
	if (it && it->kind == XITEM_DEADLOCK)
		mpiv_buffering_name(&it->mode, mode, sizeof(mode));
	else
		snprintf(mode, sizeof(mode), "as the library does");
	d = &x->found[x->nfound++];
	d->run = r;
	d->mode = xstrdup(mode);
	d->predicted = kind == XFOUND_MISMATCH ? it && it->kind == XITEM_DEADLOCK :
						 r->end == XRUN_CONFIRMED;
	d->kind = kind;
}

/* A deadlock of the model that run r, made to confirm it, did not show, and why. */
static void unconfirmed(struct explore *x, struct xrun *r, const char *why)
{
	xgrow((void **)&x->unconfirmed, &x->capunconfirmed, (size_t)x->nunconfirmed + 1,
	      sizeof(*x->unconfirmed));
	x->unconfirmed[x->nunconfirmed].run = r;
	x->unconfirmed[x->nunconfirmed].why = why;
	x->nunconfirmed++;
}

/* What run r showed, into the answer. */
static void take(struct explore *x, struct xrun *r)
{
	const struct xitem *it = r->item;
	char *key = NULL, *mismatch;

	if (it && it->kind == XITEM_FRONTIER)
		x->explored++;
	/* a run of threads that did not take its steered decisions did not explore the
	 * decision, and one rank's threads may have shown only part of what it leads to: the
	 * runs made need not cover every run (one thread's run is a path of the program
	 * whatever it takes: each rank's calls follow its decisions alone) */
	if (it && it->kind == XITEM_FRONTIER && r->left && r->usable &&
	    r->prog.nprocs != r->prog.nranks)
		explore_threads_unsteered(x, r, "a thread did not take the decisions steered");
	if (r->end == XRUN_CONFIRMED || r->end == XRUN_HUNG) {
		if (!explore_known(x, r->hang_key)) /* else: the same calls stuck */
			found(x, r, XFOUND_DEADLOCK);
		return;
	}
	/* a run that went through a collective mismatch (the library completed it, or a rank
	 * stopped after it) showed an error of the program: the model's deadlock there is the
	 * same one, by the calls (explore_known() spares its run) */
	if ((r->end == XRUN_COMPLETED || r->end == XRUN_STOPPED) &&
	    (mismatch = run_mismatch(r, &key))) {
		if (!explore_known(x, key)) {
			free(r->hang_key);
			r->hang_key = key;
			free(r->report);
			r->report = mismatch;
			found(x, r, XFOUND_MISMATCH);
			return;
		}
		free(key);
		free(mismatch);
		if (it && it->kind == XITEM_DEADLOCK)
			return; /* the mismatch it was to confirm, shown before */
	}
	/* a rank that died of itself on a path the library took: what the user looks for,
	 * once per way of dying after the same call */
	if (r->end == XRUN_STOPPED && r->crashed) {
		key = crash_key(r);
		if (!explore_known(x, key)) {
			free(r->hang_key);
			r->hang_key = key;
			found(x, r, XFOUND_CRASH);
		} else {
			free(key);
		}
	}
	if (!it || it->kind != XITEM_DEADLOCK)
		return;
	/* a deadlock of the model the run did not show */
	if (r->left || r->end == XRUN_PINNED) {
		x->refuted++; /* the program does not take that path: its run is a path */
		return;
	}
	/* the model had a rank stuck in a poll; the program polled on, and the run, a path
	 * added to the model, shows where to (doc/verify.md 4) */
	if (it->polled && r->end == XRUN_COMPLETED) {
		x->refuted++;
		return;
	}
	if (r->end == XRUN_COMPLETED) {
		/* the next search, with this run in its model, settles it */
		xgrow((void **)&x->doubted, &x->capdoubted, (size_t)x->ndoubted + 1,
		      sizeof(*x->doubted));
		x->doubted[x->ndoubted++] = r;
		return;
	}
	unconfirmed(x, r, "a rank stopped before it could deadlock");
}

void explore_settle(struct explore *x)
{
	int i;

	for (i = 0; i < x->ndoubted; i++) {
		struct xrun *r = x->doubted[i];

		if (r->asked_again || x->incomplete)
			unconfirmed(
				x, r,
				"the program took the model's path to its end without "
				"deadlocking, and the model with that run still deadlocks there: "
				"the model and this MPI library disagree");
		else
			x->refuted++;
	}
	x->ndoubted = 0;
}

/* Stop a round early: nothing more is started, and what is under way is ended. */
static void stop_round(const struct explore_runner *runner, int *stopping)
{
	if (*stopping)
		return;
	*stopping = 1;
	runner->cancel(runner->ctx);
}

/* Make the runs of one round, at most runner->slots() at once, classifying each as it ends;
 * then count, in the round's order, those that ended (a run cancelled by --time-limit does
 * not count: it is one more left). Returns 0, or an exit code: 128 + the signal when
 * mpiverify was interrupted, MPIV_EXIT_TOOL when a job could not run, MPIV_EXIT_BAD_INPUT
 * when a trace cannot be judged (a message said why). Frees every run of rs that does not
 * count. */
static int run_round(struct explore *x, const struct explore_runner *runner, struct xrun **rs,
		     int n)
{
	int slots = runner->slots(runner->ctx, x), next = 0, running = 0, stopping = 0;
	int rc = 0, i, signal = 0;
	struct xrun *r;

	while (next < n || running) {
		while (!stopping && next < n && running < slots) {
			if (runner->start(runner->ctx, x, rs[next]) < 0) {
				rs[next++]->failed = 1;
				rc = MPIV_EXIT_TOOL;
				stop_round(runner, &stopping);
				break;
			}
			next++;
			running++;
		}
		if (!running)
			break;
		/* once stopping, the runs under way are waited for to their end */
		r = runner->wait(runner->ctx, x,
				 x->time_limit > 0 && !stopping ? x->started + x->time_limit : 0);
		if (!r) {
			/* --time-limit: what is under way is ended, and left */
			if (!x->left_why[0])
				snprintf(x->left_why, sizeof(x->left_why), "--time-limit reached");
			stop_round(runner, &stopping);
			continue;
		}
		running--;
		if (r->failed) {
			rc = MPIV_EXIT_TOOL;
			stop_round(runner, &stopping);
			continue;
		}
		if (r->seen == XSEEN_INTERRUPTED && stopping && !signal) {
			r->cancelled = 1; /* ended by us, not by a signal to mpiverify */
			continue;
		}
		if (r->seen == XSEEN_LOST) {
			r->cancelled = 1; /* no verdict: a decision left */
			x->lost++;
			continue;
		}
		classify(x, r);
		if (r->end == XRUN_INTERRUPTED) {
			signal = r->signal;
			stop_round(runner, &stopping);
		}
		if (runner->progress)
			runner->progress(runner->ctx, x, r, running);
	}
	for (i = 0; i < n; i++) {
		r = rs[i];
		if (i >= next || r->cancelled || r->failed) {
			if (i >= next || r->cancelled)
				x->left++;
			xrun_free(r);
			continue;
		}
		xgrow((void **)&x->runs, &x->capruns, (size_t)x->nruns + 1, sizeof(*x->runs));
		x->runs[x->nruns++] = r;
		if (r->end == XRUN_FAILED && !rc)
			rc = MPIV_EXIT_BAD_INPUT; /* explore_add_path() said why */
		else if (r->end != XRUN_FAILED && r->end != XRUN_INTERRUPTED)
			take(x, r);
	}
	if (signal)
		return 128 + signal;
	return rc;
}

int explore_left_out(const struct explore *x)
{
	int i, n = 0;

	for (i = 0; i < x->nruns; i++)
		n += x->runs[i]->end == XRUN_STOPPED && x->runs[i]->left_out;
	return n;
}

int explore_whole(const struct explore *x)
{
	int i;

	for (i = 0; i < x->nruns; i++)
		if (x->runs[i]->end == XRUN_STOPPED)
			return 0;
	return !x->left && !x->incomplete && !x->nunconfirmed && !x->threads_why[0] &&
	       !x->polls_why[0];
}

int explore_loop(struct explore *x, const struct explore_runner *runner)
{
	struct xitem *items = NULL;
	struct xrun **rs = NULL;
	int n = 0, i, k, rc;

	x->started = mpiv_now();
	rs = xmalloc(sizeof(*rs));
	rs[0] = new_run(x, NULL);
	rc = run_round(x, runner, rs, 1);
	free(rs);
	if (rc)
		return rc;
	if (!x->nruns)
		return MPIV_EXIT_INCONCLUSIVE; /* the first run was cut short by --time-limit */
	for (;;) {
		rc = explore_search(x, &items, &n);
		if (!rc && x->signal)
			rc = 128 + x->signal; /* the search ended by a signal: nothing more */
		if (rc) {
			for (i = 0; i < n; i++)
				xitem_release(&items[i]);
			free(items);
			return rc;
		}
		if (n == 0)
			break;
		if (x->made >= x->max_runs || explore_out_of_time(x)) {
			x->left += n;
			if (!x->left_why[0] && x->made >= x->max_runs)
				snprintf(x->left_why, sizeof(x->left_why), "--max-runs %d reached",
					 x->max_runs);
			else if (!x->left_why[0])
				snprintf(x->left_why, sizeof(x->left_why), "--time-limit reached");
			break;
		}
		/* the round: the first EXPLORE_ROUND items, as far as --max-runs allows, in the
		 * search's order; the others are asked for again by the next search if what
		 * these runs show does not settle them */
		x->rounds++;
		rs = xcalloc((size_t)n, sizeof(*rs));
		for (k = 0; k < n && k < EXPLORE_ROUND && x->made < x->max_runs; k++) {
			rs[k] = new_run(x, &items[k]);
			if (!rs[k]) {
				rc = MPIV_EXIT_BAD_INPUT;
				break;
			}
		}
		for (i = 0; i < n; i++)
			xitem_release(&items[i]);
		free(items);
		items = NULL;
		/* items past --max-runs are asked for again by the next search, and counted
		 * there as left */
		if (!rc)
			rc = run_round(x, runner, rs, k);
		else
			for (i = 0; i < k; i++)
				xrun_free(rs[i]);
		free(rs);
		n = 0;
		if (rc)
			return rc;
		if (x->left_why[0]) {
			/* --time-limit, during the round: the runs that ended after it may have
			 * shown decisions no run took; they are left, never explored */
			rc = explore_search(x, &items, &n);
			if (rc)
				return rc;
			x->left += n;
			if (!x->left)
				x->left_why[0] = '\0'; /* nothing was left after all */
			break;
		}
	}
	for (i = 0; i < n; i++)
		xitem_release(&items[i]);
	free(items);
	if (x->nfound)
		return MPIV_EXIT_DEADLOCK;
	if (!explore_whole(x))
		return MPIV_EXIT_INCONCLUSIVE;
	return MPIV_EXIT_OK;
}

void xrun_free(struct xrun *r)
{
	if (!r)
		return;
	if (r->item) {
		xitem_release(r->item);
		free(r->item);
	}
	if (r->usable) {
		eng_prog_release(&r->prog);
		mpiv_traceset_release(&r->ts);
	}
	free(r->dir);
	free(r->steer_path);
	free(r->out_path);
	free(r->report);
	free(r->hang_key);
	free(r->stopped);
	free(r);
}

void explore_release(struct explore *x)
{
	int i;

	for (i = 0; i < x->nruns; i++)
		xrun_free(x->runs[i]);
	free(x->runs);
	for (i = 0; i < x->ntried; i++)
		free(x->tried[i]);
	free(x->tried);
	for (i = 0; i < x->nfound; i++)
		free(x->found[i].mode);
	free(x->found);
	free(x->unconfirmed);
	free(x->doubted);
	memset(x, 0, sizeof(*x));
}
