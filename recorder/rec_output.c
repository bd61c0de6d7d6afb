/* The recorder's per-rank trace file, rank-<r>.mpivt (doc/trace-format.md; the encoding is
 * base/tracefmt.c's). Records go into a ring buffer without a system call, a lock or an
 * atomic read-modify-write (unless the program runs MPI_THREAD_MULTIPLE); the ring reaches
 * the file when full, every status period, at MPI_Finalize, MPI_Abort and exit, and from
 * fatal signal handlers, so that a crash or a hang loses nothing and a SIGKILL at most one
 * period. */
/* With record --last N (MPIVERIFY_LAST), the ring is a window of the last calls instead: it is
 * cut into segments of N events, each starting with a restart record after which the records
 * decode on their own, and only the segment before the current one is kept; the window
 * reaches the file, rewritten whole, when a blocked call is appended (a hang), at
 * MPI_Finalize, MPI_Abort and exit, and from the signal handlers: the trace's memory and disk
 * stay bounded however long the run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "environment.h"
#include "grow.h"
#include "recorder.h"
#include "rec_stack.h"
#include "rec_status.h"
#include "rec_threads.h"
#include "trace.h"
#include "tracefmt.h"

/* 1 MiB: writes large enough to cost nothing per call, rare enough to hide. */
#define REC_OUT_RING (1u << 20)
/* Records that may be longer than this (completions of thousands of requests) bypass the
 * ring: they are written to the file directly. */
#define REC_OUT_TMP (64u << 10)
/* How long a fatal signal handler waits for another thread to let go of the file. */
#define REC_OUT_SIGNAL_WAIT_MS 200
/* A SIGSEGV this close to the stack pointer is taken for a stack overflow
 * (out_stack_overflow). */
#define REC_OUT_BELOW_SP (64u << 10)
#define REC_OUT_ABOVE_SP (1u << 20)

/* The ring. Positions count the bytes appended after the header, so position p is at file
 * offset out_hdrlen + p and at out_ring[p % REC_OUT_RING]. The bytes of [out_tail, out_head)
 * are complete records not yet known to be in the file. Writes put bytes at their own offset
 * (pwrite), so writing some twice (a signal handler racing a flush) is harmless.
 *
 * Producers (those who append) are the thread making the call, or the watcher while it holds
 * a blocked call (rec_call.c: the call's thread then waits for it), or close; unless the
 * program runs MPI_THREAD_MULTIPLE, MPI's own rules make the calling threads one producer at
 * a time, so only the watcher and close take out_plock. The writer lock out_wlock serialises
 * writing to the file and moving out_tail. */
static unsigned char out_ring[REC_OUT_RING];
static unsigned char out_tmp[REC_OUT_TMP]; /* a record that wraps, before it is copied */
static atomic_ullong out_head;		   /* end of the complete records: producers store it */
static atomic_ullong out_tail;		   /* what is in the file: under out_wlock */
static uint64_t out_hdrlen;		   /* file offset of position 0 */
static atomic_int out_fd = -1;		   /* the trace, -1 when not recording */
static atomic_uintptr_t out_wlock;	   /* writer lock: 0 when free, else the owner's &out_me */
static atomic_uintptr_t out_plock;	   /* producer lock, same values */
/* the producers': a quick record fits at any head up to this one
 * (out_quick_fits(); 0: ask) */
static uint64_t out_quick_limit;
static int out_multi;		     /* MPI_THREAD_MULTIPLE: every producer takes out_plock */
static struct mpiv_tf_writer out_tf; /* event count, site table: the producers' */
static pid_t out_pid;		     /* the process that opened it (not a forked child) */
/* The ring position at file offset out_hdrlen: 0, but for a window, where it is the tail when
 * the window was written last (out_write_window()). */
static uint64_t out_file_base;

/* ---- the window (record --last) ---- */
/* A segment also ends once it holds 7/16 of the ring, so that two of them and a record (at most
 * REC_OUT_TMP, past which one is dropped) fit: N calls of up to 45 bytes each (a few requests)
 * are kept whole. */
#define REC_OUT_SEGMENT_BYTES (REC_OUT_RING / 16 * 7)
#define REC_OUT_MODULES 256 /* modules a restart names again; past that, their sites' paths */
/* live requests a restart names, at most (past that, their makers are not known) */
#define REC_OUT_LIVE 1024
/* the comm records of communicators a restart writes again, at most (past that, a window's
 * collectives on the others have members not known): 64 KiB */
#define REC_OUT_LIVE_COMM_BYTES 65536
static uint32_t out_last;   /* N: events to a segment; 0 when the whole run is written */
static uint64_t out_seg;    /* where the current segment starts (the one before: the tail) */
static uint32_t out_seg_ev; /* the index of its first event */
/* write the window at the next flush: a blocked call came (producers set it, the writer clears
 * it) */
static atomic_int out_dump;
/* the index of the event that starts the next segment: calls that take a short way (below)
 * take the common one from there; UINT32_MAX when there is no window */
static uint32_t out_seg_end = UINT32_MAX;
static struct out_mod {
	unsigned id;
	const char *path; /* rec_site.c's, kept for the run */
} out_mods[REC_OUT_MODULES];
static unsigned out_nmods;

/* With a window: the communicators the program holds, as their comm records had them, for
 * each restart to write again (their events fall out of the window, their ids stay in use).
 * The producers' (under out_plock if they take it). */
static struct out_comm {
	uint32_t event;
	int32_t id;
	uint32_t n;
	int32_t *members; /* malloc'ed */
} * out_comms;
static size_t out_ncomms, out_capcomms;

/* A run of failed polls (doc/trace-format.md, repeat records): the first is written as an
 * event; the equal ones after it only count in out_run_more, written as one repeat record
 * when the run ends (another record comes, or close). Producers' (under out_plock when
 * they take it), but a flush also writes the count so far just past the head, provisionally
 * (the next records overwrite it), so that a rank killed while polling loses at most a
 * period of its count. */
