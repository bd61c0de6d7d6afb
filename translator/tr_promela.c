/* Translator: a standalone Promela model of a trace (doc/promela.md). It is written from the
 * engine program check searches (tr_translate()), so that both judge the same calls, but the
 * MPI rules are written out in Promela here, independently of models/engine.c: messages on
 * channels, receives matched by a library process per rank, collectives by counters, and
 * every interleaving left to SPIN (no reduction), so that SPIN on this model is a second
 * oracle for the engine, and a model a person can read, change and ask questions of. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "srcloc.h"
#include "translate.h"
#include "xalloc.h"
#include "tr_promela.h"

/* models/standalone.pml, built in by make (translator/tr_prelude.gen.c) */
extern const char tr_prelude[];

/* ---- text ---- */

/* A growing string, for the expressions the model is made of. */
struct sb {
	char *s;
	size_t n, cap;
};

static void sb_add(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	xgrow((void **)&b->s, &b->cap, b->n + (size_t)k + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)k;
}

/* Start a conjunction or disjunction term: " && " or " || " after the first. */
static void sb_op(struct sb *b, size_t start, const char *op)
{
	if (b->n > start)
		sb_add(b, " %s ", op);
}

static const char *sb_str(struct sb *b)
{
	if (!b->s)
		sb_add(b, "%s", "");
	return b->s;
}

static void sb_clear(struct sb *b)
{
	b->n = 0;
	if (b->s)
		b->s[0] = 0;
}

/* ---- what one program needs: requests, channels, flags ---- */

/* A channel: the messages of one process to one rank on one communicator, in send order. */
struct chan {
	int src;  /* sending process */
	int dst;  /* receiving world rank */
	int comm; /* engine communicator */
	int cap;  /* its sends: room for all of them, so that a send never blocks */
};

struct prog {
	const struct eng_prog *p;
	const struct mpiv_traceset *ts;
	const char *pre; /* name prefix: "" alone, "p3_" among several */
	/* per process, per instruction: request id of a send or receive post,
	 * -1 */
	int **req;
	int nreq;
	/* per process, per instruction (a post): the wait that frees it,
	 * INT_MAX if none does */
	int **freed;
	struct chan *chans;
	int nchans;
	size_t capchans;
	/* per process, per instruction: the win_done flag that says it was
	 * executed (a post or complete others wait for), -1 */
	int **wflag;
	int nwflags;
	int *ncoll; /* per communicator: the most collectives a rank makes on it */
	/* a rank stops, or a completion may leave the recorded path: the
	 * judge decides deadlocks */
	int judged;
	int buffer; /* the program attaches a buffer or makes buffered sends */
	long long maxtag, maxev;
	int npids; /* processes it runs: ranks, libraries, judge */
	/* per process it runs, in that order: the engine process, -1 for
	 * a library or the judge (tr_promela_map.pid_proc) */
	int *pid_proc;
};

static int rank_of(const struct prog *g, int q)
{
	return g->p->proc_rank[q];
}

static int threaded_rank(const struct prog *g, int r)
{
	return g->p->rank_proc[r + 1] - g->p->rank_proc[r] > 1;
}

static int find_chan(const struct prog *g, int src, int dst, int comm)
{
	int k;

	for (k = 0; k < g->nchans; k++)
		if (g->chans[k].src == src && g->chans[k].dst == dst && g->chans[k].comm == comm)
			return k;
	return -1;
}

static int is_blocking(int op)
{
	switch (op) {
	case ENG_WAIT:
	case ENG_WAITANY:
	case ENG_WAIT_SOME:
	case ENG_COLL:
	case ENG_PROBE:
	case ENG_BUF_DETACH:
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
	case ENG_WIN_LOCK:
	case ENG_THREAD_AFTER:
		return 1;
	default:
		return 0;
	}
}

/* SPIN keeps the exit of every d_step of a model in one table of 2048 (spin's dstep.c,
 * MAXDSTEP): more and spin -a stops with "d_step sequence too long". */
#define MAX_DSTEPS 2000

/* The d_steps write_instr() writes for instruction in. */
static int dsteps(const struct prog *g, const struct eng_instr *in)
{
	switch (in->op) {
	case ENG_COLL:
		return 2;   /* enter, leave */
	case ENG_POST_SEND: /* an erroneous send's check is an atomic */
		return in->a == ENG_PROC_NULL ||
		       (in->d != ENG_SEND_READY && in->d != ENG_SEND_BUFFERED);
	case ENG_PROBE:
	case ENG_WIN_POST:
	case ENG_THREAD_MARK:
		return 1; /* (a printf alone at most, else) */
	case ENG_END:
		return g->judged;
	default:
		return 1;
	}
}

/* Does write_instr() encode instructions of kind op? */
static int encodable(int op)
{
	switch (op) {
	case ENG_POST_SEND:
	case ENG_POST_RECV:
	case ENG_WAIT:
	case ENG_WAITANY:
	case ENG_WAIT_SOME:
	case ENG_COLL:
	case ENG_ICOLL:
	case ENG_PROBE:
	case ENG_END:
	case ENG_STOP:
	case ENG_BUF_ATTACH:
	case ENG_BUF_DETACH:
	case ENG_WIN_POST:
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
	case ENG_WIN_LOCK:
	case ENG_WIN_UNLOCK:
	case ENG_GREQ:
	case ENG_GREQ_DONE:
	case ENG_THREAD_MARK:
	case ENG_THREAD_AFTER:
		return 1;
	default:
		return 0;
	}
}

/* What the model cannot encode: 0, or -1 with err naming the rank and event. */
static int refuse(const struct prog *g, struct mpiv_error *err)
{
	const struct eng_prog *p = g->p;
	const struct mpiv_traceset *ts = g->ts;
	long total = 0, steps = p->nranks; /* a library's options: one exit */
	int q, i;

	if (p->verify)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, ts->dir, -1, -1,
				      "a program of "
				      "verify's runs: the standalone model takes one recorded run");
	for (q = 0; q < p->nprocs; q++) {
		total += p->nins[q];
		for (i = 0; i < p->nins[q]; i++)
			steps += dsteps(g, &p->ins[q][i]);
	}
	if (total > TR_PROMELA_MAX_INSTRS || steps > MAX_DSTEPS)
		return mpiv_error_set(
			err, MPIV_EXIT_BAD_INPUT, ts->dir, -1, -1,
			"%ld operations (a blocking call counts two, its post and its "
			"wait): the standalone Promela model is for traces of at most "
			"%d, since the C compiler's time and memory on pan.c grow "
			"faster than the trace (check's own model has no such limit)",
			total, TR_PROMELA_MAX_INSTRS);
	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];
			const struct mpiv_event *ev = mpiv_trace_event(&ts->ranks[rank_of(g, q)],
								       in->ev);

			if (!encodable(in->op))
				return mpiv_error_set(
					err, MPIV_EXIT_BAD_INPUT, ts->ranks[rank_of(g, q)].source,
					rank_of(g, q), in->ev,
					"%s: the standalone model does not encode "
					"what the engine makes of it (instruction %d)",
					mpiv_call_name(ev->call), in->op);
			if ((in->op == ENG_POST_SEND || in->op == ENG_POST_RECV ||
			     in->op == ENG_BUF_ATTACH) &&
			    in->bytes > INT_MAX / 4)
				return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT,
						      ts->ranks[rank_of(g, q)].source,
						      rank_of(g, q), in->ev,
						      "%s of %lld bytes: the standalone model "
						      "counts bytes in Promela's 32-bit int",
						      mpiv_call_name(ev->call),
						      (long long)in->bytes);
		}
	return 0;
}

