/* The call stack of a blocked MPI call, for both preload libraries: the status thread asks the
 * thread that is in the call for its stack with a signal, the handler only copies return
 * addresses into a buffer of that thread, and the status thread turns them into module paths
 * and offsets, which the CLI resolves to file:line. */
#ifndef MPIV_REC_STACK_H
#define MPIV_REC_STACK_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* The signal that asks a thread for its stack. SIGURG because programs hardly use it (it
 * reports out-of-band socket data, for sockets that asked for it) and because its default
 * action is to ignore it: a stray one does no harm. The handler is installed only if the
 * program has none for it; see rec_stack_init(). */
#define REC_STACK_SIGNAL SIGURG
#define REC_STACK_MAX 64	/* frames taken, the handler's own included */

enum rec_stack_state {
	REC_STACK_IDLE = 0,	/* nothing asked */
	REC_STACK_WANTED = 1,	/* the signal is on its way: the handler may fill the buffer */
	REC_STACK_DONE = 2,	/* the handler filled the buffer */
};

/* One thread's capture buffer (in its status slot). Written by the handler on its thread
 * while state is WANTED, read by the status thread once it is DONE. */
struct rec_stack {
	atomic_int state;		/* enum rec_stack_state */
	int n;				/* frames in frames[] */
	void *frames[REC_STACK_MAX];	/* innermost first: the handler, the signal
					 * trampoline, MPI's code, our wrapper, the program */
};

/* Install the handler of REC_STACK_SIGNAL unless the program has one, and call backtrace()
 * once so that the unwinder is loaded before any handler needs it (loading allocates, which
 * a signal handler must not). Returns 0, or -1 if stacks cannot be taken (nothing is
 * printed: the report then gives the call site alone). */
int rec_stack_init(void);

/* The calling thread keeps its stack in st from now on (called once per thread, before it
 * can be asked). */
void rec_stack_bind(struct rec_stack *st);

/* Ask thread tid of this process for its stack into st (which that thread bound). Returns 0
 * if the signal was sent, -1 if stacks are off, the handler was replaced by the program, or
 * the thread is gone. */
int rec_stack_request(struct rec_stack *st, pid_t tid);

/* Format the stack st holds (state DONE) as text, one frame a line, "PATH+0xADDR" with ADDR
 * relative to the module's link-time addresses (MPIV_SITE_ADDR's convention), leaving out the
 * frames of the handler, MPI and this library: the first line is the program's call into MPI.
 * Lines that do not fit in size are dropped whole. Returns the number of lines, 0 if none.
 * Not for signal handlers (it asks the dynamic loader). */
int rec_stack_format(const struct rec_stack *st, char *buf, size_t size);

#pragma GCC visibility pop

#endif
