/* What the counterexample (cex.json) wants of this rank during replay: which sender each
 * wildcard receive must match and which standard sends must not be buffered, looked up by
 * event index; the divergence check of every call against the recorded trace; and the notes
 * that explain a run that completed although the counterexample has it deadlock. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "environment.h"
#include "replayer.h"
#include "rec_comm.h"
#include "rec_status.h"
#include "status.h"

static struct mpiv_cex rep_cex;		   /* the whole counterexample */
static const struct mpiv_cex_rank *rep_me; /* this rank's entry, NULL without one */
static int rep_checking;		   /* the recorded trace is loaded and usable */
/* the program diverged: nothing is forced or
 * checked any more */
static atomic_int rep_left;
/* Event indices. Aligned with the trace (rep_checking, one thread: a second one diverges),
 * the next call's index is rep_cursor, which rep_schedule_after() moves; otherwise calls are
 * counted at entry, MPI_Init being 0, which is the recorder's numbering whenever the program
 * has one thread (recorder/rec_output.c). */
static uint32_t rep_cursor;
static atomic_uint rep_counter;

/* A Python program's trace was recorded from script (its "FILE:FUNCTION" site module, the
 * function cut here): say once if no argument of this process is that file. */
static void script_check(const char *script)
{
	char args[4096], file[PATH_MAX], *real;
	const char *colon = strrchr(script, ':'), *a;
	ssize_t n;
	int fd, found = 0;

	if (!colon || (size_t)(colon - script) >= sizeof(file))
		return;
	memcpy(file, script, (size_t)(colon - script));
	file[colon - script] = '\0';
	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, args, sizeof(args) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	args[n] = '\0';
	for (a = args; a < args + n && !found; a += strlen(a) + 1) {
		real = realpath(a, NULL);
		found = real && !strcmp(real, file);
		free(real);
	}
	if (!found)
		rec_msg("note: replaying a Python program, but the trace was recorded from '%s'",
			file);
}

/* The trace this run is checked against: $MPIVERIFY_REPLAY_TRACE (the CLI validated it).
 * Returns 0 (also when there is none to load: replay then only forces), or -1 with why. */
