/* The replayer's side of the calls that make and free communicators: the same rank-local ids
 * as the recorder gave (rec_comm_register at the same calls, in the same order), so that the
 * divergence check compares every later call's communicator by its identity. */
#include "replayer.h"
#include "rec_comm.h"

/* ---- the calls: register what they made, as the recorder does ---- */

/* newcomm by address: read after the call has filled it */
static int made(int rc, const MPI_Comm *newcomm)
{
	if (rc == MPI_SUCCESS) {
		rec_comm_register(*newcomm);
		rep_coll_adopt(*newcomm);
	}
	return rc;
}

int rep_Comm_dup(struct rep_call *c, MPI_Comm comm, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_dup(comm, newcomm), newcomm);
}

/* A duplicate made by a nonblocking call: not usable before its wait, so no private
 * duplicate (its barriers use it directly). */
static int idup_made(int rc, const MPI_Comm *newcomm)
{
	if (rc == MPI_SUCCESS)
		rec_comm_register(*newcomm);
	return rc;
}

int rep_Comm_idup(struct rep_call *c, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	return idup_made(PMPI_Comm_idup(comm, newcomm, request), newcomm);
}

#if MPI_VERSION >= 4
int rep_Comm_idup_with_info(struct rep_call *c, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			    MPI_Request *request)
{
	return idup_made(PMPI_Comm_idup_with_info(comm, info, newcomm, request), newcomm);
}
#endif

int rep_Comm_split(struct rep_call *c, MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

int rep_Comm_split_type(struct rep_call *c, MPI_Comm comm, int split_type, int key, MPI_Info info,
			MPI_Comm *newcomm)
{
	return made(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), newcomm);
}

int rep_Comm_create(struct rep_call *c, MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int rep_Comm_create_group(struct rep_call *c, MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm)
{
	return made(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

#if MPI_VERSION >= 4
int rep_Comm_create_from_group(struct rep_call *c, MPI_Group group, const char *stringtag,
			       MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_create_from_group(group, stringtag, info, errhandler, newcomm),
		    newcomm);
}

int rep_Intercomm_create_from_groups(struct rep_call *c, MPI_Group local_group, int local_leader,
				     MPI_Group remote_group, int remote_leader,
				     const char *stringtag, MPI_Info info,
				     MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
	return made(PMPI_Intercomm_create_from_groups(local_group, local_leader, remote_group,
						      remote_leader, stringtag, info, errhandler,
						      newintercomm),
		    newintercomm);
}
#endif

int rep_Cart_create(struct rep_call *c, MPI_Comm comm_old, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *comm_cart)
{
	return made(PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart),
		    comm_cart);
}

int rep_Cart_sub(struct rep_call *c, MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	return made(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

int rep_Dist_graph_create_adjacent(struct rep_call *c, MPI_Comm comm_old, int indegree,
				   const int sources[], const int sourceweights[], int outdegree,
				   const int destinations[], const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *comm_dist_graph)
{
	return made(PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights,
						    outdegree, destinations, destweights, info,
						    reorder, comm_dist_graph),
		    comm_dist_graph);
}

int rep_Comm_dup_with_info(struct rep_call *c, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

int rep_Graph_create(struct rep_call *c, MPI_Comm comm_old, int nnodes, const int indx[],
		     const int edges[], int reorder, MPI_Comm *comm_graph)
{
	return made(PMPI_Graph_create(comm_old, nnodes, indx, edges, reorder, comm_graph),
		    comm_graph);
}

int rep_Dist_graph_create(struct rep_call *c, MPI_Comm comm_old, int n, const int sources[],
			  const int degrees[], const int destinations[], const int weights[],
			  MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
	return made(PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights,
					   info, reorder, comm_dist_graph),
		    comm_dist_graph);
}

int rep_Intercomm_create(struct rep_call *c, MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm)
{
	return made(PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag,
					  newintercomm),
		    newintercomm);
}

int rep_Intercomm_merge(struct rep_call *c, MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	return made(PMPI_Intercomm_merge(intercomm, high, newintracomm), newintracomm);
}

/* The program lets go of comm: its private duplicate and its id go too, before MPI may give
 * the handle to another communicator. */
static void comm_gone(MPI_Comm comm)
{
	rep_coll_forget(comm);
	rec_comm_forget(comm);
}

int rep_Comm_free(struct rep_call *c, MPI_Comm *comm)
{
	comm_gone(*comm);
	return PMPI_Comm_free(comm);
}

/* MPICH's does not synchronise: a barrier first when the counterexample needs every
 * collective synchronising, as before MPI_Bcast (rep_force.c). */
int rep_Comm_disconnect(struct rep_call *c, MPI_Comm *comm)
{
	MPI_Comm old = *comm;
	int rc;

	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, old);
	rc = PMPI_Comm_disconnect(comm);
	if (rc == MPI_SUCCESS)
		comm_gone(old);
	return rc;
}
