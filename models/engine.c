/* The MPI-semantics engine (see engine.h for the model and the argument behind it). Included
 * into pan.c by models/mpi.pml and compiled into libmpiv.a for check's counterexamples and
 * the unit tests. State: int32 words, laid out by eng_layout():
 *   [0..ENG_ST_HEADER) overflow flag, messages in flight, choices, done, ready-send
 *                       error (engine.h),
 *   pc[nranks]          next instruction of each rank,
 *   coll[ncomms*nranks] collectives each rank has entered, per communicator,
 *   nlive[nranks]       requests each rank has posted and not yet freed,
 *   live[nranks*maxlive] those requests: (post instruction << 1) | completed, ascending,
 *   msg[maxmsg*2]       messages in flight: (dst << 16 | src), (send instruction << 1) | sync,
 *                       ascending, so that each (src, dst) channel is in FIFO order.
 * Every unused word is 0, so that equal states are equal bytes for SPIN's hashing. One-sided
 * synchronisation adds no words: whether a post, a complete or a lock happened is read off the
 * program counters. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define PC(p, st, r) ((st)[(p)->off_pc + (r)])
#define COLL(p, st, c, r) ((st)[(p)->off_coll + (c) * (p)->nranks + (r)])
#define NLIVE(p, st, r) ((st)[(p)->off_nlive + (r)])
#define LIVE(p, st, r) (&(st)[(p)->off_live + (r) * (p)->maxlive])
#define MSG(p, st) (&(st)[(p)->off_msg])

static void wenv_build(struct eng_prog *p);

/* Does a receive (source, comm, tag as in `rin`) of rank d match a send of rank s? */
static int envelope_matches(const struct eng_instr *rin, int d, const struct eng_instr *sin,
			    int s)
{
	return sin->a == d && (rin->a == ENG_ANY || rin->a == s) && rin->b == sin->b &&
	       (rin->c == ENG_ANY || rin->c == sin->c);
}

/* Count the ready sends and mark the receives that may match one ENG_RECV_LAZY. */
static void mark_lazy(struct eng_prog *p)
{
	int r, i, s, j;

	p->nready = 0;
	for (r = 0; r < p->nranks; r++)
		for (i = 0; i < p->nins[r]; i++)
			p->nready += p->ins[r][i].op == ENG_POST_SEND &&
				     p->ins[r][i].d == ENG_SEND_READY;
	for (r = 0; r < p->nranks; r++)
		for (i = 0; i < p->nins[r]; i++) {
			struct eng_instr *rin = &p->ins[r][i];

			if (rin->op != ENG_POST_RECV)
				continue;
			rin->d = 0;
			for (s = 0; p->nready && s < p->nranks && !rin->d; s++)
				for (j = 0; j < p->nins[s] && !rin->d; j++)
					if (p->ins[s][j].op == ENG_POST_SEND &&
					    p->ins[s][j].d == ENG_SEND_READY &&
					    envelope_matches(rin, r, &p->ins[s][j], s))
						rin->d = ENG_RECV_LAZY;
		}
}

void eng_layout(struct eng_prog *p)
{
	p->off_pc = ENG_ST_HEADER;
	p->off_coll = p->off_pc + p->nranks;
	p->off_nlive = p->off_coll + p->ncomms * p->nranks;
	p->off_live = p->off_nlive + p->nranks;
	p->off_msg = p->off_live + p->nranks * p->maxlive;
	p->words = p->off_msg + 2 * p->maxmsg;
	mark_lazy(p);
	wenv_build(p);
}

size_t eng_state_bytes(const struct eng_prog *p)
{
	return (size_t)p->words * sizeof(int32_t);
}

int eng_send_buffered(const struct eng_prog *p, int r, int si)
{
	const struct eng_instr *in = &p->ins[r][si];

	if (in->d == ENG_SEND_SYNC)
		return 0;
	if (in->d == ENG_SEND_BUFFERED)
		return 1;
	switch (p->buffering) {
	case ENG_BUF_INFINITE:
		return 1;
	case ENG_BUF_EAGER:
		return in->bytes <= p->eager;
	default:
		return 0;
	}
}

/* ---- requests ---- */

static int live_find(const struct eng_prog *p, const int32_t *st, int r, int instr)
{
	const int32_t *l = LIVE(p, st, r);
	int i, n = NLIVE(p, st, r);

	for (i = 0; i < n; i++)
		if ((l[i] >> 1) == instr)
			return i;
	return -1;
}

/* Posts happen in program order, so appending keeps the list ascending. */
static void live_add(const struct eng_prog *p, int32_t *st, int r, int instr, int done)
{
	int n = NLIVE(p, st, r);

	if (n >= p->maxlive) {
		st[ENG_ST_OVERFLOW] = 1;
		return;
	}
	LIVE(p, st, r)[n] = (instr << 1) | (done ? 1 : 0);
	NLIVE(p, st, r) = n + 1;
}

static void live_remove(const struct eng_prog *p, int32_t *st, int r, int i)
{
	int32_t *l = LIVE(p, st, r);
	int n = NLIVE(p, st, r);

	memmove(&l[i], &l[i + 1], (size_t)(n - i - 1) * sizeof(*l));
	l[n - 1] = 0;
	NLIVE(p, st, r) = n - 1;
}

static void live_complete(const struct eng_prog *p, int32_t *st, int r, int instr)
{
	int i = live_find(p, st, r, instr);

	if (i >= 0)
		LIVE(p, st, r)[i] |= 1;
}

/* ---- messages ---- */

static int msg_src(int32_t w) { return w & 0xffff; }

