/* The life of one intercepted call in the recorder: re-entry guard, event numbering, live
 * status, and the watcher that writes a call still blocked after about a second as an
 * incomplete event, so that a hang leaves the blocked call in the trace. The fast path takes
 * no lock and, but with MPI_THREAD_MULTIPLE, makes no atomic read-modify-write: each thread
 * publishes its blocked call in its own slot, and the rare watcher pays for the fences. */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "environment.h"
#include "recorder.h"
#include "rec_pysite.h"
#include "rec_site.h"
#include "rec_status.h"
#include "rec_threads.h"
#include "status.h"

/* A call blocked this long is written to the trace, incomplete: half a second, so that verify
 * can tell a run's hang from its traces (explore_stuck_now()) before its 0.7 s grace ends, at
 * the cost of a record for each call that takes longer. */
#define REC_STUCK_MS 500
#define REC_STUCK_BEATS (REC_STUCK_MS / MPIV_STATUS_PERIOD_MS)

/* Handing a blocked call to the watcher. The call's thread (the owner) publishes it in its
 * slot's posted and withdraws it when PMPI returns; the watcher, which must not read the call
 * once its stack frame is gone, claims it in watching. Between owner (store posted = 0, then
 * load watching) and watcher (store watching, then load posted) sits a full fence, Dekker's
 * way, so that they cannot both miss each other. The fence costs the owner nothing: the
 * watcher makes every thread of the process execute one with membarrier(2), as userspace RCU
 * does. Where membarrier is missing, the owner takes the call back with an atomic exchange on
 * posted instead and the watcher marks its claim there (REC_WATCHED). */
#define REC_WATCHED ((uintptr_t)1)

/* A thread that makes MPI calls. Slots are never freed (the watcher may be reading one);
 * the slot of a thread that ended is reused by the next new thread. */
struct rec_thread {
	/* the owner's struct rec_call between rec_call_posted()
	 * and rec_call_returned(); 0 when none */
	atomic_uintptr_t posted;
	atomic_uintptr_t watching; /* the call the watcher holds (membarrier protocol) */
	/* rec_status_beat() when it was posted: a hint that
	 * spares the watcher claiming calls that are not stuck */
	atomic_ullong posted_beat;
	/* exchange protocol: the watcher let go of a call its
	 * owner took back */
	atomic_int released;
	atomic_int used; /* a live thread owns the slot */
	/* the owner's status slot (MPI_THREAD_MULTIPLE: set as it posts a call), whose event
	 * index of a blocked call the watcher makes exact when it writes the call */
	_Atomic(struct st_slot *) status;
	struct rec_thread *next; /* every slot, newest first */
};

__thread struct rec_tls rec_tls __attribute__((tls_model("initial-exec")));

/* Calls entered so far: the live status's op when no trace is written. */
static atomic_uint rec_entered;

/* Set when neither a trace nor a status file is written: calls go straight to PMPI. */
static atomic_int rec_off;

/* MPI_THREAD_MULTIPLE: calls of several threads may overlap, counters need atomic updates
 * and tables their locks (recorder.h). */
int rec_multi = 1;

int rec_timed;

/* membarrier(2) is there: the membarrier protocol (see REC_WATCHED). */
static int rec_asym;

static pthread_mutex_t rec_threads_lock = PTHREAD_MUTEX_INITIALIZER; /* adding slots */
static _Atomic(struct rec_thread *) rec_threads; /* every slot, for the watcher */
static pthread_key_t rec_thread_key;		 /* gives the slot back when its thread ends */
static pthread_once_t rec_thread_once = PTHREAD_ONCE_INIT;
static int rec_thread_key_ok; /* rec_thread_key exists */

int rec_thread_in_call(void)
{
	return rec_tls.depth > 0;
}

void rec_guard_take(void)
{
	rec_tls.depth++;
}

void rec_guard_drop(void)
{
	rec_tls.depth--;
}

void rec_call_disable(void)
{
	atomic_store_explicit(&rec_off, 1, memory_order_relaxed);
}

void rec_call_set_threads(int multiple)
{
	rec_multi = multiple;
}

