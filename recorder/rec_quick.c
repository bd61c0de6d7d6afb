/* The quick way of the calls programs make most in their loops (recorder.h): the entry points
 * MPI_Send, MPI_Isend, MPI_Recv, MPI_Irecv and MPI_Wait (REC_IS_QUICK) record the same events
 * as their handlers in rec_p2p.c and rec_request.c, at a fraction of the cost. Each call site
 * has a slot that remembers the arguments of its last call as the program passed them, what
 * they became in the trace (world ranks, communicator id, bytes: the envelope of env_p2p.c,
 * as the common way records it; whether the data may be read for its digest) and the record
 * that was written, with what the call returned (the status of a receive, how far its request
 * id was from the one before, the digest of the data it sent or took). A call that passes the
 * same arguments takes its envelope from the slot, and one that also returns the same way (the
 * same data among it) has the same record, which is copied. The event itself is only filled
 * in if it must be written otherwise, or if the watcher writes the call as blocked
 * (rec_call_unquick()). Slots are the thread's that called MPI_Init alone
 * (rec_quick_allow()). */
#include <limits.h>
#include <string.h>

#include "recorder.h"
#include "calm.h"
#include "rec_comm.h"
#include "rec_site.h"
#include "rec_status.h"
#include "tracefmt.h"

#define RQ_SLOTS 512	    /* call sites remembered, direct-mapped; a power of two */
#define RQ_NO_MATCH INT_MIN /* no status: not a receive, or one that matched nothing */

/* What a call site did last. Keys are packed in words, so that comparing one costs a few
 * instructions; 128 bytes in all, so that a slot's address is a shift. */
struct rq_slot {
	const void *ret; /* its return address; NULL: the slot is empty */
	/* the arguments as passed (a Wait's: its request's communicator and kind, rq_args()) */
	uint64_t args;	     /* count and peer */
	uint64_t args2;	     /* tag and call */
	uint64_t comm, type; /* the handles' bits */
	uint64_t site;	     /* its site (rec_site_lookup()) */
	/* what they became in the trace */
	int32_t wpeer, wtag, wcomm;
	uint16_t len; /* the length of rec; 0: none may be copied (status is then RQ_NEVER) */
	/* the datatype is contiguous: the data may be read (rec_data_make()) */
	uint16_t contig;
	uint64_t bytes;
	/* how the call of rec returned (rq_leave()): a receive's status as MPI gave it, or
	 * RQ_NO_MATCH; the number of requests and the distance of the first's id from the
	 * last one before; the digest of the data it sent or took */
	uint64_t status, reqs;
	uint32_t gen; /* rec_comm_gen() when they were translated */
	uint32_t data;
	unsigned char rec[MPIV_TF_MEMO_LEN]; /* its record, times left out */
};
_Static_assert(sizeof(struct rq_slot) == 128, "struct rq_slot: 128 bytes");

/* A slot's status when its record may not be copied: no call returns it (RQ_NO_MATCH comes
 * with RQ_NO_MATCH) */
#define RQ_NEVER rq_pair(RQ_NO_MATCH, 0)

/* The bits of a handle, whatever its type (an int in MPICH, a pointer in Open MPI). */
#define RQ_BITS(h) rq_bits(&(h), sizeof(h))
static inline uint64_t rq_bits(const void *h, size_t size)
{
	uint64_t v = 0;

	memcpy(&v, h, size < sizeof(v) ? size : sizeof(v));
	return v;
}

static inline uint64_t rq_pair(int32_t a, int32_t b)
{
	return (uint64_t)(uint32_t)a | (uint64_t)(uint32_t)b << 32;
}

static struct rq_slot rq_slots[RQ_SLOTS];

void rec_quick_forget(void)
{
	unsigned k;

	for (k = 0; k < RQ_SLOTS; k++) {
		rq_slots[k].len = 0;
		rq_slots[k].status = RQ_NEVER;
	}
}

