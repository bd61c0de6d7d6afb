/* One run of the user's job under a preload library (job.h): what record and replay share
 * between parsing their options and saying what the run means. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "environment.h"
#include "exit.h"
#include "job.h"
#include "nodes.h"
#include "outdir.h"
#include "xalloc.h"

#define JOB_MAX_VARS 8 /* variables a command sets for its ranks, the job's own included */

void job_init(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->lock = -1;
	monitor_result_release(&j->res);
}

int job_prepare_dir(struct job *j, const char *dir, const char *const *stale)
{
	j->dir = outdir_prepare(dir, stale, &j->lock);
	return j->dir ? 0 : MPIV_EXIT_BAD_INPUT;
}

/* The launcher's list of variables to pass to the ranks (j->mpi->forward_env): the user's own
 * list, then LD_PRELOAD and the names of all (n of them). Returns it, malloc'ed. */
static char *forward_list(const struct job *j, const struct launch_var *all, int n)
{
	const char *old = getenv(j->mpi->forward_env);
	char *list = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&list, &len);
	int i;

	if (!f)
		die(MPIV_EXIT_TOOL, "out of memory");
	if (old && *old)
		fprintf(f, "%s%c", old, j->mpi->forward_sep);
	fprintf(f, "LD_PRELOAD");
	for (i = 0; i < n; i++)
		fprintf(f, "%c%s", j->mpi->forward_sep, all[i].name);
	fclose(f);
	return list;
}

int job_start(struct job *j, const struct preload *p, char *const *command,
	      const struct launch_var *vars, double timeout)
{
	struct launch_var all[JOB_MAX_VARS];
	const char **dirs;
	char *forward = NULL;
	int n = 0, k = 0, rc, saved;

	free(j->lib);
	j->lib = xstrdup(p->lib);
	j->mpi = p->mpi;
	if (nodes_active(command)) {
		/* the ranks write their status where they run; the nodes' helpers read it */
		j->status_dir = nodes_status_dir(j->dir);
		while (j->put_dirs && j->put_dirs[k])
			k++;
		dirs = xcalloc((size_t)k + 2, sizeof(*dirs));
		if (k)
			memcpy(dirs, j->put_dirs, (size_t)k * sizeof(*dirs));
		dirs[k] = j->status_dir;
		n = nodes_put(dirs, j->put_files);
		free(dirs);
		if (n < 0)
			return MPIV_EXIT_TOOL;
		j->nodes = xcalloc(1, sizeof(*j->nodes));
	} else {
		j->status_dir = xstrdup(j->dir);
	}
	n = 0;
	all[n].name = MPIV_ENV_STATUS_DIR;
	all[n++].value = j->status_dir;
	for (; vars && vars->name; vars++) {
		if (n == JOB_MAX_VARS - 2)
			BUG("more variables for the job than JOB_MAX_VARS");
		all[n++] = *vars;
	}
	if (j->mpi && j->mpi->forward_env) {
		forward = forward_list(j, all, n);
		all[n].name = j->mpi->forward_env;
		all[n++].value = forward;
	}
	all[n].name = NULL;
	all[n].value = NULL;
	j->timeout = timeout;
	/* the nodes' helpers first, the job's step once they run (nodes_watch_start()) */
	if (j->nodes && nodes_watch_start(j->nodes, j->status_dir, timeout) < 0) {
		warning("hangs cannot be detected across the nodes: the job runs until it ends");
		free(j->nodes);
		j->nodes = NULL;
	}
	rc = launch_start(&j->launch, command, j->lib, all, j->status_dir);
	saved = errno;
	free(forward);
	errno = saved;
	if (rc < 0 && j->nodes) {
		nodes_watch_stop(j->nodes);
		free(j->nodes);
		j->nodes = NULL;
	}
	if (rc < 0) {
		if (errno == EINVAL)
			error("cannot preload '%s': LD_PRELOAD cannot hold a path with ':' or a "
			      "space",
			      j->lib);
		else
			error("cannot run '%s': %s", command[0], strerror(errno));
		return MPIV_EXIT_TOOL;
	}
	j->started = 1;
	j->launch.sink = j->sink;
	return 0;
}

const struct monitor_result *job_watch(struct job *j)
{
	char peek[4200];

	if (j->nodes && j->expect && j->expect->n) {
		/* verify's expected deadlock: where each rank sits is gathered to see it */
		snprintf(peek, sizeof(peek), "%s/.peek", j->dir);
		j->nodes->peek_dir = xstrdup(peek);
	}
	monitor_run(&j->launch, j->status_dir, j->timeout, j->expect, j->nodes, &j->res);
	if (!j->nodes)
		return &j->res;
	nodes_watch_stop(j->nodes);
	free(j->nodes);
	j->nodes = NULL;
	/* the ranks' files are final once they are gone */
	job_end(j);
	if (nodes_get(j->dir, j->status_dir) < 0)
		warning("the files of some nodes could not be gathered into '%s'", j->dir);
	monitor_rescan(j->dir, &j->res);
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
	free(j->status_dir);
	if (j->lock >= 0)
		close(j->lock); /* the directory is free for the next run */
	j->lock = -1;
	memset(j, 0, sizeof(*j));
}