static int rep_load_trace(int rank, char *why, size_t whysize)
{
	const char *dir = getenv(MPIV_ENV_REPLAY_TRACE);
	const char *recorded;
	char exe[PATH_MAX];
	ssize_t n;

	if (!dir || !*dir) {
		if (rank == 0)
			rec_msg(MPIV_ENV_REPLAY_TRACE " is not set: calls are not checked against "
						      "the recorded trace");
		return 0;
	}
	if (rep_trace_load(dir, rank, why, whysize) != 0)
		return -1;
	/* With several threads calling MPI the trace numbers calls in the order they were
	 * written, which the next run need not repeat: each thread follows its own events
	 * (rep_threads.c) */
	if (rep_trace_threaded())
		return rep_threads_load(why, whysize);
	rep_checking = 1;
	/* Running another program than the recorded one is allowed (a rebuilt binary), but it
	 * explains a divergence: say so once. */
	recorded = rep_trace_program();
	if (rank == 0 && recorded &&
	    !strncmp(recorded, MPIV_SITE_PYTHON, strlen(MPIV_SITE_PYTHON))) {
		script_check(recorded + strlen(MPIV_SITE_PYTHON));
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (rank == 0 && recorded && n > 0) {
		exe[n] = '\0';
		if (strcmp(exe, recorded))
			rec_msg("note: replaying '%s', but the trace was recorded from '%s'", exe,
				recorded);
	}
	return 0;
}

int rep_schedule_load(int rank, int size)
{
	const char *path = getenv(MPIV_ENV_CEX);
	struct mpiv_error err;
	char text[1024], why[1024];
	int i;

	if (!path || !*path) {
		rep_failed(MPIV_ENV_CEX " is not set: nothing to replay");
		return -1;
	}
	mpiv_error_init(&err);
	if (mpiv_cex_load(path, &rep_cex, &err) != 0) {
		mpiv_error_format(&err, text, sizeof(text));
		rep_failed("cannot load counterexample %s", text);
		return -1;
	}
	if (rep_cex.nranks != size) {
		rep_failed("the counterexample '%s' is for %d ranks, this run has %d", path,
			   rep_cex.nranks, size);
		goto fail;
	}
	/* ranks[] is by rank; search anyway rather than trust it. */
	for (i = 0; i < rep_cex.nranks; i++) {
		if (rep_cex.ranks[i].rank == rank)
			rep_me = &rep_cex.ranks[i];
	}
	if (!rep_me) {
		rep_failed("the counterexample '%s' has no entry for rank %d", path, rank);
		goto fail;
	}
	if (rep_load_trace(rank, why, sizeof(why)) != 0) {
		rep_failed("%s", why);
		goto fail;
	}
	return 0;
fail:
	rep_me = NULL;
	mpiv_cex_release(&rep_cex);
	return -1;
}

void rep_schedule_release(void)
{
	rep_me = NULL;
	rep_checking = 0;
	mpiv_cex_release(&rep_cex);
	rep_threads_release();
	rep_trace_release();
}

uint32_t rep_schedule_index(void)
{
	if (rep_checking && !atomic_load_explicit(&rep_left, memory_order_relaxed))
		return rep_cursor;
	if (rep_threads_on() && !atomic_load_explicit(&rep_left, memory_order_relaxed))
		return rep_threads_index();
	return atomic_fetch_add_explicit(&rep_counter, 1, memory_order_relaxed);
}

/* ---- the order of threads' receives and sends (a trace whose threads call MPI) ---- */

/* How long a receive is held back for the receives of other threads before it, at most: a
 * program that left the counterexample's path may never make them. */
#define REP_HOLD_MS 10000

/* Could a receive with x's envelope take a message from world rank src with tag? */
static int rep_could_take(const struct rep_tevent *x, int32_t src, int32_t tag, int32_t comm)
{
	return x->comm == comm && (x->peer == MPIV_ANY_SOURCE || x->peer == src) &&
	       (x->tag == MPIV_ANY_TAG || x->tag == tag);
}

/* Whether event index is where the counterexample has one of this rank's threads blocked. */
static int rep_blocked_at(uint32_t index)
{
	size_t i;

	if (rep_me->blocked_op >= 0 && (uint32_t)rep_me->blocked_op == index)
		return 1;
	for (i = 0; i < rep_me->nthreads; i++)
		if (rep_me->threads[i].blocked_op >= 0 &&
		    (uint32_t)rep_me->threads[i].blocked_op == index)
			return 1;
	return 0;
}

/* Whether call takes its message when it is posted, as a receive of another thread may too:
 * a blocking or nonblocking receive, or a blocking matched probe (MPI-4.1 3.8.2). */
static int rep_takes_at_post(unsigned call)
{
	unsigned kind = mpiv_call_kind(call);

	return (kind == MPIV_KIND_RECV || kind == MPIV_KIND_IRECV || kind == MPIV_KIND_MPROBE) &&
	       !(mpiv_call_flags(call) & MPIV_F_POLL);
}

/* Must the receive of event index wait for y, a receive of another thread? Yes if y took a
 * message it could have taken, and the counterexample has it take a later one from the
 * same sender, or none (it is blocked). */
static int rep_waits_for(const struct rep_tevent *x, const struct mpiv_cex_op *op,
			 const struct mpiv_cex_op *y)
{
	const struct rep_tevent *yx = rep_threads_event(y->op);

	int32_t tag;

	if (!yx || yx->thread == x->thread || !rep_takes_at_post(yx->call) || y->match_rank < 0)
		return 0;
	/* the tag y matched: a nonblocking receive's is known only where it completes, so its
	 * own, or, with MPI_ANY_TAG, one x would take (holding x back then is the safe side) */
	tag = yx->mtag != MPIV_NONE ? yx->mtag : yx->tag != MPIV_ANY_TAG ? yx->tag : x->tag;
	if (!rep_could_take(x, y->match_rank, tag, yx->comm))
		return 0;
	if (op && op->match_rank >= 0)
		return y->match_rank == op->match_rank && y->match_op < op->match_op;
	return 1;
}

static int rep_is_send(unsigned call)
{
	enum mpiv_kind kind = mpiv_call_kind(call);

	return kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND;
}

/* Where the counterexample has this rank's send of event e taken: the receiving rank and the
 * place of the receive among its operations (in the order the model ran them). Returns 0, or
 * -1 if no receive took it. */
static int rep_taken_at(uint32_t e, int *rank, size_t *pos)
{
	int d;
	size_t k;

	for (d = 0; d < rep_cex.nranks; d++)
		for (k = 0; k < rep_cex.ranks[d].nops; k++)
			if (rep_cex.ranks[d].ops[k].match_rank == rep_me->rank &&
			    rep_cex.ranks[d].ops[k].match_op == (int32_t)e) {
				*rank = d;
				*pos = k;
				return 0;
			}
	return -1;
}

/* Must the send of event index (x) wait for y, a send of another thread? Yes if y's message
 * goes where x's does, on the same envelope, and the counterexample has it taken before
 * x's (or x's not at all): messages of two threads are not ordered (doc/semantics.md 1.3),
 * and the one posted first is taken first. */
static int rep_send_waits_for(uint32_t index, const struct rep_tevent *x,
			      const struct mpiv_cex_op *y)
{
	const struct rep_tevent *yx = rep_threads_event(y->op);
	size_t pos = (size_t)-1, ypos;
	int d = x->peer, yd;

	if (!yx || yx->thread == x->thread || !rep_is_send(yx->call) || yx->peer != x->peer ||
	    yx->comm != x->comm || yx->tag != x->tag || rep_taken_at(y->op, &yd, &ypos) || yd != d)
		return 0;
	if (rep_taken_at(index, &d, &pos) == 0 && yd != d)
		return 0;
	return ypos < pos;
}

void rep_schedule_hold(uint32_t index)
{
	const struct rep_tevent *x = rep_threads_event(index);
	const struct mpiv_cex_op *op;
	struct timespec pause = {0, 200000};
	char note[256];
	size_t i;
	int waited = 0, send;

	/* what a receive takes is decided when it is posted (blocking or not, or a matched
	 * probe), and which message of two threads is taken first when each is sent; a
	 * nonblocking receive's post returns at once, so that holding it until the other
	 * thread's has returned orders the posts */
	if (!rep_me || !x || atomic_load_explicit(&rep_left, memory_order_relaxed))
		return;
	send = rep_is_send(x->call);
	if (!send && !rep_takes_at_post(x->call))
		return;
	op = mpiv_cex_find(rep_me, index);
	/* a receive the counterexample has take nothing waits for those that took what it
	 * could have: blocked in it, or a nonblocking one whose completion is waited for */
	if (!send && !rep_blocked_at(index) &&
	    (!op || (op->match_rank < 0 && mpiv_call_kind(x->call) == MPIV_KIND_RECV)))
		return;
	for (i = 0; i < rep_me->nops; i++) {
		const struct mpiv_cex_op *y = &rep_me->ops[i];

		if (y->op == index ||
		    !(send ? rep_send_waits_for(index, x, y) :
			     rep_waits_for(x, rep_blocked_at(index) ? NULL : op, y)))
			continue;
		while (!rep_threads_returned(y->op) && waited < REP_HOLD_MS * 5) {
			nanosleep(&pause, NULL);
			waited++;
		}
		if (!rep_threads_returned(y->op)) {
			snprintf(note, sizeof(note),
				 "event %u: held back for event %u of another thread, which never "
				 "returned: replay cannot force the threads' order",
				 index, y->op);
			rec_status_note(MPIV_NOTE_UNFORCED, note);
			return;
		}
	}
}

/* Whether call is a poll: a test or a nonblocking probe, which may find nothing. */
static int rep_is_poll(unsigned call)
{
	return (mpiv_call_flags(call) & MPIV_F_POLL) != 0;
}

/* Whether recorded event x is a poll of the same call and envelope as like that found
 * nothing (mpiv_failed_poll(): a probe without a source, a test that completed none of its
 * requests, a window test that said no). */
static int rep_failed_poll(const struct rep_expect *x, const struct rep_expect *like)
{
	if (!x || x->call != like->call || x->peer != like->peer || x->tag != like->tag ||
	    x->comm != like->comm || x->win != like->win)
		return 0;
	return mpiv_failed_poll(x->call, x->src, x->flags, x->nreqs, x->npending);
}

/* For a poll at index: the index of the recorded poll that ended its run of failed polls
 * (the one that found), or index itself if the trace has no such run there. A run is looked
 * for once: a loop polls its way through it, and runs of a million polls happen. */
static uint32_t rep_poll_end(uint32_t index)
{
	static uint32_t lo, hi; /* the last run seen: events [lo, hi) failed */
	static int ends;	/* ... and event hi is the poll that found */
	const struct rep_expect *x;
	struct rep_expect first; /* a copy: the scan may take the trace's chunk away */
	uint32_t j = index;

	if (index >= lo && index < hi)
		return ends ? hi : index;
	x = rep_trace_event(index);
	if (!x || !rep_failed_poll(x, x))
		return index;
	first = *x;
	while ((x = rep_trace_event(j)) && rep_failed_poll(x, &first))
		j++;
	lo = index;
	hi = j;
	ends = x && x->call == first.call;
	return ends ? hi : index;
}

const struct mpiv_cex_op *rep_schedule_op(uint32_t index)
{
	if (!rep_me || atomic_load_explicit(&rep_left, memory_order_relaxed))
		return NULL;
	return mpiv_cex_find(rep_me, index);
}

/* Whether the call's peer is where it sends to (the send side of a send-receive). */
static int rep_sends(unsigned call)
{
	unsigned flags = mpiv_call_flags(call);

	call = mpiv_call_twin(call);
	return (flags & (MPIV_F_STANDARD | MPIV_F_SYNC | MPIV_F_BUFFERED)) ||
	       call == MPIV_CALL_Sendrecv || call == MPIV_CALL_Sendrecv_replace;
}

/* Whether the call carries a message size: a send, a receive, persistent ones included. */
static int rep_is_p2p(unsigned call)
{
	enum mpiv_kind kind = mpiv_call_kind(call);

	if (kind == MPIV_KIND_SENDRECV || kind == MPIV_KIND_ISENDRECV)
		return 0;
	return rep_sends(call) || kind == MPIV_KIND_RECV || kind == MPIV_KIND_IRECV ||
	       mpiv_call_twin(call) == MPIV_CALL_Recv_init;
}

static void rep_rank_str(char *buf, size_t size, int32_t v)
{
	if (v == MPIV_ANY_SOURCE)
		snprintf(buf, size, "ANY");
	else if (v == MPIV_PROC_NULL)
		snprintf(buf, size, "PROC_NULL");
	else
		snprintf(buf, size, "%d", (int)v);
}

void rep_describe(char *buf, size_t size, unsigned call, int32_t peer, int32_t tag, int32_t comm,
		  int32_t root, int32_t win, uint64_t bytes, int has_bytes)
{
	const char *name = mpiv_call_name(call);
	char v[32];
	size_t n;

	snprintf(buf, size, "%s(", name ? name : "an unknown MPI call");
	/* each part appends ", " after itself; the last one is cut below */
	if (peer != MPIV_NONE) {
		rep_rank_str(v, sizeof(v), peer);
		n = strlen(buf);
		snprintf(buf + n, size - n, "%s=%s, ",
			 win != MPIV_NONE ? "target" :
			 rep_sends(call)  ? "dest" :
					    "source",
			 v);
	}
	if (tag != MPIV_NONE) {
		if (tag == MPIV_ANY_TAG)
			snprintf(v, sizeof(v), "ANY");
		else
			snprintf(v, sizeof(v), "%d", (int)tag);
		n = strlen(buf);
		snprintf(buf + n, size - n, "tag=%s, ", v);
	}
	if (root != MPIV_NONE) {
		rep_rank_str(v, sizeof(v), root);
		n = strlen(buf);
		snprintf(buf + n, size - n, "root=%s, ", v);
	}
	if (comm != MPIV_NONE) {
		n = strlen(buf);
		if (comm == MPIV_COMM_WORLD || comm == MPIV_COMM_SELF)
			snprintf(buf + n, size - n, "comm=%s, ",
				 comm == MPIV_COMM_WORLD ? "WORLD" : "SELF");
		else if (comm >= MPIV_COMM_FIRST_LOCAL) /* rank-local: the n-th one made */
			snprintf(buf + n, size - n, "comm=#%d, ", comm);
		else
			snprintf(buf + n, size - n, "comm=?, ");
	}
	if (win != MPIV_NONE) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "win=%d, ", (int)win);
	}
	if (has_bytes) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "%llu bytes, ", (unsigned long long)bytes);
	}
	n = strlen(buf);
	if (n >= 2 && !strcmp(buf + n - 2, ", "))
		n -= 2;
	snprintf(buf + n, size - n, ")");
}