void rec_call_unquick(struct rec_call *c)
{
	const struct rq_slot *s = c->slot;

	if (!(c->bits & REC_C_QUICK))
		return;
	c->ev.call = (uint16_t)(s->args2 >> 32);
	c->ev.site = s->site;
	c->ev.thread = 0;
	if (!c->ev.nreqs)
		c->ev.reqs = c->reqs_inline;
	c->reqs_cap = REC_INLINE_REQS;
	c->ev.flags = 0;
	c->ev.peer = s->wpeer;
	c->ev.tag = s->wtag;
	c->ev.comm = s->wcomm;
	c->ev.bytes = s->bytes;
	c->ev.src = MPIV_NONE;
	c->ev.mtag = MPIV_NONE;
	memcpy(&c->ev.root, &mpiv_event_none.root, MPIV_EVENT_RARE_SIZE);
	c->ev.repeat = 1;
	if (!rec_timed)
		c->ev.enter = c->ev.leave = 0;
	c->newcomm = MPIV_NONE;
	c->members = NULL;
	c->reduce = NULL;
	c->bits &= ~(unsigned)REC_C_QUICK;
}

/* The envelope of a quick call (MPI_Send, MPI_Isend, MPI_Recv or MPI_Irecv) into slot s: the
 * extractor of the common way (env_p2p.c), so that both ways record the same. */
static REC_COLD void rq_envelope(struct rq_slot *s, unsigned call, int count, MPI_Datatype type,
				 int peer, int tag, MPI_Comm comm)
{
	struct mpiv_env e = MPIV_ENV_NONE;

	if (call == MPIV_CALL_Send)
		env_Send(&e, NULL, count, type, peer, tag, comm);
	else if (call == MPIV_CALL_Isend)
		env_Isend(&e, NULL, count, type, peer, tag, comm, NULL);
	else if (call == MPIV_CALL_Recv)
		env_Recv(&e, NULL, count, type, peer, tag, comm, NULL);
	else
		env_Irecv(&e, NULL, count, type, peer, tag, comm, NULL);
	s->wpeer = e.peer;
	s->wtag = e.tag;
	s->wcomm = e.comm;
	s->bytes = e.bytes;
}

/* The slot was another call's, or made of other arguments: translate these. */
static REC_COLD void rq_translate(struct rq_slot *s, unsigned call, const void *ret, int count,
				  MPI_Datatype type, int peer, int tag, MPI_Comm comm)
{
	unsigned how = REC_TYPE_NAMED;

	if (s->ret != ret) {
		s->ret = ret;
		s->site = rec_site_lookup(ret);
	}
	s->args = rq_pair(count, peer);
	s->args2 = rq_pair(tag, (int32_t)call);
	s->comm = RQ_BITS(comm);
	s->type = RQ_BITS(type);
	s->gen = rec_comm_gen();
	s->contig = 0;
	if (call == MPIV_CALL_Wait) {
		s->wpeer = s->wtag = s->wcomm = MPIV_NONE;
		s->bytes = 0;
	} else {
		rq_envelope(s, call, count, type, peer, tag, comm);
		/* the size and layout hold for the same handle if its type is predefined (the
		 * extractor has just looked it up: a predefined type's size is known now) */
		rec_comm_type(count, type, &how);
		s->contig = !!(how & REC_TYPE_CONTIG);
	}
	if (!(how & REC_TYPE_NAMED))
		s->ret = NULL; /* left empty: every call from it is translated */
	s->len = 0;
	s->status = RQ_NEVER;
}

/* Start quick call c of call made from ret with these arguments: take the guard, find its
 * slot (translating the arguments unless they are the slot's) and say the call is in
 * progress. timed: rec_timed, a constant in each copy of the quick way (RQ_TIMED). */
