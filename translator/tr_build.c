/* Translator, first half: each rank's events become the engine's instructions (a blocking
 * call is a post and a wait), communicators get engine ids, and the state's sizes are taken
 * from the trace (most requests live at once per rank). */
#include <stdlib.h>
#include <string.h>

#include "tr_comm.h"
#include "translate.h"
#include "xalloc.h"

#define DEFAULT_MAXMSG 4096	/* messages in flight at once; more ends the search as overflow */

/* A rank's program being built. */
struct builder {
	const struct mpiv_rank_trace *t;
	const struct tr_comms *comms;	/* the trace's communicator ids -> engine ones */
	const struct eng_prog *prog;	/* its communicators (members) */
	struct eng_instr *ins;
	size_t n, cap;
	int32_t *req_instr;	/* request id -> instruction of its active post, -1 if none */
	int32_t *req_tmpl;	/* request id -> event of its persistent template, -1 if none */
	size_t nreq;		/* room in req_instr and req_tmpl */
	int live, maxlive;	/* requests posted and not waited for, now and at most */
	int *coll_seq;		/* per engine comm: collectives this rank entered */
	int32_t *peer_of;	/* per event: the source to post it with (a fused probe's) */
	int32_t *tag_of;	/* per event: the tag to post it with */
};

/* Engine communicator ids: 0 is MPI_COMM_WORLD, 1 + r is rank r's MPI_COMM_SELF, then those
 * the ranks made (tr_comm.c); -1 for one check does not know. */
static int comm_id(const struct builder *b, int comm)
{
	return tr_comms_id(b->comms, b->t->rank, comm);
}

static struct eng_instr *emit(struct builder *b, int op, int ev)
{
	struct eng_instr *in;

