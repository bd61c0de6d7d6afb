/* Rank traces as JSON (Jansson): for tests that state cases by hand, for `mpiverify trace`, and
 * for other producers of traces. Layout: doc/trace-format.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jsontext.h"
#include "trace.h"
#include "trace_reduce.h"
#include "trace_threads.h"
#include "xalloc.h"

#define TRACE_FORMAT "mpiverify-trace"
/* The names the files use for enum mpiv_end. */
static const char *const end_names[] = {"unknown", "finalized", "aborted", "signal", "exit"};
/* enum mpiv_clock by number, as "clock"."kind" names it */
static const char *const clock_names[] = {"none", "monotonic"};

#define NAMES(a) (sizeof(a) / sizeof((a)[0]))

/* The index of s in names[0..n), or -1. */
static int name_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* A peer, source or tag: an integer, or one of the names of the special values. */
static json_t *special_to_json(int32_t v, int is_tag)
{
	if (v == MPIV_ANY_SOURCE)
		return json_string("any");
	if (!is_tag && v == MPIV_PROC_NULL)
		return json_string("null");
	return json_integer(v);
}

static int special_from_json(json_t *j, int is_tag, int32_t *out)
{
	if (json_is_integer(j)) {
		json_int_t v = json_integer_value(j);

		if (v < 0 || v > INT32_MAX)
			return -1;
		*out = (int32_t)v;
		return 0;
	}
	if (json_is_string(j) && !strcmp(json_string_value(j), "any")) {
		*out = is_tag ? MPIV_ANY_TAG : MPIV_ANY_SOURCE;
		return 0;
	}
	if (!is_tag && json_is_string(j) && !strcmp(json_string_value(j), "null")) {
		*out = MPIV_PROC_NULL;
		return 0;
	}
	return -1;
}

/* The communicator nc into o: its id and members. */
static void newcomm_to_json(json_t *o, const struct mpiv_newcomm *nc)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < nc->n; i++)
		json_array_append_new(a, json_integer(nc->members[i]));
	json_object_set_new(o, "newcomm", json_integer(nc->id));
	json_object_set_new(o, "members", a);
}

/* An event's call, peer, tag and communicator into o, those it has. */
static void envelope_to_json(json_t *o, const struct mpiv_event *ev)
{
	json_object_set_new(o, "call", json_string(mpiv_call_name(ev->call)));
	if (ev->peer != MPIV_NONE)
		json_object_set_new(o, "peer", special_to_json(ev->peer, 0));
	if (ev->tag != MPIV_NONE)
		json_object_set_new(o, "tag", special_to_json(ev->tag, 1));
	if (ev->comm != MPIV_NONE)
		json_object_set_new(o, "comm", json_integer(ev->comm));
}

