/* The order between a rank's threads (trace_threads.h): each record checked as it is added,
 * whichever file it comes from. */
#include <string.h>

#include "trace_threads.h"
#include "steer.h"
#include "xalloc.h"

static const char *const kind_names[] =
	{[MPIV_THREAD_CREATE] = "create", [MPIV_THREAD_JOIN] = "join", [MPIV_THREAD_EXIT] = "exit"};

int mpiv_trace_add_thread_op(struct mpiv_rank_trace *t, const struct mpiv_thread_op *op,
			     size_t nevents, const char *where, struct mpiv_error *err)
{
	const struct mpiv_thread_op *last = t->nthread_ops ? &t->thread_ops[t->nthread_ops - 1] :
							     NULL;
	size_t i;

	if (op->op < MPIV_THREAD_CREATE || op->op > MPIV_THREAD_EXIT || op->self < 0 ||
	    op->other < 0 || (op->op == MPIV_THREAD_EXIT) != (op->self == op->other))
		return mpiv_error_set(
			err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
			"%s: a thread record needs two threads, 0 or more, that differ "
			"(an exit record, one thread twice)",
			where);
	if (op->before > nevents || (last && op->before < last->before))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "%s: a thread record out of order (after %u events, the "
				      "record before after %u)",
				      where, op->before, last ? last->before : 0);
	/* a thread is created once and ends once, and neither is the initial thread's */
	for (i = 0; op->op != MPIV_THREAD_JOIN && i < t->nthread_ops; i++)
		if (t->thread_ops[i].op == op->op && t->thread_ops[i].other == op->other)
			break;
	if (op->op != MPIV_THREAD_JOIN && (i < t->nthread_ops || op->other == 0))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "%s: thread %d %s twice", where, op->other,
				      op->op == MPIV_THREAD_CREATE ? "created" : "ended");
	t->thread_ops = xrealloc(t->thread_ops, (t->nthread_ops + 1) * sizeof(*t->thread_ops));
	t->thread_ops[t->nthread_ops++] = *op;
	return 0;
}

int mpiv_thread_path(const struct mpiv_rank_trace *t, int32_t thread, char *buf, size_t size)
{
	const struct mpiv_thread_op *made = NULL;
	unsigned k = 0;
	size_t i, n;

	if (thread == 0)
		return size > 1 ? (snprintf(buf, size, "0"), 0) : -1;
	for (i = 0; i < t->nthread_ops && !made; i++)
		if (t->thread_ops[i].op == MPIV_THREAD_CREATE && t->thread_ops[i].other == thread)
			made = &t->thread_ops[i];
	/* the creator's path, in less room than this one's (each step adds 2 or more, so a
	 * loop of creations, which records never hold, ends too) */
	if (!made || size < 4 || mpiv_thread_path(t, made->self, buf, size - 2) < 0)
		return -1;
	for (i = 0; &t->thread_ops[i] <= made; i++)
		k += t->thread_ops[i].op == MPIV_THREAD_CREATE &&
		     t->thread_ops[i].self == made->self;
	n = strlen(buf);
	return snprintf(buf + n, size - n, ".%u", k) < (int)(size - n) ? 0 : -1;
}

long mpiv_thread_next_decision(const struct mpiv_rank_trace *t, int32_t thread, size_t from)
{
	size_t e;

	for (e = from; e < t->nevents; e++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, e);

		if (ev->thread == thread && mpiv_event_decision(ev) != MPIV_DEC_NONE)
			return (long)e;
	}
	return -1;
}

int32_t mpiv_thread_of_path(const struct mpiv_rank_trace *t, const char *path)
{
	char p[MPIV_STEER_PATH];
	size_t i;

	if (!strcmp(path, "0"))
		return 0;
	for (i = 0; i < t->nthread_ops; i++)
		if (t->thread_ops[i].op == MPIV_THREAD_CREATE &&
		    mpiv_thread_path(t, t->thread_ops[i].other, p, sizeof(p)) == 0 &&
		    !strcmp(p, path))
			return t->thread_ops[i].other;
	return -1;
}

json_t *mpiv_thread_ops_to_json(const struct mpiv_rank_trace *t)
{
	json_t *a;
	size_t i;

	if (!t->nthread_ops)
		return NULL;
	a = json_array();
	for (i = 0; i < t->nthread_ops; i++) {
		const struct mpiv_thread_op *op = &t->thread_ops[i];

		json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:I}", "op", kind_names[op->op],
						   "thread", (int)op->self, "other", (int)op->other,
						   "before", (json_int_t)op->before));
	}
	return a;
}

int mpiv_thread_ops_from_json(json_t *a, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "threads: expected an array");
	for (i = 0; i < json_array_size(a); i++) {
		json_t *o = json_array_get(a, i);
		const char *kind = json_string_value(json_object_get(o, "op"));
		json_t *self = json_object_get(o, "thread"), *other = json_object_get(o, "other");
		json_t *before = json_object_get(o, "before");
		struct mpiv_thread_op op = {0, 0, 0, 0};
		char where[48];

		snprintf(where, sizeof(where), "threads[%zu]", i);
		if (!json_is_object(o) || !kind || !json_is_integer(self) ||
		    !json_is_integer(other) || !json_is_integer(before) ||
		    json_integer_value(self) < 0 || json_integer_value(self) > INT32_MAX ||
		    json_integer_value(other) < 0 || json_integer_value(other) > INT32_MAX ||
		    json_integer_value(before) < 0 || json_integer_value(before) > UINT32_MAX)
			return mpiv_error_set(
				err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				"%s: expected {\"op\": \"create\", \"join\" or \"exit\", "
				"\"thread\": N, \"other\": N, \"before\": N}",
				where);
		op.op = !strcmp(kind, "create") ? MPIV_THREAD_CREATE :
			!strcmp(kind, "join")	? MPIV_THREAD_JOIN :
			!strcmp(kind, "exit")	? MPIV_THREAD_EXIT :
						  0;
		op.self = (int32_t)json_integer_value(self);
		op.other = (int32_t)json_integer_value(other);
		op.before = (uint32_t)json_integer_value(before);
		if (mpiv_trace_add_thread_op(t, &op, t->nevents, where, err))
			return -1;
	}
	return 0;
}
