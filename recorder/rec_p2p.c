/* Point-to-point handlers of the recorder: every send variant goes through rec_send() or
 * rec_isend(), every receive through rec_recv() or rec_irecv(), as Caliper groups them;
 * persistent requests are made the same way. The envelope is the wrapper's (env_p2p.c);
 * blocking receives record the source and tag they matched. Sends record the digest of the
 * data they send, blocking receives of the data they took, nonblocking and persistent ones
 * leave where their data lie with their request (rec_request.c hashes them). */
#include <stdlib.h>

#include "recorder.h"
#include "calm.h"
#include "rec_comm.h"
#include "rec_pack.h"

typedef int (*rec_send_fn)(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			   MPI_Comm comm);
typedef int (*rec_isend_fn)(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			    MPI_Comm comm, MPI_Request *request);
typedef int (*rec_recv_fn)(void *buf, int count, MPI_Datatype type, int source, int tag,
			   MPI_Comm comm, MPI_Status *status);
typedef int (*rec_irecv_fn)(void *buf, int count, MPI_Datatype type, int source, int tag,
			    MPI_Comm comm, MPI_Request *request);

static REC_HOT int rec_send(struct rec_call *c, rec_send_fn pmpi, const void *buf, int count,
			    MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	struct rec_data d = rec_data_at(buf, count, type, dest);
	enum rec_send_force force;
	int rc;

	c->ev.data = rec_data_sent(&d);
	rec_call_posted(c);
	if (pmpi != calm_Send || dest == MPI_PROC_NULL)
		rc = pmpi(buf, count, type, dest, tag, comm);
	else if ((force = rec_steer_send(c->ev.bytes)) == REC_SEND_SYNC)
		rc = calm_Ssend(buf, count, type, dest, tag, comm);
	else if (force == REC_SEND_BUFFERED)
		rc = rec_steer_send_copy(buf, count, type, dest, tag, comm);
	else
		rc = pmpi(buf, count, type, dest, tag, comm);
	rec_call_returned(c);
	return rc;
}

static REC_HOT int rec_isend(struct rec_call *c, rec_isend_fn pmpi, const void *buf, int count,
			     MPI_Datatype type, int dest, int tag, MPI_Comm comm,
			     MPI_Request *request)
{
	struct rec_data d = rec_data_at(buf, count, type, dest);
	int persistent = mpiv_call_kind(c->ev.call) == MPIV_KIND_SEND_INIT;
	enum rec_send_force force;
	int rc;

	/* a persistent send sends at each start, which has the digest */
	if (!persistent)
		c->ev.data = rec_data_sent(&d);
	rec_call_posted(c);
	/* steered: synchronous, the request completes when the message is matched; buffered,
	 * a copy goes in the background and the request is complete at once. A persistent
	 * standard send is made synchronous (MPI_Ssend_init) for every start alike; buffered,
	 * it is left to the library, which no copy made here could stand for at each start */
	force = (pmpi == PMPI_Isend || pmpi == PMPI_Send_init) && dest != MPI_PROC_NULL ?
			rec_steer_send(c->ev.bytes) :
			REC_SEND_AS_IS;
	if (force == REC_SEND_BUFFERED && pmpi == PMPI_Isend)
		rc = rec_steer_isend_copy(buf, count, type, dest, tag, comm, request);
	else if (force == REC_SEND_SYNC)
		rc = (pmpi == PMPI_Isend ? PMPI_Issend : PMPI_Ssend_init)(buf, count, type, dest,
									  tag, comm, request);
	else
		rc = pmpi(buf, count, type, dest, tag, comm, request);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		rec_call_add_req(c,
				 rec_request_add_data(request, 0, comm,
						      persistent ? REC_DIGEST_START :
								   REC_DIGEST_NONE,
						      d),
				 MPIV_NONE, MPIV_NONE);
	return rc;
}