static json_t *event_to_json(const struct mpiv_rank_trace *t, const struct mpiv_event *ev)
{
	const struct mpiv_newcomm *nc = mpiv_trace_newcomm(t, ev->index);
	json_t *o = json_object();
	uint32_t i;

	json_object_set_new(o, "index", json_integer(ev->index));
	envelope_to_json(o, ev);
	if (ev->root != MPIV_NONE)
		json_object_set_new(o, "root", json_integer(ev->root));
	if (ev->src != MPIV_NONE)
		json_object_set_new(o, "src", json_integer(ev->src));
	if (ev->mtag != MPIV_NONE)
		json_object_set_new(o, "mtag", json_integer(ev->mtag));
	if (ev->bytes)
		json_object_set_new(o, "bytes", json_integer((json_int_t)ev->bytes));
	if (ev->data)
		json_object_set_new(o, "data", json_integer(ev->data));
	if (ev->rdata)
		json_object_set_new(o, "rdata", json_integer(ev->rdata));
	if (ev->thread)
		json_object_set_new(o, "thread", json_integer(ev->thread));
	if (ev->peer2 != MPIV_NONE)
		json_object_set_new(o, "peer2", special_to_json(ev->peer2, 0));
	if (ev->tag2 != MPIV_NONE)
		json_object_set_new(o, "tag2", special_to_json(ev->tag2, 1));
	if (ev->npending)
		json_object_set_new(o, "pending", json_integer(ev->npending));
	if (ev->flags & MPIV_EV_INCOMPLETE)
		json_object_set_new(o, "incomplete", json_true());
	if (ev->flags & MPIV_EV_NOT_DONE)
		json_object_set_new(o, "not_done", json_true());
	if (ev->flags & MPIV_EV_PARTS_READY)
		json_object_set_new(o, "parts_ready", json_true());
	if (ev->flags & MPIV_EV_LARGE_COUNT)
		json_object_set_new(o, "large_count", json_true());
	if (ev->win != MPIV_NONE)
		json_object_set_new(o, "win", json_integer(ev->win));
	if (ev->lock != MPIV_NONE)
		json_object_set_new(o, "lock",
				    ev->lock == MPIV_LOCK_SHARED    ? json_string("shared") :
				    ev->lock == MPIV_LOCK_EXCLUSIVE ? json_string("exclusive") :
								      json_integer(ev->lock));
	/* a neighbourhood collective's group is there even when empty (no in-neighbours): a
	 * reader tells it from a trace that never recorded them */
	if (ev->ngroup || (mpiv_call_flags(ev->call) & MPIV_F_NEIGHBOR)) {
		json_t *a = json_array();

		for (i = 0; i < ev->ngroup; i++)
			json_array_append_new(a, json_integer(ev->group[i]));
		json_object_set_new(o, "group", a);
	}
	if (ev->repeat > 1)
		json_object_set_new(o, "repeat", json_integer((json_int_t)ev->repeat));
	if (t->clock != MPIV_CLOCK_NONE) {
		json_object_set_new(o, "enter", json_integer((json_int_t)ev->enter));
		if (ev->leave)
			json_object_set_new(o, "leave", json_integer((json_int_t)ev->leave));
	}
	if (ev->site) {
		json_t *s = json_object();

		json_object_set_new(s, "module", json_integer(MPIV_SITE_MODULE(ev->site)));
		json_object_set_new(s, "addr", json_integer((json_int_t)MPIV_SITE_ADDR(ev->site)));
		json_object_set_new(o, "site", s);
	}
	if (ev->nreqs) {
		json_t *a = json_array();

		for (i = 0; i < ev->nreqs; i++) {
			json_t *r = json_object();

			json_object_set_new(r, "req", json_integer(ev->reqs[i].req));
			if (ev->reqs[i].src != MPIV_NONE)
				json_object_set_new(r, "src", json_integer(ev->reqs[i].src));
			if (ev->reqs[i].tag != MPIV_NONE)
				json_object_set_new(r, "tag", json_integer(ev->reqs[i].tag));
			if (ev->reqs[i].data)
				json_object_set_new(r, "data", json_integer(ev->reqs[i].data));
			json_array_append_new(a, r);
		}
		json_object_set_new(o, "reqs", a);
	}
	if (nc)
		newcomm_to_json(o, nc);
	return o;
}

/* A window's communicators made before it and still in use: each with the event that made it,
 * before the window's first. */
static json_t *comms_before_to_json(const struct mpiv_rank_trace *t)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < t->ncomms && t->comms[i].event < t->first; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "event", json_integer(t->comms[i].event));
		newcomm_to_json(o, &t->comms[i]);
		json_array_append_new(a, o);
	}
	return a;
}

/* A window's requests made before it: each request and the call that made it. */
static json_t *live_to_json(const struct mpiv_rank_trace *t)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < t->nlive; i++) {
		const struct mpiv_event *m = &t->live[i].maker;
		json_t *o = json_object();

		json_object_set_new(o, "req", json_integer(t->live[i].req));
		envelope_to_json(o, m);
		if (m->peer2 != MPIV_NONE)
			json_object_set_new(o, "peer2", special_to_json(m->peer2, 0));
		json_array_append_new(a, o);
	}
	return a;
}

