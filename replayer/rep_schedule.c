/* What the counterexample (cex.json) wants of this rank during replay: which sender each
 * wildcard receive must match and which standard sends must not be buffered, looked up by
 * event index; and the place where divergence from the recorded path is detected. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replayer.h"
#include "rec_comm.h"
#include "rec_status.h"

static struct mpiv_cex rep_cex;			/* the whole counterexample */
static const struct mpiv_cex_rank *rep_me;	/* this rank's entry, NULL without one */

int rep_schedule_load(int rank, int size)
{
	const char *path = getenv("MPIVERIFY_CEX");
	struct mpiv_error err;
	char text[1024];
	int i;

	if (!path || !*path) {
		rec_msg("MPIVERIFY_CEX is not set: nothing to replay");
		return -1;
	}
	mpiv_error_init(&err);
	if (mpiv_cex_load(path, &rep_cex, &err) != 0) {
		mpiv_error_format(&err, text, sizeof(text));
		rec_msg("cannot load counterexample %s", text);
		return -1;
	}
	if (rep_cex.nranks != size) {
		rec_msg("counterexample '%s' has %d ranks, this run has %d", path, rep_cex.nranks,
			size);
		goto fail;
	}
	/* ranks[] is by rank; search anyway rather than trust it. */
	for (i = 0; i < rep_cex.nranks; i++) {
		if (rep_cex.ranks[i].rank == rank)
			rep_me = &rep_cex.ranks[i];
	}
	if (!rep_me) {
		rec_msg("counterexample '%s' has no entry for rank %d", path, rank);
		goto fail;
	}
	return 0;
fail:
	mpiv_cex_release(&rep_cex);
	return -1;
}

void rep_schedule_release(void)
{
	rep_me = NULL;
	mpiv_cex_release(&rep_cex);
}

const struct mpiv_cex_op *rep_schedule_op(uint32_t index)
{
	return rep_me ? mpiv_cex_find(rep_me, index) : NULL;
}

void rep_schedule_check(const struct rep_call *c)
{
	/* Divergence check, still to write: compare c->call (and, in the handlers, the
	 * envelope) with event c->index of this rank's recorded trace, and call rep_diverged()
	 * at the first difference. It needs the trace itself (rep_cex.trace_dir), which the
	 * replayer does not read yet: the counterexample alone does not say which call each
	 * index is. */
	(void)c;
}

int rep_schedule_source(const struct rep_call *c, int source, MPI_Comm comm)
{
	const struct mpiv_cex_op *op;
	int r;

	if (source != MPI_ANY_SOURCE)
		return source;
	op = rep_schedule_op(c->index);
	if (!op || op->match_rank < 0)
		return source;
	r = rec_comm_from_world(comm, op->match_rank);
	if (r < 0) {
		rep_diverged(c, "the counterexample matches world rank %d, which is not in the "
			     "receive's communicator", op->match_rank);
		return source;
	}
	return r;
}

int rep_schedule_sync(const struct rep_call *c)
{
	const struct mpiv_cex_op *op = rep_schedule_op(c->index);

	return op && op->sync == 1;	/* -1: not a standard send; 0: buffered */
}

void rep_diverged(const struct rep_call *c, const char *fmt, ...)
{
	char text[512];
	int n;
	va_list ap;

	n = snprintf(text, sizeof(text), "%s (event %u): ", mpiv_call_name(c->call), c->index);
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - n, fmt, ap);
	va_end(ap);
	rec_msg("diverged: %s", text);
	rec_status_diverged(text);
}
