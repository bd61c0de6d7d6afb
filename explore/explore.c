/* The loop of verify (explore.h, doc/verify.md): a first run; then, until the model of every
 * run so far asks for nothing new, the first run it asks for (a deadlock of the model to
 * confirm before a frontier to explore), one at a time, searching again after each, so that
 * what a run shows spares runs. Then the answer: deadlocks a run showed, the model's a run did
 * not, and what is left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "explore.h"
#include "mpilib.h"
#include "xalloc.h"

/* A steered run hung: is it a deadlock of the program, or did a receive the steering pinned
 * to one sender wait for a message another sender's could have stood for? The run's own
 * trace is replayed on the model (sends completing as they were forced to, or as the library
 * does): a deadlock there has no choice left at its end. */
static int genuine_hang(struct xrun *r)
{
	struct eng_prog p = r->prog;
	const struct xitem *it = r->item;
	enum eng_buffering b = ENG_BUF_ZERO;
	long long eager = 0;
	int32_t *st;
	int genuine;

	if (it && it->kind == XITEM_DEADLOCK) {
		b = (enum eng_buffering)it->mode.mode;
		eager = it->mode.bytes;
	} else if (r->ts.nranks && (eager = mpiv_mpilib_eager(r->ts.ranks[0].library)) >= 0) {
		b = ENG_BUF_EAGER;
	} else {
		eager = 0;
	}
	st = xcalloc(eng_state_bytes(&p), 1);
	tr_recorded_path(&p, &r->ts, b, eager, NULL, st);
	p.buffering = b;
	p.eager = eager;
	genuine = eng_nchoices(&p, st) == 0 && !eng_all_done(&p, st);
	free(st);
	return genuine;
}

/* How r ended, from what the runner saw and its trace. */
static void classify(struct explore *x, struct xrun *r)
{
	int k;

	switch (r->seen) {
	case XSEEN_INTERRUPTED:
		r->end = XRUN_INTERRUPTED;
		return;
	case XSEEN_PREDICTED:
		r->end = XRUN_CONFIRMED;	/* ended as soon as sure: not a whole path */
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
		char buf[300];

		tr_stop_of(&r->ts, k, &s);
		if (s.kind == TR_FINISHED)
			continue;
		tr_stop_describe(&r->ts, &s, buf, sizeof(buf));
		r->stopped = xmalloc(strlen(buf) + 32);
		sprintf(r->stopped, "rank %d %s", k, buf);
		r->end = XRUN_STOPPED;
		return;
	}
}

/* A new run for item (NULL: the first), its files named; its steering written. Returns it,
 * or NULL after an error. */
static struct xrun *new_run(struct explore *x, struct xitem *item)
{
	struct xrun *r = xcalloc(1, sizeof(*r));
	char path[4200];
	FILE *f;

	r->index = x->nruns + 1;
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

/* What run r showed, into the answer. */
static void take(struct explore *x, struct xrun *r)
{
	const struct xitem *it = r->item;
	char mode[48];

	if (it && it->kind == XITEM_FRONTIER)
		x->explored++;
	if (r->end == XRUN_CONFIRMED || r->end == XRUN_HUNG) {
		if (explore_known(x, r->hang_key))
			return;	/* the same calls stuck */
		xgrow((void **)&x->found, &x->capfound, (size_t)x->nfound + 1, sizeof(*x->found));
		if (it && it->kind == XITEM_DEADLOCK)
			mpiv_buffering_name(&it->mode, mode, sizeof(mode));
		else
			snprintf(mode, sizeof(mode), "as the library does");
		x->found[x->nfound].run = r;
		x->found[x->nfound].mode = xstrdup(mode);
		x->found[x->nfound].predicted = r->end == XRUN_CONFIRMED;
		x->nfound++;
		return;
	}
	if (!it || it->kind != XITEM_DEADLOCK)
		return;
	/* a deadlock of the model the run did not show */
	if (r->left || r->end == XRUN_PINNED) {
		x->refuted++;	/* the program does not take that path: its run is a path */
		return;
	}
	xgrow((void **)&x->unconfirmed, &x->capunconfirmed, (size_t)x->nunconfirmed + 1,
	      sizeof(*x->unconfirmed));
	x->unconfirmed[x->nunconfirmed].run = r;
	x->unconfirmed[x->nunconfirmed].why =
		r->end == XRUN_STOPPED ? "a rank stopped before it could deadlock" :
		"the program took the model's path to its end without deadlocking: the model "
		"and this MPI library disagree";
	x->nunconfirmed++;
}

/* Make a run for item (NULL: the first), and take what it showed. Returns it, or NULL after
 * an error (its exit code in *rc). */
static struct xrun *make_run(struct explore *x, const struct explore_runner *runner,
			     struct xitem *item, int *rc)
{
	struct xrun *r = new_run(x, item);

	*rc = MPIV_EXIT_BAD_INPUT;
	if (!r)
		return NULL;
	if (runner->run(runner->ctx, x, r) < 0) {
		*rc = MPIV_EXIT_TOOL;
		xrun_free(r);
		return NULL;
	}
	classify(x, r);
	xgrow((void **)&x->runs, &x->capruns, (size_t)x->nruns + 1, sizeof(*x->runs));
	x->runs[x->nruns++] = r;
	if (runner->progress)
		runner->progress(runner->ctx, x, r);
	if (r->end == XRUN_FAILED)
		return NULL;	/* explore_add_path() said why */
	take(x, r);
	return r;
}

int explore_whole(const struct explore *x)
{
	int i;

	for (i = 0; i < x->nruns; i++)
		if (x->runs[i]->end == XRUN_STOPPED)
			return 0;
	return !x->left && !x->incomplete && !x->nunconfirmed;
}

int explore_loop(struct explore *x, const struct explore_runner *runner)
{
	struct xitem *items = NULL;
	struct xrun *r;
	int n = 0, i, rc;

	x->started = mpiv_now();
	r = make_run(x, runner, NULL, &rc);
	if (!r)
		return rc;
	for (;;) {
		if (r->end == XRUN_INTERRUPTED)
			return 128 + r->signal;
		rc = explore_search(x, &items, &n);
		if (rc)
			return rc;
		if (n == 0)
			break;
		if (x->nruns >= x->max_runs ||
		    explore_out_of_time(x)) {
			x->left = n;
			if (x->nruns >= x->max_runs)
				snprintf(x->left_why, sizeof(x->left_why), "--max-runs %d reached",
					 x->max_runs);
			else
				snprintf(x->left_why, sizeof(x->left_why), "--time-limit reached");
			break;
		}
		r = make_run(x, runner, &items[0], &rc);
		for (i = 0; i < n; i++)
			xitem_release(&items[i]);
		free(items);
		items = NULL;
		n = 0;
		if (!r)
			return rc;
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
	memset(x, 0, sizeof(*x));
}
