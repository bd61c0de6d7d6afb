/* Translator, first half: each rank's events become the engine's instructions (a blocking
 * call is a post and a wait), communicators get engine ids, and the state's sizes are taken
 * from the trace (most requests live at once per rank). */
#include <stdlib.h>
#include <string.h>

#include "tr_comm.h"
#include "tr_part.h"
#include "tr_reqmap.h"
#include "translate.h"
#include "xalloc.h"
#include "tr_check.h"

_Static_assert(MPIV_CALL__COUNT <= INT16_MAX, "a call number fits struct eng_instr's call");

#define DEFAULT_MAXMSG 4096 /* messages in flight at once; more ends the search as overflow */

/* A lock a rank holds while its program is being built: the unlock closes it. */
struct open_lock {
	int32_t instr;	/* its ENG_WIN_LOCK */
	int32_t comm;	/* the window's engine communicator */
	int32_t target; /* world rank, or ENG_ANY for MPI_Win_lock_all */
	int32_t exclusive;
};

/* Windows and locks of the whole trace set, filled while the ranks are built. */
struct windows {
	int nranks;
	int ncomms; /* the engine communicators windows may be made on (not windows') */
	/* by engine communicator c: the windows made on it, the most any member made, are
	 * engine communicators first[c] .. first[c] + count[c] - 1, with c's members */
	int *first, *count;
	struct eng_lock *locks; /* lock intervals, by rank then instruction */
	size_t nlocks, caplocks;
};

/* One thread's program being built: a process of the engine. */
/* verify: a request MPI_Waitsome or MPI_Testsome returned beside the first, to be returned
 * by a call of its own where its turn comes (split_completion()). */
struct some_left {
	int32_t ev;    /* the completion's event */
	int32_t instr; /* the request's post */
	int32_t peer;  /* its peer: the source its receive took, its send's destination */
	int32_t comm;  /* its engine communicator */
	int32_t *list; /* the completion's others, not returned yet */
	int32_t n;
	int polled; /* the completion was MPI_Testsome (ENG_POLLED) */
};

struct proc_build {
	int32_t thread; /* the recorder's thread number */
	struct eng_instr *ins;
	size_t n, cap;
	int live, maxlive;	/* requests posted and not waited for, now and at most */
	long last;		/* its last event, -1 before the first */
	int ninputs;		/* verify: inputs taken so far (the next one's number) */
	struct some_left *left; /* verify: what a completion of several has still to return */
	size_t nleft, capleft;
	int32_t null_wait; /* verify: 1 + an MPI_Wait on MPI_REQUEST_NULL's event, not yet made */
};

/* A request of the rank being built, in its table while it is active or persistent (or a
 * generalized request freed before it completed, which MPI_Grequest_complete may still name). */
struct build_req {
	int32_t id;
	int32_t instr; /* the instruction of its active post, -1 if none */
	/* MPI_Isendrecv's: the post of its receive (instr is its send's), both completing the
	 * request; -1 for every other */
	int32_t instr2;
	int32_t proc;  /* the process that posted it */
	int32_t tmpl;  /* the event of its persistent template, -1 if none */
	int32_t freed; /* a generalized request freed while active */
	/* a partitioned send started with partitions not all ready: posted by the call that
	 * readies the last (build_pready()), not by its start */
	int32_t deferred;
};

/* The source and tag an event's receive is posted with, where they are not its own: the
 * receive a probe with MPI_ANY_SOURCE is fused with, MPI_Sendrecv's receive half, the
 * receive of MPI_Imrecv. */
struct override {
	size_t event;
	int32_t peer, tag;
	int polled; /* verify: the receive of what a wildcard MPI_Iprobe found (ENG_POLLED) */
};

/* What a thread of the rank must wait for before its next call (doc/semantics.md 1.3):
 * constraints, each two words: (process, its ENG_THREAD_MARK), or (-1 - thread, 0) for the
 * end of a thread another joined. */
struct thread_order {
	int32_t thread;
	int32_t *pend;
	size_t npend, cappend;
	int exit_mark; /* its ENG_THREAD_MARK before its end, -1 if none */
	int joined;    /* a thread joins it: it gets one */
};

/* An ENG_THREAD_AFTER of process proc, at instr: its constraints, made pairs once every
 * process has its end. */
struct after_fix {
	size_t proc;
	int instr;
	int32_t *c;
	size_t n, cap;
};

/* A partitioned send started by one thread whose partitions other threads ready (doc/
 * semantics.md 4.9): its message goes in the thread that started it, after the marks the
 * others' MPI_Pready* leave, at that thread's next call (owner_call()). */
struct part_wait {
	int32_t req;
	size_t owner;	/* the process that started it */
	int32_t *marks; /* (process, its ENG_THREAD_MARK) pairs, for an after_fix */
	size_t nmarks, capmarks;
	int ready;  /* this start's partitions are all ready (a call flagged parts_ready) */
	int judged; /* the owner's next call after the start was built */
	long fix;   /* the ENG_THREAD_AFTER made (b->fix), that later marks join; -1 none */
};

/* A rank's program being built: one process per thread that called MPI. */
struct builder {
	const struct mpiv_rank_trace *t;
	const struct tr_comms *comms; /* the trace's communicator ids -> engine ones */
	const struct tr_parts *parts; /* partitioned requests' pairs */
	const struct eng_prog *prog;  /* its communicators (members) */
	struct eng_prog *lists;	      /* the same, whose blocks hold the waits' lists */
	struct proc_build *procs;     /* in the order their threads first called MPI */
	size_t nprocs, capprocs;
	size_t cur;		   /* the process of the event being built */
	int proc_base;		   /* engine index of procs[0] */
	int threaded;		   /* more than one thread of the rank calls MPI */
	struct tr_reqmap requests; /* its active and persistent requests (struct build_req) */
	int *coll_seq;		   /* per engine comm: collectives this rank entered */
	/* the events posted otherwise than as recorded, until posted
	 * (a few at a time) */
	struct override *ovr;
	size_t novr, capovr;
	struct mpiv_event ev;	   /* the event being built (hold_event()) */
	struct mpiv_reqinfo *reqs; /* room for its requests */
	size_t capreqs;
	int32_t *group; /* and for its group */
	size_t capgroup;
	struct windows *w;	/* the trace set's windows and locks */
	int32_t *win_of;	/* the rank's window id -> engine communicator, -1 once freed */
	size_t nwin_of;		/* room in win_of */
	int *nwins;		/* by engine communicator: windows this rank made on it so far */
	struct open_lock *open; /* locks held now */
	size_t nopen, capopen;
	int verify;	     /* tr_opts.verify */
	uint32_t start_data; /* the data digest of the request MPI_Start posts (post()) */
	/* tr_opts.max_instrs (0: none), and the instructions the ranks
	 * built before this one have */
	size_t max_instrs, before;
	/* the order between its threads (pthread_create, pthread_join) */
	struct thread_order *th;
	size_t nth, capth;
	struct after_fix *fix; /* ENG_THREAD_AFTERs whose lists are made at the end */
	size_t nfix, capfix;
	struct part_wait *pw; /* partitioned sends started, by start */
	size_t npw, cappw;
	size_t next_op; /* the rank's next thread record (t->thread_ops) */
};

/* Engine communicator ids: 0 is MPI_COMM_WORLD, 1 + r is rank r's MPI_COMM_SELF, then those
 * the ranks made (tr_comm.c); -1 for one check does not know. */
static int comm_id(const struct builder *b, int comm)
{
	return tr_comms_id(b->comms, b->t->rank, comm);
}

/* The process being built. */
static struct proc_build *cur(struct builder *b)
{
	return &b->procs[b->cur];
}

static struct eng_instr *emit(struct builder *b, int op, int ev)
{
	struct proc_build *pb = cur(b);
	struct eng_instr *in;

	xgrow((void **)&pb->ins, &pb->cap, pb->n + 1, sizeof(*pb->ins));
	in = &pb->ins[pb->n++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->ev = ev;
	return in;
}

/* Past the most instructions the program may have (tr_opts.max_instrs), at event ev: err
 * filled, INCONCLUSIVE. */
static int over_limit(const struct builder *b, const struct mpiv_event *ev, struct mpiv_error *err)
{
	size_t n = b->before, k;

	if (!b->max_instrs)
		return 0;
	for (k = 0; k < b->nprocs; k++)
		n += (size_t)b->procs[k].n;
	if (n <= b->max_instrs)
		return 0;
	return mpiv_error_set(err, MPIV_EXIT_INCONCLUSIVE, b->t->source, b->t->rank, ev->index,
			      "the model's program reaches %zu instructions here, %zu MB with what "
			      "the search keeps of them: more than the memory limit of %zu MB "
			      "(--memory-limit)",
			      n, n * TR_INSTR_BYTES >> 20,
			      (b->max_instrs * TR_INSTR_BYTES + (1 << 20) - 1) >> 20);
}

static void branch(struct builder *b, int ev, int reg, int sym);

/* Make the process of `thread` the one being built, adding it on its first event. */
static void select_thread(struct builder *b, int32_t thread)
{
	size_t i;

	for (i = 0; i < b->nprocs && b->procs[i].thread != thread; i++)
		;
	if (i == b->nprocs) {
		xgrow((void **)&b->procs, &b->capprocs, b->nprocs + 1, sizeof(*b->procs));
		memset(&b->procs[i], 0, sizeof(b->procs[i]));
		b->procs[i].thread = thread;
		b->procs[i].last = -1;
		b->nprocs++;
		b->cur = i;
		/* verify: a branch that compares nothing, where runs that differ from the start
		 * (by what the model does not see) part (explore/) */
		if (b->verify)
			branch(b, 0, -1, 0);
	}
	b->cur = i;
}

/* Index of the last instruction emitted for the process being built. */
static int last_instr(struct builder *b)
{
	return (int)cur(b)->n - 1;
}

/* Request req's entry, or NULL. */
static struct build_req *req_of(const struct builder *b, int32_t req)
{
	return req >= 0 ? tr_reqmap_get(&b->requests, req) : NULL;
}

/* Request req's entry (req >= 0), made if it has none. */
static struct build_req *req_put(struct builder *b, int32_t req)
{
	struct build_req *e = tr_reqmap_get(&b->requests, req);

