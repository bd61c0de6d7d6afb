/* The program's side of replay's divergence check: for each call that has an envelope, what
 * the recorder would write for it (destination or source and root as world ranks, tag,
 * communicator id, message size), taken from the program's own arguments before the replayer
 * forces anything. recorder/rec_p2p.c and rec_coll.c follow the same conventions. */
#include "replayer.h"
#include "rec_comm.h"
#include "rec_win.h"

/* A point-to-point call's envelope. */
static void rep_env_p2p(struct rep_call *c, int count, MPI_Datatype type, int peer, int tag,
			MPI_Comm comm)
{
	c->peer = rec_comm_to_world(comm, peer);
	c->tag = rec_comm_tag(tag);
	c->comm = rec_comm_id(comm);
	c->bytes = rec_comm_bytes(count, type);
	c->has_bytes = 1;
}

/* A probe's envelope (and a send-receive's send side): no message size. */
static void rep_env_probe(struct rep_call *c, int peer, int tag, MPI_Comm comm)
{
	c->peer = rec_comm_to_world(comm, peer);
	c->tag = rec_comm_tag(tag);
	c->comm = rec_comm_id(comm);
}

/* A collective's: its communicator, and its root as a world rank (MPI_PROC_NULL: none). */
static void rep_env_coll(struct rep_call *c, MPI_Comm comm, int root)
{
	c->comm = rec_comm_id(comm);
	if (root != MPI_PROC_NULL)
		c->root = rec_comm_to_world(comm, root);
}

/* A nonblocking collective's: as a blocking one's, and the request it makes, whose wait
 * completes its barrier too when it must synchronise (rep_request.c). */
static void rep_env_icoll(struct rep_call *c, MPI_Comm comm, int root, MPI_Request *request)
{
	rep_env_coll(c, comm, root);
	c->mpicomm = comm;
	c->made = request;
}

/* ---- point to point ---- */

void rep_env_Send(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype, int dest,
	          int tag, MPI_Comm comm)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
}

void rep_env_Ssend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	           int dest, int tag, MPI_Comm comm)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
}

void rep_env_Bsend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	           int dest, int tag, MPI_Comm comm)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
}

void rep_env_Rsend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	           int dest, int tag, MPI_Comm comm)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
}

void rep_env_Isend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	           int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Issend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	            int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Ibsend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	            int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Irsend(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	            int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Send_init(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	               int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Bsend_init(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	                int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Ssend_init(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	                int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Rsend_init(struct rep_call *c, const void *buf, int count, MPI_Datatype datatype,
	                int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, dest, tag, comm);
	c->made = request;
}

void rep_env_Recv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int source,
	          int tag, MPI_Comm comm, MPI_Status *status)
{
	rep_env_p2p(c, count, datatype, source, tag, comm);
}

void rep_env_Irecv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype, int source,
	           int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, source, tag, comm);
	c->made = request;
}

void rep_env_Recv_init(struct rep_call *c, void *buf, int count, MPI_Datatype datatype,
	               int source, int tag, MPI_Comm comm, MPI_Request *request)
{
	rep_env_p2p(c, count, datatype, source, tag, comm);
	c->made = request;
}

/* no envelope: the probe matched its message; only the request it makes */
void rep_env_Imrecv(struct rep_call *c, void *buf, int count, MPI_Datatype datatype,
		    MPI_Message *message, MPI_Request *request)
{
	c->made = request;
}

/* ---- probes, and send-receive (whose peer and tag are the send's) ---- */

void rep_env_Probe(struct rep_call *c, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	rep_env_probe(c, source, tag, comm);
}

void rep_env_Iprobe(struct rep_call *c, int source, int tag, MPI_Comm comm, int *flag,
	            MPI_Status *status)
{
	rep_env_probe(c, source, tag, comm);
}

void rep_env_Mprobe(struct rep_call *c, int source, int tag, MPI_Comm comm, MPI_Message *message,
	            MPI_Status *status)
{
	rep_env_probe(c, source, tag, comm);
}

void rep_env_Improbe(struct rep_call *c, int source, int tag, MPI_Comm comm, int *flag,
	             MPI_Message *message, MPI_Status *status)
{
	rep_env_probe(c, source, tag, comm);
}