/* Whether a recorded field and the program's disagree; a field either side lacks (MPIV_NONE:
 * the recorder or the replayer does not know it for this call) is not compared. */
static int rep_differs(int32_t recorded, int32_t now)
{
	return recorded != MPIV_NONE && now != MPIV_NONE && recorded != now;
}

/* Why the recorded trace has no event index: "the recorded trace ends at event 6 (...)". */
static void rep_end_reason(char *buf, size_t size)
{
	uint32_t n = rep_trace_count();
	const struct rep_expect *last = rep_trace_last();
	const char *name = last ? mpiv_call_name(last->call) : NULL;

	if (rep_trace_error())
		snprintf(buf, size, "%s", rep_trace_error());
	else if (!last)
		snprintf(buf, size, "the recorded trace has no events");
	else if (last->flags & MPIV_EV_INCOMPLETE)
		snprintf(buf, size, "the recorded run never returned from event %u, %s", n - 1,
			 name ? name : "an unknown call");
	else
		snprintf(buf, size, "the recorded trace ends at event %u, %s", n - 1,
			 name ? name : "an unknown call");
}

/* rep_schedule_check() of a trace whose threads call MPI: the call against its thread's
 * event. */
static void rep_check_thread(struct rep_call *c)
{
	const struct rep_tevent *x = rep_threads_event(c->index);
	char got[256], want[256];

	c->op = rep_schedule_op(c->index);
	if (x && x->call == c->call && !rep_differs(x->peer, c->peer) &&
	    !rep_differs(x->tag, c->tag) && !rep_differs(x->comm, c->comm))
		return;
	rep_describe(got, sizeof(got), c->call, c->peer, c->tag, c->comm, MPIV_NONE, MPIV_NONE, 0,
		     0);
	if (!x) {
		rep_diverged(c, "expected no more calls of this thread, got %s", got);
	} else {
		rep_describe(want, sizeof(want), x->call, x->peer, x->tag, x->comm, MPIV_NONE,
			     MPIV_NONE, 0, 0);
		rep_diverged(c, "expected %s of thread %d, got %s", want, (int)x->thread, got);
	}
	c->op = NULL;
}

