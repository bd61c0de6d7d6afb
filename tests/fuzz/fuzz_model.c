/* Fuzz target: model.dat (models/engine.c's eng_prog_read, which pan runs before its search).
 * A program that reads is written and read again, then run: the engine's start, a walk
 * through its choices (picked by the input's bytes), and who waits for whom at the end. */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "fuzz.h"

#define MAX_STEPS 64
#define MAX_WORDS (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct eng_prog prog;
	int32_t *st;
	int *out, n, r, i, nc;
	char msg[256];

	if (!f)
		return 0;
	if (eng_prog_read(&prog, f, msg, sizeof(msg))) {
		eng_prog_release(&prog);
		fclose(f);
		return 0;
	}
	fclose(f);
	if (prog.words > MAX_WORDS) {
		eng_prog_release(&prog);
		return 0;
	}
	st = calloc(eng_state_bytes(&prog), 1);
	out = calloc((size_t)prog.nprocs, sizeof(int));
	if (!st || !out)
		fuzz_fail("out of memory");
	eng_start(&prog, st);
	for (n = 0; n < MAX_STEPS && (nc = eng_nchoices(&prog, st)) > 0; n++)
		eng_choose(&prog, st, size ? data[(size_t)n % size] % nc : 0);
	for (r = 0; r < prog.nprocs; r++) {
		int m = eng_waits_for(&prog, st, r, out);

		for (i = 0; i < m; i++)
			if (out[i] < 0 || out[i] >= prog.nprocs)
				fuzz_fail("process %d waits for process %d of %d", r, out[i],
					  prog.nprocs);
	}
	eng_all_done(&prog, st);
	free(out);
	free(st);
	eng_prog_release(&prog);
	return 0;
}