	xgrow((void **)&b->ins, &b->cap, b->n + 1, sizeof(*b->ins));
	in = &b->ins[b->n++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->ev = ev;
	return in;
}

static void grow_reqs(struct builder *b, int32_t req)
{
	size_t old = b->nreq, cap = b->nreq;

	if ((size_t)req < b->nreq)
		return;
	xgrow((void **)&b->req_instr, &cap, (size_t)req + 1, sizeof(*b->req_instr));
	cap = old;
	xgrow((void **)&b->req_tmpl, &cap, (size_t)req + 1, sizeof(*b->req_tmpl));
	b->nreq = cap;
	memset(b->req_instr + old, 0xff, (b->nreq - old) * sizeof(*b->req_instr));
	memset(b->req_tmpl + old, 0xff, (b->nreq - old) * sizeof(*b->req_tmpl));
}

static int32_t req_instr(const struct builder *b, int32_t req)
{
	return req >= 0 && (size_t)req < b->nreq ? b->req_instr[req] : -1;
}

static int32_t req_tmpl(const struct builder *b, int32_t req)
{
	return req >= 0 && (size_t)req < b->nreq ? b->req_tmpl[req] : -1;
}

static void map_req(struct builder *b, int32_t req, int instr)
{
	if (req < 0)
		return;
	grow_reqs(b, req);
	b->req_instr[req] = instr;
}

static int engine_peer(int32_t peer)
{
	if (peer == MPIV_PROC_NULL)
		return ENG_PROC_NULL;
	if (peer == MPIV_ANY_SOURCE)
		return ENG_ANY;
	return peer;
}

/* Post the send or receive of event `env` (a template for persistent requests) as event ev.
 * Returns the instruction's index. */
static int post(struct builder *b, const struct mpiv_event *env, int ev, int send)
{
	struct eng_instr *in = emit(b, send ? ENG_POST_SEND : ENG_POST_RECV, ev);
	unsigned flags = mpiv_call_flags(env->call);
	int32_t peer = send ? env->peer : b->peer_of[env->index];
	int32_t tag = send ? env->tag : b->tag_of[env->index];

	in->a = engine_peer(peer);
	in->b = comm_id(b, env->comm);
	in->c = tag == MPIV_ANY_TAG ? ENG_ANY : tag;
	in->bytes = (int64_t)env->bytes;
	if (send)
		in->d = (flags & MPIV_F_SYNC) ? ENG_SEND_SYNC :
			(flags & MPIV_F_BUFFERED) ? ENG_SEND_BUFFERED : ENG_SEND_STANDARD;
	if (++b->live > b->maxlive)
		b->maxlive = b->live;
	return (int)(b->n - 1);
}

/* Wait for list[0..n); with d < n, only the first d complete (MPI_Waitany and kin). */
static void wait_for(struct builder *b, int ev, const int32_t *instrs, int n, int d)
{
	struct eng_instr *in = emit(b, d < n ? ENG_WAITANY : ENG_WAIT, ev);

	in->n = n;
	in->d = d;
	in->list = xmalloc((size_t)(n ? n : 1) * sizeof(*in->list));
	memcpy(in->list, instrs, (size_t)n * sizeof(*in->list));
	b->live -= d;
}

/* What a rank in a collective waits for, with buffering (without, every collective
 * synchronises: the engine's rule). */
static int coll_rule(unsigned call, int me, int root)
{
	switch (call) {
	case MPIV_CALL_Bcast:
	case MPIV_CALL_Ibcast:
	case MPIV_CALL_Scatter:
	case MPIV_CALL_Scatterv:
	case MPIV_CALL_Iscatter:
	case MPIV_CALL_Iscatterv:
		return me == root ? ENG_COLL_NONE : ENG_COLL_ROOT;
	case MPIV_CALL_Reduce:
	case MPIV_CALL_Ireduce:
	case MPIV_CALL_Gather:
	case MPIV_CALL_Gatherv:
	case MPIV_CALL_Igather:
	case MPIV_CALL_Igatherv:
		return me == root ? ENG_COLL_ALL : ENG_COLL_NONE;
	case MPIV_CALL_Scan:
	case MPIV_CALL_Exscan:
	case MPIV_CALL_Iscan:
	case MPIV_CALL_Iexscan:
		return ENG_COLL_LOWER;
	default:
		return ENG_COLL_ALL;
	}
}

static int is_p2p(enum mpiv_kind kind)
{
	switch (kind) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_ISEND:
	case MPIV_KIND_RECV:
	case MPIV_KIND_IRECV:
	case MPIV_KIND_SENDRECV:
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
	case MPIV_KIND_SEND_INIT:
	case MPIV_KIND_RECV_INIT:
		return 1;
	default:
		return 0;
	}
}

/* Peers and roots must be members of the event's communicator: MPI rejects any other rank,
 * and the model would wait for it forever. Returns 0 or -1 with err filled. */
static int check_members(const struct builder *b, const struct mpiv_event *ev,
			 struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	int c = comm_id(b, ev->comm);
	int32_t who[3] = {ev->peer, ev->peer2, ev->root};
	int k;

	if (c <= 0)
		return 0;	/* MPI_COMM_WORLD holds every rank */
	for (k = 0; k < 3; k++) {
		if (who[k] < 0 || tr_comms_member(b->prog, c, who[k]))
			continue;
		if (ev->comm == MPIV_COMM_SELF && k < 2)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index, "peer %d on MPI_COMM_SELF of rank %d",
					      who[k], t->rank);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s names world rank %d, which is not a member of its "
				      "communicator (comm %d)", mpiv_call_name(ev->call), who[k],
				      ev->comm);
	}
	return 0;
}

