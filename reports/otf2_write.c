/* `mpiverify trace --otf2` (doc/otf2.md): the operations of a time line (translator/tr_timeline.h) as an
 * OTF2 archive, with Debian's libotf2: one location per rank and thread, a region per MPI
 * call, Enter and Leave around each call, and the MPI records Score-P writes: MpiSend,
 * MpiIsend and MpiIsendComplete, MpiIrecvRequest and MpiIrecv, MpiRecv, MpiCollectiveBegin
 * and MpiCollectiveEnd. Peers and roots are ranks in the call's communicator, as OTF2 has
 * them; communicators are the ones check unifies across ranks (translator/tr_comm.c). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "otf2_write.h"

#ifndef HAVE_OTF2

int otf2_available(void)
{
	return 0;
}

int otf2_write(const char *dir, const struct mpiv_traceset *ts, const struct mpiv_cex *cex)
{
	(void)dir;
	(void)ts;
	(void)cex;
	error("this mpiverify was built without OTF2: install Debian's 'libotf2-trace-dev', "
	      "then run ./configure and make again");
	return MPIV_EXIT_TOOL;
}

#else

#include <otf2/otf2.h>

#include "tr_timeline.h"
#include "xalloc.h"

#define OW_ARCHIVE "traces" /* DIR/traces.otf2, DIR/traces.def, DIR/traces/ */

/* A location: one thread of one rank. */
struct ow_loc {
	int rank, thread;
	uint64_t nevents;    /* records written */
	OTF2_TimeStamp last; /* the last record's time: times may not go back */
};

/* What a rank's request was made for, by request id. */
struct ow_req {
	int known;	/* the id was made by an MPI_Isend or MPI_Irecv (not persistent) */
	int recv;	/* a receive (else a send) */
	int32_t comm;	/* its communicator */
	uint64_t bytes; /* a receive: the message's length, when known */
	/* a receive the time line matched (a counterexample's): the
	 * send's world rank and tag, else src -1 */
	int32_t src, tag;
};

/* One archive being written. */
struct ow {
	const struct tr_timeline *tl;
	const struct mpiv_traceset *ts;
	OTF2_Archive *archive;
	int err;	/* an OTF2 call failed: the first error */
	char **strings; /* string definitions, by id */
	size_t nstrings, capstrings;
	int32_t region[MPIV_CALL__COUNT]; /* region id by call, -1: none yet */
	uint32_t nregions;
	struct ow_loc *locs; /* by location id: each rank's threads in order */
	size_t nlocs, caplocs;
	OTF2_TimeStamp offset; /* added to the time line's times */
};

static OTF2_FlushType ow_pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc,
				   void *caller, bool final)
{
	(void)user;
	(void)type;
	(void)loc;
	(void)caller;
	(void) final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp ow_post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
	(void)user;
	(void)type;
	(void)loc;
	return 0;
}

static OTF2_FlushCallbacks ow_flush = {
	.otf2_pre_flush = ow_pre_flush,
	.otf2_post_flush = ow_post_flush,
};

/* Keep the first error of an OTF2 call. */
static void ow_check(struct ow *w, OTF2_ErrorCode rc)
{
	if (rc != OTF2_SUCCESS && !w->err)
		w->err = (int)rc;
}

/* The id of string s, defined the first time. */
static OTF2_StringRef ow_string(struct ow *w, const char *s)
{
	size_t i;

	for (i = 0; i < w->nstrings; i++)
		if (!strcmp(w->strings[i], s))
			return (OTF2_StringRef)i;
	xgrow((void **)&w->strings, &w->capstrings, w->nstrings + 1, sizeof(*w->strings));
	w->strings[w->nstrings] = xstrdup(s);
	return (OTF2_StringRef)w->nstrings++;
}

