/* The shared objects an ELF program names as needed (DT_NEEDED): the libraries the dynamic
 * loader loads with it, and so the MPI library it was linked with (jobs/mpi_pick.c); and
 * whether it is run by the dynamic loader at all, and which MPI ABI its handles have. */
#ifndef MPIV_ELFNEEDED_H
#define MPIV_ELFNEEDED_H

#include <stddef.h>

#include "error.h"

struct mpiv_elf_needed {
	char **names; /* the DT_NEEDED entries, in order; malloc'ed, n of them */
	size_t n;
	/* 1: it names a program interpreter (PT_INTERP), the dynamic loader that runs it and
	 * that LD_PRELOAD speaks to; 0: a static program, or a shared library */
	int interp;
	/* 1: its dynamic symbols name an object whose name starts with "ompi_mpi_": an MPI
	 * handle of Open MPI's ABI (MPI_COMM_WORLD is &ompi_mpi_comm_world), whatever its
	 * library is called */
	int ompi_abi;
};

/* Read the DT_NEEDED entries of the ELF file at path into *out (none for a static program).
 * Returns 0; or -1 with *out empty and err set (MPIV_EXIT_BAD_INPUT, the file named) when the
 * file cannot be read, is not an ELF file, or its dynamic section is malformed. */
int mpiv_elf_needed_file(const char *path, struct mpiv_elf_needed *out, struct mpiv_error *err);

/* The same for an ELF image in memory (size bytes); source names it in errors. */
int mpiv_elf_needed_mem(const void *image, size_t size, const char *source,
			struct mpiv_elf_needed *out, struct mpiv_error *err);

void mpiv_elf_needed_release(struct mpiv_elf_needed *n);

#endif
