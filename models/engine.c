/* The MPI-semantics engine (see engine.h for the model and the argument behind it). Included
 * into pan.c by models/mpi.pml and compiled into libmpiv.a for check's counterexamples and
 * the unit tests. State: int32 words, laid out by eng_layout():
 *   [0..ENG_ST_HEADER) overflow flag, messages in flight, choices, done, erroneous process
 *                       (engine.h),
 *   pc[nprocs]          next instruction of each process,
 *   coll[ncomms*nranks] collectives each rank has entered, per communicator,
 *   nlive[nprocs]       requests each process has posted and not yet freed,
 *   live[nprocs*maxlive] those requests: (post instruction << 1) | completed, in the order
 *                       they were posted (ascending, but in verify's graphs),
 *   linfo[nprocs*maxlive*ENG_LIVE_WORDS] verify: per live request, the peer a post that
 *                       follows an input was posted with (else 0), and what a receive took
 *                       when it matched (source, tag, what the message carried): its input,
 *                       which becomes the program's when the request completes,
 *   buf[nbuf]           each rank's attached buffer size (only if the program attaches one
 *                       or makes buffered sends),
 *   reg[nprocs*nregs*ENG_REG_WORDS] verify: the input registers,
 *   msg[maxmsg*2]       messages in flight: (dst rank << 16 | src process), (send instruction
 *                       << 1) | sync, ascending, so that each (src process, dst rank) channel
 *                       is in FIFO order: messages of one thread do not overtake each other,
 *                       those of different threads of a rank are not ordered (MPI-4.1 3.5).
 * Every unused word is 0, so that equal states are equal bytes for SPIN's hashing. One-sided
 * synchronisation adds no words: whether a post, a complete or a lock happened is read off the
 * program counters. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define PC(p, st, q) ((st)[(p)->off_pc + (q)])
#define COLL(p, st, c, r) ((st)[(p)->off_coll + (c) * (p)->nranks + (r)])
#define NLIVE(p, st, q) ((st)[(p)->off_nlive + (q)])
#define LIVE(p, st, q) (&(st)[(p)->off_live + (q) * (p)->maxlive])
/* verify: live request li of process q's words (linfo, above) */
#define ENG_LIVE_WORDS 4
#define LINFO(p, st, q, li) (&(st)[(p)->off_lsrc + ((q) * (p)->maxlive + (li)) * ENG_LIVE_WORDS])
#define BUF(p, st, r) ((st)[(p)->off_buf + (r)])
#define MSG(p, st) (&(st)[(p)->off_msg])
#define RANK(p, q) ((p)->proc_rank[q])
/* Process q's instructions. */
#define CUR(p, st, q) ((p)->ins[q])
/* Input register r of process q: ENG_REG_WORDS words, the source, the tag, the send's site,
 * the request (engine.h, ENG_IN_*). */
#define REG(p, st, q, r) (&(st)[(p)->off_reg + ((q) * (p)->nregs + (r)) * ENG_REG_WORDS])
/* the processes of rank r: for (q = FIRST(p, r); q < LAST(p, r); q++) */
#define FIRST(p, r) ((p)->rank_proc[r])
#define LAST(p, r) ((p)->rank_proc[(r) + 1])

static void wenv_build(struct eng_prog *p);

/* Does a receive (source, comm, tag as in `rin`) of rank d match a send of rank s? */
static int envelope_matches(const struct eng_instr *rin, int d, const struct eng_instr *sin, int s)
{
	return sin->a == d && (rin->a == ENG_ANY || rin->a == s) && rin->b == sin->b &&
	       (rin->c == ENG_ANY || rin->c == sin->c);
}

/* Does a ready send of any process match receive rin of rank d? (One whose destination or
 * source follows an input may match whatever the input.) */
static int any_ready_match(const struct eng_prog *p, const struct eng_instr *rin, int d)
{
	int s, j;

	for (s = 0; s < p->nprocs; s++)
		for (j = 0; j < p->nins[s]; j++) {
			const struct eng_instr *in = &p->ins[s][j];

			if (in->op == ENG_POST_SEND && in->d == ENG_SEND_READY &&
			    ((in->sym & ENG_IN_SOURCE) || (rin->sym & ENG_IN_SOURCE) ||
			     envelope_matches(rin, d, in, RANK(p, s))))
				return 1;
		}
	return 0;
}

/* What eng_layout needs to know of every instruction, in one pass over the program (which may
 * hold millions): the ready sends, whether a receive is marked (lazy), whether the program
 * attaches a buffer or makes buffered sends (then every rank has a buffer size in the state,
 * and a buffered send that does not fit is an error), its nonblocking collectives, its
 * MPI_ANY_SOURCE receives, its contended window locks and its cancels (each cancelled post
 * gets the instruction of its ENG_CANCEL). */
static void scan_program(struct eng_prog *p, int *lazy, int *buffer)
{
	int q, i;

	p->nready = 0;
	p->ncoll = 0;
	p->nwinops = 0;
	p->nicoll = 0;
	p->nwild = 0;
	p->ncontended = 0;
	p->ncancel = 0;
	*lazy = *buffer = 0;
	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];

			switch (in->op) {
			case ENG_POST_SEND:
				p->nready += in->d == ENG_SEND_READY;
				*buffer |= in->d == ENG_SEND_BUFFERED && in->a != ENG_PROC_NULL;
				break;
			case ENG_POST_RECV:
				*lazy |= in->d != 0;
				p->nwild += in->a == ENG_ANY;
				break;
			case ENG_BUF_ATTACH:
				*buffer = 1;
				break;
			case ENG_COLL:
				p->ncoll++;
				break;
			case ENG_ICOLL:
				p->nicoll++;
				break;
			case ENG_WIN_LOCK:
				p->ncontended += in->d != 0;
				p->nwinops++;
				break;
			case ENG_CANCEL: /* a send's is not needed */
				if (p->ins[q][in->a].op == ENG_POST_RECV)
					p->ins[q][in->a].cancel = i;
				p->ncancel++;
				break;
			default:
				p->nwinops += ENG_WIN_OP(in->op);
				break;
			}
		}
}

/* Mark the receives that may match a ready send ENG_RECV_LAZY, and no other. */
static void mark_lazy(struct eng_prog *p)
{
	int r, i;

	for (r = 0; r < p->nprocs; r++)
		for (i = 0; i < p->nins[r]; i++) {
			struct eng_instr *rin = &p->ins[r][i];

			if (rin->op != ENG_POST_RECV)
				continue;
			rin->d = p->nready && any_ready_match(p, rin, RANK(p, r)) ? ENG_RECV_LAZY :
										    0;
		}
}

/* The rank of each process, and the first process of each rank; with no table, process r is
 * rank r. Also notes whether some rank has several processes. */
static void map_procs(struct eng_prog *p)
{
	int q, r;

	if (!p->proc_rank) {
		p->nprocs = p->nranks;
		p->proc_rank = malloc((size_t)p->nprocs * sizeof(int32_t));
		p->proc_thread = calloc((size_t)p->nprocs, sizeof(int32_t));
		for (q = 0; p->proc_rank && q < p->nprocs; q++)
			p->proc_rank[q] = q;
	}
	free(p->rank_proc);
	p->rank_proc = calloc((size_t)p->nranks + 1, sizeof(int32_t));
	if (!p->rank_proc || !p->proc_rank)
		abort(); /* the translator and the reader check this beforehand */
	for (q = 0; q < p->nprocs; q++)
		p->rank_proc[RANK(p, q) + 1]++;
	for (r = 0; r < p->nranks; r++)
		p->rank_proc[r + 1] += p->rank_proc[r];
	p->threaded = p->nprocs != p->nranks;
}

/* An envelope some process of a rank receives or probes on (peer: its source) or sends on
 * (peer: its destination). */
struct envl {
	int32_t proc, peer, comm, tag;
};

static int envl_cmp(const void *a, const void *b)
{
	const struct envl *x = a, *y = b;

	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* The distinct envelopes of the receives and probes (send 0) or the sends (send 1) of every
 * process, sorted; *n of them. */
static struct envl *envelopes(const struct eng_prog *p, int send, size_t *n)
{
	struct envl *v = NULL;
	size_t k = 0, m = 0;
	int q, i;

	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];

			if (send ? in->op != ENG_POST_SEND :
				   in->op != ENG_POST_RECV && in->op != ENG_PROBE)
				continue;
			if (k == m) {
				struct envl *w = realloc(v, (m = m ? 2 * m : 64) * sizeof(*v));

				if (!w) {
					free(v);
					return NULL;
				}
				v = w;
			}
			v[k].proc = q;
			v[k].peer = in->a;
			v[k].comm = in->b;
			v[k++].tag = in->c;
		}
	if (k)
		qsort(v, k, sizeof(*v), envl_cmp);
	for (i = 0, m = 0; (size_t)i < k; i++)
		if (!m || envl_cmp(&v[m - 1], &v[i]))
			v[m++] = v[i];
	*n = m;
	return v;
}

static int tags_meet(int32_t a, int32_t b)
{
	return a == b || a == ENG_ANY || b == ENG_ANY;
}

/* Is the receive in of process q matched without a choice in a threaded program? When no
 * other process of its rank receives or probes on an envelope that meets its own (a message
 * either may take), and the messages it may take come from one process of its source rank
 * (whose messages do not overtake each other): then no order of the threads gives it
 * another message, nor its message to another call. */
static int uncontended(const struct eng_prog *p, int q, const struct eng_instr *in,
		       const struct envl *rv, size_t nr, const struct envl *sv, size_t ns)
{
	int senders = -1;
	size_t k;

	if (in->a == ENG_ANY || in->a == ENG_PROC_NULL)
		return 0;
	for (k = 0; k < nr; k++)
		if (rv[k].proc != q && RANK(p, rv[k].proc) == RANK(p, q) && rv[k].comm == in->b &&
		    (rv[k].peer == in->a || rv[k].peer == ENG_ANY) && tags_meet(rv[k].tag, in->c))
			return 0;
	for (k = 0; k < ns; k++)
		if (RANK(p, sv[k].proc) == in->a && sv[k].peer == RANK(p, q) &&
		    sv[k].comm == in->b && tags_meet(sv[k].tag, in->c)) {
			if (senders >= 0 && senders != sv[k].proc)
				return 0;
			senders = sv[k].proc;
		}
	return 1;
}

/* p->uncontended, for a threaded program (check's: verify's receives stay choices). */
static void mark_uncontended(struct eng_prog *p)
{
	struct envl *rv = NULL, *sv = NULL;
	size_t nr = 0, ns = 0;
	int q, i;

	for (q = 0; p->uncontended && q < p->nprocs; q++)
		free(p->uncontended[q]);
	free(p->uncontended);
	p->uncontended = NULL;
	if (!p->threaded || p->verify)
		return;
	rv = envelopes(p, 0, &nr);
	sv = envelopes(p, 1, &ns);
	p->uncontended = calloc((size_t)p->nprocs, sizeof(*p->uncontended));
	for (q = 0; p->uncontended && rv && sv && q < p->nprocs; q++) {
		p->uncontended[q] = calloc((size_t)p->nins[q] + 1, 1);
		for (i = 0; p->uncontended[q] && i < p->nins[q]; i++)
			if (p->ins[q][i].op == ENG_POST_RECV)
				p->uncontended[q][i] = (uint8_t)uncontended(p, q, &p->ins[q][i], rv,
									    nr, sv, ns);
	}
	free(rv);
	free(sv);
}

/* Is the receive at instruction i of process q matched without a choice where it has one
 * candidate message? Always with one process a rank; with threads, where mark_uncontended()
 * found no other call that may take it, nor another thread's message (with no table, out of
 * memory: never, every match a choice). */
static int recv_uncontended(const struct eng_prog *p, int q, int i)
{
	return !p->threaded || (p->uncontended && p->uncontended[q] && p->uncontended[q][i]);
}

/* verify: each instruction's nearest collective before it (prevcoll), by a walk of each
 * process's graph from its start: instruction i goes on to i + 1, a branch to its ways' targets,
 * an end nowhere. The first path to reach an instruction gives its value: verify's graphs join
 * only paths whose collectives are the same calls. */
static void link_collectives(struct eng_prog *p)
{
	int q, i, k;

	for (q = 0; p->prevcoll && q < p->nprocs; q++)
		free(p->prevcoll[q]);
	free(p->prevcoll);
	p->prevcoll = NULL;
	if (!p->verify)
		return;
	p->prevcoll = calloc((size_t)p->nprocs, sizeof(*p->prevcoll));
	if (!p->prevcoll)
		abort(); /* as map_procs(): a program of verify's is small */
	for (q = 0; q < p->nprocs; q++) {
		int32_t *prev = malloc((size_t)p->nins[q] * sizeof(*prev));
		int32_t *todo = malloc((size_t)p->nins[q] * sizeof(*todo));
		char *seen = calloc((size_t)p->nins[q], 1);
		int n = 0;

		if (!prev || !todo || !seen)
			abort();
		p->prevcoll[q] = prev;
		for (i = 0; i < p->nins[q]; i++)
			prev[i] = -1;
		todo[n++] = 0;
		seen[0] = 1;
		while (n > 0) {
			const struct eng_instr *in = &p->ins[q][i = todo[--n]];
			int here = in->op == ENG_COLL || in->op == ENG_ICOLL ? i : prev[i];
			int next = i + 1, step = 1, first = 0;

			if (in->op == ENG_END || in->op == ENG_STOP)
				continue;
			if (in->op == ENG_BRANCH) {
				step = ENG_BRANCH_WORDS;
				next = in->n;
			}
			for (k = first; k < (in->op == ENG_BRANCH ? next : 1); k += step) {
				int t = in->op == ENG_BRANCH ? in->list[k] : next;

				if (t < 0 || t >= p->nins[q] || seen[t])
					continue;
				seen[t] = 1;
				prev[t] = here;
				todo[n++] = t;
			}
		}
		free(todo);
		free(seen);
	}
}

void eng_layout(struct eng_prog *p)
{
	int lazy, buffer;

	map_procs(p);
	scan_program(p, &lazy, &buffer);
	link_collectives(p);
	mark_uncontended(p);
	p->nbuf = buffer ? p->nranks : 0;
	p->off_pc = ENG_ST_HEADER;
	p->off_coll = p->off_pc + p->nprocs;
	p->off_nlive = p->off_coll + p->ncomms * p->nranks;
	p->off_live = p->off_nlive + p->nprocs;
	p->off_lsrc = p->off_live + p->nprocs * p->maxlive;
	p->off_buf = p->off_lsrc + (p->verify ? p->nprocs * p->maxlive * ENG_LIVE_WORDS : 0);
	p->off_reg = p->off_buf + p->nbuf;
	p->off_msg = p->off_reg + (p->verify ? p->nprocs * p->nregs * ENG_REG_WORDS : 0);
	p->words = p->off_msg + 2 * p->maxmsg;
	if (p->nready || lazy)
		mark_lazy(p);
	wenv_build(p);
}

size_t eng_state_bytes(const struct eng_prog *p)
{
	return (size_t)p->words * sizeof(int32_t);
}

