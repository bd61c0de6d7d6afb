/* Envelopes of the point-to-point calls (env.h): sends and receives, persistent ones, probes,
 * send-receive and the buffer of buffered sends. Peers become world ranks on the call's
 * communicator. */
#include <limits.h>

#include "env.h"
#include "rec_comm.h"

/* A send's or receive's: peer, tag, communicator, and the message's size. */
static void env_p2p(struct mpiv_env *e, int count, MPI_Datatype type, int peer, int tag,
		    MPI_Comm comm)
{
	e->peer = rec_comm_to_world(comm, peer);
	e->tag = rec_comm_tag(tag);
	e->comm = rec_comm_id(comm);
	e->bytes = rec_comm_bytes(count, type);
	e->has_bytes = 1;
}

/* A probe's: what it asks for, no size. */
static void env_probe(struct mpiv_env *e, int source, int tag, MPI_Comm comm)
{
	e->peer = rec_comm_to_world(comm, source);
	e->tag = rec_comm_tag(tag);
	e->comm = rec_comm_id(comm);
}

/* ---- sends ---- */

void env_Send(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	env_p2p(e, count, datatype, dest, tag, comm);
}

void env_Ssend(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm)
{
	env_p2p(e, count, datatype, dest, tag, comm);
}

void env_Bsend(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm)
{
	env_p2p(e, count, datatype, dest, tag, comm);
}

void env_Rsend(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm)
{
	env_p2p(e, count, datatype, dest, tag, comm);
}

/* A nonblocking or persistent one's: also the request it makes. */
static void env_p2p_request(struct mpiv_env *e, int count, MPI_Datatype type, int peer, int tag,
			    MPI_Comm comm, MPI_Request *request)
{
	env_p2p(e, count, type, peer, tag, comm);
	e->request = request;
}

void env_Isend(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

void env_Issend(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

void env_Ibsend(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

void env_Irsend(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

/* ---- persistent requests: the envelope is recorded where the request is made; each
 * MPI_Start posts it again ---- */

void env_Send_init(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

void env_Bsend_init(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
		    int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

void env_Ssend_init(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
		    int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

void env_Rsend_init(struct mpiv_env *e, const void *buf, int count, MPI_Datatype datatype, int dest,
		    int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, dest, tag, comm, request);
}

void env_Recv_init(struct mpiv_env *e, void *buf, int count, MPI_Datatype datatype, int source,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, source, tag, comm, request);
}

/* ---- receives ---- */

void env_Recv(struct mpiv_env *e, void *buf, int count, MPI_Datatype datatype, int source, int tag,
	      MPI_Comm comm, MPI_Status *status)
{
	env_p2p(e, count, datatype, source, tag, comm);
}

void env_Irecv(struct mpiv_env *e, void *buf, int count, MPI_Datatype datatype, int source, int tag,
	       MPI_Comm comm, MPI_Request *request)
{
	env_p2p_request(e, count, datatype, source, tag, comm, request);
}

/* The receive of a message a probe matched: no envelope of its own (the probe's was
 * recorded), its size only. */
void env_Mrecv(struct mpiv_env *e, void *buf, int count, MPI_Datatype datatype,
	       MPI_Message *message, MPI_Status *status)
{
	e->bytes = rec_comm_bytes(count, datatype);
}

/* ... and, nonblocking, the request that only moves its data */
void env_Imrecv(struct mpiv_env *e, void *buf, int count, MPI_Datatype datatype,
		MPI_Message *message, MPI_Request *request)
{
	e->request = request;
}

/* ---- probes ---- */

void env_Probe(struct mpiv_env *e, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	env_probe(e, source, tag, comm);
}

void env_Iprobe(struct mpiv_env *e, int source, int tag, MPI_Comm comm, int *flag,
		MPI_Status *status)
{
	env_probe(e, source, tag, comm);
}

void env_Mprobe(struct mpiv_env *e, int source, int tag, MPI_Comm comm, MPI_Message *message,
		MPI_Status *status)
{
	env_probe(e, source, tag, comm);
}

void env_Improbe(struct mpiv_env *e, int source, int tag, MPI_Comm comm, int *flag,
		 MPI_Message *message, MPI_Status *status)
{
	env_probe(e, source, tag, comm);
}

/* ---- send-receive: the send's envelope in peer and tag, the receive's source and tag in
 * peer2 and tag2, the send's size (recorded, not compared: has_bytes stays 0) ---- */

static void env_sendrecv(struct mpiv_env *e, int sendcount, MPI_Datatype sendtype, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm)
{
	env_probe(e, dest, sendtag, comm);
	e->bytes = rec_comm_bytes(sendcount, sendtype);
	e->peer2 = rec_comm_to_world(comm, source);
	e->tag2 = rec_comm_tag(recvtag);
}

void env_Sendrecv(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	env_sendrecv(e, sendcount, sendtype, dest, sendtag, source, recvtag, comm);
}

void env_Sendrecv_replace(struct mpiv_env *e, void *buf, int count, MPI_Datatype datatype, int dest,
			  int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	env_sendrecv(e, count, datatype, dest, sendtag, source, recvtag, comm);
}

#if MPI_VERSION >= 4
/* MPI-4's send-receive as a request: also the request it makes. */
void env_Isendrecv(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	env_sendrecv(e, sendcount, sendtype, dest, sendtag, source, recvtag, comm);
	e->request = request;
}

void env_Isendrecv_replace(struct mpiv_env *e, void *buf, int count, MPI_Datatype datatype,
			   int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
			   MPI_Request *request)
{
	env_sendrecv(e, count, datatype, dest, sendtag, source, recvtag, comm);
	e->request = request;
}

/* Partitioned communication: the whole message, partitions times count elements (a
 * partition's size alone if they do not fit an int: the size is for replay's comparison and
 * the eager threshold, which a message that large is past either way). */
static void env_partitioned(struct mpiv_env *e, int partitions, MPI_Count count, MPI_Datatype type,
			    int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
	MPI_Count all = (MPI_Count)partitions * count;

	env_p2p_request(e, all >= 0 && all <= INT_MAX ? (int)all : (int)(count & INT_MAX), type,
			peer, tag, comm, request);
}

void env_Psend_init(struct mpiv_env *e, const void *buf, int partitions, MPI_Count count,
		    MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	env_partitioned(e, partitions, count, datatype, dest, tag, comm, request);
}

void env_Precv_init(struct mpiv_env *e, void *buf, int partitions, MPI_Count count,
		    MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	env_partitioned(e, partitions, count, datatype, source, tag, comm, request);
}
#endif

/* ---- the buffer of buffered sends: its size (MPI_Buffer_detach's is what it returns) ---- */

void env_Buffer_attach(struct mpiv_env *e, void *buffer, int size)
{
	e->bytes = size > 0 ? (uint64_t)size : 0;
}
