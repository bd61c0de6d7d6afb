/* What report.html shows of a deadlock beyond the JSON document (report_files.h): its
 * space-time diagram and, for every blocked call, its stack and the source lines around it.
 * The diagram is the counterexample's (tr_cex.c), or the recorded run's own path described the
 * same way (tr_recorded_cex()) for verify's runs, so that it shows what the report says, not a
 * second analysis. It keeps the page small for any trace: the last operations of each rank
 * before the deadlock (the rest folded, counted), at most MAX_LANES ranks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "mpilib.h"
#include "monitor.h"
#include "report_files.h"
#include "srcloc.h"
#include "status_file.h"
#include "xalloc.h"

#define WINDOW 40	    /* operations drawn per rank, the last before the deadlock */
#define MAX_LANES 32	    /* ranks drawn; beyond, those on the wait-for graph first */
#define SOURCE_CONTEXT 3    /* source lines shown before and after a blocked call */
#define SOURCE_LINE_MAX 200 /* bytes of each, the rest cut */

/* How the diagram draws an operation. */
static const char *op_kind(unsigned call)
{
	switch (mpiv_call_kind(call)) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_ISEND:
	case MPIV_KIND_ISENDRECV: /* nonblocking: drawn as its send, its receive at the wait */
		return "send";
	case MPIV_KIND_RECV:
	case MPIV_KIND_IRECV:
	case MPIV_KIND_MRECV:
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		return "recv";
	case MPIV_KIND_SENDRECV:
		return "sendrecv";
	case MPIV_KIND_COLL:
	case MPIV_KIND_ICOLL:
	case MPIV_KIND_WIN_CREATE:
	case MPIV_KIND_WIN_FREE:
	case MPIV_KIND_WIN_FENCE:
	case MPIV_KIND_COMM_GROUP:
		return "coll";
	case MPIV_KIND_WAIT:
		return "wait";
	default:
		return "other";
	}
}

/* The ranks drawn: every rank when there are few, else those on the wait-for graph and the
 * blocked ones, up to MAX_LANES. lane[r] is 1 for a drawn rank. Returns how many are not. */
static int pick_lanes(const struct mpiv_cex *cex, char *lane)
{
	int r, n = 0;
	size_t k;

	if (cex->nranks <= MAX_LANES) {
		memset(lane, 1, (size_t)cex->nranks);
		return 0;
	}
	memset(lane, 0, (size_t)cex->nranks);
	for (k = 0; k < cex->nedges; k++) {
		int ends[2] = {cex->edges[k].rank, cex->edges[k].waits_for}, e;

		for (e = 0; e < 2; e++)
			if (ends[e] >= 0 && ends[e] < cex->nranks && !lane[ends[e]] &&
			    n < MAX_LANES) {
				lane[ends[e]] = 1;
				n++;
			}
	}
	for (r = 0; r < cex->nranks && n < MAX_LANES; r++)
		if (!lane[r] && cex->ranks[r].blocked_op >= 0) {
			lane[r] = 1;
			n++;
		}
	return cex->nranks - n;
}

/* Whether rank r's operation on event ev is drawn: r is, and ev among its last WINDOW. */
static int drawn(const struct mpiv_cex *cex, const char *lane, int r, long ev)
{
	const struct mpiv_cex_rank *cr;
	size_t k;

	if (r < 0 || r >= cex->nranks || !lane[r])
		return 0;
	cr = &cex->ranks[r];
	for (k = cr->nops > WINDOW ? cr->nops - WINDOW : 0; k < cr->nops; k++)
		if ((long)cr->ops[k].op == ev)
			return 1;
	return 0;
}

static json_t *site_text(const struct mpiv_traceset *ts, int r, long e)
{
	char where[512];

	site_str(ts, r, e, where, sizeof(where));
	return mpiv_json_text(where);
}

/* The recorded run's match of receive (r, ev), or NULL. */
static const struct mpiv_cex_match *recorded_match(const struct mpiv_cex *rec, int r, long ev)
{
	size_t k;

	for (k = 0; rec && k < rec->nmatches; k++)
		if (rec->matches[k].recv_rank == r && rec->matches[k].recv_op == ev)
			return &rec->matches[k];
	return NULL;
}