/* The location of rank's thread, made the first time. */
static OTF2_LocationRef ow_loc(struct ow *w, int rank, int thread)
{
	size_t i;

	for (i = 0; i < w->nlocs; i++)
		if (w->locs[i].rank == rank && w->locs[i].thread == thread)
			return (OTF2_LocationRef)i;
	xgrow((void **)&w->locs, &w->caplocs, w->nlocs + 1, sizeof(*w->locs));
	memset(&w->locs[w->nlocs], 0, sizeof(*w->locs));
	w->locs[w->nlocs].rank = rank;
	w->locs[w->nlocs].thread = thread;
	return (OTF2_LocationRef)w->nlocs++;
}

/* The region of call, made the first time. */
static OTF2_RegionRef ow_region(struct ow *w, unsigned call)
{
	if (w->region[call] < 0)
		w->region[call] = (int32_t)w->nregions++;
	return (OTF2_RegionRef)w->region[call];
}

/* The OTF2 communicator of the time line's communicator c: MPI_COMM_WORLD is 0, every
 * rank's MPI_COMM_SELF is 1, those the ranks made follow. */
static OTF2_CommRef ow_comm(const struct ow *w, int32_t c)
{
	if (c <= 0)
		return 0;
	return c <= w->tl->nranks ? 1 : (OTF2_CommRef)(c - w->tl->nranks + 1);
}

/* World rank `world` as a rank of communicator c, or -1. */
static int64_t ow_rank_in(const struct ow *w, int32_t c, int32_t world)
{
	const struct eng_comm *cm;
	int32_t i;

	if (c < 0 || c >= w->tl->ncomms || world < 0)
		return -1;
	if (c >= 1 && c <= w->tl->nranks)
		return 0; /* MPI_COMM_SELF */
	cm = &w->tl->comm[c];
	for (i = 0; i < cm->n; i++)
		if (cm->members[i] == world)
			return i;
	return -1;
}

/* The collective operation of a blocking collective call (a large-count one's is its
 * twin's), -1 for any other. */
static int ow_collective(unsigned call)
{
	switch (mpiv_call_twin(call)) {
	case MPIV_CALL_Barrier:
		return OTF2_COLLECTIVE_OP_BARRIER;
	case MPIV_CALL_Bcast:
		return OTF2_COLLECTIVE_OP_BCAST;
	case MPIV_CALL_Gather:
		return OTF2_COLLECTIVE_OP_GATHER;
	case MPIV_CALL_Gatherv:
		return OTF2_COLLECTIVE_OP_GATHERV;
	case MPIV_CALL_Scatter:
		return OTF2_COLLECTIVE_OP_SCATTER;
	case MPIV_CALL_Scatterv:
		return OTF2_COLLECTIVE_OP_SCATTERV;
	case MPIV_CALL_Allgather:
		return OTF2_COLLECTIVE_OP_ALLGATHER;
	case MPIV_CALL_Allgatherv:
		return OTF2_COLLECTIVE_OP_ALLGATHERV;
	case MPIV_CALL_Alltoall:
		return OTF2_COLLECTIVE_OP_ALLTOALL;
	case MPIV_CALL_Alltoallv:
		return OTF2_COLLECTIVE_OP_ALLTOALLV;
	case MPIV_CALL_Alltoallw:
		return OTF2_COLLECTIVE_OP_ALLTOALLW;
	case MPIV_CALL_Allreduce:
		return OTF2_COLLECTIVE_OP_ALLREDUCE;
	case MPIV_CALL_Reduce:
		return OTF2_COLLECTIVE_OP_REDUCE;
	case MPIV_CALL_Reduce_scatter:
		return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
	case MPIV_CALL_Reduce_scatter_block:
		return OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
	case MPIV_CALL_Scan:
		return OTF2_COLLECTIVE_OP_SCAN;
	case MPIV_CALL_Exscan:
		return OTF2_COLLECTIVE_OP_EXSCAN;
	default:
		return -1;
	}
}