/* At load, before any call: which protocol hands blocked calls to the watcher. */
__attribute__((constructor)) static void rec_call_init(void)
{
	long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	const char *timed = getenv(MPIV_ENV_TIMESTAMPS);

	rec_timed = timed && *timed && strcmp(timed, "0") != 0;
	rec_asym = cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
		   syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

static void rec_thread_exit(void *arg)
{
	struct rec_thread *t = arg;

	/* A call from a later destructor of this thread must not use the slot it gives up. */
	rec_tls.self = NULL;
	atomic_store_explicit(&t->used, 0, memory_order_release);
}

static void rec_thread_key_make(void)
{
	rec_thread_key_ok = pthread_key_create(&rec_thread_key, rec_thread_exit) == 0;
}

/* This thread's slot, found or made on its first blocking call. NULL if out of memory (its
 * calls are then never reported as blocked). */
static REC_COLD struct rec_thread *rec_thread_self(void)
{
	struct rec_thread *t;
	int zero;

	pthread_once(&rec_thread_once, rec_thread_key_make);
	pthread_mutex_lock(&rec_threads_lock);
	for (t = atomic_load(&rec_threads); t; t = t->next) {
		zero = 0;
		if (atomic_compare_exchange_strong(&t->used, &zero, 1))
			break;
	}
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (t) {
			atomic_store(&t->used, 1);
			t->next = atomic_load(&rec_threads);
			atomic_store(&rec_threads, t);
		}
	}
	pthread_mutex_unlock(&rec_threads_lock);
	if (t && rec_thread_key_ok)
		pthread_setspecific(rec_thread_key, t);
	rec_tls.self = t;
	return t;
}

REC_HOT int rec_call_enter(struct rec_call *c, unsigned call, const void *ret)
{
	uint32_t op;

	if (rec_tls.depth > 0 || atomic_load_explicit(&rec_off, memory_order_relaxed))
		return 0;

	rec_tls.depth++;
	mpiv_event_init(&c->ev, call);
	if (rec_timed)
		c->ev.enter = rec_now();
	/* One thread at a time: the index the event will take, from the trace (a run of failed
	 * polls is one event); without a trace, calls counted with a plain increment. With
	 * overlapping calls, counted, which is close. */
	op = rec_multi ? UINT32_MAX : rec_output_next_index(call);
	if (op == UINT32_MAX && rec_multi) {
		op = atomic_fetch_add_explicit(&rec_entered, 1, memory_order_relaxed);
	} else if (op == UINT32_MAX) {
		op = atomic_load_explicit(&rec_entered, memory_order_relaxed);
		atomic_store_explicit(&rec_entered, op + 1, memory_order_relaxed);
	}
	c->ev.site = rec_call_site(ret);
	c->ev.reqs = c->reqs_inline;
	c->reqs_cap = REC_INLINE_REQS;
	c->bits = 0;
	c->newcomm = MPIV_NONE;
	c->members = NULL;
	c->reduce = NULL;
	c->ev.thread = rec_status_enter(call, op, c->ev.site);
	return 1;
}

struct st_slot *rec_quick_status;
static struct rec_thread *rec_quick_thread; /* the quick way's thread's slot, kept likewise */

void rec_quick_allow(void)
{
	rec_quick_status = rec_status_self();
	rec_quick_thread = rec_tls.self ? rec_tls.self : rec_thread_self();
	/* a Python program's sites are its script's lines, which no return address tells apart */
	rec_tls.quick = !rec_multi && !rec_reduce_on && !rec_steer_active() && rec_quick_status &&
			rec_quick_thread && !rec_pysite_on();
}

/* Publish c, about to block, in its thread's slot t. */
static inline void rec_call_post(struct rec_call *c, struct rec_thread *t)
{
	c->posted_beat = rec_status_beat();
	atomic_store_explicit(&t->posted_beat, c->posted_beat, memory_order_relaxed);
	atomic_store_explicit(&t->posted, (uintptr_t)c, memory_order_release);
}

void rec_call_posted(struct rec_call *c)
{
	struct rec_thread *t = rec_tls.self;

	if ((c->bits & REC_C_POSTED) || (!t && !(t = rec_thread_self())))
		return;
	c->bits |= REC_C_POSTED;
	if (rec_multi)
		atomic_store_explicit(&t->status, rec_status_self(), memory_order_relaxed);
	rec_call_post(c, t);
}

void rec_call_posted_quick(struct rec_call *c)
{
	rec_call_post(c, rec_quick_thread);
}

/* The watcher claimed c, blocked until now: wait until it is done with it (writing it as
 * incomplete: rare, and quick). */