void rep_schedule_check(struct rep_call *c, int thread)
{
	const struct rep_expect *x;
	char want[256], got[256], why[160];
	int rec_bytes;

	if (rep_threads_on() && !atomic_load_explicit(&rep_left, memory_order_relaxed)) {
		rep_check_thread(c);
		return;
	}
	if (!rep_checking || atomic_load_explicit(&rep_left, memory_order_relaxed)) {
		c->op = rep_schedule_op(c->index);
		return;
	}
	/* a polling loop's choice is the counterexample's at the poll that found */
	c->op = rep_schedule_op(rep_is_poll(c->call) ? rep_poll_end(c->index) : c->index);
	x = rep_trace_event(c->index);
	/* The recorder wrote a message size only where it wrote the envelope. */
	rec_bytes = x && x->peer != MPIV_NONE && rep_is_p2p(x->call);
	if (thread <= 0 && x && x->call == c->call && !rep_differs(x->peer, c->peer) &&
	    !rep_differs(x->tag, c->tag) && !rep_differs(x->comm, c->comm) &&
	    !rep_differs(x->root, c->root) && !rep_differs(x->win, c->win) &&
	    !(rec_bytes && c->has_bytes && x->bytes != c->bytes))
		return;
	/* diverged: the words are worth their cost only now */
	rep_describe(got, sizeof(got), c->call, c->peer, c->tag, c->comm, c->root, c->win, c->bytes,
		     c->has_bytes);
	if (thread > 0) {
		rep_diverged(c,
			     "a second thread calls MPI (%s), the recorded run called MPI from "
			     "one thread only",
			     got);
	} else if (!x) {
		rep_end_reason(why, sizeof(why));
		rep_diverged(c, "expected no call (%s), got %s", why, got);
	} else {
		rep_describe(want, sizeof(want), x->call, x->peer, x->tag, x->comm, x->root, x->win,
			     x->bytes, rec_bytes);
		rep_diverged(c, "expected %s, got %s", want, got);
	}
	c->op = NULL; /* off the path, the counterexample's choices mean nothing */
}

