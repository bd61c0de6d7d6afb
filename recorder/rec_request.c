/* Nonblocking requests in the recorder: the table of requests the program holds, and the Wait
 * handlers, which list the requests they complete with each receive's matched source and tag
 * and the digest of what it took (substituting statuses when the program ignores them, as
 * Score-P does). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "recorder.h"
#include "calm.h"
#include "steer.h"
#include "rec_comm.h"

#define REQ_BUCKETS 1024 /* a power of two */
#define REQ_CHUNK 256	 /* table nodes allocated at a time */
/* requests a completion call handles without malloc: few, its
 * frame is on the program's stack */
#define REQ_STACK 8

/* A table node. Handles are not unique (see struct rec_reqent), so a bucket may hold several
 * nodes with one handle; a wait takes the newest one returned in the variable it is passed,
 * else the oldest (several built-in handles copied into an array complete in the order they
 * were made). "Newest" is the order of insertion (a request put back counts as inserted
 * anew): the head of a bucket first. */
struct req_node {
	struct rec_reqent e;   /* the request */
	struct req_node *next; /* same bucket, or the free list */
};

static pthread_mutex_t req_lock = PTHREAD_MUTEX_INITIALIZER; /* everything below, if rec_multi */
static struct req_node *req_buckets[REQ_BUCKETS];
static struct req_node *req_free; /* unused nodes */
static int32_t req_next_id;	  /* ids are 0, 1, ... in order of creation */
/* The entry inserted last, kept out of the buckets (the head of its own, in effect) until the
 * next is inserted: a program mostly completes a request before it makes the next, and this
 * one is then added and taken with a few stores and compares. Empty: id REC_REQ_UNKNOWN. */
static struct rec_reqent req_last = {.id = REC_REQ_UNKNOWN};

/* req_lock, needed only when calls of several threads may overlap (rec_multi). */
static void req_lock_take(void)
{
	if (rec_multi)
		pthread_mutex_lock(&req_lock);
}

static void req_lock_drop(void)
{
	if (rec_multi)
		pthread_mutex_unlock(&req_lock);
}

static unsigned req_hash(MPI_Request h)
{
	uint64_t v = 0;

	memcpy(&v, &h, sizeof(h) < sizeof(v) ? sizeof(h) : sizeof(v));
	return (unsigned)((v * 0x9e3779b97f4a7c15ULL) >> 40) & (REQ_BUCKETS - 1);
}

/* More free nodes, REQ_CHUNK of them at once. Call with req_lock held. */
static REC_COLD void req_refill(void)
{
	struct req_node *n = malloc(REQ_CHUNK * sizeof(*n));
	unsigned i;

	for (i = 0; n && i < REQ_CHUNK; i++) {
		n[i].next = req_free;
		req_free = &n[i];
	}
}

/* Link e into the table. Call with req_lock held. Returns 0, or -1 if out of memory. */
static int req_insert(const struct rec_reqent *e)
{
	struct req_node *n, **bucket = &req_buckets[req_hash(e->handle)];

	if (!req_free)
		req_refill();
	n = req_free;
	if (!n)
		return -1;
	req_free = n->next;
	n->e = *e;
	n->next = *bucket;
	*bucket = n;
	return 0;
}

/* Unlink the node *pp. Call with req_lock held. */
static void req_unlink(struct req_node **pp)
{
	struct req_node *n = *pp;

	*pp = n->next;
	n->next = req_free;
	req_free = n;
}

/* Insert e as the newest entry: into req_last, the one there before into its bucket. Call
 * with req_lock held. Returns 0, or -1 if out of memory (e is then not in the table). */
static int req_push(const struct rec_reqent *e)
{
	if (req_last.id != REC_REQ_UNKNOWN && req_insert(&req_last) != 0)
		return -1;
	req_last = *e;
	return 0;
}

/* Take req_last into e. Call with req_lock held. */
static void req_take_last(struct rec_reqent *e)
{
	*e = req_last;
	req_last.id = REC_REQ_UNKNOWN;
}

/* rec_request_add() with req_lock held if needed. */
static inline int32_t req_add(const struct rec_reqent *e)
{
	struct rec_reqent n = *e;

	n.id = req_next_id++;
	return req_push(&n) == 0 ? n.id : REC_REQ_UNKNOWN;
}

int32_t rec_request_add_data(const MPI_Request *where, int is_recv, MPI_Comm comm,
			     enum rec_digest_at digest, struct rec_data data)
{
	struct rec_reqent e;
	int32_t id;

