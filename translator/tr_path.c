/* verify (doc/verify.md): a path of the merged model, as a run of the program must take it.
 * The path is run on the engine with an observer that notes every input it takes; each rank's
 * decisions (enum mpiv_decision, in the order the rank makes them) are then read off the trace
 * of the run its final variant comes from, up to the first one the path leaves open. */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"

/* What the path did, per process, per instruction index. */
struct taken {
	int32_t **src; /* the input's source (or request's post instruction) */
	char **has;    /* 1: an input was taken there */
	char **done;   /* 1: executed */
};

static void on_input(void *ctx, int q, int i, const struct eng_instr *in, int src, int tag,
		     int site)
{
	struct taken *t = ctx;

	t->src[q][i] = src;
	t->has[q][i] = 1;
}

static void on_exec(void *ctx, int q, int i, const struct eng_instr *in)
{
	((struct taken *)ctx)->done[q][i] = 1;
}

/* The request of post instruction x of ins, as the recorder numbered it: the event's own, or
 * for MPI_Start/Startall, the one its posts so far reach. */
static int32_t request_of(const struct mpiv_rank_trace *t, const struct eng_instr *ins, int x)
{
	const struct mpiv_event *ev;
	int j = 0, i;

	if (ins[x].ev < 0 || (size_t)ins[x].ev >= t->nevents)
		return MPIV_NONE;
	ev = mpiv_trace_event(t, (size_t)ins[x].ev);
	for (i = 0; i < x; i++)
		j += ins[i].ev == ins[x].ev &&
		     (ins[i].op == ENG_POST_SEND || ins[i].op == ENG_POST_RECV);
	return (uint32_t)j < ev->nreqs ? ev->reqs[j].req : MPIV_NONE;
}

/* The instruction of ins[0..n) that takes the input of event e (a receive, probe or
 * any-completion), or -1. */
static int input_instr(const struct eng_instr *ins, int n, long e)
{
	int i;

	for (i = 0; i < n; i++)
		if (ins[i].ev == e && ins[i].reg > 0 && ins[i].op != ENG_POST_SEND &&
		    ins[i].op != ENG_BRANCH)
			return i;
	return -1;
}

/* The instruction of ins[0..n) that completes event e's call (a wait kind), or -1. */
static int wait_instr(const struct eng_instr *ins, int n, long e)
{
	int i;

	for (i = 0; i < n; i++)
		if (ins[i].ev == e && (ins[i].op == ENG_WAIT || ins[i].op == ENG_WAITANY ||
				       ins[i].op == ENG_WAIT_SOME))
			return i;
	return -1;
}

/* Rank r's decisions on the path: those of its run's trace, with the outcomes the path took,
 * up to the first the path did not reach. */
static void rank_decisions(const struct mpiv_rank_trace *t, const struct eng_instr *ins, int n,
			   const struct taken *tk, int q, struct mpiv_steer *s)
{
	size_t e, cap = 0;

	for (e = 0; e < t->nevents; e++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, (size_t)e);
		enum mpiv_decision dk = mpiv_event_decision(ev);
		struct mpiv_steer_decision d;
		long at = (long)e;
		int x;

		if (dk == MPIV_DEC_NONE)
			continue;
		memset(&d, 0, sizeof(d));
		d.call = ev->call;
		d.comm = MPIV_NONE;
		d.tag = MPIV_NONE;
		d.src = MPIV_NONE;
		if (dk == MPIV_DEC_SOURCE) {
			/* a wildcard probe fused with its receive: the receive takes the input */
			if (mpiv_call_kind(ev->call) == MPIV_KIND_PROBE) {
				long f = tr_fused_receive(t, e);

				if (f >= 0)
					at = f;
			}
			x = input_instr(ins, n, at);
			if (x < 0 || !tk->has[q][x])
				break;
			d.comm = ev->comm;
			d.tag = mpiv_event_recv_tag(ev);
			d.src = tk->src[q][x];
		} else {
			x = input_instr(ins, n, at);
			if (x >= 0) { /* an any-completion of the model: its choice */
				int32_t req;

				if (!tk->has[q][x])
					break;
				req = request_of(t, ins, tk->src[q][x]);
				if (req == MPIV_NONE)
					break;
				d.nreqs = 1;
				d.reqs = xmalloc(sizeof(*d.reqs));
				d.reqs[0] = req;
			} else { /* one the model does not choose: as recorded */
				uint32_t j;

				x = wait_instr(ins, n, at);
				if (x < 0 || !tk->done[q][x])
					break;
				d.nreqs = ev->nreqs - ev->npending;
				d.reqs = xmalloc((d.nreqs + 1) * sizeof(*d.reqs));
				for (j = 0; j < d.nreqs; j++)
					d.reqs[j] = ev->reqs[j].req;
			}
		}
		xgrow((void **)&s->d, &cap, s->n + 1, sizeof(*s->d));
		s->d[s->n++] = d;
	}
}

