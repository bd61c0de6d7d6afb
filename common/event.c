/* Name, kind and flag tables of the MPI calls, built from common/mpi_calls.def. */
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

unsigned mpiv_call_flags(unsigned call)
{
	if (call >= MPIV_CALL__COUNT)
		return 0;
	return calls[call].flags;
}

void mpiv_event_init(struct mpiv_event *ev, unsigned call)
{
	/* Field by field, not memset or a compound literal: the recorder does this at every
	 * call, and GCC makes either a `rep stos`, whose start-up cost was a tenth of the
	 * recorder's time per call. Padding is left alone: nothing reads it. */
	ev->index = 0;
	ev->call = (uint16_t)call;
	ev->flags = 0;
	ev->peer = MPIV_NONE;
	ev->tag = MPIV_NONE;
	ev->comm = MPIV_NONE;
	ev->root = MPIV_NONE;
	ev->src = MPIV_NONE;
	ev->mtag = MPIV_NONE;
	ev->thread = 0;
	ev->peer2 = MPIV_NONE;
	ev->tag2 = MPIV_NONE;
	ev->npending = 0;
	ev->bytes = 0;
	ev->site = 0;
	ev->nreqs = 0;
	ev->reqs = NULL;
	ev->win = MPIV_NONE;
	ev->lock = MPIV_NONE;
	ev->ngroup = 0;
	ev->group = NULL;
	ev->repeat = 1;
}

int mpiv_failed_poll(unsigned call, int32_t src, unsigned flags, uint32_t nreqs,
		     uint32_t npending)
{
	enum mpiv_kind kind = mpiv_call_kind(call);

	if (!(mpiv_call_flags(call) & MPIV_F_POLL))
		return 0;
	if (kind == MPIV_KIND_PROBE || kind == MPIV_KIND_MPROBE)
		return src == MPIV_NONE;
	if (kind == MPIV_KIND_WIN_WAIT)	/* MPI_Win_test (its runs are not folded: it has a flag) */
		return (flags & MPIV_EV_NOT_DONE) != 0;
	return nreqs > 0 && npending == nreqs;
}

int mpiv_event_failed_poll(const struct mpiv_event *ev)
{
	return mpiv_failed_poll(ev->call, ev->src, ev->flags, ev->nreqs, ev->npending);
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
		return peer == MPIV_ANY_SOURCE && src != MPIV_NONE ? MPIV_DEC_SOURCE : MPIV_DEC_NONE;
	case MPIV_KIND_SENDRECV:
		return peer2 == MPIV_ANY_SOURCE ? MPIV_DEC_SOURCE : MPIV_DEC_NONE;
	case MPIV_KIND_WAIT:
		if (call != MPIV_CALL_Waitany && call != MPIV_CALL_Testany &&
		    call != MPIV_CALL_Waitsome && call != MPIV_CALL_Testsome)
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
	return mpiv_call_kind(ev->call) == MPIV_KIND_SENDRECV ? ev->tag2 : ev->tag;
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
