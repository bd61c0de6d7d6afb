/* One recorded run of the user's job (record_run.h): the recorder preloaded, the job watched
 * until it completes or hangs, meta.json written. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "environment.h"
#include "exit.h"
#include "job.h"
#include "record_run.h"
#include "status_file.h"
#include "trace.h"
#include "window_waits.h"
#include "xalloc.h"

/* What record last saw of rank r, as meta.json says it: its status file, read once more now
 * that the job is over (a rank that stopped fast was never seen by the monitor), and whether
 * the monitor saw it poll without progress. */
static void seen_of(const char *dir, const struct monitor_result *res, int r,
		    struct mpiv_meta_rank *mr)
{
	struct mpiv_status st;
	int polling = r < res->size && res->ranks[r].seen && res->ranks[r].polling;

	mr->seen = MPIV_SEEN_NONE;
	mr->event = -1;
	mr->call = -1;
	if (status_file_read(dir, r, &st) < 0)
		return;
	mr->event = st.op;
	switch (st.state) {
	case MPIV_ST_FINALIZED:
		mr->seen = MPIV_SEEN_FINALIZED;
		break;
	case MPIV_ST_IN_CALL:
		mr->seen = polling ? MPIV_SEEN_POLLING : MPIV_SEEN_IN_CALL;
		mr->call = (int)st.call;
		break;
	case MPIV_ST_RUNNING:
		mr->seen = polling ? MPIV_SEEN_POLLING : MPIV_SEEN_RUNNING;
		break;
	default:
		mr->event = -1;
		break;
	}
}

/* meta.json: the command, how the job ended and what record last saw of each rank, so that
 * check can tell a rank that stopped from one that finished. */
static int save_meta(const char *dir, char **command, int exit_status, int job,
		     const struct monitor_result *res)
{
	struct mpiv_meta meta;
	struct mpiv_error err;
	char cwd[PATH_MAX];
	int r, rc = 0;

	mpiv_error_init(&err);
	memset(&meta, 0, sizeof(meta));
	/* replay re-runs the command where it ran: its paths may be relative */
	meta.cwd = getcwd(cwd, sizeof(cwd));
	meta.command = command;
	meta.exit_status = exit_status;
	meta.job = job;
	meta.hung = job == MPIV_JOB_DEADLOCK || job == MPIV_JOB_NO_PROGRESS;
	meta.nranks = res->size > 0 ? res->size : status_file_size(dir);
	meta.ranks = xcalloc((size_t)meta.nranks + 1, sizeof(*meta.ranks));
	for (r = 0; r < meta.nranks; r++)
		seen_of(dir, res, r, &meta.ranks[r]);
	if (mpiv_meta_save(dir, &meta, &err) < 0) {
		error_report(&err);
		rc = -1;
	}
	free(meta.ranks);
	return rc;
}

/* Every rank's blocked call and stack, as monitor_report() prints them, into a string; with
 * --last, who waits for whom, from the windows (the report of a whole run leaves that to
 * check, which searches every order). */
static char *hang_report(const struct monitor_result *res, const char *dir, int windows)
{
	struct mpiv_traceset ts;
	struct mpiv_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	monitor_report(f, res, dir, NULL);
	if (windows) {
		mpiv_trace_windows_read = 1;
		mpiv_error_init(&err);
		if (mpiv_traceset_load(dir, &ts, &err) == 0) {
			mpiv_window_waits(f, &ts);
			mpiv_traceset_release(&ts);
		} else {
			fprintf(f, "who waits for whom: not known, a window does not read: %s\n",
				err.text);
		}
		mpiv_trace_windows_read = 0;
	}
	fclose(f);
	return text;
}

/* Did any rank write its trace into dir? Rank 0 may not have: the launcher can kill it before
 * its MPI_Init returned, once another rank aborted. */
static int any_rank_traced(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		char name[64];
		int rank, n = -1;

		if (sscanf(de->d_name, "rank-%d.%n", &rank, &n) != 1 || n < 0 || rank < 0)
			continue;
		snprintf(name, sizeof(name), MPIV_TRACE_BIN_FILE, rank);
		found = !strcmp(de->d_name, name);
		snprintf(name, sizeof(name), MPIV_TRACE_JSON_FILE, rank);
		found |= !strcmp(de->d_name, name);
	}
	closedir(d);
	return found;
}

