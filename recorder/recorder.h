/* librecorder.so internals (every symbol hidden): the life of one intercepted call, the typed
 * handlers generated from base/mpi_calls.def, the request table and the trace file. */
#ifndef MPIV_RECORDER_H
#define MPIV_RECORDER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <mpi.h>

#include "digest.h"
#include "env.h"
#include "event.h" /* before MPIV_SPECIAL is redefined below: its enum needs every call */
#include "rec_hot.h"
#include "rec_msg.h"
#include "rec_reduce.h"

#pragma GCC visibility push(hidden)

/* Exported MPI_* wrappers are the only symbols with default visibility. */
#define MPIV_EXPORT __attribute__((visibility("default")))

#define REC_INLINE_REQS 8    /* requests an event holds without malloc */
#define REC_REQ_UNKNOWN (-1) /* id of a request the recorder did not see being made */

/* What has happened to a call (struct rec_call's bits). */
enum rec_call_bits {
	REC_C_INDEXED = 1 << 0,		/* ev.index is final: the event was written once */
	REC_C_POSTED = 1 << 1,		/* published to the watcher (blocked in PMPI, or may be) */
	REC_C_INCOMPLETE_SENT = 1 << 2, /* the watcher already wrote it as MPIV_EV_INCOMPLETE */
	/* a poll that found nothing (rec_call_polled()): no
	 * progress, and a run of equal ones is one event
	 * (rec_output_call) */
	REC_C_FAILED_POLL = 1 << 3,
	REC_C_MEMBERS = 1 << 4, /* a comm record follows the event (members) */
	/* made the quick way (rec_quick.c): of ev, only call,
	 * site, enter and the requests were written; the rest
	 * is in slot (rec_call_unquick()) */
	REC_C_QUICK = 1 << 5,
	/* written before its call was made (rec_call_write_early()),
	 * as incomplete: not a blocked call */
	REC_C_EARLY = 1 << 6,
	/* any of these: the event is not written by rec_output_call()'s common case */
	REC_C_OUT_SLOW = REC_C_INDEXED | REC_C_FAILED_POLL | REC_C_MEMBERS,
};

/* One intercepted call, on the wrapper's stack (which is the program's: keep it small).
 * Between rec_call_posted() and rec_call_returned() the watcher thread may read ev, so the
 * handler must not change it. */
struct rq_slot;

struct rec_call {
	/* the event being recorded; ev.reqs points to reqs_inline
	 * or to malloc'ed memory */
	struct mpiv_event ev;
	struct mpiv_reqinfo reqs_inline[REC_INLINE_REQS]; /* storage for the first requests */
	uint32_t reqs_cap;				  /* room in ev.reqs */
	unsigned bits;					  /* enum rec_call_bits */
	uint64_t posted_beat;				  /* rec_status_beat() when posted */
	/* a NEWCOMM call: the id of the communicator it made,
	 * MPIV_NONE if none (written as a comm record) */
	int32_t newcomm;
	uint32_t nmembers; /* its members ... */
	int32_t *members;  /* ... world ranks by rank in it; malloc'ed, or NULL */
	/* reductions the reduction check handled in this call,
	 * whose findings follow its event (rec_reduce.c); NULL
	 * for none */
	struct rec_red *reduce;
	const struct rq_slot *slot; /* REC_C_QUICK: its call site's slot (rec_quick.c) */
};

/* What each thread of the program keeps. initial-exec: a plain load, the library being
 * preloaded. */
struct rec_tls {
	/* > 0 while the thread is inside a wrapper: MPI calls made
	 * meanwhile (by the tool, or by MPI itself through the MPI_
	 * names) are passed through unrecorded */
	int depth;
	int quick; /* the thread may take the quick way (rec_quick_allow()) */
	/* its slot for the watcher (rec_call.c), made at its
	 * first blocking call */
	struct rec_thread *self;
	/* requests it made: the next one's number among them,
	 * which steering names a completion's requests by */
	int32_t nreqs;
};
extern __thread struct rec_tls rec_tls __attribute__((tls_model("initial-exec")));

/* Times are recorded (record --timestamps): MPIVERIFY_TIMESTAMPS, read when the library is
 * loaded, so that MPI_Init has its times too. */
extern int rec_timed;

