/* The text stream of a run's files between nodes (filestream.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "filestream.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void mpiv_fs_reader_init(struct mpiv_fs_reader *r)
{
	memset(r, 0, sizeof(*r));
}

int mpiv_fs_path_ok(const char *path)
{
	const char *p, *c;
	size_t n = strlen(path);

	if (path[0] != '/' || n >= 4096)
		return 0;
	for (p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 0;
	/* every component: not "." nor ".." */
	for (c = path; c; c = strchr(c + 1, '/')) {
		size_t len = strcspn(c + 1, "/");

		if ((len == 1 && c[1] == '.') || (len == 2 && c[1] == '.' && c[2] == '.'))
			return 0;
	}
	return 1;
}

static int b64_value(char c)
{
	const char *p = c ? strchr(b64, c) : NULL;

	return p ? (int)(p - b64) : -1;
}

/* Decode n base64 characters (n a multiple of 4, padded at the end only) into out. Returns
 * the bytes decoded, or -1. */
static long b64_decode(const char *s, size_t n, unsigned char *out)
{
	size_t i, k = 0;

	if (n == 0 || n % 4)
		return -1;
	for (i = 0; i < n; i += 4) {
		int v[4], j, pad = 0;

		for (j = 0; j < 4; j++) {
			if (s[i + j] == '=' && i + 4 == n && j >= 2) {
				pad++;
				v[j] = 0;
				continue;
			}
			if (pad || (v[j] = b64_value(s[i + j])) < 0)
				return -1;
		}
		out[k++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			out[k++] = (unsigned char)((v[1] & 15) << 4 | v[2] >> 2);
		if (pad < 1)
			out[k++] = (unsigned char)((v[2] & 3) << 6 | v[3]);
	}
	return (long)k;
}

static int fail(struct mpiv_fs_reader *r, char *why, size_t whysize, const char *what)
{
	snprintf(why, whysize, "line %ld: %s", r->line, what);
	r->state = -1;
	return -1;
}

/* Whether line (len bytes) starts with word and a space; *rest is what follows. */
static int word(const char *line, size_t len, const char *w, const char **rest)
{
	size_t n = strlen(w);

	if (len <= n || memcmp(line, w, n) || line[n] != ' ')
		return 0;
	*rest = line + n + 1;
	return 1;
}

/* The PATH of a record, from rest (end is the line's end), into r->path. */
static int take_path(struct mpiv_fs_reader *r, const char *rest, const char *end)
{
	size_t n = (size_t)(end - rest);

	if (n >= sizeof(r->path) || memchr(rest, '\0', n))
		return -1;
	memcpy(r->path, rest, n);
	r->path[n] = '\0';
	return mpiv_fs_path_ok(r->path) ? 0 : -1;
}

int mpiv_fs_line(struct mpiv_fs_reader *r, const char *line, size_t len, char *why, size_t whysize)
{
	const char *rest, *end = line + len;
	char num[32];
	long got;

	r->line++;
	if (r->state < 0)
		return fail(r, why, whysize, "the stream was refused already");
	if (len && line[len - 1] == '\r')
		end--, len--;
	switch (r->state) {
	case 0:
		if (len != strlen(MPIV_FS_HEADER) || memcmp(line, MPIV_FS_HEADER, len))
			return fail(r, why, whysize,
				    "not a file stream of this version "
				    "(expected '" MPIV_FS_HEADER "')");
		r->state = 1;
		return MPIV_FS_NONE;
	case 2:
		if (!word(line, len, "data", &rest))
			return fail(r, why, whysize, "a file's data cut short");
		if ((size_t)(end - rest) > MPIV_FS_DATA_CHARS)
			return fail(r, why, whysize, "a data line longer than the stream allows");
		got = b64_decode(rest, (size_t)(end - rest), r->chunk);
		if (got < 0)
			return fail(r, why, whysize, "a data line that is not base64");
		if ((uint64_t)got > r->size - r->got)
			return fail(r, why, whysize, "more data than the file's size");
		r->chunk_len = (size_t)got;
		r->got += (uint64_t)got;
		r->done = r->got == r->size;
		if (r->done)
			r->state = 1;
		return MPIV_FS_DATA;
	case 1:
		break;
	default:
		return fail(r, why, whysize, "a line after the end record");
	}
	if (len == 3 && !memcmp(line, "end", 3)) {
		r->state = 3;
		return MPIV_FS_END;
	}
	if (word(line, len, "dir", &rest)) {
		if (take_path(r, rest, end) < 0)
			return fail(r, why, whysize,
				    "a dir record without an absolute, plain path");
		return MPIV_FS_DIR;
	}
	if (word(line, len, "file", &rest)) {
		const char *sp = memchr(rest, ' ', (size_t)(end - rest));
		char *e;
		unsigned long long size;

		if (!sp || sp == rest || (size_t)(sp - rest) >= sizeof(num))
			return fail(r, why, whysize, "a file record without SIZE and PATH");
		memcpy(num, rest, (size_t)(sp - rest));
		num[sp - rest] = '\0';
		errno = 0;
		size = strtoull(num, &e, 10);
		if (*e || errno || num[0] == '-' || size > MPIV_FS_MAX_SIZE)
			return fail(r, why, whysize, "a file record whose SIZE is not a size");
		if (take_path(r, sp + 1, end) < 0)
			return fail(r, why, whysize,
				    "a file record without an absolute, plain path");
		r->size = size;
		r->got = 0;
		r->chunk_len = 0;
		r->done = size == 0;
		r->state = r->done ? 1 : 2;
		return MPIV_FS_FILE;
	}
	return fail(r, why, whysize, "not a record of a file stream (dir, file, end)");
}

int mpiv_fs_write_header(FILE *f)
{
	return fprintf(f, "%s\n", MPIV_FS_HEADER) < 0 ? -1 : 0;
}

int mpiv_fs_write_dir(FILE *f, const char *path)
{
	if (!mpiv_fs_path_ok(path))
		return errno = EINVAL, -1;
	return fprintf(f, "dir %s\n", path) < 0 ? -1 : 0;
}

int mpiv_fs_write_file(FILE *f, const char *path, const void *data, size_t size)
{
	const unsigned char *p = data;
	char line[MPIV_FS_DATA_CHARS + 8];
	size_t off, i;

	if (!mpiv_fs_path_ok(path))
		return errno = EINVAL, -1;
	if (fprintf(f, "file %zu %s\n", size, path) < 0)
		return -1;
	for (off = 0; off < size;) {
		size_t k = 0, n = size - off;

		if (n > MPIV_FS_DATA_CHARS / 4 * 3)
			n = MPIV_FS_DATA_CHARS / 4 * 3;
		memcpy(line, "data ", 5);
		k = 5;
		for (i = 0; i < n; i += 3) {
			unsigned v = (unsigned)p[off + i] << 16;

			if (i + 1 < n)
				v |= (unsigned)p[off + i + 1] << 8;
			if (i + 2 < n)
				v |= p[off + i + 2];
			line[k++] = b64[v >> 18 & 63];
			line[k++] = b64[v >> 12 & 63];
			line[k++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
			line[k++] = i + 2 < n ? b64[v & 63] : '=';
		}
		line[k++] = '\n';
		if (fwrite(line, 1, k, f) != k)
			return -1;
		off += n;
	}
	return 0;
}

int mpiv_fs_write_end(FILE *f)
{
	return fprintf(f, "end\n") < 0 || fflush(f) ? -1 : 0;
}
