/* Fuzz target: meta.json (common/trace_json.c), as check and replay read it next to the
 * traces; what reads must read again once written back. */
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write(MPIV_META_FILE, data, size);
	struct mpiv_meta m, back;
	struct mpiv_error err;

	mpiv_error_init(&err);
	if (mpiv_meta_load(path, &m, &err))
		return 0;
	mpiv_error_init(&err);
	if (mpiv_meta_save(fuzz_dir(), &m, &err) || mpiv_meta_load(path, &back, &err))
		fuzz_fail("meta.json written back does not read: %s", err.text);
	if (back.exit_status != m.exit_status || back.hung != m.hung)
		fuzz_fail("meta.json written back reads otherwise");
	mpiv_meta_release(&back);
	mpiv_meta_release(&m);
	return 0;
}
