/* verify's search of the program of its runs (tr_explore.c): every state reachable, depth first,
 * each stored once, to the frontiers (a branch with an input no run took) and the deadlocks.
 * For explore/ alone; check's search is tr_check.h's. */
#ifndef MPIV_TR_EXPLORE_H
#define MPIV_TR_EXPLORE_H

#include "translate.h"

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

#endif