/* The clock of the times (MPIV_CLOCK_MONOTONIC): a vDSO call, no system call. */
static inline uint64_t rec_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CLOCK_REALTIME in nanoseconds since the epoch. */
static inline uint64_t rec_realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- rec_call.c: the life of a call ---- */

/* Start call `call` made from return address ret: takes the re-entry guard, fills call, site
 * and thread, and updates the live status. Returns 1, or 0 when the call must simply be passed
 * to PMPI (a call the tool itself makes, or recording is off). The event index is given when
 * the event is first written (rec_output_call()). */
int rec_call_enter(struct rec_call *c, unsigned call, const void *ret);

/* The handler is about to call PMPI and may block: from now until rec_call_returned() the
 * watcher may write c->ev as an incomplete event. */
void rec_call_posted(struct rec_call *c);

/* PMPI returned: the handler owns c->ev again. Idempotent. */
void rec_call_returned(struct rec_call *c);

/* The handler of a poll (MPIV_F_POLL) is done with c->ev, and PMPI returned rc: note whether
 * the call found nothing, by the one rule readers of the trace apply too
 * (mpiv_event_failed_poll()). */
void rec_call_polled(struct rec_call *c, int rc);

/* Append a request to c->ev.reqs, without a digest. Returns 0, or -1 (out of memory: the
 * request is dropped). */
int rec_call_add_req(struct rec_call *c, int32_t id, int32_t src, int32_t tag);

/* The same with what a completion or a start reports of it (a digest among it). */
int rec_call_add_info(struct rec_call *c, const struct mpiv_reqinfo *ri);

/* Make room for n requests at once; returns 0 or -1. */
int rec_call_reserve_reqs(struct rec_call *c, uint32_t n);

/* End the call: write its event, update the status, free what c owns, drop the guard. */
void rec_call_leave(struct rec_call *c);

/* Write call c now, before it is made, as incomplete: its index then comes before that of
 * every call its effect lets return (a wait that an MPI_Pready of another thread completes);
 * rec_call_leave() writes its complete record over it. */
void rec_call_write_early(struct rec_call *c);

/* The envelope e of call c (env_<name>(), preload/env.h, which the replayer checks with too)
 * into its event; the wrapper does so before the handler runs, which may read it (steering,
 * the send's size). */
static inline void rec_call_envelope(struct rec_call *c, const struct mpiv_env *e)
{
	c->ev.peer = e->peer;
	c->ev.tag = e->tag;
	c->ev.comm = e->comm;
	c->ev.root = e->root;
	c->ev.win = e->win;
	c->ev.peer2 = e->peer2;
	c->ev.tag2 = e->tag2;
	c->ev.bytes = e->bytes;
}

/* ---- rec_quick.c, rec_call.c: the quick way of the most frequent calls ----
 * MPI_Send, MPI_Isend, MPI_Recv, MPI_Irecv and MPI_Wait of the thread that called MPI_Init,
 * when nothing more than their event is to be done (no steering, no reduction check, calls
 * that cannot overlap): the event is written field by field, only those the call uses, and
 * usually as a copy of the record its site made last. The MPI_<name> entry point of such a
 * call is rec_quick.c's, not generated (REC_QUICK_<name> below says which calls): the quick
 * way is then its own body, with no call more and the program's return address at hand; it
 * calls rec_common_<name>(), the common way, unless rec_quick_ready(). */

/* REC_IS_QUICK(name): 1 if MPI_<name> is rec_quick.c's, else 0 (REC_QUICK_<name> is defined,
 * as two words, for those calls alone, so that the second word is 1 or, for the others, 0). */
#define REC_QUICK_Send ~, 1
#define REC_QUICK_Isend ~, 1
#define REC_QUICK_Recv ~, 1
#define REC_QUICK_Irecv ~, 1
#define REC_QUICK_Wait ~, 1
#define REC_SECOND_(a, b, ...) b
#define REC_SECOND(...) REC_SECOND_(__VA_ARGS__)
#define REC_IS_QUICK(name) REC_SECOND(REC_QUICK_##name, 0, ~)

/* Nothing stands in the way of the common case of appending an event (one new event at the
 * ring's head): the trace is open, calls cannot overlap, no run of failed polls is open. */
extern int rec_output_fast;
/* record --last: the request table keeps the call that made each request, for the window's
 * restart records (rec_request_note()). Set once, at MPI_Init. */
