/* The replayer's requests: a table of the requests the program holds, each with the id the
 * recorder gave it (read from the recorded trace), and the handlers of the completion calls.
 * The model only follows the recorded completion choice of MPI_Waitany, Waitsome, Testany and
 * Testsome (doc/semantics.md 1.2), so replay makes them complete exactly the requests the trace
 * says they completed. A nonblocking collective that a counterexample found without buffering
 * needs synchronising carries a hidden MPI_Ibarrier on its communicator, completed together
 * with its request at its wait or test: neither the program's handles and statuses nor the
 * event count see it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer.h"
#include "calm.h"
#include "rec_status.h"
#include "status.h"

#define REQ_BUCKETS 1024 /* a power of two */
#define REQ_STACK 32	 /* arrays of requests handled without malloc */
#define REQ_SHOWN 8	 /* forced completions a rank prints; the others are silent */

/* A request the program holds. Handles are not unique (MPICH gives every send that completed
 * at once the same one; a freed request's handle, an integer in MPICH, a pointer in Open MPI,
 * may be given again), so requests are resolved as the recorder resolves them
 * (recorder/rec_request.c): the newest made in the very variable passed, else the oldest with
 * that handle. */
struct rep_req {
	MPI_Request handle;	  /* as the program got it */
	const MPI_Request *where; /* the variable it got it in */
	int32_t id;		  /* the recorder's id for it, -1 if the trace does not say */
	uint32_t made;		  /* event index of the call that made it */
	uint64_t seq;		  /* order of making: the oldest of equal handles first */
	MPI_Request sync;	  /* its hidden barrier, MPI_REQUEST_NULL if none or done */
	int icoll;		  /* made by a nonblocking collective */
	int synced;		  /* ... which was given a hidden barrier */
	int taken;		  /* already resolved for an earlier position of one array */
	struct rep_req *next;	  /* same bucket */
};

static pthread_mutex_t req_lock = PTHREAD_MUTEX_INITIALIZER; /* the table */
static struct rep_req *req_buckets[REQ_BUCKETS];
/* unused nodes: a request is made and completed at
 * every call of a loop, malloc each time costs */
static struct rep_req *req_free;
static uint64_t req_seq;

static unsigned req_hash(MPI_Request h)
{
	uint64_t v = 0;

	memcpy(&v, &h, sizeof(h) < sizeof(v) ? sizeof(h) : sizeof(v));
	return (unsigned)((v * 0x9e3779b97f4a7c15ULL) >> 40) & (REQ_BUCKETS - 1);
}

void rep_request_made(struct rep_call *c)
{
	const struct rep_expect *x = rep_schedule_recorded(c);
	const int32_t *ids = x ? rep_trace_reqs(x) : NULL;
	MPI_Request sync = MPI_REQUEST_NULL;
	struct rep_req *n;
	unsigned b;

	if (c->rc != MPI_SUCCESS)
		return;
	/* started right after the collective on every member, so they pair up in order */
	if (c->mpicomm != MPI_COMM_NULL && rep_schedule_coll_sync(c) &&
	    PMPI_Ibarrier(rep_coll_sync_comm(c->mpicomm), &sync) != MPI_SUCCESS)
		sync = MPI_REQUEST_NULL;
	if (!ids && sync == MPI_REQUEST_NULL)
		return; /* nothing to know about it */
	pthread_mutex_lock(&req_lock);
	n = req_free;
	if (n)
		req_free = n->next;
	pthread_mutex_unlock(&req_lock);
	if (!n)
		n = malloc(sizeof(*n));
	if (!n)
		return; /* its completions pass through unforced; the barrier is left to MPI_Finalize */
	memset(n, 0, sizeof(*n));
	n->handle = *c->made;
	n->where = c->made;
	n->id = ids ? ids[0] : -1;
	n->made = c->index;
	n->sync = sync;
	n->icoll = c->mpicomm != MPI_COMM_NULL;
	n->synced = sync != MPI_REQUEST_NULL;
	b = req_hash(n->handle);
	pthread_mutex_lock(&req_lock);
	n->seq = req_seq++;
	n->next = req_buckets[b];
	req_buckets[b] = n;
	pthread_mutex_unlock(&req_lock);
}

