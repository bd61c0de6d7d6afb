/* DT_NEEDED entries of an ELF file, read with libelf: the dynamic section's entries of that
 * tag, each an offset into the string table its section header links to. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfneeded.h"
#include "xalloc.h"

/* Whether elf has a PT_INTERP program header: the dynamic loader runs it. */
static int has_interp(Elf *elf)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
			return 1;
	return 0;
}

/* Whether the dynamic symbols of section scn (of header shdr) name an ompi_mpi_ object: taken
 * from a shared library (undefined here), or copied into the program (a copy relocation
 * defines it in the program's own data). A symbol that cannot be read is left out. */
static int takes_ompi(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, count, entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);

	if (!data || !entsize)
		return 0;
	count = data->d_size / entsize;
	for (i = 1; i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			continue;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (name && !strncmp(name, "ompi_mpi_", 9))
			return 1;
	}
	return 0;
}

/* Read the needed entries of elf into *out. Returns 0, or -1 with err set. */
static int needed_of(Elf *elf, const char *source, struct mpiv_elf_needed *out,
		     struct mpiv_error *err)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	if (elf_kind(elf) != ELF_K_ELF)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1, "not an ELF file");
	out->interp = has_interp(elf);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sym;

		if (gelf_getshdr(scn, &sym) && sym.sh_type == SHT_DYNSYM && !out->ompi_abi)
			out->ompi_abi = takes_ompi(elf, scn, &sym);
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *data;
		size_t i, count, entsize;

		if (!gelf_getshdr(scn, &shdr))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1,
					      "unreadable section header: %s", elf_errmsg(-1));
		if (shdr.sh_type != SHT_DYNAMIC)
			continue;
		data = elf_getdata(scn, NULL);
		entsize = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
		if (!data || !entsize)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1,
					      "unreadable dynamic section: %s", elf_errmsg(-1));
		count = data->d_size / entsize;
		for (i = 0; i < count; i++) {
			GElf_Dyn dyn;
			const char *name;

			if (!gelf_getdyn(data, (int)i, &dyn))
				return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1,
						      "dynamic entry %zu: unreadable: %s", i,
						      elf_errmsg(-1));
			if (dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED)
				continue;
			name = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
			if (!name)
				return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1,
						      "dynamic entry %zu: DT_NEEDED names no "
						      "string",
						      i);
			xgrow((void **)&out->names, &cap, out->n + 1, sizeof(*out->names));
			out->names[out->n++] = xstrdup(name);
		}
		/* an executable has one dynamic section */
		break;
	}
	return 0;
}

/* The needed entries of elf (NULL: elf_begin failed) into *out, then elf ended; *out empty
 * on failure. Returns 0, or -1 with err set. */
static int read_needed(Elf *elf, const char *source, struct mpiv_elf_needed *out,
		       struct mpiv_error *err)
{
	int rc;

	if (!elf)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1,
				      "not an ELF file: %s", elf_errmsg(-1));
	rc = needed_of(elf, source, out, err);
	elf_end(elf);
	if (rc < 0)
		mpiv_elf_needed_release(out);
	return rc;
}

/* libelf's version handshake, once. */
static int elf_ready(const char *source, struct mpiv_error *err)
{
	static int ok = -1;

	if (ok < 0)
		ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok ? 0 :
		    mpiv_error_set(err, MPIV_EXIT_TOOL, source, -1, -1,
				   "libelf is older than this program");
}

int mpiv_elf_needed_file(const char *path, struct mpiv_elf_needed *out, struct mpiv_error *err)
{
	Elf *elf;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	if (elf_ready(path, err) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "%s",
				      strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	rc = read_needed(elf, path, out, err);
	close(fd);
	return rc;
}

int mpiv_elf_needed_mem(const void *image, size_t size, const char *source,
			struct mpiv_elf_needed *out, struct mpiv_error *err)
{
	Elf *elf;
	char *copy;
	int rc;

	memset(out, 0, sizeof(*out));
	if (elf_ready(source, err) < 0)
		return -1;
	/* libelf may convert the image in place (another byte order): it works on a copy */
	copy = xmalloc(size ? size : 1);
	memcpy(copy, image, size);
	elf = elf_memory(copy, size);
	rc = read_needed(elf, source, out, err);
	free(copy);
	return rc;
}

void mpiv_elf_needed_release(struct mpiv_elf_needed *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->names[i]);
	free(n->names);
	memset(n, 0, sizeof(*n));
}
