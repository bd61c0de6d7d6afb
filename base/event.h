/* The events of a rank's trace: what the recorder writes, the translator reads and the replayer
 * counts. The list of calls comes from base/mpi_calls.def; this header needs no mpi.h. */
#ifndef MPIV_EVENT_H
#define MPIV_EVENT_H

#include <stddef.h>
#include <stdint.h>

/* Every call of mpi_calls.def, as MPIV_CALL_<name>, with the number the list gives it (which
 * binary traces store: it never changes). */
enum mpiv_call {
#define MPIV_CALL(name, number, kind, flags, params, args) MPIV_CALL_##name = number,
#include "mpi_calls.def"
#undef MPIV_CALL
};

/* One more than the highest call number: the size of tables indexed by call. A union of one
 * array per call, each one longer than its call's number, is exactly that long. */
union mpiv_call_numbers {
#define MPIV_CALL(name, number, kind, flags, params, args) char c_##name[number + 1];
#include "mpi_calls.def"
#undef MPIV_CALL
};
#define MPIV_CALL__COUNT ((unsigned)sizeof(union mpiv_call_numbers))

/* What the model does with a call. */
enum mpiv_kind {
	MPIV_KIND_INIT,	     /* start of the rank's trace */
	MPIV_KIND_FINALIZE,  /* end: the rank is done */
	MPIV_KIND_SEND,	     /* blocking send: post, then wait for it */
	MPIV_KIND_ISEND,     /* nonblocking send: post only */
	MPIV_KIND_RECV,	     /* blocking receive: post, then wait for it */
	MPIV_KIND_IRECV,     /* nonblocking receive: post only */
	MPIV_KIND_SENDRECV,  /* a send (peer, tag) and a receive (peer2, tag2), then both waited */
	MPIV_KIND_WAIT,	     /* completion: reqs completed, but for the last npending */
	MPIV_KIND_PROBE,     /* wait until a message is there (Iprobe: only if it found one) */
	MPIV_KIND_MPROBE,    /* matched probe: the message is received here (Improbe: if found) */
	MPIV_KIND_MRECV,     /* receive of a message matched by a probe: no matching left */
	MPIV_KIND_SEND_INIT, /* persistent send request: its envelope, posted at each start */
	MPIV_KIND_RECV_INIT, /* persistent receive request */
	MPIV_KIND_START,     /* post every persistent request listed */
	MPIV_KIND_REQUEST_FREE, /* the program lets go of a request */
	MPIV_KIND_COLL,		/* blocking collective on the event's communicator */
	MPIV_KIND_ICOLL,	/* nonblocking collective: completes at its wait */
	/* window creation: a collective on comm; the event's win is the
	 * new window, its group the window's group */
	MPIV_KIND_WIN_CREATE,
	MPIV_KIND_WIN_FREE,	/* window freed: a collective over the window's group */
	MPIV_KIND_WIN_FENCE,	/* a collective over the window's group, synchronising */
	MPIV_KIND_WIN_POST,	/* exposure epoch to the origins in group: never blocks */
	MPIV_KIND_WIN_START,	/* access epoch to the targets in group: waits for their posts */
	MPIV_KIND_WIN_COMPLETE, /* ends the access epoch */
	/* ends the exposure epoch: waits for the origins' completes
	 * (MPI_Win_test: only if it succeeded) */
	MPIV_KIND_WIN_WAIT,
	MPIV_KIND_WIN_LOCK,   /* passive target lock on peer (lock_all: every member) */
	MPIV_KIND_WIN_UNLOCK, /* releases the lock on peer (unlock_all: every member) */
	MPIV_KIND_WIN_LOCAL,  /* RMA data calls and flushes: never wait for another rank */
	/* MPI_Comm_create_group: a collective over the new
	 * communicator's members only, not its parent */
	MPIV_KIND_COMM_GROUP,
	MPIV_KIND_COMM_FREE,  /* the program lets go of a communicator: no effect */
	MPIV_KIND_BUF_ATTACH, /* MPI_Buffer_attach: bytes is the buffer's size */
	MPIV_KIND_BUF_DETACH, /* MPI_Buffer_detach: waits until its messages are delivered */
	/* involves no other rank (MPI_Reduce_local, MPI_Op_create): no
	 * effect on the model */
	MPIV_KIND_LOCAL,
	MPIV_KIND_CANCEL, /* MPI_Cancel of the request in reqs[0] */
	/* MPI_Grequest_start: a request, in reqs[0], that only the
	 * program completes */
	MPIV_KIND_GREQ_START,
	MPIV_KIND_GREQ_COMPLETE, /* MPI_Grequest_complete of the request in reqs[0] */
	/* MPI_Isendrecv: a send (peer, tag) and a receive (peer2, tag2) posted as SENDRECV's,
	 * and one request, reqs[0], complete when both are */
	MPIV_KIND_ISENDRECV,
	/* persistent collective (MPI_Bcast_init, ...): its envelope, the collective each
	 * MPI_Start of its request, reqs[0], starts as a nonblocking one */
	MPIV_KIND_COLL_INIT,
	MPIV_KIND_UNSUPPORTED, /* recorded, but check cannot judge it */
};