/* The receives a counterexample matches otherwise than the recorded run did, by rank and
 * event: from each on, its rank does what the recorded run did not. */
struct departures {
	struct mpiv_cex_match *at; /* the counterexample's such matches, sorted */
	size_t n;
};

static int by_receive(const void *pa, const void *pb)
{
	const struct mpiv_cex_match *a = pa, *b = pb;

	if (a->recv_rank != b->recv_rank)
		return a->recv_rank < b->recv_rank ? -1 : 1;
	return a->recv_op < b->recv_op ? -1 : a->recv_op > b->recv_op;
}

static void departures_find(const struct mpiv_cex *cex, struct departures *d)
{
	size_t k;

	d->at = xcalloc(cex->nmatches + 1, sizeof(*d->at));
	d->n = 0;
	for (k = 0; k < cex->nmatches; k++)
		if (!cex->matches[k].as_recorded)
			d->at[d->n++] = cex->matches[k];
	qsort(d->at, d->n, sizeof(*d->at), by_receive);
}

static int departs(const struct departures *d, int r, uint32_t ev)
{
	struct mpiv_cex_match key = {.recv_rank = r, .recv_op = (long)ev};

	return d->n && bsearch(&key, d->at, d->n, sizeof(*d->at), by_receive);
}

/* The time line all ranks' times are put on: the clock of the first rank that has one, from
 * when its trace was opened. NULL when no rank has times. */
static const struct mpiv_rank_trace *time_base(const struct mpiv_traceset *ts)
{
	int r;

	for (r = 0; r < ts->nranks; r++)
		if (ts->ranks[r].clock != MPIV_CLOCK_NONE)
			return &ts->ranks[r];
	return NULL;
}

/* The recorded times of rank r's operation op into o, as "t0" (entered) and "t1" (left), in
 * nanoseconds on base's time line (times_from_first() then puts them from the first): only when the trace has them and the recorded run made the
 * call as cex does; the call cex is blocked in gets no "t1" (it never returns there). */
static void op_times(const struct mpiv_traceset *ts, const struct mpiv_rank_trace *base, int r,
		     const struct mpiv_cex_op *op, int blocked, json_t *o)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	const struct mpiv_event *ev;
	uint64_t from;

	if (!base || t->clock == MPIV_CLOCK_NONE || op->op >= t->nevents)
		return;
	ev = mpiv_trace_event(t, op->op);
	from = base->clock_origin;
	json_object_set_new(o, "t0", json_integer(mpiv_trace_ns_between(base, from, t, ev->enter)));
	if (ev->leave && !blocked)
		json_object_set_new(o, "t1",
				    json_integer(mpiv_trace_ns_between(base, from, t, ev->leave)));
}

/* A rank's lane: its last WINDOW operations, with the recorded run's times (op_times()) up to
 * its first departure (d) from the recorded run: from there it is drawn in order only. */
static json_t *lane_json(const struct mpiv_traceset *ts, const struct mpiv_cex_rank *cr, int r,
			 const struct departures *d)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r], *base = time_base(ts);
	size_t first = cr->nops > WINDOW ? cr->nops - WINDOW : 0, k;
	json_t *ops = json_array();
	int departed = 0, blocked;

	for (k = 0; k < first && base; k++)
		departed |= departs(d, r, cr->ops[k].op);
	for (k = first; k < cr->nops; k++) {
		const struct mpiv_cex_op *op = &cr->ops[k];
		char desc[256];
		json_t *o;
		int call;

		if (op->op >= t->nevents)
			continue;
		/* copied: describing the event reads others of the trace (mpiv_trace_event()) */
		call = mpiv_trace_event(t, op->op)->call;
		tr_describe_event(ts, r, (long)op->op, desc, sizeof(desc));
		o = json_pack("{s:I, s:s, s:s, s:o, s:o}", "ev", (json_int_t)op->op, "call",
			      mpiv_call_name(call), "kind", op_kind(call), "desc",
			      mpiv_json_text(desc), "site", site_text(ts, r, (long)op->op));
		blocked = k + 1 == cr->nops && (long)op->op == cr->blocked_op;
		departed |= departs(d, r, op->op);
		if (!departed)
			op_times(ts, base, r, op, blocked, o);
		if (op->sync >= 0)
			json_object_set_new(o, "buffered", json_boolean(!op->sync));
		if (op->wildcard)
			json_object_set_new(o, "wildcard", json_true());
		if (op->cancelled)
			json_object_set_new(o, "cancelled", json_boolean(op->cancelled == 1));
		if (blocked)
			json_object_set_new(o, "blocked", json_true());
		json_array_append_new(ops, o);
	}
	return json_pack("{s:i, s:I, s:s, s:o}", "rank", r, "folded", (json_int_t)first, "end",
			 cr->blocked_op >= 0 ? "blocked" :
			 cr->stopped	     ? "stopped" :
					       "finished",
			 "ops", ops);
}

