/* Call sites for both preload libraries: which loaded object a return address is in and where
 * relative to its link-time addresses, cached in a lock-free hash table so that a call site
 * costs one lookup after its first call. The objects come from dl_iterate_phdr(), their paths
 * are built on the heap: a first call from a new site, deep in a program's recursion, takes
 * hardly more stack than any other (dladdr() and realpath() would take kilobytes). A call
 * made from inside the MPI library (its Fortran bindings: MPICH's mpi_send_ calls MPI_Send) or
 * from this library is the program's call one or more frames out: its site is the first frame
 * of the stack outside both. */
#define _GNU_SOURCE
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
#include "rec_hot.h"
#include "rec_site.h"

#define SITE_SLOTS 4096		      /* hash table size, a power of two */
#define SITE_ENTRIES (SITE_SLOTS / 2) /* at most half full, so probes stay short */
#define SITE_MAX_MODULES 1024
#define SITE_MAX_OBJECTS 4096 /* loaded objects remembered, used or not */
#define SITE_MAX_FRAMES 32    /* frames looked through for a call from the library */

/* One cached address. Written once, before it is published in site_table. */
struct site_ent {
	uintptr_t addr; /* return address */
	uint64_t site;	/* its MPIV_SITE() */
	int inner;	/* in the MPI library or this library: not the program's site */
};

/* A loaded object, as dl_iterate_phdr() gave it. */
struct site_object {
	uintptr_t lo, hi; /* the addresses its loadable segments span */
	uintptr_t bias;	  /* load bias: what was added to its link-time addresses */
	char *name;	  /* the loader's name for it, malloc'ed ("" for the program) */
	unsigned id;	  /* its module id once a site is in it, else REC_SITE_NO_MODULE */
};

/* A module: a loaded object that sites point into. */
struct site_module {
	char *path; /* absolute path of its file */
	int inner;  /* an MPI library's object, or this library */
};

/* inserts, objects, modules,
 * hook */
static pthread_mutex_t site_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(struct site_ent *) site_table[SITE_SLOTS]; /* open addressing, no deletes */
static struct site_ent site_pool[SITE_ENTRIES];		  /* storage of the entries */
static unsigned site_pool_used;				  /* under site_lock */
static struct site_object site_objects[SITE_MAX_OBJECTS]; /* in the order first seen */
static unsigned site_nobjects;				  /* under site_lock */
static struct site_module site_modules[SITE_MAX_MODULES]; /* by id */
static atomic_uint site_nmodules;			  /* published after the entry */
static void (*site_hook)(unsigned id, const char *path);  /* under site_lock */

static unsigned site_hash(uintptr_t addr)
{
	return (unsigned)(((uint64_t)addr * 0x9e3779b97f4a7c15ULL) >> 40) & (SITE_SLOTS - 1);
}

/* The file of a loaded object named name by the loader: the name itself if absolute, else
 * made absolute from the working directory, or the executable for the program (""). On the
 * heap (NULL if out of memory). */
static char *module_path(const char *name)
{
	char *buf, *cwd, *p;
	ssize_t n;

	if (!name[0]) {
		buf = malloc(PATH_MAX);
		if (!buf)
			return NULL;
		n = readlink("/proc/self/exe", buf, PATH_MAX - 1);
		if (n < 0) {
			free(buf);
			return strdup("[main program]");
		}
		buf[n] = '\0';
		return buf;
	}
	if (name[0] == '/')
		return strdup(name);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return strdup(name);
	p = malloc(strlen(cwd) + strlen(name) + 2);
	if (p) {
		strcpy(p, cwd);
		strcat(p, "/");
		strcat(p, name);
	}
	free(cwd);
	return p;
}

/* dl_iterate_phdr's callback: remember an object not seen before. Called with site_lock
 * held. */
static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct site_object *o;
	uintptr_t lo = UINTPTR_MAX, hi = 0, a;
	const char *name = info->dlpi_name ? info->dlpi_name : "";
	unsigned i;
	int k;

	(void)size;
	(void)arg;
	for (k = 0; k < info->dlpi_phnum; k++) {
		if (info->dlpi_phdr[k].p_type != PT_LOAD)
			continue;
		a = info->dlpi_addr + info->dlpi_phdr[k].p_vaddr;
		if (a < lo)
			lo = a;
		if (a + info->dlpi_phdr[k].p_memsz > hi)
			hi = a + info->dlpi_phdr[k].p_memsz;
	}
	if (lo >= hi)
		return 0;
	for (i = 0; i < site_nobjects; i++) {
		o = &site_objects[i];
		if (o->lo == lo && o->bias == info->dlpi_addr && !strcmp(o->name, name))
			return 0;
	}
	if (site_nobjects == SITE_MAX_OBJECTS)
		return 1;
	o = &site_objects[site_nobjects];
	o->name = strdup(name);
	if (!o->name)
		return 1;
	o->lo = lo;
	o->hi = hi;
	o->bias = info->dlpi_addr;
	o->id = REC_SITE_NO_MODULE;
	site_nobjects++;
	return 0;
}

/* The object addr is in, the newest first (an object loaded where one was unloaded); NULL if
 * none. Call with site_lock held. */
static struct site_object *find_object(uintptr_t addr)
{
	unsigned i;

	for (i = site_nobjects; i > 0; i--) {
		if (addr >= site_objects[i - 1].lo && addr < site_objects[i - 1].hi)
			return &site_objects[i - 1];
	}
	return NULL;
}

