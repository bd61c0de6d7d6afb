/* Blocking calls that sleep while they wait (calm.h). */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "calm.h"

/* A wait polls back to back for its first CALM_SPIN_NS: a call whose peer is there, or
 * nearly (a ping-pong's reply, a neighbour's halo a computation away), completes as fast as
 * with the library's own wait. Then it sleeps between polls, from CALM_SLEEP_MIN_NS doubling
 * to CALM_SLEEP_MAX_NS. */
#define CALM_SPIN_NS 200000L
#define CALM_SLEEP_MIN_NS 20000L
#define CALM_SLEEP_MAX_NS 1000000L

int calm_on;

void calm_start(void)
{
	calm_on = 1;
}

int calm_oversubscribed(void)
{
	/* the ranks on this node, as MPICH's Hydra and Open MPI's launcher tell each */
	static const char *const vars[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), ranks;
	const char *v;
	char *end;
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		v = getenv(vars[i]);
		if (!v || !*v)
			continue;
		ranks = strtol(v, &end, 10);
		if (!*end && cpus > 0)
			return ranks > cpus;
	}
	return 0;
}

struct calm_wait {
	struct timespec start;
	long ns; /* the next sleep, or 0 while it spins */
	unsigned polls;
};

static void calm_begin(struct calm_wait *w)
{
	w->ns = 0;
	w->polls = 0;
	clock_gettime(CLOCK_MONOTONIC, &w->start);
}

/* Between two polls of one wait: nothing at first (the clock read every 16th poll), then a
 * sleep twice the last. */
static void calm_pause(struct calm_wait *w)
{
	struct timespec now;

	if (!w->ns) {
		if (++w->polls % 16)
			return;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - w->start.tv_sec) * 1000000000L + now.tv_nsec - w->start.tv_nsec <
		    CALM_SPIN_NS)
			return;
		w->ns = CALM_SLEEP_MIN_NS;
	}
	now.tv_sec = 0;
	now.tv_nsec = w->ns;
	nanosleep(&now, NULL);
	w->ns = w->ns * 2 > CALM_SLEEP_MAX_NS ? CALM_SLEEP_MAX_NS : w->ns * 2;
}

/* Whether request is complete, or null: MPI_Request_get_status leaves it as it is, for the
 * library's own wait to complete it (and say what a wait says) once it can return at once.
 * MPICH 4.0's MPI_Testall, for one, fails on a persistent collective that completed. An
 * error is taken as done: the wait then reports it. */
static int calm_ready(MPI_Request request)
{
	int flag = 0;

	return request == MPI_REQUEST_NULL ||
	       PMPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag;
}

/* Poll until all of requests[0..count) are ready (all), or one (any; or none is left). No
 * array at all is the program's error, which the library's wait reports. An inactive
 * persistent request reads as complete: a Waitany or Waitsome over one is left to the
 * library's wait at once. */
static void calm_until(int count, const MPI_Request requests[], int all)
{
	struct calm_wait w;
	int i, k = 0, live;

	if (!requests)
		return;
	calm_begin(&w);
	for (;;) {
		if (all) {
			/* a request once complete stays so until it is waited for */
			while (k < count && calm_ready(requests[k]))
				k++;
			if (k >= count)
				return;
		} else {
			for (i = 0, live = 0; i < count; i++) {
				if (requests[i] == MPI_REQUEST_NULL)
					continue;
				live = 1;
				if (calm_ready(requests[i]))
					return;
			}
			if (!live)
				return;
		}
		calm_pause(&w);
	}
}

int calm_sleepy_Wait(MPI_Request *request, MPI_Status *status)
{
	calm_until(1, request, 1);
	return PMPI_Wait(request, status);
}

int calm_sleepy_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
	calm_until(count, requests, 1);
	return PMPI_Waitall(count, requests, statuses);
}

int calm_sleepy_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
	calm_until(count, requests, 0);
	return PMPI_Waitany(count, requests, index, status);
}

int calm_sleepy_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
			 MPI_Status statuses[])
{
	calm_until(incount, requests, 0);
	return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
}

/* A send of any mode: its nonblocking form (isend), then the wait. */
static int calm_send(calm_isend_fn isend, const void *buf, int count, MPI_Datatype type, int dest,
		     int tag, MPI_Comm comm)
{
	MPI_Request req;
	int rc = isend(buf, count, type, dest, tag, comm, &req);

	return rc == MPI_SUCCESS ? calm_sleepy_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

#define CALM_SEND(name, iname)                                                                   \
	int calm_sleepy_##name(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
			       MPI_Comm comm)                                                    \
	{                                                                                        \
		return calm_send(PMPI_##iname, buf, count, type, dest, tag, comm);               \
	}
CALM_SEND(Send, Isend)
CALM_SEND(Ssend, Issend)
CALM_SEND(Bsend, Ibsend)
CALM_SEND(Rsend, Irsend)
#undef CALM_SEND

int calm_sleepy_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
		     MPI_Status *status)
{
	MPI_Request req;
	int rc;

	rc = PMPI_Irecv(buf, count, type, source, tag, comm, &req);
	return rc == MPI_SUCCESS ? calm_sleepy_Wait(&req, status) : rc;
}

int calm_sendrecv_by(calm_isend_fn isend, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		     int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Request req[2];
	MPI_Status st[2];
	int rc;

	rc = isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &req[0]);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &req[1]);
	if (rc != MPI_SUCCESS) {
		PMPI_Request_free(&req[0]); /* the send goes on alone, as MPI_Sendrecv's would */
		return rc;
	}
	rc = calm_Waitall(2, req, st);
	if (status != MPI_STATUS_IGNORE)
		*status = st[1];
	/* one error, as MPI_Sendrecv has, not MPI_Waitall's */
	return rc == MPI_ERR_IN_STATUS ?
		       (st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR : st[1].MPI_ERROR) :
		       rc;
}

int calm_sleepy_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
			 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
			 int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	return calm_sendrecv_by(PMPI_Isend, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
				recvcount, recvtype, source, recvtag, comm, status);
}

int calm_sleepy_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	struct calm_wait w;
	int flag = 0, rc;

	calm_begin(&w);
	while ((rc = PMPI_Iprobe(source, tag, comm, &flag, status)) == MPI_SUCCESS && !flag)
		calm_pause(&w);
	return rc;
}

int calm_sleepy_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
	struct calm_wait w;
	int flag = 0, rc;

	calm_begin(&w);
	while ((rc = PMPI_Improbe(source, tag, comm, &flag, message, status)) == MPI_SUCCESS &&
	       !flag)
		calm_pause(&w);
	return rc;
}

int calm_sleepy_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
		      MPI_Status *status)
{
	MPI_Request req;
	int rc;

	rc = PMPI_Imrecv(buf, count, type, message, &req);
	return rc == MPI_SUCCESS ? calm_sleepy_Wait(&req, status) : rc;
}
