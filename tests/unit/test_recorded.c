/* check's own walks of the engine against the walks they stand for, on every case of
 * tests/model/cases: the recorded path, which finds each state's recorded choice by walking
 * the choices only up to it (eng_choose_first()) with the engine counting at most one, against
 * the same path found by listing every choice of every state (its picks, and the steps and
 * end state of tr_recorded_path()); and the forced pass, which asks the engine to count at
 * most two choices, against one that counts them all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "unit.h"
#include "xalloc.h"
#include "tr_check.h"

struct tally {
	int walks, picks, later; /* walks compared, picks in them, picks past the first choice */
	int passes, steps;	 /* forced passes compared, steps in them */
};

/* What a walk did, step by step: (process, instruction, sender, send) of each match, and
 * (process, instruction, -1, -1) of each other step. */
struct steps {
	int *w;
	size_t n, cap;
};

static void note(struct steps *s, int a, int b, int c, int d)
{
	xgrow((void **)&s->w, &s->cap, s->n + 4, sizeof(*s->w));
	s->w[s->n++] = a;
	s->w[s->n++] = b;
	s->w[s->n++] = c;
	s->w[s->n++] = d;
}

static void on_match(void *ctx, int d, int ri, const struct eng_instr *rin, int s, int si,
		     const struct eng_instr *sin)
{
	(void)rin;
	(void)sin;
	note(ctx, d, ri, s, si);
}

static void on_exec(void *ctx, int r, int i, const struct eng_instr *in)
{
	(void)in;
	note(ctx, r, i, -1, -1);
}

/* tr_recorded_path() (which needs no index of its choices, and passes over the senders its
 * receives did not take) against the listed picks taken one by one: the same steps, the same
 * end state. */
static void compare_path(const char *dir, const struct eng_prog *prog,
			 const struct mpiv_traceset *ts, enum eng_buffering b, const int *picks,
			 int npicks, int known)
{
	struct steps fast = {NULL, 0, 0}, listed = {NULL, 0, 0};
	struct eng_observer ofast = {&fast, on_match, on_exec, NULL, NULL, NULL};
	struct eng_observer olisted = {&listed, on_match, on_exec, NULL, NULL, NULL};
	struct eng_prog q = *prog;
	size_t size = eng_state_bytes(prog);
	int32_t *a = xmalloc(size), *c = xmalloc(size);
	int i;

	CU_ASSERT_EQUAL(tr_recorded_path(prog, ts, b, 64, 0, &ofast, a), known);
	q.full = 1;
	q.buffering = b;
	q.eager = 64;
	q.obs = &olisted;
	eng_start(&q, c);
	for (i = 0; i < npicks; i++)
		eng_choose(&q, c, picks[i]);
	if (fast.n != listed.n || memcmp(fast.w, listed.w, fast.n * sizeof(*fast.w)) ||
	    memcmp(a, c, size)) {
		fprintf(stderr, "\n%s: buffering %d: the recorded path took other steps\n", dir,
			(int)b);
		CU_FAIL("the recorded path differs from the listed one");
	}
	free(fast.w);
	free(listed.w);
	free(a);
	free(c);
}

/* The recorded path in buffering b found both ways: the same choices, equally known. */
static void compare_recorded(const char *dir, const struct eng_prog *prog,
			     const struct mpiv_traceset *ts, enum eng_buffering b, struct tally *tl)
{
	int *fast, *listed, nfast, nlisted, kfast, klisted, i;

	kfast = tr_recorded_picks(prog, ts, b, 64, 0, &fast, &nfast);
	klisted = tr_recorded_picks(prog, ts, b, 64, 1, &listed, &nlisted);
	compare_path(dir, prog, ts, b, listed, nlisted, klisted);
	CU_ASSERT_EQUAL(kfast, klisted);
	CU_ASSERT_EQUAL(nfast, nlisted);
	for (i = 0; i < nfast && i < nlisted; i++) {
		if (fast[i] != listed[i]) {
			fprintf(stderr, "\n%s: buffering %d: choice %d: %d, listed %d\n", dir,
				(int)b, i, fast[i], listed[i]);
			CU_FAIL("the recorded path's choice differs from the listed one");
			break;
		}
		tl->later += fast[i] > 0;
	}
	tl->picks += nfast;
	tl->walks++;
	free(fast);
	free(listed);
}

/* tr_forced_path() against the pass that counts every choice of every state: as many steps,
 * the same state at the end. */
static void compare_forced(const struct eng_prog *prog, struct tally *tl)
{
	size_t size = eng_state_bytes(prog);
	int32_t *fast = xmalloc(size), *counted = xmalloc(size);
	long lead = tr_forced_path(prog, fast), steps = 0;

	eng_start(prog, counted);
	while (eng_nchoices(prog, counted) == 1) {
		eng_choose(prog, counted, 0);
		steps++;
	}
	CU_ASSERT_EQUAL(lead, steps);
	CU_ASSERT(memcmp(fast, counted, size) == 0);
	tl->passes++;
	tl->steps += (int)steps;
	free(fast);
	free(counted);
}

static void compare_case(const char *dir, void *ctx)
{
	struct tally *tl = ctx;
	static const enum eng_buffering modes[] = {ENG_BUF_ZERO, ENG_BUF_INFINITE, ENG_BUF_EAGER};
	struct mpiv_traceset ts;
	size_t m;

	if (unit_case_load(dir, &ts))
		return;
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct eng_prog prog;

		if (unit_case_translate(dir, &ts, modes[m], 64, &prog))
			break;
		compare_recorded(dir, &prog, &ts, modes[m], tl);
		compare_forced(&prog, tl);
		prog.full = 1;
		compare_forced(&prog, tl);
		eng_prog_release(&prog);
	}
	mpiv_traceset_release(&ts);
}

static void test_cases(void)
{
	struct tally tl;

	memset(&tl, 0, sizeof(tl));
	unit_each_case(compare_case, &tl);
	fprintf(stderr,
		"\n  %d recorded paths compared (%d choices, %d not the first on offer), %d forced "
		"passes (%d steps) ",
		tl.walks, tl.picks, tl.later, tl.passes, tl.steps);
	/* cases that make no choice past the first would compare nothing */
	CU_ASSERT(tl.walks >= 30);
	CU_ASSERT(tl.later >= 10);
	CU_ASSERT(tl.steps >= 10);
}

static CU_TestInfo recorded_tests[] = {
	{"the recorded path and the forced pass, walked as their counting walks", test_cases},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo recorded_suite = {"check's own walks", NULL, NULL, NULL, NULL, recorded_tests};
