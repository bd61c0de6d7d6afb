/* check's own pass before SPIN: the stretch of a search where the engine offers one choice at a
 * time (or none) is one path, which check runs itself; only from the first state with several
 * choices does SPIN search, on what is left of the program (models/README.md, "Check's own
 * pass"). */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"
#include "tr_check.h"

long tr_forced_path(const struct eng_prog *prog, int32_t *st)
{
	struct eng_prog q = *prog; /* shares the program; counts fewer choices */
	long lead = 0;

	/* the state's count of choices, as the engine left it: whether there are several is
	 * all the pass asks, and the engine need not walk every candidate to say */
	q.count = 2;
	q.sweep = eng_sweep_new(&q); /* each choice taken where the last left the state */
	eng_start(&q, st);
	while (st[ENG_ST_NCHOICES] == 1) {
		eng_choose(&q, st, 0);
		lead++;
	}
	eng_sweep_free(q.sweep);
	/* as eng_start() and eng_choose() leave a state for prog */
	st[ENG_ST_NCHOICES] = eng_nchoices(prog, st);
	return lead;
}

/* Can prog be cut at any state? Not when its instructions name other processes' instructions
 * (one-sided synchronisation, locks, the order between threads), nor when a rank has several
 * processes: its threads share its messages and posted receives, and a cut was seen to offer
 * fewer choices than the whole program (tests/fuzz/regress/json/threads-cut-loses-a-choice;
 * SPIN then searches from the start, which its reductions make as quick for threads). Nor
 * when what the engine makes of an instruction depends on the whole program: ready sends
 * (which receives are posted lazily), an attached buffer (the state's layout), variants,
 * cancels and generalized requests' completions (each names its post by instruction, which
 * the cut would renumber), or reductions' tables cut short by their limits. */
static int cuttable(const struct eng_prog *p)
{
	int q, i;

	if (p->verify || p->nready || p->nbuf || p->nlocks || p->ncancel || p->start ||
	    p->red_partial || p->nprocs != p->nranks)
		return 0;
	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++)
			if (ENG_WIN_OP(p->ins[q][i].op) || p->ins[q][i].op == ENG_GREQ_DONE ||
			    p->ins[q][i].op == ENG_THREAD_AFTER)
				return 0;
	return 1;
}

/* The first instruction of process q that a search from st still refers to: its pc, the
 * posts of its live requests and of its messages in flight, and every post a wait kept names.
 * A wait before the pc is kept when a live request or a message keeps what precedes it, and
 * its list must name instructions the cut program has: the lowest is taken until none names
 * one below it. */
static int first_needed(const struct eng_prog *p, const int32_t *st, int q)
{
	const int32_t *live = &st[p->off_live + q * p->maxlive];
	int lo = eng_pc(p, st, q), i, j, src, si, dst, from = p->nins[q];

	for (i = 0; i < eng_unreceived(p, st); i++) {
		eng_message(p, st, i, &src, &si, &dst);
		if (src == q && si < lo)
			lo = si;
	}
	for (i = 0; i < st[p->off_nlive + q]; i++)
		if ((live[i] >> 1) < lo)
			lo = live[i] >> 1;
	while (from > lo) { /* the instructions [lo, from) are yet to be looked at */
		int end = from;

		from = lo;
		for (i = lo; i < end; i++) {
			const struct eng_instr *in = &p->ins[q][i];

			if (in->op == ENG_WAIT || in->op == ENG_WAITANY || in->op == ENG_WAIT_SOME)
				for (j = 0; j < in->n; j++)
					if (in->list[j] < lo)
						lo = in->list[j];
		}
	}
	return lo;
}

int tr_cut(const struct eng_prog *prog, const int32_t *st, struct eng_prog *out)
{
	int32_t *lo, *s;
	int q, i, j, c;

	if (!cuttable(prog))
		return 0;
	lo = xcalloc((size_t)prog->nprocs, sizeof(*lo));
	for (q = 0; q < prog->nprocs; q++)
		lo[q] = first_needed(prog, st, q);
	memset(out, 0, sizeof(*out));
	out->nranks = prog->nranks;
	out->nprocs = prog->nprocs;
	out->proc_rank = xmalloc((size_t)prog->nprocs * sizeof(*out->proc_rank));
	out->proc_thread = xmalloc((size_t)prog->nprocs * sizeof(*out->proc_thread));
	memcpy(out->proc_rank, prog->proc_rank, (size_t)prog->nprocs * sizeof(*out->proc_rank));
	memcpy(out->proc_thread, prog->proc_thread,
	       (size_t)prog->nprocs * sizeof(*out->proc_thread));
	out->ncomms = prog->ncomms;
	out->comms = xcalloc((size_t)prog->ncomms, sizeof(*out->comms));
	for (c = 0; c < prog->ncomms; c++) {
		out->comms[c].n = prog->comms[c].n;
		out->comms[c].members = xmalloc(((size_t)prog->comms[c].n + 1) * sizeof(int32_t));
		memcpy(out->comms[c].members, prog->comms[c].members,
		       (size_t)prog->comms[c].n * sizeof(int32_t));
	}
	out->nins = xmalloc((size_t)prog->nprocs * sizeof(*out->nins));
	out->ins = xmalloc((size_t)prog->nprocs * sizeof(*out->ins));
	for (q = 0; q < prog->nprocs; q++) {
		out->nins[q] = prog->nins[q] - lo[q];
		out->ins[q] = xmalloc((size_t)out->nins[q] * sizeof(**out->ins));
		memcpy(out->ins[q], prog->ins[q] + lo[q],
		       (size_t)out->nins[q] * sizeof(**out->ins));
		for (i = 0; i < out->nins[q]; i++) {
			struct eng_instr *in = &out->ins[q][i];
			const int32_t *from = in->list;

			if (!ENG_LISTED(in->op))
				continue; /* no list: its storage is another field's */
			if (!in->n) {
				in->list = NULL;
				continue;
			}
			in->list = xmalloc((size_t)in->n * sizeof(*in->list));
			/* a wait's list names instructions, renumbered; a collective's, ranks */
			for (j = 0; j < in->n; j++)
				in->list[j] = from[j] - (in->op == ENG_COLL || in->op == ENG_ICOLL ?
								 0 :
								 lo[q]);
		}
	}
	out->buffering = prog->buffering;
	out->eager = prog->eager;
	out->sync_colls = prog->sync_colls;
	out->bsend_overhead = prog->bsend_overhead;
	out->maxlive = prog->maxlive;
	out->maxmsg = prog->maxmsg;
	out->full = prog->full;
	eng_layout(out);
	if (out->words != prog->words)
		abort(); /* the same sizes make the same layout */
	/* the state, every instruction index renumbered */
	s = xmalloc(eng_state_bytes(out));
	memcpy(s, st, eng_state_bytes(out));
	for (q = 0; q < prog->nprocs; q++) {
		int32_t *l = &s[out->off_live + q * out->maxlive];

		s[out->off_pc + q] -= lo[q];
		for (i = 0; i < s[out->off_nlive + q]; i++)
			l[i] = ((l[i] >> 1) - lo[q]) * 2 + (l[i] & 1);
	}
	for (i = 0; i < s[ENG_ST_NMSG]; i++) {
		int32_t *m = &s[out->off_msg + 2 * i];

		m[1] = ((m[1] >> 1) - lo[m[0] & 0xffff]) * 2 + (m[1] & 1);
	}
	out->start = s;
	free(lo);
	return 1;
}
