/* The session directory of a killed Open MPI mpirun (jobs/launcher_dirs.c): removed with all in
 * it, through no link, and only that of the launcher named; and launch_end() removes it for a
 * launcher that died of a signal, its own or ours (jobs/launch.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch.h"
#include "launcher_dirs.h"
#include "unit.h"

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void put(const char *path)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("segment\n", f);
	fclose(f);
}

/* Open MPI's directory of this host's and user's sessions under base, into top: the host's
 * short name, unless it is an address. */
static void sessions_top(const char *base, char *top, size_t size)
{
	char host[256];

	CU_ASSERT_EQUAL_FATAL(gethostname(host, sizeof(host)), 0);
	host[sizeof(host) - 1] = '\0';
	if (strspn(host, "0123456789.") != strlen(host))
		host[strcspn(host, ".")] = '\0';
	snprintf(top, size, "%s/ompi.%s.%u", base, host, (unsigned)getuid());
}

static void test_killed_launcher(void)
{
	const char *base = unit_tmpdir();
	char top[512], mine[600], other[600], sub[700], file[800], keep[600], link[800];
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	sessions_top(base, top, sizeof(top));
	snprintf(mine, sizeof(mine), "%s/pid.4242", top);
	snprintf(other, sizeof(other), "%s/pid.4243", top);
	snprintf(sub, sizeof(sub), "%s/1", mine);
	snprintf(file, sizeof(file), "%s/0", sub);
	snprintf(keep, sizeof(keep), "%s/kept", base);
	snprintf(link, sizeof(link), "%s/out", mine);
	CU_ASSERT_EQUAL_FATAL(mkdir(top, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(mine, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(other, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(keep, 0700), 0);
	put(file);
	snprintf(file, sizeof(file), "%s/contact.txt", mine);
	put(file);
	snprintf(file, sizeof(file), "%s/data", keep);
	put(file);
	CU_ASSERT_EQUAL_FATAL(symlink(keep, link), 0);

	setenv("TMPDIR", base, 1);
	unsetenv("OMPI_MCA_orte_tmpdir_base");
	launcher_dirs_remove(4242);
	CU_ASSERT_FALSE(exists(mine));
	/* another job's, and what a link in the tree pointed to, are left alone */
	CU_ASSERT_TRUE(exists(other));
	CU_ASSERT_TRUE(exists(file));
	/* Open MPI's own parameter wins over TMPDIR */
	setenv("OMPI_MCA_orte_tmpdir_base", "/nonexistent", 1);
	launcher_dirs_remove(4243);
	CU_ASSERT_TRUE(exists(other));
	unsetenv("OMPI_MCA_orte_tmpdir_base");
	launcher_dirs_remove(4243);
	CU_ASSERT_FALSE(exists(other));
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

/* Run a launcher that makes its session directory under base and then does how (a shell
 * command), end it with launch_end(), and say whether the directory is still there. */
static int left_after(const char *base, const char *how)
{
	char top[512], script[1024], dir[600];
	char *argv[] = {"sh", "-c", script, NULL};
	struct launch l;

	sessions_top(base, top, sizeof(top));
	snprintf(script, sizeof(script), "ulimit -c 0; mkdir -p %s/pid.$$ && %s", top, how);
	CU_ASSERT_EQUAL_FATAL(launch_start(&l, argv, "", NULL, NULL), 0);
	while (!launch_poll(&l))
		usleep(10000);
	snprintf(dir, sizeof(dir), "%s/pid.%d", top, (int)l.pid);
	CU_ASSERT_EQUAL(launch_end(&l), 0);
	launch_release(&l);
	return exists(dir);
}

static void test_crashed_launcher(void)
{
	const char *base = unit_tmpdir();

	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	setenv("OMPI_MCA_orte_tmpdir_base", base, 1);
	/* Open MPI 4.1's mpirun, now and then, on its way out of a job we ended */
	CU_ASSERT_FALSE(left_after(base, "kill -SEGV $$"));
	/* a launcher that ended itself is trusted with its own (and its pid may be another's) */
	CU_ASSERT_TRUE(left_after(base, "exit 0"));
	unsetenv("OMPI_MCA_orte_tmpdir_base");
}

static CU_TestInfo tests[] = {
	{"a killed mpirun's session directory is removed", test_killed_launcher},
	{"so is one of an mpirun that crashed", test_crashed_launcher},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo launcher_dirs_suite = {"launcher dirs", NULL, NULL, NULL, NULL, tests};
