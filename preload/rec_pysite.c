/* Call sites of Python programs (rec_pysite.h). CPython's C API is found with dlsym in the
 * process (the interpreter exports it; a C program has none of it, and this is then off), so
 * the preload libraries link no Python. A call from Python holds the GIL or has released it
 * (mpi4py releases it around blocking calls): either way the frames are read with the GIL
 * taken (PyGILState_Ensure is reentrant), the thread's pending exception kept aside. Each
 * function of a script becomes a module "python:FILE:FUNCTION" of the site table the first
 * time a call comes from it, and the site's address is the line. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event.h"
#include "rec_pysite.h"
#include "rec_site.h"
#include "rec_stack.h"

#define PY_FRAMES 64  /* frames looked through for the script's */
#define PY_FUNCS 1024 /* functions remembered, a module each */

/* The C API used, as dlsym finds it (PyObject * as void *, PyGILState_STATE as int). */
static struct {
	int (*initialized)(void);
	int (*finalizing)(void); /* _Py_IsFinalizing: NULL where it is not exported */
	void *(*thread_state)(void);
	int (*ensure)(void);
	void (*release)(int);
	void *(*frame)(void);
	void *(*back)(void *);
	void *(*code)(void *);
	int (*line)(void *);
	void *(*attr)(void *, const char *);
	const char *(*utf8)(void *);
	void (*decref)(void *);
	void (*fetch)(void **, void **, void **);
	void (*restore)(void *, void *, void *);
} py;

static atomic_int py_state; /* 0: not looked for yet; 1: Python is here; -1: it is not */

/* A function of a script: its file and name as CPython gave them, its module id. */
struct py_func {
	char *file, *name;
	unsigned id;
};
static pthread_mutex_t py_lock = PTHREAD_MUTEX_INITIALIZER;
static struct py_func py_funcs[PY_FUNCS];
static unsigned py_nfuncs;

#define PY_SYM(field, name) ((*(void **)&py.field = dlsym(RTLD_DEFAULT, name)) != NULL)

static int py_find(void)
{
	int ok = PY_SYM(initialized, "Py_IsInitialized") &&
		 PY_SYM(thread_state, "PyGILState_GetThisThreadState") &&
		 PY_SYM(ensure, "PyGILState_Ensure") && PY_SYM(release, "PyGILState_Release") &&
		 PY_SYM(frame, "PyEval_GetFrame") && PY_SYM(back, "PyFrame_GetBack") &&
		 PY_SYM(code, "PyFrame_GetCode") && PY_SYM(line, "PyFrame_GetLineNumber") &&
		 PY_SYM(attr, "PyObject_GetAttrString") && PY_SYM(utf8, "PyUnicode_AsUTF8") &&
		 PY_SYM(decref, "Py_DecRef") && PY_SYM(fetch, "PyErr_Fetch") &&
		 PY_SYM(restore, "PyErr_Restore");

	(void)PY_SYM(finalizing, "_Py_IsFinalizing");
	return ok;
}

int rec_pysite_on(void)
{
	int s = atomic_load_explicit(&py_state, memory_order_acquire);

	if (__builtin_expect(s == 0, 0)) {
		s = py_find() ? 1 : -1;
		atomic_store_explicit(&py_state, s, memory_order_release);
	}
	return s > 0;
}

/* Whether a frame of file is not the program's own: mpi4py's Python code (its futures and
 * utilities make their calls for the script) and the import machinery (the import of
 * mpi4py.MPI calls MPI_Init_thread). */
static int py_skipped(const char *file)
{
	return strstr(file, "/mpi4py/") != NULL || !strncmp(file, "<frozen ", 8);
}

/* The module id of function name of file, made the first time; REC_SITE_NO_MODULE if there
 * is no room. */
static unsigned py_module(const char *file, const char *name)
{
	unsigned i, id = REC_SITE_NO_MODULE;
	char *path = NULL, *cwd = NULL;

	pthread_mutex_lock(&py_lock);
	for (i = 0; i < py_nfuncs; i++)
		if (!strcmp(py_funcs[i].file, file) && !strcmp(py_funcs[i].name, name)) {
			id = py_funcs[i].id;
			goto out;
		}
	if (py_nfuncs == PY_FUNCS)
		goto out;
	/* a script run by a relative name: absolute from where the rank runs */
	if (file[0] != '/' && file[0] != '<')
		cwd = getcwd(NULL, 0);
	if (asprintf(&path, "%s%s%s%s:%s", MPIV_SITE_PYTHON, cwd ? cwd : "", cwd ? "/" : "", file,
		     name) < 0) {
		path = NULL;
		goto out;
	}
	py_funcs[py_nfuncs].file = strdup(file);
	py_funcs[py_nfuncs].name = strdup(name);
	if (!py_funcs[py_nfuncs].file || !py_funcs[py_nfuncs].name) {
		free(py_funcs[py_nfuncs].file);
		free(py_funcs[py_nfuncs].name);
		goto out;
	}
	id = rec_site_add_module(path);
	py_funcs[py_nfuncs++].id = id;
out:
	pthread_mutex_unlock(&py_lock);
	free(path);
	free(cwd);
	return id;
}

/* The site of frame f if it is the program's (its file not skipped), else 0. */
static uint64_t py_frame_site(void *f)
{
	void *code = py.code(f), *file = NULL, *name = NULL;
	const char *fs, *ns;
	uint64_t site = 0;
	unsigned id;

	if (code) {
		file = py.attr(code, "co_filename");
		name = py.attr(code, "co_qualname");
		if (!name)
			name = py.attr(code, "co_name"); /* before Python 3.11 */
	}
	fs = file ? py.utf8(file) : NULL;
	ns = name ? py.utf8(name) : NULL;
	if (fs && !py_skipped(fs)) {
		id = py_module(fs, ns ? ns : "?");
		if (id != REC_SITE_NO_MODULE)
			site = MPIV_SITE(id, (unsigned)py.line(f));
	}
	if (name)
		py.decref(name);
	if (file)
		py.decref(file);
	if (code)
		py.decref(code);
	return site;
}

uint64_t rec_pysite(void)
{
	void *type, *value, *trace, *f, *held = NULL;
	uint64_t stack[REC_STACK_MAX], site;
	int gil, depth, n = 0;

	/* a thread Python does not know runs no Python code; and none while it starts or ends */
	if (!py.initialized() || (py.finalizing && py.finalizing()) || !py.thread_state())
		return 0;
	gil = py.ensure();
	py.fetch(&type, &value, &trace);
	f = py.frame(); /* borrowed; the frames further out are new references */
	for (depth = 0; f && depth < PY_FRAMES && n < REC_STACK_MAX; depth++) {
		site = py_frame_site(f);
		if (site)
			stack[n++] = site;
		f = py.back(f);
		if (held)
			py.decref(held);
		held = f;
	}
	if (held)
		py.decref(held);
	py.restore(type, value, trace); /* and an error the lookups set is dropped */
	py.release(gil);
	/* the script's stack, for a report of the call if it blocks */
	rec_stack_python(stack, n);
	return n ? stack[0] : 0;
}

uint64_t rec_call_site(const void *ret)
{
	uint64_t site;

	/* a Python program's calls come from its extension modules: the site is the script's */
	if (__builtin_expect(rec_pysite_on(), 0) && (site = rec_pysite()) != 0)
		return site;
	return rec_site_lookup(ret);
}