/* The role of call's region. */
static OTF2_RegionRole ow_role(unsigned call)
{
	unsigned flags = mpiv_call_flags(call);

	switch (mpiv_call_kind(call)) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_ISEND:
	case MPIV_KIND_RECV:
	case MPIV_KIND_IRECV:
	case MPIV_KIND_SENDRECV:
	case MPIV_KIND_ISENDRECV:
	case MPIV_KIND_WAIT:
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
	case MPIV_KIND_MRECV:
	case MPIV_KIND_SEND_INIT:
	case MPIV_KIND_RECV_INIT:
	case MPIV_KIND_START:
		return OTF2_REGION_ROLE_POINT2POINT;
	case MPIV_KIND_COLL:
	case MPIV_KIND_ICOLL:
		if (call == MPIV_CALL_Barrier)
			return OTF2_REGION_ROLE_BARRIER;
		if (flags & MPIV_F_ROOT_SENDS)
			return OTF2_REGION_ROLE_COLL_ONE2ALL;
		if (flags & MPIV_F_ROOT_RECEIVES)
			return OTF2_REGION_ROLE_COLL_ALL2ONE;
		return OTF2_REGION_ROLE_COLL_ALL2ALL;
	default:
		return OTF2_REGION_ROLE_FUNCTION;
	}
}

/* The length of the message a receive at op took: its send's, else the receive's own. */
static uint64_t ow_msg_bytes(const struct ow *w, const struct tl_op *op, uint64_t own)
{
	const struct mpiv_rank_trace *t;

	if (op->from_rank < 0 || op->from_rank >= w->ts->nranks)
		return own;
	t = &w->ts->ranks[op->from_rank];
	return op->from_ev < t->nevents ? t->events[op->from_ev].bytes : own;
}

/* Whom a receive at op took its message from, as a world rank, and its tag: the send the
 * time line paired it with (a counterexample's match, which need not be the recorded one),
 * else what the receive recorded (src, tag). */
static void ow_msg_from(const struct ow *w, const struct tl_op *op, int32_t *src, int32_t *tag)
{
	const struct mpiv_rank_trace *t;

	if (op->from_rank < 0 || op->from_rank >= w->ts->nranks)
		return;
	t = &w->ts->ranks[op->from_rank];
	if (op->from_ev >= t->nevents)
		return;
	*src = op->from_rank;
	*tag = t->events[op->from_ev].tag;
}

/* A time of the time line for location loc: never before its last record's. */
static OTF2_TimeStamp ow_time(struct ow *w, OTF2_LocationRef loc, uint64_t t)
{
	OTF2_TimeStamp ts = w->offset + t;

	if (ts < w->locs[loc].last)
		ts = w->locs[loc].last;
	w->locs[loc].last = ts;
	w->locs[loc].nevents++;
	return ts;
}

/* The records of op, of rank r, into writer ew of location loc. reqs: the rank's requests by
 * id (grown as needed). */