enum mpiv_call_flags {
	MPIV_F_STANDARD = 1 << 0, /* standard-mode send: buffered or not per mode */
	MPIV_F_SYNC = 1 << 1,	  /* synchronous send: completes when matched */
	MPIV_F_BUFFERED = 1 << 2, /* buffered send: never waits */
	/* ready send: a standard send that must find its receive
	 * posted */
	MPIV_F_READY = 1 << 3,
	/* collective whose root's data goes to the others (Bcast,
	 * Scatter): with buffering a non-root waits for the root,
	 * the root for nobody */
	MPIV_F_ROOT_SENDS = 1 << 4,
	/* collective whose data goes to the root (Reduce,
	 * Gather): with buffering the root waits for every
	 * member, the others for nobody */
	MPIV_F_ROOT_RECEIVES = 1 << 5,
	MPIV_F_ROOTED = MPIV_F_ROOT_SENDS | MPIV_F_ROOT_RECEIVES, /* either: has a root */
	/* prefix collective (Scan, Exscan): with buffering a rank
	 * waits for the members of lower rank. A collective with
	 * none of these three waits for every member */
	MPIV_F_PREFIX = 1 << 6,
	/* makes a communicator: on its members the event has a
	 * struct mpiv_newcomm (trace.h) */
	MPIV_F_NEWCOMM = 1 << 7,
	/* a poll: may return having found or completed nothing
	 * (no effect, no progress; a run of equal ones is one
	 * event with a repeat count) */
	MPIV_F_POLL = 1 << 8,
	/* a reduction (MPI-4.1 6.9-6.11): the reduction check
	 * (record --check-reductions) computes it a second way */
	MPIV_F_REDUCE = 1 << 9,
	/* neighbourhood collective (MPI-4.1 chapter 8): with
	 * buffering a member waits for the in-neighbours the
	 * event's group lists */
	MPIV_F_NEIGHBOR = 1 << 10,
	/* partitioned communication (MPI-4.1 chapter 4): MPI_Psend_init and MPI_Precv_init
	 * make requests that match only each other, in the order they were made; the
	 * MPI_Pready* calls say which partitions of a send are ready */
	MPIV_F_PARTITIONED = 1 << 11,
	/* a request-based one-sided data call (MPI_Rput, ...): makes a request that completes
	 * without another rank's call (doc/semantics.md 7.4) */
	MPIV_F_RMA_REQUEST = 1 << 12,
	/* a collective whose members need nothing of each other (MPI_Comm_disconnect): with
	 * buffering a member waits for nobody; it may still synchronise, which the searches
	 * with synchronising collectives hold */
	MPIV_F_UNSYNCED = 1 << 13,
};