	if (!e) {
		e = tr_reqmap_put(&b->requests, req);
		e->instr = e->instr2 = e->proc = e->tmpl = -1;
	}
	return e;
}

static int32_t req_instr(const struct builder *b, int32_t req)
{
	const struct build_req *e = req_of(b, req);

	return e ? e->instr : -1;
}

static int32_t req_tmpl(const struct builder *b, int32_t req)
{
	const struct build_req *e = req_of(b, req);

	return e ? e->tmpl : -1;
}

/* The process that posted active request req. */
static int32_t req_proc(const struct builder *b, int32_t req)
{
	return req_of(b, req)->proc;
}

/* Request req is no longer active: it completed, or was freed (a persistent one stays). */
static void req_done(struct builder *b, int32_t req)
{
	struct build_req *e = req_of(b, req);

	if (e) {
		e->instr = -1;
		if (e->tmpl < 0)
			tr_reqmap_del(&b->requests, req);
	}
}

static void map_req(struct builder *b, int32_t req, int instr)
{
	struct build_req *e;

	if (req < 0)
		return;
	e = req_put(b, req);
	e->instr = instr;
	e->instr2 = -1;
	e->proc = (int32_t)b->cur;
}

/* Request req is complete from event ev on, whoever waits for it: a generalized request
 * completed as it is made (MPI_Rput's, doc/semantics.md 7.4; one MPI_Request_get_status said
 * was complete, 4.3). */
static void complete_request(struct builder *b, const struct mpiv_event *ev, int32_t req)
{
	int greq;

	emit(b, ENG_GREQ, (int)ev->index);
	greq = last_instr(b);
	map_req(b, req, greq);
	emit(b, ENG_GREQ_DONE, (int)ev->index)->a = greq;
	if (++cur(b)->live > cur(b)->maxlive)
		cur(b)->maxlive = cur(b)->live;
}

/* The receive half of active request req, an MPI_Isendrecv's, or -1. */
static int32_t req_instr2(const struct builder *b, int32_t req)
{
	const struct build_req *e = req_of(b, req);

	return e && e->instr >= 0 ? e->instr2 : -1;
}

/* A completion call of an MPI_Isendrecv request that check cannot model as one request:
 * an any- or some-completion (it would complete when either half does), or MPI_Cancel. */
static int pair_refused(const struct builder *b, const struct mpiv_event *ev, int32_t req,
			struct mpiv_error *err)
{
	return tr_unjudged(err, b->t->source, b->t->rank, ev->index,
			   "%s of request %d, an MPI_Isendrecv's: check cannot judge that "
			   "yet (MPI_Wait, MPI_Waitall, MPI_Test and MPI_Testall it can)",
			   mpiv_call_name(ev->call), req);
}

static int engine_peer(int32_t peer)
{
	if (peer == MPIV_PROC_NULL)
		return ENG_PROC_NULL;
	if (peer == MPIV_ANY_SOURCE)
		return ENG_ANY;
	return peer;
}

/* A size of the trace as the engine keeps it: at most ENG_MAX_BYTES. A larger one (no real
 * message) compares with every eager threshold and buffer as that does. */
static int64_t engine_bytes(uint64_t bytes)
{
	return bytes > (uint64_t)ENG_MAX_BYTES ? ENG_MAX_BYTES : (int64_t)bytes;
}

/* Post event e's receive with this source and tag, not its own. */
static void override(struct builder *b, size_t e, int32_t peer, int32_t tag, int polled)
{
	xgrow((void **)&b->ovr, &b->capovr, b->novr + 1, sizeof(*b->ovr));
	b->ovr[b->novr].event = e;
	b->ovr[b->novr].peer = peer;
	b->ovr[b->novr].tag = tag;
	b->ovr[b->novr].polled = polled;
	b->novr++;
}

/* The source and tag event env's receive is posted with: an override's (then spent), or its
 * own. Returns whether the receive takes what a poll found (struct override). */
static int recv_envelope(struct builder *b, const struct mpiv_event *env, int32_t *peer,
			 int32_t *tag)
{
	size_t k;
	int polled;

	*peer = env->peer;
	*tag = env->tag;
	for (k = 0; k < b->novr; k++)
		if (b->ovr[k].event == env->index) {
			*peer = b->ovr[k].peer;
			*tag = b->ovr[k].tag;
			polled = b->ovr[k].polled;
			b->ovr[k] = b->ovr[--b->novr];
			return polled;
		}
	return 0;
}

static void poll_branch(struct builder *b, int ev);

/* Post the send or receive of event `env` (a template for persistent requests) as event ev.
 * Returns the instruction's index. */
static int post(struct builder *b, const struct mpiv_event *env, int ev, int send)
{
	unsigned flags = mpiv_call_flags(env->call);
	int32_t peer = env->peer, tag = env->tag;
	int polled = !send && recv_envelope(b, env, &peer, &tag) && b->verify;
	struct eng_instr *in;

	if (polled)
		poll_branch(b, ev);
	in = emit(b, send ? ENG_POST_SEND : ENG_POST_RECV, ev);
	if (polled)
		in->sym |= ENG_POLLED;

	in->a = engine_peer(peer);
	in->b = comm_id(b, env->comm);
	in->c = tag == MPIV_ANY_TAG ? ENG_ANY : tag;
	/* a partitioned request meets its pair only (tr_part.h) */
	if (mpiv_call_flags(env->call) & MPIV_F_PARTITIONED) {
		in->b = b->parts->comm;
		in->c = tr_parts_pair(b->parts, b->t->rank, env->index);
	}
	in->bytes = engine_bytes(env->bytes);
	if (send)
		in->d = (flags & MPIV_F_SYNC)	  ? ENG_SEND_SYNC :
			(flags & MPIV_F_BUFFERED) ? ENG_SEND_BUFFERED :
			(flags & MPIV_F_READY)	  ? ENG_SEND_READY :
						    ENG_SEND_STANDARD;
	/* what the message carries: where it was sent from and a digest of its data (a start's
	 * is its request's, b->start_data) */
	if (b->verify && send)
		in->site = tr_message_key(tr_site_key(b->t, env->site),
					  mpiv_call_kind(env->call) == MPIV_KIND_SEND_INIT ?
						  b->start_data :
						  env->data);
	else if (b->verify && in->a != ENG_PROC_NULL)
		in->reg = 1 + cur(b)->ninputs++;
	if (++cur(b)->live > cur(b)->maxlive)
		cur(b)->maxlive = cur(b)->live;
	return last_instr(b);
}

/* A wait's list: a copy of instrs[0..n) in the program's blocks (eng_list_alloc()). */
static int32_t *wait_list(struct builder *b, const int32_t *instrs, int n)
{
	int32_t *l = xcheck(eng_list_alloc(b->lists, (size_t)n), (size_t)n * sizeof(*l));

	return memcpy(l, instrs, (size_t)n * sizeof(*l));
}

/* Wait for list[0..n); with d < n, only the first d complete (MPI_Waitany and kin). */
static void wait_for(struct builder *b, int ev, const int32_t *instrs, int n, int d)
{
	struct eng_instr *in = emit(b, d < n ? ENG_WAITANY : ENG_WAIT, ev);

	in->n = n;
	in->d = d;
	in->list = wait_list(b, instrs, n);
	cur(b)->live -= d;
}

/* verify: a branch on register reg (-1: none) comparing sym, with one way on, to the next
 * instruction; the input it took there is filled in from the recorded path
 * (tr_fill_inputs()). */
static void branch(struct builder *b, int ev, int reg, int sym)
{
	struct eng_instr *br = emit(b, ENG_BRANCH, ev);

	br->a = reg;
	br->sym = (int16_t)sym;
	br->n = ENG_BRANCH_WORDS;
	br->list = xcheck(eng_list_alloc(b->lists, ENG_BRANCH_WORDS),
			  ENG_BRANCH_WORDS * sizeof(*br->list));
	memset(br->list, 0, ENG_BRANCH_WORDS * sizeof(*br->list));
	br->list[0] = last_instr(b) + 1;
}

/* verify: a poll succeeded at event ev (its instruction, ENG_POLLED, comes next): a branch on
 * no input before it, so that where runs show other polls succeeding first the process's
 * ways part here, and the model goes on in whichever can succeed (ENG_POLLED). */
static void poll_branch(struct builder *b, int ev)
{
	branch(b, ev, -1, 0);
}

/* verify: the program learns the input of instruction x (a receive, probe or
 * any-completion that took one) here: a branch on it. It compares the parts the call left
 * open (a wildcard source or tag; an any-completion's request) and, for a message, what it
 * carried (the call site of its send and a digest of its data), so that a message no run
 * showed there is a frontier rather than taken for the recorded one. explore/ keeps of these
 * what the runs show the program acts on. */
static void learn(struct builder *b, int ev, int x)
{
	const struct eng_instr *in = &cur(b)->ins[x];
	int reg = in->reg, sym;

	if (!b->verify || reg <= 0)
		return;
	sym = in->op == ENG_WAITANY ? ENG_IN_REQ | ENG_IN_SOURCE | ENG_IN_TAG | ENG_IN_SITE :
				      (in->a == ENG_ANY ? ENG_IN_SOURCE : 0) |
					      (in->c == ENG_ANY ? ENG_IN_TAG : 0) | ENG_IN_SITE;
	branch(b, ev, reg - 1, sym);
}

/* What a rank in a collective waits for, with buffering (without, every collective
 * synchronises: the engine's rule), from the call's flags in mpi_calls.def. */
static int coll_rule(unsigned call, int me, int root)
{
	unsigned flags = mpiv_call_flags(call);

	if (flags & MPIV_F_NEIGHBOR)
		return ENG_COLL_LIST; /* the in-neighbours, the instruction's list */
	if (flags & MPIV_F_UNSYNCED)
		return ENG_COLL_NONE;
	if (flags & MPIV_F_ROOT_SENDS)
		return me == root ? ENG_COLL_NONE : ENG_COLL_ROOT;
	if (flags & MPIV_F_ROOT_RECEIVES)
		return me == root ? ENG_COLL_ALL : ENG_COLL_NONE;
	if (flags & MPIV_F_PREFIX)
		return ENG_COLL_LOWER;
	return ENG_COLL_ALL;
}

int tr_coll_synchronises(unsigned call)
{
	/* a rooted call's rule differs between its root and the others */
	return coll_rule(call, 0, 0) == ENG_COLL_ALL && coll_rule(call, 0, 1) == ENG_COLL_ALL;
}

/* The rule of a collective on an intercommunicator (instruction in, on in->a), with
 * buffering: a member waits for the other group's data (MPI-4.1 6.2.2: every member of one
 * group contributes to the other group's result), a rooted one as MPI defines it for
 * intercommunicators. The creations on it synchronise both groups (doc/semantics.md 6.3). */
static void inter_rule(struct builder *b, const struct mpiv_event *ev, struct eng_instr *in)
{
	const struct eng_comm *cm = &b->prog->comms[in->a];
	unsigned flags = mpiv_call_flags(ev->call);
	int split = tr_comms_split(b->comms, in->a), i, lo, hi;

	if (flags & MPIV_F_NEWCOMM) {
		in->b = ENG_COLL_ALL;
		return;
	}
	if (ev->root == MPIV_PROC_NULL || (flags & MPIV_F_UNSYNCED) ||
	    ((flags & MPIV_F_ROOT_RECEIVES) && ev->root != b->t->rank)) {
		in->b = ENG_COLL_NONE; /* the root's group but the root; senders to a root */
		return;
	}
	if ((flags & MPIV_F_ROOT_SENDS))
		return; /* coll_rule's: the root sends, the others wait for it */
	/* the other group: members [split, n) if this rank is among the first split */
	for (i = 0; i < split && cm->members[i] != b->t->rank; i++)
		;
	lo = i < split ? split : 0;
	hi = i < split ? cm->n : split;
	in->b = ENG_COLL_LIST;
	in->n = hi - lo;
	in->list = xmalloc(((size_t)in->n + 1) * sizeof(*in->list));
	memcpy(in->list, cm->members + lo, (size_t)in->n * sizeof(*in->list));
}

/* The call a collective's instruction carries, which its members' must be: a large-count
 * call's int-count twin, since the two forms of a collective meet each other (MPI-4.1 2.5.8:
 * the same operation). */
static int16_t coll_call(unsigned call)
{
	return (int16_t)mpiv_call_twin(call);
}

/* The instruction (op: ENG_COLL, or ENG_ICOLL) of the collective of event ev (or of the
 * template a start starts) on engine communicator c, as the event at index makes it. */
static void coll_post(struct builder *b, const struct mpiv_event *ev, int c, int op, int index)
{
	struct eng_instr *in = emit(b, op, index);

	in->a = c;
	in->b = coll_rule(ev->call, b->t->rank, ev->root);
	if (tr_comms_split(b->comms, c))
		inter_rule(b, ev, in);
	in->c = ++b->coll_seq[c];
	/* MPI_Intercomm_create's root is its group's leader, which differs between the groups:
	 * no root to compare */
	in->d = !(mpiv_call_flags(ev->call) & MPIV_F_ROOTED) ? 0 :
		ev->root >= 0				     ? ev->root :
		ev->root == MPIV_PROC_NULL		     ? ENG_PROC_NULL :
							       0;
	in->call = coll_call(ev->call);
	if ((mpiv_call_flags(ev->call) & MPIV_F_NEIGHBOR) && ev->ngroup) {
		/* the in-neighbours: doc/semantics.md 5.4 */
		in->n = (int32_t)ev->ngroup;
		in->list = xmalloc(ev->ngroup * sizeof(*in->list));
		memcpy(in->list, ev->group, ev->ngroup * sizeof(*in->list));
	}
}

/* Request req is the nonblocking collective just emitted. */
static void map_icoll(struct builder *b, int32_t req)
{
	map_req(b, req, last_instr(b));
	if (++cur(b)->live > cur(b)->maxlive)
		cur(b)->maxlive = cur(b)->live;
}

static int is_p2p(enum mpiv_kind kind)
{
	switch (kind) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_ISEND:
	case MPIV_KIND_RECV:
	case MPIV_KIND_IRECV:
	case MPIV_KIND_SENDRECV:
	case MPIV_KIND_ISENDRECV:
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
	/* MPI_Intercomm_create's peer is the remote leader, in the other group */
	int32_t who[3] = {ev->call == MPIV_CALL_Intercomm_create ? MPIV_NONE : ev->peer, ev->peer2,
			  ev->root};
	int k;

	if (c <= 0)
		return 0; /* MPI_COMM_WORLD holds every rank */
	for (k = 0; (uint32_t)k < ev->ngroup && (mpiv_call_flags(ev->call) & MPIV_F_NEIGHBOR); k++)
		if (!tr_comms_member(b->prog, c, ev->group[k]))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index,
					      "%s names world rank %d as an in-neighbour, "
					      "which is not a member of its communicator (comm %d)",
					      mpiv_call_name(ev->call), ev->group[k], ev->comm);
	for (k = 0; k < 3; k++) {
		if (who[k] < 0 || tr_comms_member(b->prog, c, who[k]))
			continue;
		if (ev->comm == MPIV_COMM_SELF && k < 2)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index, "peer %d on MPI_COMM_SELF of rank %d",
					      who[k], t->rank);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s names world rank %d, which is not a member of its "
				      "communicator (comm %d)",
				      mpiv_call_name(ev->call), who[k], ev->comm);
	}
	return 0;
}

static int check_event(const struct builder *b, const struct mpiv_event *ev, struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int needs_comm = is_p2p(kind) || kind == MPIV_KIND_COLL || kind == MPIV_KIND_ICOLL ||
			 kind == MPIV_KIND_COMM_GROUP || kind == MPIV_KIND_COLL_INIT;
	int sends = kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND ||
		    kind == MPIV_KIND_SEND_INIT || kind == MPIV_KIND_SENDRECV ||
		    kind == MPIV_KIND_ISENDRECV;
	int has_req = kind == MPIV_KIND_ISEND || kind == MPIV_KIND_IRECV ||
		      kind == MPIV_KIND_SEND_INIT || kind == MPIV_KIND_RECV_INIT ||
		      kind == MPIV_KIND_ICOLL || kind == MPIV_KIND_GREQ_START ||
		      kind == MPIV_KIND_ISENDRECV || kind == MPIV_KIND_COLL_INIT ||
		      (mpiv_call_flags(ev->call) & MPIV_F_RMA_REQUEST);

	if (kind == MPIV_KIND_UNSUPPORTED)
		return tr_unjudged(err, t->source, t->rank, ev->index,
				   "the trace uses %s, which check cannot judge yet",
				   mpiv_call_name(ev->call));
	if (ev->flags & MPIV_EV_LARGE_COUNT)
		return tr_unjudged(err, t->source, t->rank, ev->index,
				   "the trace uses %s with a count past 2^31 - 1, which check "
				   "cannot judge yet",
				   mpiv_call_name(ev->call));
	if (b->threaded && kind >= MPIV_KIND_WIN_CREATE && kind <= MPIV_KIND_WIN_LOCAL)
		return tr_unjudged(err, t->source, t->rank, ev->index,
				   "%s in a rank whose threads call MPI: check cannot judge "
				   "one-sided calls with threads yet",
				   mpiv_call_name(ev->call));
	if (needs_comm && comm_id(b, ev->comm) < 0)
		return tr_unjudged(err, t->source, t->rank, ev->index,
				   "%s on a communicator check does not know (comm %d): one "
				   "made by a call mpiverify does not record (such as "
				   "MPI_Comm_get_parent), which check cannot judge yet",
				   mpiv_call_name(ev->call), ev->comm);
	if (kind == MPIV_KIND_COMM_GROUP && !mpiv_trace_newcomm(t, ev->index) &&
	    (ev->flags & MPIV_EV_INCOMPLETE) &&
	    !(ev->call == MPIV_CALL_Intercomm_create_from_groups && ev->ngroup))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "the trace ends inside %s, whose group the recorder "
				      "writes only when it returns: check cannot tell whom it "
				      "waits for",
				      mpiv_call_name(ev->call));
	if (needs_comm && check_members(b, ev, err))
		return -1;
	if (is_p2p(kind) && (ev->peer == MPIV_NONE || ev->tag == MPIV_NONE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without a peer or a tag", mpiv_call_name(ev->call));
	if ((kind == MPIV_KIND_SENDRECV || kind == MPIV_KIND_ISENDRECV) &&
	    (ev->peer2 == MPIV_NONE || ev->tag2 == MPIV_NONE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without its source or receive tag",
				      mpiv_call_name(ev->call));
	if (sends && ev->peer == MPIV_ANY_SOURCE)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "send to MPI_ANY_SOURCE");
	if (has_req && (ev->nreqs != 1 || ev->reqs[0].req < 0))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without its request", mpiv_call_name(ev->call));
	if (needs_comm && tr_comms_split(b->comms, comm_id(b, ev->comm)) &&
	    (mpiv_call_flags(ev->call) & MPIV_F_PREFIX))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s on an intercommunicator, which MPI does not define",
				      mpiv_call_name(ev->call));
	/* on an intercommunicator the root's group but the root names none */
	if ((mpiv_call_flags(ev->call) & MPIV_F_ROOTED) &&
	    ((ev->root < 0 &&
	      (ev->root != MPIV_PROC_NULL || !tr_comms_split(b->comms, comm_id(b, ev->comm)))) ||
	     ev->root >= t->size))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without a root of the world (%d)",
				      mpiv_call_name(ev->call), ev->root);
	return 0;
}