void rep_env_Sendrecv(struct rep_call *c, const void *sendbuf, int sendcount,
	              MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount,
	              MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
	              MPI_Status *status)
{
	rep_env_probe(c, dest, sendtag, comm);
}

void rep_env_Sendrecv_replace(struct rep_call *c, void *buf, int count, MPI_Datatype datatype,
	                      int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
	                      MPI_Status *status)
{
	rep_env_probe(c, dest, sendtag, comm);
}

/* ---- collectives ---- */

void rep_env_Barrier(struct rep_call *c, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Bcast(struct rep_call *c, void *buffer, int count, MPI_Datatype datatype, int root,
	           MPI_Comm comm)
{
	rep_env_coll(c, comm, root);
}

void rep_env_Reduce(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	            MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
	rep_env_coll(c, comm, root);
}

void rep_env_Allreduce(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Gather(struct rep_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	rep_env_coll(c, comm, root);
}

void rep_env_Gatherv(struct rep_call *c, const void *sendbuf, int sendcount,
	             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
	             const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	rep_env_coll(c, comm, root);
}

void rep_env_Scatter(struct rep_call *c, const void *sendbuf, int sendcount,
	             MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
	             int root, MPI_Comm comm)
{
	rep_env_coll(c, comm, root);
}

void rep_env_Scatterv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
	              const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
	              MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	rep_env_coll(c, comm, root);
}

void rep_env_Allgather(struct rep_call *c, const void *sendbuf, int sendcount,
	               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
	               MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Allgatherv(struct rep_call *c, const void *sendbuf, int sendcount,
	                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
	                const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Alltoall(struct rep_call *c, const void *sendbuf, int sendcount,
	              MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
	              MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Alltoallv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
	               const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
	               const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
	               MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Alltoallw(struct rep_call *c, const void *sendbuf, const int sendcounts[],
	               const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
	               const int recvcounts[], const int rdispls[],
	               const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Reduce_scatter(struct rep_call *c, const void *sendbuf, void *recvbuf,
	                    const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
	                    MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Reduce_scatter_block(struct rep_call *c, const void *sendbuf, void *recvbuf,
	                          int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Scan(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Exscan(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Ibarrier(struct rep_call *c, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ibcast(struct rep_call *c, void *buffer, int count, MPI_Datatype datatype, int root,
	            MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, root, request);
}

void rep_env_Ireduce(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	             MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
	             MPI_Request *request)
{
	rep_env_icoll(c, comm, root, request);
}

void rep_env_Iallreduce(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Igather(struct rep_call *c, const void *sendbuf, int sendcount,
	             MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
	             int root, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, root, request);
}

void rep_env_Igatherv(struct rep_call *c, const void *sendbuf, int sendcount,
	              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
	              const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
	              MPI_Request *request)
{
	rep_env_icoll(c, comm, root, request);
}

void rep_env_Iscatter(struct rep_call *c, const void *sendbuf, int sendcount,
	              MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
	              int root, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, root, request);
}

void rep_env_Iscatterv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
	               const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
	               MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, root, request);
}

void rep_env_Iallgather(struct rep_call *c, const void *sendbuf, int sendcount,
	                MPI_Datatype sendtype, void *recvbuf, int recvcount,
	                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Iallgatherv(struct rep_call *c, const void *sendbuf, int sendcount,
	                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
	                 const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
	                 MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ialltoall(struct rep_call *c, const void *sendbuf, int sendcount,
	               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
	               MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ialltoallv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
	                const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
	                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
	                MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ialltoallw(struct rep_call *c, const void *sendbuf, const int sendcounts[],
	                const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
	                const int recvcounts[], const int rdispls[],
	                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ireduce_scatter(struct rep_call *c, const void *sendbuf, void *recvbuf,
	                     const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
	                     MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ireduce_scatter_block(struct rep_call *c, const void *sendbuf, void *recvbuf,
	                           int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
	                           MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Iscan(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Iexscan(struct rep_call *c, const void *sendbuf, void *recvbuf, int count,
	             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

/* ---- one-sided: the window, and the target as a world rank (recorder/rec_rma.c) ---- */

void rep_env_Win_create(struct rep_call *c, void *base, MPI_Aint size, int disp_unit,
			MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	c->comm = rec_comm_id(comm);
}

void rep_env_Win_allocate(struct rep_call *c, MPI_Aint size, int disp_unit, MPI_Info info,
			  MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	c->comm = rec_comm_id(comm);
}

void rep_env_Win_allocate_shared(struct rep_call *c, MPI_Aint size, int disp_unit,
				 MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	c->comm = rec_comm_id(comm);
}

void rep_env_Win_create_dynamic(struct rep_call *c, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	c->comm = rec_comm_id(comm);
}

void rep_env_Win_free(struct rep_call *c, MPI_Win *win)
{
	c->win = rec_win_id(*win);
}

void rep_env_Win_fence(struct rep_call *c, int assert, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_post(struct rep_call *c, MPI_Group group, int assert, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_start(struct rep_call *c, MPI_Group group, int assert, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_complete(struct rep_call *c, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_wait(struct rep_call *c, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_test(struct rep_call *c, MPI_Win win, int *flag)
{
	c->win = rec_win_id(win);
}

/* A call naming a target rank of its window. */
static void rep_env_target(struct rep_call *c, int rank, MPI_Win win)
{
	c->win = rec_win_id(win);
	c->peer = rec_win_to_world(win, rank);
}

void rep_env_Win_lock(struct rep_call *c, int lock_type, int rank, int assert, MPI_Win win)
{
	rep_env_target(c, rank, win);
}

void rep_env_Win_unlock(struct rep_call *c, int rank, MPI_Win win)
{
	rep_env_target(c, rank, win);
}

void rep_env_Win_lock_all(struct rep_call *c, int assert, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_unlock_all(struct rep_call *c, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_flush(struct rep_call *c, int rank, MPI_Win win)
{
	rep_env_target(c, rank, win);
}

void rep_env_Win_flush_all(struct rep_call *c, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Win_flush_local(struct rep_call *c, int rank, MPI_Win win)
{
	rep_env_target(c, rank, win);
}

void rep_env_Win_flush_local_all(struct rep_call *c, MPI_Win win)
{
	c->win = rec_win_id(win);
}

void rep_env_Put(struct rep_call *c, const void *origin_addr, int origin_count,
		 MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		 int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
	rep_env_target(c, target_rank, win);
}

void rep_env_Get(struct rep_call *c, void *origin_addr, int origin_count,
		 MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		 int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
	rep_env_target(c, target_rank, win);
}

void rep_env_Accumulate(struct rep_call *c, const void *origin_addr, int origin_count,
			MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	rep_env_target(c, target_rank, win);
}

/* ---- neighbourhood collectives: the communicator, as other collectives; the in-neighbours
 * follow from it (the topology is the communicator's) ---- */

void rep_env_Neighbor_allgather(struct rep_call *c, const void *sendbuf, int sendcount,
				MPI_Datatype sendtype, void *recvbuf, int recvcount,
				MPI_Datatype recvtype, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Neighbor_allgatherv(struct rep_call *c, const void *sendbuf, int sendcount,
				 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
				 const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Neighbor_alltoall(struct rep_call *c, const void *sendbuf, int sendcount,
			       MPI_Datatype sendtype, void *recvbuf, int recvcount,
			       MPI_Datatype recvtype, MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Neighbor_alltoallv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
				const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
				const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
				MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Neighbor_alltoallw(struct rep_call *c, const void *sendbuf, const int sendcounts[],
				const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
				const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	rep_env_coll(c, comm, MPI_PROC_NULL);
}

void rep_env_Ineighbor_allgather(struct rep_call *c, const void *sendbuf, int sendcount,
				 MPI_Datatype sendtype, void *recvbuf, int recvcount,
				 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ineighbor_allgatherv(struct rep_call *c, const void *sendbuf, int sendcount,
				  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
				  const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
				  MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ineighbor_alltoall(struct rep_call *c, const void *sendbuf, int sendcount,
				MPI_Datatype sendtype, void *recvbuf, int recvcount,
				MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ineighbor_alltoallv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
				 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
				 const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
				 MPI_Comm comm, MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}

void rep_env_Ineighbor_alltoallw(struct rep_call *c, const void *sendbuf, const int sendcounts[],
				 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
				 const MPI_Datatype recvtypes[], MPI_Comm comm,
				 MPI_Request *request)
{
	rep_env_icoll(c, comm, MPI_PROC_NULL, request);
}
