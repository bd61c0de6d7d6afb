/* verify's words for what a run did (explore.h): a call with its place in the source, and the
 * decisions a run was steered with, each at the call that made it in the run's own trace. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "explore.h"
#include "srcloc.h"
#include "steer.h"
#include "trace_threads.h"

void explore_event_where(const struct mpiv_traceset *ts, int r, long e, char *buf, size_t size)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	struct mpiv_cex_site site;
	char desc[256], loc[600];
	uint64_t at;
	size_t n;

	tr_describe_event(ts, r, e, desc, sizeof(desc));
	snprintf(buf, size, "%s", desc);
	if (e < 0 || (size_t)e >= t->nevents || !(at = mpiv_trace_event(t, (size_t)e)->site))
		return;
	memset(&site, 0, sizeof(site));
	if (mpiv_srcloc_resolve(mpiv_trace_module(t, at), MPIV_SITE_ADDR(at), &site) == 0) {
		mpiv_srcloc_format(&site, loc, sizeof(loc));
		n = strlen(buf);
		snprintf(buf + n, size - n, " at %s", loc);
	}
	mpiv_cex_site_release(&site);
}

/* One decision of rank r, as it was taken at event e of ts, into buf. */
static void decision_text(const struct mpiv_traceset *ts, int r, long e,
			  const struct mpiv_steer_decision *d, char *buf, size_t size)
{
	char made[1024];
	int32_t thread;
	size_t n;
	uint32_t j;

	explore_event_where(ts, r, e, buf, size);
	n = strlen(buf);
	if (d->src != MPIV_NONE) {
		/* a probe takes nothing: it finds the message the receive after it takes */
		snprintf(buf + n, size - n, " %s rank %d's message",
			 mpiv_call_kind(d->call) == MPIV_KIND_PROBE ? "finds" : "takes", d->src);
		return;
	}
	snprintf(buf + n, size - n, " completes");
	/* the requests by their numbers among the calling thread's (base/steer.h) */
	thread = mpiv_trace_event(&ts->ranks[r], (size_t)e)->thread;
	for (j = 0; j < d->nreqs; j++) {
		int32_t id = mpiv_thread_request_id(&ts->ranks[r], thread, d->reqs[j]);
		long m = id >= 0 ? mpiv_trace_request_maker(&ts->ranks[r], e, id) : -1;

		n = strlen(buf);
		if (m < 0) {
			snprintf(buf + n, size - n, "%s request %d", j ? "," : "", d->reqs[j]);
			continue;
		}
		explore_event_where(ts, r, m, made, sizeof(made));
		snprintf(buf + n, size - n, "%s the request of %s", j ? "," : "", made);
	}
}

/* Rank r's line (thread path's, unless the initial thread's) for text, taken times decisions
 * in a row. */
static void print_line(FILE *f, const char *indent, int r, const char *path, const char *text,
		       int times)
{
	char who[MPIV_STEER_PATH + 32];

	if (strcmp(path, "0"))
		snprintf(who, sizeof(who), "rank %d thread %s", r, path);
	else
		snprintf(who, sizeof(who), "rank %d", r);
	if (times == 1)
		fprintf(f, "%s%s: %s\n", indent, who, text);
	else if (times > 1)
		fprintf(f, "%s%s, %d decisions in a row: %s\n", indent, who, times, text);
}

/* The decisions d[0..n) of thread path of rank, each at the call that made it in ts, a run of
 * alike ones as one line. */
static void print_decisions(FILE *f, const char *indent, const struct mpiv_traceset *ts, int rank,
			    const char *path, const struct mpiv_steer_decision *d, size_t n)
{
	int32_t thread = mpiv_thread_of_path(&ts->ranks[rank], path);
	char line[2048], prev[2048] = "";
	int times = 0;
	long e = -1;
	size_t k;

	for (k = 0; k < n; k++) {
		/* the thread's k-th decision; none once one is missing */
		if (thread >= 0 && (k == 0 || e >= 0))
			e = mpiv_thread_next_decision(&ts->ranks[rank], thread, (size_t)(e + 1));

		if (e < 0)
			snprintf(line, sizeof(line), "decision %zu, which the run did not reach",
				 k + 1);
		else
			decision_text(ts, rank, e, &d[k], line, sizeof(line));
		if (times && !strcmp(line, prev)) {
			times++;
			continue;
		}
		print_line(f, indent, rank, path, prev, times);
		snprintf(prev, sizeof(prev), "%s", line);
		times = 1;
	}
	print_line(f, indent, rank, path, prev, times);
}

void explore_print_decisions(FILE *f, const struct xrun *r, const char *indent)
{
	struct mpiv_traceset own, *ts = (struct mpiv_traceset *)&r->ts;
	struct mpiv_error err;
	const char *text = r->item ? r->item->steer : NULL;
	char why[1024];
	int rank;

	if (!text)
		return;
	mpiv_error_init(&err);
	if (!r->usable) {
		memset(&own, 0, sizeof(own));
		if (mpiv_traceset_load(r->dir, &own, &err) < 0) {
			mpiv_error_format(&err, why, sizeof(why));
			fprintf(f, "%s(the run's trace cannot be read: %s)\n", indent, why);
			return;
		}
		ts = &own;
	}
	for (rank = 0; rank < ts->nranks; rank++) {
		struct mpiv_steer s;
		size_t i;

		memset(&s, 0, sizeof(s));
		if (mpiv_steer_parse(text, strlen(text), rank, &s, why, sizeof(why)) < 0) {
			fprintf(f, "%s(the steering cannot be read: %s)\n", indent, why);
			mpiv_steer_release(&s);
			break;
		}
		print_decisions(f, indent, ts, rank, "0", s.d, s.n);
		for (i = 0; i < s.nthreads; i++)
			print_decisions(f, indent, ts, rank, s.threads[i].path, s.threads[i].d,
					s.threads[i].n);
		mpiv_steer_release(&s);
	}
	if (ts == &own)
		mpiv_traceset_release(&own);
}
