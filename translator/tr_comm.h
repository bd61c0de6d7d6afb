/* Translator: which engine communicator each (rank, trace comm id) is (tr_comm.c). */
#ifndef MPIV_TR_COMM_H
#define MPIV_TR_COMM_H

#include "engine.h"
#include "error.h"
#include "trace.h"

/* The intercommunicator a rank's MPI_Intercomm_create (or Intercomm_create_from_groups) event
 * makes (or, if its leaders never meet, waits for forever). */
struct tr_inter {
	int32_t rank;
	uint32_t event;
	int32_t comm;  /* engine communicator */
	int32_t local; /* the engine communicator its group meets on first */
};

struct tr_comms {
	int nranks;
	int32_t **local; /* per rank: trace comm id -> engine communicator, -1 unknown */
	int32_t *nlocal; /* per rank: entries in local[rank] */
	int32_t ncomms;
	/* by engine communicator: an intercommunicator's first group's
	 * size (its members are that group, then the other), else 0 */
	int32_t *split;
	struct tr_inter *inter; /* every MPI_Intercomm_create given its communicator */
	size_t ninter, capinter;
};

/* Give prog its communicators (ncomms, comms: 0 MPI_COMM_WORLD, 1 + r rank r's
 * MPI_COMM_SELF, then one per communicator the ranks made) and fill cm. A communicator made
 * from one check does not know stays unknown (-1), to be refused where it is used. Returns 0,
 * or -1 with err filled (BAD_INPUT); cm is to be released either way, prog->comms is
 * prog's. */
int tr_comms_build(const struct mpiv_traceset *ts, struct eng_prog *prog, struct tr_comms *cm,
		   struct mpiv_error *err);

/* The engine communicator of rank's trace comm id comm, or -1. */
int tr_comms_id(const struct tr_comms *cm, int rank, int comm);

/* The engine communicator of rank's MPI_Intercomm_create `event`: the intercommunicator it
 * makes, or the one of its group alone if the leaders never meet; -1 if none. */
int tr_comms_inter(const struct tr_comms *cm, int rank, uint32_t event);

/* The engine communicator on which the group of rank's MPI_Intercomm_create or
 * Intercomm_create_from_groups `event` meets before both groups do: the local communicator,
 * or for the latter one of the group's own; -1 if none. */
int tr_comms_inter_local(const struct tr_comms *cm, int rank, uint32_t event);

/* The first group's size if engine communicator c is an intercommunicator, else 0. */
int tr_comms_split(const struct tr_comms *cm, int c);

/* 1 if world rank `world` is a member of engine communicator c. */
int tr_comms_member(const struct eng_prog *prog, int c, int world);

void tr_comms_release(struct tr_comms *cm);

#endif
