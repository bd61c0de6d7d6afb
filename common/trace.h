/* A recorded run: one struct mpiv_rank_trace per rank, read from the recorder's binary files
 * (rank-N.mpivt) or from the same events written as JSON (rank-N.json), plus the run's
 * meta.json. Formats: doc/trace-format.md. Nothing here prints or exits; errors name the file,
 * the rank and the record or JSON path. */
#ifndef MPIV_TRACE_H
#define MPIV_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "event.h"
#include "reduction.h"

#define MPIV_TRACE_BIN_FILE "rank-%d.mpivt"
#define MPIV_TRACE_JSON_FILE "rank-%d.json"
#define MPIV_META_FILE "meta.json"

/* An object that call sites point into. */
struct mpiv_module {
	uint32_t id;
	char *path;
};

/* The communicator a rank got from a call flagged MPIV_F_NEWCOMM (binary: a comm record after
 * the event; JSON: the event's "newcomm" and "members"). A rank that got MPI_COMM_NULL has
 * none for that event. */
struct mpiv_newcomm {
	uint32_t event; /* index of the creating event */
	/* its rank-local id (>= MPIV_COMM_FIRST_LOCAL), which later
	 * events carry as their comm */
	int32_t id;
	uint32_t n;	  /* number of members */
	int32_t *members; /* world ranks, by rank in the new communicator; owned */
};

/* A request a window's first restart says was made before it (a live record): the call that
 * made it has call, peer, peer2, tag and comm only. */
struct mpiv_live_req {
	int32_t req;
	struct mpiv_event maker;
};

struct mpiv_req_index;

struct mpiv_rank_trace {
	int rank; /* world rank */
	int size; /* world size as this rank saw it */
	int pid;
	int thread_level; /* MPI_THREAD_* granted */
	char host[64];
	char library[128]; /* MPI library version, "" if unknown */
	/* by index: events[i].index == first + i; NULL for a trace
	 * kept as records (store): mpiv_trace_event() reads either */
	struct mpiv_event *events;
	size_t nevents;
	/* the index of its first event: 0, but for a window of the
	 * run's last calls (record --last), which only
	 * mpiv_trace_windows_read() lets a reader load */
	uint32_t first;
	/* a window's requests made before it and alive at its start,
	 * each with the call that made it (its live records) */
	struct mpiv_live_req *live;
	size_t nlive;
	/* the events as the records of the file, decoded when
	 * asked for (mpiv_trace_load_records()); NULL: they are
	 * in events */
	struct mpiv_trace_store *store;
	/* what the readers note of every event as they read it, so that a translation need
	 * not read them all again to ask */
	uint64_t kinds;	     /* 1 << enum mpiv_kind of every call made */
	unsigned call_flags; /* mpiv_call_flags() of every call made, or'ed */
	int threaded;	     /* some call comes from another thread than the main one */
	/* who made each request (mpiv_thread_request()), noted as the events are read
	 * (mpiv_thread_note_requests()): the next new id, and from the first call of
	 * another thread than the initial one on, the makers */
	int32_t req_next;
	struct mpiv_req_index *req_index;
	struct mpiv_module *modules;
	size_t nmodules;
	struct mpiv_newcomm *comms; /* communicators the rank got, by event index */
	size_t ncomms;
	/* pthread_create and pthread_join between its threads, in
	 * the order made (before ascending) */
	struct mpiv_thread_op *thread_ops;
	size_t nthread_ops;
	/* the reduction check's findings, in the order
	 * written (trace_reduce.c) */
	struct mpiv_reduction *reductions;
	size_t nreductions;
	/* the recorder never closed the file (the rank died): it was
	 * read up to its last complete record, later calls are lost */
	int truncated;
	/* enum mpiv_end: how the rank said it ended (a stop record);
	 * MPIV_END_UNKNOWN if it did not */
	int end;
	int32_t end_code;	 /* the abort code, signal number or exit status of end */
	int64_t bsend_overhead;	 /* the library's MPI_BSEND_OVERHEAD, 0 if unknown */
	int clock;		 /* enum mpiv_clock: whether events have times, and which */
	uint64_t clock_origin;	 /* with a clock: its time when the recorder opened the trace */
	uint64_t clock_realtime; /* CLOCK_REALTIME then, nanoseconds since the epoch */
	int incomplete;		 /* the last event had not returned (the rank was stuck in it) */
	/* a rank of a recorded run that left no file (killed before
	 * its MPI_Init returned): no event, truncated */
	int absent;
	char *source; /* the file it was read from */
	/* check: 1 + the index of the first event it leaves out, a
	 * call it cannot judge yet (why: unjudged_why), with every
	 * later one (tr_leave_out()); 0: none */
	long unjudged;
	char *unjudged_why;
};

/* How the job ended, as record saw it. */
enum mpiv_job_end {
	MPIV_JOB_EXITED = 0, /* the launcher exited by itself */
	/* record ended it: every rank blocked in MPI or finished, with
	 * no progress for the deadlock timeout */
	MPIV_JOB_DEADLOCK = 1,
	MPIV_JOB_NO_PROGRESS = 2, /* record ended it: ranks polled without finding anything */
	MPIV_JOB_INTERRUPTED = 3, /* mpiverify was interrupted and ended it */
};