/* Special peers and tags, in world ranks (the recorder maps MPI's constants to these). */
#define MPIV_ANY_SOURCE (-1)
#define MPIV_PROC_NULL (-2)
#define MPIV_ANY_TAG (-1)
#define MPIV_NONE (-3) /* field not used by this call */

/* Communicator ids. 0 and 1 are the same on every rank; from MPIV_COMM_FIRST_LOCAL on, an
 * id is rank-local: the n-th communicator this rank got from a call flagged MPIV_F_NEWCOMM
 * (2, 3, ... in call order, never reused), which the translator unifies across ranks through
 * the creating calls' struct mpiv_newcomm. */
#define MPIV_COMM_WORLD 0
#define MPIV_COMM_SELF 1
#define MPIV_COMM_FIRST_LOCAL 2
/* a communicator the recorder cannot name (made by a call
 * it does not record, such as MPI_Graph_create) */
#define MPIV_COMM_UNKNOWN (-1)

/* Thread levels as a trace's header gives them: the values of MPI_THREAD_SINGLE ...
 * MPI_THREAD_MULTIPLE, which MPICH and Open MPI both number 0 to 3. */
#define MPIV_THREAD_SINGLE 0
#define MPIV_THREAD_MULTIPLE 3

/* How a rank's run ended, as the recorder saw it from inside the rank (a stop record in the
 * trace). A rank has finished only when MPI_Finalize returned (doc/semantics.md 8); anything
 * else leaves its trace a path it did not finish. */
enum mpiv_end {
	/* no word from the rank: killed by a signal that cannot be
	 * caught (SIGKILL), or its trace was cut */
	MPIV_END_UNKNOWN = 0,
	MPIV_END_FINALIZED = 1, /* MPI_Finalize returned */
	MPIV_END_ABORTED = 2,	/* it called MPI_Abort: code is the error code */
	MPIV_END_SIGNAL = 3,	/* a fatal signal: code is its number */
	MPIV_END_EXIT = 4,	/* the process exited without MPI_Finalize: code is its status */
	MPIV_END_LAST = MPIV_END_EXIT
};

/* Lock types of MPI_Win_lock (MPI_Win_lock_all: shared). */
#define MPIV_LOCK_SHARED 1
#define MPIV_LOCK_EXCLUSIVE 2

enum mpiv_event_flags {
	MPIV_EV_INCOMPLETE = 1 << 0, /* the call had not returned when the trace ended */
	MPIV_EV_NOT_DONE = 1 << 1,   /* MPI_Win_test returned flag false */
	/* a partitioned send's partitions are all ready from this call on (the MPI_Pready*
	 * that readied the last, or the MPI_Start of one without partitions): its message
	 * can go (doc/semantics.md 4.9) */
	MPIV_EV_PARTS_READY = 1 << 2,
	/* an MPI-4 large-count call (MPI_Send_c, ...) with a count past an int: recorded, but
	 * not followed as its int-count twin is, and refused by check (doc/mpi-calls.md) */
	MPIV_EV_LARGE_COUNT = 1 << 3,
};
#define MPIV_EV_FLAGS_ALL \
	(MPIV_EV_INCOMPLETE | MPIV_EV_NOT_DONE | MPIV_EV_PARTS_READY | MPIV_EV_LARGE_COUNT)

/* Whether a large-count call's count n fits its int-count twin's (base/gen_large_count.py). */
#define MPIV_FITS_INT(n) ((n) >= 0 && (n) <= 0x7fffffff)

/* One request an event creates or completes, with what the completion reported. */
struct mpiv_reqinfo {
	int32_t req; /* request id, unique within the rank */
	int32_t src; /* completed receive: world rank of the sender, else MPIV_NONE */
	int32_t tag; /* completed receive: the message's tag, else MPIV_NONE */
	/* the digest (digest.h) of the data of a receive (MPI_Irecv,
	 * MPI_Imrecv, a persistent one) a completion call lists as
	 * completed, or of what MPI_Start or MPI_Startall sends of a
	 * persistent send; 0 otherwise, or unknown */
	uint32_t data;
};

