/* Windows for both preload libraries: a small table from window handle to the trace's window
 * id and the window's group as world ranks. Windows are few and long-lived: a linear table. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "grow.h"
#include "rec_comm.h"
#include "rec_win.h"

struct win_entry {
	MPI_Win win;	/* the program's handle */
	int32_t id;	/* the trace's window id */
	uint32_t n;	/* members of its group */
	int32_t *world; /* its group as world ranks */
};

static pthread_mutex_t win_lock = PTHREAD_MUTEX_INITIALIZER; /* everything below */
static struct win_entry *wins;
static size_t nwins, capwins;
static int32_t next_id; /* ids are never reused: a freed window's handle may be */

int32_t rec_win_add(MPI_Win win)
{
	MPI_Group g;
	struct win_entry e = {win, MPIV_NONE, 0, NULL};
	int32_t id = MPIV_NONE;

	if (PMPI_Win_get_group(win, &g) == MPI_SUCCESS) {
		e.world = rec_group_to_world(g, &e.n);
		PMPI_Group_free(&g);
	}
	pthread_mutex_lock(&win_lock);
	if (!mpiv_grow((void **)&wins, &capwins, nwins, sizeof(*wins))) {
		e.id = id = next_id++;
		wins[nwins++] = e;
	} else {
		free(e.world);
	}
	pthread_mutex_unlock(&win_lock);
	return id;
}

/* The entry of win, under win_lock; NULL if unknown. */
static struct win_entry *win_find(MPI_Win win)
{
	size_t i;

	for (i = 0; i < nwins; i++)
		if (wins[i].win == win)
			return &wins[i];
	return NULL;
}

int32_t rec_win_id(MPI_Win win)
{
	struct win_entry *e;
	int32_t id;

	pthread_mutex_lock(&win_lock);
	e = win_find(win);
	id = e ? e->id : MPIV_NONE;
	pthread_mutex_unlock(&win_lock);
	return id;
}

int32_t rec_win_to_world(MPI_Win win, int rank)
{
	struct win_entry *e;
	int32_t w = MPIV_NONE;

	if (rank == MPI_PROC_NULL)
		return MPIV_PROC_NULL;
	pthread_mutex_lock(&win_lock);
	e = win_find(win);
	if (e && rank >= 0 && (uint32_t)rank < e->n)
		w = e->world[rank];
	pthread_mutex_unlock(&win_lock);
	return w;
}

int32_t *rec_win_group(MPI_Win win, uint32_t *n)
{
	struct win_entry *e;
	int32_t *out = NULL;

	*n = 0;
	pthread_mutex_lock(&win_lock);
	e = win_find(win);
	if (e && e->n && (out = malloc(e->n * sizeof(*out))) != NULL) {
		memcpy(out, e->world, e->n * sizeof(*out));
		*n = e->n;
	}
	pthread_mutex_unlock(&win_lock);
	return out;
}

void rec_win_remove(MPI_Win win)
{
	struct win_entry *e;

	pthread_mutex_lock(&win_lock);
	e = win_find(win);
	if (e) {
		free(e->world);
		*e = wins[--nwins];
	}
	pthread_mutex_unlock(&win_lock);
}
