/* The translator: recorded traces to the model's program (model.dat), and SPIN's choices back
 * to a counterexample. Library code: fills a struct mpiv_error, never prints. */
#ifndef MPIV_TRANSLATE_H
#define MPIV_TRANSLATE_H

#include <limits.h>
#include <stdio.h>

#include "cex.h"
#include "engine.h"
#include "error.h"
#include "steer.h"
#include "trace.h"

/* The engine's buffering of a mode: the two types have the same values (checked here), and
 * this is the one place a mode passes from one to the other. */
_Static_assert((int)ENG_BUF_ZERO == (int)MPIV_BUF_ZERO &&
		       (int)ENG_BUF_INFINITE == (int)MPIV_BUF_INFINITE &&
		       (int)ENG_BUF_EAGER == (int)MPIV_BUF_EAGER,
	       "enum eng_buffering and enum mpiv_buffering_mode differ");
static inline enum eng_buffering tr_buffering(enum mpiv_buffering_mode mode)
{
	return (enum eng_buffering)mode;
}

struct tr_opts {
	enum eng_buffering buffering;
	long long eager; /* threshold in bytes for ENG_BUF_EAGER */
	int maxmsg;	 /* room for messages in flight; 0 for the default */
	/* 1: a program for verify (doc/verify.md): every receive,
	 * wildcard probe and any-completion takes an input into a
	 * register, a branch follows where the program learns it, sends
	 * carry their call site, collectives their call; registers are
	 * numbered by input (explore/model.c maps them) */
	int verify;
	/* 0: no limit; else the most instructions the program may
	 * have (check's memory limit): past it, -1 with err
	 * INCONCLUSIVE */
	size_t max_instrs;
};

/* What a program holds per instruction: the instruction (40 bytes), and what its lists and the
 * reductions' tables add, some 20 % of that in long runs of wildcard receives
 * (doc/performance.md). check's memory limit bounds a program at that many bytes an instruction. */
#define TR_INSTR_BYTES 48

/* Build the engine program of a trace set. Returns 0, or -1 with err filled (BAD_INPUT, with
 * the file, rank and event at fault, e.g. a call check cannot judge yet; INCONCLUSIVE past
 * opts->max_instrs). prog is the caller's to release with eng_prog_release(). */
int tr_translate(const struct mpiv_traceset *ts, const struct tr_opts *opts, struct eng_prog *prog,
		 struct mpiv_error *err);

/* What a rank has at the start of a segment from before it: a persistent request (its id,
 * and the event of its template, MPI_Send_init or MPI_Recv_init), or, with req
 * TR_TMPL_BUFFER, the buffer the MPI_Buffer_attach of event attached. */
struct tr_tmpl {
	int32_t req;
	uint32_t event;
};
#define TR_TMPL_BUFFER (-1)

/* One rank's part of a segment of the run: its events [from, to), and what it has from before
 * from (tmpl[0..ntmpl)). */
struct tr_span {
	size_t from, to;
	const struct tr_tmpl *tmpl;
	size_t ntmpl;
};

/* As tr_translate(), of a segment alone (check's segments, tr_check.h): span[r] of each rank
 * r, a rank whose trace goes on after it ending as if it finished there, its persistent
 * requests made before the segment known. Event indices stay the trace's. */
int tr_translate_spans(const struct mpiv_traceset *ts, const struct tr_opts *opts,
		       const struct tr_span *span, struct eng_prog *prog, struct mpiv_error *err);

/* 1 if every member of an intracommunicator collective `call` waits in it for every other,
 * with buffering too (doc/semantics.md 5.2): no member leaves before all entered. */
int tr_coll_synchronises(unsigned call);

/* An event of a rank's trace. */
struct tr_event_ref {
	int rank;
	long ev;
};

/* The events of prog's collectives whose members called different collectives, or named
 * different roots, at the same place (doc/semantics.md 5.1): into *out (malloc'ed, the
 * caller frees it; NULL if none), in process and program order. Returns how many. */
size_t tr_coll_mismatches(const struct eng_prog *prog, struct tr_event_ref **out);

/* The receive a wildcard probe (event i of t) is fused with: the next call of its thread, if
 * it receives exactly the message the probe found (doc/semantics.md 4.5); else -1. */
long tr_fused_receive(const struct mpiv_rank_trace *t, size_t i);

/* ---- tr_inputs.c: what verify needs of one run ---- */

/* An input no run recorded (a branch whose input the recorded path never took). */
#define TR_NO_INPUT INT32_MIN

/* The id of call site `site` of trace t, the same in every run of the program (0: unknown). */
int32_t tr_site_key(const struct mpiv_rank_trace *t, uint64_t site);

/* What a message carries, as a receive's input tells it (ENG_IN_SITE): the call site id of its
 * send and the digest of its data (base/digest.h; 0: unknown), in 31 bits, 0 only if both
 * are. */