/* The whole trace as one JSON document (the caller's to json_decref). */
static json_t *trace_to_json(const struct mpiv_rank_trace *t)
{
	json_t *root = json_object(), *mods = json_array(), *evs = json_array();
	size_t i;

	json_object_set_new(root, "format", json_string(TRACE_FORMAT));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "rank", json_integer(t->rank));
	json_object_set_new(root, "size", json_integer(t->size));
	json_object_set_new(root, "pid", json_integer(t->pid));
	json_object_set_new(root, "host", mpiv_json_text(t->host));
	json_object_set_new(root, "library", mpiv_json_text(t->library));
	json_object_set_new(root, "thread_level", json_integer(t->thread_level));
	json_object_set_new(root, "truncated", json_boolean(t->truncated));
	if (t->first)
		json_object_set_new(root, "first", json_integer(t->first));
	if (t->end != MPIV_END_UNKNOWN)
		json_object_set_new(root, "end",
				    json_pack("{s:s, s:i}", "how", end_names[t->end], "code",
					      t->end_code));
	if (t->bsend_overhead)
		json_object_set_new(root, "bsend_overhead", json_integer(t->bsend_overhead));
	if (t->clock != MPIV_CLOCK_NONE)
		json_object_set_new(root, "clock",
				    json_pack("{s:s, s:I, s:I}", "kind", clock_names[t->clock],
					      "origin", (json_int_t)t->clock_origin, "realtime",
					      (json_int_t)t->clock_realtime));
	for (i = 0; i < t->nmodules; i++) {
		json_t *m = json_object();

		json_object_set_new(m, "id", json_integer(t->modules[i].id));
		json_object_set_new(m, "path", mpiv_json_text(t->modules[i].path));
		json_array_append_new(mods, m);
	}
	json_object_set_new(root, "modules", mods);
	if (t->nlive)
		json_object_set_new(root, "live", live_to_json(t));
	if (t->ncomms && t->comms[0].event < t->first)
		json_object_set_new(root, "comms_before", comms_before_to_json(t));
	for (i = 0; i < t->nevents; i++)
		json_array_append_new(evs, event_to_json(t, mpiv_trace_event(t, t->first + i)));
	json_object_set_new(root, "events", evs);
	if (t->nreductions)
		json_object_set_new(root, "reductions", mpiv_reductions_to_json(t));
	if (t->nthread_ops)
		json_object_set_new(root, "threads", mpiv_thread_ops_to_json(t));
	return root;
}

int mpiv_trace_save_json(const char *path, const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *root = trace_to_json(t);
	int rc = 0;

	if (json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
		rc = mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1, "cannot write: %s",
				    strerror(errno));
	json_decref(root);
	return rc;
}

int mpiv_trace_write_json(FILE *f, const struct mpiv_rank_trace *t)
{
	json_t *root = trace_to_json(t);
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	json_decref(root);
	if (rc == 0 && fputc('\n', f) == EOF)
		rc = -1;
	return rc ? -1 : 0;
}

/* Read an optional special-valued field; absent leaves *out as it is. */
static int get_special(json_t *o, const char *key, int is_tag, int32_t *out, const char *path,
		       int rank, long idx, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (special_from_json(j, is_tag, out))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, rank, idx,
				      "events[%ld].%s: expected a non-negative integer%s", idx, key,
				      is_tag ? " or \"any\"" : ", \"any\" or \"null\"");
	return 0;
}

static int is_int32(json_t *j)
{
	return json_is_integer(j) && json_integer_value(j) >= INT32_MIN &&
	       json_integer_value(j) <= INT32_MAX;
}

/* Read an optional integer field of o, named in messages events[idx].name; absent leaves
 * *out as it is. */