static struct mpiv_event out_run;	  /* the run's event; its reqs in out_run_reqs */
static struct mpiv_reqinfo *out_run_reqs; /* malloc'ed, room for out_run_cap */
static uint32_t out_run_cap;
static atomic_int out_run_open;	    /* out_run is the last event appended */
static atomic_ullong out_run_more;  /* the times it was made more, not yet written */
static atomic_ullong out_run_leave; /* with times: when the last of them returned */
/* with times: the time written last before the run's
 * repeat record (its event's leave), for a flush's */
static atomic_ullong out_run_base;
/* recorder.h; producers' (written under out_plock if they take it) */
int rec_output_fast;
int rec_output_window;
static char out_path[PATH_MAX]; /* for messages */
static int out_on_exit_set;	/* out_on_exit() is registered */
static void out_on_exit(int status, void *arg);
static void out_thread(int op, int32_t self, int32_t other);

/* Identifies the thread to the locks, also in a signal handler: initial-exec TLS is a plain
 * %fs-relative address, nothing to allocate (the library is preloaded, never dlopen'ed). */
static __thread char out_me __attribute__((tls_model("initial-exec")));

/* The fatal signals whose handler writes the ring, and what was installed before. */
static const int out_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTERM};
#define REC_OUT_NSIGNALS (sizeof(out_signals) / sizeof(out_signals[0]))
static struct sigaction out_old_action[REC_OUT_NSIGNALS]; /* chained to */
static long out_page_size;				  /* for out_unwind_safe() */
static int out_installed[REC_OUT_NSIGNALS];		  /* ours is in place */

/* Take lock. Returns 1, or 0 if this thread holds it already: a signal handler (the
 * program's, calling exit()) interrupted it inside; the interrupted code never resumes, so
 * carrying on is safe, and waiting would hang. Give what it returned to out_drop(). */
static int out_take(atomic_uintptr_t *lock)
{
	uintptr_t me = (uintptr_t)&out_me, cur;
	unsigned spins = 0;

	for (;;) {
		cur = 0;
		if (atomic_compare_exchange_weak_explicit(lock, &cur, me, memory_order_acquire,
							  memory_order_relaxed))
			return 1;
		if (cur == me)
			return 0;
		/* The holder may be in a write(2): let it run. */
		if (++spins > 100)
			sched_yield();
	}
}

static void out_drop(atomic_uintptr_t *lock, int taken)
{
	if (taken)
		atomic_store_explicit(lock, 0, memory_order_release);
}

