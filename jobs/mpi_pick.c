/* Which build of a preload library a job gets (mpi_pick.h): the MPI library of the program,
 * else of the launcher, else configure's first. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "elfneeded.h"
#include "environment.h"
#include "exit.h"
#include "mpi_pick.h"
#include "paths.h"
#include "xalloc.h"

static int is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Where the command would run name from: as given if it holds a '/', else the first
 * executable regular file of that name on PATH. Returns 0 with path filled, or -1. */
static int find_program(const char *name, char *path, size_t size)
{
	const char *dirs = getenv("PATH"), *p, *end;

	if (!*name)
		return -1;
	if (strchr(name, '/')) {
		snprintf(path, size, "%s", name);
		return is_executable(path) ? 0 : -1;
	}
	for (p = dirs ? dirs : "/usr/local/bin:/usr/bin:/bin"; p; p = *end ? end + 1 : NULL) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		/* an empty entry is the current directory, as for execvp */
		if (end == p)
			snprintf(path, size, "./%s", name);
		else
			snprintf(path, size, "%.*s/%s", (int)(end - p), p, name);
		if (is_executable(path))
			return 0;
	}
	return -1;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The MPI library an executable links, by the DT_NEEDED entries of its ELF file; NULL for a
 * file that is not ELF (a script) or links none known. *soname: the entry that told. *other:
 * a second MPI library it links too (its entry in *other_soname), or NULL. */
static const struct mpiv_mpilib *program_mpi(const char *path, const char **soname,
					     const struct mpiv_mpilib **other,
					     const char **other_soname)
{
	static char found[128], found_other[128];
	const struct mpiv_mpilib *lib = NULL, *l;
	struct mpiv_elf_needed needed;
	size_t i;

	*other = NULL;
	if (mpiv_elf_needed_file(path, &needed, NULL) < 0)
		return NULL;
	for (i = 0; i < needed.n && !*other; i++) {
		l = mpiv_mpilib_of_soname(needed.names[i]);
		if (l && !lib) {
			lib = l;
			snprintf(found, sizeof(found), "%s", needed.names[i]);
		} else if (l && l != lib) {
			*other = l;
			snprintf(found_other, sizeof(found_other), "%s", needed.names[i]);
		}
	}
	mpiv_elf_needed_release(&needed);
	*soname = found;
	*other_soname = found_other;
	return lib;
}

/* The launcher's MPI library: by its name, else by the name of what it links to. */
static const struct mpiv_mpilib *launcher_mpi(const char *name, char *resolved, size_t size)
{
	const struct mpiv_mpilib *lib = mpiv_mpilib_of_launcher(base_name(name));
	char path[PATH_MAX], *real;

	resolved[0] = '\0';
	if (lib || find_program(name, path, sizeof(path)) < 0)
		return lib;
	real = realpath(path, NULL);
	if (!real)
		return NULL;
	snprintf(resolved, size, "%s", base_name(real));
	free(real);
	return mpiv_mpilib_of_launcher(resolved);
}

/* The file of the preload library of kind for lib (where paths.c looks for it). */
static const char *lib_file(const struct mpiv_mpilib *lib, enum preload_kind kind)
{
	return kind == PRELOAD_RECORDER ? mpiv_recorder_lib(lib->name) :
					  mpiv_replayer_lib(lib->name);
}

/* configure's first MPI library: the default. */
static const struct mpiv_mpilib *default_mpi(void)
{
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(mpiv_mpi_families(), " "),
		 mpiv_mpi_families());
	return mpiv_mpilib_named(name);
}

/* The titles of the MPI libraries that have a preload library of kind, "MPICH and Open MPI",
 * into buf ("none" if none). */