static int check_event(const struct builder *b, const struct mpiv_event *ev,
		       struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int needs_comm = is_p2p(kind) || kind == MPIV_KIND_COLL || kind == MPIV_KIND_ICOLL ||
			 kind == MPIV_KIND_COMM_GROUP;
	int sends = kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND ||
		    kind == MPIV_KIND_SEND_INIT || kind == MPIV_KIND_SENDRECV;
	int has_req = kind == MPIV_KIND_ISEND || kind == MPIV_KIND_IRECV ||
		      kind == MPIV_KIND_SEND_INIT || kind == MPIV_KIND_RECV_INIT ||
		      kind == MPIV_KIND_ICOLL;

	if (ev->call == MPIV_CALL_Intercomm_create)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "the trace uses MPI_Intercomm_create: check cannot judge "
				      "intercommunicators yet");
	if (kind == MPIV_KIND_UNSUPPORTED)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "the trace uses %s, which check cannot judge yet",
				      mpiv_call_name(ev->call));
	if (needs_comm && comm_id(b, ev->comm) < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s on a communicator check does not know (comm %d): one "
				      "made by a call mpiverify does not record (such as "
				      "MPI_Intercomm_merge or MPI_Graph_create), which check cannot "
				      "judge yet", mpiv_call_name(ev->call), ev->comm);
	if (kind == MPIV_KIND_COMM_GROUP && !mpiv_trace_newcomm(t, ev->index) &&
	    (ev->flags & MPIV_EV_INCOMPLETE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "the trace ends inside %s, whose group the recorder "
				      "writes only when it returns: check cannot tell whom it "
				      "waits for", mpiv_call_name(ev->call));
	if (needs_comm && check_members(b, ev, err))
		return -1;
	if (is_p2p(kind) && (ev->peer == MPIV_NONE || ev->tag == MPIV_NONE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without a peer or a tag", mpiv_call_name(ev->call));
	if (kind == MPIV_KIND_SENDRECV && (ev->peer2 == MPIV_NONE || ev->tag2 == MPIV_NONE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without its source or receive tag",
				      mpiv_call_name(ev->call));
	if (sends && ev->peer == MPIV_ANY_SOURCE)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "send to MPI_ANY_SOURCE");
	if (has_req && (ev->nreqs != 1 || ev->reqs[0].req < 0))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without its request", mpiv_call_name(ev->call));
	if ((mpiv_call_flags(ev->call) & MPIV_F_ROOTED) &&
	    (ev->root < 0 || ev->root >= t->size))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without a root of the world (%d)",
				      mpiv_call_name(ev->call), ev->root);
	return 0;
}

/* A probe with MPI_ANY_SOURCE that found a message, followed by the receive of exactly that
 * message (its source and tag taken from the probe's status), is one wildcard receive: in
 * another behaviour the probe finds another message and the program receives that one
 * (MODELLING 1.7.8). Returns the index of that receive, or -1. */
static long fused_receive(const struct mpiv_rank_trace *t, size_t i)
{
	const struct mpiv_event *pr = &t->events[i];
	size_t j;

	for (j = i + 1; j < t->nevents; j++) {
		const struct mpiv_event *ev = &t->events[j];
		enum mpiv_kind kind = mpiv_call_kind(ev->call);

		if (kind == MPIV_KIND_PROBE || kind == MPIV_KIND_MPROBE)
			return -1;
		if (kind != MPIV_KIND_RECV && kind != MPIV_KIND_IRECV)
			continue;
		if (ev->comm == pr->comm && ev->peer == pr->src &&
		    (ev->tag == pr->mtag || ev->tag == pr->tag))
			return (long)j;
		return -1;
	}
	return -1;
}

/* Translate one completion call: reqs[0..nreqs - npending) completed, the rest did not. */
static int build_wait(struct builder *b, const struct mpiv_event *ev, int32_t **list,
		      size_t *listcap, struct mpiv_error *err)
{
	uint32_t ndone = ev->nreqs - ev->npending, j;
	int n = 0, d = 0;

	if (ndone == 0)
		return 0;	/* a test that found nothing: no effect (SPEC 3.5) */
	xgrow((void **)list, listcap, ev->nreqs + 1, sizeof(**list));
	for (j = 0; j < ev->nreqs; j++) {
		int32_t req = ev->reqs[j].req, instr = req_instr(b, req);

		if (instr < 0) {
			/* an inactive persistent request completes at once */
			if (req_tmpl(b, req) >= 0 || j >= ndone)
				continue;
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, b->t->source, b->t->rank,
					      ev->index, "%s completes request %d, which was never "
					      "posted", mpiv_call_name(ev->call), req);
		}
		if (j < ndone) {
			b->req_instr[req] = -1;
			/* completed ones first, as ENG_WAITANY wants them */
			memmove(*list + d + 1, *list + d, (size_t)(n - d) * sizeof(**list));
			(*list)[d++] = instr;
		} else {
			(*list)[n] = instr;
		}
		n++;
	}
	if (d > 0)
		wait_for(b, (int)ev->index, *list, n, d);
	return 0;
}

