/* The live status file of a rank (base/status.h), for both preload libraries. MPI wrappers
 * only store what their thread is doing into its slot (atomics, seqlock, no syscalls); a
 * background thread turns the slots into one struct mpiv_status every period, and takes the
 * stack of a call that has been blocked for a while (rec_stack.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "environment.h"
#include "event.h"
#include "rec_hot.h"
#include "rec_site.h"
#include "rec_stack.h"
#include "rec_status.h"
#include "rec_threads.h"
#include "status.h"

/* A call in progress for this many periods has its stack taken (half a second: well before
 * any deadlock timeout, and rare enough to cost nothing). */
#define ST_STACK_BEATS 5
#define ST_NOTES_SIZE 512 /* the replayer's notes, as status.h's text */
/* the status thread's stack: its frames and a stack's
 * text (st_stack_watch, rec_stack_format) */
#define ST_THREAD_STACK (256u << 10)

/* What one thread is doing. Written only by its thread; read by the writer thread, which
 * retries while seq is odd or changed (a seqlock), so that call, op, site and the counts
 * agree. seq also says whether a call is in progress and how many returned, so that a call
 * costs a few stores: it counts the calls that returned in steps of ST_SEQ_CALL (failed polls
 * included), and is one more (odd) while the owner updates the fields, then ST_SEQ_IN more
 * while its call is in progress. */
struct st_slot {
	/* as above; never reset, so a reader cannot mistake a
	 * later update for the one it began with */
	atomic_ullong seq;
	atomic_uint call;   /* enum mpiv_call of the current or last call */
	atomic_uint op;	    /* its event index */
	atomic_ullong site; /* its call site */
	/* 1 once the slot's owner made a call: op/call are
	 * meaningful; set in its first call's update */
	atomic_uint seen;
	atomic_ullong polls; /* failed polls that returned, of all the slot's owners */
	/* calls whose thread ended inside them: neither
	 * progress nor polls. seq / ST_SEQ_CALL - polls - gone is
	 * the progress of all the slot's owners. Both are updated
	 * while seq is odd. */
	atomic_ullong gone;
	atomic_uint used;	/* 1 while a live thread owns the slot; 0: free for reuse */
	int thread;		/* the small thread number reported in events */
	atomic_int tid;		/* the owner's kernel thread id, for its stack */
	struct rec_stack stack; /* the owner's stack, taken on request */
	struct st_slot *next;	/* every slot, newest first; slots are never freed */
};

#define ST_SEQ_IN 2u   /* seq's bit that says a call is in progress */
#define ST_SEQ_CALL 4u /* seq's step per call */

/* One consistent copy of a slot. */
struct st_snap {
	unsigned active, call, op, seen;
	uint64_t site;
	uint64_t progress, polls; /* st_slot_read()'s, not the sticky call's */
};

static pthread_mutex_t st_slots_lock = PTHREAD_MUTEX_INITIALIZER; /* adding slots */
static _Atomic(struct st_slot *) st_slots;			  /* head of the slot list */
static int st_nthreads;		/* slots made so far, under st_slots_lock */
static struct st_slot st_first; /* the first thread's, so MPI_Init needs no malloc */
/* this thread's slot; initial-exec: a plain load, the library being preloaded */
static __thread struct st_slot *st_self __attribute__((tls_model("initial-exec")));
static pthread_key_t st_key; /* frees the slot when its thread exits */
static int st_key_ok;	     /* st_key exists */
static pthread_once_t st_key_once = PTHREAD_ONCE_INIT;

static atomic_ullong st_progress;      /* calls returned by threads without a slot */
static atomic_ullong st_beat;	       /* periods written */
static atomic_int st_started;	       /* MPI_Init returned (its call left) */
static atomic_int st_final;	       /* MPI_Finalize entered */
static void (*st_tick)(uint64_t beat); /* set before the thread starts */
static atomic_uint st_unwritten;       /* rec_status_unwritten()'s */

