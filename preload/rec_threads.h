/* The threads of a rank, as librecorder.so and libreplayer.so number them (rec_threads.c):
 * a thread's number is its own from its creation to its end, never another's, so that the
 * calls of two threads are never taken for one thread's. pthread_create and pthread_join are
 * interposed to give a created thread its number before it runs and to tell the recorder the
 * order they put between threads (doc/semantics.md 1.3), and pthread_exit to tell it that a
 * created thread ended as one that returns does. */
#ifndef MPIV_REC_THREADS_H
#define MPIV_REC_THREADS_H

#include <pthread.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* The calling thread's number: 0 for the thread that initialised MPI (the process's initial
 * thread, unless another called MPI_Init), the number its creator gave it for a thread created
 * through pthread_create, else a new one at its first ask; the initial thread, where another
 * initialised MPI, has that thread's. So a rank whose MPI calls come from one thread has them
 * all from thread 0, as its calls below MPI_THREAD_MULTIPLE must (MPI-4.1 11.6.1: the "main
 * thread" is the one that called MPI_Init). */
int32_t rec_thread_number(void);

/* Make the calling thread, about to initialise MPI, thread 0 (rec_thread_number()). Call
 * first in MPI_Init and MPI_Init_thread, before a number is asked for the call. */
void rec_thread_make_main(void);

/* The calling thread's path (base/steer.h), the same in every run of the program: "0" for
 * thread 0, "P.K" for the K-th thread that thread P created while creations were
 * told (rec_thread_told set), "" for any other. */
const char *rec_thread_path(void);

/* The library's own threads (the status writer): created by the C library's pthread_create,
 * unnumbered and unrecorded. */
int rec_thread_create_own(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);

/* Whether the calling thread is inside one of the library's MPI wrappers: a thread the MPI
 * library creates meanwhile (a progress thread) is its, not the program's, and gets no
 * number. Defined by each library (recorder/rec_call.c, replayer/wrappers.c). */
int rec_thread_in_call(void);

/* Tell rec_thread_told of the threads there are already, as if thread 0 had just created
 * them: the program's threads made before (not joined, not ended), and the initial thread
 * where another initialised MPI. For the recorder, once it begins to be told, so that a
 * trace names every thread that may call MPI. */
void rec_thread_tell_made(void);

/* Told of every pthread_create (op MPIV_THREAD_CREATE, made before the created thread runs),
 * every pthread_join that returned (MPIV_THREAD_JOIN), with the two threads' numbers, and of
 * every created thread's end, by return or pthread_exit (MPIV_THREAD_EXIT, its number twice): the
 * recorder writes them into the trace; NULL (the replayer) ignores them. */
extern void (*rec_thread_told)(int op, int32_t self, int32_t other);

#pragma GCC visibility pop

#endif
