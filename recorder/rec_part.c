/* Partitioned communication (MPI-4.1 chapter 4, doc/semantics.md 4.9): the requests of
 * MPI_Psend_init and MPI_Precv_init, which the trace follows like other persistent ones, and
 * for each send how many of its partitions the current start has made ready. The call that
 * readies the last is flagged MPIV_EV_PARTS_READY: from there its message can go. Programs
 * ready partitions from several threads, so the table has a lock; it holds the few
 * partitioned sends a program makes, and is searched from the end. */
#include <pthread.h>
#include <stdlib.h>

#include "grow.h"
#include "recorder.h"

#if MPI_VERSION >= 4
struct part_send {
	MPI_Request handle; /* as MPI_Psend_init made it (a persistent request keeps it) */
	int32_t id;	    /* the recorder's request id */
	int partitions;	    /* of the send */
	long ready;	    /* partitions made ready since the last start */
};

static struct part_send *part_sends;
static size_t part_n, part_cap;
static pthread_mutex_t part_lock = PTHREAD_MUTEX_INITIALIZER;

/* The newest send with request id id, or, with id REC_REQ_UNKNOWN, made with handle h (a
 * freed one's handle may be reused): MPI_Pready* look for it by handle, not through the
 * request table, from which a wait of another thread may have taken it (rec_Wait()). */
static struct part_send *part_find(int32_t id, MPI_Request h)
{
	size_t i;

	for (i = part_n; i-- > 0;)
		if (id != REC_REQ_UNKNOWN ? part_sends[i].id == id : part_sends[i].handle == h)
			return &part_sends[i];
	return NULL;
}

int rec_part_started(int32_t id)
{
	struct part_send *p;
	int now = 0;

	pthread_mutex_lock(&part_lock);
	p = part_find(id, MPI_REQUEST_NULL);
	if (p) {
		p->ready = 0;
		now = p->partitions == 0;
	}
	pthread_mutex_unlock(&part_lock);
	return now;
}

/* Partitions n more of request h's about to be made ready by call c, before the call makes
 * them so: the request listed, and c flagged if they are now all ready. With threads, c is
 * written at once, under the lock (rec_call_write_early()): the partitions of a start are
 * then counted in the order of their calls' records, the flagged call is the last of them,
 * and each comes before the wait its partition may let return and before the next start, so
 * that check knows which start each belongs to (doc/semantics.md 4.9). Returns the
 * partitions counted, for part_unready(). */
static long part_ready(struct rec_call *c, MPI_Request h, long n)
{
	struct part_send *p;
	long counted = 0;

	pthread_mutex_lock(&part_lock);
	p = part_find(REC_REQ_UNKNOWN, h);
	if (p)
		rec_call_add_req(c, p->id, MPIV_NONE, MPIV_NONE);
	if (p && p->ready < p->partitions) {
		counted = n;
		if ((p->ready += n) >= p->partitions)
			c->ev.flags |= MPIV_EV_PARTS_READY;
	}
	if (rec_multi)
		rec_call_write_early(c);
	pthread_mutex_unlock(&part_lock);
	return counted;
}

/* The call counted by part_ready() failed: its partitions are not ready after all. */
static void part_unready(struct rec_call *c, MPI_Request h, long counted)
{
	struct part_send *p;

	if (!counted)
		return;
	pthread_mutex_lock(&part_lock);
	p = part_find(REC_REQ_UNKNOWN, h);
	if (p)
		p->ready -= counted;
	c->ev.flags &= (uint16_t)~MPIV_EV_PARTS_READY;
	pthread_mutex_unlock(&part_lock);
}

int rec_Psend_init(struct rec_call *c, const void *buf, int partitions, MPI_Count count,
		   MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info,
		   MPI_Request *request)
{
	int32_t id;
	int rc;

	rec_call_posted(c);
	rc = PMPI_Psend_init(buf, partitions, count, datatype, dest, tag, comm, info, request);
	rec_call_returned(c);
	if (rc != MPI_SUCCESS)
		return rc;
	id = rec_request_add(request, 0, comm);
	rec_call_add_req(c, id, MPIV_NONE, MPIV_NONE);
	pthread_mutex_lock(&part_lock);
	/* without room its readiness is never known: its message never goes in the model,
	 * whose answer is then about a program that never sends it (out of memory here) */
	if (!mpiv_grow((void **)&part_sends, &part_cap, part_n, sizeof(*part_sends)))
		part_sends[part_n++] = (struct part_send){*request, id, partitions, 0};
	pthread_mutex_unlock(&part_lock);
	return rc;
}

int rec_Precv_init(struct rec_call *c, void *buf, int partitions, MPI_Count count,
		   MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info,
		   MPI_Request *request)
{
	int rc;

	rec_call_posted(c);
	rc = PMPI_Precv_init(buf, partitions, count, datatype, source, tag, comm, info, request);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		rec_call_add_req(c, rec_request_add(request, 1, comm), MPIV_NONE, MPIV_NONE);
	return rc;
}

int rec_Pready(struct rec_call *c, int partition, MPI_Request request)
{
	long counted = part_ready(c, request, 1);
	int rc;

	rec_call_posted(c);
	rc = PMPI_Pready(partition, request);
	rec_call_returned(c);
	if (rc != MPI_SUCCESS)
		part_unready(c, request, counted);
	return rc;
}

int rec_Pready_range(struct rec_call *c, int partition_low, int partition_high, MPI_Request request)
{
	long counted = partition_high >= partition_low ?
			       part_ready(c, request, (long)partition_high - partition_low + 1) :
			       0;
	int rc;

	rec_call_posted(c);
	rc = PMPI_Pready_range(partition_low, partition_high, request);
	rec_call_returned(c);
	if (rc != MPI_SUCCESS)
		part_unready(c, request, counted);
	return rc;
}

int rec_Pready_list(struct rec_call *c, int length, int array_of_partitions[], MPI_Request request)
{
	long counted = length > 0 ? part_ready(c, request, length) : 0;
	int rc;

	rec_call_posted(c);
	rc = PMPI_Pready_list(length, array_of_partitions, request);
	rec_call_returned(c);
	if (rc != MPI_SUCCESS)
		part_unready(c, request, counted);
	return rc;
}
#else
int rec_part_started(int32_t id)
{
	(void)id;
	return 0;
}
#endif