static int get_int_named(json_t *o, const char *key, const char *name, int32_t *out,
			 const char *path, int rank, long idx, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!is_int32(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, rank, idx,
				      "events[%ld].%s: expected an integer", idx, name);
	*out = (int32_t)json_integer_value(j);
	return 0;
}

static int get_int(json_t *o, const char *key, int32_t *out, const char *path, int rank, long idx,
		   struct mpiv_error *err)
{
	return get_int_named(o, key, key, out, path, rank, idx, err);
}

/* Read an optional data digest of o (0 to 2^32 - 1), named in messages events[idx].name;
 * absent leaves *out as it is (0). */
static int get_digest(json_t *o, const char *key, const char *name, uint32_t *out, const char *path,
		      int rank, long idx, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > UINT32_MAX)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, rank, idx,
				      "events[%ld].%s: expected a digest (an integer from 0 to "
				      "4294967295)",
				      idx, name);
	*out = (uint32_t)json_integer_value(j);
	return 0;
}

/* An event's "enter" and "leave" (nanoseconds of the trace's clock): enter with a clock
 * (leave, at or after it, unless the call had not returned), neither without. */
static int times_from_json(json_t *o, long idx, const struct mpiv_rank_trace *t,
			   struct mpiv_event *ev, struct mpiv_error *err)
{
	json_t *enter = json_object_get(o, "enter"), *leave = json_object_get(o, "leave");

	if (t->clock == MPIV_CLOCK_NONE) {
		if (enter || leave)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, idx,
					      "events[%ld].%s: times in a trace without a clock",
					      idx, enter ? "enter" : "leave");
		return 0;
	}
	if (!json_is_integer(enter) || json_integer_value(enter) < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, idx,
				      "events[%ld].enter: expected nanoseconds (an integer, 0 or "
				      "more)",
				      idx);
	ev->enter = (uint64_t)json_integer_value(enter);
	if (leave && (!json_is_integer(leave) || json_integer_value(leave) < 1 ||
		      (uint64_t)json_integer_value(leave) < ev->enter))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, idx,
				      "events[%ld].leave: expected nanoseconds, at or after enter "
				      "(%llu)",
				      idx, (unsigned long long)ev->enter);
	ev->leave = leave ? (uint64_t)json_integer_value(leave) : 0;
	return 0;
}

