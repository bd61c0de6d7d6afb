/* The replayer's view of its rank's recorded trace (rank-N.mpivt, doc/trace-format.md): the
 * call, envelope and requests of every event, so that each call can be compared with the
 * recorded one. MPI_Init reads the file through once, in blocks, to validate it and to mark
 * where every TR_CHUNK-th event starts; afterwards events are decoded a chunk at a time, two
 * chunks kept (the calls' own place, and where a polling loop ends), so that replaying a long
 * run stays small. It runs inside the user's program: plain malloc, every failure returned as
 * a reason, nothing printed and nothing that exits. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "grow.h"
#include "replayer.h"
#include "trace.h"
#include "tfstream.h"
#include "tracefmt.h"

#define TR_CHUNK 4096 /* events decoded at a time */

/* Where chunk k starts: the offset of the record that makes its first event, and the
 * decoder's state there. */
struct tr_mark {
	uint64_t off;
	struct mpiv_tf_reader rd;
};

/* A decoded chunk: events [k * TR_CHUNK, k * TR_CHUNK + n). */
struct tr_chunk {
	long k;	       /* -1: empty */
	uint64_t used; /* when last looked at: the older of two is replaced */
	uint32_t n;
	/* the events' request ids (struct rep_expect's reqs is an
	 * offset in here) */
	int32_t *reqs;
	size_t nreqs, reqcap;
	struct rep_expect ev[TR_CHUNK];
};

static char tr_path[4096]; /* the file */
static uint32_t tr_nevents;
static int tr_threads;		  /* the recorded run called MPI from several threads */
static char *tr_program;	  /* the module of MPI_Init's call site, NULL if unknown */
static struct rep_expect tr_last; /* the last event (call and flags only) */
static uint64_t *tr_sites;	  /* the whole site table */
static size_t tr_nsites;
static struct tr_mark *tr_marks; /* by chunk */
static size_t tr_nmarks, tr_markcap;
static struct tr_chunk *tr_cache[2];
static uint64_t tr_clock;
/* why a chunk could not be read again, "" if it
 * could: room for the path and the why */
static char tr_error[sizeof(tr_path) + 512];

/* Open the trace file, a stream s on it from byte off to byte end with decoder rd. Returns
 * 0, or -1 with why. */
static int tr_open(struct mpiv_tf_stream *s, uint64_t off, uint64_t end,
		   const struct mpiv_tf_reader *rd, char *why, size_t whysize)
{
	int fd = open(tr_path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, whysize, "%s", strerror(errno));
		return -1;
	}
	if (mpiv_tf_stream_fd(s, fd, off, end, rd) != 0) {
		snprintf(why, whysize, "%s", s->why);
		mpiv_tf_stream_release(s);
		close(fd);
		return -1;
	}
	return 0;
}

static void tr_close(struct mpiv_tf_stream *s)
{
	if (s->fd >= 0)
		close(s->fd);
	mpiv_tf_stream_release(s);
}

/* Whether event index is marked incomplete (a bit per event, for the replacement rule). */
static int tr_bit(const unsigned char *bits, uint32_t index)
{
	return bits[index / 8] >> (index % 8) & 1;
}

