/* Ranks grouped by what they do (report_group.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_group.h"
#include "xalloc.h"

struct rank_class *classes_add(struct rank_classes *cs, const char *key, int r)
{
	struct rank_class *c = NULL;
	size_t i;

	for (i = 0; i < cs->n && !c && !cs->apart; i++)
		if (!strcmp(cs->c[i].key, key))
			c = &cs->c[i];
	if (!c) {
		xgrow((void **)&cs->c, &cs->cap, cs->n + 1, sizeof(*cs->c));
		c = &cs->c[cs->n++];
		memset(c, 0, sizeof(*c));
		c->key = xstrdup(key);
	}
	xgrow((void **)&c->ranks, &c->cap, (size_t)c->n + 1, sizeof(*c->ranks));
	c->ranks[c->n++] = r;
	return c;
}

const struct rank_class *classes_of(const struct rank_classes *cs, int r)
{
	size_t i;
	int k;

	for (i = 0; i < cs->n; i++)
		for (k = 0; k < cs->c[i].n; k++)
			if (cs->c[i].ranks[k] == r)
				return &cs->c[i];
	return NULL;
}

void classes_release(struct rank_classes *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		free(cs->c[i].key);
		free(cs->c[i].ranks);
	}
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}

void ranks_text(const int *ranks, int n, char *buf, size_t size)
{
	size_t len;
	int i, j;

	if (n == 1) {
		snprintf(buf, size, "rank %d", ranks[0]);
		return;
	}
	snprintf(buf, size, "ranks ");
	for (i = 0; i < n; i = j) {
		char part[32], tail[32];

		for (j = i + 1; j < n && ranks[j] == ranks[j - 1] + 1; j++)
			;
		if (j - i > 1)
			snprintf(part, sizeof(part), "%s%d-%d", i ? "," : "", ranks[i],
				 ranks[j - 1]);
		else
			snprintf(part, sizeof(part), "%s%d", i ? "," : "", ranks[i]);
		snprintf(tail, sizeof(tail), ",... (%d)", n);
		len = strlen(buf);
		if (len + strlen(part) + strlen(tail) + 1 > size) {
			snprintf(buf + len, size - len, "%s", tail);
			return;
		}
		snprintf(buf + len, size - len, "%s", part);
	}
	len = strlen(buf);
	snprintf(buf + len, size - len, " (%d)", n);
}