/* One MPI call of one rank. The fields nearly every call uses come first, from call to bytes
 * without padding (the recorder compares them as one block: mpiv_event_key_same()), then the
 * ones few calls use, from root to group, likewise (mpiv_event_rare_none()). */
struct mpiv_event {
	uint16_t call;	/* enum mpiv_call */
	uint16_t flags; /* enum mpiv_event_flags */
	int32_t peer;	/* world rank of dest/source, MPIV_ANY_SOURCE, MPIV_PROC_NULL */
	int32_t tag;	/* tag, MPIV_ANY_TAG, or MPIV_NONE */
	int32_t comm;	/* communicator id */
	int32_t src;	/* blocking receive: world rank it matched, else MPIV_NONE */
	int32_t mtag;	/* blocking receive: tag it matched, else MPIV_NONE */
	/* a send (every mode, blocking or not; MPI_Sendrecv's and
	 * MPI_Sendrecv_replace's send): the digest (digest.h) of the
	 * data it sent; 0 if it sends nothing or the digest is unknown.
	 * In the key: a send whose data changed is another event */
	uint32_t data;
	/* a blocking receive (MPI_Recv, MPI_Mrecv, the receive of
	 * MPI_Sendrecv and MPI_Sendrecv_replace): the digest of the data
	 * it took; 0 otherwise, or unknown */
	uint32_t rdata;
	uint64_t bytes; /* message size in bytes (count * type size) */
	uint64_t site;	/* call site: MPIV_SITE(module, address in the module's file) */
	uint32_t index; /* position in the rank's trace, from 0 */
	uint32_t nreqs; /* number of entries in reqs */
	struct mpiv_reqinfo
		*reqs;	/* Isend/Irecv: the request made; Wait*: those completed; owned */
	int32_t root;	/* collective root (world rank) or MPIV_NONE */
	int32_t thread; /* thread that made the call, 0 for the main thread */
	int32_t peer2;	/* MPI_Sendrecv: the source (world rank, MPIV_ANY_SOURCE, ...) */
	int32_t tag2;	/* MPI_Sendrecv: the receive's tag */
	/* completion calls: the last npending of reqs did not complete
	 * (MPI_Test* with flag false, MPI_Waitany's others); 0 for waits */
	uint32_t npending;
	/* window calls: the window, numbered per rank in creation order
	 * (0, 1, ...), else MPIV_NONE */
	int32_t win;
	/* MPI_Win_lock: MPIV_LOCK_SHARED or MPIV_LOCK_EXCLUSIVE, else
	 * MPIV_NONE */
	int32_t lock;
	uint32_t ngroup; /* number of entries in group */
	/* window creation: the window's group; MPI_Win_post/start: the
	 * group passed; world ranks, in group order; neighbourhood
	 * collectives: the caller's in-neighbours, world ranks in the
	 * topology's order, MPI_PROC_NULL ones left out; owned */
	int32_t *group;
	/* a failed poll (mpiv_event_failed_poll): the times it was made
	 * in a row, the same way, each finding nothing; 1 otherwise */
	uint64_t repeat;
	/* a trace with times (enum mpiv_clock): when the call was
	 * entered, in the clock's nanoseconds; a run of failed polls:
	 * the first's */
	uint64_t enter;
	/* when it returned (a run of failed polls: the last one); 0 if
	 * it had not (MPIV_EV_INCOMPLETE) or the trace has no times */
	uint64_t leave;
};

/* The clock of a trace's times (its header says which). */
enum mpiv_clock {
	MPIV_CLOCK_NONE = 0,	  /* no times: every event's enter and leave are 0 */
	MPIV_CLOCK_MONOTONIC = 1, /* CLOCK_MONOTONIC of the rank's host, in nanoseconds */
};

