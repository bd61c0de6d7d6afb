/* A file's bytes, mapped rather than read, so that a long trace is read from the file as it is
 * walked and not held: check reads a rank's records front to back (to check them, to cut
 * segments, to translate them), and the kernel may drop the pages it has passed, which
 * mpiv_map_forget() tells it to. Asked for again, they are read again from the file, which
 * must not shrink while it is mapped: the read of a page past its new end raises SIGBUS, on
 * which mpiverify names the file and exits 3, as for a bad trace. (mpiverify's own writers
 * never shrink a trace in place: record removes an earlier run's files and writes new ones.) */
#ifndef MPIV_FILEMAP_H
#define MPIV_FILEMAP_H

#include <stddef.h>

struct mpiv_filemap {
	const char *data; /* the file's bytes (not NUL-terminated) */
	size_t len;
	int mapped; /* 1: mmap()ed; 0: read into memory (not a regular file, or mmap failed) */
	/* mpiv_map_forget(): the lowest byte read since it last dropped pages, and how many
	 * bytes were read since */
	size_t lo, read;
};

/* Map (or read) the file at path into *m: 0; or with errno set, -1 if it cannot be opened, -2
 * if it cannot be read. */
int mpiv_map_file(const char *path, struct mpiv_filemap *m);

/* Bytes [from, to) were read and will not be asked for again soon. Once a few pages were read
 * since it last did so, the whole pages up to `to` from the lowest byte read since then (and
 * those the kernel mapped around it) are dropped (a mapping only): what the reader holds is
 * the part of the file it is reading, wherever that is, and several readers of one file at
 * different places hold theirs. */
void mpiv_map_forget(struct mpiv_filemap *m, size_t from, size_t to);

void mpiv_map_release(struct mpiv_filemap *m);

#endif
