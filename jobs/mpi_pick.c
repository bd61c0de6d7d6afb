/* Which build of a preload library a job gets (mpi_pick.h): the MPI library of the program,
 * else of the launcher, else configure's first. */
#define _GNU_SOURCE /* pipe2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* What an executable's ELF file says of its MPI library. */
struct program_mpi {
	int elf;       /* it is an ELF file (not a script) */
	int is_static; /* an ELF program the dynamic loader does not run: nothing to preload into */
	const struct mpiv_mpilib *lib;	 /* the MPI library it links, or whose ABI it has; NULL */
	char soname[128];		 /* the DT_NEEDED entry that told */
	const struct mpiv_mpilib *other; /* a second MPI library it links too; NULL */
	char other_soname[128];
	/* an MPI library's by its name whose ABI is not known (no handle of Open MPI's is
	 * taken from it, and it is not libmpi.so.12 of MPICH's): "" if none */
	char unknown[128];
};

/* What the ELF file at path says of its MPI library, by its DT_NEEDED entries and the handles
 * it takes, into *pm; pm->lib NULL for a file that is not ELF, or links none known. */
static void program_mpi(const char *path, struct program_mpi *pm)
{
	const struct mpiv_mpilib *l;
	struct mpiv_elf_needed needed;
	size_t i;

	memset(pm, 0, sizeof(*pm));
	if (mpiv_elf_needed_file(path, &needed, NULL) < 0)
		return;
	pm->elf = 1;
	pm->is_static = !needed.interp;
	for (i = 0; i < needed.n && !pm->other; i++) {
		l = mpiv_mpilib_of_soname(needed.names[i]);
		/* a library of another name whose handles are Open MPI's (IBM Spectrum MPI) */
		if (!l && needed.ompi_abi && mpiv_mpilib_named_like(needed.names[i]))
			l = mpiv_mpilib_openmpi_abi();
		if (!l && mpiv_mpilib_named_like(needed.names[i]) && !pm->unknown[0])
			snprintf(pm->unknown, sizeof(pm->unknown), "%s", needed.names[i]);
		if (l && !pm->lib) {
			pm->lib = l;
			snprintf(pm->soname, sizeof(pm->soname), "%s", needed.names[i]);
		} else if (l && l != pm->lib) {
			pm->other = l;
			snprintf(pm->other_soname, sizeof(pm->other_soname), "%s", needed.names[i]);
		}
	}
	mpiv_elf_needed_release(&needed);
}

/* Whether the program at path (name as the command gave it) is a Python interpreter: by its
 * name or the name of the file it is (python3 is a link to python3.11; pyenv's shims are
 * scripts of the same name). */
static int is_python(const char *name, const char *path)
{
	char *real = realpath(path, NULL);
	int yes = !strncmp(base_name(name), "python", 6) ||
		  (real && !strncmp(base_name(real), "python", 6));

	free(real);
	return yes;
}

/* Where interpreter python finds the package mpi4py, as it would run the script (its
 * PYTHONPATH and virtual environment; the package is looked up, not imported: importing
 * mpi4py.MPI would start MPI), into dir. Returns 0, or -1 if it has none. */
static int mpi4py_dir(const char *python, char *dir, size_t size)
{
	static const char code[] = "import importlib.util as u\n"
				   "s = u.find_spec('mpi4py')\n"
				   "print(s.submodule_search_locations[0] if s else '')\n";
	int fds[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, STDIN_FILENO);
		dup2(null, STDERR_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		execl(python, python, "-c", code, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (got < (ssize_t)size - 1 &&
	       ((n = read(fds[0], dir + got, size - 1 - (size_t)got)) > 0 ||
		(n < 0 && errno == EINTR)))
		got += n > 0 ? n : 0;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	dir[got] = '\0';
	dir[strcspn(dir, "\n")] = '\0';
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && dir[0] == '/' ? 0 : -1;
}

/* The MPI library of mpi4py as Python program python would import it: its extension module
 * MPI*.so's, into *pm; its file into module. pm->lib NULL if there is none. */
static void python_mpi(const char *python, struct program_mpi *pm, char *module, size_t size)
{
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;

	memset(pm, 0, sizeof(*pm));
	module[0] = '\0';
	if (mpi4py_dir(python, dir, sizeof(dir)) != 0 || !(d = opendir(dir)))
		return;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);

		if (!strncmp(e->d_name, "MPI.", 4) && n > 3 && !strcmp(e->d_name + n - 3, ".so")) {
			snprintf(module, size, "%s/%s", dir, e->d_name);
			program_mpi(module, pm);
			pm->is_static = 0; /* a shared object has no interpreter of its own */
			break;
		}
	}
	closedir(d);
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
	const struct mpiv_mpilib *prog = NULL, *launcher, *lib;
	const char *file, *env;
	char path[PATH_MAX], resolved[NAME_MAX + 1], what[2 * PATH_MAX + 256];
	char module[PATH_MAX + NAME_MAX + 2] = "";
	struct program_mpi pm;
	int i, at = -1;

	memset(p, 0, sizeof(*p));
	/* the program: the first argument that is an executable linking a known libmpi
	 * (option values are not executables; argv[0] too, for a program run without a
	 * launcher); one that is ELF but links no MPI library must be run by the dynamic
	 * loader, or nothing is preloaded */
	for (i = 0; command[i] && !prog; i++) {
		if (command[i][0] == '-' || find_program(command[i], path, sizeof(path)) != 0)
			continue;
		program_mpi(path, &pm);
		/* a Python program: the MPI library is mpi4py's */
		if (!pm.lib && !pm.unknown[0] && is_python(command[i], path))
			python_mpi(path, &pm, module, sizeof(module));
		if (pm.lib) {
			prog = pm.lib;
			at = i;
		} else if (pm.unknown[0]) {
			error("'%s' links '%s', an MPI library whose ABI mpiverify does not know",
			      command[i], pm.unknown);
			fprintf(stderr,
				"hint: mpiverify runs programs of MPICH's ABI (libmpi.so.12: "
				"MPICH, Intel MPI, MVAPICH, Cray MPICH) and of Open MPI's\n");
			return MPIV_EXIT_TOOL;
		} else if (pm.elf && pm.is_static) {
			error("'%s' is statically linked: the %s cannot be preloaded into it",
			      command[i], kind == PRELOAD_RECORDER ? "recorder" : "replayer");
			fprintf(stderr, "hint: link it dynamically, as mpicc does unless told "
					"-static\n");
			return MPIV_EXIT_TOOL;
		}
	}
	if (prog && pm.other) {
		/* its calls would go to whichever library the loader finds a symbol in first */
		error("'%s' links two MPI libraries, %s ('%s') and %s ('%s'): it cannot run as "
		      "either",
		      command[at], prog->title, pm.soname, pm.other->title, pm.other_soname);
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
		if (module[0])
			snprintf(what, sizeof(what),
				 "'%s' imports mpi4py, whose '%s' links %s ('%s')", command[at],
				 module, prog->title, pm.soname);
		else
			snprintf(what, sizeof(what), "'%s' links %s ('%s')", command[at],
				 prog->title, pm.soname);
		if (launcher && launcher != prog && !quiet)
			warning("'%s' %s %s, but the launcher '%s' is %s's: its ranks may not "
				"form one job",
				command[at], module[0] ? "imports mpi4py, which links" : "links",
				prog->title, command[0], launcher->title);
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
