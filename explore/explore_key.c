/* The key of a deadlock (explore.h): the calls its ranks are stuck in, so that a run's hang
 * and a model's deadlock can be told to be the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "explore.h"
#include "xalloc.h"

void xkey_open(struct xkey *k)
{
	memset(k, 0, sizeof(*k));
}

static void push(char ***list, size_t *n, size_t *cap, const char *item)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*list)[i], item))
			return;
	xgrow((void **)list, cap, *n + 1, sizeof(**list));
	(*list)[(*n)++] = xstrdup(item);
}

void xkey_rank(struct xkey *k, unsigned call, const char *module, uint64_t addr)
{
	const char *name = mpiv_call_name(call);
	char item[700];

	snprintf(item, sizeof(item), "%s@%s+0x%llx;", name ? name : "?",
		 module && *module ? module : "?", (unsigned long long)addr);
	push(&k->all, &k->nall, &k->capall, item);
	if (mpiv_call_twin(call) != MPIV_CALL_Send)
		push(&k->core, &k->ncore, &k->capcore, item);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *xkey_close(struct xkey *k)
{
	char **list = k->ncore ? k->core : k->all;
	size_t n = k->ncore ? k->ncore : k->nall, i, len = 1;
	char *out;

	qsort(list, n, sizeof(*list), by_string);
	for (i = 0; i < n; i++)
		len += strlen(list[i]);
	out = xcalloc(len, 1);
	for (i = 0; i < n; i++)
		strcat(out, list[i]);
	for (i = 0; i < k->nall; i++)
		free(k->all[i]);
	for (i = 0; i < k->ncore; i++)
		free(k->core[i]);
	free(k->all);
	free(k->core);
	return out;
}

/* Is the item at p (up to and with its ';', len bytes) one of list's, whole? */
static int has_item(const char *list, const char *p, size_t len)
{
	const char *q, *end;

	for (q = list; *q; q = end + 1) {
		end = strchr(q, ';');
		if (!end)
			return 0;
		if ((size_t)(end - q + 1) == len && !memcmp(q, p, len))
			return 1;
	}
	return 0;
}

/* Is every item of a (each ends in ';') one of b's? */
static int within(const char *a, const char *b)
{
	const char *p, *end;

	for (p = a; *p; p = end + 1) {
		end = strchr(p, ';');
		if (!end || !has_item(b, p, (size_t)(end - p + 1)))
			return 0;
	}
	return 1;
}

int xkey_same(const char *a, const char *b)
{
	return a && b && (within(a, b) || within(b, a));
}

int explore_known(const struct explore *x, const char *key)
{
	int i;

	for (i = 0; i < x->nfound; i++)
		if (xkey_same(x->found[i].run->hang_key, key))
			return 1;
	return 0;
}
