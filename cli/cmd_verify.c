/* `mpiverify verify` (doc/verify.md): the main job. Its options, the exploration of explore/
 * with runs made by the recorder (verify_run.c), and the answer (verify_report.c). Only
 * deadlocks a run showed on the real MPI library are reported as deadlocks. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "launch.h"
#include "model.h"
#include "outdir.h"
#include "slurm.h"
#include "trace.h"
#include "verify.h"
#include "xalloc.h"

#define DEFAULT_DIR "mpiverify-verify"
#define DEFAULT_MAX_RUNS 200
#define DEFAULT_TIME_LIMIT 3600.0
#define DEFAULT_TIMEOUT 5.0
#define DEFAULT_MAX_STATES 2000000L
#define DEFAULT_MEMORY_MB 2048L

static const char verify_usage[] =
	"usage: mpiverify verify [-o DIR] [--buffering MODE] [--jobs N] [--max-runs N]\n"
	"                        [--time-limit SEC] [--deadlock-timeout SEC] [--max-states N]\n"
	"                        [--memory-limit MB] [--exhaustive]\n"
	"                        [--json | --sarif | --diagnostics-format=gcc]\n"
	"                        [--suppressions FILE]...\n"
	"                        [--gen-suppressions[=FILE]] [--ignore-potential-below BYTES]\n"
	"                        [--] LAUNCHER [ARGS...]\n";

static void verify_help(void)
{
	printf("%s", verify_usage);
	printf("\nFind the deadlocks of an MPI program on every path, not only the one a run takes.\n"
	       "Run LAUNCHER ARGS (for example: mpirun -np 4 ./app) with the recorder, model the\n"
	       "run and search every behaviour of the model: every match of a wildcard receive\n"
	       "or probe, every request MPI_Waitany or MPI_Testany may return, whether standard\n"
	       "sends are buffered. Where the program decides on something no run showed yet\n"
	       "(which sender a wildcard matched, which request completed first), run it again\n"
	       "with the decisions up to there forced and the new outcome there, and model that\n"
	       "run too; where the model deadlocks, run the program forced along that path to\n"
	       "confirm it on the real MPI library. Repeat until every decision is explored.\n"
	       "Only deadlocks the real MPI library showed are reported as deadlocks.\n"
	       "\noptions:\n"
	       "  -o, --output DIR            where every run's trace, steering and output go\n"
	       "                              (default ./" DEFAULT_DIR "; the runs of an\n"
	       "                              earlier verify there are removed)\n"
	       "      --buffering MODE        zero (no standard send buffered), infinite (all\n"
	       "                              are), eager:BYTES (those up to BYTES are), or all\n"
	       "                              (zero and infinite; the default)\n"
	       "      --jobs N                at most N runs at once (default: as many as the\n"
	       "                              CPUs hold given the program's ranks; with srun,\n"
	       "                              the CPUs of the Slurm allocation, each run a job\n"
	       "                              step of its own); the answer does not depend on N\n"
	       "      --max-runs N            run the program at most N times (default %d)\n"
	       "      --time-limit SEC        stop after SEC seconds (default %.0f)\n"
	       "      --deadlock-timeout SEC  a run that makes no progress for SEC seconds is\n"
	       "                              deadlocked (default %.0f)\n"
	       "      --max-states N          stop a search after N states (default %ld)\n"
	       "      --memory-limit MB       stop a search of the model once the model, its\n"
	       "                              search and the runs' programs hold MB megabytes\n"
	       "                              (default %ld): inconclusive, naming the limit\n"
	       "      --exhaustive            run every order of every decision, taking nothing\n"
	       "                              from what the runs show the program acts on (no\n"
	       "                              part of an input found not to matter, no loop):\n"
	       "                              the reference verify's own is held to, for small\n"
	       "                              programs (its runs grow with the orders)\n"
	       "      --json                  print the answer as one JSON document\n"
	       "      --sarif                 print it as a SARIF 2.1.0 log instead\n"
	       "      --diagnostics-format=gcc  print it as compilers do: a FILE:LINE: error:\n"
	       "                              line a finding, and notes\n"
	       "      --suppressions FILE     leave the deadlocks FILE names out of the verdict\n"
	       "                              and the exit status (repeatable)\n"
	       "      --gen-suppressions[=FILE]  write a suppression for each deadlock found\n"
	       "                              (to standard output, after the report)\n"
	       "      --ignore-potential-below BYTES  suppress the deadlocks a run showed\n"
	       "                              with every standard send forced unbuffered,\n"
	       "                              when its blocked ones are all smaller than BYTES\n"
	       "  -h, --help                  show this help\n"
	       "\nDIR also gets report.html, report.sarif and waits-for.dot (doc/reports.md).\n"
	       "\nexit status:\n"
	       "  0  no deadlock on any path (or every one suppressed), every decision\n"
	       "     explored\n"
	       "  1  a deadlock, an erroneous call or a crash (a rank that dies of a\n"
	       "     signal, aborts or exits early) confirmed on the real MPI library\n"
	       "  2  usage error\n"
	       "  3  a trace verify cannot judge, a bad suppressions file, or DIR cannot be\n"
	       "     written\n"
	       "  4  the launcher or the recorder cannot be run, the program's MPI library\n"
	       "     is one mpiverify was not built for, or a run wrote no trace\n"
	       "  5  inconclusive: stopped at a limit with decisions left, a rank killed from\n"
	       "     outside, or a deadlock of the model the program did not show\n",
	       DEFAULT_MAX_RUNS, DEFAULT_TIME_LIMIT, DEFAULT_TIMEOUT, DEFAULT_MAX_STATES,
	       DEFAULT_MEMORY_MB);
}

/* --buffering's modes to search. Returns 0 or -1. */
static int parse_modes(const char *arg, struct explore *x)
{
	return mpiv_buffering_arg(arg, x->modes, &x->nmodes);
}

