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

#pragma GCC visibility pop

#endif
