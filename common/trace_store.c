/* A rank's events kept as the records of its binary file (a few bytes an event), decoded when
 * asked for, instead of a struct mpiv_event and its requests each (some 150 bytes): how check
 * holds traces of millions of events. Every STORE_MARK-th event has a mark (where its record
 * starts, and the decoder's state there), so that event i is found by decoding at most
 * STORE_MARK records from a mark; a read in order goes on from where the last one stopped.
 * An event the recorder wrote again (a blocked call, once it returned) is kept decoded: there
 * are few. The records were checked when the file was read (trace.c): decoding them again
 * cannot fail. The file is mapped, not read (filemap.h), and the pages a decoding has passed
 * are dropped: a read in order holds a few pages of the file, not the file. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "trace.h"
#include "trace_store.h"
#include "tfstream.h"
#include "tracefmt.h"
#include "xalloc.h"

#define STORE_MARK 64 /* events between marks */

static const uint64_t no_sites[1]; /* the table before the first site record */

/* Where event k * STORE_MARK's record starts, and the decoder's state before it. */
struct store_mark {
	size_t off;
	int32_t last_req;
};

/* One decoded event and the room for what it points to. */
struct store_slot {
	size_t index; /* the event held; SIZE_MAX: none */
	struct mpiv_event ev;
	struct mpiv_reqinfo *reqs;
	size_t capreqs;
	int32_t *group;
	size_t capgroup;
};

struct mpiv_trace_store {
	struct mpiv_filemap map; /* the file */
	char *path;		 /* its name */
	size_t len;		 /* its records end here */
	uint32_t version;	 /* its format's */
	const uint64_t *sites;	 /* its site table (the reader's while it reads the file) */
	size_t nsites;
	uint64_t *own_sites; /* the table, once the store's */
	struct store_mark *marks;
	size_t nmarks, capmarks;
	size_t nevents;		      /* events marked so far */
	struct mpiv_event *rewritten; /* events written again, by index, owned */
	size_t nrewritten, caprewritten;
	struct mpiv_tf_stream stream; /* decodes an event when asked for */
	struct store_slot slots[MPIV_TRACE_SLOTS];
	unsigned next; /* the slot to use next */
	/* where the last decoding stopped: event `at` starts there (SIZE_MAX: nowhere) */
	size_t at, at_off;
	int32_t at_req;
};

struct mpiv_trace_store *mpiv_store_new(struct mpiv_filemap *map, uint32_t version,
					const char *path)
{
	struct mpiv_trace_store *s = xcalloc(1, sizeof(*s));
	struct mpiv_tf_reader rd;
	int k;

	s->path = xstrdup(path);
	s->map = *map;
	memset(map, 0, sizeof(*map));
	s->len = s->map.len;
	s->version = version;
	s->at = SIZE_MAX;
	for (k = 0; k < MPIV_TRACE_SLOTS; k++)
		s->slots[k].index = SIZE_MAX;
	memset(&rd, 0, sizeof(rd));
	rd.sites = no_sites;
	mpiv_tf_stream_mem(&s->stream, s->map.data, s->len, 0, &rd);
	return s;
}

void mpiv_store_passed(struct mpiv_trace_store *s, size_t from, size_t to)
{
	mpiv_map_forget(&s->map, from, to);
}

void mpiv_store_sites(struct mpiv_trace_store *s, const uint64_t *sites, size_t n)
{
	s->sites = sites;
	s->nsites = n;
}

void mpiv_store_own_sites(struct mpiv_trace_store *s, uint64_t *sites, size_t n)
{
	free(s->own_sites);
	s->own_sites = sites;
	s->sites = sites;
	s->nsites = n;
}

void mpiv_store_event(struct mpiv_trace_store *s, size_t index, size_t off, int32_t last_req)
{
	if (index % STORE_MARK == 0) {
		xgrow((void **)&s->marks, &s->capmarks, s->nmarks + 1, sizeof(*s->marks));
		s->marks[s->nmarks].off = off;
		s->marks[s->nmarks].last_req = last_req;
		s->nmarks++;
	}
	s->nevents = index + 1;
}

