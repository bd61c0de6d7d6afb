/* Allocation that dies on exhaustion, and reading a whole file with it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit.h"
#include "xalloc.h"

static void oom(size_t n)
{
	fprintf(stderr, "mpiverify: fatal: out of memory allocating %zu bytes\n", n);
	exit(MPIV_EXIT_TOOL);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcheck(void *p, size_t n)
{
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void xgrow(void **arr, size_t *cap, size_t need, size_t elsize)
{
	size_t c = *cap;

	if (need <= c)
		return;
	if (c < 16)
		c = 16;
	while (c < need)
		c *= 2;
	*arr = xrealloc(*arr, c * elsize);
	*cap = c;
}

char *xread_fd(int fd, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t got;

	for (;;) {
		xgrow((void **)&buf, &cap, n + 4097, 1);
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *xread_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = xread_fd(fd, len);
	e = errno;
	close(fd);
	errno = e;
	return buf;
}