/* Remove the lock file of run directory abs, which this process holds. Returns 0, or -1
 * after an error. */
static int unlink_lock(const char *abs)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/" OUTDIR_LOCK_FILE, abs);
	if (unlink(path) < 0 && errno != ENOENT)
		return error("cannot remove '%s': %s", path, strerror(errno)), -1;
	return 0;
}

/* Remove what an earlier verify left in runs/: run directories N (their traces and status
 * files) and N.steer, N.out. Nothing else is touched. Returns 0, or -1 after an error. */
static int remove_old_runs(const char *runs)
{
	static const char *const stale[] = {".mpivt", ".json", ".status", MPIV_META_FILE, NULL};
	struct dirent *de;
	DIR *d = opendir(runs);
	int rc = 0;

	if (!d)
		return error("cannot read directory '%s': %s", runs, strerror(errno)), -1;
	while (rc == 0 && (de = readdir(d))) {
		char path[PATH_MAX], *end;
		char *abs;
		int lock = -1;

		strtol(de->d_name, &end, 10);
		if (end == de->d_name || (*end && strcmp(end, ".steer") && strcmp(end, ".out")))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", runs, de->d_name) >= (int)sizeof(path))
			continue; /* not a name verify gives */
		if (*end) {
			if (unlink(path) < 0 && errno != ENOENT)
				rc = error("cannot remove '%s': %s", path, strerror(errno));
			continue;
		}
		abs = outdir_prepare(path, stale, &lock); /* empties it of what a run writes */
		if (!abs || unlink_lock(abs) < 0)
			rc = -1;
		else if (rmdir(abs) < 0)
			rc = error("cannot remove '%s': %s", path, strerror(errno));
		if (lock >= 0)
			close(lock);
		free(abs);
	}
	closedir(d);
	return rc < 0 ? -1 : 0;
}

/* Make out/runs (its name into runs), empty of earlier runs, and x->outdir out's absolute
 * path. Returns 0, or MPIV_EXIT_BAD_INPUT after an error. */