int32_t tr_message_key(int32_t site, uint32_t data);

/* ---- the model data, counterexamples and the recorded path ---- */
/* Write prog as model.dat into the open file f. Returns 0, or -1 with err filled. */
int tr_emit(const struct eng_prog *prog, FILE *f, const char *path, struct mpiv_error *err);

/* Replay on prog natively lead steps that take the one choice on offer (tr_forced_path()),
 * then choices[0..n), and describe the state they lead to as a counterexample (struct
 * mpiv_cex, which the caller releases) of a search with buffering b (prog's own). Returns 1 if
 * that state is a deadlock, 0 if it is not (the choices do not lead to one: SPIN and the engine
 * disagree), or -1 with err filled. Call sites are resolved to file:line through the traces'
 * modules. */
int tr_cex(const struct eng_prog *prog, const struct mpiv_traceset *ts, long lead,
	   const int *choices, int n, const struct mpiv_buffering *b, struct mpiv_cex *cex,
	   struct mpiv_error *err);

/* Run prog along the recorded path into st (eng_state_bytes(prog) bytes): every wildcard
 * receive takes the source the run recorded, standard sends buffered as b (and eager) says,
 * collectives synchronising if sync_colls (eng_prog.sync_colls); obs, if not NULL, sees every
 * step. Returns 1, or 0 if some choice was not in the trace (a receive without its recorded
 * source: the first candidate was taken). */
int tr_recorded_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		     enum eng_buffering b, long long eager, int sync_colls,
		     struct eng_observer *obs, int32_t *st);

/* The choices the recorded path (tr_recorded_path()) in buffering b takes, each as its k
 * (eng_choose()), into *picks (allocated; *npicks of them); listed: found by listing every
 * choice of each state, as a reference for the tests, else as tr_recorded_path() finds them.
 * Returns what tr_recorded_path() does. */
int tr_recorded_picks(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		      enum eng_buffering b, long long eager, int listed, int **picks, int *npicks);

/* The recorded path (tr_recorded_path()) in buffering b, described as a counterexample is
 * (tr_cex()): each rank's operations in order, every match the run made, which standard sends
 * b buffers, and where ranks are stuck at its end. Returns 1 if the path ends in a deadlock
 * (cex also has its wait-for cycle), 0 if not (cex is filled all the same), or -1 with err
 * filled. */
int tr_recorded_cex(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		    const struct mpiv_buffering *b, struct mpiv_cex *cex, struct mpiv_error *err);

/* The source (world rank) the recorded run's receive at event e of t took its message from,
 * or MPIV_NONE if it did not say (it never completed). A nonblocking receive learns it at the
 * completion that lists its request. */
int32_t tr_recorded_source(const struct mpiv_rank_trace *t, long e);

/* For each nonblocking receive of t, by event, the event that completed it (-1 if none, and
 * for every other event): malloc'ed, t->nevents entries (the caller frees it). */
int32_t *tr_completions(const struct mpiv_rank_trace *t);

/* What the recorded run did that is no deadlock but probably a bug (doc/semantics.md 9.5). */
enum tr_warn_kind {
	TR_WARN_UNRECEIVED,  /* a message sent and never received */
	TR_WARN_TRUNCATED,   /* a receive shorter than the message it took */
	TR_WARN_UNCOMPLETED, /* a request never completed by a rank that finished */
	TR_WARN_COMM_LEAK,   /* a communicator never freed by a rank that finished */
	/* a request on a communicator still pending at its MPI_Comm_disconnect, which MPI
	 * allows only once all its communication is complete (MPI-4.1 11.10.4) */
	TR_WARN_DISCONNECT_PENDING,
	/* from the times of a trace recorded with them (tr_times.c): */
	/* a message received before it was sent: the clocks of
	 * the two ranks' hosts disagree */
	TR_WARN_RECV_BEFORE_SEND,
	/* a blocking send that took much longer than its blocking
	 * receive: the receiver came late */
	TR_WARN_LONG_SEND,
};

struct tr_warning {
	enum tr_warn_kind kind;
	int rank; /* the sender (UNRECEIVED), receiver (TRUNCATED), owner (the others) */
	/* that rank's event: the send, the receive, what made the request
	 * or the communicator */
	long event;
	int peer; /* the receiver (UNRECEIVED), the sender (TRUNCATED), else -1 */
	/* the sender's event (TRUNCATED), the disconnect (DISCONNECT_PENDING), else -1 */
	long peer_event;
	long long bytes;      /* the message's size (UNRECEIVED), the receive's (TRUNCATED) */
	long long peer_bytes; /* TRUNCATED: the message's size */
	/* the warnings of times stand for all the messages between the same two call sites
	 * (rank and event, peer and peer_event: the first such message): */
	long count; /* how many messages (1 for the other kinds) */
	/* RECV_BEFORE_SEND: the most a message was received before it
	 * was sent; LONG_SEND: the longest send */
	long long ns;
	long long peer_ns; /* LONG_SEND: its receive's duration */
};