extern int rec_output_window;

/* With rec_output_window: the communicator of trace id `id` is freed, so that the window's
 * restarts no longer write its comm record again. */
void rec_output_comm_freed(int32_t id);

/* Whether the calling thread may take the quick way now: not inside a wrapper, allowed
 * (rec_quick_allow()), and rec_output_fast. */
static inline int rec_quick_ready(void)
{
	return (rec_tls.depth == 0) & rec_tls.quick & rec_output_fast;
}

/* Make quick call c an ordinary one: give its event the fields it never wrote. The watcher
 * does so before writing it as blocked; idempotent. */
void rec_call_unquick(struct rec_call *c);

/* rec_call_posted() and rec_call_returned() of a quick call (of the thread rec_quick_allow()
 * let take the quick way, whose watcher slot it made), posted once and returned once, without
 * keeping REC_C_POSTED; the latter sets the time it returned if timed (rec_timed, which the
 * quick way passes as a constant). */
void rec_call_posted_quick(struct rec_call *c);
void rec_call_returned_quick(struct rec_call *c, int timed);

/* Let the calling thread (MPI_Init's) take the quick way, if the run allows it. */
void rec_quick_allow(void);

/* Forget every call site's record: none may be copied until the site writes one again (a
 * window's restart, after which the records name sites afresh). */
void rec_quick_forget(void);

/* The live status slot of that thread (rec_status_self()), kept by rec_quick_allow(). */
struct st_slot;
extern struct st_slot *rec_quick_status;

/* The re-entry guard alone (MPI_Finalize keeps it across PMPI_Finalize). */
void rec_guard_take(void);
void rec_guard_drop(void);

/* Nothing is written (no trace, no status): every call goes straight to PMPI from now on. */
void rec_call_disable(void);

/* Whether calls of several threads may overlap (MPI_THREAD_MULTIPLE); until told, they may.
 * Without, the fast path needs no atomic read-modify-write. Call from MPI_Init's wrapper. */
void rec_call_set_threads(int multiple);

/* rec_call_set_threads()'s word: calls of several threads may overlap. Without it, the tables
 * the calls' threads alone use (requests) need no lock: MPI's thread levels below
 * MPI_THREAD_MULTIPLE make those threads take turns. */
extern int rec_multi;

/* The watcher, run by the status thread each period: writes calls posted for about a second
 * as MPIV_EV_INCOMPLETE events, then flushes the trace's buffer. */
void rec_call_watch(uint64_t beat);

/* The call made communicator newcomm (a NEWCOMM call, after PMPI returned): register it
 * (rec_comm_register) and note its id and members for the trace; members_of is the
 * communicator whose group it has (newcomm itself, or the parent of an MPI_Comm_idup, whose
 * result may not be used before it completes). Nothing for MPI_COMM_NULL. */
void rec_call_newcomm(struct rec_call *c, MPI_Comm newcomm, MPI_Comm members_of);

/* ---- rec_output.c: the trace file ---- */

/* Open $MPIVERIFY_TRACE_DIR/rank-<rank>.mpivt, write its header and catch the fatal signals
 * (their handlers write the buffer, then do what the program or the default would). Returns
 * 0, or -1 after printing one line on stderr (recording then stays off; the program is not
 * affected). */
int rec_output_open(int rank, int size, int thread_level);

/* The last request id written: a quick record's requests are the same as its copy's if they
 * are as far from it. */
int32_t rec_output_last_req(void);

/* Append the event of call c (its results filled, new: not REC_C_INDEXED) as rec, len bytes:
 * the record an event of the same site and fields had (rec_output_quick_write() said so),
 * requests at the same distances from the last request id; timed is rec_timed (a constant in
 * the quick way). Returns 1, or 0 if it must be written otherwise (not rec_output_fast, or no
 * room where the ring's head is). c's index is not set: nothing is to be written of it
 * again. */
int rec_output_quick_copy(const struct rec_call *c, const unsigned char *rec, size_t len,
			  int timed);

/* The events written so far: the index of the next new one. */
uint32_t rec_output_nevents(void);

/* Append the event of quick call c the common way, making it an ordinary call first
 * (rec_call_unquick()), and put its record into rec (room for MPIV_TF_MEMO_LEN). Returns the
 * record's length if an event of the same site and fields may be written by copying it
 * (rec_output_quick_copy()), else 0. */
