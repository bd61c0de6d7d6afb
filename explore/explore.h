/* verify's exploration (doc/verify.md): record a run; search the model of every run so far
 * for deadlocks and for decisions no run took yet (frontiers); have the program run again,
 * steered to each, until none is left; keep the deadlocks a run showed on the real MPI
 * library. The runs themselves are made by a runner the caller gives (cli/verify_run.c: the
 * recorder under the launcher), so that this folder stands on the translator alone.
 *
 *	explore.c		the loop, and what each run showed
 *	explore_search.c	the runs' model, its search, the runs it asks for (items)
 *	explore_key.c		the key that tells deadlocks apart
 *	explore_describe.c	a call and a run's decisions, in words
 *	stuck.c			whether a run under way is deadlocked for good, or a hung
 *				one was the steering's doing
 *	threads_fixed.c		whether a run of threads stands for every run, or for
 *				every run that decides as it did
 */
#ifndef MPIV_EXPLORE_H
#define MPIV_EXPLORE_H

#include <stdint.h>
#include <stdio.h>

#include "cex.h"
#include "translate.h"

#define EXPLORE_MAX_MODES 3

/* The most runs one search asks for at once (a round): the runs of a round each show more of
 * the program, and what they show may settle the other decisions the search met (a part of
 * an input found not to matter, a way on taken), so the next search is made before more are
 * run. The same for every --jobs, so that the answer does not depend on it. */
#define EXPLORE_ROUND 4

/* What a run asks of the program, and why. */
enum xitem_kind {
	XITEM_DEADLOCK, /* confirm a deadlock of the model */
	XITEM_FRONTIER, /* explore a decision no run took */
};

struct xitem {
	enum xitem_kind kind;
	char *steer;		    /* the steering file's text */
	struct mpiv_buffering mode; /* XITEM_DEADLOCK: the buffering it was found with */
	int nranks;
	/* XITEM_DEADLOCK: per rank, the call the model has it blocked
	 * in (enum mpiv_call), -1 if it finishes */
	int *call;
	/* XITEM_DEADLOCK: per rank, that call's event index in the
	 * trace the model took it from (where the run's should be) */
	long *event;
	/* one line: where the model's ranks are blocked, or which
	 * decision is explored ("rank 0's MPI_Recv(...) at app.c:40
	 * takes rank 2's message") */
	char *what;
	char *key; /* XITEM_DEADLOCK: its key (xkey) */
	int error; /* an erroneous call of the model rather than a deadlock */
	/* XITEM_DEADLOCK: some rank is blocked in a poll that
	 * succeeded in a run (MPI_Test*, MPI_Iprobe, or the receive
	 * of what one found): the program polls there, and a run that
	 * passes shows a way out the model did not know */
	int polled;
	/* XITEM_FRONTIER: at a branch the runs leave unsettled (struct xmodel's unsettled) */
	int unsettled;
};

/* What the runner saw of a run. */
enum xrun_seen {
	XSEEN_COMPLETED,   /* the launcher exited */
	XSEEN_HUNG,	   /* every rank blocked or finished, until the timeout */
	XSEEN_PREDICTED,   /* ended early: every rank where the item's deadlock has it */
	XSEEN_KNOWN,	   /* ended early: stuck in a deadlock confirmed before */
	XSEEN_INTERRUPTED, /* mpiverify was interrupted */
	/* the run was lost with a node of the cluster, twice: it
	 * showed nothing of the program */
	XSEEN_LOST,
};

/* How a run ended, as verify counts it. */
enum xrun_end {
	XRUN_COMPLETED, /* the program ran to its end */
	XRUN_CONFIRMED, /* it deadlocked where the model said */
	XRUN_HUNG,	/* it deadlocked (somewhere else): a deadlock all the same */
	/* it hung only because steering pinned a receive that could
	 * have taken another message: the path is not the program's */
	XRUN_PINNED,
	XRUN_STOPPED, /* a rank crashed, aborted or exited without MPI_Finalize */
	XRUN_FAILED,  /* its trace cannot be judged */
	XRUN_INTERRUPTED,
};

