/* The one reader of a trace file's records (tfstream.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "tfstream.h"

#define TFS_BLOCK (1 << 20) /* bytes read from a descriptor at a time (more for a longer record) */

static void oom(struct mpiv_tf_stream *s)
{
	snprintf(s->why, sizeof(s->why), "out of memory");
	s->oom = 1;
}

static void start(struct mpiv_tf_stream *s, const struct mpiv_tf_reader *rd)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->rd = *rd;
	s->lent = rd->sites != NULL;
	if (s->lent) {
		s->sites = (uint64_t *)rd->sites;
		s->nsites = rd->nsites;
	} else {
		s->rd.nsites = 0;
	}
}

void mpiv_tf_stream_mem(struct mpiv_tf_stream *s, const void *data, size_t len, size_t off,
			const struct mpiv_tf_reader *rd)
{
	start(s, rd);
	s->data = data;
	s->len = len;
	s->pos = off < len ? off : len;
}

int mpiv_tf_stream_fd(struct mpiv_tf_stream *s, int fd, uint64_t off, uint64_t end,
		      const struct mpiv_tf_reader *rd)
{
	start(s, rd);
	s->fd = fd;
	s->base = off;
	s->end = end;
	s->cap = TFS_BLOCK;
	s->buf = malloc(s->cap);
	s->data = s->buf;
	if (!s->buf) {
		oom(s);
		return -1;
	}
	return 0;
}

void mpiv_tf_stream_seek(struct mpiv_tf_stream *s, uint64_t off, const struct mpiv_tf_reader *rd)
{
	const uint64_t *sites = rd->sites ? rd->sites : s->sites;
	size_t nsites = rd->sites ? rd->nsites : s->nsites;

	if (rd->sites && !s->lent)
		free(s->sites);
	s->lent |= rd->sites != NULL;
	s->sites = (uint64_t *)sites;
	s->nsites = nsites;
	s->rd = *rd;
	if (s->fd < 0) {
		s->pos = off < s->len ? (size_t)off : s->len;
	} else {
		s->base = off;
		s->len = s->pos = 0;
		s->eof = 0;
	}
}

/* Read more after the undecoded rest, which moves to the front (the buffer grows if the rest
 * fills it: a record longer than a block). Returns 1 if bytes came, 0 at the end, -1 with
 * s->why. */
static int fill(struct mpiv_tf_stream *s)
{
	uint64_t at;
	size_t want;
	ssize_t got;

	if (s->fd < 0 || s->eof)
		return 0;
	memmove(s->buf, s->buf + s->pos, s->len - s->pos);
	s->base += s->pos;
	s->len -= s->pos;
	s->pos = 0;
	if (s->len == s->cap) {
		char *p = realloc(s->buf, 2 * s->cap);

		if (!p) {
			oom(s);
			return -1;
		}
		s->buf = p;
		s->data = p;
		s->cap *= 2;
	}
	at = s->base + s->len;
	want = s->cap - s->len;
	if (s->end - at < want)
		want = (size_t)(s->end - at);
	do
		got = want ? pread(s->fd, s->buf + s->len, want, (off_t)at) : 0;
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		snprintf(s->why, sizeof(s->why), "%s", strerror(errno));
		return -1;
	}
	if (got == 0) {
		s->eof = 1; /* shorter than it was: what was read is the trace */
		return 0;
	}
	s->len += (size_t)got;
	return 1;
}

long mpiv_tf_stream_header(struct mpiv_tf_stream *s, struct mpiv_tf_header *h)
{
	long n;
	int got;

	s->at = mpiv_tf_stream_offset(s);
	while ((n = mpiv_tf_decode_header(s->data + s->pos, s->len - s->pos, h, s->why,
					  sizeof(s->why))) == 0) {
		got = fill(s);
		if (got <= 0)
			return got;
	}
	if (n < 0)
		return -1;
	s->pos += (size_t)n;
	mpiv_tf_reader_start(&s->rd, h);
	return n;
}

long mpiv_tf_stream_next(struct mpiv_tf_stream *s, struct mpiv_tf_record *rec)
{
	long n;
	int got;

	s->at = mpiv_tf_stream_offset(s);
	for (;;) {
		s->rd.sites = s->sites;
		s->rd.nsites = s->nsites;
		n = mpiv_tf_decode(&s->rd, s->data + s->pos, s->len - s->pos, rec, s->reqs,
				   s->capreqs, s->why, sizeof(s->why));
		if (n == -2) {
			/* room for the record's requests, which the decoder wants even if unused */
			if (mpiv_grow((void **)&s->reqs, &s->capreqs, rec->ev.nreqs,
				      sizeof(*s->reqs))) {
				oom(s);
				return -1;
			}
			continue;
		}
		if (n != 0)
			break;
		got = fill(s);
		if (got <= 0)
			return got;
	}
	if (n < 0)
		return -1;
	if (rec->kind == MPIV_TF_SITE && !s->lent) {
		if (mpiv_grow((void **)&s->sites, &s->capsites, s->nsites, sizeof(*s->sites))) {
			oom(s);
			return -1;
		}
		s->sites[s->nsites++] = rec->site;
	}
	/* the writer forgot its sites there: what follows names them again from 0 */
	if (rec->kind == MPIV_TF_RESTART && !s->lent)
		s->nsites = 0;
	s->pos += (size_t)n;
	return n;
}

int mpiv_tf_stream_cut(const struct mpiv_tf_stream *s)
{
	return s->pos < s->len;
}

int mpiv_tf_stream_repeat_next(struct mpiv_tf_stream *s)
{
	/* a record's code is at most 5 bytes: fill until they are there, or the end is */
	while (s->len - s->pos < 5 && fill(s) > 0)
		;
	return mpiv_tf_is_repeat(s->data + s->pos, s->len - s->pos);
}

uint64_t *mpiv_tf_stream_take_sites(struct mpiv_tf_stream *s, size_t *n)
{
	uint64_t *sites = s->lent ? NULL : s->sites;

	*n = sites ? s->nsites : 0;
	if (!s->lent) {
		s->sites = NULL;
		s->nsites = s->capsites = 0;
	}
	return sites;
}

void mpiv_tf_stream_release(struct mpiv_tf_stream *s)
{
	if (!s->lent)
		free(s->sites);
	free(s->buf);
	free(s->reqs);
	s->sites = NULL;
	s->buf = NULL;
	s->reqs = NULL;
	s->data = NULL;
	s->len = s->pos = 0;
}
