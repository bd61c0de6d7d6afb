/* Slurm as the launcher (slurm.h): srun's command line for one of verify's job steps, the size
 * of the allocation, and a step lost with its node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm.h"
#include "xalloc.h"

int slurm_is_srun(char *const *argv)
{
	const char *base;

	if (!argv || !argv[0])
		return 0;
	base = strrchr(argv[0], '/');
	return !strcmp(base ? base + 1 : argv[0], "srun");
}

int slurm_in_allocation(void)
{
	const char *id = getenv("SLURM_JOB_ID");

	return id && *id;
}

char **slurm_step_command(char *const *argv)
{
	size_t n = 0, i, k = 0;
	int sized = 0;
	char **out;

	if (!slurm_is_srun(argv))
		return NULL;
	while (argv[n])
		n++;
	/* srun's own options come before the program: stop at its first non-option is not
	 * possible without knowing which options take values, so look at every word; a program
	 * argument spelt "--exact" only costs the step its own --exact */
	for (i = 1; i < n; i++)
		if (!strcmp(argv[i], "--exact") || !strcmp(argv[i], "--exclusive") ||
		    !strncmp(argv[i], "--exclusive=", 12))
			sized = 1;
	out = xcalloc(n + 2, sizeof(*out));
	out[k++] = argv[0];
	if (!sized)
		out[k++] = "--exact";
	for (i = 1; i < n; i++)
		out[k++] = argv[i];
	out[k] = NULL;
	return out;
}

/* "8(x2),4": CPUs per node, with repeat counts. Returns the sum, or 0 if s is not that. */
static int sum_cpus_per_node(const char *s)
{
	long total = 0;
	char *end;

	while (*s) {
		long cpus = strtol(s, &end, 10), times = 1;

		if (end == s || cpus < 0)
			return 0;
		s = end;
		if (!strncmp(s, "(x", 2)) {
			times = strtol(s + 2, &end, 10);
			if (end == s + 2 || *end != ')' || times < 1)
				return 0;
			s = end + 1;
		}
		total += cpus * times;
		if (total > 1L << 30)
			return 0;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return (int)total;
}

int slurm_allocation_cpus(void)
{
	const char *s;
	long n;
	char *end;

	if (!slurm_in_allocation())
		return 0;
	s = getenv("SLURM_NTASKS");
	if (s && *s) {
		n = strtol(s, &end, 10);
		if (!*end && n > 0 && n < 1L << 30)
			return (int)n;
	}
	s = getenv("SLURM_JOB_CPUS_PER_NODE");
	return s ? sum_cpus_per_node(s) : 0;
}

int slurm_node_failed(const char *output_path)
{
	char line[4096];
	int failed = 0;
	FILE *f = fopen(output_path, "r");

	if (!f)
		return 0;
	while (!failed && fgets(line, sizeof(line), f))
		if (!strncmp(line, "srun: ", 6) &&
		    (strstr(line, "Node failure") || strstr(line, "NODE_FAIL")))
			failed = 1;
	fclose(f);
	return failed;
}