/* What the counterexample asks of op that a handler must do: "" if nothing. */
static void rep_need(const struct mpiv_cex_op *op, char *buf, size_t size)
{
	buf[0] = '\0';
	if (op->sync == 1)
		snprintf(buf, size, "unbuffered (made synchronous)");
	else if (op->wildcard && op->match_rank >= 0)
		snprintf(buf, size, "to match rank %d's event %d", (int)op->match_rank,
			 (int)op->match_op);
}

/* Move the cursor past call c. A poll that found nothing takes a recorded failed poll if
 * there is one left, else stays on the recorded poll that found; a poll that found skips the
 * recorded failures it did not need. A run of failed polls is one event (its repeats are
 * not events): where it is the rank's last, the rank polled to the end, and so may the
 * replay, on that event. */
static void rep_advance(const struct rep_call *c)
{
	int failed;

	if (rep_threads_on() && !atomic_load_explicit(&rep_left, memory_order_relaxed)) {
		rep_threads_after(c);
		return;
	}
	if (!rep_checking || atomic_load_explicit(&rep_left, memory_order_relaxed))
		return;
	if (!c->poll)
		rep_cursor = c->index + 1;
	else if (!c->found) {
		failed = rep_failed_poll(rep_trace_event(c->index), rep_trace_event(c->index));
		rep_cursor = failed && rep_trace_event(c->index + 1) ? c->index + 1 : c->index;
	} else
		rep_cursor = rep_poll_end(c->index) + 1;
}

