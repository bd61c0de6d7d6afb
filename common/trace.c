/* Reading a recorded run: the recorder's binary rank files and the trace directory. The JSON
 * side (rank-N.json, meta.json) is in trace_json.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace.h"
#include "tracefmt.h"
#include "xalloc.h"

#define MAX_REQS 65536		/* more requests in one call than any program completes at once */

static int read_file(const char *path, char **data, size_t *len, struct mpiv_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf;

	if (!f)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cannot open: %s",
				      strerror(errno));
	buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cannot read: %s",
				      strerror(errno));
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}

/* Store ev at its index, growing the array; a later record for the same index replaces an
 * earlier one (the recorder rewrites a blocked call once it returns). */
static int put_event(struct mpiv_rank_trace *t, size_t *cap, const struct mpiv_event *ev,
		     struct mpiv_error *err, long recno)
{
	struct mpiv_event *slot;

	if (ev->index > t->nevents)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, recno,
				      "event index %u follows event %zu: events are missing",
				      ev->index, t->nevents ? t->nevents - 1 : 0);
	if (ev->index == t->nevents) {
		xgrow((void **)&t->events, cap, t->nevents + 1, sizeof(*t->events));
		t->nevents++;
	} else if (!(t->events[ev->index].flags & MPIV_EV_INCOMPLETE)) {
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, recno,
				      "event %u written twice", ev->index);
	} else {
		mpiv_event_release(&t->events[ev->index]);
	}
	slot = &t->events[ev->index];
	*slot = *ev;
	slot->reqs = NULL;
	if (ev->nreqs) {
		slot->reqs = xmalloc(ev->nreqs * sizeof(*slot->reqs));
		memcpy(slot->reqs, ev->reqs, ev->nreqs * sizeof(*slot->reqs));
	}
	return 0;
}

static int check_event(const struct mpiv_rank_trace *t, const struct mpiv_event *ev,
		       struct mpiv_error *err, long recno)
{
	if (ev->call >= MPIV_CALL__COUNT)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, recno,
				      "unknown call id %u", ev->call);
	if (t->size > 0 && ev->peer >= t->size)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, recno,
				      "peer %d is not a rank of a world of %d", ev->peer, t->size);
	if (t->size > 0 && ev->src >= t->size)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, recno,
				      "matched source %d is not a rank of a world of %d", ev->src,
				      t->size);
	return 0;
}

int mpiv_trace_load_bin(const char *path, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	char *data = NULL;
	size_t len = 0, off = 0, evcap = 0, modcap = 0;
	long recno = 0;
	struct mpiv_reqinfo *reqs = NULL;

	memset(t, 0, sizeof(*t));
	t->rank = -1;
	t->source = xstrdup(path);
	if (read_file(path, &data, &len, err))
		goto fail;
	reqs = xmalloc(MAX_REQS * sizeof(*reqs));
	while (off < len) {
		struct mpiv_rec_hdr h;

		if (len - off < sizeof(h)) {
			t->truncated = 1;
			break;
		}
		memcpy(&h, data + off, sizeof(h));
		/* before anything else: garbage must not pass for a truncated trace */
		if (recno == 0 && (h.type != MPIV_REC_HEADER ||
				   h.len != sizeof(h) + sizeof(struct mpiv_rec_header))) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, 0,
				       "not an mpiverify trace (no header record)");
			goto fail;
		}
		if (h.len < sizeof(h)) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, recno,
				       "record of impossible length %u at byte %zu", h.len, off);
			goto fail;
		}
		if (h.len > len - off) {
			t->truncated = 1;
			break;
		}
		switch (h.type) {
		case MPIV_REC_HEADER: {
			struct mpiv_rec_header hd;

			if (recno != 0 || h.len != sizeof(h) + sizeof(hd)) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, recno,
					       "misplaced or malformed header record");
				goto fail;
			}
			memcpy(&hd, data + off + sizeof(h), sizeof(hd));
			if (memcmp(hd.magic, MPIV_TRACE_MAGIC, sizeof(MPIV_TRACE_MAGIC))) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, 0,
					       "not an mpiverify trace (bad magic)");
				goto fail;
			}
			if (hd.bom != MPIV_TRACE_BOM) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, 0,
					       "trace written on a machine of another byte order");
				goto fail;
			}
			if (hd.version != MPIV_TRACE_VERSION) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, 0,
					       "trace format version %u, this mpiverify reads %d",
					       hd.version, MPIV_TRACE_VERSION);
				goto fail;
			}
			if (hd.rank < 0 || hd.size <= 0 || hd.rank >= hd.size) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, 0,
					       "rank %d of a world of %d", hd.rank, hd.size);
				goto fail;
			}
			t->rank = hd.rank;
			t->size = hd.size;
			t->pid = hd.pid;
			t->thread_level = hd.thread_level;
			memcpy(t->host, hd.host, sizeof(t->host));
			t->host[sizeof(t->host) - 1] = '\0';
			memcpy(t->library, hd.library, sizeof(t->library));
			t->library[sizeof(t->library) - 1] = '\0';
			break;
		}
		case MPIV_REC_MODULE: {
			struct mpiv_rec_module m;
			const char *p = data + off + sizeof(h) + sizeof(m);
			size_t plen = h.len - sizeof(h) - sizeof(m);

			if (h.len <= sizeof(h) + sizeof(m) || memchr(p, '\0', plen) == NULL) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, recno,
					       "malformed module record");
				goto fail;
			}
			memcpy(&m, data + off + sizeof(h), sizeof(m));
			xgrow((void **)&t->modules, &modcap, t->nmodules + 1, sizeof(*t->modules));
			t->modules[t->nmodules].id = m.id;
			t->modules[t->nmodules].path = xstrdup(p);
			t->nmodules++;
			break;
		}
		case MPIV_REC_EVENT: {
			struct mpiv_event ev;

			if (mpiv_rec_decode_event(data + off, h.len, &ev, reqs, MAX_REQS)) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, recno,
					       "malformed event record");
				goto fail;
			}
			if (check_event(t, &ev, err, (long)ev.index) ||
			    put_event(t, &evcap, &ev, err, (long)ev.index))
				goto fail;
			break;
		}
		default:
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, recno,
				       "unknown record type %u", h.type);
			goto fail;
		}
		off += h.len;
		recno++;
	}
	if (t->rank < 0) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "empty trace (no header record)");
		goto fail;
	}
	if (t->nevents && (t->events[t->nevents - 1].flags & MPIV_EV_INCOMPLETE))
		t->incomplete = 1;
	free(reqs);
	free(data);
	return 0;
