/* Call sites of Python programs (mpi4py): an MPI call made from Python comes from an extension
 * module's C code, the same few addresses whatever line of the script made it, so its site is
 * the script's line instead, asked of CPython, which is in the process. */
#ifndef MPIV_REC_PYSITE_H
#define MPIV_REC_PYSITE_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

/* The site of the call being made from return address ret: the script's line in a Python
 * program (rec_pysite()), else rec_site_lookup()'s. */
uint64_t rec_call_site(const void *ret);

/* Whether the process runs a Python interpreter (looked up once; cheap after). */
int rec_pysite_on(void);

/* The site of the calling thread's innermost Python frame outside mpi4py's own code and the
 * import machinery: MPIV_SITE(the module "python:FILE:FUNCTION", the line). 0 if the thread
 * runs no Python code now, or Python is starting or ending. */
uint64_t rec_pysite(void);

#pragma GCC visibility pop

#endif
