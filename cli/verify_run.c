/* One run of verify (verify.h): the program recorded under its steering, its output kept in a
 * file, and what the run showed: completed, deadlocked where the model said, hung elsewhere
 * (a deadlock, unless the steering's pinned receives made it), or stopped. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "mpilib.h"
#include "status.h"
#include "verify.h"
#include "xalloc.h"

#define CONFIRM_GRACE 0.7	/* seconds every rank sits still where the model has it blocked */

void vsig_open(struct vsig *s)
{
	memset(s, 0, sizeof(*s));
}

static void vsig_push(char ***list, size_t *n, size_t *cap, const char *item)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*list)[i], item))
			return;
	xgrow((void **)list, cap, *n + 1, sizeof(**list));
	(*list)[(*n)++] = xstrdup(item);
}

void vsig_rank(struct vsig *s, unsigned call, const char *module, uint64_t addr)
{
	const char *name = mpiv_call_name(call);
	char item[700];

	snprintf(item, sizeof(item), "%s@%s+0x%llx;", name ? name : "?",
		 module && *module ? module : "?", (unsigned long long)addr);
	vsig_push(&s->all, &s->nall, &s->capall, item);
	if (call != MPIV_CALL_Send)
		vsig_push(&s->core, &s->ncore, &s->capcore, item);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *vsig_close(struct vsig *s)
{
	char **list = s->ncore ? s->core : s->all;
	size_t n = s->ncore ? s->ncore : s->nall, i, len = 1;
	char *out;

	qsort(list, n, sizeof(*list), by_string);
	for (i = 0; i < n; i++)
		len += strlen(list[i]);
	out = xcalloc(len, 1);
	for (i = 0; i < n; i++)
		strcat(out, list[i]);
	for (i = 0; i < s->nall; i++)
		free(s->all[i]);
	for (i = 0; i < s->ncore; i++)
		free(s->core[i]);
	free(s->all);
	free(s->core);
	return out;
}

/* Is every item of a (each ends in ';') in b? */
static int vsig_within(const char *a, const char *b)
{
	const char *p, *end;
	char item[700];

	for (p = a; *p; p = end + 1) {
		end = strchr(p, ';');
		if (!end || (size_t)(end - p + 2) > sizeof(item))
			return 0;
		memcpy(item, p, (size_t)(end - p + 1));
		item[end - p + 1] = '\0';
		if (!strstr(b, item))
			return 0;
	}
	return 1;
}

int vsig_same(const char *a, const char *b)
{
	return a && b && (vsig_within(a, b) || vsig_within(b, a));
}

/* The key of the deadlock the monitor saw. */
static char *hang_sig(const struct monitor_result *res)
{
	struct vsig s;
	int r;

	vsig_open(&s);
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (m->seen && m->state == MPIV_ST_IN_CALL)
			vsig_rank(&s, m->call, m->module, MPIV_SITE_ADDR(m->site));
	}
	return vsig_close(&s);
}

/* monitor_expect.known: is the deadlock the monitor sees one a run confirmed already? */
static int known_deadlock(void *ctx, const struct monitor_result *res)
{
	const struct verify *v = ctx;
	char *sig = hang_sig(res);
	int i, known = 0;

	for (i = 0; i < v->nfound && !known; i++)
		known = vsig_same(v->found[i].run->hang_sig, sig);
	free(sig);
	return known;
}

/* Did every rank end where expect has it? */
static int where_expected(const struct monitor_result *res, const struct vitem *it)
{
	int r;

	if (!it || it->kind != VITEM_DEADLOCK || res->size != it->nranks)
		return 0;
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen || (it->call[r] < 0 ? m->state != MPIV_ST_FINALIZED :
				 m->state != MPIV_ST_IN_CALL || m->call != (unsigned)it->call[r] ||
				 (it->event[r] >= 0 && m->op != it->event[r])))
			return 0;
	}
	return 1;
}

/* A steered run hung: is it a deadlock of the program, or did a receive the steering pinned
 * to one sender wait for a message another sender's could have stood for? The run's own
 * trace is replayed on the model (sends completing as they were forced to, or as the library
 * does): a deadlock there has no choice left at its end. */
static int genuine_hang(struct vrun *r, const struct vitem *it)
{
	struct eng_prog p = r->prog;
	int32_t *st;
	int genuine;
	long long eager = 0;
	enum eng_buffering b = ENG_BUF_ZERO;

	if (it && it->kind == VITEM_DEADLOCK) {
		b = (enum eng_buffering)it->mode.mode;
		eager = it->mode.bytes;
	} else if (r->ts.nranks && (eager = mpiv_mpilib_eager(r->ts.ranks[0].library)) >= 0) {
		b = ENG_BUF_EAGER;
	} else {
		eager = 0;
	}
	st = xcalloc(eng_state_bytes(&p), 1);
	tr_recorded_path(&p, &r->ts, b, eager, NULL, st);
	p.buffering = b;
	p.eager = eager;
	genuine = eng_nchoices(&p, st) == 0 && !eng_all_done(&p, st);
	free(st);
	return genuine;
}

