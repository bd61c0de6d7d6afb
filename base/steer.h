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
 *	CALL COMM TAG reqs K N...	a completion completes exactly these K requests, each
 *					by its number among the requests the calling thread
 *					made (0, 1, ... in the order it made them: in a rank of
 *					one thread, the recorder's request ids); COMM and TAG
 *					are -3 (unused)
 *	CALL COMM TAG free		a decision of either kind whose outcome is the run's:
 *					counted, not forced (the model does not tell its outcomes
 *					apart: the program does not act on them)
 *	thread R PATH N			N decisions of rank R's thread PATH follow, as above
 *
 * The decisions of a rank line are its initial thread's (the one that runs main). A rank that
 * calls MPI from several threads has its other threads' decisions each on a thread line, in
 * the order that thread makes them: threads run in no fixed order, but each makes its own
 * decisions in its own. A thread is named by its path, the same in every run of the program
 * (a thread's number is not: it is given at its first call): the initial thread is "0", and
 * the k-th thread (from 1) that thread P created with pthread_create while the rank recorded
 * its threads (under MPI_THREAD_MULTIPLE, from MPI_Init_thread on: the creations the trace
 * holds) is "P.k". So "0.2.1" is the first thread made by the second that main made.
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
	int32_t *reqs;	/* ... by their numbers among the thread's requests; owned */
};

/* How a steered run's standard sends complete: as a model's buffering mode has them. */
enum mpiv_steer_buffering {
	MPIV_STEER_NATURAL = 0, /* as the MPI library does */
	MPIV_STEER_ZERO,	/* synchronous (MPI_Ssend); collectives synchronise */
	MPIV_STEER_INFINITE,	/* buffered: complete at once, whoever receives */
	MPIV_STEER_EAGER,	/* buffered up to eager bytes, synchronous above */
};

/* A thread's path ("0.2.1"), its NUL included, at most: a deeper thread has none. */
#define MPIV_STEER_PATH 48

/* The decisions of one thread of a rank other than its initial one. */
struct mpiv_steer_thread {
	char path[MPIV_STEER_PATH];
	struct mpiv_steer_decision *d;
	size_t n;
};

/* One rank's steering. */
struct mpiv_steer {
	int rank;
	enum mpiv_steer_buffering buffering;
	long long eager; /* MPIV_STEER_EAGER's threshold in bytes */
	/* 1: every collective synchronises (MPIV_STEER_ZERO's do
	 * anyway); INFINITE or EAGER only */
	int sync_colls;
	struct mpiv_steer_decision *d; /* the initial thread's decisions */
	size_t n;
	struct mpiv_steer_thread *threads; /* the other threads' (n > 0 each) */
	size_t nthreads;
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
/* The same for thread path of rank: a thread line. */
void mpiv_steer_write_thread(FILE *f, int rank, const char *path,
			     const struct mpiv_steer_decision *d, size_t n);
/* All of s: its initial thread's decisions if any, then each other thread's. */
void mpiv_steer_write_all(FILE *f, const struct mpiv_steer *s);

/* The decisions of thread path in s (the initial thread's for "0") into *d and *n: 0 and
 * NULL if it has none. */
void mpiv_steer_decisions_of(const struct mpiv_steer *s, const char *path,
			     const struct mpiv_steer_decision **d, size_t *n);

/* Whether path is a thread's path: "0", then ".K" any number of times (K from 1), shorter
 * than MPIV_STEER_PATH. */
int mpiv_steer_path_valid(const char *path);

void mpiv_steer_release(struct mpiv_steer *s);

/* Is d a decision whose outcome is the run's own (the steering file's "free")? */
static inline int mpiv_steer_free(const struct mpiv_steer_decision *d)
{
	return d->src == MPIV_NONE && d->nreqs == 0;
}

#endif