static REC_COLD void rec_call_wait_watcher(struct rec_thread *t, const struct rec_call *c)
{
	if (rec_asym) {
		/* acquire, to see what it wrote */
		while (atomic_load_explicit(&t->watching, memory_order_acquire) == (uintptr_t)c)
			sched_yield();
		return;
	}
	while (!atomic_load_explicit(&t->released, memory_order_acquire))
		sched_yield();
	atomic_store_explicit(&t->released, 0, memory_order_relaxed);
}

/* Take c, posted in its thread's slot t, back from the watcher. */
static inline void rec_call_withdraw(struct rec_call *c, struct rec_thread *t)
{
	if (rec_asym) {
		atomic_store_explicit(&t->posted, 0, memory_order_relaxed);
		atomic_signal_fence(memory_order_seq_cst); /* the watcher's membarrier */
		if (atomic_load_explicit(&t->watching, memory_order_relaxed) == (uintptr_t)c)
			rec_call_wait_watcher(t, c);
	} else if (atomic_exchange_explicit(&t->posted, 0, memory_order_acq_rel) & REC_WATCHED) {
		rec_call_wait_watcher(t, c);
	}
}

void rec_call_returned(struct rec_call *c)
{
	if (!(c->bits & REC_C_POSTED))
		return;
	c->bits &= ~(unsigned)REC_C_POSTED;
	rec_call_withdraw(c, rec_tls.self);
	/* the watcher may read ev up to here: the time it returned goes in after */
	if (rec_timed)
		c->ev.leave = rec_now();
}

void rec_call_returned_quick(struct rec_call *c, int timed)
{
	rec_call_withdraw(c, rec_quick_thread);
	if (timed)
		c->ev.leave = rec_now();
}

REC_COLD int rec_call_reserve_reqs(struct rec_call *c, uint32_t n)
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

int rec_call_add_info(struct rec_call *c, const struct mpiv_reqinfo *ri)
{
	if (c->ev.nreqs == c->reqs_cap && rec_call_reserve_reqs(c, 2 * c->reqs_cap))
		return -1;
	c->ev.reqs[c->ev.nreqs++] = *ri;
	return 0;
}

int rec_call_add_req(struct rec_call *c, int32_t id, int32_t src, int32_t tag)
{
	struct mpiv_reqinfo ri = {id, src, tag, 0};

	if (rec_output_window)
		rec_request_note(id, c->ev.call, c->ev.peer, c->ev.peer2, c->ev.tag, c->ev.comm);

	return rec_call_add_info(c, &ri);
}

void rec_call_polled(struct rec_call *c, int rc)
{
	if (rc == MPI_SUCCESS && mpiv_event_failed_poll(&c->ev))
		c->bits |= REC_C_FAILED_POLL;
}

/* Free what c owns besides its inline storage. */
static REC_COLD void rec_call_free(struct rec_call *c)
{
	if (c->ev.reqs != c->reqs_inline)
		free(c->ev.reqs);
	c->ev.reqs = NULL;
	/* window, neighbourhood and intercommunicator calls: malloc'ed by the handler */
	free(c->ev.group);
	c->ev.group = NULL;
	free(c->members);
	c->members = NULL;
}

REC_HOT void rec_call_leave(struct rec_call *c)
{
	rec_call_returned(c);
	/* a call that was not posted: its time of return is now */
	if (rec_timed && !c->ev.leave)
		c->ev.leave = rec_now();
	rec_steer_after(c);
	rec_output_call(c, 0);
	if (c->reduce)
		rec_reduce_leave(c); /* its findings follow the event they name */
	rec_status_leave(!!(c->bits & REC_C_FAILED_POLL));
	/* Tested first: most calls own nothing, and free(NULL) is still a call. */
	if ((c->ev.reqs != c->reqs_inline) | (c->ev.group != NULL) | (c->members != NULL))
		rec_call_free(c);
	rec_tls.depth--;
}

void rec_call_write_early(struct rec_call *c)
{
	struct st_slot *slot = rec_status_self();

	c->bits |= REC_C_EARLY;
	rec_output_call(c, MPIV_EV_INCOMPLETE);
	c->bits |= REC_C_INCOMPLETE_SENT; /* the watcher leaves it be */
	/* with threads, the status says the index it got (rec_watch_thread()) */
	if (rec_multi && slot)
		rec_status_set_op(slot, c->ev.index);
}