/* The file and the writer thread. */
static pthread_mutex_t st_write_lock = PTHREAD_MUTEX_INITIALIZER; /* building + pwrite */
static int st_fd = -1;	     /* the status file, under st_write_lock */
static int st_rank, st_size; /* set once by rec_status_init */
static char st_host[64];
static char st_diverged_text[512]; /* DIVERGED or FAILED: why, under st_write_lock */
/* MPIV_ST_DIVERGED or _FAILED once set, else 0;
 * under st_write_lock */
static int st_diverged;
/* DIVERGED: the call that diverged; under
 * st_write_lock */
static struct st_snap st_stuck;
static int st_stuck_set;					   /* st_stuck holds it */
static pthread_mutex_t st_thread_lock = PTHREAD_MUTEX_INITIALIZER; /* st_stop, st_cond */
static pthread_cond_t st_cond; /* wakes the writer early at finalize */
static int st_stop;	       /* the writer must end */
static int st_running;	       /* the writer thread exists */
static pthread_t st_thread;

/* Stacks of blocked calls. The watch is the status thread's alone; the stack it publishes is
 * under st_write_lock. */
static int st_stacks_ok;		      /* rec_stack_init() succeeded */
static struct st_slot *st_watch_slot;	      /* the longest-running call's slot */
static unsigned st_watch_op;		      /* its op */
static uint64_t st_watch_beat;		      /* the period it was first seen in */
static int st_watch_asked;		      /* its stack was asked for */
static char st_stack[MPIV_STATUS_STACK_SIZE]; /* the published stack, as status.h says */
static uint32_t st_stack_lines;		      /* its frames; 0: none */
static unsigned st_stack_op;		      /* the op it was taken in */
static int st_crashed;			      /* the stack is that of a fatal signal */
static char st_notes[ST_NOTES_SIZE];	      /* rec_status_note()s, under st_write_lock */
static uint32_t st_note_kinds;		      /* their kinds, under st_write_lock */

/* Begin an update of slot s by its owner: make seq odd. Returns its value before. */
static inline uint64_t st_update_begin(struct st_slot *s)
{
	uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release); /* seq before the fields */
	return seq;
}