/* An optional boolean that sets flag in ev->flags when true. */
static int get_flag(json_t *o, const char *key, unsigned flag, struct mpiv_event *ev,
		    const char *path, int rank, long idx, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	if (j && !json_is_boolean(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, rank, idx,
				      "events[%ld].%s: expected true or false", idx, key);
	if (json_is_true(j))
		ev->flags |= flag;
	return 0;
}

static int event_from_json(json_t *o, long idx, struct mpiv_rank_trace *t, struct mpiv_event *ev,
			   struct mpiv_error *err)
{
	const char *path = t->source;
	json_t *j, *reqs;
	char why[256], name[48];
	int call;
	size_t i;

	if (!json_is_object(o))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
				      "events[%ld]: expected an object", idx);
	j = json_object_get(o, "call");
	call = json_is_string(j) ? mpiv_call_from_name(json_string_value(j)) : -1;
	if (call < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
				      "events[%ld].call: %s%s%s", idx,
				      json_is_string(j) ? "unknown MPI call '" : "missing",
				      json_is_string(j) ? json_string_value(j) : "",
				      json_is_string(j) ? "'" : "");
	mpiv_event_init(ev, (unsigned)call);
	ev->index = (uint32_t)idx;
	j = json_object_get(o, "index");
	if (j && (!json_is_integer(j) || json_integer_value(j) != idx))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
				      "events[%ld].index: expected %ld", idx, idx);
	if (get_special(o, "peer", 0, &ev->peer, path, t->rank, idx, err) ||
	    get_special(o, "tag", 1, &ev->tag, path, t->rank, idx, err) ||
	    get_int(o, "comm", &ev->comm, path, t->rank, idx, err) ||
	    get_int(o, "root", &ev->root, path, t->rank, idx, err) ||
	    get_int(o, "src", &ev->src, path, t->rank, idx, err) ||
	    get_int(o, "mtag", &ev->mtag, path, t->rank, idx, err) ||
	    get_int(o, "thread", &ev->thread, path, t->rank, idx, err) ||
	    get_special(o, "peer2", 0, &ev->peer2, path, t->rank, idx, err) ||
	    get_special(o, "tag2", 1, &ev->tag2, path, t->rank, idx, err))
		return -1;
	j = json_object_get(o, "bytes");
	if (j) {
		if (!json_is_integer(j) || json_integer_value(j) < 0)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].bytes: expected a non-negative integer",
					      idx);
		ev->bytes = (uint64_t)json_integer_value(j);
	}
	if (get_digest(o, "data", "data", &ev->data, path, t->rank, idx, err) ||
	    get_digest(o, "rdata", "rdata", &ev->rdata, path, t->rank, idx, err))
		return -1;
	if (get_flag(o, "incomplete", MPIV_EV_INCOMPLETE, ev, path, t->rank, idx, err) ||
	    get_flag(o, "not_done", MPIV_EV_NOT_DONE, ev, path, t->rank, idx, err) ||
	    get_flag(o, "parts_ready", MPIV_EV_PARTS_READY, ev, path, t->rank, idx, err) ||
	    get_flag(o, "large_count", MPIV_EV_LARGE_COUNT, ev, path, t->rank, idx, err))
		return -1;
	if (get_int(o, "win", &ev->win, path, t->rank, idx, err))
		return -1;
	j = json_object_get(o, "lock");
	if (j) {
		const char *l = json_is_string(j) ? json_string_value(j) : "";

		if (!strcmp(l, "shared"))
			ev->lock = MPIV_LOCK_SHARED;
		else if (!strcmp(l, "exclusive"))
			ev->lock = MPIV_LOCK_EXCLUSIVE;
		else
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].lock: expected \"shared\" or "
					      "\"exclusive\"",
					      idx);
	}
	j = json_object_get(o, "group");
	if (!j && (mpiv_call_flags(ev->call) & MPIV_F_NEIGHBOR))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
				      "events[%ld].group: missing: %s needs the caller's "
				      "in-neighbours (an array of ranks, empty for none)",
				      idx, mpiv_call_name(ev->call));
	if (j) {
		if (!json_is_array(j))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].group: expected an array of ranks", idx);
		ev->ngroup = (uint32_t)json_array_size(j);
		ev->group = xcalloc(ev->ngroup + 1, sizeof(*ev->group));
		for (i = 0; i < ev->ngroup; i++) {
			json_t *m = json_array_get(j, i);

			if (!json_is_integer(m) || json_integer_value(m) < INT32_MIN ||
			    json_integer_value(m) > INT32_MAX)
				return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
						      "events[%ld].group[%zu]: expected a rank of "
						      "the world (0 to %d)",
						      idx, i, t->size - 1);
			ev->group[i] = (int32_t)json_integer_value(m);
		}
	}
	j = json_object_get(o, "site");
	if (j) {
		json_t *m = json_object_get(j, "module"), *a = json_object_get(j, "addr");

		/* the site's bits: 16 for the module, 48 for the address (MPIV_SITE) */
		if (!json_is_integer(m) || !json_is_integer(a) || json_integer_value(m) < 0 ||
		    json_integer_value(m) > 0xffff || json_integer_value(a) < 0 ||
		    (uint64_t)json_integer_value(a) > MPIV_SITE_ADDR(~0ULL))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].site: expected {\"module\": 0 to 65535, "
					      "\"addr\": 0 to 2^48 - 1}",
					      idx);
		ev->site = MPIV_SITE(json_integer_value(m), json_integer_value(a));
	}
	reqs = json_object_get(o, "reqs");
	if (reqs) {
		if (!json_is_array(reqs))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].reqs: expected an array", idx);
		ev->nreqs = (uint32_t)json_array_size(reqs);
		ev->reqs = xcalloc(ev->nreqs, sizeof(*ev->reqs));
		for (i = 0; i < ev->nreqs; i++) {
			json_t *r = json_array_get(reqs, i);
			json_t *id = json_object_get(r, "req");

			ev->reqs[i].src = MPIV_NONE;
			ev->reqs[i].tag = MPIV_NONE;
			if (!json_is_object(r))
				return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
						      "events[%ld].reqs[%zu]: expected an object",
						      idx, i);
			if (!is_int32(id))
				return mpiv_error_set(
					err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					"events[%ld].reqs[%zu].req: expected an integer", idx, i);
			ev->reqs[i].req = (int32_t)json_integer_value(id);
			snprintf(name, sizeof(name), "reqs[%zu].src", i);
			if (get_int_named(r, "src", name, &ev->reqs[i].src, path, t->rank, idx,
					  err))
				return -1;
			snprintf(name, sizeof(name), "reqs[%zu].tag", i);
			if (get_int_named(r, "tag", name, &ev->reqs[i].tag, path, t->rank, idx,
					  err))
				return -1;
			snprintf(name, sizeof(name), "reqs[%zu].data", i);
			if (get_digest(r, "data", name, &ev->reqs[i].data, path, t->rank, idx, err))
				return -1;
		}
	}
	j = json_object_get(o, "req"); /* shorthand for Isend/Irecv: "req": 3 */
	if (j && !reqs) {
		if (!is_int32(j))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].req: expected an integer", idx);
		ev->nreqs = 1;
		ev->reqs = xcalloc(1, sizeof(*ev->reqs));
		ev->reqs[0].req = (int32_t)json_integer_value(j);
		ev->reqs[0].src = MPIV_NONE;
		ev->reqs[0].tag = MPIV_NONE;
	}
	j = json_object_get(o, "pending");
	if (j) {
		if (!json_is_integer(j) || json_integer_value(j) < 0 ||
		    json_integer_value(j) > (json_int_t)ev->nreqs)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].pending: expected at most the number of "
					      "requests (%u)",
					      idx, ev->nreqs);
		ev->npending = (uint32_t)json_integer_value(j);
	}
	j = json_object_get(o, "repeat");
	if (j) {
		if (!json_is_integer(j) || json_integer_value(j) < 1)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
					      "events[%ld].repeat: expected a positive integer",
					      idx);
		ev->repeat = (uint64_t)json_integer_value(j);
	}
	if (times_from_json(o, idx, t, ev, err))
		return -1;
	/* every field within what it can mean, as for a binary trace */
	if (mpiv_event_check(ev, t->size, why, sizeof(why)))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, idx,
				      "events[%ld].%s", idx, why);
	return 0;
}

