/* The clock of the recording-overhead benchmarks: CPU seconds of the whole rank process (its
 * threads included, the recorder's status thread among them). The machine is shared: a busy
 * spell stretches wall time by whole scheduler slices, CPU time far less, so that ratios of
 * best runs stay readable. */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <time.h>

static inline double bench_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