static int build_rank(const struct mpiv_rank_trace *t, struct builder *b,
		      struct mpiv_error *err)
{
	size_t i;
	uint32_t j;
	int32_t *list = NULL, pair[2];
	size_t listcap = 0;

	b->t = t;
	b->peer_of = xmalloc((t->nevents + 1) * sizeof(*b->peer_of));
	b->tag_of = xmalloc((t->nevents + 1) * sizeof(*b->tag_of));
	for (i = 0; i < t->nevents; i++) {
		b->peer_of[i] = t->events[i].peer;
		b->tag_of[i] = t->events[i].tag;
	}
	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *ev = &t->events[i];
		enum mpiv_kind kind = mpiv_call_kind(ev->call);
		int idx, c;
		long f;

		if (check_event(b, ev, err))
			goto fail;
		switch (kind) {
		case MPIV_KIND_FINALIZE:
			emit(b, ENG_END, (int)ev->index);
			goto done;
		case MPIV_KIND_SEND:
		case MPIV_KIND_RECV:
			idx = post(b, ev, (int)ev->index, kind == MPIV_KIND_SEND);
			wait_for(b, (int)ev->index, &idx, 1, 1);
			break;
		case MPIV_KIND_ISEND:
		case MPIV_KIND_IRECV:
			idx = post(b, ev, (int)ev->index, kind == MPIV_KIND_ISEND);
			map_req(b, ev->reqs[0].req, idx);
			break;
		case MPIV_KIND_SENDRECV: {
			struct mpiv_event recv = *ev;

			/* both halves posted together, then both waited for (SPEC 3.5) */
			pair[0] = post(b, ev, (int)ev->index, 1);
			b->peer_of[i] = ev->peer2;
			b->tag_of[i] = ev->tag2;
			recv.call = MPIV_CALL_Recv;
			pair[1] = post(b, &recv, (int)ev->index, 0);
			wait_for(b, (int)ev->index, pair, 2, 2);
			break;
		}
		case MPIV_KIND_WAIT:
			if (build_wait(b, ev, &list, &listcap, err))
				goto fail;
			break;
		case MPIV_KIND_PROBE:
			if (ev->src == MPIV_NONE)
				break;	/* an MPI_Iprobe that found nothing: no effect */
			f = ev->peer == MPIV_ANY_SOURCE ? fused_receive(t, i) : -1;
			if (f >= 0) {
				b->peer_of[f] = MPIV_ANY_SOURCE;
				b->tag_of[f] = ev->tag;
				break;
			}
			{
				struct eng_instr *in = emit(b, ENG_PROBE, (int)ev->index);

				in->a = engine_peer(ev->peer);
				in->b = comm_id(b, ev->comm);
				in->c = ev->tag == MPIV_ANY_TAG ? ENG_ANY : ev->tag;
			}
			break;
		case MPIV_KIND_MPROBE:
			if (ev->src == MPIV_NONE)
				break;	/* an MPI_Improbe that found nothing */
			/* a matched probe takes its message: it is the receive */
			idx = post(b, ev, (int)ev->index, 0);
			wait_for(b, (int)ev->index, &idx, 1, 1);
			break;
		case MPIV_KIND_MRECV:
			if (ev->call == MPIV_CALL_Imrecv && ev->nreqs == 1) {
				struct mpiv_event nul = *ev;

				/* its message is matched already: a request complete at once */
				nul.peer = MPIV_PROC_NULL;
				nul.tag = 0;
				nul.comm = MPIV_COMM_WORLD;
				b->peer_of[i] = MPIV_PROC_NULL;
				b->tag_of[i] = 0;
				map_req(b, ev->reqs[0].req, post(b, &nul, (int)ev->index, 0));
			}
			break;
		case MPIV_KIND_SEND_INIT:
		case MPIV_KIND_RECV_INIT:
			grow_reqs(b, ev->reqs[0].req);
			b->req_tmpl[ev->reqs[0].req] = (int32_t)i;
			b->req_instr[ev->reqs[0].req] = -1;
			break;
		case MPIV_KIND_START:
			for (j = 0; j < ev->nreqs; j++) {
				int32_t req = ev->reqs[j].req, tm = req_tmpl(b, req);
				const struct mpiv_event *env;

				if (tm < 0) {
					mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
						       ev->index, "%s starts request %d, which is not a "
						       "persistent request", mpiv_call_name(ev->call), req);
					goto fail;
				}
				env = &t->events[tm];
				idx = post(b, env, (int)ev->index,
					   mpiv_call_kind(env->call) == MPIV_KIND_SEND_INIT);
				map_req(b, req, idx);
			}
			break;
		case MPIV_KIND_REQUEST_FREE:
			for (j = 0; j < ev->nreqs; j++) {
				if (req_instr(b, ev->reqs[j].req) >= 0 || req_tmpl(b, ev->reqs[j].req) >= 0) {
					b->req_instr[ev->reqs[j].req] = -1;
					b->req_tmpl[ev->reqs[j].req] = -1;
				}
			}
			break;
		case MPIV_KIND_COLL:
		case MPIV_KIND_ICOLL: {
			struct eng_instr *in;

			c = comm_id(b, ev->comm);
			in = emit(b, kind == MPIV_KIND_COLL ? ENG_COLL : ENG_ICOLL, (int)ev->index);
			in->a = c;
			in->b = coll_rule(ev->call, t->rank, ev->root);
			in->c = ++b->coll_seq[c];
			in->d = ev->root >= 0 ? ev->root : 0;
			in->bytes = (int64_t)ev->bytes;
			if (kind == MPIV_KIND_ICOLL) {
				map_req(b, ev->reqs[0].req, (int)(b->n - 1));
				if (++b->live > b->maxlive)
					b->maxlive = b->live;
			}
			break;
		}
		case MPIV_KIND_COMM_GROUP: {
			const struct mpiv_newcomm *nc = mpiv_trace_newcomm(t, ev->index);
			struct eng_instr *in;

			/* collective over the new communicator's members, not the parent's; a
			 * rank that got MPI_COMM_NULL was not in the group: no effect */
			if (!nc)
				break;
			c = comm_id(b, nc->id);
			in = emit(b, ENG_COLL, (int)ev->index);
			in->a = c;
			in->b = ENG_COLL_ALL;
			in->c = ++b->coll_seq[c];
			break;
		}
		default:	/* MPI_Init, MPI_Comm_free (it does not wait) */
			break;
		}
	}
	/* the trace ends without MPI_Finalize: the rank is done there (SPEC 3.8) */
	emit(b, ENG_END, t->nevents ? (int)t->nevents - 1 : 0);