/* The rewritten event i, or NULL. */
static struct mpiv_event *rewritten(const struct mpiv_trace_store *s, size_t i)
{
	size_t lo = 0, hi = s->nrewritten;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->rewritten[mid].index == i)
			return &s->rewritten[mid];
		if (s->rewritten[mid].index < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A deep copy of ev into *to. */
static void copy_event(struct mpiv_event *to, const struct mpiv_event *ev)
{
	*to = *ev;
	to->reqs = NULL;
	to->group = NULL;
	if (ev->nreqs) {
		to->reqs = xmalloc(ev->nreqs * sizeof(*to->reqs));
		memcpy(to->reqs, ev->reqs, ev->nreqs * sizeof(*to->reqs));
	}
	if (ev->ngroup) {
		to->group = xmalloc(ev->ngroup * sizeof(*to->group));
		memcpy(to->group, ev->group, ev->ngroup * sizeof(*to->group));
	}
}

void mpiv_store_rewrite(struct mpiv_trace_store *s, const struct mpiv_event *ev)
{
	struct mpiv_event *old = rewritten(s, ev->index);
	size_t at, k;

	if (old) {
		mpiv_event_release(old);
		copy_event(old, ev);
	} else {
		xgrow((void **)&s->rewritten, &s->caprewritten, s->nrewritten + 1,
		      sizeof(*s->rewritten));
		for (at = s->nrewritten; at > 0 && s->rewritten[at - 1].index > ev->index; at--)
			;
		memmove(&s->rewritten[at + 1], &s->rewritten[at],
			(s->nrewritten - at) * sizeof(*s->rewritten));
		copy_event(&s->rewritten[at], ev);
		s->nrewritten++;
	}
	/* a slot holding its first record holds what it no longer is */
	for (k = 0; k < MPIV_TRACE_SLOTS; k++)
		if (s->slots[k].index == ev->index)
			s->slots[k].index = SIZE_MAX;
}

void mpiv_store_end(struct mpiv_trace_store *s, size_t len)
{
	s->len = len;
	s->stream.len = len;
}

/* Decode records from byte off (the decoder before it: event `index` next, last request id
 * last_req) until event i's record, into slot sl; then add the repeats that follow it. */
static void decode_to(struct mpiv_trace_store *s, struct store_slot *sl, size_t i, size_t off,
		      size_t index, int32_t last_req)
{
	struct mpiv_tf_stream *st = &s->stream;
	struct mpiv_tf_reader rd;
	struct mpiv_tf_record rec;
	size_t from = off;

	memset(&rd, 0, sizeof(rd));
	rd.version = s->version;
	rd.nevents = (uint32_t)index;
	rd.last_req = last_req;
	rd.sites = s->sites ? s->sites : no_sites; /* lent, whole: never grown by the stream */
	rd.nsites = s->nsites;
	mpiv_tf_stream_seek(st, off, &rd);
	do {
		/* the reader checked every record: the file was written again since (by another
		 * program, in place), and the store reads it from there */
		if (mpiv_tf_stream_next(st, &rec) <= 0) {
			if (st->oom)
				die(MPIV_EXIT_TOOL, "out of memory");
			die(MPIV_EXIT_BAD_INPUT,
			    "'%s': the file changed while mpiverify read it (another program "
			    "wrote it)",
			    s->path);
		}
	} while (rec.kind != MPIV_TF_EVENT || rec.replaces || rec.ev.index != i);
	sl->ev = rec.ev;
	sl->ev.reqs = NULL;
	if (rec.ev.nreqs) {
		xgrow((void **)&sl->reqs, &sl->capreqs, rec.ev.nreqs, sizeof(*sl->reqs));
		memcpy(sl->reqs, rec.ev.reqs, rec.ev.nreqs * sizeof(*sl->reqs));
		sl->ev.reqs = sl->reqs;
	}
	sl->ev.group = NULL;
	if (rec.ev.ngroup) {
		xgrow((void **)&sl->group, &sl->capgroup, rec.ev.ngroup, sizeof(*sl->group));
		mpiv_tf_group(&rec, sl->group);
		sl->ev.group = sl->group;
	}
	sl->index = i;
	/* the next read in order goes on from here */
	s->at = i + 1;
	s->at_off = (size_t)mpiv_tf_stream_offset(st);
	s->at_req = st->rd.last_req;
	/* a failed poll made again and again: its repeat records follow it */
	while (mpiv_tf_stream_repeat_next(st) && mpiv_tf_stream_next(st, &rec) > 0 &&
	       rec.kind == MPIV_TF_REPEAT)
		sl->ev.repeat = rec.more > UINT64_MAX - sl->ev.repeat ? UINT64_MAX :
									sl->ev.repeat + rec.more;
	mpiv_map_forget(&s->map, from, (size_t)mpiv_tf_stream_offset(st));
}

const struct mpiv_event *mpiv_store_get(struct mpiv_trace_store *s, size_t i)
{
	const struct mpiv_event *re = rewritten(s, i);
	const struct store_mark *mk;
	struct store_slot *sl;
	size_t k;

	if (re)
		return re;
	for (k = 0; k < MPIV_TRACE_SLOTS; k++)
		if (s->slots[k].index == i)
			return &s->slots[k].ev;
	sl = &s->slots[s->next];
	s->next = (s->next + 1) % MPIV_TRACE_SLOTS;
	sl->index = SIZE_MAX;
	mk = &s->marks[i / STORE_MARK];
	/* from where the last read stopped when that is on the way, else from the mark */
	if (s->at != SIZE_MAX && s->at <= i && s->at >= (i / STORE_MARK) * STORE_MARK)
		decode_to(s, sl, i, s->at_off, s->at, s->at_req);
	else
		decode_to(s, sl, i, mk->off, (i / STORE_MARK) * STORE_MARK, mk->last_req);
	return &sl->ev;
}

void mpiv_store_free(struct mpiv_trace_store *s)
{
	size_t k;

	if (!s)
		return;
	for (k = 0; k < s->nrewritten; k++)
		mpiv_event_release(&s->rewritten[k]);
	for (k = 0; k < MPIV_TRACE_SLOTS; k++) {
		free(s->slots[k].reqs);
		free(s->slots[k].group);
	}
	free(s->rewritten);
	free(s->marks);
	free(s->own_sites);
	mpiv_tf_stream_release(&s->stream);
	mpiv_map_release(&s->map);
	free(s->path);
	free(s);
}
