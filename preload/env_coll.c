/* Envelopes of the collectives (env.h): the communicator, the root as a world rank (rooted
 * ones), and the bytes this rank contributes, which the trace records and replay does not
 * compare. Nonblocking ones also make a request. And what the large-count collectives'
 * arrays hold, for base/gen_large_count.py's code. */
#include <limits.h>
#include <stdlib.h>

#include "env.h"
#include "rec_comm.h"
#include "rec_topo.h"

/* The root argument of a collective that has none (not MPIV_NONE: MPICH's MPI_ROOT is -3 too). */
#define NO_ROOT INT_MIN

/* A collective's; root NO_ROOT: none. On an intercommunicator the root's group passes MPI_ROOT
 * (the root: its own world rank) or MPI_PROC_NULL (MPIV_PROC_NULL), the other group the
 * root's rank in the remote group (doc/semantics.md 6.3). */
static void env_coll(struct mpiv_env *e, MPI_Comm comm, int root, uint64_t bytes)
{
	e->comm = rec_comm_id(comm);
	if (root == MPI_ROOT)
		e->root = rec_comm_to_world(MPI_COMM_SELF, 0);
	else if (root != NO_ROOT)
		e->root = rec_comm_to_world(comm, root);
	e->bytes = bytes;
}

/* A nonblocking one's: as a blocking one's, and the request it makes, whose wait completes
 * replay's barrier too when it must synchronise (replayer/rep_request.c). */
static void env_icoll(struct mpiv_env *e, MPI_Comm comm, int root, uint64_t bytes,
		      MPI_Request *request)
{
	env_coll(e, comm, root, bytes);
	e->request = request;
	e->mpicomm = comm;
}

/* The size of comm's remote group if it is an intercommunicator and remote, else of its own. */
static int group_size(MPI_Comm comm, int remote)
{
	int inter, n;

	if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
		return -1;
	if (inter && remote)
		return PMPI_Comm_remote_size(comm, &n) == MPI_SUCCESS ? n : -1;
	return PMPI_Comm_size(comm, &n) == MPI_SUCCESS ? n : -1;
}

/* The bytes of a v or w collective: counts[i] elements of type (or types[i]) for every
 * member of comm, or of its remote group on an intercommunicator if remote (an all-to-all's
 * counts go by the ranks it exchanges with; a reduce-scatter's by its own group's, MPI-4.1
 * 6.10.2). */
static uint64_t bytes_v(const int counts[], MPI_Datatype type, const MPI_Datatype types[],
			MPI_Comm comm, int remote)
{
	uint64_t sum = 0;
	int n, i;

	if (!counts || (n = group_size(comm, remote)) < 0)
		return 0;
	for (i = 0; i < n; i++)
		sum += rec_comm_bytes(counts[i], types ? types[i] : type);
	return sum;
}

/* The bytes an all-to-all v or w sends: of its send counts and type(s), or, in place, of its
 * receive ones (MPI ignores the send arguments then, and a program may leave them unset). */
static uint64_t bytes_alltoall(const void *sendbuf, const int sendcounts[], MPI_Datatype sendtype,
			       const MPI_Datatype sendtypes[], const int recvcounts[],
			       MPI_Datatype recvtype, const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	if (sendbuf == MPI_IN_PLACE)
		return bytes_v(recvcounts, recvtype, recvtypes, comm, 1);
	return bytes_v(sendcounts, sendtype, sendtypes, comm, 1);
}

/* ---- blocking ---- */

void env_Barrier(struct mpiv_env *e, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, 0);
}

void env_Bcast(struct mpiv_env *e, void *buffer, int count, MPI_Datatype datatype, int root,
	       MPI_Comm comm)
{
	env_coll(e, comm, root, rec_comm_bytes(count, datatype));
}

void env_Reduce(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
	env_coll(e, comm, root, rec_comm_bytes(count, datatype));
}

void env_Allreduce(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(count, datatype));
}

void env_Gather(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	env_coll(e, comm, root, rec_comm_bytes(sendcount, sendtype));
}

void env_Gatherv(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		 int root, MPI_Comm comm)
{
	env_coll(e, comm, root, rec_comm_bytes(sendcount, sendtype));
}

void env_Scatter(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	env_coll(e, comm, root, rec_comm_bytes(recvcount, recvtype));
}

void env_Scatterv(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	env_coll(e, comm, root, rec_comm_bytes(recvcount, recvtype));
}

void env_Allgather(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype));
}

void env_Allgatherv(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype));
}

void env_Alltoall(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype));
}

void env_Alltoallv(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
		   MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT,
		 bytes_alltoall(sendbuf, sendcounts, sendtype, NULL, recvcounts, recvtype, NULL,
				comm));
}

void env_Alltoallw(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		   const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
		   MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT,
		 bytes_alltoall(sendbuf, sendcounts, MPI_DATATYPE_NULL, sendtypes, recvcounts,
				MPI_DATATYPE_NULL, recvtypes, comm));
}

void env_Reduce_scatter(struct mpiv_env *e, const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, bytes_v(recvcounts, datatype, NULL, comm, 0));
}

