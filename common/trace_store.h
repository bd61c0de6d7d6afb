/* A rank's events kept as the records of its binary file, decoded when asked for
 * (trace_store.c): what trace.c's reader builds for mpiv_trace_load_records(), and
 * mpiv_trace_event() reads. Internal to common/. */
#ifndef MPIV_TRACE_STORE_H
#define MPIV_TRACE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "filemap.h"

struct mpiv_trace_store;

/* A store of the records in a whole file, *map (taken: released with the store), of trace
 * format version `version`, at path. The file is read again as events are asked for: one
 * that another program wrote in place since is a fatal error (exit 3, naming it). */
struct mpiv_trace_store *mpiv_store_new(struct mpiv_filemap *map, uint32_t version,
					const char *path);

/* The reader checked the records in bytes [from, to): the store will read them again only
 * when asked for their events (mpiv_map_forget()). */
void mpiv_store_passed(struct mpiv_trace_store *s, size_t from, size_t to);

/* The site table so far, the reader's (decoding an event while the file is read needs it):
 * the store looks at it, until mpiv_store_own_sites() gives it the whole table (malloc'ed,
 * the store's to free). */
void mpiv_store_sites(struct mpiv_trace_store *s, const uint64_t *sites, size_t n);
void mpiv_store_own_sites(struct mpiv_trace_store *s, uint64_t *sites, size_t n);

/* Event `index` (the next one) starts at byte off of the data, with the decoder's last request
 * id last_req before it. */
void mpiv_store_event(struct mpiv_trace_store *s, size_t index, size_t off, int32_t last_req);

/* Event ev->index was written again (a blocked call once it returned): ev is what it is now
 * (copied, requests and group too). */
void mpiv_store_rewrite(struct mpiv_trace_store *s, const struct mpiv_event *ev);

/* The records end at byte len (a file cut inside a record is read up to the one before). */
void mpiv_store_end(struct mpiv_trace_store *s, size_t len);

/* Event i of the store (mpiv_trace_event()). */
const struct mpiv_event *mpiv_store_get(struct mpiv_trace_store *s, size_t i);

void mpiv_store_free(struct mpiv_trace_store *s);

#endif