static inline struct rq_slot *rq_enter(struct rec_call *c, unsigned call, const void *ret,
				       int count, MPI_Datatype type, int peer, int tag,
				       MPI_Comm comm, int timed)
{
	struct rq_slot *s =
		&rq_slots[((uintptr_t)ret * 0x9e3779b97f4a7c15ULL) >> 55 & (RQ_SLOTS - 1)];

	rec_tls.depth++;
	if (((uintptr_t)s->ret ^ (uintptr_t)ret) | (s->args ^ rq_pair(count, peer)) |
	    (s->args2 ^ rq_pair(tag, (int32_t)call)) | (s->comm ^ RQ_BITS(comm)) |
	    (s->type ^ RQ_BITS(type)) | (s->gen ^ rec_comm_gen()))
		rq_translate(s, call, ret, count, type, peer, tag, comm);
	/* of the event, only what changes from call to call: the rest is the slot's until
	 * rec_call_unquick() */
	c->bits = REC_C_QUICK;
	c->slot = s;
	c->ev.nreqs = 0;
	c->ev.data = 0;
	c->ev.rdata = 0;
	if (timed) {
		c->ev.enter = rec_now();
		c->ev.leave = 0;
	}
	/* no run of failed polls is open (rec_quick_ready()): the event's index is the next;
	 * the thread is the first, 0 */
	rec_status_enter_at(rec_quick_status, call, rec_output_nevents(), s->site);
	return s;
}

/* c's one request: id, which the call made or completes. */
static inline void rq_req(struct rec_call *c, int32_t id)
{
	c->reqs_inline[0].req = id;
	c->reqs_inline[0].src = MPIV_NONE;
	c->reqs_inline[0].tag = MPIV_NONE;
	c->reqs_inline[0].data = 0;
	c->ev.reqs = c->reqs_inline;
	c->ev.nreqs = 1;
}

/* How c's requests stand as a slot keeps them: their number and the distance of the
 * first's id from the last id written, last. */
static inline uint64_t rq_reqs(const struct rec_call *c, int32_t last)
{
	return c->ev.nreqs ? rq_pair((int32_t)((uint32_t)c->ev.reqs[0].req - (uint32_t)last), 1) :
			     0;
}

/* Write c's event as a new record, and remember it in s if it may be copied. A receive's
 * status (src, mtag, from a call on comm; MPI_COMM_NULL for other calls) becomes its match;
 * data is the digest the event has (rq_leave()). */
static REC_COLD void rq_write(struct rq_slot *s, struct rec_call *c, int src, int mtag,
			      uint32_t data, MPI_Comm comm)
{
	int32_t last = rec_output_last_req();

	rec_call_unquick(c);
	if (comm != MPI_COMM_NULL && src != RQ_NO_MATCH) {
		c->ev.src = rec_comm_to_world(comm, src);
		c->ev.mtag = rec_comm_tag(mtag);
	}
	s->len = (uint16_t)rec_output_quick_write(c, s->rec);
	s->status = s->len ? rq_pair(src, mtag) : RQ_NEVER;
	s->reqs = rq_reqs(c, last);
	s->data = data;
}

/* How a quick call may end (rq_leave()'s how). */
enum rq_how {
	RQ_POSTED = 1 << 0, /* it was posted: the watcher may have written it as blocked */
	RQ_REQ = 1 << 1,    /* it may have a request */
};

/* End quick call c, which returned (rec_call_returned_quick()) with status src and mtag
 * (RQ_NO_MATCH if it has none; a receive's, on comm, else MPI_COMM_NULL) and has the digest
 * data (the data it sent, or took, or its request took; 0 if none): write its event, as a
 * copy of s's record if it is the same, else anew; update the status; drop the guard. how
 * (enum rq_how, a constant) leaves out the checks that cannot fail; timed is rec_timed. */
static inline void rq_leave(struct rq_slot *s, struct rec_call *c, int src, int mtag, uint32_t data,
			    MPI_Comm comm, unsigned how, int timed)
{
	uint64_t reqs = how & RQ_REQ ? rq_reqs(c, rec_output_last_req()) : 0;
	unsigned sent = how & RQ_POSTED ? c->bits & REC_C_INCOMPLETE_SENT : 0;

	if (((s->status ^ rq_pair(src, mtag)) | (s->reqs ^ reqs) | (s->data ^ data) | sent) ||
	    !rec_output_quick_copy(c, s->rec, s->len, timed))
		rq_write(s, c, src, mtag, data, comm);
	rec_status_leave_at(rec_quick_status);
	rec_tls.depth--;
}

