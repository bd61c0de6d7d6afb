/* libreplayer.so internals (every symbol hidden): call numbering that lines up with the
 * recorder's, the recorded trace each call is checked against, the counterexample's schedule
 * for this rank, and the forcing handlers. */
#ifndef MPIV_REPLAYER_H
#define MPIV_REPLAYER_H

#include <stdint.h>

#include <mpi.h>

#include "cex.h"
#include "env.h"
#include "event.h" /* before MPIV_SPECIAL is redefined below: its enum needs every call */
#include "rec_msg.h"

#pragma GCC visibility push(hidden)

/* Exported MPI_* wrappers are the only symbols with default visibility. */
#define MPIV_EXPORT __attribute__((visibility("default")))

/* One intercepted call, on the wrapper's stack. */
struct rep_call {
	unsigned call;	/* enum mpiv_call */
	uint32_t index; /* event index: the same number the recorder gave this call */
	uint64_t site;	/* call site, MPIV_SITE() */
	int thread;	/* the caller's small thread number (rec_status_enter) */
	/* The program's own arguments, as the recorder records them (struct mpiv_event's
	 * conventions: world ranks, MPIV_ANY_SOURCE, ...), before anything is forced; MPIV_NONE
	 * where the call has no such argument (rep_call_envelope() fills them). */
	int32_t peer; /* destination or source */
	int32_t tag;
	int32_t comm;		      /* rec_comm_id() */
	int32_t root;		      /* collective root, world rank */
	int32_t win;		      /* window calls: the window's id (rec_win.c) */
	uint64_t bytes;		      /* count * type size, when has_bytes */
	int has_bytes;		      /* bytes is the message size (point-to-point calls) */
	const struct mpiv_cex_op *op; /* the counterexample's entry for this call, or NULL */
	/* a handler did what op asks (pinned the source, made the send
	 * synchronous) */
	int forced;
	/* receive: the world rank it received from, if known, else
	 * MPIV_NONE */
	int32_t matched;
	/* a test or nonblocking probe, which may find nothing (its
	 * handler sets it) */
	int poll;
	int found; /* poll: it found a message or completed a request */
	/* where the call puts the request it makes (rep_call_envelope),
	 * or NULL: noted in the request table once it returned */
	MPI_Request *made;
	MPI_Comm mpicomm; /* a nonblocking collective's communicator, for its barrier */
	int rc;		  /* what the call returned */
};

/* An event of the recorded trace, as far as the divergence check and the forcing of
 * completions need it (rep_trace.c keeps a few thousand of them decoded). */
struct rep_expect {
	uint16_t call;		       /* enum mpiv_call */
	uint16_t flags;		       /* enum mpiv_event_flags */
	int32_t peer, tag, comm, root; /* as struct mpiv_event */
	int32_t win;		       /* as struct mpiv_event */
	/* what a receive or probe matched; MPIV_NONE for a probe that
	 * found nothing */
	int32_t src;
	uint32_t nreqs, npending; /* requests listed, and how many of them did not complete */
	uint32_t reqs; /* where its nreqs request ids are in its chunk (rep_trace_reqs) */
	uint64_t bytes;
};

/* ---- wrappers.c: the life of a call ---- */

/* Start a call: re-entry guard, event index, live status. Returns 1, or 0 for a call the tool
 * itself makes, which goes straight to PMPI uncounted. The wrapper then fills the envelope
 * (env_<name>, rep_call_envelope) and checks it (rep_schedule_check) before the call is made. */
int rep_call_enter(struct rep_call *c, unsigned call, const void *ret);

/* From now on every call passes through to MPI, unreplayed (a process MPI_Comm_spawn
 * started). */
void rep_call_off(void);

/* The envelope e of call c (env_<name>(), preload/env.h, the recorder's own): into c, with
 * the request it makes and a nonblocking collective's communicator, for the request table
 * (rep_request_made). */
void rep_call_envelope(struct rep_call *c, const struct mpiv_env *e);

/* The call returned: what replay learnt from it (rep_schedule_after), status, guard. */
void rep_call_leave(struct rep_call *c);

/* The re-entry guard alone (MPI_Finalize keeps it across PMPI_Finalize). */
void rep_guard_take(void);
void rep_guard_drop(void);

/* ---- rep_trace.c: the recorded trace of this rank ---- */

/* Read dir/rank-<rank>.mpivt through, validating it. Returns 0, or -1 with a one-line reason
 * in why (nothing is printed; nothing is kept). A file cut inside a record is read up to its
 * last whole one. */
int rep_trace_load(const char *dir, int rank, char *why, size_t whysize);

/* Event index of the trace, or NULL past its end (or if the file cannot be read again:
 * rep_trace_error() says why). The pointer is good until the next call: events are decoded a
 * chunk at a time, and only two chunks are kept. */