	e.handle = *where;
	e.where = where;
	e.by = &rec_tls;
	e.nth = rec_tls.nreqs++;
	e.is_recv = is_recv;
	e.comm = comm;
	e.digest = digest;
	e.data = data;
	e.maker.call = 0;
	/* An entry with the same handle may be here already, even in the same variable: built-in
	 * handles of sends that completed at once, often copied out of one temporary. */
	if (!rec_multi)
		return req_add(&e);
	pthread_mutex_lock(&req_lock);
	id = req_add(&e);
	pthread_mutex_unlock(&req_lock);
	return id;
}

int32_t rec_request_add(const MPI_Request *where, int is_recv, MPI_Comm comm)
{
	struct rec_data none = {NULL, REC_DATA_UNKNOWN};

	return rec_request_add_data(where, is_recv, comm, REC_DIGEST_NONE, none);
}

/* rec_request_take() with req_lock held if needed. */
static inline void req_take(MPI_Request h, const MPI_Request *where, struct rec_reqent *e)
{
	struct req_node **pp, **found = NULL;
	int last = 0; /* req_last has handle h */

	if (req_last.id != REC_REQ_UNKNOWN && req_last.handle == h) {
		/* the newest of all: the one to take if returned in where */
		if (req_last.where == where) {
			req_take_last(e);
			return;
		}
		last = 1;
	}
	for (pp = &req_buckets[req_hash(h)]; *pp; pp = &(*pp)->next) {
		if ((*pp)->e.handle != h)
			continue;
		if ((*pp)->e.where == where) {
			found = pp;
			break;
		}
		if (!found || (*pp)->e.id < (*found)->e.id)
			found = pp;
	}
	if (last && (!found || ((*found)->e.where != where && req_last.id < (*found)->e.id))) {
		req_take_last(e);
	} else if (found) {
		*e = (*found)->e;
		req_unlink(found);
	} else {
		memset(e, 0, sizeof(*e));
		e->handle = h;
		e->id = REC_REQ_UNKNOWN;
	}
}

void rec_request_take(MPI_Request h, const MPI_Request *where, struct rec_reqent *e)
{
	if (!rec_multi) {
		req_take(h, where, e);
		return;
	}
	pthread_mutex_lock(&req_lock);
	req_take(h, where, e);
	pthread_mutex_unlock(&req_lock);
}

int32_t rec_request_find(MPI_Request h)
{
	struct req_node *n;
	int32_t id = REC_REQ_UNKNOWN;

	req_lock_take();
	if (req_last.id != REC_REQ_UNKNOWN && req_last.handle == h)
		id = req_last.id;
	for (n = req_buckets[req_hash(h)]; n; n = n->next)
		if (n->e.handle == h && (id == REC_REQ_UNKNOWN || n->e.id < id))
			id = n->e.id;
	req_lock_drop();
	return id;
}

void rec_request_note(int32_t id, unsigned call, int32_t peer, int32_t peer2, int32_t tag,
		      int32_t comm)
{
	enum mpiv_kind k = mpiv_call_kind(call);

	if (k == MPIV_KIND_WAIT || k == MPIV_KIND_START || k == MPIV_KIND_LOCAL)
		return;
	req_lock_take();
	/* the request just added is the newest, unless another thread added one since: its
	 * maker then stays unknown, as it would without this */
	if (req_last.id == id && !req_last.maker.call) {
		req_last.maker.call = (uint16_t)call;
		req_last.maker.peer = peer;
		req_last.maker.peer2 = peer2;
		req_last.maker.tag = tag;
		req_last.maker.comm = comm;
	}
	req_lock_drop();
}

size_t rec_request_live(void (*fn)(int32_t id, const struct rec_reqmaker *m, void *arg), void *arg,
			size_t max)
{
	const struct req_node *n;
	size_t k = 0;
	unsigned b;

	req_lock_take();
	if (req_last.id != REC_REQ_UNKNOWN && req_last.maker.call && k < max) {
		fn(req_last.id, &req_last.maker, arg);
		k++;
	}
	for (b = 0; b < REQ_BUCKETS && k < max; b++)
		for (n = req_buckets[b]; n && k < max; n = n->next)
			if (n->e.maker.call) {
				fn(n->e.id, &n->e.maker, arg);
				k++;
			}
	req_lock_drop();
	return k;
}

void rec_request_put(const struct rec_reqent *e)
{
	if (e->id == REC_REQ_UNKNOWN)
		return;
	req_lock_take();
	req_push(e);
	req_lock_drop();
}