void env_Reduce_scatter_block(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int recvcount,
			      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(recvcount, datatype));
}

void env_Scan(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(count, datatype));
}

void env_Exscan(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(count, datatype));
}

/* a local reduction (the reduction check's own call): its size only */
void env_Reduce_local(struct mpiv_env *e, const void *inbuf, void *inoutbuf, int count,
		      MPI_Datatype datatype, MPI_Op op)
{
	e->bytes = rec_comm_bytes(count, datatype);
}

/* ---- nonblocking ---- */

void env_Ibarrier(struct mpiv_env *e, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, 0, request);
}

void env_Ibcast(struct mpiv_env *e, void *buffer, int count, MPI_Datatype datatype, int root,
		MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, root, rec_comm_bytes(count, datatype), request);
}

void env_Ireduce(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		 MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, root, rec_comm_bytes(count, datatype), request);
}

void env_Iallreduce(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(count, datatype), request);
}

void env_Igather(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	env_icoll(e, comm, root, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Igatherv(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		  int root, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, root, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Iscatter(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		  MPI_Request *request)
{
	env_icoll(e, comm, root, rec_comm_bytes(sendcount, sendtype), request);
}

/* no size: the trace has always recorded none for it */
void env_Iscatterv(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
		   const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
		   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, root, 0, request);
}

void env_Iallgather(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		    MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Iallgatherv(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, const int recvcounts[], const int displs[],
		     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Ialltoall(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		   MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Ialltoallv(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
		    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
		    MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT,
		  bytes_alltoall(sendbuf, sendcounts, sendtype, NULL, recvcounts, recvtype, NULL,
				 comm),
		  request);
}

void env_Ialltoallw(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
		    const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		    const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
		    MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT,
		  bytes_alltoall(sendbuf, sendcounts, MPI_DATATYPE_NULL, sendtypes, recvcounts,
				 MPI_DATATYPE_NULL, recvtypes, comm),
		  request);
}

void env_Ireduce_scatter(struct mpiv_env *e, const void *sendbuf, void *recvbuf,
			 const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			 MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, bytes_v(recvcounts, datatype, NULL, comm, 0), request);
}

void env_Ireduce_scatter_block(struct mpiv_env *e, const void *sendbuf, void *recvbuf,
			       int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			       MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(recvcount, datatype), request);
}

void env_Iscan(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(count, datatype), request);
}

void env_Iexscan(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(count, datatype), request);
}

/* ---- neighbourhood collectives (MPI-4.1 chapter 8): no root; the bytes of the v and w
 * forms, whose counts go by neighbour, are not recorded (0). The in-neighbours are the
 * recorder's to write (recorder/rec_coll.c): replay does not compare them ---- */

void env_Neighbor_allgather(struct mpiv_env *e, const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf, int recvcount,
			    MPI_Datatype recvtype, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype));
}

void env_Neighbor_allgatherv(struct mpiv_env *e, const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			     const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype));
}

void env_Neighbor_alltoall(struct mpiv_env *e, const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype));
}

void env_Neighbor_alltoallv(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
			    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			    MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, 0);
}

void env_Neighbor_alltoallw(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
			    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			    const int recvcounts[], const MPI_Aint rdispls[],
			    const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	env_coll(e, comm, NO_ROOT, 0);
}

void env_Ineighbor_allgather(struct mpiv_env *e, const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, void *recvbuf, int recvcount,
			     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Ineighbor_allgatherv(struct mpiv_env *e, const void *sendbuf, int sendcount,
			      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			      const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
			      MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Ineighbor_alltoall(struct mpiv_env *e, const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf, int recvcount,
			    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, rec_comm_bytes(sendcount, sendtype), request);
}

void env_Ineighbor_alltoallv(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
			     const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			     const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			     MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, 0, request);
}

void env_Ineighbor_alltoallw(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
			     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
			     void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
			     const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
	env_icoll(e, comm, NO_ROOT, 0, request);
}

#if MPI_VERSION >= 4
/* ---- persistent collectives (MPI-4): the envelope of their nonblocking collective, whose
 * request each MPI_Start starts; without the synchronisation replay gives a nonblocking
 * collective (env_icoll()): the model orders their starts ---- */