size_t rec_output_quick_write(struct rec_call *c, unsigned char *rec);

/* Append c's event, with flags (enum mpiv_event_flags) or'ed in, to the trace's buffer; no
 * system call unless the buffer is full; nothing if the trace is not open. The first time,
 * the event takes the next event index, under the buffer's lock: the file is then always in
 * index order and has no gaps, even with threads or after a crash. A failed poll (c's
 * failed_poll) equal to the event just written, itself a failed poll, is not written again:
 * it takes that event's index and adds one to its repeat count. A later call for the same c
 * replaces the event (written incomplete, then complete). Thread-safe. */
void rec_output_call(struct rec_call *c, unsigned flags);

/* The index the next event of call will most likely take (the open run's, for a failed poll
 * of the same call). Only while calls cannot overlap (not rec_multi): it reads the writer's
 * state without its lock. UINT32_MAX if the trace is not open. */
uint32_t rec_output_next_index(unsigned call);

/* Append a reduction record: a finding of the reduction check, whose events (r->event,
 * r->done) are written already. Thread-safe. */
void rec_output_reduction(const struct mpiv_reduction *r);

/* Append a module record (rec_site_set_hook's callback). */
void rec_output_module(unsigned id, const char *path);

/* Write the buffer to the file now (the status thread calls it every period, the watcher
 * after writing a blocked call). Thread-safe. */
void rec_output_flush(void);

/* Write the buffer, a stop record saying how the rank ended (enum mpiv_end: how, code; none
 * for MPIV_END_UNKNOWN) and the end record, close the file and give the fatal signals back
 * to the program's handlers. Later calls are not recorded. Runs at exit too (MPIV_END_EXIT
 * with the exit status), and from a fatal signal's handler (MPIV_END_SIGNAL) in its own
 * async-signal-safe way. */
void rec_output_close(int how, int32_t code);

/* A process of the Sessions model ended its last session (ended 1; 0: it began another): it
 * has finished if it exits so, and its trace is closed then, as at MPI_Finalize's return. */
void rec_output_sessions_ended(int ended);


/* ---- rec_steer.c: the decisions a verify run forces (doc/verify.md) ---- */

struct mpiv_steer_decision;

/* Load this rank's steering from $MPIVERIFY_STEER, if set (at MPI_Init). Returns 0, or -1
 * after one line saying why (the rank then runs unsteered). */
int rec_steer_load(int rank);

/* The source a receive or probe naming source must use on comm: the steered sender (as a
 * rank of comm) when it names MPI_ANY_SOURCE and its decision is steered, else source. Call
 * with c's envelope filled. */
int rec_steer_source(struct rec_call *c, int source, MPI_Comm comm);

/* For an any-completion call c over nactive active requests: the steered decision it must
 * take (the requests it must complete, by id), or NULL. */
const struct mpiv_steer_decision *rec_steer_completion(struct rec_call *c, int nactive);

/* Steering cannot go on (why: a request the steering names is not passed): the rank runs free
 * from here, and says so once. */
void rec_steer_stop(const char *why);

/* Whether the calling thread is steered at all: decisions to force, or sends to force. */
int rec_steer_active(void);

/* Call c returned: if it made a decision, the next one is its thread's next. */
void rec_steer_after(const struct rec_call *c);

/* The rank finalizes: a thread that did not take every decision the steering gave it says
 * so, as one that left the path does (rec_steer_stop()); then steering ends. */
void rec_steer_release(void);

/* How a standard send of `bytes` bytes must complete in this run, as the steering's
 * buffering says (the model's mode whose deadlock the run is to confirm). */
enum rec_send_force {
	REC_SEND_AS_IS = 0, /* as the library does */
	REC_SEND_SYNC,	    /* synchronous: the library's Ssend */
	REC_SEND_BUFFERED,  /* complete at once: a copy is sent in the background */
};
enum rec_send_force rec_steer_send(uint64_t bytes);

/* Zero buffering: a blocking collective on comm synchronises (a barrier first), as the model
 * has it. Otherwise nothing. */
void rec_steer_coll_sync(MPI_Comm comm);

/* Zero buffering: the nonblocking collective on comm that made request synchronises at its
 * completion, as the model has it: a hidden MPI_Ibarrier on comm, started now on every member
 * (so that they pair up in order), that its completion calls complete first
 * (rec_steer_icoll_sync()). Otherwise nothing. */
