/* check's report of the reduction check's findings (record --check-reductions): a library's
 * reduction result that the second computation contradicts, a reduction that failed, one
 * whose second computation received damaged data, and the reductions that could not be
 * checked. They are MPI correctness errors, not deadlocks: check lists them apart and exits
 * 1 for them whatever the search finds (doc/reductions.md). */
#include <string.h>

#include "finding.h"
#include "findings.h"
#include "report.h"
#include "srcloc.h"
#include "translate.h"

/* Calls each finding of kind errors (1) or notes (0) in rank order, then order written. */
#define FOR_FINDINGS(ts, errors, r, k, red)                            \
	for ((r) = 0; (r) < (ts)->nranks; (r)++)                       \
		for ((k) = 0; (k) < (ts)->ranks[r].nreductions; (k)++) \
			if (((red) = &(ts)->ranks[r].reductions[k]) && \
			    mpiv_red_is_error((red)->what) == !!(errors))

/* ", checked at event 9 (MPI_Wait)" for a nonblocking reduction, else "". */
static void checked_at(const struct mpiv_traceset *ts, int r, const struct mpiv_reduction *red,
		       char *buf, size_t size)
{
	buf[0] = '\0';
	if (red->done != red->event)
		snprintf(buf, size, ", checked at event %u (%s)", red->done,
			 mpiv_call_name(mpiv_trace_event(&ts->ranks[r], red->done)->call));
}

/* The findings of kind errors (1) or notes (0), but those fs hides: the document's "errors",
 * or its "warnings" from index first on. */
static void print_findings(FILE *f, const struct mpiv_traceset *ts, int errors,
			   const struct findings *fs, int first)
{
	const char *section = errors ? "errors" : "warnings";
	char desc[256], where[512], at[64], text[1024];
	const struct mpiv_reduction *red;
	size_t k;
	int r, i = first, n = 0;

	FOR_FINDINGS(ts, errors, r, k, red)
	n += !findings_hidden(fs, section, i++);
	if (!n)
		return;
	i = first;
	if (errors)
		fprintf(f,
			"MPI correctness errors in reductions (%d), found by record "
			"--check-reductions:\n",
			n);
	else
		fprintf(f, "reductions not checked (%d call site%s):\n", n, n == 1 ? "" : "s");
	FOR_FINDINGS(ts, errors, r, k, red)
	{
		if (findings_hidden(fs, section, i++))
			continue;
		tr_describe_event(ts, r, red->event, desc, sizeof(desc));
		site_str(ts, r, red->event, where, sizeof(where));
		checked_at(ts, r, red, at, sizeof(at));
		mpiv_red_describe(red, text, sizeof(text));
		fprintf(f, "  rank %d %s at %s, event %u%s: %s\n", r, desc, where, red->event, at,
			text);
	}
}

void report_reductions(FILE *f, const struct mpiv_traceset *ts, const struct findings *fs,
		       int nwarns)
{
	print_findings(f, ts, 1, fs, 0);
	print_findings(f, ts, 0, fs, nwarns);
}

/* The finding kind of each reduction record: its name in the JSON document (finding.c). */
static const int kinds[] = {
	[MPIV_RED_MISMATCH] = MPIV_FIND_RED_MISMATCH,
	[MPIV_RED_FAILED] = MPIV_FIND_RED_FAILED,
	[MPIV_RED_CORRUPT] = MPIV_FIND_RED_CORRUPT,
	[MPIV_RED_UNCHECKED] = MPIV_FIND_RED_UNCHECKED,
};

json_t *report_reductions_json(json_t *a, const struct mpiv_traceset *ts, int errors)
{
	const struct mpiv_reduction *red;
	char desc[256], text[1024];
	struct mpiv_cex_site s;
	size_t k;
	int r;

	FOR_FINDINGS(ts, errors, r, k, red)
	{
		json_t *o;

		tr_describe_event(ts, r, red->event, desc, sizeof(desc));
		mpiv_red_describe(red, text, sizeof(text));
		o = json_pack("{s:s, s:i, s:I, s:s, s:I, s:s, s:s, s:s}", "kind",
			      mpiv_finding_kind_name(kinds[red->what]), "rank", r, "event",
			      (json_int_t)red->event, "call", desc, "checked_at",
			      (json_int_t)red->done, "type", red->type, "op", red->op, "text",
			      text);
		if (!site_of(ts, r, red->event, &s)) {
			json_object_set_new(o, "site", site_json(&s));
			mpiv_cex_site_release(&s);
		}
		if (red->what == MPIV_RED_MISMATCH) {
			json_object_set_new(o, "count", json_integer((json_int_t)red->count));
			json_object_set_new(o, "differ", json_integer((json_int_t)red->differ));
			json_object_set_new(o, "first", json_integer((json_int_t)red->first));
			json_object_set_new(o, "element_type", json_string(red->elem));
			json_object_set_new(o, "library", json_string(red->got));
			json_object_set_new(o, "reliable", json_string(red->want));
			json_object_set_new(o, "tolerance", json_real(red->rel));
			json_object_set_new(o, "allowed", json_real(red->allowed));
			json_object_set_new(o, "tolerance_given",
					    json_boolean(red->flags & MPIV_RED_TOL_GIVEN));
		}
		if (red->what == MPIV_RED_FAILED)
			json_object_set_new(o, "code", json_integer(red->code));
		if (red->what == MPIV_RED_CORRUPT)
			json_object_set_new(o, "peer", json_integer(red->peer));
		if (red->what != MPIV_RED_UNCHECKED)
			json_object_set_new(o, "corrected",
					    json_boolean(red->flags & MPIV_RED_CORRECTED));
		json_array_append_new(a, o);
	}
	return a;
}
