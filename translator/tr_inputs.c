/* Translator, for verify (doc/verify.md): the call sites that tell messages apart, and the
 * inputs a run recorded, written into the branches that compare them. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"

int32_t tr_site_key(const struct mpiv_rank_trace *t, uint64_t site)
{
	const char *module = site ? mpiv_trace_module(t, site) : NULL;
	uint64_t h = 1469598103934665603ULL, addr = MPIV_SITE_ADDR(site);
	int i;

	if (!site)
		return 0;
	/* FNV-1a of the module's path and the address in it: the same in every run of the
	 * program, whatever address the module was loaded at */
	for (; module && *module; module++)
		h = (h ^ (unsigned char)*module) * 1099511628211ULL;
	for (i = 0; i < 8; i++, addr >>= 8)
		h = (h ^ (addr & 0xff)) * 1099511628211ULL;
	h = (h ^ (h >> 32)) & 0x7fffffff;
	return h ? (int32_t)h : 1;
}

/* The inputs the recorded path took, per process, per input number: three words each. */
struct taken {
	int32_t **in;
	int *n;
};

static void on_input(void *ctx, int q, int i, const struct eng_instr *in, int src, int tag,
		     int site)
{
	struct taken *t = ctx;
	int32_t *w;

	if (in->reg <= 0 || in->reg > t->n[q])
		return;
	w = &t->in[q][3 * (in->reg - 1)];
	w[0] = src;
	w[1] = tag;
	w[2] = site;
}

void tr_fill_inputs(struct eng_prog *prog, const struct mpiv_traceset *ts)
{
	struct eng_observer obs;
	struct taken t;
	int32_t *st = xcalloc(eng_state_bytes(prog), 1), **sym;
	int q, i;

	t.in = xcalloc((size_t)prog->nprocs, sizeof(*t.in));
	t.n = xcalloc((size_t)prog->nprocs, sizeof(*t.n));
	sym = xcalloc((size_t)prog->nprocs, sizeof(*sym));
	for (q = 0; q < prog->nprocs; q++) {
		sym[q] = xcalloc((size_t)prog->nins[q], sizeof(**sym));
		for (i = 0; i < prog->nins[q]; i++) {
			struct eng_instr *in = &prog->ins[q][i];

			if (in->reg > t.n[q])
				t.n[q] = in->reg;
			/* compare nothing while the path is run: what they compare with is what
			 * this run fills in */
			if (in->op == ENG_BRANCH) {
				sym[q][i] = in->sym;
				in->sym = 0;
			}
		}
		t.in[q] = xmalloc((size_t)(3 * t.n[q] + 1) * sizeof(**t.in));
		for (i = 0; i < 3 * t.n[q]; i++)
			t.in[q][i] = TR_NO_INPUT;
	}
	memset(&obs, 0, sizeof(obs));
	obs.ctx = &t;
	obs.input = on_input;
	tr_recorded_path(prog, ts, ENG_BUF_INFINITE, 0, 0, &obs, st);
	for (q = 0; q < prog->nprocs; q++) {
		for (i = 0; i < prog->nins[q]; i++) {
			struct eng_instr *in = &prog->ins[q][i];
			const int32_t *w;

			if (in->op != ENG_BRANCH)
				continue;
			in->sym = sym[q][i];
			if (i == 0 && in->ev == 0 && in->a == 0 && !in->sym) {
				in->b = in->c = in->d = 0; /* the first branch: no input */
				continue;
			}
			w = in->a < t.n[q] ? &t.in[q][3 * in->a] : NULL;
			in->b = w ? w[0] : TR_NO_INPUT;
			in->c = w ? w[1] : TR_NO_INPUT;
			in->d = w ? w[2] : TR_NO_INPUT;
		}
		free(t.in[q]);
		free(sym[q]);
	}
	free(t.in);
	free(t.n);
	free(sym);
	free(st);
}
