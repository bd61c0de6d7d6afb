/* A run's files as a stream of short text lines, for moving them between a cluster's nodes
 * through the standard input and output of Slurm job steps (doc/cluster.md): mpiverify sends
 * each node the directories to prepare and the files its ranks read (steering, counterexample,
 * traces), and each node sends back the files its ranks wrote. srun cuts an output line longer
 * than 1024 bytes, so every line stays well below that, and a step's output from several
 * tasks is read line by line, each task's lines apart (srun --label):
 *
 *	mpiverify-files 1
 *	dir PATH		create the directory PATH (with its parents), and remove the
 *				files an earlier run of mpiverify left in it
 *	file SIZE PATH		a file of SIZE bytes to write to PATH; its bytes follow as
 *	data BASE64		lines of at most MPIV_FS_DATA_CHARS base64 characters (RFC
 *				4648, padded), none when SIZE is 0
 *	end			the stream is complete: without it, it was cut short
 *
 * PATH is absolute, without "." or ".." components or control characters (it may hold
 * spaces: it is the rest of the line). No I/O here: the caller reads and writes. */
#ifndef MPIV_FILESTREAM_H
#define MPIV_FILESTREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MPIV_FS_HEADER "mpiverify-files 1"
#define MPIV_FS_DATA_CHARS 760	      /* base64 characters in a data line: 570 bytes */
#define MPIV_FS_LINE_MAX 4200	      /* the longest line a reader takes ("file", a long PATH) */
#define MPIV_FS_MAX_SIZE (1ULL << 40) /* a larger SIZE is a damaged stream */

/* What a line completed (mpiv_fs_line()'s return value). */
enum mpiv_fs_item {
	MPIV_FS_NONE = 0, /* the header: nothing to do */
	MPIV_FS_DIR,	  /* a dir record: path */
	MPIV_FS_FILE,	  /* a file record: path, size; its data follows (done: none) */
	/* a data line: chunk, chunk_len bytes of the file; done once
	 * the file's last bytes came */
	MPIV_FS_DATA,
	MPIV_FS_END, /* the end record */
};

/* Reading a stream, one line after another. */
struct mpiv_fs_reader {
	/* 0: before the header; 1: between records; 2: in a file's
	 * data; 3: after the end */
	int state;
	long line;					 /* lines read so far */
	char path[4096];				 /* the current dir or file record's PATH */
	uint64_t size;					 /* the current file's SIZE */
	uint64_t got;					 /* its bytes so far */
	int done;					 /* the current file is complete */
	unsigned char chunk[MPIV_FS_DATA_CHARS / 4 * 3]; /* a data line's bytes */
	size_t chunk_len;
};

void mpiv_fs_reader_init(struct mpiv_fs_reader *r);

/* Take the next line (len bytes, without its newline). Returns what it completed (enum
 * mpiv_fs_item), or -1 with a one-line reason in why ("line N: ...") when the line is not
 * what the stream may hold there; the reader is then unusable. */
int mpiv_fs_line(struct mpiv_fs_reader *r, const char *line, size_t len, char *why, size_t whysize);

/* Whether path may be a stream's PATH: absolute, shorter than 4096 bytes, no "." or ".."
 * component, no control character. */
int mpiv_fs_path_ok(const char *path);

/* Writing a stream to f. Each returns 0, or -1 when f failed (errno set) or, for dir and
 * file, path is not mpiv_fs_path_ok() (errno EINVAL). */
int mpiv_fs_write_header(FILE *f);
int mpiv_fs_write_dir(FILE *f, const char *path);
int mpiv_fs_write_file(FILE *f, const char *path, const void *data, size_t size);
int mpiv_fs_write_end(FILE *f);

#endif
