/* The replayer's MPI_* entry points, expanded from base/mpi_calls.def like the recorder's:
 * every call is numbered exactly as the recorder numbers it, shows in the live status and is
 * checked against the recorded trace (its envelope from the extractor env_<name>() the recorder
 * uses too, preload/env.h; rep_schedule.c compares); a call with a rep_<name>() handler
 * (rep_force.c) goes through it, any other to PMPI_<name>. */
#include <stdatomic.h>

#include "replayer.h"
#include "rec_pysite.h"
#include "rec_site.h"
#include "rec_status.h"
#include "rec_threads.h"

/* >0 while this thread is inside a wrapper: MPI calls made meanwhile are not the program's.
 * Same rule as the recorder's guard, so that both count the same calls. */
static __thread int rep_depth;

int rec_thread_in_call(void)
{
	return rep_depth > 0;
}

void rep_guard_take(void)
{
	rep_depth++;
}

void rep_guard_drop(void)
{
	rep_depth--;
}

/* Set once for good: this process replays nothing (rep_call_off()). */
static atomic_int rep_off;

void rep_call_off(void)
{
	atomic_store_explicit(&rep_off, 1, memory_order_relaxed);
}

int rep_call_enter(struct rep_call *c, unsigned call, const void *ret)
{
	if (rep_depth > 0 || atomic_load_explicit(&rep_off, memory_order_relaxed))
		return 0;
	rep_guard_take();
	c->call = call;
	c->index = rep_schedule_index();
	c->site = rec_call_site(ret);
	c->peer = MPIV_NONE;
	c->tag = MPIV_NONE;
	c->comm = MPIV_NONE;
	c->root = MPIV_NONE;
	c->win = MPIV_NONE;
	c->bytes = 0;
	c->has_bytes = 0;
	c->op = NULL;
	c->forced = 0;
	c->matched = MPIV_NONE;
	c->poll = 0;
	c->found = 0;
	c->made = NULL;
	c->mpicomm = MPI_COMM_NULL;
	c->rc = MPI_SUCCESS;
	rep_schedule_hold(c->index);
	c->thread = rec_status_enter(call, c->index, c->site);
	return 1;
}

void rep_call_envelope(struct rep_call *c, const struct mpiv_env *e)
{
	c->peer = e->peer;
	c->tag = e->tag;
	c->comm = e->comm;
	c->root = e->root;
	c->win = e->win;
	c->bytes = e->bytes;
	c->has_bytes = e->has_bytes;
	/* MPI_Comm_idup's request is left to MPI: its communicator is not usable before the
	 * wait, so replay neither follows nor synchronises it (rep_comm.c) */
	if (!(mpiv_call_flags(c->call) & MPIV_F_NEWCOMM)) {
		c->made = e->request;
		c->mpicomm = e->mpicomm;
	}
}

void rep_call_leave(struct rep_call *c)
{
	if (c->made)
		rep_request_made(c); /* before the cursor moves past its recorded event */
	rep_schedule_after(c);
	rec_status_leave(c->poll && !c->found);
	rep_guard_drop();
}

#define MPIV_SPECIAL(name, number, kind, flags, params, args)
#define MPIV_CALL(name, number, kind, flags, params, args)                              \
	MPIV_EXPORT int MPI_##name params                                               \
	{                                                                               \
		struct rep_call c;                                                      \
		int rc;                                                                 \
                                                                                        \
		if (!rep_call_enter(&c, MPIV_CALL_##name, __builtin_return_address(0))) \
			return PMPI_##name args;                                        \
		if (env_##name) {                                                       \
			struct mpiv_env e = MPIV_ENV_NONE;                              \
                                                                                        \
			env_##name(&e, MPIV_UNPAREN args);                              \
			rep_call_envelope(&c, &e);                                      \
		}                                                                       \
		rep_schedule_check(&c, c.thread);                                       \
		rep_coll_check(&c);                                                     \
		if (rep_##name)                                                         \
			rc = rep_##name(&c, MPIV_UNPAREN args);                         \
		else                                                                    \
			rc = PMPI_##name args;                                          \
		c.rc = rc;                                                              \
		rep_call_leave(&c);                                                     \
		return rc;                                                              \
	}
#include "mpi_calls.def"
#undef MPIV_CALL
#undef MPIV_SPECIAL
