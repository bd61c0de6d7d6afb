/* verify's answer (verify.h): a progress line per run on a terminal; then the deadlocks the
 * real MPI library showed (each with every rank's blocked call and stack, and the decisions
 * that lead there), the model's deadlocks it did not show and why, and the coverage; as text,
 * as one JSON document (doc/verify.md) or as SARIF; and the report files in verify's output
 * directory (report_files.h), all from that document, with what suppressions hide. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diag.h"
#include "report_files.h"
#include "verify.h"

static const char *end_name(enum xrun_end e)
{
	switch (e) {
	case XRUN_COMPLETED:
		return "completed";
	case XRUN_CONFIRMED:
		return "deadlocked as predicted";
	case XRUN_HUNG:
		return "deadlocked";
	case XRUN_PINNED:
		return "hung on a forced match";
	case XRUN_STOPPED:
		return "a rank stopped";
	case XRUN_FAILED:
		return "failed";
	default:
		return "interrupted";
	}
}

/* What run r was for, in a few words. */
static const char *purpose(const struct xrun *r)
{
	if (!r->item)
		return "first run";
	return r->item->kind == XITEM_DEADLOCK ? "confirm" : "explore";
}

void verify_progress(void *ctx, const struct explore *x, const struct xrun *r, int running)
{
	const struct verify_opts *o = ctx;

	(void)x;
	if (!o->tty)
		return;
	fprintf(stderr, "mpiverify: run %d (%s%s%s): %s%s [%d running]\n", r->index, purpose(r),
		r->item ? ": " : "", r->item ? r->item->what : "", end_name(r->end),
		r->left ? ", left the steered path" : "", running);
}

/* "verdict: 1 deadlock and 1 collective mismatch confirmed on the real MPI library" */
static void print_found_verdict(const struct explore *x, const struct findings *fs)
{
	static const char *const one[] = {"deadlock", "collective mismatch", "crash"};
	static const char *const many[] = {"deadlocks", "collective mismatches", "crashes"};
	int i, k, n[3] = {0, 0, 0}, kinds = 0, said = 0;

	for (i = 0; i < x->nfound; i++)
		if (!findings_hidden(fs, "deadlocks", i))
			n[x->found[i].kind]++;
	for (k = 0; k < 3; k++)
		kinds += n[k] > 0;
	printf("verdict: ");
	for (k = 0; k < 3; k++) {
		if (!n[k])
			continue;
		said++;
		printf("%s%d %s",
		       said == 1     ? "" :
		       said == kinds ? " and " :
				       ", ",
		       n[k], n[k] == 1 ? one[k] : many[k]);
	}
	printf(" confirmed on the real MPI library\n");
}

