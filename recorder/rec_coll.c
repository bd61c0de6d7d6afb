/* Collective handlers of the recorder: the communicator (and, for rooted collectives, the
 * root as a world rank) is what the model needs to match them across ranks; the wrapper
 * records it (env_coll.c) before the handler runs. The handlers of the collectives with
 * arrays of counts are copied, with the large-count call in place of the twin's, for their
 * large-count forms (MPI_Gatherv_c, ...: base/gen_large_count.py, which stops if one is not
 * what it copies). */
#include "recorder.h"
#include "rec_coll.h"
#include "rec_comm.h"
#include "rec_topo.h"

int rec_Barrier(struct rec_call *c, MPI_Comm comm)
{
	int rc;

	rec_call_posted(c);
	rc = PMPI_Barrier(comm);
	rec_call_returned(c);
	return rc;
}

/* Nonblocking collectives make a request, completed at its wait (synchronising there under
 * zero steering). */
void rec_coll_request(struct rec_call *c, int rc, MPI_Request *request, MPI_Comm comm)
{
	if (rc != MPI_SUCCESS)
		return;
	rec_call_made_request(c, request);
	rec_steer_icoll_made(comm, *request);
}

int rec_Bcast(struct rec_call *c, void *buffer, int count, MPI_Datatype datatype, int root,
	      MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Bcast(buffer, count, datatype, root, comm), comm);
}

int rec_Reduce(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
	COLL_REDUCE(PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm), comm,
		    REC_RED_REDUCE, sendbuf, recvbuf, count, NULL, NULL, datatype, op, root, comm);
}

int rec_Allreduce(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	COLL_REDUCE(PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm), comm, REC_RED_ALL,
		    sendbuf, recvbuf, count, NULL, NULL, datatype, op, 0, comm);
}

int rec_Gather(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
				  comm),
		      comm);
}

int rec_Gatherv(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		int root, MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
				   recvtype, root, comm),
		      comm);
}

int rec_Scatter(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
				   comm),
		      comm);
}

int rec_Scatterv(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
				    recvtype, root, comm),
		      comm);
}

int rec_Allgather(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
				     comm),
		      comm);
}

int rec_Allgatherv(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		   MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
				      recvtype, comm),
		      comm);
}

int rec_Alltoall(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
				    comm),
		      comm);
}

int rec_Alltoallv(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
				     rdispls, recvtype, comm),
		      comm);
}

int rec_Alltoallw(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		  const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
		  MPI_Comm comm)
{
	COLL_BLOCKING(PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
				     rdispls, recvtypes, comm),
		      comm);
}

int rec_Reduce_scatter(struct rec_call *c, const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	COLL_REDUCE(PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm), comm,
		    REC_RED_SCATTER, sendbuf, recvbuf, 0, recvcounts, NULL, datatype, op, 0, comm);
}

int rec_Reduce_scatter_block(struct rec_call *c, const void *sendbuf, void *recvbuf, int recvcount,
			     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	COLL_REDUCE(PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm),
		    comm, REC_RED_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL, NULL, datatype,
		    op, 0, comm);
}

int rec_Scan(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
	     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	COLL_REDUCE(PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm), comm, REC_RED_SCAN,
		    sendbuf, recvbuf, count, NULL, NULL, datatype, op, 0, comm);
}

int rec_Exscan(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	COLL_REDUCE(PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm), comm, REC_RED_EXSCAN,
		    sendbuf, recvbuf, count, NULL, NULL, datatype, op, 0, comm);
}

int rec_Ibarrier(struct rec_call *c, MPI_Comm comm, MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Ibarrier(comm, request), request, comm);
}

int rec_Ibcast(struct rec_call *c, void *buffer, int count, MPI_Datatype datatype, int root,
	       MPI_Comm comm, MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Ibcast(buffer, count, datatype, root, comm, request), request, comm);
}

int rec_Ireduce(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
	COLL_IREDUCE(PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request),
		     request, comm, REC_RED_REDUCE, sendbuf, recvbuf, count, NULL, NULL, datatype,
		     op, root, comm);
}

int rec_Iallreduce(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	COLL_IREDUCE(PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request), request,
		     comm, REC_RED_ALL, sendbuf, recvbuf, count, NULL, NULL, datatype, op, 0, comm);
}

int rec_Igather(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
				      root, comm, request),
			 request, comm);
}

int rec_Igatherv(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		 int root, MPI_Comm comm, MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
				       recvtype, root, comm, request),
			 request, comm);
}

int rec_Iscatter(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
				       root, comm, request),
			 request, comm);
}