int tr_path_of(const struct tr_merged *m, struct mpiv_traceset *const *runs, const int *path,
	       int npath, struct tr_path *out)
{
	const struct eng_prog *p = &m->prog;
	struct eng_prog run = *p;
	struct eng_observer obs;
	struct taken tk;
	int32_t *st = xcalloc(eng_state_bytes(p), 1);
	int q, i, most;

	memset(out, 0, sizeof(*out));
	tk.src = xcalloc((size_t)p->nprocs, sizeof(*tk.src));
	tk.has = xcalloc((size_t)p->nprocs, sizeof(*tk.has));
	tk.done = xcalloc((size_t)p->nprocs, sizeof(*tk.done));
	for (q = 0; q < p->nprocs; q++) {
		most = eng_max_nins(p, q);
		tk.src[q] = xcalloc((size_t)most, sizeof(**tk.src));
		tk.has[q] = xcalloc((size_t)most, 1);
		tk.done[q] = xcalloc((size_t)most, 1);
	}
	memset(&obs, 0, sizeof(obs));
	obs.ctx = &tk;
	obs.input = on_input;
	obs.exec = on_exec;
	run.obs = &obs;
	eng_start(&run, st);
	for (i = 0; i < npath; i++) {
		if (path[i] < 0 || path[i] >= eng_nchoices(&run, st))
			break;
		eng_choose(&run, st, path[i]);
	}
	out->ok = i == npath;
	out->nranks = p->nranks;
	out->steer = xcalloc((size_t)p->nranks, sizeof(*out->steer));
	out->run = xcalloc((size_t)p->nranks, sizeof(*out->run));
	out->event = xcalloc((size_t)p->nranks, sizeof(*out->event));
	out->at_end = xcalloc((size_t)p->nranks, sizeof(*out->at_end));
	for (q = 0; q < p->nprocs; q++) {
		int r = p->proc_rank[q], v = eng_variant(p, st, q);
		const struct eng_instr *ins = eng_variant_ins(p, q, v);

		out->run[r] = m->run[q][v];
		out->steer[r].rank = r;
		rank_decisions(&runs[out->run[r]]->ranks[r], ins, eng_variant_nins(p, q, v), &tk, q,
			       &out->steer[r]);
		out->event[r] = eng_instr_at(p, st, q)->ev;
		out->at_end[r] = eng_at_end(p, st, q);
		free(tk.src[q]);
		free(tk.has[q]);
		free(tk.done[q]);
	}
	free(tk.src);
	free(tk.has);
	free(tk.done);
	free(st);
	return out->ok ? 0 : -1;
}

void tr_path_release(struct tr_path *pt)
{
	int r;

	for (r = 0; pt->steer && r < pt->nranks; r++)
		mpiv_steer_release(&pt->steer[r]);
	free(pt->steer);
	free(pt->run);
	free(pt->event);
	free(pt->at_end);
	memset(pt, 0, sizeof(*pt));
}