struct xrun {
	int index;	    /* 1, 2, ... */
	char *dir;	    /* its trace directory (OUTDIR/runs/N) */
	char *steer_path;   /* its steering file (OUTDIR/runs/N.steer), NULL for the first */
	char *out_path;	    /* where the program's output goes (OUTDIR/runs/N.out) */
	struct xitem *item; /* what it was for (owned), NULL for the first run */
	/* filled by the runner */
	enum xrun_seen seen;
	int signal;	/* XSEEN_INTERRUPTED: the signal mpiverify got */
	int left;	/* some rank left the steered path (steering stopped) */
	char *report;	/* a hang: every rank's blocked call and stack */
	char *hang_key; /* a hang: its key (xkey) */
	int failed;	/* the job could not run, or wrote no trace */
	double started; /* mpiv_now() when the runner started it, and when it */
	double ended;	/* saw it end */
	/* filled by explore */
	int cancelled; /* ended before its end by a limit: not a run that counts */
	int round;     /* the search that asked for it: 0 for the first run */
	enum xrun_end end;
	char *stopped; /* XRUN_STOPPED: how (one line) */
	/* XRUN_STOPPED: the rank that stopped first stopped of
	 * itself (a signal of its own, MPI_Abort, exit without
	 * MPI_Finalize), not by the launcher or verify: a finding */
	int crashed;
	/* XRUN_STOPPED: ranks whose calls from one on were left out, calls check cannot judge
	 * yet (tr_leave_out()) */
	int left_out;
	/* XITEM_DEADLOCK, XRUN_COMPLETED: the search after it, with this run in its model, asked
	 * again for the same run (explore_search()) */
	int asked_again;
	int usable;		 /* its trace is a path of the program, in the model */
	struct mpiv_traceset ts; /* usable: the trace */
	struct eng_prog prog;	 /* usable: its verify program, inputs filled */
};

/* What a run showed of the program's errors. */
enum xfound_kind {
	XFOUND_DEADLOCK,
	/* the run's members of a communicator called different
	 * collectives or roots at the same place (doc/semantics.md 5.1):
	 * an error the run made, whether or not the library completed
	 * it; the run's report names the calls */
	XFOUND_MISMATCH,
	/* a rank died of a signal of its own, called MPI_Abort or
	 * exited without MPI_Finalize, on a path the library took: the
	 * run's `stopped` says how, its report where */
	XFOUND_CRASH,
};

/* A deadlock confirmed on the real MPI library, a collective mismatch or a crash a run made. */
struct xdeadlock {
	struct xrun *run; /* the run that deadlocked */
	/* the buffering it was forced with: "zero", ... or "as the
	 * library does" */
	char *mode;
	int predicted; /* the model predicted it (1) or a run came upon it (0) */
	enum xfound_kind kind;
};

/* A model's deadlock the real program did not show. */
struct xunconfirmed {
	struct xrun *run;
	const char *why;
};

struct explore;

/* How runs are made: several may be under way at once, each started by start() and handed
 * back by wait() when it has ended, in whatever order they end. */
struct explore_runner {
	/* Start the run for r: first (r->item NULL) or steered by r->steer_path, its trace into
	 * r->dir, its output into r->out_path. Returns 0, or -1 when it could not be started (a
	 * message said why). */
	int (*start)(void *ctx, struct explore *x, struct xrun *r);
	/* Wait until a started run has ended, or until the monotonic time deadline (0: no
	 * deadline). Returns the run, its seen, signal, left, report and hang_key filled, or
	 * r->failed set when the job could not run or wrote no trace (a message said why);
	 * NULL at the deadline, or when no run is under way. */
	struct xrun *(*wait)(void *ctx, struct explore *x, double deadline);
	/* End every run under way (a limit, an interruption): wait() then hands each back,
	 * seen XSEEN_INTERRUPTED. */
	void (*cancel)(void *ctx);
	/* How many runs may be under way at once (1 or more), now that x->runs[0] is known. */
	int (*slots)(void *ctx, const struct explore *x);
	/* Say what r showed (a line on a terminal), running: runs still under way; may be
	 * NULL. */
	void (*progress)(void *ctx, const struct explore *x, const struct xrun *r, int running);
	void *ctx;
};