/* An event's "newcomm" (its rank-local id) and "members" (world ranks, by rank in it): both
 * or neither. */
static int newcomm_from_json(json_t *o, long idx, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *id = json_object_get(o, "newcomm"), *ms = json_object_get(o, "members");
	int32_t *members;
	size_t i, n;
	int rc;

	if (!id && !ms)
		return 0;
	if (!json_is_integer(id) || json_integer_value(id) < MPIV_COMM_FIRST_LOCAL ||
	    json_integer_value(id) > INT32_MAX)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, idx,
				      "events[%ld].newcomm: expected an integer from %d (with "
				      "\"members\")",
				      idx, MPIV_COMM_FIRST_LOCAL);
	if (!json_is_array(ms))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, idx,
				      "events[%ld].members: expected an array of world ranks", idx);
	n = json_array_size(ms);
	members = xmalloc((n ? n : 1) * sizeof(*members));
	for (i = 0; i < n; i++) {
		json_t *m = json_array_get(ms, i);

		if (!json_is_integer(m) || json_integer_value(m) < 0 ||
		    json_integer_value(m) > INT32_MAX) {
			free(members);
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, idx,
					      "events[%ld].members[%zu]: expected a world rank",
					      idx, i);
		}
		members[i] = (int32_t)json_integer_value(m);
	}
	rc = mpiv_trace_add_newcomm(t, (uint32_t)idx, (int32_t)json_integer_value(id), (uint32_t)n,
				    members, err);
	free(members);
	return rc;
}

