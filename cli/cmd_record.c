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
#include "hang_stuck.h"
#include "record_run.h"
#include "paths.h"
#include "reduction.h"
#include "trace.h"
#include "xalloc.h"

#define DEFAULT_DIR "mpiverify-trace"
#define DEFAULT_TIMEOUT 30.0

static const char record_usage[] =
	"usage: mpiverify record [-o DIR] [--deadlock-timeout SEC] [--check-reductions[=TOL|correct]]\n"
	"                        [--timestamps] [--last N] [--error-exitcode N] [--] LAUNCHER\n"
	"                        [ARGS...]\n";

static void record_help(void)
{
	printf("%s", record_usage);
	printf("\nRun LAUNCHER ARGS (for example: mpirun -np 4 ./app) with the recorder preloaded\n"
	       "into every rank, the one built for the MPI library the program links. Each rank\n"
	       "writes its MPI calls to DIR/rank-N.mpivt; DIR/meta.json keeps the command, its\n"
	       "exit status and whether the run hung. The program's output and exit status pass\n"
	       "through.\n"
	       "\noptions:\n"
	       "  -o, --output DIR            trace directory, created if missing (default\n"
	       "                              ./" DEFAULT_DIR
	       "); earlier traces in it are removed\n"
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
	       "      --timestamps            record when each call was entered and left\n"
	       "                              (CLOCK_MONOTONIC, nanoseconds): `mpiverify trace`\n"
	       "                              shows them, check warns of messages whose times\n"
	       "                              do not fit; two clock readings a call, which a\n"
	       "                              loop of short calls feels\n"
	       "      --last N                hang triage for long runs: each rank keeps only its\n"
	       "                              last N to 2N calls, in memory, and writes them\n"
	       "                              when the run hangs, aborts, crashes, is signalled\n"
	       "                              or exits; the hang is reported as without it, and\n"
	       "                              `mpiverify trace` shows the calls, but check needs\n"
	       "                              the whole run (doc/triage.md)\n"
	       "      --error-exitcode N      exit N (1 to 255) instead of 1 when the run hung,\n"
	       "                              to tell it from a program that exits 1\n"
	       "  -h, --help                  show this help\n"
	       "\nexit status:\n"
	       "  the program's own (128+N if the launcher was killed by signal N), or\n"
	       "  1  the run deadlocked or made no progress: every rank's blocked or polling\n"
	       "     call is reported, the job ended (--error-exitcode N: N)\n"
	       "  2  usage error\n"
	       "  3  DIR cannot be created or written\n"
	       "  4  the launcher or the recorder library cannot be run, the program's MPI\n"
	       "     library is one mpiverify was not built for, or no rank wrote a trace\n",
	       DEFAULT_TIMEOUT);
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"deadlock-timeout", required_argument, NULL, 'T'},
		{"check-reductions", optional_argument, NULL, 'R'},
		{"timestamps", no_argument, NULL, 't'},
		{"last", required_argument, NULL, 'L'},
		{"error-exitcode", required_argument, NULL, 'E'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = DEFAULT_DIR;
	double timeout = DEFAULT_TIMEOUT;
	const char *reductions = NULL; /* --check-reductions' value, "detect" if none */
	const char *last = NULL;       /* --last's value */
	struct mpiv_red_opts red;
	struct monitor_expect expect;
	struct hang_stuck stuck;
	struct record_opts opts;
	struct record_result r;
	int c, rc, timestamps = 0, hung_exit = MPIV_EXIT_DEADLOCK;
	long count;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'T':
			if (parse_seconds(optarg, &timeout) < 0)
				return usage_error("record",
						   "invalid --deadlock-timeout '%s': "
						   "expected a positive number of seconds",
						   optarg);
			break;
		case 'R':
			reductions = optarg ? optarg : "detect";
			if (mpiv_red_opts_parse(reductions, &red) < 0)
				return usage_error(
					"record",
					"invalid --check-reductions '%s': "
					"expected a tolerance (a number >= 0), 'correct' "
					"or both, separated by a comma",
					reductions);
			break;
		case 't':
			timestamps = 1;
			break;
		case 'L':
			if (parse_count(optarg, &count) < 0 || count < 1 || count > MPIV_LAST_MAX)
				return usage_error(
					"record",
					"invalid --last '%s': expected a number of calls "
					"from 1 to %d",
					optarg, MPIV_LAST_MAX);
			last = optarg;
			break;
		case 'E':
			if (parse_count(optarg, &count) < 0 || count > 255)
				return usage_error("record",
						   "invalid --error-exitcode '%s': expected a "
						   "number from 1 to 255",
						   optarg);
			hung_exit = (int)count;
			break;
		case 'h':
			record_help();
			return MPIV_EXIT_OK;
		default:
			return option_error("record", c, argv);
		}
	}
	if ((rc = launcher_args("record", argc, optind, out)))
		return rc;
	/* a finding names the calls it compared, which may have left the window */
	if (last && reductions)
		return usage_error("record",
				   "--last and --check-reductions do not go together: "
				   "the reduction check reports on calls the window drops");
	memset(&opts, 0, sizeof(opts));
	opts.dir = out;
	opts.command = argv + optind;
	opts.timeout = timeout;
	opts.reductions = reductions;
	opts.timestamps = timestamps;
	opts.last = last;
	/* a hang the traces show is one is ended without waiting for the timeout */
	memset(&expect, 0, sizeof(expect));
	expect.grace = MONITOR_CONFIRM_GRACE;
	hang_stuck_ask(&expect, &stuck, out, NULL);
	opts.expect = &expect;
	rc = record_run(&opts, &r);
	/* the run hung: record's own answer, which a program's own exit 1 would look like */
	if (r.job == MPIV_JOB_DEADLOCK || r.job == MPIV_JOB_NO_PROGRESS)
		rc = hung_exit;
	record_result_release(&r);
	return rc;
}
