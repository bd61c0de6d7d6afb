/* `mpiverify verify` (cmd_verify.c): its options and the parts of cli/ that serve the
 * exploration of explore/ (explore.h): the runner that makes each run (verify_run.c) and the
 * answer (verify_report.c). */
#ifndef MPIV_VERIFY_H
#define MPIV_VERIFY_H

#include "explore.h"
#include "findings.h"
#include "record_run.h"

struct verify_opts {
	char **command;		       /* launcher and arguments (srun's with --exact: slurm.h) */
	struct preload preload;	       /* the recorder for command, picked once for every run */
	int jobs;		       /* --jobs: runs at once; 0: as many as the CPUs hold */
	int slurm;		       /* the launcher is srun: runs are job steps */
	double timeout;		       /* --deadlock-timeout of each run */
	struct findings_opts findings; /* --json, --sarif, --suppressions, ... */
	int tty;		       /* stderr is a terminal: a line per run */
	const char *buffering;	       /* --buffering as given ("all" if not) */
};

/* One run under the recorder (ctx: the struct verify_opts), as the explore_runner's start
 * describes it, made to its end in this process; a job step lost with its node is made once
 * more, and XSEEN_LOST if it is lost again. Returns 0, or -1 when the job could not run or
 * wrote no trace (a message said why). */
int verify_run(void *ctx, struct explore *x, struct xrun *r);

/* explore_runner.progress: a line per run, on stderr when it is a terminal, with the runs
 * still under way. */
void verify_progress(void *ctx, const struct explore *x, const struct xrun *r, int running);

/* ---- verify_pool.c: the runs side by side, each in a child process (ctx: the options) ---- */

/* Take SIGINT, SIGTERM and SIGHUP as a flag, passed on to the runs under way. */
void verify_pool_init(void);

/* The signal (SIGINT, SIGTERM, SIGHUP) mpiverify got since verify_pool_init(), 0 if none:
 * explore's long phases poll it (struct explore, interrupted). */
int verify_pool_interrupted(void);

/* explore_runner.start, .wait, .cancel and .slots (explore.h). slots: --jobs, else as many
 * runs as the CPUs (of the Slurm allocation, when the runs are job steps) hold given the
 * ranks of the first run, at least 1. */
int verify_start(void *ctx, struct explore *x, struct xrun *r);
struct xrun *verify_wait(void *ctx, struct explore *x, double deadline);
void verify_cancel(void *ctx);
int verify_slots(void *ctx, const struct explore *x);

/* ---- verify_threads.c: a program whose ranks call MPI from several threads ---- */

/* The answer for such a program from its first run, in run_dir: its model searched (check,
 * into outdir/check) and each deadlock replayed (outdir/replay-N). Returns
 * MPIV_EXIT_DEADLOCK when replay reproduced one, MPIV_EXIT_INCONCLUSIVE otherwise, or the
 * exit code of an error or a signal (a message said it). */
int verify_threaded(const struct verify_opts *o, const char *outdir, const char *run_dir);

/* The answer (exit code rc of the exploration) as text, JSON or SARIF on stdout, and the
 * report files in x's output directory. Returns the exit status once suppressions hid what
 * they hide. */
int verify_report(const struct verify_opts *o, const struct explore *x, int rc);

#endif
