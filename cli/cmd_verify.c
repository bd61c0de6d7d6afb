/* `mpiverify verify` (verify.h, doc/verify.md): the main job. Record a run; search the model
 * of every run so far for deadlocks and for decisions no run took; run the program steered to
 * each (one at a time, searching again after every run, so that what a run shows spares
 * runs); stop when nothing is left, or at a limit. Only deadlocks a run showed on the real
 * MPI library are reported as deadlocks. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "launch.h"
#include "outdir.h"
#include "trace.h"
#include "verify.h"
#include "xalloc.h"

#define DEFAULT_DIR "mpiverify-verify"
#define DEFAULT_MAX_RUNS 200
#define DEFAULT_TIME_LIMIT 3600.0
#define DEFAULT_TIMEOUT 5.0
#define DEFAULT_MAX_STATES 2000000L

static const char verify_usage[] =
	"usage: mpiverify verify [-o DIR] [--buffering MODE] [--max-runs N] [--time-limit SEC]\n"
	"                        [--deadlock-timeout SEC] [--max-states N] [--json]\n"
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
	       "      --max-runs N            run the program at most N times (default %d)\n"
	       "      --time-limit SEC        stop after SEC seconds (default %.0f)\n"
	       "      --deadlock-timeout SEC  a run that makes no progress for SEC seconds is\n"
	       "                              deadlocked (default %.0f)\n"
	       "      --max-states N          stop a search after N states (default %ld)\n"
	       "      --json                  print the answer as one JSON document\n"
	       "  -h, --help                  show this help\n"
	       "\nexit status:\n"
	       "  0  no deadlock on any path, every decision explored\n"
	       "  1  a deadlock (or an erroneous call) confirmed on the real MPI library\n"
	       "  2  usage error\n"
	       "  3  a trace verify cannot judge, or DIR cannot be written\n"
	       "  4  the launcher or the recorder cannot be run\n"
	       "  5  inconclusive: stopped at a limit with decisions left, a rank crashed, or\n"
	       "     a deadlock of the model the program did not show\n",
	       DEFAULT_MAX_RUNS, DEFAULT_TIME_LIMIT, DEFAULT_TIMEOUT, DEFAULT_MAX_STATES);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --buffering: "zero", "infinite", "all" (both) or "eager:BYTES". Returns 0 or -1. */
static int parse_modes(const char *arg, struct verify *v)
{
	struct mpiv_buffering b;

	v->nmodes = 0;
	if (!strcmp(arg, "all")) {
		v->modes[v->nmodes].mode = MPIV_BUF_ZERO;
		v->modes[v->nmodes++].bytes = 0;
		v->modes[v->nmodes].mode = MPIV_BUF_INFINITE;
		v->modes[v->nmodes++].bytes = 0;
		return 0;
	}
	if (!strncmp(arg, "eager:", 6)) {
		char *end;
		long long bytes;

		errno = 0;
		bytes = strtoll(arg + 6, &end, 10);
		if (errno || end == arg + 6 || *end || bytes < 0)
			return -1;
		v->modes[0].mode = MPIV_BUF_EAGER;
		v->modes[0].bytes = bytes;
		v->nmodes = 1;
		return 0;
	}
	if (mpiv_buffering_parse(arg, &b) < 0 || b.mode == MPIV_BUF_EAGER)
		return -1;
	v->modes[v->nmodes++] = b;
	return 0;
}

static int parse_count(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < 1 ? -1 : 0;
}

/* What a run showed, into the answer. */
static void take(struct verify *v, struct vrun *r)
{
	const struct vitem *it = r->item;
	char mode[48];
	int i;

	if (it && it->kind == VITEM_FRONTIER)
		v->explored++;
	if (r->end == VRUN_CONFIRMED || r->end == VRUN_HUNG) {
		for (i = 0; i < v->nfound; i++)
			if (vsig_same(r->hang_sig, v->found[i].run->hang_sig))
				return;	/* the same calls stuck */
		xgrow((void **)&v->found, &v->capfound, (size_t)v->nfound + 1, sizeof(*v->found));
		if (it && it->kind == VITEM_DEADLOCK)
			mpiv_buffering_name(&it->mode, mode, sizeof(mode));
		else
			snprintf(mode, sizeof(mode), "as the library does");
		v->found[v->nfound].run = r;
		v->found[v->nfound].mode = xstrdup(mode);
		v->found[v->nfound].predicted = r->end == VRUN_CONFIRMED;
		v->nfound++;
		return;
	}
	if (!it || it->kind != VITEM_DEADLOCK)
		return;
	/* a deadlock of the model the run did not show */
	if (r->left || r->end == VRUN_PINNED) {
		v->refuted++;	/* the program does not take that path: its run is a path */
		return;
	}
	xgrow((void **)&v->unconfirmed, &v->capunconfirmed, (size_t)v->nunconfirmed + 1,
	      sizeof(*v->unconfirmed));
	v->unconfirmed[v->nunconfirmed].run = r;
	v->unconfirmed[v->nunconfirmed].why =
		r->end == VRUN_STOPPED ? "a rank stopped before it could deadlock" :
		"the program took the model's path to its end without deadlocking: the model "
		"and this MPI library disagree";
	v->nunconfirmed++;
}

