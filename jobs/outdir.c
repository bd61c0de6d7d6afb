/* The output directories of the commands: made like `mkdir -p`, and for a job (record,
 * replay) checked writable and cleared of what an earlier run left there. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "outdir.h"
#include "xalloc.h"

int outdir_make(const char *path)
{
	char *p, *s, c;
	int rc = 0;

	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	p = xstrdup(path);
	for (s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

/* Whether name is rank-N<ext>, N a decimal number. */
static int is_rank_file(const char *name, const char *ext)
{
	const char *p = name + 5;

	if (strncmp(name, "rank-", 5) || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return !strcmp(p, ext);
}

static int is_stale(const char *name, const char *const *stale)
{
	size_t i;

	for (i = 0; stale && stale[i]; i++) {
		if (stale[i][0] == '.' ? is_rank_file(name, stale[i]) : !strcmp(name, stale[i]))
			return 1;
	}
	return 0;
}

/* Hold directory abs (dir as the user gave it) for this process: an exclusive flock(2) on
 * its lock file, which the kernel drops when the descriptor is closed or the process ends,
 * however it ends. The file is open close-on-exec, so that the job does not inherit it.
 * Returns the descriptor, or -1 after printing an error (another mpiverify holds it: two runs
 * would mix their files). */
static int lock_dir(const char *abs, const char *dir)
{
	char path[4200], pid[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/" OUTDIR_LOCK_FILE, abs);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create the lock file '%s': %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK) {
			n = pread(fd, pid, sizeof(pid) - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			error("'%s' is in use by another mpiverify%s%s%s writing into it: wait for "
			      "it to end, or give another directory with -o",
			      dir, pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
		} else {
			error("cannot lock '%s': %s", path, strerror(errno));
		}
		close(fd);
		return -1;
	}
	/* who holds it, for the message another one prints */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
		warning("cannot write into the lock file '%s': %s", path, strerror(errno));
	return fd;
}

char *outdir_prepare(const char *dir, const char *const *stale, int *lock)
{
	struct stat st;
	struct dirent *de;
	char *abs, probe[4200];
	DIR *d;
	int fd;

	if (outdir_make(dir) < 0) {
		error("cannot create directory '%s': %s", dir, strerror(errno));
		return NULL;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		error("'%s' is not a directory", dir);
		return NULL;
	}
	abs = realpath(dir, NULL);
	if (!abs) {
		error("cannot resolve directory '%s': %s", dir, strerror(errno));
		return NULL;
	}
	/* Really create a file: access() misses read-only mounts and ACLs, and the ranks must
	 * be able to create theirs. */
	snprintf(probe, sizeof(probe), "%s/.mpiverify-probe-XXXXXX", abs);
	fd = mkstemp(probe);
	if (fd < 0) {
		error("cannot write into directory '%s': %s", dir, strerror(errno));
		free(abs);
		return NULL;
	}
	close(fd);
	unlink(probe);
	/* before anything in it is removed: it may be another run's */
	*lock = lock_dir(abs, dir);
	if (*lock < 0) {
		free(abs);
		return NULL;
	}
	d = opendir(abs);
	if (!d) {
		error("cannot read directory '%s': %s", dir, strerror(errno));
		goto fail;
	}
	for (de = readdir(d); de; de = readdir(d)) {
		char path[4400];

		if (!is_stale(de->d_name, stale))
			continue;
		snprintf(path, sizeof(path), "%s/%s", abs, de->d_name);
		if (unlink(path) < 0 && errno != ENOENT) {
			error("cannot remove '%s' left by an earlier run: %s", path,
			      strerror(errno));
			closedir(d);
			goto fail;
		}
	}
	closedir(d);
	return abs;
fail:
	close(*lock);
	*lock = -1;
	free(abs);
	return NULL;
}
