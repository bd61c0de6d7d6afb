/* Name, kind and flag tables of the MPI calls, built from base/mpi_calls.def. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"

/* By call number; a number that is no call has a NULL name. */
static const struct {
	const char *name;
	enum mpiv_kind kind;
	unsigned flags;
} calls[MPIV_CALL__COUNT] = {
#define MPIV_CALL(name, number, kind, flags, params, args) \
	[number] = {"MPI_" #name, MPIV_KIND_##kind, flags},
#include "mpi_calls.def"
#undef MPIV_CALL
};

const char *mpiv_call_name(unsigned call)
{
	if (call >= MPIV_CALL__COUNT)
		return NULL;
	return calls[call].name;
}

int mpiv_call_from_name(const char *name)
{
	unsigned i;

	if (!name)
		return -1;
	for (i = 0; i < MPIV_CALL__COUNT; i++) {
		if (calls[i].name &&
		    (!strcmp(calls[i].name, name) || !strcmp(calls[i].name + 4, name)))
			return (int)i;
	}
	return -1;
}

enum mpiv_kind mpiv_call_kind(unsigned call)
{
	if (call >= MPIV_CALL__COUNT || !calls[call].name)
		return MPIV_KIND_UNSUPPORTED;
	return calls[call].kind;
}

#include "large_twins.gen.h"

unsigned mpiv_call_twin(unsigned call)
{
	size_t lo = 0, hi = sizeof(large_twins) / sizeof(large_twins[0]);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (large_twins[mid][0] < call)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sizeof(large_twins) / sizeof(large_twins[0]) && large_twins[lo][0] == call ?
		       large_twins[lo][1] :
		       call;
}

unsigned mpiv_call_flags(unsigned call)
{
	if (call >= MPIV_CALL__COUNT)
		return 0;
	return calls[call].flags;
}

const struct mpiv_event mpiv_event_none = {
	.peer = MPIV_NONE,
	.tag = MPIV_NONE,
	.comm = MPIV_NONE,
	.src = MPIV_NONE,
	.mtag = MPIV_NONE,
	.root = MPIV_NONE,
	.peer2 = MPIV_NONE,
	.tag2 = MPIV_NONE,
	.win = MPIV_NONE,
	.lock = MPIV_NONE,
	.repeat = 1,
};

void mpiv_event_init(struct mpiv_event *ev, unsigned call)
{
	/* A copy of a constant: a few wide moves, where a memset would be GCC's slow `rep stos`
	 * (the recorder does this at every call). */
	*ev = mpiv_event_none;
	ev->call = (uint16_t)call;
}

int mpiv_failed_poll(unsigned call, int32_t src, unsigned flags, uint32_t nreqs, uint32_t npending)
{
	enum mpiv_kind kind = mpiv_call_kind(call);

	if (!(mpiv_call_flags(call) & MPIV_F_POLL))
		return 0;
	if (kind == MPIV_KIND_PROBE || kind == MPIV_KIND_MPROBE)
		return src == MPIV_NONE;
	if (kind == MPIV_KIND_WIN_WAIT) /* MPI_Win_test (its runs are not folded: it has a flag) */
		return (flags & MPIV_EV_NOT_DONE) != 0;
	return nreqs > 0 && npending == nreqs;
}

int mpiv_event_failed_poll(const struct mpiv_event *ev)
{
	return mpiv_failed_poll(ev->call, ev->src, ev->flags, ev->nreqs, ev->npending);
}

int mpiv_call_any_completion(unsigned call)
{
	return call == MPIV_CALL_Waitany || call == MPIV_CALL_Testany ||
	       call == MPIV_CALL_Waitsome || call == MPIV_CALL_Testsome;
}

enum mpiv_decision mpiv_decision_of(unsigned call, int32_t peer, int32_t peer2, int32_t src,
				    uint32_t nreqs, uint32_t npending)
{
	switch (mpiv_call_kind(call)) {
	case MPIV_KIND_RECV:
	case MPIV_KIND_IRECV:
		return peer == MPIV_ANY_SOURCE ? MPIV_DEC_SOURCE : MPIV_DEC_NONE;
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		/* a probe that found nothing (a failed MPI_Iprobe, MPI_Improbe) chose nothing */
		return peer == MPIV_ANY_SOURCE && src != MPIV_NONE ? MPIV_DEC_SOURCE :
								     MPIV_DEC_NONE;
	case MPIV_KIND_SENDRECV:
	case MPIV_KIND_ISENDRECV:
		return peer2 == MPIV_ANY_SOURCE ? MPIV_DEC_SOURCE : MPIV_DEC_NONE;
	case MPIV_KIND_WAIT:
		if (!mpiv_call_any_completion(call))
			return MPIV_DEC_NONE;
		return nreqs >= 2 && npending < nreqs ? MPIV_DEC_COMPLETION : MPIV_DEC_NONE;
	default:
		return MPIV_DEC_NONE;
	}
}

enum mpiv_decision mpiv_event_decision(const struct mpiv_event *ev)
{
	return mpiv_decision_of(ev->call, ev->peer, ev->peer2, ev->src, ev->nreqs, ev->npending);
}

int32_t mpiv_event_recv_tag(const struct mpiv_event *ev)
{
	enum mpiv_kind kind = mpiv_call_kind(ev->call);

	return kind == MPIV_KIND_SENDRECV || kind == MPIV_KIND_ISENDRECV ? ev->tag2 : ev->tag;
}

/* What a field of a rank, a source or a peer may hold besides a world rank. */
enum rank_specials {
	RS_NONE = 1 << 0,      /* MPIV_NONE: not used by the call */
	RS_ANY = 1 << 1,       /* MPIV_ANY_SOURCE */
	RS_PROC_NULL = 1 << 2, /* MPIV_PROC_NULL */
};

/* The name of a field for a message: field, with the entry's index in it for a field of an
 * array (a format with one %u; idx >= 0). Made only when a check fails: events are many. */
static const char *field_name(char *buf, size_t size, const char *field, long idx)
{
	if (idx < 0)
		return field;
	snprintf(buf, size, field, (unsigned)idx);
	return buf;
}

/* Whether v is a world rank or one of the specials allowed; else why is filled. */
static int check_rank(const char *field, long idx, int32_t v, int32_t size, unsigned allowed,
		      char *why, size_t whysize)
{
	char name[48];

	if ((v >= 0 && v < size) || (v == MPIV_NONE && (allowed & RS_NONE)) ||
	    (v == MPIV_ANY_SOURCE && (allowed & RS_ANY)) ||
	    (v == MPIV_PROC_NULL && (allowed & RS_PROC_NULL)))
		return 0;
	snprintf(why, whysize, "%s: %d, expected a world rank (0 to %d)%s",
		 field_name(name, sizeof(name), field, idx), v, size - 1,
		 (allowed & RS_ANY) && (allowed & RS_PROC_NULL) ?
			 ", MPI_ANY_SOURCE or MPI_PROC_NULL" :
		 allowed & RS_PROC_NULL ? " or MPI_PROC_NULL" :
					  "");
	return -1;
}

/* Whether v is a tag: >= 0, MPIV_NONE, or MPIV_ANY_TAG when any is allowed. */
static int check_tag(const char *field, long idx, int32_t v, int any, char *why, size_t whysize)
{
	char name[48];

	if (v >= 0 || v == MPIV_NONE || (any && v == MPIV_ANY_TAG))
		return 0;
	snprintf(why, whysize, "%s: %d, expected a tag (0 or more)%s",
		 field_name(name, sizeof(name), field, idx), v, any ? " or MPI_ANY_TAG" : "");
	return -1;
}

/* Whether the data digests of ev are where data moves: data on a send, rdata on a blocking
 * receive, a request's on a completed one of a completion call or one a start starts; else
 * why is filled. */
static int check_digests(const struct mpiv_event *ev, char *why, size_t whysize)
{
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	uint32_t i;

	if (ev->data && kind != MPIV_KIND_SEND && kind != MPIV_KIND_ISEND &&
	    kind != MPIV_KIND_SENDRECV && kind != MPIV_KIND_ISENDRECV) {
		snprintf(why, whysize,
			 "data: %u, expected 0 (only a send has the digest of the data it sent)",
			 ev->data);
		return -1;
	}
	if (ev->rdata && kind != MPIV_KIND_RECV && kind != MPIV_KIND_SENDRECV &&
	    mpiv_call_twin(ev->call) != MPIV_CALL_Mrecv) {
		snprintf(why, whysize,
			 "rdata: %u, expected 0 (only a blocking receive has the digest of the "
			 "data it took)",
			 ev->rdata);
		return -1;
	}
	for (i = 0; i < ev->nreqs; i++) {
		if (!ev->reqs[i].data || kind == MPIV_KIND_START ||
		    (kind == MPIV_KIND_WAIT && i < ev->nreqs - ev->npending))
			continue;
		snprintf(why, whysize,
			 "reqs[%u].data: %u, expected 0 (only a request a completion call "
			 "completed, or one a start started, has a digest)",
			 i, ev->reqs[i].data);
		return -1;
	}
	return 0;
}

int mpiv_event_check(const struct mpiv_event *ev, int32_t size, char *why, size_t whysize)
{
	uint32_t i;

	if (!mpiv_call_name(ev->call)) {
		snprintf(why, whysize, "call: %u, expected a call of mpi_calls.def", ev->call);
		return -1;
	}
	if (ev->flags & ~MPIV_EV_FLAGS_ALL) {
		snprintf(why, whysize, "flags: unknown bits 0x%x", ev->flags & ~MPIV_EV_FLAGS_ALL);
		return -1;
	}
	/* A completed receive's status names a rank or MPI_PROC_NULL (a receive from it), its
	 * tag MPI_ANY_TAG then; never MPI_ANY_SOURCE. */
	if (check_rank("peer", -1, ev->peer, size, RS_NONE | RS_ANY | RS_PROC_NULL, why, whysize) ||
	    check_tag("tag", -1, ev->tag, 1, why, whysize) ||
	    check_rank("peer2", -1, ev->peer2, size, RS_NONE | RS_ANY | RS_PROC_NULL, why,
		       whysize) ||
	    check_tag("tag2", -1, ev->tag2, 1, why, whysize) ||
	    check_rank("root", -1, ev->root, size, RS_NONE | RS_PROC_NULL, why, whysize) ||
	    check_rank("src", -1, ev->src, size, RS_NONE | RS_PROC_NULL, why, whysize) ||
	    check_tag("mtag", -1, ev->mtag, 1, why, whysize))
		return -1;
	if (ev->comm < MPIV_COMM_UNKNOWN && ev->comm != MPIV_NONE) {
		snprintf(why, whysize,
			 "comm: %d, expected a communicator id (0 or more, -1 for "
			 "one the recorder cannot name)",
			 ev->comm);
		return -1;
	}
	if (ev->thread < 0) {
		snprintf(why, whysize, "thread: %d, expected 0 or more", ev->thread);
		return -1;
	}
	if (ev->win < 0 && ev->win != MPIV_NONE) {
		snprintf(why, whysize, "win: %d, expected a window (0 or more)", ev->win);
		return -1;
	}
	if (ev->lock != MPIV_NONE && ev->lock != MPIV_LOCK_SHARED &&
	    ev->lock != MPIV_LOCK_EXCLUSIVE) {
		snprintf(why, whysize, "lock: %d, expected %d (shared) or %d (exclusive)", ev->lock,
			 MPIV_LOCK_SHARED, MPIV_LOCK_EXCLUSIVE);
		return -1;
	}
	/* the engine keeps sizes signed */
	if (ev->bytes > (uint64_t)INT64_MAX) {
		snprintf(why, whysize, "bytes: %llu, expected at most %lld",
			 (unsigned long long)ev->bytes, (long long)INT64_MAX);
		return -1;
	}
	if (ev->npending > ev->nreqs) {
		snprintf(why, whysize, "pending: %u, expected at most the %u requests listed",
			 ev->npending, ev->nreqs);
		return -1;
	}
	if (check_digests(ev, why, whysize))
		return -1;
	for (i = 0; i < ev->nreqs; i++) {
		const struct mpiv_reqinfo *r = &ev->reqs[i];

		/* -1: a request the recorder did not see being made */
		if (r->req < -1) {
			snprintf(why, whysize,
				 "reqs[%u].req: %d, expected a request id (0 or more, "
				 "-1 for an unknown one)",
				 i, r->req);
			return -1;
		}
		if (check_rank("reqs[%u].src", i, r->src, size, RS_NONE | RS_PROC_NULL, why,
			       whysize) ||
		    check_tag("reqs[%u].tag", i, r->tag, 1, why, whysize))
			return -1;
	}
	for (i = 0; i < ev->ngroup; i++)
		if (check_rank("group[%u]", i, ev->group[i], size, 0, why, whysize))
			return -1;
	if (ev->repeat == 0) {
		snprintf(why, whysize, "repeat: 0, expected 1 or more");
		return -1;
	}
	/* times are nanoseconds of a clock (JSON keeps them as signed 64-bit integers) */
	if (ev->enter > (uint64_t)INT64_MAX) {
		snprintf(why, whysize, "enter: %llu, expected at most %lld nanoseconds",
			 (unsigned long long)ev->enter, (long long)INT64_MAX);
		return -1;
	}
	if (ev->leave > (uint64_t)INT64_MAX || (ev->leave && ev->leave < ev->enter)) {
		snprintf(why, whysize,
			 "leave: %llu, expected nanoseconds from enter (%llu) to "
			 "%lld",
			 (unsigned long long)ev->leave, (unsigned long long)ev->enter,
			 (long long)INT64_MAX);
		return -1;
	}
	if (ev->repeat > 1 && (!mpiv_event_failed_poll(ev) || ev->flags)) {
		snprintf(why, whysize,
			 "repeat: %llu, but only a poll that found nothing (an "
			 "MPI_Test* that completed none of its requests, an MPI_Iprobe without a "
			 "source) is made more than once",
			 (unsigned long long)ev->repeat);
		return -1;
	}
	return 0;
}

void mpiv_event_release(struct mpiv_event *ev)
{
	free(ev->reqs);
	ev->reqs = NULL;
	ev->nreqs = 0;
	free(ev->group);
	ev->group = NULL;
	ev->ngroup = 0;
}
