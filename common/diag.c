/* Messages to the user (git's usage.c, without the pluggable routines nobody needs yet). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "mpiverify: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void inform(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void die(enum mpiv_exit code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(code);
}

enum mpiv_exit error_report(const struct mpiv_error *err)
{
	char buf[1024];

	mpiv_error_format(err, buf, sizeof(buf));
	error("%s", buf);
	return err->set ? err->code : MPIV_EXIT_TOOL;
}

void mpiv_bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "mpiverify: BUG: %s:%d: %s\n", file, line, msg);
	abort();
}
