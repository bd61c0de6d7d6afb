/* Tables keyed by request id, for the passes that follow a rank's requests through its trace
 * (the cut finder, the builder). The recorder numbers a rank's requests 0, 1, ... and never
 * reuses an id, so a table indexed by id grows with the run, however few requests are live at
 * once; this one holds the ids put in it and not deleted since (open addressing). */
#ifndef MPIV_TR_REQMAP_H
#define MPIV_TR_REQMAP_H

#include <stddef.h>
#include <stdint.h>

struct tr_reqmap {
	char *slot;  /* cap entries of `size` bytes, each starting with its int32_t id */
	size_t size; /* bytes an entry */
	size_t cap;  /* a power of 2, or 0 */
	size_t n;    /* ids in it */
	size_t used; /* slots taken, those of deleted ids included */
};

/* An empty table of entries of size bytes (a struct whose first member is its int32_t id). */
void tr_reqmap_init(struct tr_reqmap *m, size_t size);

/* The entry of id (>= 0), or NULL. */
void *tr_reqmap_get(const struct tr_reqmap *m, int32_t id);

/* The entry of id (>= 0), added (all zero but its id) if it was not there. Entries move when
 * the table grows: a pointer from get or put holds until the next put. */
void *tr_reqmap_put(struct tr_reqmap *m, int32_t id);

void tr_reqmap_del(struct tr_reqmap *m, int32_t id);

/* The entries one by one: from *at = 0, each call returns the next (NULL after the last). */
void *tr_reqmap_next(const struct tr_reqmap *m, size_t *at);

void tr_reqmap_release(struct tr_reqmap *m);

#endif
