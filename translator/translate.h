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

struct tr_cuts;

/* As tr_translate(), of segment j of cuts alone (tr_segment.c): every rank's events from cut
 * j - 1 (the start for j = 0) to cut j (the end for j = cuts->n once cuts->done), a rank
 * whose trace goes on after it ending as if it finished there, its persistent requests made
 * before the segment known. Event indices stay the trace's. cuts must hold cuts j - 1 and j
 * (tr_cuts_drop()). */
int tr_translate_segment(const struct mpiv_traceset *ts, const struct tr_opts *opts,
			 const struct tr_cuts *cuts, int j, struct eng_prog *prog,
			 struct mpiv_error *err);

/* 1 if every member of an intracommunicator collective `call` waits in it for every other,
 * with buffering too (doc/semantics.md 5.2): no member leaves before all entered. */
int tr_coll_synchronises(unsigned call);

/* The receive a wildcard probe (event i of t) is fused with: the next call of its thread, if
 * it receives exactly the message the probe found (doc/semantics.md 4.5); else -1. */
long tr_fused_receive(const struct mpiv_rank_trace *t, size_t i);

/* ---- tr_inputs.c: what verify needs of one run ---- */

/* An input no run recorded (a branch whose input the recorded path never took). */
#define TR_NO_INPUT INT32_MIN

/* The id of call site `site` of trace t, the same in every run of the program (0: unknown). */
int32_t tr_site_key(const struct mpiv_rank_trace *t, uint64_t site);

/* What a message carries, as a receive's input tells it (ENG_IN_SITE): the call site id of its
 * send and the digest of its data (common/digest.h; 0: unknown), in 31 bits, 0 only if both
 * are. */
int32_t tr_message_key(int32_t site, uint32_t data);

/* ---- tr_explore.c: verify's search ---- */

/* A frontier: process proc at a branch (its place) with an input no run took there. */
struct tr_frontier {
	int proc;
	long place; /* the branch: tr_explore_opts.node's, else its instruction */
	/* the input it got (ENG_IN_*), the parts the branch does not
	 * compare 0 */
	int32_t input[ENG_REG_WORDS];
	int sym; /* the parts the branch compares (ENG_IN_*) */
	/* the choices that lead there from the start (NULL past
	 * tr_explore_opts.max_paths) */
	int *path, npath;
	long state; /* the state it was met in (the search's numbering) */
};

/* A deadlock (or an erroneous state): where each process is stuck. */
struct tr_stuck {
	int error; /* ENG_ST_ERROR was set: an erroneous call, not a deadlock */
	/* per process: its place if blocked (every one, for an error),
	 * else -1 */
	long *place;
	int *path, npath; /* the choices that lead there (as tr_frontier's) */
	long state;
};

struct tr_explore_opts {
	long max_states; /* stop (incomplete) after storing this many states; 0: none */
	/* stop (incomplete) once what the search holds reaches this many bytes (--memory-limit);
	 * 0: none */
	size_t max_bytes;
	/* the paths of the first max_paths frontiers and deadlocks are filled in; 0: all */
	int max_paths;
	/* the place of process q at instruction pc (places tell frontiers and deadlocks
	 * apart); NULL: pc */
	long (*node)(void *ctx, int q, int pc);
	/* polled during the search: nonzero stops it (incomplete), a reason for it in why
	 * (size bytes); NULL: never */
	int (*stop)(void *ctx, char *why, size_t size);
	void *ctx;
};

struct tr_explore_result {
	struct tr_frontier *frontiers;
	int nfrontiers;
	size_t capfrontiers;
	struct tr_stuck *stuck; /* distinct by where the processes are stuck */
	int nstuck;
	size_t capstuck;
	long states;
	size_t bytes;  /* the most the search held */
	int complete;  /* every reachable state was visited */
	int overflow;  /* some state had more messages in flight than the program has room for */
	int memory;    /* it stopped at tr_explore_opts.max_bytes */
	char why[160]; /* when not complete: what cut it short */
};

/* Search every state of prog reachable from the start (in prog's buffering mode), depth
 * first, each stored once: where some process is at a frontier the search goes no further
 * (what it does next is for a run to show; the state is the end of its path). Returns 0 (res
 * filled; release it with tr_explore_release()). */