struct explore {
	/* options */
	const char *outdir; /* absolute */
	struct mpiv_buffering modes[EXPLORE_MAX_MODES];
	int nmodes;
	int max_runs;
	double time_limit; /* seconds, from explore_loop()'s start */
	long max_states;
	long memory_mb; /* what the model of the runs and its search may hold (--memory-limit) */
	unsigned model_flags; /* how the model takes what its runs show (enum xmodel_flags) */
	/* the signal that should end verify (SIGINT, SIGTERM), 0 if none: polled by the long
	 * phases (a search); NULL: none */
	int (*interrupted)(void);
	/* state */
	double started; /* mpiv_now() when explore_loop() began */
	struct xrun **runs;
	int nruns; /* runs that count, in the order they were asked for */
	size_t capruns;
	int made;     /* runs started, cancelled ones included: numbers them */
	int rounds;   /* searches that asked for runs */
	char **tried; /* the steering of every run made */
	int ntried;
	size_t captried;
	struct xdeadlock *found;
	int nfound;
	size_t capfound;
	int refuted; /* model deadlocks whose run took another path */
	/* model deadlocks whose run completed on their path: refuted if the next search, with
	 * that run in its model, no longer has them, else unconfirmed (explore_settle()) */
	struct xrun **doubted;
	int ndoubted;
	size_t capdoubted;
	struct xunconfirmed *unconfirmed;
	int nunconfirmed;
	size_t capunconfirmed;
	int explored;	    /* frontier runs made */
	int lost;	    /* runs lost with their node (left, never a verdict) */
	int left;	    /* items left when it stopped early */
	char left_why[128]; /* why it stopped early, "" if it did not */
	int incomplete;	    /* a search was cut short */
	char incomplete_why[256];
	int signal;  /* a search was ended by this signal (explore.interrupted) */
	long states; /* states of the last searches, summed over modes */
	int merged;  /* the last model was one of every run (else one per run) */
	/* the trace directory of a first run whose ranks call MPI from several threads with
	 * choices that steering cannot make (explore_threads_steered()): explore cannot take
	 * it, and the answer is then verify_threaded()'s; NULL if none */
	const char *threaded_run;
	/* why a later run of threads may stand for runs that none made (the first reason
	 * found; "" if none): a run whose threads have such choices, or one that did not take
	 * the decisions it was steered to; never then "no deadlock" */
	char threads_why[1200];
	/* why a run showed a rank polling several receives in turn (explore_poll_turns(), the
	 * first reason found; "" if none): never then "no deadlock" */
	char polls_why[1200];
	char unmerged_why[512]; /* why not (an error's text) */
};

/* ---- explore.c ---- */

/* After a search: settle the model deadlocks whose run completed on their path. A run that
 * completes the path shows the model what it missed (a loop's exit is not where the fold put
 * it): the deadlock is refuted if the search of the model with that run no longer has it,
 * and unconfirmed if it asked for the same run again, or was cut short. */
void explore_settle(struct explore *x);

/* Explore until nothing is left or a limit: x's options set, its state zeroed. Returns the
 * exit code: MPIV_EXIT_DEADLOCK (a run showed one), MPIV_EXIT_OK (none on any path, every
 * decision explored), MPIV_EXIT_INCONCLUSIVE, or the code of an error (a message said it). */
int explore_loop(struct explore *x, const struct explore_runner *runner);

/* The rank of ts that stopped of itself (a signal of its own, MPI_Abort, an exit without
 * MPI_Finalize: a crash of the program), its stop into s; -1 if none did. */
int explore_crash_rank(const struct mpiv_traceset *ts, struct tr_stop *s);

/* Whether the exploration covered every path: no decision left, no search cut short, no
 * model deadlock a run neither confirmed nor refuted, no rank that stopped in a run, no run
 * of threads that may stand for runs none made (threads_why), no run that polled receives in
 * turn (polls_why). Without
 * it, verify never answers "no deadlock" (nor 0 once suppressions hide every deadlock). */
int explore_whole(const struct explore *x);

/* The runs in which some rank's calls were left out (struct xrun's left_out). */
int explore_left_out(const struct explore *x);

/* Free what x holds. */
void explore_release(struct explore *x);

/* ---- poll_turns.c ---- */

/* Does a rank of ts poll several receives in turn, acting on which finds a message first (a
 * decision no run is steered to)? 1 with why filled (size bytes), else 0. */
int explore_poll_turns(const struct mpiv_traceset *ts, char *why, size_t size);

void xrun_free(struct xrun *r);

/* ---- explore_search.c ---- */

/* Translate run r's trace for verify (r->usable set on success). Returns 0, or an exit code
 * after an error message (a trace verify cannot judge). */
int explore_add_path(struct explore *x, struct xrun *r);

/* Note that run r of a program of threads may stand for runs none made, and why (the first
 * reason stays). */
void explore_threads_unsteered(struct explore *x, const struct xrun *r, const char *why);

