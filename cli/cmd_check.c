/* mpiverify check: its options, the check itself (check/check.h), and the report. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "cli.h"
#include "diag.h"
#include "findings.h"
#include "report.h"
#include "report_files.h"
#include "translate.h"

static const char check_usage[] =
	"usage: mpiverify check [DIR] [--buffering MODE] [-o OUTDIR]\n"
	"                       [--json | --sarif | --diagnostics-format=gcc]\n"
	"                       [--suppressions FILE]... [--gen-suppressions[=FILE]]\n"
	"                       [--ignore-potential-below BYTES] [--time-limit SEC]\n"
	"                       [--memory-limit MB] [--full-search] [--swarm N]\n"
	"       mpiverify check --promela FILE [--buffering MODE] [DIR]\n"
	"\n"
	"Translate the traces in DIR (default ./mpiverify-trace) into a model and let SPIN\n"
	"explore every behaviour for deadlocks: every match of a wildcard receive and, per\n"
	"buffering mode, whether standard sends are buffered.\n"
	"\n"
	"  --buffering MODE  zero (no standard send is buffered), infinite (all are),\n"
	"                    eager:BYTES (those up to BYTES are), or all (zero and infinite,\n"
	"                    with each deadlock classified; the default)\n"
	"  -o, --output DIR  where the model, SPIN's files, cex.json and the reports go\n"
	"                    (default DIR/check)\n"
	"      --json        print the verdict and the findings as one JSON document\n"
	"      --sarif       print them as a SARIF 2.1.0 log (report.sarif) instead\n"
	"      --diagnostics-format=gcc  print them as compilers do, a FILE:LINE: error:\n"
	"                    line a finding and notes, for editors and CI\n"
	"      --suppressions FILE  leave the findings FILE names out of the exit status,\n"
	"                    listed as suppressed (repeatable; doc/reports.md)\n"
	"      --gen-suppressions[=FILE]  write a suppression for each finding, into FILE\n"
	"                    or after the report on standard output\n"
	"      --ignore-potential-below BYTES  suppress the potential deadlocks whose\n"
	"                    unbuffered standard sends are all smaller than BYTES\n"
	"      --time-limit SEC    stop each search after SEC seconds (default 600)\n"
	"      --memory-limit MB   stop each search at MB megabytes, the program it walks\n"
	"                          included (default 2048)\n"
	"      --full-search       offer the search every choice, without its reductions\n"
	"                          (the same verdict, slower: for comparing)\n"
	"      --swarm N     for a search one core cannot finish: N bitstate searches per\n"
	"                    mode, each in its own order, at once on the CPUs; they find\n"
	"                    deadlocks (each checked as usual) but never prove there is\n"
	"                    none: without one found the verdict is inconclusive\n"
	"      --promela FILE      write a standalone Promela model of the traces into FILE\n"
	"                    (- for standard output) instead of searching: one process per\n"
	"                    rank, MPI's rules in Promela, the buffering mode (default zero)\n"
	"                    a #define; check it with spin -a FILE && cc -o pan pan.c && ./pan\n"
	"  -h, --help        this help\n"
	"\n"
	"OUTDIR also gets report.html (the findings with space-time diagrams, for a\n"
	"browser), report.sarif (for CI) and waits-for.dot (for Graphviz).\n"
	"\n"
	"A search stopped by a limit never answers \"no deadlock\": it is inconclusive.\n"
	"\n"
	"Reductions that record --check-reductions found wrong are MPI correctness errors:\n"
	"they are listed, and check exits 1 for them whatever the search finds.\n"
	"\n"
	"exit: 0 no deadlock (or every one suppressed), 1 deadlock (or reduction error) found,\n"
	"2 usage, 3 bad trace or suppressions file, 4 spin or the C compiler failed,\n"
	"5 inconclusive (the search was cut short, a rank did not finish, or check left out\n"
	"calls it cannot judge yet);\n"
	"with --promela: 0 written, 3 a call or a size the standalone model cannot encode\n";

/* What the command line asks for. */
struct check_args {
	struct check_plan plan;
	struct findings_opts o;
};

/* The text report: notes, stopped ranks, warnings, reduction errors, the deadlocks fs does not
 * hide, the suppressed ones, and the verdict; search_rc is the search's answer. */