void rep_schedule_after(const struct rep_call *c)
{
	const char *name = mpiv_call_name(c->call);
	char note[512], need[128];

	rep_advance(c);
	if (!rep_me || atomic_load_explicit(&rep_left, memory_order_relaxed))
		return;
	if (c->op && !c->forced) {
		rep_need(c->op, need, sizeof(need));
		if (need[0]) {
			snprintf(note, sizeof(note),
				 "event %u, %s: the counterexample needs it %s, "
				 "which replay cannot force for %s yet",
				 c->index, name, need, name);
			rec_status_note(MPIV_NOTE_UNFORCED, note);
		}
	}
	if (rep_me->blocked_op < 0 || (uint32_t)rep_me->blocked_op != c->index)
		return;
	if (c->forced && c->op && c->op->sync == 1)
		snprintf(
			note, sizeof(note),
			"event %u, %s, where the counterexample has this rank "
			"blocked, completed although it was made synchronous: a receive matched it",
			c->index, name);
	else if ((mpiv_call_flags(c->call) & MPIV_F_STANDARD) && !c->forced) {
		snprintf(
			note, sizeof(note),
			"event %u, %s, where the counterexample has this rank "
			"blocked, completed: the counterexample does not have it made synchronous, "
			"so the MPI library was free to buffer it",
			c->index, name);
		rec_status_note(MPIV_NOTE_PASSED | MPIV_NOTE_FREE_TO_BUFFER, note);
		return;
	} else if (c->matched != MPIV_NONE)
		snprintf(note, sizeof(note),
			 "event %u, %s, where the counterexample has this rank "
			 "blocked, completed: it received rank %d's message",
			 c->index, name, (int)c->matched);
	else
		snprintf(note, sizeof(note),
			 "event %u, %s, where the counterexample has this rank "
			 "blocked, completed",
			 c->index, name);
	rec_status_note(MPIV_NOTE_PASSED, note);
}