/* The times of the lanes' operations from the earliest drawn, so that they start at 0. */
static void times_from_first(json_t *lanes)
{
	json_int_t first = INT64_MAX;
	json_t *lane, *o, *t;
	size_t i, j;

	json_array_foreach(lanes, i, lane)
	{
		json_array_foreach(json_object_get(lane, "ops"), j, o)
		{
			t = json_object_get(o, "t0");
			if (t && json_integer_value(t) < first)
				first = json_integer_value(t);
		}
	}
	json_array_foreach(lanes, i, lane)
	{
		json_array_foreach(json_object_get(lane, "ops"), j, o)
		{
			if ((t = json_object_get(o, "t0")))
				json_integer_set(t, json_integer_value(t) - first);
			if ((t = json_object_get(o, "t1")))
				json_integer_set(t, json_integer_value(t) - first);
		}
	}
}

/* The space-time diagram of cex: lanes, messages, the recorded run's other matches (rec, may
 * be NULL), waits and the cycle. */
static json_t *timeline_json(const struct mpiv_traceset *ts, const struct mpiv_cex *cex,
			     const struct mpiv_cex *rec)
{
	char *lane = xcalloc((size_t)cex->nranks + 1, 1);
	json_t *lanes = json_array(), *msgs = json_array(), *other = json_array();
	json_t *waits = json_array();
	int r, hidden = pick_lanes(cex, lane);
	struct departures d;
	size_t k;

	departures_find(cex, &d);
	for (r = 0; r < cex->nranks; r++)
		if (lane[r])
			json_array_append_new(lanes, lane_json(ts, &cex->ranks[r], r, &d));
	free(d.at);
	times_from_first(lanes);
	for (k = 0; k < cex->nmatches; k++) {
		const struct mpiv_cex_match *m = &cex->matches[k];
		const struct mpiv_cex_match *was;
		json_t *o;

		if (!drawn(cex, lane, m->recv_rank, m->recv_op))
			continue;
		o = json_pack("{s:[iI], s:[iI], s:b}", "from", m->send_rank, (json_int_t)m->send_op,
			      "to", m->recv_rank, (json_int_t)m->recv_op, "wildcard", m->wildcard);
		/* a send folded away: the arrow comes from the lane's folded part */
		if (!drawn(cex, lane, m->send_rank, m->send_op))
			json_object_set_new(o, "from_folded", json_true());
		if (m->as_recorded >= 0)
			json_object_set_new(o, "as_recorded", json_boolean(m->as_recorded));
		json_array_append_new(msgs, o);
		if (m->as_recorded || !(was = recorded_match(rec, m->recv_rank, m->recv_op)))
			continue;
		o = json_pack("{s:[iI], s:[iI]}", "from", was->send_rank, (json_int_t)was->send_op,
			      "to", was->recv_rank, (json_int_t)was->recv_op);
		if (!drawn(cex, lane, was->send_rank, was->send_op))
			json_object_set_new(o, "from_folded", json_true());
		json_array_append_new(other, o);
	}
	for (k = 0; k < cex->nedges; k++)
		json_array_append_new(waits,
				      json_pack("{s:i, s:I, s:i}", "rank", cex->edges[k].rank, "ev",
						(json_int_t)cex->edges[k].op, "for",
						cex->edges[k].waits_for));
	free(lane);
	return json_pack("{s:i, s:i, s:o, s:o, s:o, s:o, s:o}", "nranks", cex->nranks,
			 "hidden_ranks", hidden, "lanes", lanes, "messages", msgs,
			 "recorded_messages", other, "waits", waits, "cycle",
			 report_cycle_json(cex));
}

