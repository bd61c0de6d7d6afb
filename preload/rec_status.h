/* The live status of a rank (base/status.h), shared by librecorder.so and libreplayer.so: the
 * MPI wrappers say what each thread is doing with a few atomic stores, and a background thread
 * rewrites $MPIVERIFY_STATUS_DIR/rank-<r>.status for the monitor in the mpiverify process.
 *
 * What the monitor can rely on (one struct mpiv_status, rewritten with one pwrite at offset 0
 * every MPIV_STATUS_PERIOD_MS; the file appears when PMPI_Init has returned, so a rank without
 * one has not got through MPI_Init yet):
 *   state     STARTING until MPI_Init returns; IN_CALL while any thread of the rank is inside an
 *             intercepted call; RUNNING otherwise; FINALIZED once MPI_Finalize was entered (the
 *             file is then final and `beat` stops); DIVERGED (replay) is sticky and wins over
 *             FINALIZED; FAILED (replay: the rank cannot replay) likewise.
 *   call/op/site  IN_CALL: the longest-running call (lowest op) of all threads; otherwise the
 *             last call made. op is the call's event index in the trace and the
 *             counterexample when the program has one thread (the recorder's trace gives it; a
 *             run of failed polls is one event); with several, the trace numbers calls in the
 *             order their records are written, and op is only close to it.
 *   progress  calls returned so far, failed polls left out; unchanged progress while IN_CALL
 *             means a blocked rank.
 *   polls     failed polls returned so far: a rank whose polls grow while its progress
 *             stands still polls without progress (call/op/site then name its last poll).
 *   beat      bumped at every rewrite; a beat that stops before FINALIZED means a dead rank.
 *   module    the path of the module the site is in (resolve with
 *             mpiv_srcloc_resolve(module, MPIV_SITE_ADDR(site))), "" if unknown.
 *   text      DIVERGED, FAILED: what happened; otherwise the notes given to rec_status_note().
 *   stack     IN_CALL in the same call for about half a second or more: that thread's stack
 *             (rec_stack.h), nframes lines, taken in call stack_op; nframes is 0 until then,
 *             or if stacks cannot be taken (the program handles SIGURG, or
 *             MPIVERIFY_NO_STACKS is set).
 * A reader racing a rewrite may see a torn record: read it again if magic or version is wrong
 * or if two reads in a row disagree. */
#ifndef MPIV_REC_STATUS_H
#define MPIV_REC_STATUS_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Open <dir>/rank-<rank>.status, write it once and start the writer thread. Call after MPI_Init
 * returned, inside the Init wrapper. Returns 0, or -1 with a one-line reason in why (nothing
 * is printed; calls keep working without a file). */
int rec_status_init(int rank, int size, const char *dir, char *why, size_t whysize);

/* The calling thread entered MPI call `call` (enum mpiv_call), number op, at site. Only
 * atomic stores (plus a one-time registration per thread). Returns the thread's number
 * (rec_thread_number(): 0 for the initial thread), -1 if the thread cannot be tracked (out of
 * memory). */
int rec_status_enter(unsigned call, uint32_t op, uint64_t site);

/* The calling thread's current call returned (each rec_status_enter() has its leave): bumps
 * progress, or, for a failed poll (a test that completed nothing, a nonblocking probe that
 * found nothing), the count of polls, which the monitor does not take for progress. Only
 * stores, no read-modify-write. */
void rec_status_leave(int failed_poll);

/* A thread's slot, which holds what it is doing. */
struct st_slot;

/* The calling thread's slot, NULL if it has made no call yet (or is out of memory), for a
 * thread that makes many calls to keep: it stays the thread's until the thread ends. */
struct st_slot *rec_status_self(void);

/* rec_status_enter() and rec_status_leave(0) of the thread whose slot is s (rec_status_self()),
 * without looking the slot up. */
void rec_status_enter_at(struct st_slot *s, unsigned call, uint32_t op, uint64_t site);
void rec_status_leave_at(struct st_slot *s);

/* The call the owner of s is blocked in has event index op after all: another thread (the
 * recorder's watcher, which wrote it into the trace) says so while the owner waits. */
void rec_status_set_op(struct st_slot *s, uint32_t op);

/* Set FINALIZED, stop the writer thread and write the file a last time, synchronously. */
void rec_status_finalize(void);

/* Say FINALIZED (final 1), or no longer (0: a process of the Sessions model began a session
 * again after it ended its last), and write the file at once; the writer thread runs on. */
void rec_status_set_final(int final);

/* Add a line of kind (enum mpiv_note_kind) to the status text (shown unless DIVERGED), if it
 * fits whole; its kind is noted whether it fits or not. Thread-safe; takes a lock, so not for
 * every call. */
void rec_status_note(unsigned kind, const char *line);

/* Set DIVERGED with text (cut to fit) and write the file at once; from now on the file names
 * the call that diverged (call, op, site) rather than the latest one. Thread-safe. */
void rec_status_diverged(unsigned call, uint32_t op, uint64_t site, const char *text);

/* The calling thread got a fatal signal and the rank is about to die: take its stack and write
 * the file at once with it (stack_op MPIV_STATUS_CRASH_OP), so that verify can say where the
 * rank died. For the recorder's fatal-signal handler only; does nothing if the writer is
 * busy (the crash came while it wrote), nor unless unwind (the stack can be walked without
 * faulting again: the handler's caller knows). */
void rec_status_crashed(int unwind);

/* Set FAILED with text (cut to fit) and write the file at once. Thread-safe. */
void rec_status_failed(const char *text);

/* How many periods the writer has completed so far (0 before rec_status_init). */
uint64_t rec_status_beat(void);

/* Have fn(beat) run by the writer thread once per period, before it writes the file (the
 * recorder uses it to write calls blocked for a while as incomplete events). fn must not make
 * MPI calls. */
void rec_status_set_tick(void (*fn)(uint64_t beat));

/* The recorder's count of the rank's threads blocked in a call not yet in the trace file, for
 * the status file (struct mpiv_status's unwritten). */
void rec_status_unwritten(unsigned n);

#pragma GCC visibility pop

#endif
