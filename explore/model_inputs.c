/* verify (model.h): the inputs a run took, written into the branches of its own program, each
 * as the input of the branch's one way on. */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "translate.h"
#include "xalloc.h"

/* The inputs the recorded path took, per process, per input number: ENG_REG_WORDS words each. */
struct taken {
	int32_t **in;
	int *n;
};

static void on_input(void *ctx, int q, int i, const struct eng_instr *in, const int32_t *v)
{
	struct taken *t = ctx;

	(void)i;
	if (in->reg <= 0 || in->reg > t->n[q])
		return;
	memcpy(&t->in[q][ENG_REG_WORDS * (in->reg - 1)], v, ENG_REG_WORDS * sizeof(*v));
}

void xmodel_fill_inputs(struct eng_prog *prog, const struct mpiv_traceset *ts)
{
	struct eng_observer obs;
	struct taken t;
	int32_t *st = xcalloc(eng_state_bytes(prog), 1), **sym;
	int q, i, k;

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
		t.in[q] = xmalloc((size_t)(ENG_REG_WORDS * t.n[q] + 1) * sizeof(**t.in));
		for (i = 0; i < ENG_REG_WORDS * t.n[q]; i++)
			t.in[q][i] = TR_NO_INPUT;
	}
	memset(&obs, 0, sizeof(obs));
	obs.ctx = &t;
	obs.input = on_input;
	tr_recorded_path(prog, ts, ENG_BUF_INFINITE, 0, 0, &obs, st);
	for (q = 0; q < prog->nprocs; q++) {
		for (i = 0; i < prog->nins[q]; i++) {
			struct eng_instr *in = &prog->ins[q][i];

			if (in->op != ENG_BRANCH)
				continue;
			in->sym = (int16_t)sym[q][i];
			for (k = 0; k < ENG_REG_WORDS; k++)
				in->list[1 + k] = in->a >= 0 && in->a < t.n[q] ?
							  t.in[q][ENG_REG_WORDS * in->a + k] :
							  0;
		}
		free(t.in[q]);
		free(sym[q]);
	}
	free(t.in);
	free(t.n);
	free(sym);
	free(st);
}