void env_Barrier_init(struct mpiv_env *e, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Ibarrier(e, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Bcast_init(struct mpiv_env *e, void *buffer, int count, MPI_Datatype datatype, int root,
		    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Ibcast(e, buffer, count, datatype, root, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Reduce_init(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
		     MPI_Request *request)
{
	env_Ireduce(e, sendbuf, recvbuf, count, datatype, op, root, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Allreduce_init(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
			MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			MPI_Request *request)
{
	env_Iallreduce(e, sendbuf, recvbuf, count, datatype, op, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Gather_init(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		     MPI_Info info, MPI_Request *request)
{
	env_Igather(e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
		    request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Scatter_init(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request)
{
	env_Iscatter(e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
		     request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Allgather_init(struct mpiv_env *e, const void *sendbuf, int sendcount,
			MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
			MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Iallgather(e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
		       request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Alltoall_init(struct mpiv_env *e, const void *sendbuf, int sendcount,
		       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Ialltoall(e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Scan_init(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		   MPI_Request *request)
{
	env_Iscan(e, sendbuf, recvbuf, count, datatype, op, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Exscan_init(struct mpiv_env *e, const void *sendbuf, void *recvbuf, int count,
		     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		     MPI_Request *request)
{
	env_Iexscan(e, sendbuf, recvbuf, count, datatype, op, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Reduce_scatter_block_init(struct mpiv_env *e, const void *sendbuf, void *recvbuf,
				   int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
				   MPI_Info info, MPI_Request *request)
{
	env_Ireduce_scatter_block(e, sendbuf, recvbuf, recvcount, datatype, op, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Gatherv_init(struct mpiv_env *e, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, const int recvcounts[], const int displs[],
		      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		      MPI_Request *request)
{
	env_Igatherv(e, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
		     comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Scatterv_init(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
		       const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
		       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		       MPI_Request *request)
{
	env_Iscatterv(e, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
		      comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Allgatherv_init(struct mpiv_env *e, const void *sendbuf, int sendcount,
			 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			 const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			 MPI_Request *request)
{
	env_Iallgatherv(e, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
			comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Alltoallv_init(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
			const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Ialltoallv(e, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
		       recvtype, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Alltoallw_init(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
			const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
			MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Ialltoallw(e, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
		       recvtypes, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Reduce_scatter_init(struct mpiv_env *e, const void *sendbuf, void *recvbuf,
			     const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
			     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Ireduce_scatter(e, sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}


/* The persistent neighbourhood collectives: their nonblocking twins' envelopes, the
 * communicator not to be followed (as the other persistent collectives'). */
void env_Neighbor_allgather_init(struct mpiv_env *e, const void *sendbuf, int sendcount,
				 MPI_Datatype sendtype, void *recvbuf, int recvcount,
				 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				 MPI_Request *request)
{
	env_Ineighbor_allgather(e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
				request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Neighbor_allgatherv_init(struct mpiv_env *e, const void *sendbuf, int sendcount,
				  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
				  const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
				  MPI_Info info, MPI_Request *request)
{
	env_Ineighbor_allgatherv(e, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
				 recvtype, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Neighbor_alltoall_init(struct mpiv_env *e, const void *sendbuf, int sendcount,
				MPI_Datatype sendtype, void *recvbuf, int recvcount,
				MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				MPI_Request *request)
{
	env_Ineighbor_alltoall(e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
			       request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Neighbor_alltoallv_init(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
				 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
				 const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
				 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	env_Ineighbor_alltoallv(e, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
				rdispls, recvtype, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}

void env_Neighbor_alltoallw_init(struct mpiv_env *e, const void *sendbuf, const int sendcounts[],
				 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
				 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
				 MPI_Request *request)
{
	env_Ineighbor_alltoallw(e, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
				rdispls, recvtypes, comm, request);
	e->mpicomm = MPI_COMM_NULL;
}
#endif

#if MPI_VERSION >= 4
/* ---- the arrays of the large-count collectives (env.h) ---- */

int env_large_len(enum env_large_len len, MPI_Comm comm, int root)
{
	int inter, rank, in, out;

	switch (len) {
	case ENV_LARGE_GROUP:
		return group_size(comm, 1);
	case ENV_LARGE_LOCAL:
		return group_size(comm, 0);
	case ENV_LARGE_ROOT:
		/* MPI-4.1 6.5, 6.6: only the root's arrays are read; on an intercommunicator
		 * the root passes MPI_ROOT, its group's others MPI_PROC_NULL, the other group
		 * the root's rank */
		if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
			return -1;
		if (inter)
			return root == MPI_ROOT ? group_size(comm, 1) : 0;
		if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
			return -1;
		return rank == root ? group_size(comm, 0) : 0;
	case ENV_LARGE_IN:
	case ENV_LARGE_OUT:
		if (rec_topo_degrees(comm, &in, &out))
			return -1;
		return len == ENV_LARGE_IN ? in : out;
	}
	return -1;
}

int env_large_counts_fit(const MPI_Count a[], int n)
{
	int i;

	if (n < 0 || (n > 0 && !a))
		return 0;
	for (i = 0; i < n; i++)
		if (!MPIV_FITS_INT(a[i]))
			return 0;
	return 1;
}

/* a displacement may be negative (from a datatype's lower bound): any int's value fits */
int env_large_aints_fit(const MPI_Aint a[], int n)
{
	int i;

	if (n < 0 || (n > 0 && !a))
		return 0;
	for (i = 0; i < n; i++)
		if (a[i] < INT_MIN || a[i] > INT_MAX)
			return 0;
	return 1;
}

int *env_large_counts(const MPI_Count a[], int n)
{
	int *out = a && n > 0 ? malloc((size_t)n * sizeof(int)) : NULL;
	int i;

	for (i = 0; out && i < n; i++)
		out[i] = (int)a[i];
	return out;
}

int *env_large_aints(const MPI_Aint a[], int n)
{
	int *out = a && n > 0 ? malloc((size_t)n * sizeof(int)) : NULL;
	int i;

	for (i = 0; out && i < n; i++)
		out[i] = (int)a[i];
	return out;
}
#endif