done:
	free(list);
	free(b->peer_of);
	free(b->tag_of);
	return 0;
fail:
	free(list);
	free(b->peer_of);
	free(b->tag_of);
	return -1;
}

/* The collectives of a communicator meet in call order: the k-th of every member must be the
 * same call with the same root (SPEC 3.6). Where they differ, all k-th ones are marked as a
 * mismatch: erroneous, and never completing. One pass per (communicator, member). */
static void mark_mismatches(struct eng_prog *prog, const struct mpiv_traceset *ts)
{
	struct eng_instr ***pos = xcalloc((size_t)prog->nranks, sizeof(*pos));
	size_t *npos = xcalloc((size_t)prog->nranks, sizeof(*npos));
	int c, i, x;
	size_t k, cap;

	for (c = 0; c < prog->ncomms; c++) {
		const struct eng_comm *cm = &prog->comms[c];
		size_t most = 0;

		for (i = 0; i < cm->n; i++) {
			int r = cm->members[i];

			npos[i] = 0;
			cap = 0;
			pos[i] = NULL;
			for (x = 0; x < prog->nins[r]; x++) {
				struct eng_instr *in = &prog->ins[r][x];

				if ((in->op != ENG_COLL && in->op != ENG_ICOLL) || in->a != c)
					continue;
				xgrow((void **)&pos[i], &cap, npos[i] + 1, sizeof(*pos[i]));
				pos[i][npos[i]++] = in;
			}
			if (npos[i] > most)
				most = npos[i];
		}
		for (k = 0; k < most; k++) {
			const struct mpiv_event *first = NULL;
			int mismatch = 0;

			for (i = 0; i < cm->n; i++) {
				const struct mpiv_event *ev;

				if (k >= npos[i])
					continue;
				ev = &ts->ranks[cm->members[i]].events[pos[i][k]->ev];
				if (!first)
					first = ev;
				else if (ev->call != first->call ||
					 ((mpiv_call_flags(ev->call) & MPIV_F_ROOTED) &&
					  ev->root != first->root))
					mismatch = 1;
			}
			for (i = 0; mismatch && i < cm->n; i++)
				if (k < npos[i])
					pos[i][k]->b = ENG_COLL_MISMATCH;
		}
		for (i = 0; i < cm->n; i++)
			free(pos[i]);
	}
	free(pos);
	free(npos);
}

