/* Where the installed or built pieces of mpiverify are. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "environment.h"
#include "paths.h"

/* The directory of the running executable, if it is a build tree (it has models/mpi.pml). */
static const char *build_tree(void)
{
	static char dir[PATH_MAX];
	static int done;
	char probe[PATH_MAX + 32];
	ssize_t n;
	char *slash;

	if (done)
		return dir[0] ? dir : NULL;
	done = 1;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0) {
		dir[0] = '\0';
		return NULL;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(probe, sizeof(probe), "%s/models/mpi.pml", dir);
	if (access(probe, R_OK) != 0)
		dir[0] = '\0';
	return dir[0] ? dir : NULL;
}

static const char *locate(const char *env, const char *in_tree, const char *installed)
{
	static char buf[4][PATH_MAX + 64];
	static int next;
	const char *v = getenv(env);
	const char *tree;
	char *b;

	if (v && *v)
		return v;
	tree = build_tree();
	b = buf[next++ % 4];
	if (tree)
		snprintf(b, sizeof(buf[0]), "%s/%s", tree, in_tree);
	else
		snprintf(b, sizeof(buf[0]), "%s", installed);
	return b;
}

const char *mpiv_recorder_lib(void)
{
	return locate(MPIV_ENV_RECORDER_LIB, "recorder/librecorder.so",
		      MPIV_PKGLIBDIR "/librecorder.so");
}

const char *mpiv_replayer_lib(void)
{
	return locate(MPIV_ENV_REPLAYER_LIB, "replayer/libreplayer.so",
		      MPIV_PKGLIBDIR "/libreplayer.so");
}

const char *mpiv_models_dir(void)
{
	return locate(MPIV_ENV_MODELS, "models", MPIV_PKGDATADIR "/models");
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