/* Whether object o is one whose calls into MPI_* are not the program's own: an MPI library's
 * (by the name the loader found it under, a soname such as libmpichfort.so.12:
 * base/mpilib.c) or this preload library. Call with site_lock held. */
static int object_inner(const struct site_object *o)
{
	const char *base;

	if (find_object((uintptr_t)object_inner) == o)
		return 1;
	if (!o->name[0])
		return 0;
	base = strrchr(o->name, '/');
	return mpiv_mpilib_of_soname(base ? base + 1 : o->name) != NULL;
}

/* The module id of object o, making it a module (and telling the hook) the first time. Call
 * with site_lock held. Returns REC_SITE_NO_MODULE if the table is full or memory is short. */
static unsigned module_id(struct site_object *o)
{
	unsigned n = atomic_load_explicit(&site_nmodules, memory_order_relaxed);

	if (o->id != REC_SITE_NO_MODULE)
		return o->id;
	if (n == SITE_MAX_MODULES)
		return REC_SITE_NO_MODULE;
	site_modules[n].path = module_path(o->name);
	if (!site_modules[n].path)
		return REC_SITE_NO_MODULE;
	site_modules[n].inner = object_inner(o);
	o->id = n;
	atomic_store_explicit(&site_nmodules, n + 1, memory_order_release);
	if (site_hook)
		site_hook(n, site_modules[n].path);
	return n;
}

/* Resolve addr without the cache, *inner set as its module's. Call with site_lock held. */
static uint64_t site_resolve(uintptr_t addr, int *inner)
{
	struct site_object *o = find_object(addr);
	unsigned id;

	if (!o) {
		/* loaded since the last look (or never looked): look again */
		dl_iterate_phdr(add_object, NULL);
		o = find_object(addr);
	}
	if (!o)
		return MPIV_SITE(REC_SITE_NO_MODULE, addr);
	id = module_id(o);
	if (id == REC_SITE_NO_MODULE)
		return MPIV_SITE(REC_SITE_NO_MODULE, addr);
	*inner = site_modules[id].inner;
	return MPIV_SITE(id, addr - o->bias);
}

/* The first call from addr (its slot in the hash table after probing from h): resolve it and
 * cache it, *inner set as site_get() does. */
static REC_COLD uint64_t site_insert(uintptr_t addr, unsigned h, int *inner)
{
	struct site_ent *e;
	uint64_t site;
	unsigned i;

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

/* The cached entry of addr, or NULL. */
static struct site_ent *site_cached(uintptr_t addr)
{
	unsigned i;
	struct site_ent *e;

	for (i = site_hash(addr);; i = (i + 1) & (SITE_SLOTS - 1)) {
		e = atomic_load_explicit(&site_table[i], memory_order_acquire);
		if (!e || e->addr == addr)
			return e;
	}
}

/* The site of addr, *inner set when it is in the MPI library or this library (cached). */
static uint64_t site_get(uintptr_t addr, int *inner)
{
	struct site_ent *e = site_cached(addr);

	if (e) {
		*inner = e->inner;
		return e->site;
	}
	return site_insert(addr, site_hash(addr), inner);
}

/* A call from the MPI library on the program's behalf (its Fortran binding): the program's
 * frame is further out (the frames of this function and the wrapper are inner too). Not
 * cached by the return address: one binding serves every call site of the program. Without
 * such a frame (a call the library makes of its own), site stays the site. */
static REC_COLD uint64_t site_outer(uint64_t site)
{
	void *frames[SITE_MAX_FRAMES];
	uint64_t outer;
	int inner, n, i;

	n = backtrace(frames, SITE_MAX_FRAMES);
	for (i = 0; i < n; i++) {
		outer = site_get((uintptr_t)frames[i], &inner);
		if (!inner)
			return outer;
	}
	return site;
}

uint64_t rec_site_lookup(const void *ret)
{
	int inner;
	uint64_t site = site_get((uintptr_t)ret, &inner);

	return inner ? site_outer(site) : site;
}

/* A question only: an object first met here is not made a module. The status thread asks it
 * of a blocked call's frames (rec_stack_format()), and a module record it wrote would come
 * between the producer's records, unlocked when the rank has one thread, and end a run of
 * failed polls in the middle. */
int rec_site_inner(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	struct site_ent *e = site_cached(a);
	struct site_object *o;
	int inner;

	if (e)
		return e->inner;
	pthread_mutex_lock(&site_lock);
	o = find_object(a);
	if (!o) {
		dl_iterate_phdr(add_object, NULL);
		o = find_object(a);
	}
	inner = o && (o->id != REC_SITE_NO_MODULE ? site_modules[o->id].inner : object_inner(o));
	pthread_mutex_unlock(&site_lock);
	return inner;
}

const char *rec_site_module_path(unsigned id)
{
	if (id >= atomic_load_explicit(&site_nmodules, memory_order_acquire))
		return NULL;
	return site_modules[id].path;
}

unsigned rec_site_add_module(const char *path)
{
	unsigned n, id = REC_SITE_NO_MODULE;

	pthread_mutex_lock(&site_lock);
	n = atomic_load_explicit(&site_nmodules, memory_order_relaxed);
	if (n < SITE_MAX_MODULES && (site_modules[n].path = strdup(path)) != NULL) {
		site_modules[n].inner = 0;
		id = n;
		atomic_store_explicit(&site_nmodules, n + 1, memory_order_release);
		if (site_hook)
			site_hook(n, site_modules[n].path);
	}
	pthread_mutex_unlock(&site_lock);
	return id;
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