int record_run(const struct record_opts *opts, struct record_result *r)
{
	static const char *const stale[] = {".mpivt", ".json", ".status", MPIV_META_FILE, NULL};
	const struct monitor_result *res;
	struct launch_var vars[7];
	const char *dirs[2] = {NULL, NULL}, *files[2] = {NULL, NULL};
	struct preload own;
	struct job job;
	int rc, end = MPIV_JOB_EXITED, status, n = 0;

	memset(r, 0, sizeof(*r));
	r->res.exit_code = -1;
	/* the ranks are steered, or check reductions, when the options say so, not when the
	 * variables leak in from the user's environment */
	if (!opts->steer)
		unsetenv(MPIV_ENV_STEER);
	if (!opts->reductions)
		unsetenv(MPIV_ENV_CHECK_REDUCTIONS);
	if (!opts->timestamps)
		unsetenv(MPIV_ENV_TIMESTAMPS);
	if (!opts->last)
		unsetenv(MPIV_ENV_LAST);
	if (!opts->calm)
		unsetenv(MPIV_ENV_CALM);
	memset(&own, 0, sizeof(own));
	job_init(&job);
	rc = opts->preload ? 0 : preload_pick(&own, opts->command, PRELOAD_RECORDER, opts->quiet);
	if (!rc)
		rc = job_prepare_dir(&job, opts->dir, stale);
	if (!rc) {
		vars[n].name = MPIV_ENV_TRACE_DIR;
		vars[n++].value = job.dir;
		if (opts->steer) {
			vars[n].name = MPIV_ENV_STEER;
			vars[n++].value = opts->steer;
		}
		if (opts->reductions) {
			vars[n].name = MPIV_ENV_CHECK_REDUCTIONS;
			vars[n++].value = opts->reductions;
		}
		if (opts->timestamps) {
			vars[n].name = MPIV_ENV_TIMESTAMPS;
			vars[n++].value = "1";
		}
		if (opts->last) {
			vars[n].name = MPIV_ENV_LAST;
			vars[n++].value = opts->last;
		}
		if (opts->calm) {
			vars[n].name = MPIV_ENV_CALM;
			vars[n++].value = "1";
		}
		vars[n].name = NULL;
		vars[n].value = NULL;
		job.sink = opts->sink;
		/* across nodes without a shared directory, each node gets it and the steering */
		dirs[0] = job.dir;
		files[0] = opts->steer;
		job.put_dirs = dirs;
		job.put_files = files;
		rc = job_start(&job, opts->preload ? opts->preload : &own, opts->command, vars,
			       opts->timeout);
	}
	preload_release(&own);
	if (rc) {
		job_release(&job);
		r->rc = rc;
		return rc;
	}

	job.expect = opts->expect;
	res = job_watch(&job);
	switch (res->outcome) {
	case MONITOR_DEADLOCK:
		if (!opts->quiet && res->npolling)
			warning("no progress: for %.0f s every rank has been blocked in MPI or "
				"polling without finding anything (%d polling): ending the job",
				res->stalled, res->npolling);
		else if (!opts->quiet && res->proven)
			inform("the recorded run deadlocked: every rank blocked for %.1f s, and "
			       "the traces so far show that no call can complete",
			       res->stalled);
		else if (!opts->quiet)
			inform("the recorded run deadlocked: every rank blocked for %.0f s",
			       res->stalled);
		/* the traces are read for the report only once the ranks are gone and their
		 * files final */
		job_end(&job);
		r->report = hang_report(res, job.dir, opts->last != NULL);
		if (!opts->quiet && r->report)
			fputs(r->report, stderr);
		end = res->npolling ? MPIV_JOB_NO_PROGRESS : MPIV_JOB_DEADLOCK;
		rc = MPIV_EXIT_DEADLOCK;
		/* what record exits with: the launcher's own status is that of a killed job */
		status = rc;
		break;
	case MONITOR_INTERRUPTED:
		inform("interrupted by signal %d: ending the job", res->signal);
		job_end(&job);
		end = MPIV_JOB_INTERRUPTED;
		rc = 128 + res->signal;
		status = rc;
		break;
	case MONITOR_DIVERGED:
	case MONITOR_FAILED:
		/* only the replayer reports divergence: its library is preloaded too */
		error("a rank reported a divergence while recording: is 'libreplayer.so' in "
		      "LD_PRELOAD?");
		job_end(&job);
		status = launch_exit_code(&job.launch);
		rc = MPIV_EXIT_TOOL;
		break;
	case MONITOR_COMPLETED:
	default:
		/* sweep up what the launcher may have left behind (normally nothing) */
		job_end(&job);
		status = res->exit_code;
		rc = status;
		break;
	}
	if (save_meta(job.dir, opts->command, status, end, res) < 0 && rc == MPIV_EXIT_OK)
		rc = MPIV_EXIT_BAD_INPUT;
	r->traced = any_rank_traced(job.dir);
	if (!r->traced && !res->size && status != 0 && end == MPIV_JOB_EXITED) {
		char how[128];

		/* the launcher refused to start the job (Open MPI's as root without
		 * --allow-run-as-root, more ranks than slots): it said why */
		launch_describe_exit(&job.launch, how, sizeof(how));
		error("no rank wrote a trace into '%s': the launcher '%s' failed (%s) before any "
		      "rank started under the recorder (what it said is above)",
		      job.dir, opts->command[0], how);
		rc = MPIV_EXIT_TOOL;
	} else if (!r->traced && end != MPIV_JOB_INTERRUPTED) {
		/* interrupted before a rank wrote: the signal is the answer, not a tool
		 * failure */
		error("no rank wrote a trace into '%s': is the program a dynamically linked "
		      "MPI program, and does the launcher pass LD_PRELOAD to the ranks?",
		      job.dir);
		rc = MPIV_EXIT_TOOL;
	}
	if (!opts->quiet)
		inform("traces in '%s'", job.dir);
	if (!opts->quiet && opts->last && r->traced)
		inform("each rank's trace keeps its last %ld to %ld calls (record --last): "
		       "'mpiverify trace' shows them; check needs the whole run",
		       strtol(opts->last, NULL, 10), 2 * strtol(opts->last, NULL, 10));
	r->rc = rc;
	r->job = end;
	r->status = status;
	r->dir = xstrdup(job.dir);
	/* the result keeps what the monitor saw; the job is done with it */
	r->res = job.res;
	memset(&job.res, 0, sizeof(job.res));
	job_release(&job);
	return rc;
}

void record_result_release(struct record_result *r)
{
	monitor_result_release(&r->res);
	free(r->report);
	free(r->dir);
	memset(r, 0, sizeof(*r));
}
