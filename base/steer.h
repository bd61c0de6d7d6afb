/* The steering file of a verify run (doc/verify.md): for each rank, the outcomes its first
 * decisions (enum mpiv_decision, in the order the rank makes them) must take; past them the
 * run is free. verify writes it, the recorder reads it in every rank. Plain text, so that the
 * recorder reads it without a JSON library:
 *
 *	mpiverify-steer 1
 *	buffering MODE			optional, first: how standard sends complete (zero:
 *					synchronous, and every blocking collective
 *					synchronises; infinite: buffered; eager BYTES: buffered
 *					up to BYTES; natural, the default: as the library does)
 *	collectives synchronise		optional, after an infinite or eager buffering line:
 *					every collective synchronises, as with zero
 *	rank R N			N decisions of rank R follow, one a line, in order:
 *	CALL COMM TAG src S		a receive or probe on COMM with TAG (MPIV_ANY_TAG: -1)
 *					takes world rank S's message
 *	CALL COMM TAG reqs K ID...	a completion completes exactly these K requests (the
 *					recorder's request ids); COMM and TAG are -3 (unused)
 *	CALL COMM TAG free		a decision of either kind whose outcome is the run's:
 *					counted, not forced (the model does not tell its outcomes
 *					apart: the program does not act on them)
 *
 * CALL is the call's name ("MPI_Recv"). No I/O here: the caller reads the file. */
#ifndef MPIV_STEER_H
#define MPIV_STEER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"

#define MPIV_STEER_FORMAT "mpiverify-steer"
#define MPIV_STEER_VERSION 1

/* One decision, as the steered rank must take it. */
struct mpiv_steer_decision {
	uint16_t call; /* enum mpiv_call of the call that makes it */
	/* a source decision's communicator id and tag, as the trace
	 * records them; MPIV_NONE for a completion */
	int32_t comm, tag;
	/* a source decision: the world rank whose message it takes;
	 * MPIV_NONE for a completion */
	int32_t src;
	uint32_t nreqs; /* a completion: the requests it completes ... */
	int32_t *reqs;	/* ... by the recorder's ids; owned */
};

/* How a steered run's standard sends complete: as a model's buffering mode has them. */
enum mpiv_steer_buffering {
	MPIV_STEER_NATURAL = 0, /* as the MPI library does */
	MPIV_STEER_ZERO,	/* synchronous (MPI_Ssend); collectives synchronise */
	MPIV_STEER_INFINITE,	/* buffered: complete at once, whoever receives */
	MPIV_STEER_EAGER,	/* buffered up to eager bytes, synchronous above */
};

/* One rank's steering. */
struct mpiv_steer {
	int rank;
	enum mpiv_steer_buffering buffering;
	long long eager; /* MPIV_STEER_EAGER's threshold in bytes */
	/* 1: every collective synchronises (MPIV_STEER_ZERO's do
	 * anyway); INFINITE or EAGER only */
	int sync_colls;
	struct mpiv_steer_decision *d;
	size_t n;
};

/* Parse the steering of rank out of text (len bytes). Returns 0 (a rank the file does not
 * name gets none: n == 0), or -1 with why filled (the file is malformed); s is the caller's
 * to release either way. Uses malloc only. */
int mpiv_steer_parse(const char *text, size_t len, int rank, struct mpiv_steer *s, char *why,
		     size_t whysize);

/* Write the header (with the buffering line unless NATURAL, and the collectives line if
 * sync_colls and b is INFINITE or EAGER), then one rank's decisions d[0..n) (as
 * mpiv_steer_parse reads them). */
void mpiv_steer_write_header(FILE *f, enum mpiv_steer_buffering b, long long eager, int sync_colls);
void mpiv_steer_write_rank(FILE *f, int rank, const struct mpiv_steer_decision *d, size_t n);

void mpiv_steer_release(struct mpiv_steer *s);

/* Is d a decision whose outcome is the run's own (the steering file's "free")? */
static inline int mpiv_steer_free(const struct mpiv_steer_decision *d)
{
	return d->src == MPIV_NONE && d->nreqs == 0;
}

#endif