/* Count one more in *n, which only the owner writes. */
static inline void st_bump(atomic_ullong *n)
{
	atomic_store_explicit(n, atomic_load_explicit(n, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

static void st_thread_exit(void *arg)
{
	struct st_slot *s = arg;
	uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	/* Inside a call (it never returned): out of it, without counting it as progress. */
	if (seq & ST_SEQ_IN) {
		st_update_begin(s);
		st_bump(&s->gone);
		atomic_store_explicit(&s->seq, seq + ST_SEQ_IN, memory_order_release);
	}
	rec_stack_unbind(&s->stack);
	atomic_store_explicit(&s->used, 0, memory_order_release);
}

static void st_key_make(void)
{
	st_key_ok = pthread_key_create(&st_key, st_thread_exit) == 0;
}

/* A slot for this thread, which has none: a free one, or a new one. NULL if out of memory. */
static REC_COLD struct st_slot *st_slot_new(void)
{
	struct st_slot *s;
	unsigned zero;

	pthread_once(&st_key_once, st_key_make);
	pthread_mutex_lock(&st_slots_lock);
	/* A slot left by a thread that ended is taken by the next: the thread's number is its
	 * own (rec_threads.h) */
	for (s = atomic_load_explicit(&st_slots, memory_order_relaxed); s; s = s->next) {
		zero = 0;
		if (atomic_compare_exchange_strong(&s->used, &zero, 1))
			break;
	}
	if (!s) {
		s = st_nthreads == 0 ? &st_first : calloc(1, sizeof(*s));
		if (s) {
			st_nthreads++;
			atomic_store_explicit(&s->used, 1, memory_order_relaxed);
			s->next = atomic_load_explicit(&st_slots, memory_order_relaxed);
			atomic_store_explicit(&st_slots, s, memory_order_release);
		}
	}
	pthread_mutex_unlock(&st_slots_lock);
	if (!s)
		return NULL;
	s->thread = rec_thread_number();
	atomic_store_explicit(&s->seen, 0, memory_order_relaxed);
	atomic_store_explicit(&s->tid, (int)syscall(SYS_gettid), memory_order_relaxed);
	atomic_store_explicit(&s->stack.state, REC_STACK_IDLE, memory_order_relaxed);
	rec_stack_bind(&s->stack);
	if (st_key_ok)
		pthread_setspecific(st_key, s);
	st_self = s;
	return s;
}

/* rec_status_enter() of a thread without a slot yet: its first call. */
static REC_COLD int st_enter_first(unsigned call, uint32_t op, uint64_t site)
{
	struct st_slot *s = st_slot_new();
	uint64_t seq;

	if (!s)
		return -1;
	seq = st_update_begin(s);
	atomic_store_explicit(&s->call, call, memory_order_relaxed);
	atomic_store_explicit(&s->op, op, memory_order_relaxed);
	atomic_store_explicit(&s->site, site, memory_order_relaxed);
	atomic_store_explicit(&s->seen, 1, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + ST_SEQ_IN, memory_order_release);
	return s->thread;
}

struct st_slot *rec_status_self(void)
{
	return st_self;
}

void rec_status_enter_at(struct st_slot *s, unsigned call, uint32_t op, uint64_t site)
{
	uint64_t seq = st_update_begin(s);

	atomic_store_explicit(&s->call, call, memory_order_relaxed);
	atomic_store_explicit(&s->op, op, memory_order_relaxed);
	atomic_store_explicit(&s->site, site, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + ST_SEQ_IN, memory_order_release);
}

int rec_status_enter(unsigned call, uint32_t op, uint64_t site)
{
	struct st_slot *s = st_self;

	if (!s)
		return st_enter_first(call, op, site);
	rec_status_enter_at(s, call, op, site);
	return s->thread;
}

void rec_status_set_op(struct st_slot *s, uint32_t op)
{
	atomic_store_explicit(&s->op, op, memory_order_relaxed);
}

void rec_status_leave_at(struct st_slot *s)
{
	uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + ST_SEQ_IN, memory_order_release);
}

void rec_status_leave(int failed_poll)
{
	struct st_slot *s = st_self;
	uint64_t seq;

	if (!s) {
		if (!failed_poll)
			atomic_fetch_add_explicit(&st_progress, 1, memory_order_relaxed);
		return;
	}
	/* seq's step counts the call; a failed poll is counted as one as well, so that
	 * the progress leaves it out */
	if (failed_poll) {
		seq = st_update_begin(s);
		st_bump(&s->polls);
		atomic_store_explicit(&s->seq, seq + ST_SEQ_IN, memory_order_release);
		return;
	}
	rec_status_leave_at(s);
}

uint64_t rec_status_beat(void)
{
	return atomic_load_explicit(&st_beat, memory_order_relaxed);
}

void rec_status_unwritten(unsigned n)
{
	atomic_store_explicit(&st_unwritten, n, memory_order_relaxed);
}

void rec_status_set_tick(void (*fn)(uint64_t beat))
{
	st_tick = fn;
}

static void st_slot_read(struct st_slot *s, struct st_snap *out)
{
	uint64_t seq1, seq2, gone;

	do {
		seq1 = atomic_load_explicit(&s->seq, memory_order_acquire);
		out->call = atomic_load_explicit(&s->call, memory_order_relaxed);
		out->op = atomic_load_explicit(&s->op, memory_order_relaxed);
		out->site = atomic_load_explicit(&s->site, memory_order_relaxed);
		out->seen = atomic_load_explicit(&s->seen, memory_order_relaxed);
		out->polls = atomic_load_explicit(&s->polls, memory_order_relaxed);
		gone = atomic_load_explicit(&s->gone, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		seq2 = atomic_load_explicit(&s->seq, memory_order_relaxed);
	} while ((seq1 & 1) || seq1 != seq2);
	out->active = (seq1 & ST_SEQ_IN) != 0;
	out->progress = seq1 / ST_SEQ_CALL - out->polls - gone;
}

/* Calls returned (failed polls left out) and failed polls returned, by all threads. */
static void st_counts(uint64_t *progress, uint64_t *polls)
{
	struct st_snap snap;
	struct st_slot *s;

	*progress = atomic_load_explicit(&st_progress, memory_order_relaxed);
	*polls = 0;
	for (s = atomic_load_explicit(&st_slots, memory_order_acquire); s; s = s->next) {
		st_slot_read(s, &snap);
		*progress += snap.progress;
		*polls += snap.polls;
	}
}

/* The longest-running call of all threads (lowest index) into *best, which says where the
 * rank is stuck, and its slot; with none active, the last call made into *last and NULL. */
static struct st_slot *st_longest(struct st_snap *best, struct st_snap *last)
{
	struct st_snap snap;
	struct st_slot *s, *slot = NULL;
	int have_last = 0;

	memset(best, 0, sizeof(*best));
	memset(last, 0, sizeof(*last));
	for (s = atomic_load_explicit(&st_slots, memory_order_acquire); s; s = s->next) {
		st_slot_read(s, &snap);
		if (!snap.seen)
			continue;
		if (snap.active && (!slot || snap.op < best->op)) {
			*best = snap;
			slot = s;
		}
		if (!have_last || snap.op > last->op) {
			*last = snap;
			have_last = 1;
		}
	}
	return slot;
}

/* Run by the status thread each period: ask the thread of a call that has been in progress
 * for ST_STACK_BEATS periods for its stack, and publish the stack once it came, if that call
 * is still the one in progress. */
static void st_stack_watch(uint64_t beat)
{
	struct st_snap best, last, now;
	struct st_slot *s;
	char text[MPIV_STATUS_STACK_SIZE];
	int lines;

	if (!st_stacks_ok)
		return;
	s = st_longest(&best, &last);
	if (!s) {
		st_watch_slot = NULL;
		return;
	}
	if (s != st_watch_slot || best.op != st_watch_op) {
		st_watch_slot = s;
		st_watch_op = best.op;
		st_watch_beat = beat;
		st_watch_asked = 0;
		return;
	}
	if (!st_watch_asked) {
		if (beat - st_watch_beat < ST_STACK_BEATS)
			return;
		st_watch_asked = 1;
		rec_stack_request(&s->stack, atomic_load_explicit(&s->tid, memory_order_relaxed));
		return;
	}
	if (atomic_load_explicit(&s->stack.state, memory_order_acquire) != REC_STACK_DONE)
		return;
	lines = rec_stack_format(&s->stack, text, sizeof(text));
	atomic_store_explicit(&s->stack.state, REC_STACK_IDLE, memory_order_relaxed);
	/* The handler may have run after the call returned: only a stack taken while the very
	 * same call was still in progress is that call's. */
	st_slot_read(s, &now);
	if (!now.active || now.op != st_watch_op || lines == 0)
		return;
	pthread_mutex_lock(&st_write_lock);
	memcpy(st_stack, text, sizeof(st_stack));
	st_stack_lines = (uint32_t)lines;
	st_stack_op = st_watch_op;
	pthread_mutex_unlock(&st_write_lock);
}

/* Build the status from the slots and write it. Call with st_write_lock held. */
static void st_write(void)
{
	/* under st_write_lock; static, not on the stack of the program's thread that writes
	 * at once (MPI_Init, MPI_Finalize, a replay diverging) */
	static struct mpiv_status st;
	struct st_snap best, last;
	int have_best;
	const char *path;
	ssize_t w;

	if (st_fd < 0)
		return;
	memset(&st, 0, sizeof(st));
	have_best = st_longest(&best, &last) != NULL;
	if (!have_best)
		best = last;
	if (st_stuck_set)
		best = st_stuck;

	st.magic = MPIV_STATUS_MAGIC;
	st.version = MPIV_STATUS_VERSION;
	st.rank = st_rank;
	st.size = st_size;
	st.pid = (int32_t)getpid();
	if (st_diverged)
		st.state = st_diverged;
	else if (atomic_load_explicit(&st_final, memory_order_relaxed))
		st.state = MPIV_ST_FINALIZED;
	else if (!atomic_load_explicit(&st_started, memory_order_relaxed))
		st.state = MPIV_ST_STARTING;
	else if (have_best)
		st.state = MPIV_ST_IN_CALL;
	else
		st.state = MPIV_ST_RUNNING;
	st.call = best.call;
	st.op = best.op;
	st.site = best.site;
	st_counts(&st.progress, &st.polls);
	st.beat = atomic_load_explicit(&st_beat, memory_order_relaxed);
	memcpy(st.host, st_host, sizeof(st.host));
	if (st_diverged)
		snprintf(st.text, sizeof(st.text), "%s", st_diverged_text);
	else
		snprintf(st.text, sizeof(st.text), "%s", st_notes);
	st.notes = st_note_kinds;
	st.unwritten = atomic_load_explicit(&st_unwritten, memory_order_relaxed);
	path = rec_site_module_path(MPIV_SITE_MODULE(st.site));
	if (path)
		snprintf(st.module, sizeof(st.module), "%s", path);
	if (st_crashed) {
		st.stack_op = MPIV_STATUS_CRASH_OP;
		st.nframes = st_stack_lines;
		memcpy(st.stack, st_stack, sizeof(st.stack));
	} else if (st.state == MPIV_ST_IN_CALL && st_stack_lines && st_stack_op == st.op) {
		st.stack_op = st_stack_op;
		st.nframes = st_stack_lines;
		memcpy(st.stack, st_stack, sizeof(st.stack));
	}
	do {
		w = pwrite(st_fd, &st, sizeof(st), 0);
	} while (w < 0 && errno == EINTR);
}

static void *st_main(void *arg)
{
	struct timespec until;
	uint64_t beat;

	(void)arg;
	pthread_mutex_lock(&st_thread_lock);
	while (!st_stop) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += MPIV_STATUS_PERIOD_MS * 1000000L;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		while (!st_stop &&
		       pthread_cond_timedwait(&st_cond, &st_thread_lock, &until) != ETIMEDOUT)
			;
		if (st_stop)
			break;
		pthread_mutex_unlock(&st_thread_lock);

		beat = atomic_fetch_add_explicit(&st_beat, 1, memory_order_relaxed) + 1;
		if (st_tick)
			st_tick(beat);
		st_stack_watch(beat);
		pthread_mutex_lock(&st_write_lock);
		st_write();
		pthread_mutex_unlock(&st_write_lock);

		pthread_mutex_lock(&st_thread_lock);
	}
	pthread_mutex_unlock(&st_thread_lock);
	return NULL;
}

int rec_status_init(int rank, int size, const char *dir, char *why, size_t whysize)
{
	char path[PATH_MAX], name[64];
	pthread_condattr_t attr;
	pthread_attr_t tattr;
	sigset_t all, old;
	int fd, rc;

	snprintf(name, sizeof(name), MPIV_STATUS_FILE, rank);
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		snprintf(why, whysize, "status directory '%s' is too long", dir);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, whysize, "cannot open status file '%s': %s", path, strerror(errno));
		return -1;
	}
	st_rank = rank;
	st_size = size;
	if (gethostname(st_host, sizeof(st_host) - 1) != 0)
		st_host[0] = '\0';
	pthread_mutex_lock(&st_write_lock);
	st_fd = fd;
	st_write();
	pthread_mutex_unlock(&st_write_lock);
	/* Without stacks the report gives the call site alone. */
	st_stacks_ok = getenv(MPIV_ENV_NO_STACKS) == NULL && rec_stack_init() == 0;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&st_cond, &attr);
	pthread_condattr_destroy(&attr);
	/* The writer takes no signals: the program's handlers run on the program's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&tattr);
	/* it needs little: not the program's stack size, which may be large */
	pthread_attr_setstacksize(&tattr, ST_THREAD_STACK);
	rc = rec_thread_create_own(&st_thread, &tattr, st_main, NULL);
	pthread_attr_destroy(&tattr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(why, whysize, "cannot start the status thread: %s", strerror(rc));
		return -1; /* the file stays, written at finalize */
	}
	st_running = 1;
	/* MPI_Init returned (the call leaves right after): no longer starting */
	atomic_store_explicit(&st_started, 1, memory_order_relaxed);
	return 0;
}