void rec_steer_icoll_made(MPI_Comm comm, MPI_Request request);

/* How many hidden barriers are still to complete (written under rec_steer.c's lock). */
extern atomic_size_t rec_steer_pending;

/* Whether any is: the completion calls look for a request's only then. */
static inline int rec_steer_syncs(void)
{
	return atomic_load_explicit(&rec_steer_pending, memory_order_relaxed) != 0;
}

/* Complete the hidden barrier of the nonblocking collective whose request is request (its
 * handle before completion), waiting for it if block, else testing it. Returns 1 if it is
 * done, or request has none; 0 if a test found the collective's peers not all in it yet. */
int rec_steer_icoll_sync(MPI_Request request, int block);

/* Wait for request's hidden barrier, if there are any at all. */
static inline void rec_steer_icoll_wait(MPI_Request request)
{
	if (__builtin_expect(rec_steer_syncs(), 0))
		rec_steer_icoll_sync(request, 1);
}

/* Send a copy of the message in the background (a buffered send without the program's
 * attached buffer): returns the MPI error code of packing or posting it. */
int rec_steer_send_copy(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			MPI_Comm comm);

/* The same for MPI_Isend: *request is a request complete from the start. */
int rec_steer_isend_copy(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			 MPI_Comm comm, MPI_Request *request);

/* ---- rec_data.c: the digests of messages' data (base/digest.h) ---- */

#define REC_DATA_UNKNOWN UINT64_MAX /* struct rec_data's bytes: may not be read */

/* Where a message's data lie, for its digest: its buffer and its size in bytes, if the bytes
 * may be read there as the message carries them (a contiguous datatype, no MPI_BOTTOM). */
struct rec_data {
	const void *buf;
	uint64_t bytes; /* REC_DATA_UNKNOWN: they may not (the digest is unknown, 0) */
};

/* The data of a message of `bytes` bytes at buf, in a datatype that is contiguous (contig) or
 * not, to or from peer: nothing to read to or from MPI_PROC_NULL; a message of no bytes is
 * known whatever its type. */
static inline struct rec_data rec_data_make(const void *buf, uint64_t bytes, int contig, int peer)
{
	struct rec_data d = {buf, REC_DATA_UNKNOWN};

	if (peer != MPI_PROC_NULL && (bytes == 0 || (contig && buf && buf != MPI_BOTTOM)))
		d.bytes = bytes;
	return d;
}

/* The data of count elements of type at buf, to or from peer. */
struct rec_data rec_data_at(const void *buf, int count, MPI_Datatype type, int peer);

/* The digest of the data of a send (what d holds now); 0 if unknown. */
static inline uint32_t rec_data_sent(const struct rec_data *d)
{
	return d->bytes == REC_DATA_UNKNOWN ? 0 : mpiv_digest(d->buf, d->bytes);
}

/* The digest of what a receive into d took, by its status st (NULL: unknown): its first
 * bytes, as many as st says it got (at most d's size: a truncated message is what it got); 0
 * if unknown or from MPI_PROC_NULL. */
uint32_t rec_data_received(const struct rec_data *d, const MPI_Status *st);

/* ---- rec_part.c: partitioned communication ---- */

/* Request id was started: if it is a partitioned send, none of its partitions is ready yet.
 * Returns 1 if it has none (it is ready as it starts). */
int rec_part_started(int32_t id);

/* ---- rec_request.c: nonblocking requests ---- */

/* When the table's entry of a request makes a digest of its data (struct rec_reqent). */
enum rec_digest_at {
	REC_DIGEST_NONE = 0, /* never: a send (its call has it), a collective, ... */
	REC_DIGEST_DONE,     /* when it completes: a receive (MPI_Irecv, MPI_Imrecv, persistent) */
	REC_DIGEST_START,    /* at each MPI_Start: a persistent send */
};

/* The call that made a request and its envelope, as its event has them. */
struct rec_reqmaker {
	int32_t peer, peer2, tag, comm;
	uint16_t call; /* 0: not noted */
};

