/* verify (model.h): the runs of a program whose ranks call MPI from several threads, one model.
 *
 * A run's program has a process per thread, numbered in the order the threads first called
 * MPI, which differs from run to run; a thread's *path* (base/steer.h) is the same in every run,
 * so the model's processes are run 0's, and each other run's are found by their paths.
 *
 * The order pthread_create and pthread_join put between threads (ENG_THREAD_AFTER) names
 * marks by their instruction in one run's program. Before the trees are built, each run's
 * lists are written in terms every run shares: the model's process, and the mark either as
 * ENG_MARK_END (the mark before a thread's end, which a join waits for: the model has one per
 * way the thread ends, and the join waits for whichever it passed) or as its instruction, which
 * must then lie where every run's program of its thread is the same call after the same calls,
 * before the thread learns anything (a thread created there is created in every run, and the
 * model lays that stretch out once, first: a process past the mark's instruction in the model
 * has executed it). Where threads are created elsewhere, the runs are not merged. */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "trace_threads.h"
#include "xalloc.h"

/* The path of process q of run s, into buf; -1 if its creation is not recorded. */
static int proc_path(const struct eng_prog *p, const struct mpiv_traceset *ts, int q, char *buf,
		     size_t size)
{
	return mpiv_thread_path(&ts->ranks[p->proc_rank[q]], p->proc_thread[q], buf, size);
}

/* Run s's processes in the model's order (run 0's), into perm; NULL, or why not. */
static const char *match_procs(struct eng_prog *const *progs, struct mpiv_traceset *const *sets,
			       int s, int *perm)
{
	const struct eng_prog *p0 = progs[0], *p = progs[s];
	char want[MPIV_STEER_PATH], have[MPIV_STEER_PATH];
	int q, k;

	if (p->nprocs != p0->nprocs)
		return "the runs' ranks call MPI from different threads";
	for (q = 0; q < p0->nprocs; q++) {
		if (proc_path(p0, sets[0], q, want, sizeof(want)) < 0)
			return "a thread's creation is not recorded";
		for (k = 0; k < p->nprocs; k++)
			if (p->proc_rank[k] == p0->proc_rank[q] &&
			    proc_path(p, sets[s], k, have, sizeof(have)) == 0 &&
			    !strcmp(want, have))
				break;
		if (k == p->nprocs)
			return "the runs' ranks call MPI from different threads";
		perm[q] = k;
	}
	return NULL;
}

/* Run s's process k's program, its marks named as every run names them (the header). */
static struct eng_instr *shared_names(const struct eng_prog *p, const int *inv, int k)
{
	struct eng_instr *ins = xmalloc(((size_t)p->nins[k] + 1) * sizeof(*ins));
	int i, j;

	memcpy(ins, p->ins[k], (size_t)p->nins[k] * sizeof(*ins));
	for (i = 0; i < p->nins[k]; i++) {
		struct eng_instr *in = &ins[i];
		int32_t *l;

		if (in->op != ENG_THREAD_AFTER || in->n <= 0)
			continue;
		l = xmalloc((size_t)in->n * sizeof(*l));
		for (j = 0; j + 1 < in->n; j += 2) {
			int32_t o = in->list[j], x = in->list[j + 1];

			l[j] = inv[o];
			l[j + 1] = x >= 0 && x + 1 < p->nins[o] && p->ins[o][x + 1].op == ENG_END ?
					   ENG_MARK_END :
					   x;
		}
		in->list = l;
	}
	return ins;
}

/* How far every run's program of model process q is the same call after the same calls, up to
 * its first branch after the start: the instructions before it; 0 if the runs differ there. A
 * run that stopped on the way (a hang: the thread was stuck in a call, or in a join) goes run
 * 0's way if it made the same calls up to there, as the model has it (xm_same_way()); run 0
 * itself must reach the branch, so that the way is laid out from it. */
static int shared_start(const struct xthreads *th, int nruns, int q)
{
	const struct eng_instr *ins0 = th->ins[0][q];
	int n = th->nins[0][q], end, len, s, k;

	for (end = 1; end < n && ins0[end].op != ENG_BRANCH; end++)
		;
	len = end < n ? end + 1 : n; /* up to the branch, or the whole program */
	if (ins0[len - 1].op == ENG_STOP)
		return 0;
	for (s = 1; s < nruns; s++) {
		const struct eng_instr *ins = th->ins[s][q];
		int ns = th->nins[s][q], upto = len;

		if (ins[ns - 1].op == ENG_STOP && ns <= len)
			upto = ns - 1; /* stopped short: its calls must be run 0's */
		else if (ns < len || (end == n && ns != n))
			return 0;
		for (k = 0; k < upto; k++)
			if (!xm_same_call(&ins[k], &ins0[k]))
				return 0;
	}
	return end;
}