static void have_titles(enum preload_kind kind, char *buf, size_t size)
{
	const char *p = mpiv_mpi_families();
	size_t used = 0;
	int k = 0;

	snprintf(buf, size, "none");
	while (*p && used < size) {
		char name[64];
		size_t n = strcspn(p, " ");
		const struct mpiv_mpilib *lib;

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		lib = mpiv_mpilib_named(name);
		if (lib && access(lib_file(lib, kind), R_OK) == 0)
			used += snprintf(buf + used, size - used, "%s%s", k++ ? " and " : "",
					 lib->title);
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* The error for a job whose MPI library has no preload library: what, how it was told. */
static int refuse(const struct mpiv_mpilib *lib, enum preload_kind kind, const char *what)
{
	char built[128];

	have_titles(kind, built, sizeof(built));
	error("%s, an MPI library mpiverify was not built for (it has preload libraries for %s "
	      "only): a preload library of another MPI library would crash the program",
	      what, built);
	fprintf(stderr,
		"hint: install %s's compiler and headers (Debian: %s) and build mpiverify "
		"again (./configure && make): configure builds for every MPI library it finds\n",
		lib->title, lib->packages);
	return MPIV_EXIT_TOOL;
}

int preload_pick(struct preload *p, char *const *command, enum preload_kind kind, int quiet)
{
	const struct mpiv_mpilib *prog = NULL, *launcher, *lib, *other = NULL;
	const char *soname = NULL, *other_soname = NULL, *file, *env;
	char path[PATH_MAX], resolved[NAME_MAX + 1], what[PATH_MAX + 256];
	int i, at = -1;

	memset(p, 0, sizeof(*p));
	/* the program: the first argument that is an executable linking a known libmpi
	 * (option values are not executables; argv[0] too, for a program run without a
	 * launcher) */
	for (i = 0; command[i] && !prog; i++) {
		if (command[i][0] != '-' && find_program(command[i], path, sizeof(path)) == 0)
			prog = program_mpi(path, &soname, &other, &other_soname);
		if (prog)
			at = i;
	}
	if (prog && other) {
		/* its calls would go to whichever library the loader finds a symbol in first */
		error("'%s' links two MPI libraries, %s ('%s') and %s ('%s'): it cannot run as "
		      "either",
		      command[at], prog->title, soname, other->title, other_soname);
		fprintf(stderr,
			"hint: link it with one library's compiler wrapper alone; Debian's "
			"mpif90.openmpi links the default libmpi.so, which is MPICH's when MPICH is "
			"the default MPI: give it Open MPI's directory too (-L$(mpicc.openmpi "
			"--showme:libdirs))\n");
		return MPIV_EXIT_TOOL;
	}
	launcher = launcher_mpi(command[0], resolved, sizeof(resolved));
	if (prog) {
		lib = prog;
		snprintf(what, sizeof(what), "'%s' links %s ('%s')", command[at], prog->title,
			 soname);
		if (launcher && launcher != prog && !quiet)
			warning("'%s' links %s, but the launcher '%s' is %s's: its ranks may not "
				"form one job",
				command[at], prog->title, command[0], launcher->title);
	} else if (launcher) {
		lib = launcher;
		snprintf(what, sizeof(what), "the launcher '%s'%s%s%s is %s's", command[0],
			 resolved[0] ? " (" : "", resolved, resolved[0] ? ")" : "",
			 launcher->title);
	} else {
		lib = default_mpi();
		what[0] = '\0';
	}
	if (!lib)
		BUG("configure's MPI libraries are none mpiverify knows");
	p->mpi = lib;
	file = lib_file(lib, kind);
	/* $MPIVERIFY_*_LIB is taken as it is: the user chose it */
	env = getenv(kind == PRELOAD_RECORDER ? MPIV_ENV_RECORDER_LIB : MPIV_ENV_REPLAYER_LIB);
	if (!(env && *env) && what[0] && access(file, R_OK) != 0)
		return refuse(lib, kind, what);
	/* absolute, since ranks may start in another directory (mpiexec -wdir) */
	p->lib = realpath(file, NULL);
	if (!p->lib)
		return error("cannot find the %s library '%s' built for %s: %s",
			     kind == PRELOAD_RECORDER ? "recorder" : "replayer", file, lib->title,
			     strerror(errno)),
		       MPIV_EXIT_TOOL;
	return 0;
}

void preload_release(struct preload *p)
{
	free(p->lib);
	memset(p, 0, sizeof(*p));
}
