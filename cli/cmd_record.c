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
#include "trace.h"

#define DEFAULT_DIR "mpiverify-trace"
#define DEFAULT_TIMEOUT 30.0

static const char record_usage[] =
	"usage: mpiverify record [-o DIR] [--deadlock-timeout SEC] [--] LAUNCHER [ARGS...]\n";

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
	       "  -h, --help                  show this help\n"
	       "\nexit status:\n"
	       "  the program's own (128+N if the launcher was killed by signal N), or\n"
	       "  1  the run deadlocked or made no progress: every rank's blocked or polling\n"
	       "     call is reported, the job ended\n"
	       "  2  usage error\n"
	       "  3  DIR cannot be created or written\n"
	       "  4  the launcher or the recorder library cannot be run\n",
	       DEFAULT_TIMEOUT);
}

static int save_meta(const char *dir, char **command, int exit_status, int hung)
{
	struct mpiv_meta meta;
	struct mpiv_error err;
	char cwd[PATH_MAX];

	mpiv_error_init(&err);
	/* replay re-runs the command where it ran: its paths may be relative */
	meta.cwd = getcwd(cwd, sizeof(cwd));
	meta.command = command;
	meta.exit_status = exit_status;
	meta.hung = hung;
	if (mpiv_meta_save(dir, &meta, &err) < 0) {
		error_report(&err);
		return -1;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"deadlock-timeout", required_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char *const stale[] = {".mpivt", ".json", ".status", MPIV_META_FILE, NULL};
	const char *out = DEFAULT_DIR;
	double timeout = DEFAULT_TIMEOUT;
	const struct monitor_result *res;
	struct launch_var vars[2];
	struct job job;
	char **command, path[4200];
	int c, rc, hung = 0, status;

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

	rc = job_init(&job, mpiv_recorder_lib(), "recorder");
	if (!rc)
		rc = job_prepare_dir(&job, out, stale);
	if (!rc) {
		vars[0].name = MPIV_ENV_TRACE_DIR;
		vars[0].value = job.dir;
		vars[1].name = NULL;
		vars[1].value = NULL;
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
		hung = 1;
		status = launch_exit_code(&job.launch);
		rc = MPIV_EXIT_DEADLOCK;
		break;
	case MONITOR_INTERRUPTED:
		inform("interrupted by signal %d: ending the job", res->signal);
		job_end(&job);
		status = launch_exit_code(&job.launch);
		rc = 128 + res->signal;
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
	if (save_meta(job.dir, command, status, hung) < 0 && rc == MPIV_EXIT_OK)
		rc = MPIV_EXIT_BAD_INPUT;
	if (!mpiv_trace_rank_file(job.dir, 0, path, sizeof(path)))
		warning("no rank wrote a trace into '%s': is the program a dynamically linked "
			"MPI program, and does the launcher pass LD_PRELOAD to the ranks?", job.dir);
	inform("traces in '%s'", job.dir);
	job_release(&job);
	return rc;
}