static void msg_add(const struct eng_prog *p, int32_t *st, int src, int dst, int instr, int sync)
{
	int32_t *m = MSG(p, st);
	int n = st[ENG_ST_NMSG], i;
	int32_t key = (dst << 16) | src, val = (instr << 1) | (sync ? 1 : 0);

	if (n >= p->maxmsg) {
		st[ENG_ST_OVERFLOW] = 1;
		return;
	}
	/* insert after every message that sorts before or equal to (dst, src, instr) */
	for (i = n; i > 0; i--) {
		int32_t k = m[2 * (i - 1)], v = m[2 * (i - 1) + 1];

		if (k < key || (k == key && v < val))
			break;
		m[2 * i] = k;
		m[2 * i + 1] = v;
	}
	m[2 * i] = key;
	m[2 * i + 1] = val;
	st[ENG_ST_NMSG] = n + 1;
}

static void msg_remove(const struct eng_prog *p, int32_t *st, int i)
{
	int32_t *m = MSG(p, st);
	int n = st[ENG_ST_NMSG];

	memmove(&m[2 * i], &m[2 * i + 2], (size_t)(n - i - 1) * 2 * sizeof(*m));
	m[2 * (n - 1)] = 0;
	m[2 * (n - 1) + 1] = 0;
	st[ENG_ST_NMSG] = n - 1;
}

/* Does receive instruction rin (of rank d) match the message at index i? */
static int recv_matches(const struct eng_prog *p, const int32_t *st, const struct eng_instr *rin,
			int i)
{
	const int32_t *m = MSG(p, st);
	int src = msg_src(m[2 * i]);
	const struct eng_instr *sin = &p->ins[src][m[2 * i + 1] >> 1];

	if (rin->a != ENG_ANY && rin->a != src)
		return 0;
	if (rin->b != sin->b)
		return 0;
	return rin->c == ENG_ANY || rin->c == sin->c;
}

/* The first message from src that receive rin of rank d matches (non-overtaking of
 * messages), or -1. */
static int first_match_from(const struct eng_prog *p, const int32_t *st, int d,
			    const struct eng_instr *rin, int src)
{
	const int32_t *m = MSG(p, st);
	int n = st[ENG_ST_NMSG], i;
	int32_t key = (d << 16) | src;

	for (i = 0; i < n; i++) {
		if (m[2 * i] < key)
			continue;
		if (m[2 * i] > key)
			break;
		if (recv_matches(p, st, rin, i))
			return i;
	}
	return -1;
}

/* Would an open receive of rank d posted before live entry li take message i first
 * (non-overtaking of receives)? */
static int earlier_receive_wants(const struct eng_prog *p, const int32_t *st, int d, int li,
				 int i)
{
	const int32_t *l = LIVE(p, st, d);
	int j;

	for (j = 0; j < li; j++) {
		const struct eng_instr *in = &p->ins[d][l[j] >> 1];

		if ((l[j] & 1) || in->op != ENG_POST_RECV)
			continue;
		if (recv_matches(p, st, in, i))
			return 1;
	}
	return 0;
}

/* Receive live entry li of rank d takes message i. */
static void do_match(const struct eng_prog *p, int32_t *st, int d, int li, int i)
{
	int32_t *m = MSG(p, st);
	int src = msg_src(m[2 * i]);
	int si = m[2 * i + 1] >> 1, sync = m[2 * i + 1] & 1;
	int ri = LIVE(p, st, d)[li] >> 1;

	LIVE(p, st, d)[li] |= 1;
	if (sync)
		live_complete(p, st, src, si);
	msg_remove(p, st, i);
	if (p->obs && p->obs->match)
		p->obs->match(p->obs->ctx, d, ri, src, si);
}

/* Match every open receive of rank d that names its source and whose message is there. */
static int match_deterministic(const struct eng_prog *p, int32_t *st, int d)
{
	int li, progress = 0;

	for (li = 0; li < NLIVE(p, st, d); li++) {
		int32_t e = LIVE(p, st, d)[li];
		const struct eng_instr *in = &p->ins[d][e >> 1];
		int i;

		if ((e & 1) || in->op != ENG_POST_RECV || in->a == ENG_ANY)
			continue;
		i = first_match_from(p, st, d, in, in->a);
		if (i < 0 || earlier_receive_wants(p, st, d, li, i))
			continue;
		do_match(p, st, d, li, i);
		progress = 1;
	}
	return progress;
}

/* ---- ranks ---- */

/* May rank r leave collective `in` (entered)? The members it waits for must have entered
 * the same collective (their sequence number on the communicator has reached in->c). */
static int coll_complete(const struct eng_prog *p, const int32_t *st, int r,
			 const struct eng_instr *in)
{
	const struct eng_comm *c = &p->comms[in->a];
	int rule = in->b, i;

	if (rule == ENG_COLL_MISMATCH)
		return 0;
	if (p->buffering == ENG_BUF_ZERO)
		rule = ENG_COLL_ALL;
	switch (rule) {
	case ENG_COLL_NONE:
		return 1;
	case ENG_COLL_ROOT:
		return COLL(p, st, in->a, in->d) >= in->c;
	case ENG_COLL_LOWER:
		for (i = 0; i < c->n && c->members[i] != r; i++)
			if (COLL(p, st, in->a, c->members[i]) < in->c)
				return 0;
		return 1;
	default:
		for (i = 0; i < c->n; i++)
			if (COLL(p, st, in->a, c->members[i]) < in->c)
				return 0;
		return 1;
	}
}

/* Is there a message that a receive (source a or ENG_ANY, comm b, tag c) posted now by rank r
 * would match? Messages an open receive of r would take first do not count. */
static int probe_finds(const struct eng_prog *p, const int32_t *st, int r,
		       const struct eng_instr *in)
{
	int s;

	if (in->a == ENG_PROC_NULL)
		return 1;	/* a probe of MPI_PROC_NULL returns at once, as a receive does */
	for (s = 0; s < p->nranks; s++) {
		int i;

		if (in->a != ENG_ANY && in->a != s)
			continue;
		i = first_match_from(p, st, r, in, s);
		if (i >= 0 && !earlier_receive_wants(p, st, r, NLIVE(p, st, r), i))
			return 1;
	}
	return 0;
}

