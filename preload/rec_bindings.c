/* The MPI library's language bindings, for both preload libraries: a Fortran program calls
 * MPI through them, and some reach the C library by its profiling names (Open MPI's mpif.h,
 * mpi and mpi_f08 bindings: mpi_send_ calls PMPI_Send; MPICH's mpi_f08 for the calls without
 * a choice buffer: mpi_wait_f08_ calls PMPI_Wait), which no MPI_* wrapper sees. Before the
 * program starts, each such reference of a binding's shared object to a call of
 * base/mpi_calls.def is pointed at this library's MPI_* wrapper of that call (its global
 * offset table entry, where the dynamic loader put PMPI_*'s address), which then records or
 * replays it as it does a C program's call, the binding having converted the Fortran handles
 * and statuses. The bindings that call MPI_* (MPICH's mpif.h and mpi: mpi_send_ calls
 * MPI_Send) reach the wrappers anyway. The call's site is then in the binding: rec_site.c
 * names the program's frame instead. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mpi.h>

#include "mpilib.h"

#pragma GCC visibility push(hidden)

#if defined(__x86_64__)
#define BIND_JUMP_SLOT R_X86_64_JUMP_SLOT
#define BIND_GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define BIND_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define BIND_GLOB_DAT R_AARCH64_GLOB_DAT
#endif

/* Every call of the list, by its profiling name, and this library's wrapper of it. */
struct bind_call {
	const char *pmpi;      /* "PMPI_Send" */
	void (*wrapper)(void); /* MPI_Send, as this library defines it */
};

#define MPIV_CALL(name, number, kind, flags, params, args) \
	{"PMPI_" #name, (void (*)(void))MPI_##name},
static const struct bind_call bind_calls[] = {
#include "mpi_calls.def"
};
#undef MPIV_CALL

#ifdef BIND_JUMP_SLOT
/* The wrapper of the call whose profiling name is name, or NULL. */
static void (*bind_wrapper(const char *name))(void)
{
	size_t i;

	if (strncmp(name, "PMPI_", 5) != 0)
		return NULL;
	for (i = 0; i < sizeof(bind_calls) / sizeof(bind_calls[0]); i++) {
		if (!strcmp(name, bind_calls[i].pmpi))
			return bind_calls[i].wrapper;
	}
	return NULL;
}

/* An address of the dynamic section: glibc has made most of them absolute in memory, others
 * may still be relative to the object's load bias. */
static uintptr_t bind_ptr(const struct dl_phdr_info *info, ElfW(Addr) p)
{
	return p < info->dlpi_addr ? info->dlpi_addr + p : p;
}

/* Point the entry at slot to fn: writable for the moment if it is in a read-only page (full
 * RELRO), as it was after. */
static void bind_write(const struct dl_phdr_info *info, void **slot, void (*fn)(void))
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)slot & ~((uintptr_t)page - 1);
	int relro = 0, i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_GNU_RELRO && (uintptr_t)slot >= lo &&
		    (uintptr_t)slot < lo + ph->p_memsz)
			relro = 1;
	}
	if (relro && mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE) != 0)
		return;
	*slot = (void *)fn;
	if (relro)
		mprotect((void *)start, (size_t)page, PROT_READ);
}

/* Redirect the relocations of one table (DT_JMPREL or DT_RELA) of a binding's object. */
static void bind_table(const struct dl_phdr_info *info, const ElfW(Rela) * rel, size_t size,
		       const ElfW(Sym) * symtab, const char *strtab)
{
	size_t i;

	for (i = 0; i < size / sizeof(*rel); i++) {
		unsigned long type = ELF64_R_TYPE(rel[i].r_info);
		void (*fn)(void);

		if (type != BIND_JUMP_SLOT && type != BIND_GLOB_DAT)
			continue;
		fn = bind_wrapper(strtab + symtab[ELF64_R_SYM(rel[i].r_info)].st_name);
		if (fn)
			bind_write(info, (void **)(info->dlpi_addr + rel[i].r_offset), fn);
	}
}

/* dl_iterate_phdr's callback: redirect the object if it is a binding of a known MPI library
 * (by the name the loader found it under, a soname: base/mpilib.c). */
static int bind_object(struct dl_phdr_info *info, size_t size, void *data)
{
	const ElfW(Rela) *jmprel = NULL, *rela = NULL;
	const ElfW(Sym) *symtab = NULL;
	const ElfW(Dyn) *dyn = NULL, *d;
	const char *strtab = NULL, *base;
	size_t jmpsz = 0, relasz = 0;
	int i;

	(void)size;
	(void)data;
	if (!info->dlpi_name || !info->dlpi_name[0])
		return 0;
	base = strrchr(info->dlpi_name, '/');
	if (!mpiv_mpilib_binding(base ? base + 1 : info->dlpi_name))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	}
	for (d = dyn; d && d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_SYMTAB:
			symtab = (const ElfW(Sym) *)bind_ptr(info, d->d_un.d_ptr);
			break;
		case DT_STRTAB:
			strtab = (const char *)bind_ptr(info, d->d_un.d_ptr);
			break;
		case DT_JMPREL:
			jmprel = (const ElfW(Rela) *)bind_ptr(info, d->d_un.d_ptr);
			break;
		case DT_PLTRELSZ:
			jmpsz = d->d_un.d_val;
			break;
		case DT_RELA:
			rela = (const ElfW(Rela) *)bind_ptr(info, d->d_un.d_ptr);
			break;
		case DT_RELASZ:
			relasz = d->d_un.d_val;
			break;
		}
	}
	if (!symtab || !strtab)
		return 0;
	if (jmprel)
		bind_table(info, jmprel, jmpsz, symtab, strtab);
	if (rela)
		bind_table(info, rela, relasz, symtab, strtab);
	return 0;
}

/* Before main: the bindings were loaded and relocated with the program. A binding loaded
 * later (dlopen) is not redirected. */
__attribute__((constructor)) static void bind_init(void)
{
	dl_iterate_phdr(bind_object, NULL);
}
#endif

#pragma GCC visibility pop