/* The quick way of a call, as body(args..., timed), in two copies: rec_timed tested once. */
#define RQ_TIMED(body, ...) (rec_timed ? body(__VA_ARGS__, 1) : body(__VA_ARGS__, 0))

static inline int rq_send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			  MPI_Comm comm, const void *ret, int timed)
{
	struct rec_call c;
	struct rq_slot *s = rq_enter(&c, MPIV_CALL_Send, ret, count, datatype, dest, tag, comm,
				     timed);
	struct rec_data d = rec_data_make(buf, s->bytes, s->contig, dest);
	int rc;

	c.ev.data = rec_data_sent(&d);
	rec_call_posted_quick(&c);
	rc = calm_Send(buf, count, datatype, dest, tag, comm);
	rec_call_returned_quick(&c, timed);
	rq_leave(s, &c, RQ_NO_MATCH, RQ_NO_MATCH, c.ev.data, MPI_COMM_NULL, RQ_POSTED, timed);
	return rc;
}

MPIV_EXPORT REC_HOT int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
				 int tag, MPI_Comm comm)
{
	const void *ret = __builtin_return_address(0);

	if (__builtin_expect(!rec_quick_ready(), 0))
		return rec_common_Send(buf, count, datatype, dest, tag, comm, ret);
	return RQ_TIMED(rq_send, buf, count, datatype, dest, tag, comm, ret);
}

/* MPI_Isend and MPI_Irecv: the request made, what both record (an Isend with the digest of
 * its data, an Irecv's request with where its data will be). A nonblocking call is local
 * (MPI-4.1 3.7): it returns without waiting for another rank, so it is never written as
 * blocked, and need not be posted to the watcher. */
static inline int rq_nonblocking(unsigned call, const void *buf, int count, MPI_Datatype type,
				 int peer, int tag, MPI_Comm comm, MPI_Request *request,
				 const void *ret, int timed)
{
	struct rec_call c;
	struct rq_slot *s = rq_enter(&c, call, ret, count, type, peer, tag, comm, timed);
	struct rec_data d = rec_data_make(buf, s->bytes, s->contig, peer);
	int rc;

	if (call == MPIV_CALL_Isend) {
		c.ev.data = rec_data_sent(&d);
		rc = PMPI_Isend(buf, count, type, peer, tag, comm, request);
	} else {
		rc = PMPI_Irecv((void *)buf, count, type, peer, tag, comm, request);
	}
	if (timed)
		c.ev.leave = rec_now();
	if (rc == MPI_SUCCESS) {
		rq_req(&c, call == MPIV_CALL_Isend ?
				   rec_request_add(request, 0, comm) :
				   rec_request_add_data(request, 1, comm, REC_DIGEST_DONE, d));
		if (rec_output_window)
			rec_request_note(c.reqs_inline[0].req, call, s->wpeer, MPIV_NONE, s->wtag,
					 s->wcomm);
	}
	rq_leave(s, &c, RQ_NO_MATCH, RQ_NO_MATCH, c.ev.data, MPI_COMM_NULL, RQ_REQ, timed);
	return rc;
}

MPIV_EXPORT REC_HOT int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
				  int tag, MPI_Comm comm, MPI_Request *request)
{
	const void *ret = __builtin_return_address(0);

	if (__builtin_expect(!rec_quick_ready(), 0))
		return rec_common_Isend(buf, count, datatype, dest, tag, comm, request, ret);
	return RQ_TIMED(rq_nonblocking, MPIV_CALL_Isend, buf, count, datatype, dest, tag, comm,
			request, ret);
}