const struct rep_expect *rep_trace_event(uint32_t index);

/* The last event (its call and flags only), NULL if there is none. */
const struct rep_expect *rep_trace_last(void);

/* Why an event could not be read again, or NULL. */
const char *rep_trace_error(void);

/* The request ids event x lists (x->nreqs of them, as struct mpiv_event's reqs: the one it
 * made, or those a completion completed, then its npending others), NULL if none. */
const int32_t *rep_trace_reqs(const struct rep_expect *x);

/* Number of events, and whether the recorded run called MPI from more than one thread (then
 * indices do not line up from run to run). */
uint32_t rep_trace_count(void);
int rep_trace_threaded(void);

/* Decode every event of the trace again, in the file's order, and hand each to fn (an event
 * written twice, incomplete then returned, comes twice). Returns 0, or -1 with why. */
int rep_trace_each(void (*fn)(void *ctx, const struct mpiv_event *ev), void *ctx, char *why,
		   size_t whysize);

/* The file of the recorded program (the module of MPI_Init's call site), or NULL. */
const char *rep_trace_program(void);

void rep_trace_release(void);

/* ---- rep_threads.c: a trace whose threads call MPI ---- */

/* An event of such a trace, as the replay of threads needs it (every one kept). */
struct rep_tevent {
	int32_t thread;
	uint16_t call, flags;
	int32_t peer, tag, comm; /* as struct mpiv_event */
	int32_t src, mtag;	 /* what a blocking receive or probe matched */
	uint32_t nreqs, npending;
};

/* Read the trace's events once more into a table, and each thread's events into a list of
 * its own. Returns 0, or -1 with why. */
int rep_threads_load(char *why, size_t whysize);

/* 1 once rep_threads_load() has the table. */
int rep_threads_on(void);

/* Event index of the trace, NULL past its end. */
const struct rep_tevent *rep_threads_event(uint32_t index);

/* The index of the calling thread's next call: its next event in its own list, lined up as
 * one thread's calls are (a run of failed polls is one event); past the list's end, an index
 * the trace does not have. */
uint32_t rep_threads_index(void);

/* Call c of the calling thread returned: move its cursor past c, and note that event
 * c->index returned (rep_threads_returned()). */
void rep_threads_after(const struct rep_call *c);

/* Whether the call of event index has returned. */
int rep_threads_returned(uint32_t index);

void rep_threads_release(void);

/* ---- rep_schedule.c: what the counterexample wants of this rank ---- */

/* The event index of the call being entered. With the recorded trace loaded, calls follow
 * it: a polling loop (MPI_Test*, MPI_Iprobe, MPI_Improbe finding nothing) may poll more or
 * fewer times than it did when recorded, and its polls are lined up with the recorded ones
 * (rep_schedule_after advances). Without the trace, calls are simply counted. */
uint32_t rep_schedule_index(void);

/* Load $MPIVERIFY_CEX and find this rank in it, then the recorded trace from
 * $MPIVERIFY_REPLAY_TRACE. Returns 0, or -1 after printing one line (the caller then aborts
 * the job: replaying without the schedule would prove nothing). */
int rep_schedule_load(int rank, int size);

void rep_schedule_release(void);

/* 1 if collective call c must synchronise its communicator first: the counterexample was
 * found without buffering, where every collective synchronises, and c is on its way. */
int rep_schedule_coll_sync(struct rep_call *c);

/* 1 if the counterexample is a collective mismatch; 1 if its collectives need private
 * communicators (found without buffering, or a mismatch). */
int rep_schedule_mismatch(void);
int rep_schedule_coll_private(void);

/* This rank's cex entry for event index, or NULL if the counterexample does not have it
 * (after the deadlock point, no schedule, or the program already diverged). */
const struct mpiv_cex_op *rep_schedule_op(uint32_t index);

/* A trace whose threads call MPI: hold the blocking receive of event index back until the
 * receives of other threads that the counterexample has take earlier messages it could have
 * taken have returned, so that it takes the message the counterexample has it take (or,
 * where the counterexample has it blocked, none); and hold a send back until the sends of
 * other threads on the same envelope to the same rank whose messages the counterexample has
 * taken before its own have returned. A call held back for longer than a few seconds goes
 * on, with a note. Called before the call is entered: a held thread is not in an MPI call. */
void rep_schedule_hold(uint32_t index);

/* The divergence check: compare call c (its call and the envelope the wrapper filled) with
 * event c->index of the recorded trace; at the first difference report it (rep_diverged).
 * thread is the status's thread number of the caller: a second thread calling MPI diverges
 * from a trace of one. Also looks up c->op (for a poll, the recorded poll that found). */
void rep_schedule_check(struct rep_call *c, int thread);