static void print_text(const struct explore *x, int rc, const struct findings *fs)
{
	int i;

	for (i = 0; i < x->nfound; i++) {
		const struct xdeadlock *d = &x->found[i];
		const struct xrun *r = d->run;

		if (findings_hidden(fs, "deadlocks", i))
			continue;
		if (d->kind == XFOUND_MISMATCH)
			printf("collective mismatch %d: the ranks of run %d called different "
			       "collectives, or named different roots, at the same place (standard "
			       "sends: %s); erroneous whether or not the library completed it:\n",
			       i + 1, r->index, d->mode);
		else if (d->kind == XFOUND_CRASH)
			printf("crash %d: confirmed on the real MPI library (run %d, standard sends: "
			       "%s): %s\n",
			       i + 1, r->index, d->mode, r->stopped);
		else
			printf("deadlock %d: confirmed on the real MPI library (run %d, standard "
			       "sends: %s)\n",
			       i + 1, r->index, d->mode);
		if (d->predicted && r->item)
			printf("  the model predicted: %s\n", r->item->what);
		if (r->report)
			fputs(r->report, stdout);
		if (d->kind == XFOUND_CRASH)
			printf("  its output: %s\n", r->out_path);
		if (r->item) {
			printf("  the decisions that lead there (steering file %s):\n",
			       r->steer_path);
			explore_print_decisions(stdout, r, "    ");
		} else {
			printf("  on the first run, without steering\n");
		}
		printf("  trace: %s\n\n", r->dir);
	}
	for (i = 0; i < x->nunconfirmed; i++) {
		const struct xrun *r = x->unconfirmed[i].run;

		printf("not confirmed: the model deadlocks with %s; run %d: %s\n", r->item->what,
		       r->index, x->unconfirmed[i].why);
	}
	for (i = 0; i < x->nruns; i++)
		if (x->runs[i]->end == XRUN_STOPPED && !x->runs[i]->crashed)
			printf("run %d: %s (trace %s)\n", x->runs[i]->index, x->runs[i]->stopped,
			       x->runs[i]->dir);
	printf("coverage: %d run%s; %d decision%s explored by a run, %d left; %d deadlock%s of the "
	       "model refuted by a run\n",
	       x->nruns, x->nruns == 1 ? "" : "s", x->explored, x->explored == 1 ? "" : "s",
	       x->left, x->refuted, x->refuted == 1 ? "" : "s");
	if (!x->merged && x->unmerged_why[0])
		printf("note: each run was modelled on its own (%s)\n", x->unmerged_why);
	if (x->lost)
		printf("lost: %d run%s lost twice with a node of the cluster, left unexplored\n",
		       x->lost, x->lost == 1 ? "" : "s");
	if (x->left_why[0])
		printf("stopped early: %s, with %d run%s still to make\n", x->left_why, x->left,
		       x->left == 1 ? "" : "s");
	if (x->incomplete)
		printf("a search was cut short: %s\n", x->incomplete_why);
	if (x->threads_why[0])
		printf("threads: the runs may not cover every run: %s\n", x->threads_why);
	if (x->polls_why[0])
		printf("polls: the runs may not cover every run: %s\n", x->polls_why);
	findings_print_suppressed(stdout, fs);
	switch (rc) {
	case MPIV_EXIT_DEADLOCK:
		print_found_verdict(x, fs);
		break;
	case MPIV_EXIT_OK:
		printf("verdict: no deadlock on any path%s; every decision explored\n",
		       x->nfound ? " but those suppressed" : "");
		break;
	default:
		printf("verdict: inconclusive: %s%s\n",
		       x->nfound ? "no deadlock but those "
				   "suppressed, and " :
				   "",
		       x->left		   ? "decisions are left unexplored" :
		       x->incomplete	   ? "a search was cut short" :
		       x->nunconfirmed	   ? "the model has deadlocks no run showed" :
		       x->threads_why[0]   ? "threads left choices no run was steered to" :
		       x->polls_why[0]	   ? "a rank polled receives in turn, an order no run "
					     "was steered to" :
		       explore_left_out(x) ? "calls verify cannot judge yet were left out" :
					     "a rank stopped in some run");
	}
}

/* Why verify is inconclusive, each reason a word a script can test (doc/verify.md): decisions
 * left unexplored, a search cut short, deadlocks of the model no run showed, runs of threads
 * that may stand for runs none made, receives polled in turn, calls left out, a rank of some
 * run stopped from outside
 * (what is left when none of the others is). */
static json_t *inconclusive_json(const struct explore *x)
{
	json_t *why = json_array();

	if (x->left)
		json_array_append_new(why, json_string("decisions-left"));
	if (x->incomplete)
		json_array_append_new(why, json_string("search-cut"));
	if (x->nunconfirmed)
		json_array_append_new(why, json_string("unconfirmed"));
	if (x->threads_why[0])
		json_array_append_new(why, json_string("threads-unsteered"));
	if (x->polls_why[0])
		json_array_append_new(why, json_string("polls-unsteered"));
	if (explore_left_out(x))
		json_array_append_new(why, json_string("calls-left-out"));
	if (!json_array_size(why))
		json_array_append_new(why, json_string("ranks-stopped"));
	return why;
}

static json_t *run_json(const struct explore *x, const struct xrun *r)
{
	return json_pack("{s:i, s:s, s:s, s:s?, s:s?, s:b, s:s?, s:i, s:f, s:f}", "run", r->index,
			 "trace", r->dir, "end", end_name(r->end), "purpose",
			 r->item ? r->item->what : NULL, "steering", r->steer_path,
			 "left_steered_path", r->left, "stopped", r->stopped, "round", r->round,
			 "started", r->started - x->started, "ended", r->ended - x->started);
}

