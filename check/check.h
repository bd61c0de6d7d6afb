/* check's room: the traces of one run searched for deadlocks in every buffering mode asked
 * for. The plan of the modes (with the twins whose collectives synchronise, and the library's
 * eager threshold), check's own pass a segment at a time or over the whole program, SPIN's
 * searches side by side (search_pool.c, spin_run.c), one counterexample per distinct
 * deadlock, each classified by the modes that found it and whether the recorded run leads
 * there, and the verdict. check_traces() returns it all as a struct check_result; the
 * command (cli/cmd_check.c) prints and writes it. */
#ifndef MPIV_CHECK_H
#define MPIV_CHECK_H

#include <limits.h>

#include "cex.h"
#include "error.h"
#include "trace.h"
#include "translate.h"
#include "tr_check.h"

/* zero, infinite and eager, the buffered ones each with its twin whose collectives
 * synchronise */
#define CHECK_MAX_MODES 5

/* One buffering mode to search. */
struct check_mode {
	struct mpiv_buffering b;
	/* mpiv_buffering_name(): "zero", "eager-65536"; also its
	 * subdirectory of the output directory */
	char name[32];
};

/* What the command line asks for. */
struct check_plan {
	const char *dir; /* the trace directory */
	const char *out; /* the output directory; NULL for DIR/check */
	struct check_mode modes[CHECK_MAX_MODES];
	int nmodes;
	int all;	/* --buffering all: each deadlock classified, the library's threshold too */
	double seconds; /* time limit of each search; 0: none */
	long memory_mb; /* memory limit of each search, the program it walks included */
	int full;	/* --full-search: without the reductions */
	int swarm;	/* --swarm N, 0 without */
};

/* The modes a --buffering argument names, into plan. Returns 0, or -1 if arg names none. */
int check_plan_modes(struct check_plan *plan, const char *arg);

/* How one mode's search ended. */
struct check_search {
	char mode[32];	/* struct check_mode's name */
	int complete;	/* every state was visited */
	char why[1024]; /* when not complete: what cut it short */
	long long states;
	int deadlock_states;
};

struct check_result {
	struct mpiv_traceset ts;
	/* the whole run's program; NULL for one checked a segment at a time, which found no
	 * deadlock and every rank of which finished */
	struct eng_prog *prog;
	char outdir[PATH_MAX]; /* absolute */
	/* the searches made, as the plan's modes became (with twins), in its order */
	struct check_search searches[CHECK_MAX_MODES];
	int nsearches;
	char modes[CHECK_MAX_MODES * 34]; /* "zero, infinite": their names */
	struct tr_deadlocks found;	  /* each with its cex.json, cex-2.json, ... */
	int incomplete;			  /* some search was cut short */
	struct tr_warning *warns;	  /* the recorded run's warnings */
	int nwarns;
	/* checked a segment at a time: how many, and the events of the longest; 0: as one
	 * program */
	int segments;
	size_t most;
	/* a failure: the signal check was told to stop by (its exit status is 128 + it), or 0
	 * for err's */
	int signal;
	struct eng_prog prog_store; /* what prog points to */
};

/* Check the traces of plan->dir in plan's modes (which it may add to: the library's eager
 * threshold with plan->all, and twins). Returns the verdict, MPIV_EXIT_OK, _DEADLOCK or
 * _INCONCLUSIVE, with res filled (release it with check_result_release()); or -1 with err
 * filled, or res->signal set, and res released. */
int check_traces(struct check_plan *plan, struct check_result *res, struct mpiv_error *err);
void check_result_release(struct check_result *res);

/* --promela PATH: the standalone Promela model of the traces in dir, in buffering b, into
 * path ("-": standard output; a file is removed again if it could not be written whole).
 * Returns 0, or -1 with err filled. */
int check_promela(const char *path, const char *dir, const struct mpiv_buffering *b,
		  struct mpiv_error *err);

/* Where check puts the i-th (from 1) distinct deadlock's counterexample in outdir: cex.json,
 * cex-2.json, ... (malloc'ed). */
char *cex_path(const char *outdir, int i);

#endif
