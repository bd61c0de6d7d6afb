/* Translator: which engine communicator each (rank, trace comm id) is (tr_comm.c). */
#ifndef MPIV_TR_COMM_H
#define MPIV_TR_COMM_H

#include "engine.h"
#include "error.h"
#include "trace.h"

struct tr_comms {
	int nranks;
	int32_t **local;	/* per rank: trace comm id -> engine communicator, -1 unknown */
	int32_t *nlocal;	/* per rank: entries in local[rank] */
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

/* 1 if world rank `world` is a member of engine communicator c. */
int tr_comms_member(const struct eng_prog *prog, int c, int world);

void tr_comms_release(struct tr_comms *cm);

#endif
