/* Whether a run under way that every rank sits still in can never move again, from its traces
 * so far: the monitor's question (monitor_expect.stuck) for record's runs and verify's. */
#ifndef MPIV_HANG_STUCK_H
#define MPIV_HANG_STUCK_H

#include "explore.h"
#include "monitor.h"

struct hang_stuck {
	const char *dir;	  /* the run's trace directory */
	const struct xitem *item; /* verify: what the run is for; NULL for record's, a first */
};

/* monitor_expect.stuck, ctx a struct hang_stuck: 1 if the traces in ctx's dir, every rank
 * blocked or finished as res says, show that no call can complete any more
 * (explore_stuck_now()); -1 if they do not show each blocked call yet (written, incomplete,
 * as its rank's last event); 0 if not, or if they cannot be read (a window of record --last
 * that dropped the run's first calls: the readers refuse it), or are too long to be read now
 * (over 8 MiB of files: a run that hung after hours). */
int hang_stuck(void *ctx, const struct monitor_result *res);

/* Have the monitor ask it (expect->stuck) of the run in dir, made for item (NULL: record's run,
 * or verify's first), through h, which must outlive the watch. */
void hang_stuck_ask(struct monitor_expect *expect, struct hang_stuck *h, const char *dir,
		    const struct xitem *item);

#endif