int rep_trace_load(const char *dir, int rank, char *why, size_t whysize)
{
	char reason[256];
	struct {
		uint32_t id;
		char *path;
	} *mods = NULL;
	unsigned char *incomplete = NULL;
	size_t modcap = 0, nmods = 0, bitcap = 0, i;
	uint64_t init_site = 0;
	struct mpiv_tf_header hd;
	struct mpiv_tf_reader rd;
	struct mpiv_tf_record rec;
	struct mpiv_tf_stream s;
	struct tr_mark here;
	long n;
	int rc = -1;

	snprintf(tr_path, sizeof(tr_path), "%s/" MPIV_TRACE_BIN_FILE, dir, rank);
	memset(&rd, 0, sizeof(rd));
	if (tr_open(&s, 0, UINT64_MAX, &rd, reason, sizeof(reason)) != 0) {
		snprintf(why, whysize, "cannot read the recorded trace '%s': %s", tr_path, reason);
		return -1;
	}
	n = mpiv_tf_stream_header(&s, &hd);
	if (n <= 0) {
		snprintf(why, whysize, "'%s': %s", tr_path,
			 n < 0 ? s.why : "cut inside its header");
		goto out;
	}
	if (hd.rank != rank) {
		snprintf(why, whysize, "'%s' is the trace of rank %d, not %d", tr_path, hd.rank,
			 rank);
		goto out;
	}
	for (;;) {
		here.off = mpiv_tf_stream_offset(&s);
		here.rd = s.rd;
		n = mpiv_tf_stream_next(&s, &rec);
		if (n == 0)
			break; /* the end, or cut inside a record: up to the last whole one */
		if (n < 0) {
			snprintf(why, whysize, "'%s': %s (record at byte %llu)", tr_path, s.why,
				 (unsigned long long)here.off);
			goto out;
		}
		if (rec.kind == MPIV_TF_END)
			break;
		if (rec.kind == MPIV_TF_RESTART) {
			/* a window of the run's last calls: replay follows a whole run */
			snprintf(why, whysize,
				 "'%s': written by record --last, which keeps the run's "
				 "last calls only (record at byte %llu)",
				 tr_path, (unsigned long long)here.off);
			goto out;
		}
		if (rec.kind == MPIV_TF_MODULE) {
			if (mpiv_grow((void **)&mods, &modcap, nmods, sizeof(*mods)) != 0)
				goto oom;
			mods[nmods].id = rec.module;
			mods[nmods].path = strndup(rec.path, rec.pathlen);
			if (!mods[nmods].path)
				goto oom;
			nmods++;
		} else if (rec.kind == MPIV_TF_EVENT) {
			struct mpiv_event fields = rec.ev;

			/* every field within what it can mean, as in common/trace.c, but for the
			 * group, which is not decoded here (calls are not compared by it) */
			fields.ngroup = 0;
			if (mpiv_event_check(&fields, hd.size, reason, sizeof(reason))) {
				snprintf(why, whysize, "'%s': event %u: %s (record at byte %llu)",
					 tr_path, rec.ev.index, reason,
					 (unsigned long long)here.off);
				goto out;
			}
			/* a record that replaces an earlier event may only replace an incomplete
			 * one, as in common/trace.c */
			if (rec.replaces && !tr_bit(incomplete, rec.ev.index)) {
				snprintf(why, whysize, "'%s': event %u written twice", tr_path,
					 rec.ev.index);
				goto out;
			}
			if (!rec.replaces && rec.ev.index % TR_CHUNK == 0) {
				if (mpiv_grow((void **)&tr_marks, &tr_markcap, tr_nmarks,
					      sizeof(*tr_marks)) != 0)
					goto oom;
				tr_marks[tr_nmarks++] = here;
			}
			if (mpiv_grow((void **)&incomplete, &bitcap, rec.ev.index / 8, 1) != 0)
				goto oom;
			if (!rec.replaces && rec.ev.index % 8 == 0)
				incomplete[rec.ev.index / 8] = 0;
			if (rec.ev.flags & MPIV_EV_INCOMPLETE)
				incomplete[rec.ev.index / 8] |= 1 << (rec.ev.index % 8);
			else
				incomplete[rec.ev.index / 8] &= ~(1 << (rec.ev.index % 8));
			if (rec.ev.thread > 0)
				tr_threads = 1;
			if (rec.ev.index == 0)
				init_site = rec.ev.site;
			if (!rec.replaces)
				tr_nevents++;
			if (rec.ev.index + 1 == tr_nevents) {
				tr_last.call = rec.ev.call;
				tr_last.flags = rec.ev.flags;
			}
		}
	}
	tr_sites = mpiv_tf_stream_take_sites(&s, &tr_nsites); /* the whole table */
	for (i = 0; i < 2; i++) {
		tr_cache[i] = malloc(sizeof(*tr_cache[i]));
		if (!tr_cache[i])
			goto oom;
		tr_cache[i]->k = -1;
		tr_cache[i]->reqs = NULL;
		tr_cache[i]->nreqs = tr_cache[i]->reqcap = 0;
	}
	/* The program itself is the module of MPI_Init's call site; only for messages. */
	for (i = 0; init_site && i < nmods; i++) {
		if (mods[i].id == MPIV_SITE_MODULE(init_site)) {
			tr_program = mods[i].path;
			mods[i].path = NULL;
			break;
		}
	}
	rc = 0;
	goto out;
oom:
	snprintf(why, whysize, "out of memory reading '%s'", tr_path);
out:
	for (i = 0; i < nmods; i++)
		free(mods[i].path);
	free(mods);
	free(incomplete);
	tr_close(&s);
	if (rc != 0)
		rep_trace_release();
	return rc;
}

/* Store ev in chunk ch (an event of ch's range, new or replacing one). Returns 0, or -1 if
 * out of memory. */
static int tr_put(struct tr_chunk *ch, const struct mpiv_event *ev)
{
	struct rep_expect *x = &ch->ev[ev->index % TR_CHUNK];
	uint32_t i;

	if (ev->nreqs && mpiv_grow((void **)&ch->reqs, &ch->reqcap, ch->nreqs + ev->nreqs - 1,
				   sizeof(*ch->reqs)) != 0)
		return -1;
	x->call = ev->call;
	x->flags = ev->flags;
	x->peer = ev->peer;
	x->tag = ev->tag;
	x->comm = ev->comm;
	x->root = ev->root;
	x->win = ev->win;
	x->src = ev->src;
	x->nreqs = ev->nreqs;
	x->npending = ev->npending;
	x->bytes = ev->bytes;
	/* a replaced record's ids stay behind unused: only incomplete events are replaced */
	x->reqs = (uint32_t)ch->nreqs;
	for (i = 0; i < ev->nreqs; i++)
		ch->reqs[ch->nreqs++] = ev->reqs[i].req;
	if (ev->index % TR_CHUNK >= ch->n)
		ch->n = ev->index % TR_CHUNK + 1;
	return 0;
}