/* Write len bytes at file offset off; returns 0 or an errno value. Async-signal-safe. */
static int out_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t w = pwrite(fd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* Write positions [from, to) of the ring. Async-signal-safe. */
static int out_write_range(int fd, uint64_t from, uint64_t to)
{
	while (from < to) {
		size_t pos = (size_t)(from % REC_OUT_RING);
		size_t n = REC_OUT_RING - pos;
		int e;

		if (n > to - from)
			n = (size_t)(to - from);
		e = out_pwrite(fd, out_ring + pos, n, out_hdrlen + from - out_file_base);
		if (e)
			return e;
		from += n;
	}
	return 0;
}

/* Recording stops: say why once. */
static void out_fail(const char *what, int e)
{
	int fd = atomic_exchange(&out_fd, -1);

	rec_output_fast = 0;
	if (fd < 0)
		return;
	rec_msg("cannot %s trace '%s': %s: recording stops", what, out_path, strerror(e));
	close(fd);
}

/* The count of an open run of failed polls, written as a repeat record at position head (just
 * past what was written), if the run is still the last thing appended. Returns the bytes
 * written (0 for none). Async-signal-safe. */
static size_t out_write_run(int fd, uint64_t head)
{
	unsigned char rec[MPIV_TF_REPEAT_MAX];
	struct mpiv_tf_clock clock;
	uint64_t more;
	size_t n;

	if (!atomic_load_explicit(&out_run_open, memory_order_acquire))
		return 0;
	more = atomic_load_explicit(&out_run_more, memory_order_acquire);
	/* a producer that moved the head meanwhile may have ended this run: its record wins */
	if (!more || atomic_load_explicit(&out_head, memory_order_acquire) != head)
		return 0;
	/* the producer's own clock moves only past the run: a copy of where it stood */
	clock.on = out_tf.clock.on;
	clock.last = atomic_load_explicit(&out_run_base, memory_order_relaxed);
	n = mpiv_tf_encode_repeat(rec, sizeof(rec), more, &clock,
				  atomic_load_explicit(&out_run_leave, memory_order_relaxed));
	return out_pwrite(fd, rec, n, out_hdrlen + head - out_file_base) ? 0 : n;
}

/* The window, [tail, head), over what the file held after its header. Call with out_wlock
 * held, or from a signal handler that could not take it. Returns 0 or an errno value.
 * Async-signal-safe. */
static int out_write_window(int fd, uint64_t tail, uint64_t head)
{
	int e;

	out_file_base = tail;
	e = out_write_range(fd, tail, head);
	if (!e && ftruncate(fd, (off_t)(out_hdrlen + head - tail)) != 0)
		e = errno;
	return e;
}

/* Write what the ring holds. Call with out_wlock held. */
static void out_flush_locked(void)
{
	uint64_t head = atomic_load_explicit(&out_head, memory_order_acquire);
	uint64_t tail = atomic_load_explicit(&out_tail, memory_order_relaxed);
	int fd = atomic_load_explicit(&out_fd, memory_order_relaxed);
	int e;

	if (fd < 0)
		return;
	if (out_last) {
		/* a window: written whole when there is a reason, never moving the tail */
		if (!atomic_exchange(&out_dump, 0))
			return;
		e = out_write_window(fd, tail, head);
		if (e)
			out_fail("write", e);
		else
			out_write_run(fd, head);
		return;
	}
	if (head != tail) {
		e = out_write_range(fd, tail, head);
		if (e) {
			out_fail("write", e);
			return;
		}
		atomic_store_explicit(&out_tail, head, memory_order_release);
	}
	out_write_run(fd, head);
}

static void out_restart(void);

/* out_make_room() of a window: the segment before the current one goes; a record longer than
 * REC_OUT_TMP is made and dropped (the writer's state still moves past it), and so is every
 * record before, the window restarting after it. Returns 1 if the record was dropped. Call as
 * a producer holding out_wlock (taken: out_take()'s, dropped here). */
static REC_COLD int out_window_room(size_t max, size_t (*encode)(void *arg, void *buf, size_t cap),
				    void *arg, int taken)
{
	uint64_t head = atomic_load_explicit(&out_head, memory_order_relaxed);
	unsigned char *big;

	if (max <= REC_OUT_TMP) {
		atomic_store_explicit(&out_tail, out_seg, memory_order_release);
		/* the current segment alone fills the ring (its calls went the short ways,
		 * which count events, not bytes): it goes too */
		if (head + max - out_seg > REC_OUT_RING) {
			out_seg = head;
			out_restart();
		}
		out_drop(&out_wlock, taken);
		return 0;
	}
	big = malloc(max);
	if (big) {
		encode(arg, big, max);
		free(big);
	}
	atomic_store_explicit(&out_tail, head, memory_order_release);
	out_seg = head;
	out_restart();
	out_drop(&out_wlock, taken);
	return 1;
}

/* A record that may take max bytes does not fit: make room, or write it to the file
 * directly if it is longer than REC_OUT_TMP. Returns 1 if it was written. Call as a
 * producer. */
static int out_make_room(size_t max, size_t (*encode)(void *arg, void *buf, size_t cap), void *arg)
{
	uint64_t head;
	unsigned char *big;
	size_t n;
	int e, fd, taken;

	taken = out_take(&out_wlock);
	if (out_last)
		return out_window_room(max, encode, arg, taken);
	out_flush_locked();
	if (max <= REC_OUT_TMP) {
		out_drop(&out_wlock, taken);
		return 0;
	}
	fd = atomic_load_explicit(&out_fd, memory_order_relaxed);
	big = fd >= 0 ? malloc(max) : NULL;
	if (fd >= 0 && !big)
		out_fail("write (out of memory for a large record)", ENOMEM);
	if (big) {
		head = atomic_load_explicit(&out_head, memory_order_relaxed);
		n = encode(arg, big, max);
		e = out_pwrite(fd, big, n, out_hdrlen + head);
		free(big);
		if (e) {
			out_fail("write", e);
		} else {
			/* tail first: a signal handler in between sees nothing to write */
			atomic_store(&out_tail, head + n);
			atomic_store(&out_head, head + n);
		}
	}
	out_drop(&out_wlock, taken);
	return 1;
}

/* Append a record of at most max bytes made by encode(arg, buf, cap). Call as a producer. */
static void out_append(size_t max, size_t (*encode)(void *arg, void *buf, size_t cap), void *arg)
{
	uint64_t head = atomic_load_explicit(&out_head, memory_order_relaxed);
	size_t pos, n;

	if (head + max - atomic_load_explicit(&out_tail, memory_order_acquire) > REC_OUT_RING ||
	    max > REC_OUT_TMP) {
		if (out_make_room(max, encode, arg))
			return;
	}
	if (atomic_load_explicit(&out_fd, memory_order_relaxed) < 0)
		return;
	pos = (size_t)(head % REC_OUT_RING);
	if (REC_OUT_RING - pos >= max) {
		n = encode(arg, out_ring + pos, max);
	} else {
		n = encode(arg, out_tmp, max);
		if (n <= REC_OUT_RING - pos) {
			memcpy(out_ring + pos, out_tmp, n);
		} else {
			memcpy(out_ring + pos, out_tmp, REC_OUT_RING - pos);
			memcpy(out_ring, out_tmp + (REC_OUT_RING - pos), n - (REC_OUT_RING - pos));
		}
	}
	/* Release: whoever sees the new head sees the bytes it covers. */
	atomic_store_explicit(&out_head, head + n, memory_order_release);
}

static size_t enc_event(void *arg, void *buf, size_t cap)
{
	return mpiv_tf_encode_event(&out_tf, buf, cap, arg);
}

static size_t enc_comm(void *arg, void *buf, size_t cap)
{
	const struct rec_call *c = arg;

	return mpiv_tf_encode_comm(buf, cap, c->ev.index, c->newcomm, c->nmembers, c->members);
}

static size_t enc_comm_again(void *arg, void *buf, size_t cap)
{
	const struct out_comm *k = arg;

	return mpiv_tf_encode_comm(buf, cap, k->event, k->id, k->n, k->members);
}

/* With a window: keep c's communicator, whose comm record was just written, for the
 * restarts. Without memory it is not kept: a window then does not know its members. */
static void out_comm_keep(const struct rec_call *c)
{
	struct out_comm *k;

	if (mpiv_grow((void **)&out_comms, &out_capcomms, out_ncomms, sizeof(*out_comms)))
		return;
	k = &out_comms[out_ncomms];
	k->members = malloc(c->nmembers * sizeof(*k->members));
	if (!k->members)
		return;
	memcpy(k->members, c->members, c->nmembers * sizeof(*k->members));
	k->event = c->ev.index;
	k->id = c->newcomm;
	k->n = c->nmembers;
	out_ncomms++;
}

void rec_output_comm_freed(int32_t id)
{
	int taken = 0;
	size_t i;

	if (out_multi)
		taken = out_take(&out_plock);
	for (i = 0; i < out_ncomms && out_comms[i].id != id; i++)
		;
	if (i < out_ncomms) {
		free(out_comms[i].members);
		out_comms[i] = out_comms[--out_ncomms];
	}
	out_drop(&out_plock, taken);
}

static size_t enc_repeat(void *arg, void *buf, size_t cap)
{
	return mpiv_tf_encode_repeat(buf, cap, *(const uint64_t *)arg, &out_tf.clock,
				     atomic_load_explicit(&out_run_leave, memory_order_relaxed));
}

/* A live record to encode (enc_live()). */
struct out_live {
	int32_t id;
	struct mpiv_event maker;
};

static size_t enc_restart(void *arg, void *buf, size_t cap)
{
	(void)arg;
	return mpiv_tf_encode_restart(&out_tf, buf, cap);
}

static size_t enc_module_of(void *arg, void *buf, size_t cap)
{
	const struct out_mod *m = arg;

	return mpiv_tf_encode_module(buf, cap, m->id, m->path);
}

static size_t enc_live(void *arg, void *buf, size_t cap)
{
	const struct out_live *l = arg;

	return mpiv_tf_encode_live(buf, cap, l->id, &l->maker);
}

/* rec_request_live()'s callback: a live record of request id at the head. */
static void out_live(int32_t id, const struct rec_reqmaker *m, void *arg)
{
	struct out_live l;

	(void)arg;
	l.id = id;
	mpiv_event_init(&l.maker, m->call);
	l.maker.peer = m->peer;
	l.maker.peer2 = m->peer2;
	l.maker.tag = m->tag;
	l.maker.comm = m->comm;
	out_append(MPIV_TF_LIVE_MAX, enc_live, &l);
}

/* Start a segment of the window at the head: a restart record, the modules again (their
 * records may fall out of the window), the requests made before it that are still alive
 * (their makers may fall out of it), and the segment before the last one goes. Call as a
 * producer, between events (a repeat or comm record belongs to the event before it), not
 * from the watcher (the quick way's records are forgotten: their thread must not be in a
 * quick call). */
static void out_restart(void)
{
	uint64_t head = atomic_load_explicit(&out_head, memory_order_relaxed);
	size_t k, bytes;
	int taken;

	/* the tail moves under the writer lock: a flush may be reading [tail, head) */
	taken = out_take(&out_wlock);
	atomic_store_explicit(&out_tail, out_seg, memory_order_release);
	out_drop(&out_wlock, taken);
	out_seg = head;
	out_seg_ev = out_tf.nevents;
	out_seg_end = out_seg_ev + out_last;
	/* the records the quick way copies name sites the restart forgets */
	rec_quick_forget();
	out_append(MPIV_TF_RESTART_MAX, enc_restart, NULL);
	for (k = 0; k < out_nmods; k++)
		out_append(MPIV_TF_MODULE_MAX(strlen(out_mods[k].path)), enc_module_of,
			   &out_mods[k]);
	rec_request_live(out_live, NULL, REC_OUT_LIVE);
	for (k = 0, bytes = 0; k < out_ncomms; k++) {
		bytes += MPIV_TF_COMM_MAX(out_comms[k].n);
		if (bytes > REC_OUT_LIVE_COMM_BYTES)
			break;
		out_append(MPIV_TF_COMM_MAX(out_comms[k].n), enc_comm_again, &out_comms[k]);
	}
}

/* Whether the window's current segment is full: the next event starts another. */
static inline int out_segment_full(void)
{
	return out_tf.nevents - out_seg_ev >= out_last ||
	       atomic_load_explicit(&out_head, memory_order_relaxed) - out_seg >=
		       REC_OUT_SEGMENT_BYTES;
}

/* Whether ev is the open run's event made again: every field the trace keeps is equal. */
static int out_run_same(const struct mpiv_event *ev)
{
	const struct mpiv_event *r = &out_run;

	return ev->call == r->call && ev->site == r->site && ev->thread == r->thread &&
	       ev->peer == r->peer && ev->tag == r->tag && ev->comm == r->comm &&
	       ev->bytes == r->bytes && ev->root == r->root && ev->peer2 == r->peer2 &&
	       ev->tag2 == r->tag2 && ev->src == r->src && ev->mtag == r->mtag &&
	       ev->data == r->data && ev->rdata == r->rdata && ev->npending == r->npending &&
	       ev->flags == r->flags && ev->nreqs == r->nreqs && ev->win == r->win &&
	       ev->lock == r->lock && !ev->ngroup && !r->ngroup &&
	       (!ev->nreqs || !memcmp(ev->reqs, r->reqs, ev->nreqs * sizeof(*ev->reqs)));
}

/* End the open run of failed polls, if any: its repeat record goes after its event, before
 * anything else. Call as a producer. */
static void out_run_end(void)
{
	uint64_t more;

	if (!atomic_load_explicit(&out_run_open, memory_order_relaxed))
		return;
	more = atomic_load_explicit(&out_run_more, memory_order_relaxed);
	if (more)
		out_append(MPIV_TF_REPEAT_MAX, enc_repeat, &more);
	atomic_store_explicit(&out_run_open, 0, memory_order_release);
	atomic_store_explicit(&out_run_more, 0, memory_order_relaxed);
	rec_output_fast = !out_multi && atomic_load_explicit(&out_fd, memory_order_relaxed) >= 0;
}

/* c's event was just appended as a new event: open a run if it is a failed poll. */
static void out_run_start(const struct rec_call *c)
{
	struct mpiv_reqinfo *r;

	if (!(c->bits & REC_C_FAILED_POLL) || c->ev.flags)
		return;
	if (c->ev.nreqs > out_run_cap) {
		/* without memory the polls are written one by one, as they come */
		r = realloc(out_run_reqs, c->ev.nreqs * sizeof(*r));
		if (!r)
			return;
		out_run_reqs = r;
		out_run_cap = c->ev.nreqs;
	}
	out_run = c->ev;
	out_run.reqs = out_run_reqs;
	memcpy(out_run_reqs, c->ev.reqs, c->ev.nreqs * sizeof(*c->ev.reqs));
	atomic_store_explicit(&out_run_leave, c->ev.leave, memory_order_relaxed);
	atomic_store_explicit(&out_run_base, out_tf.clock.last, memory_order_relaxed);
	rec_output_fast = 0;
	atomic_store_explicit(&out_run_open, 1, memory_order_release);
}

/* ---- fatal signals ---- */

/* Write what the ring holds, from a signal handler: no lock waited for without bound, no
 * allocation, only system calls. With sig, the process dies of it next: the trace then ends
 * with a stop record that says so, and its end record. */
static void out_flush_from_signal(int sig)
{
	uintptr_t me = (uintptr_t)&out_me, cur = 0;
	struct timespec nap = {0, 1000000};
	int fd = atomic_load(&out_fd), took = 0, i;
	uint64_t tail, head;

	if (fd < 0 || getpid() != out_pid)
		return;
	for (i = 0; i < REC_OUT_SIGNAL_WAIT_MS; i++) {
		cur = 0;
		if (atomic_compare_exchange_strong(&out_wlock, &cur, me)) {
			took = 1;
			break;
		}
		if (cur == me)
			break; /* this thread was interrupted writing: writing again is harmless */
		nanosleep(&nap, NULL);
	}
	if (!took && cur != me)
		return; /* another thread is stuck in a write: better lose than corrupt */
	/* With the writer lock no one moves the tail, so no producer can overwrite [tail,
	 * head); a producer interrupted mid-record has not moved the head over it yet. */
	tail = atomic_load(&out_tail);
	head = atomic_load(&out_head);
	if ((out_last ? out_write_window(fd, tail, head) : out_write_range(fd, tail, head)) == 0) {
		if (took && !out_last)
			atomic_store(&out_tail, head);
		head += out_write_run(fd, head);
		if (sig) {
			unsigned char rec[MPIV_TF_STOP_MAX + MPIV_TF_END_MAX];
			size_t n = mpiv_tf_encode_stop(rec, sizeof(rec), MPIV_END_SIGNAL, sig);

			n += mpiv_tf_encode_end(rec + n, sizeof(rec) - n);
			out_pwrite(fd, rec, n, out_hdrlen + head - out_file_base);
		}
	}
	out_drop(&out_wlock, took);
}

/* Whether the fault being handled is the thread's stack overflowing, as far as can be told:
 * a SIGSEGV at an address near the interrupted stack pointer (below it by up to what one
 * probe or push reaches, or above it inside the frame just made). */
static int out_stack_overflow(int sig, const siginfo_t *info, const void *uctx)
{
#if defined(__x86_64__) && defined(REG_RSP)
	const ucontext_t *uc = uctx;
	uintptr_t sp, addr;

	if (sig != SIGSEGV || !info || !uc)
		return 0;
	sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	addr = (uintptr_t)info->si_addr;
	return addr + REC_OUT_BELOW_SP >= sp && addr < sp + REC_OUT_ABOVE_SP;
#else
	(void)sig;
	(void)info;
	(void)uctx;
	return 0;
#endif
}

/* Whether the stack of the thread interrupted at uctx can be walked without a fault: the
 * unwinder reads the instruction at the interrupted address (to tell a signal frame) and the
 * stack from the interrupted pointer on, so both must be mapped. A call through a bad function
 * pointer jumps to an address that is not: a fault in the handler, where the signal is
 * blocked, would kill the rank before its trace is written. mincore() says whether a page is
 * mapped, in a system call. */
static int out_unwind_safe(const void *uctx)
{
#if defined(__x86_64__) && defined(REG_RIP) && defined(REG_RSP)
	const ucontext_t *uc = uctx;
	uintptr_t at[2], page = (uintptr_t)out_page_size;
	unsigned char v;
	int i;

	if (!uc || !page)
		return 0;
	at[0] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	at[1] = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	for (i = 0; i < 2; i++)
		if (mincore((void *)(at[i] & ~(page - 1)), 1, &v) != 0)
			return 0;
	return 1;
#else
	(void)uctx;
	return 1;
#endif
}

/* Whether the program's handler old could have run for this signal without the recorder:
 * not for a stack overflow, when it needed the thread's own stack (the program gave it no
 * alternate one) and the recorder's handler runs only thanks to the recorder's alternate
 * stack (rec_stack.h). The kernel then kills the process with the signal, as must we. */
static int out_program_could_run(int sig, const siginfo_t *info, const void *uctx,
				 const struct sigaction *old)
{
	char here;
	enum rec_stack_alt alt;

	if (!out_stack_overflow(sig, info, uctx))
		return 1;
	alt = rec_stack_alt_of(&here);
	return alt == REC_ALT_NONE || (alt == REC_ALT_PROGRAM && (old->sa_flags & SA_ONSTACK));
}

static void out_on_signal(int sig, siginfo_t *info, void *uctx)
{
	int saved = errno;
	const struct sigaction *old = NULL;
	struct sigaction dfl;
	unsigned i;

	for (i = 0; i < REC_OUT_NSIGNALS; i++)
		if (out_signals[i] == sig)
			old = &out_old_action[i];
	if (old && !out_program_could_run(sig, info, uctx, old))
		old = NULL;
	/* Another handler (the program's, or the MPI library's: UCX prints a backtrace on
	 * SIGSEGV) decides what happens next. A fault, a bus error, a bad instruction or an
	 * abort ends the rank all the same nearly always: the stop record goes in past what
	 * is written, where whatever the rank writes if it lives on replaces it, as a run's
	 * count does. A SIGTERM the program handles may mean anything: no stop record. */
	/* Where it died, for verify's report of a crash (a SIGTERM is the launcher's doing);
	 * first, as telling the stack's frames apart may add modules to the trace, which must
	 * go before the stop record. */
	if (sig != SIGTERM)
		rec_status_crashed(out_unwind_safe(uctx));
	out_flush_from_signal(sig != SIGTERM || !(old && old->sa_handler != SIG_DFL &&
						  old->sa_handler != SIG_IGN) ?
				      sig :
				      0);
	if (old && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		if (old->sa_flags & SA_SIGINFO)
			old->sa_sigaction(sig, info, uctx);
		else
			old->sa_handler(sig);
	} else {
		/* The default action, as if we had not been here: the signal is blocked while
		 * this runs and is delivered, fatally, when the handler returns. */
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		sigaction(sig, &dfl, NULL);
		raise(sig);
	}
	errno = saved;
}

/* Catch the fatal signals the program does not ignore. */
static void out_install_handlers(void)
{
	struct sigaction sa;
	unsigned i;

	out_page_size = sysconf(_SC_PAGESIZE); /* not async-signal-safe: asked now */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = out_on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < REC_OUT_NSIGNALS; i++) {
		if (sigaction(out_signals[i], NULL, &out_old_action[i]) != 0)
			continue;
		if (out_old_action[i].sa_handler == SIG_IGN)
			continue; /* catching it would change what the program does */
		out_installed[i] = sigaction(out_signals[i], &sa, NULL) == 0;
	}
}

