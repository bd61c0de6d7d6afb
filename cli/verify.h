/* `mpiverify verify` (cmd_verify.c): its options and the parts of cli/ that serve the
 * exploration of explore/ (explore.h): the runner that makes each run (verify_run.c) and the
 * answer (verify_report.c). */
#ifndef MPIV_VERIFY_H
#define MPIV_VERIFY_H

#include "explore.h"
#include "record_run.h"

struct verify_opts {
	char **command;		/* launcher and arguments */
	struct preload preload;	/* the recorder for command, picked once for every run */
	double timeout;		/* --deadlock-timeout of each run */
	int json;		/* --json */
	int tty;		/* stderr is a terminal: a line per run */
};

/* explore_runner.run: one run under the recorder (ctx: the struct verify_opts). */
int verify_run(void *ctx, struct explore *x, struct xrun *r);

/* explore_runner.progress: a line per run, on stderr when it is a terminal. */
void verify_progress(void *ctx, const struct explore *x, const struct xrun *r);

/* The answer (exit code rc), as text on stdout or as JSON. */
void verify_report(const struct verify_opts *o, const struct explore *x, int rc);

#endif
