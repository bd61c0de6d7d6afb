/* The one reader of a trace file's records (doc/trace-format.md), one after another, however
 * the file is held: mapped whole (check, trace and verify read traces so, trace.c and
 * trace_store.c) or read from a descriptor in blocks (the replayer, inside the user's program,
 * rep_trace.c). It holds what decoding a record takes besides the bytes: the decoder's state,
 * room for a record's requests, and the site table, which it grows from the site records
 * unless the caller lends it the whole table. It may go into a preload library: plain malloc,
 * every failure returned with a reason, nothing printed, nothing that exits. */
#ifndef MPIV_TFSTREAM_H
#define MPIV_TFSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "tracefmt.h"

struct mpiv_tf_stream {
	struct mpiv_tf_reader rd; /* the decoder, before the next record */
	/* the bytes held: data[0..len) are the file's from byte base; the next record starts at
	 * data[pos] */
	const char *data;
	size_t len, pos;
	uint64_t base;
	uint64_t at; /* where the record last returned (or refused) starts in the file */
	/* read from fd (-1: data is all there is) in blocks of buf, no further than byte end */
	int fd;
	char *buf;
	size_t cap;
	uint64_t end;
	int eof;
	/* the site table: the stream's own, or the caller's whole table (lent) */
	uint64_t *sites;
	size_t nsites, capsites;
	int lent;
	struct mpiv_reqinfo *reqs; /* room for one record's requests */
	size_t capreqs;
	char why[256]; /* why the last call failed */
	int oom;       /* it failed for want of memory */
};

/* Start s on a file held in memory, data[0..len) (the whole file, or all there is of it), at
 * byte off with decoder rd (as mpiv_tf_reader_start() or a mark left it). If rd->sites is
 * not NULL, it is the file's whole site table, lent for as long as s is used; else s builds
 * one from the site records it reads. */
void mpiv_tf_stream_mem(struct mpiv_tf_stream *s, const void *data, size_t len, size_t off,
			const struct mpiv_tf_reader *rd);

/* The same for the file open as fd, read in blocks from byte off up to byte end
 * (UINT64_MAX: its end); fd stays the caller's. Returns 0, or -1 (out of memory) with
 * s->why. */
int mpiv_tf_stream_fd(struct mpiv_tf_stream *s, int fd, uint64_t off, uint64_t end,
		      const struct mpiv_tf_reader *rd);

/* The file's header, at the start of the bytes, into h; the decoder is then started as it
 * says, and the next record is the first. Returns the header's length; 0 if the file ends
 * inside it; -1 with s->why if it is not a trace this mpiverify reads, or cannot be read. */
long mpiv_tf_stream_header(struct mpiv_tf_stream *s, struct mpiv_tf_header *h);

/* Go on from byte off of the file with decoder rd (a mark of an earlier read: its sites, if
 * not NULL, lent as the whole table in place of the last); what s holds stays. */
void mpiv_tf_stream_seek(struct mpiv_tf_stream *s, uint64_t off, const struct mpiv_tf_reader *rd);

/* The next record into rec (its strings and requests point into s until the next call).
 * Returns its length; 0 at the end of the bytes or of the range, or where the file is cut
 * inside a record (mpiv_tf_stream_cut() tells which); -1 if the record is malformed or
 * cannot be read, with s->why (s->at is where it starts). */
long mpiv_tf_stream_next(struct mpiv_tf_stream *s, struct mpiv_tf_record *rec);

/* Whether the last mpiv_tf_stream_next() returned 0 with bytes left over: a record cut. */
int mpiv_tf_stream_cut(const struct mpiv_tf_stream *s);

/* Whether the next record is a repeat record (the repeats of a failed poll follow it); only
 * its code is read. 0 at the end, or if the bytes cannot be read. */
int mpiv_tf_stream_repeat_next(struct mpiv_tf_stream *s);

/* Where the next record starts in the file. */
static inline uint64_t mpiv_tf_stream_offset(const struct mpiv_tf_stream *s)
{
	return s->base + s->pos;
}

/* Take the site table s built (*n entries, malloc'ed, NULL if none): it is no longer s's. */
uint64_t *mpiv_tf_stream_take_sites(struct mpiv_tf_stream *s, size_t *n);

/* Free what s holds (not a lent table, not the descriptor). */
void mpiv_tf_stream_release(struct mpiv_tf_stream *s);

#endif