/* For verify, a probe with MPI_ANY_SOURCE that found a message, followed by the receive of
 * exactly that message (its source and tag taken from the probe's status), is one wildcard
 * receive: in another behaviour the probe finds another message and the program receives
 * that one (doc/semantics.md 4.5). Returns the index of that receive, or -1. */
long tr_fused_receive(const struct mpiv_rank_trace *t, size_t i)
{
	/* the probe's fields: the events looked at after it may take its place */
	const struct mpiv_event pr = *mpiv_trace_event(t, i);
	size_t j;

	for (j = i + 1; j < t->nevents; j++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, j);
		enum mpiv_kind kind = mpiv_call_kind(ev->call);

		if (ev->thread != pr.thread)
			continue; /* another thread's call */
		if (kind == MPIV_KIND_PROBE || kind == MPIV_KIND_MPROBE)
			return -1;
		if (kind != MPIV_KIND_RECV && kind != MPIV_KIND_IRECV)
			continue;
		if (ev->comm == pr.comm && ev->peer == pr.src &&
		    (ev->tag == pr.mtag || ev->tag == pr.tag))
			return (long)j;
		return -1;
	}
	return -1;
}

/* MPI_Parrived: a poll of a partitioned receive, which the model receives whole when its
 * last partition is ready. That is exact where the sender readies the partitions of each
 * start without waiting for anyone in between (tr_parts_waits(), doc/semantics.md 4.9);
 * otherwise a receiver that acts on one partition's arrival has behaviours check cannot see,
 * and the trace is refused. Returns 0 or -1 with err filled. */
static int check_parrived(struct builder *b, const struct mpiv_event *ev, struct mpiv_error *err)
{
	int32_t req = ev->nreqs == 1 ? ev->reqs[0].req : -1, tmpl = req_tmpl(b, req),
		pair = tmpl >= 0 ? tr_parts_pair(b->parts, b->t->rank, (uint32_t)tmpl) : -1;

	if (pair < 0 ||
	    mpiv_call_kind(mpiv_trace_event(b->t, (size_t)tmpl)->call) != MPIV_KIND_RECV_INIT)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, b->t->source, b->t->rank, ev->index,
				      "MPI_Parrived of request %d, which is no partitioned "
				      "receive of this rank",
				      req);
	if (tr_parts_waits(b->parts, pair))
		return tr_unjudged(err, b->t->source, b->t->rank, ev->index,
				   "MPI_Parrived of request %d, whose sender waits for another "
				   "rank between readying its first and its last partition: "
				   "check sends a partitioned message whole, and cannot judge "
				   "a receiver that acts on one partition's arrival then yet",
				   req);
	return 0;
}

/* The end of a session with another still alive (a library's own inside the program's) is
 * not the rank's end: it is local, unless a communicator made since its MPI_Session_init (the
 * latest not ended before it: sessions end in the reverse order they began in) is not freed,
 * with which MPI-4.1 11.3.1 lets it synchronise; such a trace is refused. A communicator made
 * before that MPI_Session_init cannot come from the session; one made since may come from
 * another's groups, and is counted all the same (the trace does not say which). Returns 0
 * or -1 with err filled. */
static int check_session_end(struct builder *b, size_t i, struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	long start = -1;
	int depth = 0;
	size_t j, k;

	for (j = i; j-- > 0;) {
		unsigned call = mpiv_trace_event(t, j)->call;

		if (call == MPIV_CALL_Session_finalize)
			depth++;
		else if (call == MPIV_CALL_Session_init && depth-- == 0) {
			start = (long)j;
			break;
		}
	}
	for (k = 0; k < t->ncomms; k++) {
		const struct mpiv_newcomm *nc = &t->comms[k];

		if ((long)nc->event <= start || nc->event >= i)
			continue;
		for (j = nc->event + 1; j < i; j++) {
			const struct mpiv_event *f = mpiv_trace_event(t, j);

			if (mpiv_call_frees_comm(f->call) && f->comm == nc->id)
				break;
		}
		if (j == i)
			return tr_unjudged(
				err, t->source, t->rank, (long)i,
				"MPI_Session_finalize while the communicator event %u made since its "
				"MPI_Session_init is not freed: it may synchronise with its members "
				"(MPI-4.1 11.3.1), which check cannot judge yet",
				nc->event);
	}
	return 0;
}

/* A wait for a partitioned send whose partitions are not all ready (erroneous: it cannot
 * complete, MPI-4.1 4.2.2): a receive nothing matches stands for it, that the wait waits for
 * forever. */
static int32_t never_ready(struct builder *b, const struct mpiv_event *ev)
{
	struct eng_instr *in = emit(b, ENG_POST_RECV, (int)ev->index);

	in->a = b->t->rank;
	in->b = b->parts->comm;
	in->c = b->parts->npairs;
	if (++cur(b)->live > cur(b)->maxlive)
		cur(b)->maxlive = cur(b)->live;
	return last_instr(b);
}

/* ev, on another thread than the one that made request req, does (waits for, completes) it. */
static int shared_request(struct builder *b, const struct mpiv_event *ev, const char *does,
			  int32_t req, struct mpiv_error *err)
{
	return tr_unjudged(err, b->t->source, b->t->rank, ev->index,
			   "%s on thread %d %s request %d, which thread %d made: check cannot "
			   "judge requests shared between threads yet",
			   mpiv_call_name(ev->call), cur(b)->thread, does, req,
			   b->procs[req_proc(b, req)].thread);
}

/* A completion call that never returned, or a polling loop that was still polling when the
 * rank stopped: wait for all of its requests (any = 0: MPI_Test, MPI_Testall) or for one
 * (MPI_Waitany, MPI_Testany and the some kinds), whichever completion ends it. Returns 0 or
 * -1 with err filled. */
static int block_on(struct builder *b, const struct mpiv_event *ev, int32_t **list, size_t *listcap,
		    int any, struct mpiv_error *err)
{
	struct eng_instr *in;
	uint32_t j;
	int n = 0, taken, polled;

	xgrow((void **)list, listcap, ev->nreqs + 1, sizeof(**list));
	for (j = 0; j < ev->nreqs; j++) {
		int32_t req = ev->reqs[j].req, instr = req_instr(b, req);

		if (instr < 0 && req_of(b, req) && req_of(b, req)->deferred)
			instr = never_ready(b, ev);
		else if (instr < 0)
			continue; /* inactive: it would complete at once */
		if (req_instr2(b, req) >= 0 && mpiv_call_any_completion(ev->call))
			return pair_refused(b, ev, req, err);
		/* an MPI_Isendrecv's request in a blocked MPI_Wait or MPI_Waitall: it returns
		 * when both halves are done */
		if (req_instr2(b, req) >= 0)
			any = 0;
		if (req_proc(b, req) != (int32_t)b->cur)
			return shared_request(b, ev, "waits for", req, err);
		(*list)[n++] = instr;
		if (req_instr2(b, req) >= 0)
			(*list)[n++] = req_instr2(b, req);
	}
	if (n == 0)
		return 0;
	/* verify: the call is the one the runs that went on made there, stuck (explore/ takes
	 * this run's path for a prefix of theirs): a wait for all its requests as wait_for()
	 * makes it; an any-completion's, MPI_Waitsome's and MPI_Testsome's too, whose returns
	 * verify splits into one any-completion each (split_completion()); and a polling one
	 * (MPI_Test too) after the poll's branch the runs whose poll succeeded have before it */
	taken = b->verify && any && mpiv_call_any_completion(ev->call);
	polled = b->verify && (mpiv_call_flags(ev->call) & MPIV_F_POLL);
	if (polled)
		poll_branch(b, (int)ev->index);
	in = emit(b, any ? ENG_WAIT_SOME : ENG_WAIT, (int)ev->index);
	in->n = n;
	in->list = wait_list(b, *list, n);
	if (b->verify && !any)
		in->d = n;
	if (taken) {
		in->op = ENG_WAITANY;
		in->d = 1;
		in->reg = 1 + cur(b)->ninputs++;
	}
	if (polled)
		in->sym |= ENG_POLLED;
	return 0;
}

static void split_completion(struct builder *b, const struct mpiv_event *ev, int w);

/* Translate one completion call: reqs[0..nreqs - npending) completed, the rest did not. */
static int build_wait(struct builder *b, const struct mpiv_event *ev, int32_t **list,
		      size_t *listcap, struct mpiv_error *err)
{
	uint32_t ndone = ev->nreqs - ev->npending, j;
	int n = 0, d = 0;

	/* stuck: in MPI_Wait, for its one request; in MPI_Waitany, for any */
	if (ndone == 0 && (ev->flags & MPIV_EV_INCOMPLETE))
		return block_on(b, ev, list, listcap, ev->call != MPIV_CALL_Wait, err);
	if (ndone == 0 && b->verify && ev->call == MPIV_CALL_Wait) {
		cur(b)->null_wait = (int32_t)ev->index + 1; /* made by null_wait() */
		return 0;
	}
	if (ndone == 0)
		return 0; /* a test that found nothing: no effect (doc/semantics.md 4.3) */
	xgrow((void **)list, listcap, 2 * (size_t)ev->nreqs + 1, sizeof(**list));
	for (j = 0; j < ev->nreqs; j++) {
		int32_t req = ev->reqs[j].req, instr = req_instr(b, req),
			instr2 = req_instr2(b, req);

		if (instr2 >= 0 && mpiv_call_any_completion(ev->call))
			return pair_refused(b, ev, req, err);
		if (instr < 0 && req_of(b, req) && req_of(b, req)->deferred) {
			if (j < ndone && !(ev->flags & MPIV_EV_INCOMPLETE))
				return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, b->t->source,
						      b->t->rank, ev->index,
						      "%s completes request %d, a partitioned "
						      "send whose partitions the trace never "
						      "has all ready",
						      mpiv_call_name(ev->call), req);
			instr = never_ready(b, ev);
		}
		if (instr < 0) {
			/* an inactive persistent request completes at once */
			if (req_tmpl(b, req) >= 0 || j >= ndone)
				continue;
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, b->t->source, b->t->rank,
					      ev->index,
					      "%s completes request %d, which was never "
					      "posted",
					      mpiv_call_name(ev->call), req);
		}
		if (req_proc(b, req) != (int32_t)b->cur)
			return shared_request(b, ev, "completes", req, err);
		if (j < ndone) {
			req_done(b, req);
			/* completed ones first, as ENG_WAITANY wants them; both halves of an
			 * MPI_Isendrecv's */
			memmove(*list + d + 1, *list + d, (size_t)(n - d) * sizeof(**list));
			(*list)[d++] = instr;
			if (instr2 >= 0) {
				n++;
				memmove(*list + d + 1, *list + d, (size_t)(n - d) * sizeof(**list));
				(*list)[d++] = instr2;
			}
		} else {
			(*list)[n] = instr;
			if (instr2 >= 0)
				(*list)[++n] = instr2;
		}
		n++;
	}
	if (d > 0) {
		int w;

		if (b->verify && (mpiv_call_flags(ev->call) & MPIV_F_POLL))
			poll_branch(b, (int)ev->index);
		wait_for(b, (int)ev->index, *list, n, d);
		w = last_instr(b);
		if (b->verify && (mpiv_call_flags(ev->call) & MPIV_F_POLL))
			cur(b)->ins[w].sym |= ENG_POLLED;
		/* verify: which request MPI_Waitany or MPI_Testany returned is an input, a choice
		 * where several were complete; with one request alone, what a reply to its peer
		 * follows all the same */
		if (b->verify && d == 1 &&
		    (ev->call == MPIV_CALL_Waitany || ev->call == MPIV_CALL_Testany)) {
			cur(b)->ins[w].op = ENG_WAITANY;
			cur(b)->ins[w].reg = 1 + cur(b)->ninputs++;
			/* its input is the request's, with the message it took */
			learn(b, (int)ev->index, w);
			return 0;
		}
		if (b->verify &&
		    (ev->call == MPIV_CALL_Waitsome || ev->call == MPIV_CALL_Testsome)) {
			split_completion(b, ev, w);
			return 0;
		}
		for (j = 0; j < (uint32_t)d; j++)
			learn(b, (int)ev->index, cur(b)->ins[w].list[j]);
	}
	return 0;
}