/* An optional string of the top level into buf (cut to size); absent leaves buf. */
static int get_text(json_t *root, const char *key, char *buf, size_t size,
		    const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *j = json_object_get(root, key);

	if (j && !json_is_string(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "%s: expected a string", key);
	if (j)
		snprintf(buf, size, "%s", json_string_value(j));
	return 0;
}

/* The optional fields of a trace's top level that say where and how it ran. Returns 0, or
 * -1 with err filled. */
static int load_header(json_t *root, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *j = json_object_get(root, "pid");

	if (j && !is_int32(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "pid: expected an integer");
	t->pid = (int)json_integer_value(j);
	j = json_object_get(root, "thread_level");
	if (j && (!json_is_integer(j) || json_integer_value(j) < MPIV_THREAD_SINGLE ||
		  json_integer_value(j) > MPIV_THREAD_MULTIPLE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "thread_level: expected %d (MPI_THREAD_SINGLE) to %d "
				      "(MPI_THREAD_MULTIPLE)",
				      MPIV_THREAD_SINGLE, MPIV_THREAD_MULTIPLE);
	t->thread_level = (int)json_integer_value(j);
	j = json_object_get(root, "truncated");
	if (j && !json_is_boolean(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "truncated: expected true or false");
	t->truncated = json_is_true(j);
	/* `mpiverify trace` shows a window of the run's last calls; no reader takes one back */
	j = json_object_get(root, "first");
	if (j && !(json_is_integer(j) && json_integer_value(j) == 0))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1, "first: %s",
				      MPIV_TRACE_WINDOW_REFUSED);
	if (json_object_get(root, "live") || json_object_get(root, "comms_before"))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1, "%s: %s",
				      json_object_get(root, "live") ? "live" : "comms_before",
				      MPIV_TRACE_WINDOW_REFUSED);
	j = json_object_get(root, "end");
	if (j) {
		json_t *how = json_object_get(j, "how"), *code = json_object_get(j, "code");

		t->end = name_index(end_names, NAMES(end_names), json_string_value(how));
		if (t->end <= MPIV_END_UNKNOWN || (code && !is_int32(code)))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
					      "end: expected {\"how\": \"finalized\", \"aborted\", "
					      "\"signal\" or \"exit\", \"code\": an integer}");
		t->end_code = code ? (int32_t)json_integer_value(code) : 0;
	}
	j = json_object_get(root, "bsend_overhead");
	if (j &&
	    (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > INT32_MAX))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "bsend_overhead: expected a non-negative integer");
	t->bsend_overhead = j ? json_integer_value(j) : 0;
	j = json_object_get(root, "clock");
	if (j) {
		json_t *origin = json_object_get(j, "origin"),
		       *real = json_object_get(j, "realtime");

		t->clock = name_index(clock_names, NAMES(clock_names),
				      json_string_value(json_object_get(j, "kind")));
		if (t->clock <= MPIV_CLOCK_NONE || !json_is_integer(origin) ||
		    json_integer_value(origin) < 0 || !json_is_integer(real) ||
		    json_integer_value(real) < 0)
			return mpiv_error_set(
				err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				"clock: expected {\"kind\": \"monotonic\", \"origin\": "
				"nanoseconds, \"realtime\": nanoseconds}");
		t->clock_origin = (uint64_t)json_integer_value(origin);
		t->clock_realtime = (uint64_t)json_integer_value(real);
	}
	if (get_text(root, "host", t->host, sizeof(t->host), t, err) ||
	    get_text(root, "library", t->library, sizeof(t->library), t, err))
		return -1;
	return 0;
}