/* The lines around line of the source file of rank r's event e, when it can be read. */
static json_t *source_json(const struct mpiv_traceset *ts, int r, long e, int line)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	char path[4096], buf[SOURCE_LINE_MAX + 2];
	json_t *lines;
	FILE *f;
	int n = 0, first = line - SOURCE_CONTEXT > 1 ? line - SOURCE_CONTEXT : 1;
	uint64_t site = line <= 0 || e < 0 || (size_t)e >= t->nevents ?
				0 :
				mpiv_trace_event(t, (size_t)e)->site;

	if (!site || mpiv_srcloc_source_path(mpiv_trace_module(t, site), MPIV_SITE_ADDR(site), path,
					     sizeof(path)))
		return NULL;
	f = fopen(path, "r");
	if (!f)
		return NULL;
	lines = json_array();
	while (n < line + SOURCE_CONTEXT && fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);
		int whole = len && buf[len - 1] == '\n';

		if (whole)
			buf[--len] = '\0';
		else if (!feof(f)) {
			int c;

			while ((c = fgetc(f)) != EOF && c != '\n')
				; /* a long line: its start is enough */
		}
		if (++n >= first)
			json_array_append_new(lines, mpiv_json_text(buf));
	}
	fclose(f);
	if (n < line) {
		json_decref(lines); /* not the file the program was built from */
		return NULL;
	}
	return json_pack("{s:o, s:i, s:i, s:o}", "file", mpiv_json_text(path), "first", first,
			 "line", line, "lines", lines);
}

/* The stack the status file of rank r in dir holds for event e: the rank sat in that call
 * long enough for it to be taken (the recorded run hung there). NULL if it has none. */
static json_t *stack_json(const char *dir, int r, long e)
{
	struct mpiv_status st;
	json_t *a;
	char **frames;
	int n, k;

	if (!dir || status_file_read(dir, r, &st) < 0 || !st.nframes || (long)st.stack_op != e)
		return NULL;
	st.stack[sizeof(st.stack) - 1] = '\0';
	n = monitor_stack_frames(st.stack, &frames);
	a = json_array();
	for (k = 0; k < n; k++) {
		json_array_append_new(a, mpiv_json_text(frames[k]));
		free(frames[k]);
	}
	free(frames);
	return a;
}

/* One blocked call: rank, event, call, site, and its stack and source when known. */
static json_t *blocked_json(const struct mpiv_traceset *ts, int r, int thread, long e,
			    const char *desc, const struct mpiv_cex_site *site)
{
	json_t *o = json_pack("{s:i, s:I, s:o, s:o}", "rank", r, "event", (json_int_t)e, "desc",
			      mpiv_json_text(desc), "site", site_json(site));
	json_t *stack = stack_json(ts->dir, r, e), *src = source_json(ts, r, e, site->line);

	if (thread >= 0)
		json_object_set_new(o, "thread", json_integer(thread));
	if (stack)
		json_object_set_new(o, "stack", stack);
	if (src)
		json_object_set_new(o, "source", src);
	return o;
}

/* The details of one deadlock, whose ranks cex has where they are stuck. */
static json_t *details_json(const struct mpiv_traceset *ts, const struct mpiv_cex *cex,
			    const struct mpiv_cex *rec)
{
	json_t *blocked = json_array();
	size_t k;
	int r;

	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];

		for (k = 0; k < cr->nthreads; k++)
			if (cr->threads[k].blocked_op >= 0)
				json_array_append_new(blocked,
						      blocked_json(ts, r, cr->threads[k].thread,
								   cr->threads[k].blocked_op,
								   cr->threads[k].blocked_desc,
								   &cr->threads[k].site));
		if (!cr->nthreads && cr->blocked_op >= 0)
			json_array_append_new(blocked, blocked_json(ts, r, -1, cr->blocked_op,
								    cr->blocked_desc, &cr->site));
	}
	return json_pack("{s:o, s:o}", "timeline", timeline_json(ts, cex, rec), "blocked", blocked);
}

