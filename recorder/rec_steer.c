/* Steering a recorded run, for verify (doc/verify.md): each rank's first decisions
 * (mpiv_event_decision(): the sender a wildcard receive or probe takes, the requests an
 * any-completion completes) take the outcomes $MPIVERIFY_STEER gives (base/steer.h), in the
 * order the rank makes them; past them the run is free, and recorded as always. A decision call
 * that is not the one the steering expects means the program left the path the steering was
 * made for: steering stops there for the rank, which runs on free, and the rank says so once.
 * Decisions are counted, not event indices: a polling loop may poll more or fewer times than
 * in the run the steering comes from. A rank that calls MPI from several threads has each
 * thread's decisions counted on their own, the thread named by its path (base/steer.h,
 * rec_thread_path()), which is the same in every run where its number is not: each thread
 * takes its own decisions in its own order, and leaves the path on its own.
 *
 * The steering also says how standard sends complete in the whole run (the buffering of the
 * model whose deadlock the run is to confirm): synchronous, buffered (a copy sent in the
 * background), or as the library does. */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "environment.h"
#include "recorder.h"
#include "calm.h"
#include "rec_comm.h"
#include "rec_pack.h"
#include "rec_status.h"
#include "rec_threads.h"
#include "status.h"
#include "steer.h"

static struct mpiv_steer steer; /* this rank's decisions */
static int steer_any;		/* some thread of the rank has decisions to take */

/* The calling thread's decisions: found at its first look (mine()). */
struct cursor {
	int found;
	const struct mpiv_steer_decision *d;
	size_t n;
	size_t next; /* the ordinal of the thread's next decision */
	int on;	     /* decisions next.. are still to be forced */
	/* 1 + the thread's index in steer.threads, 0 for the initial thread's, whose
	 * decisions it took (steer_taken()) */
	size_t list;
};
static __thread struct cursor me __attribute__((tls_model("initial-exec")));
/* How far each list was taken: [0] the initial thread's, [1 + i] steer.threads[i]'s; read at
 * MPI_Finalize (rec_steer_untaken()). */
static size_t *steer_taken;

static struct cursor *mine(void)
{
	size_t i;

	if (me.found)
		return &me;
	me.found = 1;
	mpiv_steer_decisions_of(&steer, rec_thread_path(), &me.d, &me.n);
	me.list = 0;
	for (i = 0; i < steer.nthreads; i++)
		if (me.d == steer.threads[i].d)
			me.list = 1 + i;
	me.next = 0;
	me.on = steer_any && me.n > 0;
	return &me;
}