fail:
	free(reqs);
	free(data);
	mpiv_rank_trace_release(t);
	return -1;
}

const char *mpiv_trace_module(const struct mpiv_rank_trace *t, uint64_t site)
{
	unsigned id = MPIV_SITE_MODULE(site);
	size_t i;

	for (i = 0; i < t->nmodules; i++)
		if (t->modules[i].id == id)
			return t->modules[i].path;
	return NULL;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int mpiv_traceset_load(const char *dir, struct mpiv_traceset *ts, struct mpiv_error *err)
{
	char path[4096];
	size_t cap = 0;
	struct stat st;
	int r;

	memset(ts, 0, sizeof(*ts));
	ts->meta.exit_status = -1;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, dir, -1, -1,
				      "not a trace directory: %s",
				      errno ? strerror(errno) : "not a directory");
	ts->dir = xstrdup(dir);
	for (r = 0;; r++) {
		struct mpiv_rank_trace t;
		int rc;

		snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, dir, r);
		if (exists(path)) {
			rc = mpiv_trace_load_bin(path, &t, err);
		} else {
			snprintf(path, sizeof(path), "%s/" MPIV_TRACE_JSON_FILE, dir, r);
			if (!exists(path))
				break;
			rc = mpiv_trace_load_json(path, &t, err);
		}
		if (rc)
			goto fail;
		if (t.rank != r) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t.rank, -1,
				       "file of rank %d holds rank %d", r, t.rank);
			mpiv_rank_trace_release(&t);
			goto fail;
		}
		xgrow((void **)&ts->ranks, &cap, (size_t)r + 1, sizeof(*ts->ranks));
		ts->ranks[r] = t;
		ts->nranks = r + 1;
	}
	if (ts->nranks == 0) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, dir, -1, -1,
			       "no trace in directory (expected rank-0.mpivt or rank-0.json)");
		goto fail;
	}
	for (r = 0; r < ts->nranks; r++) {
		if (ts->ranks[r].size != ts->nranks) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, ts->ranks[r].source, r, -1,
				       "rank of a world of %d, but the directory holds %d ranks",
				       ts->ranks[r].size, ts->nranks);
			goto fail;
		}
	}
	snprintf(path, sizeof(path), "%s/" MPIV_META_FILE, dir);
	if (exists(path) && mpiv_meta_load(path, &ts->meta, err))
		goto fail;
	return 0;
fail:
	mpiv_traceset_release(ts);
	return -1;
}

void mpiv_rank_trace_release(struct mpiv_rank_trace *t)
{
	size_t i;

	for (i = 0; i < t->nevents; i++)
		mpiv_event_release(&t->events[i]);
	free(t->events);
	for (i = 0; i < t->nmodules; i++)
		free(t->modules[i].path);
	free(t->modules);
	free(t->source);
	memset(t, 0, sizeof(*t));
	t->rank = -1;
}

void mpiv_meta_release(struct mpiv_meta *m)
{
	size_t i;

	for (i = 0; m->command && m->command[i]; i++)
		free(m->command[i]);
	free(m->command);
	free(m->cwd);
	memset(m, 0, sizeof(*m));
	m->exit_status = -1;
}

void mpiv_traceset_release(struct mpiv_traceset *ts)
{
	int r;

	for (r = 0; r < ts->nranks; r++)
		mpiv_rank_trace_release(&ts->ranks[r]);
	free(ts->ranks);
	free(ts->dir);
	mpiv_meta_release(&ts->meta);
	memset(ts, 0, sizeof(*ts));
}