json_t *report_details_check(const struct check_outcome *co)
{
	struct mpiv_cex rec[3];
	char mode[3][32];
	json_t *a = json_array();
	int i, k, nrec = 0;

	for (i = 0; i < co->found->n; i++) {
		const struct mpiv_cex *cex = &co->found->d[i].cex;
		struct mpiv_error err;
		char name[32];

		/* the recorded run's matches, in the deadlock's mode, once per mode */
		mpiv_buffering_name(&cex->buffering, name, sizeof(name));
		for (k = 0; k < nrec && strcmp(mode[k], name); k++)
			;
		if (k == nrec && nrec < 3) {
			mpiv_error_init(&err);
			if (tr_recorded_cex(co->prog, co->ts, &cex->buffering, &rec[k], &err) < 0)
				memset(&rec[k], 0, sizeof(rec[k]));
			snprintf(mode[k], sizeof(mode[k]), "%s", name);
			nrec++;
		}
		json_array_append_new(a, details_json(co->ts, cex, k < nrec ? &rec[k] : NULL));
	}
	for (k = 0; k < nrec; k++)
		mpiv_cex_release(&rec[k]);
	return a;
}

/* The call site of a status (its module, else the trace's), resolved into s. */
static void status_site(const struct mpiv_status *st, const struct mpiv_traceset *ts, int r,
			struct mpiv_cex_site *s)
{
	const char *module = st->module[0] == '/' ? st->module : NULL;

	memset(s, 0, sizeof(*s));
	if (!module && r < ts->nranks)
		module = mpiv_trace_module(&ts->ranks[r], st->site);
	if (st->site && module)
		mpiv_srcloc_resolve(module, MPIV_SITE_ADDR(st->site), s);
}

/* The blocked calls of a run that hung, as its ranks' status files last said: the call each
 * sat in when the run was ended, with the stack it took there. */
static json_t *run_blocked(const struct mpiv_traceset *ts, const char *dir, int nranks)
{
	json_t *a = json_array();
	int r;

	for (r = 0; r < nranks; r++) {
		struct mpiv_status st;
		struct mpiv_cex_site s;
		char desc[256];
		json_t *o;

		if (status_file_read(dir, r, &st) < 0 || st.state != MPIV_ST_IN_CALL)
			continue;
		if (r < ts->nranks && st.op < ts->ranks[r].nevents)
			tr_describe_event(ts, r, (long)st.op, desc, sizeof(desc));
		else
			snprintf(desc, sizeof(desc), "%s",
				 mpiv_call_name(st.call) ? mpiv_call_name(st.call) : "an MPI call");
		status_site(&st, ts, r, &s);
		o = blocked_json(ts, r, -1, (long)st.op, desc, &s);
		json_object_set_new(o, "call",
				    json_string(mpiv_call_name(st.call) ? mpiv_call_name(st.call) :
									  "?"));
		mpiv_cex_site_release(&s);
		json_array_append_new(a, o);
	}
	return a;
}

/* A lane's last operation where the status file has the rank blocked, when the trace ended
 * before the call was written (a run ended as soon as the deadlock was sure). */
static void add_status_op(json_t *timeline, json_t *b)
{
	json_t *lane;
	size_t k;

	json_array_foreach(json_object_get(timeline, "lanes"), k, lane)
	{
		json_t *ops = json_object_get(lane, "ops"), *last;

		if (json_integer_value(json_object_get(lane, "rank")) !=
		    json_integer_value(json_object_get(b, "rank")))
			continue;
		last = json_array_get(ops, json_array_size(ops) - 1);
		if (last && json_integer_value(json_object_get(last, "ev")) >=
				    json_integer_value(json_object_get(b, "event")))
			return;
		json_array_append_new(ops, json_pack("{s:O, s:O, s:s, s:O, s:s, s:b}", "ev",
						     json_object_get(b, "event"), "call",
						     json_object_get(b, "call"), "kind", "other",
						     "desc", json_object_get(b, "desc"), "site",
						     "where the run was blocked", "blocked", 1));
		json_object_set_new(lane, "end", json_string("blocked"));
	}
}

