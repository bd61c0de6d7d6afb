/* The reduction check's findings and option (reduction.h), shared by the recorder, the trace
 * readers and the CLI. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

void mpiv_red_describe(const struct mpiv_reduction *r, char *buf, unsigned long size)
{
	const char *corrected = r->flags & MPIV_RED_CORRECTED ?
					"; the reliable result was written over the library's" :
					"";
	char allowed[64];

	switch (r->what) {
	case MPIV_RED_MISMATCH:
		if (r->flags & MPIV_RED_TOL_GIVEN)
			snprintf(allowed, sizeof(allowed),
				 "allowed difference %.3g, by the given "
				 "tolerance",
				 r->allowed);
		else if (r->rel == 0)
			snprintf(allowed, sizeof(allowed), "compared exactly");
		else
			snprintf(allowed, sizeof(allowed), "allowed difference %.3g", r->allowed);
		snprintf(buf, size,
			 "%s on %s: %llu of %llu elements differ; the first is element "
			 "%llu (%s): library %s, reliable %s (%s)%s",
			 r->op, r->type, (unsigned long long)r->differ,
			 (unsigned long long)r->count, (unsigned long long)r->first, r->elem,
			 r->got, r->want, allowed, corrected);
		break;
	case MPIV_RED_FAILED:
		snprintf(buf, size, "%s on %s: the library returned error %d: %s%s", r->op, r->type,
			 r->code, r->why, corrected);
		break;
	case MPIV_RED_CORRUPT:
		snprintf(buf, size,
			 "%s on %s: not judged: the contribution of rank %d to the "
			 "second computation arrived damaged (%s): the network or the MPI library "
			 "corrupts plain messages",
			 r->op, r->type, r->peer, r->why);
		break;
	default:
		snprintf(buf, size, "%s on %s: not checked: %s", r->op, r->type, r->why);
		break;
	}
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
	int said = 0; /* detect or correct was given */
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
			return -1; /* a trailing comma */
	}
	*o = r;
	return 0;
}
