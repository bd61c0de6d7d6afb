/* Fuzz target: JSON rank traces (rank-N.json, common/trace_json.c). The input is a trace
 * directory: split at every NUL byte (which JSON text cannot hold), each piece is the file
 * of the next rank. A directory that reads goes through check's pipeline (fuzz.h). */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

#define MAX_RANKS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpiv_traceset ts;
	struct mpiv_error err;
	const uint8_t *p = data, *end = data + size, *nul;
	char name[32];
	int r;

	fuzz_clear();
	for (r = 0; r < MAX_RANKS && p <= end; r++) {
		nul = memchr(p, '\0', (size_t)(end - p));
		snprintf(name, sizeof(name), MPIV_TRACE_JSON_FILE, r);
		fuzz_write(name, p, (size_t)((nul ? nul : end) - p));
		if (!nul)
			break;
		p = nul + 1;
	}
	mpiv_error_init(&err);
	if (mpiv_traceset_load(fuzz_dir(), &ts, &err) == 0) {
		fuzz_pipeline(&ts, data, size < 64 ? size : 64);
		mpiv_traceset_release(&ts);
	}
	return 0;
}