int tr_explore(const struct eng_prog *prog, const struct tr_explore_opts *opts,
	       struct tr_explore_result *res);
void tr_explore_release(struct tr_explore_result *res);

/* ---- tr_promela.c: a standalone Promela model of a trace (doc/promela.md) ---- */

/* The most engine instructions a standalone model takes: the C compiler's time and memory on
 * pan.c grow faster than the trace, about 5 s and 440 MB at 1000 (doc/promela.md, "Size"). */
#define TR_PROMELA_MAX_INSTRS 1000

struct tr_promela_input {
	const struct eng_prog *prog;	/* translated by tr_translate(), without variants */
	const struct mpiv_traceset *ts; /* its traces: the calls' descriptions and sites */
};

struct tr_promela_opts {
	enum eng_buffering buffering; /* written as #define BUFFERING */
	long long eager;	      /* written as #define EAGER_LIMIT */
	/* 0: one program, its processes active, the buffering mode a #define (what check
	 * --promela writes). 1: any number, names prefixed p0_, p1_, ...: init chooses a
	 * program and a buffering mode of `modes` and runs that program's processes, so that
	 * one pan searches them all (the differential tests). */
	int choose;
	unsigned modes; /* choose: 1 << enum eng_buffering, for each mode */
};

/* Where the model put each process and instruction, for reading pan's trails back. */
struct tr_promela_map {
	long nlines; /* lines written */
	/* per line (from 1): the program of the rank process whose
	 * instruction it belongs to, -1 if none */
	int *line_prog;
	int *line_proc, *line_instr; /* that process and instruction */
	int nprogs;
	/* per program: the processes it runs (its pids 0 .. npids-1 one
	 * program alone, 1 .. npids with choose: init is pid 0) */
	int *npids;
	/* per program, per pid: the engine process, -1 for a library
	 * process or the judge */
	int **pid_proc;
	/* per program: 1 if its deadlocks are the judge's assertion
	 * rather than invalid end states */
	int *judged;
};

/* Write the standalone Promela model of the programs in[0..n) (n is 1 unless o->choose) into
 * f, named path in its comments; fill map if not NULL (release it with
 * tr_promela_map_release()). Returns 0, or -1 with err filled: BAD_INPUT naming the rank and
 * event of a call the model cannot encode (or a trace above TR_PROMELA_MAX_INSTRS), nothing
 * written then; TOOL if f cannot be written. */
int tr_promela(FILE *f, const char *path, const struct tr_promela_input *in, int n,
	       const struct tr_promela_opts *o, struct tr_promela_map *map, struct mpiv_error *err);
void tr_promela_map_release(struct tr_promela_map *map);

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

/* ---- tr_cut.c: check's own pass, and what it leaves to SPIN ---- */

/* Run prog from its start into st (eng_state_bytes(prog) bytes) for as long as the search
 * offers exactly one choice: a state with none (the end of every path: finished, deadlocked,
 * erroneous or overflowed) or several (where SPIN takes over). Returns the choices taken. */
long tr_forced_path(const struct eng_prog *prog, int32_t *st);

/* The part of prog a search from state st (of prog) can still reach, as a program of its own
 * that starts in st (out->start): each process's instructions from the first one st still
 * refers to, renumbered from 0. A search of out offers the same choices in the same order as
 * one of prog from st, so that its choices replay on prog. Returns 1 with out filled (release
 * it with eng_prog_release()), or 0 if prog cannot be cut so (its instructions name other
 * processes' instructions, or what the engine makes of one depends on the whole program:
 * ready sends, an attached buffer, variants, tables cut short). Cannot fail. */
int tr_cut(const struct eng_prog *prog, const int32_t *st, struct eng_prog *out);

/* ---- tr_search.c: check's search of a program, and the deadlocks it finds ---- */

/* The depth bound for SPIN's search of prog: a path takes at most (choice loop + 2 steps) per
 * choice the program offers (a wildcard receive's match, which rank gets a contended window
 * lock first), plus a margin. */
long tr_search_depth(const struct eng_prog *prog);

/* Does some collective of prog let a member leave before every other entered, with
 * buffering (its rule is not ENG_COLL_ALL)? */
int tr_colls_partial(const struct eng_prog *prog);

