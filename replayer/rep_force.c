/* The replayer's handlers of the calls it may force (rep_<name>()): a wildcard receive or probe
 * is posted with the source the counterexample matched, and a standard send the counterexample
 * needs unbuffered becomes synchronous. Anything the schedule does not pin runs unchanged. The
 * wrapper has already checked the program's own arguments against the trace. Nonblocking
 * probes also say whether they found anything, for the trace's alignment. The completion
 * calls' handlers are in rep_request.c. */
#include <stdio.h>
#include <stdlib.h>

#include "replayer.h"
#include "calm.h"
#include "rec_comm.h"
#include "rec_pack.h"
#include "rec_status.h"
#include "status.h"

/* ---- sends: standard (and ready) mode made synchronous where the schedule says so ---- */

int rep_Send(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	     int tag, MPI_Comm comm)
{
	if (rep_schedule_sync(c))
		return calm_Ssend(buf, count, datatype, dest, tag, comm);
	return calm_Send(buf, count, datatype, dest, tag, comm);
}

/* the modes the schedule never changes: only made to sleep while they wait (calm.h) */
int rep_Ssend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	(void)c;
	return calm_Ssend(buf, count, datatype, dest, tag, comm);
}

int rep_Bsend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	(void)c;
	return calm_Bsend(buf, count, datatype, dest, tag, comm);
}

int rep_Rsend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	if (rep_schedule_sync(c))
		return calm_Ssend(buf, count, datatype, dest, tag, comm);
	return calm_Rsend(buf, count, datatype, dest, tag, comm);
}

int rep_Isend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	if (rep_schedule_sync(c))
		return PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
	return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int rep_Irsend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	if (rep_schedule_sync(c))
		return PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
	return PMPI_Irsend(buf, count, datatype, dest, tag, comm, request);
}

int rep_Send_init(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	if (rep_schedule_sync_persistent(c))
		return PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request);
	return PMPI_Send_init(buf, count, datatype, dest, tag, comm, request);
}

int rep_Rsend_init(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	if (rep_schedule_sync_persistent(c))
		return PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request);
	return PMPI_Rsend_init(buf, count, datatype, dest, tag, comm, request);
}

/* ---- send-receive: the source pinned, the send made synchronous, as the counterexample
 * says ---- */

/* MPI_Sendrecv with an unbuffered send. */
static int sendrecv_sync(struct rep_call *c, const void *sendbuf, int sendcount,
			 MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount,
			 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status)
{
	MPI_Status local;
	int rc;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rc = calm_sendrecv_by(PMPI_Issend, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
			      recvcount, recvtype, source, recvtag, comm, status);
	if (rc == MPI_SUCCESS && rep_schedule_blocked(c))
		c->matched = rec_comm_to_world(comm, status->MPI_SOURCE);
	return rc;
}

int rep_Sendrecv(struct rep_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	int src = rep_schedule_source(c, source, comm);

	if (rep_schedule_sync(c))
		return sendrecv_sync(c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
				     recvcount, recvtype, src, recvtag, comm, status);
	return calm_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
			     recvtype, src, recvtag, comm, status);
}

int rep_Sendrecv_replace(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	int src = rep_schedule_source(c, source, comm), len, rc;
	void *out;

	if (!rep_schedule_sync(c))
		return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, src, recvtag,
					     comm, status);
	/* the message goes out of a packed copy while the receive lands in buf */
	out = rec_pack(buf, count, datatype, comm, &len, &rc);
	if (!out) {
		rec_status_note(MPIV_NOTE_UNFORCED, "MPI_Sendrecv_replace: no copy of its buffer "
						    "to make its send synchronous");
		c->forced = 0;
		return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, src, recvtag,
					     comm, status);
	}
	rc = sendrecv_sync(c, out, len, MPI_PACKED, dest, sendtag, buf, count, datatype, src,
			   recvtag, comm, status);
	free(out);
	return rc;
}

/* ---- receives and probes: a wildcard source pinned to the counterexample's sender ---- */

#if MPI_VERSION >= 4
/* MPI-4's send-receive as a request: the source pinned; its send cannot be made synchronous
 * behind its one request, which the replay says when the counterexample wants that. */
static void isendrecv_unforced(struct rep_call *c, const char *call)
{
	char note[128];

	if (!rep_schedule_sync(c))
		return;
	snprintf(note, sizeof(note), "%s: its send cannot be made synchronous", call);
	rec_status_note(MPIV_NOTE_UNFORCED, note);
	c->forced = 0;
}

int rep_Isendrecv(struct rep_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	int src = rep_schedule_source(c, source, comm);

	isendrecv_unforced(c, "MPI_Isendrecv");
	return PMPI_Isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
			      recvtype, src, recvtag, comm, request);
}

int rep_Isendrecv_replace(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int dest,
			  int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	int src = rep_schedule_source(c, source, comm);

	isendrecv_unforced(c, "MPI_Isendrecv_replace");
	return PMPI_Isendrecv_replace(buf, count, datatype, dest, sendtag, src, recvtag, comm,
				      request);
}
#endif

int rep_Recv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int source, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	MPI_Status local;
	int rc;

	/* Where the counterexample has this rank blocked, a receive that completes explains
	 * why the deadlock did not happen: note whose message it took. */
	if (!rep_schedule_blocked(c))
		return calm_Recv(buf, count, datatype, rep_schedule_source(c, source, comm), tag,
				 comm, status);
	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rc = calm_Recv(buf, count, datatype, rep_schedule_source(c, source, comm), tag, comm,
		       status);
	if (rc == MPI_SUCCESS)
		c->matched = rec_comm_to_world(comm, status->MPI_SOURCE);
	return rc;
}

int rep_Irecv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int source, int tag,
	      MPI_Comm comm, MPI_Request *request)
{
	source = rep_schedule_source(c, source, comm);
	return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}

int rep_Probe(struct rep_call *c, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	return calm_Probe(rep_schedule_source(c, source, comm), tag, comm, status);
}

int rep_Iprobe(struct rep_call *c, int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	int rc = PMPI_Iprobe(rep_schedule_source(c, source, comm), tag, comm, flag, status);

	return rep_polled(c, rc, rc == MPI_SUCCESS && *flag);
}

int rep_Mrecv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
	      MPI_Status *status)
{
	(void)c;
	return calm_Mrecv(buf, count, datatype, message, status);
}

int rep_Mprobe(struct rep_call *c, int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status)
{
	return calm_Mprobe(rep_schedule_source(c, source, comm), tag, comm, message, status);
}

int rep_Improbe(struct rep_call *c, int source, int tag, MPI_Comm comm, int *flag,
		MPI_Message *message, MPI_Status *status)
{
	int rc = PMPI_Improbe(rep_schedule_source(c, source, comm), tag, comm, flag, message,
			      status);

	return rep_polled(c, rc, rc == MPI_SUCCESS && *flag);
}

/* ---- collectives that need not synchronise in MPICH: a barrier first when the
 * counterexample needs them synchronising (the large-count forms of MPI_Gatherv and
 * MPI_Scatterv do the same before their own call: base/gen_large_count.py) ---- */

int rep_Bcast(struct rep_call *c, void *buffer, int count, MPI_Datatype datatype, int root,
	      MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int rep_Reduce(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int rep_Gather(struct rep_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int rep_Gatherv(struct rep_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		int root, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
			    root, comm);
}

int rep_Scatter(struct rep_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int rep_Scatterv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
			     root, comm);
}

int rep_Scan(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
}

int rep_Exscan(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
}