static REC_HOT int rec_recv(struct rec_call *c, rec_recv_fn pmpi, void *buf, int count,
			    MPI_Datatype type, int source, int tag, MPI_Comm comm,
			    MPI_Status *status)
{
	MPI_Status local;
	int rc;

	/* The matched source and tag are the point of recording a receive. */
	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rec_call_posted(c);
	rc = pmpi(buf, count, type, rec_steer_source(c, source, comm), tag, comm, status);
	rec_call_returned(c);
	/* A truncated message was still matched, and took what fit. */
	if (rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE) {
		struct rec_data d = rec_data_at(buf, count, type, source);

		c->ev.src = rec_comm_to_world(comm, status->MPI_SOURCE);
		c->ev.mtag = rec_comm_tag(status->MPI_TAG);
		c->ev.rdata = rec_data_received(&d, status);
	}
	return rc;
}

/* A request whose completion takes a message into buf (count of type, from source): its
 * status and the digest of that data are recorded where it completes (rec_request.c). */
static inline void recv_request(struct rec_call *c, int rc, MPI_Request *request, MPI_Comm comm,
				void *buf, int count, MPI_Datatype type, int source)
{
	if (rc == MPI_SUCCESS)
		rec_call_add_req(c,
				 rec_request_add_data(request, 1, comm, REC_DIGEST_DONE,
						      rec_data_at(buf, count, type, source)),
				 MPIV_NONE, MPIV_NONE);
}

static REC_HOT int rec_irecv(struct rec_call *c, rec_irecv_fn pmpi, void *buf, int count,
			     MPI_Datatype type, int source, int tag, MPI_Comm comm,
			     MPI_Request *request)
{
	int rc;

	rec_call_posted(c);
	rc = pmpi(buf, count, type, rec_steer_source(c, source, comm), tag, comm, request);
	rec_call_returned(c);
	recv_request(c, rc, request, comm, buf, count, type, source);
	return rc;
}

int rec_Send(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	     int tag, MPI_Comm comm)
{
	return rec_send(c, calm_Send, buf, count, datatype, dest, tag, comm);
}

int rec_Ssend(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	return rec_send(c, calm_Ssend, buf, count, datatype, dest, tag, comm);
}

int rec_Isend(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Isend, buf, count, datatype, dest, tag, comm, request);
}

int rec_Recv(struct rec_call *c, void *buf, int count, MPI_Datatype datatype, int source, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	return rec_recv(c, calm_Recv, buf, count, datatype, source, tag, comm, status);
}

int rec_Irecv(struct rec_call *c, void *buf, int count, MPI_Datatype datatype, int source, int tag,
	      MPI_Comm comm, MPI_Request *request)
{
	return rec_irecv(c, PMPI_Irecv, buf, count, datatype, source, tag, comm, request);
}

int rec_Bsend(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	return rec_send(c, calm_Bsend, buf, count, datatype, dest, tag, comm);
}

int rec_Rsend(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	return rec_send(c, calm_Rsend, buf, count, datatype, dest, tag, comm);
}

int rec_Ibsend(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Ibsend, buf, count, datatype, dest, tag, comm, request);
}

int rec_Issend(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Issend, buf, count, datatype, dest, tag, comm, request);
}

int rec_Irsend(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Irsend, buf, count, datatype, dest, tag, comm, request);
}

/* ---- persistent requests: the envelope is recorded where the request is made; each
 * MPI_Start posts it again ---- */

int rec_Send_init(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Send_init, buf, count, datatype, dest, tag, comm, request);
}

int rec_Bsend_init(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Bsend_init, buf, count, datatype, dest, tag, comm, request);
}

int rec_Ssend_init(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Ssend_init, buf, count, datatype, dest, tag, comm, request);
}

int rec_Rsend_init(struct rec_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_isend(c, PMPI_Rsend_init, buf, count, datatype, dest, tag, comm, request);
}

int rec_Recv_init(struct rec_call *c, void *buf, int count, MPI_Datatype datatype, int source,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	return rec_irecv(c, PMPI_Recv_init, buf, count, datatype, source, tag, comm, request);
}

/* MPI_Sendrecv and MPI_Sendrecv_replace (their envelope: env_p2p.c): what the receive
 * matched, and the digest of what it took into recv. */
