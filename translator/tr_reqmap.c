/* Tables keyed by request id (tr_reqmap.h): linear probing, deleted ids left as tombstones
 * until the table is rebuilt, which it is when live ids and tombstones fill half of it. */
#include <stdlib.h>
#include <string.h>

#include "tr_reqmap.h"
#include "xalloc.h"

#define EMPTY INT32_MIN	     /* a slot never taken */
#define GONE (INT32_MIN + 1) /* a slot whose id was deleted */

static int32_t *id_at(const struct tr_reqmap *m, size_t k)
{
	return (int32_t *)(void *)(m->slot + k * m->size);
}

static size_t home(const struct tr_reqmap *m, int32_t id)
{
	uint32_t h = (uint32_t)id * 2654435761u;

	return (size_t)(h ^ (h >> 15)) & (m->cap - 1);
}

void tr_reqmap_init(struct tr_reqmap *m, size_t size)
{
	memset(m, 0, sizeof(*m));
	m->size = size;
}

void *tr_reqmap_get(const struct tr_reqmap *m, int32_t id)
{
	size_t k;

	if (!m->cap)
		return NULL;
	for (k = home(m, id); *id_at(m, k) != EMPTY; k = (k + 1) & (m->cap - 1))
		if (*id_at(m, k) == id)
			return id_at(m, k);
	return NULL;
}

/* Room for the live ids and as many more, the tombstones dropped. */
static void rebuild(struct tr_reqmap *m)
{
	struct tr_reqmap old = *m;
	size_t k;

	m->cap = 16;
	while (m->cap < 4 * (old.n + 1))
		m->cap *= 2;
	m->slot = xmalloc(m->cap * m->size);
	for (k = 0; k < m->cap; k++)
		*id_at(m, k) = EMPTY;
	m->n = m->used = 0;
	for (k = 0; k < old.cap; k++) {
		int32_t id = *id_at(&old, k);
		size_t j;

		if (id == EMPTY || id == GONE)
			continue;
		for (j = home(m, id); *id_at(m, j) != EMPTY; j = (j + 1) & (m->cap - 1))
			;
		memcpy(id_at(m, j), id_at(&old, k), m->size);
		m->n++;
		m->used++;
	}
	free(old.slot);
}

void *tr_reqmap_put(struct tr_reqmap *m, int32_t id)
{
	int32_t *e = tr_reqmap_get(m, id);
	size_t k;

	if (e)
		return e;
	if (2 * (m->used + 1) > m->cap)
		rebuild(m);
	for (k = home(m, id); *id_at(m, k) != EMPTY && *id_at(m, k) != GONE;
	     k = (k + 1) & (m->cap - 1))
		;
	if (*id_at(m, k) == EMPTY)
		m->used++;
	e = id_at(m, k);
	memset(e, 0, m->size);
	*e = id;
	m->n++;
	return e;
}

void tr_reqmap_del(struct tr_reqmap *m, int32_t id)
{
	int32_t *e = tr_reqmap_get(m, id);

	if (e) {
		*e = GONE;
		m->n--;
	}
}

void *tr_reqmap_next(const struct tr_reqmap *m, size_t *at)
{
	for (; *at < m->cap; (*at)++)
		if (*id_at(m, *at) != EMPTY && *id_at(m, *at) != GONE)
			return id_at(m, (*at)++);
	return NULL;
}

void tr_reqmap_release(struct tr_reqmap *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}
