/* Translator, first half: each rank's events become the engine's instructions (a blocking
 * call is a post and a wait), communicators get engine ids, and the state's sizes are taken
 * from the trace (most requests live at once per rank). */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"

#define DEFAULT_MAXMSG 4096	/* messages in flight at once; more ends the search as overflow */

/* Engine communicator ids: 0 is MPI_COMM_WORLD, 1 + r is rank r's MPI_COMM_SELF. */
static int comm_id(int comm, int rank)
{
	if (comm == MPIV_COMM_WORLD)
		return 0;
	if (comm == MPIV_COMM_SELF)
		return 1 + rank;
	return -1;
}

/* A rank's program being built. */
struct builder {
	struct eng_instr *ins;
	size_t n, cap;
	int32_t *req_instr;	/* request id -> instruction index of its post, -1 if none */
	size_t nreq;		/* room in req_instr */
	int live, maxlive;	/* requests posted and not waited for, now and at most */
	int *coll_seq;		/* per engine comm: collectives this rank entered */
};

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

static void map_req(struct builder *b, int32_t req, int instr)
{
	size_t old = b->nreq;

	if ((size_t)req >= b->nreq) {
		xgrow((void **)&b->req_instr, &b->nreq, (size_t)req + 1, sizeof(*b->req_instr));
		memset(b->req_instr + old, 0xff, (b->nreq - old) * sizeof(*b->req_instr));
	}
	b->req_instr[req] = instr;
}

static int post(struct builder *b, const struct mpiv_event *ev, int send, int rank)
{
	struct eng_instr *in = emit(b, send ? ENG_POST_SEND : ENG_POST_RECV, (int)ev->index);
	unsigned flags = mpiv_call_flags(ev->call);

	if (ev->peer == MPIV_PROC_NULL)
		in->a = ENG_PROC_NULL;
	else if (ev->peer == MPIV_ANY_SOURCE)
		in->a = ENG_ANY;
	else
		in->a = ev->peer;
	in->b = comm_id(ev->comm, rank);
	in->c = ev->tag == MPIV_ANY_TAG ? ENG_ANY : ev->tag;
	in->bytes = (int64_t)ev->bytes;
	if (send)
		in->d = (flags & MPIV_F_SYNC) ? ENG_SEND_SYNC :
			(flags & MPIV_F_BUFFERED) ? ENG_SEND_BUFFERED : ENG_SEND_STANDARD;
	if (++b->live > b->maxlive)
		b->maxlive = b->live;
	return (int)(b->n - 1);
}

static void wait_for(struct builder *b, int ev, const int32_t *instrs, int n)
{
	struct eng_instr *in = emit(b, ENG_WAIT, ev);

	in->n = n;
	in->list = xmalloc((size_t)(n ? n : 1) * sizeof(*in->list));
	memcpy(in->list, instrs, (size_t)n * sizeof(*in->list));
	b->live -= n;
}

static int check_event(const struct mpiv_rank_trace *t, const struct mpiv_event *ev,
		       struct mpiv_error *err)
{
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int needs_comm = kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND ||
			 kind == MPIV_KIND_RECV || kind == MPIV_KIND_IRECV || kind == MPIV_KIND_COLL;
	int needs_peer = needs_comm && kind != MPIV_KIND_COLL;

	if (kind == MPIV_KIND_UNSUPPORTED)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "the trace uses %s, which check cannot judge yet",
				      mpiv_call_name(ev->call));
	if (needs_comm && comm_id(ev->comm, t->rank) < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s on a communicator other than MPI_COMM_WORLD or "
				      "MPI_COMM_SELF, which check cannot judge yet",
				      mpiv_call_name(ev->call));
	if (needs_peer && (ev->peer == MPIV_NONE || ev->tag == MPIV_NONE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without a peer or a tag", mpiv_call_name(ev->call));
	if (needs_peer && ev->comm == MPIV_COMM_SELF && ev->peer >= 0 && ev->peer != t->rank)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "peer %d on MPI_COMM_SELF of rank %d", ev->peer, t->rank);
	if ((kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND) && ev->peer == MPIV_ANY_SOURCE)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "send to MPI_ANY_SOURCE");
	if ((kind == MPIV_KIND_ISEND || kind == MPIV_KIND_IRECV) &&
	    (ev->nreqs != 1 || ev->reqs[0].req < 0))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without its request", mpiv_call_name(ev->call));
	return 0;
}