static void prog_analyse(struct prog *g)
{
	const struct eng_prog *p = g->p;
	int q, i, j, k;

	g->req = xcalloc((size_t)p->nprocs, sizeof(*g->req));
	g->freed = xcalloc((size_t)p->nprocs, sizeof(*g->freed));
	g->wflag = xcalloc((size_t)p->nprocs, sizeof(*g->wflag));
	g->ncoll = xcalloc((size_t)p->ncomms, sizeof(*g->ncoll));
	for (q = 0; q < p->nprocs; q++) {
		g->req[q] = xmalloc((size_t)p->nins[q] * sizeof(int));
		g->freed[q] = xmalloc((size_t)p->nins[q] * sizeof(int));
		g->wflag[q] = xmalloc((size_t)p->nins[q] * sizeof(int));
		for (i = 0; i < p->nins[q]; i++) {
			g->req[q][i] = -1;
			g->freed[q][i] = INT_MAX;
			g->wflag[q][i] = -1;
		}
	}
	for (q = 0; q < p->nprocs; q++) {
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];
			int n;

			if (in->ev > g->maxev)
				g->maxev = in->ev;
			switch (in->op) {
			case ENG_POST_SEND:
				g->req[q][i] = g->nreq++;
				if (in->c > g->maxtag)
					g->maxtag = in->c;
				if (in->a == ENG_PROC_NULL)
					break;
				if (in->d == ENG_SEND_BUFFERED)
					g->buffer = 1;
				k = find_chan(g, q, in->a, in->b);
				if (k < 0) {
					xgrow((void **)&g->chans, &g->capchans,
					      (size_t)g->nchans + 1, sizeof(*g->chans));
					k = g->nchans++;
					g->chans[k].src = q;
					g->chans[k].dst = in->a;
					g->chans[k].comm = in->b;
					g->chans[k].cap = 0;
				}
				g->chans[k].cap++;
				break;
			case ENG_POST_RECV:
			case ENG_GREQ:
				g->req[q][i] = g->nreq++;
				break;
			case ENG_WAIT:
			case ENG_WAITANY:
				/* the requests it completes: all, or the trace's first d */
				n = in->op == ENG_WAIT ? in->n : in->d;
				for (j = 0; j < n; j++)
					if (g->freed[q][in->list[j]] == INT_MAX)
						g->freed[q][in->list[j]] = i;
				if (in->op == ENG_WAITANY)
					g->judged = 1;
				break;
			case ENG_WAIT_SOME:
			case ENG_STOP:
				g->judged = 1;
				break;
			case ENG_COLL:
			case ENG_ICOLL:
				if (in->c > g->ncoll[in->a])
					g->ncoll[in->a] = in->c;
				break;
			case ENG_BUF_ATTACH:
				g->buffer = 1;
				break;
			case ENG_WIN_START:
			case ENG_WIN_COMPLETE:
			case ENG_WIN_WAIT:
			case ENG_THREAD_AFTER:
				for (j = 0; j + 1 < in->n; j += 2) {
					int o = in->list[j], x = in->list[j + 1];

					if (x >= 0 && g->wflag[o][x] < 0)
						g->wflag[o][x] = g->nwflags++;
				}
				break;
			}
		}
	}
}

static void prog_release(struct prog *g)
{
	int q;

	for (q = 0; g->req && q < g->p->nprocs; q++) {
		free(g->req[q]);
		free(g->freed[q]);
		free(g->wflag[q]);
	}
	free(g->req);
	free(g->freed);
	free(g->wflag);
	free(g->ncoll);
	free(g->chans);
	free(g->pid_proc);
}

/* ---- names ---- */

/* "rank 2", "rank 2 thread 1": a process as the trail prints it. */
static void proc_label(const struct prog *g, int q, char *buf, size_t size)
{
	int r = rank_of(g, q);

	if (threaded_rank(g, r))
		snprintf(buf, size, "rank %d thread %d", r, g->p->proc_thread[q]);
	else
		snprintf(buf, size, "rank %d", r);
}

/* The proctype of process q: rank2, rank2_t1. */
static void proc_name(const struct prog *g, int q, char *buf, size_t size)
{
	int r = rank_of(g, q);

	if (threaded_rank(g, r))
		snprintf(buf, size, "%srank%d_t%d", g->pre, r, g->p->proc_thread[q]);
	else
		snprintf(buf, size, "%srank%d", g->pre, r);
}

/* Channel k: m_1_0 (process 1 to rank 0 on MPI_COMM_WORLD), m_1t2_0_c5 (thread 2 of rank 1,
 * engine communicator 5). */
static void chan_name(const struct prog *g, int k, char *buf, size_t size)
{
	const struct chan *c = &g->chans[k];
	int r = rank_of(g, c->src), n;

	n = snprintf(buf, size, "%sm_%d", g->pre, r);
	if (threaded_rank(g, r))
		n += snprintf(buf + n, size - (size_t)n, "t%d", g->p->proc_thread[c->src]);
	n += snprintf(buf + n, size - (size_t)n, "_%d", c->dst);
	if (c->comm != 0)
		snprintf(buf + n, size - (size_t)n, "_c%d", c->comm);
}

/* The collective counters of communicator c: coll_world, coll_c5. */
static void coll_name(const struct prog *g, int c, char *buf, size_t size)
{
	if (c == 0)
		snprintf(buf, size, "%scoll_world", g->pre);
	else
		snprintf(buf, size, "%scoll_c%d", g->pre, c);
}

/* Text safe inside a Promela string: no quote, backslash or percent sign. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || *s == '%' || *s == '\n')
			*s = '?';
}

/* "MPI_Recv(source=1, tag=0, comm=WORLD) at a.c:12 (main) [event 3]" for instruction in of
 * process q, sanitized. */
static void describe(const struct prog *g, int q, const struct eng_instr *in, char *buf,
		     size_t size)
{
	struct mpiv_cex_site site;
	char desc[256], where[256] = "";
	int r = rank_of(g, q);

	if (in->op == ENG_THREAD_MARK || in->op == ENG_THREAD_AFTER) {
		snprintf(buf, size, "%s (the threads' order, by event %d)",
			 in->op == ENG_THREAD_MARK ? "a mark other threads wait for" :
						     "waits for other threads",
			 in->ev);
		return;
	}
	tr_describe_event(g->ts, r, in->ev, desc, sizeof(desc));
	tr_event_site(g->ts, r, in->ev, &site);
	if (site.file || site.function) {
		mpiv_srcloc_format(&site, where, sizeof(where));
		snprintf(buf, size, "%s at %s [event %d]", desc, where, in->ev);
	} else {
		snprintf(buf, size, "%s [event %d]", desc, in->ev);
	}
	mpiv_cex_site_release(&site);
	sanitize(buf);
}

/* ---- the writer: counts lines, notes which instruction each line belongs to ---- */

struct writer {
	FILE *f;
	long line; /* the line being written, from 1 */
	struct tr_promela_map *map;
	size_t capmap;
	int at_prog, at_proc, at_instr; /* what the lines written now belong to */
	int judged; /* the program being written: blocking calls are end states */
};

static void note_line(struct writer *w)
{
	struct tr_promela_map *m = w->map;

	if (!m)
		return;
	if ((size_t)w->line + 1 > w->capmap) {
		size_t cap = w->capmap, old = w->capmap;

		xgrow((void **)&m->line_prog, &cap, (size_t)w->line + 1, sizeof(int));
		cap = old;
		xgrow((void **)&m->line_proc, &cap, (size_t)w->line + 1, sizeof(int));
		cap = old;
		xgrow((void **)&m->line_instr, &cap, (size_t)w->line + 1, sizeof(int));
		w->capmap = cap;
	}
	m->line_prog[w->line] = w->at_prog;
	m->line_proc[w->line] = w->at_proc;
	m->line_instr[w->line] = w->at_instr;
	m->nlines = w->line;
}

static void out(struct writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct writer *w, const char *fmt, ...)
{
	va_list ap;
	char *s, *c;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)k + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)k + 1, fmt, ap);
	va_end(ap);
	for (c = s; *c; c++) {
		if (c == s || c[-1] == '\n')
			note_line(w);
		if (*c == '\n')
			w->line++;
	}
	fputs(s, w->f);
	free(s);
}

static void belongs(struct writer *w, int prog, int proc, int instr)
{
	w->at_prog = prog;
	w->at_proc = proc;
	w->at_instr = instr;
}

/* ---- expressions ---- */

/* "rq[7]" */
static void rq(struct sb *b, const struct prog *g, int q, int i)
{
	sb_add(b, "%srq[%d]", g->pre, g->req[q][i]);
}

/* Members of communicator c that have entered its n-th collective: every one (all), or
 * those before rank r in its order (lower). */
static void coll_entered(struct sb *b, const struct prog *g, int c, int n, int r, int lower)
{
	const struct eng_comm *cm = &g->p->comms[c];
	char name[64];
	size_t start = b->n;
	int i;

	coll_name(g, c, name, sizeof(name));
	for (i = 0; i < cm->n; i++) {
		if (lower && cm->members[i] == r)
			break;
		sb_op(b, start, "&&");
		sb_add(b, "%s[%d] >= %d", name, cm->members[i], n);
	}
	if (b->n == start)
		sb_add(b, "true");
}

