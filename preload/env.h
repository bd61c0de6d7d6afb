/* A call's envelope, for both preload libraries: what the trace records of a call's own
 * arguments (destination or source and root as world ranks, tag, communicator and window ids,
 * message size). The recorder writes it into the call's event; the replayer compares it with
 * the recorded event before the call is made (replayer/rep_schedule.c). One extractor per
 * call, env_<name>(), in env_<family>.c, serves both, so that what replay checks is what
 * record wrote.
 *
 * What a call learns only when it returns (the source a receive matched, the id of a window
 * it made, a communicator's members) is not part of the envelope: the handlers of each
 * library fill that themselves. */
#ifndef MPIV_ENV_H
#define MPIV_ENV_H

#include <stdint.h>

#include <mpi.h>

#include "event.h" /* MPIV_NONE; before MPIV_SPECIAL is redefined below */

#pragma GCC visibility push(hidden)

/* (a, b, c) -> a, b, c: lets a .def parameter list follow another parameter. */
#define MPIV_UNPAREN(...) __VA_ARGS__

/* The envelope of one call: struct mpiv_event's conventions (world ranks, MPIV_ANY_SOURCE,
 * MPIV_ANY_TAG, ...), MPIV_NONE where the call has no such argument. */
struct mpiv_env {
	int32_t peer; /* destination, source, or a window's target */
	int32_t tag;
	int32_t comm;	     /* rec_comm_id() */
	int32_t root;	     /* collective root */
	int32_t win;	     /* rec_win_id() */
	int32_t peer2, tag2; /* a send-receive's receive side (its send is peer and tag) */
	uint64_t bytes;	     /* message, contribution, window or buffer size; 0 if none */
	/* bytes is the size of the one message a send or receive
	 * posts, which replay compares (not a send-receive's, a
	 * collective's or a window's: those are recorded only) */
	int has_bytes;
	MPI_Request *request; /* where the call puts the request it makes, or NULL */
	/* a nonblocking collective's communicator (replay completes
	 * its request with a barrier on it when it must synchronise),
	 * else MPI_COMM_NULL */
	MPI_Comm mpicomm;
};

/* No envelope: start every struct mpiv_env from it. */
#define MPIV_ENV_NONE                          \
	((struct mpiv_env){.peer = MPIV_NONE,  \
			   .tag = MPIV_NONE,   \
			   .comm = MPIV_NONE,  \
			   .root = MPIV_NONE,  \
			   .win = MPIV_NONE,   \
			   .peer2 = MPIV_NONE, \
			   .tag2 = MPIV_NONE,  \
			   .mpicomm = MPI_COMM_NULL})

/* env_<name>(e, the call's parameters): fill e (MPIV_ENV_NONE already) from the call's
 * arguments, before the call is made. Declared weak for every ordinary entry of
 * mpi_calls.def: a call without an envelope (MPI_Wait, MPI_Start, ...) has no extractor, and
 * both libraries test the symbol. May make MPI calls (PMPI_: ranks translated, sizes). */
#define MPIV_SPECIAL(name, number, kind, flags, params, args)
#define MPIV_CALL(name, number, kind, flags, params, args) \
	void env_##name(struct mpiv_env *e, MPIV_UNPAREN params) __attribute__((weak));
#include "mpi_calls.def"
#undef MPIV_CALL
#undef MPIV_SPECIAL

#if MPI_VERSION >= 4
/* ---- env_coll.c: the arrays of MPI-4's large-count collectives (MPI_Gatherv_c, ...), which
 * base/gen_large_count.py's code hands to their int-count twins' where every count fits an
 * int (doc/mpi-calls.md) ---- */

/* How many elements of an array of counts or displacements a collective reads (MPI-4.1
 * chapters 6 and 8). */
enum env_large_len {
	/* one per rank it exchanges with: comm's size; on an
	 * intercommunicator the remote group's */
	ENV_LARGE_GROUP,
	ENV_LARGE_LOCAL, /* one per rank of comm's own group (MPI_Reduce_scatter's) */
	/* ENV_LARGE_GROUP at the root (the rank root, or MPI_ROOT on
	 * an intercommunicator), none at the other ranks */
	ENV_LARGE_ROOT,
	ENV_LARGE_IN,  /* one per in-neighbour of comm's topology (rec_topo_degrees()) */
	ENV_LARGE_OUT, /* one per out-neighbour */
};

/* The number of elements (root: the call's root argument, for ENV_LARGE_ROOT), or -1 when
 * MPI cannot say: the call is then taken as one whose counts do not fit. Makes MPI calls. */
int env_large_len(enum env_large_len len, MPI_Comm comm, int root);

/* Whether the first n elements of a fit an int (counts: MPIV_FITS_INT(); displacements,
 * which may be negative: any int's value): 1 for n 0; 0 for n < 0, or a NULL a with n > 0
 * (what it holds cannot be told). */
int env_large_counts_fit(const MPI_Count a[], int n);
int env_large_aints_fit(const MPI_Aint a[], int n);

/* The first n elements of a (each fits an int) as ints, for the int-count twin's envelope,
 * which reads as many as MPI does: malloc'ed; NULL for none (n <= 0, or a NULL) and when out
 * of memory: the twin's envelope then sees no array, and records no size from it. */
int *env_large_counts(const MPI_Count a[], int n);
int *env_large_aints(const MPI_Aint a[], int n);
#endif

/* env_fits_<name>() of the large-count collectives with arrays */
#include "env_large.gen.h"

#pragma GCC visibility pop

#endif