void rec_status_finalize(void)
{
	atomic_store_explicit(&st_final, 1, memory_order_relaxed);
	if (st_running) {
		pthread_mutex_lock(&st_thread_lock);
		st_stop = 1;
		pthread_cond_signal(&st_cond);
		pthread_mutex_unlock(&st_thread_lock);
		pthread_join(st_thread, NULL);
		st_running = 0;
	}
	pthread_mutex_lock(&st_write_lock);
	st_write();
	if (st_fd >= 0)
		close(st_fd);
	st_fd = -1;
	pthread_mutex_unlock(&st_write_lock);
}

void rec_status_set_final(int final)
{
	atomic_store_explicit(&st_final, final, memory_order_relaxed);
	pthread_mutex_lock(&st_write_lock);
	st_write();
	pthread_mutex_unlock(&st_write_lock);
}

void rec_status_note(unsigned kind, const char *line)
{
	size_t used, n = strlen(line);

	pthread_mutex_lock(&st_write_lock);
	st_note_kinds |= kind;
	used = strlen(st_notes);
	/* whole lines only: the first notes are the ones that explain */
	if (used + n + 2 <= sizeof(st_notes)) {
		if (used)
			st_notes[used++] = '\n';
		memcpy(st_notes + used, line, n + 1);
	}
	pthread_mutex_unlock(&st_write_lock);
}