/* verify: an any-completion of one request, in[0..n) its list (the one it returns first),
 * returning it as an input (a branch learns it). */
static void return_one(struct builder *b, int ev, const int32_t *list, int n, int polled)
{
	struct eng_instr *in;

	wait_for(b, ev, list, n, 1);
	in = &cur(b)->ins[last_instr(b)];
	in->op = ENG_WAITANY;
	if (polled)
		in->sym |= ENG_POLLED;
	in->reg = 1 + cur(b)->ninputs++;
	learn(b, ev, last_instr(b));
}

/* verify: MPI_Waitsome or MPI_Testsome returned several requests (wait instruction w lists
 * them first): as calls that return one each, the first here and each of the others where
 * the program's calls for it begin (flush_completions()). A program serves what such a call
 * returns one request after another; in another run the call may return fewer, and the
 * program call it again for the next: the model's paths are those runs', and one request a
 * call, every order of them is a decision of its own. */
static void split_completion(struct builder *b, const struct mpiv_event *ev, int w)
{
	struct eng_instr *in = &cur(b)->ins[w];
	int d = in->d, n = in->n, j, k, polled = (in->sym & ENG_POLLED) != 0;
	int32_t *list = xmalloc((size_t)n * sizeof(*list));

	memcpy(list, in->list, (size_t)n * sizeof(*list));
	cur(b)->n--; /* the wait of all d is replaced (a poll's branch before it stays) */
	cur(b)->live += d;
	return_one(b, (int)ev->index, list, n, polled);
	for (j = 1; j < d; j++) {
		const struct eng_instr *post = &cur(b)->ins[list[j]];
		struct some_left *l;

		xgrow((void **)&cur(b)->left, &cur(b)->capleft, cur(b)->nleft + 1,
		      sizeof(*cur(b)->left));
		l = &cur(b)->left[cur(b)->nleft++];
		l->ev = (int32_t)ev->index;
		l->instr = list[j];
		l->polled = polled;
		l->peer = post->op == ENG_POST_RECV && (uint32_t)j < ev->nreqs &&
					  ev->reqs[j].src >= 0 ?
				  ev->reqs[j].src :
				  post->a;
		l->comm = post->b;
		/* its list: the others not returned before it */
		l->list = xmalloc((size_t)n * sizeof(*l->list));
		l->n = 0;
		l->list[l->n++] = list[j];
		for (k = j + 1; k < n; k++)
			l->list[l->n++] = list[k];
	}
	free(list);
}

/* Free what pb has still to return of its completions of several (split_completion()). */
static void drop_left(struct proc_build *pb)
{
	size_t i;

	for (i = 0; i < pb->nleft; i++)
		free(pb->left[i].list);
	free(pb->left);
	pb->left = NULL;
	pb->nleft = pb->capleft = 0;
}

/* verify: an MPI_Wait on MPI_REQUEST_NULL after an input, where another run may have waited
 * for a request (its last reply to the worker it heard from, none the first time): a wait for
 * nothing, one call with those if explore/ finds they follow the input (ENG_WAIT_FOLLOW).
 * Made before the process's next call, once what a completion of several returns before that
 * is returned (flush_completions()): the wait is the first of the program's calls for the
 * request it serves next, and follows that request's input. */
static void null_wait(struct builder *b)
{
	struct proc_build *pb = cur(b);
	struct eng_instr *in;

	if (!pb->null_wait)
		return;
	if (pb->ninputs > 0) {
		in = emit(b, ENG_WAIT, pb->null_wait - 1);
		in->sym = ENG_WAIT_LIVE | ENG_WAIT_FOLLOW;
		in->reg = pb->ninputs;
	}
	pb->null_wait = 0;
}

/* verify: the requests a completion of several has still to return (split_completion()),
 * before event ev: all of them before a call that completes, probes, synchronises or ends;
 * before a call to the peer of one, that one and those before it (where the program's calls
 * for it begin: it served those before with no call, as a master that counts a worker's last
 * word and sends nothing). Were only the next one returned there, the call would come before
 * the model learned the request it answers. */
static void flush_completions(struct builder *b, const struct mpiv_event *ev)
{
	struct proc_build *pb = cur(b);
	enum mpiv_kind kind = ev ? mpiv_call_kind(ev->call) : MPIV_KIND_FINALIZE;
	size_t i, n = 0;

	if (!pb->nleft || (ev && ev->call == MPIV_CALL_Wait && ev->nreqs == 0))
		return; /* a wait on MPI_REQUEST_NULL: null_wait() */
	if (ev && ev->call == MPIV_CALL_Wait && req_instr(b, ev->reqs[0].req) >= 0 &&
	    req_proc(b, ev->reqs[0].req) == (int32_t)b->cur) {
		/* a wait for one request to or from a peer is a call to that peer, as a send
		 * is (the last reply to a worker, waited for before the next) */
		const struct eng_instr *post = &pb->ins[req_instr(b, ev->reqs[0].req)];

		for (i = 0; i < pb->nleft; i++)
			if (pb->left[i].peer == post->a && pb->left[i].comm == post->b &&
			    (post->op == ENG_POST_SEND || post->op == ENG_POST_RECV)) {
				n = i + 1;
				break;
			}
	} else if (kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND || kind == MPIV_KIND_RECV ||
		   kind == MPIV_KIND_IRECV || kind == MPIV_KIND_SENDRECV ||
		   kind == MPIV_KIND_ISENDRECV) {
		/* those before it were served with no call (a worker's last word, counted) */
		for (i = 0; ev->peer >= 0 && i < pb->nleft; i++)
			if (pb->left[i].peer == ev->peer &&
			    pb->left[i].comm == comm_id(b, ev->comm)) {
				n = i + 1;
				break;
			}
	} else if (kind != MPIV_KIND_LOCAL && kind != MPIV_KIND_SEND_INIT &&
		   kind != MPIV_KIND_RECV_INIT && kind != MPIV_KIND_REQUEST_FREE)
		n = pb->nleft;
	for (i = 0; i < n; i++) {
		struct some_left *l = &pb->left[i];

		/* a poll returns each as one call of its own would: a branch before each */
		if (l->polled)
			poll_branch(b, l->ev);
		return_one(b, l->ev, l->list, l->n, l->polled);
		free(l->list);
	}
	memmove(pb->left, pb->left + n, (pb->nleft - n) * sizeof(*pb->left));
	pb->nleft -= n;
}

/* MPI_Cancel of a request a nonblocking send or receive posted (doc/semantics.md 4.7): an
 * ENG_CANCEL of its post (that of MPI_Imrecv, whose message is matched already, is one from
 * MPI_PROC_NULL: the cancel fails, as it must). What the model does not judge yet is left out
 * (tr_unjudged()): a cancel of a persistent request or of a request another thread made, and
 * any cancel in verify, whose model of several runs has no place for one yet (a cancel names
 * its post by where it is in one run). A cancel of no send or receive (a collective's, MPI-4.1
 * 6.12) and a second cancel of one request are refused. Returns 0 or -1 with err filled. */
static int build_cancel(struct builder *b, const struct mpiv_event *ev, struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	int32_t req = ev->nreqs == 1 ? ev->reqs[0].req : -1, instr = req_instr(b, req);
	const struct eng_instr *post = instr >= 0 ? &cur(b)->ins[instr] : NULL;
	size_t i;

	if (req_instr2(b, req) >= 0)
		return pair_refused(b, ev, req, err);
	if (b->verify || req_tmpl(b, req) >= 0 || (post && req_proc(b, req) != (int32_t)b->cur))
		return tr_unjudged(err, t->source, t->rank, ev->index,
				   "MPI_Cancel of request %d: %s", req,
				   b->verify		 ? "verify cannot judge a cancel yet" :
				   req_tmpl(b, req) >= 0 ? "check cannot judge the cancel of a "
							   "persistent request yet" :
							   "check cannot judge requests shared "
							   "between threads yet");
	if (!post || (post->op != ENG_POST_SEND && post->op != ENG_POST_RECV))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "MPI_Cancel of request %d, which no nonblocking send or "
				      "receive of this rank posted",
				      req);
	for (i = 0; i < cur(b)->n; i++)
		if (cur(b)->ins[i].op == ENG_CANCEL && cur(b)->ins[i].a == instr)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index, "MPI_Cancel of request %d a second time",
					      req);
	emit(b, ENG_CANCEL, (int)ev->index)->a = instr;
	return 0;
}

/* MPI_Grequest_complete (doc/semantics.md 4.8): an ENG_GREQ_DONE of the request's
 * ENG_GREQ. A request freed before it (MPI_Request_free) is no one's to wait for: nothing.
 * The completion of a request another thread started is refused, as a wait for it is.
 * Returns 0 or -1 with err filled. */
static int build_greq_complete(struct builder *b, const struct mpiv_event *ev,
			       struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	int32_t req = ev->nreqs == 1 ? ev->reqs[0].req : -1, instr = req_instr(b, req);
	const struct build_req *e = req_of(b, req);

	if (e && e->freed) {
		tr_reqmap_del(&b->requests, req);
		return 0;
	}
	if (instr < 0 || b->procs[req_proc(b, req)].ins[instr].op != ENG_GREQ)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "MPI_Grequest_complete of request %d, which is no "
				      "generalized request of this rank",
				      req);
	if (req_proc(b, req) != (int32_t)b->cur)
		return tr_unjudged(err, t->source, t->rank, ev->index,
				   "MPI_Grequest_complete on thread %d of request %d, which "
				   "thread %d started: check cannot judge requests shared "
				   "between threads yet",
				   cur(b)->thread, req, b->procs[req_proc(b, req)].thread);
	emit(b, ENG_GREQ_DONE, (int)ev->index)->a = instr;
	return 0;
}

/* ---- one-sided ---- */

/* The engine communicator of the event's window; -1 with err filled if the rank has no such
 * window (never created, or freed). */
static int win_comm(struct builder *b, const struct mpiv_event *ev, struct mpiv_error *err)
{
	if (ev->win < 0 || (size_t)ev->win >= b->nwin_of || b->win_of[ev->win] < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, b->t->source, b->t->rank, ev->index,
				      "%s on window %d, which this rank has not created",
				      mpiv_call_name(ev->call), ev->win);
	return b->win_of[ev->win];
}

/* MPI_Win_create/Win_allocate: a synchronising collective on its communicator, which gives
 * the window its engine communicator, with the communicator's members. Windows are unified
 * across ranks by the creation's place among the rank's window creations on that
 * communicator (count_windows()). Returns 0 or -1 with err filled. */
static int build_win_create(struct builder *b, const struct mpiv_event *ev, struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	const struct eng_comm *members;
	struct eng_instr *in;
	uint32_t i;
	size_t old = b->nwin_of;
	int c = comm_id(b, ev->comm);

	if (c < 0 || c >= b->w->ncomms || tr_comms_split(b->comms, c))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s on %s (comm %d)", mpiv_call_name(ev->call),
				      c < 0 ? "a communicator check does not know" :
					      "an intercommunicator, which MPI does not allow",
				      ev->comm);
	if (ev->win < 0 || ((size_t)ev->win < b->nwin_of && b->win_of[ev->win] != -1))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "%s without a new window id (%d)", mpiv_call_name(ev->call),
				      ev->win);
	/* its group, world ranks in the window's order, is the communicator's */
	members = &b->prog->comms[c];
	for (i = 0; i < ev->ngroup; i++)
		if (ev->ngroup != (uint32_t)members->n || ev->group[i] != members->members[i])
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index,
					      "%s with a group that is not its "
					      "communicator's (comm %d)",
					      mpiv_call_name(ev->call), ev->comm);
	xgrow((void **)&b->win_of, &b->nwin_of, (size_t)ev->win + 1, sizeof(*b->win_of));
	memset(b->win_of + old, 0xff, (b->nwin_of - old) * sizeof(*b->win_of));
	b->win_of[ev->win] = b->w->first[c] + b->nwins[c]++;
	in = emit(b, ENG_COLL, (int)ev->index);
	in->a = c;
	in->b = ENG_COLL_ALL;
	in->c = ++b->coll_seq[c];
	in->call = coll_call(ev->call);
	return 0;
}

/* Add the lock interval of open lock o, closed at instruction unlock. */
static void close_lock(struct builder *b, const struct open_lock *o, int32_t unlock)
{
	struct windows *w = b->w;
	int i, n = o->target == ENG_ANY ? w->nranks : 1;

	for (i = 0; i < n; i++) {
		struct eng_lock *l;

		xgrow((void **)&w->locks, &w->caplocks, w->nlocks + 1, sizeof(*w->locks));
		l = &w->locks[w->nlocks++];
		l->proc = b->proc_base + (int32_t)b->cur;
		l->comm = o->comm;
		l->target = o->target == ENG_ANY ? i : o->target;
		l->lock = o->instr;
		l->unlock = unlock;
		l->exclusive = o->exclusive;
	}
}

