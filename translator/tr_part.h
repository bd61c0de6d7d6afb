/* Translator: partitioned communication (tr_part.c, doc/semantics.md 4.9). MPI_Psend_init and
 * MPI_Precv_init requests match only each other, and in the order they were made on each side
 * (MPI-4.1 4.2.2): the k-th send of a rank to another with a tag on a communicator meets the
 * receiver's k-th receive from it with that tag there, at every start. The model gives every
 * such pair a tag of its own on a communicator of its own, the partitioned communicator, whose
 * members are the world: each start's message can meet only its pair's receive. */
#ifndef MPIV_TR_PART_H
#define MPIV_TR_PART_H

#include <stdint.h>

#include "error.h"
#include "tr_comm.h"
#include "trace.h"

struct tr_part_init {
	uint32_t event; /* the MPI_Psend_init or MPI_Precv_init */
	int32_t pair;	/* its pair's tag on the partitioned communicator */
	int waits;	/* a send whose thread may wait for another rank between readying its
			 * first and its last partition, at some start (tr_parts_waits()) */
};

struct tr_parts {
	int nranks;
	struct tr_part_init **inits; /* per rank, by event */
	size_t *ninits;
	int32_t npairs; /* tags 0 .. npairs - 1 are pairs'; npairs is nobody's */
	int32_t comm;	/* the partitioned communicator, -1 if the trace makes none */
	char *waits;	/* by pair: its send's waits */
};

/* Pair the partitioned requests of ts (its communicators cm). A receive from MPI_ANY_SOURCE
 * or with MPI_ANY_TAG is refused (MPI-4.1 names a source and a tag). Returns 0, or -1 with
 * err filled (BAD_INPUT); pt is to be released either way. The partitioned communicator is
 * not made here: comm stays -1 for the caller to give it. */
int tr_parts_build(const struct mpiv_traceset *ts, const struct tr_comms *cm, struct tr_parts *pt,
		   struct mpiv_error *err);

/* The pair tag of rank's init event, or -1 if it is not one. */
int32_t tr_parts_pair(const struct tr_parts *pt, int rank, uint32_t event);

/* Whether pair's sender may wait for another rank between readying the first and the last
 * partition of a start (a call that may block, or a poll that found, in the thread that
 * readies them). Where it does not, its partitions are all ready soon after the first is,
 * whatever the other ranks do, so a receiver that acts on one partition's arrival
 * (MPI_Parrived) has no behaviour that the message sent whole lacks (doc/semantics.md 4.9). */
int tr_parts_waits(const struct tr_parts *pt, int32_t pair);

void tr_parts_release(struct tr_parts *pt);

/* Whether event ev may wait for another rank: anything but a local call, a post, the making
 * or freeing of a request, and a poll that found nothing. */
int tr_may_wait(const struct mpiv_event *ev);

#endif
