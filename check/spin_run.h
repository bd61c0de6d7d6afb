/* Running SPIN for check: pan, the verifier, on the model data, and pan -r on each trail to get
 * the choices back. pan is prebuilt (`make` builds one for each of a few state sizes, see
 * Makefile.in) or, for a larger state, built by spin -a and the C compiler in the output
 * directory, whose path must be absolute (pan runs in a subdirectory of it); no shell is
 * involved. */
#ifndef MPIV_SPIN_RUN_H
#define MPIV_SPIN_RUN_H

#include <stddef.h>

#include "error.h"

struct spin_result {
	int complete;	/* the whole state space was explored */
	char why[256];	/* when not complete: what cut the search short */
	int errors;	/* pan's "errors: N" */
	long states;	/* states stored */
	double seconds; /* pan's elapsed time */
	char **trails;	/* trail file names, in the order pan wrote them */
	int ntrails;
	/* choices check's own pass made before the search began (each
	 * trail's choices follow them) */
	long lead;
	/* check's own pass decided the mode: no SPIN, no trails; errors
	 * is 1 if its path ends in a deadlock */
	int own;
};

/* The verifier for an engine state of `words` int32 words: the smallest prebuilt one with
 * room for them (mpiv_pan_dir()), else outdir/pan, built by spin -a and the C compiler from
 * the model's sources (mpiv_models_dir()). Writes its path into pan (size bytes). Returns 0,
 * or -1 with err filled (TOOL; the log file is named). */
int spin_verifier(const char *outdir, long words, char *pan, size_t size, struct mpiv_error *err);

/* The smallest prebuilt verifier with room for `words` state words, into pan (size bytes).
 * Returns 0, or -1 if there is none (spin_verifier() then builds one). */
int spin_prebuilt(long words, char *pan, size_t size);

/* Run the verifier pan in workdir (which holds model.dat), keeping at most max_trails error
 * trails, stopping at memory_mb megabytes or after seconds (0: no limit); depth bounds the
 * search depth. A search stopped by a limit is incomplete. Returns 0 (res filled), or -1
 * with err filled. */
int spin_search(const char *pan, const char *workdir, long depth, long memory_mb, int max_trails,
		double seconds, struct spin_result *res, struct mpiv_error *err);

/* The verifier for swarm searches (check --swarm): as spin_verifier() builds one, with
 * bitstate hashing and transition and process orders shuffled by a seed (SPIN's -DBITSTATE
 * -DT_RAND -DP_RAND), always built, in outdir/swarm. Its path goes into pan. Returns 0, or -1
 * with err filled. */
int spin_swarm_verifier(const char *outdir, long words, char *pan, size_t size,
			struct mpiv_error *err);

/* res->why of a swarm search that ran to its end: not cut short, yet not exhaustive */
#define SPIN_BITSTATE_WHY "a bitstate search is not exhaustive"

/* One search of a swarm, with the verifier spin_swarm_verifier() built: spin_search() as a
 * bitstate search (a bit array as large as half of memory_mb holds, up to 2^35 bits), its
 * order and hash function chosen by seed (0, 1, ...: each member a different one). It may
 * find deadlocks (each a real path of the model, as spin_search()'s), but it is never
 * complete: res->complete is 0, res->why says why. */
int spin_swarm_search(const char *pan, const char *workdir, long depth, long memory_mb,
		      int max_trails, double seconds, int seed, struct spin_result *res,
		      struct mpiv_error *err);

/* Replay a trail with the verifier pan in workdir and collect the model's choices. Returns 0
 * with *choices (malloc'd) and *n, or -1 with err filled. */
int spin_trail_choices(const char *pan, const char *workdir, const char *trail, int **choices,
		       int *n, struct mpiv_error *err);

void spin_result_release(struct spin_result *res);

/* Make SIGINT, SIGTERM and SIGHUP stop check: a command running (spin, the C compiler, pan)
 * is ended with its process group and the spin_* call running it fails; with none running,
 * mpiverify says so and dies of the signal at once. */
void spin_catch_signals(void);

/* The stop signal received, 0 if none; when one was, "interrupted by signal N: search
 * stopped, no verdict" is printed (check then exits 128 + N). */
int spin_stopped(void);

#endif
