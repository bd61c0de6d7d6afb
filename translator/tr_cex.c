/* Translator, second half: SPIN's choices back to a counterexample. The choices are replayed
 * on the same engine that pan ran, with an observer that notes every step, so the cex says
 * exactly what the model did: each rank's operations in order, every match, which sends were
 * buffered, where each rank is stuck and who it waits for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srcloc.h"
#include "translate.h"
#include "xalloc.h"

/* One match, by instruction index: resolved to events once the run is over, through the
 * variant each process ended in (doc/verify.md: the instructions a process ran before it
 * switched variant are the same in the one it switched to). */
struct match_at {
	int d, ri, s, si;
};

/* What the engine did on the way, per process. */
struct recorder {
	const struct eng_prog *prog;
	const struct mpiv_traceset *ts;
	const struct eng_instr **fin; /* per process: the instructions of its final variant */
	int32_t **match_proc;  /* per process, per instruction: matched sending process, -1 */
	int32_t **match_instr; /* per process, per instruction: sender's instruction */
	/* per process, per instruction: of a post, 2 its cancel was
	 * executed, | 1 it succeeded */
	char **cancelled;
	int32_t **done_order; /* per process: instructions executed, in order */
	/* per process: when each of them was executed (a step count
	 * over all processes), to merge a rank's threads in order */
	long **done_step;
	int *ndone;
	long step;
	struct match_at *at;
	size_t nat, capat;
};

static void on_match(void *ctx, int d, int ri, const struct eng_instr *rin, int s, int si,
		     const struct eng_instr *sin)
{
	struct recorder *rc = ctx;

	rc->match_proc[d][ri] = s;
	rc->match_instr[d][ri] = si;
	xgrow((void **)&rc->at, &rc->capat, rc->nat + 1, sizeof(*rc->at));
	rc->at[rc->nat++] = (struct match_at){d, ri, s, si};
}

static void on_cancelled(void *ctx, int r, int i)
{
	struct recorder *rc = ctx;

	rc->cancelled[r][i] |= 1;
}

static void on_exec(void *ctx, int r, int i, const struct eng_instr *in)
{
	struct recorder *rc = ctx;

	if (in->op == ENG_CANCEL)
		rc->cancelled[r][in->a] |= 2;
	rc->done_step[r][rc->ndone[r]] = rc->step++;
	rc->done_order[r][rc->ndone[r]++] = i;
}

/* The matches, as events of the traces. */
static struct mpiv_cex_match *resolve_matches(const struct recorder *rc)
{
	struct mpiv_cex_match *out = xcalloc(rc->nat + 1, sizeof(*out));
	size_t k;

	for (k = 0; k < rc->nat; k++) {
		const struct match_at *a = &rc->at[k];
		struct mpiv_cex_match *m = &out[k];
		int32_t src;

		m->recv_rank = rc->prog->proc_rank[a->d];
		m->recv_op = rc->fin[a->d][a->ri].ev;
		m->send_rank = rc->prog->proc_rank[a->s];
		m->send_op = rc->fin[a->s][a->si].ev;
		m->wildcard = rc->fin[a->d][a->ri].a == ENG_ANY;
		src = tr_recorded_source(&rc->ts->ranks[m->recv_rank], m->recv_op);
		m->as_recorded = src == MPIV_NONE ? -1 : src == m->send_rank;
	}
	return out;
}

/* WORLD, SELF, #N for the rank's N-th communicator id (rank-local), ? for an unknown one. */
static const char *comm_name(int comm, char *buf, size_t size)
{
	if (comm == MPIV_COMM_WORLD || comm == MPIV_COMM_SELF)
		return comm == MPIV_COMM_WORLD ? "WORLD" : "SELF";
	if (comm < MPIV_COMM_FIRST_LOCAL)
		return "?";
	snprintf(buf, size, "#%d", comm);
	return buf;
}

static int peer_str(char *buf, size_t size, int32_t v)
{
	if (v == MPIV_ANY_SOURCE)
		return snprintf(buf, size, "ANY");
	if (v == MPIV_PROC_NULL)
		return snprintf(buf, size, "PROC_NULL");
	return snprintf(buf, size, "%d", v);
}

