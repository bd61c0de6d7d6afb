/* The output directories of the commands: made like `mkdir -p`, and for a job (record,
 * replay) checked writable and cleared of what an earlier run left there. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

char *outdir_prepare(const char *dir, const char *const *stale)
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
	d = opendir(abs);
	if (!d) {
		error("cannot read directory '%s': %s", dir, strerror(errno));
		free(abs);
		return NULL;
	}
	for (de = readdir(d); de; de = readdir(d)) {
		char path[4400];

		if (!is_stale(de->d_name, stale))
			continue;
		snprintf(path, sizeof(path), "%s/%s", abs, de->d_name);
		if (unlink(path) < 0 && errno != ENOENT) {
			error("cannot remove '%s' left by an earlier run: %s", path, strerror(errno));
			closedir(d);
			free(abs);
			return NULL;
		}
	}
	closedir(d);
	return abs;
}
