/* Fuzz target: the steering file of a verify run (base/steer.c), as the recorder reads it in
 * every rank. A steering that parses is written back and must parse to the same decisions,
 * each thread's as its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "steer.h"

/* Are the decision lists a[0..n) and b[0..n) the same? */
static int same_list(const struct mpiv_steer_decision *a, const struct mpiv_steer_decision *b,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct mpiv_steer_decision *x = &a[i], *y = &b[i];

		if (x->call != y->call || x->comm != y->comm || x->tag != y->tag ||
		    x->src != y->src || x->nreqs != y->nreqs ||
		    (x->nreqs && memcmp(x->reqs, y->reqs, x->nreqs * sizeof(*x->reqs))))
			return 0;
	}
	return 1;
}

/* Are a and b the same steering? */
static int same(const struct mpiv_steer *a, const struct mpiv_steer *b)
{
	size_t i;

	if (a->n != b->n || a->buffering != b->buffering || a->sync_colls != b->sync_colls ||
	    (a->buffering == MPIV_STEER_EAGER && a->eager != b->eager) ||
	    a->nthreads != b->nthreads || !same_list(a->d, b->d, a->n))
		return 0;
	for (i = 0; i < a->nthreads; i++) {
		const struct mpiv_steer_thread *x = &a->threads[i], *y = &b->threads[i];

		if (strcmp(x->path, y->path) || x->n != y->n || !x->n ||
		    !mpiv_steer_path_valid(x->path) || !same_list(x->d, y->d, x->n))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpiv_steer s, back;
	char why[128], *text;
	size_t len;
	FILE *f;
	int rank;

	for (rank = 0; rank < 3; rank++) {
		if (mpiv_steer_parse((const char *)data, size, rank, &s, why, sizeof(why))) {
			if (!why[0])
				fuzz_fail("a steering file refused without a reason");
			mpiv_steer_release(&s);
			return 0;
		}
		f = open_memstream(&text, &len);
		if (!f)
			fuzz_fail("open_memstream failed");
		mpiv_steer_write_header(f, s.buffering, s.eager, s.sync_colls);
		mpiv_steer_write_all(f, &s);
		fclose(f);
		if (mpiv_steer_parse(text, len, rank, &back, why, sizeof(why)))
			fuzz_fail("rank %d's steering written back does not parse: %s\n%s", rank,
				  why, text);
		if (!same(&s, &back))
			fuzz_fail("rank %d's steering written back parses otherwise:\n%s", rank,
				  text);
		mpiv_steer_release(&back);
		mpiv_steer_release(&s);
		free(text);
	}
	return 0;
}