/* "MPI_Win_start(group=[1, 2], win=0)": the call, its group (cut short if long), then tail. */
static void describe_group(char *buf, unsigned long size, const struct mpiv_event *ev,
			   const char *tail)
{
	size_t n;
	uint32_t i;

	snprintf(buf, size, "%s(group=[", mpiv_call_name(ev->call));
	for (i = 0; i < ev->ngroup; i++) {
		n = strlen(buf);
		if (i == 8) {
			snprintf(buf + n, size - n, ", ...");
			break;
		}
		snprintf(buf + n, size - n, "%s%d", i ? ", " : "", ev->group[i]);
	}
	n = strlen(buf);
	snprintf(buf + n, size - n, "]%s)", tail);
}

void tr_describe_event(const struct mpiv_traceset *ts, int r, long e, char *buf, unsigned long size)
{
	const struct mpiv_event *ev;
	char peer[16], tag[16], cbuf[16], tail[32];
	const char *comm;

	if (r < 0 || r >= ts->nranks || e < 0 || (size_t)e >= ts->ranks[r].nevents) {
		snprintf(buf, size, "event %ld", e);
		return;
	}
	ev = mpiv_trace_event(&ts->ranks[r], (size_t)e);
	comm = comm_name(ev->comm, cbuf, sizeof(cbuf));
	peer_str(peer, sizeof(peer), ev->peer);
	if (ev->tag == MPIV_ANY_TAG)
		snprintf(tag, sizeof(tag), "ANY");
	else
		snprintf(tag, sizeof(tag), "%d", ev->tag);
	switch (mpiv_call_kind(ev->call)) {
	case MPIV_KIND_SEND:
	case MPIV_KIND_ISEND:
	case MPIV_KIND_SEND_INIT:
		snprintf(buf, size, "%s(dest=%s, tag=%s, comm=%s, %llu bytes)",
			 mpiv_call_name(ev->call), peer, tag, comm, (unsigned long long)ev->bytes);
		break;
	case MPIV_KIND_SENDRECV:
	case MPIV_KIND_ISENDRECV: {
		char peer2[16], tag2[16];

		peer_str(peer2, sizeof(peer2), ev->peer2);
		if (ev->tag2 == MPIV_ANY_TAG)
			snprintf(tag2, sizeof(tag2), "ANY");
		else
			snprintf(tag2, sizeof(tag2), "%d", ev->tag2);
		snprintf(buf, size, "%s(dest=%s, sendtag=%s, source=%s, recvtag=%s, comm=%s)",
			 mpiv_call_name(ev->call), peer, tag, peer2, tag2, comm);
		break;
	}
	case MPIV_KIND_RECV:
	case MPIV_KIND_IRECV:
	case MPIV_KIND_RECV_INIT:
	case MPIV_KIND_PROBE:
	case MPIV_KIND_MPROBE:
		snprintf(buf, size, "%s(source=%s, tag=%s, comm=%s)", mpiv_call_name(ev->call),
			 peer, tag, comm);
		break;
	case MPIV_KIND_WAIT:
	case MPIV_KIND_START:
		snprintf(buf, size, "%s(%u request%s)", mpiv_call_name(ev->call), ev->nreqs,
			 ev->nreqs == 1 ? "" : "s");
		break;
	case MPIV_KIND_COLL:
	case MPIV_KIND_ICOLL:
	case MPIV_KIND_COLL_INIT:
	case MPIV_KIND_COMM_GROUP:
		if (ev->call == MPIV_CALL_Intercomm_create_from_groups && ev->ngroup) {
			/* no communicator: its local group and leader */
			snprintf(tail, sizeof(tail), ", leader=%d", ev->root);
			describe_group(buf, size, ev, tail);
		} else if (ev->root == MPIV_PROC_NULL) /* an intercommunicator's root group */
			snprintf(buf, size, "%s(root=MPI_PROC_NULL, comm=%s)",
				 mpiv_call_name(ev->call), comm);
		else if (mpiv_call_flags(ev->call) & MPIV_F_ROOTED)
			snprintf(buf, size, "%s(root=%d, comm=%s)", mpiv_call_name(ev->call),
				 ev->root, comm);
		else
			snprintf(buf, size, "%s(comm=%s)", mpiv_call_name(ev->call), comm);
		break;
	case MPIV_KIND_WIN_CREATE:
		snprintf(buf, size, "%s(comm=%s, win=%d)", mpiv_call_name(ev->call), comm, ev->win);
		break;
	case MPIV_KIND_WIN_POST:
	case MPIV_KIND_WIN_START:
		snprintf(tail, sizeof(tail), ", win=%d", ev->win);
		describe_group(buf, size, ev, tail);
		break;
	case MPIV_KIND_WIN_LOCK:
	case MPIV_KIND_WIN_UNLOCK:
	case MPIV_KIND_WIN_LOCAL:
		if (ev->peer == MPIV_NONE)
			snprintf(buf, size, "%s(win=%d)", mpiv_call_name(ev->call), ev->win);
		else if (ev->lock != MPIV_NONE)
			snprintf(buf, size, "%s(%s, target=%s, win=%d)", mpiv_call_name(ev->call),
				 ev->lock == MPIV_LOCK_EXCLUSIVE ? "exclusive" : "shared", peer,
				 ev->win);
		else
			snprintf(buf, size, "%s(target=%s, win=%d)", mpiv_call_name(ev->call), peer,
				 ev->win);
		break;
	case MPIV_KIND_WIN_FREE:
	case MPIV_KIND_WIN_FENCE:
	case MPIV_KIND_WIN_COMPLETE:
	case MPIV_KIND_WIN_WAIT:
		snprintf(buf, size, "%s(win=%d)", mpiv_call_name(ev->call), ev->win);
		break;
	default:
		snprintf(buf, size, "%s()", mpiv_call_name(ev->call));
	}
}

