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

#endif
