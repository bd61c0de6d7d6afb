/* Running SPIN for check: spin -a on the model, the C compiler on pan.c, ./pan on the model
 * data, and ./pan -r on each trail to get the choices back. Everything runs inside the
 * output directory, whose path must be absolute (pan runs in a subdirectory of it); no shell
 * is involved. */
#ifndef MPIV_SPIN_RUN_H
#define MPIV_SPIN_RUN_H

#include "error.h"

struct spin_result {
	int complete;		/* the whole state space was explored */
	char why[256];		/* when not complete: what cut the search short */
	int errors;		/* pan's "errors: N" */
	long states;		/* states stored */
	double seconds;		/* pan's elapsed time */
	char **trails;		/* trail file names, in the order pan wrote them */
	int ntrails;
};

/* spin -a model.pml and cc pan.c into outdir/pan, for an engine state of `words` int32
 * words, pan stopping at memory_mb megabytes. Returns 0, or -1 with err filled (TOOL; the log
 * file is named). */
int spin_build(const char *outdir, long words, long memory_mb, struct mpiv_error *err);

/* Run outdir/pan in workdir (which holds model.dat), keeping at most max_trails error
 * trails, for at most seconds (0: no limit; at the limit the search is incomplete). depth bounds the search depth. Returns 0 (res filled), or -1 with err filled. */
int spin_search(const char *outdir, const char *workdir, long depth, int max_trails,
		double seconds, struct spin_result *res, struct mpiv_error *err);

/* Replay a trail with outdir/pan in workdir and collect the model's choices. Returns 0 with
 * *choices (malloc'd) and *n, or -1 with err filled. */
int spin_trail_choices(const char *outdir, const char *workdir, const char *trail,
		       int **choices, int *n, struct mpiv_error *err);

void spin_result_release(struct spin_result *res);

/* Make SIGINT, SIGTERM and SIGHUP stop check: a command running (spin, the C compiler, pan)
 * is ended with its process group and the spin_* call running it fails; with none running,
 * mpiverify says so and dies of the signal at once. */
void spin_catch_signals(void);

/* The stop signal received, 0 if none; when one was, "interrupted by signal N: search
 * stopped, no verdict" is printed (check then exits 128 + N). */
int spin_stopped(void);

#endif
