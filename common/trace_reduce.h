/* A rank trace's reduction findings as JSON (trace_reduce.c), for trace_json.c: the
 * "reductions" array of a rank-N.json file (doc/trace-format.md). */
#ifndef MPIV_TRACE_REDUCE_H
#define MPIV_TRACE_REDUCE_H

#include <jansson.h>

#include "trace.h"

/* t's findings as a JSON array (new reference), or NULL when it has none. */
json_t *mpiv_reductions_to_json(const struct mpiv_rank_trace *t);

/* Add the findings of a (the file's "reductions", NULL if absent) to t, whose events are
 * read. Returns 0, or -1 with err filled (BAD_INPUT, with the JSON path of the field). */
int mpiv_reductions_from_json(json_t *a, struct mpiv_rank_trace *t, struct mpiv_error *err);

#endif