/* A request the program holds, as the table knows it. */
struct rec_reqent {
	/* the program's handle, compared whole (an integer in
	 * MPICH, a pointer in Open MPI); not unique: MPICH gives
	 * every send that completed at once the same built-in
	 * handle, and a freed request's may be given again */
	MPI_Request handle;
	const MPI_Request *where; /* the program's variable it was returned in */
	int32_t id;		  /* its id in the trace, REC_REQ_UNKNOWN if not in the table */
	/* the thread that made it (its rec_tls), and the request's
	 * number among that thread's (base/steer.h) */
	const struct rec_tls *by;
	int32_t nth;
	int is_recv;		   /* a receive: completion reports source and tag */
	MPI_Comm comm;		   /* its communicator, to make the source a world rank */
	enum rec_digest_at digest; /* when its data's digest is made ... */
	struct rec_data data;	   /* ... of these */
	struct rec_reqmaker maker; /* with rec_output_window only */
};

/* Remember the request the program just got in *where; returns its id (0, 1, ... per rank),
 * or REC_REQ_UNKNOWN if out of memory. */
int32_t rec_request_add(const MPI_Request *where, int is_recv, MPI_Comm comm);

/* Call c made *request, which receives no message (a nonblocking collective, MPI_Comm_idup,
 * a request-based one-sided call): remembered, and its id in c's event. */
void rec_call_made_request(struct rec_call *c, const MPI_Request *request);

/* The same for a request whose data has a digest: when (not REC_DIGEST_NONE), of what. */
int32_t rec_request_add_data(const MPI_Request *where, int is_recv, MPI_Comm comm,
			     enum rec_digest_at digest, struct rec_data data);

/* A wait is about to complete the request h, which the program passes in *where: remove its
 * entry from the table into e (the one returned in that very variable, else the oldest with
 * handle h). If there is none, e->id is REC_REQ_UNKNOWN. */
void rec_request_take(MPI_Request h, const MPI_Request *where, struct rec_reqent *e);

/* The id of the oldest request in the table with handle h, left there; REC_REQ_UNKNOWN if
 * there is none. */
int32_t rec_request_find(MPI_Request h);

/* With rec_output_window: request id, just added (rec_request_add()), was made by call with
 * this envelope (world ranks, trace tag and communicator id, as its event has them). Only the
 * first call that lists a request makes it; starts and completions are passed over. */
void rec_request_note(int32_t id, unsigned call, int32_t peer, int32_t peer2, int32_t tag,
		      int32_t comm);

/* Call fn for each request in the table whose maker was noted, at most max of them; returns
 * how many. For a window's restart, from the producer. */
size_t rec_request_live(void (*fn)(int32_t id, const struct rec_reqmaker *m, void *arg), void *arg,
			size_t max);

/* Put back an entry taken for a request that did not complete (an error) or that lives on. */
void rec_request_put(const struct rec_reqent *e);

/* The completion of e with status st (may be NULL) as the event lists it: a receive's source
 * and tag, the digest of what it took (REC_DIGEST_DONE). */
void rec_request_info(const struct rec_reqent *e, const MPI_Status *st, struct mpiv_reqinfo *ri);

/* ---- typed handlers, one per ordinary entry of mpi_calls.def ----
 * rec_<name>() calls PMPI_<name> itself and fills what c->ev learns from it (a receive's
 * match, the requests, a new communicator or window); the wrapper does the rest, the
 * envelope first (rec_call_envelope). The
 * prototypes come from the .def, so a handler that disagrees with mpi.h does not compile. */
#define MPIV_SPECIAL(name, number, kind, flags, params, args)
#define MPIV_OTHER(name, number, params, args)
#define MPIV_CALL(name, number, kind, flags, params, args) \
	int rec_##name(struct rec_call *c, MPIV_UNPAREN params);
#include "mpi_calls.def"
#undef MPIV_CALL
#undef MPIV_OTHER
#undef MPIV_SPECIAL

/* The common way of each call (wrappers.c), given the program's return address; not inlined
 * into the quick entry points (REC_HOT), which it would burden. */
#define MPIV_SPECIAL(name, number, kind, flags, params, args)
#define MPIV_OTHER(name, number, params, args)
#define MPIV_CALL(name, number, kind, flags, params, args) \
	__attribute__((noinline)) int rec_common_##name(MPIV_UNPAREN params, const void *ret);
#include "mpi_calls.def"
#undef MPIV_CALL
#undef MPIV_OTHER
#undef MPIV_SPECIAL

#pragma GCC visibility pop

#endif