/* Does every creation's mark that program ins[0..n) waits for lie where its creator's runs are
 * alike (start[])? NULL, or why not. */
static const char *creations_shared(const struct eng_instr *ins, int n, const int *start)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; ins[i].op == ENG_THREAD_AFTER && j + 1 < ins[i].n; j += 2) {
			int o = ins[i].list[j], x = ins[i].list[j + 1];

			if (x == ENG_MARK_END || x < start[o])
				continue;
			if (!start[o])
				return "a thread that creates threads makes other calls in other runs "
				       "before it learns anything: it acts on what another thread took";
			return "a thread is created after its creator learnt an input";
		}
	return NULL;
}

const char *xm_threads_prepare(struct eng_prog *const *progs, struct mpiv_traceset *const *sets,
			       int nruns, struct xthreads *th)
{
	const char *why = NULL;
	int s, q, nprocs = progs[0]->nprocs;
	int *inv, *start;

	memset(th, 0, sizeof(*th));
	for (s = 0; s < nruns && progs[s]->nprocs == progs[s]->nranks; s++)
		;
	if (s == nruns)
		return NULL; /* a process per rank: each run's own */
	th->on = 1;
	th->nruns = nruns;
	th->nprocs = nprocs;
	th->perm = xcalloc((size_t)nruns, sizeof(*th->perm));
	th->ins = xcalloc((size_t)nruns, sizeof(*th->ins));
	th->nins = xcalloc((size_t)nruns, sizeof(*th->nins));
	inv = xmalloc(((size_t)nprocs + 1) * sizeof(*inv));
	for (s = 0; s < nruns && !why; s++) {
		th->perm[s] = xcalloc((size_t)nprocs + 1, sizeof(**th->perm));
		why = match_procs(progs, sets, s, th->perm[s]);
		if (why)
			break;
		for (q = 0; q < nprocs; q++)
			inv[th->perm[s][q]] = q;
		th->ins[s] = xcalloc((size_t)nprocs, sizeof(**th->ins));
		th->nins[s] = xcalloc((size_t)nprocs, sizeof(**th->nins));
		for (q = 0; q < nprocs; q++) {
			th->ins[s][q] = shared_names(progs[s], inv, th->perm[s][q]);
			th->nins[s][q] = progs[s]->nins[th->perm[s][q]];
		}
	}
	free(inv);
	if (why) {
		xm_threads_release(th);
		return why;
	}
	/* every creation's mark where the runs are alike */
	start = xmalloc(((size_t)nprocs + 1) * sizeof(*start));
	for (q = 0; q < nprocs; q++)
		start[q] = shared_start(th, nruns, q);
	for (s = 0; s < nruns && !why; s++)
		for (q = 0; q < nprocs && !why; q++)
			why = creations_shared(th->ins[s][q], th->nins[s][q], start);
	free(start);
	if (why)
		xm_threads_release(th);
	return why;
}

struct eng_instr *xm_threads_ins(const struct xthreads *th, struct eng_prog *const *progs, int s,
				 int q, int *n)
{
	if (!th->on) {
		*n = progs[s]->nins[q];
		return progs[s]->ins[q];
	}
	*n = th->nins[s][q];
	return th->ins[s][q];
}

int xm_threads_proc(const struct xthreads *th, int s, int q)
{
	return th->on ? th->perm[s][q] : q;
}

void xm_threads_fix(struct xmodel *m, struct seq *const *vs, const struct tree *trees,
		    const struct xthreads *th)
{
	struct eng_prog *p = &m->prog;
	int q, i, j;

	if (!th->on)
		return;
	for (q = 0; q < p->nprocs; q++)
		for (i = 0; i < p->nins[q]; i++) {
			struct eng_instr *in = &p->ins[q][i];

			for (j = 0; in->op == ENG_THREAD_AFTER && j + 1 < in->n; j += 2) {
				int o = in->list[j];

				/* a creation's mark: its node, every run's, laid out once */
				if (in->list[j + 1] != ENG_MARK_END)
					in->list[j + 1] =
						trees[o].n[vs[o][0].node[in->list[j + 1]]].instr;
			}
		}
}

void xm_threads_release(struct xthreads *th)
{
	int s, q, i;

	for (s = 0; th->on && s < th->nruns; s++) {
		for (q = 0; th->ins[s] && q < th->nprocs; q++) {
			for (i = 0; th->ins[s][q] && i < th->nins[s][q]; i++)
				if (th->ins[s][q][i].op == ENG_THREAD_AFTER &&
				    th->ins[s][q][i].n > 0)
					free(th->ins[s][q][i].list);
			free(th->ins[s][q]);
		}
		free(th->ins[s]);
		free(th->nins[s]);
		free(th->perm[s]);
	}
	free(th->ins);
	free(th->nins);
	free(th->perm);
	memset(th, 0, sizeof(*th));
}