void tr_event_site(const struct mpiv_traceset *ts, int r, long e, struct mpiv_cex_site *s)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	const struct mpiv_event *ev;

	memset(s, 0, sizeof(*s));
	if (e < 0 || (size_t)e >= t->nevents)
		return;
	ev = mpiv_trace_event(t, (size_t)e);
	if (ev->site)
		mpiv_srcloc_resolve(mpiv_trace_module(t, ev->site), MPIV_SITE_ADDR(ev->site), s);
}

/* The wait-for cycle: follow waits-for edges among blocked processes from each blocked one;
 * the first cycle found is the cycle. Without one (processes wait for finished ones), every
 * blocked process's edges are listed: the knot. Edges are reported between ranks. */
static void find_cycle(const struct eng_prog *p, const int32_t *st, struct mpiv_cex *cex)
{
	int n = p->nprocs, r, k;
	int *wf = xcalloc((size_t)n * (size_t)n, sizeof(int));
	int *nwf = xcalloc((size_t)n, sizeof(int));
	int *path = xcalloc((size_t)n + 1, sizeof(int));
	int *onpath = xcalloc((size_t)n, sizeof(int));
	char *blocked = xcalloc((size_t)n, 1);

	eng_deadlocked(p, st, blocked);
	for (r = 0; r < n; r++)
		if (blocked[r])
			nwf[r] = eng_waits_for(p, st, r, &wf[r * n]);
	for (r = 0; r < n && !cex->ncycle; r++) {
		int len = 0, cur = r;

		if (!blocked[r])
			continue;
		memset(onpath, 0, (size_t)n * sizeof(int));
		/* walk the first blocked successor until a process repeats or none is left */
		while (cur >= 0 && !onpath[cur]) {
			int next = -1;

			onpath[cur] = len + 1;
			path[len++] = cur;
			for (k = 0; k < nwf[cur]; k++)
				if (blocked[wf[cur * n + k]]) {
					next = wf[cur * n + k];
					break;
				}
			cur = next;
		}
		if (cur >= 0) {
			int start = onpath[cur] - 1;

			cex->cycle = xcalloc((size_t)(len - start), sizeof(*cex->cycle));
			for (k = start; k < len; k++) {
				int from = path[k];

				cex->cycle[cex->ncycle].rank = p->proc_rank[from];
				cex->cycle[cex->ncycle].op = eng_instr_at(p, st, from)->ev;
				cex->cycle[cex->ncycle].waits_for =
					p->proc_rank[k + 1 < len ? path[k + 1] : cur];
				cex->ncycle++;
			}
		}
	}
	/* every blocked process's edges, between ranks, once each */
	{
		size_t total = 0, e;

		for (r = 0; r < n; r++)
			total += (size_t)nwf[r];
		cex->edges = xcalloc(total + 1, sizeof(*cex->edges));
		for (r = 0; r < n; r++)
			for (k = 0; k < nwf[r]; k++) {
				struct mpiv_cex_edge edge;

				edge.rank = p->proc_rank[r];
				edge.op = eng_instr_at(p, st, r)->ev;
				edge.waits_for = p->proc_rank[wf[r * n + k]];
				for (e = 0; e < cex->nedges; e++)
					if (!memcmp(&cex->edges[e], &edge, sizeof(edge)))
						break;
				if (e == cex->nedges)
					cex->edges[cex->nedges++] = edge;
			}
	}
	if (!cex->ncycle) {
		size_t total = 0;

		for (r = 0; r < n; r++)
			total += (size_t)nwf[r];
		cex->cycle = xcalloc(total + 1, sizeof(*cex->cycle));
		for (r = 0; r < n; r++)
			for (k = 0; k < nwf[r]; k++) {
				cex->cycle[cex->ncycle].rank = p->proc_rank[r];
				cex->cycle[cex->ncycle].op = eng_instr_at(p, st, r)->ev;
				cex->cycle[cex->ncycle].waits_for = p->proc_rank[wf[r * n + k]];
				cex->ncycle++;
			}
	}
	free(wf);
	free(nwf);
	free(path);
	free(onpath);
	free(blocked);
}

