/* struct mpiv_error: the first error wins. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

void mpiv_error_init(struct mpiv_error *err)
{
	memset(err, 0, sizeof(*err));
	err->rank = -1;
	err->event = -1;
}

int mpiv_error_set(struct mpiv_error *err, enum mpiv_exit code, const char *source, int rank,
		   long event, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->set)
		return -1;
	err->set = 1;
	err->code = code;
	snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
	err->rank = rank;
	err->event = event;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	return -1;
}

void mpiv_error_format(const struct mpiv_error *err, char *buf, unsigned long size)
{
	size_t n = 0;

	buf[0] = '\0';
	if (err->source[0])
		n += snprintf(buf + n, size - n, "'%s': ", err->source);
	if (err->rank >= 0 && n < size)
		n += snprintf(buf + n, size - n, "rank %d: ", err->rank);
	if (err->event >= 0 && n < size)
		n += snprintf(buf + n, size - n, "event %ld: ", err->event);
	if (err->line > 0 && n < size)
		n += snprintf(buf + n, size - n, "line %d: ", err->line);
	if (n < size)
		snprintf(buf + n, size - n, "%s", err->text);
}
