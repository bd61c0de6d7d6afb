/* What check's search needs from a program, and what it makes of the deadlocks SPIN finds: the
 * depth bound of a search, one entry per distinct deadlock across buffering modes (the
 * signature and the merge policy), and whether the recorded run's own choices lead there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"
#include "tr_check.h"

long tr_search_depth(const struct eng_prog *prog)
{
	long nchoices = 0;
	int r, i;

	for (r = 0; r < prog->nprocs; r++) {
		/* a thread of a rank with several goes on in any order with its siblings:
		 * each of its instructions may be a choice */
		int threaded = (r > 0 && prog->proc_rank[r - 1] == prog->proc_rank[r]) ||
			       (r + 1 < prog->nprocs &&
				prog->proc_rank[r + 1] == prog->proc_rank[r]);

		for (i = 0; i < prog->nins[r]; i++) {
			const struct eng_instr *in = &prog->ins[r][i];

			/* a wildcard receive's match is a choice, and so is which rank gets a
			 * contended lock first */
			if (threaded || (in->op == ENG_POST_RECV && in->a == ENG_ANY) ||
			    (in->op == ENG_WIN_LOCK && in->d))
				nchoices++;
		}
	}
	/* a path of the search is at most (choice loop + 2 steps) per choice */
	return nchoices * (prog->nprocs + 3) + 100;
}

int tr_colls_partial(const struct eng_prog *prog)
{
	int q, i;

	for (q = 0; q < prog->nprocs; q++) {
		const struct eng_instr *ins = prog->ins[q];

		for (i = 0; i < prog->nins[q]; i++)
			if ((ins[i].op == ENG_COLL || ins[i].op == ENG_ICOLL) &&
			    ins[i].b != ENG_COLL_ALL && ins[i].b != ENG_COLL_MISMATCH)
				return 1;
	}
	return 0;
}

int tr_searches(int twins, const struct mpiv_buffering *given, int n, struct mpiv_buffering *out)
{
	int k, m = 0;

	for (k = 0; k < n; k++) {
		out[m] = given[k];
		out[m++].sync_colls = 0;
		if (twins && given[k].mode != MPIV_BUF_ZERO) {
			out[m] = given[k];
			out[m++].sync_colls = 1;
		}
	}
	return m;
}

int tr_sends_within(const struct eng_prog *prog, long long bytes)
{
	int q, i;

	/* the buffering mode enters the engine only through which sends complete at once
	 * (eng_send_buffered, and a buffered send's message leaving the attached buffer), and
	 * whether collectives synchronise, which only the zero mode makes them do */
	for (q = 0; q < prog->nprocs; q++)
		for (i = 0; i < prog->nins[q]; i++)
			if (prog->ins[q][i].op == ENG_POST_SEND && prog->ins[q][i].bytes > bytes)
				return 0;
	return 1;
}

long *tr_deadlock_signature(const struct mpiv_cex *cex, int core)
{
	long *sig = xmalloc((size_t)(cex->nranks ? cex->nranks : 1) * sizeof(*sig));
	int r;

	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];
		const struct mpiv_cex_op *op = cr->nops ? &cr->ops[cr->nops - 1] : NULL;

		sig[r] = cr->blocked_op < 0 ? -1 : cr->blocked_op;
		/* blocked only by an unbuffered send: with buffering the rank goes on (not so
		 * MPI_Sendrecv whose receive half waits too) */
		if (core && op && (long)op->op == cr->blocked_op && op->sync == 1 && !op->recv_open)
			sig[r] = -1;
	}
	return sig;
}

static int same_buffering(const struct mpiv_buffering *a, const struct mpiv_buffering *b)
{
	return a->mode == b->mode && a->bytes == b->bytes && a->sync_colls == b->sync_colls;
}

void tr_deadlock_modes(const struct tr_deadlock *d, char *buf, size_t size)
{
	size_t used = 0;
	char name[32];
	int i;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < d->nfound && used < size; i++) {
		mpiv_buffering_name(&d->found[i], name, sizeof(name));
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", name);
	}
}

/* Note that d was found in the modes of found (one search's, or a merged entry's), and as the
 * flags of struct tr_deadlock say. */
static void add_modes(struct tr_deadlock *d, const struct tr_deadlock *found)
{
	int i, j;

	for (i = 0; i < found->nfound; i++) {
		for (j = 0; j < d->nfound && !same_buffering(&d->found[j], &found->found[i]); j++)
			;
		if (j == d->nfound && d->nfound < TR_DEADLOCK_MODES)
			d->found[d->nfound++] = found->found[i];
	}
	d->in_zero |= found->in_zero;
	d->in_buffered |= found->in_buffered;
	d->in_eager |= found->in_eager;
	d->in_buffered_data |= found->in_buffered_data;
	d->in_eager_data |= found->in_eager_data;
	d->in_sync |= found->in_sync;
}


