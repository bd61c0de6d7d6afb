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

char *tr_deadlock_signature(const struct mpiv_cex *cex, int core)
{
	char *sig = xcalloc((size_t)cex->nranks * 24 + 1, 1);
	size_t n = 0;
	int r;

	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];
		const struct mpiv_cex_op *op = cr->nops ? &cr->ops[cr->nops - 1] : NULL;

		if (cr->blocked_op < 0)
			continue;
		/* blocked only by an unbuffered send: with buffering the rank goes on (not so
		 * MPI_Sendrecv whose receive half waits too) */
		if (core && op && (long)op->op == cr->blocked_op && op->sync == 1 && !op->recv_open)
			continue;
		n += (size_t)sprintf(sig + n, "%d:%ld;", r, cr->blocked_op);
	}
	return sig;
}

/* Is name one of the modes of list ("zero, infinite-sync"), as a whole word ("infinite" is
 * not in "infinite-sync")? */
static int has_mode(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return 1;
	return 0;
}

/* Note that d was found in mode (its name, or the names of a merged entry's modes), as the
 * flags of struct tr_deadlock say (those of a merged entry, or of one search). */
static void add_mode(struct tr_deadlock *d, const char *mode, const struct tr_deadlock *found)
{
	const char *p = mode;

	/* each of a merged entry's modes that d has not yet */
	while (*p) {
		size_t n = strcspn(p, ",");
		char one[64];

		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		if (!has_mode(d->modes, one)) {
			if (d->modes[0])
				strncat(d->modes, ", ", sizeof(d->modes) - strlen(d->modes) - 1);
			strncat(d->modes, one, sizeof(d->modes) - strlen(d->modes) - 1);
		}
		p += n;
		p += strspn(p, ", ");
	}
	d->in_zero |= found->in_zero;
	d->in_buffered |= found->in_buffered;
	d->in_eager |= found->in_eager;
	d->in_buffered_data |= found->in_buffered_data;
	d->in_eager_data |= found->in_eager_data;
	d->in_sync |= found->in_sync;
}

static int same_buffering(const struct mpiv_buffering *a, const struct mpiv_buffering *b)
{
	return a->mode == b->mode && a->bytes == b->bytes && a->sync_colls == b->sync_colls;
}

void tr_deadlocks_add(struct tr_deadlocks *set, struct mpiv_cex *cex)
{
	const struct mpiv_buffering b = cex->buffering;
	char *sig = tr_deadlock_signature(cex, 0);
	char name[32];
	struct tr_deadlock *d, one;
	int i;

	for (i = 0; i < set->n; i++) {
		if (!strcmp(set->d[i].signature, sig) &&
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
	mpiv_buffering_name(&b, name, sizeof(name));
	memset(&one, 0, sizeof(one));
	one.in_zero = b.mode == MPIV_BUF_ZERO;
	one.in_buffered = b.mode == MPIV_BUF_INFINITE;
	one.in_eager = b.mode == MPIV_BUF_EAGER;
	one.in_buffered_data = one.in_buffered && !b.sync_colls;
	one.in_eager_data = one.in_eager && !b.sync_colls;
	one.in_sync = b.mode != MPIV_BUF_ZERO && b.sync_colls;
	add_mode(d, name, &one);
}

/* Is every "rank:op;" entry of core signature a also one of b's? */
static int core_within(const char *a, const char *b)
{
	char entry[40];
	size_t len;

	for (; *a; a += len) {
		const char *q;
		int found = 0;

		len = strcspn(a, ";") + 1;
		if (len + 1 >= sizeof(entry))
			return 0;
		entry[0] = ';'; /* whole entries only: ";1:2;" is no part of ";11:2;" */
		memcpy(entry + 1, a, len);
		entry[len + 1] = '\0';
		found = !strncmp(b, entry + 1, len);
		for (q = b; !found && (q = strstr(q, entry)) != NULL; q++)
			found = 1;
		if (!found)
			return 0;
	}
	return 1;
}

void tr_deadlocks_merge(struct tr_deadlocks *set)
{
	int i, j, n = 0;

	for (i = 0; i < set->n; i++) {
		struct tr_deadlock *d = &set->d[i];
		char *core;

		if (!d->signature)
			continue;
		core = tr_deadlock_signature(&d->cex, 1);
		for (j = i + 1; j < set->n; j++) {
			struct tr_deadlock *e = &set->d[j];
			char *ecore;

			if (!e->signature)
				continue;
			ecore = tr_deadlock_signature(&e->cex, 1);
			/* within one mode only the same core is the same deadlock; across modes one
			 * within the other is too: the same ranks stuck in the same calls, some
			 * moving on to be stuck further when sends are buffered */
			if (!strcmp(core, ecore) ||
			    (*core && *ecore &&
			     !same_buffering(&d->cex.buffering, &e->cex.buffering) &&
			     (core_within(core, ecore) || core_within(ecore, core)))) {
				add_mode(d, e->modes, e);
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