void rep_request_release(void)
{
	struct rep_req *n, *next;
	int b;

	pthread_mutex_lock(&req_lock);
	for (b = 0; b < REQ_BUCKETS; b++) {
		for (n = req_buckets[b]; n; n = next) {
			next = n->next;
			free(n);
		}
		req_buckets[b] = NULL;
	}
	for (n = req_free; n; n = next) {
		next = n->next;
		free(n);
	}
	req_free = NULL;
	pthread_mutex_unlock(&req_lock);
}

/* The requests of one completion call, by array position. */
struct req_set {
	int n;		       /* positions */
	MPI_Request *reqs;     /* the program's array */
	struct rep_req **node; /* node[i]: the table's entry for position i, or NULL */
	int *pos;	       /* room for n + 1 positions (req_recorded) */
	struct rep_req *stack[REQ_STACK];
	int pos_stack[REQ_STACK + 1];
};

/* Resolve reqs[0..count) (count <= 0 or reqs NULL: none). Without memory for a long array the
 * set is empty, and the call passes through unforced. */
static void req_resolve(struct req_set *rs, int count, MPI_Request reqs[])
{
	int i;

	rs->n = count > 0 && reqs ? count : 0;
	rs->reqs = reqs;
	rs->node = rs->stack;
	rs->pos = rs->pos_stack;
	if (rs->n > REQ_STACK) {
		rs->node = malloc(rs->n * sizeof(*rs->node));
		rs->pos = malloc((rs->n + 1) * sizeof(*rs->pos));
		if (!rs->node || !rs->pos) {
			free(rs->node);
			free(rs->pos);
			rs->node = rs->stack;
			rs->pos = rs->pos_stack;
			rs->n = 0;
		}
	}
	pthread_mutex_lock(&req_lock);
	for (i = 0; i < rs->n; i++) {
		struct rep_req *p, *found = NULL;

		rs->node[i] = NULL;
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		for (p = req_buckets[req_hash(reqs[i])]; p; p = p->next) {
			if (p->handle != reqs[i] || p->taken)
				continue;
			if (p->where == &reqs[i]) {
				found = p;
				break;
			}
			if (!found || p->seq < found->seq)
				found = p;
		}
		if (found)
			found->taken = 1;
		rs->node[i] = found;
	}
	for (i = 0; i < rs->n; i++)
		if (rs->node[i])
			rs->node[i]->taken = 0;
	pthread_mutex_unlock(&req_lock);
}

/* Complete n's hidden barrier, waiting for it if block, else only testing it. Returns 1 if
 * it is done (or n has none). */