/* Whether some run crashed, aborted or exited without MPI_Finalize. */
static int any_stopped(const struct verify *v)
{
	int i;

	for (i = 0; i < v->nruns; i++)
		if (v->runs[i]->end == VRUN_STOPPED)
			return 1;
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

		strtol(de->d_name, &end, 10);
		if (end == de->d_name || (*end && strcmp(end, ".steer") && strcmp(end, ".out")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", runs, de->d_name);
		if (*end) {
			if (unlink(path) < 0 && errno != ENOENT)
				rc = error("cannot remove '%s': %s", path, strerror(errno));
			continue;
		}
		abs = outdir_prepare(path, stale);	/* empties it of what a run writes */
		if (!abs || rmdir(abs) < 0)
			rc = abs ? error("cannot remove '%s': %s", path, strerror(errno)) : -1;
		free(abs);
	}
	closedir(d);
	return rc < 0 ? -1 : 0;
}

/* The loop; returns the exit code. */
static int explore(struct verify *v)
{
	struct vitem *items = NULL;
	struct vrun *r;
	int n = 0, i, rc;

	r = verify_run(v, NULL);
	if (!r)
		return MPIV_EXIT_TOOL;
	if (r->end == VRUN_FAILED)
		return MPIV_EXIT_BAD_INPUT;
	verify_progress(v, r);
	take(v, r);
	for (;;) {
		if (r->end == VRUN_INTERRUPTED)
			return 128 + launch_interrupted();
		rc = verify_search(v, &items, &n);
		if (rc)
			return rc;
		if (n == 0)
			break;
		if (v->nruns >= v->max_runs || (v->time_limit > 0 &&
						now() - v->started > v->time_limit)) {
			v->left = n;
			snprintf(v->left_why, sizeof(v->left_why), v->nruns >= v->max_runs ?
				 "--max-runs %d reached" : "--time-limit reached", v->max_runs);
			break;
		}
		r = verify_run(v, &items[0]);
		for (i = 0; i < n; i++)
			vitem_release(&items[i]);
		free(items);
		items = NULL;
		n = 0;
		if (!r)
			return MPIV_EXIT_TOOL;
		if (r->end == VRUN_FAILED)
			return MPIV_EXIT_BAD_INPUT;
		verify_progress(v, r);
		take(v, r);
	}
	for (i = 0; i < n; i++)
		vitem_release(&items[i]);
	free(items);
	if (v->nfound)
		return MPIV_EXIT_DEADLOCK;
	if (v->left || v->incomplete || v->nunconfirmed || any_stopped(v))
		return MPIV_EXIT_INCONCLUSIVE;
	return MPIV_EXIT_OK;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"buffering", required_argument, NULL, 'b'},
		{"max-runs", required_argument, NULL, 'R'},
		{"time-limit", required_argument, NULL, 'L'},
		{"deadlock-timeout", required_argument, NULL, 'T'},
		{"max-states", required_argument, NULL, 'S'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = DEFAULT_DIR;
	char runs[PATH_MAX];
	struct verify v;
	long count;
	int c, rc, i;

	memset(&v, 0, sizeof(v));
	v.max_runs = DEFAULT_MAX_RUNS;
	v.time_limit = DEFAULT_TIME_LIMIT;
	v.timeout = DEFAULT_TIMEOUT;
	v.max_states = DEFAULT_MAX_STATES;
	parse_modes("all", &v);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'b':
			if (parse_modes(optarg, &v) < 0)
				return usage_error("verify", "invalid --buffering '%s': expected zero, "
						   "infinite, eager:BYTES or all", optarg);
			break;
		case 'R':
			if (parse_count(optarg, &count) < 0 || count > INT_MAX)
				return usage_error("verify", "invalid --max-runs '%s': expected a "
						   "positive number", optarg);
			v.max_runs = (int)count;
			break;
		case 'L':
			if (parse_seconds(optarg, &v.time_limit) < 0)
				return usage_error("verify", "invalid --time-limit '%s': expected a "
						   "positive number of seconds", optarg);
			break;
		case 'T':
			if (parse_seconds(optarg, &v.timeout) < 0)
				return usage_error("verify", "invalid --deadlock-timeout '%s': "
						   "expected a positive number of seconds", optarg);
			break;
		case 'S':
			if (parse_count(optarg, &count) < 0)
				return usage_error("verify", "invalid --max-states '%s': expected a "
						   "positive number", optarg);
			v.max_states = count;
			break;
		case 'j':
			v.json = 1;
			break;
		case 'h':
			verify_help();
			return MPIV_EXIT_OK;
		default:
			return option_error("verify", c, argv);
		}
	}
	if (optind >= argc)
		return usage_error("verify", "no launcher command given (for example: "
				   "mpiverify verify -- mpirun -np 2 ./app)");
	if (!*out)
		return usage_error("verify", "empty output directory name");
	v.command = argv + optind;
	v.tty = isatty(STDERR_FILENO);
	v.started = now();
	snprintf(runs, sizeof(runs), "%s/runs", out);
	if (outdir_make(runs) < 0)
		return error("cannot create '%s': %s", runs, strerror(errno)), MPIV_EXIT_BAD_INPUT;
	if (remove_old_runs(runs) < 0)
		return MPIV_EXIT_BAD_INPUT;
	v.outdir = realpath(out, NULL);
	if (!v.outdir)
		return error("cannot resolve '%s': %s", out, strerror(errno)), MPIV_EXIT_BAD_INPUT;

	rc = explore(&v);
	if (rc == MPIV_EXIT_OK || rc == MPIV_EXIT_DEADLOCK || rc == MPIV_EXIT_INCONCLUSIVE)
		verify_report(&v, rc);

	for (i = 0; i < v.nruns; i++)
		vrun_free(v.runs[i]);
	free(v.runs);
	for (i = 0; i < v.ntried; i++)
		free(v.tried[i]);
	free(v.tried);
	for (i = 0; i < v.nfound; i++)
		free(v.found[i].mode);
	free(v.found);
	free(v.unconfirmed);
	free((char *)v.outdir);
	return rc;
}