/* The warnings of the recorded run: the recorded path replayed on prog with every wildcard
 * receive taking the source the run recorded, each finished rank's requests followed to
 * their completion, and, where the traces have times, the times of each message's send and
 * receive compared. Sets *out (the caller frees it) and returns how many; cannot fail. */
int tr_warnings(const struct eng_prog *prog, const struct mpiv_traceset *ts,
		struct tr_warning **out);

/* The same in steps, for a run checked a segment at a time (tr_segment.c): begin, the
 * recorded path of each segment's program in order, end (which frees the pass). */
struct tr_warn_pass;
struct tr_warn_pass *tr_warnings_begin(const struct mpiv_traceset *ts);
void tr_warnings_path(struct tr_warn_pass *wp, const struct eng_prog *prog);
int tr_warnings_end(struct tr_warn_pass *wp, struct tr_warning **out);

/* How a rank's run ended (tr_stop.c). */
enum tr_stop_kind {
	TR_FINISHED,	 /* MPI_Finalize returned */
	TR_STOP_ABORTED, /* it called MPI_Abort (code) */
	TR_STOP_SIGNAL,	 /* it died of a signal (code) */
	TR_STOP_EXIT,	 /* it exited without MPI_Finalize (code: the status) */
	/* record ended the job (a hang, no progress, an interrupt)
	 * while the rank was blocked, polling or computing */
	TR_STOP_ENDED,
	/* no word of how: killed with SIGKILL (the launcher ends the
	 * other ranks so when one stops), or its trace was cut */
	TR_STOP_KILLED,
	/* check left out its calls from one it cannot judge yet on
	 * (t->unjudged): event is the last it judged */
	TR_STOP_UNJUDGED,
};

struct tr_stop {
	int rank;
	enum tr_stop_kind kind;
	int code;    /* abort code, signal number or exit status */
	long event;  /* its last event, -1 if none */
	int in_call; /* it was inside its last call (the call never returned) */
	int seen;    /* enum mpiv_rank_seen: what record last saw of it */
};

/* Record in err a call check cannot judge yet, at event of rank in source: as
 * mpiv_error_set() with MPIV_EXIT_BAD_INPUT, marked err->unjudged if it is err's first error.
 * Always returns -1. */
int tr_unjudged(struct mpiv_error *err, const char *source, int rank, long event, const char *fmt,
		...) __attribute__((format(printf, 5, 6)));

/* The end (an index) of rank t's events that check judges, of those before `to`. */
size_t tr_judged(const struct mpiv_rank_trace *t, size_t to);

/* After err from tr_translate(): if it is a call check cannot judge yet, leave out its rank's
 * calls from it on (t->unjudged) and return 1, to translate again; else 0. */
int tr_leave_out(struct mpiv_traceset *ts, const struct mpiv_error *err);

/* The ranks of ts whose calls check left out (tr_leave_out()). */
int tr_left_out(const struct mpiv_traceset *ts);

/* tr_translate(), leaving out each call it cannot judge yet (tr_leave_out()) and translating
 * again, until it translates or fails otherwise: what tr_translate() returns then. */
int tr_translate_judged(struct mpiv_traceset *ts, const struct tr_opts *opts, struct eng_prog *prog,
			struct mpiv_error *err);

/* How rank r of ts ended: its stop record, else what record saw (meta.json), else the trace
 * (one that ends in a complete MPI_Finalize, as traces written by hand do, finished). */
void tr_stop_of(const struct mpiv_traceset *ts, int r, struct tr_stop *s);

/* 1 if every rank of ts finished. */
int tr_all_finished(const struct mpiv_traceset *ts);

/* The ranks that, at the end of the recorded path (standard sends buffered up to the
 * recorded library's eager threshold, as in the run; every one where it is not known), are
 * blocked waiting for rank r: filled into out (room for nranks); returns how many. */
int tr_stop_waiters(const struct eng_prog *prog, const struct mpiv_traceset *ts, int r, int *out);

/* "called MPI_Abort with error code 3", "died of signal 11 (Segmentation fault) after its
 * last call, outside MPI", ... into buf. */
void tr_stop_describe(const struct mpiv_traceset *ts, const struct tr_stop *s, char *buf,
		      size_t size);

/* The call site of event e of rank r (zeroed when unknown; release with
 * mpiv_cex_site_release()). */
void tr_event_site(const struct mpiv_traceset *ts, int r, long e, struct mpiv_cex_site *s);

/* "MPI_Recv(source=1, tag=0, comm=WORLD, 4 bytes)" for event e of rank r, into buf. */
void tr_describe_event(const struct mpiv_traceset *ts, int r, long e, char *buf,
		       unsigned long size);

#endif