void rec_request_info(const struct rec_reqent *e, const MPI_Status *st, struct mpiv_reqinfo *ri)
{
	int cancelled = 0;

	ri->req = e->id;
	ri->src = MPIV_NONE;
	ri->tag = MPIV_NONE;
	ri->data = 0;
	if (e->id == REC_REQ_UNKNOWN || !st || (!e->is_recv && e->digest != REC_DIGEST_DONE))
		return;
	/* a cancelled receive matched nothing: its status says nothing of a source, and it
	 * took no data */
	if (PMPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS && cancelled)
		return;
	if (e->is_recv) {
		ri->src = rec_comm_to_world(e->comm, st->MPI_SOURCE);
		ri->tag = rec_comm_tag(st->MPI_TAG);
	}
	if (e->digest == REC_DIGEST_DONE)
		ri->data = rec_data_received(&e->data, st);
}

/* The statuses array to pass for n requests: the program's, or, when it ignores them, ours
 * (stack for up to REQ_STACK, else *heap, which the caller frees), so that each completed
 * receive's source is known. Without memory the program's MPI_STATUSES_IGNORE stays. */
static MPI_Status *statuses_for(MPI_Status *given, int n, MPI_Status *stack, MPI_Status **heap)
{
	MPI_Status *st;

	if (given != MPI_STATUSES_IGNORE || n <= 0)
		return given;
	st = n <= REQ_STACK ? stack : (*heap = malloc(n * sizeof(*st)));
	return st ? st : MPI_STATUSES_IGNORE;
}

REC_HOT int rec_Wait(struct rec_call *c, MPI_Request *request, MPI_Status *status)
{
	struct rec_reqent e;
	MPI_Status local;
	int rc, freed;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	if (!request || *request == MPI_REQUEST_NULL)
		return PMPI_Wait(request, status); /* completes nothing: an empty list */
	/* Listed before the call, so that a Wait that blocks shows what it waits for. */
	rec_request_take(*request, request, &e);
	rec_call_add_req(c, e.id, MPIV_NONE, MPIV_NONE);
	rec_call_posted(c);
	rec_steer_icoll_wait(*request);
	rc = calm_Wait(request, status);
	rec_call_returned(c);
	freed = *request == MPI_REQUEST_NULL;
	if (rc == MPI_SUCCESS || freed)
		rec_request_info(&e, status, &c->ev.reqs[0]);
	else
		c->ev.nreqs = 0; /* failed without completing it */
	if (rec_reduce_on && (rc == MPI_SUCCESS || freed))
		rec_reduce_completed(c, e.handle, rc);
	if (!freed)
		rec_request_put(&e);
	return rc;
}

REC_HOT int rec_Waitall(struct rec_call *c, int count, MPI_Request array_of_requests[],
			MPI_Status array_of_statuses[])
{
	struct rec_reqent ent_stack[REQ_STACK], *ent = ent_stack;
	MPI_Status st_stack[REQ_STACK], *st = array_of_statuses, *st_heap = NULL;
	int n = count > 0 && array_of_requests ? count : 0;
	int i, rc;
	uint32_t k;

	if (n > REQ_STACK) {
		ent = malloc(n * sizeof(*ent));
		if (!ent)
			n = 0; /* cannot follow them: record the call without requests */
	}
	if (n > 0 && rec_call_reserve_reqs(c, (uint32_t)n) != 0)
		n = 0;
	st = statuses_for(st, n, st_stack, &st_heap);
	for (i = 0; i < n; i++) {
		ent[i].handle = array_of_requests[i];
		if (ent[i].handle == MPI_REQUEST_NULL)
			continue;
		rec_request_take(ent[i].handle, &array_of_requests[i], &ent[i]);
		rec_call_add_req(c, ent[i].id, MPIV_NONE, MPIV_NONE);
	}

	rec_call_posted(c);
	for (i = 0; rec_steer_syncs() && array_of_requests && i < count; i++)
		rec_steer_icoll_wait(array_of_requests[i]);
	rc = calm_Waitall(count, array_of_requests, st);
	rec_call_returned(c);

	/* Keep the requests that completed, in array order: all of them on success, else (an
	 * error in some status) those MPI freed. */
	for (i = 0, k = 0; i < n; i++) {
		int freed;

		if (ent[i].handle == MPI_REQUEST_NULL)
			continue;
		freed = array_of_requests[i] == MPI_REQUEST_NULL;
		if (rc == MPI_SUCCESS || freed)
			rec_request_info(&ent[i], st != MPI_STATUSES_IGNORE ? &st[i] : NULL,
					 &c->ev.reqs[k++]);
		if (rec_reduce_on && (rc == MPI_SUCCESS || freed))
			rec_reduce_completed(c, ent[i].handle,
					     rc == MPI_SUCCESS || st == MPI_STATUSES_IGNORE ?
						     rc :
						     st[i].MPI_ERROR);
		if (!freed)
			rec_request_put(&ent[i]);
	}
	if (n > 0)
		c->ev.nreqs = k;
	if (ent != ent_stack)
		free(ent);
	free(st_heap);
	return rc;
}