/* The block of fields from call to bytes, and the one from root to group. */
#define MPIV_EVENT_KEY_SIZE (offsetof(struct mpiv_event, bytes) + sizeof(uint64_t))
#define MPIV_EVENT_RARE_SIZE \
	(offsetof(struct mpiv_event, group) + sizeof(int32_t *) - offsetof(struct mpiv_event, root))
_Static_assert(MPIV_EVENT_KEY_SIZE == 5 * sizeof(uint64_t), "padding in the key fields");
_Static_assert(offsetof(struct mpiv_event, data) < MPIV_EVENT_KEY_SIZE &&
		       offsetof(struct mpiv_event, rdata) < MPIV_EVENT_KEY_SIZE,
	       "the data digests are in the key: a send of other data is another event");
_Static_assert(MPIV_EVENT_RARE_SIZE == 5 * sizeof(uint64_t), "padding in the rare fields");

/* Traces of millions of events are held as events (mpiv_trace_load_bin()): keep it small. */
_Static_assert(sizeof(void *) != 8 || sizeof(struct mpiv_event) == 128,
	       "struct mpiv_event: 128 bytes");

/* The rare fields of an event that uses none of them (what mpiv_event_init() gives). */
extern const struct mpiv_event mpiv_event_none;

/* Whether a and b agree in every field from call to bytes. */
static inline int mpiv_event_key_same(const struct mpiv_event *a, const struct mpiv_event *b)
{
	return !__builtin_memcmp(a, b, MPIV_EVENT_KEY_SIZE);
}

/* Whether ev uses none of the fields from root to group. */
static inline int mpiv_event_rare_none(const struct mpiv_event *ev)
{
	return !__builtin_memcmp(&ev->root, &mpiv_event_none.root, MPIV_EVENT_RARE_SIZE);
}

/* A call site: module id (see struct mpiv_trace's modules) and address relative to the module's
 * link-time addresses. */
#define MPIV_SITE(mod, addr) (((uint64_t)(mod) << 48) | ((uint64_t)(addr)&0xffffffffffffULL))
#define MPIV_SITE_MODULE(site) ((unsigned)((site) >> 48))
#define MPIV_SITE_ADDR(site) ((site)&0xffffffffffffULL)
#define MPIV_SITE_NO_MODULE 0xffffu /* module id of a site in no known module */
/* A module whose path starts so is a function of a Python script, not a loaded object:
 * "python:FILE:FUNCTION", and the address of a site in it is the line (doc/trace-format.md). */
#define MPIV_SITE_PYTHON "python:"

/* The int-count twin of an MPI-4 large-count call that is followed as its twin
 * (MPIV_CALL_Send for MPIV_CALL_Send_c: base/gen_large_count.py); call itself otherwise. */
unsigned mpiv_call_twin(unsigned call);

/* "MPI_Send" for MPIV_CALL_Send; NULL for a number that is no call. */
const char *mpiv_call_name(unsigned call);

/* MPIV_CALL_Send for "MPI_Send" or "Send"; -1 when unknown. */
int mpiv_call_from_name(const char *name);

/* The kind and flags of a call from mpi_calls.def; UNSUPPORTED and 0 for a number that is no
 * call. */
enum mpiv_kind mpiv_call_kind(unsigned call);
unsigned mpiv_call_flags(unsigned call);

/* Whether the call lets go of the communicator it names (MPI_Comm_free, MPI_Comm_disconnect). */
static inline int mpiv_call_frees_comm(unsigned call)
{
	return call == MPIV_CALL_Comm_free || call == MPIV_CALL_Comm_disconnect;
}

/* Whether ev is a poll that found nothing: a test (MPIV_F_POLL) that completed none of the
 * requests it lists, a nonblocking probe without a source, an MPI_Win_test that said no. It
 * has no effect: a run of them is recorded as one event with a repeat count. The one rule:
 * the recorder, the trace reader and the replayer all apply it. */
