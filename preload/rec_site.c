/* Call sites for both preload libraries: which loaded object a return address is in
 * (dladdr1 with RTLD_DL_LINKMAP) and where relative to its link-time addresses, cached in a
 * lock-free hash table so that a call site costs one lookup after its first call. A call made
 * from inside the MPI library (its Fortran bindings: MPICH's mpi_send_ calls MPI_Send) or from
 * this library is the program's call one or more frames out: its site is the first frame of
 * the stack outside both. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event.h"
#include "mpilib.h"
#include "rec_site.h"

#define SITE_SLOTS 4096			/* hash table size, a power of two */
#define SITE_ENTRIES (SITE_SLOTS / 2)	/* at most half full, so probes stay short */
#define SITE_MAX_MODULES 1024
#define SITE_MAX_FRAMES 32		/* frames looked through for a call from the library */

/* One cached address. Written once, before it is published in site_table. */
struct site_ent {
	uintptr_t addr;		/* return address */
	uint64_t site;		/* its MPIV_SITE() */
	int inner;		/* in the MPI library or this library: not the program's site */
};

/* A loaded object that sites point into. */
struct site_module {
	const struct link_map *lm;	/* the loader's entry: identifies the object */
	char *path;			/* absolute path of its file */
	int inner;			/* an MPI library's object, or this library */
};

static pthread_mutex_t site_lock = PTHREAD_MUTEX_INITIALIZER;	/* inserts, modules, hook */
static _Atomic(struct site_ent *) site_table[SITE_SLOTS];	/* open addressing, no deletes */
static struct site_ent site_pool[SITE_ENTRIES];			/* storage of the entries */
static unsigned site_pool_used;					/* under site_lock */
static struct site_module site_modules[SITE_MAX_MODULES];	/* by id */
static atomic_uint site_nmodules;				/* published after the entry */
static void (*site_hook)(unsigned id, const char *path);	/* under site_lock */

static unsigned site_hash(uintptr_t addr)
{
	return (unsigned)(((uint64_t)addr * 0x9e3779b97f4a7c15ULL) >> 40) & (SITE_SLOTS - 1);
}

/* The file of a loaded object: the loader's name made absolute, or the executable itself for
 * the main program (whose name is ""). NULL if out of memory. */
static char *module_path(const struct link_map *lm)
{
	char buf[PATH_MAX];
	char *p;
	ssize_t n;

	if (!lm->l_name || !lm->l_name[0]) {
		n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
		if (n < 0)
			return strdup("[main program]");
		buf[n] = '\0';
		return strdup(buf);
	}
	p = realpath(lm->l_name, NULL);
	return p ? p : strdup(lm->l_name);
}

/* Whether lm is one of the objects whose calls into MPI_* are not the program's own: an MPI
 * library's (by the name the loader found it under, a soname such as libmpichfort.so.12:
 * common/mpilib.c) or this preload library. */
static int module_inner(const struct link_map *lm)
{
	struct link_map *self = NULL;
	const char *base;
	Dl_info info;

	if (dladdr1((void *)module_inner, &info, (void **)&self, RTLD_DL_LINKMAP) && self == lm)
		return 1;
	if (!lm->l_name || !lm->l_name[0])
		return 0;
	base = strrchr(lm->l_name, '/');
	return mpiv_mpilib_of_soname(base ? base + 1 : lm->l_name) != NULL;
}

/* The id of lm, adding it (and telling the hook) the first time. Call with site_lock held.
 * Returns REC_SITE_NO_MODULE if the table is full or memory is short. */
static unsigned module_id(const struct link_map *lm)
{
	unsigned n = atomic_load_explicit(&site_nmodules, memory_order_relaxed);
	unsigned i;

	for (i = 0; i < n; i++) {
		if (site_modules[i].lm == lm)
			return i;
	}
	if (n == SITE_MAX_MODULES)
		return REC_SITE_NO_MODULE;
	site_modules[n].path = module_path(lm);
	if (!site_modules[n].path)
		return REC_SITE_NO_MODULE;
	site_modules[n].lm = lm;
	site_modules[n].inner = module_inner(lm);
	atomic_store_explicit(&site_nmodules, n + 1, memory_order_release);
	if (site_hook)
		site_hook(n, site_modules[n].path);
	return n;
}

/* Resolve addr without the cache, *inner set as its module's. Call with site_lock held. */
static uint64_t site_resolve(uintptr_t addr, int *inner)
{
	struct link_map *lm = NULL;
	Dl_info info;
	unsigned id;

	if (!dladdr1((void *)addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return MPIV_SITE(REC_SITE_NO_MODULE, addr);
	id = module_id(lm);
	if (id == REC_SITE_NO_MODULE)
		return MPIV_SITE(REC_SITE_NO_MODULE, addr);
	*inner = site_modules[id].inner;
	/* l_addr is the load bias: what was added to the object's link-time addresses. */
	return MPIV_SITE(id, addr - lm->l_addr);
}

/* The site of addr, *inner set when it is in the MPI library or this library (cached). */
static uint64_t site_get(uintptr_t addr, int *inner)
{
	unsigned h = site_hash(addr);
	struct site_ent *e;
	uint64_t site;
	unsigned i;

	for (i = h;; i = (i + 1) & (SITE_SLOTS - 1)) {
		e = atomic_load_explicit(&site_table[i], memory_order_acquire);
		if (!e)
			break;
		if (e->addr == addr) {
			*inner = e->inner;
			return e->site;
		}
	}

	*inner = 0;
	pthread_mutex_lock(&site_lock);
	site = site_resolve(addr, inner);
	if (site_pool_used < SITE_ENTRIES) {
		/* Another thread may have inserted addr meanwhile: then keep its entry. */
		for (i = h;; i = (i + 1) & (SITE_SLOTS - 1)) {
			e = atomic_load_explicit(&site_table[i], memory_order_relaxed);
			if (!e || e->addr == addr)
				break;
		}
		if (!e) {
			e = &site_pool[site_pool_used++];
			e->addr = addr;
			e->site = site;
			e->inner = *inner;
			atomic_store_explicit(&site_table[i], e, memory_order_release);
		}
	}
	pthread_mutex_unlock(&site_lock);
	return site;
}

uint64_t rec_site_lookup(const void *ret)
{
	void *frames[SITE_MAX_FRAMES];
	uint64_t site, outer;
	int inner, n, i;

	site = site_get((uintptr_t)ret, &inner);
	if (!inner)
		return site;
	/* Called from the MPI library on the program's behalf: the program's frame is further
	 * out (the frames of this function and the wrapper are inner too). Not cached by ret:
	 * one binding serves every call site of the program. Without such a frame (a call the
	 * library makes of its own), the return address stays the site. */
	n = backtrace(frames, SITE_MAX_FRAMES);
	for (i = 0; i < n; i++) {
		outer = site_get((uintptr_t)frames[i], &inner);
		if (!inner)
			return outer;
	}
	return site;
}

int rec_site_inner(const void *addr)
{
	int inner;

	site_get((uintptr_t)addr, &inner);
	return inner;
}

const char *rec_site_module_path(unsigned id)
{
	if (id >= atomic_load_explicit(&site_nmodules, memory_order_acquire))
		return NULL;
	return site_modules[id].path;
}

void rec_site_set_hook(void (*fn)(unsigned id, const char *path))
{
	unsigned n, i;

	pthread_mutex_lock(&site_lock);
	site_hook = fn;
	n = atomic_load_explicit(&site_nmodules, memory_order_relaxed);
	for (i = 0; fn && i < n; i++)
		fn(i, site_modules[i].path);
	pthread_mutex_unlock(&site_lock);
}