static void ow_op(struct ow *w, OTF2_EvtWriter *ew, OTF2_LocationRef loc, int r,
		  const struct tl_op *op, struct ow_req **reqs, size_t *capreqs)
{
	const struct mpiv_event *ev = &w->ts->ranks[r].events[op->ev];
	enum mpiv_kind k = mpiv_call_kind(ev->call);
	OTF2_RegionRef region = ow_region(w, ev->call);
	int32_t c = tr_comms_id(&w->tl->comms, r, ev->comm);
	int64_t peer = ow_rank_in(w, c, ev->peer), src = ow_rank_in(w, c, ev->src);
	int coll = ow_collective(ev->call);
	uint32_t j, ndone;

	ow_check(w, OTF2_EvtWriter_Enter(ew, NULL, ow_time(w, loc, op->enter), region));
	if ((k == MPIV_KIND_SEND || k == MPIV_KIND_SENDRECV) && peer >= 0)
		ow_check(w, OTF2_EvtWriter_MpiSend(ew, NULL, ow_time(w, loc, op->enter),
						   (uint32_t)peer, ow_comm(w, c), (uint32_t)ev->tag,
						   ev->bytes));
	if ((k == MPIV_KIND_ISEND || k == MPIV_KIND_IRECV) && ev->nreqs == 1 &&
	    ev->reqs[0].req >= 0 && c >= 0) {
		int32_t id = ev->reqs[0].req;

		if ((size_t)id >= *capreqs) {
			size_t old = *capreqs;

			xgrow((void **)reqs, capreqs, (size_t)id + 1, sizeof(**reqs));
			memset(*reqs + old, 0, (*capreqs - old) * sizeof(**reqs));
		}
		(*reqs)[id].known = 1;
		(*reqs)[id].recv = k == MPIV_KIND_IRECV;
		(*reqs)[id].comm = c;
		(*reqs)[id].bytes = ow_msg_bytes(w, op, ev->bytes);
		(*reqs)[id].src = -1;
		ow_msg_from(w, op, &(*reqs)[id].src, &(*reqs)[id].tag);
		if (k == MPIV_KIND_IRECV)
			ow_check(w, OTF2_EvtWriter_MpiIrecvRequest(ew, NULL,
								   ow_time(w, loc, op->enter),
								   (uint64_t)id));
		else if (peer >= 0)
			ow_check(w, OTF2_EvtWriter_MpiIsend(ew, NULL, ow_time(w, loc, op->enter),
							    (uint32_t)peer, ow_comm(w, c),
							    (uint32_t)ev->tag, ev->bytes,
							    (uint64_t)id));
	}
	if (coll >= 0 && k == MPIV_KIND_COLL)
		ow_check(w,
			 OTF2_EvtWriter_MpiCollectiveBegin(ew, NULL, ow_time(w, loc, op->enter)));
	if (op->blocked) {
		/* it never returned: what it would have received is not known */
		ow_check(w, OTF2_EvtWriter_Leave(ew, NULL, ow_time(w, loc, op->leave), region));
		return;
	}
	if (k == MPIV_KIND_RECV || k == MPIV_KIND_SENDRECV) {
		int32_t from = ev->src, tag = ev->mtag;

		ow_msg_from(w, op, &from, &tag);
		src = ow_rank_in(w, c, from);
		if (src >= 0)
			ow_check(w,
				 OTF2_EvtWriter_MpiRecv(ew, NULL, ow_time(w, loc, op->leave),
							(uint32_t)src, ow_comm(w, c), (uint32_t)tag,
							ow_msg_bytes(w, op, ev->bytes)));
	}
	ndone = k == MPIV_KIND_WAIT ? ev->nreqs - ev->npending : 0;
	for (j = 0; j < ndone; j++) {
		int32_t id = ev->reqs[j].req;
		const struct ow_req *q;

		if (id < 0 || (size_t)id >= *capreqs || !(*reqs)[id].known)
			continue;
		q = &(*reqs)[id];
		if (!q->recv) {
			ow_check(w, OTF2_EvtWriter_MpiIsendComplete(ew, NULL,
								    ow_time(w, loc, op->leave),
								    (uint64_t)id));
		} else {
			int32_t from = q->src >= 0 ? q->src : ev->reqs[j].src;

			src = ow_rank_in(w, q->comm, from);
			if (src >= 0)
				ow_check(w,
					 OTF2_EvtWriter_MpiIrecv(
						 ew, NULL, ow_time(w, loc, op->leave),
						 (uint32_t)src, ow_comm(w, q->comm),
						 (uint32_t)(q->src >= 0 ? q->tag : ev->reqs[j].tag),
						 q->bytes, (uint64_t)id));
		}
	}
	if (coll >= 0 && k == MPIV_KIND_COLL) {
		int64_t root = ow_rank_in(w, c, ev->root);

		ow_check(w, OTF2_EvtWriter_MpiCollectiveEnd(ew, NULL, ow_time(w, loc, op->leave),
							    (OTF2_CollectiveOp)coll,
							    ow_comm(w, c >= 0 ? c : 0),
							    root >= 0 ? (uint32_t)root :
									OTF2_UNDEFINED_UINT32,
							    ev->bytes, ev->bytes));
	}
	ow_check(w, OTF2_EvtWriter_Leave(ew, NULL, ow_time(w, loc, op->leave), region));
}

