/* The reduction check's findings in a rank trace: checked as they are added, whichever file
 * they come from (a binary trace's reduction records, a JSON trace's "reductions"), and
 * written as JSON. Layout: doc/trace-format.md. */
#include <math.h>
#include <string.h>

#include "trace.h"
#include "trace_reduce.h"
#include "xalloc.h"

/* The checks of a finding that need its trace; the rest the decoder made already, but a JSON
 * file has no decoder, so they are made again here. Returns 0, or -1 with err filled. */
static int check_reduction(const struct mpiv_rank_trace *t, const struct mpiv_reduction *r,
			   struct mpiv_error *err)
{
	const struct mpiv_event *ev, *done;
	const char *texts[] = {r->type, r->elem, r->op, r->got, r->want, r->why};
	size_t i;

#define BAD(...) \
	mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)r->event, __VA_ARGS__)
	if (r->event >= t->nevents || r->done >= t->nevents)
		return BAD("a reduction finding of events %u and %u, beyond the trace", r->event,
			   r->done);
	ev = mpiv_trace_event(t, r->event);
	done = mpiv_trace_event(t, r->done);
	if (!(mpiv_call_flags(ev->call) & MPIV_F_REDUCE))
		return BAD("a reduction finding of event %u, %s, which is no reduction", r->event,
			   mpiv_call_name(ev->call));
	if (r->done != r->event &&
	    (mpiv_call_kind(ev->call) != MPIV_KIND_ICOLL || r->done < r->event ||
	     mpiv_call_kind(done->call) != MPIV_KIND_WAIT))
		return BAD("a reduction finding of event %u checked at event %u, %s, which does "
			   "not complete it",
			   r->event, r->done, mpiv_call_name(done->call));
	if (!mpiv_red_what_name(r->what))
		return BAD("a reduction finding of an unknown kind %d", r->what);
	if (r->flags & ~(uint32_t)MPIV_RED_FLAGS_ALL)
		return BAD("a reduction finding with unknown flags 0x%x", r->flags);
	if (r->what == MPIV_RED_MISMATCH &&
	    (r->differ == 0 || r->differ > r->count || r->first >= r->count))
		return BAD("a reduction mismatch of %llu elements of %llu, the first at %llu",
			   (unsigned long long)r->differ, (unsigned long long)r->count,
			   (unsigned long long)r->first);
	if (!isfinite(r->rel) || r->rel < 0 || !isfinite(r->allowed) || r->allowed < 0)
		return BAD("a reduction finding with a tolerance that is not a finite number >= 0");
	if (r->peer != MPIV_NONE && (r->peer < 0 || (t->size > 0 && r->peer >= t->size)))
		return BAD("a reduction finding naming rank %d, which is not a rank of a world "
			   "of %d",
			   r->peer, t->size);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (!mpiv_red_text_ok(texts[i], strnlen(texts[i], MPIV_RED_TEXT)))
			return BAD("a reduction finding with a text field that is not printable "
				   "text of at most %d bytes",
				   MPIV_RED_TEXT - 1);
#undef BAD
	return 0;
}

int mpiv_trace_add_reduction(struct mpiv_rank_trace *t, const struct mpiv_reduction *r,
			     struct mpiv_error *err)
{
	if (check_reduction(t, r, err))
		return -1;
	t->reductions = xrealloc(t->reductions, (t->nreductions + 1) * sizeof(*t->reductions));
	t->reductions[t->nreductions++] = *r;
	return 0;
}

/* ---- JSON ---- */

static json_t *reduction_to_json(const struct mpiv_reduction *r)
{
	json_t *o = json_pack("{s:I, s:I, s:s, s:s, s:s}", "event", (json_int_t)r->event, "done",
			      (json_int_t)r->done, "what", mpiv_red_what_name(r->what), "type",
			      r->type, "op", r->op);

	if (r->what == MPIV_RED_MISMATCH) {
		json_object_set_new(o, "count", json_integer((json_int_t)r->count));
		json_object_set_new(o, "differ", json_integer((json_int_t)r->differ));
		json_object_set_new(o, "first", json_integer((json_int_t)r->first));
		json_object_set_new(o, "elem", json_string(r->elem));
		json_object_set_new(o, "got", json_string(r->got));
		json_object_set_new(o, "want", json_string(r->want));
		json_object_set_new(o, "rel", json_real(r->rel));
		json_object_set_new(o, "allowed", json_real(r->allowed));
	}
	if (r->peer != MPIV_NONE)
		json_object_set_new(o, "peer", json_integer(r->peer));
	if (r->code)
		json_object_set_new(o, "code", json_integer(r->code));
	if (r->why[0])
		json_object_set_new(o, "why", json_string(r->why));
	if (r->flags & MPIV_RED_CORRECTED)
		json_object_set_new(o, "corrected", json_true());
	if (r->flags & MPIV_RED_TOL_GIVEN)
		json_object_set_new(o, "tol_given", json_true());
	return o;
}