void tr_deadlocks_add(struct tr_deadlocks *set, struct mpiv_cex *cex)
{
	const struct mpiv_buffering b = cex->buffering;
	long *sig = tr_deadlock_signature(cex, 0);
	struct tr_deadlock *d, one;
	int i;

	for (i = 0; i < set->n; i++) {
		if (set->d[i].cex.nranks == cex->nranks &&
		    !memcmp(set->d[i].signature, sig, (size_t)cex->nranks * sizeof(*sig)) &&
		    same_buffering(&set->d[i].cex.buffering, &b)) {
			free(sig);
			mpiv_cex_release(cex);
			return;
		}
	}
	set->d = xrealloc(set->d, (size_t)(set->n + 1) * sizeof(*set->d));
	d = &set->d[set->n++];
	memset(d, 0, sizeof(*d));
	d->cex = *cex;
	memset(cex, 0, sizeof(*cex));
	d->signature = sig;
	d->eager = -1;
	memset(&one, 0, sizeof(one));
	one.found[0] = b;
	one.nfound = 1;
	one.in_zero = b.mode == MPIV_BUF_ZERO;
	one.in_buffered = b.mode == MPIV_BUF_INFINITE;
	one.in_eager = b.mode == MPIV_BUF_EAGER;
	one.in_buffered_data = one.in_buffered && !b.sync_colls;
	one.in_eager_data = one.in_eager && !b.sync_colls;
	one.in_sync = b.mode != MPIV_BUF_ZERO && b.sync_colls;
	add_modes(d, &one);
}

/* Is every rank of core signature a (n ranks) blocked where it is in b? And is a some rank's? */
static int core_within(const long *a, const long *b, int n)
{
	int r, any = 0;

	for (r = 0; r < n; r++) {
		if (a[r] >= 0 && a[r] != b[r])
			return 0;
		any |= a[r] >= 0;
	}
	return any;
}

void tr_deadlocks_merge(struct tr_deadlocks *set)
{
	int i, j, n = 0;

	for (i = 0; i < set->n; i++) {
		struct tr_deadlock *d = &set->d[i];
		long *core;

		if (!d->signature)
			continue;
		core = tr_deadlock_signature(&d->cex, 1);
		for (j = i + 1; j < set->n; j++) {
			struct tr_deadlock *e = &set->d[j];
			long *ecore;

			if (!e->signature)
				continue;
			ecore = tr_deadlock_signature(&e->cex, 1);
			/* within one mode only the same core is the same deadlock; across modes one
			 * within the other is too: the same ranks stuck in the same calls, some
			 * moving on to be stuck further when sends are buffered */
			if (d->cex.nranks != e->cex.nranks) {
				free(ecore);
				continue;
			}
			if (!memcmp(core, ecore, (size_t)d->cex.nranks * sizeof(*core)) ||
			    (!same_buffering(&d->cex.buffering, &e->cex.buffering) &&
			     (core_within(core, ecore, d->cex.nranks) ||
			      core_within(ecore, core, d->cex.nranks)))) {
				add_modes(d, e);
				mpiv_cex_release(&e->cex);
				free(e->signature);
				e->signature = NULL;
			}
			free(ecore);
		}
		free(core);
		set->d[n++] = *d;
	}
	set->n = n;
}

/* A counterexample's buffering mode is the engine's: the same numbers. */
_Static_assert(MPIV_BUF_ZERO == (int)ENG_BUF_ZERO && MPIV_BUF_INFINITE == (int)ENG_BUF_INFINITE &&
		       MPIV_BUF_EAGER == (int)ENG_BUF_EAGER,
	       "enum mpiv_buffering_mode != eng_buffering");

int tr_on_recorded_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			const struct mpiv_cex *cex)
{
	enum eng_buffering b = tr_buffering(cex->buffering.mode);
	int32_t *st = xmalloc(eng_state_bytes(prog));
	int r, same = 1, known;

	known = tr_recorded_path(prog, ts, b, cex->buffering.bytes, cex->buffering.sync_colls, NULL,
				 st);
	for (r = 0; r < prog->nranks && r < cex->nranks && same; r++) {
		long blocked = -1;
		int q;

		/* as the cex names a rank's place: its first thread that is not at its end */
		for (q = prog->rank_proc[r]; q < prog->rank_proc[r + 1] && blocked < 0; q++)
			if (!eng_at_end(prog, st, q))
				blocked = prog->ins[q][eng_pc(prog, st, q)].ev;
		same = blocked == cex->ranks[r].blocked_op;
	}
	free(st);
	return known ? same : -1;
}

void tr_deadlocks_release(struct tr_deadlocks *set)
{
	int i;

	for (i = 0; i < set->n; i++) {
		mpiv_cex_release(&set->d[i].cex);
		free(set->d[i].signature);
		free(set->d[i].path);
	}
	free(set->d);
	memset(set, 0, sizeof(*set));
}
