/* Recorder handlers of the calls that make and free communicators: the event is a collective
 * on the parent (its comm), and on each member the new communicator gets the next rank-local
 * id and its members as world ranks, so that check can tell which communicator of every rank
 * is the same one (doc/trace-format.md, comm record). */
#include "recorder.h"
#include "rec_comm.h"

void rec_call_newcomm(struct rec_call *c, MPI_Comm newcomm, MPI_Comm members_of)
{
	int32_t *members;
	int n;

	if (newcomm == MPI_COMM_NULL)
		return;
	if (rec_reduce_on)
		rec_reduce_comm_made(newcomm, members_of);
	/* registered even if its members cannot be had: the replayer numbers it all the same */
	c->newcomm = rec_comm_register(newcomm);
	if (c->newcomm == MPIV_COMM_UNKNOWN)
		return;
	n = rec_comm_members(members_of, &members);
	if (n <= 0)
		return;
	c->members = members;
	c->nmembers = (uint32_t)n;
	c->bits |= REC_C_MEMBERS;
}

/* A blocking creation: a collective on its parent (the wrapper recorded which, env_comm.c)
 * that gives *newcomm. */
#define COMM_MAKE(call, newcomm)                                     \
	do {                                                         \
		int rc_;                                             \
                                                                     \
		rec_call_posted(c);                                  \
		rc_ = call;                                          \
		rec_call_returned(c);                                \
		if (rc_ == MPI_SUCCESS)                              \
			rec_call_newcomm(c, *(newcomm), *(newcomm)); \
		return rc_;                                          \
	} while (0)

int rec_Comm_dup(struct rec_call *c, MPI_Comm comm, MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Comm_dup(comm, newcomm), newcomm);
}

int rec_Comm_split(struct rec_call *c, MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

int rec_Comm_split_type(struct rec_call *c, MPI_Comm comm, int split_type, int key, MPI_Info info,
			MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), newcomm);
}

int rec_Comm_create(struct rec_call *c, MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int rec_Cart_create(struct rec_call *c, MPI_Comm comm_old, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *comm_cart)
{
	COMM_MAKE(PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart), comm_cart);
}

int rec_Cart_sub(struct rec_call *c, MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

int rec_Comm_dup_with_info(struct rec_call *c, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

int rec_Graph_create(struct rec_call *c, MPI_Comm comm_old, int nnodes, const int indx[],
		     const int edges[], int reorder, MPI_Comm *comm_graph)
{
	COMM_MAKE(PMPI_Graph_create(comm_old, nnodes, indx, edges, reorder, comm_graph),
		  comm_graph);
}

int rec_Dist_graph_create(struct rec_call *c, MPI_Comm comm_old, int n, const int sources[],
			  const int degrees[], const int destinations[], const int weights[],
			  MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
	COMM_MAKE(PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info,
					 reorder, comm_dist_graph),
		  comm_dist_graph);
}

int rec_Dist_graph_create_adjacent(struct rec_call *c, MPI_Comm comm_old, int indegree,
				   const int sources[], const int sourceweights[], int outdegree,
				   const int destinations[], const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *comm_dist_graph)
{
	COMM_MAKE(PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights,
						  outdegree, destinations, destweights, info,
						  reorder, comm_dist_graph),
		  comm_dist_graph);
}

/* Collective over group only; the tag tells concurrent ones on one parent apart. */
int rec_Comm_create_group(struct rec_call *c, MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

#if MPI_VERSION >= 4
int rec_Comm_create_from_group(struct rec_call *c, MPI_Group group, const char *stringtag,
			       MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
	COMM_MAKE(PMPI_Comm_create_from_group(group, stringtag, info, errhandler, newcomm),
		  newcomm);
}

/* As MPI_Intercomm_create's below: the members are the local group. The event also lists
 * the local group from the start, which says whom the call waits for should it never
 * return (MPI_Intercomm_create's group is its local communicator's). */
int rec_Intercomm_create_from_groups(struct rec_call *c, MPI_Group local_group, int local_leader,
				     MPI_Group remote_group, int remote_leader,
				     const char *stringtag, MPI_Info info,
				     MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
	c->ev.group = rec_group_to_world(local_group, &c->ev.ngroup);
	COMM_MAKE(PMPI_Intercomm_create_from_groups(local_group, local_leader, remote_group,
						    remote_leader, stringtag, info, errhandler,
						    newintercomm),
		  newintercomm);
}
#endif

/* Collective over both groups (doc/semantics.md 6.3; its envelope: preload/env_comm.c); the
 * members are the local group. */
int rec_Intercomm_create(struct rec_call *c, MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm)
{
	COMM_MAKE(PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag,
					newintercomm),
		  newintercomm);
}

/* Collective over both groups of intercomm; its members are the new communicator's. */
int rec_Intercomm_merge(struct rec_call *c, MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	COMM_MAKE(PMPI_Intercomm_merge(intercomm, high, newintracomm), newintracomm);
}

/* Nonblocking: a request, completed at its wait. Its members are its parent's: the new
 * communicator may not be used before the request completes. */
/* What MPI_Comm_idup and MPI_Comm_idup_with_info made, once made (rc). */
static int idup_made(struct rec_call *c, int rc, MPI_Comm comm, MPI_Comm *newcomm,
		     MPI_Request *request)
{
	if (rc == MPI_SUCCESS) {
		rec_call_made_request(c, request);
		rec_call_newcomm(c, *newcomm, comm);
	}
	return rc;
}

int rec_Comm_idup(struct rec_call *c, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	return idup_made(c, PMPI_Comm_idup(comm, newcomm, request), comm, newcomm, request);
}

#if MPI_VERSION >= 4
int rec_Comm_idup_with_info(struct rec_call *c, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			    MPI_Request *request)
{
	return idup_made(c, PMPI_Comm_idup_with_info(comm, info, newcomm, request), comm, newcomm,
			 request);
}
#endif

/* The program lets go of communicator old (rank-local id id): forgotten before its handle is
 * free for MPI to give to another communicator. */
static void comm_gone(MPI_Comm old, int32_t id)
{
	rec_comm_forget(old);
	if (rec_output_window)
		rec_output_comm_freed(id);
	if (rec_reduce_on)
		rec_reduce_comm_free(old);
}

int rec_Comm_free(struct rec_call *c, MPI_Comm *comm)
{
	comm_gone(*comm, c->ev.comm);
	return PMPI_Comm_free(comm);
}

/* A collective that may block (it waits for the communicator's pending communication, and
 * Open MPI's synchronises): posted, then returned, as the other collectives, and made to
 * synchronise where the steering says collectives do (MPICH's does not). */
int rec_Comm_disconnect(struct rec_call *c, MPI_Comm *comm)
{
	MPI_Comm old = *comm;
	int rc;

	rec_call_posted(c);
	rec_steer_coll_sync(old);
	rc = PMPI_Comm_disconnect(comm);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		comm_gone(old, c->ev.comm);
	return rc;
}
