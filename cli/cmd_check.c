/* mpiverify check: traces -> model -> SPIN in each buffering mode -> one counterexample per
 * distinct deadlock, and the report. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "diag.h"
#include "jsontext.h"
#include "mpilib.h"
#include "outdir.h"
#include "report.h"
#include "spin_run.h"
#include "translate.h"
#include "xalloc.h"

#define MAX_TRAILS 20		/* deadlock states pan reports per mode before it stops */
#define MAX_MODES 3

/* One buffering mode to search. */
struct mode {
	struct mpiv_buffering b;
	char name[32];		/* mpiv_buffering_name(): "zero", "eager-65536"; also its
				 * subdirectory */
};

static const char check_usage[] =
	"usage: mpiverify check [DIR] [--buffering MODE] [-o OUTDIR] [--json]\n"
	"       mpiverify check --promela FILE [--buffering MODE] [DIR]\n"
	"\n"
	"Translate the traces in DIR (default ./mpiverify-trace) into a model and let SPIN\n"
	"explore every behaviour for deadlocks: every match of a wildcard receive and, per\n"
	"buffering mode, whether standard sends are buffered.\n"
	"\n"
	"  --buffering MODE  zero (no standard send is buffered), infinite (all are),\n"
	"                    eager:BYTES (those up to BYTES are), or all (zero and infinite,\n"
	"                    with each deadlock classified; the default)\n"
	"  -o, --output DIR  where the model, SPIN's files and cex.json go (default DIR/check)\n"
	"      --json        print the verdict and the deadlocks as one JSON document\n"
	"      --time-limit SEC    stop each search after SEC seconds (default 600)\n"
	"      --memory-limit MB   stop each search at MB megabytes (default 2048)\n"
	"      --promela FILE      write a standalone Promela model of the traces into FILE\n"
	"                    (- for standard output) instead of searching: one process per\n"
	"                    rank, MPI's rules in Promela, the buffering mode (default zero)\n"
	"                    a #define; check it with spin -a FILE && cc -o pan pan.c && ./pan\n"
	"  -h, --help        this help\n"
	"\n"
	"A search stopped by a limit never answers \"no deadlock\": it is inconclusive.\n"
	"\n"
	"Reductions that record --check-reductions found wrong are MPI correctness errors:\n"
	"they are listed, and check exits 1 for them whatever the search finds.\n"
	"\n"
	"exit: 0 no deadlock, 1 deadlock (or reduction error) found, 2 usage, 3 bad trace,\n"
	"4 spin or the C compiler failed, 5 inconclusive (the search was cut short);\n"
	"with --promela: 0 written, 3 a call or a size the standalone model cannot encode\n";

static void add_mode_to_search(struct mode *modes, int *n, enum mpiv_buffering_mode mode,
			       long long bytes)
{
	struct mode *m = &modes[(*n)++];

	m->b.mode = mode;
	m->b.bytes = bytes;
	mpiv_buffering_name(&m->b, m->name, sizeof(m->name));
}

/* --buffering's modes to search. Returns 0 or -1. */
static int parse_modes(const char *arg, struct mode *modes, int *n)
{
	struct mpiv_buffering b[2];
	int k, nb;

	*n = 0;
	if (mpiv_buffering_arg(arg, b, &nb) < 0)
		return -1;
	for (k = 0; k < nb; k++)
		add_mode_to_search(modes, n, b[k].mode, b[k].bytes);
	return 0;
}

/* Remove the trails of an earlier run, so that only this run's are read. */
static void clean_mode_dir(const char *dir)
{
	char path[PATH_MAX];
	int i;

	/* a name cut short would remove another file: none is longer than the directory's
	 * own files (check_mode made it) by more than a dozen bytes, and it is checked */
	for (i = 1; i <= MAX_TRAILS + 1; i++)
		if (snprintf(path, sizeof(path), "%s/model.pml%d.trail", dir, i) < (int)sizeof(path))
			unlink(path);
	if (snprintf(path, sizeof(path), "%s/model.pml.trail", dir) < (int)sizeof(path))
		unlink(path);
}