/* Add instruction ii of process q (one it executed, or the one it is stuck in) to rank cr's
 * operations; the instructions of one event (a post and its wait) make one operation, which
 * *last (q's last operation index, -1 for none) tracks. */
static void add_op(const struct eng_prog *p, const struct recorder *rc, int q, int ii,
		   struct mpiv_cex_rank *cr, long *last)
{
	const struct eng_instr *in = &rc->fin[q][ii];
	struct mpiv_cex_op *op;

	if (in->op == ENG_THREAD_MARK || in->op == ENG_THREAD_AFTER)
		return; /* the threads' order, not a call */
	if (*last >= 0 && (long)cr->ops[*last].op == in->ev) {
		op = &cr->ops[*last];
	} else {
		*last = (long)cr->nops;
		op = &cr->ops[cr->nops++];
		op->op = (uint32_t)in->ev;
		op->match_rank = -1;
		op->match_op = -1;
		op->sync = -1;
	}
	if (in->op == ENG_POST_RECV) {
		op->wildcard = in->a == ENG_ANY;
		op->recv_open = rc->match_proc[q][ii] < 0;
		if (rc->match_proc[q][ii] >= 0) {
			int s = rc->match_proc[q][ii];

			op->match_rank = p->proc_rank[s];
			op->match_op = rc->fin[s][rc->match_instr[q][ii]].ev;
		}
	}
	if (in->op == ENG_POST_SEND && in->d == ENG_SEND_STANDARD && in->a >= 0)
		op->sync = !eng_send_buffered(p, in);
	if ((in->op == ENG_POST_SEND || in->op == ENG_POST_RECV) && rc->cancelled[q][ii])
		op->cancelled = rc->cancelled[q][ii] & 1 ? 1 : 2;
}

/* Is process q (of rank r) stuck in a mismatched collective? */
static int in_mismatch(const struct eng_prog *p, const int32_t *st, int r,
		       const struct eng_instr *ins, const struct eng_instr *at)
{
	int i;

	if (at->op == ENG_COLL && eng_coll_mismatch(p, st, r, at))
		return 1;
	for (i = 0; at->op == ENG_WAIT && i < at->n; i++)
		if (ins[at->list[i]].op == ENG_ICOLL &&
		    eng_coll_mismatch(p, st, r, &ins[at->list[i]]))
			return 1;
	return 0;
}