int eng_send_buffered(const struct eng_prog *p, const struct eng_instr *in)
{
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

/* The send `in` of process q, posted: its destination (a world rank), the one it names or,
 * when it follows an input (verify), the source in its register. */
static int send_dest(const struct eng_prog *p, const int32_t *st, int q, const struct eng_instr *in)
{
	if (in->sym & ENG_IN_SOURCE)
		return REG(p, st, q, in->reg - 1)[0];
	return in->a;
}

/* verify: the register a post that follows an input reads (from 1), 0 if it follows none. */
static int follow_reg(const struct eng_instr *in)
{
	if (!(in->sym & ENG_IN_SOURCE))
		return 0;
	return in->op == ENG_POST_RECV ? in->rreg : in->reg;
}

/* verify: process q's instruction i, in, took input v (ENG_REG_WORDS words) into its
 * register. */
static void set_input(const struct eng_prog *p, int32_t *st, int q, int i,
		      const struct eng_instr *in, const int32_t *v)
{
	memcpy(REG(p, st, q, in->reg - 1), v, ENG_REG_WORDS * sizeof(int32_t));
	if (p->obs && p->obs->input)
		p->obs->input(p->obs->ctx, q, i, in, v);
}

/* verify: instruction in read register reg (from 1, 0: none); clear it if that was the last
 * read. */
static void spend_input(const struct eng_prog *p, int32_t *st, int q, const struct eng_instr *in,
			int reg)
{
	if (reg > 0 && (in->sym & ENG_IN_LAST))
		memset(REG(p, st, q, reg - 1), 0, ENG_REG_WORDS * sizeof(int32_t));
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

/* Requests are kept in the order they were posted: the non-overtaking of receives (engine.h)
 * is by that order. In a straight program it is ascending. src: verify, the source a receive
 * that follows an input is posted with (0 else). */
static void live_add_src(const struct eng_prog *p, int32_t *st, int r, int instr, int done, int src)
{
	int n = NLIVE(p, st, r);

	if (n >= p->maxlive) {
		st[ENG_ST_OVERFLOW] = 1;
		return;
	}
	LIVE(p, st, r)[n] = (instr << 1) | (done ? 1 : 0);
	if (p->verify) {
		memset(LINFO(p, st, r, n), 0, ENG_LIVE_WORDS * sizeof(int32_t));
		LINFO(p, st, r, n)[0] = src;
	}
	NLIVE(p, st, r) = n + 1;
}

static void live_add(const struct eng_prog *p, int32_t *st, int r, int instr, int done)
{
	live_add_src(p, st, r, instr, done, 0);
}

static void live_remove(const struct eng_prog *p, int32_t *st, int r, int i)
{
	int32_t *l = LIVE(p, st, r);
	int n = NLIVE(p, st, r);

	memmove(&l[i], &l[i + 1], (size_t)(n - i - 1) * sizeof(*l));
	l[n - 1] = 0;
	if (p->verify) {
		memmove(LINFO(p, st, r, i), LINFO(p, st, r, i + 1),
			(size_t)(n - i - 1) * ENG_LIVE_WORDS * sizeof(int32_t));
		memset(LINFO(p, st, r, n - 1), 0, ENG_LIVE_WORDS * sizeof(int32_t));
	}
	NLIVE(p, st, r) = n - 1;
}

/* Process q's post of live entry li, as it was posted: a receive that follows an input
 * (verify) with the source it took then, in *tmp. */
static const struct eng_instr *live_instr(const struct eng_prog *p, const int32_t *st, int q,
					  int li, struct eng_instr *tmp)
{
	const struct eng_instr *in = &CUR(p, st, q)[LIVE(p, st, q)[li] >> 1];

	if (!p->verify || in->op != ENG_POST_RECV || !(in->sym & ENG_IN_SOURCE))
		return in;
	*tmp = *in;
	tmp->a = LINFO(p, st, q, li)[0];
	return tmp;
}

/* Process q frees live request li; verify: a receive's input, taken when it matched, is the
 * program's now (its register), as the program learns it when the request completes. */
static void live_release(const struct eng_prog *p, int32_t *st, int q, int li)
{
	const struct eng_instr *in = &CUR(p, st, q)[LIVE(p, st, q)[li] >> 1];

	if (p->verify && in->op == ENG_POST_RECV && in->reg > 0) {
		const int32_t *l = LINFO(p, st, q, li);
		int32_t v[ENG_REG_WORDS] = {l[1], l[2], l[3], 0};

		set_input(p, st, q, LIVE(p, st, q)[li] >> 1, in, v);
	}
	live_remove(p, st, q, li);
}

static void live_complete(const struct eng_prog *p, int32_t *st, int r, int instr)
{
	int i = live_find(p, st, r, instr);

	if (i >= 0)
		LIVE(p, st, r)[i] |= 1;
}

/* ---- messages ---- */

/* The process that sent message word w. */
static int msg_src(int32_t w)
{
	return w & 0xffff;
}

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

/* The send instruction of message i. */
static const struct eng_instr *msg_send(const struct eng_prog *p, const int32_t *st, int i)
{
	const int32_t *m = MSG(p, st);

	return &CUR(p, st, msg_src(m[2 * i]))[m[2 * i + 1] >> 1];
}

/* The index of the message process q's send instruction si has in flight, or -1. */
static int msg_find(const struct eng_prog *p, const int32_t *st, int q, int si)
{
	const int32_t *m = MSG(p, st);
	int i;

	for (i = 0; i < st[ENG_ST_NMSG]; i++)
		if (msg_src(m[2 * i]) == q && (m[2 * i + 1] >> 1) == si)
			return i;
	return -1;
}

/* Is in, process q's next instruction, the cancel of a send whose message is still in flight?
 * Whether the cancellation succeeds is then a choice. */
static int cancel_open_send(const struct eng_prog *p, const int32_t *st, int q,
			    const struct eng_instr *in)
{
	return in->op == ENG_CANCEL && CUR(p, st, q)[in->a].op == ENG_POST_SEND &&
	       live_find(p, st, q, in->a) >= 0 && msg_find(p, st, q, in->a) >= 0;
}

/* Is live entry li of process q a receive whose cancellation was asked for and that is still
 * open? Until it is matched, the cancellation may succeed at any time: a choice. */
static int cancel_open_recv(const struct eng_prog *p, const int32_t *st, int q, int li)
{
	int32_t e = LIVE(p, st, q)[li];
	const struct eng_instr *in = &CUR(p, st, q)[e >> 1];

	return !(e & 1) && in->op == ENG_POST_RECV && in->cancel > 0 && PC(p, st, q) > in->cancel;
}

/* Does receive instruction rin match the message at index i (sent to its rank)? */
static int recv_matches(const struct eng_prog *p, const int32_t *st, const struct eng_instr *rin,
			int i)
{
	const struct eng_instr *sin = msg_send(p, st, i);
	int src = RANK(p, msg_src(MSG(p, st)[2 * i]));

	if (rin->a != ENG_ANY && rin->a != src)
		return 0;
	if (rin->b != sin->b)
		return 0;
	return rin->c == ENG_ANY || rin->c == sin->c;
}

/* The first message whose key (destination rank << 16 | source process) is key or more: the
 * messages are sorted by it, and a state may hold thousands. */
static int msg_lower(const struct eng_prog *p, const int32_t *st, int32_t key)
{
	const int32_t *m = MSG(p, st);
	int lo = 0, hi = st[ENG_ST_NMSG];

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m[2 * mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first message from process sp to rank d that receive rin matches (non-overtaking of
 * messages), or -1. */
static int first_match_from(const struct eng_prog *p, const int32_t *st, int d,
			    const struct eng_instr *rin, int sp)
{
	const int32_t *m = MSG(p, st);
	int n = st[ENG_ST_NMSG], i;
	int32_t key = (d << 16) | sp;

	for (i = msg_lower(p, st, key); i < n && m[2 * i] == key; i++)
		if (recv_matches(p, st, rin, i))
			return i;
	return -1;
}

/* The processes with messages to rank d in flight, in ascending order: from *i = the first
 * message to d (msg_lower(p, st, d << 16)), the next one (its messages passed), or -1. Only
 * those can give a receive of d a candidate. */
static int next_sender(const struct eng_prog *p, const int32_t *st, int d, int *i)
{
	const int32_t *m = MSG(p, st);
	int n = st[ENG_ST_NMSG], s;

	if (*i >= n || (m[2 * *i] >> 16) != d)
		return -1;
	s = msg_src(m[2 * *i]);
	while (*i < n && m[2 * *i] == ((d << 16) | s))
		(*i)++;
	return s;
}

/* Would an open receive of process q posted before live entry li take message i first
 * (non-overtaking of receives)? */
static int earlier_receive_wants(const struct eng_prog *p, const int32_t *st, int q, int li, int i)
{
	const int32_t *l = LIVE(p, st, q);
	int j;

	for (j = 0; j < li; j++) {
		struct eng_instr tmp;
		const struct eng_instr *in = live_instr(p, st, q, j, &tmp);

		if ((l[j] & 1) || in->op != ENG_POST_RECV)
			continue;
		if (recv_matches(p, st, in, i))
			return 1;
	}
	return 0;
}

/* Has process q's rank several processes (threads that call MPI)? Their steps on what the
 * rank shares do not commute: a receive matched in one thread may be the message another
 * thread's receive, posted later, takes in another behaviour (receives of different threads
 * are not ordered, MPI-4.1 3.5), and a receive from a rank whose threads send may take the
 * message another thread sends later in the trace (nor are their messages); a probe may find
 * a message another thread takes first; the threads attach, fill and detach one buffer. So
 * each such step is a choice, never a deterministic one (a thread that has not posted its
 * receive, or sent its message, yet competes too). */
static int shared_rank(const struct eng_prog *p, int q)
{
	return LAST(p, RANK(p, q)) - FIRST(p, RANK(p, q)) > 1;
}

/* A ready send (not to MPI_PROC_NULL) is started only as a choice: whether it finds a
 * matching receive posted depends on when the receives of its destination are posted (those
 * are choices, ENG_RECV_LAZY) and matched (those are choices too, match_deterministic), so
 * the search must meet every order of the three. */
static int ready_send(const struct eng_instr *in)
{
	return in->op == ENG_POST_SEND && in->d == ENG_SEND_READY && in->a != ENG_PROC_NULL;
}

/* Is in, process q's next instruction, a step on an attached buffer its rank's threads
 * share (attach, detach, a buffered send)? */
static int buffer_race(const struct eng_prog *p, int q, const struct eng_instr *in)
{
	if (!p->nbuf || !shared_rank(p, q))
		return 0;
	return in->op == ENG_BUF_ATTACH || in->op == ENG_BUF_DETACH ||
	       (in->op == ENG_POST_SEND && in->d == ENG_SEND_BUFFERED && in->a != ENG_PROC_NULL);
}

/* The first source process receive rin may take a message from: every process for a
 * wildcard, else the processes of its source rank; LAST_SOURCE is one past the last. */
static int first_source(const struct eng_prog *p, const struct eng_instr *rin)
{
	return rin->a == ENG_ANY ? 0 : FIRST(p, rin->a);
}

static int last_source(const struct eng_prog *p, const struct eng_instr *rin)
{
	return rin->a == ENG_ANY ? p->nprocs : LAST(p, rin->a);
}

/* The message open receive li of process q may take from process sp now, or -1: sp's first
 * one it matches, unless an earlier receive of q takes that one first. */
static int candidate(const struct eng_prog *p, const int32_t *st, int q, int li, int sp)
{
	struct eng_instr tmp;
	const struct eng_instr *in = live_instr(p, st, q, li, &tmp);
	int i = first_match_from(p, st, RANK(p, q), in, sp);

	return i < 0 || earlier_receive_wants(p, st, q, li, i) ? -1 : i;
}

/* ---- the attached buffer of buffered sends ---- */

/* Is a buffered send of `bytes` transmitted at once, freeing its place in the attached
 * buffer, in this buffering mode? Without buffering (the portable worst case) a message
 * stays in the buffer until it is matched; a library that buffers every standard send
 * transmits buffered ones at once too, an eager one those up to its threshold
 * (doc/semantics.md 3.4). */
static int bsend_transmitted(const struct eng_prog *p, int64_t bytes)
{
	return p->buffering == ENG_BUF_INFINITE ||
	       (p->buffering == ENG_BUF_EAGER && bytes <= p->eager);
}

/* Does message i occupy its sender's attached buffer? */
static int msg_occupies(const struct eng_prog *p, const int32_t *st, int i)
{
	const struct eng_instr *sin = msg_send(p, st, i);

	return sin->d == ENG_SEND_BUFFERED && !bsend_transmitted(p, sin->bytes);
}

/* Bytes of rank r's attached buffer its messages in flight occupy. */
static int64_t buffer_used(const struct eng_prog *p, const int32_t *st, int r)
{
	const int32_t *m = MSG(p, st);
	int64_t used = 0;
	int i;

	for (i = 0; i < st[ENG_ST_NMSG]; i++)
		if (RANK(p, msg_src(m[2 * i])) == r && msg_occupies(p, st, i))
			used += msg_send(p, st, i)->bytes + p->bsend_overhead;
	return used;
}

/* Does the buffered send `in` of process q fit what is left of its rank's buffer? It must in
 * every mode, even where it is transmitted at once: the message is copied into the buffer
 * first (MPI-4.1 section 3.6, "an error will occur if there is insufficient buffer space";
 * MPICH fails such a call), so one larger than the buffer, or with none attached, is an error
 * whatever the library buffers. */
static int bsend_fits(const struct eng_prog *p, const int32_t *st, int q,
		      const struct eng_instr *in)
{
	int r = RANK(p, q);

	if (!p->nbuf || in->a == ENG_PROC_NULL)
		return 1;
	return buffer_used(p, st, r) + in->bytes + p->bsend_overhead <= (int64_t)BUF(p, st, r);
}

/* Receive live entry li of process d takes message i. */
static void do_match(const struct eng_prog *p, int32_t *st, int d, int li, int i)
{
	int32_t *m = MSG(p, st);
	int src = msg_src(m[2 * i]);
	int si = m[2 * i + 1] >> 1, sync = m[2 * i + 1] & 1;
	int ri = LIVE(p, st, d)[li] >> 1;

	LIVE(p, st, d)[li] |= 1;
	if (sync)
		live_complete(p, st, src, si);
	/* verify: the source and tag it took, and what the message carried, are an input the
	 * process may act on once the request completes (live_release()) */
	if (p->verify && CUR(p, st, d)[ri].reg > 0) {
		int32_t *l = LINFO(p, st, d, li);

		l[1] = RANK(p, src);
		l[2] = msg_send(p, st, i)->c;
		l[3] = msg_send(p, st, i)->site;
	}
	if (p->obs && p->obs->match)
		p->obs->match(p->obs->ctx, d, ri, &CUR(p, st, d)[ri], src, si, msg_send(p, st, i));
	msg_remove(p, st, i);
}

/* Match every open receive of process q that names its source, whose message is there, and
 * that no other choice could take it from: q's rank and the source rank have one thread each
 * (shared_rank()). A message that holds its sender's attached buffer is not
 * matched here but as a choice: when it leaves the buffer decides whether the sender's next
 * buffered send fits, so the search must also meet the order in which it leaves late. */
static int match_deterministic(const struct eng_prog *p, int32_t *st, int q, uint8_t *woken)
{
	int li, progress = 0;

	/* with cancels, whether a message or a receive is withdrawn first: a choice */
	if (p->ncancel)
		return 0;
	for (li = 0; li < NLIVE(p, st, q); li++) {
		int32_t e = LIVE(p, st, q)[li];
		struct eng_instr tmp;
		const struct eng_instr *in = live_instr(p, st, q, li, &tmp);
		int sp, i = -1, n = 0;

		/* a receive a ready send may need open: its match is a choice (ready_send); so
		 * is one another thread of its rank may take the message of, or whose messages
		 * several threads of its source rank send, one later in the trace than another
		 * (recv_uncontended()) */
		if ((e & 1) || in->op != ENG_POST_RECV || in->a == ENG_ANY ||
		    in->a == ENG_PROC_NULL || in->d == ENG_RECV_LAZY ||
		    !recv_uncontended(p, q, e >> 1))
			continue;
		for (sp = FIRST(p, in->a); sp < LAST(p, in->a) && n < 2; sp++) {
			int c = candidate(p, st, q, li, sp);

			if (c >= 0) {
				i = c;
				n++;
			}
		}
		if (n != 1 || (p->nbuf && msg_occupies(p, st, i)))
			continue;
		if (woken) /* its sender's request may complete (closure()) */
			woken[msg_src(MSG(p, st)[2 * i])] = 1;
		do_match(p, st, q, li, i);
		progress = 1;
	}
	return progress;
}

/* ---- ranks ---- */

/* verify: member m's collective number seq on communicator comm, on the path it took to its
 * pc; NULL if it has none (yet). The collectives before an instruction are the same on every
 * path to it (verify's graphs join only where they are), chained by prevcoll. */
static const struct eng_instr *coll_at(const struct eng_prog *p, const int32_t *st, int m, int comm,
				       int seq)
{
	int q = FIRST(p, m), i = PC(p, st, q);
	const struct eng_instr *ins = CUR(p, st, q);

	if (ins[i].op != ENG_COLL && ins[i].op != ENG_ICOLL)
		i = p->prevcoll[q][i];
	for (; i >= 0; i = p->prevcoll[q][i]) {
		if (ins[i].a != comm)
			continue;
		if (ins[i].c == seq)
			return &ins[i];
		if (ins[i].c < seq)
			break;
	}
	return NULL;
}

int eng_coll_mismatch(const struct eng_prog *p, const int32_t *st, int r,
		      const struct eng_instr *in)
{
	const struct eng_comm *c = &p->comms[in->a];
	int i;

	if (!p->verify)
		return in->b == ENG_COLL_MISMATCH;
	for (i = 0; i < c->n; i++) {
		const struct eng_instr *other;

		if (c->members[i] == r || COLL(p, st, in->a, c->members[i]) < in->c)
			continue;
		other = coll_at(p, st, c->members[i], in->a, in->c);
		/* d < 0: the rest of an intercommunicator's root group, which names no root */
		if (other &&
		    (other->call != in->call || (other->d != in->d && other->d >= 0 && in->d >= 0)))
			return 1;
	}
	return 0;
}

/* May rank r leave collective `in` (entered)? The members it waits for must have entered
 * the same collective (their sequence number on the communicator has reached in->c). */
static int coll_complete(const struct eng_prog *p, const int32_t *st, int r,
			 const struct eng_instr *in)
{
	const struct eng_comm *c = &p->comms[in->a];
	int rule = in->b, i;

	if (rule == ENG_COLL_MISMATCH || eng_coll_mismatch(p, st, r, in))
		return 0;
	if (p->buffering == ENG_BUF_ZERO || p->sync_colls)
		rule = ENG_COLL_ALL;
	switch (rule) {
	case ENG_COLL_NONE:
		return 1;
	case ENG_COLL_ROOT:
		return COLL(p, st, in->a, in->d) >= in->c;
	case ENG_COLL_LIST:
		for (i = 0; i < in->n; i++)
			if (COLL(p, st, in->a, in->list[i]) < in->c)
				return 0;
		return 1;
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

/* A message that a receive (source a or ENG_ANY, comm b, tag c) posted now by process q
 * would match, or -1. Messages an open receive of q would take first do not count. */
static int probe_finds(const struct eng_prog *p, const int32_t *st, int q,
		       const struct eng_instr *in)
{
	int sp;

	for (sp = first_source(p, in); sp < last_source(p, in); sp++) {
		int i = first_match_from(p, st, RANK(p, q), in, sp);

		if (i >= 0 && !earlier_receive_wants(p, st, q, NLIVE(p, st, q), i))
			return i;
	}
	return -1;
}

/* Mark the nonblocking collectives of process q whose rule is met; 1 if any. */
static int complete_icoll(const struct eng_prog *p, int32_t *st, int q)
{
	int li, progress = 0;

	for (li = 0; li < NLIVE(p, st, q); li++) {
		int32_t e = LIVE(p, st, q)[li];
		const struct eng_instr *in = &CUR(p, st, q)[e >> 1];

		if (!(e & 1) && in->op == ENG_ICOLL && coll_complete(p, st, RANK(p, q), in)) {
			LIVE(p, st, q)[li] |= 1;
			progress = 1;
		}
	}
	return progress;
}

/* verify (ENG_WAIT_LIVE): did one of wait in's listed instructions (ascending) post live
 * entry li of process q? */
static int live_listed(const struct eng_prog *p, const int32_t *st, int q, int li,
		       const struct eng_instr *in)
{
	int32_t instr = LIVE(p, st, q)[li] >> 1;
	int lo = 0, hi = in->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (in->list[mid] < instr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < in->n && in->list[lo] == instr;
}

/* verify: is live entry li of process q one that wait in (ENG_WAIT_LIVE) waits for: posted
 * by a listed instruction and, with ENG_WAIT_FOLLOW, to or from the peer in its register? */
static int wait_takes(const struct eng_prog *p, const int32_t *st, int q, int li,
		      const struct eng_instr *in)
{
	const struct eng_instr *post;

	if (!live_listed(p, st, q, li, in))
		return 0;
	if (!(in->sym & ENG_WAIT_FOLLOW))
		return 1;
	post = &CUR(p, st, q)[LIVE(p, st, q)[li] >> 1];
	return (follow_reg(post) ? LINFO(p, st, q, li)[0] : post->a) ==
	       REG(p, st, q, in->reg - 1)[0];
}

/* verify: wait in (ENG_WAIT_LIVE) of process q: are its live requests all complete? Frees them
 * if so. */
static int wait_live(const struct eng_prog *p, int32_t *st, int q, const struct eng_instr *in)
{
	int li;

	for (li = 0; li < NLIVE(p, st, q); li++)
		if (wait_takes(p, st, q, li, in) && !(LIVE(p, st, q)[li] & 1))
			return 0;
	for (li = NLIVE(p, st, q) - 1; li >= 0; li--)
		if (wait_takes(p, st, q, li, in))
			live_release(p, st, q, li);
	return 1;
}

/* verify: the live entries an any-completion in of process q may return now (complete, posted
 * by a listed instruction, or one of the first d of its list without ENG_WAIT_LIVE): the
 * k-th of them, or with k < 0 how many there are. */
static int any_done(const struct eng_prog *p, const int32_t *st, int q, const struct eng_instr *in,
		    int k)
{
	int li, n = 0, i;

	for (li = 0; li < NLIVE(p, st, q); li++) {
		if (!(LIVE(p, st, q)[li] & 1))
			continue;
		if (in->sym & ENG_WAIT_LIVE) {
			if (!live_listed(p, st, q, li, in))
				continue;
		} else {
			for (i = 0; i < in->n && in->list[i] != LIVE(p, st, q)[li] >> 1; i++)
				;
			if (i == in->n)
				continue;
		}
		if (n++ == k)
			return li;
	}
	return k < 0 ? n : -1;
}

/* verify: tell the observer that process q's any-completion at pc (in) returns, of how many
 * live requests it names. */
static void returned(const struct eng_prog *p, const int32_t *st, int q, int pc,
		     const struct eng_instr *in)
{
	int li, n = 0;

	if (!p->obs || !p->obs->returned)
		return;
	for (li = 0; li < NLIVE(p, st, q); li++)
		n += (in->sym & ENG_WAIT_LIVE) ? live_listed(p, st, q, li, in) : 1;
	p->obs->returned(p->obs->ctx, q, pc, n);
}

/* verify: the input an any-completion takes when it returns live entry li of process q: the
 * request's peer (the source its receive took, or its destination), the tag and what its
 * message carried (a receive's, from its own input), and its post instruction. */
static void request_input(const struct eng_prog *p, const int32_t *st, int q, int li, int32_t *v)
{
	int post = LIVE(p, st, q)[li] >> 1;
	const struct eng_instr *in = &CUR(p, st, q)[post];

	memset(v, 0, ENG_REG_WORDS * sizeof(*v));
	v[0] = follow_reg(in) ? LINFO(p, st, q, li)[0] : in->a;
	if (in->op == ENG_POST_RECV && in->reg > 0) {
		memcpy(v, &LINFO(p, st, q, li)[1], 3 * sizeof(*v));
	} else if (in->op == ENG_POST_SEND) {
		v[1] = in->c;
		v[2] = in->site;
	}
	v[3] = post;
}

/* Process q posts instruction pc, in (ENG_POST_RECV): a receive that follows an input takes
 * its source from the register now. */
static void post_recv(const struct eng_prog *p, int32_t *st, int q, int pc,
		      const struct eng_instr *in)
{
	int rr = follow_reg(in);

	live_add_src(p, st, q, pc, in->a == ENG_PROC_NULL, rr ? REG(p, st, q, rr - 1)[0] : 0);
	spend_input(p, st, q, in, rr);
}

static int live_done(const struct eng_prog *p, const int32_t *st, int r, int instr)
{
	int li = live_find(p, st, r, instr);

	return li < 0 || (LIVE(p, st, r)[li] & 1);
}

/* Free the requests list[0..n) of process r. */
static void live_free(const struct eng_prog *p, int32_t *st, int r, const int32_t *list, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int li = live_find(p, st, r, list[i]);

		if (li >= 0)
			live_release(p, st, r, li);
	}
}

/* Free the completed requests of list[0..n) of process r; 1 if there was one. */
static int live_free_done(const struct eng_prog *p, int32_t *st, int r, const int32_t *list, int n)
{
	int i, any = 0;

	for (i = 0; i < n; i++) {
		int li = live_find(p, st, r, list[i]);

		if (li < 0 || (LIVE(p, st, r)[li] & 1)) {
			any = 1;
			if (li >= 0)
				live_release(p, st, r, li);
		}
	}
	return any;
}

/* Has rank in->a an open receive that process q's send `in` matches? (A ready send may only
 * be started then.) */
static int receive_posted(const struct eng_prog *p, const int32_t *st, int q,
			  const struct eng_instr *in)
{
	int d = send_dest(p, st, q, in), o, li;

	for (o = FIRST(p, d); o < LAST(p, d); o++)
		for (li = 0; li < NLIVE(p, st, o); li++) {
			int32_t e = LIVE(p, st, o)[li];
			struct eng_instr tmp;
			const struct eng_instr *rin = live_instr(p, st, o, li, &tmp);

			if (!(e & 1) && rin->op == ENG_POST_RECV &&
			    (rin->a == ENG_ANY || rin->a == RANK(p, q)) && rin->b == in->b &&
			    (rin->c == ENG_ANY || rin->c == in->c))
				return 1;
		}
	return 0;
}

/* ---- one-sided ---- */

/* Have the processes of in's pairs (process, instruction) all executed their instruction? */
/* Has process o executed its instruction x (a window's post or complete, a thread's mark;
 * ENG_MARK_END: reached its end; -1: one it never makes)? */
static int pair_done(const struct eng_prog *p, const int32_t *st, int32_t o, int32_t x)
{
	if (x == ENG_MARK_END)
		return p->ins[o][PC(p, st, o)].op == ENG_END;
	return x >= 0 && PC(p, st, o) > x;
}

static int win_pairs_done(const struct eng_prog *p, const int32_t *st, const struct eng_instr *in)
{
	int i;

	for (i = 0; i + 1 < in->n; i += 2)
		if (!pair_done(p, st, in->list[i], in->list[i + 1]))
			return 0;
	return 1;
}

/* The processes holding a lock that conflicts with process q's lock instruction in: added to
 * out (if not NULL) from n on. Returns the new n; n unchanged means the lock is free. */
static int win_lock_holders(const struct eng_prog *p, const int32_t *st, int q,
			    const struct eng_instr *in, int *out, int n)
{
	int i, j, found = n;

	for (i = 0; i < p->nlocks; i++) {
		const struct eng_lock *l = &p->locks[i];
		int pc;

		if (RANK(p, l->proc) == RANK(p, q) || l->comm != in->a || !(in->c || l->exclusive))
			continue;
		if (in->b != ENG_ANY && l->target != in->b)
			continue;
		pc = PC(p, st, l->proc);
		if (pc <= l->lock || pc > l->unlock)
			continue;
		if (!out)
			return n + 1;
		for (j = n; j < found && out[j] != l->proc; j++)
			;
		if (j == found)
			out[found++] = l->proc;
	}
	return found;
}

/* Does input r (ENG_REG_WORDS words) equal the way's (w[1..]) in the parts sym compares? */
static int same_input(const int32_t *r, const int32_t *w, int sym)
{
	return (!(sym & ENG_IN_SOURCE) || r[0] == w[1]) && (!(sym & ENG_IN_TAG) || r[1] == w[2]) &&
	       (!(sym & ENG_IN_SITE) || r[2] == w[3]) && (!(sym & ENG_IN_REQ) || r[3] == w[4]);
}

/* verify: could instruction `in` of process q, a poll that succeeded in a run (ENG_POLLED),
 * succeed now? Changes nothing. */
static int poll_ready(const struct eng_prog *p, const int32_t *st, int q,
		      const struct eng_instr *in)
{
	int li, i;

	switch (in->op) {
	case ENG_WAIT:
		if (in->sym & ENG_WAIT_LIVE) {
			for (li = 0; li < NLIVE(p, st, q); li++)
				if (wait_takes(p, st, q, li, in) && !(LIVE(p, st, q)[li] & 1))
					return 0;
			return 1;
		}
		for (i = 0; i < in->n; i++)
			if (!live_done(p, st, q, in->list[i]))
				return 0;
		return 1;
	case ENG_WAITANY:
		if (in->sym & ENG_WAIT_LIVE || in->reg > 0)
			return any_done(p, st, q, in, -1) > 0;
		for (i = 0; i < in->d; i++)
			if (!live_done(p, st, q, in->list[i]))
				return 0;
		return 1;
	case ENG_PROBE:
	case ENG_POST_RECV:
		/* what a probe, or the receive of what a wildcard probe found, would take */
		return in->a == ENG_PROC_NULL || probe_finds(p, st, q, in) >= 0;
	default:
		return 1;
	}
}

/* Is the way of branch `in` at list index i one process q may go on in now: its input is the
 * one in the branch's register (any, when it has none), and, with ready, a way that begins
 * with a poll only once the poll could succeed? */
static int way_open(const struct eng_prog *p, const int32_t *st, int q, const struct eng_instr *in,
		    int i, int ready)
{
	const struct eng_instr *t;

	if (in->a >= 0 && !same_input(REG(p, st, q, in->a), &in->list[i], in->sym))
		return 0;
	t = &CUR(p, st, q)[in->list[i]];
	return !ready || !(t->sym & ENG_POLLED) || t->op == ENG_BRANCH || poll_ready(p, st, q, t);
}

/* The ways branch `in` of process q may go on in now (way_open(), ready). Returns how many;
 * *first is the target of the first of them (the k-th is branch_target()'s). */
static int branch_targets(const struct eng_prog *p, const int32_t *st, int q,
			  const struct eng_instr *in, int *first)
{
	int i, n = 0;

	*first = -1;
	for (i = 0; i + ENG_BRANCH_WORDS <= in->n; i += ENG_BRANCH_WORDS)
		if (way_open(p, st, q, in, i, 1)) {
			if (!n)
				*first = in->list[i];
			n++;
		}
	return n;
}

/* The target of the k-th of branch_targets(). */
static int branch_target(const struct eng_prog *p, const int32_t *st, int q,
			 const struct eng_instr *in, int k)
{
	int i;

	for (i = 0; i + ENG_BRANCH_WORDS <= in->n; i += ENG_BRANCH_WORDS)
		if (way_open(p, st, q, in, i, 1) && k-- == 0)
			return in->list[i];
	return -1;
}

/* How many ways of branch `in` of process q take the input in its register, ready or not. */
static int branch_ways(const struct eng_prog *p, const int32_t *st, int q,
		       const struct eng_instr *in)
{
	int i, n = 0;

	for (i = 0; i + ENG_BRANCH_WORDS <= in->n; i += ENG_BRANCH_WORDS)
		n += way_open(p, st, q, in, i, 0);
	return n;
}

/* verify: is `in` a wildcard probe whose sender is a choice? */
static int verify_probe(const struct eng_prog *p, const struct eng_instr *in)
{
	return p->verify && in->op == ENG_PROBE && in->reg > 0 && in->a == ENG_ANY;
}

/* Execute process q's next instruction if it can; returns 1 if it moved. A step on what the
 * threads of a rank share waits to be chosen (chosen 0: the closure's steps). */
static int step(const struct eng_prog *p, int32_t *st, int q, int chosen)
{
	int pc = PC(p, st, q), r = RANK(p, q);
	const struct eng_instr *in = &CUR(p, st, q)[pc];
	int i, n;

	if (!chosen && (buffer_race(p, q, in) || ready_send(in)))
		return 0; /* a choice (walk_choices) */
	switch (in->op) {
	case ENG_POST_SEND:
		if (in->d == ENG_SEND_READY && in->a != ENG_PROC_NULL &&
		    !receive_posted(p, st, q, in)) {
			st[ENG_ST_ERROR] = 1 + q; /* erroneous: the search ends here */
			return 0;
		}
		if (in->d == ENG_SEND_BUFFERED && !bsend_fits(p, st, q, in)) {
			st[ENG_ST_ERROR] = 1 + q;
			return 0;
		}
		if (in->a == ENG_PROC_NULL) {
			live_add(p, st, q, pc, 1);
		} else {
			int buffered = eng_send_buffered(p, in), dest = send_dest(p, st, q, in);

			msg_add(p, st, q, dest, pc, !buffered);
			live_add_src(p, st, q, pc, buffered, follow_reg(in) ? dest : 0);
			spend_input(p, st, q, in, follow_reg(in));
		}
		break;
	case ENG_POST_RECV:
		if (in->d == ENG_RECV_LAZY)
			return 0; /* posted as a choice (walk_choices) */
		post_recv(p, st, q, pc, in);
		break;
	case ENG_WAIT:
	case ENG_WAITANY:
		/* verify: which request an any-completion completes is a choice (walk_choices) */
		if (in->op == ENG_WAITANY && p->verify && in->reg > 0)
			return 0;
		if (in->sym & ENG_WAIT_LIVE) {
			if (in->op == ENG_WAIT && !wait_live(p, st, q, in))
				return 0;
			if (in->op == ENG_WAITANY) {
				/* the outcome the process does not act on: the first */
				i = any_done(p, st, q, in, 0);
				if (i < 0)
					return 0;
				returned(p, st, q, pc, in);
				live_release(p, st, q, i);
			}
			break;
		}
		/* the requests the trace completed here; ENG_WAITANY's others stay */
		n = in->op == ENG_WAIT ? in->n : in->d;
		for (i = 0; i < n; i++)
			if (!live_done(p, st, q, in->list[i]))
				return 0;
		live_free(p, st, q, in->list, n);
		break;
	case ENG_WAIT_SOME:
		if (!live_free_done(p, st, q, in->list, in->n))
			return 0;
		break;
	case ENG_COLL:
		if (COLL(p, st, in->a, r) < in->c)
			COLL(p, st, in->a, r) = in->c; /* entering is a step of its own */
		if (!coll_complete(p, st, r, in))
			return 0;
		break;
	case ENG_ICOLL:
		COLL(p, st, in->a, r) = in->c;
		live_add(p, st, q, pc, 0);
		complete_icoll(p, st, q);
		break;
	case ENG_PROBE:
		if (in->a == ENG_PROC_NULL)
			break; /* MPI_Probe(MPI_PROC_NULL) returns at once */
		/* verify: which sender a wildcard probe sees is a choice (walk_choices) */
		if (verify_probe(p, in))
			return 0;
		i = probe_finds(p, st, q, in);
		/* a message another thread's receive may take first: a choice (walk_choices) */
		if (i < 0 || (!chosen && shared_rank(p, q)))
			return 0;
		if (in->reg > 0) { /* verify: what it found is an input */
			int32_t v[ENG_REG_WORDS] = {RANK(p, msg_src(MSG(p, st)[2 * i])),
						    msg_send(p, st, i)->c, msg_send(p, st, i)->site,
						    0};

			set_input(p, st, q, pc, in, v);
		}
		break;
	case ENG_BRANCH:
		/* go on where a run that took this input went; none: a frontier; several: a
		 * choice (walk_choices) */
		if (branch_targets(p, st, q, in, &i) != 1)
			return 0;
		if (p->obs && p->obs->exec)
			p->obs->exec(p->obs->ctx, q, pc, in);
		spend_input(p, st, q, in, in->a + 1);
		PC(p, st, q) = i;
		return 1;
	case ENG_BUF_ATTACH:
		if (p->nbuf)
			BUF(p, st, r) = (int32_t)(in->bytes < INT32_MAX ? in->bytes : INT32_MAX);
		break;
	case ENG_BUF_DETACH:
		if (p->nbuf) {
			const int32_t *m = MSG(p, st);

			for (i = 0; i < st[ENG_ST_NMSG]; i++)
				if (RANK(p, msg_src(m[2 * i])) == r && msg_occupies(p, st, i))
					return 0;
			BUF(p, st, r) = 0;
		}
		break;
	case ENG_CANCEL:
		/* a send still in flight: success or failure is a choice (walk_choices); a send
		 * already matched or completed, or a receive: nothing happens now */
		if (!chosen && cancel_open_send(p, st, q, in))
			return 0;
		break;
	case ENG_WIN_POST:
	case ENG_WIN_UNLOCK:
		break;
	case ENG_GREQ:
		live_add(p, st, q, pc, 0);
		break;
	case ENG_GREQ_DONE:
		/* a request freed (MPI_Request_free) before it is complete is no longer live */
		i = live_find(p, st, q, in->a);
		if (i >= 0)
			LIVE(p, st, q)[i] |= 1;
		break;
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
	case ENG_THREAD_AFTER:
		if (!win_pairs_done(p, st, in))
			return 0;
		break;
	case ENG_THREAD_MARK:
		break;
	case ENG_WIN_LOCK:
		/* a contended lock goes to whoever SPIN chooses (walk_choices) */
		if (in->d || win_lock_holders(p, st, q, in, NULL, 0))
			return 0;
		break;
	default: /* ENG_END, ENG_STOP */
		return 0;
	}
	if (p->obs && p->obs->exec)
		p->obs->exec(p->obs->ctx, q, pc, in);
	PC(p, st, q) = pc + 1;
	return 1;
}

/* Processes whose sweeps closure() keeps track of (a word each, on the stack). */
#define CLOSURE_TRACKED 256

struct eng_sweep {
	int valid; /* dirty[] says which processes may step or match in the state */
	/* the state's first choice, as walk_choices() found it (settle()), if first */
	int first, first_d, first_li, first_i;
	uint8_t dirty[];
};

struct eng_sweep *eng_sweep_new(const struct eng_prog *p)
{
	struct eng_sweep *s = calloc(1, sizeof(*s) + (size_t)p->nprocs);

	return s;
}

void eng_sweep_free(struct eng_sweep *s)
{
	free(s);
}

/* Can the closure follow which processes may step (p->sweep)? When what a process's steps and
 * matches read is its own requests and program counter and the messages to its rank, and
 * what they change is that, the messages they send and (a match) the request of the
 * message's sender: one process a rank, no collective, one-sided synchronisation, cancel,
 * attached buffer, ready send, variant or input register. */
static int sweep_narrow(const struct eng_prog *p)
{
	return p->sweep && !p->threaded && !p->ncoll && !p->nicoll && !p->nwinops && !p->nlocks &&
	       !p->ncancel && !p->nbuf && !p->nready && !p->verify;
}

/* closure() where sweep_narrow(): a process steps or matches only if something it reads
 * changed since it was found stuck (dirty[q]); the steps taken, and their order, are those
 * of sweeping every process every time. */
static void closure_narrow(const struct eng_prog *p, int32_t *st, uint8_t *dirty)
{
	int progress = 1, q, r;

	while (progress && !st[ENG_ST_OVERFLOW] && !st[ENG_ST_ERROR]) {
		progress = 0;
		for (q = 0; q < p->nprocs; q++) {
			const struct eng_instr *in;

			if (!dirty[q])
				continue;
			for (;;) {
				in = &CUR(p, st, q)[PC(p, st, q)];
				if (!step(p, st, q, 0))
					break;
				progress = 1;
				/* a message sent: its destination's processes may match it */
				if (in->op == ENG_POST_SEND && in->a != ENG_PROC_NULL) {
					int dest = send_dest(p, st, q, in);

					for (r = FIRST(p, dest); r < LAST(p, dest); r++)
						dirty[r] = 1;
				}
			}
			if (match_deterministic(p, st, q, dirty))
				progress = 1; /* q may step now: still dirty */
			else
				dirty[q] = 0;
		}
	}
	p->sweep->valid = !st[ENG_ST_OVERFLOW] && !st[ENG_ST_ERROR];
}

/* Run every deterministic step until none is left (quiescence). */
static void closure(const struct eng_prog *p, int32_t *st)
{
	/* Whether process q steps or matches is a function of the state alone: one found stuck
	 * stays stuck until the state changes, so a sweep passes over those found stuck since
	 * the last change (changes counts them; stuck[q] is its count when q was found so).
	 * The steps taken, and their order, are those of sweeping every process every time. */
	unsigned changes = 0, stuck[CLOSURE_TRACKED];
	int progress = 1, q, tracked = p->nprocs <= CLOSURE_TRACKED;

	if (sweep_narrow(p)) {
		if (!p->sweep->valid)
			memset(p->sweep->dirty, 1, (size_t)p->nprocs);
		closure_narrow(p, st, p->sweep->dirty);
		return;
	}
	for (q = 0; tracked && q < p->nprocs; q++)
		stuck[q] = ~0u;
	while (progress && !st[ENG_ST_OVERFLOW] && !st[ENG_ST_ERROR]) {
		progress = 0;
		for (q = 0; q < p->nprocs; q++) {
			if (tracked && stuck[q] == changes)
				continue;
			while (step(p, st, q, 0)) {
				progress = 1;
				changes++;
			}
			if (match_deterministic(p, st, q, NULL)) {
				progress = 1;
				changes++; /* q may step now: not stuck */
			} else if (p->ncoll && CUR(p, st, q)[PC(p, st, q)].op == ENG_COLL) {
				changes++; /* entering a collective is a change but no step */
			} else if (tracked) {
				stuck[q] = changes;
			}
		}
		/* a collective entered by a later rank may release an earlier one */
		for (q = 0; (p->ncoll || p->nicoll) && q < p->nprocs; q++) {
			const struct eng_instr *in = &CUR(p, st, q)[PC(p, st, q)];

			if (p->nicoll && complete_icoll(p, st, q)) {
				progress = 1;
				changes++;
			}
			if (!progress && in->op == ENG_COLL &&
			    COLL(p, st, in->a, RANK(p, q)) >= in->c &&
			    coll_complete(p, st, RANK(p, q), in)) {
				progress = 1;
				changes++;
			}
		}
	}
}

/* ---- the reductions ----
 *
 * The closure already runs every deterministic step in one canonical order (engine.h). Two
 * reductions also cut the choices a quiescent state offers, each with the argument below.
 * Both keep every end state reachable (deadlocked, erroneous or finished: a state with no
 * choice), and the end states are all the search reports, so the reduced search finds the
 * same deadlocks as the full one (eng_prog.full: every choice offered). The unit test
 * tests/unit/test_reduction.c compares the end states of both searches on random programs in
 * every buffering mode.
 *
 * They are used only when every rank is one process, no buffered send fills an attached
 * buffer (when a message leaves the buffer decides whether a later buffered send fits), the
 * program makes no ready send (whose check depends on when receives are posted), no
 * contended window lock and no cancel (which withdraws messages and receives: F1 and F2 do
 * not hold), and has one variant per process (not verify's programs): then every choice is
 * which message an MPI_ANY_SOURCE receive takes. Both rest on two facts:
 *   (F1) only rank d takes the messages sent to d, each sender's messages to d stay in the
 *        order they were sent, and a message goes to the earliest posted open receive of d
 *        that matches it (the closure matches a receive that names its source as soon as its
 *        message is there; a wildcard receive only by a choice of its own): a receive d
 *        posts later never takes a message that one of its open receives matches;
 *   (F2) closure steps are monotone and commute: a step enabled stays enabled, and the
 *        quiescent state a set of matches leads to does not depend on the order in which
 *        they were made (engine.h).
 *
 * 1. Interchangeable receives. Master/worker codes receive every result with MPI_ANY_SOURCE;
 * offering every candidate at every receive makes the search visit every combination of how
 * many results of each worker were taken ((results + 1) ^ workers states), although the order
 * cannot matter. Suppose rank d waits, and can block there only on its open receives (every
 * other request of the wait is complete or one the buffering mode completes at once); these
 * are MPI_ANY_SOURCE receives of one envelope (communicator, tag); d's program then goes on
 * with more of the same (blocking receives of the envelope, between which it only makes
 * sends the mode completes at once, or to MPI_PROC_NULL, and waits for such sends), so that
 * it takes n messages of the envelope before it can block on anything else; and no more
 * messages can still reach d with that envelope than it takes (M <= n: sent and unreceived,
 * plus the sends no rank has posted yet). Then in every run from here d takes every one of
 * the M messages before it blocks anywhere else, and each end state is reached by a run that
 * takes the first candidate m first: a run that takes m at its j-th receive instead stays a
 * run if its first j - 1 receives take their messages one receive later (by F1 these come
 * from other senders than m's, and d, now one receive ahead, runs ahead only through steps
 * that cannot block, which only enables steps, F2), and it reaches the same state once m is
 * taken. So m is offered alone, whatever other ranks could choose. (Waiting for a send that
 * may block, d could stay there with other messages than m's taken: that wait ends the
 * reduction.)
 *
 * 2. One rank's choices (a persistent set: Godefroid, "Partial-Order Methods for the
 * Verification of Concurrent Systems", LNCS 1032, 1996, applied to MPI's wildcard receives as
 * in Siegel's urgent search, VMCAI 2005). Suppose that no rank (d included) that has no
 * message to d in flight matching one of d's open wildcard receives will ever send one (its
 * sends still to be posted include none that matches it). Then the choices of d alone are
 * enough. Along any run from here that makes no choice of d, d's open wildcard receives get
 * no new candidate: a sender that has a matching message in flight keeps it first, or behind
 * one an earlier open receive of d wants (F1: later messages queue behind; only d takes
 * them), and no other sender can bring one. Every other choice on such a run is another
 * rank's receive, or a receive d posted later, taking a message that none of the open
 * receives of the choices of d matches (F1); it cannot disable those choices nor be disabled
 * by them (they take other messages, and a message's removal changes no other's place among
 * the messages a receive matches), and both orders reach the same state (F2). So the
 * choices of d are a persistent set, and a search that explores only a persistent set in
 * every state reaches every end state: a state without a choice is a deadlock of the
 * transition system in Godefroid's sense, and the states here form no cycle (every choice
 * consumes a message). Of the ranks that qualify, the one with the fewest choices is taken.
 *
 * The tables below are per rank and envelope, built for the buffering mode of the program
 * (which sends complete at once); a program whose mode changed without eng_set_buffering()
 * is searched in full. */

/* The tables' room: WENV_TIMES entries an instruction of the program, and WENV_SPARE more
 * (a rank with more envelopes than that allows has the receives of the others searched in
 * full). */
#define WENV_TIMES 2
#define WENV_SPARE (1L << 22)

static int send_matches(const struct eng_instr *in, int d, int comm, int tag)
{
	return in->op == ENG_POST_SEND && in->a == d && in->b == comm &&
	       (tag == ENG_ANY || in->c == tag);
}

static int is_wildcard_pair(const struct eng_prog *p, int d, int i, int comm, int tag)
{
	const struct eng_instr *in = &p->ins[d][i], *w;

	if (i + 1 >= p->nins[d] || in->op != ENG_POST_RECV || in->a != ENG_ANY || in->b != comm ||
	    in->c != tag)
		return 0;
	w = &p->ins[d][i + 1];
	return w->op == ENG_WAIT && w->n == 1 && w->list[0] == i;
}

/* Does instruction i of rank d complete at once, taking no message, in the program's
 * buffering mode: a send the mode buffers (or one to MPI_PROC_NULL), a receive from
 * MPI_PROC_NULL, a wait for such requests only? */
static int passable(const struct eng_prog *p, int d, int i)
{
	const struct eng_instr *in = &p->ins[d][i];
	int j;

	switch (in->op) {
	case ENG_POST_SEND:
		return !in->sym && (in->a == ENG_PROC_NULL ||
				    (in->d != ENG_SEND_READY && eng_send_buffered(p, in)));
	case ENG_POST_RECV:
		return in->a == ENG_PROC_NULL;
	case ENG_WAIT:
		for (j = 0; j < in->n; j++)
			if (p->ins[d][in->list[j]].op == ENG_WAIT || !passable(p, d, in->list[j]))
				return 0;
		return 1;
	default:
		return 0;
	}
}

static void wenv_release(struct eng_prog *p)
{
	int e, s;

	for (e = 0; e < p->nwenv; e++) {
		for (s = 0; p->wenv[e].sends && s < p->nranks; s++)
			free(p->wenv[e].sends[s]);
		free(p->wenv[e].sends);
		free(p->wenv[e].nsends);
		free(p->wenv[e].hint);
		free(p->wenv[e].run);
	}
	free(p->wenv);
	free(p->wenv_first);
	p->wenv = NULL;
	p->wenv_first = NULL;
	p->nwenv = 0;
}

/* Rank d's envelope (comm, tag) among the envelopes before n, or NULL. */
static const struct eng_wenv *wenv_of(const struct eng_prog *p, int d, int comm, int tag, int n)
{
	int e;

	for (e = p->wenv_first[d]; e < n; e++)
		if (p->wenv[e].comm == comm && p->wenv[e].tag == tag)
			return &p->wenv[e];
	return NULL;
}

static const struct eng_wenv *wenv_find(const struct eng_prog *p, int d, int comm, int tag)
{
	return wenv_of(p, d, comm, tag, p->wenv_first[d + 1]);
}

/* How many sends of rank s at instructions >= i a receive of envelope e would match. The
 * search starts where the last one for s ended (hint): along one path the program counters
 * only grow, so check's own pass finds the answer a step or two away, where a bisection
 * of the whole list costs its logarithm in every state; any start finds the same answer. */
static int wenv_future(const struct eng_wenv *e, int s, int i)
{
	const int32_t *at = e->sends[s];
	int n = e->nsends[s], h = e->hint[s] < n ? e->hint[s] : n, lo, hi, step;

	if (h < n && at[h] < i) { /* after h: gallop forward */
		for (lo = h + 1, step = 1; lo + step - 1 < n && at[lo + step - 1] < i; step *= 2)
			lo += step;
		hi = lo + step - 1 < n ? lo + step - 1 : n;
	} else if (h > 0 && at[h - 1] >= i) { /* before h: gallop back */
		for (hi = h - 1, step = 1; hi - step >= 0 && at[hi - step] >= i; step *= 2)
			hi -= step;
		lo = hi - step + 1 > 0 ? hi - step + 1 : 0;
	} else {
		lo = hi = h;
	}
	while (lo < hi) { /* the first at or after i, in [lo, hi] */
		int mid = lo + (hi - lo) / 2;

		if (at[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	e->hint[s] = lo;
	return n - lo;
}

/* The sends each envelope's receives would match, rank by rank, in one pass over the
 * program (counted, then kept). Returns 0, or -1 without memory. */
static int wenv_sends(struct eng_prog *p)
{
	int pass, s, i, e;

	for (e = 0; e < p->nwenv; e++) {
		p->wenv[e].sends = calloc((size_t)p->nranks, sizeof(*p->wenv[e].sends));
		p->wenv[e].nsends = calloc((size_t)p->nranks, sizeof(*p->wenv[e].nsends));
		p->wenv[e].hint = calloc((size_t)p->nranks, sizeof(*p->wenv[e].hint));
		if (!p->wenv[e].sends || !p->wenv[e].nsends || !p->wenv[e].hint)
			return -1;
	}
	for (pass = 0; pass < 2; pass++)
		for (s = 0; s < p->nranks; s++) {
			for (e = 0; pass && e < p->nwenv; e++) {
				if (!p->wenv[e].nsends[s])
					continue;
				p->wenv[e].sends[s] = malloc((size_t)p->wenv[e].nsends[s] *
							     sizeof(int32_t));
				if (!p->wenv[e].sends[s])
					return -1;
				p->wenv[e].nsends[s] = 0;
			}
			for (i = 0; i < p->nins[s]; i++) {
				const struct eng_instr *in = &p->ins[s][i];

				if (in->op != ENG_POST_SEND || in->a < 0)
					continue;
				for (e = p->wenv_first[in->a]; e < p->wenv_first[in->a + 1]; e++) {
					struct eng_wenv *w = &p->wenv[e];

					if (!send_matches(in, w->d, w->comm, w->tag))
						continue;
					if (pass)
						w->sends[s][w->nsends[s]] = i;
					w->nsends[s]++;
				}
			}
		}
	return 0;
}

/* Tables for the envelopes of the program's MPI_ANY_SOURCE receives, for its buffering mode:
 * for as many as fit in a few times the program's size (a rank with more envelopes than that
 * has the others searched in full); none for a program the reductions do not apply to, or
 * without memory (the search is then complete, only larger). */
static void wenv_build(struct eng_prog *p)
{
	long cells = 0, most = WENV_SPARE;
	int d, i, e, cap = 0;

	wenv_release(p);
	p->red_buffering = p->buffering;
	p->red_eager = p->eager;
	p->red_persistent = 0;
	p->red_partial = 0;
	if (p->threaded || p->nbuf || p->verify || p->nready || p->ncancel || !p->nwild)
		return;
	p->wenv_first = calloc((size_t)p->nranks + 1, sizeof(*p->wenv_first));
	if (!p->wenv_first)
		goto cut;
	for (d = 0; d < p->nranks; d++)
		most += WENV_TIMES * (long)p->nins[d];
	for (d = 0; d < p->nranks; d++) {
		p->wenv_first[d] = p->nwenv;
		for (i = 0; i < p->nins[d]; i++) {
			const struct eng_instr *in = &p->ins[d][i];
			struct eng_wenv *w;

			if (in->op != ENG_POST_RECV || in->a != ENG_ANY ||
			    wenv_of(p, d, in->b, in->c, p->nwenv))
				continue;
			if (cells + p->nins[d] + 2 > most) {
				p->red_partial = 1;
				continue;
			}
			if (p->nwenv == cap) {
				struct eng_wenv *grown;

				cap = cap ? 2 * cap : 16;
				grown = realloc(p->wenv, (size_t)cap * sizeof(*p->wenv));
				if (!grown)
					goto cut;
				p->wenv = grown;
			}
			w = &p->wenv[p->nwenv++];
			memset(w, 0, sizeof(*w));
			w->d = d;
			w->comm = in->b;
			w->tag = in->c;
			w->run = calloc((size_t)p->nins[d] + 2, sizeof(*w->run));
			if (!w->run)
				goto cut;
			cells += p->nins[d] + 2;
		}
		/* the runs of receives of d's envelopes, from the end */
		for (i = p->nins[d] - 1; i >= 0 && p->wenv_first[d] < p->nwenv; i--) {
			int pass = passable(p, d, i);

			for (e = p->wenv_first[d]; e < p->nwenv; e++) {
				struct eng_wenv *w = &p->wenv[e];

				w->run[i] = is_wildcard_pair(p, d, i, w->comm, w->tag) ?
						    1 + w->run[i + 2] :
					    pass ? w->run[i + 1] :
						   0;
			}
		}
	}
	p->wenv_first[p->nranks] = p->nwenv;
	if (wenv_sends(p))
		goto cut;
	p->red_persistent = p->nwenv > 0 && !p->ncontended;
	return;
cut:
	wenv_release(p);
	p->red_partial = 1;
}

void eng_set_buffering(struct eng_prog *p, enum eng_buffering b, int64_t eager)
{
	p->buffering = b;
	p->eager = eager;
	/* tables built for this mode already (a pass over the whole program) stay */
	if (p->wenv_first && p->red_buffering == (int32_t)b &&
	    (b != ENG_BUF_EAGER || p->red_eager == eager))
		return;
	wenv_build(p);
}

/* May the search take the reductions in this program, with these tables? */
static int reducing(const struct eng_prog *p)
{
	return !p->full && p->nwenv && p->red_buffering == p->buffering &&
	       (p->buffering != ENG_BUF_EAGER || p->red_eager == p->eager);
}

static int in_list(const struct eng_instr *w, int instr)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (w->list[i] == instr)
			return 1;
	return 0;
}

/* If rank d's wildcard receives are interchangeable (1. above), the live index of the one to
 * match now (its earliest open receive); else -1. */
static int wenv_single(const struct eng_prog *p, const int32_t *st, int d)
{
	const struct eng_instr *w = &p->ins[d][PC(p, st, d)];
	const struct eng_wenv *e = NULL;
	const int32_t *m = MSG(p, st);
	int li, first = -1, n = 0, left = 0, s, i;

	if (w->op != ENG_WAIT)
		return -1;
	/* the wait can block only on the open wildcard receives */
	for (i = 0; i < w->n; i++) {
		const struct eng_instr *in = &p->ins[d][w->list[i]];

		if (!(in->op == ENG_POST_RECV && in->a == ENG_ANY) && !passable(p, d, w->list[i]) &&
		    !live_done(p, st, d, w->list[i]))
			return -1;
	}
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
	/* the messages to d: together, sorted by destination */
	for (i = msg_lower(p, st, d << 16); i < st[ENG_ST_NMSG] && (m[2 * i] >> 16) == d; i++)
		if (send_matches(&p->ins[msg_src(m[2 * i])][m[2 * i + 1] >> 1], d, e->comm, e->tag))
			left++;
	for (s = 0; s < p->nranks; s++)
		if (e->nsends[s])
			left += wenv_future(e, s, PC(p, st, s));
	return left <= n ? first : -1;
}

/* The choices of rank d in st: the candidates of its open wildcard receives. */
static int rank_choices(const struct eng_prog *p, const int32_t *st, int d)
{
	int li, s, j, n = 0;

	for (li = 0; li < NLIVE(p, st, d); li++) {
		int32_t ent = LIVE(p, st, d)[li];
		const struct eng_instr *in = &p->ins[d][ent >> 1];

		if ((ent & 1) || in->op != ENG_POST_RECV || in->a != ENG_ANY)
			continue;
		for (j = msg_lower(p, st, d << 16); (s = next_sender(p, st, d, &j)) >= 0;)
			n += candidate(p, st, d, li, s) >= 0;
	}
	return n;
}

/* Are the choices of rank d a persistent set in st (2. above)? */
static int persistent(const struct eng_prog *p, const int32_t *st, int d)
{
	int li, s;

	/* no rank, d included, can bring one of its open wildcard receives a candidate it has
	 * not now */
	for (li = 0; li < NLIVE(p, st, d); li++) {
		int32_t ent = LIVE(p, st, d)[li];
		const struct eng_instr *in = &p->ins[d][ent >> 1];
		const struct eng_wenv *e;

		if ((ent & 1) || in->op != ENG_POST_RECV || in->a != ENG_ANY)
			continue;
		e = wenv_find(p, d, in->b, in->c);
		if (!e)
			return 0;
		for (s = 0; s < p->nranks; s++)
			if (e->nsends[s] && wenv_future(e, s, PC(p, st, s)) > 0 &&
			    first_match_from(p, st, d, in, s) < 0)
				return 0;
	}
	return 1;
}

/* The rank whose choices alone are offered in st (2. above), or -1: every choice is. */
static int persistent_rank(const struct eng_prog *p, const int32_t *st)
{
	int d, n, best = -1, fewest = 0;

	if (!p->red_persistent)
		return -1;
	for (d = 0; d < p->nranks; d++) {
		n = rank_choices(p, st, d);
		if (n > 0 && (best < 0 || n < fewest) && persistent(p, st, d)) {
			best = d;
			fewest = n;
		}
	}
	return best;
}

/* What a walk of the choices (walk_choices()) is after: the k-th (k < 0: none, count them
 * all), or the first that c takes (eng_choose_first()), found as (process,
 * live index or kind, message or position) in (d, li, i), d -1 until found; and every choice
 * it counts noted in all_* (max entries at most) when all_d is not NULL. */
struct walk {
	int k;
	const struct eng_chooser *c;
	int d, li, i;
	int *all_d, *all_li, *all_i;
	int max;
};

static void describe(const struct eng_prog *p, const int32_t *st, int dd, int li, int i, int *d,
		     int *ri, int *s, int *si);

/* Choice n of the walk, (d, li, i): is it the one w is after? */
static int walk_at(const struct eng_prog *p, const int32_t *st, struct walk *w, int n, int d,
		   int li, int i)
{
	int dd, ri, s, si;

	if (n == w->k || (w->c && (describe(p, st, d, li, i, &dd, &ri, &s, &si),
				   w->c->accept(w->c->ctx, st, dd, ri, s, si)))) {
		w->d = d;
		w->li = li;
		w->i = i;
		return 1;
	}
	if (w->all_d && n < w->max) {
		w->all_d[n] = d;
		w->all_li[n] = li;
		w->all_i[n] = i;
	}
	return 0;
}

static int walk_choices(const struct eng_prog *p, const int32_t *st, struct walk *w);

/* Quiescent again: refresh the header words the model reads. */
static void settle(const struct eng_prog *p, int32_t *st)
{
	struct walk w = {p->count ? p->count : -1, NULL, -1, -1, -1, NULL, NULL, NULL, 0};

	closure(p, st);
	if (p->sweep) { /* the first choice, for eng_choose(0) of a walk to take unwalked */
		w.all_d = &p->sweep->first_d;
		w.all_li = &p->sweep->first_li;
		w.all_i = &p->sweep->first_i;
		w.max = 1;
	}
	/* a walk to the count-th choice stops there, having counted count of them */
	st[ENG_ST_NCHOICES] = walk_choices(p, st, &w);
	if (p->sweep)
		p->sweep->first = st[ENG_ST_NCHOICES] > 0;
	/* only a state without a choice ends a path: only there is it asked */
	st[ENG_ST_DONE] = st[ENG_ST_NCHOICES] ? 0 : eng_all_done(p, st);
}

void eng_start(const struct eng_prog *p, int32_t *st)
{
	if (p->sweep)
		p->sweep->valid = 0;
	if (p->start)
		memcpy(st, p->start, eng_state_bytes(p));
	else
		memset(st, 0, eng_state_bytes(p));
	settle(p, st);
}

/* Is process d's next instruction taken as a choice rather than as a deterministic step? */
static int step_is_choice(const struct eng_prog *p, const int32_t *st, int d)
{
	const struct eng_instr *in = &CUR(p, st, d)[PC(p, st, d)];
	int i;

	switch (in->op) {
	case ENG_POST_RECV:
		return in->d == ENG_RECV_LAZY;
	case ENG_WIN_LOCK:
		return in->d && !win_lock_holders(p, st, d, in, NULL, 0);
	case ENG_PROBE:
		/* it finds a message that another thread's receive may take first */
		i = shared_rank(p, d) && in->a != ENG_PROC_NULL ? probe_finds(p, st, d, in) : -1;
		return i >= 0;
	case ENG_POST_SEND:
	case ENG_BUF_ATTACH:
		return buffer_race(p, d, in) || ready_send(in); /* it posts, or is erroneous */
	case ENG_BUF_DETACH:
		if (!buffer_race(p, d, in))
			return 0;
		/* enabled when no message of the rank holds the buffer */
		for (i = 0; i < st[ENG_ST_NMSG]; i++)
			if (RANK(p, msg_src(MSG(p, st)[2 * i])) == RANK(p, d) &&
			    msg_occupies(p, st, i))
				return 0;
		return 1;
	default:
		return 0;
	}
}

/* Walk the choices in canonical order; stop at the one w is after (its index returned),
 * else count them all. */
static int walk_choices(const struct eng_prog *p, const int32_t *st, struct walk *w)
{
	int d, li, s, j, n = 0, only = -1, reduce = reducing(p);

	w->d = -1;
	if (st[ENG_ST_OVERFLOW] || st[ENG_ST_ERROR])
		return 0;
	/* the reductions (above): interchangeable wildcard receives, whose first candidate is
	 * the only choice; else one rank's choices, when they are a persistent set */
	for (j = 0; reduce && j < st[ENG_ST_NMSG];) {
		/* the ranks with messages, in ascending order (messages are sorted by their
		 * destination): a rank without one has no candidate, whatever wenv_single()
		 * says */
		d = MSG(p, st)[2 * j] >> 16;
		li = wenv_single(p, st, d);
		if (li < 0) {
			while (next_sender(p, st, d, &j) >= 0)
				; /* past d's messages */
			continue;
		}
		for (; (s = next_sender(p, st, d, &j)) >= 0;) {
			int i = candidate(p, st, d, li, s);

			if (i < 0)
				continue;
			return walk_at(p, st, w, 0, d, li, i) ? 0 : 1;
		}
	}
	if (reduce)
		only = persistent_rank(p, st);
	/* which message an open receive takes: a wildcard's; with threads, every one of a rank
	 * whose threads receive or from a rank whose threads send (shared_rank()); one that
	 * holds its sender's attached buffer; one a ready send may need open
	 * (match_deterministic) */
	for (d = 0; d < p->nprocs; d++) {
		if (only >= 0 && d != only)
			continue;
		for (li = 0; li < NLIVE(p, st, d); li++) {
			int32_t e = LIVE(p, st, d)[li];
			struct eng_instr tmp;
			/* as posted: verify's receive that follows an input takes from the
			 * source it had then */
			const struct eng_instr *in = live_instr(p, st, d, li, &tmp);
			int lo, hi;

			if ((e & 1) || in->op != ENG_POST_RECV || in->a == ENG_PROC_NULL ||
			    (in->a != ENG_ANY && recv_uncontended(p, d, e >> 1) && !p->nbuf &&
			     !p->ncancel && in->d != ENG_RECV_LAZY))
				continue;
			/* the senders it may take from; messages to a rank are sorted by sender */
			lo = first_source(p, in);
			hi = last_source(p, in);
			j = msg_lower(p, st, (RANK(p, d) << 16) | lo);
			if (j >= st[ENG_ST_NMSG] || (MSG(p, st)[2 * j] >> 16) != RANK(p, d))
				continue; /* no message for it */
			if (w->c && w->c->sender && w->c->source &&
			    (s = w->c->source(w->c->ctx, st, d, e >> 1)) >= 0) {
				if (s >= p->nranks)
					continue;
				lo = lo > FIRST(p, s) ? lo : FIRST(p, s);
				hi = hi < LAST(p, s) ? hi : LAST(p, s);
				j = msg_lower(p, st, (RANK(p, d) << 16) | lo);
			}
			for (; (s = next_sender(p, st, RANK(p, d), &j)) >= 0 && s < hi;) {
				int i;

				if (w->c && w->c->sender &&
				    !w->c->sender(w->c->ctx, st, d, e >> 1, s))
					continue; /* no candidate it would take */
				i = candidate(p, st, d, li, s);
				if (i < 0)
					continue;
				if (walk_at(p, st, w, n, d, li, i))
					return n;
				n++;
			}
		}
	}
	/* processes whose next step is itself a choice: a receive that may match a ready send
	 * and the ready send (posted in every order), a contended lock that is free now (who
	 * takes it first), a probe another thread's receive competes with, a step on the
	 * attached buffer a rank's threads share */
	for (d = 0; d < p->nprocs; d++) {
		if (!step_is_choice(p, st, d))
			continue;
		if (walk_at(p, st, w, n, d, -1, -1))
			return n;
		n++;
	}
	/* cancels (doc/semantics.md 4.7): a send in flight at its cancel is withdrawn (li -5)
	 * or goes on (li -6); an open receive whose cancellation was asked for is withdrawn
	 * (li -7, i its live entry) */
	for (d = 0; p->ncancel && d < p->nprocs; d++) {
		const struct eng_instr *in = &CUR(p, st, d)[PC(p, st, d)];
		int j;

		for (j = -5; j >= -6 && cancel_open_send(p, st, d, in); j--) {
			if (walk_at(p, st, w, n, d, j, -1))
				return n;
			n++;
		}
		for (li = 0; li < NLIVE(p, st, d); li++) {
			if (!cancel_open_recv(p, st, d, li))
				continue;
			if (walk_at(p, st, w, n, d, -7, li))
				return n;
			n++;
		}
	}
	/* verify: which of its complete requests an any-completion returns (li -2, i the k-th
	 * of any_done()); which sender a wildcard probe sees (li -3, i the message); which of
	 * the ways that took its input a branch goes on in (li -4, i the k-th) */
	for (d = 0; p->verify && d < p->nprocs; d++) {
		const struct eng_instr *in = &CUR(p, st, d)[PC(p, st, d)];
		int j, m = 0, kind = 0, first;

		if (in->op == ENG_WAITANY && in->reg > 0) {
			kind = -2;
			m = any_done(p, st, d, in, -1);
		} else if (verify_probe(p, in)) {
			kind = -3;
			m = last_source(p, in);
		} else if (in->op == ENG_BRANCH && branch_targets(p, st, d, in, &first) > 1) {
			kind = -4;
			m = branch_targets(p, st, d, in, &first);
		}
		for (j = 0; j < m; j++) {
			int x = j;

			if (kind == -3) {
				x = first_match_from(p, st, RANK(p, d), in, j);
				if (x < 0 || earlier_receive_wants(p, st, d, NLIVE(p, st, d), x))
					continue;
			}
			if (walk_at(p, st, w, n, d, kind, x))
				return n;
			n++;
		}
	}
	return n;
}

int eng_nchoices(const struct eng_prog *p, const int32_t *st)
{
	struct walk w = {-1, NULL, -1, -1, -1, NULL, NULL, NULL, 0};

	return walk_choices(p, st, &w);
}

/* eng_choice()'s description of the choice walk_choices() gives as (dd, li, i). */
static void describe(const struct eng_prog *p, const int32_t *st, int dd, int li, int i, int *d,
		     int *ri, int *s, int *si)
{
	const int32_t *m = MSG(p, st);

	*d = dd;
	if (dd >= 0 && li <= -5) { /* a cancel: of a send at its pc, of a receive */
		*ri = li == -7 ? LIVE(p, st, dd)[i] >> 1 : PC(p, st, dd);
		*s = li;
		*si = -1;
		return;
	}
	if (dd >= 0 && li <= -2) { /* verify: an any-completion, a probe, a branch */
		const struct eng_instr *in = &CUR(p, st, dd)[PC(p, st, dd)];

		*ri = PC(p, st, dd);
		*s = li;
		*si = li == -2 ? LIVE(p, st, dd)[any_done(p, st, dd, in, i)] >> 1 :
		      li == -3 ? RANK(p, msg_src(m[2 * i])) :
				 branch_target(p, st, dd, in, i);
		return;
	}
	if (dd >= 0 && li < 0) { /* a lazy receive post, a lock grant, a probe */
		*ri = PC(p, st, dd);
		*s = -1;
		*si = -1;
		return;
	}
	*ri = dd >= 0 ? LIVE(p, st, dd)[li] >> 1 : -1;
	*s = dd >= 0 ? msg_src(m[2 * i]) : -1;
	*si = dd >= 0 ? m[2 * i + 1] >> 1 : -1;
}

void eng_choice(const struct eng_prog *p, const int32_t *st, int k, int *d, int *ri, int *s,
		int *si)
{
	struct walk w = {k, NULL, -1, -1, -1, NULL, NULL, NULL, 0};

	walk_choices(p, st, &w);
	describe(p, st, w.d, w.li, w.i, d, ri, s, si);
}

int eng_choice_list(const struct eng_prog *p, const int32_t *st, int *d, int *ri, int *s, int *si,
		    int max)
{
	int *li = malloc((size_t)(max > 0 ? max : 1) * sizeof(int));
	int *at = malloc((size_t)(max > 0 ? max : 1) * sizeof(int));
	struct walk w = {-1, NULL, -1, -1, -1, d, li, at, max};
	int n, k;

	if (!li || !at) {
		free(li);
		free(at);
		return -1;
	}
	n = walk_choices(p, st, &w);
	for (k = 0; k < n && k < max; k++)
		describe(p, st, d[k], li[k], at[k], &d[k], &ri[k], &s[k], &si[k]);
	free(li);
	free(at);
	return n;
}

/* Choice li (-5, -6, -7: walk_choices) of process d on a cancel. */
static void cancel(const struct eng_prog *p, int32_t *st, int d, int li, int i)
{
	int pc = PC(p, st, d), post;
	const struct eng_instr *in = &CUR(p, st, d)[pc];

	if (li == -7) { /* its open receive is withdrawn: complete, without a message */
		post = LIVE(p, st, d)[i] >> 1;
		LIVE(p, st, d)[i] |= 1;
		if (p->obs && p->obs->cancelled)
			p->obs->cancelled(p->obs->ctx, d, post);
		return;
	}
	if (li == -5) { /* its send's message is withdrawn: the request completes */
		msg_remove(p, st, msg_find(p, st, d, in->a));
		live_complete(p, st, d, in->a);
		if (p->obs && p->obs->cancelled)
			p->obs->cancelled(p->obs->ctx, d, in->a);
	}
	step(p, st, d, 1); /* the cancel itself (-6: the send goes on as it would have) */
}

/* Take the choice a walk found, (d, li, i), then run every deterministic step. */
static void take(const struct eng_prog *p, int32_t *st, int d, int li, int i)
{
	if (p->sweep && li >= 0 && p->sweep->valid) {
		/* a match changes what its receiver and its message's sender read
		 * (closure_narrow) */
		p->sweep->dirty[d] = 1;
		p->sweep->dirty[msg_src(MSG(p, st)[2 * i])] = 1;
	} else if (p->sweep) {
		p->sweep->valid = 0;
	}
	if (li <= -5) {
		cancel(p, st, d, li, i);
	} else if (li <= -2) { /* verify */
		int pc = PC(p, st, d);
		const struct eng_instr *in = &CUR(p, st, d)[pc];

		int32_t v[ENG_REG_WORDS] = {0};
		int next = pc + 1;

		if (li == -2) { /* its any-completion returns its i-th complete request */
			int l = any_done(p, st, d, in, i);
			const struct eng_instr *post = &CUR(p, st, d)[LIVE(p, st, d)[l] >> 1];

			returned(p, st, d, pc, in);
			request_input(p, st, d, l, v);
			/* what its receive took, for an observer: the program learns it here */
			if (post->op == ENG_POST_RECV && post->reg > 0 && p->obs && p->obs->input) {
				int32_t r[ENG_REG_WORDS] = {v[0], v[1], v[2], 0};

				p->obs->input(p->obs->ctx, d, LIVE(p, st, d)[l] >> 1, post, r);
			}
			live_remove(p, st, d, l);
			set_input(p, st, d, pc, in, v);
		} else if (li == -3) { /* its wildcard probe sees message i */
			v[0] = RANK(p, msg_src(MSG(p, st)[2 * i]));
			v[1] = msg_send(p, st, i)->c;
			v[2] = msg_send(p, st, i)->site;
			set_input(p, st, d, pc, in, v);
		} else { /* its branch goes on in the i-th way that took its input */
			next = branch_target(p, st, d, in, i);
			spend_input(p, st, d, in, in->a + 1);
		}
		if (p->obs && p->obs->exec)
			p->obs->exec(p->obs->ctx, d, pc, in);
		PC(p, st, d) = next;
	} else if (li < 0 && (buffer_race(p, d, &CUR(p, st, d)[PC(p, st, d)]) ||
			      ready_send(&CUR(p, st, d)[PC(p, st, d)]))) {
		/* its ready send, its step on the buffer its threads share (or its error) */
		step(p, st, d, 1);
	} else if (li < 0) { /* process d posts its lazy receive, acquires its lock, probes */
		int pc = PC(p, st, d);

		if (CUR(p, st, d)[pc].op == ENG_POST_RECV)
			post_recv(p, st, d, pc, &CUR(p, st, d)[pc]);
		if (p->obs && p->obs->exec)
			p->obs->exec(p->obs->ctx, d, pc, &CUR(p, st, d)[pc]);
		PC(p, st, d) = pc + 1;
	} else {
		do_match(p, st, d, li, i);
	}
	settle(p, st);
}

void eng_choose(const struct eng_prog *p, int32_t *st, int k)
{
	struct walk w = {k, NULL, -1, -1, -1, NULL, NULL, NULL, 0};

	/* a walk's step takes choice 0 where settle() left it: found already */
	if (k == 0 && p->sweep && p->sweep->first) {
		take(p, st, p->sweep->first_d, p->sweep->first_li, p->sweep->first_i);
		return;
	}
	walk_choices(p, st, &w);
	if (w.d >= 0)
		take(p, st, w.d, w.li, w.i);
}

int eng_choose_first(const struct eng_prog *p, int32_t *st, const struct eng_chooser *c)
{
	struct walk w = {-1, c, -1, -1, -1, NULL, NULL, NULL, 0};
	int k = walk_choices(p, st, &w);

	if (w.d < 0)
		return -1;
	take(p, st, w.d, w.li, w.i);
	return k;
}

int eng_left_path(const struct eng_prog *p, const int32_t *st, int r)
{
	const struct eng_instr *in = &CUR(p, st, r)[PC(p, st, r)];
	int i;

	if (in->op == ENG_BRANCH)
		return eng_at_frontier(p, st, r); /* verify: no run knows what comes next */
	/* verify: an any-completion's other outcomes are choices, not a way off the path */
	if (in->op != ENG_WAITANY || p->verify)
		return 0;
	for (i = in->d; i < in->n; i++)
		if (live_done(p, st, r, in->list[i]))
			return 1;
	return 0;
}

int eng_at_frontier(const struct eng_prog *p, const int32_t *st, int r)
{
	const struct eng_instr *in = &CUR(p, st, r)[PC(p, st, r)];

	return in->op == ENG_BRANCH && branch_ways(p, st, r, in) == 0;
}

const struct eng_instr *eng_instr_at(const struct eng_prog *p, const int32_t *st, int r)
{
	return &CUR(p, st, r)[PC(p, st, r)];
}

void eng_input(const struct eng_prog *p, const int32_t *st, int r, int reg, int32_t *v)
{
	memcpy(v, REG(p, st, r, reg), ENG_REG_WORDS * sizeof(*v));
}

int eng_at_end(const struct eng_prog *p, const int32_t *st, int r)
{
	int op = CUR(p, st, r)[PC(p, st, r)].op;

	return op == ENG_END || op == ENG_STOP;
}

enum eng_error eng_error(const struct eng_prog *p, const int32_t *st, int *proc)
{
	int q = st[ENG_ST_ERROR] - 1;

	*proc = q;
	if (q < 0 || q >= p->nprocs)
		return ENG_ERR_NONE;
	return CUR(p, st, q)[PC(p, st, q)].d == ENG_SEND_READY ? ENG_ERR_READY : ENG_ERR_BSEND;
}

int eng_deadlocked(const struct eng_prog *p, const int32_t *st, char *blocked)
{
	int q, x, changed = 1, n = 0;
	int *wf = malloc((size_t)p->nprocs * sizeof(int));

	if (!wf) {
		for (q = 0; q < p->nprocs; q++)
			blocked[q] = !eng_at_end(p, st, q); /* no verdict of fine without memory */
		return p->nprocs;
	}
	/* free: finished, stopped (it might have gone on), or left the recorded path */
	for (q = 0; q < p->nprocs; q++)
		blocked[q] = !eng_at_end(p, st, q) && !eng_left_path(p, st, q);
	/* a process waiting for one that stopped or left the recorded path may yet be released
	 * by it */
	while (changed) {
		changed = 0;
		for (q = 0; q < p->nprocs; q++) {
			int k;

			if (!blocked[q])
				continue;
			k = eng_waits_for(p, st, q, wf);
			for (x = 0; x < k; x++)
				if (!blocked[wf[x]] &&
				    CUR(p, st, wf[x])[PC(p, st, wf[x])].op != ENG_END) {
					blocked[q] = 0;
					changed = 1;
					break;
				}
		}
	}
	for (q = 0; q < p->nprocs; q++)
		n += blocked[q];
	free(wf);
	return n;
}

int eng_all_done(const struct eng_prog *p, const int32_t *st)
{
	char *blocked;
	int n;

	if (st[ENG_ST_ERROR])
		return 0;
	blocked = malloc((size_t)p->nprocs);
	if (!blocked)
		return 0; /* no verdict without memory: treated as stuck, never as fine */
	n = eng_deadlocked(p, st, blocked);
	free(blocked);
	return n == 0;
}

int eng_pc(const struct eng_prog *p, const int32_t *st, int r)
{
	return PC(p, st, r);
}

int eng_unreceived(const struct eng_prog *p, const int32_t *st)
{
	return st[ENG_ST_NMSG];
}

void eng_message(const struct eng_prog *p, const int32_t *st, int i, int *src, int *si, int *dst)
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

/* The processes of rank r that have not finished, but `not` (-1: none left out); if every
 * one has finished, its first: whom a rank waiting for a finished one waits for. */
static int add_rank(const struct eng_prog *p, const int32_t *st, int r, int not, int *out, int n)
{
	int q, added = n;

	for (q = FIRST(p, r); q < LAST(p, r); q++)
		if (q != not &&CUR(p, st, q)[PC(p, st, q)].op != ENG_END)
			n = add_unique(out, n, q);
	if (n == added && FIRST(p, r) != not )
		n = add_unique(out, n, FIRST(p, r));
	return n;
}

/* The members a collective (entered or not) of process q still waits for under its rule. */
static int coll_waits_for(const struct eng_prog *p, const int32_t *st, int q,
			  const struct eng_instr *in, int *out, int n)
{
	const struct eng_comm *c = &p->comms[in->a];
	int rule = in->b == ENG_COLL_MISMATCH ? ENG_COLL_ALL : in->b, i, r = RANK(p, q);

	if (p->buffering == ENG_BUF_ZERO || p->sync_colls)
		rule = ENG_COLL_ALL;
	if (rule == ENG_COLL_ROOT)
		return COLL(p, st, in->a, in->d) < in->c ? add_rank(p, st, in->d, q, out, n) : n;
	if (rule == ENG_COLL_NONE)
		return n;
	if (rule == ENG_COLL_LIST) {
		for (i = 0; i < in->n; i++)
			if (COLL(p, st, in->a, in->list[i]) < in->c && in->list[i] != r)
				n = add_rank(p, st, in->list[i], q, out, n);
		return n;
	}
	for (i = 0; i < c->n; i++) {
		if (rule == ENG_COLL_LOWER && c->members[i] == r)
			break;
		if (COLL(p, st, in->a, c->members[i]) < in->c || in->b == ENG_COLL_MISMATCH)
			if (c->members[i] != r)
				n = add_rank(p, st, c->members[i], q, out, n);
	}
	return n;
}

/* The rank send `post` (instruction si of process q), not yet received, went to: the one it
 * names, or, following an input (verify), its message's destination. */
static int sent_to(const struct eng_prog *p, const int32_t *st, int q, int si,
		   const struct eng_instr *post)
{
	const int32_t *m = MSG(p, st);
	int i;

	if (!(post->sym & ENG_IN_SOURCE))
		return post->a;
	for (i = 0; i < st[ENG_ST_NMSG]; i++)
		if (msg_src(m[2 * i]) == q && (m[2 * i + 1] >> 1) == si)
			return m[2 * i] >> 16;
	return -1;
}

/* Every process that has not finished, but q: whom a wildcard waits for. */
static int anyone(const struct eng_prog *p, const int32_t *st, int q, int *out, int n)
{
	int x;

	for (x = 0; x < p->nprocs; x++)
		if (x != q && CUR(p, st, x)[PC(p, st, x)].op != ENG_END)
			n = add_unique(out, n, x);
	return n;
}

int eng_waits_for(const struct eng_prog *p, const int32_t *st, int q, int *out)
{
	const struct eng_instr *in = &CUR(p, st, q)[PC(p, st, q)];
	const int32_t *m = MSG(p, st);
	int n = 0, i, count, live;

	switch (in->op) {
	case ENG_COLL:
		return coll_waits_for(p, st, q, in, out, 0);
	case ENG_PROBE:
		if (in->a == ENG_PROC_NULL)
			return 0;
		return in->a == ENG_ANY ? anyone(p, st, q, out, 0) :
					  add_rank(p, st, in->a, q, out, 0);
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
	case ENG_THREAD_AFTER:
		for (i = 0; i + 1 < in->n; i += 2)
			if (!pair_done(p, st, in->list[i], in->list[i + 1]))
				n = in->list[i] != q ? add_unique(out, n, in->list[i]) : n;
		return n;
	case ENG_WIN_LOCK:
		return win_lock_holders(p, st, q, in, out, 0);
	case ENG_BUF_DETACH:
		/* the receivers of its messages still in the buffer */
		for (i = 0; i < st[ENG_ST_NMSG]; i++)
			if (RANK(p, msg_src(m[2 * i])) == RANK(p, q) && msg_occupies(p, st, i))
				n = add_rank(p, st, m[2 * i] >> 16, q, out, n);
		return n;
	case ENG_WAIT:
	case ENG_WAITANY:
	case ENG_WAIT_SOME:
		break;
	default:
		return 0;
	}
	/* a verify any-completion waits for any of its requests; an ENG_WAIT_LIVE wait, for the
	 * live ones its posts made */
	count = in->op == ENG_WAITANY && !p->verify ? in->d : in->n;
	live = in->sym & ENG_WAIT_LIVE ? NLIVE(p, st, q) : count;
	for (i = 0; i < live; i++) {
		struct eng_instr tmp;
		const struct eng_instr *post;
		int li = in->sym & ENG_WAIT_LIVE ? i : live_find(p, st, q, in->list[i]), dest;

		if (li < 0 || (LIVE(p, st, q)[li] & 1) ||
		    ((in->sym & ENG_WAIT_LIVE) && !wait_takes(p, st, q, li, in)))
			continue;
		post = live_instr(p, st, q, li, &tmp);
		if (post->op == ENG_ICOLL) {
			n = coll_waits_for(p, st, q, post, out, n);
			continue;
		}
		if (post->op == ENG_GREQ)
			continue; /* only its own process completes it */
		dest = post->op == ENG_POST_SEND ?
			       sent_to(p, st, q, LIVE(p, st, q)[li] >> 1, post) :
			       post->a;
		if (dest == ENG_ANY)
			n = anyone(p, st, q, out, n);
		else if (dest >= 0)
			n = add_rank(p, st, dest, q, out, n);
	}
	return n;
}

/* ---- model.dat ---- */

int eng_prog_write(const struct eng_prog *p, FILE *f)
{
	int r, i, j;

	fprintf(f, "%s %d\n", ENG_FORMAT, ENG_VERSION);
	fprintf(f,
		"nranks %d nprocs %d ncomms %d maxlive %d maxmsg %d buffering %d eager %lld "
		"sync_colls %d bsend_overhead %lld nregs %d verify %d full %d\n",
		p->nranks, p->nprocs, p->ncomms, p->maxlive, p->maxmsg, p->buffering,
		(long long)p->eager, p->sync_colls != 0, (long long)p->bsend_overhead, p->nregs,
		p->verify != 0, p->full != 0);
	for (i = 0; i < p->ncomms; i++) {
		fprintf(f, "comm %d %d", i, p->comms[i].n);
		for (j = 0; j < p->comms[i].n; j++)
			fprintf(f, " %d", p->comms[i].members[j]);
		fputc('\n', f);
	}
	for (r = 0; r < p->nprocs; r++) {
		fprintf(f, "proc %d %d %d %d\n", r, p->proc_rank[r], p->proc_thread[r], p->nins[r]);
		for (i = 0; i < p->nins[r]; i++) {
			const struct eng_instr *in = &p->ins[r][i];
			int listed = ENG_LISTED(in->op);
			int coll = in->op == ENG_COLL || in->op == ENG_ICOLL;

			/* the fields that share storage, each in its column */
			fprintf(f, "%d %d %d %d %d %d %lld %d %d %d %d", in->op, in->ev, in->a,
				in->b, in->c, in->d, listed ? 0 : (long long)in->bytes, in->reg,
				coll ? 0 : in->sym,
				coll				     ? in->call :
				in->op == ENG_POST_SEND		     ? in->site :
				in->op == ENG_POST_RECV && p->verify ? in->rreg :
								       0,
				listed ? in->n : 0);
			for (j = 0; listed && j < in->n; j++)
				fprintf(f, " %d", in->list[j]);
			fputc('\n', f);
		}
	}
	fprintf(f, "locks %d\n", p->nlocks);
	for (i = 0; i < p->nlocks; i++) {
		const struct eng_lock *l = &p->locks[i];

		fprintf(f, "%d %d %d %d %d %d\n", l->proc, l->comm, l->target, l->lock, l->unlock,
			l->exclusive);
	}
	fprintf(f, "start %d\n", p->start ? p->words : 0);
	for (i = 0; p->start && i < p->words; i++)
		fprintf(f, "%d%c", p->start[i], i % 16 == 15 || i == p->words - 1 ? '\n' : ' ');
	return ferror(f) ? -1 : 0;
}

static int bad(char *msg, size_t size, const char *what)
{
	snprintf(msg, size, "malformed model data: %s", what);
	return -1;
}

/* Is op an instruction the engine knows? */
static int known_op(int op)
{
	return (op >= ENG_POST_SEND && op <= ENG_CANCEL) || ENG_WIN_OP(op) || op == ENG_GREQ ||
	       op == ENG_GREQ_DONE || op == ENG_THREAD_MARK || op == ENG_THREAD_AFTER;
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

/* Is a a world rank, or ENG_ANY where any is allowed? */
static int is_target(const struct eng_prog *p, int32_t a, int any)
{
	return (a >= 0 && a < p->nranks) || (any && a == ENG_ANY);
}

/* Is world rank r a member of communicator c? */
static int comm_member(const struct eng_comm *c, int32_t r)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->members[i] == r)
			return 1;
	return 0;
}

/* Check the operands of instruction i of process r that name ranks, processes,
 * communicators, modes or instructions, so that no state index can go out of bounds and
 * every instruction a wait names is a request's post. */
static int valid_operands(const struct eng_prog *p, int r, int i, const struct eng_instr *in)
{
	int peer = in->op == ENG_POST_SEND || in->op == ENG_POST_RECV || in->op == ENG_PROBE;
	int coll = in->op == ENG_COLL || in->op == ENG_ICOLL;

	/* a collective's list: the members ENG_COLL_LIST waits for (kept at a mismatch) */
	if (in->ev < 0 ||
	    (coll && in->n != 0 && in->b != ENG_COLL_LIST && in->b != ENG_COLL_MISMATCH))
		return 0;
	if (peer && ((in->a < 0 && in->a != ENG_ANY && in->a != ENG_PROC_NULL) ||
		     in->a >= p->nranks || (in->op == ENG_POST_SEND && in->a == ENG_ANY) ||
		     in->b < 0 || in->b >= p->ncomms || (in->c < 0 && in->c != ENG_ANY)))
		return 0;
	if (in->op == ENG_POST_SEND && (in->d < ENG_SEND_STANDARD || in->d > ENG_SEND_READY))
		return 0;
	if (coll &&
	    (in->a < 0 || in->a >= p->ncomms || in->b < ENG_COLL_ALL || in->b > ENG_COLL_LIST ||
	     in->c < 1 || (in->b == ENG_COLL_ROOT && (in->d < 0 || in->d >= p->nranks))))
		return 0;
	if ((in->op == ENG_WIN_LOCK || in->op == ENG_WIN_UNLOCK) &&
	    (in->a < 0 || in->a >= p->ncomms || !is_target(p, in->b, 1)))
		return 0;
	if (in->op == ENG_WIN_LOCK && ((in->c != 0 && in->c != 1) || (in->d != 0 && in->d != 1)))
		return 0;
	if (ENG_WIN_OP(in->op) &&
	    (in->a < 0 || in->a >= p->ncomms || (ENG_LISTED(in->op) && (in->n & 1))))
		return 0;
	if (in->op == ENG_THREAD_AFTER && (in->n & 1))
		return 0;
	(void)r;
	(void)i;
	return 1;
}

/* Is list entry j of instruction i of ins[0..n) (a process's) one an instruction of that kind
 * may name: a request's post (ENG_WAIT and kin: before it, but in verify's graphs), a pair
 * (process, its instruction or -1) of a window instruction, or a way on of a branch (its
 * target, the first of ENG_BRANCH_WORDS words)? */
static int valid_list(const struct eng_prog *p, const struct eng_instr *ins, int n, int i, int j)
{
	const struct eng_instr *in = &ins[i];
	int op;

	if (in->op == ENG_BRANCH)
		return j % ENG_BRANCH_WORDS || (in->list[j] >= 0 && in->list[j] < n);
	if (in->op == ENG_COLL || in->op == ENG_ICOLL) /* a member of its communicator */
		return comm_member(&p->comms[in->a], in->list[j]);
	if (ENG_WIN_OP(in->op))
		return j & 1 ? in->list[j] >= -1 : in->list[j] >= 0 && in->list[j] < p->nprocs;
	if (in->op == ENG_THREAD_AFTER) /* a mark of another process (checked once all are read) */
		return j & 1 ? in->list[j] >= 0 || in->list[j] == ENG_MARK_END :
			       in->list[j] >= 0 && in->list[j] < p->nprocs;
	if (in->list[j] < 0 || in->list[j] >= (p->verify ? n : i))
		return 0;
	/* verify's live waits name their posts in ascending order (live_listed() looks up) */
	if ((in->op == ENG_WAIT || in->op == ENG_WAITANY) && (in->sym & ENG_WAIT_LIVE) && j > 0 &&
	    in->list[j] <= in->list[j - 1])
		return 0;
	op = ins[in->list[j]].op;
	return op == ENG_POST_SEND || op == ENG_POST_RECV || op == ENG_ICOLL || op == ENG_GREQ;
}

/* Can an instruction of opcode op stand for a poll that succeeded (ENG_POLLED)? */
static int polls(int op)
{
	return op == ENG_WAIT || op == ENG_WAITANY || op == ENG_PROBE || op == ENG_POST_RECV;
}

/* Read process r's n instructions into *out (malloc'ed, *got of them read, for
 * eng_prog_release() to free whatever the outcome). 0, or -1 with msg. */
static int read_instrs(struct eng_prog *p, FILE *f, int r, int n, struct eng_instr **out, int *got,
		       char *msg, size_t size)
{
	int32_t icap = 0;
	char *cancelled = NULL; /* per instruction: a cancel named it */
	int i, j, maxsym = p->verify ? ENG_IN_PARTS | ENG_IN_LAST : 0;

	*out = NULL;
	*got = 0;
	for (i = 0; i < n; i++) {
		struct eng_instr *in;
		long long bytes;
		int32_t listcap = 0, op, sym, key, nlist;
		int listed, coll, wait;

		/* an instruction is zeroed (no list) until its line is read whole: what
		 * eng_prog_release frees is there */
		if (grow((void **)out, &icap, i + 1, sizeof(struct eng_instr)))
			goto oom;
		*got = i + 1;
		in = &(*out)[i];
		if (fscanf(f, "%d %d %d %d %d %d %lld %d %d %d %d", &op, &in->ev, &in->a, &in->b,
			   &in->c, &in->d, &bytes, &in->reg, &sym, &key, &nlist) != 11 ||
		    !known_op(op) || sym < 0)
			goto bad_instr;
		listed = ENG_LISTED(op);
		coll = op == ENG_COLL || op == ENG_ICOLL;
		wait = op == ENG_WAIT || op == ENG_WAITANY;
		/* the fields that share storage (struct eng_instr): each only where its
		 * opcode uses it; verify's (registers, branches, follows) only in its programs */
		if (nlist < 0 || nlist > (1 << 24) || bytes < 0 || bytes > ENG_MAX_BYTES ||
		    in->reg < 0 || in->reg > p->nregs || (in->reg && !p->verify) ||
		    (sym & ~((wait ? (ENG_WAIT_LIVE | (op == ENG_WAIT ? ENG_WAIT_FOLLOW : 0)) *
					      p->verify :
				     maxsym) |
			     (polls(op) ? ENG_POLLED * p->verify : 0))) ||
		    ((op == ENG_POST_SEND || op == ENG_POST_RECV) && (sym & ENG_IN_SOURCE) &&
		     !(op == ENG_POST_SEND ? in->reg : key)) ||
		    (op == ENG_BRANCH &&
		     (!p->verify || in->a < -1 || in->a >= p->nregs || (in->a < 0 && sym) ||
		      nlist % ENG_BRANCH_WORDS || nlist == 0)) ||
		    (!listed && nlist) || (listed && bytes) || (coll && sym) ||
		    (key && op != ENG_POST_SEND && !coll && !(op == ENG_POST_RECV && p->verify)) ||
		    key < 0 || (coll && key > INT16_MAX) ||
		    (op == ENG_POST_RECV && key > p->nregs) || (op == ENG_CANCEL && p->verify) ||
		    ((sym & ENG_WAIT_FOLLOW) && op == ENG_WAIT &&
		     (!(sym & ENG_WAIT_LIVE) || in->reg < 1)))
			goto bad_instr;
		in->op = (int16_t)op; /* small, as checked */
		if (listed)
			in->n = nlist;
		else
			in->bytes = bytes;
		if (coll)
			in->call = (int16_t)key;
		else
			in->sym = (int16_t)sym;
		if (op == ENG_POST_SEND)
			in->site = key;
		if (op == ENG_POST_RECV)
			in->rreg = key;
		if (!valid_operands(p, r, i, in)) {
			free(cancelled);
			return bad(msg, size, "operands");
		}
		for (j = 0; listed && j < in->n; j++) {
			if (grow((void **)&in->list, &listcap, j + 1, sizeof(int32_t))) {
				in->n = j;
				goto oom;
			}
			if (fscanf(f, "%d", &in->list[j]) != 1) {
				in->n = j;
				free(cancelled);
				return bad(msg, size, "wait list");
			}
		}
	}
	/* what instructions name: only once every one is read (verify's graphs name later
	 * ones) */
	for (i = 0; i < n; i++) {
		struct eng_instr *in = &(*out)[i];

		for (j = 0; ENG_LISTED(in->op) && j < in->n; j++)
			if (!valid_list(p, *out, n, i, j)) {
				free(cancelled);
				return bad(msg, size, "wait list");
			}
		/* a cancel names a send or receive its process posted before it, once */
		if (in->op == ENG_CANCEL && !cancelled && !(cancelled = calloc((size_t)n, 1)))
			goto oom;
		if (in->op == ENG_CANCEL &&
		    (in->a < 0 || in->a >= i ||
		     ((*out)[in->a].op != ENG_POST_SEND && (*out)[in->a].op != ENG_POST_RECV) ||
		     cancelled[in->a])) {
			free(cancelled);
			return bad(msg, size, "cancel");
		}
		if (in->op == ENG_CANCEL) {
			cancelled[in->a] = 1;
			if ((*out)[in->a].op == ENG_POST_RECV)
				(*out)[in->a].cancel = i;
		}
		/* a generalized request's completion names its start, before it */
		if ((in->op == ENG_GREQ_DONE &&
		     (in->a < 0 || in->a >= i || (*out)[in->a].op != ENG_GREQ)) ||
		    (in->op == ENG_WAITANY && (in->d < 1 || in->d > in->n)) ||
		    ((in->op == ENG_WAIT || in->op == ENG_WAIT_SOME) && in->n < 1 &&
		     !(in->op == ENG_WAIT && (in->sym & ENG_WAIT_FOLLOW)))) {
			free(cancelled);
			return bad(msg, size,
				   in->op == ENG_GREQ_DONE ? "generalized request" : "wait list");
		}
	}
	free(cancelled);
	/* every instruction has one to go on to: the last is an end, or a branch (verify) */
	if ((*out)[n - 1].op != ENG_END && (*out)[n - 1].op != ENG_STOP &&
	    (*out)[n - 1].op != ENG_BRANCH)
		return bad(msg, size, "program without an end");
	return 0;
bad_instr:
	free(cancelled);
	return bad(msg, size, "instruction");
oom:
	free(cancelled);
	return bad(msg, size, "out of memory");
}

/* Is st a state the engine can run from: every index in range, the requests and messages in
 * order, every unused word 0? Only for a program without variants or registers, whose words
 * past the messages are 0. */
static int valid_state(const struct eng_prog *p, const int32_t *st)
{
	const int32_t *m = MSG(p, st);
	int q, i, nmsg = st[ENG_ST_NMSG];

	if (st[ENG_ST_OVERFLOW] < 0 || st[ENG_ST_OVERFLOW] > 1 || nmsg < 0 || nmsg > p->maxmsg ||
	    st[ENG_ST_ERROR] < 0 || st[ENG_ST_ERROR] > p->nprocs)
		return 0;
	for (q = 0; q < p->nprocs; q++) {
		int pc = PC(p, st, q);

		if (pc < 0 || pc >= p->nins[q] || NLIVE(p, st, q) < 0 ||
		    NLIVE(p, st, q) > p->maxlive)
			return 0;
		for (i = 0; i < p->maxlive; i++) {
			int32_t e = LIVE(p, st, q)[i];
			int op;

			if (i >= NLIVE(p, st, q)) {
				if (e)
					return 0;
				continue;
			}
			if (e < 0 || (e >> 1) >= pc ||
			    (i > 0 && (e >> 1) <= (LIVE(p, st, q)[i - 1] >> 1)))
				return 0;
			op = p->ins[q][e >> 1].op;
			if (op != ENG_POST_SEND && op != ENG_POST_RECV && op != ENG_ICOLL &&
			    op != ENG_GREQ)
				return 0;
		}
	}
	for (i = p->off_coll; i < p->off_nlive; i++)
		if (st[i] < 0)
			return 0;
	for (i = p->off_buf; i < p->off_reg; i++)
		if (st[i] < 0)
			return 0;
	for (i = 0; i < p->maxmsg; i++) {
		int32_t k = m[2 * i], v = m[2 * i + 1];
		int src = msg_src(k);

		if (i >= nmsg) {
			if (k || v)
				return 0;
			continue;
		}
		if (k < 0 || v < 0 || src >= p->nprocs || (k >> 16) >= p->nranks ||
		    (v >> 1) >= PC(p, st, src) || p->ins[src][v >> 1].op != ENG_POST_SEND)
			return 0;
		if (i > 0 && (m[2 * i - 2] > k || (m[2 * i - 2] == k && m[2 * i - 1] >= v)))
			return 0;
	}
	return 1;
}

/* The start state, after the program (none: "start 0"). 0, or -1 with msg. */
static int read_start(struct eng_prog *p, FILE *f, char *msg, size_t size)
{
	int n, i;

	if (fscanf(f, " start %d", &n) != 1 || (n != 0 && n != p->words))
		return bad(msg, size, "start");
	if (n == 0)
		return 0;
	if (p->verify)
		return bad(msg, size, "a start state in a program of verify's");
	p->start = calloc((size_t)n, sizeof(*p->start));
	if (!p->start)
		return bad(msg, size, "out of memory");
	for (i = 0; i < n; i++)
		if (fscanf(f, "%d", &p->start[i]) != 1)
			return bad(msg, size, "start");
	if (!valid_state(p, p->start))
		return bad(msg, size, "start state");
	return 0;
}

/* Does every ENG_THREAD_AFTER name marks of other processes of its rank? */
static int thread_pairs_valid(const struct eng_prog *p)
{
	int q, i, j;

	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];

			for (j = 0; in->op == ENG_THREAD_AFTER && j + 1 < in->n; j += 2) {
				int o = in->list[j], x = in->list[j + 1];

				if (o == q || p->proc_rank[o] != p->proc_rank[q] ||
				    (x != ENG_MARK_END &&
				     (x >= p->nins[o] || p->ins[o][x].op != ENG_THREAD_MARK)))
					return 0;
			}
		}
	return 1;
}

int eng_prog_read(struct eng_prog *p, FILE *f, char *msg, size_t size)
{
	char fmt[32];
	int version, r, i, j, id, n, rank, thread;
	int32_t ccap = 0, lcap = 0, ncomms, nlocks;
	long long eager, overhead;
	int64_t words;

	memset(p, 0, sizeof(*p));
	if (fscanf(f, "%31s %d", fmt, &version) != 2 || strcmp(fmt, ENG_FORMAT) ||
	    version != ENG_VERSION)
		return bad(msg, size, "header");
	if (fscanf(f,
		   " nranks %d nprocs %d ncomms %d maxlive %d maxmsg %d buffering %d eager %lld "
		   "sync_colls %d bsend_overhead %lld nregs %d verify %d full %d",
		   &p->nranks, &p->nprocs, &ncomms, &p->maxlive, &p->maxmsg, &p->buffering, &eager,
		   &p->sync_colls, &overhead, &p->nregs, &p->verify, &p->full) != 12 ||
	    (p->full != 0 && p->full != 1) || (p->sync_colls != 0 && p->sync_colls != 1) ||
	    p->nranks <= 0 || p->nranks > 0x7fff || p->nprocs < p->nranks || p->nprocs > 0x7fff ||
	    ncomms <= 0 || p->maxlive < 1 || p->maxmsg < 1 || p->maxmsg > (1 << 24) ||
	    p->buffering < ENG_BUF_ZERO || p->buffering > ENG_BUF_EAGER || overhead < 0 ||
	    overhead > ENG_MAX_BYTES || eager > ENG_MAX_BYTES || p->nregs < 0 || p->nregs > 1024 ||
	    (p->verify != 0 && p->verify != 1) || (!p->verify && p->nregs))
		return bad(msg, size, "sizes");
	/* eng_layout's sums, in 64 bits: they must fit the state */
	words = ENG_ST_HEADER + (int64_t)p->nprocs * (2 + p->maxlive) +
		(int64_t)ncomms * p->nranks + p->nranks + 2 * (int64_t)p->maxmsg +
		(int64_t)p->nprocs * p->verify * (p->maxlive + ENG_REG_WORDS * (int64_t)p->nregs);
	if (words > ENG_MAX_WORDS)
		return bad(msg, size, "a state larger than the engine allows");
	p->eager = eager;
	p->bsend_overhead = overhead;
	p->nins = calloc((size_t)p->nprocs, sizeof(*p->nins));
	p->ins = calloc((size_t)p->nprocs, sizeof(*p->ins));
	p->proc_rank = calloc((size_t)p->nprocs, sizeof(*p->proc_rank));
	p->proc_thread = calloc((size_t)p->nprocs, sizeof(*p->proc_thread));
	if (!p->nins || !p->ins || !p->proc_rank || !p->proc_thread)
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
	for (r = 0; r < p->nprocs; r++) {
		/* processes by rank, every rank with one at least; instruction indices are
		 * shifted left by one in the state */
		if (fscanf(f, " proc %d %d %d %d", &id, &rank, &thread, &n) != 4 || id != r ||
		    rank < 0 || rank >= p->nranks ||
		    (r > 0 ? rank != p->proc_rank[r - 1] && rank != p->proc_rank[r - 1] + 1 :
			     rank != 0) ||
		    (r == p->nprocs - 1 && rank != p->nranks - 1) || n < 1 || n >= 1 << 28)
			return bad(msg, size, "process");
		p->proc_rank[r] = rank;
		p->proc_thread[r] = thread;
		if (read_instrs(p, f, r, n, &p->ins[r], &p->nins[r], msg, size))
			return -1;
	}
	if (fscanf(f, " locks %d", &nlocks) != 1 || nlocks < 0)
		return bad(msg, size, "locks");
	if (grow((void **)&p->locks, &lcap, 1, sizeof(*p->locks)))
		return bad(msg, size, "out of memory");
	for (i = 0; i < nlocks; i++) {
		struct eng_lock *l;

		if (grow((void **)&p->locks, &lcap, i + 1, sizeof(*p->locks)))
			return bad(msg, size, "out of memory");
		p->nlocks = i + 1;
		l = &p->locks[i];
		if (fscanf(f, "%d %d %d %d %d %d", &l->proc, &l->comm, &l->target, &l->lock,
			   &l->unlock, &l->exclusive) != 6 ||
		    l->proc < 0 || l->proc >= p->nprocs || l->comm < 0 || l->comm >= p->ncomms ||
		    l->target < 0 || l->target >= p->nranks || l->lock < 0 ||
		    l->lock >= p->nins[l->proc] || l->unlock <= l->lock ||
		    (l->exclusive != 0 && l->exclusive != 1))
			return bad(msg, size, "lock");
	}
	if (!thread_pairs_valid(p))
		return bad(msg, size, "thread order");
	eng_layout(p);
	return read_start(p, f, msg, size);
}

/* A block of lists: the first one holds LISTS_FIRST entries, each next one twice as many as
 * the one before, up to LISTS_MOST, so that a program has few of them (its release asks of
 * every list whether a block holds it); a longer list has a block of its own. */
struct eng_lists {
	struct eng_lists *next; /* the block before */
	size_t used, cap;	/* entries given, room */
	int32_t w[];
};

#define LISTS_FIRST ((size_t)1 << 12)
#define LISTS_MOST ((size_t)1 << 24)

int32_t *eng_list_alloc(struct eng_prog *p, size_t n)
{
	struct eng_lists *b = p->lists;
	size_t cap;

	n = n ? n : 1;
	if (b && b->cap - b->used >= n) {
		b->used += n;
		return &b->w[b->used - n];
	}
	cap = b ? 2 * b->cap : LISTS_FIRST;
	cap = cap < LISTS_MOST ? cap : LISTS_MOST;
	cap = cap > n ? cap : n;
	b = malloc(sizeof(*b) + cap * sizeof(int32_t));
	if (!b)
		return NULL;
	b->used = n;
	b->cap = cap;
	if (p->lists && n > LISTS_MOST / 2) { /* its own: the current block goes on */
		b->next = p->lists->next;
		p->lists->next = b;
	} else {
		b->next = p->lists;
		p->lists = b;
	}
	return b->w;
}

size_t eng_list_bytes(const struct eng_prog *p)
{
	const struct eng_lists *b;
	size_t bytes = 0;

	for (b = p->lists; b; b = b->next)
		bytes += sizeof(*b) + b->cap * sizeof(int32_t);
	return bytes;
}

/* Does one of p's blocks hold list l? */
static int in_blocks(const struct eng_prog *p, const int32_t *l)
{
	const struct eng_lists *b;
	uintptr_t x = (uintptr_t)l;

	for (b = p->lists; b && l; b = b->next)
		if (x >= (uintptr_t)b->w && x < (uintptr_t)(b->w + b->cap))
			return 1;
	return 0;
}

/* Free instructions ins[0..n) of p, their lists but those its blocks hold, and the array. */
static void free_instrs(const struct eng_prog *p, struct eng_instr *ins, int n)
{
	int i;

	for (i = 0; ins && i < n; i++)
		if (ENG_LISTED(ins[i].op) && (!p->lists || !in_blocks(p, ins[i].list)))
			free(ins[i].list);
	free(ins);
}

void eng_prog_release(struct eng_prog *p)
{
	int r, i;

	for (r = 0; p->ins && r < p->nprocs; r++)
		free_instrs(p, p->ins[r], p->nins[r]);
	for (r = 0; p->prevcoll && r < p->nprocs; r++)
		free(p->prevcoll[r]);
	free(p->prevcoll);
	for (r = 0; p->uncontended && r < p->nprocs; r++)
		free(p->uncontended[r]);
	free(p->uncontended);
	wenv_release(p);
	for (i = 0; p->comms && i < p->ncomms; i++)
		free(p->comms[i].members);
	free(p->ins);
	free(p->nins);
	free(p->comms);
	free(p->locks);
	free(p->proc_rank);
	free(p->proc_thread);
	free(p->rank_proc);
	free(p->start);
	while (p->lists) {
		struct eng_lists *b = p->lists;

		p->lists = b->next;
		free(b);
	}
	memset(p, 0, sizeof(*p));
}