/* Whether name is one cex_path() makes: cex.json, cex-N.json. */
static int is_cex_name(const char *name)
{
	const char *p;

	if (!strcmp(name, "cex.json"))
		return 1;
	if (strncmp(name, "cex-", 4))
		return 0;
	for (p = name + 4; *p >= '0' && *p <= '9'; p++)
		;
	return p > name + 4 && !strcmp(p, ".json");
}

/* Remove the counterexamples an earlier check left in outdir: a deadlock it found and this
 * one does not must not look found. Returns 0, or -1 with err filled. */
static int remove_old_cex(const char *outdir, struct mpiv_error *err)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(outdir);
	int rc = 0;

	if (!d)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, outdir, -1, -1, "cannot read: %s",
				      strerror(errno));
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!is_cex_name(e->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", outdir, e->d_name) >= (int)sizeof(path) ||
		    (unlink(path) != 0 && errno != ENOENT))
			rc = mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cannot remove "
					    "the counterexample of an earlier check: %s",
					    strerror(errno));
	}
	closedir(d);
	return rc;
}

/* Where the i-th distinct deadlock's cex goes: cex.json, cex-2.json, ... */
static char *cex_path(const char *outdir, int i)
{
	size_t n = strlen(outdir) + 32;
	char *buf = xmalloc(n);

	if (i == 1)
		snprintf(buf, n, "%s/cex.json", outdir);
	else
		snprintf(buf, n, "%s/cex-%d.json", outdir, i);
	return buf;
}

struct check_run {
	double seconds;			/* time limit of each search, 0 for none */
	const struct mpiv_traceset *ts;
	struct eng_prog *prog;
	const char *outdir;		/* absolute */
	char pan[PATH_MAX];		/* the verifier (spin_verifier()) */
	long memory_mb;			/* memory limit of each search */
	struct tr_deadlocks found;
	int incomplete;			/* some mode's search was cut short */
	json_t *modes_json;
};

/* Write each deadlock's counterexample: cex.json, cex-2.json, ... Returns 0, or -1 with err
 * filled. */
static int save_cexes(struct check_run *run, struct mpiv_error *err)
{
	int i;

	for (i = 0; i < run->found.n; i++) {
		run->found.d[i].path = cex_path(run->outdir, i + 1);
		if (mpiv_cex_save(run->found.d[i].path, &run->found.d[i].cex, err))
			return -1;
	}
	return 0;
}

/* The eager threshold of the library every rank ran with, on one host (mpilib.c), or -1. */
static long long library_eager(const struct mpiv_traceset *ts)
{
	int r;

	for (r = 1; r < ts->nranks; r++)
		if (strcmp(ts->ranks[r].library, ts->ranks[0].library) ||
		    strcmp(ts->ranks[r].host, ts->ranks[0].host))
			return -1;
	return ts->nranks ? mpiv_mpilib_eager(ts->ranks[0].library) : -1;
}

static int check_mode(struct check_run *run, const struct mode *m, struct mpiv_error *err)
{
	char dir[PATH_MAX], dat[PATH_MAX + 16];
	struct spin_result res;
	int i;
	FILE *f;

	if (snprintf(dir, sizeof(dir), "%s/%s", run->outdir, m->name) >= (int)sizeof(dir))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, run->outdir, -1, -1,
				      "output directory name too long");
	if (outdir_make(dir))
		return mpiv_error_set(err, MPIV_EXIT_TOOL, dir, -1, -1, "cannot create: %s",
				      strerror(errno));
	clean_mode_dir(dir);
	run->prog->buffering = (enum eng_buffering)m->b.mode;
	run->prog->eager = m->b.bytes;
	snprintf(dat, sizeof(dat), "%s/model.dat", dir);
	f = fopen(dat, "w");
	if (!f)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, dat, -1, -1, "cannot create: %s",
				      strerror(errno));
	if (tr_emit(run->prog, f, dat, err) | fclose(f))
		return mpiv_error_set(err, MPIV_EXIT_TOOL, dat, -1, -1, "cannot write");
	if (spin_search(run->pan, dir, tr_search_depth(run->prog), run->memory_mb, MAX_TRAILS,
			run->seconds, &res, err))
		return -1;
	if (!res.complete)
		run->incomplete = 1;
	json_array_append_new(run->modes_json,
			      json_pack("{s:s, s:b, s:s?, s:I, s:i}", "mode", m->name, "complete",
					res.complete, "why", res.complete ? NULL : res.why,
					"states", (json_int_t)res.states, "deadlock_states",
					res.errors));
	for (i = 0; i < res.ntrails; i++) {
		struct mpiv_cex cex;
		int *choices = NULL, n = 0, rc;

		if (spin_trail_choices(run->pan, dir, res.trails[i], &choices, &n, err)) {
			spin_result_release(&res);
			return -1;
		}
		rc = tr_cex(run->prog, run->ts, choices, n, &m->b, &cex, err);
		free(choices);
		if (rc < 0) {
			spin_result_release(&res);
			return -1;
		}
		if (rc == 0) {
			/* an overflow state, or pan and the engine disagree: never a verdict */
			mpiv_cex_release(&cex);
			run->incomplete = 1;
			warning("mode %s: trail '%s' does not end in a deadlock; treating the search "
				"as inconclusive", m->name, res.trails[i]);
			continue;
		}
		tr_deadlocks_add(&run->found, &cex);
	}
	spin_result_release(&res);
	return 0;
}

