/* Watching a running job through its ranks' status files (base/status.h), for record (a
 * real hang) and replay (a reproduced deadlock, or a divergence): monitor.c; and reporting
 * where each rank stands: monitor_report.c. Works from the shared directory alone, so ranks
 * may run on other nodes. */
#ifndef MPIV_MONITOR_H
#define MPIV_MONITOR_H

#include <stdint.h>
#include <stdio.h>

#include "cex.h"
#include "status.h"

struct launch;
struct node_summary;
struct node_watch;

enum monitor_outcome {
	MONITOR_COMPLETED, /* the launcher exited */
	/* every rank blocked in MPI, polling without progress or
	 * finished, no progress for timeout */
	MONITOR_DEADLOCK,
	MONITOR_DIVERGED,    /* a rank reported DIVERGED (replay) */
	MONITOR_FAILED,	     /* a rank reported FAILED: it cannot replay (text says why) */
	MONITOR_INTERRUPTED, /* mpiverify got SIGINT, SIGTERM or SIGHUP */
};

/* What was last seen of one rank. */
struct monitor_rank {
	int seen; /* a valid status file was read; the fields below are meaningful */
	enum mpiv_rank_state state;
	unsigned call;	       /* enum mpiv_call of the current call when IN_CALL */
	const char *call_name; /* "MPI_Recv" (static), "MPI call N" style if unknown */
	long op;	       /* event index of the current (or last) call */
	uint64_t progress;     /* calls completed, failed polls left out */
	uint64_t polls;	       /* failed polls (MPI_Test*, MPI_Iprobe that found nothing) */
	uint64_t polls_base;   /* polls when progress last changed */
	/* DEADLOCK: the rank polled without progress (call, op and
	 * site are its last poll's) rather than blocked */
	int polling;
	uint64_t beat; /* heartbeat counter */
	uint64_t site; /* MPIV_SITE() of the current call */
	char host[64];
	int pid;
	char text[512];	    /* the divergence or failure, or the replayer's notes; or "" */
	unsigned notes;	    /* the kinds of those notes (enum mpiv_note_kind) */
	char module[512];   /* the module site points into, "" if unknown */
	uint32_t stack_op;  /* the call the stack was taken in */
	uint32_t nframes;   /* lines in stack, 0 if none */
	uint32_t unwritten; /* its threads blocked in calls not yet in its trace */
	char stack[MPIV_STATUS_STACK_SIZE]; /* as struct mpiv_status's */
	double changed;	     /* monotonic time progress, state, call or op last changed */
	double beat_changed; /* monotonic time beat last changed */
	/* monotonic time progress last changed, or the state
	 * other than between RUNNING and IN_CALL */
	double progress_changed;
	double polls_changed; /* monotonic time polls last changed */
};

struct monitor_result {
	enum monitor_outcome outcome;
	int exit_code;	/* the launcher's (launch_exit_code()), -1 if it had not exited */
	int signal;	/* INTERRUPTED: the signal received */
	double stalled; /* DEADLOCK: seconds without any rank's progress */
	int npolling;	/* DEADLOCK: ranks that polled without progress */
	/* DEADLOCK: seen before the timeout, the traces showing that no call can complete
	 * (monitor_expect.stuck) */
	int proven;
	int size;		    /* world size, 0 if no status file ever appeared */
	struct monitor_rank *ranks; /* size entries, by world rank; owned */
	/* warnings of ranks that look stopped, so far (monitor_deadlocked()): past a few, the
	 * rest are counted, not listed */
	int stopped_warnings;
};

/* Seconds every rank must sit still where a counterexample has it blocked before the deadlock
 * counts as confirmed (verify's runs, replay): with every rank inside MPI, its progress engine
 * polling, a message on its way arrives in far less. */
#define MONITOR_CONFIRM_GRACE 0.7

/* How much longer, at most, a confirmed deadlock waits for the blocked ranks' stacks. */
#define MONITOR_STACK_WAIT 2.0