/* Read the whole file at path; malloc'ed, *len bytes, or NULL with errno set. */
static char *read_all(const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	ssize_t n;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || st.st_size < 0 || st.st_size > (64 << 20) ||
	    !(buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	*len = got;
	return buf;
}

int rec_steer_load(int rank)
{
	const char *path = getenv(MPIV_ENV_STEER);
	char why[128], *text;
	size_t len = 0;

	if (!path || !*path)
		return 0;
	text = read_all(path, &len);
	if (!text) {
		rec_msg("cannot read the steering file '%s': %s: this rank runs unsteered", path,
			strerror(errno));
		return -1;
	}
	if (mpiv_steer_parse(text, len, rank, &steer, why, sizeof(why))) {
		rec_msg("steering file '%s': %s: this rank runs unsteered", path, why);
		mpiv_steer_release(&steer);
		free(text);
		return -1;
	}
	free(text);
	steer_any = steer.n > 0 || steer.nthreads > 0;
	steer_taken = calloc(1 + steer.nthreads, sizeof(*steer_taken));
	if (!steer_taken)
		steer_any = 0;
	me.found = 0;
	return 0;
}

/* The decision call c is about to make must be forced: the next one of the steering, if c
 * is the call it names; else the rank left the steered path, and steering stops. */
static REC_COLD const struct mpiv_steer_decision *expected(struct rec_call *c,
							   enum mpiv_decision kind)
{
	struct cursor *k = mine();
	const struct mpiv_steer_decision *d;

	if (!k->on)
		return NULL;
	if (k->next >= k->n) {
		k->on = 0; /* every decision was taken: free from here */
		return NULL;
	}
	d = &k->d[k->next];
	if (d->call == c->ev.call &&
	    (mpiv_steer_free(d) ||
	     (kind == MPIV_DEC_COMPLETION ? d->src == MPIV_NONE :
					    d->src != MPIV_NONE && d->comm == c->ev.comm &&
						    d->tag == mpiv_event_recv_tag(&c->ev))))
		return d;
	{
		char why[160];

		snprintf(why, sizeof(why), "expected %s, got %s", mpiv_call_name(d->call),
			 mpiv_call_name(c->ev.call));
		rec_steer_stop(why);
	}
	return NULL;
}

/* rec_steer_source() of a wildcard receive or probe while steering is on. */
static REC_COLD int steer_source(struct rec_call *c, int source, MPI_Comm comm)
{
	const struct mpiv_steer_decision *d;
	int r;

	/* a call that is never a decision (MPI_Recv_init: a persistent wildcard) is not steered */
	if (mpiv_decision_of(c->ev.call, MPIV_ANY_SOURCE, MPIV_ANY_SOURCE, 0, 0, 0) !=
	    MPIV_DEC_SOURCE)
		return source;
	d = expected(c, MPIV_DEC_SOURCE);
	if (!d || mpiv_steer_free(d))
		return source;
	r = rec_comm_from_world(comm, d->src);
	if (r < 0) {
		char why[160];

		snprintf(why, sizeof(why), "world rank %d is not in the communicator of %s",
			 (int)d->src, mpiv_call_name(c->ev.call));
		rec_steer_stop(why);
		return source;
	}
	return r;
}

int rec_steer_source(struct rec_call *c, int source, MPI_Comm comm)
{
	return steer_any && source == MPI_ANY_SOURCE ? steer_source(c, source, comm) : source;
}

const struct mpiv_steer_decision *rec_steer_completion(struct rec_call *c, int nactive)
{
	if (!steer_any || nactive < 2)
		return NULL;
	return expected(c, MPIV_DEC_COMPLETION);
}

/* Say that the thread of cursor k leaves the steered path, at its decision k->next. */
static REC_COLD void left(struct cursor *k, const char *why)
{
	const char *path = rec_thread_path();
	char line[256];

	if (!strcmp(path, "0"))
		snprintf(line, sizeof(line),
			 "steering stops at decision %zu: %s; this rank runs on free", k->next,
			 why);
	else
		snprintf(line, sizeof(line),
			 "steering of thread %s stops at its decision %zu: %s; the thread runs "
			 "on free",
			 path, k->next, why);
	rec_status_note(MPIV_NOTE_STEER_LEFT, line);
	k->on = 0;
}

REC_COLD void rec_steer_stop(const char *why)
{
	struct cursor *k = mine();

	if (k->on)
		left(k, why);
}

void rec_steer_after(const struct rec_call *c)
{
	struct cursor *k;

	if (!steer_any || mpiv_event_decision(&c->ev) == MPIV_DEC_NONE)
		return;
	k = mine();
	if (k->on) {
		k->next++;
		__atomic_store_n(&steer_taken[k->list], k->next, __ATOMIC_RELAXED);
	}
}

int rec_steer_active(void)
{
	return (steer_any && mine()->on) || steer.buffering != MPIV_STEER_NATURAL;
}

/* A thread that never took all its decisions (it made fewer, or none: the thread was not
 * made, or made no such call before the rank ended) did not follow the steered path either;
 * said once, as a thread that left it is. The threads' own cursors are theirs: what each
 * took is read from steer_taken. */
static void untaken(void)
{
	struct cursor k;
	size_t i;
	char why[128];

	if (!steer_any || !steer.nthreads)
		return; /* one thread: its decisions are checked as it makes them */
	for (i = 0; i <= steer.nthreads; i++) {
		size_t want = i ? steer.threads[i - 1].n : steer.n,
		       got = __atomic_load_n(&steer_taken[i], __ATOMIC_RELAXED);

		if (got >= want)
			continue;
		memset(&k, 0, sizeof(k));
		k.next = got;
		snprintf(why, sizeof(why), "thread %s took %zu of its %zu decisions",
			 i ? steer.threads[i - 1].path : "0", got, want);
		left(&k, why);
		return;
	}
}

void rec_steer_release(void)
{
	untaken();
	steer_any = 0;
	me.on = 0;
	mpiv_steer_release(&steer);
	free(steer_taken);
	steer_taken = NULL;
}

enum rec_send_force rec_steer_send(uint64_t bytes)
{
	switch (steer.buffering) {
	case MPIV_STEER_ZERO:
		return REC_SEND_SYNC;
	case MPIV_STEER_INFINITE:
		return REC_SEND_BUFFERED;
	case MPIV_STEER_EAGER:
		return bytes <= (uint64_t)steer.eager ? REC_SEND_BUFFERED : REC_SEND_SYNC;
	default:
		return REC_SEND_AS_IS;
	}
}

/* Must every collective synchronise: without buffering, or when the steering says so? */
static int steer_colls_sync(void)
{
	return steer.buffering == MPIV_STEER_ZERO || steer.sync_colls;
}

/* On an intercommunicator the barrier lets a member go once the other group entered, not its
 * own: less than the model's wait for both groups (doc/semantics.md 6.3), so a run can only
 * get further than the model, never stop where the model goes on. */
void rec_steer_coll_sync(MPI_Comm comm)
{
	if (!steer_colls_sync() || comm == MPI_COMM_NULL)
		return;
	PMPI_Barrier(comm);
}

/* The hidden barriers of nonblocking collectives (rec_steer_icoll_made()), by their
 * request's handle: an active request's handle is unique. Few at a time; a lock, since a
 * rank's threads share them. */
struct icoll_sync {
	MPI_Request request; /* the program's */
	MPI_Request sync;    /* its hidden barrier */
};
static pthread_mutex_t syncs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct icoll_sync *syncs;
static size_t nsyncs, capsyncs;
atomic_size_t rec_steer_pending;

/* Keep (request, sync); 0, or -1 without memory. Under syncs_lock. */
static int syncs_add(MPI_Request request, MPI_Request sync)
{
	if (nsyncs == capsyncs) {
		size_t cap = capsyncs ? 2 * capsyncs : 16;
		struct icoll_sync *grown = realloc(syncs, cap * sizeof(*grown));

		if (!grown)
			return -1;
		syncs = grown;
		capsyncs = cap;
	}
	syncs[nsyncs].request = request;
	syncs[nsyncs].sync = sync;
	atomic_store_explicit(&rec_steer_pending, ++nsyncs, memory_order_relaxed);
	return 0;
}

void rec_steer_icoll_made(MPI_Comm comm, MPI_Request request)
{
	MPI_Request sync;
	int kept;

	/* an intercommunicator's as rec_steer_coll_sync()'s */
	if (!steer_colls_sync() || comm == MPI_COMM_NULL || request == MPI_REQUEST_NULL ||
	    PMPI_Ibarrier(comm, &sync) != MPI_SUCCESS)
		return;
	pthread_mutex_lock(&syncs_lock);
	kept = syncs_add(request, sync) == 0;
	pthread_mutex_unlock(&syncs_lock);
	if (!kept) /* no room to keep it: synchronise at once rather than never */
		calm_Wait(&sync, MPI_STATUS_IGNORE);
}

int rec_steer_icoll_sync(MPI_Request request, int block)
{
	MPI_Request sync = MPI_REQUEST_NULL;
	int flag = 1;
	size_t i;

	if (request == MPI_REQUEST_NULL)
		return 1;
	pthread_mutex_lock(&syncs_lock);
	for (i = 0; i < nsyncs && syncs[i].request != request; i++)
		;
	/* a test never blocks: made under the lock, the entry kept while it says no */
	if (i < nsyncs && !block) {
		if (PMPI_Test(&syncs[i].sync, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			syncs[i].sync = MPI_REQUEST_NULL; /* an error ends it as well */
		else if (!flag) {
			pthread_mutex_unlock(&syncs_lock);
			return 0;
		}
	}
	if (i < nsyncs) {
		sync = syncs[i].sync;
		syncs[i] = syncs[--nsyncs];
		atomic_store_explicit(&rec_steer_pending, nsyncs, memory_order_relaxed);
	}
	pthread_mutex_unlock(&syncs_lock);
	if (sync != MPI_REQUEST_NULL)
		calm_Wait(&sync, MPI_STATUS_IGNORE); /* an error ends it as well */
	return 1;
}

/* The copies sent in the background, until they complete; a lock, since a rank's threads
 * share them. */
struct copy {
	MPI_Request req;
	void *buf;
};
static pthread_mutex_t copies_lock = PTHREAD_MUTEX_INITIALIZER;
static struct copy *copies;
static size_t ncopies, capcopies;

/* Free the copies whose send completed. */
static void reap_copies(void)
{
	size_t i = 0;
	int done;

	while (i < ncopies) {
		done = 0;
		if (PMPI_Test(&copies[i].req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done) {
			free(copies[i].buf);
			copies[i] = copies[--ncopies];
		} else {
			i++;
		}
	}
}

/* A generalized request that is complete from the start: what a buffered MPI_Isend gives
 * back, so that its wait returns at once. */
static int done_query(void *extra, MPI_Status *status)
{
	(void)extra;
	PMPI_Status_set_elements(status, MPI_BYTE, 0);
	PMPI_Status_set_cancelled(status, 0);
	status->MPI_SOURCE = MPI_UNDEFINED;
	status->MPI_TAG = MPI_UNDEFINED;
	return MPI_SUCCESS;
}

static int done_free(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int done_cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

int rec_steer_isend_copy(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			 MPI_Comm comm, MPI_Request *request)
{
	int rc = rec_steer_send_copy(buf, count, type, dest, tag, comm);

	if (rc == MPI_SUCCESS)
		rc = PMPI_Grequest_start(done_query, done_free, done_cancel, NULL, request);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Grequest_complete(*request);
	return rc;
}

/* rec_steer_send_copy() under copies_lock. */
static int send_copy(const void *buf, int count, MPI_Datatype type, int dest, int tag,
		     MPI_Comm comm)
{
	int len, rc;
	void *copy;

	reap_copies();
	if (ncopies == capcopies) {
		size_t cap = capcopies ? 2 * capcopies : 16;
		struct copy *c = realloc(copies, cap * sizeof(*c));

		if (!c)
			return MPI_ERR_NO_MEM;
		copies = c;
		capcopies = cap;
	}
	copy = rec_pack(buf, count, type, comm, &len, &rc);
	if (!copy)
		return rc;
	rc = PMPI_Isend(copy, len, MPI_PACKED, dest, tag, comm, &copies[ncopies].req);
	if (rc != MPI_SUCCESS) {
		free(copy);
		return rc;
	}
	copies[ncopies++].buf = copy;
	return MPI_SUCCESS;
}

int rec_steer_send_copy(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			MPI_Comm comm)
{
	int rc;

	pthread_mutex_lock(&copies_lock);
	rc = send_copy(buf, count, type, dest, tag, comm);
	pthread_mutex_unlock(&copies_lock);
	return rc;
}