/* May rank r leave collective in (entered)? Without buffering each waits for every member;
 * with it, for whom its rule names (doc/semantics.md 5.2); never at a mismatch. */
static void coll_done(struct sb *b, const struct prog *g, int r, const struct eng_instr *in)
{
	char name[64];
	int i;

	coll_name(g, in->a, name, sizeof(name));
	if (in->b == ENG_COLL_MISMATCH) {
		sb_add(b, "false");
		return;
	}
	sb_add(b, "(");
	coll_entered(b, g, in->a, in->c, r, 0);
	switch (in->b) {
	case ENG_COLL_NONE:
		sb_add(b, " || !SYNC_COLLECTIVES");
		break;
	case ENG_COLL_ROOT:
		sb_add(b, " || (!SYNC_COLLECTIVES && %s[%d] >= %d)", name, in->d, in->c);
		break;
	case ENG_COLL_LOWER:
		sb_add(b, " || (!SYNC_COLLECTIVES && ");
		coll_entered(b, g, in->a, in->c, r, 1);
		sb_add(b, ")");
		break;
	case ENG_COLL_LIST: /* the in-neighbours (none: nobody) */
		sb_add(b, " || (!SYNC_COLLECTIVES");
		for (i = 0; i < in->n; i++)
			sb_add(b, " && %s[%d] >= %d", name, in->list[i], in->c);
		sb_add(b, ")");
		break;
	}
	sb_add(b, ")");
}

/* Is the request of post instruction k of process q complete? */
static void req_done(struct sb *b, const struct prog *g, int q, int k)
{
	const struct eng_instr *in = &g->p->ins[q][k];

	if (in->op == ENG_ICOLL) {
		coll_done(b, g, rank_of(g, q), in);
		return;
	}
	rq(b, g, q, k);
	sb_add(b, " == DONE");
}

/* Is the request of post instruction k of process q no longer pending (complete, or freed)? */
static void req_settled(struct sb *b, const struct prog *g, int q, int k)
{
	if (g->p->ins[q][k].op == ENG_ICOLL) {
		req_done(b, g, q, k);
		return;
	}
	rq(b, g, q, k);
	sb_add(b, " != PENDING");
}

/* The message fields after the tag, as "_" for a poll: request, event, sync, occupied. */
static const char *rest_any(const struct prog *g)
{
	return g->buffer ? "_, _, _, _" : "_, _, _";
}

/* Terms saying that the message a receive or probe of process q at instruction `at` would
 * take from channel k (the first with tag `tag`, or the channel's head for ENG_ANY) is not
 * one that an earlier posted receive of q, open still, also matches: receives do not overtake
 * each other (MPI-4.1 3.5). Receives a wait freed before `at` are left out. */
static void not_wanted(struct sb *b, const struct prog *g, int q, int at, int k, int tag)
{
	const struct chan *c = &g->chans[k];
	char ch[64];
	int y;

	chan_name(g, k, ch, sizeof(ch));
	for (y = 0; y < at; y++) {
		const struct eng_instr *in = &g->p->ins[q][y];

		if (in->op != ENG_POST_RECV || in->a == ENG_PROC_NULL || in->b != c->comm ||
		    (in->a != ENG_ANY && in->a != rank_of(g, c->src)) || g->freed[q][y] < at)
			continue;
		if (tag != ENG_ANY && in->c != ENG_ANY && in->c != tag)
			continue; /* it wants another tag */
		sb_add(b, " && ");
		if (tag == ENG_ANY && in->c != ENG_ANY) {
			sb_add(b, "(");
			rq(b, g, q, y);
			sb_add(b, " != PENDING || !%s?[%d, %s])", ch, in->c, rest_any(g));
		} else {
			rq(b, g, q, y);
			sb_add(b, " != PENDING");
		}
	}
}

/* A message on channel k that a receive (tag, or ENG_ANY) would take: the first with the tag,
 * or the head. */
static void has_message(struct sb *b, const struct prog *g, int k, int tag)
{
	char ch[64];

	chan_name(g, k, ch, sizeof(ch));
	if (tag == ENG_ANY)
		sb_add(b, "nempty(%s)", ch);
	else
		sb_add(b, "%s??[%d, %s]", ch, tag, rest_any(g));
}

/* Does channel k carry messages a receive of source src (a rank, or ENG_ANY) may take? */
static int chan_from(const struct prog *g, int k, int dst, int comm, int src)
{
	const struct chan *c = &g->chans[k];

	return c->dst == dst && c->comm == comm && (src == ENG_ANY || rank_of(g, c->src) == src);
}

/* Is a receive of rank d matching a send of process q (envelope in) open? (A ready send may
 * only start then.) */
static void receive_posted(struct sb *b, const struct prog *g, int q, const struct eng_instr *in)
{
	const struct eng_prog *p = g->p;
	size_t start = b->n;
	int o, y;

	for (o = p->rank_proc[in->a]; o < p->rank_proc[in->a + 1]; o++)
		for (y = 0; y < p->nins[o]; y++) {
			const struct eng_instr *r = &p->ins[o][y];

			if (r->op != ENG_POST_RECV || (r->a != ENG_ANY && r->a != rank_of(g, q)) ||
			    r->b != in->b || (r->c != ENG_ANY && r->c != in->c))
				continue;
			sb_op(b, start, "||");
			rq(b, g, o, y);
			sb_add(b, " == PENDING");
		}
	if (b->n == start)
		sb_add(b, "false");
}

/* ---- the prelude ---- */

static const char *mode_name(int mode)
{
	return mode == ENG_BUF_INFINITE ? "INFINITE" : mode == ENG_BUF_EAGER ? "EAGER" : "ZERO";
}

static void write_header(struct writer *w, const char *path, const struct tr_promela_input *in,
			 int n, const struct tr_promela_opts *o)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (o->choose)
		out(w,
		    "/* mpiverify: standalone Promela models of %d traces, one chosen by init, "
		    "for the\n * differential tests (tests/tools/oracles.c). Each program is "
		    "what `mpiverify check\n * --promela` writes, its names prefixed.\n",
		    n);
	else
		out(w,
		    "/* mpiverify: a standalone Promela model of the MPI trace in '%s' (%d "
		    "rank%s),\n * written by `mpiverify check --promela`. SPIN checks it on "
		    "its own:\n *\n *\tspin -a %s && cc -o pan pan.c && ./pan\n *\n"
		    " * A deadlock is an \"invalid end state\": a rank that has not finished can "
		    "no longer move.\n * `./pan -r` replays the trail pan wrote, and each step "
		    "prints the rank, the call and,\n * for a receive, the message it took. An "
		    "\"assertion violated\" is an erroneous call: a ready\n * send before its "
		    "receive is posted, a buffered send the attached buffer has no room for.\n",
		    in[0].ts->dir, in[0].prog->nranks, in[0].prog->nranks == 1 ? "" : "s", base);
	out(w, " */\n\n");
	out(w, "/* How the library treats a standard send: ZERO (none is buffered: each waits "
	       "for its\n"
	       " * receive, the portable worst case), INFINITE (each completes at once), or "
	       "EAGER (those of\n"
	       " * at most EAGER_LIMIT bytes complete at once, larger ones wait). Change it here. "
	       "*/\n");
	if (o->choose)
		out(w, "byte buffering;\t\t/* chosen by init */\n#define BUFFERING buffering\n");
	else
		out(w, "#define BUFFERING %s\n", mode_name(o->buffering));
	out(w, "#define EAGER_LIMIT %lld\n\n", o->eager < INT_MAX ? o->eager : INT_MAX);
	/* the rules and the macros every model has, from models/standalone.pml */
	out(w, "%s", tr_prelude);
}

/* The room a buffered send of `bytes` takes in the attached buffer while it waits for its
 * receive; declared only for a program that uses the buffer. */
static void write_buffer_prelude(struct writer *w, const struct prog *g)
{
	out(w,
	    "/* The room a buffered send of `bytes` bytes takes in the attached buffer until "
	    "its receive\n * takes it (none when the library transmits it at once). */\n"
	    "#define %sBSEND_OVERHEAD %lld\n"
	    "#define %sOCCUPIES(bytes) (BUFFERED(bytes) -> 0 : (bytes) + %sBSEND_OVERHEAD)\n\n",
	    g->pre, (long long)g->p->bsend_overhead, g->pre, g->pre);
}

