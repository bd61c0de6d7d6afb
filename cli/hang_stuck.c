/* A standstill judged on the run's traces so far (hang_stuck.h). */
#include "hang_stuck.h"
#include "trace.h"

int hang_stuck(void *ctx, const struct monitor_result *res)
{
	const struct hang_stuck *h = ctx;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	int k, stuck = 0;

	mpiv_error_init(&err);
	/* the status said each blocked call was flushed: a trace that does not read is one no
	 * later period will read better */
	if (mpiv_traceset_load_records(h->dir, &ts, &err) < 0)
		return 0;
	if (ts.nranks != res->size)
		goto out;
	for (k = 0; k < res->size; k++) {
		const struct monitor_rank *m = &res->ranks[k];
		const struct mpiv_rank_trace *t = &ts.ranks[k];

		if (m->state == MPIV_ST_IN_CALL &&
		    (!t->incomplete || m->op < 0 || t->nevents != (size_t)m->op + 1 ||
		     mpiv_trace_event(t, (size_t)m->op)->call != m->call)) {
			stuck = -1;
			goto out;
		}
	}
	stuck = explore_stuck_now(&ts, h->item);
out:
	mpiv_traceset_release(&ts);
	return stuck;
}