static void rec_sendrecv_done(struct rec_call *c, int rc, MPI_Comm comm, const MPI_Status *st,
			      const struct rec_data *recv)
{
	if (rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE) {
		c->ev.src = rec_comm_to_world(comm, st->MPI_SOURCE);
		c->ev.mtag = rec_comm_tag(st->MPI_TAG);
		c->ev.rdata = rec_data_received(recv, st);
	}
}

/* MPI_Sendrecv with its send forced as the steering says (synchronous or buffered). */
static int sendrecv_forced(struct rec_call *c, const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
			   int recvcount, MPI_Datatype recvtype, int source, int recvtag,
			   MPI_Comm comm, MPI_Status *status)
{
	return calm_sendrecv_by(rec_steer_send(c->ev.bytes) == REC_SEND_BUFFERED ?
					rec_steer_isend_copy :
					PMPI_Issend,
				sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
				recvtype, source, recvtag, comm, status);
}

int rec_Sendrecv(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	struct rec_data out = rec_data_at(sendbuf, sendcount, sendtype, dest);
	struct rec_data in = rec_data_at(recvbuf, recvcount, recvtype, source);
	MPI_Status local;
	int rc;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	c->ev.data = rec_data_sent(&out);
	rec_call_posted(c);
	source = rec_steer_source(c, source, comm);
	if (dest != MPI_PROC_NULL && rec_steer_send(c->ev.bytes) != REC_SEND_AS_IS)
		rc = sendrecv_forced(c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
				     recvcount, recvtype, source, recvtag, comm, status);
	else
		rc = calm_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
				   recvtype, source, recvtag, comm, status);
	rec_call_returned(c);
	rec_sendrecv_done(c, rc, comm, status, &in);
	return rc;
}

int rec_Sendrecv_replace(struct rec_call *c, void *buf, int count, MPI_Datatype datatype, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	struct rec_data d = rec_data_at(buf, count, datatype, dest);
	MPI_Status local;
	void *out = NULL;
	int rc, len = 0;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	c->ev.data = rec_data_sent(&d);
	/* the receive lands where the send was read from */
	d = rec_data_at(buf, count, datatype, source);
	rec_call_posted(c);
	source = rec_steer_source(c, source, comm);
	/* forced as MPI_Sendrecv's send is, out of a packed copy while the receive lands in
	 * buf; without one (no memory) the call runs as the program made it */
	if (dest != MPI_PROC_NULL && rec_steer_send(c->ev.bytes) != REC_SEND_AS_IS)
		out = rec_pack(buf, count, datatype, comm, &len, &rc);
	if (out)
		rc = sendrecv_forced(c, out, len, MPI_PACKED, dest, sendtag, buf, count, datatype,
				     source, recvtag, comm, status);
	else
		rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag,
					   comm, status);
	free(out);
	rec_call_returned(c);
	rec_sendrecv_done(c, rc, comm, status, &d);
	return rc;
}

#if MPI_VERSION >= 4
/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4): the send's digest now, the request a
 * receive's, whose status and data its completion records; a wildcard source as steered. The
 * send is the library's own whatever the steering says of standard sends: its one request
 * cannot stand for a synchronous send and a receive (a run verify steers so may then not
 * follow its model, and says so; never a verdict). */
int rec_Isendrecv(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	struct rec_data out = rec_data_at(sendbuf, sendcount, sendtype, dest);
	int rc;

	c->ev.data = rec_data_sent(&out);
	rec_call_posted(c);
	source = rec_steer_source(c, source, comm);
	rc = PMPI_Isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
			    recvtype, source, recvtag, comm, request);
	rec_call_returned(c);
	recv_request(c, rc, request, comm, recvbuf, recvcount, recvtype, source);
	return rc;
}

int rec_Isendrecv_replace(struct rec_call *c, void *buf, int count, MPI_Datatype datatype, int dest,
			  int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	struct rec_data d = rec_data_at(buf, count, datatype, dest);
	int rc;

	c->ev.data = rec_data_sent(&d);
	rec_call_posted(c);
	source = rec_steer_source(c, source, comm);
	rc = PMPI_Isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
				    request);
	rec_call_returned(c);
	/* the receive lands where the send was read from */
	recv_request(c, rc, request, comm, buf, count, datatype, source);
	return rc;
}
#endif
