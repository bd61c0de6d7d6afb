/* The order between a rank's threads in its trace (trace_threads.c): pthread_create and
 * pthread_join, checked as they are added whichever file they come from (a binary trace's
 * thread records, a JSON trace's "threads"), and written as JSON. Layout:
 * doc/trace-format.md. */
#ifndef MPIV_TRACE_THREADS_H
#define MPIV_TRACE_THREADS_H

#include <jansson.h>

#include "trace.h"

/* Add op to t, whose events up to op->before are read (nevents: how many are). Returns 0, or
 * -1 with err filled (BAD_INPUT), where names the record ("record at byte 12", "threads[3]"). */
int mpiv_trace_add_thread_op(struct mpiv_rank_trace *t, const struct mpiv_thread_op *op,
			     size_t nevents, const char *where, struct mpiv_error *err);

/* The path of thread in t (base/steer.h: the name verify steers a thread by, the same in
 * every run): "0" for thread 0, "P.K" for the K-th thread that thread P created in t's
 * records (those there before MPI_Init, told at the trace's start, have none). Returns 0, or
 * -1 if its creation is not among them, or the path is longer than size - 1. */
int mpiv_thread_path(const struct mpiv_rank_trace *t, int32_t thread, char *buf, size_t size);

/* The first event of thread in t from event `from` on that is a decision
 * (mpiv_event_decision()), or -1: a thread's decisions in its own order, as the recorder
 * counts them to steer it. */
long mpiv_thread_next_decision(const struct mpiv_rank_trace *t, int32_t thread, size_t from);

/* Note who made the requests event ev of t makes (each new id: the recorder numbers a rank's
 * requests in the order it makes them), as the readers read the events in order. */
void mpiv_thread_note_requests(struct mpiv_rank_trace *t, const struct mpiv_event *ev);
void mpiv_thread_requests_release(struct mpiv_rank_trace *t);

/* The thread of t that made request id (the recorder's id), and into *nth the request's
 * number among that thread's requests, 0, 1, ... in the order it made them: the number a
 * thread's steering names it by (base/steer.h). -1 if no event of t makes it. In a trace of
 * one thread: 0, and *nth is id. */
int32_t mpiv_thread_request(const struct mpiv_rank_trace *t, int32_t id, int32_t *nth);

/* The id of the request that is the nth thread made in t, or -1. */
int32_t mpiv_thread_request_id(const struct mpiv_rank_trace *t, int32_t thread, int32_t nth);

/* The number in t of the thread whose path is path, or -1 if none has. */
int32_t mpiv_thread_of_path(const struct mpiv_rank_trace *t, const char *path);

/* t's thread records as a JSON array (new reference), or NULL when it has none. */
json_t *mpiv_thread_ops_to_json(const struct mpiv_rank_trace *t);

/* Add the records of a (the file's "threads", NULL if absent) to t, whose events are read.
 * Returns 0, or -1 with err filled (BAD_INPUT, with the JSON path of the field). */
int mpiv_thread_ops_from_json(json_t *a, struct mpiv_rank_trace *t, struct mpiv_error *err);

#endif
