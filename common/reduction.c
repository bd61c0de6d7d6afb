/* The reduction check's findings and option (reduction.h), shared by the recorder, the trace
 * readers and the CLI. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduction.h"

static const char *const what_names[] = {
	[MPIV_RED_MISMATCH] = "mismatch",
	[MPIV_RED_FAILED] = "failed",
	[MPIV_RED_CORRUPT] = "corrupt",
	[MPIV_RED_UNCHECKED] = "unchecked",
};

const char *mpiv_red_what_name(int what)
{
	if (what < MPIV_RED_MISMATCH || what > MPIV_RED_LAST)
		return NULL;
	return what_names[what];
}

int mpiv_red_what_from_name(const char *name)
{
	int w;

	for (w = MPIV_RED_MISMATCH; name && w <= MPIV_RED_LAST; w++)
		if (!strcmp(what_names[w], name))
			return w;
	return -1;
}

int mpiv_red_is_error(int what)
{
	return what >= MPIV_RED_MISMATCH && what < MPIV_RED_UNCHECKED;
}

int mpiv_red_text_ok(const char *s, unsigned long len)
{
	unsigned long i;

	if (len >= MPIV_RED_TEXT)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

int mpiv_red_opts_parse(const char *s, struct mpiv_red_opts *o)
{
	struct mpiv_red_opts r = {0, -1.0};
	int said = 0;		/* detect or correct was given */
	const char *p = s ? s : "";

	while (*p) {
		size_t n = strcspn(p, ",");
		char word[64], *end;

		if (n == 0 || n >= sizeof(word))
			return -1;
		memcpy(word, p, n);
		word[n] = '\0';
		if (!strcmp(word, "detect") || !strcmp(word, "correct")) {
			if (said++)
				return -1;
			r.correct = word[0] == 'c';
		} else {
			double v;

			errno = 0;
			v = strtod(word, &end);
			if (errno || *end || !isfinite(v) || v < 0 || r.tol >= 0)
				return -1;
			r.tol = v;
		}
		p += n;
		if (*p == ',' && !*++p)
			return -1;	/* a trailing comma */
	}
	*o = r;
	return 0;
}