/* Mark the nonblocking collectives of rank r whose rule is met; 1 if any. */
static int complete_icoll(const struct eng_prog *p, int32_t *st, int r)
{
	int li, progress = 0;

	for (li = 0; li < NLIVE(p, st, r); li++) {
		int32_t e = LIVE(p, st, r)[li];
		const struct eng_instr *in = &p->ins[r][e >> 1];

		if (!(e & 1) && in->op == ENG_ICOLL && coll_complete(p, st, r, in)) {
			LIVE(p, st, r)[li] |= 1;
			progress = 1;
		}
	}
	return progress;
}

static int live_done(const struct eng_prog *p, const int32_t *st, int r, int instr)
{
	int li = live_find(p, st, r, instr);

	return li < 0 || (LIVE(p, st, r)[li] & 1);
}

/* Free the requests list[0..n) of rank r. */
static void live_free(const struct eng_prog *p, int32_t *st, int r, const int32_t *list, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int li = live_find(p, st, r, list[i]);

		if (li >= 0)
			live_remove(p, st, r, li);
	}
}

/* Has rank in->a an open receive that rank r's send `in` matches? (A ready send may only be
 * started then.) */
static int receive_posted(const struct eng_prog *p, const int32_t *st, int r,
			  const struct eng_instr *in)
{
	int d = in->a, li;

	for (li = 0; li < NLIVE(p, st, d); li++) {
		int32_t e = LIVE(p, st, d)[li];
		const struct eng_instr *rin = &p->ins[d][e >> 1];

		if (!(e & 1) && rin->op == ENG_POST_RECV && envelope_matches(rin, d, in, r))
			return 1;
	}
	return 0;
}

/* ---- one-sided ---- */

/* Have the ranks of in's pairs (rank, instruction) all executed their instruction? */
static int win_pairs_done(const struct eng_prog *p, const int32_t *st,
			  const struct eng_instr *in)
{
	int i;

	for (i = 0; i + 1 < in->n; i += 2)
		if (in->list[i + 1] < 0 || PC(p, st, in->list[i]) <= in->list[i + 1])
			return 0;
	return 1;
}

/* The ranks holding a lock that conflicts with rank r's lock instruction in: added to out
 * (if not NULL) from n on. Returns the new n; n unchanged means the lock is free. */
static int win_lock_holders(const struct eng_prog *p, const int32_t *st, int r,
			    const struct eng_instr *in, int *out, int n)
{
	int i, j, found = n;

	for (i = 0; i < p->nlocks; i++) {
		const struct eng_lock *l = &p->locks[i];
		int pc;

		if (l->rank == r || l->comm != in->a || !(in->c || l->exclusive))
			continue;
		if (in->b != ENG_ANY && l->target != in->b)
			continue;
		pc = PC(p, st, l->rank);
		if (pc <= l->lock || pc > l->unlock)
			continue;
		if (!out)
			return n + 1;
		for (j = n; j < found && out[j] != l->rank; j++)
			;
		if (j == found)
			out[found++] = l->rank;
	}
	return found;
}

/* Execute rank r's next instruction if it can; returns 1 if it moved. */
static int step(const struct eng_prog *p, int32_t *st, int r)
{
	int pc = PC(p, st, r);
	const struct eng_instr *in = &p->ins[r][pc];
	int i, n;

	switch (in->op) {
	case ENG_POST_SEND:
		if (in->d == ENG_SEND_READY && in->a != ENG_PROC_NULL &&
		    !receive_posted(p, st, r, in)) {
			st[ENG_ST_READY] = 1 + r;	/* erroneous: the search ends here */
			return 0;
		}
		if (in->a == ENG_PROC_NULL) {
			live_add(p, st, r, pc, 1);
		} else {
			int buffered = eng_send_buffered(p, r, pc);

			msg_add(p, st, r, in->a, pc, !buffered);
			live_add(p, st, r, pc, buffered);
		}
		break;
	case ENG_POST_RECV:
		if (in->d == ENG_RECV_LAZY)
			return 0;	/* posted as a choice (walk_choices) */
		live_add(p, st, r, pc, in->a == ENG_PROC_NULL);
		break;
	case ENG_WAIT:
	case ENG_WAITANY:
		/* the requests the trace completed here; ENG_WAITANY's others stay */
		n = in->op == ENG_WAIT ? in->n : in->d;
		for (i = 0; i < n; i++)
			if (!live_done(p, st, r, in->list[i]))
				return 0;
		live_free(p, st, r, in->list, n);
		break;
	case ENG_COLL:
		if (COLL(p, st, in->a, r) < in->c)
			COLL(p, st, in->a, r) = in->c;	/* entering is a step of its own */
		if (!coll_complete(p, st, r, in))
			return 0;
		break;
	case ENG_ICOLL:
		COLL(p, st, in->a, r) = in->c;
		live_add(p, st, r, pc, 0);
		complete_icoll(p, st, r);
		break;
	case ENG_PROBE:
		if (!probe_finds(p, st, r, in))
			return 0;
		break;
	case ENG_WIN_POST:
	case ENG_WIN_UNLOCK:
		break;
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
		if (!win_pairs_done(p, st, in))
			return 0;
		break;
	case ENG_WIN_LOCK:
		/* a contended lock goes to whoever SPIN chooses (walk_choices) */
		if (in->d || win_lock_holders(p, st, r, in, NULL, 0))
			return 0;
		break;
	default:		/* ENG_END */
		return 0;
	}
	if (p->obs && p->obs->exec)
		p->obs->exec(p->obs->ctx, r, pc);
	PC(p, st, r) = pc + 1;
	return 1;
}