int rec_Iscatterv(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
					recvtype, root, comm, request),
			 request, comm);
}

int rec_Iallgather(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		   MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
					 comm, request),
			 request, comm);
}

int rec_Iallgatherv(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
					  recvtype, comm, request),
			 request, comm);
}

int rec_Ialltoall(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		  MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
					comm, request),
			 request, comm);
}

int rec_Ialltoallv(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
		   MPI_Comm comm, MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
					 recvcounts, rdispls, recvtype, comm, request),
			 request, comm);
}

int rec_Ialltoallw(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		   const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
		   MPI_Comm comm, MPI_Request *request)
{
	COLL_NONBLOCKING(PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
					 recvcounts, rdispls, recvtypes, comm, request),
			 request, comm);
}

int rec_Ireduce_scatter(struct rec_call *c, const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			MPI_Request *request)
{
	COLL_IREDUCE(PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm,
					  request),
		     request, comm, REC_RED_SCATTER, sendbuf, recvbuf, 0, recvcounts, NULL,
		     datatype, op, 0, comm);
}

int rec_Ireduce_scatter_block(struct rec_call *c, const void *sendbuf, void *recvbuf, int recvcount,
			      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	COLL_IREDUCE(PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
						request),
		     request, comm, REC_RED_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL, NULL,
		     datatype, op, 0, comm);
}

int rec_Iscan(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	COLL_IREDUCE(PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request), request,
		     comm, REC_RED_SCAN, sendbuf, recvbuf, count, NULL, NULL, datatype, op, 0,
		     comm);
}

int rec_Iexscan(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	COLL_IREDUCE(PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request), request,
		     comm, REC_RED_EXSCAN, sendbuf, recvbuf, count, NULL, NULL, datatype, op, 0,
		     comm);
}

/* Neighbourhood collectives (MPI-4.1 chapter 8): as the others, and the caller's
 * in-neighbours as the event's group (rec_topo.h), which is whom it waits for with buffering.
 * The bytes of the v and w forms, whose counts go by neighbour, are not recorded (0). */
void rec_coll_neighbors(struct rec_call *c, MPI_Comm comm)
{
	int n;

	c->ev.group = rec_topo_in_neighbors(comm, &n);
	c->ev.ngroup = n > 0 ? (uint32_t)n : 0;
}

int rec_Neighbor_allgather(struct rec_call *c, const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm)
{
	rec_coll_neighbors(c, comm);
	COLL_BLOCKING(PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
					      recvtype, comm),
		      comm);
}

int rec_Neighbor_allgatherv(struct rec_call *c, const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	rec_coll_neighbors(c, comm);
	COLL_BLOCKING(PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
					       displs, recvtype, comm),
		      comm);
}

int rec_Neighbor_alltoall(struct rec_call *c, const void *sendbuf, int sendcount,
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm)
{
	rec_coll_neighbors(c, comm);
	COLL_BLOCKING(PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
					     recvtype, comm),
		      comm);
}

int rec_Neighbor_alltoallv(struct rec_call *c, const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			   const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm)
{
	rec_coll_neighbors(c, comm);
	COLL_BLOCKING(PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
					      recvcounts, rdispls, recvtype, comm),
		      comm);
}

int rec_Neighbor_alltoallw(struct rec_call *c, const void *sendbuf, const int sendcounts[],
			   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			   const int recvcounts[], const MPI_Aint rdispls[],
			   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	rec_coll_neighbors(c, comm);
	COLL_BLOCKING(PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
					      recvcounts, rdispls, recvtypes, comm),
		      comm);
}

int rec_Ineighbor_allgather(struct rec_call *c, const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf, int recvcount,
			    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_NONBLOCKING(PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
						  recvtype, comm, request),
			 request, comm);
}

int rec_Ineighbor_allgatherv(struct rec_call *c, const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			     const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
			     MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_NONBLOCKING(PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf,
						   recvcounts, displs, recvtype, comm, request),
			 request, comm);
}

int rec_Ineighbor_alltoall(struct rec_call *c, const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_NONBLOCKING(PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
						 recvtype, comm, request),
			 request, comm);
}

int rec_Ineighbor_alltoallv(struct rec_call *c, const void *sendbuf, const int sendcounts[],
			    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			    MPI_Comm comm, MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_NONBLOCKING(PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
						  recvcounts, rdispls, recvtype, comm, request),
			 request, comm);
}

