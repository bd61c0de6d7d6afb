/* Buffering modes: their names and arguments (buffering.h). Plain C, no allocation: the
 * replayer reads counterexamples inside the user's program. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffering.h"

static const char *const buffering_modes[] = {"zero", "infinite", "eager"}; /* by mode */

void mpiv_buffering_name(const struct mpiv_buffering *b, char *buf, size_t size)
{
	const char *sync = b->sync_colls && b->mode != MPIV_BUF_ZERO ? "-sync" : "";

	if (b->mode == MPIV_BUF_EAGER)
		snprintf(buf, size, "eager-%lld%s", b->bytes, sync);
	else
		snprintf(buf, size, "%s%s", buffering_modes[b->mode], sync);
}

const char *mpiv_buffering_word(enum mpiv_buffering_mode mode)
{
	return buffering_modes[mode];
}

int mpiv_buffering_mode_of(const char *name)
{
	int m;

	for (m = MPIV_BUF_ZERO; m <= MPIV_BUF_EAGER; m++)
		if (!strcmp(name, buffering_modes[m]))
			return m;
	return -1;
}

int mpiv_buffering_parse(const char *s, struct mpiv_buffering *b)
{
	long long bytes;
	char *end;
	int m = mpiv_buffering_mode_of(s);

	if (m == MPIV_BUF_ZERO || m == MPIV_BUF_INFINITE) {
		b->mode = (enum mpiv_buffering_mode)m;
		b->bytes = 0;
		b->sync_colls = 0;
		return 0;
	}
	if (!strcmp(s, "infinite-sync")) {
		b->mode = MPIV_BUF_INFINITE;
		b->bytes = 0;
		b->sync_colls = 1;
		return 0;
	}
	if (strncmp(s, "eager-", 6))
		return -1;
	errno = 0;
	bytes = strtoll(s + 6, &end, 10);
	if (errno || end == s + 6 || (*end && strcmp(end, "-sync")) || bytes < 0)
		return -1;
	b->mode = MPIV_BUF_EAGER;
	b->bytes = bytes;
	b->sync_colls = *end != '\0';
	return 0;
}

int mpiv_buffering_arg(const char *arg, struct mpiv_buffering b[2], int *n)
{
	long long bytes;
	char *end;

	*n = 0;
	memset(b, 0, 2 * sizeof(*b));
	if (!strcmp(arg, "all") || !strcmp(arg, "zero")) {
		b[*n].mode = MPIV_BUF_ZERO;
		b[(*n)++].bytes = 0;
	}
	if (!strcmp(arg, "all") || !strcmp(arg, "infinite")) {
		b[*n].mode = MPIV_BUF_INFINITE;
		b[(*n)++].bytes = 0;
	}
	if (!strncmp(arg, "eager:", 6)) {
		errno = 0;
		bytes = strtoll(arg + 6, &end, 10);
		if (errno || end == arg + 6 || *end || bytes < 0)
			return -1;
		b[0].mode = MPIV_BUF_EAGER;
		b[0].bytes = bytes;
		*n = 1;
	}
	return *n ? 0 : -1;
}