json_t *mpiv_reductions_to_json(const struct mpiv_rank_trace *t)
{
	json_t *a;
	size_t i;

	if (!t->nreductions)
		return NULL;
	a = json_array();
	for (i = 0; i < t->nreductions; i++)
		json_array_append_new(a, reduction_to_json(&t->reductions[i]));
	return a;
}

/* Field key of finding o (reductions[i]) into *out: an integer in [lo, hi]; absent leaves it
 * as it is unless required. */
static int get_num(json_t *o, size_t i, const char *key, int required, long long lo, long long hi,
		   long long *out, const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	if (!j && !required)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "reductions[%zu].%s: expected an integer from %lld to %lld",
				      i, key, lo, hi);
	*out = json_integer_value(j);
	return 0;
}

/* Text field key into out (MPIV_RED_TEXT bytes); absent is "". */
static int get_text(json_t *o, size_t i, const char *key, char *out,
		    const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	out[0] = '\0';
	if (!j)
		return 0;
	if (!json_is_string(j) || !mpiv_red_text_ok(json_string_value(j), json_string_length(j)))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "reductions[%zu].%s: expected printable text of at most %d "
				      "bytes",
				      i, key, MPIV_RED_TEXT - 1);
	memcpy(out, json_string_value(j), json_string_length(j) + 1);
	return 0;
}

static int get_real(json_t *o, size_t i, const char *key, double *out,
		    const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!json_is_number(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "reductions[%zu].%s: expected a number", i, key);
	*out = json_number_value(j);
	return 0;
}

/* Flag key (true or false; absent is false) into *flags. */
static int get_flag(json_t *o, size_t i, const char *key, uint32_t bit, uint32_t *flags,
		    const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!json_is_boolean(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "reductions[%zu].%s: expected true or false", i, key);
	if (json_is_true(j))
		*flags |= bit;
	return 0;
}

static int reduction_from_json(json_t *o, size_t i, struct mpiv_rank_trace *t,
			       struct mpiv_error *err)
{
	struct mpiv_reduction r;
	long long event = 0, done = -1, count = 0, differ = 0, first = 0, peer = MPIV_NONE;
	long long code = 0;

	memset(&r, 0, sizeof(r));
	if (!json_is_object(o))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "reductions[%zu]: expected an object", i);
	r.what = mpiv_red_what_from_name(json_string_value(json_object_get(o, "what")));
	if (r.what < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "reductions[%zu].what: expected \"mismatch\", \"failed\", "
				      "\"corrupt\" or \"unchecked\"",
				      i);
	if (get_num(o, i, "event", 1, 0, UINT32_MAX, &event, t, err) ||
	    get_num(o, i, "done", 0, 0, UINT32_MAX, &done, t, err) ||
	    get_num(o, i, "count", 0, 0, INT64_MAX, &count, t, err) ||
	    get_num(o, i, "differ", 0, 0, INT64_MAX, &differ, t, err) ||
	    get_num(o, i, "first", 0, 0, INT64_MAX, &first, t, err) ||
	    get_num(o, i, "peer", 0, 0, INT32_MAX, &peer, t, err) ||
	    get_num(o, i, "code", 0, INT32_MIN, INT32_MAX, &code, t, err) ||
	    get_real(o, i, "rel", &r.rel, t, err) ||
	    get_real(o, i, "allowed", &r.allowed, t, err) ||
	    get_text(o, i, "type", r.type, t, err) || get_text(o, i, "elem", r.elem, t, err) ||
	    get_text(o, i, "op", r.op, t, err) || get_text(o, i, "got", r.got, t, err) ||
	    get_text(o, i, "want", r.want, t, err) || get_text(o, i, "why", r.why, t, err) ||
	    get_flag(o, i, "corrected", MPIV_RED_CORRECTED, &r.flags, t, err) ||
	    get_flag(o, i, "tol_given", MPIV_RED_TOL_GIVEN, &r.flags, t, err))
		return -1;
	r.event = (uint32_t)event;
	r.done = done < 0 ? r.event : (uint32_t)done;
	r.count = (uint64_t)count;
	r.differ = (uint64_t)differ;
	r.first = (uint64_t)first;
	r.peer = (int32_t)peer;
	r.code = (int32_t)code;
	return mpiv_trace_add_reduction(t, &r, err);
}

int mpiv_reductions_from_json(json_t *a, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "reductions: expected an array");
	for (i = 0; i < json_array_size(a); i++)
		if (reduction_from_json(json_array_get(a, i), i, t, err))
			return -1;
	return 0;
}