/* One-sided synchronisation calls other than creation. Returns 0 or -1 with err filled. */
static int build_win(struct builder *b, const struct mpiv_event *ev, struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int c = win_comm(b, ev, err),
	    all = ev->call == MPIV_CALL_Win_lock_all || ev->call == MPIV_CALL_Win_unlock_all;
	struct eng_instr *in;
	size_t k;

	if (c < 0)
		return -1;
	switch (kind) {
	case MPIV_KIND_WIN_FREE:
	case MPIV_KIND_WIN_FENCE:
		/* collectives over the window's group, synchronising (as a barrier) */
		in = emit(b, ENG_COLL, (int)ev->index);
		in->a = c;
		in->b = ENG_COLL_ALL;
		in->c = ++b->coll_seq[c];
		in->call = coll_call(ev->call);
		if (kind == MPIV_KIND_WIN_FREE)
			b->win_of[ev->win] = -1;
		break;
	case MPIV_KIND_WIN_POST:
	case MPIV_KIND_WIN_START:
		/* the trace cannot tell an empty group from one the recorder could not write */
		if (ev->ngroup == 0)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index,
					      "%s without its group, which check cannot "
					      "judge",
					      mpiv_call_name(ev->call));
		/* the list holds the group until link_pscw() pairs the epochs */
		in = emit(b, kind == MPIV_KIND_WIN_POST ? ENG_WIN_POST : ENG_WIN_START,
			  (int)ev->index);
		in->a = c;
		in->n = (int32_t)ev->ngroup;
		in->list = xmalloc((ev->ngroup + 1) * sizeof(*in->list));
		memcpy(in->list, ev->group, ev->ngroup * sizeof(*in->list));
		break;
	case MPIV_KIND_WIN_COMPLETE:
		emit(b, ENG_WIN_COMPLETE, (int)ev->index)->a = c;
		break;
	case MPIV_KIND_WIN_WAIT:
		if (ev->flags & MPIV_EV_NOT_DONE)
			break; /* a MPI_Win_test that said no: no effect (semantics.md 4.3) */
		emit(b, ENG_WIN_WAIT, (int)ev->index)->a = c;
		break;
	case MPIV_KIND_WIN_LOCK:
		if (!all && (ev->peer < 0 || ev->peer >= b->w->nranks ||
			     (ev->lock != MPIV_LOCK_SHARED && ev->lock != MPIV_LOCK_EXCLUSIVE)))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index, "%s without its target or lock type",
					      mpiv_call_name(ev->call));
		in = emit(b, ENG_WIN_LOCK, (int)ev->index);
		in->a = c;
		in->b = all ? ENG_ANY : ev->peer;
		in->c = !all && ev->lock == MPIV_LOCK_EXCLUSIVE;
		xgrow((void **)&b->open, &b->capopen, b->nopen + 1, sizeof(*b->open));
		b->open[b->nopen].instr = last_instr(b);
		b->open[b->nopen].comm = c;
		b->open[b->nopen].target = in->b;
		b->open[b->nopen].exclusive = in->c;
		b->nopen++;
		break;
	case MPIV_KIND_WIN_UNLOCK:
		for (k = 0; k < b->nopen; k++)
			if (b->open[k].comm == c && b->open[k].target == (all ? ENG_ANY : ev->peer))
				break;
		if (k == b->nopen)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      ev->index, "%s of a lock this rank does not hold",
					      mpiv_call_name(ev->call));
		in = emit(b, ENG_WIN_UNLOCK, (int)ev->index);
		in->a = c;
		in->b = b->open[k].target;
		close_lock(b, &b->open[k], last_instr(b));
		b->open[k] = b->open[--b->nopen];
		break;
	default: /* MPIV_KIND_WIN_LOCAL: data calls and flushes never wait (13.7.3) */
		/* MPI_Rput and the like: a request its wait completes alone */
		if (mpiv_call_flags(ev->call) & MPIV_F_RMA_REQUEST)
			complete_request(b, ev, ev->reqs[0].req);
		break;
	}
	return 0;
}

/* A polling loop that was still polling when the rank stopped never found what it polled
 * for: the rank is stuck in it as in the blocking call it stands for (MPI_Test as MPI_Wait,
 * MPI_Iprobe as MPI_Probe, MPI_Win_test as MPI_Win_wait). Returns 0 or -1 with err
 * filled. */
static int block_on_poll(struct builder *b, const struct mpiv_event *ev, int32_t **list,
			 size_t *listcap, struct mpiv_error *err)
{
	struct mpiv_event blocking;
	struct eng_instr *in;

	switch (mpiv_call_kind(ev->call)) {
	case MPIV_KIND_WAIT:
		return block_on(b, ev, list, listcap,
				ev->call == MPIV_CALL_Testany || ev->call == MPIV_CALL_Testsome,
				err);
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		in = emit(b, ENG_PROBE, (int)ev->index);
		in->a = engine_peer(ev->peer);
		in->b = comm_id(b, ev->comm);
		in->c = ev->tag == MPIV_ANY_TAG ? ENG_ANY : ev->tag;
		return 0;
	case MPIV_KIND_WIN_WAIT:
		blocking = *ev;
		blocking.flags &= (uint16_t)~MPIV_EV_NOT_DONE;
		return build_win(b, &blocking, err);
	default:
		return 0;
	}
}

/* ---- the order between threads (doc/semantics.md 1.3) ---- */

static struct thread_order *thread_of(struct builder *b, int32_t thread)
{
	size_t i;

	for (i = 0; i < b->nth && b->th[i].thread != thread; i++)
		;
	if (i == b->nth) {
		xgrow((void **)&b->th, &b->capth, b->nth + 1, sizeof(*b->th));
		memset(&b->th[i], 0, sizeof(b->th[i]));
		b->th[i].thread = thread;
		b->th[i].exit_mark = -1;
		b->nth++;
	}
	return &b->th[i];
}

/* The process of thread, -1 if it made no call yet. */
static long proc_of(const struct builder *b, int32_t thread)
{
	size_t i;

	for (i = 0; i < b->nprocs; i++)
		if (b->procs[i].thread == thread)
			return (long)i;
	return -1;
}

static void constrain(struct builder *b, int32_t thread, const int32_t *c, size_t n)
{
	struct thread_order *o = thread_of(b, thread);

	if (!n)
		return; /* (a thread that waited for nothing passes nothing on) */
	xgrow((void **)&o->pend, &o->cappend, o->npend + n, sizeof(*o->pend));
	memcpy(o->pend + o->npend, c, n * sizeof(*c));
	o->npend += n;
}

/* Emit into process k an instruction of op, the event ev its place; b->cur is kept. */
static struct eng_instr *emit_in(struct builder *b, size_t k, int op, int ev)
{
	size_t at = b->cur;
	struct eng_instr *in;

	b->cur = k;
	in = emit(b, op, ev);
	b->cur = at;
	return in;
}

/* An ENG_THREAD_AFTER in process k for constraints c (n words, room for cap), which it takes
 * over; its list is made at the end (fix_orders()). Returns its place in b->fix. */
static size_t add_after(struct builder *b, size_t k, int ev, int32_t *c, size_t n, size_t cap)
{
	struct after_fix *f;

	emit_in(b, k, ENG_THREAD_AFTER, ev);
	xgrow((void **)&b->fix, &b->capfix, b->nfix + 1, sizeof(*b->fix));
	f = &b->fix[b->nfix];
	f->proc = k;
	f->instr = (int)b->procs[k].n - 1;
	f->c = c;
	f->n = n;
	f->cap = cap;
	return b->nfix++;
}

/* Before process k's next call: an ENG_THREAD_AFTER for what its thread must wait for. */
static void flush_order(struct builder *b, size_t k, int ev)
{
	struct thread_order *o = thread_of(b, b->procs[k].thread);

	if (!o->npend)
		return;
	add_after(b, k, b->procs[k].last >= 0 ? (int)b->procs[k].last : ev, o->pend, o->npend,
		  o->cappend);
	o->pend = NULL;
	o->npend = o->cappend = 0;
}

/* The thread records made before event i: a create marks where the creator is, for the
 * created thread to start after; a join makes the joiner wait for the joined thread's end. A
 * thread that made no MPI call passes on what it waited for. */
static void thread_records(struct builder *b, size_t i)
{
	const struct mpiv_rank_trace *t = b->t;

	for (; b->next_op < t->nthread_ops && t->thread_ops[b->next_op].before <= i; b->next_op++) {
		const struct mpiv_thread_op *op = &t->thread_ops[b->next_op];
		long k = proc_of(b, op->self), c = proc_of(b, op->other);
		int32_t pair[2];

		if (op->op == MPIV_THREAD_EXIT)
			continue; /* its process ends finished (finish_procs()) */
		if (op->op == MPIV_THREAD_CREATE) {
			if (k < 0) {
				struct thread_order *self = thread_of(b, op->self);

				constrain(b, op->other, self->pend, self->npend);
				continue;
			}
			flush_order(b, (size_t)k, (int)i);
			emit_in(b, (size_t)k, ENG_THREAD_MARK,
				b->procs[k].last >= 0 ? (int)b->procs[k].last : (int)i);
			pair[0] = (int32_t)k;
			pair[1] = (int32_t)b->procs[k].n - 1;
			constrain(b, op->other, pair, 2);
		} else if (c >= 0) {
			thread_of(b, op->other)->joined = 1;
			pair[0] = -1 - op->other;
			pair[1] = 0;
			constrain(b, op->self, pair, 2);
		} else {
			struct thread_order *other = thread_of(b, op->other);

			constrain(b, op->self, other->pend, other->npend);
		}
	}
}

/* Did thread end (its start routine returned), whatever became of its rank? */
static int thread_exited(const struct builder *b, int32_t thread)
{
	size_t i;

	for (i = 0; i < b->t->nthread_ops; i++)
		if (b->t->thread_ops[i].op == MPIV_THREAD_EXIT &&
		    b->t->thread_ops[i].self == thread)
			return 1;
	return 0;
}

/* Process k's end: the mark a thread that joins it waits for. */
static void exit_mark(struct builder *b, size_t k, int ev)
{
	size_t i;

	for (i = 0; i < b->nth; i++)
		if (b->th[i].thread == b->procs[k].thread && b->th[i].joined) {
			emit_in(b, k, ENG_THREAD_MARK, ev);
			b->th[i].exit_mark = (int)b->procs[k].n - 1;
		}
}

/* Every ENG_THREAD_AFTER's list, as pairs (engine process, instruction); a pair of its own
 * process is left out (its mark is behind it). */
static void fix_orders(struct builder *b)
{
	size_t i, j;

	for (i = 0; i < b->nfix; i++) {
		struct after_fix *f = &b->fix[i];
		struct eng_instr *in = &b->procs[f->proc].ins[f->instr];
		int32_t *l = xcheck(eng_list_alloc(b->lists, f->n), f->n * sizeof(*l));
		int n = 0;

		for (j = 0; j + 1 < f->n; j += 2) {
			long k = f->c[j];
			int mark = f->c[j + 1];

			if (k < 0) { /* the end of a thread */
				int32_t thread = (int32_t)(-1 - k);

				k = proc_of(b, thread);
				mark = thread_of(b, thread)->exit_mark;
			}
			if (k < 0 || mark < 0 || (size_t)k == f->proc)
				continue;
			l[n++] = (int32_t)(b->proc_base + k);
			l[n++] = mark;
		}
		in->list = l;
		in->n = n;
		free(f->c);
	}
	free(b->fix);
	for (i = 0; i < b->nth; i++)
		free(b->th[i].pend);
	free(b->th);
	for (i = 0; i < b->npw; i++)
		free(b->pw[i].marks);
	free(b->pw);
}

/* The end of every process of the rank: ENG_END if the rank finished; otherwise, after what
 * it was stuck in (an incomplete last call is already its last instruction; a polling loop
 * that never found anything waits for good), ENG_STOP: it never moves again. Returns 0 or
 * -1 with err filled. */
static int finish_procs(struct builder *b, const struct tr_stop *stop, int32_t **list,
			size_t *listcap, struct mpiv_error *err)
{
	size_t k;

	if (b->nprocs == 0)
		select_thread(b, 0); /* a rank without an event: one process, stopped at once */
	for (k = 0; k < b->nprocs; k++) {
		const struct mpiv_event *last;
		int ev;

		b->cur = k;
		flush_completions(b, NULL);
		null_wait(b);
		drop_left(cur(b));
		ev = cur(b)->last >= 0 ? (int)cur(b)->last : 0;
		/* a thread that ended before its rank stopped made all its calls */
		if (stop->kind == TR_FINISHED || thread_exited(b, cur(b)->thread)) {
			exit_mark(b, k, ev);
			emit(b, ENG_END, ev);
			continue;
		}
		last = cur(b)->last >= 0 ? mpiv_trace_event(b->t, (size_t)cur(b)->last) : NULL;
		if (last && (stop->kind == TR_STOP_ENDED || stop->kind == TR_STOP_KILLED) &&
		    mpiv_event_failed_poll(last) && block_on_poll(b, last, list, listcap, err))
			return -1;
		exit_mark(b, k, ev);
		emit(b, ENG_STOP, ev);
	}
	return 0;
}

/* Event i of the rank, copied into b with its requests and group: the events looked at while
 * it is built (the receive a probe is fused with, persistent templates) may take its place
 * among those a trace kept as records has decoded (mpiv_trace_event()). */
static const struct mpiv_event *hold_event(struct builder *b, size_t i)
{
	const struct mpiv_event *ev = mpiv_trace_event(b->t, i);

	b->ev = *ev;
	if (ev->nreqs) {
		xgrow((void **)&b->reqs, &b->capreqs, ev->nreqs, sizeof(*b->reqs));
		memcpy(b->reqs, ev->reqs, ev->nreqs * sizeof(*b->reqs));
		b->ev.reqs = b->reqs;
	}
	if (ev->ngroup) {
		xgrow((void **)&b->group, &b->capgroup, ev->ngroup, sizeof(*b->group));
		memcpy(b->group, ev->group, ev->ngroup * sizeof(*b->group));
		b->ev.group = b->group;
	}
	return &b->ev;
}

/* A send, a receive or both (MPI_Sendrecv, MPI_Isendrecv), a probe or a matched receive
 * (doc/semantics.md 3, 4): its posts, and the waits of a blocking one. Cannot fail. */
