/* Call sites to function, file and line with elfutils' libdwfl, reading the module's ELF file
 * offline. One Dwfl per module path is kept for the life of the process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "environment.h"
#include "event.h"
#include "srcloc.h"
#include "xalloc.h"

struct module_cache {
	char *path;
	Dwfl *dwfl; /* NULL if the file could not be read */
	Dwfl_Module *mod;
};

static struct module_cache *cache;
static size_t ncache, cache_cap;

/* elfutils' standard search for a module's separate debug information, but for its last
 * step: asking debuginfod servers, which loads their client (curl and TLS, most of what a
 * small check costs) even when none is configured. They are asked only when the user names
 * some (DEBUGINFOD_URLS), or when the file names a debug file (.gnu_debuglink) that is not
 * where elfutils looks. Without either, a debug file can only be found by the build ID. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *urls = getenv(MPIV_ENV_DEBUGINFOD_URLS);
	int fd;

	if ((urls && *urls) || debuglink_file)
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	return fd >= 0 ? fd : -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static struct module_cache *open_module(const char *path)
{
	struct module_cache *c;
	size_t i;

	for (i = 0; i < ncache; i++)
		if (!strcmp(cache[i].path, path))
			return &cache[i];
	xgrow((void **)&cache, &cache_cap, ncache + 1, sizeof(*cache));
	c = &cache[ncache++];
	c->path = xstrdup(path);
	c->dwfl = dwfl_begin(&offline_callbacks);
	c->mod = NULL;
	if (c->dwfl) {
		c->mod = dwfl_report_offline(c->dwfl, path, path, -1);
		dwfl_report_end(c->dwfl, NULL, NULL);
	}
	return c;
}

/* A Python script's function, "python:FILE:FUNCTION" (MPIV_SITE_PYTHON): its file into
 * *file and *filelen, its function into *function. Returns 0, or -1 if path is none. */
static int python_module(const char *path, const char **file, size_t *filelen,
			 const char **function)
{
	const char *colon;

	if (strncmp(path, MPIV_SITE_PYTHON, strlen(MPIV_SITE_PYTHON)))
		return -1;
	path += strlen(MPIV_SITE_PYTHON);
	colon = strrchr(path, ':');
	if (!colon || colon == path)
		return -1;
	*file = path;
	*filelen = (size_t)(colon - path);
	*function = colon + 1;
	return 0;
}

int mpiv_srcloc_resolve(const char *path, uint64_t addr, struct mpiv_cex_site *out)
{
	struct module_cache *c;
	Dwarf_Addr bias = 0, pc;
	Dwfl_Line *line;
	const char *name, *file;
	size_t filelen;
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	if (!path || !*path)
		return -1;
	/* a script's line: the address is the line */
	if (python_module(path, &file, &filelen, &name) == 0) {
		out->file = xstrndup(file, filelen);
		out->function = xstrdup(name);
		out->line = (int)addr;
		return 0;
	}
	c = open_module(path);
	if (!c->mod)
		return -1;
	/* The recorder stores return addresses relative to the link-time addresses; libdwfl
	 * places an offline module at its own bias. Step back one byte into the call
	 * instruction so that the line is the call's, not the next statement's. */
	if (!dwfl_module_getelf(c->mod, &bias))
		return -1;
	pc = addr + bias - (addr ? 1 : 0);
	name = dwfl_module_addrname(c->mod, pc);
	if (name)
		out->function = xstrdup(name);
	line = dwfl_module_getsrc(c->mod, pc);
	if (line) {
		file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
		if (file)
			out->file = xstrdup(file);
		out->line = lineno;
	}
	return out->function || out->file ? 0 : -1;
}

int mpiv_srcloc_source_path(const char *path, uint64_t addr, char *buf, unsigned long size)
{
	struct module_cache *c;
	Dwarf_Addr bias = 0;
	Dwfl_Line *line;
	const char *file, *dir;
	size_t filelen;

	if (!path || !*path || !size)
		return -1;
	if (python_module(path, &file, &filelen, &dir) == 0)
		return filelen < size ? (snprintf(buf, size, "%.*s", (int)filelen, file), 0) : -1;
	c = open_module(path);
	if (!c->mod || !dwfl_module_getelf(c->mod, &bias))
		return -1;
	line = dwfl_module_getsrc(c->mod, addr + bias - (addr ? 1 : 0));
	file = line ? dwfl_lineinfo(line, NULL, NULL, NULL, NULL, NULL) : NULL;
	if (!file)
		return -1;
	dir = file[0] == '/' ? NULL : dwfl_line_comp_dir(line);
	if ((unsigned long)snprintf(buf, size, "%s%s%s", dir ? dir : "", dir ? "/" : "", file) >=
	    size)
		return -1;
	return 0;
}

void mpiv_srcloc_format(const struct mpiv_cex_site *s, char *buf, unsigned long size)
{
	const char *base = s->file ? strrchr(s->file, '/') : NULL;
	const char *file = base ? base + 1 : s->file;

	if (file && s->function)
		snprintf(buf, size, "%s:%d (%s)", file, s->line, s->function);
	else if (file)
		snprintf(buf, size, "%s:%d", file, s->line);
	else if (s->function)
		snprintf(buf, size, "%s", s->function);
	else
		snprintf(buf, size, "unknown location");
}

void mpiv_cex_site_release(struct mpiv_cex_site *s)
{
	free(s->function);
	free(s->file);
	memset(s, 0, sizeof(*s));
}