/* verify's document (doc/verify.md); each deadlock's entry also has its kind, blocked calls
 * and wait-for edges from its run (report_details_run()), whose details for report.html go
 * into *details. */
static json_t *verify_document(const struct explore *x, int rc, json_t **details)
{
	static const int kind_of[] = {
		[XFOUND_DEADLOCK] = MPIV_FIND_DEADLOCK,
		[XFOUND_MISMATCH] = MPIV_FIND_COLL_MISMATCH,
		[XFOUND_CRASH] = MPIV_FIND_CRASH,
	};
	json_t *doc, *found = json_array(), *unconf = json_array(), *runs = json_array();
	int i;

	*details = json_array();
	for (i = 0; i < x->nfound; i++) {
		const struct xdeadlock *d = &x->found[i];
		json_t *e = json_pack("{s:s, s:i, s:s, s:b, s:s?, s:s?, s:s?, s:s?, s:s?}", "kind",
				      mpiv_finding_kind_name(kind_of[d->kind]), "run",
				      d->run->index, "buffering", d->mode, "predicted",
				      d->predicted, "model",
				      d->run->item ? d->run->item->what : NULL, "report",
				      d->run->report, "steering",
				      d->run->item ? d->run->item->steer : NULL, "trace",
				      d->run->dir, "stopped",
				      d->kind == XFOUND_CRASH ? d->run->stopped : NULL);

		json_array_append_new(*details, report_details_run(d->run->dir, d->mode, e));
		json_array_append_new(found, e);
	}
	for (i = 0; i < x->nunconfirmed; i++)
		json_array_append_new(unconf, json_pack("{s:i, s:s, s:s}", "run",
							x->unconfirmed[i].run->index, "model",
							x->unconfirmed[i].run->item->what, "why",
							x->unconfirmed[i].why));
	for (i = 0; i < x->nruns; i++)
		json_array_append_new(runs, run_json(x, x->runs[i]));
	doc = json_pack(
		"{s:s, s:i, s:s, s:i, s:o, s:o, s:{s:i, s:i, s:i, s:i, s:i, s:b, s:s?, s:b, s:I},"
		" s:o}",
		"format", "mpiverify-verify", "version", 1, "verdict",
		rc == MPIV_EXIT_DEADLOCK ? "deadlock" :
		rc == MPIV_EXIT_OK	 ? "no deadlock" :
					   "inconclusive",
		"exit", rc, "deadlocks", found, "unconfirmed", unconf, "coverage", "runs", x->nruns,
		"decisions_explored", x->explored, "decisions_left", x->left, "refuted", x->refuted,
		"lost", x->lost, "complete", !x->left && !x->incomplete, "stopped_early",
		x->left_why[0] ? x->left_why : NULL, "merged", x->merged, "states",
		(json_int_t)x->states, "runs", runs);
	if (rc == MPIV_EXIT_INCONCLUSIVE)
		json_object_set_new(doc, "inconclusive", inconclusive_json(x));
	return doc;
}

int verify_report(const struct verify_opts *o, const struct explore *x, int rc)
{
	struct findings fs;
	json_t *details, *doc = verify_document(x, rc, &details);

	findings_of(&fs, doc);
	findings_suppress(&fs, &o->findings.supps, o->findings.ignore_below);
	rc = findings_exit(rc, &fs, !explore_whole(x));
	json_object_set_new(doc, "exit", json_integer(rc));
	json_object_set_new(doc, "suppressed", json_integer(fs.nsuppressed));
	if (report_files(x->outdir, doc, &fs, details) < 0) {
		rc = MPIV_EXIT_BAD_INPUT;
	} else if (o->findings.output == OUT_JSON) {
		json_dumpf(doc, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
	} else if (o->findings.output == OUT_SARIF) {
		report_sarif(stdout, doc, &fs);
	} else if (o->findings.output == OUT_GCC) {
		report_gcc(stdout, doc, &fs);
	} else {
		print_text(x, rc, &fs);
	}
	if (rc != MPIV_EXIT_BAD_INPUT && findings_gen(&o->findings, &fs) < 0)
		rc = MPIV_EXIT_BAD_INPUT;
	findings_release(&fs);
	json_decref(doc);
	return rc;
}