/* Set the sticky state (DIVERGED or FAILED; the first one set stays), with the call it is
 * about if where is not NULL, and write at once. */
static void st_stick(int state, const struct st_snap *where, const char *text)
{
	pthread_mutex_lock(&st_write_lock);
	if (!st_diverged) {
		snprintf(st_diverged_text, sizeof(st_diverged_text), "%s", text);
		st_diverged = state;
		if (where) {
			st_stuck = *where;
			st_stuck_set = 1;
		}
	}
	st_write();
	pthread_mutex_unlock(&st_write_lock);
}

void rec_status_diverged(unsigned call, uint32_t op, uint64_t site, const char *text)
{
	struct st_snap where;

	memset(&where, 0, sizeof(where));
	where.active = 1;
	where.seen = 1;
	where.call = call;
	where.op = op;
	where.site = site;
	st_stick(MPIV_ST_DIVERGED, &where, text);
}

void rec_status_crashed(int unwind)
{
	static struct rec_stack crash; /* not on the dying thread's stack */

	if (!st_stacks_ok || !unwind || pthread_mutex_trylock(&st_write_lock) != 0)
		return;
	if (st_fd >= 0 && !st_crashed && rec_stack_take(&crash) > 0) {
		st_stack_lines = (uint32_t)rec_stack_format(&crash, st_stack, sizeof(st_stack));
		st_crashed = 1;
		st_write();
	}
	pthread_mutex_unlock(&st_write_lock);
}

void rec_status_failed(const char *text)
{
	st_stick(MPIV_ST_FAILED, NULL, text);
}
