/* The call stack of a blocked MPI call, for both preload libraries: the status thread asks the
 * thread that is in the call for its stack with a signal, the handler only copies return
 * addresses into a buffer of that thread, and the status thread turns them into module paths
 * and offsets, which the CLI resolves to file:line. The handler runs on an alternate signal
 * stack this library gives each thread that makes MPI calls, never on the program's own
 * stack: a program that runs close to its stack limit must not crash because it was asked
 * for its stack (a signal frame and an unwinder take several KiB). */
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
#define REC_STACK_MAX 64 /* frames taken, the handler's own included */
/* The alternate signal stack a thread gets, and the least one of the program's the handler
 * unwinds on: room for a signal frame (a few KiB with AVX-512 state), backtrace()'s unwinder
 * and, for a fatal signal, the recorder's handler and the one of the program it calls. */
#define REC_STACK_ALT_ROOM (128u << 10)

enum rec_stack_state {
	REC_STACK_IDLE = 0,   /* nothing asked */
	REC_STACK_WANTED = 1, /* the signal is on its way: the handler may fill the buffer */
	REC_STACK_DONE = 2,   /* the handler filled the buffer */
};

/* One thread's capture buffer (in its status slot). Written by the handler on its thread
 * while state is WANTED, read by the status thread once it is DONE. */
struct rec_stack {
	atomic_int state; /* enum rec_stack_state */
	int n;		  /* frames in frames[]; 0 if none could be taken */
	/* innermost first: the handler, the signal
	 * trampoline, MPI's code, our wrapper, the program */
	void *frames[REC_STACK_MAX];
	/* the alternate signal stack this library gave the
	 * thread (its lowest byte, a guard page), NULL if the
	 * thread had one of its own or none could be made */
	char *alt;
	size_t altsize; /* bytes mapped at alt */
	/* the thread's handler runs on an alternate stack
	 * with room for the unwinder (REC_STACK_ALT_ROOM): its
	 * own or this library's; else it is never asked */
	int askable;
	/* a Python program's: the script's frames of the thread's last call, innermost first
	 * (rec_stack_python()), shown instead of the C frames of the interpreter */
	int npy;
	uint64_t py[REC_STACK_MAX];
};

/* Install the handler of REC_STACK_SIGNAL unless the program has one, and call backtrace()
 * once so that the unwinder is loaded before any handler needs it (loading allocates, which
 * a signal handler must not). Returns 0, or -1 if stacks cannot be taken (nothing is
 * printed: the report then gives the call site alone). */
int rec_stack_init(void);

/* The calling thread keeps its stack in st from now on (called once per thread, before it
 * can be asked), and gets an alternate signal stack unless it has one: the handler of
 * REC_STACK_SIGNAL, and the recorder's handlers of fatal signals, run there. A thread whose
 * own alternate stack has less than REC_STACK_ALT_ROOM is never asked for its stack. */
void rec_stack_bind(struct rec_stack *st);

/* The calling thread is ending: give back its alternate signal stack, if this library made
 * it. */
void rec_stack_unbind(struct rec_stack *st);

/* Which stack a signal handler of the calling thread runs on, where being an address on it. */
enum rec_stack_alt {
	REC_ALT_NONE = 0,    /* the thread's own stack */
	REC_ALT_OURS = 1,    /* the alternate signal stack this library gave the thread */
	REC_ALT_PROGRAM = 2, /* an alternate signal stack the program set up */
};
/* Async-signal-safe. */
enum rec_stack_alt rec_stack_alt_of(const void *where);

/* Ask thread tid of this process for its stack into st (which that thread bound). Returns 0
 * if the signal was sent, -1 if stacks are off, the handler was replaced by the program, the
 * thread has no alternate signal stack of this library's, or the thread is gone. */
int rec_stack_request(struct rec_stack *st, pid_t tid);

/* Take the calling thread's stack into st now, from the handler of a fatal signal (the rank is
 * about to die: nothing asks for it), if the handler runs on an alternate stack with room for
 * the unwinder. Returns the number of frames, 0 if none were taken. */
int rec_stack_take(struct rec_stack *st);

/* Format the stack st holds (state DONE) as text, one frame a line, "PATH+0xADDR" with ADDR
 * relative to the module's link-time addresses (MPIV_SITE_ADDR's convention), leaving out the
 * frames of the handler, MPI and this library: the first line is the program's call into MPI.
 * Lines that do not fit in size are dropped whole. Returns the number of lines, 0 if none.
 * Not for signal handlers (it asks the dynamic loader), but for that of a fatal signal, whose
 * rank dies whatever happens. */
int rec_stack_format(const struct rec_stack *st, char *buf, size_t size);

/* The calling thread's Python frames at the call it is entering (rec_pysite.c): n sites,
 * innermost first. Nothing if the thread has no buffer. */
void rec_stack_python(const uint64_t *sites, int n);

#pragma GCC visibility pop

#endif