/* Run every deterministic step until none is left (quiescence). */
static void closure(const struct eng_prog *p, int32_t *st)
{
	int progress = 1, r;

	while (progress && !st[ENG_ST_OVERFLOW] && !st[ENG_ST_READY]) {
		progress = 0;
		for (r = 0; r < p->nranks; r++) {
			while (step(p, st, r))
				progress = 1;
			if (match_deterministic(p, st, r))
				progress = 1;
		}
		/* a collective entered by a later rank may release an earlier one */
		for (r = 0; r < p->nranks; r++) {
			const struct eng_instr *in = &p->ins[r][PC(p, st, r)];

			if (complete_icoll(p, st, r))
				progress = 1;
			if (!progress && in->op == ENG_COLL && COLL(p, st, in->a, r) >= in->c &&
			    coll_complete(p, st, r, in))
				progress = 1;
		}
	}
}

/* ---- the wildcard reduction: interchangeable receives ----
 *
 * Master/worker codes receive every result with MPI_ANY_SOURCE in a row; offering every
 * candidate at every receive makes the search visit every combination of how many results of
 * each worker were taken ((results + 1) ^ workers states), although the order cannot matter.
 * When rank d waits for all its open receives, these are MPI_ANY_SOURCE receives of one
 * envelope (communicator, tag), and the receives that follow are more of the same in a row
 * (post, then wait for it alone), and no more messages can still reach d with that envelope
 * than those receives take (M <= n: sent and unreceived, plus the sends no rank has posted
 * yet), then d takes every one of those M messages before it does anything else. Taking the
 * first candidate m first is then enough: any behaviour that takes another message first
 * takes m later in the run, at an identical receive, and moving m to the front keeps every
 * other match legal (only d consumes these messages, each sender's messages keep their
 * order, and what m's sender does earlier only enables steps: closure steps are monotone)
 * and reaches the same state. Every end state, deadlocked or not, stays reachable, so this
 * single choice is offered alone, whatever other ranks could choose (a persistent set of
 * size one; Godefroid, "Partial-Order Methods for the Verification of Concurrent Systems",
 * LNCS 1032, 1996). */

#define WENV_MAX 64		/* envelopes with tables; receives of others are searched in full */
#define WENV_CELLS (1 << 22)	/* table entries at most, all envelopes together (16 MiB) */

static int send_matches(const struct eng_instr *in, int d, int comm, int tag)
{
	return in->op == ENG_POST_SEND && in->a == d && in->b == comm &&
	       (tag == ENG_ANY || in->c == tag);
}

static int is_wildcard_pair(const struct eng_prog *p, int d, int i, int comm, int tag)
{
	const struct eng_instr *in = &p->ins[d][i], *w;

	if (i + 1 >= p->nins[d] || in->op != ENG_POST_RECV || in->a != ENG_ANY ||
	    in->b != comm || in->c != tag)
		return 0;
	w = &p->ins[d][i + 1];
	return w->op == ENG_WAIT && w->n == 1 && w->list[0] == i;
}

static void wenv_release(struct eng_prog *p)
{
	int e, s;

	for (e = 0; e < p->nwenv; e++) {
		for (s = 0; p->wenv[e].future && s < p->nranks; s++)
			free(p->wenv[e].future[s]);
		free(p->wenv[e].future);
		free(p->wenv[e].run);
	}
	free(p->wenv);
	p->wenv = NULL;
	p->nwenv = 0;
}

static const struct eng_wenv *wenv_find(const struct eng_prog *p, int d, int comm, int tag)
{
	int e;

	for (e = 0; e < p->nwenv; e++)
		if (p->wenv[e].d == d && p->wenv[e].comm == comm && p->wenv[e].tag == tag)
			return &p->wenv[e];
	return NULL;
}

/* Fill one envelope's tables; returns the entries used, or -1 without memory. */
static long wenv_fill(const struct eng_prog *p, struct eng_wenv *e)
{
	int d = e->d, s, i;
	long cells = p->nins[d] + 2;

	e->run = calloc((size_t)p->nins[d] + 2, sizeof(*e->run));
	e->future = calloc((size_t)p->nranks, sizeof(*e->future));
	if (!e->run || !e->future)
		return -1;
	for (i = p->nins[d] - 1; i >= 0; i--)
		e->run[i] = is_wildcard_pair(p, d, i, e->comm, e->tag) ? 1 + e->run[i + 2] : 0;
	for (s = 0; s < p->nranks; s++) {
		int any = 0;

		for (i = 0; i < p->nins[s] && !any; i++)
			any = send_matches(&p->ins[s][i], d, e->comm, e->tag);
		if (!any)
			continue;
		e->future[s] = calloc((size_t)p->nins[s] + 1, sizeof(**e->future));
		if (!e->future[s])
			return -1;
		for (i = p->nins[s] - 1; i >= 0; i--)
			e->future[s][i] = e->future[s][i + 1] +
					  send_matches(&p->ins[s][i], d, e->comm, e->tag);
		cells += p->nins[s] + 1;
	}
	return cells;
}

/* Tables for the envelopes of the program's MPI_ANY_SOURCE receives, as many as the limits
 * allow; without memory there are none (the search is then complete, only larger). */
static void wenv_build(struct eng_prog *p)
{
	long cells = 0;
	int d, i;

	wenv_release(p);
	for (d = 0; d < p->nranks; d++) {
		for (i = 0; i < p->nins[d]; i++) {
			const struct eng_instr *in = &p->ins[d][i];
			struct eng_wenv *e, *grown;
			long used;

			if (in->op != ENG_POST_RECV || in->a != ENG_ANY ||
			    wenv_find(p, d, in->b, in->c) || p->nwenv >= WENV_MAX ||
			    cells >= WENV_CELLS)
				continue;
			grown = realloc(p->wenv, (size_t)(p->nwenv + 1) * sizeof(*p->wenv));
			if (!grown) {
				wenv_release(p);
				return;
			}
			p->wenv = grown;
			e = &p->wenv[p->nwenv++];
			memset(e, 0, sizeof(*e));
			e->d = d;
			e->comm = in->b;
			e->tag = in->c;
			used = wenv_fill(p, e);
			if (used < 0) {
				wenv_release(p);
				return;
			}
			cells += used;
		}
	}
}