/* ---- the other completion calls: which of the listed requests completed ----
 * The event lists the requests passed (MPI_REQUEST_NULL left out): first those that
 * completed, with what each receive matched, then the npending that did not. A test that
 * finds nothing complete lists them all as pending, which check reads as "no effect". */

struct completion {
	int n;			/* requests passed */
	struct rec_reqent *ent; /* their table entries, by array position */
	struct rec_reqent stack[REQ_STACK];
	char *done; /* done[i]: position i completed */
	char done_stack[REQ_STACK];
};

/* Take the entries of requests[0..count) before the call. Returns 0, or -1 if out of memory
 * (the call is then recorded without its requests). */
static int completion_take(struct completion *cp, int count, MPI_Request requests[])
{
	int i;

	cp->n = count > 0 && requests ? count : 0;
	cp->ent = cp->stack;
	cp->done = cp->done_stack;
	if (cp->n > REQ_STACK) {
		cp->ent = malloc(cp->n * sizeof(*cp->ent));
		cp->done = malloc(cp->n);
		if (!cp->ent || !cp->done) {
			free(cp->ent);
			free(cp->done);
			cp->ent = cp->stack;
			cp->done = cp->done_stack;
			cp->n = 0;
			return -1;
		}
	}
	for (i = 0; i < cp->n; i++) {
		cp->done[i] = 0;
		cp->ent[i].handle = requests[i];
		if (requests[i] != MPI_REQUEST_NULL)
			rec_request_take(requests[i], &requests[i], &cp->ent[i]);
	}
	return 0;
}

/* Before a call that may block (MPI_Waitany, MPI_Waitsome): list every request as pending,
 * so that the event written while it is blocked says what it waits for. */
static void completion_list_pending(struct rec_call *c, const struct completion *cp)
{
	struct mpiv_reqinfo ri;
	int i;

	for (i = 0; i < cp->n; i++) {
		if (cp->ent[i].handle == MPI_REQUEST_NULL)
			continue;
		rec_request_info(&cp->ent[i], NULL, &ri);
		rec_call_add_info(c, &ri);
	}
	c->ev.npending = c->ev.nreqs;
}

/* After the call: list completed positions (with status st_of(i), which may be NULL) first,
 * then the pending ones; put back every entry whose request lives on. */
static void completion_finish(struct rec_call *c, struct completion *cp, MPI_Request requests[],
			      const MPI_Status *(*st_of)(void *ctx, int i), void *ctx)
{
	uint32_t pending = 0;
	int i, pass;

	c->ev.nreqs = 0; /* completion_list_pending()'s list, if any, is written again */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < cp->n; i++) {
			struct mpiv_reqinfo ri;

			if (cp->ent[i].handle == MPI_REQUEST_NULL || cp->done[i] != (pass == 0))
				continue;
			if (pass == 0) {
				/* an any-completion that was not steered may complete a
				 * nonblocking collective: its hidden barrier as well */
				rec_steer_icoll_wait(cp->ent[i].handle);
				rec_request_info(&cp->ent[i], st_of ? st_of(ctx, i) : NULL, &ri);
				/* marked done only when the call succeeded */
				if (rec_reduce_on)
					rec_reduce_completed(c, cp->ent[i].handle, MPI_SUCCESS);
			} else {
				rec_request_info(&cp->ent[i], NULL, &ri);
				pending++;
			}
			rec_call_add_info(c, &ri);
		}
	}
	c->ev.npending = pending;
	for (i = 0; i < cp->n; i++)
		if (cp->ent[i].handle != MPI_REQUEST_NULL && requests[i] != MPI_REQUEST_NULL)
			rec_request_put(&cp->ent[i]); /* pending, or persistent and inactive */
	if (cp->ent != cp->stack)
		free(cp->ent);
	if (cp->done != cp->done_stack)
		free(cp->done);
}

/* Statuses: one for the single completed request, or an array by position. */
struct status_pick {
	const MPI_Status *one;	 /* Waitany, Testany, Test */
	const MPI_Status *array; /* Testall (by position) */
	const MPI_Status *some;	 /* Waitsome, Testsome: by completion order */
	const int *indices;	 /* positions of `some` */
	int nsome;
};

