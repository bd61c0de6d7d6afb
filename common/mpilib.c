/* What mpiverify knows of particular MPI libraries: their eager thresholds, so that `check
 * --buffering all` can also search with the buffering of the library the run used. */
#include <string.h>

#include "mpilib.h"

struct mpilib {
	const char *version;	/* the first line of MPI_Get_library_version, whitespace folded */
	long long eager;	/* largest standard send completed without its receive, bytes */
};

/* Measured, not read from documentation: two ranks on one host each MPI_Send N bytes to the
 * other before receiving; the largest N that completes. Debian 12's mpich 4.0.2 (device
 * ch4:ucx, shared memory between the ranks): 8255 completes, 8256 hangs. Another build or
 * device of the same version may differ; MPIR_CVAR settings change it too. */
static const struct mpilib libs[] = {
	{"MPICH Version: 4.0.2", 8255},
};

/* Compare with runs of spaces and tabs folded to one space. */
static int same_words(const char *a, const char *b)
{
	while (*a && *b) {
		if ((*a == ' ' || *a == '\t') && (*b == ' ' || *b == '\t')) {
			while (*a == ' ' || *a == '\t')
				a++;
			while (*b == ' ' || *b == '\t')
				b++;
			continue;
		}
		if (*a++ != *b++)
			return 0;
	}
	while (*a == ' ' || *a == '\t')
		a++;
	while (*b == ' ' || *b == '\t')
		b++;
	return !*a && !*b;
}

long long mpiv_mpilib_eager(const char *library)
{
	size_t i;

	for (i = 0; library && i < sizeof(libs) / sizeof(libs[0]); i++)
		if (same_words(library, libs[i].version))
			return libs[i].eager;
	return -1;
}