static int in_list(const struct eng_instr *w, int instr)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (w->list[i] == instr)
			return 1;
	return 0;
}

/* If rank d's wildcard receives are interchangeable (above), the live index of the one to
 * match now (its earliest open receive); else -1. */
static int wenv_single(const struct eng_prog *p, const int32_t *st, int d)
{
	const struct eng_instr *w = &p->ins[d][PC(p, st, d)];
	const struct eng_wenv *e = NULL;
	const int32_t *m = MSG(p, st);
	int li, first = -1, n = 0, left = 0, s, i;

	if (w->op != ENG_WAIT)
		return -1;
	for (li = 0; li < NLIVE(p, st, d); li++) {
		int32_t ent = LIVE(p, st, d)[li];
		const struct eng_instr *in = &p->ins[d][ent >> 1];

		if ((ent & 1) || in->op != ENG_POST_RECV)
			continue;
		if (in->a != ENG_ANY || !in_list(w, ent >> 1))
			return -1;
		if (!e) {
			e = wenv_find(p, d, in->b, in->c);
			first = li;
			if (!e)
				return -1;
		} else if (in->b != e->comm || in->c != e->tag) {
			return -1;
		}
		n++;
	}
	if (!e)
		return -1;
	n += e->run[PC(p, st, d) + 1];
	for (i = 0; i < st[ENG_ST_NMSG]; i++)
		if ((m[2 * i] >> 16) == d &&
		    send_matches(&p->ins[msg_src(m[2 * i])][m[2 * i + 1] >> 1], d, e->comm, e->tag))
			left++;
	for (s = 0; s < p->nranks; s++)
		if (e->future[s])
			left += e->future[s][PC(p, st, s)];
	return left <= n ? first : -1;
}

static int walk_choices(const struct eng_prog *p, const int32_t *st, int k, int *d_out,
			int *li_out, int *i_out);

/* Quiescent again: refresh the header words the model reads. */
static void settle(const struct eng_prog *p, int32_t *st)
{
	closure(p, st);
	st[ENG_ST_NCHOICES] = walk_choices(p, st, -1, NULL, NULL, NULL);
	st[ENG_ST_DONE] = eng_all_done(p, st);
}

void eng_start(const struct eng_prog *p, int32_t *st)
{
	memset(st, 0, eng_state_bytes(p));
	settle(p, st);
}

/* Is rank d's next instruction taken as a choice rather than as a deterministic step? */
static int step_is_choice(const struct eng_prog *p, const int32_t *st, int d)
{
	const struct eng_instr *in = &p->ins[d][PC(p, st, d)];

	if (in->op == ENG_POST_RECV)
		return in->d == ENG_RECV_LAZY;
	return in->op == ENG_WIN_LOCK && in->d && !win_lock_holders(p, st, d, in, NULL, 0);
}

/* Walk the choices in canonical order; stop at the k-th (k < 0: count them all). */
static int walk_choices(const struct eng_prog *p, const int32_t *st, int k, int *d_out,
			int *li_out, int *i_out)
{
	int d, li, s, n = 0;

	if (st[ENG_ST_OVERFLOW] || st[ENG_ST_READY])
		return 0;
	/* interchangeable wildcard receives: their first candidate is the only choice (not
	 * with ready sends, whose check depends on when receives are posted) */
	for (d = 0; d < p->nranks && !p->full && !p->nready; d++) {
		li = wenv_single(p, st, d);
		if (li < 0)
			continue;
		for (s = 0; s < p->nranks; s++) {
			int i = first_match_from(p, st, d, &p->ins[d][LIVE(p, st, d)[li] >> 1], s);

			if (i < 0 || earlier_receive_wants(p, st, d, li, i))
				continue;
			if (k == 0) {
				*d_out = d;
				*li_out = li;
				*i_out = i;
				return 0;
			}
			return 1;
		}
	}
	for (d = 0; d < p->nranks; d++) {
		for (li = 0; li < NLIVE(p, st, d); li++) {
			int32_t e = LIVE(p, st, d)[li];
			const struct eng_instr *in = &p->ins[d][e >> 1];

			if ((e & 1) || in->op != ENG_POST_RECV || in->a != ENG_ANY)
				continue;
			for (s = 0; s < p->nranks; s++) {
				int i = first_match_from(p, st, d, in, s);

				if (i < 0 || earlier_receive_wants(p, st, d, li, i))
					continue;
				if (n == k) {
					*d_out = d;
					*li_out = li;
					*i_out = i;
					return n;
				}
				n++;
			}
		}
	}
	/* ranks whose next step is itself a choice: a receive that may match a ready send
	 * (posted in every order), a contended lock that is free now (who takes it first) */
	for (d = 0; d < p->nranks; d++) {
		if (!step_is_choice(p, st, d))
			continue;
		if (n == k) {
			*d_out = d;
			*li_out = -1;
			*i_out = -1;
			return n;
		}
		n++;
	}
	return n;
}

int eng_nchoices(const struct eng_prog *p, const int32_t *st)
{
	return walk_choices(p, st, -1, NULL, NULL, NULL);
}

