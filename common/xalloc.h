/* Allocation that ends the mpiverify process on exhaustion (Spin's emalloc, git's xmalloc).
 * Not for the preload libraries, which must never exit the user's program. */
#ifndef MPIV_XALLOC_H
#define MPIV_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* The first n bytes of s (which holds no NUL before them), NUL-terminated. */
char *xstrndup(const char *s, size_t n);
/* p, from an allocator that returns NULL when out of memory (n bytes asked for). */
void *xcheck(void *p, size_t n);

/* All of fd, to its end, in a buffer with a NUL after it (malloc'ed; *len bytes, len may be
 * NULL); through EINTR and short reads. NULL with errno set if a read failed. */
char *xread_fd(int fd, size_t *len);

/* All of the file at path, as xread_fd(); NULL with errno set if it cannot be opened or
 * read. */
char *xread_file(const char *path, size_t *len);

/* Grow *arr (of *cap elements of size elsize) to hold at least need elements. */
void xgrow(void **arr, size_t *cap, size_t need, size_t elsize);

#endif
