/* Call sites to function, file and line, at check (or report) time, with elfutils' libdwfl on
 * the module the recorder named. Results are cached per (module, address). */
#ifndef MPIV_SRCLOC_H
#define MPIV_SRCLOC_H

#include <stdint.h>

#include "cex.h"

/* Resolve a return address (relative to the module's link-time addresses, as the recorder
 * writes it) in the file at path. Fills out with newly allocated strings; fields it cannot
 * resolve are NULL/0. Returns 0 if at least the function or the file is known, else -1. */
int mpiv_srcloc_resolve(const char *path, uint64_t addr, struct mpiv_cex_site *out);

/* The path of the source file of the same address, joined to the directory it was compiled
 * in when the debug information names it relative to that: where a report reads the lines
 * around the call. Returns 0, or -1 if it is not known (or does not fit in size). */
int mpiv_srcloc_source_path(const char *path, uint64_t addr, char *buf, unsigned long size);

/* "file:line (function)" or what is known of it, into buf. */
void mpiv_srcloc_format(const struct mpiv_cex_site *s, char *buf, unsigned long size);

void mpiv_cex_site_release(struct mpiv_cex_site *s);

#endif
