/* Blocking point-to-point calls that sleep while they wait (calm.c), for the runs that exist
 * to decide a verdict, verify's runs and replay's, and for record on a node with more ranks
 * than CPUs. MPICH and Open MPI poll inside a blocked
 * call, one core per rank, for as long as it blocks; a run that confirms a deadlock sits so,
 * every rank, for the whole confirmation (doc/verify.md 1), and a rank oversubscribed on a
 * small machine takes the core its peers need. A calm call is the call's nonblocking form,
 * polled with MPI_Request_get_status back to back for 0.2 ms, then between sleeps that grow
 * to a millisecond, and the library's own wait once that can return at once. The same
 * message is matched (a nonblocking call matches in the order it is started, as the blocking
 * one would, MPI-4.1 3.7.4), the same completion comes (a test repeated completes what a wait
 * would, 3.7.4 again; a probe is an Iprobe repeated until it finds, 3.8.1), what the wait
 * returns is the library's, and each poll drives the library on. Collectives stay the
 * library's own: a nonblocking collective does not match a blocking one (MPI-4.1 6.12). */
#ifndef MPIV_CALM_H
#define MPIV_CALM_H

#include <mpi.h>

#pragma GCC visibility push(hidden)

/* Set once, at MPI_Init, by calm_start(): from then on the calls below sleep while they wait. */
extern int calm_on;

void calm_start(void);

/* Whether this node runs more ranks than it has CPUs, as far as the launcher says: a rank
 * that polls there takes the core another rank needs. */
int calm_oversubscribed(void);

/* calm_<name>() is PMPI_<name>, or calm_sleepy_<name>() (calm.c) once calm_start() was
 * called: inline, as the recorder's quick way calls it on every Send, Recv and Wait. */
#define CALM_CALL(name, params, args)                                                             \
	int calm_sleepy_##name params;                                                            \
	static inline int calm_##name params                                                      \
	{                                                                                         \
		return __builtin_expect(calm_on, 0) ? calm_sleepy_##name args : PMPI_##name args; \
	}

CALM_CALL(Send, (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
	  (buf, count, type, dest, tag, comm))
CALM_CALL(Ssend, (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
	  (buf, count, type, dest, tag, comm))
CALM_CALL(Bsend, (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
	  (buf, count, type, dest, tag, comm))
CALM_CALL(Rsend, (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
	  (buf, count, type, dest, tag, comm))
CALM_CALL(Recv,
	  (void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	   MPI_Status *status),
	  (buf, count, type, source, tag, comm, status))
CALM_CALL(Sendrecv,
	  (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
	   void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
	   MPI_Comm comm, MPI_Status *status),
	  (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
	   recvtag, comm, status))
CALM_CALL(Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status),
	  (source, tag, comm, status))
CALM_CALL(Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status),
	  (source, tag, comm, message, status))
CALM_CALL(Mrecv,
	  (void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status),
	  (buf, count, type, message, status))
CALM_CALL(Wait, (MPI_Request * request, MPI_Status *status), (request, status))
CALM_CALL(Waitall, (int count, MPI_Request requests[], MPI_Status statuses[]),
	  (count, requests, statuses))
CALM_CALL(Waitany, (int count, MPI_Request requests[], int *index, MPI_Status *status),
	  (count, requests, index, status))
CALM_CALL(Waitsome,
	  (int incount, MPI_Request requests[], int *outcount, int indices[],
	   MPI_Status statuses[]),
	  (incount, requests, outcount, indices, statuses))

#undef CALM_CALL

/* A nonblocking send: PMPI_Isend and kin, or one of a copy made to go in the background. */
typedef int (*calm_isend_fn)(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			     MPI_Comm comm, MPI_Request *request);

/* MPI_Sendrecv with its send started by isend (a steered or forced mode): both started, the
 * send first, then waited for together, calmly once calm_start() was called; status gets the
 * receive's, the result one error as MPI_Sendrecv's. */
int calm_sendrecv_by(calm_isend_fn isend, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		     int source, int recvtag, MPI_Comm comm, MPI_Status *status);

#pragma GCC visibility pop

#endif
