/* Replay of a trace whose threads call MPI: the trace numbers calls in the order their
 * records were written, which another run need not repeat, but each thread's own calls come
 * in its program's order. So a thread's k-th call is its k-th event, whatever the others do,
 * and the counterexample's entries (by event index) are found for it as for one thread. The
 * trace is read once more at MPI_Init into a table of every event (threaded traces are
 * short beside the single-threaded ones that rep_trace.c reads a chunk at a time). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_threads.h"
#include "replayer.h"

/* One thread's events, and where its calls are. */
struct rt_thread {
	int32_t number;
	uint32_t *idx; /* its event indices, ascending */
	uint32_t n, cap;
	uint32_t pos; /* idx[pos] is its next call's (only the thread itself moves it) */
};

static struct rep_tevent *rt_ev; /* by event index */
static uint32_t rt_nev;
static atomic_uchar *rt_returned; /* by event index: its call returned in this run */
static struct rt_thread *rt_th;
static size_t rt_nth;
static atomic_uint rt_beyond; /* numbers the calls past a thread's list */
static __thread struct rt_thread *rt_me __attribute__((tls_model("initial-exec")));

struct rt_load {
	int oom;
};

static void rt_take(void *ctx, const struct mpiv_event *ev)
{
	struct rep_tevent *x;

	if (ev->index >= rt_nev)
		return; /* the first pass counted fewer: a file changed under us is not replayed */
	x = &rt_ev[ev->index];
	x->thread = ev->thread;
	x->call = (uint16_t)ev->call;
	x->flags = (uint16_t)ev->flags;
	x->peer = ev->peer;
	x->tag = ev->tag;
	x->comm = ev->comm;
	x->src = ev->src;
	x->mtag = ev->mtag;
	x->nreqs = ev->nreqs;
	x->npending = ev->npending;
	(void)ctx;
}

static struct rt_thread *rt_find(int32_t number)
{
	size_t i;

	for (i = 0; i < rt_nth; i++)
		if (rt_th[i].number == number)
			return &rt_th[i];
	return NULL;
}

int rep_threads_load(char *why, size_t whysize)
{
	struct rt_load ld = {0};
	struct rt_thread *t;
	uint32_t i;

	rt_nev = rep_trace_count();
	rt_ev = calloc(rt_nev ? rt_nev : 1, sizeof(*rt_ev));
	rt_returned = calloc(rt_nev ? rt_nev : 1, sizeof(*rt_returned));
	if (!rt_ev || !rt_returned)
		goto oom;
	if (rep_trace_each(rt_take, &ld, why, whysize) != 0) {
		rep_threads_release();
		return -1;
	}
	for (i = 0; i < rt_nev; i++) {
		t = rt_find(rt_ev[i].thread);
		if (!t) {
			void *p = realloc(rt_th, (rt_nth + 1) * sizeof(*rt_th));

			if (!p)
				goto oom;
			rt_th = p;
			t = &rt_th[rt_nth++];
			memset(t, 0, sizeof(*t));
			t->number = rt_ev[i].thread;
		}
		if (t->n == t->cap) {
			void *p = realloc(t->idx, (t->cap ? 2 * t->cap : 64) * sizeof(*t->idx));

			if (!p)
				goto oom;
			t->idx = p;
			t->cap = t->cap ? 2 * t->cap : 64;
		}
		t->idx[t->n++] = i;
	}
	atomic_store(&rt_beyond, rt_nev);
	return 0;
oom:
	snprintf(why, whysize, "out of memory for the recorded trace's threads");
	rep_threads_release();
	return -1;
}

int rep_threads_on(void)
{
	return rt_ev != NULL;
}

const struct rep_tevent *rep_threads_event(uint32_t index)
{
	return rt_ev && index < rt_nev ? &rt_ev[index] : NULL;
}

/* The calling thread's list; NULL for a thread the trace does not have. */
static struct rt_thread *rt_self(void)
{
	if (!rt_me)
		rt_me = rt_find(rec_thread_number());
	return rt_me;
}

uint32_t rep_threads_index(void)
{
	struct rt_thread *t = rt_self();

	if (t && t->pos < t->n)
		return t->idx[t->pos];
	return atomic_fetch_add(&rt_beyond, 1);
}

/* Is the event at position pos of t a poll that found nothing, of the same call as c? */
static int rt_failed_poll(const struct rt_thread *t, uint32_t pos, unsigned call)
{
	const struct rep_tevent *x = pos < t->n ? &rt_ev[t->idx[pos]] : NULL;

	return x && x->call == call &&
	       mpiv_failed_poll(x->call, x->src, x->flags, x->nreqs, x->npending);
}

void rep_threads_after(const struct rep_call *c)
{
	struct rt_thread *t = rt_self();

	if (c->index < rt_nev)
		atomic_store(&rt_returned[c->index], 1);
	if (!t || t->pos >= t->n)
		return;
	/* as rep_schedule.c's cursor: a failed poll takes a recorded one if there is one left,
	 * a poll that found skips the recorded ones that failed */
	if (!c->poll) {
		t->pos++;
	} else if (!c->found) {
		if (rt_failed_poll(t, t->pos, c->call))
			t->pos++;
	} else {
		while (rt_failed_poll(t, t->pos, c->call))
			t->pos++;
		t->pos++;
	}
}

int rep_threads_returned(uint32_t index)
{
	return index < rt_nev && atomic_load(&rt_returned[index]);
}

void rep_threads_release(void)
{
	size_t i;

	for (i = 0; i < rt_nth; i++)
		free(rt_th[i].idx);
	free(rt_th);
	free(rt_ev);
	free((void *)rt_returned);
	rt_th = NULL;
	rt_ev = NULL;
	rt_returned = NULL;
	rt_nth = 0;
	rt_nev = 0;
}
