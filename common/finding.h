/* What check and verify report, as suppressions name it and CI tracks it (doc/reports.md): the
 * kinds of finding, a finding's call sites, and the fingerprint that follows a finding from one
 * run to the next. */
#ifndef MPIV_FINDING_H
#define MPIV_FINDING_H

#include <stddef.h>

/* Every kind of finding, by its name in reports and suppressions. */
enum mpiv_finding_kind {
	/* "deadlock": whatever the library buffers, or a run
	 * showed it (verify), or not classified */
	MPIV_FIND_DEADLOCK,
	MPIV_FIND_POTENTIAL,	  /* "potential-deadlock": only without buffering */
	MPIV_FIND_BUFFERING,	  /* "buffering-induced-deadlock": only with buffering */
	MPIV_FIND_COLL_MISMATCH,  /* "collective-mismatch" */
	MPIV_FIND_READY_SEND,	  /* "ready-send": MPI_Rsend before its receive */
	MPIV_FIND_BSEND_OVERFLOW, /* "bsend-overflow": MPI_Bsend beyond the buffer */
	/* "crash": a rank died of a signal of its own, called
	 * MPI_Abort or exited without MPI_Finalize on a path a run
	 * took (verify) */
	MPIV_FIND_CRASH,
	MPIV_FIND_UNRECEIVED, /* the recorded run's warnings (check --json) */
	MPIV_FIND_TRUNCATED,
	MPIV_FIND_UNCOMPLETED,
	MPIV_FIND_COMM_LEAK,
	MPIV_FIND_DISCONNECT_PENDING,
	MPIV_FIND_RECV_BEFORE_SEND, /* ... and those from its times (record --timestamps) */
	MPIV_FIND_LONG_SEND,
	MPIV_FIND_RED_MISMATCH, /* record --check-reductions' errors */
	MPIV_FIND_RED_FAILED,
	MPIV_FIND_RED_CORRUPT,
	MPIV_FIND_RED_UNCHECKED, /* ... and its note */
	/* a rank that did not finish: reported, never suppressed
	 * (the run is not a whole path) */
	MPIV_FIND_RANK_STOPPED,
	MPIV_FIND__COUNT
};

/* "potential-deadlock" for MPIV_FIND_POTENTIAL; NULL for a number that is no kind. */
const char *mpiv_finding_kind_name(int kind);

/* The kind of a name above, or -1. */
int mpiv_finding_kind_from_name(const char *name);

/* Whether the kind is a deadlock or another erroneous state of the search (it decides the
 * exit status 1). */
int mpiv_finding_kind_is_deadlock(int kind);

/* One call of a finding: a blocked call of a deadlock, the call a warning is about. Strings
 * may be NULL when unknown; line 0. */
struct mpiv_finding_site {
	const char *call; /* "MPI_Send" */
	const char *function;
	const char *file; /* as the debug information names it */
	int line;
};

struct mpiv_finding {
	int kind;			 /* enum mpiv_finding_kind */
	struct mpiv_finding_site *sites; /* in the order the report gives them */
	size_t nsites;
};

/* The finding's sites each once (by call, file, line and function), sorted, into out (room
 * for f->nsites); returns how many. */
size_t mpiv_finding_distinct_sites(const struct mpiv_finding *f, struct mpiv_finding_site *out);

/* The file's last path component, or "?" when unknown (or empty). */
const char *mpiv_finding_basename(const char *file);

/* A fingerprint of the finding that stays the same from one run of the same program to the
 * next: its kind and its distinct calls by name, file (last component) and function; not the
 * ranks, event indices, sizes or lines (an edit elsewhere in the file moves lines). 16 hex
 * digits and a NUL into buf. */
#define MPIV_FINGERPRINT_SIZE 17
void mpiv_finding_fingerprint(const struct mpiv_finding *f, char buf[MPIV_FINGERPRINT_SIZE]);

#endif
