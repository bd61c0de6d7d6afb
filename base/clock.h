/* The one clock for time limits and timeouts: monotonic, so that a change of the wall clock
 * neither ends a search early nor lets it run on. */
#ifndef MPIV_CLOCK_H
#define MPIV_CLOCK_H

#include <time.h>

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
static inline double mpiv_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
