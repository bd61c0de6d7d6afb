/* mpiverify verify (doc/verify.md): record a run, search the model of every run so far for
 * deadlocks and for decisions no run took yet (frontiers), run the program again steered to
 * each, until none is left; report the deadlocks the real MPI library confirmed.
 *
 *	cmd_verify.c	options, the loop, the verdict
 *	verify_search.c	the runs' model, its search, the runs it asks for (items)
 *	verify_run.c	one steered run and what it showed
 *	verify_report.c	the answer, as text and as JSON
 */
#ifndef MPIV_VERIFY_H
#define MPIV_VERIFY_H

#include <stdio.h>

#include "cex.h"
#include "record_run.h"
#include "translate.h"

#define VERIFY_MAX_MODES 3

/* What a run asks of the program, and why. */
enum vitem_kind {
	VITEM_DEADLOCK,		/* confirm a deadlock of the model */
	VITEM_FRONTIER,		/* explore a decision no run took */
};

struct vitem {
	enum vitem_kind kind;
	char *steer;		/* the steering file's text */
	struct mpiv_buffering mode;	/* VITEM_DEADLOCK: the buffering it was found with */
	int nranks;
	int *call;		/* VITEM_DEADLOCK: per rank, the call the model has it blocked
				 * in (enum mpiv_call), -1 if it finishes */
	long *event;		/* VITEM_DEADLOCK: per rank, that call's event index in the
				 * trace the model took it from (where the run's should be) */
	char *what;		/* one line: where the model's ranks are blocked, or which
				 * decision is explored ("rank 0's MPI_Recv at app.c:40 takes
				 * rank 2's message") */
	char *places;		/* VITEM_DEADLOCK: its key (vsig) */
	int error;		/* an erroneous call of the model rather than a deadlock */
};

/* How a run ended, as verify counts it. */
enum vrun_end {
	VRUN_COMPLETED,		/* the program ran to its end */
	VRUN_CONFIRMED,		/* it deadlocked where the model said */
	VRUN_HUNG,		/* it deadlocked (somewhere else): a deadlock all the same */
	VRUN_PINNED,		/* it hung only because steering pinned a receive that could
				 * have taken another message: the path is not the program's */
	VRUN_STOPPED,		/* a rank crashed, aborted or exited without MPI_Finalize */
	VRUN_FAILED,		/* the run could not be made (tool error) */
	VRUN_INTERRUPTED,
};

struct vrun {
	int index;		/* 1, 2, ... */
	char *dir;		/* its trace directory */
	char *steer_path;	/* its steering file, NULL for the first run */
	struct vitem *item;	/* what it was for (owned), NULL for the first run */
	enum vrun_end end;
	int left;		/* some rank left the steered path (steering stopped) */
	char *report;		/* a hang: every rank's blocked call and stack */
	char *hang_sig;		/* a hang: its key (vsig) */
	char *stopped;		/* VRUN_STOPPED: how (one line) */
	int usable;		/* its trace is a path of the program, in the model */
	struct mpiv_traceset ts;	/* usable: the trace */
	struct eng_prog prog;	/* usable: its verify program, inputs filled */
};

/* A deadlock confirmed on the real MPI library. */
struct vdeadlock {
	struct vrun *run;	/* the run that deadlocked */
	char *mode;		/* the buffering it was forced with: "zero", ... or "as the
				 * library does" */
	int predicted;		/* the model predicted it (1) or a run came upon it (0) */
};

/* A model's deadlock the real program did not show. */
struct vunconfirmed {
	struct vrun *run;
	const char *why;
};

struct verify {
	/* options */
	const char *outdir;	/* absolute */
	char **command;
	struct mpiv_buffering modes[VERIFY_MAX_MODES];
	int nmodes;
	int max_runs;
	double time_limit, timeout, started;
	long max_states;
	int json, tty;
	/* state */
	struct vrun **runs;
	int nruns;
	size_t capruns;
	char **tried;		/* the steering of every run made */
	int ntried;
	size_t captried;
	struct vdeadlock *found;
	int nfound;
	size_t capfound;
	int refuted;		/* model deadlocks whose run took another path */
	struct vunconfirmed *unconfirmed;
	int nunconfirmed;
	size_t capunconfirmed;
	int explored;		/* frontier runs made */
	int left;		/* items left when verify stopped early */
	char left_why[128];	/* why it stopped early, "" if it did not */
	int incomplete;		/* a search was cut short */
	char incomplete_why[256];
	long states;		/* states of the last searches, summed over modes */
	int merged;		/* the last model was one of every run (else one per run) */
	char unmerged_why[160];
};

/* ---- verify_search.c ---- */

/* Translate run r's trace for verify (r->usable set on success). Returns 0, or an exit code
 * after an error message (a trace check cannot judge). */
int verify_add_path(struct verify *v, struct vrun *r);

/* Search the model of every usable run in each mode; the runs it asks for, not made yet,
 * deadlocks first, into *items (malloc'ed, *n of them). Returns 0, or an exit code. */
int verify_search(struct verify *v, struct vitem **items, int *n);

void vitem_release(struct vitem *it);

/* ---- verify_run.c ---- */

/* A deadlock's key: the calls its ranks are blocked in (call and site, whichever rank), but
 * standard sends (left waiting for their receiver: the deadlock's consequence) unless every
 * blocked call is one; sorted, each once, as "CALL@MODULE+0xADDR;". Two deadlocks are the
 * same when one's calls are among the other's (the same stuck calls, some ranks stuck
 * further or elsewhere by the buffering or the order of matches). Runs and the model key
 * deadlocks the same way: vsig_open(), vsig_rank() for each blocked rank, vsig_close(). */
struct vsig {
	char **all, **core;
	size_t nall, ncore, capall, capcore;
};
void vsig_open(struct vsig *s);
void vsig_rank(struct vsig *s, unsigned call, const char *module, uint64_t addr);
char *vsig_close(struct vsig *s);	/* malloc'ed */
int vsig_same(const char *a, const char *b);

/* Make run number index for item (NULL: the first, unsteered). Returns the run (added to v),
 * or NULL after a tool error (message printed). */
struct vrun *verify_run(struct verify *v, struct vitem *item);

void vrun_free(struct vrun *r);

/* ---- verify_report.c ---- */

/* The progress line of run r, on stderr when it is a terminal. */
void verify_progress(const struct verify *v, const struct vrun *r);

/* The answer (exit code rc), as text on stdout or as JSON. */
void verify_report(const struct verify *v, int rc);

#endif