/* After a spin_* call failed: 128 + the signal if check was told to stop (which spin_stopped
 * says), else err's exit code once it is printed. */
static int stopped_or_report(const struct mpiv_error *err)
{
	int sig = spin_stopped();

	return sig ? 128 + sig : (int)error_report(err);
}

static void release_run(struct check_run *run)
{
	tr_deadlocks_release(&run->found);
	json_decref(run->modes_json);
}

/* --promela FILE: the standalone Promela model of the traces in dir, in buffering b, into
 * path ("-": standard output). Returns the exit code. */
static int write_promela(const char *path, const char *dir, const struct mpiv_buffering *b)
{
	struct tr_opts topts = {(enum eng_buffering)b->mode, b->bytes, 0, 0};
	struct tr_promela_opts popts = {(enum eng_buffering)b->mode, b->bytes, 0, 0};
	struct tr_promela_input in;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct eng_prog prog;
	int to_stdout = !strcmp(path, "-"), rc;
	FILE *f;

	mpiv_error_init(&err);
	if (mpiv_traceset_load(dir, &ts, &err))
		return error_report(&err);
	if (tr_translate(&ts, &topts, &prog, &err)) {
		mpiv_traceset_release(&ts);
		return error_report(&err);
	}
	f = to_stdout ? stdout : fopen(path, "w");
	if (!f) {
		rc = error("cannot create '%s': %s", path, strerror(errno));
		eng_prog_release(&prog);
		mpiv_traceset_release(&ts);
		return MPIV_EXIT_BAD_INPUT;
	}
	in.prog = &prog;
	in.ts = &ts;
	rc = tr_promela(f, to_stdout ? "model.pml" : path, &in, 1, &popts, NULL, &err);
	if (!to_stdout && fclose(f) && rc == 0)
		rc = mpiv_error_set(&err, MPIV_EXIT_TOOL, path, -1, -1, "cannot write: %s",
				    strerror(errno));
	if (rc && !to_stdout)
		unlink(path);	/* no half a model */
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return rc ? error_report(&err) : MPIV_EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"buffering", required_argument, NULL, 'b'},
		{"output", required_argument, NULL, 'o'},
		{"json", no_argument, NULL, 'j'},
		{"time-limit", required_argument, NULL, 'T'},
		{"memory-limit", required_argument, NULL, 'M'},
		{"promela", required_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct mode modes[MAX_MODES];
	int nmodes = 0, as_json = 0, c, i, rc, all = 1, buffering_given = 0;
	long long eager = -1;
	char modes_str[MAX_MODES * (sizeof(modes[0].name) + 2)] = "";
	double seconds = 600;
	long memory_mb = 2048;
	char *end;
	const char *dir = "mpiverify-trace", *out = NULL, *promela = NULL;
	char outbuf[PATH_MAX], outdir[PATH_MAX];
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct eng_prog prog;
	struct tr_opts topts = {ENG_BUF_ZERO, 0, 0, 0};
	struct check_run run;
	struct tr_warning *warns = NULL;
	int nwarns, finished, nstops = 0, nred;

	parse_modes("all", modes, &nmodes);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:o:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (parse_modes(optarg, modes, &nmodes))
				return usage_error("check", "unknown buffering mode '%s'", optarg);
			all = !strcmp(optarg, "all");
			buffering_given = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'j':
			as_json = 1;
			break;
		case 'T':
			/* 0 is refused, not read as "no limit": every command's seconds
			 * options want a positive number */
			if (parse_seconds(optarg, &seconds) < 0)
				return usage_error("check", "invalid --time-limit '%s': expected a "
						   "positive number of seconds", optarg);
			break;
		case 'M':
			memory_mb = strtol(optarg, &end, 10);
			if (end == optarg || *end || memory_mb < 16)
				return usage_error("check", "invalid --memory-limit '%s': expected "
						   "megabytes, at least 16", optarg);
			break;
		case 'P':
			if (!*optarg)
				return usage_error("check", "empty --promela file name");
			promela = optarg;
			break;
		case 'h':
			fputs(check_usage, stdout);
			return MPIV_EXIT_OK;
		default:
			return option_error("check", c, argv);
		}
	}
	if (optind < argc)
		dir = argv[optind++];
	if (optind < argc)
		return usage_error("check", "unexpected argument '%s'", argv[optind]);
	if (promela) {
		/* one model, one mode: zero unless --buffering names another */
		if (buffering_given && nmodes != 1)
			return usage_error("check", "--promela writes one buffering mode: zero, "
					   "infinite or eager:BYTES");
		if (!buffering_given)
			parse_modes("zero", modes, &nmodes);
		return write_promela(promela, dir, &modes[0].b);
	}

	spin_catch_signals();
	mpiv_error_init(&err);
	if (mpiv_traceset_load(dir, &ts, &err))
		return error_report(&err);
	nred = report_reduction_errors(&ts);
	if (all && (eager = library_eager(&ts)) >= 0) {
		add_mode_to_search(modes, &nmodes, MPIV_BUF_EAGER, eager);
	}
	for (i = 0; i < nmodes; i++) {
		if (i)
			strncat(modes_str, ", ", sizeof(modes_str) - strlen(modes_str) - 1);
		strncat(modes_str, modes[i].name, sizeof(modes_str) - strlen(modes_str) - 1);
	}
	if (!out) {
		snprintf(outbuf, sizeof(outbuf), "%s/check", dir);
		out = outbuf;
	}
	if (outdir_make(out) || !realpath(out, outdir)) {
		rc = error("cannot create output directory '%s': %s", out, strerror(errno));
		mpiv_traceset_release(&ts);
		return MPIV_EXIT_BAD_INPUT;
	}
	if (remove_old_cex(outdir, &err)) {
		mpiv_traceset_release(&ts);
		return error_report(&err);
	}
	if (tr_translate(&ts, &topts, &prog, &err)) {
		mpiv_traceset_release(&ts);
		return error_report(&err);
	}
	nwarns = tr_warnings(&prog, &ts, &warns);
	memset(&run, 0, sizeof(run));
	if (spin_verifier(outdir, prog.words, run.pan, sizeof(run.pan), &err)) {
		free(warns);
		eng_prog_release(&prog);
		mpiv_traceset_release(&ts);
		return stopped_or_report(&err);
	}
	run.memory_mb = memory_mb;
	run.seconds = seconds;
	run.ts = &ts;
	run.prog = &prog;
	run.outdir = outdir;
	run.modes_json = json_array();
	rc = MPIV_EXIT_OK;
	for (i = 0; i < nmodes && rc == MPIV_EXIT_OK; i++)
		if (check_mode(&run, &modes[i], &err))
			rc = stopped_or_report(&err);
	if (rc == MPIV_EXIT_OK) {
		tr_deadlocks_merge(&run.found);
		if (save_cexes(&run, &err))
			rc = error_report(&err);
	}
	for (i = 0; i < run.found.n; i++) {
		int zero = 0, buffered = 0, m;

		for (m = 0; m < nmodes; m++) {
			if (modes[m].b.mode == MPIV_BUF_ZERO)
				zero = 1;
			else if (modes[m].b.mode == MPIV_BUF_INFINITE || !all)
				buffered = 1;
		}
		run.found.d[i].classified = zero && buffered && !run.incomplete;
		run.found.d[i].recorded = tr_on_recorded_path(&prog, &ts, &run.found.d[i].cex);
		run.found.d[i].eager = eager;
	}
	/* a run in which some rank did not finish is not a whole path: never "no deadlock" */
	finished = tr_all_finished(&ts);
	if (rc == MPIV_EXIT_OK)
		rc = run.found.n ? MPIV_EXIT_DEADLOCK :
		     run.incomplete || !finished ? MPIV_EXIT_INCONCLUSIVE : MPIV_EXIT_OK;
	if (as_json && rc <= MPIV_EXIT_DEADLOCK + 4) {
		json_t *doc = json_object(), *dl = json_array();

		for (i = 0; i < run.found.n; i++)
			json_array_append_new(dl, report_deadlock_json(&ts, &run.found.d[i]));
		json_object_set_new(doc, "format", json_string("mpiverify-check"));
		json_object_set_new(doc, "version", json_integer(1));
		json_object_set_new(doc, "trace", mpiv_json_text(dir));
		json_object_set_new(doc, "verdict",
				    json_string(rc == MPIV_EXIT_DEADLOCK ? "deadlock" :
						rc == MPIV_EXIT_INCONCLUSIVE ? "inconclusive" :
						rc == MPIV_EXIT_OK ? "no deadlock" : "error"));
		json_object_set_new(doc, "exit", json_integer(report_reductions_exit(rc, nred)));
		if (rc == MPIV_EXIT_INCONCLUSIVE)
			json_object_set_new(doc, "why", json_string(
				run.incomplete ? "a search was cut short" :
				"some ranks did not finish: the run is not a whole path"));
		json_object_set_new(doc, "stopped", report_stops_json(&ts, &prog));
		json_object_set_new(doc, "modes", json_incref(run.modes_json));
		json_object_set_new(doc, "deadlocks", dl);
		json_object_set_new(doc, "errors", report_reductions_json(json_array(), &ts, 1));
		json_object_set_new(doc, "warnings",
				    report_reductions_json(report_warnings_json(&ts, warns, nwarns),
							   &ts, 0));
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(doc);
	} else if (rc <= MPIV_EXIT_INCONCLUSIVE && rc != MPIV_EXIT_USAGE) {
		report_trace_notes(stdout, &ts);
		nstops = report_stops(stdout, &ts, &prog);
		report_warnings(stdout, &ts, warns, nwarns);
		report_reductions(stdout, &ts);
		if (rc == MPIV_EXIT_DEADLOCK) {
			printf("mpiverify: %d deadlock%s found on the recorded path of '%s'\n",
			       run.found.n, run.found.n == 1 ? "" : "s", dir);
			for (i = 0; i < run.found.n; i++)
				report_deadlock(stdout, &ts, &run.found.d[i], i + 1, run.found.n);
		}
		for (i = 0; i < (int)json_array_size(run.modes_json); i++) {
			json_t *m = json_array_get(run.modes_json, i);

			if (!json_is_true(json_object_get(m, "complete")))
				printf("%ssearch with buffering %s was cut short: %s\n",
				       rc == MPIV_EXIT_DEADLOCK ? "\nnote: " : "",
				       json_string_value(json_object_get(m, "mode")),
				       json_string_value(json_object_get(m, "why")));
		}
		if (rc == MPIV_EXIT_OK)
			printf("mpiverify: no deadlock on the recorded path of '%s' (buffering: %s)\n",
			       dir, modes_str);
		else if (rc == MPIV_EXIT_INCONCLUSIVE && run.incomplete)
			printf("mpiverify: inconclusive: no deadlock found, but the search was not "
			       "complete\n");
		else if (rc == MPIV_EXIT_INCONCLUSIVE)
			printf("mpiverify: inconclusive: no deadlock among what was recorded, but %d "
			       "rank%s did not finish (above): the rest of the run is unknown\n",
			       nstops, nstops == 1 ? "" : "s");
		if (nred)
			printf("mpiverify: %d MPI correctness error%s in reductions (above)\n", nred,
			       nred == 1 ? "" : "s");
	}
	release_run(&run);
	free(warns);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return report_reductions_exit(rc, nred);
}
