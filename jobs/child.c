/* What mpiverify's pools of child processes share (child.h). */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <sched.h>
#include <unistd.h>

#include "child.h"

int child_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int child_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	while (n) {
		w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}