int rec_Ineighbor_alltoallw(struct rec_call *c, const void *sendbuf, const int sendcounts[],
			    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			    const int recvcounts[], const MPI_Aint rdispls[],
			    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_NONBLOCKING(PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
						  recvcounts, rdispls, recvtypes, comm, request),
			 request, comm);
}

#if MPI_VERSION >= 4
/* ---- persistent collectives (MPI-4): a request each MPI_Start starts as a nonblocking
 * collective (the translator), made by a collective call that does not wait ---- */
int rec_Barrier_init(struct rec_call *c, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Barrier_init(comm, info, request), request);
}

int rec_Bcast_init(struct rec_call *c, void *buffer, int count, MPI_Datatype datatype, int root,
		   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request),
			request);
}

int rec_Reduce_init(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info,
					 request),
			request);
}

int rec_Allreduce_init(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		       MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info,
					    request),
			request);
}

int rec_Gather_init(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		    MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
					 root, comm, info, request),
			request);
}

int rec_Scatter_init(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		     MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
					  recvtype, root, comm, info, request),
			request);
}

int rec_Allgather_init(struct rec_call *c, const void *sendbuf, int sendcount,
		       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
					    recvtype, comm, info, request),
			request);
}

int rec_Alltoall_init(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
					   recvtype, comm, info, request),
			request);
}

int rec_Scan_init(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		  MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request),
			request);
}

int rec_Exscan_init(struct rec_call *c, const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info,
					 request),
			request);
}

int rec_Reduce_scatter_block_init(struct rec_call *c, const void *sendbuf, void *recvbuf,
				  int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
				  MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op,
						       comm, info, request),
			request);
}

int rec_Gatherv_init(struct rec_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, const int recvcounts[], const int displs[],
		     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		     MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
					  recvtype, root, comm, info, request),
			request);
}

int rec_Scatterv_init(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		      const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
		      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		      MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf,
					   recvcount, recvtype, root, comm, info, request),
			request);
}

int rec_Allgatherv_init(struct rec_call *c, const void *sendbuf, int sendcount,
			MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
					     displs, recvtype, comm, info, request),
			request);
}

int rec_Alltoallv_init(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		       const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		       const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
					    recvcounts, rdispls, recvtype, comm, info, request),
			request);
}

int rec_Alltoallw_init(struct rec_call *c, const void *sendbuf, const int sendcounts[],
		       const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		       const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
					    recvcounts, rdispls, recvtypes, comm, info, request),
			request);
}

int rec_Reduce_scatter_init(struct rec_call *c, const void *sendbuf, void *recvbuf,
			    const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			    MPI_Info info, MPI_Request *request)
{
	COLL_PERSISTENT(PMPI_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm,
						 info, request),
			request);
}


/* The persistent neighbourhood collectives: the in-neighbours, as their nonblocking twins
 * record them, and the request (a template each MPI_Start starts). */
int rec_Neighbor_allgather_init(struct rec_call *c, const void *sendbuf, int sendcount,
				MPI_Datatype sendtype, void *recvbuf, int recvcount,
				MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_PERSISTENT(PMPI_Neighbor_allgather_init(sendbuf, sendcount, sendtype, recvbuf,
						     recvcount, recvtype, comm, info, request),
			request);
}

int rec_Neighbor_allgatherv_init(struct rec_call *c, const void *sendbuf, int sendcount,
				 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
				 const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
				 MPI_Info info, MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_PERSISTENT(PMPI_Neighbor_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf,
						      recvcounts, displs, recvtype, comm, info,
						      request),
			request);
}

int rec_Neighbor_alltoall_init(struct rec_call *c, const void *sendbuf, int sendcount,
			       MPI_Datatype sendtype, void *recvbuf, int recvcount,
			       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			       MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_PERSISTENT(PMPI_Neighbor_alltoall_init(sendbuf, sendcount, sendtype, recvbuf,
						    recvcount, recvtype, comm, info, request),
			request);
}

int rec_Neighbor_alltoallv_init(struct rec_call *c, const void *sendbuf, const int sendcounts[],
				const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
				const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
				MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_PERSISTENT(PMPI_Neighbor_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype,
						     recvbuf, recvcounts, rdispls, recvtype, comm,
						     info, request),
			request);
}

int rec_Neighbor_alltoallw_init(struct rec_call *c, const void *sendbuf, const int sendcounts[],
				const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
				const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
				MPI_Request *request)
{
	rec_coll_neighbors(c, comm);
	COLL_PERSISTENT(PMPI_Neighbor_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes,
						     recvbuf, recvcounts, rdispls, recvtypes, comm,
						     info, request),
			request);
}
#endif