/* Call c returned: move to the next event of the trace; if c is where the counterexample
 * has this rank blocked, or if the counterexample needed it forced and no handler could,
 * leave a note in the status for the "not reproduced" report. */
void rep_schedule_after(const struct rep_call *c);

/* The source a receive or probe must use: source itself unless it is MPI_ANY_SOURCE and the
 * counterexample pins the match, then the pinned sender as a rank of comm (and c->forced is
 * set). */
int rep_schedule_source(struct rep_call *c, int source, MPI_Comm comm);

/* 1 if the counterexample needs this standard send unbuffered, which the caller then makes
 * synchronous (c->forced is set). */
int rep_schedule_sync(struct rep_call *c);

/* The same for a persistent standard send request being made (MPI_Send_init): 1 if the
 * counterexample's buffering mode has its sends (c->bytes each) unbuffered, so that every
 * start of it is synchronous. */
int rep_schedule_sync_persistent(struct rep_call *c);

/* The recorded event call c must reproduce: for a poll the recorded poll that ended its
 * loop (the one that found), else event c->index. NULL when calls are not checked against the
 * trace (none loaded, or the program diverged). */
const struct rep_expect *rep_schedule_recorded(const struct rep_call *c);

/* A poll's outcome, for the trace's alignment: c is a poll, and whether it found anything (an
 * error counts as found: it ends a loop). Returns rc. */
int rep_polled(struct rep_call *c, int rc, int found);

/* 1 if c is where the counterexample has this rank blocked. */
int rep_schedule_blocked(const struct rep_call *c);

/* The program left the recorded path at call c: one line on stderr, "diverged at event N: ...",
 * and the status file says DIVERGED with the same text. Only the first divergence is
 * reported; from then on nothing is forced. The run goes on for the monitor to end it. */
void rep_diverged(const struct rep_call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* This rank cannot replay (the counterexample or the trace cannot be used here): one line on
 * stderr, and the status file says FAILED with the same text. */
void rep_failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "MPI_Recv(source=1, tag=0, comm=WORLD, 4 bytes)": a call and the envelope fields that are
 * not MPIV_NONE, into buf. */
void rep_describe(char *buf, size_t size, unsigned call, int32_t peer, int32_t tag, int32_t comm,
		  int32_t root, int32_t win, uint64_t bytes, int has_bytes);

/* ---- rep_request.c: the requests the program holds ----
 * Completion calls (Wait*, Test*, Request_free) have their handlers there: Waitany, Waitsome,
 * Testany and Testsome complete the requests the recorded trace says they completed, and a
 * nonblocking collective made to synchronise completes with its hidden barrier. */

/* Call c, which makes a request in *c->made, returned: note the request with the id the
 * recorded trace gives it and, for a nonblocking collective the counterexample needs
 * synchronising, start the barrier it completes with. */
void rep_request_made(struct rep_call *c);

void rep_request_release(void);

/* ---- rep_coll.c: collectives under replay ---- */

/* The program got comm (MPI_Init's MPI_COMM_WORLD, or a communicator it made, all members at
 * the same call): make its private duplicate, when the counterexample needs collectives
 * synchronised or checked (rep_schedule_coll_private()). Makes MPI calls. */
void rep_coll_adopt(MPI_Comm comm);

/* The program frees comm: free its private duplicate. */
void rep_coll_forget(MPI_Comm comm);

/* Free every private duplicate; call before PMPI_Finalize. */
void rep_coll_release(void);

/* The communicator replay's own synchronisation of comm goes on: its private duplicate, or
 * comm itself if it has none. */
MPI_Comm rep_coll_sync_comm(MPI_Comm comm);

/* Synchronise comm's members before collective call c, on rep_coll_sync_comm(comm). */
void rep_coll_barrier(struct rep_call *c, MPI_Comm comm);

/* For a counterexample of a collective mismatch: compare collective call c's call and root
 * with the other members' at the same place (an MPI_Allgather on the private duplicate);
 * a difference is noted (MPIV_NOTE_MISMATCH). Nothing for other calls or counterexamples. */
void rep_coll_check(struct rep_call *c);

/* ---- rep_force.c: handlers of the calls replay may force ----
 * Declared weak for every ordinary entry: a wrapper calls rep_<name>() when rep_force.c
 * defines it and passes the call to PMPI_<name> otherwise. The prototypes come from the .def,
 * so a handler that disagrees with mpi.h does not compile. */
#define MPIV_SPECIAL(name, number, kind, flags, params, args)
#define MPIV_CALL(name, number, kind, flags, params, args) \
	int rep_##name(struct rep_call *c, MPIV_UNPAREN params) __attribute__((weak));
#include "mpi_calls.def"
#undef MPIV_CALL
#undef MPIV_SPECIAL

#pragma GCC visibility pop

#endif
