/* Collectives under replay. A counterexample found without buffering has every collective
 * synchronise, which MPICH's rooted ones need not do: replay puts a barrier first. That
 * barrier is made on a private duplicate of the communicator, so that it can only ever meet
 * the other ranks' barriers, never one of the program's collectives (a rank that calls
 * MPI_Bcast where its peer calls MPI_Reduce must not be paired by replay's own calls). For
 * a counterexample of a collective mismatch, each collective's call and root are compared
 * across the members on the same private communicator first: a difference is the mismatch
 * confirmed on the real run, whether the MPI library then hangs in it or not. */
#include <stdio.h>
#include <stdlib.h>

#include "replayer.h"
#include "rec_comm.h"
#include "rec_status.h"
#include "status.h"

/* The private duplicates, by the program communicator's rank-local id (rec_comm_id()). */
static MPI_Comm *coll_private;
static size_t coll_nprivate;

void rep_coll_adopt(MPI_Comm comm)
{
	int id = rec_comm_id(comm);
	size_t old = coll_nprivate, i;
	MPI_Comm *grown;

	if (id < 0 || comm == MPI_COMM_NULL || !rep_schedule_coll_private())
		return;
	if ((size_t)id >= coll_nprivate) {
		grown = realloc(coll_private, ((size_t)id + 1) * sizeof(*grown));
		if (!grown)
			return; /* the barrier falls back to the communicator itself */
		coll_private = grown;
		coll_nprivate = (size_t)id + 1;
		for (i = old; i < coll_nprivate; i++)
			coll_private[i] = MPI_COMM_NULL;
	}
	if (coll_private[id] == MPI_COMM_NULL)
		PMPI_Comm_dup(comm, &coll_private[id]);
}

void rep_coll_forget(MPI_Comm comm)
{
	int id = rec_comm_id(comm);

	if (id >= 0 && (size_t)id < coll_nprivate && coll_private[id] != MPI_COMM_NULL)
		PMPI_Comm_free(&coll_private[id]);
}

void rep_coll_release(void)
{
	size_t i;

	for (i = 0; i < coll_nprivate; i++)
		if (coll_private[i] != MPI_COMM_NULL)
			PMPI_Comm_free(&coll_private[i]);
	free(coll_private);
	coll_private = NULL;
	coll_nprivate = 0;
}

/* The private duplicate of the communicator with id, or MPI_COMM_NULL. */
static MPI_Comm private_of(int id)
{
	return id >= 0 && (size_t)id < coll_nprivate ? coll_private[id] : MPI_COMM_NULL;
}

MPI_Comm rep_coll_sync_comm(MPI_Comm comm)
{
	MPI_Comm priv = private_of(rec_comm_id(comm));

	return priv != MPI_COMM_NULL ? priv : comm;
}

void rep_coll_barrier(struct rep_call *c, MPI_Comm comm)
{
	PMPI_Barrier(rep_coll_sync_comm(comm));
	(void)c;
}

/* "MPI_Bcast(root=1)" or "MPI_Allreduce" */
static void call_desc(char *buf, size_t size, int call, int root)
{
	if (root >= 0)
		snprintf(buf, size, "%s(root=%d)", mpiv_call_name((unsigned)call), root);
	else
		snprintf(buf, size, "%s", mpiv_call_name((unsigned)call));
}

void rep_coll_check(struct rep_call *c)
{
	enum mpiv_kind kind = mpiv_call_kind(c->call);
	MPI_Comm priv;
	int mine[2], *all, n = 0, r;

	if (!rep_schedule_mismatch() || (kind != MPIV_KIND_COLL && kind != MPIV_KIND_ICOLL))
		return;
	priv = private_of(c->comm);
	if (priv == MPI_COMM_NULL || PMPI_Comm_size(priv, &n) != MPI_SUCCESS || n <= 0)
		return;
	all = malloc(2 * (size_t)n * sizeof(int));
	if (!all)
		return;
	mine[0] = (int)mpiv_call_twin(c->call); /* a large-count form meets its twin */
	mine[1] = (mpiv_call_flags(c->call) & MPIV_F_ROOTED) ? c->root : -1;
	if (PMPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, priv) == MPI_SUCCESS) {
		for (r = 0; r < n; r++) {
			char me[128], other[128], note[512];

			/* MPIV_PROC_NULL: an intercommunicator's root group, but the root */
			if (all[2 * r] == mine[0] &&
			    (all[2 * r + 1] == mine[1] || all[2 * r + 1] == MPIV_PROC_NULL ||
			     mine[1] == MPIV_PROC_NULL))
				continue;
			call_desc(me, sizeof(me), mine[0], mine[1]);
			call_desc(other, sizeof(other), all[2 * r], all[2 * r + 1]);
			snprintf(note, sizeof(note),
				 "event %u, %s: rank %d called %s at the same place "
				 "of the communicator: the collectives do not match",
				 c->index, me, rec_comm_to_world(priv, r), other);
			rec_status_note(MPIV_NOTE_MISMATCH, note);
			break;
		}
	}
	free(all);
}

/* Neighbourhood collectives (MPI-4.1 chapter 8) wait in MPICH and Open MPI for their
 * neighbours only: when the counterexample has them synchronise every member (found without
 * buffering), a barrier first, as for the rooted collectives (rep_force.c). The nonblocking
 * ones get their MPI_Ibarrier from rep_request.c. The large-count forms of the v and w ones
 * do the same before their own call (base/gen_large_count.py). */
int rep_Neighbor_allgather(struct rep_call *c, const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
				       comm);
}

int rep_Neighbor_allgatherv(struct rep_call *c, const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
					recvtype, comm);
}

int rep_Neighbor_alltoall(struct rep_call *c, const void *sendbuf, int sendcount,
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
				      comm);
}

int rep_Neighbor_alltoallv(struct rep_call *c, const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			   const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
				       rdispls, recvtype, comm);
}

int rep_Neighbor_alltoallw(struct rep_call *c, const void *sendbuf, const int sendcounts[],
			   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			   const int recvcounts[], const MPI_Aint rdispls[],
			   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	if (rep_schedule_coll_sync(c))
		rep_coll_barrier(c, comm);
	return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
				       rdispls, recvtypes, comm);
}