static const MPI_Status *pick_status(void *ctx, int i)
{
	const struct status_pick *p = ctx;
	int k;

	if (p->one)
		return p->one;
	if (p->array)
		return &p->array[i];
	for (k = 0; p->some && k < p->nsome; k++)
		if (p->indices[k] == i)
			return &p->some[k];
	return NULL;
}

/* ---- steered completions (rec_steer.c): exactly the requests a verify run forces ---- */

/* Requests of cp that are active, or may be: the choice is a choice only among two or more. */
static int active_count(const struct completion *cp)
{
	int i, n = 0;

	for (i = 0; i < cp->n; i++)
		n += cp->ent[i].handle != MPI_REQUEST_NULL;
	return n;
}

/* The positions in cp of the requests steering decision d completes, into pos (room for
 * cp->n); their number, or -1 after stopping the steering (one of them is not passed, or
 * want, if not 0, says how many the call completes). d names each request by its number
 * among the requests of the calling thread, which made it (base/steer.h). */
static int steered_positions(const struct completion *cp, const struct mpiv_steer_decision *d,
			     int want, int *pos)
{
	uint32_t j;
	int i;

	if ((want && d->nreqs != (uint32_t)want) || d->nreqs > (uint32_t)cp->n) {
		rec_steer_stop("the steering completes another number of requests than the call");
		return -1;
	}
	for (j = 0; j < d->nreqs; j++) {
		for (i = 0; i < cp->n; i++)
			if (cp->ent[i].handle != MPI_REQUEST_NULL && cp->ent[i].by == &rec_tls &&
			    cp->ent[i].nth == d->reqs[j])
				break;
		if (i == cp->n) {
			rec_steer_stop("a request the steering completes is not passed");
			return -1;
		}
		pos[j] = i;
	}
	return (int)d->nreqs;
}

/* Whether the hidden barriers of the nonblocking collectives among reqs (at pos[0..k), or
 * the first k if pos is NULL) are all done, testing each (rec_steer_icoll_sync()). */
static int syncs_tested(MPI_Request reqs[], const int *pos, int k)
{
	int j, all = 1;

	for (j = 0; __builtin_expect(rec_steer_syncs(), 0) && reqs && j < k; j++)
		if (!rec_steer_icoll_sync(reqs[pos ? pos[j] : j], 0))
			all = 0;
	return all;
}

/* Complete exactly the requests at pos[0..k) of reqs: wait for each (block), or test them all
 * at once (all or none, MPI_Testall on them): *done says which. statuses, if not NULL, get
 * theirs in that order. Returns what MPI returned. */
static int force_complete(MPI_Request reqs[], const int *pos, int k, int block,
			  MPI_Status *statuses, int *done)
{
	MPI_Request stack[REQ_STACK], *tmp = stack;
	int j, rc = MPI_SUCCESS;

	*done = 0;
	if (block) {
		for (j = 0; j < k && rc == MPI_SUCCESS; j++) {
			rec_steer_icoll_wait(reqs[pos[j]]);
			rc = calm_Wait(&reqs[pos[j]], statuses ? &statuses[j] : MPI_STATUS_IGNORE);
		}
		*done = rc == MPI_SUCCESS;
		return rc;
	}
	if (!syncs_tested(reqs, pos, k))
		return MPI_SUCCESS; /* a collective's peers are not all in it yet */
	if (k > REQ_STACK && !(tmp = malloc((size_t)k * sizeof(*tmp))))
		return MPI_ERR_NO_MEM;
	for (j = 0; j < k; j++)
		tmp[j] = reqs[pos[j]];
	rc = PMPI_Testall(k, tmp, done, statuses ? statuses : MPI_STATUSES_IGNORE);
	for (j = 0; j < k; j++)
		reqs[pos[j]] = tmp[j];
	if (tmp != stack)
		free(tmp);
	return rc;
}

/* The steered positions of an any-completion, into *pos (pos_stack, or malloc'ed: free with
 * steer_done); their number, 0 when the call is not steered. */
static int steer_positions(struct rec_call *c, const struct completion *cp, int want,
			   int *pos_stack, int **pos)
{
	const struct mpiv_steer_decision *d = rec_steer_completion(c, active_count(cp));
	int k;

	*pos = pos_stack;
	if (!d || mpiv_steer_free(d))
		return 0; /* not steered, or its outcome the run's */
	if (cp->n > REQ_STACK && !(*pos = malloc((size_t)cp->n * sizeof(**pos)))) {
		*pos = pos_stack;
		rec_steer_stop("out of memory");
		return 0;
	}
	k = steered_positions(cp, d, want, *pos);
	return k > 0 ? k : 0;
}

