/* `mpiverify verify` (cmd_verify.c): its options and the parts of cli/ that serve the
 * exploration of explore/ (explore.h): the runner that makes each run (verify_run.c) and the
 * answer (verify_report.c). */
#ifndef MPIV_VERIFY_H
#define MPIV_VERIFY_H

#include "explore.h"
#include "findings.h"
#include "record_run.h"

struct verify_opts {
	char **command;		/* launcher and arguments */
	double timeout;		/* --deadlock-timeout of each run */
	struct findings_opts findings;	/* --json, --sarif, --suppressions, ... */
	int tty;		/* stderr is a terminal: a line per run */
};

/* explore_runner.run: one run under the recorder (ctx: the struct verify_opts). */
int verify_run(void *ctx, struct explore *x, struct xrun *r);

/* explore_runner.progress: a line per run, on stderr when it is a terminal. */
void verify_progress(void *ctx, const struct explore *x, const struct xrun *r);

/* The answer (exit code rc of the exploration) as text, JSON or SARIF on stdout, and the
 * report files in x's output directory. Returns the exit status once suppressions hid what
 * they hide. */
int verify_report(const struct verify_opts *o, const struct explore *x, int rc);

#endif