/* Decode chunk k into ch, from its mark to the next one. Returns 0, or -1 with tr_error. */
static int tr_load_chunk(struct tr_chunk *ch, long k)
{
	uint64_t end = (size_t)k + 1 < tr_nmarks ? tr_marks[k + 1].off : UINT64_MAX;
	uint32_t lo = (uint32_t)k * TR_CHUNK;
	struct mpiv_tf_reader rd = tr_marks[k].rd;
	struct mpiv_tf_record rec;
	struct mpiv_tf_stream s;
	char reason[256];
	long n;

	ch->k = -1;
	ch->n = 0;
	ch->nreqs = 0;
	rd.sites = tr_sites; /* the whole table: it only grows */
	rd.nsites = tr_nsites;
	if (tr_open(&s, tr_marks[k].off, end, &rd, reason, sizeof(reason)) != 0) {
		snprintf(tr_error, sizeof(tr_error),
			 "cannot read the recorded trace '%s' again: %s", tr_path, reason);
		return -1;
	}
	while ((n = mpiv_tf_stream_next(&s, &rec)) > 0) {
		if (rec.kind == MPIV_TF_END)
			break;
		if (rec.kind != MPIV_TF_EVENT || rec.ev.index < lo)
			continue;
		if (rec.ev.index >= lo + TR_CHUNK)
			break;
		if (tr_put(ch, &rec.ev) != 0) {
			snprintf(s.why, sizeof(s.why), "out of memory");
			n = -1;
			break;
		}
	}
	if (n < 0)
		snprintf(tr_error, sizeof(tr_error),
			 "cannot read the recorded trace '%s' again: %s", tr_path, s.why);
	tr_close(&s);
	if (n < 0)
		return -1;
	ch->k = k;
	return 0;
}

int rep_trace_each(void (*fn)(void *ctx, const struct mpiv_event *ev), void *ctx, char *why,
		   size_t whysize)
{
	struct mpiv_tf_reader rd;
	struct mpiv_tf_record rec;
	struct mpiv_tf_stream s;
	char reason[256];
	long n;

	if (!tr_nmarks)
		return 0;
	rd = tr_marks[0].rd;
	rd.sites = tr_sites;
	rd.nsites = tr_nsites;
	if (tr_open(&s, tr_marks[0].off, UINT64_MAX, &rd, reason, sizeof(reason)) != 0) {
		snprintf(why, whysize, "cannot read the recorded trace '%s' again: %s", tr_path,
			 reason);
		return -1;
	}
	while ((n = mpiv_tf_stream_next(&s, &rec)) > 0 && rec.kind != MPIV_TF_END)
		if (rec.kind == MPIV_TF_EVENT)
			fn(ctx, &rec.ev);
	if (n < 0)
		snprintf(why, whysize, "cannot read the recorded trace '%s' again: %s", tr_path,
			 s.why);
	tr_close(&s);
	return n < 0 ? -1 : 0;
}

const struct rep_expect *rep_trace_event(uint32_t index)
{
	long k = (long)(index / TR_CHUNK);
	struct tr_chunk *ch;

	if (index >= tr_nevents || (size_t)k >= tr_nmarks || !tr_cache[0])
		return NULL;
	if (tr_cache[0]->k == k) {
		ch = tr_cache[0];
	} else if (tr_cache[1]->k == k) {
		ch = tr_cache[1];
	} else {
		ch = tr_cache[0]->used <= tr_cache[1]->used ? tr_cache[0] : tr_cache[1];
		if (tr_load_chunk(ch, k) != 0)
			return NULL;
	}
	ch->used = ++tr_clock;
	return index % TR_CHUNK < ch->n ? &ch->ev[index % TR_CHUNK] : NULL;
}

const int32_t *rep_trace_reqs(const struct rep_expect *x)
{
	int i;

	for (i = 0; i < 2 && tr_cache[i] && x->nreqs; i++)
		if (x >= tr_cache[i]->ev && x < tr_cache[i]->ev + TR_CHUNK)
			return &tr_cache[i]->reqs[x->reqs];
	return NULL;
}

const struct rep_expect *rep_trace_last(void)
{
	return tr_nevents ? &tr_last : NULL;
}

const char *rep_trace_error(void)
{
	return tr_error[0] ? tr_error : NULL;
}

uint32_t rep_trace_count(void)
{
	return tr_nevents;
}

int rep_trace_threaded(void)
{
	return tr_threads;
}

const char *rep_trace_program(void)
{
	return tr_program;
}

void rep_trace_release(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (tr_cache[i])
			free(tr_cache[i]->reqs);
		free(tr_cache[i]);
		tr_cache[i] = NULL;
	}
	free(tr_program);
	free(tr_sites);
	free(tr_marks);
	tr_program = NULL;
	tr_sites = NULL;
	tr_marks = NULL;
	tr_nsites = tr_nmarks = tr_markcap = 0;
	tr_nevents = 0;
	tr_threads = 0;
	tr_error[0] = '\0';
	memset(&tr_last, 0, sizeof(tr_last));
}
