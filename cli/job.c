/* One run of the user's job under a preload library (job.h): what record and replay share
 * between parsing their options and saying what the run means. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "environment.h"
#include "exit.h"
#include "job.h"
#include "outdir.h"
#include "xalloc.h"

#define JOB_MAX_VARS 8		/* variables a command sets for its ranks, the job's own included */

int job_init(struct job *j, const char *lib, const char *what)
{
	memset(j, 0, sizeof(*j));
	j->lock = -1;
	monitor_result_release(&j->res);
	/* absolute, since ranks may start in another directory (mpiexec -wdir) */
	j->lib = realpath(lib, NULL);
	if (!j->lib) {
		error("cannot find the %s library '%s': %s", what, lib, strerror(errno));
		return MPIV_EXIT_TOOL;
	}
	return 0;
}

int job_prepare_dir(struct job *j, const char *dir, const char *const *stale)
{
	j->dir = outdir_prepare(dir, stale, &j->lock);
	return j->dir ? 0 : MPIV_EXIT_BAD_INPUT;
}

int job_start(struct job *j, char *const *command, const struct launch_var *vars)
{
	struct launch_var all[JOB_MAX_VARS];
	int n = 0;

	all[n].name = MPIV_ENV_STATUS_DIR;
	all[n++].value = j->dir;
	for (; vars && vars->name; vars++) {
		if (n == JOB_MAX_VARS - 1)
			BUG("more variables for the job than JOB_MAX_VARS");
		all[n++] = *vars;
	}
	all[n].name = NULL;
	all[n].value = NULL;
	if (launch_start(&j->launch, command, j->lib, all, j->dir) < 0) {
		if (errno == EINVAL)
			error("cannot preload '%s': LD_PRELOAD cannot hold a path with ':' or a "
			      "space", j->lib);
		else
			error("cannot run '%s': %s", command[0], strerror(errno));
		return MPIV_EXIT_TOOL;
	}
	j->started = 1;
	j->launch.sink = j->sink;
	return 0;
}

const struct monitor_result *job_watch(struct job *j, double timeout)
{
	monitor_run(&j->launch, j->dir, timeout, j->expect, &j->res);
	return &j->res;
}

void job_end(struct job *j)
{
	if (launch_end(&j->launch) < 0)
		warning("some processes of the job could not be ended");
}

void job_release(struct job *j)
{
	monitor_result_release(&j->res);
	if (j->started)
		launch_release(&j->launch);
	free(j->lib);
	free(j->dir);
	if (j->lock >= 0)
		close(j->lock);	/* the directory is free for the next run */
	j->lock = -1;
	memset(j, 0, sizeof(*j));
}