static void steer_done(int *pos, const int *pos_stack)
{
	if (pos != pos_stack)
		free(pos);
}

/* The request at position `index` completed (MPI_UNDEFINED: none). */
static int mark_one(struct completion *cp, int index)
{
	if (index >= 0 && index < cp->n)
		cp->done[index] = 1;
	return index;
}

int rec_Waitany(struct rec_call *c, int count, MPI_Request array_of_requests[], int *indx,
		MPI_Status *status)
{
	struct completion cp;
	struct status_pick sp = {0};
	MPI_Status local;
	int rc, done, pos_stack[REQ_STACK], *pos;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	completion_take(&cp, count, array_of_requests);
	completion_list_pending(c, &cp);
	rec_call_posted(c);
	if (steer_positions(c, &cp, 1, pos_stack, &pos)) {
		rc = force_complete(array_of_requests, pos, 1, 1, status, &done);
		*indx = pos[0];
	} else {
		rc = calm_Waitany(count, array_of_requests, indx, status);
	}
	steer_done(pos, pos_stack);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		mark_one(&cp, *indx);
	sp.one = status;
	completion_finish(c, &cp, array_of_requests, pick_status, &sp);
	return rc;
}

int rec_Testany(struct rec_call *c, int count, MPI_Request array_of_requests[], int *indx,
		int *flag, MPI_Status *status)
{
	struct completion cp;
	struct status_pick sp = {0};
	MPI_Status local;
	int rc, pos_stack[REQ_STACK], *pos;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	completion_take(&cp, count, array_of_requests);
	rec_call_posted(c);
	if (steer_positions(c, &cp, 1, pos_stack, &pos)) {
		rc = force_complete(array_of_requests, pos, 1, 0, status, flag);
		*indx = *flag ? pos[0] : MPI_UNDEFINED;
	} else {
		rc = PMPI_Testany(count, array_of_requests, indx, flag, status);
	}
	steer_done(pos, pos_stack);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS && *flag)
		mark_one(&cp, *indx);
	sp.one = status;
	completion_finish(c, &cp, array_of_requests, pick_status, &sp);
	rec_call_polled(c, rc);
	return rc;
}

/* The polls of one request: MPI_Test, and MPI_Request_get_status and MPI_Parrived, which
 * leave the request alive (completion_finish() sees their copy of the handle, which they
 * leave as it is, and puts its entry back). */
enum poll_one {
	POLL_TEST,
	POLL_GET_STATUS,
	POLL_PARRIVED, /* no status: a partitioned receive has no wildcard */
};

static inline int poll_one(struct rec_call *c, enum poll_one how, MPI_Request *request,
			   int partition, int *flag, MPI_Status *status)
{
	struct completion cp;
	struct status_pick sp = {0};
	MPI_Status local;
	int rc = MPI_ERR_OTHER;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	completion_take(&cp, request ? 1 : 0, request);
	rec_call_posted(c);
	if (!syncs_tested(request, NULL, 1)) {
		*flag = 0; /* the collective's peers are not all in it yet */
		rc = MPI_SUCCESS;
	} else if (how == POLL_TEST) {
		rc = PMPI_Test(request, flag, status);
	} else if (how == POLL_GET_STATUS) {
		rc = PMPI_Request_get_status(*request, flag, status);
	} else {
#if MPI_VERSION >= 4
		rc = PMPI_Parrived(*request, partition, flag);
#endif
	}
	rec_call_returned(c);
	if (rc == MPI_SUCCESS && *flag)
		mark_one(&cp, 0);
	sp.one = status;
	completion_finish(c, &cp, request, how == POLL_PARRIVED ? NULL : pick_status, &sp);
	rec_call_polled(c, rc);
	return rc;
}

REC_HOT int rec_Test(struct rec_call *c, MPI_Request *request, int *flag, MPI_Status *status)
{
	return poll_one(c, POLL_TEST, request, 0, flag, status);
}

int rec_Request_get_status(struct rec_call *c, MPI_Request request, int *flag, MPI_Status *status)
{
	return poll_one(c, POLL_GET_STATUS, &request, 0, flag, status);
}

#if MPI_VERSION >= 4
int rec_Parrived(struct rec_call *c, MPI_Request request, int partition, int *flag)
{
	return poll_one(c, POLL_PARRIVED, &request, partition, flag, MPI_STATUS_IGNORE);
}
#endif