/* ---- one program: its globals ---- */

static const char *int_type(long long max)
{
	return max < 256 ? "byte" : max < 32768 ? "short" : "int";
}

/* Bytes of pan's state vector, at most: the globals and the processes' own. */
static long state_bytes(const struct prog *g)
{
	const struct eng_prog *p = g->p;
	long msg = (g->maxtag < 256   ? 1 :
		    g->maxtag < 32768 ? 2 :
					4) +
		   2 +
		   (g->maxev < 256   ? 1 :
		    g->maxev < 32768 ? 2 :
				       4) +
		   1 + (g->buffer ? 4 : 0);
	long n = 64 + g->nreq + g->nwflags + p->nlocks + 16L * p->nprocs + 24L * p->nranks;
	int k, c;

	for (k = 0; k < g->nchans; k++)
		n += 8 + (long)g->chans[k].cap * msg;
	for (c = 0; c < p->ncomms; c++)
		if (g->ncoll[c])
			n += (long)p->nranks * (g->ncoll[c] < 256   ? 1 :
						g->ncoll[c] < 32768 ? 2 :
								      4);
	if (g->buffer)
		n += 8L * p->nranks;
	if (g->judged)
		n += 3L * p->nprocs + 8;
	return n;
}

/* pan's state vector has room for 1024 bytes unless VECTORSZ says more. */
static void write_vectorsz(struct writer *w, const struct prog *g)
{
	long need = state_bytes(g) * 3 / 2, room = 1024;

	while (room < need)
		room *= 2;
	if (room > 1024)
		out(w,
		    "/* The state is larger than pan's default room for it (1024 bytes). */\n"
		    "c_decl { \\#define VECTORSZ %ld }\n\n",
		    room);
}

static void write_globals(struct writer *w, const struct prog *g)
{
	const struct eng_prog *p = g->p;
	char name[64];
	int k, c, nheld = p->nlocks;

	out(w,
	    "/* Requests, by the post that made them (the comment at each call gives its id). "
	    "*/\nbyte %srq[%d];\n\n",
	    g->pre, g->nreq > 0 ? g->nreq : 1);
	if (g->nchans)
		out(w,
		    "/* Messages in flight: a channel per (sender, receiver, communicator), room "
		    "for all its\n * sends. A message: its tag, its send's request, the "
		    "sender's event, whether the send\n * waits for its receive%s. */\n",
		    g->buffer ? ", the room it takes in the sender's attached buffer" : "");
	for (k = 0; k < g->nchans; k++) {
		char from[48], comm[48] = "";

		chan_name(g, k, name, sizeof(name));
		proc_label(g, g->chans[k].src, from, sizeof(from));
		if (g->chans[k].comm != 0)
			snprintf(comm, sizeof(comm), ", on communicator c%d", g->chans[k].comm);
		out(w, "chan %s = [%d] of { %s, short, %s, bit%s };\t/* %s to rank %d%s */\n", name,
		    g->chans[k].cap, int_type(g->maxtag), int_type(g->maxev),
		    g->buffer ? ", int" : "", from, g->chans[k].dst, comm);
	}
	if (g->nchans)
		out(w, "\n");
	for (c = 0; c < p->ncomms; c++) {
		if (!g->ncoll[c])
			continue;
		coll_name(g, c, name, sizeof(name));
		if (c == 0)
			out(w,
			    "/* Collectives each rank entered on MPI_COMM_WORLD (by world rank) */\n");
		else if (c <= p->nranks)
			out(w, "/* Collectives rank %d entered on its MPI_COMM_SELF */\n", c - 1);
		else
			out(w,
			    "/* Collectives each rank entered on a communicator the program made, or "
			    "a window (members:");
		for (k = 0; c > p->nranks && k < p->comms[c].n; k++)
			out(w, " %d", p->comms[c].members[k]);
		if (c > p->nranks)
			out(w, ") */\n");
		out(w, "%s %s[%d];\n", int_type(g->ncoll[c]), name, p->nranks);
	}
	if (g->buffer)
		out(w,
		    "/* Each rank's attached buffer, and the room its messages in flight take in "
		    "it */\nint %sbufsize[%d];\nint %sbufused[%d];\n",
		    g->pre, p->nranks, g->pre, p->nranks);
	if (g->nwflags)
		out(w,
		    "/* One-sided epochs: whether a MPI_Win_post or MPI_Win_complete others "
		    "wait for was made */\nbit %swin_done[%d];\n",
		    g->pre, g->nwflags);
	if (nheld)
		out(w,
		    "/* Passive-target locks: held from the MPI_Win_lock to its unlock (each "
		    "listed at its lock) */\nbit %sheld[%d];\n",
		    g->pre, nheld);
	if (g->judged)
		out(w,
		    "/* For the judge: which processes finished, which stopped */\n"
		    "bit %sfinished[%d];\nbit %sstopped[%d];\n",
		    g->pre, p->nprocs, g->pre, p->nprocs);
	out(w, "\n");
}

/* ---- one program: a rank's process ---- */

/* Write "end_iN: " before a blocking call in a judged program (the judge, not pan's end
 * state check, says which blocked ranks are deadlocked). */
static void blocking_label(struct writer *w, int i)
{
	if (w->judged)
		out(w, "end_i%d:\n", i);
}

/* MPI_Rsend, MPI_Bsend: the check that makes an erroneous call an assertion. */
static void write_erroneous(struct writer *w, int i, const char *cond, const char *who,
			    const char *d, const char *what, const char *rule)
{
	out(w,
	    "\t:: !(%s) ->\n\t\tprintf(\"%s: erroneous: %s %s\\n\");\n"
	    "\t\tassert(false);\t/* %s */\n"
	    "end_erroneous_i%d:\n\t\tfalse\t/* the rank goes no further */\n",
	    cond, who, d, what, rule, i);
}

static void write_send(struct writer *w, const struct prog *g, int q, int i, const char *who,
		       const char *d)
{
	const struct eng_instr *in = &g->p->ins[q][i];
	struct sb cond = {0};
	char ch[64], sync[48], occ[64] = "";
	int k = find_chan(g, q, in->a, in->b), x = g->req[q][i], r = rank_of(g, q), check;

	chan_name(g, k, ch, sizeof(ch));
	switch (in->d) {
	case ENG_SEND_SYNC:
		snprintf(sync, sizeof(sync), "1");
		break;
	case ENG_SEND_BUFFERED:
		snprintf(sync, sizeof(sync), "0");
		break;
	default:
		snprintf(sync, sizeof(sync), "!BUFFERED(%lld)", (long long)in->bytes);
	}
	if (g->buffer)
		snprintf(occ, sizeof(occ), ", %s", in->d == ENG_SEND_BUFFERED ? "" : "0");
	check = in->d == ENG_SEND_READY || in->d == ENG_SEND_BUFFERED;
	if (in->d == ENG_SEND_READY)
		receive_posted(&cond, g, q, in);
	else if (in->d == ENG_SEND_BUFFERED)
		/* copied into the buffer first, whatever the library then does with it */
		sb_add(&cond, "%sbufused[%d] + %lld + %sBSEND_OVERHEAD <= %sbufsize[%d]", g->pre, r,
		       (long long)in->bytes, g->pre, g->pre, r);
	if (check) {
		out(w, "\tatomic {\n\tif\n");
		if (in->d == ENG_SEND_READY)
			write_erroneous(w, i, sb_str(&cond), who, d,
					"starts before a matching "
					"receive is posted",
					"MPI-4.1 3.4: a ready send needs its "
					"receive posted");
		else
			write_erroneous(w, i, sb_str(&cond), who, d,
					"does not fit the attached "
					"buffer",
					"MPI-4.1 3.6: a buffered send needs room in the "
					"attached buffer");
		out(w, "\t:: else ->\n");
	} else {
		out(w, "\td_step {\n");
	}
	if (in->d == ENG_SEND_BUFFERED && g->buffer)
		out(w,
		    "\t\t%s ! %d, %d, %d, 0, %sOCCUPIES(%lld);\t/* tag, request, event, waits, "
		    "room */\n\t\t%sbufused[%d] = %sbufused[%d] + %sOCCUPIES(%lld);\n",
		    ch, in->c, x, in->ev, g->pre, (long long)in->bytes, g->pre, r, g->pre, r,
		    g->pre, (long long)in->bytes);
	else
		out(w, "\t\t%s ! %d, %d, %d, %s%s;\t/* tag, request, event, waits%s */\n", ch,
		    in->c, x, in->ev, sync, occ, g->buffer ? ", room" : "");
	if (in->d == ENG_SEND_SYNC)
		out(w, "\t\t%srq[%d] = PENDING;\n", g->pre, x);
	else if (in->d == ENG_SEND_BUFFERED)
		out(w, "\t\t%srq[%d] = DONE;\n", g->pre, x);
	else
		out(w, "\t\t%srq[%d] = (BUFFERED(%lld) -> DONE : PENDING);\n", g->pre, x,
		    (long long)in->bytes);
	out(w, "\t\tprintf(\"%s: %s sends (request %d)\\n\")\n%s\n", who, d, x,
	    check ? "\tfi\n\t}" : "\t}");
	free(cond.s);
}

