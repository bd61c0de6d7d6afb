/* When a run (record's or verify's) is deadlocked, judged on its traces (explore.h's
 * explore_stuck_now(), and a hung run's genuine_hang() in explore.c): the run's own path
 * walked in its model, where every thread that may call MPI is blocked in a call. */
#include <stdlib.h>

#include "explore.h"
#include "model.h"
#include "mpilib.h"
#include "stuck.h"
#include "xalloc.h"

int explore_stuck_on_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			  enum eng_buffering b, long long eager, int sync_colls, int strict)
{
	struct eng_prog p = *prog;
	int32_t *st = xcalloc(eng_state_bytes(&p), 1);
	int stuck, whole;

	whole = tr_recorded_path(&p, ts, b, eager, sync_colls, NULL, st);
	p.buffering = b;
	p.eager = eager;
	p.sync_colls = sync_colls;
	stuck = (whole || !strict) && eng_nchoices(&p, st) == 0 && !eng_all_done(&p, st);
	free(st);
	return stuck;
}

enum eng_buffering explore_run_buffering(const struct mpiv_traceset *ts, const struct xitem *it,
					 long long *eager, int *known)
{
	if (known)
		*known = 1;
	if (it && it->kind == XITEM_DEADLOCK) {
		*eager = it->mode.bytes;
		return tr_buffering(it->mode.mode);
	}
	if (ts->nranks && (*eager = mpiv_mpilib_eager(ts->ranks[0].library)) >= 0)
		return ENG_BUF_EAGER;
	*eager = 0;
	if (known)
		*known = 0;
	return ENG_BUF_ZERO;
}

/* Read ts as the traces of a hang record ended, filling its meta as meta.json would say it:
 * each rank blocked in its incomplete last call, or finished in MPI_Finalize (or the end of
 * its last session). Returns 0, or -1 if some rank is neither. */
static int as_hang(struct mpiv_traceset *ts)
{
	int r;

	mpiv_meta_release(&ts->meta);
	ts->meta.job = MPIV_JOB_DEADLOCK;
	ts->meta.hung = 1;
	ts->meta.nranks = ts->nranks;
	ts->meta.ranks = xcalloc((size_t)ts->nranks + 1, sizeof(*ts->meta.ranks));
	for (r = 0; r < ts->nranks; r++) {
		const struct mpiv_rank_trace *t = &ts->ranks[r];
		const struct mpiv_event *last = t->nevents ? mpiv_trace_event(t, t->nevents - 1) :
							     NULL;
		struct mpiv_meta_rank *seen = &ts->meta.ranks[r];

		if (!last)
			return -1;
		seen->event = (long)t->nevents - 1;
		seen->call = -1;
		if (t->incomplete) {
			seen->seen = MPIV_SEEN_IN_CALL;
			seen->call = (int)last->call;
		} else if (last->call == MPIV_CALL_Finalize ||
			   last->call == MPIV_CALL_Session_finalize) {
			seen->seen = MPIV_SEEN_FINALIZED;
		} else {
			return -1;
		}
	}
	return 0;
}

/* A thread of a rank, as a hang's trace shows it. */
struct stuck_thread {
	int32_t thread;
	int blocked; /* its last call had not returned, or ended MPI */
	int ended;   /* it returned, or another thread joined it */
};

static struct stuck_thread *thread_of(struct stuck_thread **th, size_t *n, size_t *cap,
				      int32_t thread)
{
	size_t i;

	for (i = *n; i-- > 0;)
		if ((*th)[i].thread == thread)
			return &(*th)[i];
	xgrow((void **)th, cap, *n + 1, sizeof(**th));
	(*th)[*n] = (struct stuck_thread){thread, 0, 0};
	return &(*th)[(*n)++];
}

/* Is every thread of rank trace t blocked in an MPI call, or done with MPI? Its threads are
 * those the trace names: by a call, or by a thread record (the recorder tells of every thread
 * there is when MPI is initialised, and of each made later). One that made no call and did
 * not end may still call MPI, and whoever waits may be waiting for it: the traces cannot
 * judge. */
static int threads_blocked(const struct mpiv_rank_trace *t)
{
	struct stuck_thread *th = NULL;
	size_t n = 0, cap = 0, i;
	int ok = 1;

	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);
		struct stuck_thread *x = thread_of(&th, &n, &cap, ev->thread);

		/* as_hang() takes a rank whose last call ends MPI for finished */
		x->blocked = (ev->flags & MPIV_EV_INCOMPLETE) || ev->call == MPIV_CALL_Finalize ||
			     ev->call == MPIV_CALL_Session_finalize;
	}
	for (i = 0; i < t->nthread_ops; i++) {
		const struct mpiv_thread_op *op = &t->thread_ops[i];
		struct stuck_thread *x = thread_of(&th, &n, &cap, op->other);

		x->ended |= op->op == MPIV_THREAD_EXIT || op->op == MPIV_THREAD_JOIN;
	}
	for (i = 0; i < n && ok; i++)
		ok = th[i].blocked || th[i].ended;
	free(th);
	return ok;
}

int explore_stuck_now(struct mpiv_traceset *ts, const struct xitem *it)
{
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 1, 0};
	struct mpiv_error err;
	struct eng_prog prog;
	enum eng_buffering b;
	long long eager;
	int r, known, stuck;

	for (r = 0; r < ts->nranks; r++)
		if (ts->ranks[r].thread_level >= 3 /* MPI_THREAD_MULTIPLE */ &&
		    !threads_blocked(&ts->ranks[r]))
			return 0;
	if (as_hang(ts) < 0)
		return 0;
	b = explore_run_buffering(ts, it, &eager, &known);
	if (!known)
		b = ENG_BUF_INFINITE; /* every send may have been buffered: stuck only on receives */
	mpiv_error_init(&err);
	if (tr_translate(ts, &opts, &prog, &err) < 0)
		return 0;
	xmodel_fill_inputs(&prog, ts);
	stuck = explore_stuck_on_path(&prog, ts, b, eager, 0, 1);
	eng_prog_release(&prog);
	return stuck;
}