/* Rank r's operations: the events of the instructions its processes executed, once each, in
 * the order the model ran them, then those they are stuck in. */
static void build_rank(const struct eng_prog *p, const struct mpiv_traceset *ts,
		       struct recorder *rc, const int32_t *st, int r, struct mpiv_cex_rank *cr,
		       int *mismatch)
{
	int first = p->rank_proc[r], last = p->rank_proc[r + 1], q, total = 0;
	int *next = xcalloc((size_t)(last - first), sizeof(int));
	long *lastop = xmalloc((size_t)(last - first) * sizeof(long));

	cr->rank = r;
	cr->blocked_op = -1;
	for (q = first; q < last; q++) {
		total += rc->ndone[q] + 1;
		lastop[q - first] = -1;
	}
	cr->ops = xcalloc((size_t)total + 1, sizeof(*cr->ops));
	/* merge the processes' executed instructions by when they ran */
	for (;;) {
		int best = -1;

		for (q = first; q < last; q++)
			if (next[q - first] < rc->ndone[q] &&
			    (best < 0 || rc->done_step[q][next[q - first]] <
						 rc->done_step[best][next[best - first]]))
				best = q;
		if (best < 0)
			break;
		add_op(p, rc, best, rc->done_order[best][next[best - first]++], cr,
		       &lastop[best - first]);
	}
	if (last - first > 1) {
		cr->threads = xcalloc((size_t)(last - first), sizeof(*cr->threads));
		cr->nthreads = (size_t)(last - first);
	}
	for (q = first; q < last; q++) {
		int pc = eng_pc(p, st, q);
		const struct eng_instr *at = &rc->fin[q][pc];
		char desc[256];

		if (cr->threads) {
			cr->threads[q - first].thread = p->proc_thread[q];
			cr->threads[q - first].blocked_op = -1;
		}
		if (at->op == ENG_STOP)
			cr->stopped = 1;
		/* a thread not started yet, or in pthread_join: in no MPI call */
		if (at->op == ENG_END || at->op == ENG_STOP || at->op == ENG_THREAD_AFTER)
			continue;
		add_op(p, rc, q, pc, cr, &lastop[q - first]);
		if (in_mismatch(p, st, r, rc->fin[q], at))
			*mismatch = 1;
		tr_describe_event(ts, r, at->ev, desc, sizeof(desc));
		if (cr->threads) {
			cr->threads[q - first].blocked_op = at->ev;
			cr->threads[q - first].blocked_desc = xstrdup(desc);
			tr_event_site(ts, r, at->ev, &cr->threads[q - first].site);
		}
		if (cr->blocked_op >= 0)
			continue;
		cr->blocked_op = at->ev;
		cr->blocked_call = xstrdup(
			mpiv_call_name(mpiv_trace_event(&ts->ranks[r], (size_t)at->ev)->call));
		cr->blocked_desc = xstrdup(desc);
		tr_event_site(ts, r, at->ev, &cr->site);
	}
	free(next);
	free(lastop);
}

int tr_cex(const struct eng_prog *prog, const struct mpiv_traceset *ts, long lead,
	   const int *choices, int n, const struct mpiv_buffering *b, struct mpiv_cex *cex,
	   struct mpiv_error *err)
{
	struct eng_prog p = *prog;
	struct eng_observer obs;
	struct recorder rc;
	int32_t *st = xcalloc(eng_state_bytes(prog), 1);
	int r, i, deadlock;