/* Seconds, at least, before a job none of whose ranks has reported is warned of. */
#define MONITOR_FIRST_REPORT 30.0

/* How much longer, at most, a hang waits for the recorder to write every blocked call into its
 * rank's trace (struct mpiv_status's unwritten): on a machine with many more busy ranks than
 * cores a rank's status thread runs seldom, and a trace that stops short of the blocked call
 * leaves check inconclusive about the hang record saw. */
#define MONITOR_WRITE_WAIT 10.0

/* A deadlock a run is expected to end in (verify's and replay's confirmation of a model's
 * deadlock): once every rank sits in the call the model has it blocked in (or has finished,
 * where the model has it finish), with no progress for grace seconds, the run is deadlocked
 * without waiting for the timeout: the steering forces every choice that leads there, so none
 * can move. */
struct monitor_expect {
	int n; /* ranks */
	/* per rank: enum mpiv_call of its blocked call; -1: finished;
	 * NULL: no prediction */
	const int *call;
	/* with call: per rank, the event index of that call (the
	 * status's op), -1 if unknown */
	const long *op;
	double grace;
	/* or, every rank blocked or finished, still for grace: 1 if this is a deadlock known
	 * already (a run confirmed it); NULL: none is */
	int (*known)(void *ctx, const struct monitor_result *res);
	void *ctx;
	/* or, every rank blocked in a call that does not poll (or finished), one at least
	 * blocked, each blocked call in its rank's trace and the rank beating, nothing changed
	 * for grace: 1 if the ranks' traces so far show that no call can complete any more
	 * (record's and verify's runs: cli/hang_stuck.c), 0 if not, -1 if they do not show
	 * every blocked call yet. Asked once a standstill (again after -1); NULL: the timeout
	 * decides */
	int (*stuck)(void *stuck_ctx, const struct monitor_result *res);
	void *stuck_ctx;
};

/* Watch the job l (started with launch_start()) through the status files in status_dir,
 * polling every MPIV_STATUS_PERIOD_MS, until the launcher exits, a rank diverges or fails,
 * mpiverify is interrupted, or a deadlock holds: all ranks' status files exist; every rank is
 * FINALIZED, blocked (IN_CALL, its progress, state, call and op unchanged for timeout seconds)
 * or polling without progress (its failed polls still growing, in the last max(2, timeout / 3)
 * seconds, while its progress and state have not changed for timeout seconds), with one rank
 * at least not FINALIZED; and every blocked rank still beats (its beat changed in the last
 * max(2, timeout / 3) seconds, at most timeout: a stopped or vanished rank is not
 * deadlocked), or sooner, as expect says (NULL: no expectation). A rank that polls calls MPI
 * all the time, but calls that find nothing change nothing: only a call that completes
 * something counts as its progress. Does not end the job, but for a launcher that hangs after
 * its ranks: when every rank (all on this host) has ended for timeout seconds, one at least
 * left uncollected by its parent (launch_ranks_ended()), it ends the launcher with a warning,
 * and the outcome is COMPLETED: the ranks' traces and statuses say how each ended. Warns
 * (once) when no status file appeared within timeout, or when a rank stops beating. Fills
 * res; release it with monitor_result_release(). */
void monitor_run(struct launch *l, const char *status_dir, double timeout,
		 const struct monitor_expect *expect, struct node_watch *nodes,
		 struct monitor_result *res);

/* With nodes (a job spread over a Slurm allocation, nodes.h), monitor_run() reads no status
 * file: each node's helper sums up its own ranks with monitor_summarise() once a period, and
 * the rule above is taken on those summaries (every rank of the world counted, none
 * running, every node still for timeout, every helper heard from within max(2, timeout / 3)
 * seconds, no blocked rank stopped); expect is taken once every rank has been blocked or
 * finished for its grace, on the status files gathered then (nodes_peek(), when the watch
 * has a peek directory), and res's ranks stay empty until monitor_rescan(). */

