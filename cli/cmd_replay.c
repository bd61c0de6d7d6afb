/* `mpiverify replay`: the last stage of the pipeline. Re-runs the recorded job with the
 * replayer preloaded, which forces the counterexample's matches, and says whether the
 * deadlock check predicted happens on the real MPI library. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cex.h"
#include "cli.h"
#include "diag.h"
#include "launch.h"
#include "monitor.h"
#include "paths.h"
#include "srcloc.h"
#include "xalloc.h"

#define DEFAULT_TIMEOUT 10.0
#define REPLAY_DIR "replay"	/* status files, next to the counterexample by default */

static const char replay_usage[] =
	"usage: mpiverify replay --trace CEX.json [--timeout SEC] [-o DIR] [-- LAUNCHER ARGS...]\n";

static void replay_help(void)
{
	printf("%s", replay_usage);
	printf("\nRe-run the recorded command (or LAUNCHER ARGS) with the replayer preloaded into\n"
	       "every rank: receives and wildcard completions take the matches of CEX.json, and\n"
	       "standard sends it needs unbuffered are made synchronous. Then say whether the\n"
	       "deadlock is reproduced, not reproduced, or whether the program left the\n"
	       "counterexample's path (diverged).\n"
	       "\noptions:\n"
	       "      --trace CEX.json  the counterexample written by 'mpiverify check'\n"
	       "      --timeout SEC     the deadlock is reproduced when every rank has been blocked\n"
	       "                        in MPI (or finished) without progress for SEC seconds\n"
	       "                        (default %g)\n"
	       "  -o, --output DIR      directory for the ranks' status files (default: '"
	       REPLAY_DIR "'\n"
	       "                        next to CEX.json)\n"
	       "  -h, --help            show this help\n"
	       "\nexit status:\n"
	       "  0  not reproduced: the program completed\n"
	       "  1  reproduced: the program deadlocked, the job was ended\n"
	       "  2  usage error\n"
	       "  3  CEX.json is missing or malformed, or DIR cannot be written\n"
	       "  4  the launcher or the replayer library cannot be run, or no rank ran\n"
	       "     under the replayer\n"
	       "  5  diverged: the program took another path than the counterexample\n",
	       DEFAULT_TIMEOUT);
}

/* The counterexample's trace directory, for resolving call sites: as written if it exists,
 * else relative to the counterexample's directory. Returns a malloc'ed path, or NULL. */
static char *find_trace_dir(const char *cex_path, const char *trace_dir)
{
	char *copy, *path;
	size_t n;

	if (!trace_dir)
		return NULL;
	if (trace_dir[0] == '/' || access(trace_dir, F_OK) == 0)
		return xstrdup(trace_dir);
	copy = xstrdup(cex_path);
	n = strlen(copy) + strlen(trace_dir) + 2;
	path = xmalloc(n);
	snprintf(path, n, "%s/%s", dirname(copy), trace_dir);
	free(copy);
	if (access(path, F_OK) == 0)
		return path;
	free(path);
	return NULL;
}

static char *default_dir(const char *cex_path)
{
	char *copy = xstrdup(cex_path), *path;
	size_t n = strlen(copy) + sizeof(REPLAY_DIR) + 1;

	path = xmalloc(n);
	snprintf(path, n, "%s/" REPLAY_DIR, dirname(copy));
	free(copy);
	return path;
}

static void print_divergence(const struct monitor_result *res)
{
	int r;

	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen || m->state != MPIV_ST_DIVERGED)
			continue;
		printf("diverged: rank %d left the counterexample's path at event %ld (%s)%s%s\n",
		       r, m->op, m->call_name, m->text[0] ? ": " : "", m->text);
	}
}

/* The job ended before any rank reported: the launcher could not start the program, or the
 * replayer did not reach the ranks. Says which; returns MPIV_EXIT_TOOL. */
static int no_replay(const struct launch *job, char **command, const char *dir, int recorded)
{
	char how[128];

	if (launch_exit_code(job) != 0) {
		launch_describe_exit(job, how, sizeof(how));
		error("the launcher '%s' failed (%s) before any rank reported: nothing was "
		      "replayed", command[0], how);
		if (recorded)
			fprintf(stderr, "hint: give the command to run after '--' if the recorded "
				"one cannot run here\n");
	} else {
		error("no rank reported to '%s': the replayer did not run in the ranks, so "
		      "nothing was replayed (is the program a dynamically linked MPI program?)",
		      dir);
	}
	return MPIV_EXIT_TOOL;
}

