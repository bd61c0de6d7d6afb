/* A standstill judged on the run's traces so far (hang_stuck.h). */
#include <sys/stat.h>

#include "hang_stuck.h"
#include "trace.h"

/* The most bytes of trace files a standstill is judged on: some 8 bytes an event, about a
 * million events, read and walked in well under a second. A longer run's hang (one that
 * hung after hours) is left to the timeout rather than read whole, in memory, by the monitor
 * that must go on watching. */
#define HANG_STUCK_MAX_BYTES (8L << 20)

/* Whether the rank files of the size ranks in dir hold at most HANG_STUCK_MAX_BYTES. */
static int small_enough(const char *dir, int size)
{
	char path[4200];
	struct stat st;
	long total = 0;
	int r;

	for (r = 0; r < size; r++) {
		if (!mpiv_trace_rank_file(dir, r, path, sizeof(path)) || stat(path, &st) < 0)
			return 0;
		total += (long)st.st_size;
		if (total > HANG_STUCK_MAX_BYTES)
			return 0;
	}
	return 1;
}

void hang_stuck_ask(struct monitor_expect *expect, struct hang_stuck *h, const char *dir,
		    const struct xitem *item)
{
	h->dir = dir;
	h->item = item;
	expect->stuck = hang_stuck;
	expect->stuck_ctx = h;
}

int hang_stuck(void *ctx, const struct monitor_result *res)
{
	const struct hang_stuck *h = ctx;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	int k, stuck = 0;

	if (!small_enough(h->dir, res->size))
		return 0;
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
		const struct mpiv_event *ev;

		if (m->state != MPIV_ST_IN_CALL)
			continue;
		/* its blocked call is the last event; with threads, the status names the
		 * longest blocked, which another's blocked call may follow */
		ev = t->incomplete && m->op >= 0 && (size_t)m->op < t->nevents &&
				     (t->threaded || t->nevents == (size_t)m->op + 1) ?
			     mpiv_trace_event(t, (size_t)m->op) :
			     NULL;
		if (!ev || ev->call != m->call || !(ev->flags & MPIV_EV_INCOMPLETE)) {
			stuck = -1;
			goto out;
		}
	}
	stuck = explore_stuck_now(&ts, h->item);
out:
	mpiv_traceset_release(&ts);
	return stuck;
}