static int build_rank(const struct mpiv_rank_trace *t, struct builder *b,
		      struct mpiv_error *err)
{
	size_t i;
	uint32_t j;
	int32_t *list = NULL;
	size_t listcap = 0;

	for (i = 0; i < t->nevents; i++) {
		const struct mpiv_event *ev = &t->events[i];
		int idx;

		if (check_event(t, ev, err))
			goto fail;
		switch (mpiv_call_kind(ev->call)) {
		case MPIV_KIND_INIT:
			break;
		case MPIV_KIND_FINALIZE:
			emit(b, ENG_END, (int)ev->index);
			free(list);
			return 0;
		case MPIV_KIND_SEND:
		case MPIV_KIND_RECV:
			idx = post(b, ev, mpiv_call_kind(ev->call) == MPIV_KIND_SEND, t->rank);
			wait_for(b, (int)ev->index, &idx, 1);
			break;
		case MPIV_KIND_ISEND:
		case MPIV_KIND_IRECV:
			idx = post(b, ev, mpiv_call_kind(ev->call) == MPIV_KIND_ISEND, t->rank);
			map_req(b, ev->reqs[0].req, idx);
			break;
		case MPIV_KIND_WAIT:
			xgrow((void **)&list, &listcap, ev->nreqs + 1, sizeof(*list));
			for (j = 0; j < ev->nreqs; j++) {
				int32_t req = ev->reqs[j].req;

				if (req < 0 || (size_t)req >= b->nreq || b->req_instr[req] < 0) {
					mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
						       ev->index,
						       "%s completes request %d, which was never posted",
						       mpiv_call_name(ev->call), req);
					goto fail;
				}
				list[j] = b->req_instr[req];
				b->req_instr[req] = -1;
			}
			wait_for(b, (int)ev->index, list, (int)ev->nreqs);
			break;
		case MPIV_KIND_COLL: {
			struct eng_instr *in;
			int c = comm_id(ev->comm, t->rank);

			in = emit(b, ENG_COLL, (int)ev->index);
			in->a = c;
			in->c = ++b->coll_seq[c];
			break;
		}
		default:
			break;
		}
	}
	/* the trace ends without MPI_Finalize: the rank is done there (SPEC 3.8) */
	emit(b, ENG_END, t->nevents ? (int)t->nevents - 1 : 0);
	free(list);
	return 0;
fail:
	free(list);
	return -1;
}

int tr_translate(const struct mpiv_traceset *ts, const struct tr_opts *opts,
		 struct eng_prog *prog, struct mpiv_error *err)
{
	int r, i, nsends = 0;

	memset(prog, 0, sizeof(*prog));
	if (ts->nranks > 0x7fff)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, ts->dir, -1, -1,
				      "%d ranks: check handles at most %d", ts->nranks, 0x7fff);
	prog->nranks = ts->nranks;
	prog->ncomms = 1 + ts->nranks;
	prog->comms = xcalloc((size_t)prog->ncomms, sizeof(*prog->comms));
	prog->comms[0].n = ts->nranks;
	prog->comms[0].members = xcalloc((size_t)ts->nranks, sizeof(int32_t));
	for (r = 0; r < ts->nranks; r++) {
		prog->comms[0].members[r] = r;
		prog->comms[1 + r].n = 1;
		prog->comms[1 + r].members = xcalloc(1, sizeof(int32_t));
		prog->comms[1 + r].members[0] = r;
	}
	prog->nins = xcalloc((size_t)ts->nranks, sizeof(*prog->nins));
	prog->ins = xcalloc((size_t)ts->nranks, sizeof(*prog->ins));
	prog->maxlive = 1;
	for (r = 0; r < ts->nranks; r++) {
		struct builder b;
		int rc;

		memset(&b, 0, sizeof(b));
		b.coll_seq = xcalloc((size_t)prog->ncomms, sizeof(*b.coll_seq));
		rc = build_rank(&ts->ranks[r], &b, err);
		free(b.coll_seq);
		free(b.req_instr);
		prog->ins[r] = b.ins;
		prog->nins[r] = (int32_t)b.n;
		if (rc) {
			eng_prog_release(prog);
			return -1;
		}
		if (b.maxlive > prog->maxlive)
			prog->maxlive = b.maxlive;
		for (i = 0; i < prog->nins[r]; i++)
			if (prog->ins[r][i].op == ENG_POST_SEND)
				nsends++;
	}
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