static int prepare_out(const char *out, char *runs, size_t size, struct explore *x)
{
	snprintf(runs, size, "%s/runs", out);
	if (outdir_make(runs) < 0)
		return error("cannot create '%s': %s", runs, strerror(errno)), MPIV_EXIT_BAD_INPUT;
	if (remove_old_runs(runs) < 0)
		return MPIV_EXIT_BAD_INPUT;
	x->outdir = realpath(out, NULL);
	if (!x->outdir)
		return error("cannot resolve '%s': %s", out, strerror(errno)), MPIV_EXIT_BAD_INPUT;
	return 0;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"buffering", required_argument, NULL, 'b'},
		{"jobs", required_argument, NULL, 'J'},
		{"max-runs", required_argument, NULL, 'R'},
		{"time-limit", required_argument, NULL, 'L'},
		{"deadlock-timeout", required_argument, NULL, 'T'},
		{"max-states", required_argument, NULL, 'S'},
		{"memory-limit", required_argument, NULL, 'M'},
		{"exhaustive", no_argument, NULL, 'E'},
		FINDINGS_LONGOPTS,
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = DEFAULT_DIR;
	struct explore_runner runner;
	struct verify_opts o;
	char runs[PATH_MAX];
	struct explore x;
	char **step = NULL;
	long count;
	int c, rc;

	memset(&x, 0, sizeof(x));
	memset(&o, 0, sizeof(o));
	x.max_runs = DEFAULT_MAX_RUNS;
	x.time_limit = DEFAULT_TIME_LIMIT;
	x.max_states = DEFAULT_MAX_STATES;
	x.memory_mb = DEFAULT_MEMORY_MB;
	x.interrupted = verify_pool_interrupted;
	o.timeout = DEFAULT_TIMEOUT;
	parse_modes("all", &x);
	o.buffering = "all";
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		if ((rc = findings_option(&o.findings, "verify", c, optarg)) >= 0) {
			if (rc)
				return findings_opts_release(&o.findings), rc;
			continue;
		}
		switch (c) {
		case 'o':
			out = optarg;
			break;

		case 'b':
			o.buffering = optarg;
			if (parse_modes(optarg, &x) < 0)
				return usage_error("verify",
						   "invalid --buffering '%s': expected zero, "
						   "infinite, eager:BYTES or all",
						   optarg);
			break;
		case 'J':
			if (parse_count(optarg, &count) < 0 || count > 4096)
				return usage_error("verify",
						   "invalid --jobs '%s': expected a number "
						   "from 1 to 4096",
						   optarg);
			o.jobs = (int)count;
			break;
		case 'R':
			if (parse_count(optarg, &count) < 0 || count > INT_MAX)
				return usage_error("verify",
						   "invalid --max-runs '%s': expected a "
						   "positive number",
						   optarg);
			x.max_runs = (int)count;
			break;
		case 'L':
			if (parse_seconds(optarg, &x.time_limit) < 0)
				return usage_error("verify",
						   "invalid --time-limit '%s': expected a "
						   "positive number of seconds",
						   optarg);
			break;
		case 'T':
			if (parse_seconds(optarg, &o.timeout) < 0)
				return usage_error("verify",
						   "invalid --deadlock-timeout '%s': "
						   "expected a positive number of seconds",
						   optarg);
			break;
		case 'S':
			if (parse_count(optarg, &count) < 0)
				return usage_error("verify",
						   "invalid --max-states '%s': expected a "
						   "positive number",
						   optarg);
			x.max_states = count;
			break;
		case 'E':
			x.model_flags |= XMODEL_EXHAUSTIVE;
			break;
		case 'M':
			if (parse_count(optarg, &count) < 0 || count < 16 || count > (1L << 30))
				return usage_error("verify",
						   "invalid --memory-limit '%s': expected a "
						   "number of megabytes, 16 or more",
						   optarg);
			x.memory_mb = count;
			break;
		case 'h':
			verify_help();
			return MPIV_EXIT_OK;
		default:
			return option_error("verify", c, argv);
		}
	}
	if ((rc = launcher_args("verify", argc, optind, out)) ||
	    (rc = findings_options_done(&o.findings, "verify")))
		return findings_opts_release(&o.findings), rc;
	o.command = argv + optind;
	/* under srun each run is a job step of its own size, so that several run at once */
	step = slurm_step_command(o.command);
	if (step) {
		o.command = step;
		o.slurm = 1;
	}
	o.tty = isatty(STDERR_FILENO);
	/* the MPI library the program runs on, before anything is written */
	rc = preload_pick(&o.preload, o.command, PRELOAD_RECORDER, 0);
	if (!rc)
		rc = prepare_out(out, runs, sizeof(runs), &x);
	if (rc) {
		preload_release(&o.preload);
		findings_opts_release(&o.findings);
		free(step);
		return rc;
	}

	memset(&runner, 0, sizeof(runner));
	runner.start = verify_start;
	runner.wait = verify_wait;
	runner.cancel = verify_cancel;
	runner.slots = verify_slots;
	runner.progress = verify_progress;
	runner.ctx = &o;
	verify_pool_init();
	rc = explore_loop(&x, &runner);
	if (rc == MPIV_EXIT_BAD_INPUT && x.threaded_run)
		rc = verify_threaded(&o, x.outdir, x.threaded_run);
	else if (rc == MPIV_EXIT_OK || rc == MPIV_EXIT_DEADLOCK || rc == MPIV_EXIT_INCONCLUSIVE)
		rc = verify_report(&o, &x, rc);
	else if (rc > 128)
		inform("interrupted by signal %d after %d run%s: no verdict", rc - 128, x.nruns,
		       x.nruns == 1 ? "" : "s");
	findings_opts_release(&o.findings);
	free((char *)x.outdir);
	x.outdir = NULL;
	free(step);
	explore_release(&x);
	preload_release(&o.preload);
	return rc;
}