int mpiv_trace_load_json(const char *path, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_error_t jerr;
	json_t *root, *j, *evs, *mods;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->rank = -1;
	t->source = xstrdup(path);
	root = json_load_file(path, 0, &jerr);
	if (!root) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "%s", jerr.text);
		if (err)
			err->line = jerr.line;
		goto fail_noroot;
	}
	j = json_object_get(root, "format");
	if (!json_is_string(j) || strcmp(json_string_value(j), TRACE_FORMAT)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
			       "format: expected \"" TRACE_FORMAT "\"");
		goto fail;
	}
	j = json_object_get(root, "version");
	if (!json_is_integer(j) || json_integer_value(j) != 1) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "version: expected 1");
		goto fail;
	}
	j = json_object_get(root, "rank");
	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
	    json_integer_value(j) >= INT32_MAX) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
			       "rank: expected a non-negative integer");
		goto fail;
	}
	t->rank = (int)json_integer_value(j);
	j = json_object_get(root, "size");
	if (!json_is_integer(j) || json_integer_value(j) <= t->rank ||
	    json_integer_value(j) > INT32_MAX) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1,
			       "size: expected an integer above the rank");
		goto fail;
	}
	t->size = (int)json_integer_value(j);
	if (load_header(root, t, err))
		goto fail;
	mods = json_object_get(root, "modules");
	if (mods && !json_is_array(mods)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1,
			       "modules: expected an array");
		goto fail;
	}
	for (i = 0; i < json_array_size(mods); i++) {
		json_t *m = json_array_get(mods, i);
		json_t *p = json_object_get(m, "path"), *id = json_object_get(m, "id");

		if (!json_is_string(p)) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1,
				       "modules[%zu].path: expected a string", i);
			goto fail;
		}
		if (!json_is_integer(id) || json_integer_value(id) < 0 ||
		    json_integer_value(id) >= MPIV_SITE_NO_MODULE) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1,
				       "modules[%zu].id: expected an integer from 0 to %u", i,
				       MPIV_SITE_NO_MODULE - 1);
			goto fail;
		}
		if (mpiv_trace_add_module(t, (uint32_t)json_integer_value(id), json_string_value(p),
					  json_string_length(p), err))
			goto fail;
	}
	evs = json_object_get(root, "events");
	if (!json_is_array(evs)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1,
			       "events: expected an array");
		goto fail;
	}
	t->events = xcalloc(json_array_size(evs), sizeof(*t->events));
	for (i = 0; i < json_array_size(evs); i++) {
		if (event_from_json(json_array_get(evs, i), (long)i, t, &t->events[i], err)) {
			t->nevents = i + 1;
			goto fail;
		}
		t->nevents = i + 1;
		t->kinds |= 1ULL << mpiv_call_kind(t->events[i].call);
		t->call_flags |= mpiv_call_flags(t->events[i].call);
		t->threaded |= t->events[i].thread != 0;
		mpiv_thread_note_requests(t, &t->events[i]);
		if (newcomm_from_json(json_array_get(evs, i), (long)i, t, err))
			goto fail;
	}
	if (mpiv_trace_check_incomplete(t, err))
		goto fail;
	if (t->nevents && (t->events[t->nevents - 1].flags & MPIV_EV_INCOMPLETE))
		t->incomplete = 1;
	if (mpiv_reductions_from_json(json_object_get(root, "reductions"), t, err) ||
	    mpiv_thread_ops_from_json(json_object_get(root, "threads"), t, err))
		goto fail;
	json_decref(root);
	return 0;
fail:
	json_decref(root);
fail_noroot:
	mpiv_rank_trace_release(t);
	return -1;
}
