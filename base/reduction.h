/* The reduction check (`record --check-reductions`, doc/reductions.md): what it finds, as the
 * recorder writes it into a rank's trace (reduction records, doc/trace-format.md) and check
 * reports it, and the option's value, which the CLI checks and the recorder reads. MPI-free:
 * the recorder, the trace readers and the CLI share it. */
#ifndef MPIV_REDUCTION_H
#define MPIV_REDUCTION_H

#include <stdint.h>

/* What a reduction record says. */
enum mpiv_red_what {
	MPIV_RED_MISMATCH = 1, /* the library's result differs from the second computation's */
	MPIV_RED_FAILED = 2,   /* the library's call returned an error (code, why) */
	/* a contribution to the second computation arrived damaged
	 * (its checksum or length wrong): a plain transfer from rank
	 * peer was corrupted, and the reduction could not be judged */
	MPIV_RED_CORRUPT = 3,
	MPIV_RED_UNCHECKED = 4, /* the reduction could not be checked (why) */
	MPIV_RED_LAST = MPIV_RED_UNCHECKED
};

enum mpiv_red_flags {
	MPIV_RED_CORRECTED = 1 << 0, /* the reliable result was written over the library's */
	MPIV_RED_TOL_GIVEN = 1 << 1, /* rel is the user's TOL, not the rounding bound */
	MPIV_RED_FLAGS_ALL = (1 << 2) - 1
};

/* Room of each text field of a record, its NUL included; what is longer is cut. */
#define MPIV_RED_TEXT 128

/* One finding of the reduction check on one rank. */
struct mpiv_reduction {
	uint32_t event; /* the reduction's event (a nonblocking one's MPI_I... call) */
	/* the event it was checked at: event itself, or the completion
	 * call of a nonblocking reduction */
	uint32_t done;
	int32_t what;	/* enum mpiv_red_what */
	uint32_t flags; /* enum mpiv_red_flags */
	/* CORRUPT: the world rank whose contribution arrived damaged;
	 * else MPIV_NONE */
	int32_t peer;
	int32_t code;	 /* FAILED: the error code the call returned; else 0 */
	uint64_t count;	 /* MISMATCH: basic elements compared */
	uint64_t differ; /* MISMATCH: how many of them differ (at least 1) */
	uint64_t first;	 /* MISMATCH: the index of the first that differs */
	/* MISMATCH: the relative tolerance at the first (0: compared
	 * exactly) */
	double rel;
	/* MISMATCH: the difference allowed there: rel times the
	 * magnitude of what was combined */
	double allowed;
	char type[MPIV_RED_TEXT]; /* the datatype: "MPI_DOUBLE", or "derived" */
	/* MISMATCH: the predefined type of the first element
	 * that differs; else "" */
	char elem[MPIV_RED_TEXT];
	char op[MPIV_RED_TEXT];	  /* the operation: "MPI_SUM", or "user-defined" */
	char got[MPIV_RED_TEXT];  /* MISMATCH: the library's value of the first element */
	char want[MPIV_RED_TEXT]; /* MISMATCH: the second computation's */
	/* FAILED: the library's error string; UNCHECKED: why;
	 * else "" */
	char why[MPIV_RED_TEXT];
};

/* "mismatch", "failed", "corrupt", "unchecked"; NULL for another value. */
const char *mpiv_red_what_name(int what);

/* enum mpiv_red_what of a name above, or -1. */
int mpiv_red_what_from_name(const char *name);

/* Whether what is an MPI correctness error (check exits 1 for it): every finding but
 * UNCHECKED, which is a note. */
int mpiv_red_is_error(int what);

/* What finding r says, as one sentence for people (the recorder's message, check's report):
 * "MPI_SUM on MPI_DOUBLE: 1 of 8 elements differ; the first is element 3 (MPI_DOUBLE):
 * library 5, reliable 4 (allowed difference 1.8e-15)". */
void mpiv_red_describe(const struct mpiv_reduction *r, char *buf, unsigned long size);

/* Whether s is a text field a record may hold: shorter than MPIV_RED_TEXT, printable ASCII
 * (readers print and write it as JSON). */
int mpiv_red_text_ok(const char *s, unsigned long len);

/* What --check-reductions asks for. */
struct mpiv_red_opts {
	int correct; /* write the reliable result over the library's */
	/* relative tolerance of floating-point sums and products; < 0:
	 * the rounding bound (doc/reductions.md) */
	double tol;
};

/* Parse the value of --check-reductions, which MPIVERIFY_CHECK_REDUCTIONS passes to the
 * ranks as it is: words separated by commas, each "detect" (keep the library's result: the
 * default), "correct" (write the reliable one over it) or a tolerance (a finite number >= 0);
 * NULL or "" is "detect". Returns 0, or -1 (o unchanged) if s is none of these, or says both
 * detect and correct, or two tolerances. */
int mpiv_red_opts_parse(const char *s, struct mpiv_red_opts *o);

#endif