/* Search the model of every usable run in each mode; the runs it asks for, not made yet,
 * deadlocks first, into *items (malloc'ed, *n of them). Returns 0, or an exit code. */
int explore_search(struct explore *x, struct xitem **items, int *n);

void xitem_release(struct xitem *it);

/* Is --time-limit spent? */
int explore_out_of_time(const struct explore *x);

/* ---- explore_describe.c ---- */

/* "MPI_Recv(source=ANY, tag=0, comm=WORLD, 4 bytes) at app.c:40 (main)": rank r's event e of
 * ts, into buf. */
void explore_event_where(const struct mpiv_traceset *ts, int r, long e, char *buf, size_t size);

/* The decisions run r was steered with (none for the first run), a line each, at the call
 * that made it in the run's own trace: "rank 0: MPI_Recv(...) at app.c:20 (main) takes rank
 * 2's message", or "... completes the request of MPI_Irecv(...) at app.c:31 (main)". */
void explore_print_decisions(FILE *f, const struct xrun *r, const char *indent);

/* ---- stuck.c ---- */

/* Whether a run still under way, every rank blocked in a call or finished, is deadlocked for
 * good: ts, its ranks' traces so far (each blocked call written, incomplete, last; its meta
 * is replaced by what record writes of such a hang), walked along the run's own path in its
 * model, ends with no choice left, collectives free to complete early and standard sends
 * buffered as the run had them (item's mode where item, a deadlock to confirm, forced them;
 * else up to the library's eager threshold, or all of them where that is unknown). Whatever
 * the library could still do, the model could: a message on its way, a long collective, a
 * send its receive has matched leave a choice. A rank that may have another thread about to
 * call MPI (MPI_THREAD_MULTIPLE) cannot be judged so. Returns 1 if so, 0 if not or if it
 * cannot tell. */
int explore_stuck_now(struct mpiv_traceset *ts, const struct xitem *item);

/* ---- threads_fixed.c ---- */

/* Whether run ts, whose ranks call MPI from several threads, stands for every run whatever
 * the threads' timing: none of its calls is a decision (mpiv_event_decision(); a receive
 * naming MPI_ANY_SOURCE), and the calls of a rank that could meet the same message (its
 * sends to one rank with one tag, its receives and probes from one rank with one tag, with
 * every tag where the receiver names MPI_ANY_TAG, its collectives on one communicator) are
 * ordered by the program: made by one thread, or by threads that pthread_create and
 * pthread_join order (doc/semantics.md 1.3). Then every run makes this run's calls and each
 * receive takes the message it took here, so this run's model is every run's. Returns 1 if
 * so; 0 with why filled: the first call found that leaves a choice, where it is and why. */
int explore_threads_fixed(const struct mpiv_traceset *ts, char *why, size_t size);

/* Whether run ts stands for every run that takes its decisions as it did, which verify's
 * runs, steered thread by thread, then cover: as explore_threads_fixed(), but a decision is
 * no choice where verify can steer it (a wildcard receive's or probe's in a thread whose
 * path the trace holds, base/steer.h; a completion's in a rank whose requests are all one
 * thread's), and every receive and probe of a rank on a communicator where it receives from
 * MPI_ANY_SOURCE must be ordered with the others (a wildcard receive steered to a sender
 * still competes with the rank's receives from it). Returns 1 if so; 0 with why filled. */
int explore_threads_steered(const struct mpiv_traceset *ts, char *why, size_t size);

/* ---- explore_key.c ---- */

/* A deadlock's key: the calls its ranks are blocked in (call and site, whichever rank), but
 * standard sends (left waiting for their receiver: the deadlock's consequence) unless every
 * blocked call is one; sorted, each once, as "CALL@MODULE+0xADDR;". Two deadlocks are the
 * same when one's calls are among the other's (the same stuck calls, some ranks stuck
 * further or elsewhere by the buffering or the order of matches). Runs and the model key
 * deadlocks the same way: xkey_open(), xkey_rank() for each blocked rank, xkey_close(). */
struct xkey {
	char **all, **core;
	size_t nall, ncore, capall, capcore;
};
void xkey_open(struct xkey *k);
void xkey_rank(struct xkey *k, unsigned call, const char *module, uint64_t addr);
char *xkey_close(struct xkey *k); /* malloc'ed */
int xkey_same(const char *a, const char *b);

/* Has a run confirmed a deadlock with this key (the same calls stuck)? */
int explore_known(const struct explore *x, const char *key);

#endif