void eng_choice(const struct eng_prog *p, const int32_t *st, int k, int *d, int *ri, int *s,
		int *si)
{
	int li = -1, i = -1, dd = -1;
	const int32_t *m = MSG(p, st);

	walk_choices(p, st, k, &dd, &li, &i);
	*d = dd;
	if (dd >= 0 && li < 0) {	/* a lazy receive post, or a lock grant */
		*ri = PC(p, st, dd);
		*s = -1;
		*si = -1;
		return;
	}
	*ri = dd >= 0 ? LIVE(p, st, dd)[li] >> 1 : -1;
	*s = dd >= 0 ? msg_src(m[2 * i]) : -1;
	*si = dd >= 0 ? m[2 * i + 1] >> 1 : -1;
}

void eng_choose(const struct eng_prog *p, int32_t *st, int k)
{
	int d = -1, li = -1, i = -1;

	walk_choices(p, st, k, &d, &li, &i);
	if (d < 0)
		return;
	if (li < 0) {		/* rank d posts its lazy receive, or acquires its lock */
		int pc = PC(p, st, d);

		if (p->ins[d][pc].op == ENG_POST_RECV)
			live_add(p, st, d, pc, 0);
		if (p->obs && p->obs->exec)
			p->obs->exec(p->obs->ctx, d, pc);
		PC(p, st, d) = pc + 1;
	} else {
		do_match(p, st, d, li, i);
	}
	settle(p, st);
}

int eng_left_path(const struct eng_prog *p, const int32_t *st, int r)
{
	const struct eng_instr *in = &p->ins[r][PC(p, st, r)];
	int i;

	if (in->op != ENG_WAITANY)
		return 0;
	for (i = in->d; i < in->n; i++)
		if (live_done(p, st, r, in->list[i]))
			return 1;
	return 0;
}

int eng_all_done(const struct eng_prog *p, const int32_t *st)
{
	int r, x, changed = 1, nblocked = 0;
	char *free_ = calloc((size_t)p->nranks, 1);	/* finished, or may still move */
	int *wf = malloc((size_t)p->nranks * sizeof(int));

	if (!free_ || !wf || st[ENG_ST_READY]) {
		free(free_);
		free(wf);
		return 0;	/* no verdict without memory: treated as stuck, never as fine */
	}
	for (r = 0; r < p->nranks; r++)
		free_[r] = p->ins[r][PC(p, st, r)].op == ENG_END || eng_left_path(p, st, r);
	/* a rank waiting for a rank that left the recorded path may yet be released by it */
	while (changed) {
		changed = 0;
		for (r = 0; r < p->nranks; r++) {
			int n;

			if (free_[r])
				continue;
			n = eng_waits_for(p, st, r, wf);
			for (x = 0; x < n; x++)
				if (free_[wf[x]] && p->ins[wf[x]][PC(p, st, wf[x])].op != ENG_END) {
					free_[r] = 1;
					changed = 1;
					break;
				}
		}
	}
	for (r = 0; r < p->nranks; r++)
		nblocked += !free_[r];
	free(free_);
	free(wf);
	return nblocked == 0;
}

int eng_pc(const struct eng_prog *p, const int32_t *st, int r)
{
	return PC(p, st, r);
}

int eng_unreceived(const struct eng_prog *p, const int32_t *st)
{
	return st[ENG_ST_NMSG];
}

void eng_message(const struct eng_prog *p, const int32_t *st, int i, int *src, int *si,
		 int *dst)
{
	const int32_t *m = MSG(p, st);

	*src = msg_src(m[2 * i]);
	*dst = m[2 * i] >> 16;
	*si = m[2 * i + 1] >> 1;
}

static int add_unique(int *out, int n, int r)
{
	int i;

	for (i = 0; i < n; i++)
		if (out[i] == r)
			return n;
	out[n] = r;
	return n + 1;
}

/* The members a collective (entered or not) still waits for under its rule. */
static int coll_waits_for(const struct eng_prog *p, const int32_t *st, int r,
			  const struct eng_instr *in, int *out, int n)
{
	const struct eng_comm *c = &p->comms[in->a];
	int rule = in->b == ENG_COLL_MISMATCH ? ENG_COLL_ALL : in->b, i;

	if (p->buffering == ENG_BUF_ZERO)
		rule = ENG_COLL_ALL;
	if (rule == ENG_COLL_ROOT)
		return COLL(p, st, in->a, in->d) < in->c ? add_unique(out, n, in->d) : n;
	if (rule == ENG_COLL_NONE)
		return n;
	for (i = 0; i < c->n; i++) {
		if (rule == ENG_COLL_LOWER && c->members[i] == r)
			break;
		if (COLL(p, st, in->a, c->members[i]) < in->c || in->b == ENG_COLL_MISMATCH)
			if (c->members[i] != r)
				n = add_unique(out, n, c->members[i]);
	}
	return n;
}

/* Every rank that has not finished, but r: whom a wildcard waits for. */
static int anyone(const struct eng_prog *p, const int32_t *st, int r, int *out, int n)
{
	int x;

	for (x = 0; x < p->nranks; x++)
		if (x != r && p->ins[x][PC(p, st, x)].op != ENG_END)
			n = add_unique(out, n, x);
	return n;
}

int eng_waits_for(const struct eng_prog *p, const int32_t *st, int r, int *out)
{
	const struct eng_instr *in = &p->ins[r][PC(p, st, r)];
	int n = 0, i, count;

	switch (in->op) {
	case ENG_COLL:
		return coll_waits_for(p, st, r, in, out, 0);
	case ENG_PROBE:
		return in->a == ENG_ANY ? anyone(p, st, r, out, 0) :
		       in->a >= 0 ? add_unique(out, 0, in->a) : 0;
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
		for (i = 0; i + 1 < in->n; i += 2)
			if (in->list[i + 1] < 0 || PC(p, st, in->list[i]) <= in->list[i + 1])
				n = in->list[i] != r ? add_unique(out, n, in->list[i]) : n;
		return n;
	case ENG_WIN_LOCK:
		return win_lock_holders(p, st, r, in, out, 0);
	case ENG_WAIT:
	case ENG_WAITANY:
		break;
	default:
		return 0;
	}
	count = in->op == ENG_WAIT ? in->n : in->d;
	for (i = 0; i < count; i++) {
		const struct eng_instr *post = &p->ins[r][in->list[i]];

		if (live_done(p, st, r, in->list[i]))
			continue;
		if (post->op == ENG_ICOLL)
			n = coll_waits_for(p, st, r, post, out, n);
		else if (post->a == ENG_ANY)
			n = anyone(p, st, r, out, n);
		else if (post->a >= 0)
			n = add_unique(out, n, post->a);
	}
	return n;
}

