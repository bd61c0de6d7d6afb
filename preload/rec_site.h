/* Call sites for both preload libraries: a return address becomes MPIV_SITE(module id, address
 * relative to the module's link-time addresses), which the CLI resolves to file:line later. */
#ifndef MPIV_REC_SITE_H
#define MPIV_REC_SITE_H

#include <stdint.h>

#include "event.h"

#pragma GCC visibility push(hidden)

/* Module id of sites whose module is unknown (no loaded object, or too many modules); their
 * address is then the absolute one. */
#define REC_SITE_NO_MODULE MPIV_SITE_NO_MODULE

/* The site of return address ret. Cached: after the first time an address is seen this is a
 * hash lookup with no lock. Never fails (see REC_SITE_NO_MODULE). A return address in the MPI
 * library's own shared objects (its Fortran bindings call MPI_*) or in this library is not
 * the program's: then the site is the first frame of the calling thread's stack outside them
 * (an unwinding, each time). */
uint64_t rec_site_lookup(const void *ret);

/* Whether addr is in the MPI library's shared objects or in this library. Makes no module
 * of an object it has not met (any thread may ask). */
int rec_site_inner(const void *addr);

/* The path of module id, or NULL if unknown. The string lives as long as the process. */
const char *rec_site_module_path(unsigned id);

/* A module of no loaded object, its path as given (rec_pysite.c's scripts): its id, or
 * REC_SITE_NO_MODULE if the table is full or memory is short. */
unsigned rec_site_add_module(const char *path);

/* Call fn(id, path) for every module seen so far and then for each new one, as it is first
 * seen (with an internal lock held: fn must not call back into rec_site). */
void rec_site_set_hook(void (*fn)(unsigned id, const char *path));

#pragma GCC visibility pop

#endif
