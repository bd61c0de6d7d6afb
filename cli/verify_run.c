/* verify's runner (explore.h): one run of the program under the recorder, steered by its
 * steering file, its output kept in a file, watched for the deadlock the model predicts or
 * one confirmed before (then ended within a second), and what the monitor saw of it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "hang_stuck.h"
#include "slurm.h"
#include "status.h"
#include "verify.h"
#include "xalloc.h"

/* The key of the deadlock the monitor sees (explore_key.c). */
static char *hang_key(const struct monitor_result *res)
{
	struct xkey k;
	int r;

	xkey_open(&k);
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (m->seen && m->state == MPIV_ST_IN_CALL)
			xkey_rank(&k, m->call, m->module, MPIV_SITE_ADDR(m->site));
	}
	return xkey_close(&k);
}

/* monitor_expect.known: is the deadlock the monitor sees one a run confirmed already? */
static int known_deadlock(void *ctx, const struct monitor_result *res)
{
	char *key = hang_key(res);
	int known = explore_known(ctx, key);

	free(key);
	return known;
}

/* Did every rank end where the item's deadlock has it? */
static int where_predicted(const struct monitor_result *res, const struct xitem *it)
{
	int r;

	if (!it || it->kind != XITEM_DEADLOCK || res->size != it->nranks)
		return 0;
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen ||
		    (it->call[r] < 0 ?
			     m->state != MPIV_ST_FINALIZED :
			     m->state != MPIV_ST_IN_CALL || m->call != (unsigned)it->call[r] ||
				     (it->event[r] >= 0 && m->op != it->event[r])))
			return 0;
	}
	return 1;
}

/* Where each rank a fatal signal killed died, from the status files the job left in dir
 * (the last each rank wrote); NULL if none did. */
static char *crash_report(const char *dir)
{
	struct monitor_result res;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int n;

	memset(&res, 0, sizeof(res));
	monitor_rescan(dir, &res);
	f = open_memstream(&text, &len);
	if (!f) {
		monitor_result_release(&res);
		return NULL;
	}
	n = monitor_report_crashes(f, &res, dir);
	fclose(f);
	monitor_result_release(&res);
	if (!n) {
		free(text);
		return NULL;
	}
	return text;
}

/* What the monitor saw, into r. */
static void seen(struct explore *x, struct xrun *r, const struct record_result *rr)
{
	const struct monitor_result *res = &rr->res;
	int k;

	for (k = 0; k < res->size; k++)
		if (res->ranks[k].seen && (res->ranks[k].notes & MPIV_NOTE_STEER_LEFT))
			r->left = 1;
	r->seen = XSEEN_COMPLETED;
	if (res->outcome == MONITOR_INTERRUPTED) {
		r->seen = XSEEN_INTERRUPTED;
		r->signal = res->signal;
		return;
	}
	if (rr->job != MPIV_JOB_DEADLOCK && rr->job != MPIV_JOB_NO_PROGRESS) {
		r->report = crash_report(r->dir);
		return;
	}
	r->report = rr->report ? xstrdup(rr->report) : NULL;
	r->hang_key = hang_key(res);
	if (where_predicted(res, r->item))
		r->seen = XSEEN_PREDICTED;
	else if (explore_known(x, r->hang_key))
		r->seen = XSEEN_KNOWN;
	else
		r->seen = XSEEN_HUNG;
}

int verify_run(void *ctx, struct explore *x, struct xrun *r)
{
	const struct verify_opts *o = ctx;
	struct monitor_expect expect;
	struct hang_stuck stuck;
	struct record_opts opts;
	struct record_result rr;
	int out, rc = 0, attempt;

	memset(&opts, 0, sizeof(opts));
	opts.dir = r->dir;
	opts.command = o->command;
	opts.preload = &o->preload;
	opts.timeout = o->timeout;
	opts.quiet = 1;
	opts.steer = r->steer_path;
	opts.calm = 1;
	/* a deadlock where the model has one, or one confirmed already: no need to wait for
	 * the timeout */
	memset(&expect, 0, sizeof(expect));
	expect.n = x->nruns ? x->runs[0]->ts.nranks : 0;
	if (r->item && r->item->kind == XITEM_DEADLOCK) {
		expect.n = r->item->nranks;
		expect.call = r->item->call;
		expect.op = r->item->event;
	}
	expect.grace = MONITOR_CONFIRM_GRACE;
	expect.known = known_deadlock;
	expect.ctx = x;
	/* a hang no run confirmed yet: ended as soon as the traces show it is one, rather than
	 * after the timeout */
	hang_stuck_ask(&expect, &stuck, r->dir, r->item);
	opts.expect = &expect;
	for (attempt = 0;; attempt++) {
		/* the program's output, run after run, goes to a file of its own */
		out = open(r->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (out < 0)
			return error("cannot create '%s': %s", r->out_path, strerror(errno)), -1;
		opts.sink = out;
		record_run(&opts, &rr);
		close(out);
		/* a job step that died with its node ended for no reason of the program's */
		if (!o->slurm || !slurm_node_failed(r->out_path) ||
		    rr.res.outcome == MONITOR_INTERRUPTED)
			break;
		record_result_release(&rr);
		if (attempt == 1) {
			warning("run %d: lost twice with a node of the cluster (see '%s'): left "
				"unexplored",
				r->index, r->out_path);
			r->seen = XSEEN_LOST;
			return 0;
		}
		warning("run %d: a node of its job step failed (see '%s'): running it again",
			r->index, r->out_path);
	}
	if (rr.dir && rr.res.outcome == MONITOR_INTERRUPTED) {
		/* ended by a signal (or a limit of verify's), maybe before a rank wrote */
		r->seen = XSEEN_INTERRUPTED;
		r->signal = rr.res.signal;
	} else if (!rr.dir || !rr.traced) {
		rc = -1; /* the job could not run, or ran without the recorder: said why */
	} else {
		seen(x, r, &rr);
	}
	record_result_release(&rr);
	return rc;
}