/* The searches the buffering modes given[0..n) need, into out (room for 2 * n): each mode,
 * and with twins (tr_colls_partial() of the program) after each buffered one its twin whose
 * collectives all synchronise (sync_colls). MPI allows both, whatever the buffering, and
 * with wildcard receives either can deadlock where the other does not (doc/semantics.md
 * 5.2). Returns the number of searches. */
int tr_searches(int twins, const struct mpiv_buffering *given, int n, struct mpiv_buffering *out);

/* 1 if no send of prog carries more than bytes: then a search with that eager threshold is
 * the search with every send buffered (ENG_BUF_INFINITE), state for state. */
int tr_sends_within(const struct eng_prog *prog, long long bytes);

/* One distinct deadlock: its counterexample and the buffering modes it was found in. */
struct tr_deadlock {
	struct mpiv_cex cex;
	char *signature;	  /* which rank is blocked where (NULL once merged into another) */
	char modes[128];	  /* "zero, infinite" */
	int in_zero, in_buffered; /* found with unbuffered / with buffered standard sends */
	int in_eager;		  /* found with the recorded library's eager threshold */
	/* found with buffering (in_buffered, in_eager) where collectives
	 * wait only for the data they need, not only in a twin search
	 * whose collectives synchronise (mpiv_buffering.sync_colls) */
	int in_buffered_data, in_eager_data;
	/* found with buffering in a twin search whose collectives
	 * synchronise */
	int in_sync;
	/* check: found with buffering only where collectives wait for no
	 * more than their data, a twin search where they synchronise
	 * being whole without it */
	int colls_early;
	/* check: 1 + a deadlock found in the other kind of mode (without
	 * buffering where this one was found only with it, or the other
	 * way round) and not in this one's: the program deadlocks there
	 * instead; 0 if none */
	int instead;
	/* the recorded run's own wildcard matches lead there (in the
	 * mode of its cex): 1 yes, 0 no, -1 the trace does not say */
	int recorded;
	long long eager; /* that threshold when it was searched too, else -1 */
	/* both kinds of mode were searched, completely where it was not
	 * found, so the class is known */
	int classified;
	char *path; /* where its cex.json was written (by check), else NULL */
};

/* The deadlocks of one check, in the order they were found. */
struct tr_deadlocks {
	struct tr_deadlock *d;
	int n;
};

/* Which rank is blocked at which event, as "0:2;2:1;" (a malloc'ed string). With core set,
 * ranks blocked in a standard send that was not buffered (and in no receive of theirs) are
 * left out: the same deadlock found with buffered sends has those ranks finished, and
 * otherwise the same ranks stuck in the same calls. */
char *tr_deadlock_signature(const struct mpiv_cex *cex, int core);

/* Add the deadlock of one trail, found in the mode cex->buffering names, unless the same one
 * (same signature) was found before in that mode. Takes cex (it is released or kept, and
 * zeroed). Cannot fail. */
void tr_deadlocks_add(struct tr_deadlocks *set, struct mpiv_cex *cex);

/* One entry per deadlock, whatever modes it was found in: entries with the same core
 * signature, or, found in different modes, one core within the other (the same ranks stuck in
 * the same calls, some moving on to be stuck further when sends are buffered), merge into the
 * first (so the counterexample of the first mode searched, zero's when there is one, is
 * kept), which then lists every mode. */
void tr_deadlocks_merge(struct tr_deadlocks *set);

/* Do the recorded run's own wildcard matches lead to the deadlock of cex, in the mode of cex?
 * 1 yes, 0 no, -1 the trace does not say which matches the run made. */
int tr_on_recorded_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			const struct mpiv_cex *cex);

/* Free what set owns and empty it. */
void tr_deadlocks_release(struct tr_deadlocks *set);

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
	int peer;	      /* the receiver (UNRECEIVED), the sender (TRUNCATED), else -1 */
	long peer_event;      /* the sender's event (TRUNCATED), else -1 */
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

/* ---- tr_segment.c: a long run, a segment at a time ---- */

/* What a rank has at a cut from before it: a persistent request (its id, and the event of its
 * template, MPI_Send_init or MPI_Recv_init), or, with req TR_TMPL_BUFFER, the buffer the
 * MPI_Buffer_attach of event attached. */
struct tr_tmpl {
	int32_t req;
	uint32_t event;
};
#define TR_TMPL_BUFFER (-1)