int tr_translate(const struct mpiv_traceset *ts, const struct tr_opts *opts,
		 struct eng_prog *prog, struct mpiv_error *err)
{
	struct tr_comms comms;
	int r, i, nsends = 0;

	memset(prog, 0, sizeof(*prog));
	if (ts->nranks > 0x7fff)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, ts->dir, -1, -1,
				      "%d ranks: check handles at most %d", ts->nranks, 0x7fff);
	prog->nranks = ts->nranks;
	if (tr_comms_build(ts, prog, &comms, err)) {
		tr_comms_release(&comms);
		eng_prog_release(prog);
		return -1;
	}
	prog->nins = xcalloc((size_t)ts->nranks, sizeof(*prog->nins));
	prog->ins = xcalloc((size_t)ts->nranks, sizeof(*prog->ins));
	prog->maxlive = 1;
	for (r = 0; r < ts->nranks; r++) {
		struct builder b;
		int rc;

		memset(&b, 0, sizeof(b));
		b.comms = &comms;
		b.prog = prog;
		b.coll_seq = xcalloc((size_t)prog->ncomms, sizeof(*b.coll_seq));
		rc = build_rank(&ts->ranks[r], &b, err);
		free(b.coll_seq);
		free(b.req_instr);
		free(b.req_tmpl);
		prog->ins[r] = b.ins;
		prog->nins[r] = (int32_t)b.n;
		if (rc) {
			tr_comms_release(&comms);
			eng_prog_release(prog);
			return -1;
		}
		if (b.maxlive > prog->maxlive)
			prog->maxlive = b.maxlive;
		for (i = 0; i < prog->nins[r]; i++)
			if (prog->ins[r][i].op == ENG_POST_SEND)
				nsends++;
	}
	tr_comms_release(&comms);
	mark_mismatches(prog, ts);
	prog->buffering = opts->buffering;
	prog->eager = opts->eager;
	prog->maxmsg = opts->maxmsg > 0 ? opts->maxmsg : DEFAULT_MAXMSG;
	if (nsends < prog->maxmsg)
		prog->maxmsg = nsends > 0 ? nsends : 1;
	eng_layout(prog);
	return 0;
}

int tr_emit(const struct eng_prog *prog, FILE *f, const char *path, struct mpiv_error *err)
{
	if (eng_prog_write(prog, f))
		return mpiv_error_set(err, MPIV_EXIT_TOOL, path, -1, -1, "cannot write model data");
	return 0;
}