/* What record last saw of a rank from outside, through its status file. */
enum mpiv_rank_seen {
	/* no status: it never got through MPI_Init, or record could
	 * not read it */
	MPIV_SEEN_NONE = 0,
	MPIV_SEEN_RUNNING = 1,	 /* outside MPI: computing */
	MPIV_SEEN_IN_CALL = 2,	 /* inside an MPI call */
	MPIV_SEEN_POLLING = 3,	 /* polling (MPI_Test*, MPI_Iprobe) without finding anything */
	MPIV_SEEN_FINALIZED = 4, /* reached MPI_Finalize */
};

struct mpiv_meta_rank {
	int seen;   /* enum mpiv_rank_seen */
	long event; /* the call it was in, or made last; -1 if unknown */
	int call;   /* that call, enum mpiv_call; -1 if unknown */
};

/* What `record` knows of the whole run (meta.json). */
struct mpiv_meta {
	char **command;	 /* launcher command line, NULL-terminated; NULL if unknown */
	int exit_status; /* the launcher's, -1 if unknown */
	int hung;	 /* record ended the job: it deadlocked or made no progress */
	int job;	 /* enum mpiv_job_end */
	char *cwd;	 /* the directory the command ran in; NULL if unknown */
	int nranks;	 /* entries of ranks; 0 if record saw no rank (or an older file) */
	struct mpiv_meta_rank *ranks; /* by world rank */
};

/* "deadlock", "in-call", ...: the names meta.json uses. */
const char *mpiv_job_end_name(int job);
const char *mpiv_rank_seen_name(int seen);

struct mpiv_traceset {
	char *dir;
	int nranks;
	struct mpiv_rank_trace *ranks; /* nranks entries, by rank */
	struct mpiv_meta meta;
};

/* Whether this process's readers load a window of a run's last calls (record --last). Off
 * by default: check, replay and verify need the whole run, and every other reader refuses such
 * a trace (exit 3) saying so; `mpiverify trace` shows it. */
extern int mpiv_trace_windows_read;
/* What a reader says of a window it refuses. */
#define MPIV_TRACE_WINDOW_REFUSED                                                           \
	"the trace was written by record --last, which keeps the run's last calls only: a " \
	"verdict needs the whole run; record again without --last"

/* Read one rank's binary trace. A file the recorder did not close (cut anywhere, even inside
 * a record) is read up to its last complete record and marked truncated. Returns 0, or -1
 * with err filled (BAD_INPUT) and t empty. */
int mpiv_trace_load_bin(const char *path, struct mpiv_rank_trace *t, struct mpiv_error *err);

/* As mpiv_trace_load_bin() (every record checked the same way), but the events stay the
 * file's records (t->store, trace_store.c), decoded when asked for: some 8 bytes an event
 * instead of a struct mpiv_event and its requests. */
int mpiv_trace_load_records(const char *path, struct mpiv_rank_trace *t, struct mpiv_error *err);

/* Events of a trace kept as records that are decoded at once (mpiv_trace_event()). */
#define MPIV_TRACE_SLOTS 16

/* The last event of t before event e that lists request req (the recorder's id) and does
 * not complete it (a completion call's), or -1: the call that made it, or one that started
 * or used it since. In a window, only the window's events are looked at. */
long mpiv_trace_request_maker(const struct mpiv_rank_trace *t, long e, int32_t req);

/* Event i (< t->nevents) of t: its own, or, for a trace kept as records, decoded into one of
 * MPIV_TRACE_SLOTS places of t's, so that the pointer stays valid until MPIV_TRACE_SLOTS - 1
 * other events of t have been asked for (those of other traces do not count). Cannot fail. */
const struct mpiv_event *mpiv_trace_event(const struct mpiv_rank_trace *t, size_t i);

/* Write t as a binary trace to path, as the recorder would have (an end record unless t is
 * truncated). Returns 0, or -1 with err filled. */
int mpiv_trace_save_bin(const char *path, const struct mpiv_rank_trace *t, struct mpiv_error *err);

/* Read one rank's trace written as JSON. Same contract as mpiv_trace_load_bin(). */
int mpiv_trace_load_json(const char *path, struct mpiv_rank_trace *t, struct mpiv_error *err);

/* Write t as JSON to path (indent 2). Returns 0, or -1 with err filled. */
int mpiv_trace_save_json(const char *path, const struct mpiv_rank_trace *t, struct mpiv_error *err);

/* Write t as JSON (indent 2) and a newline to the open file f, at its position (stdout: a
 * file it is redirected to gets every rank written this way, one after the other). Returns 0,
 * or -1 if writing failed (errno). */
int mpiv_trace_write_json(FILE *f, const struct mpiv_rank_trace *t);

/* The file holding rank's trace in directory dir, into buf: rank-N.mpivt if it is there, else
 * rank-N.json. Returns buf, or NULL if dir has neither. */