int cmd_replay(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"trace", required_argument, NULL, 't'},
		{"timeout", required_argument, NULL, 'T'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char *const stale[] = {".status", NULL};
	const char *cex_arg = NULL, *out = NULL, *lib;
	double timeout = DEFAULT_TIMEOUT;
	struct monitor_result res;
	struct launch_var vars[3];
	struct mpiv_error err;
	struct mpiv_cex cex;
	struct launch job;
	char **command, *cex_path = NULL, *dir = NULL, *libpath = NULL, *trace_dir = NULL;
	char *dflt = NULL, how[128];
	int c, rc;

	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, "+:o:h", longopts, NULL);
		if (c == -1)
			break;
		switch (c) {
		case 't':
			cex_arg = optarg;
			break;
		case 'T':
			if (monitor_parse_seconds(optarg, &timeout) < 0)
				return usage_error("replay", "invalid --timeout '%s': expected a "
						   "positive number of seconds", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			replay_help();
			return MPIV_EXIT_OK;
		case ':':
			return usage_error("replay", "option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("replay", "unknown option '%s'", argv[optind - 1]);
		}
	}
	/* The command must follow '--': a bare word is more likely a forgotten --trace. */
	if (optind < argc && strcmp(argv[optind - 1], "--"))
		return usage_error("replay", "unexpected argument '%s' (a command to run goes "
				   "after '--')", argv[optind]);
	if (!cex_arg)
		return usage_error("replay", "no counterexample given (--trace CEX.json)");
	if (out && !*out)
		return usage_error("replay", "empty output directory name");

	mpiv_error_init(&err);
	if (mpiv_cex_load(cex_arg, &cex, &err) < 0) {
		error_report(&err);
		return MPIV_EXIT_BAD_INPUT;
	}
	command = optind < argc ? argv + optind : cex.command;
	if (!command || !command[0]) {
		mpiv_cex_release(&cex);
		return usage_error("replay", "the counterexample '%s' names no command: give one "
				   "after '--'", cex_arg);
	}

	lib = mpiv_replayer_lib();
	libpath = realpath(lib, NULL);
	if (!libpath) {
		error("cannot find the replayer library '%s': %s", lib, strerror(errno));
		rc = MPIV_EXIT_TOOL;
		goto out;
	}
	/* the ranks may start in another directory: they get absolute paths */
	cex_path = realpath(cex_arg, NULL);
	if (!cex_path) {
		error("cannot resolve counterexample '%s': %s", cex_arg, strerror(errno));
		rc = MPIV_EXIT_BAD_INPUT;
		goto out;
	}
	if (!out) {
		dflt = default_dir(cex_path);
		out = dflt;
	}
	dir = monitor_prepare_dir(out, stale);
	if (!dir) {
		rc = MPIV_EXIT_BAD_INPUT;
		goto out;
	}
	trace_dir = find_trace_dir(cex_path, cex.trace_dir);

	vars[0].name = "MPIVERIFY_CEX";
	vars[0].value = cex_path;
	vars[1].name = "MPIVERIFY_STATUS_DIR";
	vars[1].value = dir;
	vars[2].name = NULL;
	vars[2].value = NULL;
	/* the recorded command runs where it was recorded: its paths may be relative to there */
	if (command == cex.command && cex.cwd && chdir(cex.cwd) != 0)
		warning("cannot enter the recorded directory '%s': %s; running here", cex.cwd,
			strerror(errno));
	if (launch_start(&job, command, libpath, vars, dir) < 0) {
		if (errno == EINVAL)
			error("cannot preload '%s': LD_PRELOAD cannot hold a path with ':' or a "
			      "space", libpath);
		else
			error("cannot run '%s': %s", command[0], strerror(errno));
		rc = MPIV_EXIT_TOOL;
		goto out;
	}

	monitor_run(&job, dir, timeout, &res);
	switch (res.outcome) {
	case MONITOR_DEADLOCK:
		printf("reproduced: the program deadlocked, every rank blocked for %.0f s\n",
		       res.stalled);
		fflush(stdout);
		if (launch_end(&job) < 0)
			warning("some processes of the job could not be ended");
		if (monitor_report(stdout, &res, trace_dir, &cex))
			printf("note: some ranks are blocked elsewhere than the counterexample "
			       "predicts (marked 'differs')\n");
		rc = MPIV_EXIT_DEADLOCK;
		break;
	case MONITOR_DIVERGED:
		print_divergence(&res);
		fflush(stdout);
		if (launch_end(&job) < 0)
			warning("some processes of the job could not be ended");
		rc = MPIV_EXIT_INCONCLUSIVE;
		break;
	case MONITOR_INTERRUPTED:
		fflush(stdout);
		fprintf(stderr, "mpiverify: interrupted by signal %d: ending the job\n",
			res.signal);
		if (launch_end(&job) < 0)
			warning("some processes of the job could not be ended");
		rc = 128 + res.signal;
		break;
	case MONITOR_COMPLETED:
	default:
		if (launch_end(&job) < 0)
			warning("some processes of the job could not be ended");
		if (!res.size) {
			/* Without one status file nothing was replayed: saying "not reproduced"
			 * would be a verdict on a run that did not happen. */
			rc = no_replay(&job, command, dir, command == cex.command);
			break;
		}
		printf("not reproduced: the program completed\n");
		/* why: the ranks the counterexample has blocked that finished, or did not */
		monitor_report(stdout, &res, trace_dir, &cex);
		if (res.exit_code != 0) {
			launch_describe_exit(&job, how, sizeof(how));
			warning("the launcher '%s' failed: %s", command[0], how);
		}
		rc = MPIV_EXIT_OK;
		break;
	}
	monitor_result_release(&res);
	launch_release(&job);
out:
	free(trace_dir);
	free(dir);
	free(dflt);
	free(cex_path);
	free(libpath);
	mpiv_cex_release(&cex);
	return rc;
}
