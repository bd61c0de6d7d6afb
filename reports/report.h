/* What check prints: the report a person reads, and the same as JSON (--json). */
#ifndef MPIV_REPORT_H
#define MPIV_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "cex.h"
#include "trace.h"
#include "translate.h"
#include "tr_check.h"

/* "deadlock", "potential deadlock" or "buffering-induced deadlock", with a line saying
 * what that means, from the modes the deadlock was found in. */
const char *report_class(const struct tr_deadlock *d, const char **meaning);

/* Its kind (enum mpiv_finding_kind): the class above, as suppressions and SARIF name it. */
int report_kind(const struct tr_deadlock *d);

/* The size in bytes of the largest standard send the counterexample has not buffered on the
 * way (sync), or -1 if there is none. */
long long report_unbuffered_max(const struct mpiv_traceset *ts, const struct mpiv_cex *cex);

/* Print deadlock number i (from 1) of n. */
void report_deadlock(FILE *f, const struct mpiv_traceset *ts, const struct tr_deadlock *d, int i,
		     int n);

/* Notes on the traces themselves: truncated files, a recorded run that hung. */
void report_trace_notes(FILE *f, const struct mpiv_traceset *ts);

/* The ranks that did not finish (tr_stop.c): how each stopped, its last call with file:line,
 * and who waited for it on the recorded path; returns how many (nothing printed for 0). */
int report_stops(FILE *f, const struct mpiv_traceset *ts, const struct eng_prog *prog);

/* The same as a JSON array. */
json_t *report_stops_json(const struct mpiv_traceset *ts, const struct eng_prog *prog);

struct findings;

/* The warnings of the recorded run (tr_warnings()), as lines under a heading, but those fs
 * hides (the document's "warnings" entries of the same index; fs may be NULL); nothing when
 * none is left. */
void report_warnings(FILE *f, const struct mpiv_traceset *ts, const struct tr_warning *w, int n,
		     const struct findings *fs);

/* The same as a JSON array. */
json_t *report_warnings_json(const struct mpiv_traceset *ts, const struct tr_warning *w, int n);

/* The ranks of the counterexample's wait-for cycle, in order, each waiting for the next and
 * the last for the first; empty when there is none (ranks wait for finished ranks). */
json_t *report_cycle_json(const struct mpiv_cex *cex);

/* The report of one deadlock as JSON. */
json_t *report_deadlock_json(const struct mpiv_traceset *ts, const struct tr_deadlock *d);

/* ---- check_doc.c: check's JSON document, which every output is made from ---- */

/* What one check found. */
struct check_outcome {
	const char *dir; /* the trace directory, as given */
	const struct mpiv_traceset *ts;
	/* the whole run's program; NULL for one checked a segment at a
	 * time, which found no deadlock and every rank of which finished
	 * (what the program is read for) */
	const struct eng_prog *prog;
	const struct tr_deadlocks *found;
	json_t *modes;			/* one entry per mode searched (borrowed) */
	const struct tr_warning *warns; /* the recorded run's warnings */
	int nwarns;
	/* the search's answer: OK, DEADLOCK or
	 * INCONCLUSIVE */
	int rc;
	int incomplete; /* a search was cut short */
};

/* The document (doc/check-json.md); its "exit" is rc's, which suppressions and the
 * reduction check's errors change after (cmd_check.c). */
json_t *check_document(const struct check_outcome *c);

/* ---- call sites, for every part of the report ---- */

/* Resolve the call site of rank r's event e into s; 0, or -1 when it is not known. */
int site_of(const struct mpiv_traceset *ts, int r, long e, struct mpiv_cex_site *s);

/* The same as "file:line (function)", or "unknown location". */
void site_str(const struct mpiv_traceset *ts, int r, long e, char *buf, size_t size);

/* A resolved site as {"function", "file", "line"}. */
json_t *site_json(const struct mpiv_cex_site *s);

/* ---- report_reduce.c: the reduction check's findings (record --check-reductions) ---- */

/* The errors, then the reductions not checked, each under a heading, one line each, in rank
 * and event order, but those fs hides (may be NULL; the reductions not checked follow the
 * nwarns warnings in the document's "warnings"); nothing when there are none. */
void report_reductions(FILE *f, const struct mpiv_traceset *ts, const struct findings *fs,
		       int nwarns);

/* Append the errors (errors != 0) or the reductions not checked to the JSON array a, as
 * entries of kind "reduction-mismatch", "reduction-failed", "reduction-corrupt" or
 * "reduction-unchecked" (doc/check-json.md). Returns a. */
json_t *report_reductions_json(json_t *a, const struct mpiv_traceset *ts, int errors);

#endif
