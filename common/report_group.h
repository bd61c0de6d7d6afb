/* Ranks grouped by what they do, as the Stack Trace Analysis Tool groups stacks: the text
 * reports print a class of ranks in the same state, in the same call from the same place, once,
 * with its ranks as ranges ("ranks 1-5,7 (6)"), so that a report's length follows the classes,
 * not the ranks (--json keeps every rank). */
#ifndef MPIV_REPORT_GROUP_H
#define MPIV_REPORT_GROUP_H

#include <stddef.h>

/* Ranks from which on a class is printed as one: smaller ones are printed rank by rank, as
 * they always were. */
#define GROUP_MIN 3

/* Jobs of fewer ranks are printed rank by rank whatever their classes: each rank's call in
 * full says more, and their reports are short anyway. */
#define GROUP_FROM_RANKS 9

struct rank_class {
	char *key;  /* what its ranks share (the caller's words) */
	int *ranks; /* ascending, as added */
	int n;
	size_t cap;
};

/* Classes in the order of their first rank. */
struct rank_classes {
	struct rank_class *c;
	size_t n, cap;
	int apart; /* every rank a class of its own (a job of fewer than GROUP_FROM_RANKS) */
};

/* Classes for the ranks of a job of nranks. */
#define RANK_CLASSES(nranks)                            \
	{                                               \
		NULL, 0, 0, (nranks) < GROUP_FROM_RANKS \
	}

/* Add rank r (added in ascending order) to the class of key, made if new; returns it. */
struct rank_class *classes_add(struct rank_classes *cs, const char *key, int r);

/* The class of rank r, NULL if it has none. */
const struct rank_class *classes_of(const struct rank_classes *cs, int r);

void classes_release(struct rank_classes *cs);

/* "rank 3", or "ranks 0-5,7 (7)": ranks[0..n) ascending, as ranges, cut with "..." past what
 * size holds. */
void ranks_text(const int *ranks, int n, char *buf, size_t size);

#endif