static int req_sync_done(struct rep_req *n, int block)
{
	int flag = 1;

	if (!n || n->sync == MPI_REQUEST_NULL)
		return 1;
	if (block) {
		if (calm_Wait(&n->sync, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			n->sync = MPI_REQUEST_NULL; /* an error ends it as well */
	} else if (PMPI_Test(&n->sync, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
		n->sync = MPI_REQUEST_NULL;
	}
	return n->sync == MPI_REQUEST_NULL;
}

/* Whether every hidden barrier of the set is done, testing each. */
static int req_syncs_done(struct req_set *rs)
{
	int i, all = 1;

	for (i = 0; i < rs->n; i++)
		if (!req_sync_done(rs->node[i], 0))
			all = 0;
	return all;
}

/* Where the counterexample has this rank blocked, a wait that completes a nonblocking
 * collective left unsynchronised explains why the deadlock did not happen. */
static void req_note_unsynced(const struct rep_call *c, const struct req_set *rs)
{
	char note[256];
	int i;

	if (!rep_schedule_blocked(c))
		return;
	for (i = 0; i < rs->n; i++) {
		const struct rep_req *n = rs->node[i];

		if (!n || !n->icoll || n->synced || rs->reqs[i] != MPI_REQUEST_NULL)
			continue;
		snprintf(note, sizeof(note),
			 "event %u, %s, completed the nonblocking collective "
			 "made at event %u, which replay did not make synchronise (it does so "
			 "on the way of a counterexample found without buffering)",
			 c->index, mpiv_call_name(c->call), n->made);
		rec_status_note(MPIV_NOTE_PASSED | MPIV_NOTE_ICOLL_FREE, note);
		return;
	}
}

/* After the call: forget the requests it freed (a persistent one lives on, inactive). One
 * completed by a call that did not force it (off the recorded path) still completes its
 * hidden barrier, whatever the call is. */
static void req_forget(struct req_set *rs)
{
	int i;

	for (i = 0; i < rs->n; i++) {
		struct rep_req *n = rs->node[i], **pp;

		if (!n || rs->reqs[i] != MPI_REQUEST_NULL)
			continue;
		req_sync_done(n, 1);
		pthread_mutex_lock(&req_lock);
		for (pp = &req_buckets[req_hash(n->handle)]; *pp; pp = &(*pp)->next) {
			if (*pp == n) {
				*pp = n->next;
				break;
			}
		}
		n->next = req_free;
		req_free = n;
		pthread_mutex_unlock(&req_lock);
	}
	if (rs->node != rs->stack) {
		free(rs->node);
		free(rs->pos);
	}
	rs->node = rs->stack;
	rs->pos = rs->pos_stack;
	rs->n = 0;
}

/* The event index at which the request with id was made, if the table still has it. */
static long req_made_at(int32_t id)
{
	struct rep_req *n;
	long made = -1;
	int b;

	pthread_mutex_lock(&req_lock);
	for (b = 0; b < REQ_BUCKETS && made < 0; b++)
		for (n = req_buckets[b]; n && made < 0; n = n->next)
			if (n->id == id)
				made = n->made;
	pthread_mutex_unlock(&req_lock);
	return made;
}

/* What the recorded completion of call c says it completed: the positions in rs of those
 * requests, into rs->pos. Returns their number; 0 when nothing can be forced (no trace to
 * follow, a recorded completion of nothing, a request the recorder could not name), and the
 * call then passes through; -1 if the program does not pass a request the trace completed
 * here, after reporting the divergence. */
static int req_recorded(struct rep_call *c, struct req_set *rs)
{
	const struct rep_expect *x = rep_schedule_recorded(c);
	const int32_t *ids;
	const char *name = mpiv_call_name(c->call);
	uint32_t k, j;
	long made;
	int i;

	if (!x || x->call != c->call || x->nreqs <= x->npending)
		return 0;
	k = x->nreqs - x->npending;
	ids = rep_trace_reqs(x);
	for (j = 0; j < k; j++)
		if (ids[j] < 0)
			return 0;
	if (k > (uint32_t)rs->n) {
		rep_diverged(c,
			     "%s completed %u requests in the recorded run, but only %d are "
			     "passed now",
			     name, k, rs->n);
		return -1;
	}
	for (j = 0; j < k; j++) {
		for (i = 0; i < rs->n; i++)
			if (rs->node[i] && rs->node[i]->id == ids[j])
				break;
		if (i < rs->n) {
			rs->pos[j] = i;
			continue;
		}
		made = req_made_at(ids[j]);
		if (made >= 0)
			rep_diverged(c,
				     "%s completed the request made at event %ld in the recorded "
				     "run, but it is not among the %d passed now",
				     name, made, rs->n);
		else
			rep_diverged(c,
				     "%s completed request %d in the recorded run, which the "
				     "program no longer holds (%d passed now)",
				     name, (int)ids[j], rs->n);
		return -1;
	}
	return (int)k;
}

/* Say which request a forced completion takes (the first REQ_SHOWN of the rank). */
static void req_show(const struct rep_call *c, const struct req_set *rs, int k)
{
	static atomic_int shown;
	char list[256];
	size_t used = 0;
	int j;

	if (atomic_fetch_add(&shown, 1) >= REQ_SHOWN)
		return;
	list[0] = '\0';
	for (j = 0; j < k && used < sizeof(list); j++)
		used += snprintf(list + used, sizeof(list) - used, "%sindex %d (made at event %u)",
				 j ? ", " : "", rs->pos[j], rs->node[rs->pos[j]]->made);
	rec_msg("event %u: %s forced to complete %s, as in the recorded run%s", c->index,
		mpiv_call_name(c->call), list,
		atomic_load(&shown) == REQ_SHOWN ? " (further forced completions not shown)" : "");
}

/* The positions' pos[0..k) statuses: MPI_STATUS_IGNORE, or the program's j-th. */
static MPI_Status *req_status(MPI_Status statuses[], int j)
{
	return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[j];
}

/* A pass-through completion completed something where the recorded one completed nothing
 * (every request null or inactive then): the program left the recorded path. */
static void req_check_none(struct rep_call *c, int completed)
{
	const struct rep_expect *x = rep_schedule_recorded(c);

	if (completed && x && x->call == c->call && x->nreqs > 0 && x->nreqs == x->npending &&
	    !c->poll)
		rep_diverged(c,
			     "%s completed a request, where the recorded run had none of its "
			     "requests active",
			     mpiv_call_name(c->call));
}

/* ---- waits ---- */

int rep_Wait(struct rep_call *c, MPI_Request *request, MPI_Status *status)
{
	struct req_set rs;
	int rc;

	req_resolve(&rs, request ? 1 : 0, request);
	if (rs.n)
		req_sync_done(rs.node[0], 1);
	rc = calm_Wait(request, status);
	req_note_unsynced(c, &rs);
	req_forget(&rs);
	return rc;
}

int rep_Waitall(struct rep_call *c, int count, MPI_Request array_of_requests[],
		MPI_Status array_of_statuses[])
{
	struct req_set rs;
	int i, rc;

	req_resolve(&rs, count, array_of_requests);
	for (i = 0; i < rs.n; i++)
		req_sync_done(rs.node[i], 1);
	rc = calm_Waitall(count, array_of_requests, array_of_statuses);
	req_note_unsynced(c, &rs);
	req_forget(&rs);
	return rc;
}

int rep_Waitany(struct rep_call *c, int count, MPI_Request array_of_requests[], int *indx,
		MPI_Status *status)
{
	struct req_set rs;
	int rc;

	req_resolve(&rs, count, array_of_requests);
	/* Waitany completes one: a recorded list of more would be a corrupt trace */
	if (req_recorded(c, &rs) == 1) {
		c->forced = 1;
		req_show(c, &rs, 1);
		req_sync_done(rs.node[rs.pos[0]], 1);
		rc = calm_Wait(&array_of_requests[rs.pos[0]], status);
		*indx = rs.pos[0];
	} else {
		rc = calm_Waitany(count, array_of_requests, indx, status);
		req_check_none(c, rc == MPI_SUCCESS && *indx != MPI_UNDEFINED);
	}
	req_note_unsynced(c, &rs);
	req_forget(&rs);
	return rc;
}

int rep_Waitsome(struct rep_call *c, int incount, MPI_Request array_of_requests[], int *outcount,
		 int array_of_indices[], MPI_Status array_of_statuses[])
{
	struct req_set rs;
	int k, j, rc = MPI_SUCCESS;

	req_resolve(&rs, incount, array_of_requests);
	k = req_recorded(c, &rs);
	if (k > 0) {
		/* exactly the recorded set, each waited for in turn: MPI progresses them all */
		c->forced = 1;
		req_show(c, &rs, k);
		for (j = 0; j < k && rc == MPI_SUCCESS; j++) {
			req_sync_done(rs.node[rs.pos[j]], 1);
			rc = calm_Wait(&array_of_requests[rs.pos[j]],
				       req_status(array_of_statuses, j));
			array_of_indices[j] = rs.pos[j];
		}
		*outcount = j;
	} else {
		rc = calm_Waitsome(incount, array_of_requests, outcount, array_of_indices,
				   array_of_statuses);
		req_check_none(c, rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED && *outcount > 0);
	}
	req_note_unsynced(c, &rs);
	req_forget(&rs);
	return rc;
}

/* ---- tests: their outcome noted for the trace's alignment (a failed poll is timing) ---- */

/* The polls of one request: MPI_Test, and MPI_Request_get_status and MPI_Parrived, which
 * leave the request alive (req_forget() keeps a request whose handle is not
 * MPI_REQUEST_NULL, and they leave their copy of it as it is). A partitioned receive has no
 * choice replay forces: its polls are only counted. */
static int poll_one(struct rep_call *c, int how, MPI_Request *request, int partition, int *flag,
		    MPI_Status *status)
{
	struct req_set rs;
	int rc = MPI_ERR_OTHER;

	req_resolve(&rs, request ? 1 : 0, request);
	if (rs.n && !req_sync_done(rs.node[0], 0)) {
		*flag = 0; /* the collective's peers have not all started it yet */
		rc = MPI_SUCCESS;
	} else if (how == MPIV_CALL_Test) {
		rc = PMPI_Test(request, flag, status);
	} else if (how == MPIV_CALL_Request_get_status) {
		rc = PMPI_Request_get_status(*request, flag, status);
	} else {
#if MPI_VERSION >= 4
		rc = PMPI_Parrived(*request, partition, flag);
#endif
	}
	req_forget(&rs);
	return rep_polled(c, rc, rc == MPI_SUCCESS && *flag);
}

int rep_Test(struct rep_call *c, MPI_Request *request, int *flag, MPI_Status *status)
{
	return poll_one(c, MPIV_CALL_Test, request, 0, flag, status);
}

int rep_Request_get_status(struct rep_call *c, MPI_Request request, int *flag, MPI_Status *status)
{
	return poll_one(c, MPIV_CALL_Request_get_status, &request, 0, flag, status);
}

#if MPI_VERSION >= 4
int rep_Parrived(struct rep_call *c, MPI_Request request, int partition, int *flag)
{
	return poll_one(c, MPIV_CALL_Parrived, &request, partition, flag, MPI_STATUS_IGNORE);
}
#endif

int rep_Testall(struct rep_call *c, int count, MPI_Request array_of_requests[], int *flag,
		MPI_Status array_of_statuses[])
{
	struct req_set rs;
	int rc;

	req_resolve(&rs, count, array_of_requests);
	if (!req_syncs_done(&rs)) {
		*flag = 0;
		rc = MPI_SUCCESS;
	} else {
		rc = PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
	}
	req_forget(&rs);
	return rep_polled(c, rc, rc == MPI_SUCCESS && *flag);
}

int rep_Testany(struct rep_call *c, int count, MPI_Request array_of_requests[], int *indx,
		int *flag, MPI_Status *status)
{
	struct req_set rs;
	int rc;

	req_resolve(&rs, count, array_of_requests);
	/* the recorded poll that found completed this one: until it is complete, polls fail */
	if (req_recorded(c, &rs) == 1) {
		c->forced = 1;
		*flag = 0;
		rc = MPI_SUCCESS;
		if (req_sync_done(rs.node[rs.pos[0]], 0))
			rc = PMPI_Test(&array_of_requests[rs.pos[0]], flag, status);
		*indx = rc == MPI_SUCCESS && *flag ? rs.pos[0] : MPI_UNDEFINED;
		if (rc == MPI_SUCCESS && *flag)
			req_show(c, &rs, 1);
	} else {
		rc = PMPI_Testany(count, array_of_requests, indx, flag, status);
	}
	req_forget(&rs);
	return rep_polled(c, rc, rc == MPI_SUCCESS && *flag);
}

int rep_Testsome(struct rep_call *c, int incount, MPI_Request array_of_requests[], int *outcount,
		 int array_of_indices[], MPI_Status array_of_statuses[])
{
	struct req_set rs;
	int k, j, done, rc = MPI_SUCCESS;

	req_resolve(&rs, incount, array_of_requests);
	k = req_recorded(c, &rs);
	if (k > 0) {
		/* the whole recorded set or nothing: a completion cannot be taken back, so ask
		 * first without completing */
		c->forced = 1;
		done = req_syncs_done(&rs);
		for (j = 0; j < k && done && rc == MPI_SUCCESS; j++)
			rc = PMPI_Request_get_status(array_of_requests[rs.pos[j]], &done,
						     MPI_STATUS_IGNORE);
		*outcount = 0;
		for (j = 0; j < k && done && rc == MPI_SUCCESS; j++) {
			rc = calm_Wait(&array_of_requests[rs.pos[j]],
				       req_status(array_of_statuses, j));
			array_of_indices[j] = rs.pos[j];
			*outcount = j + 1;
		}
		if (*outcount)
			req_show(c, &rs, k);
	} else {
		rc = PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices,
				   array_of_statuses);
	}
	req_forget(&rs);
	return rep_polled(c, rc, rc == MPI_SUCCESS && *outcount != 0);
}

int rep_Request_free(struct rep_call *c, MPI_Request *request)
{
	struct req_set rs;
	int rc;

	req_resolve(&rs, request ? 1 : 0, request);
	rc = PMPI_Request_free(request);
	req_forget(&rs);
	return rc;
}

/* MPI_Grequest_start makes a request the trace names like any other, which a wait or test
 * completes once the program has called MPI_Grequest_complete (passed through). */
int rep_Grequest_start(struct rep_call *c, MPI_Grequest_query_function *query_fn,
		       MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn,
		       void *extra_state, MPI_Request *request)
{
	c->made = request;
	return PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request);
}
