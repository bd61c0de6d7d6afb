/* Translator: what the times of a recorded run say of its messages (tr_times.c), the message
 * matching warnings of a trace recorded with `record --timestamps`. */
#ifndef MPIV_TR_TIMES_H
#define MPIV_TR_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include "translate.h"

/* A blocking send is reported as long (TR_WARN_LONG_SEND) when it took at least this long
 * and TR_LONG_SEND_RATIO times as long as its blocking receive. */
#define TR_LONG_SEND_NS 1000000
#define TR_LONG_SEND_RATIO 10

struct tr_times {
	const struct mpiv_traceset *ts;
	/* per rank with a clock, by event: for a nonblocking receive,
	 * the event that completed it, else -1; NULL for a rank
	 * without a clock */
	int32_t **done;
	struct tr_warning *w; /* the warnings so far, one per pair of call sites */
	size_t n, cap;
};

/* Get ready for the matches of ts. */
void tr_times_init(struct tr_times *tt, const struct mpiv_traceset *ts);

/* Rank recv's event recv_ev received the message of rank send's event send_ev: compare their
 * times, if both ranks have them. */
void tr_times_match(struct tr_times *tt, int recv, long recv_ev, int send, long send_ev);

/* The warnings found, one per pair of call sites (with how many messages and the worst):
 * moved to the caller (*out, malloc'ed; their number returned), tt released. */
size_t tr_times_finish(struct tr_times *tt, struct tr_warning **out);

#endif
