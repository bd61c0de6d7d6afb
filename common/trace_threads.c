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

/* Is op the creation of a thread made before MPI_Init (doc/trace-format.md: one there already,
 * told by thread 0 before the first event), which has no path? */
static int made_before(const struct mpiv_thread_op *op)
{
	return op->op == MPIV_THREAD_CREATE && op->self == 0 && op->before == 0;
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
	if (!made || made_before(made) || size < 4 ||
	    mpiv_thread_path(t, made->self, buf, size - 2) < 0)
		return -1;
	for (i = 0; &t->thread_ops[i] <= made; i++)
		k += t->thread_ops[i].op == MPIV_THREAD_CREATE &&
		     t->thread_ops[i].self == made->self && !made_before(&t->thread_ops[i]);
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

/* Who made the requests of a trace whose threads may call MPI at once (MPI_THREAD_MULTIPLE):
 * an entry per request, at the first event that names it. The recorder numbers a rank's
 * requests in the order it makes them, but threads write their events as their calls return,
 * so a request may be named after one of a higher id: ids below the highest that no event
 * named yet are holes, and an id in a hole is a new request. Below MPI_THREAD_MULTIPLE the
 * calls come one at a time, and every request is the initial thread's, each its id-th. */
struct mpiv_req_index {
	struct {
		int32_t id, thread, nth;
	} * m;
	size_t n, cap;
	int sorted; /* m is in the order of ids */
	struct {
		int32_t lo, hi; /* ids lo .. hi - 1 */
	} * holes;
	size_t nholes, capholes;
	struct {
		int32_t thread, made; /* requests it made so far */
	} * count;		      /* per thread that made some */
	size_t ncount, capcount;
};

/* The count of requests thread made so far, in x (made 0 if new). */
static int32_t *made_by(struct mpiv_req_index *x, int32_t thread)
{
	size_t k;

	for (k = 0; k < x->ncount && x->count[k].thread != thread; k++)
		;
	if (k == x->ncount) {
		xgrow((void **)&x->count, &x->capcount, x->ncount + 1, sizeof(*x->count));
		x->count[k].thread = thread;
		x->count[k].made = 0;
		x->ncount++;
	}
	return &x->count[k].made;
}

/* Is id, below the highest named, in a hole of x? Then it is named now: out of the hole. */
static int fill_hole(struct mpiv_req_index *x, int32_t id)
{
	size_t k;

	for (k = 0; k < x->nholes; k++) {
		int32_t lo = x->holes[k].lo, hi = x->holes[k].hi;

		if (id < lo || id >= hi)
			continue;
		if (id == lo)
			x->holes[k].lo++;
		else if (id == hi - 1)
			x->holes[k].hi--;
		else { /* split */
			xgrow((void **)&x->holes, &x->capholes, x->nholes + 1, sizeof(*x->holes));
			x->holes[x->nholes].lo = id + 1;
			x->holes[x->nholes++].hi = hi;
			x->holes[k].hi = id;
		}
		if (x->holes[k].lo >= x->holes[k].hi)
			x->holes[k] = x->holes[--x->nholes];
		return 1;
	}
	return 0;
}

void mpiv_thread_note_requests(struct mpiv_rank_trace *t, const struct mpiv_event *ev)
{
	struct mpiv_req_index *x = t->req_index;
	uint32_t j;

	if (!x && t->thread_level >= 3 /* MPI_THREAD_MULTIPLE */ && ev->nreqs) {
		x = t->req_index = xcalloc(1, sizeof(*x));
		x->sorted = 1;
	}
	for (j = 0; j < ev->nreqs; j++) {
		int32_t id = ev->reqs[j].req;

		if (id < 0 || (id < t->req_next && !(x && fill_hole(x, id))))
			continue; /* made before: used, started or completed here */
		if (x) {
			if (id > t->req_next) {
				xgrow((void **)&x->holes, &x->capholes, x->nholes + 1,
				      sizeof(*x->holes));
				x->holes[x->nholes].lo = t->req_next;
				x->holes[x->nholes++].hi = id;
			}
			xgrow((void **)&x->m, &x->cap, x->n + 1, sizeof(*x->m));
			x->sorted &= !x->n || x->m[x->n - 1].id < id;
			x->m[x->n].id = id;
			x->m[x->n].thread = ev->thread;
			x->m[x->n++].nth = (*made_by(x, ev->thread))++;
		}
		if (id >= t->req_next)
			t->req_next = id + 1;
	}
}

void mpiv_thread_requests_release(struct mpiv_rank_trace *t)
{
	if (t->req_index) {
		free(t->req_index->m);
		free(t->req_index->holes);
		free(t->req_index->count);
		free(t->req_index);
	}
	t->req_index = NULL;
}

static int by_id(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

int32_t mpiv_thread_request(const struct mpiv_rank_trace *t, int32_t id, int32_t *nth)
{
	struct mpiv_req_index *x = t->req_index;
	size_t lo = 0, hi;

	*nth = -1;
	if (id < 0 || id >= t->req_next)
		return -1;
	if (!x) {
		*nth = id;
		return 0;
	}
	if (!x->sorted) { /* a cache of what t says, in the order of ids once asked */
		qsort(x->m, x->n, sizeof(*x->m), by_id);
		x->sorted = 1;
	}
	for (hi = x->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->m[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == x->n || x->m[lo].id != id)
		return -1; /* no event made it */
	*nth = x->m[lo].nth;
	return x->m[lo].thread;
}

int32_t mpiv_thread_request_id(const struct mpiv_rank_trace *t, int32_t thread, int32_t nth)
{
	const struct mpiv_req_index *x = t->req_index;
	size_t k;

	if (nth < 0)
		return -1;
	if (!x)
		return thread == 0 && nth < t->req_next ? nth : -1;
	for (k = 0; k < x->n; k++)
		if (x->m[k].thread == thread && x->m[k].nth == nth)
			return x->m[k].id;
	return -1;
}