const struct rep_expect *rep_schedule_recorded(const struct rep_call *c)
{
	if (!rep_checking || atomic_load_explicit(&rep_left, memory_order_relaxed))
		return NULL;
	return rep_trace_event(rep_is_poll(c->call) ? rep_poll_end(c->index) : c->index);
}

int rep_schedule_blocked(const struct rep_call *c)
{
	return rep_me && rep_me->blocked_op >= 0 && (uint32_t)rep_me->blocked_op == c->index &&
	       !atomic_load_explicit(&rep_left, memory_order_relaxed);
}

int rep_schedule_source(struct rep_call *c, int source, MPI_Comm comm)
{
	int r;

	if (source != MPI_ANY_SOURCE || !c->op || c->op->match_rank < 0)
		return source;
	r = rec_comm_from_world(comm, c->op->match_rank);
	if (r < 0) {
		rep_diverged(c,
			     "the counterexample matches world rank %d, which is not in the "
			     "receive's communicator",
			     c->op->match_rank);
		return source;
	}
	c->forced = 1;
	return r;
}

/* Does the counterexample have every collective synchronise: without buffering, or found
 * with collectives synchronising (doc/semantics.md 5.2)? */
static int colls_sync(void)
{
	return rep_cex.buffering.mode == MPIV_BUF_ZERO || rep_cex.buffering.sync_colls;
}

int rep_schedule_coll_sync(struct rep_call *c)
{
	/* where the model made every collective synchronise, MPICH's need not, so a barrier
	 * first gives the counterexample's order, as Intel's checker does (a nonblocking one
	 * gets an MPI_Ibarrier, completed at its wait: rep_request.c) */
	if (!c->op || !colls_sync())
		return 0;
	c->forced = 1;
	return 1;
}

int rep_schedule_mismatch(void)
{
	return rep_me && rep_cex.mismatch;
}

int rep_schedule_coll_private(void)
{
	return rep_me && (rep_cex.mismatch || colls_sync());
}

int rep_schedule_sync_persistent(struct rep_call *c)
{
	const struct mpiv_buffering *b = &rep_cex.buffering;

	/* every start posts the same envelope and size, so the counterexample's mode decides
	 * for all of them alike, as the model did for each */
	if (!rep_me)
		return 0;
	if (b->mode == MPIV_BUF_ZERO ||
	    (b->mode == MPIV_BUF_EAGER && (long long)c->bytes > b->bytes)) {
		c->forced = 1;
		return 1;
	}
	return 0;
}

int rep_schedule_sync(struct rep_call *c)
{
	/* sync -1: not a standard send; 0: buffered, left alone */
	if (!c->op || c->op->sync != 1)
		return 0;
	c->forced = 1;
	return 1;
}

void rep_diverged(const struct rep_call *c, const char *fmt, ...)
{
	char text[512];
	int n, first = 0;
	va_list ap;

	if (!atomic_compare_exchange_strong(&rep_left, &first, 1))
		return;
	/* from now on calls are counted, from here */
	atomic_store_explicit(&rep_counter, c->index + 1, memory_order_relaxed);
	n = snprintf(text, sizeof(text), "at event %u: ", c->index);
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - n, fmt, ap);
	va_end(ap);
	rec_msg("diverged %s", text);
	rec_status_diverged(c->call, c->index, c->site, text);
}

void rep_failed(const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rec_msg("%s", text);
	rec_status_failed(text);
}

int rep_polled(struct rep_call *c, int rc, int found)
{
	c->poll = 1;
	c->found = rc != MPI_SUCCESS || found;
	return rc;
}
