/* Fuzz target: default options (common/defaults.c), as mpiverify reads ~/.mpiverifyrc,
 * ./.mpiverifyrc and MPIVERIFY_<COMMAND>_OPTIONS before every command. A file refused names
 * its line; one accepted gives words with no blank outside quotes, each from a line of the
 * command asked for. The input read as a variable's value splits the same way. */
#include <stdlib.h>
#include <string.h>

#include "defaults.h"
#include "fuzz.h"

static const char *const commands[] = {"record", "check", "replay", "verify", "trace"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpiv_defaults d = {NULL, 0, NULL};
	struct mpiv_error err;
	size_t i, k;
	char *value;

	for (k = 0; k < sizeof(commands) / sizeof(commands[0]); k++) {
		mpiv_error_init(&err);
		if (mpiv_defaults_parse(&d, (const char *)data, size, commands[k], "input", &err)) {
			if (!err.set || err.line < 1 || strcmp(err.source, "input"))
				fuzz_fail("a refused file with no line: '%s' line %d: %s",
					  err.source, err.line, err.text);
			if (d.n)
				fuzz_fail("a refused file gave %zu words", d.n);
		}
		for (i = 0; i < d.n; i++)
			if (strpbrk(d.words[i], "\n") ||
			    (!memchr(data, '"', size) && strpbrk(d.words[i], " \t")))
				fuzz_fail("word %zu holds a blank or a newline outside quotes", i);
		if (d.n && !d.from)
			fuzz_fail("%zu words from nowhere", d.n);
		mpiv_defaults_release(&d);
	}
	value = malloc(size + 1);
	if (!value)
		fuzz_fail("out of memory");
	memcpy(value, data, size);
	value[size] = '\0';
	mpiv_error_init(&err);
	if (mpiv_defaults_words(&d, value, "MPIVERIFY_CHECK_OPTIONS", &err) == 0)
		for (i = 0; i < d.n; i++)
			if (strpbrk(d.words[i], "\n"))
				fuzz_fail("a word with a newline");
	mpiv_defaults_release(&d);
	free(value);
	return 0;
}