/* What r showed, from the recorder's result. */
static void classify(struct verify *v, struct vrun *r, const struct record_result *rr)
{
	const struct monitor_result *res = &rr->res;
	int k;

	for (k = 0; k < res->size; k++)
		if (res->ranks[k].seen && (res->ranks[k].notes & MPIV_NOTE_STEER_LEFT))
			r->left = 1;
	if (res->outcome == MONITOR_INTERRUPTED) {
		r->end = VRUN_INTERRUPTED;
		return;
	}
	if (rr->job == MPIV_JOB_DEADLOCK || rr->job == MPIV_JOB_NO_PROGRESS) {
		r->report = rr->report ? xstrdup(rr->report) : NULL;
		r->hang_sig = hang_sig(res);
		/* ended as soon as it was sure: its trace stops early, it is not a path */
		if (where_expected(res, r->item)) {
			r->end = VRUN_CONFIRMED;
			return;
		}
		if (known_deadlock(v, res)) {
			r->end = VRUN_HUNG;
			return;
		}
		if (verify_add_path(v, r))
			r->end = VRUN_FAILED;
		else if (!r->item || genuine_hang(r, r->item))
			r->end = VRUN_HUNG;
		else
			r->end = VRUN_PINNED;
		return;
	}
	if (verify_add_path(v, r)) {
		r->end = VRUN_FAILED;
		return;
	}
	if (!tr_all_finished(&r->ts)) {
		char buf[300];

		for (k = 0; k < r->ts.nranks; k++) {
			struct tr_stop s;

			tr_stop_of(&r->ts, k, &s);
			if (s.kind == TR_FINISHED)
				continue;
			tr_stop_describe(&r->ts, &s, buf, sizeof(buf));
			r->stopped = xmalloc(strlen(buf) + 32);
			sprintf(r->stopped, "rank %d %s", k, buf);
			break;
		}
		r->end = VRUN_STOPPED;
		return;
	}
	r->end = VRUN_COMPLETED;
}

struct vrun *verify_run(struct verify *v, struct vitem *item)
{
	struct vrun *r = xcalloc(1, sizeof(*r));
	struct record_opts opts;
	struct record_result rr;
	struct monitor_expect expect;
	char path[4200];
	FILE *f;
	int out;

	r->index = v->nruns + 1;
	snprintf(path, sizeof(path), "%s/runs/%d", v->outdir, r->index);
	r->dir = xstrdup(path);
	memset(&opts, 0, sizeof(opts));
	opts.dir = r->dir;
	opts.command = v->command;
	opts.timeout = v->timeout;
	opts.quiet = 1;
	if (item) {
		r->item = xmalloc(sizeof(*r->item));
		*r->item = *item;
		memset(item, 0, sizeof(*item));
		snprintf(path, sizeof(path), "%s/runs/%d.steer", v->outdir, r->index);
		r->steer_path = xstrdup(path);
		f = fopen(path, "w");
		if (!f || fputs(r->item->steer, f) < 0 || fclose(f) != 0) {
			error("cannot write the steering file '%s': %s", path, strerror(errno));
			vrun_free(r);
			return NULL;
		}
		opts.steer = r->steer_path;
		xgrow((void **)&v->tried, &v->captried, (size_t)v->ntried + 1, sizeof(*v->tried));
		v->tried[v->ntried++] = xstrdup(r->item->steer);
	}
	/* a deadlock where the model has one, or one confirmed already: no need to wait for
	 * the timeout */
	memset(&expect, 0, sizeof(expect));
	expect.n = v->runs && v->nruns ? v->runs[0]->ts.nranks : 0;
	if (r->item && r->item->kind == VITEM_DEADLOCK) {
		expect.n = r->item->nranks;
		expect.call = r->item->call;
		expect.op = r->item->event;
	}
	expect.grace = CONFIRM_GRACE;
	expect.known = known_deadlock;
	expect.ctx = v;
	if (expect.n)
		opts.expect = &expect;
	/* the program's output, run after run, goes to a file of its own */
	snprintf(path, sizeof(path), "%s/runs/%d.out", v->outdir, r->index);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
		vrun_free(r);
		return NULL;
	}
	opts.sink = out;
	record_run(&opts, &rr);
	close(out);
	if (!rr.dir || !rr.traced) {
		record_result_release(&rr);
		vrun_free(r);
		return NULL;	/* the job could not run, or ran without the recorder: said why */
	}
	classify(v, r, &rr);
	record_result_release(&rr);
	xgrow((void **)&v->runs, &v->capruns, (size_t)v->nruns + 1, sizeof(*v->runs));
	v->runs[v->nruns++] = r;
	return r;
}

void vrun_free(struct vrun *r)
{
	if (!r)
		return;
	if (r->item) {
		vitem_release(r->item);
		free(r->item);
	}
	if (r->usable) {
		eng_prog_release(&r->prog);
		mpiv_traceset_release(&r->ts);
	}
	free(r->dir);
	free(r->steer_path);
	free(r->report);
	free(r->hang_sig);
	free(r->stopped);
	free(r);
}