int rec_Testall(struct rec_call *c, int count, MPI_Request array_of_requests[], int *flag,
		MPI_Status array_of_statuses[])
{
	struct completion cp;
	struct status_pick sp = {0};
	MPI_Status st_stack[REQ_STACK], *st = array_of_statuses, *heap = NULL;
	int rc, i;

	completion_take(&cp, count, array_of_requests);
	st = statuses_for(st, cp.n, st_stack, &heap);
	rec_call_posted(c);
	/* GCC 12 takes MPI_STATUSES_IGNORE, a constant pointer, for an array of size 0 (clang
	 * has no such warning, and would warn of the unknown name) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
	if (!syncs_tested(array_of_requests, NULL, count)) {
		*flag = 0; /* a collective's peers are not all in it yet */
		rc = MPI_SUCCESS;
	} else {
		rc = PMPI_Testall(count, array_of_requests, flag, st);
	}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
	rec_call_returned(c);
	for (i = 0; rc == MPI_SUCCESS && *flag && i < cp.n; i++)
		cp.done[i] = 1;
	sp.array = st != MPI_STATUSES_IGNORE ? st : NULL;
	completion_finish(c, &cp, array_of_requests, sp.array ? pick_status : NULL, &sp);
	rec_call_polled(c, rc);
	free(heap);
	return rc;
}

/* Waitsome and Testsome differ only in whether they block. */
typedef int (*rec_some_fn)(int incount, MPI_Request array_of_requests[], int *outcount,
			   int array_of_indices[], MPI_Status array_of_statuses[]);

static int rec_some(struct rec_call *c, rec_some_fn pmpi, int incount,
		    MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
		    MPI_Status array_of_statuses[])
{
	struct completion cp;
	struct status_pick sp = {0};
	MPI_Status st_stack[REQ_STACK], *st = array_of_statuses, *heap = NULL;
	int rc, k, done, pos_stack[REQ_STACK], *pos;

	completion_take(&cp, incount, array_of_requests);
	if (pmpi != PMPI_Testsome)
		completion_list_pending(c, &cp);
	st = statuses_for(st, cp.n, st_stack, &heap);
	rec_call_posted(c);
	k = steer_positions(c, &cp, 0, pos_stack, &pos);
	if (k) {
		rc = force_complete(array_of_requests, pos, k, pmpi != PMPI_Testsome,
				    st != MPI_STATUSES_IGNORE ? st : NULL, &done);
		*outcount = done ? k : 0;
		memcpy(array_of_indices, pos, (size_t)(done ? k : 0) * sizeof(*pos));
	} else {
		rc = pmpi(incount, array_of_requests, outcount, array_of_indices, st);
	}
	steer_done(pos, pos_stack);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
		for (k = 0; k < *outcount; k++)
			mark_one(&cp, array_of_indices[k]);
	if (st != MPI_STATUSES_IGNORE && rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
		sp.some = st;
		sp.indices = array_of_indices;
		sp.nsome = *outcount;
	}
	completion_finish(c, &cp, array_of_requests, sp.some ? pick_status : NULL, &sp);
	rec_call_polled(c, rc); /* a Testsome that completed none */
	free(heap);
	return rc;
}

int rec_Waitsome(struct rec_call *c, int incount, MPI_Request array_of_requests[], int *outcount,
		 int array_of_indices[], MPI_Status array_of_statuses[])
{
	return rec_some(c, calm_Waitsome, incount, array_of_requests, outcount, array_of_indices,
			array_of_statuses);
}

int rec_Testsome(struct rec_call *c, int incount, MPI_Request array_of_requests[], int *outcount,
		 int array_of_indices[], MPI_Status array_of_statuses[])
{
	return rec_some(c, PMPI_Testsome, incount, array_of_requests, outcount, array_of_indices,
			array_of_statuses);
}

/* The buffer of buffered sends: its size; detaching it may wait for the messages in it. */
int rec_Buffer_attach(struct rec_call *c, void *buffer, int size)
{
	return PMPI_Buffer_attach(buffer, size);
}

int rec_Buffer_detach(struct rec_call *c, void *buffer_addr, int *size)
{
	int rc;

	rec_call_posted(c);
	rc = PMPI_Buffer_detach(buffer_addr, size);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS && size && *size > 0)
		c->ev.bytes = (uint64_t)*size;
	return rc;
}

