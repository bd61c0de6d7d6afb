/* The replayer's copy of its rank's recorded trace (rank-N.mpivt, doc/trace-format.md): the call
 * and envelope of every event, read once in MPI_Init so that each call can be compared with the
 * recorded one. It runs inside the user's program: plain malloc, every failure returned as a
 * reason, nothing printed and nothing that exits. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replayer.h"
#include "trace.h"
#include "tracefmt.h"

static struct rep_expect *tr_events;	/* by index */
static uint32_t tr_nevents;
/* The request ids the events list (struct rep_expect's reqs is an offset in here): what a
 * call made, which requests a completion call completed, for forcing that choice again. */
static int32_t *tr_reqs;
static size_t tr_nreqs, tr_reqcap;
static int tr_threads;			/* the recorded run called MPI from several threads */
static char *tr_program;		/* the module of MPI_Init's call site, NULL if unknown */

/* Read the whole file into a malloc'ed buffer. Returns 0, or -1 with errno set. */
static int tr_read(const char *path, char **data, size_t *len)
{
	struct stat st;
	size_t n = 0;
	ssize_t got;
	char *buf;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	while (n < (size_t)st.st_size) {
		got = read(fd, buf + n, (size_t)st.st_size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;	/* shorter than it was: what was read is the trace */
		n += (size_t)got;
	}
	close(fd);
	*data = buf;
	*len = n;
	return 0;
}

/* Append to a malloc'ed array of n elements of size each, growing it by doubling. Returns 0,
 * or -1 if out of memory (the array is unchanged). */
static int tr_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 64;
	while (c <= n)
		c *= 2;
	p = realloc(*arr, c * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

/* Store ev at its index; a record that replaces an earlier event may only replace an
 * incomplete one, as in common/trace.c. Returns 0, or -1 with a reason in why. */
static int tr_put(const struct mpiv_event *ev, int replaces, size_t *cap, char *why,
		  size_t whysize)
{
	struct rep_expect *x, *grown;
	uint32_t i;

	if (!replaces) {
		if (tr_nevents == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			grown = realloc(tr_events, *cap * sizeof(*tr_events));
			if (!grown) {
				snprintf(why, whysize, "out of memory");
				return -1;
			}
			tr_events = grown;
		}
		tr_nevents++;
	} else if (ev->index >= tr_nevents || !(tr_events[ev->index].flags & MPIV_EV_INCOMPLETE)) {
		snprintf(why, whysize, "event %u written twice", ev->index);
		return -1;
	}
	x = &tr_events[ev->index];
	x->call = ev->call;
	x->flags = ev->flags;
	x->peer = ev->peer;
	x->tag = ev->tag;
	x->comm = ev->comm;
	x->root = ev->root;
	x->src = ev->src;
	x->nreqs = ev->nreqs;
	x->npending = ev->npending;
	x->bytes = ev->bytes;
	x->reqs = (uint32_t)tr_nreqs;
	if (ev->thread > 0)
		tr_threads = 1;
	/* a replaced record's ids stay behind unused: only incomplete events are replaced */
	if (ev->nreqs && tr_grow((void **)&tr_reqs, &tr_reqcap, tr_nreqs + ev->nreqs - 1,
				 sizeof(*tr_reqs)) != 0) {
		snprintf(why, whysize, "out of memory");
		return -1;
	}
	for (i = 0; i < ev->nreqs; i++)
		tr_reqs[tr_nreqs++] = ev->reqs[i].req;
	return 0;
}

int rep_trace_load(const char *dir, int rank, char *why, size_t whysize)
{
	char path[4096], reason[256], *data = NULL;
	struct mpiv_reqinfo *reqs = NULL;
	uint64_t *sites = NULL, init_site = 0;
	size_t len = 0, off, cap = 0, reqcap = 0, sitecap = 0, nsites = 0, modcap = 0, nmods = 0;
	struct {
		uint32_t id;
		size_t off, len;	/* the path, in data */
	} *mods = NULL;
	struct mpiv_tf_header hd;
	struct mpiv_tf_reader rd;
	struct mpiv_tf_record rec;
	long n;
	size_t i;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, dir, rank);
	if (tr_read(path, &data, &len) != 0) {
		snprintf(why, whysize, "cannot read the recorded trace '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	n = mpiv_tf_decode_header(data, len, &hd, reason, sizeof(reason));
	if (n <= 0) {
		snprintf(why, whysize, "'%s': %s", path, n < 0 ? reason : "cut inside its header");
		goto out;
	}
	if (hd.rank != rank) {
		snprintf(why, whysize, "'%s' is the trace of rank %d, not %d", path, hd.rank, rank);
		goto out;
	}
	memset(&rd, 0, sizeof(rd));
	for (off = (size_t)n; off < len; off += (size_t)n) {
		rd.sites = sites;
		rd.nsites = nsites;
		n = mpiv_tf_decode(&rd, data + off, len - off, &rec, reqs, reqcap, reason,
				   sizeof(reason));
		if (n == -2) {
			/* room for the record's requests, which the decoder wants even if unused */
			if (tr_grow((void **)&reqs, &reqcap, rec.ev.nreqs, sizeof(*reqs)) != 0)
				goto oom;
			n = 0;
			continue;
		}
		if (n == 0)
			break;	/* cut inside a record: read up to the last whole one */
		if (n < 0) {
			snprintf(why, whysize, "'%s': %s (record at byte %zu)", path, reason, off);
			goto out;
		}
		if (rec.kind == MPIV_TF_END)
			break;
		if (rec.kind == MPIV_TF_SITE) {
			if (tr_grow((void **)&sites, &sitecap, nsites, sizeof(*sites)) != 0)
				goto oom;
			sites[nsites++] = rec.site;
		} else if (rec.kind == MPIV_TF_MODULE) {
			if (tr_grow((void **)&mods, &modcap, nmods, sizeof(*mods)) != 0)
				goto oom;
			mods[nmods].id = rec.module;
			mods[nmods].off = (size_t)(rec.path - data);
			mods[nmods].len = rec.pathlen;
			nmods++;
		} else if (rec.kind == MPIV_TF_EVENT) {
			if (tr_put(&rec.ev, rec.replaces, &cap, reason, sizeof(reason)) != 0) {
				snprintf(why, whysize, "'%s': %s", path, reason);
				goto out;
			}
			if (rec.ev.index == 0)
				init_site = rec.ev.site;
		}
	}
	/* The program itself is the module of MPI_Init's call site; only for messages. */
	for (i = 0; init_site && i < nmods; i++) {
		if (mods[i].id == MPIV_SITE_MODULE(init_site)) {
			tr_program = strndup(data + mods[i].off, mods[i].len);
			break;
		}
	}
	rc = 0;
	goto out;
oom:
	snprintf(why, whysize, "out of memory reading '%s'", path);
out:
	free(mods);
	free(sites);
	free(reqs);
	free(data);
	if (rc != 0)
		rep_trace_release();
	return rc;
}

const struct rep_expect *rep_trace_event(uint32_t index)
{
	return index < tr_nevents ? &tr_events[index] : NULL;
}

const int32_t *rep_trace_reqs(const struct rep_expect *x)
{
	return x->nreqs ? &tr_reqs[x->reqs] : NULL;
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
	free(tr_events);
	free(tr_program);
	free(tr_reqs);
	tr_reqs = NULL;
	tr_nreqs = 0;
	tr_reqcap = 0;
	tr_events = NULL;
	tr_program = NULL;
	tr_nevents = 0;
	tr_threads = 0;
}