static void build_p2p(struct builder *b, const struct mpiv_event *ev, size_t i)
{
	const struct mpiv_rank_trace *t = b->t;
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int idx;
	int32_t pair[2];
	long f;

	switch (kind) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_RECV:
		idx = post(b, ev, (int)ev->index, kind == MPIV_KIND_SEND);
		wait_for(b, (int)ev->index, &idx, 1, 1);
		if (!(ev->flags & MPIV_EV_INCOMPLETE))
			learn(b, (int)ev->index, idx);
		break;
	case MPIV_KIND_ISEND:
	case MPIV_KIND_IRECV:
		idx = post(b, ev, (int)ev->index, kind == MPIV_KIND_ISEND);
		map_req(b, ev->reqs[0].req, idx);
		break;
	case MPIV_KIND_SENDRECV: {
		struct mpiv_event recv = *ev;

		/* both halves posted together, then both waited for (semantics.md 4.6) */
		pair[0] = post(b, ev, (int)ev->index, 1);
		override(b, i, ev->peer2, ev->tag2, 0);
		recv.call = MPIV_CALL_Recv;
		pair[1] = post(b, &recv, (int)ev->index, 0);
		wait_for(b, (int)ev->index, pair, 2, 2);
		if (!(ev->flags & MPIV_EV_INCOMPLETE))
			learn(b, (int)ev->index, pair[1]);
		break;
	}
	case MPIV_KIND_ISENDRECV: {
		struct mpiv_event recv = *ev;
		struct build_req *e;

		/* both halves posted as MPI_Sendrecv's are, one request for both: its
		 * completions wait for the two (doc/semantics.md 4.6) */
		pair[0] = post(b, ev, (int)ev->index, 1);
		override(b, i, ev->peer2, ev->tag2, 0);
		recv.call = MPIV_CALL_Irecv;
		pair[1] = post(b, &recv, (int)ev->index, 0);
		map_req(b, ev->reqs[0].req, pair[0]);
		e = req_put(b, ev->reqs[0].req);
		e->instr2 = pair[1];
		break;
	}
	case MPIV_KIND_PROBE:
		/* an MPI_Iprobe that found nothing: no effect; an MPI_Probe that never
		 * returned: the rank is stuck there */
		if (ev->src == MPIV_NONE && !(ev->flags & MPIV_EV_INCOMPLETE))
			break;
		/* only verify fuses (doc/semantics.md 4.5): its runs tell a receive
		 * that follows the probe's status from one that names its source */
		f = b->verify && ev->peer == MPIV_ANY_SOURCE && ev->src != MPIV_NONE ?
			    tr_fused_receive(t, i) :
			    -1;
		if (f >= 0) {
			override(b, (size_t)f, MPIV_ANY_SOURCE, ev->tag,
				 (mpiv_call_flags(ev->call) & MPIV_F_POLL) != 0);
			break;
		}
		{
			int polled = b->verify && (mpiv_call_flags(ev->call) & MPIV_F_POLL);
			struct eng_instr *in;

			if (polled)
				poll_branch(b, (int)ev->index);
			in = emit(b, ENG_PROBE, (int)ev->index);
			if (polled)
				in->sym |= ENG_POLLED;
			in->a = engine_peer(ev->peer);
			in->b = comm_id(b, ev->comm);
			in->c = ev->tag == MPIV_ANY_TAG ? ENG_ANY : ev->tag;
			/* verify: what a wildcard probe found is an input */
			if (b->verify && (in->a == ENG_ANY || in->c == ENG_ANY)) {
				in->reg = 1 + cur(b)->ninputs++;
				if (!(ev->flags & MPIV_EV_INCOMPLETE))
					learn(b, (int)ev->index, last_instr(b));
			}
		}
		break;
	case MPIV_KIND_MPROBE:
		if (ev->src == MPIV_NONE && !(ev->flags & MPIV_EV_INCOMPLETE))
			break; /* an MPI_Improbe that found nothing */
		/* a matched probe takes its message: it is the receive */
		idx = post(b, ev, (int)ev->index, 0);
		wait_for(b, (int)ev->index, &idx, 1, 1);
		if (!(ev->flags & MPIV_EV_INCOMPLETE))
			learn(b, (int)ev->index, idx);
		break;
	case MPIV_KIND_MRECV:
		if (mpiv_call_twin(ev->call) == MPIV_CALL_Imrecv && ev->nreqs == 1) {
			struct mpiv_event nul = *ev;

			/* its message is matched already: a request complete at once */
			nul.peer = MPIV_PROC_NULL;
			nul.tag = 0;
			nul.comm = MPIV_COMM_WORLD;
			override(b, i, MPIV_PROC_NULL, 0, 0);
			map_req(b, ev->reqs[0].req, post(b, &nul, (int)ev->index, 0));
		}
		break;
	default:
		break;
	}
}

/* Request req's partitioned send, started and deferred by the process being built. */
static void part_started(struct builder *b, int32_t req)
{
	struct part_wait *w = NULL;
	size_t i;

	for (i = 0; i < b->npw && !w; i++)
		if (b->pw[i].req == req)
			w = &b->pw[i];
	if (!w) {
		xgrow((void **)&b->pw, &b->cappw, b->npw + 1, sizeof(*b->pw));
		w = &b->pw[b->npw++];
		memset(w, 0, sizeof(*w));
		w->req = req;
	}
	w->owner = b->cur;
	w->nmarks = 0;
	w->ready = w->judged = 0;
	w->fix = -1;
}

static struct part_wait *part_wait_of(struct builder *b, int32_t req)
{
	size_t i;

	for (i = 0; i < b->npw; i++)
		if (b->pw[i].req == req)
			return &b->pw[i];
	return NULL;
}

/* A persistent request made (a send's, a receive's, a collective's: its template) or
 * started (doc/semantics.md 4.4). Returns 0, or -1 with err filled. */
static int build_persistent(struct builder *b, const struct mpiv_event *ev, size_t i,
			    struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = b->t;
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int idx;
	uint32_t j;

	switch (kind) {
	case MPIV_KIND_SEND_INIT:
	case MPIV_KIND_RECV_INIT:
		req_put(b, ev->reqs[0].req)->tmpl = (int32_t)i;
		break;
	case MPIV_KIND_START:
		for (j = 0; j < ev->nreqs; j++) {
			int32_t req = ev->reqs[j].req, tm = req_tmpl(b, req);
			const struct mpiv_event *env;

			if (tm < 0) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					       ev->index,
					       "%s starts request %d, which is not a "
					       "persistent request",
					       mpiv_call_name(ev->call), req);
				return -1;
			}
			env = mpiv_trace_event(t, (size_t)tm);
			/* a persistent collective: its collective, started nonblocking */
			if (mpiv_call_kind(env->call) == MPIV_KIND_COLL_INIT) {
				coll_post(b, env, comm_id(b, env->comm), ENG_ICOLL, (int)ev->index);
				map_icoll(b, req);
				continue;
			}
			/* a partitioned send goes once its partitions are ready */
			if ((mpiv_call_flags(env->call) & MPIV_F_PARTITIONED) &&
			    mpiv_call_kind(env->call) == MPIV_KIND_SEND_INIT &&
			    !(ev->flags & MPIV_EV_PARTS_READY)) {
				map_req(b, req, -1);
				req_of(b, req)->deferred = 1;
				part_started(b, req);
				continue;
			}
			b->start_data = ev->reqs[j].data;
			idx = post(b, env, (int)ev->index,
				   mpiv_call_kind(env->call) == MPIV_KIND_SEND_INIT);
			map_req(b, req, idx);
		}
		break;
	case MPIV_KIND_COLL_INIT:
		req_put(b, ev->reqs[0].req)->tmpl = (int32_t)i;
		break;
	default:
		break;
	}
	return 0;
}

/* The deferred send of request req (its struct build_req e) posted now, in the process being
 * built, at event ev. */
static void post_parts(struct builder *b, struct build_req *e, int32_t req, int ev)
{
	const struct mpiv_event *env = mpiv_trace_event(b->t, (size_t)e->tmpl);

	e->deferred = 0;
	b->start_data = 0;
	map_req(b, req, post(b, env, ev, 1));
}

/* MPI_Pready and kin (doc/semantics.md 4.9): the one that readies a started partitioned
 * send's last partition posts its message, where the thread that started it readies them
 * all. A partition another thread readies leaves a mark there, which the thread that started
 * the send waits for before it posts the message (owner_call()). */
static void build_pready(struct builder *b, const struct mpiv_event *ev)
{
	struct part_wait *w;
	struct build_req *e;
	int32_t req, pair[2];

	if (ev->nreqs < 1 || !(w = part_wait_of(b, req = ev->reqs[0].req)))
		return;
	e = req_of(b, req);
	if (!e || (!e->deferred && w->fix < 0))
		return; /* not started: erroneous, and the library said so */
	if (ev->flags & MPIV_EV_PARTS_READY)
		w->ready = 1;
	if (b->cur == w->owner) {
		if (w->ready && !w->nmarks && e->deferred)
			post_parts(b, e, req, (int)ev->index);
		return;
	}
	emit(b, ENG_THREAD_MARK, (int)ev->index);
	pair[0] = (int32_t)b->cur;
	pair[1] = last_instr(b);
	if (w->fix >= 0) { /* its owner is blocked in a wait for it already */
		struct after_fix *f = &b->fix[w->fix];

		xgrow((void **)&f->c, &f->cap, f->n + 2, sizeof(*f->c));
		memcpy(f->c + f->n, pair, sizeof(pair));
		f->n += 2;
		return;
	}
	xgrow((void **)&w->marks, &w->capmarks, w->nmarks + 2, sizeof(*w->marks));
	memcpy(w->marks + w->nmarks, pair, sizeof(pair));
	w->nmarks += 2;
}

/* Does the rank's trace, after event i and before request req is started again, have an
 * MPI_Pready* of req from another thread than `thread`? *ready is set if one readies the
 * last partition. The recorder writes each before its partitions are ready (rec_part.c), so
 * the calls of one start come after the start and before what they let return. */
static int readied_later(const struct builder *b, size_t i, int32_t req, int32_t thread, int *ready)
{
	const struct mpiv_rank_trace *t = b->t;
	int other = 0;
	uint32_t k;

	for (i++; i < t->first + t->nevents; i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);
		enum mpiv_kind kind = mpiv_call_kind(ev->call);

		if (kind == MPIV_KIND_START) {
			for (k = 0; k < ev->nreqs && ev->reqs[k].req != req; k++)
				;
			if (k < ev->nreqs)
				break;
		}
		if (kind != MPIV_KIND_LOCAL || !(mpiv_call_flags(ev->call) & MPIV_F_PARTITIONED) ||
		    ev->nreqs < 1 || ev->reqs[0].req != req)
			continue;
		other |= ev->thread != thread;
		if (ev->flags & MPIV_EV_PARTS_READY)
			*ready = 1;
	}
	return other;
}

/* Where in ev's requests request req is: 1 among those it completed, 2 among the others, 0
 * not there. */
static int lists_req(const struct mpiv_event *ev, int32_t req)
{
	uint32_t j;

	for (j = 0; j < ev->nreqs; j++)
		if (ev->reqs[j].req == req)
			return j < ev->nreqs - ev->npending ? 1 : 2;
	return 0;
}

/* The first call that may wait (tr_may_wait()) of a thread after it started a partitioned
 * send whose partitions other threads ready: the send's message is posted there, once the
 * other threads' marks are passed, and before that call's own instructions. That is exact
 * where the call completes the send, or waits for it to the end of the trace: the thread
 * then does nothing the others may wait for meanwhile (its calls before it never wait, the
 * engine makes them at once), and the message goes as soon as the last partition is ready,
 * whichever thread readies it. Any other call that may wait is refused, and so is one that
 * names the send before (a cancel, a free). Returns 0 or -1 with err filled. */
static int owner_call(struct builder *b, const struct mpiv_event *ev, size_t i,
		      struct mpiv_error *err)
{
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int incomplete = !!(ev->flags & MPIV_EV_INCOMPLETE);
	size_t k;

	for (k = 0; k < b->npw; k++) {
		struct part_wait *w = &b->pw[k];
		struct build_req *e = req_of(b, w->req);
		int ready = w->ready, where, pready;

		if (w->owner != b->cur || w->judged || !e || !e->deferred)
			continue;
		pready = kind == MPIV_KIND_LOCAL &&
			 (mpiv_call_flags(ev->call) & MPIV_F_PARTITIONED);
		where = lists_req(ev, w->req);
		/* a failed poll of the send changes nothing, unless the thread polls to the end */
		if (pready ||
		    (!incomplete && !tr_may_wait(ev) && (!where || kind == MPIV_KIND_WAIT)))
			continue;
		w->judged = 1;
		if (!readied_later(b, i - 1, w->req, cur(b)->thread, &ready) && !w->nmarks)
			continue; /* readied by this thread alone: build_pready() posts it */
		if (kind != MPIV_KIND_WAIT)
			where = 0;
		if (!ready && where)
			continue; /* a wait that never completes (build_wait()) */
		if (where == 1 || (where && incomplete)) {
			size_t f = add_after(b, b->cur, (int)ev->index, w->marks, w->nmarks,
					     w->capmarks);

			w->marks = NULL;
			w->nmarks = w->capmarks = 0;
			if (incomplete)
				w->fix = (long)f; /* partitions readied later join it */
			post_parts(b, e, w->req, (int)ev->index);
			continue;
		}
		return tr_unjudged(err, b->t->source, b->t->rank, ev->index,
				   "%s on thread %d, before it completes request %d, a "
				   "partitioned send whose partitions other threads ready: "
				   "check sends its message from the thread that started it, "
				   "and cannot judge a call there that may wait, or that names "
				   "the send, yet",
				   mpiv_call_name(ev->call), cur(b)->thread, w->req);
	}
	return 0;
}

/* What the program does to a request besides completing it: cancel it (doc/semantics.md
 * 4.7), start or complete a generalized one (4.8), free it. Returns 0, or -1 with err
 * filled. */
static int build_request_call(struct builder *b, const struct mpiv_event *ev,
			      struct mpiv_error *err)
{
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	uint32_t j;

	switch (kind) {
	case MPIV_KIND_CANCEL:
		if (build_cancel(b, ev, err))
			return -1;
		break;
	case MPIV_KIND_GREQ_START:
		emit(b, ENG_GREQ, (int)ev->index);
		map_req(b, ev->nreqs == 1 ? ev->reqs[0].req : -1, last_instr(b));
		if (++cur(b)->live > cur(b)->maxlive)
			cur(b)->maxlive = cur(b)->live;
		break;
	case MPIV_KIND_GREQ_COMPLETE:
		if (build_greq_complete(b, ev, err))
			return -1;
		break;
	case MPIV_KIND_REQUEST_FREE:
		for (j = 0; j < ev->nreqs; j++) {
			struct build_req *e = req_of(b, ev->reqs[j].req);

			if (!e)
				continue;
			/* MPI_Grequest_complete may still name it */
			e->freed = e->instr >= 0 && b->procs[e->proc].ins[e->instr].op == ENG_GREQ;
			e->tmpl = -1;
			if (e->freed)
				e->instr = -1;
			else
				req_done(b, ev->reqs[j].req);
		}
		break;
	default:
		break;
	}
	return 0;
}