/* The wait of instruction in: its requests' states. */
static void write_wait(struct writer *w, const struct prog *g, int q, int i, const char *who,
		       const char *d)
{
	const struct eng_instr *in = &g->p->ins[q][i];
	struct sb cond = {0};
	size_t start;
	int n = in->op == ENG_WAITANY ? in->d : in->n, j;

	start = cond.n;
	for (j = 0; j < n; j++) {
		sb_op(&cond, start, in->op == ENG_WAIT_SOME ? "||" : "&&");
		req_done(&cond, g, q, in->list[j]);
	}
	blocking_label(w, i);
	out(w, "\td_step { (%s) ->\n", sb_str(&cond));
	for (j = 0; j < n; j++) {
		int k = in->list[j];

		if (g->req[q][k] < 0)
			continue; /* a nonblocking collective: nothing to free */
		if (in->op == ENG_WAIT_SOME)
			out(w, "\t\t%srq[%d] = (%srq[%d] == DONE -> FREE : %srq[%d]);\n", g->pre,
			    g->req[q][k], g->pre, g->req[q][k], g->pre, g->req[q][k]);
		else
			out(w, "\t\t%srq[%d] = FREE;\n", g->pre, g->req[q][k]);
	}
	out(w, "\t\tprintf(\"%s: %s returns\\n\") }\n", who, d);
	free(cond.s);
}

/* A probe's condition: a message a receive posted now would match is there, and no open
 * receive of the process takes it first. */
static void probe_found(struct sb *b, const struct prog *g, int q, int i)
{
	const struct eng_instr *in = &g->p->ins[q][i];
	size_t start = b->n;
	int k;

	for (k = 0; k < g->nchans; k++) {
		if (!chan_from(g, k, rank_of(g, q), in->b, in->a))
			continue;
		sb_op(b, start, "||");
		sb_add(b, "(");
		has_message(b, g, k, in->c);
		not_wanted(b, g, q, i, k, in->c);
		sb_add(b, ")");
	}
	if (b->n == start)
		sb_add(b, "false");
}

/* The locks of process q's lock or unlock instruction i (lock_all has one per target). */
static void write_held(struct writer *w, const struct prog *g, int q, int i, int value)
{
	int k;

	for (k = 0; k < g->p->nlocks; k++) {
		const struct eng_lock *l = &g->p->locks[k];

		if (l->proc == q && (value ? l->lock : l->unlock) == i)
			out(w, "\t\t%sheld[%d] = %d;\t/* on rank %d */\n", g->pre, k, value,
			    l->target);
	}
}

/* The comment where process q's trace ends before it finished: why (a call check cannot
 * judge yet is one the model leaves out, with every call after it). */
static void stop_comment(struct writer *w, const struct prog *g, int q)
{
	struct tr_stop s;
	char why[600];

	tr_stop_of(g->ts, rank_of(g, q), &s);
	if (s.kind != TR_STOP_UNJUDGED) {
		out(w, "\t/* the trace ends here: the rank stopped without finishing */\n");
		return;
	}
	tr_stop_describe(g->ts, &s, why, sizeof(why));
	sanitize(why);
	out(w, "\t/* the rank %s; it stops here, as a rank that might have gone on */\n", why);
}

static void write_instr(struct writer *w, const struct prog *g, int q, int i)
{
	const struct eng_prog *p = g->p;
	const struct eng_instr *in = &p->ins[q][i];
	struct sb cond = {0};
	char who[48], d[600], name[64];
	int r = rank_of(g, q), x = g->req[q][i], j, k;

	proc_label(g, q, who, sizeof(who));
	describe(g, q, in, d, sizeof(d));
	switch (in->op) {
	case ENG_POST_SEND:
		if (in->a == ENG_PROC_NULL)
			out(w,
			    "\td_step { %srq[%d] = DONE; printf(\"%s: %s: to MPI_PROC_NULL, "
			    "done\\n\") }\n",
			    g->pre, x, who, d);
		else
			write_send(w, g, q, i, who, d);
		break;
	case ENG_POST_RECV:
		if (in->a == ENG_PROC_NULL)
			out(w,
			    "\td_step { %srq[%d] = DONE; printf(\"%s: %s: from MPI_PROC_NULL, "
			    "done\\n\") }\n",
			    g->pre, x, who, d);
		else
			out(w,
			    "\td_step { %srq[%d] = PENDING; printf(\"%s: %s posts its receive "
			    "(request %d)\\n\") }\n",
			    g->pre, x, who, d, x);
		break;
	case ENG_WAIT:
	case ENG_WAITANY:
	case ENG_WAIT_SOME:
		if (in->op != ENG_WAIT) {
			out(w, "\t/* %s",
			    in->op == ENG_WAITANY ?
				    "the trace has it complete" :
				    "a polling loop that never ended: it waits for one of");
			for (j = 0; j < (in->op == ENG_WAITANY ? in->d : in->n); j++)
				out(w, "%s %s %d", j ? "," : "",
				    g->req[q][in->list[j]] >= 0 ?
					    "request" :
					    "the collective at its instruction",
				    g->req[q][in->list[j]] >= 0 ? g->req[q][in->list[j]] :
								  in->list[j]);
			if (in->op == ENG_WAITANY)
				out(w, "; if another of its requests completes first, the run "
				       "leaves the recorded path");
			out(w, " */\n");
		}
		write_wait(w, g, q, i, who, d);
		break;
	case ENG_COLL:
	case ENG_ICOLL:
		coll_name(g, in->a, name, sizeof(name));
		out(w, "\t/* collective %d on its communicator%s */\n", in->c,
		    in->b == ENG_COLL_MISMATCH ? "; the other members call another collective "
						 "or root here: it never completes (erroneous)" :
						 "");
		out(w, "\td_step { ENTER(%s, %d, %d); printf(\"%s: %s %s\\n\") }\n", name, r, in->c,
		    who, d, in->op == ENG_COLL ? "enters" : "starts");
		if (in->op == ENG_ICOLL)
			break;
		coll_done(&cond, g, r, in);
		blocking_label(w, i);
		out(w, "\td_step { %s -> printf(\"%s: %s returns\\n\") }\n", sb_str(&cond), who, d);
		break;
	case ENG_PROBE:
		if (in->a == ENG_PROC_NULL) {
			out(w, "\tprintf(\"%s: %s: MPI_PROC_NULL, returns\\n\");\n", who, d);
			break;
		}
		probe_found(&cond, g, q, i);
		blocking_label(w, i);
		out(w, "\td_step { (%s) ->\n\t\tprintf(\"%s: %s finds a message\\n\") }\n",
		    sb_str(&cond), who, d);
		break;
	case ENG_END:
		if (g->judged)
			out(w, "\td_step { %sfinished[%d] = 1; printf(\"%s: finished\\n\") }\n",
			    g->pre, q, who);
		else
			out(w, "\tprintf(\"%s: finished\\n\");\n", who);
		break;
	case ENG_STOP:
		stop_comment(w, g, q);
		out(w,
		    "\td_step { %sstopped[%d] = 1; printf(\"%s: stopped (its trace ends)\\n\") "
		    "}\n",
		    g->pre, q, who);
		break;
	case ENG_BUF_ATTACH:
		out(w, "\td_step { %sbufsize[%d] = %lld; printf(\"%s: %s\\n\") }\n", g->pre, r,
		    (long long)in->bytes, who, d);
		break;
	case ENG_BUF_DETACH:
		out(w, "\t/* it waits until no message of the rank takes room in the buffer */\n");
		blocking_label(w, i);
		out(w,
		    "\td_step { %sbufused[%d] == 0 -> %sbufsize[%d] = 0; printf(\"%s: %s "
		    "returns\\n\") }\n",
		    g->pre, r, g->pre, r, who, d);
		break;
	case ENG_WIN_POST:
	case ENG_THREAD_MARK:
		if (g->wflag[q][i] >= 0)
			out(w, "\td_step { %swin_done[%d] = 1; printf(\"%s: %s\\n\") }\n", g->pre,
			    g->wflag[q][i], who, d);
		else
			out(w, "\tprintf(\"%s: %s\\n\");\n", who, d);
		break;
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
	case ENG_THREAD_AFTER: {
		size_t start = cond.n;
		char pair[48];

		out(w, "\t/* it waits for");
		for (j = 0; j + 1 < in->n; j += 2) {
			proc_label(g, in->list[j], pair, sizeof(pair));
			out(w, "%s %s's %s", j ? "," : "", pair,
			    in->op == ENG_WIN_WAIT     ? "MPI_Win_complete" :
			    in->op == ENG_THREAD_AFTER ? "pthread_create or end" :
							 "MPI_Win_post");
			if (in->list[j + 1] < 0)
				out(w, " (never made)");
			sb_op(&cond, start, "&&");
			if (in->list[j + 1] < 0)
				sb_add(&cond, "false");
			else
				sb_add(&cond, "%swin_done[%d]", g->pre,
				       g->wflag[in->list[j]][in->list[j + 1]]);
		}
		if (cond.n == start)
			sb_add(&cond, "true");
		out(w, " */\n");
		blocking_label(w, i);
		out(w, "\td_step { (%s) ->\n", sb_str(&cond));
		if (g->wflag[q][i] >= 0)
			out(w, "\t\t%swin_done[%d] = 1;\n", g->pre, g->wflag[q][i]);
		out(w, "\t\tprintf(\"%s: %s returns\\n\") }\n", who, d);
		break;
	}
	case ENG_WIN_LOCK: {
		size_t start = cond.n;

		for (k = 0; k < p->nlocks; k++) {
			const struct eng_lock *l = &p->locks[k];

			if (rank_of(g, l->proc) == r || l->comm != in->a ||
			    !(in->c || l->exclusive) || (in->b != ENG_ANY && l->target != in->b))
				continue;
			sb_op(&cond, start, "||");
			sb_add(&cond, "%sheld[%d]", g->pre, k);
		}
		out(w, "\t/* it waits while another rank holds a lock on its target that "
		       "conflicts */\n");
		blocking_label(w, i);
		out(w, "\td_step { !(%s) ->\n", cond.n > start ? sb_str(&cond) : "false");
		write_held(w, g, q, i, 1);
		out(w, "\t\tprintf(\"%s: %s acquires\\n\") }\n", who, d);
		break;
	}
	case ENG_WIN_UNLOCK:
		out(w, "\td_step {\n");
		write_held(w, g, q, i, 0);
		out(w, "\t\tprintf(\"%s: %s\\n\") }\n", who, d);
		break;
	case ENG_GREQ:
		out(w,
		    "\td_step { %srq[%d] = PENDING; printf(\"%s: %s starts a generalized "
		    "request (request %d)\\n\") }\n",
		    g->pre, x, who, d, x);
		break;
	case ENG_GREQ_DONE:
		/* a request already freed stays so */
		k = g->req[q][in->a];
		out(w,
		    "\td_step { %srq[%d] = (%srq[%d] == PENDING -> DONE : %srq[%d]); "
		    "printf(\"%s: %s completes request %d\\n\") }\n",
		    g->pre, k, g->pre, k, g->pre, k, who, d, k);
		break;
	default: /* refuse() keeps these out (encodable()) */
		break;
	}
	free(cond.s);
}

