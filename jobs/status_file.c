/* Reading the ranks' live status files (base/status.h, written by preload/rec_status.c):
 * one file per rank in a directory every node sees, rewritten in place while it is read. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "status_file.h"

#define MAX_RANKS (1 << 22) /* a size beyond this is a damaged file, not a world */

static int read_once(int fd, struct mpiv_status *st)
{
	ssize_t got;

	do {
		got = pread(fd, st, sizeof(*st), 0);
	} while (got < 0 && errno == EINTR);
	return got == (ssize_t)sizeof(*st) ? 0 : -1;
}

int status_file_read(const char *dir, int rank, struct mpiv_status *st)
{
	char path[4096];
	struct mpiv_status again;
	int fd, tries, rc = -1;

	snprintf(path, sizeof(path), "%s/" MPIV_STATUS_FILE, dir, rank);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* The rank rewrites the file in place while we read it; two equal reads in a row are
	 * not a torn one. */
	for (tries = 0; tries < 3; tries++) {
		if (read_once(fd, st) < 0 || read_once(fd, &again) < 0)
			break;
		if (!memcmp(st, &again, sizeof(again))) {
			rc = 0;
			break;
		}
	}
	close(fd);
	if (rc < 0)
		return -1;
	if (st->magic != MPIV_STATUS_MAGIC || st->version != MPIV_STATUS_VERSION)
		return -1;
	if (st->rank != rank || st->size <= 0 || st->size > MAX_RANKS || st->rank >= st->size)
		return -1;
	if (st->state > MPIV_ST_FAILED)
		return -1;
	st->host[sizeof(st->host) - 1] = '\0';
	st->text[sizeof(st->text) - 1] = '\0';
	st->module[sizeof(st->module) - 1] = '\0';
	st->stack[sizeof(st->stack) - 1] = '\0';
	return 0;
}

int status_file_size(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct mpiv_status st;
	int size = 0;

	if (!d)
		return 0;
	for (de = readdir(d); de && !size; de = readdir(d)) {
		int rank, end = 0;

		if (sscanf(de->d_name, "rank-%d.status%n", &rank, &end) != 1 || rank < 0 ||
		    de->d_name[end] != '\0' || end == 0)
			continue;
		if (status_file_read(dir, rank, &st) == 0)
			size = st.size;
	}
	closedir(d);
	return size;
}
