/* The run's own path walked in its model (stuck.c), for explore.c's hung runs and for
 * explore_stuck_now() (explore.h). */
#ifndef MPIV_EXPLORE_STUCK_H
#define MPIV_EXPLORE_STUCK_H

#include "explore.h"

/* Does prog, the model of trace ts, walked along the run's own path with standard sends
 * buffered as b (and eager) says and collectives synchronising if sync_colls, end stuck with
 * no choice left? With strict, only a walk that found every choice in the trace counts. */
int explore_stuck_on_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			  enum eng_buffering b, long long eager, int sync_colls, int strict);

/* The buffering a run of item (NULL: the first run) had its standard sends in: the item's
 * mode where it forced them, else the library's eager threshold, if known (*known, unless
 * known is NULL, 0 if not: zero then). */
enum eng_buffering explore_run_buffering(const struct mpiv_traceset *ts, const struct xitem *it,
					 long long *eager, int *known);

#endif