static void write_process(struct writer *w, const struct prog *g, int pi, int q,
			  const struct tr_promela_opts *o)
{
	const struct eng_prog *p = g->p;
	char name[64], who[48];
	int i;

	proc_name(g, q, name, sizeof(name));
	proc_label(g, q, who, sizeof(who));
	out(w, "/* ---- %s: its calls in recorded order ---- */\n%sproctype %s()\n{\n", who,
	    o->choose ? "" : "active ", name);
	for (i = 0; i < p->nins[q]; i++) {
		const struct eng_instr *in = &p->ins[q][i];
		char d[600];

		belongs(w, pi, q, i);
		/* a call's comment once, before its first step (a blocking call has two) */
		if (i == 0 || p->ins[q][i - 1].ev != in->ev) {
			describe(g, q, in, d, sizeof(d));
			out(w, "\t/* %s */\n", d);
		}
		write_instr(w, g, q, i);
	}
	belongs(w, -1, -1, -1);
	out(w, "}\n\n");
}

/* ---- one program: a rank's library, which matches ---- */

/* Does rank d receive anything? (Else it needs no library process.) */
static int has_receives(const struct prog *g, int d)
{
	const struct eng_prog *p = g->p;
	int q, i, k;

	for (q = p->rank_proc[d]; q < p->rank_proc[d + 1]; q++)
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];

			if (in->op != ENG_POST_RECV || in->a == ENG_PROC_NULL)
				continue;
			for (k = 0; k < g->nchans; k++)
				if (chan_from(g, k, d, in->b, in->a))
					return 1;
		}
	return 0;
}

static void write_library(struct writer *w, const struct prog *g, int d,
			  const struct tr_promela_opts *o)
{
	const struct eng_prog *p = g->p;
	struct sb cond = {0};
	char ch[64], who[48], from[48], desc[600];
	int q, i, k;

	out(w,
	    "/* ---- rank %d's MPI library: it matches messages to the rank's posted receives, "
	    "whatever\n * the rank is doing. Each option is one receive taking one sender's "
	    "message. ---- */\n%sproctype %slibrary%d()\n{\n"
	    "\t%s tag; short req; %s ev; bit sync;%s\t/* the message taken; back to 0 "
	    "after */\nend:\n\tdo\n",
	    d, o->choose ? "" : "active ", g->pre, d, int_type(g->maxtag), int_type(g->maxev),
	    g->buffer ? " int occ;" : "");
	for (q = p->rank_proc[d]; q < p->rank_proc[d + 1]; q++) {
		proc_label(g, q, who, sizeof(who));
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];

			if (in->op != ENG_POST_RECV || in->a == ENG_PROC_NULL)
				continue;
			describe(g, q, in, desc, sizeof(desc));
			for (k = 0; k < g->nchans; k++) {
				if (!chan_from(g, k, d, in->b, in->a))
					continue;
				chan_name(g, k, ch, sizeof(ch));
				proc_label(g, g->chans[k].src, from, sizeof(from));
				sb_clear(&cond);
				sb_add(&cond, "%srq[%d] == PENDING && ", g->pre, g->req[q][i]);
				has_message(&cond, g, k, in->c);
				not_wanted(&cond, g, q, i, k, in->c);
				out(w, "\t/* %s's %s, from %s */\n\t:: d_step { %s ->\n", who, desc,
				    from, sb_str(&cond));
				if (in->c == ENG_ANY)
					out(w, "\t\t%s ? tag, req, ev, sync%s;\n", ch,
					    g->buffer ? ", occ" : "");
				else
					out(w, "\t\t%s ?? %d, req, ev, sync%s;\n", ch, in->c,
					    g->buffer ? ", occ" : "");
				out(w,
				    "\t\tprintf(\"%s: %s takes the message of %s's event %%d\\n\", "
				    "ev);\n",
				    who, desc, from);
				out(w,
				    "\t\t%srq[%d] = DONE;\t/* the receive is complete, */\n"
				    "\t\t%srq[req] = (sync -> DONE : %srq[req]);\t/* and a send that "
				    "waited for it */\n",
				    g->pre, g->req[q][i], g->pre, g->pre);
				if (g->buffer)
					out(w, "\t\t%sbufused[%d] = %sbufused[%d] - occ;\n", g->pre,
					    rank_of(g, g->chans[k].src), g->pre,
					    rank_of(g, g->chans[k].src));
				out(w, "\t\ttag = 0; req = 0; ev = 0; sync = 0%s }\n",
				    g->buffer ? "; occ = 0" : "");
			}
		}
	}
	out(w, "\tod\n}\n\n");
	free(cond.s);
}

/* ---- one program: the judge ---- */

/* Remote reference to process q at the blocking call of its instruction i. */
static void at(struct sb *b, const struct prog *g, const int *pid_of, int q, int i,
	       const struct tr_promela_opts *o)
{
	char name[64];

	proc_name(g, q, name, sizeof(name));
	sb_add(b, "%s[%d]@end_i%d", name, pid_of[q], i);
}

