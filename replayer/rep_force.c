/* The replayer's handlers for the FORCE entries of mpi_calls.def: a wildcard receive is posted
 * with the source the counterexample matched, and a standard send the counterexample needs
 * unbuffered becomes synchronous. Anything the schedule does not pin runs unchanged. */
#include "replayer.h"

int rep_Send(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	     int tag, MPI_Comm comm)
{
	if (rep_schedule_sync(c))
		return PMPI_Ssend(buf, count, datatype, dest, tag, comm);
	return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int rep_Isend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	if (rep_schedule_sync(c))
		return PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
	return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int rep_Recv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int source,
	     int tag, MPI_Comm comm, MPI_Status *status)
{
	source = rep_schedule_source(c, source, comm);
	return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int rep_Irecv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int source,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	source = rep_schedule_source(c, source, comm);
	return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}