/* Event ev's members meet on engine communicator c, every one waiting for all: a creation
 * over a group, or a group's first meeting in a creation of an intercommunicator. */
static void group_meets(struct builder *b, const struct mpiv_event *ev, int c)
{
	struct eng_instr *in = emit(b, ENG_COLL, (int)ev->index);

	in->a = c;
	in->b = ENG_COLL_ALL;
	in->c = ++b->coll_seq[c];
	in->call = coll_call(ev->call);
}

/* A collective, blocking or not, or MPI_Comm_create_group's over its new members
 * (doc/semantics.md 5, 6). Cannot fail. */
static void build_collective(struct builder *b, const struct mpiv_event *ev)
{
	const struct mpiv_rank_trace *t = b->t;
	enum mpiv_kind kind = mpiv_call_kind(ev->call);
	int c;

	switch (kind) {
	case MPIV_KIND_COLL:
	case MPIV_KIND_ICOLL:
		c = comm_id(b, ev->comm);
		if (ev->call == MPIV_CALL_Intercomm_create) {
			/* its group meets on the local communicator, then both groups on
			 * the intercommunicator (doc/semantics.md 6.3) */
			group_meets(b, ev, c);
			c = tr_comms_inter(b->comms, t->rank, ev->index);
		}
		coll_post(b, ev, c, kind == MPIV_KIND_COLL ? ENG_COLL : ENG_ICOLL, (int)ev->index);
		if (kind == MPIV_KIND_ICOLL)
			map_icoll(b, ev->reqs[0].req);
		break;
	case MPIV_KIND_COMM_GROUP: {
		const struct mpiv_newcomm *nc = mpiv_trace_newcomm(t, ev->index);

		if (ev->call == MPIV_CALL_Intercomm_create_from_groups) {
			/* its group meets on a communicator of its own, then both groups
			 * on the intercommunicator (doc/semantics.md 6.3); known if the
			 * event lists its group or returned (check_event()) */
			int g = tr_comms_inter_local(b->comms, t->rank, ev->index),
			    inter = tr_comms_inter(b->comms, t->rank, ev->index);

			if (g >= 0 && inter >= 0) {
				group_meets(b, ev, g);
				coll_post(b, ev, inter, ENG_COLL, (int)ev->index);
			}
			break;
		}
		/* collective over the new communicator's members, not the parent's; a
		 * rank that got MPI_COMM_NULL was not in the group: no effect */
		if (!nc)
			break;
		group_meets(b, ev, comm_id(b, nc->id));
		break;
	}
	default:
		break;
	}
}

/* Rank t's events [from, to) become its processes' instructions, with what it has from before
 * from in tmpl[0..ntmpl): persistent requests, an attached buffer. A segment that ends before
 * the trace does (tr_segment.c) ends as if the rank finished there. */
static int build_rank(const struct mpiv_traceset *ts, const struct mpiv_rank_trace *t, size_t from,
		      size_t to, const struct tr_tmpl *tmpl, size_t ntmpl, struct builder *b,
		      struct mpiv_error *err)
{
	size_t i;
	int32_t *list = NULL;
	size_t listcap = 0;
	struct tr_stop stop;
	long attach = -1; /* the event of the buffer attached before the segment, if any */

	b->t = t;
	tr_stop_of(ts, t->rank, &stop);
	if (to < t->nevents && !t->unjudged)
		stop.kind = TR_FINISHED; /* a segment's end */
	b->threaded = t->threaded;
	while (b->next_op < t->nthread_ops && t->thread_ops[b->next_op].before < from)
		b->next_op++; /* an earlier segment's */
	for (i = 0; i < ntmpl; i++) {
		if (tmpl[i].req == TR_TMPL_BUFFER) {
			attach = (long)tmpl[i].event;
			continue;
		}
		req_put(b, tmpl[i].req)->tmpl = (int32_t)tmpl[i].event;
	}
	for (i = from; i < to; i++) {
		const struct mpiv_event *ev = hold_event(b, i);
		enum mpiv_kind kind = mpiv_call_kind(ev->call);

		if (check_event(b, ev, err) || over_limit(b, ev, err))
			goto fail;
		/* thread 0 initialised MPI (doc/trace-format.md) */
		if (ev->thread != 0 && t->thread_level == 2 /* MPI_THREAD_SERIALIZED */) {
			tr_unjudged(err, t->source, t->rank, ev->index,
				    "%s from thread %d, another than the one that "
				    "initialised MPI, of a rank whose threads call MPI one "
				    "at a time (MPI_THREAD_SERIALIZED): the order the "
				    "program puts between their calls is its own, which "
				    "check cannot judge yet",
				    mpiv_call_name(ev->call), ev->thread);
			goto fail;
		}
		if (ev->thread != 0 && t->thread_level < 2) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				       "%s from thread %d, another than the one that "
				       "initialised MPI, at thread level %s: only that thread "
				       "may call MPI there (MPI-4.1 11.6.1), so the program is "
				       "erroneous",
				       mpiv_call_name(ev->call), ev->thread,
				       t->thread_level == 1 ? "MPI_THREAD_FUNNELED" :
							      "MPI_THREAD_SINGLE");
			goto fail;
		}
		if (t->threaded)
			thread_records(b, i);
		select_thread(b, ev->thread);
		flush_order(b, b->cur, (int)i);
		if (b->npw && owner_call(b, ev, i, err))
			goto fail;
		if (b->verify) {
			flush_completions(b, ev);
			null_wait(b);
		}
		cur(b)->last = (long)i;
		if (attach >= 0) {
			/* a segment's rank starts with the buffer attached before it (one thread) */
			const struct mpiv_event *at = mpiv_trace_event(t, (size_t)attach);

			emit(b, ENG_BUF_ATTACH, (int)attach)->bytes = engine_bytes(at->bytes);
			attach = -1;
		}
		switch (kind) {
		case MPIV_KIND_FINALIZE: /* MPI_Finalize, MPI_Abort: the rank's last call */
			if (ev->call != MPIV_CALL_Session_finalize || i + 1 == t->nevents)
				goto done;
			/* the last session's end is the rank's; another's is local */
			if (check_session_end(b, i, err))
				goto fail;
			break;
		case MPIV_KIND_WAIT:
			if (ev->call == MPIV_CALL_Parrived && check_parrived(b, ev, err))
				goto fail;
			if (build_wait(b, ev, &list, &listcap, err))
				goto fail;
			/* MPI_Request_get_status and MPI_Parrived leave the request they found
			 * complete as it is */
			if ((ev->call == MPIV_CALL_Request_get_status ||
			     ev->call == MPIV_CALL_Parrived) &&
			    ev->nreqs == 1 && !ev->npending && !(ev->flags & MPIV_EV_INCOMPLETE))
				complete_request(b, ev, ev->reqs[0].req);
			break;
		case MPIV_KIND_WIN_CREATE:
			if (build_win_create(b, ev, err))
				goto fail;
			break;
		case MPIV_KIND_WIN_FREE:
		case MPIV_KIND_WIN_FENCE:
		case MPIV_KIND_WIN_POST:
		case MPIV_KIND_WIN_START:
		case MPIV_KIND_WIN_COMPLETE:
		case MPIV_KIND_WIN_WAIT:
		case MPIV_KIND_WIN_LOCK:
		case MPIV_KIND_WIN_UNLOCK:
		case MPIV_KIND_WIN_LOCAL:
			if (build_win(b, ev, err))
				goto fail;
			break;
		case MPIV_KIND_BUF_ATTACH:
			emit(b, ENG_BUF_ATTACH, (int)ev->index)->bytes = engine_bytes(ev->bytes);
			break;
		case MPIV_KIND_BUF_DETACH:
			emit(b, ENG_BUF_DETACH, (int)ev->index);
			break;
		case MPIV_KIND_SEND:
		case MPIV_KIND_RECV:
		case MPIV_KIND_ISEND:
		case MPIV_KIND_IRECV:
		case MPIV_KIND_SENDRECV:
		case MPIV_KIND_ISENDRECV:
		case MPIV_KIND_PROBE:
		case MPIV_KIND_MPROBE:
		case MPIV_KIND_MRECV:
			build_p2p(b, ev, i);
			break;
		case MPIV_KIND_SEND_INIT:
		case MPIV_KIND_RECV_INIT:
		case MPIV_KIND_START:
		case MPIV_KIND_COLL_INIT:
			if (build_persistent(b, ev, i, err))
				goto fail;
			break;
		case MPIV_KIND_CANCEL:
		case MPIV_KIND_GREQ_START:
		case MPIV_KIND_GREQ_COMPLETE:
		case MPIV_KIND_REQUEST_FREE:
			if (build_request_call(b, ev, err))
				goto fail;
			break;
		case MPIV_KIND_COLL:
		case MPIV_KIND_ICOLL:
		case MPIV_KIND_COMM_GROUP:
			build_collective(b, ev);
			break;
		case MPIV_KIND_LOCAL:
			if (mpiv_call_flags(ev->call) & MPIV_F_PARTITIONED)
				build_pready(b, ev);
			break;
		default: /* MPI_Init, MPI_Comm_free (it does not wait) */
			break;
		}
	}
done:
	if (finish_procs(b, &stop, &list, &listcap, err))
		goto fail;
	fix_orders(b);
	/* a lock never released is held for good */
	while (b->nopen > 0)
		close_lock(b, &b->open[--b->nopen], INT32_MAX);
	free(list);
	return 0;
fail:
	fix_orders(b);
	free(list);
	return -1;
}

/* The collectives of a communicator meet in call order: the k-th of every member must be the
 * same call with the same root (doc/semantics.md 5.1). Where they differ, all k-th ones are
 * marked as a mismatch: erroneous, and never completing. One pass per (communicator,
 * member). */
static void mark_mismatches(struct eng_prog *prog)
{
	struct eng_instr ***pos = xcalloc((size_t)prog->nranks, sizeof(*pos));
	size_t *npos = xcalloc((size_t)prog->nranks, sizeof(*npos));
	int c, i, q, x;
	size_t k, cap;

	for (c = 0; c < prog->ncomms; c++) {
		const struct eng_comm *cm = &prog->comms[c];
		size_t most = 0;

		for (i = 0; i < cm->n; i++) {
			int r = cm->members[i];

			npos[i] = 0;
			cap = 0;
			pos[i] = NULL;
			/* the rank's collectives on c by their sequence number, whichever of its
			 * threads made them */
			for (q = prog->rank_proc[r]; q < prog->rank_proc[r + 1]; q++)
				for (x = 0; x < prog->nins[q]; x++) {
					struct eng_instr *in = &prog->ins[q][x];

					if ((in->op != ENG_COLL && in->op != ENG_ICOLL) ||
					    in->a != c)
						continue;
					xgrow((void **)&pos[i], &cap, (size_t)in->c,
					      sizeof(*pos[i]));
					pos[i][in->c - 1] = in;
					if ((size_t)in->c > npos[i])
						npos[i] = (size_t)in->c;
				}
			if (npos[i] > most)
				most = npos[i];
		}
		for (k = 0; k < most; k++) {
			const struct eng_instr *first = NULL;
			int mismatch = 0;

			/* the members must agree on the call and the root (d) */
			for (i = 0; i < cm->n; i++) {
				const struct eng_instr *in;

				if (k >= npos[i] || !pos[i][k])
					continue;
				in = pos[i][k];
				if (!first)
					first = in;
				else if (in->call != first->call ||
					 ((mpiv_call_flags((unsigned)in->call) & MPIV_F_ROOTED) &&
					  in->d != first->d && in->d >= 0 && first->d >= 0))
					mismatch = 1;
			}
			for (i = 0; mismatch && i < cm->n; i++)
				if (k < npos[i] && pos[i][k])
					pos[i][k]->b = ENG_COLL_MISMATCH;
		}
		for (i = 0; i < cm->n; i++)
			free(pos[i]);
	}
	free(pos);
	free(npos);
}

size_t tr_coll_mismatches(const struct eng_prog *prog, struct tr_event_ref **out)
{
	size_t n = 0, cap = 0;
	int q, i;

	*out = NULL;
	for (q = 0; q < prog->nprocs; q++)
		for (i = 0; i < prog->nins[q]; i++) {
			const struct eng_instr *in = &prog->ins[q][i];

			if ((in->op != ENG_COLL && in->op != ENG_ICOLL) ||
			    in->b != ENG_COLL_MISMATCH || in->ev < 0)
				continue;
			xgrow((void **)out, &cap, n + 1, sizeof(**out));
			(*out)[n].rank = prog->proc_rank[q];
			(*out)[n++].ev = in->ev;
		}
	return n;
}

/* Does the group of in (an ENG_WIN_POST or ENG_WIN_START whose list is still its group)
 * name m? Any m < 0 does. */
static int group_has(const struct eng_instr *in, int m)
{
	int i;

	for (i = 0; m >= 0 && i < in->n; i++)
		if (in->list[i] == m)
			return 1;
	return m < 0;
}

/* The process of a rank that makes one-sided calls: its only one (check refuses one-sided
 * calls from ranks with threads). */
#define WIN_PROC(p, r) ((p)->rank_proc[r])

/* The instruction of process r that is its k-th (from 0) with op on window c whose group
 * names rank m (m < 0: any), or -1. */
static int nth_epoch(const struct eng_prog *p, int r, int op, int c, int m, int k)
{
	int i;

	for (i = 0; i < p->nins[r]; i++) {
		const struct eng_instr *in = &p->ins[r][i];

		if (in->op == op && in->a == c && group_has(in, m) && k-- == 0)
			return i;
	}
	return -1;
}