/* Put back what the program had, if ours is still in place. */
static void out_remove_handlers(void)
{
	struct sigaction cur;
	unsigned i;

	for (i = 0; i < REC_OUT_NSIGNALS; i++) {
		if (!out_installed[i])
			continue;
		out_installed[i] = 0;
		if (sigaction(out_signals[i], NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_sigaction == out_on_signal)
			sigaction(out_signals[i], &out_old_action[i], NULL);
	}
}

/* ---- the interface ---- */

/* The first line of MPI_Get_library_version, cut to fit dst. */
static void library_version(char *dst, size_t size)
{
	char buf[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;
	size_t n;

	dst[0] = '\0';
	if (PMPI_Get_library_version(buf, &len) != MPI_SUCCESS || len <= 0)
		return;
	buf[len < (int)sizeof(buf) ? len : (int)sizeof(buf) - 1] = '\0';
	n = strcspn(buf, "\r\n");
	if (n >= size)
		n = size - 1;
	memcpy(dst, buf, n);
	dst[n] = '\0';
}

/* The header keeps the level as MPI numbers it; readers check it against these. */
_Static_assert(MPI_THREAD_SINGLE == MPIV_THREAD_SINGLE &&
		       MPI_THREAD_MULTIPLE == MPIV_THREAD_MULTIPLE,
	       "MPI_THREAD_* are not numbered 0 to 3: the trace header needs a mapping");

/* N of record --last N (MPIVERIFY_LAST), 0 for none or a value that is no such number
 * (record checks it). */
static uint32_t window_length(void)
{
	const char *v = getenv(MPIV_ENV_LAST);
	unsigned long n;
	char *end;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	return errno || *end ? 0 : n > MPIV_LAST_MAX ? MPIV_LAST_MAX : (uint32_t)n;
}

int rec_output_open(int rank, int size, int thread_level)
{
	const char *dir = getenv(MPIV_ENV_TRACE_DIR);
	unsigned char rec[MPIV_TF_HEADER_MAX];
	struct mpiv_tf_header h;
	char name[64];
	size_t len;
	int fd, e;

	if (!dir || !*dir) {
		rec_msg(MPIV_ENV_TRACE_DIR " is not set: not recording");
		return -1;
	}
	snprintf(name, sizeof(name), MPIV_TRACE_BIN_FILE, rank);
	if (snprintf(out_path, sizeof(out_path), "%s/%s", dir, name) >= (int)sizeof(out_path)) {
		rec_msg("trace directory '%s' is too long: not recording", dir);
		return -1;
	}
	/* Not O_APPEND: pwrite must put bytes at the offset it is given. */
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rec_msg("cannot open trace '%s': %s: not recording", out_path, strerror(errno));
		return -1;
	}

	memset(&h, 0, sizeof(h));
	h.version = MPIV_TRACE_VERSION;
	h.rank = rank;
	h.size = size;
	h.pid = (int32_t)getpid();
	h.thread_level = thread_level;
	h.bsend_overhead = MPI_BSEND_OVERHEAD;
	if (rec_timed) {
		h.clock = MPIV_CLOCK_MONOTONIC;
		h.origin = rec_now();
		h.realtime = rec_realtime();
	}
	if (gethostname(h.host, sizeof(h.host) - 1) != 0)
		h.host[0] = '\0';
	library_version(h.library, sizeof(h.library));
	len = mpiv_tf_encode_header(rec, sizeof(rec), &h);
	/* The header goes out at once: a rank that dies before its first flush still leaves a
	 * trace that says who it was. */
	e = out_pwrite(fd, rec, len, 0);
	if (e) {
		rec_msg("cannot write trace '%s': %s: not recording", out_path, strerror(e));
		close(fd);
		return -1;
	}

	/* Only this thread runs MPI calls yet: nothing else touches the ring. */
	memset(&out_tf, 0, sizeof(out_tf));
	mpiv_tf_writer_start(&out_tf, &h);
	out_hdrlen = len;
	atomic_store(&out_head, 0);
	atomic_store(&out_tail, 0);
	out_quick_limit = 0;
	out_multi = thread_level == MPI_THREAD_MULTIPLE;
	out_pid = getpid();
	out_file_base = 0;
	out_last = window_length();
	rec_output_window = out_last > 0;
	out_seg = 0;
	out_seg_ev = 0;
	atomic_store(&out_dump, 0);
	atomic_store(&out_fd, fd);
	out_seg_end = out_last ? out_last : UINT32_MAX;
	rec_output_fast = !out_multi;
	/* the order between threads matters where several may call MPI; below
	 * MPI_THREAD_MULTIPLE a thread record could also race a call on the ring */
	rec_thread_told = out_multi ? out_thread : NULL;
	rec_thread_tell_made();
	out_install_handlers();
	if (!out_on_exit_set) {
		out_on_exit_set = 1;
		on_exit(out_on_exit, NULL);
	}
	return 0;
}

/* The common case of appending an event of at most max bytes, every call but one in
 * thousands: it fits where the ring's head is, without wrapping. Returns 1 if written, 0 if
 * it does not fit (out_append() then does the rest). Call as a producer. */
static int out_put_event(const struct mpiv_event *ev, size_t max)
{
	uint64_t head = atomic_load_explicit(&out_head, memory_order_relaxed);
	size_t pos = (size_t)(head % REC_OUT_RING);

	if (max > REC_OUT_RING - pos ||
	    head + max - atomic_load_explicit(&out_tail, memory_order_acquire) > REC_OUT_RING)
		return 0;
	head += mpiv_tf_encode_event(&out_tf, out_ring + pos, max, ev);
	atomic_store_explicit(&out_head, head, memory_order_release);
	return 1;
}

/* rec_output_call() but for its common case. */
static REC_COLD void out_call_slow(struct rec_call *c, unsigned flags)
{
	size_t max = MPIV_TF_EVENT_MAX(c->ev.nreqs + c->ev.ngroup);
	uint16_t saved = c->ev.flags;
	int taken = 0, fresh;

	/* Only to skip the work when not recording; out_append() checks again. */
	if (atomic_load_explicit(&out_fd, memory_order_relaxed) < 0)
		return;
	/* Flags come from the watcher only, which always locks (see out_plock). */
	if (out_multi || flags)
		taken = out_take(&out_plock);
	fresh = !(c->bits & REC_C_INDEXED);
	/* A failed poll made again the same way: one more in the run, nothing written. */
	if (fresh && !flags && (c->bits & REC_C_FAILED_POLL) &&
	    atomic_load_explicit(&out_run_open, memory_order_relaxed) && out_run_same(&c->ev)) {
		c->ev.index = out_tf.nevents - 1;
		c->bits |= REC_C_INDEXED;
		atomic_store_explicit(&out_run_leave, c->ev.leave, memory_order_relaxed);
		atomic_store_explicit(&out_run_more,
				      atomic_load_explicit(&out_run_more, memory_order_relaxed) + 1,
				      memory_order_release);
		out_drop(&out_plock, taken);
		return;
	}
	out_run_end();
	if (fresh && !flags && out_last && out_segment_full())
		out_restart();
	/* a blocked call (the watcher's): a hang may follow, the window must say where */
	if (flags && out_last && !(c->bits & REC_C_EARLY))
		atomic_store(&out_dump, 1);
	if (fresh) {
		c->ev.index = out_tf.nevents;
		c->bits |= REC_C_INDEXED;
	}
	if (flags || c->members || !out_put_event(&c->ev, max)) {
		/* The event is the producer's alone: flags can be or'ed in place. */
		c->ev.flags |= flags;
		out_append(max, enc_event, &c->ev);
		c->ev.flags = saved;
	}
	/* the communicator it made follows its event, once it has returned */
	if (!flags && c->members) {
		out_append(MPIV_TF_COMM_MAX(c->nmembers), enc_comm, c);
		if (out_last)
			out_comm_keep(c);
	}
	if (fresh && !flags)
		out_run_start(c);
	out_drop(&out_plock, taken);
}

void rec_output_call(struct rec_call *c, unsigned flags)
{
	/* Nearly every call: calls cannot overlap, the event is new, no run of failed polls is
	 * open or to open, and no communicator record follows: none of what out_call_slow()
	 * sees to applies. */
	if (__builtin_expect(rec_output_fast && !(flags | (c->bits & REC_C_OUT_SLOW)) &&
				     out_tf.nevents < out_seg_end,
			     1)) {
		c->ev.index = out_tf.nevents;
		if (out_put_event(&c->ev, MPIV_TF_EVENT_MAX(c->ev.nreqs + c->ev.ngroup))) {
			c->bits |= REC_C_INDEXED;
			return;
		}
	}
	out_call_slow(c, flags);
}

int32_t rec_output_last_req(void)
{
	return out_tf.last_req;
}

/* Whether the longest record of a quick call fits at head without wrapping, by the tail as it
 * is now; if so, out_quick_limit is set to the last head at which one still fits by that tail
 * (the tail only moves on, so one fits there later as well), for rec_output_quick_copy() to
 * check instead. */
static REC_COLD int out_quick_fits(uint64_t head)
{
	const uint64_t max = MPIV_TF_EVENT_MAX(REC_INLINE_REQS);
	uint64_t by_wrap = (head / REC_OUT_RING + 1) * REC_OUT_RING - max;
	uint64_t by_tail = atomic_load_explicit(&out_tail, memory_order_acquire) + REC_OUT_RING -
			   max;

	if (head > by_wrap || head > by_tail)
		return 0;
	out_quick_limit = by_wrap < by_tail ? by_wrap : by_tail;
	if (out_last) {
		/* a window's segment ends there: the common way starts the next */
		uint64_t by_seg = out_seg + REC_OUT_SEGMENT_BYTES;

		if (head >= by_seg)
			return 0;
		if (by_seg < out_quick_limit)
			out_quick_limit = by_seg;
	}
	return 1;
}

/* Where a quick record goes: the position of the ring's head, if rec_output_fast and the longest
 * record of a quick call fits there without wrapping; else NULL. */
static inline unsigned char *out_quick_room(uint64_t *head)
{
	*head = atomic_load_explicit(&out_head, memory_order_relaxed);
	if (!rec_output_fast || !out_quick_fits(*head))
		return NULL;
	return out_ring + *head % REC_OUT_RING;
}

int rec_output_quick_copy(const struct rec_call *c, const unsigned char *rec, size_t len, int timed)
{
	uint64_t head = atomic_load_explicit(&out_head, memory_order_relaxed);
	unsigned char *p;

	/* rec_output_fast again: the trace may have been closed meanwhile (another thread's
	 * exit) */
	if (!rec_output_fast || (head > out_quick_limit && !out_quick_fits(head)) ||
	    out_tf.nevents >= out_seg_end)
		return 0;
	p = out_ring + head % REC_OUT_RING;
	/* the trace has a clock if and only if rec_timed (rec_output_open()) */
	head += timed ? mpiv_tf_encode_copy(&out_tf, p, rec, len, &c->ev) :
			mpiv_tf_encode_copy_untimed(&out_tf, p, rec, len, &c->ev);
	atomic_store_explicit(&out_head, head, memory_order_release);
	return 1;
}

uint32_t rec_output_nevents(void)
{
	return out_tf.nevents;
}

size_t rec_output_quick_write(struct rec_call *c, unsigned char *rec)
{
	uint64_t head;
	unsigned char *p = out_quick_room(&head);
	size_t n;

	rec_call_unquick(c);
	if (!p || (c->bits & REC_C_OUT_SLOW) || out_tf.nevents >= out_seg_end) {
		rec_output_call(c, 0);
		return 0;
	}
	c->ev.index = out_tf.nevents;
	n = mpiv_tf_encode_event(&out_tf, p, MPIV_TF_EVENT_MAX(REC_INLINE_REQS), &c->ev);
	memcpy(rec, p, MPIV_TF_MEMO_LEN);
	atomic_store_explicit(&out_head, head + n, memory_order_release);
	c->bits |= REC_C_INDEXED;
	return out_tf.copy_len;
}

uint32_t rec_output_next_index(unsigned call)
{
	uint32_t n = out_tf.nevents;

	if (atomic_load_explicit(&out_fd, memory_order_relaxed) < 0)
		return UINT32_MAX;
	if (atomic_load_explicit(&out_run_open, memory_order_relaxed) && out_run.call == call)
		return n - 1;
	return n;
}

static size_t enc_reduction(void *arg, void *buf, size_t cap)
{
	return mpiv_tf_encode_reduction(buf, cap, arg);
}

/* Append a record other than an event's, of at most max bytes made by encode(arg, ...), as
 * a producer that takes the lock: from any thread, outside the fast path. */
static void out_record(size_t max, size_t (*encode)(void *arg, void *buf, size_t cap), void *arg)
{
	int taken = 0;

	if (atomic_load_explicit(&out_fd, memory_order_relaxed) < 0)
		return;
	if (out_multi)
		taken = out_take(&out_plock);
	out_run_end();
	out_append(max, encode, arg);
	out_drop(&out_plock, taken);
}

void rec_output_reduction(const struct mpiv_reduction *r)
{
	out_record(MPIV_TF_REDUCE_MAX, enc_reduction, (void *)r);
}

static size_t enc_thread(void *arg, void *buf, size_t cap)
{
	return mpiv_tf_encode_thread(buf, cap, arg);
}

/* rec_thread_told: a thread record where the file is (before the creator's next event, after
 * the joined thread's last) */
static void out_thread(int op, int32_t self, int32_t other)
{
	struct mpiv_thread_op t = {op, self, other, 0};

	out_record(MPIV_TF_THREAD_MAX, enc_thread, &t);
}

struct out_module {
	uint32_t id;	  /* the module's id */
	const char *path; /* its file */
};

static size_t enc_module(void *arg, void *buf, size_t cap)
{
	const struct out_module *m = arg;

	return mpiv_tf_encode_module(buf, cap, m->id, m->path);
}

void rec_output_module(unsigned id, const char *path)
{
	struct out_module m = {id, path};

	/* under rec_site.c's lock, which calls this: modules come one at a time */
	if (out_last && out_nmods < REC_OUT_MODULES) {
		out_mods[out_nmods].id = id;
		out_mods[out_nmods].path = path;
		out_nmods++;
	}

	out_record(MPIV_TF_MODULE_MAX(strlen(path)), enc_module, &m);
}

void rec_output_flush(void)
{
	int taken;

	if (atomic_load_explicit(&out_fd, memory_order_relaxed) < 0)
		return;
	taken = out_take(&out_wlock);
	out_flush_locked();
	out_drop(&out_wlock, taken);
}

static size_t enc_end(void *arg, void *buf, size_t cap)
{
	(void)arg;
	return mpiv_tf_encode_end(buf, cap);
}

struct out_stop {
	int how;
	int32_t code;
};

static size_t enc_stop(void *arg, void *buf, size_t cap)
{
	const struct out_stop *s = arg;

	return mpiv_tf_encode_stop(buf, cap, s->how, s->code);
}

void rec_output_close(int how, int32_t code)
{
	struct out_stop stop = {how, code};
	int fd, ptaken, wtaken;

	if (atomic_load(&out_fd) < 0 || getpid() != out_pid)
		return;
	out_remove_handlers();
	ptaken = out_take(&out_plock);
	rec_output_fast = 0;
	out_run_end();
	if (how != MPIV_END_UNKNOWN)
		out_append(MPIV_TF_STOP_MAX, enc_stop, &stop);
	out_append(MPIV_TF_END_MAX, enc_end, NULL);
	wtaken = out_take(&out_wlock);
	atomic_store(&out_dump, 1);
	out_flush_locked();
	fd = atomic_exchange(&out_fd, -1);
	if (fd >= 0 && close(fd) != 0)
		rec_msg("cannot write trace '%s': %s", out_path, strerror(errno));
	out_drop(&out_wlock, wtaken);
	out_drop(&out_plock, ptaken);
}

/* Whether every session of a process of the Sessions model has ended (its finish). */
static atomic_int out_sessions_ended;

void rec_output_sessions_ended(int ended)
{
	atomic_store(&out_sessions_ended, ended);
}

/* A rank that exits without MPI_Finalize (or after MPI_Abort returned) still leaves a
 * complete, closed trace that says with which status; one that ended its last session has
 * finished. Registered with on_exit() when the trace opens, so it runs at exit() in that
 * process only (rec_output_close() checks), before the library's destructors. */
static void out_on_exit(int status, void *arg)
{
	(void)arg;
	if (atomic_load(&out_sessions_ended))
		rec_output_close(MPIV_END_FINALIZED, 0);
	else
		rec_output_close(MPIV_END_EXIT, status);
}

/* The same for a process that leaves without exit() running the handlers (a library
 * destructor is the last chance): the status is not known there. */
__attribute__((destructor)) static void out_at_exit(void)
{
	rec_output_close(atomic_load(&out_sessions_ended) ? MPIV_END_FINALIZED : MPIV_END_UNKNOWN,
			 0);
}