int mpiv_event_failed_poll(const struct mpiv_event *ev);

/* Whether every field of ev holds a value it can mean in a world of size ranks: peers, roots,
 * sources and group members are world ranks or the special values their field allows, tags
 * are >= 0 or theirs, no unknown flag, at most nreqs pending, a repeat only on a failed poll,
 * times below 2^63 and leave (if any) not before enter, data digests only where data moves
 * (data on a send, rdata on a blocking receive, a request's on a completed one of a completion
 * call or on a started one).
 * Whether the calls fit together (a request completed before it was made, a window never
 * created) is the translator's to say. Returns 0; or -1 with why filled as "field: what is
 * wrong" (for instance "peer: -7, expected ..."; a request's field is "reqs[2].src"), so that
 * a reader can prefix it with the event or its JSON path. */
int mpiv_event_check(const struct mpiv_event *ev, int32_t size, char *why, size_t whysize);

/* The same rule on an event's fields, for those that keep events in another shape (the
 * replayer): call, src, flags (enum mpiv_event_flags), nreqs and npending as in struct
 * mpiv_event. */
int mpiv_failed_poll(unsigned call, int32_t src, unsigned flags, uint32_t nreqs, uint32_t npending);

/* The calls whose outcome MPI leaves open and a program may act on: verify steers a run by
 * the order of each rank's decisions (doc/verify.md). */
enum mpiv_decision {
	MPIV_DEC_NONE = 0,
	/* which sender a receive or probe naming MPI_ANY_SOURCE took
	 * (MPI_Sendrecv's receive too) */
	MPIV_DEC_SOURCE = 1,
	/* which of several requests MPI_Waitany, Testany,
	 * Waitsome or Testsome completed */
	MPIV_DEC_COMPLETION = 2,
};

/* Whether call completes whichever of several requests the library chooses (MPI_Waitany,
 * MPI_Testany, MPI_Waitsome, MPI_Testsome). */
int mpiv_call_any_completion(unsigned call);

/* Whether a call is a decision of its rank: its call, the source it names (peer; peer2 for
 * MPI_Sendrecv), what a probe found (src, MPIV_NONE for nothing), the requests it lists and how
 * many of them did not complete. A poll that found nothing decides nothing. */
enum mpiv_decision mpiv_decision_of(unsigned call, int32_t peer, int32_t peer2, int32_t src,
				    uint32_t nreqs, uint32_t npending);
enum mpiv_decision mpiv_event_decision(const struct mpiv_event *ev);

/* The tag a call's receive names: tag2 for MPI_Sendrecv and MPI_Sendrecv_replace (whose tag is
 * the send's), tag otherwise. */
int32_t mpiv_event_recv_tag(const struct mpiv_event *ev);

/* Initialise an event to "no field used". */
void mpiv_event_init(struct mpiv_event *ev, unsigned call);

/* Free what the event owns (reqs); the event itself is the caller's. */
void mpiv_event_release(struct mpiv_event *ev);

/* The order the threads of a rank put between themselves (doc/semantics.md 1.3): a thread
 * created another (pthread_create), waited for its end (pthread_join), or ended. Threads are
 * numbered as events' thread fields are; a thread that made no MPI call has a number too. */
enum mpiv_thread_kind {
	MPIV_THREAD_CREATE = 1,
	MPIV_THREAD_JOIN = 2,
	/* the thread's start routine returned: it makes no more calls (other is the thread
	 * itself) */
	MPIV_THREAD_EXIT = 3,
};

struct mpiv_thread_op {
	int32_t op;	 /* enum mpiv_thread_kind */
	int32_t self;	 /* the thread that created or joined */
	int32_t other;	 /* the thread created or joined */
	uint32_t before; /* the events of the rank (every thread's) recorded before it */
};

#endif