/* ---- model.dat ---- */

int eng_prog_write(const struct eng_prog *p, FILE *f)
{
	int r, i, j;

	fprintf(f, "%s %d\n", ENG_FORMAT, ENG_VERSION);
	fprintf(f, "nranks %d ncomms %d maxlive %d maxmsg %d buffering %d eager %lld\n",
		p->nranks, p->ncomms, p->maxlive, p->maxmsg, p->buffering, (long long)p->eager);
	for (i = 0; i < p->ncomms; i++) {
		fprintf(f, "comm %d %d", i, p->comms[i].n);
		for (j = 0; j < p->comms[i].n; j++)
			fprintf(f, " %d", p->comms[i].members[j]);
		fputc('\n', f);
	}
	for (r = 0; r < p->nranks; r++) {
		fprintf(f, "rank %d %d\n", r, p->nins[r]);
		for (i = 0; i < p->nins[r]; i++) {
			const struct eng_instr *in = &p->ins[r][i];

			fprintf(f, "%d %d %d %d %d %d %lld %d", in->op, in->ev, in->a, in->b, in->c,
				in->d, (long long)in->bytes, in->n);
			for (j = 0; j < in->n; j++)
				fprintf(f, " %d", in->list[j]);
			fputc('\n', f);
		}
	}
	fprintf(f, "locks %d\n", p->nlocks);
	for (i = 0; i < p->nlocks; i++) {
		const struct eng_lock *l = &p->locks[i];

		fprintf(f, "%d %d %d %d %d %d\n", l->rank, l->comm, l->target, l->lock, l->unlock,
			l->exclusive);
	}
	return ferror(f) ? -1 : 0;
}

static int bad(char *msg, size_t size, const char *what)
{
	snprintf(msg, size, "malformed model data: %s", what);
	return -1;
}

/* The most state words a program may need: its state must stay addressable by int32 and
 * small enough for pan to store (a gigabyte). */
#define ENG_MAX_WORDS (1L << 28)

/* Grow *arr (of *cap elements of size bytes) to hold n, doubling: an array is only as large
 * as what the file has delivered so far, whatever count it announced. Returns 0, or -1 out of
 * memory. */
