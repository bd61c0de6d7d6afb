/* Fuzz target: the ELF reader that tells which MPI library a program links (common/elfneeded.c,
 * used by jobs/mpi_pick.c on the program of every job). A file it accepts yields names that
 * are strings, each looked up as an MPI library's. */
#include <string.h>

#include "elfneeded.h"
#include "fuzz.h"
#include "mpilib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpiv_elf_needed needed;
	struct mpiv_error err;
	size_t i;

	mpiv_error_init(&err);
	if (mpiv_elf_needed_mem(data, size, "input", &needed, &err) < 0) {
		if (!err.set || !err.text[0])
			fuzz_fail("an ELF file refused without a reason");
		if (needed.n || needed.names)
			fuzz_fail("a refused ELF file left names behind");
		return 0;
	}
	for (i = 0; i < needed.n; i++) {
		if (!needed.names[i])
			fuzz_fail("needed entry %zu is NULL", i);
		(void)mpiv_mpilib_of_soname(needed.names[i]);
	}
	mpiv_elf_needed_release(&needed);
	return 0;
}