/* Fill res's ranks from the status files in dir once (a job's files gathered from its nodes
 * after it ended), keeping its outcome. */
void monitor_rescan(const char *dir, struct monitor_result *res);

/* ---- the rule's parts, for a node's helper (node_agent.c) ---- */

/* Take st, read at t, as m's latest status (the change times as monitor_run() keeps them). */
void monitor_rank_update(struct monitor_rank *m, const struct mpiv_status *st, double t);

/* The deadlock rule of monitor_run() on res at t (one status file per rank): every rank
 * blocked or finished, or polling without progress, and nothing changed for timeout seconds;
 * and, up to MONITOR_WRITE_WAIT seconds longer, every blocked call in its rank's trace. A
 * rank that stopped rewriting its status is warned of once (warned[r]) and holds the rule
 * back. */
int monitor_deadlocked(struct monitor_result *res, double t, double timeout, char *warned);

/* Whether m polls without progress at t (see monitor_run()). */
int monitor_rank_polling(const struct monitor_rank *m, double t, double timeout);

/* How long a beat may stand still before its rank counts as stopped: max(2, timeout / 3),
 * at most timeout. */
double monitor_beat_limit(double timeout);

/* The rule on the nodes' summaries w holds (deadlocked() summed up per node): every rank of
 * the world reported; none runs; one at least is blocked or polls; every node still for
 * timeout; every node's helper heard from within monitor_beat_limit(), no blocked rank
 * stopped (either is warned of, once a node). Sets res's stalled and npolling when it does.
 * Returns 1 or 0. */
int monitor_nodes_deadlocked(struct node_watch *w, struct monitor_result *res, double t,
			     double timeout);

/* Add n ranks, as seen at t, to s (counts, the latest change, progress); sets each rank's
 * polling. s's host and size are the caller's. */
void monitor_summarise(struct monitor_rank *const *ranks, int n, double t, double timeout,
		       struct node_summary *s);

void monitor_result_release(struct monitor_result *res);

/* ---- monitor_report.c ---- */

/* Print one line per unfinished rank of res, "rank N: blocked in MPI_Recv (event 5) at
 * file.c:42 (main)", then its call stack if the rank took one in that call ("    #0
 * file.c:42 (main)" lines; left out if it cannot be resolved), then a divergence's text.
 * Sites are resolved with the module the status names, else with the rank's trace in
 * trace_dir (rank-N.mpivt or rank-N.json; NULL: none), else printed raw. With cex, each
 * rank's line is followed by what the counterexample predicted for it, and ranks that the
 * counterexample has blocked but that finished are listed too. Returns the number of ranks
 * whose blocked call differs from the prediction (0 without cex). */
int monitor_report(FILE *f, const struct monitor_result *res, const char *trace_dir,
		   const struct mpiv_cex *cex);

/* For each rank a fatal signal killed (its status holds the stack of the thread the signal
 * killed: stack_op MPIV_STATUS_CRASH_OP): "rank N died here:", its last MPI call with its site,
 * and the stack's frames as monitor_report() prints them; trace_dir as there. Returns how many
 * ranks it printed. */
int monitor_report_crashes(FILE *f, const struct monitor_result *res, const char *trace_dir);

/* The frames of a stack as a status file holds it (struct mpiv_status's stack), resolved to
 * "file.c:42 (func)" (or "module+0xADDR" when that fails), up to main: *out (malloc'ed, as
 * each frame) gets them; returns how many. */
int monitor_stack_frames(const char *stack, char ***out);

/* " at file.c:42 (main)" for rank r's current call site, or the raw site when it cannot be
 * resolved, or "" without one; trace_dir as for monitor_report(). */
void monitor_site(const struct monitor_rank *m, int r, const char *trace_dir, char *buf,
		  size_t size);

#endif
