/* Windows for both preload libraries: the id the trace gives each window (numbered per rank in
 * creation order, so that the recorder and the replayer agree), its group as world ranks, and
 * ranks of its group translated to world ranks (events always hold world ranks). */
#ifndef MPIV_REC_WIN_H
#define MPIV_REC_WIN_H

#include <stdint.h>

#include <mpi.h>

#pragma GCC visibility push(hidden)

/* Remember the window win just created: returns its id (0, 1, ... per rank), or MPIV_NONE if
 * out of memory. Makes MPI calls (its group). */
int32_t rec_win_add(MPI_Win win);

/* The id of win, or MPIV_NONE for a window not created through the wrappers. */
int32_t rec_win_id(MPI_Win win);

/* The world rank of rank in win's group; MPI_PROC_NULL becomes MPIV_PROC_NULL; MPIV_NONE if
 * unknown. */
int32_t rec_win_to_world(MPI_Win win, int rank);

/* The window's group as world ranks: a malloc'ed copy of *n entries, or NULL (n = 0). */
int32_t *rec_win_group(MPI_Win win, uint32_t *n);

/* Forget win (MPI_Win_free is about to free it). */
void rec_win_remove(MPI_Win win);

#pragma GCC visibility pop

#endif