/* Process p can still move or may be released: free, and not finished. */
static void may_move(struct sb *b, const struct prog *g, int p)
{
	sb_add(b, "(free[%d] && !%sfinished[%d])", p, g->pre, p);
}

/* Any process from .. to - 1 but q that may move. */
static void procs_may_move(struct sb *b, const struct prog *g, int from, int to, int q)
{
	size_t start = b->n;
	int p;

	sb_add(b, "(");
	for (p = from; p < to; p++) {
		if (p == q)
			continue;
		if (b->n > start + 1)
			sb_add(b, " || ");
		may_move(b, g, p);
	}
	if (b->n == start + 1)
		sb_add(b, "false");
	sb_add(b, ")");
}

/* Any process of rank r but q that may move. */
static void rank_may_move(struct sb *b, const struct prog *g, int r, int q)
{
	procs_may_move(b, g, g->p->rank_proc[r], g->p->rank_proc[r + 1], q);
}

/* Any process but q that may move: whom a wildcard waits for. */
static void anyone_may_move(struct sb *b, const struct prog *g, int q)
{
	procs_may_move(b, g, 0, g->p->nprocs, q);
}

/* Members collective `in` of process q waits for, that may still move. */
static void coll_waits(struct sb *b, const struct prog *g, int q, const struct eng_instr *in)
{
	const struct eng_comm *cm = &g->p->comms[in->a];
	char name[64];
	int r = rank_of(g, q), i, pass;

	coll_name(g, in->a, name, sizeof(name));
	sb_add(b, "(false");
	for (pass = 0; pass < 2; pass++) {
		/* pass 0: every member (without buffering, or at a mismatch); pass 1: the rule */
		int rule = pass ? in->b : ENG_COLL_ALL;

		if (in->b == ENG_COLL_MISMATCH && pass)
			break;
		/* the mode each pass holds in; a mismatch waits for every member in all */
		sb_add(b, " || (%s",
		       in->b == ENG_COLL_MISMATCH ? "true" :
		       pass			  ? "!SYNC_COLLECTIVES" :
						    "SYNC_COLLECTIVES");
		if (rule == ENG_COLL_ROOT) {
			sb_add(b, " && %s[%d] < %d && ", name, in->d, in->c);
			rank_may_move(b, g, in->d, q);
		} else if (rule == ENG_COLL_NONE) {
			sb_add(b, " && false");
		} else if (rule == ENG_COLL_LIST) {
			sb_add(b, " && (false");
			for (i = 0; i < in->n; i++) {
				if (in->list[i] == r)
					continue;
				sb_add(b, " || (%s[%d] < %d && ", name, in->list[i], in->c);
				rank_may_move(b, g, in->list[i], q);
				sb_add(b, ")");
			}
			sb_add(b, ")");
		} else {
			sb_add(b, " && (false");
			for (i = 0; i < cm->n; i++) {
				if (rule == ENG_COLL_LOWER && cm->members[i] == r)
					break;
				if (cm->members[i] == r)
					continue;
				if (in->b == ENG_COLL_MISMATCH)
					sb_add(b, " || ");
				else
					sb_add(b, " || (%s[%d] < %d && ", name, cm->members[i],
					       in->c);
				rank_may_move(b, g, cm->members[i], q);
				if (in->b != ENG_COLL_MISMATCH)
					sb_add(b, ")");
			}
			sb_add(b, ")");
		}
		sb_add(b, ")");
	}
	sb_add(b, ")");
}

/* Process q, blocked at instruction i, waits for someone who may still move (then it may be
 * released, and is not deadlocked). */
static void waits_for_free(struct sb *b, const struct prog *g, int q, int i)
{
	const struct eng_prog *p = g->p;
	const struct eng_instr *in = &p->ins[q][i];
	int j, k, n;

	switch (in->op) {
	case ENG_WAIT:
	case ENG_WAITANY:
	case ENG_WAIT_SOME:
		n = in->op == ENG_WAITANY ? in->d : in->n;
		sb_add(b, "(false");
		for (j = 0; j < n; j++) {
			const struct eng_instr *post = &p->ins[q][in->list[j]];

			sb_add(b, " || (");
			if (post->op == ENG_ICOLL) {
				sb_add(b, "!");
				req_done(b, g, q, in->list[j]);
			} else {
				rq(b, g, q, in->list[j]);
				sb_add(b, " == PENDING");
			}
			sb_add(b, " && ");
			if (post->op == ENG_ICOLL)
				coll_waits(b, g, q, post);
			else if (post->op == ENG_GREQ)
				sb_add(b, "false"); /* only its own process completes it */
			else if (post->a == ENG_ANY)
				anyone_may_move(b, g, q);
			else if (post->a == ENG_PROC_NULL)
				sb_add(b, "false");
			else
				rank_may_move(b, g, post->a, q);
			sb_add(b, ")");
		}
		sb_add(b, ")");
		break;
	case ENG_COLL:
		coll_waits(b, g, q, in);
		break;
	case ENG_PROBE:
		if (in->a == ENG_ANY)
			anyone_may_move(b, g, q);
		else
			rank_may_move(b, g, in->a, q);
		break;
	case ENG_WIN_START:
	case ENG_WIN_COMPLETE:
	case ENG_WIN_WAIT:
	case ENG_THREAD_AFTER:
		sb_add(b, "(false");
		for (j = 0; j + 1 < in->n; j += 2) {
			if (in->list[j] == q)
				continue;
			if (in->list[j + 1] < 0)
				sb_add(b, " || ");
			else
				sb_add(b, " || (!%swin_done[%d] && ", g->pre,
				       g->wflag[in->list[j]][in->list[j + 1]]);
			may_move(b, g, in->list[j]);
			if (in->list[j + 1] >= 0)
				sb_add(b, ")");
		}
		sb_add(b, ")");
		break;
	case ENG_BUF_DETACH:
		/* the receivers of its rank's buffered messages still in flight, taking room */
		sb_add(b, "(false");
		for (j = p->rank_proc[rank_of(g, q)]; j < p->rank_proc[rank_of(g, q) + 1]; j++)
			for (k = 0; k < p->nins[j]; k++) {
				const struct eng_instr *s = &p->ins[j][k];
				char ch[64];

				if (s->op != ENG_POST_SEND || s->d != ENG_SEND_BUFFERED ||
				    s->a == ENG_PROC_NULL)
					continue;
				chan_name(g, find_chan(g, j, s->a, s->b), ch, sizeof(ch));
				sb_add(b, " || (!BUFFERED(%lld) && %s??[_, %d, _, _, _] && ",
				       (long long)s->bytes, ch, g->req[j][k]);
				rank_may_move(b, g, s->a, q);
				sb_add(b, ")");
			}
		sb_add(b, ")");
		break;
	case ENG_WIN_LOCK:
		sb_add(b, "(false");
		for (k = 0; k < p->nlocks; k++) {
			const struct eng_lock *l = &p->locks[k];

			if (rank_of(g, l->proc) == rank_of(g, q) || l->comm != in->a ||
			    !(in->c || l->exclusive) || (in->b != ENG_ANY && l->target != in->b))
				continue;
			sb_add(b, " || (%sheld[%d] && ", g->pre, k);
			may_move(b, g, l->proc);
			sb_add(b, ")");
		}
		sb_add(b, ")");
		break;
	default:
		sb_add(b, "false");
	}
}

