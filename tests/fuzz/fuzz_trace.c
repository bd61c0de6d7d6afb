/* Fuzz target: binary rank traces (rank-N.mpivt, base/tracefmt.c and common/trace.c) and
 * the replayer's reader of the same files (replayer/rep_trace.c). The input is a trace
 * directory: split before every later occurrence of the magic "MPIVTRC\0", each piece is
 * the file of the next rank (a seed is rank files concatenated). A directory that reads goes
 * through check's pipeline (fuzz.h), read as check reads it (the events kept as records);
 * every file the common reader accepts must be one the replayer accepts too, with the same
 * events, and read as records the same again (or refused with the same error). Read as
 * `mpiverify trace` reads it, a window of a run's last calls (record --last) must print. */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "replayer.h"
#include "tracefmt.h"

#define MAX_RANKS 8

/* The replayer reads rank r's file as the common reader did (t): same events, same fields. */
static void same_in_replayer(const struct mpiv_rank_trace *t, int r)
{
	char why[1024];
	uint32_t i, j;

	if (rep_trace_load(fuzz_dir(), r, why, sizeof(why)))
		fuzz_fail("rank %d: the replayer refuses what check reads: %s", r, why);
	if (rep_trace_count() != t->nevents)
		fuzz_fail("rank %d: the replayer reads %u events, check %zu", r, rep_trace_count(),
			  t->nevents);
	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *ev = &t->events[i];
		const struct rep_expect *x = rep_trace_event(i);
		const int32_t *reqs;

		if (!x)
			fuzz_fail("rank %d: the replayer cannot read event %u: %s", r, i,
				  rep_trace_error() ? rep_trace_error() : "?");
		if (x->call != ev->call || x->flags != ev->flags || x->peer != ev->peer ||
		    x->tag != ev->tag || x->comm != ev->comm || x->root != ev->root ||
		    x->win != ev->win || x->src != ev->src || x->nreqs != ev->nreqs ||
		    x->npending != ev->npending || x->bytes != ev->bytes)
			fuzz_fail("rank %d: event %u reads otherwise in the replayer", r, i);
		reqs = rep_trace_reqs(x);
		for (j = 0; j < ev->nreqs; j++)
			if (!reqs || reqs[j] != ev->reqs[j].req)
				fuzz_fail("rank %d: event %u's request %u reads otherwise in the "
					  "replayer",
					  r, i, j);
	}
	rep_trace_release();
}

/* The file at path read as records is what t (read decoded) is, or refused as it was (err). */
static void same_as_records(const char *path, const struct mpiv_rank_trace *t,
			    const struct mpiv_error *err)
{
	struct mpiv_rank_trace rt;
	struct mpiv_error rerr;
	size_t i, k;

	mpiv_error_init(&rerr);
	if (mpiv_trace_load_records(path, &rt, &rerr) != (t ? 0 : -1))
		fuzz_fail("%s: read as records, %s", path, t ? rerr.text : "it is accepted");
	if (!t) {
		if (strcmp(rerr.text, err->text))
			fuzz_fail("%s: refused as records with '%s', decoded with '%s'", path,
				  rerr.text, err->text);
		return;
	}
	if (rt.nevents != t->nevents || rt.truncated != t->truncated ||
	    rt.incomplete != t->incomplete || rt.kinds != t->kinds)
		fuzz_fail("%s: read as records, another trace", path);
	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *a = &t->events[i], *b = mpiv_trace_event(&rt, i);

		if (a->call != b->call || a->flags != b->flags || a->peer != b->peer ||
		    a->tag != b->tag || a->comm != b->comm || a->root != b->root ||
		    a->src != b->src || a->mtag != b->mtag || a->thread != b->thread ||
		    a->bytes != b->bytes || a->site != b->site || a->repeat != b->repeat ||
		    a->nreqs != b->nreqs || a->ngroup != b->ngroup || a->npending != b->npending ||
		    a->data != b->data || a->rdata != b->rdata)
			fuzz_fail("%s: event %zu reads otherwise as a record", path, i);
		for (k = 0; k < a->nreqs; k++)
			if (a->reqs[k].req != b->reqs[k].req || a->reqs[k].src != b->reqs[k].src ||
			    a->reqs[k].data != b->reqs[k].data)
				fuzz_fail("%s: event %zu's request %zu reads otherwise as a record",
					  path, i, k);
		for (k = 0; k < a->ngroup; k++)
			if (a->group[k] != b->group[k])
				fuzz_fail("%s: event %zu's group reads otherwise as a record", path,
					  i);
	}
	mpiv_rank_trace_release(&rt);
}

/* t as `mpiverify trace` prints it. */
static void fuzz_show(const struct mpiv_rank_trace *t)
{
	FILE *f = fopen("/dev/null", "w");

	if (!f)
		fuzz_fail("cannot open /dev/null");
	if (mpiv_trace_write_json(f, t))
		fuzz_fail("rank %d: a trace that reads does not print as JSON", t->rank);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *at[MAX_RANKS + 1];
	struct mpiv_traceset ts;
	struct mpiv_error err;
	char name[32];
	size_t i;
	int n = 0, r;

	fuzz_clear();
	at[n++] = data;
	for (i = 1; i + MPIV_TRACE_MAGIC_LEN <= size && n < MAX_RANKS; i++)
		if (!memcmp(data + i, MPIV_TRACE_MAGIC, MPIV_TRACE_MAGIC_LEN))
			at[n++] = data + i;
	at[n] = data + size;
	for (r = 0; r < n; r++) {
		snprintf(name, sizeof(name), MPIV_TRACE_BIN_FILE, r);
		fuzz_write(name, at[r], (size_t)(at[r + 1] - at[r]));
	}
	/* each file alone, as `mpiverify trace FILE` and the replayer read it */
	for (r = 0; r < n; r++) {
		struct mpiv_rank_trace t;
		char path[512], why[1024];

		snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, fuzz_dir(), r);
		/* as `mpiverify trace` reads it, a window of the run's last calls too: shown */
		mpiv_trace_windows_read = 1;
		mpiv_error_init(&err);
		if (mpiv_trace_load_bin(path, &t, &err) == 0) {
			fuzz_show(&t);
			mpiv_rank_trace_release(&t);
		}
		mpiv_trace_windows_read = 0;
		mpiv_error_init(&err);
		if (mpiv_trace_load_bin(path, &t, &err) == 0) {
			same_as_records(path, &t, NULL);
			if (t.rank == r)
				same_in_replayer(&t, r);
			mpiv_rank_trace_release(&t);
		} else if (same_as_records(path, NULL, &err),
			   rep_trace_load(fuzz_dir(), r, why, sizeof(why)) == 0) {
			/* the replayer may take more (it skips what it does not compare); what it
			 * takes must read */
			uint32_t k;

			for (k = 0; k < rep_trace_count(); k++)
				rep_trace_event(k);
			rep_trace_release();
		}
	}
	mpiv_error_init(&err);
	if (mpiv_traceset_load_records(fuzz_dir(), &ts, &err) == 0) {
		fuzz_pipeline(&ts, data, size < 64 ? size : 64);
		mpiv_traceset_release(&ts);
	}
	return 0;
}