#if MPI_VERSION >= 4
/* MPI_Buffer_detach_c (base/gen_large_count.py leaves it to this file): MPI_Buffer_detach's
 * event where the size it returns fits an int. That size is known only once the call
 * returned, so the large-count call is made whatever it is; a size past an int, or none (the
 * call failed), flags the event, which check then refuses (doc/mpi-calls.md). */
int rec_Buffer_detach_c(struct rec_call *c, void *buffer_addr, MPI_Count *size)
{
	int rc;

	rec_call_posted(c);
	rc = PMPI_Buffer_detach_c(buffer_addr, size);
	rec_call_returned(c);
	if (rc != MPI_SUCCESS || !size || !MPIV_FITS_INT(*size))
		c->ev.flags |= MPIV_EV_LARGE_COUNT;
	else if (*size > 0)
		c->ev.bytes = (uint64_t)*size;
	return rc;
}
#endif

/* MPI_Cancel: which request; it lives on until a completion call frees it. */
int rec_Cancel(struct rec_call *c, MPI_Request *request)
{
	struct rec_reqent e;

	if (!request || *request == MPI_REQUEST_NULL)
		return PMPI_Cancel(request);
	rec_request_take(*request, request, &e);
	rec_call_add_req(c, e.id, MPIV_NONE, MPIV_NONE);
	rec_request_put(&e);
	return PMPI_Cancel(request);
}

int rec_Request_free(struct rec_call *c, MPI_Request *request)
{
	struct rec_reqent e;
	int rc;

	if (!request || *request == MPI_REQUEST_NULL)
		return PMPI_Request_free(request);
	rec_request_take(*request, request, &e);
	rec_call_add_req(c, e.id, MPIV_NONE, MPIV_NONE);
	rc = PMPI_Request_free(request);
	if (rc != MPI_SUCCESS)
		rec_request_put(&e);
	return rc;
}

/* MPI_Start and MPI_Startall post persistent requests: the event lists which, by the ids
 * their MPI_*_init gave them, a send with the digest of what this start sends. */
static void list_started(struct rec_call *c, int count, MPI_Request requests[])
{
	int i;

	for (i = 0; requests && i < count; i++) {
		struct rec_reqent e;
		struct mpiv_reqinfo ri;

		if (requests[i] == MPI_REQUEST_NULL)
			continue;
		rec_request_take(requests[i], &requests[i], &e);
		/* a partitioned send of no partitions is ready as it starts */
		if (e.id != REC_REQ_UNKNOWN && rec_part_started(e.id))
			c->ev.flags |= MPIV_EV_PARTS_READY;
		ri.req = e.id;
		ri.src = MPIV_NONE;
		ri.tag = MPIV_NONE;
		ri.data = e.id != REC_REQ_UNKNOWN && e.digest == REC_DIGEST_START ?
				  rec_data_sent(&e.data) :
				  0;
		rec_call_add_info(c, &ri);
		rec_request_put(&e);
	}
}

int rec_Start(struct rec_call *c, MPI_Request *request)
{
	int rc;

	list_started(c, 1, request);
	rec_call_posted(c);
	rc = PMPI_Start(request);
	rec_call_returned(c);
	return rc;
}

int rec_Startall(struct rec_call *c, int count, MPI_Request array_of_requests[])
{
	int rc;

	list_started(c, count, array_of_requests);
	rec_call_posted(c);
	rc = PMPI_Startall(count, array_of_requests);
	rec_call_returned(c);
	return rc;
}

/* ---- generalized requests (doc/semantics.md 4.8): MPI_Grequest_start makes a request the
 * trace names like any other; MPI_Grequest_complete is recorded with it, which stays in the
 * table until a wait or test completes it ---- */

void rec_call_made_request(struct rec_call *c, const MPI_Request *request)
{
	rec_call_add_req(c, rec_request_add(request, 0, MPI_COMM_WORLD), MPIV_NONE, MPIV_NONE);
}

int rec_Grequest_start(struct rec_call *c, MPI_Grequest_query_function *query_fn,
		       MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn,
		       void *extra_state, MPI_Request *request)
{
	int rc = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request);

	if (rc == MPI_SUCCESS)
		rec_call_add_req(c, rec_request_add(request, 0, MPI_COMM_NULL), MPIV_NONE,
				 MPIV_NONE);
	return rc;
}

int rec_Grequest_complete(struct rec_call *c, MPI_Request request)
{
	/* the handle is passed by value: the entry is found by handle alone, and stays in the
	 * table (another thread may be waiting for it) */
	rec_call_add_req(c, rec_request_find(request), MPIV_NONE, MPIV_NONE);
	return PMPI_Grequest_complete(request);
}