/* Claim t's posted call p; returns 1 if the watcher may now read it. */
static int rec_claim(struct rec_thread *t, uintptr_t p)
{
	if (rec_asym) {
		atomic_store_explicit(&t->watching, p, memory_order_relaxed);
		syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
		if (atomic_load_explicit(&t->posted, memory_order_acquire) == p)
			return 1;
		atomic_store_explicit(&t->watching, 0, memory_order_release);
		return 0;
	}
	return atomic_compare_exchange_strong(&t->posted, &p, p | REC_WATCHED);
}

/* Give back the call p claimed: its owner may return. */
static void rec_unclaim(struct rec_thread *t, uintptr_t p)
{
	uintptr_t claimed = p | REC_WATCHED;

	if (rec_asym)
		atomic_store_explicit(&t->watching, 0, memory_order_release);
	else if (!atomic_compare_exchange_strong(&t->posted, &claimed, p))
		atomic_store_explicit(&t->released, 1, memory_order_release); /* it waits */
}

/* When each of the last REC_BEAT_TIMES beats came (monotonic ns), by beat. */
#define REC_BEAT_TIMES 64
static uint64_t rec_beat_ns[REC_BEAT_TIMES];

/* Whether a call posted at beat `posted` (the beat count then) has been stuck long enough at
 * beat `beat`, at now (ns): REC_STUCK_BEATS beats, or REC_STUCK_MS since the first beat after it
 * came. Beats are the status thread's, which a machine with far more busy ranks than cores
 * runs seldom: ten of them can take longer than the monitor's whole timeout. */
static int rec_stuck(uint64_t posted, uint64_t beat, uint64_t now)
{
	if (beat - posted >= REC_STUCK_BEATS || beat - posted >= REC_BEAT_TIMES)
		return 1;
	return beat > posted &&
	       now - rec_beat_ns[(posted + 1) % REC_BEAT_TIMES] >= REC_STUCK_MS * 1000000ULL;
}

/* If t's blocked call has been stuck long enough (rec_stuck()), write it as incomplete.
 * Returns 1 if t is in a blocking call that is not in the trace yet. */
static int rec_watch_thread(struct rec_thread *t, uint64_t beat, uint64_t now)
{
	uintptr_t p = atomic_load_explicit(&t->posted, memory_order_acquire);
	struct rec_call *c;
	int unwritten;

	if (!p || (p & REC_WATCHED))
		return 0;
	if (!rec_stuck(atomic_load_explicit(&t->posted_beat, memory_order_relaxed), beat, now))
		return 1;
	if (!rec_claim(t, p))
		return 0;
	c = (struct rec_call *)p;
	/* The slot's beat was a hint: the call we hold may be a newer one at the same address. */
	if (!(c->bits & REC_C_INCOMPLETE_SENT) && rec_stuck(c->posted_beat, beat, now)) {
		rec_call_unquick(c); /* its owner waits: its event is ours to complete */
		/* This gives the call its index; when it returns, its complete record follows
		 * and replaces this one. */
		rec_output_call(c, MPIV_EV_INCOMPLETE);
		c->bits |= REC_C_INCOMPLETE_SENT;
		/* with threads, the index the call was entered with was a count of calls
		 * entered (rec_call_enter()): the status now says the one it got */
		if (rec_multi && (c->bits & REC_C_INDEXED) &&
		    atomic_load_explicit(&t->status, memory_order_relaxed))
			rec_status_set_op(atomic_load_explicit(&t->status, memory_order_relaxed),
					  c->ev.index);
	}
	unwritten = !(c->bits & REC_C_INCOMPLETE_SENT);
	rec_unclaim(t, p);
	return unwritten;
}

void rec_call_watch(uint64_t beat)
{
	uint64_t now = rec_now();
	struct rec_thread *t;
	unsigned unwritten = 0;

	rec_beat_ns[beat % REC_BEAT_TIMES] = now;
	for (t = atomic_load_explicit(&rec_threads, memory_order_acquire); t; t = t->next)
		unwritten += (unsigned)rec_watch_thread(t, beat, now);
	rec_status_unwritten(unwritten);
	/* Every period: a rank killed now loses at most one period of calls, and a blocked
	 * call just written reaches the file, after every call indexed before it. */
	rec_output_flush();
}
