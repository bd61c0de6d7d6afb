/* The life of one intercepted call in the recorder: re-entry guard, event numbering, live
 * status, and the watcher that writes a call still blocked after about a second as an
 * incomplete event, so that a hang leaves the blocked call in the trace. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "recorder.h"
#include "rec_site.h"
#include "rec_status.h"
#include "status.h"

/* A call posted this many status periods ago is reported as blocked (about 1 s). */
#define REC_STUCK_BEATS (1000 / MPIV_STATUS_PERIOD_MS)

/* >0 while this thread is inside a wrapper: MPI calls made meanwhile (by the tool, or by MPI
 * itself through the MPI_ names) are passed through unrecorded. */
static __thread int rec_depth;

/* Calls entered so far: the live status's op. Single-threaded it is the index the event will
 * get (rec_output_call() gives the real one); with threads it is close to it. */
static atomic_uint rec_entered;

/* Set when neither a trace nor a status file is written: calls go straight to PMPI. */
static atomic_int rec_off;

/* Calls between rec_call_posted() and rec_call_returned(), for the watcher. */
static pthread_mutex_t rec_posted_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rec_call *rec_posted_head;

void rec_guard_take(void)
{
	rec_depth++;
}

void rec_guard_drop(void)
{
	rec_depth--;
}

void rec_call_disable(void)
{
	atomic_store_explicit(&rec_off, 1, memory_order_relaxed);
}

int rec_call_enter(struct rec_call *c, unsigned call, const void *ret)
{
	uint32_t op;

	if (rec_depth > 0 || atomic_load_explicit(&rec_off, memory_order_relaxed))
		return 0;

	rec_guard_take();
	mpiv_event_init(&c->ev, call);
	op = atomic_fetch_add_explicit(&rec_entered, 1, memory_order_relaxed);
	c->ev.site = rec_site_lookup(ret);
	c->ev.reqs = c->reqs_inline;
	c->reqs_cap = REC_INLINE_REQS;
	c->indexed = 0;
	c->posted = 0;
	c->incomplete_sent = 0;
	c->ev.thread = rec_status_enter(call, op, c->ev.site);
	return 1;
}

void rec_call_posted(struct rec_call *c)
{
	pthread_mutex_lock(&rec_posted_lock);
	c->posted_beat = rec_status_beat();
	c->prev = NULL;
	c->next = rec_posted_head;
	if (rec_posted_head)
		rec_posted_head->prev = c;
	rec_posted_head = c;
	c->posted = 1;
	pthread_mutex_unlock(&rec_posted_lock);
}

void rec_call_returned(struct rec_call *c)
{
	if (!c->posted)
		return;
	pthread_mutex_lock(&rec_posted_lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		rec_posted_head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->posted = 0;
	pthread_mutex_unlock(&rec_posted_lock);
}

int rec_call_reserve_reqs(struct rec_call *c, uint32_t n)
{
	struct mpiv_reqinfo *r;

	if (n <= c->reqs_cap)
		return 0;
	if (c->ev.reqs == c->reqs_inline) {
		r = malloc(n * sizeof(*r));
		if (r)
			memcpy(r, c->reqs_inline, c->ev.nreqs * sizeof(*r));
	} else {
		r = realloc(c->ev.reqs, n * sizeof(*r));
	}
	if (!r)
		return -1;
	c->ev.reqs = r;
	c->reqs_cap = n;
	return 0;
}

int rec_call_add_req(struct rec_call *c, int32_t id, int32_t src, int32_t tag)
{
	struct mpiv_reqinfo *ri;

	if (c->ev.nreqs == c->reqs_cap && rec_call_reserve_reqs(c, 2 * c->reqs_cap))
		return -1;
	ri = &c->ev.reqs[c->ev.nreqs++];
	ri->req = id;
	ri->src = src;
	ri->tag = tag;
	return 0;
}

void rec_call_leave(struct rec_call *c)
{
	rec_call_returned(c);
	rec_output_call(c, 0);
	rec_status_leave();
	if (c->ev.reqs != c->reqs_inline)
		free(c->ev.reqs);
	c->ev.reqs = NULL;
	rec_guard_drop();
}

void rec_call_watch(uint64_t beat)
{
	struct rec_call *c;

	pthread_mutex_lock(&rec_posted_lock);
	for (c = rec_posted_head; c; c = c->next) {
		if (c->incomplete_sent || beat - c->posted_beat < REC_STUCK_BEATS)
			continue;
		/* This gives the call its index; when it returns, its complete record follows
		 * with the same index and replaces this one. */
		rec_output_call(c, MPIV_EV_INCOMPLETE);
		c->incomplete_sent = 1;
	}
	pthread_mutex_unlock(&rec_posted_lock);
}
