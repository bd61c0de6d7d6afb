/* What mpiverify's pools of child processes share (verify's runs, verify_pool.c; check's
 * searches, search_pool.c): how many CPUs there are to fill, and a child's reply written
 * whole into its pipe. */
#ifndef MPIV_CHILD_H
#define MPIV_CHILD_H

#include <stddef.h>

/* The CPUs this process may run on (its affinity), at least 1. */
int child_cpus(void);

/* Write n bytes of p to fd, through EINTR and short writes. Returns 0, or -1. */
int child_write_all(int fd, const void *p, size_t n);

#endif
