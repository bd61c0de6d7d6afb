/* How every command reads its command line: getopt_long() with opterr 0 and ':' first in the
 * option string ("+:" where a launcher follows, so that parsing stops at it), and every error
 * reported the same way: "mpiverify: <what>", then "try 'mpiverify <cmd> --help'". */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "mpiverify: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\ntry 'mpiverify %s --help'\n", cmd);
	return MPIV_EXIT_USAGE;
}

int option_error(const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	char name[64];

	/* A long option is named as written, without its "=value"; a short one by its letter
	 * (argv may hold it in a cluster such as "-jo", or getopt may not have moved past it). */
	if (!strncmp(arg, "--", 2))
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(name, sizeof(name), "-%c", optopt);
	if (c == ':')
		return usage_error(cmd, "option '%s' needs a value", name);
	/* getopt_long() names a known long option given "=value" it takes none by its val */
	if (!strncmp(arg, "--", 2) && optopt)
		return usage_error(cmd, "option '%s' takes no value", name);
	return usage_error(cmd, "unknown option '%s'", name);
}

int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* isfinite() without libm: NaN fails v > 0, infinity fails v <= 1e7 */
	if (errno || end == s || *end || !(v > 0) || v > 1e7)
		return -1;
	*out = v;
	return 0;
}

int parse_count(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < 1 ? -1 : 0;
}

int launcher_args(const char *cmd, int argc, int optind, const char *out)
{
	if (optind >= argc)
		return usage_error(cmd,
				   "no launcher command given (for example: "
				   "mpiverify %s -- mpirun -np 2 ./app)",
				   cmd);
	if (!*out)
		return usage_error(cmd, "empty output directory name");
	return 0;
}