/* Places where every rank's trace can be cut so that nothing before waits for anything after,
 * found all at once (tr_cuts_find()) or one at a time (tr_cuts_start(), tr_cuts_next()), the
 * earlier ones dropped as they are done with (tr_cuts_drop()). With k held (dropped <= k <
 * n), at[(k - dropped) * nranks + r] is rank r's first event after cut k (cuts in order); its
 * persistent requests and attached buffer there are tr_cuts_tmpl()'s. */
struct tr_cut_finder;
struct tr_cuts {
	int nranks;
	int n;	     /* cuts found so far */
	int dropped; /* the cuts before this one are no longer held */
	int done;    /* 1: n is every cut there is */
	size_t *at;
	struct tr_tmpl *tmpl;
	size_t *first; /* (n - dropped) * nranks + 1 entries, into tmpl */
	size_t ntmpl;
	struct tr_cut_finder *finder; /* the search for the next one; NULL once done */
};

/* The cuts of ts into segments of about target events each, as far as its calls allow
 * (doc/semantics.md 10): up to the first call that makes a choice or that a cut cannot pass,
 * and only in a run every rank of which finished. Returns how many (0: none; release cuts
 * either way with tr_cuts_release()). */
int tr_cuts_find(const struct mpiv_traceset *ts, size_t target, struct tr_cuts *cuts);

/* The same one cut at a time: tr_cuts_start() finds the first, tr_cuts_next() each next; both
 * return 1 if they found one, 0 once there is none left (cuts->done). */
int tr_cuts_start(const struct mpiv_traceset *ts, size_t target, struct tr_cuts *cuts);
int tr_cuts_next(struct tr_cuts *cuts);

/* No longer hold the cuts before cut j (j <= cuts->n). */
void tr_cuts_drop(struct tr_cuts *cuts, int j);

/* Rank r's persistent requests and attached buffer at held cut k: *ntmpl entries, NULL if
 * none. */
const struct tr_tmpl *tr_cuts_tmpl(const struct tr_cuts *cuts, int k, int r, size_t *ntmpl);

void tr_cuts_release(struct tr_cuts *cuts);

/* Where segment j of cuts starts and ends in rank r's trace: [*from, *to) (from cut j - 1, or
 * the start for j = 0, to cut j, or the end for j = cuts->n once cuts->done); cuts j - 1 and
 * j must be held. */
void tr_segment_bounds(const struct mpiv_traceset *ts, const struct tr_cuts *cuts, int j, int r,
		       size_t *from, size_t *to);

/* The most buffering modes tr_check_segments() takes. */
#define TR_SEGMENT_MODES 4

/* What the segments of a run said, every one of them to its end in every search. */
struct tr_segmented {
	int twins; /* some collective lets a member leave early: the twin searches were made */
	int nmodes;
	struct mpiv_buffering modes[2 * TR_SEGMENT_MODES]; /* the searches (tr_searches()) */
	long lead[2 * TR_SEGMENT_MODES]; /* per search: the choices its own pass took, summed */
	struct tr_warning *warns;	 /* the recorded run's warnings (tr_warnings()) */
	int nwarns;
	int nsegments;
	size_t most; /* events in the longest segment */
};

/* Check ts one segment at a time, cut into segments of about target events (tr_cuts_find()),
 * each translated alone (with at most max_instrs instructions, as tr_opts says) and searched
 * by check's own pass in every search the modes given[0..ngiven) need: 1 when every segment
 * ran to its end with every process done, on a single path, in every search (no deadlock
 * anywhere; out filled, its warnings the caller's to free); 0 when the run has no cut, or
 * some segment does not settle it (a choice, a deadlock, an erroneous call, too many messages
 * in flight, a bad event, too many instructions): the whole program is to be checked
 * instead. */
int tr_check_segments(const struct mpiv_traceset *ts, size_t target,
		      const struct mpiv_buffering *given, int ngiven, size_t max_instrs,
		      struct tr_segmented *out);

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
};

struct tr_stop {
	int rank;
	enum tr_stop_kind kind;
	int code;    /* abort code, signal number or exit status */
	long event;  /* its last event, -1 if none */
	int in_call; /* it was inside its last call (the call never returned) */
	int seen;    /* enum mpiv_rank_seen: what record last saw of it */
};

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
