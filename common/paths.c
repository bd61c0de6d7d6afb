/* Where the installed or built pieces of mpiverify are. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "environment.h"
#include "paths.h"

/* The directory of the running executable, if it is a build tree: the source tree configured
 * in place (it has models/mpi.pml), or a build directory of its own (it has config.status, and
 * the sources are in MPIV_SRCDIR). *in_place tells which. */
static const char *build_tree(int *in_place)
{
	static char dir[PATH_MAX];
	static int done, sources_here;
	char probe[PATH_MAX + 32];
	ssize_t n;
	char *slash;

	if (done)
		goto out;
	done = 1;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0) {
		dir[0] = '\0';
		goto out;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(probe, sizeof(probe), "%s/models/mpi.pml", dir);
	sources_here = access(probe, R_OK) == 0;
	snprintf(probe, sizeof(probe), "%s/config.status", dir);
	if (!sources_here && access(probe, R_OK) != 0)
		dir[0] = '\0';
out:
	*in_place = sources_here;
	return dir[0] ? dir : NULL;
}

/* $env if set; else path under the build tree (source: under the source tree, for the models);
 * else the installed path. */
static const char *locate(const char *env, const char *path, int source, const char *installed)
{
	static char buf[4][PATH_MAX + 64];
	static int next;
	const char *v = getenv(env);
	const char *tree;
	char *b;
	int in_place;

	if (v && *v)
		return v;
	tree = build_tree(&in_place);
	b = buf[next++ % 4];
	if (tree)
		snprintf(b, sizeof(buf[0]), "%s/%s", source && !in_place ? MPIV_SRCDIR : tree,
			 path);
	else
		snprintf(b, sizeof(buf[0]), "%s", installed);
	return b;
}

/* The preload library file (librecorder.so) built for the MPI library named family. */
static const char *preload_lib(const char *env, const char *family, const char *file)
{
	char tree[128], installed[PATH_MAX];

	snprintf(tree, sizeof(tree), "lib/%s/%s", family, file);
	snprintf(installed, sizeof(installed), "%s/%s/%s", MPIV_PKGLIBDIR, family, file);
	return locate(env, tree, 0, installed);
}

const char *mpiv_recorder_lib(const char *family)
{
	return preload_lib(MPIV_ENV_RECORDER_LIB, family, "librecorder.so");
}

const char *mpiv_replayer_lib(const char *family)
{
	return preload_lib(MPIV_ENV_REPLAYER_LIB, family, "libreplayer.so");
}

const char *mpiv_mpi_families(void)
{
	return MPIV_MPI_FAMILIES;
}

const char *mpiv_models_dir(void)
{
	return locate(MPIV_ENV_MODELS, "models", 1, MPIV_PKGDATADIR "/models");
}

const char *mpiv_pan_dir(void)
{
	const char *models = getenv(MPIV_ENV_MODELS), *dir = getenv(MPIV_ENV_PAN_DIR);

	if (models && *models && !(dir && *dir))
		return NULL;
	return locate(MPIV_ENV_PAN_DIR, "pan", 0, MPIV_PKGLIBDIR "/pan");
}

const char *mpiv_spin(void)
{
	const char *v = getenv(MPIV_ENV_SPIN);

	return v && *v ? v : MPIV_SPIN;
}

const char *mpiv_cc(void)
{
	const char *v = getenv(MPIV_ENV_CC);

	return v && *v ? v : MPIV_CC;
}
