/* `mpiverify record`: the first stage of the pipeline. Runs the user's job under its real
 * launcher with the recorder preloaded (one trace per rank plus meta.json), passes the job's
 * exit status through, and ends the job if it really deadlocks. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "environment.h"
#include "job.h"
#include "paths.h"
#include "reduction.h"
#include "status_file.h"
#include "trace.h"
#include "xalloc.h"

#define DEFAULT_DIR "mpiverify-trace"
#define DEFAULT_TIMEOUT 30.0

static const char record_usage[] =
	"usage: mpiverify record [-o DIR] [--deadlock-timeout SEC] [--check-reductions[=TOL|correct]]\n"
	"                        [--] LAUNCHER [ARGS...]\n";

static void record_help(void)
{
	printf("%s", record_usage);
	printf("\nRun LAUNCHER ARGS (for example: mpirun -np 4 ./app) with the recorder preloaded\n"
	       "into every rank. Each rank writes its MPI calls to DIR/rank-N.mpivt; DIR/meta.json\n"
	       "keeps the command, its exit status and whether the run hung. The program's output\n"
	       "and exit status pass through.\n"
	       "\noptions:\n"
	       "  -o, --output DIR            trace directory, created if missing (default\n"
	       "                              ./" DEFAULT_DIR "); earlier traces in it are removed\n"
	       "      --deadlock-timeout SEC  end the job as deadlocked when every rank has been\n"
	       "                              blocked in MPI, polling (MPI_Test*, MPI_Iprobe)\n"
	       "                              without finding anything, or finished, without\n"
	       "                              progress for SEC seconds (default %g)\n"
	       "      --check-reductions[=TOL|correct]\n"
	       "                              compute every reduction a second time, by plain\n"
	       "                              messages combined in rank order, and report a\n"
	       "                              result of the library that differs (floating-point\n"
	       "                              sums and products: by more than rounding allows, or\n"
	       "                              by more than TOL relative to their magnitude);\n"
	       "                              correct: also write the reliable result over it\n"
	       "                              (both: correct,TOL)\n"
	       "  -h, --help                  show this help\n"
	       "\nexit status:\n"
	       "  the program's own (128+N if the launcher was killed by signal N), or\n"
	       "  1  the run deadlocked or made no progress: every rank's blocked or polling\n"
	       "     call is reported, the job ended\n"
	       "  2  usage error\n"
	       "  3  DIR cannot be created or written\n"
	       "  4  the launcher or the recorder library cannot be run, or no rank wrote a\n"
	       "     trace\n",
	       DEFAULT_TIMEOUT);
}

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

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"deadlock-timeout", required_argument, NULL, 'T'},
		{"check-reductions", optional_argument, NULL, 'R'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char *const stale[] = {".mpivt", ".json", ".status", MPIV_META_FILE, NULL};
	const char *out = DEFAULT_DIR;
	double timeout = DEFAULT_TIMEOUT;
	const char *reductions = NULL;	/* --check-reductions' value, "detect" if none */
	struct mpiv_red_opts red;
	const struct monitor_result *res;
	struct launch_var vars[3];
	struct job job;
	char **command, path[4200];
	int c, rc, end = MPIV_JOB_EXITED, status;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'T':
			if (parse_seconds(optarg, &timeout) < 0)
				return usage_error("record", "invalid --deadlock-timeout '%s': "
						   "expected a positive number of seconds", optarg);
			break;
		case 'R':
			reductions = optarg ? optarg : "detect";
			if (mpiv_red_opts_parse(reductions, &red) < 0)
				return usage_error("record", "invalid --check-reductions '%s': "
						   "expected a tolerance (a number >= 0), 'correct' "
						   "or both, separated by a comma", reductions);
			break;
		case 'h':
			record_help();
			return MPIV_EXIT_OK;
		default:
			return option_error("record", c, argv);
		}
	}
	if (optind >= argc)
		return usage_error("record", "no launcher command given (for example: "
				   "mpiverify record -- mpirun -np 2 ./app)");
	if (!*out)
		return usage_error("record", "empty output directory name");
	command = argv + optind;

	/* the ranks check reductions when the option says so, not when the variable leaks in */
	if (!reductions)
		unsetenv(MPIV_ENV_CHECK_REDUCTIONS);
	rc = job_init(&job, mpiv_recorder_lib(), "recorder");
	if (!rc)
		rc = job_prepare_dir(&job, out, stale);
	if (!rc) {
		vars[0].name = MPIV_ENV_TRACE_DIR;
		vars[0].value = job.dir;
		vars[1].name = reductions ? MPIV_ENV_CHECK_REDUCTIONS : NULL;
		vars[1].value = reductions;
		vars[2].name = NULL;
		vars[2].value = NULL;
		rc = job_start(&job, command, vars);
	}
	if (rc) {
		job_release(&job);
		return rc;
	}

	res = job_watch(&job, timeout);
	switch (res->outcome) {
	case MONITOR_DEADLOCK:
		if (res->npolling)
			warning("no progress: for %.0f s every rank has been blocked in MPI or "
				"polling without finding anything (%d polling): ending the job",
				res->stalled, res->npolling);
		else
			inform("the recorded run deadlocked: every rank blocked for %.0f s",
			       res->stalled);
		/* the traces are read for the report only once the ranks are gone and their
		 * files final */
		job_end(&job);
		monitor_report(stderr, res, job.dir, NULL);
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
	if (save_meta(job.dir, command, status, end, res) < 0 && rc == MPIV_EXIT_OK)
		rc = MPIV_EXIT_BAD_INPUT;
	if (!mpiv_trace_rank_file(job.dir, 0, path, sizeof(path))) {
		error("no rank wrote a trace into '%s': is the program a dynamically linked "
		      "MPI program, and does the launcher pass LD_PRELOAD to the ranks?", job.dir);
		rc = MPIV_EXIT_TOOL;
	}
	inform("traces in '%s'", job.dir);
	job_release(&job);
	return rc;
}