/* How many instructions of process r before instruction end have op on window c and a group
 * naming rank m (m < 0: any). */
static int epochs_before(const struct eng_prog *p, int r, int op, int c, int m, int end)
{
	int i, k = 0;

	for (i = 0; i < end; i++) {
		const struct eng_instr *in = &p->ins[r][i];

		k += in->op == op && in->a == c && group_has(in, m);
	}
	return k;
}

/* The pairs (target process, its matching post) of origin process r's start instruction s. */
static int32_t *start_pairs(const struct eng_prog *p, int r, int s, int32_t *n)
{
	const struct eng_instr *in = &p->ins[r][s];
	int32_t *l = xmalloc((size_t)(2 * in->n + 1) * sizeof(*l));
	int i;

	for (i = 0; i < in->n; i++) {
		int t = in->list[i];

		l[2 * i] = WIN_PROC(p, t);
		l[2 * i + 1] = nth_epoch(p, WIN_PROC(p, t), ENG_WIN_POST, in->a, p->proc_rank[r],
					 epochs_before(p, r, ENG_WIN_START, in->a, t, s));
	}
	*n = 2 * in->n;
	return l;
}

/* The pairs (origin process, its matching complete) of target process r's wait
 * instruction w. */
static int32_t *wait_pairs(const struct eng_prog *p, int r, int w, int32_t *n)
{
	int c = p->ins[r][w].a, i;
	int post = nth_epoch(p, r, ENG_WIN_POST, c, -1,
			     epochs_before(p, r, ENG_WIN_WAIT, c, -1, w));
	const struct eng_instr *in = post >= 0 ? &p->ins[r][post] : NULL;
	int32_t *l = xmalloc((size_t)(in ? 2 * in->n + 1 : 1) * sizeof(*l));

	*n = 0;
	for (i = 0; in && i < in->n; i++) {
		int o = in->list[i], oq = WIN_PROC(p, o), st;

		st = nth_epoch(p, oq, ENG_WIN_START, c, p->proc_rank[r],
			       epochs_before(p, r, ENG_WIN_POST, c, o, post));
		l[2 * i] = oq;
		l[2 * i + 1] = st < 0 ? -1 :
					nth_epoch(p, oq, ENG_WIN_COMPLETE, c, -1,
						  epochs_before(p, oq, ENG_WIN_START, c, -1, st));
		*n += 2;
	}
	return l;
}

/* General active target: pair the epochs of every (origin, target), in order (the k-th start
 * of o naming t meets the k-th post of t naming o), and give each start, complete and wait
 * the instructions of the other ranks it waits for. Posts keep no list. */
static void link_pscw(struct eng_prog *p)
{
	int32_t ***lists = xcalloc((size_t)p->nprocs, sizeof(*lists));
	int32_t **ns = xcalloc((size_t)p->nprocs, sizeof(*ns));
	int r, i;

	for (r = 0; r < p->nprocs; r++) {
		lists[r] = xcalloc((size_t)p->nins[r], sizeof(**lists));
		ns[r] = xcalloc((size_t)p->nins[r], sizeof(**ns));
		for (i = 0; i < p->nins[r]; i++) {
			const struct eng_instr *in = &p->ins[r][i];
			int s;

			switch (in->op) {
			case ENG_WIN_START:
				lists[r][i] = start_pairs(p, r, i, &ns[r][i]);
				break;
			case ENG_WIN_COMPLETE:
				s = nth_epoch(p, r, ENG_WIN_START, in->a, -1,
					      epochs_before(p, r, ENG_WIN_COMPLETE, in->a, -1, i));
				lists[r][i] = s >= 0 ? start_pairs(p, r, s, &ns[r][i]) :
						       xcalloc(1, sizeof(int32_t));
				break;
			case ENG_WIN_WAIT:
				lists[r][i] = wait_pairs(p, r, i, &ns[r][i]);
				break;
			case ENG_WIN_POST:
				lists[r][i] = xcalloc(1, sizeof(int32_t));
				break;
			}
		}
	}
	for (r = 0; r < p->nprocs; r++) {
		for (i = 0; i < p->nins[r]; i++) {
			if (!lists[r][i])
				continue;
			free(p->ins[r][i].list);
			p->ins[r][i].list = lists[r][i];
			p->ins[r][i].n = ns[r][i];
		}
		free(lists[r]);
		free(ns[r]);
	}
	free(lists);
	free(ns);
}

/* A lock that another rank also takes on the same target, in a conflicting way, is
 * contended: who gets it first is then a choice of the search, not a deterministic step. */
static void mark_contended(struct eng_prog *p, const struct windows *w)
{
	size_t i, j;

	for (i = 0; i < w->nlocks; i++)
		for (j = 0; j < w->nlocks; j++) {
			const struct eng_lock *a = &w->locks[i], *b = &w->locks[j];

			if (p->proc_rank[a->proc] != p->proc_rank[b->proc] && a->comm == b->comm &&
			    a->target == b->target && (a->exclusive || b->exclusive))
				p->ins[a->proc][a->lock].d = 1;
		}
}

/* The windows each engine communicator of cm gets (w->count: the most any of its members
 * created on it; a rank that creates fewer never meets the others' creation collective),
 * numbered from prog's next communicator on, each with the members of its communicator. */
static void count_windows(const struct mpiv_traceset *ts, const struct tr_comms *cm,
			  struct eng_prog *prog, struct windows *w)
{
	int *n = xcalloc((size_t)prog->ncomms, sizeof(*n)), r, c, k;
	size_t i;

	w->ncomms = prog->ncomms;
	w->first = xcalloc((size_t)prog->ncomms, sizeof(*w->first));
	w->count = xcalloc((size_t)prog->ncomms, sizeof(*w->count));
	for (r = 0; r < ts->nranks; r++) {
		memset(n, 0, (size_t)prog->ncomms * sizeof(*n));
		/* most traces make no window: no need to read them through */
		for (i = 0; (ts->ranks[r].kinds & (1ULL << MPIV_KIND_WIN_CREATE)) &&
			    i < ts->ranks[r].nevents;
		     i++) {
			const struct mpiv_event *ev = mpiv_trace_event(&ts->ranks[r], i);

			if (mpiv_call_kind(ev->call) != MPIV_KIND_WIN_CREATE)
				continue;
			c = tr_comms_id(cm, r, ev->comm);
			if (c >= 0 && c < prog->ncomms && ++n[c] > w->count[c])
				w->count[c] = n[c];
		}
	}
	free(n);
	for (c = 0; c < w->ncomms; c++) {
		w->first[c] = prog->ncomms;
		prog->ncomms += w->count[c];
	}
	prog->comms = xrealloc(prog->comms, (size_t)prog->ncomms * sizeof(*prog->comms));
	for (c = 0; c < w->ncomms; c++)
		for (k = 0; k < w->count[c]; k++) {
			struct eng_comm *win = &prog->comms[w->first[c] + k];

			win->n = prog->comms[c].n;
			win->members = xcalloc((size_t)win->n, sizeof(int32_t));
			memcpy(win->members, prog->comms[c].members,
			       (size_t)win->n * sizeof(int32_t));
		}
}

/* verify: a register per input a process takes (numbered by input: explore/ shares them
 * out). */
static void registers_each(struct eng_prog *p)
{
	int q, i;

	p->verify = 1;
	p->nregs = 1;
	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++)
			if (p->ins[q][i].reg > p->nregs)
				p->nregs = p->ins[q][i].reg;
}

int tr_translate(const struct mpiv_traceset *ts, const struct tr_opts *opts, struct eng_prog *prog,
		 struct mpiv_error *err)
{
	return tr_translate_spans(ts, opts, NULL, prog, err);
}

int tr_translate_spans(const struct mpiv_traceset *ts, const struct tr_opts *opts,
		       const struct tr_span *span, struct eng_prog *prog, struct mpiv_error *err)
{
	struct tr_comms comms;
	struct tr_parts parts;
	int r, i, nsends = 0;
	struct windows wins;

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
	/* windows get engine communicators after the communicators' */
	memset(&wins, 0, sizeof(wins));
	wins.nranks = ts->nranks;
	count_windows(ts, &comms, prog, &wins);
	/* partitioned requests: their pairs, on a communicator of their own */
	if (tr_parts_build(ts, &comms, &parts, err)) {
		tr_parts_release(&parts);
		free(wins.locks);
		free(wins.first);
		free(wins.count);
		tr_comms_release(&comms);
		eng_prog_release(prog);
		return -1;
	}
	if (parts.npairs > 0) {
		struct eng_comm *c;

		parts.comm = prog->ncomms++;
		prog->comms = xrealloc(prog->comms, (size_t)prog->ncomms * sizeof(*prog->comms));
		c = &prog->comms[parts.comm];
		c->n = ts->nranks;
		c->members = xcalloc((size_t)ts->nranks, sizeof(int32_t));
		for (r = 0; r < ts->nranks; r++)
			c->members[r] = r;
		prog->partitioned = 1;
	}
	prog->maxlive = 1;
	prog->rank_proc = xcalloc((size_t)ts->nranks + 1, sizeof(*prog->rank_proc));
	for (r = 0; r < ts->nranks; r++) {
		struct builder b;
		size_t k, capprocs = (size_t)prog->nprocs;
		int rc;

		memset(&b, 0, sizeof(b));
		tr_reqmap_init(&b.requests, sizeof(struct build_req));
		b.verify = opts->verify;
		b.max_instrs = opts->max_instrs;
		for (k = 0; k < (size_t)prog->nprocs; k++)
			b.before += (size_t)prog->nins[k];
		b.comms = &comms;
		b.parts = &parts;
		b.prog = prog;
		b.lists = prog;
		b.coll_seq = xcalloc((size_t)prog->ncomms, sizeof(*b.coll_seq));
		b.w = &wins;
		b.nwins = xcalloc((size_t)wins.ncomms, sizeof(*b.nwins));
		b.proc_base = prog->nprocs;
		if (span)
			rc = build_rank(ts, &ts->ranks[r], span[r].from, span[r].to, span[r].tmpl,
					span[r].ntmpl, &b, err);
		else
			rc = build_rank(ts, &ts->ranks[r], 0,
					tr_judged(&ts->ranks[r], ts->ranks[r].nevents), NULL, 0, &b,
					err);
		free(b.coll_seq);
		free(b.nwins);
		free(b.win_of);
		free(b.open);
		tr_reqmap_release(&b.requests);
		free(b.ovr);
		free(b.reqs);
		free(b.group);
		/* the rank's processes, in the order its threads first called MPI */
		capprocs = (size_t)prog->nprocs;
		xgrow((void **)&prog->ins, &capprocs, (size_t)prog->nprocs + b.nprocs,
		      sizeof(*prog->ins));
		capprocs = (size_t)prog->nprocs;
		xgrow((void **)&prog->nins, &capprocs, (size_t)prog->nprocs + b.nprocs,
		      sizeof(*prog->nins));
		capprocs = (size_t)prog->nprocs;
		xgrow((void **)&prog->proc_rank, &capprocs, (size_t)prog->nprocs + b.nprocs,
		      sizeof(*prog->proc_rank));
		capprocs = (size_t)prog->nprocs;
		xgrow((void **)&prog->proc_thread, &capprocs, (size_t)prog->nprocs + b.nprocs,
		      sizeof(*prog->proc_thread));
		for (k = 0; k < b.nprocs; k++) {
			int q = prog->nprocs++;

			drop_left(&b.procs[k]); /* what a rank that failed left */
			prog->ins[q] = b.procs[k].ins;
			prog->nins[q] = (int32_t)b.procs[k].n;
			prog->proc_rank[q] = r;
			prog->proc_thread[q] = b.procs[k].thread;
			if (b.procs[k].maxlive > prog->maxlive)
				prog->maxlive = b.procs[k].maxlive;
			for (i = 0; i < prog->nins[q]; i++)
				if (prog->ins[q][i].op == ENG_POST_SEND)
					nsends++;
		}
		free(b.procs);
		prog->rank_proc[r + 1] = prog->nprocs;
		if (rc) {
			free(wins.locks);
			free(wins.first);
			free(wins.count);
			tr_parts_release(&parts);
			tr_comms_release(&comms);
			eng_prog_release(prog);
			return -1;
		}
	}
	tr_parts_release(&parts);
	tr_comms_release(&comms);
	free(wins.first);
	free(wins.count);
	/* verify: which collectives meet depends on the paths (eng_coll_mismatch()) */
	if (!opts->verify)
		mark_mismatches(prog);
	/* general active target synchronisation: only where some rank made it */
	for (r = 0; r < ts->nranks; r++)
		if (ts->ranks[r].kinds &
		    (1ULL << MPIV_KIND_WIN_START | 1ULL << MPIV_KIND_WIN_POST |
		     1ULL << MPIV_KIND_WIN_COMPLETE | 1ULL << MPIV_KIND_WIN_WAIT)) {
			link_pscw(prog);
			break;
		}
	mark_contended(prog, &wins);
	prog->locks = wins.locks;
	prog->nlocks = (int32_t)wins.nlocks;
	prog->buffering = opts->buffering;
	prog->eager = opts->eager;
	for (r = 0; r < ts->nranks; r++)
		if (ts->ranks[r].bsend_overhead > prog->bsend_overhead)
			prog->bsend_overhead = ts->ranks[r].bsend_overhead;
	prog->maxmsg = opts->maxmsg > 0 ? opts->maxmsg : DEFAULT_MAXMSG;
	if (nsends < prog->maxmsg)
		prog->maxmsg = nsends > 0 ? nsends : 1;
	if (opts->verify)
		registers_each(prog);
	eng_layout(prog);
	return 0;
}

int tr_emit(const struct eng_prog *prog, FILE *f, const char *path, struct mpiv_error *err)
{
	if (eng_prog_write(prog, f))
		return mpiv_error_set(err, MPIV_EXIT_TOOL, path, -1, -1, "cannot write model data");
	return 0;
}
