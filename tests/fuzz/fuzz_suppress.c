/* Fuzz target: a suppressions file (common/suppress.c), as check and verify read it with
 * --suppressions. A file refused names its line and says why; one accepted is matched against
 * a few findings. Then the input, cut into a call, a function and a file name, is a finding
 * whose suppression (as --gen-suppressions writes it) must read back and match it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "suppress.h"

static struct mpiv_finding_site sites[] = {
	{"MPI_Send", "exchange", "/src/halo.c", 42},
	{"MPI_Recv", "main", "main.c", 7},
	{NULL, NULL, NULL, 0},
};

/* Its n-th NUL-separated part of data (up to 3), a malloc'ed string. */
static char *part(const uint8_t *data, size_t size, int n)
{
	size_t i = 0, start;
	char *s;

	while (n-- > 0) {
		while (i < size && data[i])
			i++;
		if (i < size)
			i++;
	}
	start = i;
	while (i < size && data[i])
		i++;
	s = malloc(i - start + 1);
	if (!s)
		fuzz_fail("out of memory");
	memcpy(s, data + start, i - start);
	s[i - start] = '\0';
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpiv_suppressions set;
	struct mpiv_error err;
	struct mpiv_finding f;
	struct mpiv_finding_site site;
	char *call, *fun, *file, *text;
	size_t len;
	int kind;
	FILE *out;

	memset(&set, 0, sizeof(set));
	mpiv_error_init(&err);
	if (mpiv_suppressions_parse(&set, (const char *)data, size, "fuzz.supp", &err)) {
		if (!err.set || !err.text[0] || err.line < 1 || strcmp(err.source, "fuzz.supp"))
			fuzz_fail("a file refused without its line or a reason: line %d, '%s'",
				  err.line, err.text);
		if (set.n)
			fuzz_fail("a file refused, but %zu suppressions kept", set.n);
	}
	for (kind = 0; kind < MPIV_FIND__COUNT; kind++) {
		struct mpiv_finding each = {kind, sites, (size_t)(kind % 4)};

		mpiv_suppressions_match(&set, &each);
	}
	mpiv_suppressions_release(&set);

	/* a finding of the input's names: its suppression reads back and matches it */
	call = part(data, size, 0);
	fun = part(data, size, 1);
	file = part(data, size, 2);
	site.call = *call ? call : NULL;
	site.function = *fun ? fun : NULL;
	site.file = *file ? file : NULL;
	site.line = (int)(size % 1000);
	f.kind = (int)(size % MPIV_FIND_RANK_STOPPED);
	f.sites = &site;
	f.nsites = size % 2;
	out = open_memstream(&text, &len);
	if (!out)
		fuzz_fail("open_memstream failed");
	mpiv_suppression_write(out, &f, call);
	fclose(out);
	mpiv_error_init(&err);
	if (mpiv_suppressions_parse(&set, text, len, "gen", &err))
		fuzz_fail("a written suppression does not read back: line %d: %s\n%s", err.line,
			  err.text, text);
	if (set.n != 1 || !mpiv_suppressions_match(&set, &f))
		fuzz_fail("a written suppression does not match its finding:\n%s", text);
	mpiv_suppressions_release(&set);
	free(text);
	free(call);
	free(fun);
	free(file);
	return 0;
}