static int grow(void **arr, int32_t *cap, int32_t n, size_t size)
{
	int64_t c = *cap ? *cap : 8;
	void *q;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	q = realloc(*arr, (size_t)c * size);
	if (!q)
		return -1;
	memset((char *)q + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
	*arr = q;
	*cap = (int32_t)c;
	return 0;
}

/* A peer operand: a rank, or what the instruction allows besides. */
static int is_peer(const struct eng_prog *p, int32_t a, int any, int proc_null)
{
	return (a >= 0 && a < p->nranks) || (any && a == ENG_ANY) ||
	       (proc_null && a == ENG_PROC_NULL);
}

/* Whether every operand of instruction i of a rank whose instructions are ins is one the
 * engine can use: ranks, tags, communicators and modes in range, wait lists naming earlier
 * instructions that post a request. */
static int instr_ok(const struct eng_prog *p, const struct eng_instr *ins, int i)
{
	const struct eng_instr *in = &ins[i];
	int j, op;

	if (in->ev < 0)
		return 0;
	switch (in->op) {
	case ENG_POST_SEND:
		return is_peer(p, in->a, 0, 1) && in->b >= 0 && in->b < p->ncomms && in->c >= 0 &&
		       in->d >= ENG_SEND_STANDARD && in->d <= ENG_SEND_READY && in->n == 0;
	case ENG_POST_RECV:
	case ENG_PROBE:
		return is_peer(p, in->a, 1, 1) && in->b >= 0 && in->b < p->ncomms &&
		       (in->c >= 0 || in->c == ENG_ANY) && in->n == 0;
	case ENG_WAIT:
	case ENG_WAITANY:
		if (in->op == ENG_WAITANY && (in->d < 0 || in->d > in->n))
			return 0;
		for (j = 0; j < in->n; j++) {
			if (in->list[j] < 0 || in->list[j] >= i)
				return 0;
			op = ins[in->list[j]].op;
			if (op != ENG_POST_SEND && op != ENG_POST_RECV && op != ENG_ICOLL)
				return 0;
		}
		return 1;
	case ENG_COLL:
	case ENG_ICOLL:
		return in->a >= 0 && in->a < p->ncomms && in->b >= ENG_COLL_ALL &&
		       in->b <= ENG_COLL_MISMATCH && in->c >= 1 && in->d >= 0 &&
		       in->d < p->nranks && in->n == 0;
	case ENG_END:
		return in->n == 0;
	case ENG_WIN_POST:
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
	case ENG_WIN_LOCK:
	case ENG_WIN_UNLOCK:
		/* window pairs: (rank, its instruction or -1) */
		if (in->a < 0 || in->a >= p->ncomms || (in->n & 1))
			return 0;
		for (j = 0; j < in->n; j++)
			if (j & 1 ? in->list[j] < -1 : !is_peer(p, in->list[j], 0, 0))
				return 0;
		if (in->op == ENG_WIN_LOCK || in->op == ENG_WIN_UNLOCK)
			return is_peer(p, in->b, 1, 0) && (in->op == ENG_WIN_UNLOCK ||
			       ((in->c == 0 || in->c == 1) && (in->d == 0 || in->d == 1)));
		return 1;
	default:
		return 0;
	}
}

int eng_prog_read(struct eng_prog *p, FILE *f, char *msg, size_t size)
{
	char fmt[32];
	int version, r, i, j, id, n;
	int32_t ccap = 0, icap, lcap = 0, ncomms;
	long long eager;
	int64_t words;

	memset(p, 0, sizeof(*p));
	if (fscanf(f, "%31s %d", fmt, &version) != 2 || strcmp(fmt, ENG_FORMAT) ||
	    version != ENG_VERSION)
		return bad(msg, size, "header");
	if (fscanf(f, " nranks %d ncomms %d maxlive %d maxmsg %d buffering %d eager %lld",
		   &p->nranks, &ncomms, &p->maxlive, &p->maxmsg, &p->buffering, &eager) != 6 ||
	    p->nranks <= 0 || p->nranks > 0x7fff || ncomms <= 0 || p->maxlive < 1 ||
	    p->maxmsg < 1 || p->buffering < ENG_BUF_ZERO || p->buffering > ENG_BUF_EAGER)
		return bad(msg, size, "sizes");
	/* eng_layout's sums, in 64 bits: they must fit the state */
	words = ENG_ST_HEADER + (int64_t)p->nranks * (2 + ncomms + p->maxlive) +
		2 * (int64_t)p->maxmsg;
	if (words > ENG_MAX_WORDS)
		return bad(msg, size, "a state larger than the engine allows");
	p->eager = eager;
	p->nins = calloc((size_t)p->nranks, sizeof(*p->nins));
	p->ins = calloc((size_t)p->nranks, sizeof(*p->ins));
	if (!p->nins || !p->ins)
		return bad(msg, size, "out of memory");
	for (i = 0; i < ncomms; i++) {
		if (fscanf(f, " comm %d %d", &id, &n) != 2 || id != i || n < 0 || n > p->nranks)
			return bad(msg, size, "comm");
		if (grow((void **)&p->comms, &ccap, i + 1, sizeof(*p->comms)))
			return bad(msg, size, "out of memory");
		p->ncomms = i + 1;
		p->comms[i].members = calloc((size_t)n + 1, sizeof(int32_t));
		if (!p->comms[i].members)
			return bad(msg, size, "out of memory");
		p->comms[i].n = n;
		for (j = 0; j < n; j++)
			if (fscanf(f, "%d", &p->comms[i].members[j]) != 1 ||
			    p->comms[i].members[j] < 0 || p->comms[i].members[j] >= p->nranks)
				return bad(msg, size, "comm member");
	}
	for (r = 0; r < p->nranks; r++) {
		/* instruction indices are shifted left by one in the state */
		if (fscanf(f, " rank %d %d", &id, &n) != 2 || id != r || n < 1 || n >= 1 << 30)
			return bad(msg, size, "rank");
		icap = 0;
		for (i = 0; i < n; i++) {
			struct eng_instr *in;
			long long bytes;
			int32_t listcap = 0;

			if (grow((void **)&p->ins[r], &icap, i + 1, sizeof(struct eng_instr)))
				return bad(msg, size, "out of memory");
			p->nins[r] = i + 1;
			in = &p->ins[r][i];
			if (fscanf(f, "%d %d %d %d %d %d %lld %d", &in->op, &in->ev, &in->a, &in->b,
				   &in->c, &in->d, &bytes, &in->n) != 8 || in->n < 0)
				return bad(msg, size, "instruction");
			in->bytes = bytes;
			for (j = 0; j < in->n; j++) {
				if (grow((void **)&in->list, &listcap, j + 1, sizeof(int32_t)))
					return bad(msg, size, "out of memory");
				if (fscanf(f, "%d", &in->list[j]) != 1) {
					in->n = j;	/* what eng_prog_release frees is there */
					return bad(msg, size, "wait list");
				}
			}
			if (!instr_ok(p, p->ins[r], i))
				return bad(msg, size, "instruction");
		}
		if (p->ins[r][n - 1].op != ENG_END)
			return bad(msg, size, "program without an end");
	}
	if (fscanf(f, " locks %d", &n) != 1 || n < 0)
		return bad(msg, size, "locks");
	for (i = 0; i < n; i++) {
		struct eng_lock *l;

		if (grow((void **)&p->locks, &lcap, i + 1, sizeof(*p->locks)))
			return bad(msg, size, "out of memory");
		p->nlocks = i + 1;
		l = &p->locks[i];
		if (fscanf(f, "%d %d %d %d %d %d", &l->rank, &l->comm, &l->target, &l->lock,
			   &l->unlock, &l->exclusive) != 6 || l->rank < 0 || l->rank >= p->nranks ||
		    l->comm < 0 || l->comm >= p->ncomms || l->target < 0 ||
		    l->target >= p->nranks || l->lock < 0 || l->lock >= p->nins[l->rank] ||
		    l->unlock <= l->lock || (l->exclusive != 0 && l->exclusive != 1))
			return bad(msg, size, "lock");
	}
	eng_layout(p);
	return 0;
}

void eng_prog_release(struct eng_prog *p)
{
	int r, i;

	for (r = 0; p->ins && r < p->nranks; r++) {
		for (i = 0; p->ins[r] && i < p->nins[r]; i++)
			free(p->ins[r][i].list);
		free(p->ins[r]);
	}
	wenv_release(p);
	for (i = 0; p->comms && i < p->ncomms; i++)
		free(p->comms[i].members);
	free(p->ins);
	free(p->nins);
	free(p->comms);
	free(p->locks);
	memset(p, 0, sizeof(*p));
}
