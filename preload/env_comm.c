/* Envelopes of the calls that make and free communicators (env.h): the parent communicator,
 * on which the call is a collective (recorder/rec_comm_make.c records the new one and its
 * members when it returns). */
#include <stdlib.h>

#include "env.h"
#include "rec_comm.h"

void env_Comm_dup(struct mpiv_env *e, MPI_Comm comm, MPI_Comm *newcomm)
{
	e->comm = rec_comm_id(comm);
}

void env_Comm_idup(struct mpiv_env *e, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	e->comm = rec_comm_id(comm);
	e->request = request;
}

#if MPI_VERSION >= 4
void env_Comm_idup_with_info(struct mpiv_env *e, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			     MPI_Request *request)
{
	env_Comm_idup(e, comm, newcomm, request);
}
#endif

#if MPI_VERSION >= 4
/* The string tag that tells concurrent creations from groups apart, hashed (FNV-1a) into a
 * tag. */
static int32_t stringtag_hash(const char *stringtag)
{
	uint32_t h = 2166136261u;

	for (; stringtag && *stringtag; stringtag++)
		h = (h ^ (unsigned char)*stringtag) * 16777619u;
	return (int32_t)(h & 0x7fffffff);
}

/* A communicator made from a group has no parent: the processes of MPI_COMM_WORLD stand for
 * it, and its string tag is hashed into the tag. */
void env_Comm_create_from_group(struct mpiv_env *e, MPI_Group group, const char *stringtag,
				MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
	e->comm = rec_comm_id(MPI_COMM_WORLD);
	e->tag = stringtag_hash(stringtag);
}

/* The world rank of group's member rank, or MPIV_NONE. Makes MPI calls. */
static int32_t group_member_world(MPI_Group group, int rank)
{
	uint32_t n = 0;
	int32_t *members = rec_group_to_world(group, &n), w = MPIV_NONE;

	if (members && rank >= 0 && (uint32_t)rank < n)
		w = members[rank];
	free(members);
	return w;
}

/* As MPI_Comm_create_from_group for the local group, then as MPI_Intercomm_create for both
 * (base/mpi_calls.def): the root the local leader and, on the leader, the peer the remote
 * leader, as world ranks. The string tag is every member's (MPI reads it on all), and pairs
 * the groups as MPI_Intercomm_create's tag does. */
void env_Intercomm_create_from_groups(struct mpiv_env *e, MPI_Group local_group, int local_leader,
				      MPI_Group remote_group, int remote_leader,
				      const char *stringtag, MPI_Info info,
				      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
	int me = MPI_UNDEFINED;

	e->comm = rec_comm_id(MPI_COMM_WORLD);
	e->tag = stringtag_hash(stringtag);
	e->root = group_member_world(local_group, local_leader);
	if (PMPI_Group_rank(local_group, &me) == MPI_SUCCESS && me == local_leader)
		e->peer = group_member_world(remote_group, remote_leader);
}
#endif

void env_Comm_split(struct mpiv_env *e, MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	e->comm = rec_comm_id(comm);
}

void env_Comm_split_type(struct mpiv_env *e, MPI_Comm comm, int split_type, int key, MPI_Info info,
			 MPI_Comm *newcomm)
{
	e->comm = rec_comm_id(comm);
}

void env_Comm_create(struct mpiv_env *e, MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	e->comm = rec_comm_id(comm);
}

void env_Comm_create_group(struct mpiv_env *e, MPI_Comm comm, MPI_Group group, int tag,
			   MPI_Comm *newcomm)
{
	/* collective over group only: the tag, as passed, tells concurrent ones on one parent
	 * apart */
	e->comm = rec_comm_id(comm);
	e->tag = tag;
}

void env_Cart_create(struct mpiv_env *e, MPI_Comm comm_old, int ndims, const int dims[],
		     const int periods[], int reorder, MPI_Comm *comm_cart)
{
	e->comm = rec_comm_id(comm_old);
}

void env_Cart_sub(struct mpiv_env *e, MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	e->comm = rec_comm_id(comm);
}

void env_Dist_graph_create_adjacent(struct mpiv_env *e, MPI_Comm comm_old, int indegree,
				    const int sources[], const int sourceweights[], int outdegree,
				    const int destinations[], const int destweights[],
				    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
	e->comm = rec_comm_id(comm_old);
}

void env_Comm_dup_with_info(struct mpiv_env *e, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	e->comm = rec_comm_id(comm);
}

void env_Graph_create(struct mpiv_env *e, MPI_Comm comm_old, int nnodes, const int indx[],
		      const int edges[], int reorder, MPI_Comm *comm_graph)
{
	e->comm = rec_comm_id(comm_old);
}

void env_Dist_graph_create(struct mpiv_env *e, MPI_Comm comm_old, int n, const int sources[],
			   const int degrees[], const int destinations[], const int weights[],
			   MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
	e->comm = rec_comm_id(comm_old);
}

/* Collective over both groups (doc/semantics.md 6.3): the event is on local_comm, its root the
 * local leader and, on the leader, its peer the remote leader and its tag the leaders' tag, so
 * that check can pair the two groups' calls. */
void env_Intercomm_create(struct mpiv_env *e, MPI_Comm local_comm, int local_leader,
			  MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm)
{
	int me = -1;

	e->comm = rec_comm_id(local_comm);
	e->root = rec_comm_to_world(local_comm, local_leader);
	if (PMPI_Comm_rank(local_comm, &me) == MPI_SUCCESS && me == local_leader) {
		e->peer = rec_comm_to_world(peer_comm, remote_leader);
		e->tag = tag;
	}
}

void env_Intercomm_merge(struct mpiv_env *e, MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	e->comm = rec_comm_id(intercomm);
}

void env_Comm_free(struct mpiv_env *e, MPI_Comm *comm)
{
	e->comm = rec_comm_id(*comm);
}

/* a collective on the communicator it ends (base/mpi_calls.def) */
void env_Comm_disconnect(struct mpiv_env *e, MPI_Comm *comm)
{
	e->comm = rec_comm_id(*comm);
}