	memset(cex, 0, sizeof(*cex));
	memset(&rc, 0, sizeof(rc));
	rc.prog = prog;
	rc.ts = ts;
	rc.match_proc = xcalloc((size_t)p.nprocs, sizeof(*rc.match_proc));
	rc.match_instr = xcalloc((size_t)p.nprocs, sizeof(*rc.match_instr));
	rc.done_order = xcalloc((size_t)p.nprocs, sizeof(*rc.done_order));
	rc.done_step = xcalloc((size_t)p.nprocs, sizeof(*rc.done_step));
	rc.ndone = xcalloc((size_t)p.nprocs, sizeof(*rc.ndone));
	rc.fin = xcalloc((size_t)p.nprocs, sizeof(*rc.fin));
	rc.cancelled = xcalloc((size_t)p.nprocs, sizeof(*rc.cancelled));
	for (r = 0; r < p.nprocs; r++) {
		int most = p.nins[r];

		rc.match_proc[r] = xmalloc((size_t)most * sizeof(int32_t));
		memset(rc.match_proc[r], 0xff, (size_t)most * sizeof(int32_t));
		rc.match_instr[r] = xcalloc((size_t)most, sizeof(int32_t));
		rc.done_order[r] = xcalloc((size_t)most, sizeof(int32_t));
		rc.done_step[r] = xcalloc((size_t)most, sizeof(long));
		rc.cancelled[r] = xcalloc((size_t)most, 1);
	}
	memset(&obs, 0, sizeof(obs));
	obs.ctx = &rc;
	obs.cancelled = on_cancelled;
	obs.match = on_match;
	obs.exec = on_exec;
	p.obs = &obs;
	eng_start(&p, st);
	for (; lead > 0; lead--) {
		if (eng_nchoices(&p, st) != 1) {
			mpiv_error_set(err, MPIV_EXIT_TOOL, NULL, -1, -1,
				       "the engine's forced path "
				       "offers %d choices where it offered one",
				       eng_nchoices(&p, st));
			deadlock = -1;
			goto out;
		}
		eng_choose(&p, st, 0);
	}
	for (i = 0; i < n; i++) {
		if (choices[i] < 0 || choices[i] >= eng_nchoices(&p, st)) {
			mpiv_error_set(
				err, MPIV_EXIT_TOOL, NULL, -1, -1,
				"spin's trail takes choice %d of %d at step %d: the model and "
				"the engine disagree",
				choices[i], eng_nchoices(&p, st), i);
			deadlock = -1;
			goto out;
		}
		eng_choose(&p, st, choices[i]);
	}
	deadlock = !st[ENG_ST_OVERFLOW] && eng_nchoices(&p, st) == 0 && !eng_all_done(&p, st);
	for (r = 0; r < p.nprocs; r++)
		rc.fin[r] = p.ins[r];
	/* absolute: replay is run from anywhere, and finds the trace by this path */
	cex->trace_dir = realpath(ts->dir, NULL);
	if (!cex->trace_dir)
		cex->trace_dir = xstrdup(ts->dir);
	cex->buffering = *b;
	if (ts->meta.command) {
		size_t k, nc = 0;

		while (ts->meta.command[nc])
			nc++;
		cex->command = xcalloc(nc + 1, sizeof(char *));
		for (k = 0; k < nc; k++)
			cex->command[k] = xstrdup(ts->meta.command[k]);
	}
	if (ts->meta.cwd)
		cex->cwd = xstrdup(ts->meta.cwd);
	cex->nranks = p.nranks;
	cex->ranks = xcalloc((size_t)p.nranks, sizeof(*cex->ranks));
	for (r = 0; r < p.nranks; r++)
		build_rank(&p, ts, &rc, st, r, &cex->ranks[r], &cex->mismatch);
	{
		int q;

		switch (eng_error(&p, st, &q)) {
		case ENG_ERR_READY:
			cex->ready_send = 1 + p.proc_rank[q];
			break;
		case ENG_ERR_BSEND:
			cex->bsend_overflow = 1 + p.proc_rank[q];
			break;
		default:
			break;
		}
	}
	if (deadlock)
		find_cycle(&p, st, cex);
	cex->matches = resolve_matches(&rc);
	cex->nmatches = rc.nat;
out:
	for (r = 0; r < p.nprocs; r++) {
		free(rc.match_proc[r]);
		free(rc.match_instr[r]);
		free(rc.done_order[r]);
		free(rc.done_step[r]);
		free(rc.cancelled[r]);
	}
	free(rc.match_proc);
	free(rc.match_instr);
	free(rc.done_order);
	free(rc.done_step);
	free(rc.cancelled);
	free(rc.ndone);
	free(rc.fin);
	free(rc.at);
	free(st);
	return deadlock;
}