/* Every rank's records, a location per thread. */
static void ow_events(struct ow *w)
{
	const struct tr_timeline *tl = w->tl;
	struct ow_req *reqs = NULL;
	size_t capreqs = 0, i;
	int r;

	ow_check(w, OTF2_Archive_OpenEvtFiles(w->archive));
	for (r = 0; r < tl->nranks && !w->err; r++) {
		/* a pass per thread of the rank: each thread is a location of its own */
		int thread, more = 1;

		memset(reqs, 0, capreqs * sizeof(*reqs));
		ow_loc(w, r, 0);
		for (thread = 0; more && !w->err; thread++) {
			OTF2_LocationRef loc = ow_loc(w, r, thread);
			OTF2_EvtWriter *ew = OTF2_Archive_GetEvtWriter(w->archive, loc);

			if (!ew) {
				ow_check(w, OTF2_ERROR_INVALID);
				break;
			}
			more = 0;
			for (i = 0; i < tl->nops[r]; i++) {
				const struct tl_op *op = &tl->ops[r][i];
				int th = w->ts->ranks[r].events[op->ev].thread;

				if (th == thread)
					ow_op(w, ew, loc, r, op, &reqs, &capreqs);
				else if (th > thread)
					more = 1;
			}
			ow_check(w, OTF2_Archive_CloseEvtWriter(w->archive, ew));
		}
	}
	free(reqs);
	ow_check(w, OTF2_Archive_CloseEvtFiles(w->archive));
}

/* A group of definitions: n members. */
static void ow_group(struct ow *w, OTF2_GlobalDefWriter *gw, OTF2_GroupRef id, const char *name,
		     OTF2_GroupType type, uint32_t n, const uint64_t *members)
{
	ow_check(w, OTF2_GlobalDefWriter_WriteGroup(gw, id, ow_string(w, name), type,
						    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n,
						    members));
}

/* The global definitions: clock, system tree, ranks and threads, regions, communicators.
 * Strings are collected while the others are written, and written first. */
