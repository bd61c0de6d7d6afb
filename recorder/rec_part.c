/* Partitioned communication (MPI-4.1 chapter 4, doc/semantics.md 4.9): the requests of
 * MPI_Psend_init and MPI_Precv_init, which the trace follows like other persistent ones, and
 * for each send how many of its partitions the current start has made ready. The call that
 * readies the last is flagged MPIV_EV_PARTS_READY: from there its message can go, and the
 * model posts it there. Programs ready partitions from several threads, so the table has a
 * lock; it holds the few partitioned sends a program makes, and is searched from the end. */
#include <pthread.h>
#include <stdlib.h>

#include "grow.h"
#include "recorder.h"

#if MPI_VERSION >= 4
struct part_send {
	int32_t id;	/* the recorder's request id */
	int partitions; /* of the send */
	long ready;	/* partitions made ready since the last start */
};

static struct part_send *part_sends;
static size_t part_n, part_cap;
static pthread_mutex_t part_lock = PTHREAD_MUTEX_INITIALIZER;

static struct part_send *part_find(int32_t id)
{
	size_t i;

	for (i = part_n; i-- > 0;)
		if (part_sends[i].id == id)
			return &part_sends[i];
	return NULL;
}

int rec_part_started(int32_t id)
{
	struct part_send *p;
	int now = 0;

	pthread_mutex_lock(&part_lock);
	p = part_find(id);
	if (p) {
		p->ready = 0;
		now = p->partitions == 0;
	}
	pthread_mutex_unlock(&part_lock);
	return now;
}

/* Partitions n more of request h's made ready by call c: the request listed, and c flagged
 * if they are now all ready. */
static void part_ready(struct rec_call *c, MPI_Request h, long n)
{
	int32_t id = rec_request_find(h);
	struct part_send *p;

	if (id == REC_REQ_UNKNOWN)
		return;
	rec_call_add_req(c, id, MPIV_NONE, MPIV_NONE);
	pthread_mutex_lock(&part_lock);
	p = part_find(id);
	if (p && p->ready < p->partitions && (p->ready += n) >= p->partitions)
		c->ev.flags |= MPIV_EV_PARTS_READY;
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
		part_sends[part_n++] = (struct part_send){id, partitions, 0};
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
	int rc;

	rec_call_posted(c);
	rc = PMPI_Pready(partition, request);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		part_ready(c, request, 1);
	return rc;
}

int rec_Pready_range(struct rec_call *c, int partition_low, int partition_high, MPI_Request request)
{
	int rc;

	rec_call_posted(c);
	rc = PMPI_Pready_range(partition_low, partition_high, request);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS && partition_high >= partition_low)
		part_ready(c, request, (long)partition_high - partition_low + 1);
	return rc;
}

int rec_Pready_list(struct rec_call *c, int length, int array_of_partitions[], MPI_Request request)
{
	int rc;

	rec_call_posted(c);
	rc = PMPI_Pready_list(length, array_of_partitions, request);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS && length > 0)
		part_ready(c, request, length);
	return rc;
}
#else
int rec_part_started(int32_t id)
{
	(void)id;
	return 0;
}
#endif