static void print_text(const struct check_result *run, const struct check_outcome *co,
		       const struct findings *fs, int search_rc)
{
	const struct mpiv_traceset *ts = co->ts;
	const char *but = search_rc == MPIV_EXIT_DEADLOCK ? " but those suppressed" : "";
	int i, nstops, shown = findings_shown(fs, 1), nred = findings_shown(fs, 0);

	report_trace_notes(stdout, ts);
	nstops = report_stops(stdout, ts, co->prog);
	report_warnings(stdout, ts, co->warns, co->nwarns, fs);
	report_reductions(stdout, ts, fs, co->nwarns);
	if (search_rc == MPIV_EXIT_DEADLOCK && shown) {
		printf("mpiverify: %d deadlock%s found on the recorded path of '%s'", shown,
		       shown == 1 ? "" : "s", co->dir);
		if (shown < run->found.n)
			printf(" (and %d suppressed, below)", run->found.n - shown);
		putchar('\n');
		for (i = 0; i < run->found.n; i++)
			if (!findings_hidden(fs, "deadlocks", i))
				report_deadlock(stdout, ts, &run->found.d[i], i + 1, run->found.n);
	}
	for (i = 0; i < run->nsearches; i++)
		if (!run->searches[i].complete)
			printf("%ssearch with buffering %s was cut short: %s\n",
			       search_rc == MPIV_EXIT_DEADLOCK ? "\nnote: " : "",
			       run->searches[i].mode, run->searches[i].why);
	if (fs->nsuppressed) {
		putchar('\n');
		findings_print_suppressed(stdout, fs);
	}
	if (search_rc == MPIV_EXIT_DEADLOCK && shown)
		; /* the deadlocks above are the answer */
	else if (!co->incomplete && !nstops)
		printf("mpiverify: no deadlock on the recorded path of '%s'%s (buffering: %s)\n",
		       co->dir, but, run->modes);
	else if (co->incomplete)
		printf("mpiverify: inconclusive: no deadlock found%s, but the search was not "
		       "complete\n",
		       but);
	else if (tr_left_out(ts) == nstops)
		printf("mpiverify: inconclusive: no deadlock among the calls check judged%s, but "
		       "it left out those of %d rank%s from one it cannot judge yet (above)\n",
		       but, nstops, nstops == 1 ? "" : "s");
	else
		printf("mpiverify: inconclusive: no deadlock among what was recorded%s, but %d "
		       "rank%s did not finish (above): the rest of the run is unknown\n",
		       but, nstops, nstops == 1 ? "" : "s");
	if (nred)
		printf("mpiverify: %d MPI correctness error%s in reductions (above)\n", nred,
		       nred == 1 ? "" : "s");
}

/* The searches' modes as the document has them (doc/check-json.md). */
static json_t *searches_json(const struct check_result *run)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < run->nsearches; i++) {
		const struct check_search *s = &run->searches[i];

		json_array_append_new(a, json_pack("{s:s, s:b, s:s?, s:I, s:i}", "mode", s->mode,
						   "complete", s->complete, "why",
						   s->complete ? NULL : s->why, "states",
						   (json_int_t)s->states, "deadlock_states",
						   s->deadlock_states));
	}
	return a;
}

/* check's answer search_rc (OK, DEADLOCK or INCONCLUSIVE) on run: the document, the findings
 * it holds and what suppressions hide, the files of the output directory, and what standard
 * output shows. Returns the exit status. */
static int report(struct check_args *a, const struct check_result *run, int search_rc)
{
	json_t *modes = searches_json(run);
	const struct check_outcome co = {a->plan.dir, &run->ts,	   run->prog, &run->found,    modes,
					 run->warns,  run->nwarns, search_rc, run->incomplete};
	struct findings fs;
	json_t *doc = check_document(&co);
	int rc;

	if (run->segments)
		json_object_set_new(doc, "segments",
				    json_pack("{s:i, s:I}", "count", run->segments, "most_events",
					      (json_int_t)run->most));

	findings_of(&fs, doc);
	findings_suppress(&fs, &a->o.supps, a->o.ignore_below);
	rc = findings_exit(search_rc, &fs, run->incomplete || !tr_all_finished(&run->ts));
	json_object_set_new(doc, "exit", json_integer(rc));
	json_object_set_new(doc, "suppressed", json_integer(fs.nsuppressed));
	if (report_files(run->outdir, doc, &fs, report_details_check(&co)) < 0) {
		rc = MPIV_EXIT_BAD_INPUT;
	} else if (a->o.output == OUT_JSON) {
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	} else if (a->o.output == OUT_SARIF) {
		report_sarif(stdout, doc, &fs);
	} else if (a->o.output == OUT_GCC) {
		report_gcc(stdout, doc, &fs);
	} else {
		print_text(run, &co, &fs, search_rc);
	}
	if (rc != MPIV_EXIT_BAD_INPUT && findings_gen(&a->o, &fs) < 0)
		rc = MPIV_EXIT_BAD_INPUT;
	findings_release(&fs);
	json_decref(doc);
	json_decref(modes);
	return rc;
}

