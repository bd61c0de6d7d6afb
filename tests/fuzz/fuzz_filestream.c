/* Fuzz target: the file stream between a cluster's nodes (common/filestream.c), as mpiverify
 * and its node helpers read it. The input is split into lines; a stream read to its end record
 * is written back with the writer and must read again to the same directories and files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filestream.h"
#include "fuzz.h"

/* What a stream held: its records in order, as text ("d PATH", "f PATH" then the bytes). */
struct held {
	char *text;
	size_t len;
};

static void add(struct held *h, const void *p, size_t n)
{
	h->text = realloc(h->text, h->len + n + 1);
	if (!h->text)
		abort();
	memcpy(h->text + h->len, p, n);
	h->len += n;
}

/* Read data as a stream into h (and, with back, write what it holds with the writer to back).
 * Returns 1 if it was read to its end record. */
static int read_stream(const char *data, size_t size, struct held *h, FILE *back)
{
	struct mpiv_fs_reader r;
	char why[256];
	const char *p = data, *end = data + size;
	unsigned char *file = NULL;
	size_t flen = 0;
	int got;

	mpiv_fs_reader_init(&r);
	if (back)
		mpiv_fs_write_header(back);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		got = mpiv_fs_line(&r, p, n, why, sizeof(why));
		p += n + (nl != NULL);
		if (got < 0) {
			if (strncmp(why, "line ", 5))
				fuzz_fail("a refusal that does not name the line: %s", why);
			break;
		}
		if (got == MPIV_FS_DIR) {
			if (!mpiv_fs_path_ok(r.path))
				fuzz_fail("a dir record with a path it should refuse: %s", r.path);
			add(h, "d ", 2);
			add(h, r.path, strlen(r.path) + 1);
			if (back)
				mpiv_fs_write_dir(back, r.path);
		}
		if (got == MPIV_FS_FILE) {
			if (!mpiv_fs_path_ok(r.path))
				fuzz_fail("a file record with a path it should refuse: %s", r.path);
			add(h, "f ", 2);
			add(h, r.path, strlen(r.path) + 1);
			flen = 0;
		}
		if (got == MPIV_FS_DATA) {
			if (r.got > r.size || r.chunk_len > sizeof(r.chunk))
				fuzz_fail("more data than the file's size");
			file = realloc(file, flen + r.chunk_len + 1);
			if (!file)
				abort();
			memcpy(file + flen, r.chunk, r.chunk_len);
			flen += r.chunk_len;
		}
		if ((got == MPIV_FS_FILE || got == MPIV_FS_DATA) && r.done) {
			add(h, file ? (const char *)file : "", flen);
			if (back)
				mpiv_fs_write_file(back, r.path, file, flen);
		}
		if (got == MPIV_FS_END) {
			if (back)
				mpiv_fs_write_end(back);
			free(file);
			return 1;
		}
	}
	free(file);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct held first = {0}, again = {0};
	char *text = NULL;
	size_t len = 0;
	FILE *back = open_memstream(&text, &len);

	if (!back)
		abort();
	if (read_stream((const char *)data, size, &first, back)) {
		fclose(back);
		if (!read_stream(text, len, &again, NULL))
			fuzz_fail("a stream written back does not read to its end");
		if (first.len != again.len ||
		    (first.len && memcmp(first.text, again.text, first.len)))
			fuzz_fail("a stream written back reads differently");
	} else {
		fclose(back);
	}
	free(text);
	free(first.text);
	free(again.text);
	return 0;
}
