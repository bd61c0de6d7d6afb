/* Call sites as file:line for the recorder's own messages (the reduction check prints its
 * findings in the rank, as they happen). elfutils' libdw does it, as common/srcloc.c does for
 * the CLI, but loaded with dlopen at the first message: the recorder is preloaded into every
 * program, which must not depend on libdw to start, nor pay for loading it. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "event.h"
#include "rec_reduce.h"
#include "rec_site.h"

/* The libdw functions used, found by dlsym. */
static struct {
	Dwfl *(*begin)(const Dwfl_Callbacks *);
	Dwfl_Module *(*report_offline)(Dwfl *, const char *, const char *, int);
	int (*report_end)(Dwfl *, int (*)(Dwfl_Module *, void *, const char *, Dwarf_Addr, void *),
			  void *);
	Elf *(*getelf)(Dwfl_Module *, GElf_Addr *);
	const char *(*addrname)(Dwfl_Module *, GElf_Addr);
	Dwfl_Line *(*getsrc)(Dwfl_Module *, Dwarf_Addr);
	const char *(*lineinfo)(Dwfl_Line *, Dwarf_Addr *, int *, int *, Dwarf_Word *,
				Dwarf_Word *);
	Dwfl_Callbacks callbacks;
	int ok;
} dw;

static pthread_once_t dw_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t dw_lock = PTHREAD_MUTEX_INITIALIZER; /* libdwfl is not thread-safe */

static void dw_load(void)
{
	void *h = dlopen("libdw.so.1", RTLD_LAZY | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)&dw.begin = dlsym(h, "dwfl_begin");
	*(void **)&dw.report_offline = dlsym(h, "dwfl_report_offline");
	*(void **)&dw.report_end = dlsym(h, "dwfl_report_end");
	*(void **)&dw.getelf = dlsym(h, "dwfl_module_getelf");
	*(void **)&dw.addrname = dlsym(h, "dwfl_module_addrname");
	*(void **)&dw.getsrc = dlsym(h, "dwfl_module_getsrc");
	*(void **)&dw.lineinfo = dlsym(h, "dwfl_lineinfo");
	*(void **)&dw.callbacks.find_debuginfo = dlsym(h, "dwfl_standard_find_debuginfo");
	*(void **)&dw.callbacks.section_address = dlsym(h, "dwfl_offline_section_address");
	dw.ok = dw.begin && dw.report_offline && dw.report_end && dw.getelf && dw.addrname &&
		dw.getsrc && dw.lineinfo && dw.callbacks.find_debuginfo &&
		dw.callbacks.section_address;
}

/* Resolve addr (relative to the link-time addresses of the module at path) as srcloc.c does:
 * one byte back, into the call instruction. Returns 0 if buf got a file or function. Call
 * with dw_lock held. The Dwfl is kept: a rank prints few messages, of few modules. */
static int resolve(const char *path, uint64_t addr, char *buf, size_t size)
{
	static struct {
		const char *path;
		Dwfl_Module *mod;
	} cache[8];
	static int ncache;
	Dwfl_Module *mod = NULL;
	const char *fn, *file = NULL, *base;
	GElf_Addr bias = 0;
	Dwfl_Line *line;
	int i, lineno = 0;

	for (i = 0; i < ncache && !mod; i++)
		if (!strcmp(cache[i].path, path))
			mod = cache[i].mod;
	if (!mod) {
		Dwfl *d = dw.begin(&dw.callbacks);

		if (!d)
			return -1;
		mod = dw.report_offline(d, path, path, -1);
		dw.report_end(d, NULL, NULL);
		if (ncache < 8) {
			cache[ncache].path = path; /* rec_site's strings live for good */
			cache[ncache++].mod = mod;
		}
	}
	if (!mod || !dw.getelf(mod, &bias))
		return -1;
	addr = addr + bias - (addr ? 1 : 0);
	fn = dw.addrname(mod, addr);
	line = dw.getsrc(mod, addr);
	if (line)
		file = dw.lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	base = file ? strrchr(file, '/') : NULL;
	file = base ? base + 1 : file;
	if (file && fn)
		snprintf(buf, size, "%s:%d (%s)", file, lineno, fn);
	else if (file)
		snprintf(buf, size, "%s:%d", file, lineno);
	else if (fn)
		snprintf(buf, size, "%s", fn);
	else
		return -1;
	return 0;
}

void rec_srcline(uint64_t site, char *buf, size_t size)
{
	unsigned mod = MPIV_SITE_MODULE(site);
	const char *path = mod == REC_SITE_NO_MODULE ? NULL : rec_site_module_path(mod);
	int rc = -1;

	if (!site) {
		snprintf(buf, size, "unknown location");
		return;
	}
	pthread_once(&dw_once, dw_load);
	if (dw.ok && path) {
		pthread_mutex_lock(&dw_lock);
		rc = resolve(path, MPIV_SITE_ADDR(site), buf, size);
		pthread_mutex_unlock(&dw_lock);
	}
	if (rc)
		snprintf(buf, size, "%s+0x%llx", path ? path : "?",
			 (unsigned long long)MPIV_SITE_ADDR(site));
}
