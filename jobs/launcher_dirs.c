/* The session directory Open MPI's mpirun leaves behind when it is killed: about 8 MB of
 * shared-memory segments and rendezvous files a job, which a verify of hundreds of runs would
 * pile up in /tmp. mpirun 4.1 names it <base>/ompi.<host>.<uid>/pid.<its pid>, the base being
 * the MCA parameter orte_tmpdir_base or else the first of TMPDIR, TEMP and TMP that is set, or
 * /tmp. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher_dirs.h"

static const char *session_base(void)
{
	static const char *const vars[] = {"OMPI_MCA_orte_tmpdir_base", "TMPDIR", "TEMP", "TMP"};
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return v;
	}
	return "/tmp";
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void launcher_dirs_remove(pid_t pid)
{
	char host[256], path[4096];
	struct stat st;
	int n;

	if (gethostname(host, sizeof(host)) != 0)
		return;
	host[sizeof(host) - 1] = '\0';
	/* mpirun names the directory by the host's short name unless it is an address */
	if (strspn(host, "0123456789.") != strlen(host))
		host[strcspn(host, ".")] = '\0';
	n = snprintf(path, sizeof(path), "%s/ompi.%s.%u/pid.%ld", session_base(), host,
		     (unsigned)getuid(), (long)pid);
	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	/* a directory of ours, not a link someone put in its place */
	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
		return;
	/* depth first, never following a link out of the tree */
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
