/* Communicators for both preload libraries: the ids the trace gives communicators, and ranks
 * translated between a communicator and MPI_COMM_WORLD (events always hold world ranks). */
#ifndef MPIV_REC_COMM_H
#define MPIV_REC_COMM_H

#include <stdint.h>

#include <mpi.h>

#pragma GCC visibility push(hidden)

/* MPIV_COMM_WORLD or MPIV_COMM_SELF for those very handles, the rank-local id
 * rec_comm_register() gave a communicator, else MPIV_COMM_UNKNOWN (a dup of MPI_COMM_WORLD
 * is another communicator: only handle identity counts). */
int rec_comm_id(MPI_Comm comm);

/* The program just got newcomm from a call flagged MPIV_F_NEWCOMM: give it the next
 * rank-local id (MPIV_COMM_FIRST_LOCAL, then 3, ...; never reused), which both preload
 * libraries compute alike because they register at the same calls. Returns the id, or
 * MPIV_COMM_UNKNOWN for MPI_COMM_NULL (the rank is not a member) or out of memory. A handle
 * already in the table (MPI reused a handle freed behind the tool's back) takes the new id. */
int rec_comm_register(MPI_Comm newcomm);

/* The program frees comm (MPI_Comm_free): MPI may give its handle to a later communicator. */
void rec_comm_forget(MPI_Comm comm);

/* The members of comm as world ranks, by rank in comm (an intercommunicator's local group),
 * into *out (malloc'ed, the caller frees). Returns their number, or -1 (MPI failed, or out of
 * memory; *out is then NULL). Makes MPI calls (PMPI_). */
int rec_comm_members(MPI_Comm comm, int32_t **out);

/* The members of group as world ranks, in group order: malloc'ed, *n entries; NULL (n = 0)
 * for an empty group or on failure. Makes MPI calls. */
int32_t *rec_group_to_world(MPI_Group group, uint32_t *n);

/* A process of the Sessions model has no MPI_COMM_WORLD: its world is the group of the
 * process set "mpi://WORLD" (MPI-4.1 11.3.2), and its rank in it. Takes world, which
 * rec_comm_release() frees. */
void rec_comm_set_world(MPI_Group world, int rank);

/* A process MPI_Comm_spawn started inherits the job's environment, the preload library and
 * its directory among it, and numbers its ranks from 0 again: recorded or replayed, it would
 * write over its parents' traces and status files. Dynamic processes are not modelled (the
 * parents' traces name the call, and check refuses them). Returns whether this process (of
 * rank and size in MPI_COMM_WORLD) is one, saying once (rank 0) that its ranks are not
 * `done` ("recorded", "replayed"). */
int rec_comm_spawned(int rank, int size, const char *done);

#if MPI_VERSION >= 4
/* The first session of a process without MPI_Init: its rank and size in the process set
 * "mpi://WORLD" (MPI-4.1 11.3.2), whose group then stands for MPI_COMM_WORLD's
 * (rec_comm_set_world()). Returns 0, or -1 (no such process set, or not a member). */
int rec_comm_session_world(MPI_Session session, int *rank, int *size);
#endif

/* The world rank of rank in comm (of its remote group for an intercommunicator). MPI_ANY_SOURCE
 * and MPI_PROC_NULL become MPIV_ANY_SOURCE and MPIV_PROC_NULL; MPIV_NONE if it cannot be
 * translated. Makes MPI calls (PMPI_) for communicators other than MPI_COMM_WORLD. */
int rec_comm_to_world(MPI_Comm comm, int rank);

/* The rank in comm (its remote group for an intercommunicator) of world rank world, or -1 if
 * it is not a member. */
int rec_comm_from_world(MPI_Comm comm, int world);

/* count elements of type, in bytes (what the trace records, and replay compares); 0 when the
 * type's size cannot be had. */
uint64_t rec_comm_bytes(int count, MPI_Datatype type);

/* What rec_comm_type() tells of count elements of a type besides their size. */
enum rec_type_how {
	/* a predefined type whose size was known already: the same handle always has that size
	 * (a derived type's handle may be freed and reused) */
	REC_TYPE_NAMED = 1 << 0,
	/* their data fill their size in bytes from the buffer's start, without a gap (true lower
	 * bound 0, true extent the type's size, and, for more than one, extent too): the
	 * message's bytes as they lie in memory */
	REC_TYPE_CONTIG = 1 << 1,
};

/* The same, and *how (enum rec_type_how) set. */
uint64_t rec_comm_type(int count, MPI_Datatype type, unsigned *how);

/* A number that changes whenever a communicator's id or members may have: what
 * rec_comm_id() and rec_comm_to_world() said of a communicator other than MPI_COMM_WORLD
 * and MPI_COMM_SELF holds while it stays the same. */
unsigned rec_comm_gen(void);

/* MPI_ANY_TAG becomes MPIV_ANY_TAG; other tags are kept. */
int rec_comm_tag(int tag);

/* Free the cached world group and the keyval of the datatypes watched; call before
 * PMPI_Finalize. */
void rec_comm_release(void);

#pragma GCC visibility pop

#endif
