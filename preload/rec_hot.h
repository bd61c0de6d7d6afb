/* How the preload libraries keep the path of a recorded call short and its stack frame small
 * (the frame is on the program's stack, perhaps close to its limit). */
#ifndef MPIV_REC_HOT_H
#define MPIV_REC_HOT_H

/* On the functions every recorded call goes through (the call's start and end, and the
 * handlers of the calls programs make in their loops): inline every helper they call, from
 * every file (the preload libraries are built with link-time optimisation). A recorded call
 * then costs a few functions instead of a few dozen calls. */
#define REC_HOT __attribute__((flatten))

/* On what those helpers do only now and then (the first call of a thread or from a site,
 * a full buffer, a lock to take, a message to print): kept out of line, so that neither its
 * instructions nor its locals burden every call. */
#define REC_COLD __attribute__((noinline, cold))

#endif