/* A run forced to leave every standard send unbuffered: the largest standard send blocked
 * at its end, which --ignore-potential-below compares (findings.c). */
static void forced_unbuffered(const struct mpiv_traceset *ts, json_t *blocked, json_t *entry)
{
	long long most = -1;
	json_t *b;
	size_t k;

	json_array_foreach(blocked, k, b)
	{
		json_int_t r = json_integer_value(json_object_get(b, "rank"));
		json_int_t e = json_integer_value(json_object_get(b, "event"));
		const struct mpiv_event *ev;

		if (r < 0 || r >= ts->nranks || e < 0 || (size_t)e >= ts->ranks[r].nevents)
			continue;
		ev = mpiv_trace_event(&ts->ranks[r], (size_t)e);
		if ((mpiv_call_flags(ev->call) & MPIV_F_STANDARD) && (long long)ev->bytes > most)
			most = (long long)ev->bytes;
	}
	if (most < 0)
		return;
	json_object_set_new(entry, "needs_unbuffered", json_true());
	json_object_set_new(entry, "unbuffered_max_bytes", json_integer(most));
}

json_t *report_details_run(const char *run_dir, const char *mode, json_t *entry)
{
	struct tr_opts topts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	struct mpiv_traceset ts;
	struct mpiv_buffering b;
	struct mpiv_error err;
	struct eng_prog prog;
	struct mpiv_cex cex;
	json_t *det, *blocked, *tl, *e;
	size_t k;
	int deadlock;

	mpiv_error_init(&err);
	if (mpiv_traceset_load(run_dir, &ts, &err))
		return json_object();
	if (tr_translate(&ts, &topts, &prog, &err)) {
		mpiv_traceset_release(&ts);
		return json_object();
	}
	/* the buffering the run was forced with, else the library's own */
	if (mpiv_buffering_parse(mode, &b)) {
		long long eager = ts.nranks ? mpiv_mpilib_eager(ts.ranks[0].library) : -1;

		b.mode = eager >= 0 ? MPIV_BUF_EAGER : MPIV_BUF_ZERO;
		b.bytes = eager >= 0 ? eager : 0;
		b.sync_colls = 0;
	}
	deadlock = tr_recorded_cex(&prog, &ts, &b, &cex, &err);
	blocked = run_blocked(&ts, run_dir, ts.nranks);
	if (deadlock >= 0) {
		tl = timeline_json(&ts, &cex, NULL);
		json_array_foreach(blocked, k, e) add_status_op(tl, e);
		if (deadlock) {
			json_t *waits = json_array();

			for (k = 0; k < cex.nedges; k++)
				json_array_append_new(waits, json_pack("{s:i, s:I, s:i}", "rank",
								       cex.edges[k].rank, "event",
								       (json_int_t)cex.edges[k].op,
								       "waits_for",
								       cex.edges[k].waits_for));
			json_object_set_new(entry, "waits_for", waits);
			json_object_set_new(entry, "cycle", report_cycle_json(&cex));
		}
		mpiv_cex_release(&cex);
	} else {
		tl = NULL;
	}
	if (!mpiv_buffering_parse(mode, &b) && b.mode == MPIV_BUF_ZERO)
		forced_unbuffered(&ts, blocked, entry);
	/* the document's blocked calls: the run's, without what only the page shows */
	json_object_set_new(entry, "blocked", json_deep_copy(blocked));
	json_array_foreach(json_object_get(entry, "blocked"), k, e)
	{
		json_object_del(e, "stack");
		json_object_del(e, "source");
	}
	det = json_pack("{s:o}", "blocked", blocked);
	if (tl)
		json_object_set_new(det, "timeline", tl);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return det;
}
