/* What check prints: the report a person reads, and the same as JSON (--json). */
#ifndef MPIV_REPORT_H
#define MPIV_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "cex.h"
#include "trace.h"
#include "translate.h"

/* "deadlock", "potential deadlock" or "buffering-induced deadlock", with a line saying
 * what that means, from the modes the deadlock was found in. */
const char *report_class(const struct tr_deadlock *d, const char **meaning);

/* Print deadlock number i (from 1) of n. */
void report_deadlock(FILE *f, const struct mpiv_traceset *ts, const struct tr_deadlock *d,
		     int i, int n);

/* Notes on the traces themselves: truncated files, a recorded run that hung. */
void report_trace_notes(FILE *f, const struct mpiv_traceset *ts);

/* The ranks that did not finish (tr_stop.c): how each stopped, its last call with file:line,
 * and who waited for it on the recorded path; returns how many (nothing printed for 0). */
int report_stops(FILE *f, const struct mpiv_traceset *ts, const struct eng_prog *prog);

/* The same as a JSON array. */
json_t *report_stops_json(const struct mpiv_traceset *ts, const struct eng_prog *prog);

/* The warnings of the recorded run (tr_warnings()), as lines under a heading; nothing when
 * n is 0. */
void report_warnings(FILE *f, const struct mpiv_traceset *ts, const struct tr_warning *w, int n);

/* The same as a JSON array. */
json_t *report_warnings_json(const struct mpiv_traceset *ts, const struct tr_warning *w, int n);

/* The report of one deadlock as JSON. */
json_t *report_deadlock_json(const struct mpiv_traceset *ts, const struct tr_deadlock *d);

/* ---- call sites, for every part of the report ---- */

/* Resolve the call site of rank r's event e into s; 0, or -1 when it is not known. */
int site_of(const struct mpiv_traceset *ts, int r, long e, struct mpiv_cex_site *s);

/* The same as "file:line (function)", or "unknown location". */
void site_str(const struct mpiv_traceset *ts, int r, long e, char *buf, size_t size);

/* A resolved site as {"function", "file", "line"}. */
json_t *site_json(const struct mpiv_cex_site *s);

/* ---- report_reduce.c: the reduction check's findings (record --check-reductions) ---- */

/* The number of MPI correctness errors the reduction check found in ts (mismatches, failed
 * and corrupted reductions; not the reductions it could not check). */
int report_reduction_errors(const struct mpiv_traceset *ts);

/* The errors, then the reductions not checked, each under a heading, one line each, in rank
 * and event order; nothing when there are none. */
void report_reductions(FILE *f, const struct mpiv_traceset *ts);

/* Append the errors (errors != 0) or the reductions not checked to the JSON array a, as
 * entries of kind "reduction-mismatch", "reduction-failed", "reduction-corrupt" or
 * "reduction-unchecked" (doc/check-json.md). Returns a. */
json_t *report_reductions_json(json_t *a, const struct mpiv_traceset *ts, int errors);

/* What check exits with: rc, or 1 (MPIV_EXIT_DEADLOCK) when nerrors reduction errors were
 * found and the search found no deadlock (0) or could not tell (5). */
int report_reductions_exit(int rc, int nerrors);

#endif