static void write_judge(struct writer *w, const struct prog *g, const int *pid_of,
			const struct tr_promela_opts *o)
{
	const struct eng_prog *p = g->p;
	struct sb b = {0};
	char who[48];
	int q, i, j;

	out(w,
	    "/* ---- the judge ----\n"
	    " * In this trace a rank stopped before it finished, or a completion call may see "
	    "another\n"
	    " * request complete than the one the trace says (the run would then leave the "
	    "recorded\n"
	    " * path). So a blocked rank is not always deadlocked: every blocking call is an "
	    "end state\n"
	    " * (labels end_iN), and when nothing can move the judge decides. A rank is free "
	    "if it\n"
	    " * finished, stopped, or would have left the recorded path; and if it waits for a "
	    "free\n"
	    " * rank that has not finished (that one might still release it). A rank that is "
	    "not free\n"
	    " * is deadlocked: the judge's assertion fails. */\n"
	    "%sproctype %sjudge()\n{\n\tbit free[%d];\n\tbit changed;\nend_judge:\n"
	    "\ttimeout ->\n\tatomic {\t/* not d_step: it reads where the ranks are */\n",
	    o->choose ? "" : "active ", g->pre, p->nprocs);
	for (q = 0; q < p->nprocs; q++) {
		sb_clear(&b);
		for (i = 0; i < p->nins[q]; i++) {
			const struct eng_instr *in = &p->ins[q][i];

			if (in->op != ENG_WAITANY)
				continue;
			sb_add(&b, " || (");
			at(&b, g, pid_of, q, i, o);
			sb_add(&b, " && (false");
			for (j = in->d; j < in->n; j++) {
				sb_add(&b, " || (");
				req_settled(&b, g, q, in->list[j]);
				sb_add(&b, ")");
			}
			sb_add(&b, "))");
		}
		out(w, "\t\tfree[%d] = (%sfinished[%d] || %sstopped[%d]%s);\n", q, g->pre, q,
		    g->pre, q, sb_str(&b));
	}
	out(w, "\t\tchanged = 1;\n\t\tdo\n\t\t:: changed ->\n\t\t\tchanged = 0;\n");
	for (q = 0; q < p->nprocs; q++) {
		proc_label(g, q, who, sizeof(who));
		out(w,
		    "\t\t\t/* %s, blocked, waits for a free rank that has not finished */\n"
		    "\t\t\tif\n\t\t\t:: !free[%d] && (false\n",
		    who, q);
		for (i = 0; i < p->nins[q]; i++) {
			char d[600];

			if (!is_blocking(p->ins[q][i].op) ||
			    (p->ins[q][i].op == ENG_PROBE && p->ins[q][i].a == ENG_PROC_NULL))
				continue;
			sb_clear(&b);
			at(&b, g, pid_of, q, i, o);
			sb_add(&b, " && ");
			waits_for_free(&b, g, q, i);
			describe(g, q, &p->ins[q][i], d, sizeof(d));
			out(w, "\t\t\t\t|| (%s)\t/* %s */\n", sb_str(&b), d);
		}
		out(w,
		    "\t\t\t\t) -> free[%d] = 1; changed = 1\n\t\t\t:: else -> skip\n"
		    "\t\t\tfi;\n",
		    q);
	}
	out(w, "\t\t:: else -> break\n\t\tod;\n");
	sb_clear(&b);
	for (q = 0; q < p->nprocs; q++) {
		proc_label(g, q, who, sizeof(who));
		out(w,
		    "\t\tif :: !free[%d] -> printf(\"deadlock: %s (process %d) is blocked\\n\") "
		    ":: else -> skip fi;\n",
		    q, who, q);
		sb_add(&b, "%sfree[%d]", q ? " && " : "", q);
	}
	out(w, "\t\tassert(%s)\t/* no rank is deadlocked */\n\t}\n}\n\n", sb_str(&b));
	free(b.s);
}

/* ---- the whole model ---- */

static void write_program(struct writer *w, struct prog *g, int pi, const struct tr_promela_opts *o)
{
	const struct eng_prog *p = g->p;
	int *pid_of = xcalloc((size_t)p->nprocs, sizeof(int));
	int q, d, pid = o->choose ? 1 : 0;

	w->judged = g->judged;
	if (o->choose)
		out(w, "/* ======== program %d: '%s' ======== */\n\n", pi, g->ts->dir);
	else
		write_vectorsz(w, g); /* (the differential tests give pan room enough) */
	if (g->buffer)
		write_buffer_prelude(w, g);
	write_globals(w, g);
	/* pids: the ranks' processes, then the libraries, then the judge, in this order */
	g->pid_proc = xcalloc((size_t)p->nprocs + (size_t)p->nranks + 2, sizeof(int));
	for (q = 0; q < p->nprocs; q++) {
		pid_of[q] = pid;
		g->pid_proc[g->npids++] = q;
		pid++;
	}
	for (q = 0; q < p->nprocs; q++)
		write_process(w, g, pi, q, o);
	for (d = 0; d < p->nranks; d++) {
		if (!has_receives(g, d))
			continue;
		write_library(w, g, d, o);
		g->pid_proc[g->npids++] = -1;
	}
	if (g->judged) {
		write_judge(w, g, pid_of, o);
		g->pid_proc[g->npids++] = -1;
	}
	free(pid_of);
}

/* choose: init picks a program and a buffering mode, then runs that program's processes. */
static void write_init(struct writer *w, struct prog *gs, int n, const struct tr_promela_opts *o)
{
	char name[64];
	int k, m, q, d;

	out(w, "byte program;\t/* chosen by init */\n\ninit\n{\n\tif\n");
	for (k = 0; k < n; k++)
		out(w, "\t:: program = %d\n", k);
	out(w, "\tfi;\n\tif\n");
	for (m = ENG_BUF_ZERO; m <= ENG_BUF_EAGER; m++)
		if (o->modes & (1u << m))
			out(w, "\t:: buffering = %s\n", mode_name(m));
	/* read both: SPIN leaves a variable no statement reads out of the state, and the
	 * modes' states would merge */
	out(w,
	    "\tfi;\n\tprintf(\"program %%d, buffering %%d\\n\", program, buffering);\n"
	    "\tassert(program < %d && buffering <= EAGER);\n\tatomic {\n\tif\n",
	    n);
	for (k = 0; k < n; k++) {
		const struct prog *g = &gs[k];

		out(w, "\t:: program == %d ->\n", k);
		for (q = 0; q < g->p->nprocs; q++) {
			proc_name(g, q, name, sizeof(name));
			out(w, "\t\trun %s();\n", name);
		}
		for (d = 0; d < g->p->nranks; d++)
			if (has_receives(g, d))
				out(w, "\t\trun %slibrary%d();\n", g->pre, d);
		if (g->judged)
			out(w, "\t\trun %sjudge();\n", g->pre);
		out(w, "\t\tskip\n");
	}
	out(w, "\tfi\n\t}\n}\n");
}

int tr_promela(FILE *f, const char *path, const struct tr_promela_input *in, int n,
	       const struct tr_promela_opts *o, struct tr_promela_map *map, struct mpiv_error *err)
{
	struct prog *gs = xcalloc((size_t)n, sizeof(*gs));
	struct writer w;
	char **pre = xcalloc((size_t)n, sizeof(*pre));
	int k, rc = 0;

	for (k = 0; k < n && rc == 0; k++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "p%d_", k);
		pre[k] = xstrdup(o->choose ? buf : "");
		gs[k].p = in[k].prog;
		gs[k].ts = in[k].ts;
		gs[k].pre = pre[k];
		prog_analyse(&gs[k]);
		rc = refuse(&gs[k], err);
	}
	if (rc == 0) {
		memset(&w, 0, sizeof(w));
		w.f = f;
		w.line = 1;
		w.map = map;
		belongs(&w, -1, -1, -1);
		if (map)
			memset(map, 0, sizeof(*map));
		write_header(&w, path, in, n, o);
		for (k = 0; k < n; k++)
			write_program(&w, &gs[k], k, o);
		if (o->choose)
			write_init(&w, gs, n, o);
		if (fflush(f) || ferror(f))
			rc = mpiv_error_set(err, MPIV_EXIT_TOOL, path, -1, -1, "cannot write");
	}
	if (rc == 0 && map) {
		map->nprogs = n;
		map->npids = xcalloc((size_t)n, sizeof(int));
		map->pid_proc = xcalloc((size_t)n, sizeof(int *));
		map->judged = xcalloc((size_t)n, sizeof(int));
		for (k = 0; k < n; k++) {
			map->npids[k] = gs[k].npids;
			map->pid_proc[k] = gs[k].pid_proc;
			map->judged[k] = gs[k].judged;
			gs[k].pid_proc = NULL;
		}
	}
	for (k = 0; k < n; k++) {
		if (gs[k].p)
			prog_release(&gs[k]);
		free(pre[k]);
	}
	free(pre);
	free(gs);
	return rc;
}

void tr_promela_map_release(struct tr_promela_map *map)
{
	int k;

	for (k = 0; k < map->nprogs; k++)
		free(map->pid_proc[k]);
	free(map->pid_proc);
	free(map->npids);
	free(map->judged);
	free(map->line_prog);
	free(map->line_proc);
	free(map->line_instr);
	memset(map, 0, sizeof(*map));
}
