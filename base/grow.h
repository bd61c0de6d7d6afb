/* Growing an array with plain malloc, for code that must not die on a failure (base/README.md:
 * what goes into a preload library returns it instead). */
#ifndef MPIV_GROW_H
#define MPIV_GROW_H

#include <stdlib.h>

/* Room for element n (n + 1 elements of size each) in the malloc'ed *arr of *cap elements,
 * by doubling. Returns 0, or -1 (the array unchanged) if out of memory. */
static inline int mpiv_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : 8;
	void *p;

	if (n < *cap)
		return 0;
	while (c <= n)
		c *= 2;
	p = realloc(*arr, c * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

#endif