static inline int rq_recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
			  MPI_Comm comm, MPI_Status *status, const void *ret, int timed)
{
	struct rec_call c;
	struct rq_slot *s = rq_enter(&c, MPIV_CALL_Recv, ret, count, datatype, source, tag, comm,
				     timed);
	MPI_Status local;
	int rc, src = RQ_NO_MATCH, mtag = RQ_NO_MATCH;

	/* The matched source and tag are the point of recording a receive. */
	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rec_call_posted_quick(&c);
	rc = calm_Recv(buf, count, datatype, source, tag, comm, status);
	rec_call_returned_quick(&c, timed);
	/* A truncated message was still matched, and took what fit. Its source and tag are
	 * translated only if the record is written anew (rq_write()). */
	if (rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE) {
		struct rec_data d = rec_data_make(buf, s->bytes, s->contig, source);

		src = status->MPI_SOURCE;
		mtag = status->MPI_TAG;
		c.ev.rdata = rec_data_received(&d, status);
	}
	rq_leave(s, &c, src, mtag, c.ev.rdata, comm, RQ_POSTED, timed);
	return rc;
}

MPIV_EXPORT REC_HOT int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
				 MPI_Comm comm, MPI_Status *status)
{
	const void *ret = __builtin_return_address(0);

	if (__builtin_expect(!rec_quick_ready(), 0))
		return rec_common_Recv(buf, count, datatype, source, tag, comm, status, ret);
	return RQ_TIMED(rq_recv, buf, count, datatype, source, tag, comm, status, ret);
}

MPIV_EXPORT REC_HOT int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
				  MPI_Comm comm, MPI_Request *request)
{
	const void *ret = __builtin_return_address(0);

	if (__builtin_expect(!rec_quick_ready(), 0))
		return rec_common_Irecv(buf, count, datatype, source, tag, comm, request, ret);
	return RQ_TIMED(rq_nonblocking, MPIV_CALL_Irecv, buf, count, datatype, source, tag, comm,
			request, ret);
}

static inline int rq_wait(MPI_Request *request, MPI_Status *status, const void *ret, int timed)
{
	struct rec_call c;
	struct rq_slot *s;
	struct rec_reqent e;
	MPI_Status local;
	int rc, freed, src = RQ_NO_MATCH, mtag = RQ_NO_MATCH;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	/* Listed before the call, so that a Wait that blocks shows what it waits for. A Wait's
	 * record depends on its request: a receive's source is translated on its
	 * communicator. */
	rec_request_take(*request, request, &e);
	s = rq_enter(&c, MPIV_CALL_Wait, ret, e.is_recv, MPI_DATATYPE_NULL, 0, 0, e.comm, timed);
	rq_req(&c, e.id);
	rec_call_posted_quick(&c);
	/* no hidden barrier to complete: a steered run never takes the quick way */
	rc = calm_Wait(request, status);
	rec_call_returned_quick(&c, timed);
	freed = *request == MPI_REQUEST_NULL;
	if (rc == MPI_SUCCESS || freed) {
		rec_request_info(&e, status, &c.ev.reqs[0]);
		if (c.ev.reqs[0].src != MPIV_NONE) {
			src = status->MPI_SOURCE;
			mtag = status->MPI_TAG;
		}
	} else {
		c.ev.nreqs = 0; /* failed without completing it */
	}
	if (!freed)
		rec_request_put(&e);
	rq_leave(s, &c, src, mtag, c.ev.nreqs ? c.ev.reqs[0].data : 0, MPI_COMM_NULL,
		 RQ_POSTED | RQ_REQ, timed);
	return rc;
}

MPIV_EXPORT REC_HOT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
	const void *ret = __builtin_return_address(0);

	/* a null request completes nothing: the common way has it */
	if (__builtin_expect(!rec_quick_ready() || !request || *request == MPI_REQUEST_NULL, 0))
		return rec_common_Wait(request, status, ret);
	return RQ_TIMED(rq_wait, request, status, ret);
}