/* --promela FILE: the model of the traces in dir, in buffering b. Returns the exit code. */
static int write_promela(const char *path, const char *dir, const struct mpiv_buffering *b)
{
	struct mpiv_error err;

	mpiv_error_init(&err);
	return check_promela(path, dir, b, &err) ? (int)error_report(&err) : MPIV_EXIT_OK;
}

/* The check itself, once the command line is read: the verdict reported, or the failure. */
static int check(struct check_args *a)
{
	struct check_result run;
	struct mpiv_error err;
	int rc;

	mpiv_error_init(&err);
	rc = check_traces(&a->plan, &run, &err);
	if (rc < 0)
		return run.signal ? 128 + run.signal : (int)error_report(&err);
	rc = report(a, &run, rc);
	check_result_release(&run);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"buffering", required_argument, NULL, 'b'},
		{"output", required_argument, NULL, 'o'},
		FINDINGS_LONGOPTS,
		{"time-limit", required_argument, NULL, 'T'},
		{"memory-limit", required_argument, NULL, 'M'},
		{"full-search", no_argument, NULL, 'F'},
		{"swarm", required_argument, NULL, 'S'},
		{"promela", required_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct check_args a;
	const char *promela = NULL;
	char *end;
	int c, rc = -1, help = 0, buffering_given = 0;

	memset(&a, 0, sizeof(a));
	a.plan.dir = "mpiverify-trace";
	a.plan.all = 1;
	a.plan.seconds = 600;
	a.plan.memory_mb = 2048;
	check_plan_modes(&a.plan, "all");
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":b:o:h", longopts, NULL)) != -1) {
		if ((rc = findings_option(&a.o, "check", c, optarg)) >= 0) {
			rc = rc ? rc : -1;
			continue;
		}
		switch (c) {
		case 'b':
			if (check_plan_modes(&a.plan, optarg))
				rc = usage_error("check", "unknown buffering mode '%s'", optarg);
			a.plan.all = !strcmp(optarg, "all");
			buffering_given = 1;
			break;
		case 'o':
			a.plan.out = optarg;
			break;
		case 'T':
			/* 0 is refused, not read as "no limit": every command's seconds
			 * options want a positive number */
			if (parse_seconds(optarg, &a.plan.seconds) < 0)
				rc = usage_error("check",
						 "invalid --time-limit '%s': expected a "
						 "positive number of seconds",
						 optarg);
			break;
		case 'M':
			a.plan.memory_mb = strtol(optarg, &end, 10);
			if (end == optarg || *end || a.plan.memory_mb < 16)
				rc = usage_error("check",
						 "invalid --memory-limit '%s': expected "
						 "megabytes, at least 16",
						 optarg);
			break;
		case 'F':
			a.plan.full = 1;
			break;
		case 'S':
			a.plan.swarm = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || a.plan.swarm < 1 || a.plan.swarm > 1000)
				rc = usage_error("check",
						 "invalid --swarm '%s': expected a number of "
						 "searches, 1 to 1000",
						 optarg);
			break;
		case 'P':
			if (!*optarg)
				rc = usage_error("check", "empty --promela file name");
			promela = optarg;
			break;
		case 'h':
			fputs(check_usage, stdout);
			help = 1;
			rc = MPIV_EXIT_OK;
			break;
		default:
			rc = option_error("check", c, argv);
			break;
		}
	}
	if (rc < 0 && optind < argc)
		a.plan.dir = argv[optind++];
	if (rc < 0 && optind < argc)
		rc = usage_error("check", "unexpected argument '%s'", argv[optind]);
	if (rc < 0 && promela) {
		/* one model, one mode: zero unless --buffering names another */
		if (buffering_given && a.plan.nmodes != 1)
			rc = usage_error("check", "--promela writes one buffering mode: zero, "
						  "infinite or eager:BYTES");
		else if (a.plan.swarm)
			rc = usage_error("check", "--promela writes a model instead of searching: "
						  "--swarm has nothing to do with it");
		else
			rc = write_promela(promela, a.plan.dir,
					   buffering_given ?
						   &a.plan.modes[0].b :
						   &(struct mpiv_buffering){MPIV_BUF_ZERO, 0, 0});
		findings_opts_release(&a.o);
		return rc;
	}
	if (rc < 0)
		rc = findings_options_done(&a.o, "check");
	if (!rc && !help)
		rc = check(&a);
	findings_opts_release(&a.o);
	return rc;
}