const char *mpiv_trace_rank_file(const char *dir, int rank, char *buf, size_t size);

/* Read rank's trace from directory dir: rank-N.mpivt if it is there, else rank-N.json.
 * Returns 0; 1 if dir has neither (t empty); or -1 with err filled and t empty. */
int mpiv_trace_load_rank(const char *dir, int rank, struct mpiv_rank_trace *t,
			 struct mpiv_error *err);

/* As mpiv_traceset_load(), binary rank files kept as records (mpiv_trace_load_records()):
 * how check reads traces, which may hold millions of events. */
int mpiv_traceset_load_records(const char *dir, struct mpiv_traceset *ts, struct mpiv_error *err);

/* Read every rank of a trace directory: rank-N.mpivt or rank-N.json for N = 0.. without gaps,
 * and meta.json if present. In a recorded run (one with meta.json) a rank of the world that
 * left no file is an absent trace (struct mpiv_rank_trace's absent). Returns 0, or -1 with err
 * filled. */
int mpiv_traceset_load(const char *dir, struct mpiv_traceset *ts, struct mpiv_error *err);

/* The path of the module a site points into, or NULL. */
const char *mpiv_trace_module(const struct mpiv_rank_trace *t, uint64_t site);

/* Time ns of rank t's clock (t->clock is not MPIV_CLOCK_NONE) on one time line for all
 * ranks: nanoseconds since the epoch, by the offset between its clock and CLOCK_REALTIME when
 * its trace was opened. */
int64_t mpiv_trace_realtime(const struct mpiv_rank_trace *t, uint64_t ns);

/* How long after time a of rank ta's clock time b of rank tb's is, in nanoseconds (negative:
 * before); both have a clock. Ranks of one host share CLOCK_MONOTONIC, which is compared as
 * is; others through mpiv_trace_realtime(), which their hosts' clocks may skew. */
int64_t mpiv_trace_ns_between(const struct mpiv_rank_trace *ta, uint64_t a,
			      const struct mpiv_rank_trace *tb, uint64_t b);

/* The communicator event `event` of t made, or NULL (none, or MPI_COMM_NULL). */
const struct mpiv_newcomm *mpiv_trace_newcomm(const struct mpiv_rank_trace *t, uint32_t event);

/* Append to t the communicator that its event `event` made, copying members. Returns 0, or -1
 * with err filled (BAD_INPUT) if the event is not a known one of a NEWCOMM call, already has
 * one, comes before the last one that has one, or if id or members are out of range (a
 * member outside the world, twice, or the rank itself missing). */
int mpiv_trace_add_newcomm(struct mpiv_rank_trace *t, uint32_t event, int32_t id, uint32_t n,
			   const int32_t *members, struct mpiv_error *err);

/* Append to t, a window, a communicator that event `event`, before its first, made: a
 * restart's comm record, a communicator still in use. Returns 0, or -1 with err filled
 * (BAD_INPUT) if the event is not before the window, or id or members are out of range as for
 * mpiv_trace_add_newcomm(). */
int mpiv_trace_add_comm_before(struct mpiv_rank_trace *t, uint32_t event, int32_t id, uint32_t n,
			       const int32_t *members, struct mpiv_error *err);

/* Append to t the module id whose path is the len bytes at path. Returns 0, or -1 with err
 * filled (BAD_INPUT) if a call site cannot name the id (MPIV_SITE_NO_MODULE or more) or t
 * has it already. */
int mpiv_trace_add_module(struct mpiv_rank_trace *t, uint32_t id, const char *path, size_t len,
			  struct mpiv_error *err);

/* Check that each event of t written incomplete (its call had not returned) is the last of
 * its thread: a thread makes no call while it is blocked in one. Returns 0, or -1 with err
 * filled (BAD_INPUT). */
int mpiv_trace_check_incomplete(const struct mpiv_rank_trace *t, struct mpiv_error *err);

/* ---- trace_reduce.c: the reduction check's findings in a rank trace ---- */

/* Append finding r to t. Returns 0, or -1 with err filled (BAD_INPUT) if its event is not a
 * reduction (mpi_calls.def's REDUCE flag) of t, if it was checked at another event than its
 * own but it is not a nonblocking reduction checked at a later completion call, or if a field
 * is out of range (kind, flags, counts, tolerances, text, a peer outside the world). */
int mpiv_trace_add_reduction(struct mpiv_rank_trace *t, const struct mpiv_reduction *r,
			     struct mpiv_error *err);

/* Write meta.json into dir. Returns 0, or -1 with err filled. */
int mpiv_meta_save(const char *dir, const struct mpiv_meta *m, struct mpiv_error *err);

/* Read a meta.json file. Returns 0, or -1 with err filled and m empty. */
int mpiv_meta_load(const char *path, struct mpiv_meta *m, struct mpiv_error *err);
void mpiv_meta_release(struct mpiv_meta *m);

void mpiv_rank_trace_release(struct mpiv_rank_trace *t);
void mpiv_traceset_release(struct mpiv_traceset *ts);

#endif