static void ow_definitions(struct ow *w)
{
	const struct tr_timeline *tl = w->tl;
	OTF2_GlobalDefWriter *gw;
	uint64_t *members = xcalloc((size_t)tl->nranks + 1, sizeof(*members));
	char name[64];
	size_t i;
	int32_t c;
	int r;

	ow_check(w, OTF2_Archive_OpenDefFiles(w->archive));
	for (i = 0; i < w->nlocs; i++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(w->archive, (OTF2_LocationRef)i);

		if (dw)
			ow_check(w, OTF2_Archive_CloseDefWriter(w->archive, dw));
	}
	ow_check(w, OTF2_Archive_CloseDefFiles(w->archive));
	gw = OTF2_Archive_GetGlobalDefWriter(w->archive);
	if (!gw) {
		ow_check(w, OTF2_ERROR_INVALID);
		free(members);
		return;
	}
	/* the strings go first: collect them by writing everything else into a second pass */
	for (r = 0; r < 2 && !w->err; r++) {
		OTF2_GlobalDefWriter *out = r ? gw : NULL;
		unsigned call;

		if (out) {
			ow_check(w, OTF2_GlobalDefWriter_WriteClockProperties(
					    gw, 1000000000u, w->offset, tl->end,
					    tl->synthetic ? OTF2_UNDEFINED_TIMESTAMP : w->offset));
			for (i = 0; i < w->nstrings; i++)
				ow_check(w, OTF2_GlobalDefWriter_WriteString(gw, (OTF2_StringRef)i,
									     w->strings[i]));
		}
		ow_string(w, "");
		ow_string(w, "machine");
		ow_string(w, "node");
		ow_string(w, "MPI_COMM_WORLD");
		ow_string(w, "MPI_COMM_SELF");
		ow_string(w, "MPI");
		/* regions in the order of their ids, which is the order of first use */
		for (i = 0; i < w->nregions; i++) {
			for (call = 0; call < MPIV_CALL__COUNT && w->region[call] != (int32_t)i;
			     call++)
				;
			if (out)
				ow_check(w,
					 OTF2_GlobalDefWriter_WriteRegion(
						 gw, (OTF2_RegionRef)i,
						 ow_string(w, mpiv_call_name(call)),
						 ow_string(w, mpiv_call_name(call)),
						 ow_string(w, ""), ow_role(call), OTF2_PARADIGM_MPI,
						 OTF2_REGION_FLAG_NONE, ow_string(w, ""), 0, 0));
			else
				ow_string(w, mpiv_call_name(call));
		}
		/* the system tree: the machine, then one node per host */
		if (out)
			ow_check(w, OTF2_GlobalDefWriter_WriteSystemTreeNode(
					    gw, 0, ow_string(w, "machine"), ow_string(w, "machine"),
					    OTF2_UNDEFINED_SYSTEM_TREE_NODE));
		for (i = 0; i < (size_t)tl->nranks; i++) {
			const char *host = w->ts->ranks[i].host[0] ? w->ts->ranks[i].host :
								     "unknown host";
			size_t k;

			for (k = 0; k < i && strcmp(w->ts->ranks[k].host, w->ts->ranks[i].host);
			     k++)
				;
			if (k == i && out)
				ow_check(w, OTF2_GlobalDefWriter_WriteSystemTreeNode(
						    gw, (OTF2_SystemTreeNodeRef)(1 + i),
						    ow_string(w, host), ow_string(w, "node"), 0));
			else if (!out)
				ow_string(w, host);
			members[i] = 1 + k; /* the rank's node */
		}
		for (i = 0; i < (size_t)tl->nranks; i++) {
			snprintf(name, sizeof(name), "MPI Rank %zu", i);
			if (out)
				ow_check(w,
					 OTF2_GlobalDefWriter_WriteLocationGroup(
						 gw, (OTF2_LocationGroupRef)i, ow_string(w, name),
						 OTF2_LOCATION_GROUP_TYPE_PROCESS,
						 (OTF2_SystemTreeNodeRef)members[i],
						 OTF2_UNDEFINED_LOCATION_GROUP));
			else
				ow_string(w, name);
		}
		for (i = 0; i < w->nlocs; i++) {
			if (w->locs[i].thread)
				snprintf(name, sizeof(name), "Thread %d", w->locs[i].thread);
			else
				snprintf(name, sizeof(name), "Master thread");
			if (out)
				ow_check(w,
					 OTF2_GlobalDefWriter_WriteLocation(
						 gw, (OTF2_LocationRef)i, ow_string(w, name),
						 OTF2_LOCATION_TYPE_CPU_THREAD, w->locs[i].nevents,
						 (OTF2_LocationGroupRef)w->locs[i].rank));
			else
				ow_string(w, name);
		}
		/* communicators: the ranks' main threads, then one group per communicator */
		for (i = 0; i < (size_t)tl->nranks; i++)
			members[i] = (uint64_t)ow_loc(w, (int)i, 0);
		for (c = 0; c < tl->ncomms; c++) {
			snprintf(name, sizeof(name), "communicator %d", (int)ow_comm(w, c));
			if (!out && c > tl->nranks)
				ow_string(w, name);
		}
		if (!out)
			continue;
		ow_group(w, gw, 0, "MPI", OTF2_GROUP_TYPE_COMM_LOCATIONS, (uint32_t)tl->nranks,
			 members);
		for (i = 0; i < (size_t)tl->nranks; i++)
			members[i] = i;
		ow_group(w, gw, 1, "MPI_COMM_WORLD", OTF2_GROUP_TYPE_COMM_GROUP,
			 (uint32_t)tl->nranks, members);
		ow_group(w, gw, 2, "MPI_COMM_SELF", OTF2_GROUP_TYPE_COMM_SELF, 0, NULL);
		ow_check(w,
			 OTF2_GlobalDefWriter_WriteComm(gw, 0, ow_string(w, "MPI_COMM_WORLD"), 1,
							OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
		ow_check(w,
			 OTF2_GlobalDefWriter_WriteComm(gw, 1, ow_string(w, "MPI_COMM_SELF"), 2,
							OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
		for (c = 1 + tl->nranks; c < tl->ncomms; c++) {
			uint64_t *m = xcalloc((size_t)tl->comm[c].n + 1, sizeof(*m));
			int32_t k;

			for (k = 0; k < tl->comm[c].n; k++)
				m[k] = (uint64_t)tl->comm[c].members[k];
			snprintf(name, sizeof(name), "communicator %d", (int)ow_comm(w, c));
			ow_group(w, gw, 1 + ow_comm(w, c), name, OTF2_GROUP_TYPE_COMM_GROUP,
				 (uint32_t)tl->comm[c].n, m);
			ow_check(w, OTF2_GlobalDefWriter_WriteComm(gw, ow_comm(w, c),
								   ow_string(w, name),
								   1 + ow_comm(w, c),
								   OTF2_UNDEFINED_COMM,
								   OTF2_COMM_FLAG_NONE));
			free(m);
		}
	}
	free(members);
}

/* Remove an archive an earlier export left in dir: OTF2 does not write over one. */
static int ow_clear(const char *dir)
{
	char path[4096], sub[4096 + 256];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/" OW_ARCHIVE "/", dir);
	d = opendir(path);
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s%s", path, de->d_name);
		unlink(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/" OW_ARCHIVE ".otf2", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/" OW_ARCHIVE ".def", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/" OW_ARCHIVE, dir);
	if (access(path, F_OK) == 0) {
		error("cannot remove the earlier archive '%s'", path);
		return -1;
	}
	return 0;
}

int otf2_available(void)
{
	return 1;
}

int otf2_write(const char *dir, const struct mpiv_traceset *ts, const struct mpiv_cex *cex)
{
	struct tr_timeline tl;
	struct mpiv_error err;
	struct ow w;
	size_t i;
	int rc = MPIV_EXIT_OK;

	mpiv_error_init(&err);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		error("cannot create output directory '%s': %s", dir, strerror(errno));
		return MPIV_EXIT_BAD_INPUT;
	}
	if (ow_clear(dir))
		return MPIV_EXIT_BAD_INPUT;
	if (tr_timeline_build(&tl, ts, cex, &err))
		return error_report(&err);
	memset(&w, 0, sizeof(w));
	w.tl = &tl;
	w.ts = ts;
	memset(w.region, 0xff, sizeof(w.region));
	w.offset = tl.synthetic ? 0 : (OTF2_TimeStamp)tl.start;
	w.archive = OTF2_Archive_Open(dir, OW_ARCHIVE, OTF2_FILEMODE_WRITE, 1024 * 1024,
				      4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!w.archive) {
		error("cannot create the OTF2 archive '%s/" OW_ARCHIVE ".otf2'", dir);
		tr_timeline_release(&tl);
		return MPIV_EXIT_BAD_INPUT;
	}
	ow_check(&w, OTF2_Archive_SetFlushCallbacks(w.archive, &ow_flush, NULL));
	ow_check(&w, OTF2_Archive_SetSerialCollectiveCallbacks(w.archive));
	ow_check(&w, OTF2_Archive_SetCreator(w.archive, "mpiverify " PACKAGE_VERSION));
	ow_check(&w, OTF2_Archive_SetDescription(
			     w.archive,
			     cex ? "a counterexample's way to its deadlock (synthetic times)" :
				   "a recorded run"));
	if (!w.err)
		ow_events(&w);
	if (!w.err)
		ow_definitions(&w);
	ow_check(&w, OTF2_Archive_Close(w.archive));
	if (w.err) {
		error("cannot write the OTF2 archive '%s/" OW_ARCHIVE ".otf2': %s", dir,
		      OTF2_Error_GetDescription((OTF2_ErrorCode)w.err));
		rc = MPIV_EXIT_BAD_INPUT;
	}
	for (i = 0; i < w.nstrings; i++)
		free(w.strings[i]);
	free(w.strings);
	free(w.locs);
	tr_timeline_release(&tl);
	return rc;
}

#endif
