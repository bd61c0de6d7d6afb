/* Fuzz target: counterexamples (cex.json, common/cex.c), as replay reads them: loaded,
 * checked against a trace (a fixed one here: most seeds were made from it), looked up op by
 * op, and written and read again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cex.h"
#include "fuzz.h"

static struct mpiv_traceset ts;

/* The trace: $MPIV_FUZZ_CEX_TRACE, else the model case wildcard-race of the source tree the
 * target was built in (rank 0 receives with MPI_ANY_SOURCE, then from rank 1). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("MPIV_FUZZ_CEX_TRACE");
	struct mpiv_error err;
	char path[4096], *slash;

	if (!dir || !*dir) {
		snprintf(path, sizeof(path), "%s", (*argv)[0]);
		slash = strrchr(path, '/');
		snprintf(slash ? slash + 1 : path,
			 sizeof(path) - (size_t)(slash ? slash + 1 - path : 0),
			 "../model/cases/wildcard-race");
		dir = path;
	}
	mpiv_error_init(&err);
	if (mpiv_traceset_load(dir, &ts, &err))
		fuzz_fail("the trace '%s' does not load: %s", dir, err.text);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("cex.json", data, size);
	struct mpiv_cex cex, back;
	struct mpiv_error err;
	size_t i;
	int r;

	mpiv_error_init(&err);
	if (mpiv_cex_load(path, &cex, &err))
		return 0;
	mpiv_cex_check_trace(&cex, &ts, path, &err);
	for (r = 0; r < cex.nranks; r++)
		for (i = 0; i < cex.ranks[r].nops; i++)
			if (mpiv_cex_find(&cex.ranks[r], cex.ranks[r].ops[i].op) !=
			    &cex.ranks[r].ops[i])
				fuzz_fail("rank %d's op %zu is not found by its event", r, i);
	mpiv_error_init(&err);
	path = fuzz_write("copy.json", "", 0);
	if (mpiv_cex_save(path, &cex, &err) || mpiv_cex_load(path, &back, &err))
		fuzz_fail("a counterexample written back does not read: %s", err.text);
	if (back.nranks != cex.nranks || back.ncycle != cex.ncycle)
		fuzz_fail("a counterexample written back reads otherwise");
	mpiv_cex_release(&back);
	mpiv_cex_release(&cex);
	return 0;
}
