/* The buffering of a search: what a standard send does (doc/semantics.md 2.2), and whether
 * collectives synchronise. One type for check, verify, the counterexample and the reports;
 * the engine, which stands alone (models/), has the same three values as enum eng_buffering,
 * and the translator passes one to the other in one place (tr_buffering()). */
#ifndef MPIV_BUFFERING_H
#define MPIV_BUFFERING_H

#include <stddef.h>

/* What a standard send does in a search (check --buffering), and so in its counterexample. */
enum mpiv_buffering_mode {
	MPIV_BUF_ZERO = 0,     /* no standard send completes before it is matched */
	MPIV_BUF_INFINITE = 1, /* every standard send completes at once */
	MPIV_BUF_EAGER = 2,    /* standard sends up to `bytes` complete at once */
};

struct mpiv_buffering {
	enum mpiv_buffering_mode mode;
	long long bytes; /* EAGER: the threshold in bytes; 0 otherwise */
	/* 1: every collective synchronises (each member waits for
	 * every other), as MPI allows it to whatever the buffering;
	 * 0: with buffering, a member waits only for the data it needs
	 * (doc/semantics.md 5.2). ZERO always synchronises: 0 there */
	int sync_colls;
};

/* The mode's name, as reports and check's directories give it: "zero", "infinite",
 * "eager-BYTES", with "-sync" after a buffering mode whose collectives synchronise; into buf,
 * which size 32 always holds. */
void mpiv_buffering_name(const struct mpiv_buffering *b, char *buf, size_t size);

/* Read a name mpiv_buffering_name() gives. Returns 0, or -1 if s is not one (b unchanged). */
int mpiv_buffering_parse(const char *s, struct mpiv_buffering *b);

/* "zero", "infinite" or "eager": the mode's word, as cex.json's "mode" has it. */
const char *mpiv_buffering_word(enum mpiv_buffering_mode mode);

/* The mode whose word is name (enum mpiv_buffering_mode), or -1. */
int mpiv_buffering_mode_of(const char *name);

/* The modes a --buffering argument names: "zero", "infinite", "eager:BYTES", or "all" (zero
 * and infinite), into b[0..*n) (room for 2). Returns 0, or -1 if arg is none of them. */
int mpiv_buffering_arg(const char *arg, struct mpiv_buffering b[2], int *n);

#endif
