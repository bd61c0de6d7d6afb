/* The floor of recording overhead: a PMPI library that forwards the benchmarks' MPI calls,
 * with a re-entry guard as the recorder's, and records nothing. bench/run.sh preloads it
 * into the same programs: what it costs, any PMPI tool costs, and the recorder's own share
 * is what the recorded run costs beyond it. */
#include <mpi.h>

static __thread int depth; /* as the recorder's guard: calls MPI makes itself pass */

#define FORWARD(name, params, args)              \
	int MPI_##name params                    \
	{                                        \
		int rc;                          \
                                                 \
		if (depth)                       \
			return PMPI_##name args; \
		depth++;                         \
		rc = PMPI_##name args;           \
		depth--;                         \
		return rc;                       \
	}

FORWARD(Send, (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
	(buf, count, type, dest, tag, comm))
FORWARD(Recv,
	(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	 MPI_Status *status),
	(buf, count, type, source, tag, comm, status))
FORWARD(Isend,
	(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	 MPI_Request *request),
	(buf, count, type, dest, tag, comm, request))
FORWARD(Irecv,
	(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	 MPI_Request *request),
	(buf, count, type, source, tag, comm, request))
FORWARD(Wait, (MPI_Request * request, MPI_Status *status), (request, status))
FORWARD(Waitall, (int count, MPI_Request requests[], MPI_Status statuses[]),
	(count, requests, statuses))
