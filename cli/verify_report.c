/* verify's answer (verify.h): a progress line per run on a terminal; then the deadlocks the
 * real MPI library showed (each with every rank's blocked call and stack, and the decisions
 * that lead there), the model's deadlocks it did not show and why, and the coverage; as text,
 * or as one JSON document (doc/verify.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diag.h"
#include "verify.h"

static const char *end_name(enum vrun_end e)
{
	switch (e) {
	case VRUN_COMPLETED:
		return "completed";
	case VRUN_CONFIRMED:
		return "deadlocked as predicted";
	case VRUN_HUNG:
		return "deadlocked";
	case VRUN_PINNED:
		return "hung on a forced match";
	case VRUN_STOPPED:
		return "a rank stopped";
	case VRUN_FAILED:
		return "failed";
	default:
		return "interrupted";
	}
}

/* What run r was for, in a few words. */
static const char *purpose(const struct vrun *r)
{
	if (!r->item)
		return "first run";
	return r->item->kind == VITEM_DEADLOCK ? "confirm" : "explore";
}

void verify_progress(const struct verify *v, const struct vrun *r)
{
	if (!v->tty)
		return;
	fprintf(stderr, "mpiverify: run %d (%s%s%s): %s%s\n", r->index, purpose(r),
		r->item ? ": " : "", r->item ? r->item->what : "", end_name(r->end),
		r->left ? ", left the steered path" : "");
}

/* The decisions run r was steered with, one rank a line, from its steering file's text. */
static void print_steering(FILE *f, const struct vrun *r, const char *indent)
{
	const char *p = r->item ? r->item->steer : NULL, *nl;

	if (!p)
		return;
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (strncmp(p, "mpiverify-steer", 15))
			fprintf(f, "%s%.*s\n", indent, nl ? (int)(nl - p) : (int)strlen(p), p);
		if (!nl)
			break;
	}
}

static void print_text(const struct verify *v, int rc)
{
	int i;

	for (i = 0; i < v->nfound; i++) {
		const struct vdeadlock *d = &v->found[i];
		const struct vrun *r = d->run;

		printf("deadlock %d: confirmed on the real MPI library (run %d, standard sends: "
		       "%s)\n", i + 1, r->index, d->mode);
		if (d->predicted && r->item)
			printf("  the model predicted: %s\n", r->item->what);
		if (r->report)
			fputs(r->report, stdout);
		if (r->item) {
			printf("  the decisions that lead there (steering file %s):\n",
			       r->steer_path);
			print_steering(stdout, r, "    ");
		} else {
			printf("  on the first run, without steering\n");
		}
		printf("  trace: %s\n\n", r->dir);
	}
	for (i = 0; i < v->nunconfirmed; i++) {
		const struct vrun *r = v->unconfirmed[i].run;

		printf("not confirmed: the model deadlocks with %s; run %d: %s\n",
		       r->item->what, r->index, v->unconfirmed[i].why);
	}
	for (i = 0; i < v->nruns; i++)
		if (v->runs[i]->end == VRUN_STOPPED)
			printf("run %d: %s (trace %s)\n", v->runs[i]->index, v->runs[i]->stopped,
			       v->runs[i]->dir);
	printf("coverage: %d run%s; %d decision%s explored by a run, %d left; %d deadlock%s of the "
	       "model refuted by a run that took another path\n", v->nruns,
	       v->nruns == 1 ? "" : "s", v->explored, v->explored == 1 ? "" : "s", v->left,
	       v->refuted, v->refuted == 1 ? "" : "s");
	if (!v->merged && v->unmerged_why[0])
		printf("note: each run was modelled on its own (%s)\n", v->unmerged_why);
	if (v->left_why[0])
		printf("stopped early: %s, with %d run%s still to make\n", v->left_why, v->left,
		       v->left == 1 ? "" : "s");
	if (v->incomplete)
		printf("a search was cut short: %s\n", v->incomplete_why);
	switch (rc) {
	case MPIV_EXIT_DEADLOCK:
		printf("verdict: %d deadlock%s confirmed on the real MPI library\n", v->nfound,
		       v->nfound == 1 ? "" : "s");
		break;
	case MPIV_EXIT_OK:
		printf("verdict: no deadlock on any path; every decision explored\n");
		break;
	default:
		printf("verdict: inconclusive: %s\n",
		       v->left ? "decisions are left unexplored" :
		       v->incomplete ? "a search was cut short" :
		       v->nunconfirmed ? "the model has deadlocks no run showed" :
		       "a rank stopped in some run");
	}
}

static json_t *run_json(const struct vrun *r)
{
	return json_pack("{s:i, s:s, s:s, s:s?, s:s?, s:b, s:s?}", "run", r->index, "trace",
			 r->dir, "end", end_name(r->end), "purpose", r->item ? r->item->what : NULL,
			 "steering", r->steer_path, "left_steered_path", r->left, "stopped",
			 r->stopped);
}

static void print_json(const struct verify *v, int rc)
{
	json_t *doc, *found = json_array(), *unconf = json_array(), *runs = json_array();
	char *text;
	int i;

	for (i = 0; i < v->nfound; i++) {
		const struct vdeadlock *d = &v->found[i];

		json_array_append_new(found,
				      json_pack("{s:i, s:s, s:b, s:s?, s:s?, s:s?, s:s?}", "run",
						d->run->index, "buffering", d->mode, "predicted",
						d->predicted, "model", d->run->item ?
						d->run->item->what : NULL, "report", d->run->report,
						"steering", d->run->item ? d->run->item->steer : NULL,
						"trace", d->run->dir));
	}
	for (i = 0; i < v->nunconfirmed; i++)
		json_array_append_new(unconf, json_pack("{s:i, s:s, s:s}", "run",
							v->unconfirmed[i].run->index, "model",
							v->unconfirmed[i].run->item->what, "why",
							v->unconfirmed[i].why));
	for (i = 0; i < v->nruns; i++)
		json_array_append_new(runs, run_json(v->runs[i]));
	doc = json_pack("{s:s, s:i, s:s, s:i, s:o, s:o, s:{s:i, s:i, s:i, s:i, s:b, s:s?, s:b},"
			" s:o}",
			"format", "mpiverify-verify", "version", 1, "verdict",
			rc == MPIV_EXIT_DEADLOCK ? "deadlock" : rc == MPIV_EXIT_OK ? "no deadlock" :
			"inconclusive", "exit", rc, "deadlocks", found, "unconfirmed", unconf,
			"coverage", "runs", v->nruns, "decisions_explored", v->explored,
			"decisions_left", v->left, "refuted", v->refuted, "complete",
			!v->left && !v->incomplete, "stopped_early", v->left_why[0] ? v->left_why :
			NULL, "merged", v->merged, "runs", runs);
	text = json_dumps(doc, JSON_INDENT(2));
	if (text)
		printf("%s\n", text);
	free(text);
	json_decref(doc);
}

void verify_report(const struct verify *v, int rc)
{
	if (v->json)
		print_json(v, rc);
	else
		print_text(v, rc);
}
