/* One rank's trace: the recorder's binary rank files (rank-N.mpivt) read and written, and what
 * every rank trace has (modules, communicators, release). The same events as JSON are in
 * trace_json.c; the trace directory and meta.json in traceset.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "filemap.h"
#include "trace.h"
#include "trace_store.h"
#include "trace_threads.h"
#include "tfstream.h"
#include "tracefmt.h"
#include "xalloc.h"


_Static_assert(MPIV_KIND_UNSUPPORTED < 64, "struct mpiv_rank_trace's kinds holds every kind");

int mpiv_trace_windows_read;

/* Store ev at its index, growing the array; a record that replaces an earlier event (the
 * recorder rewrites a blocked call once it returns) may only replace an incomplete one, and
 * one before a window (its first record fell out of it) is left out. */
static int put_event(struct mpiv_rank_trace *t, size_t *cap, const struct mpiv_event *ev,
		     int replaces, struct mpiv_error *err)
{
	struct mpiv_event *slot;

	if (replaces && ev->index < t->first)
		return 0;
	if (!replaces) {
		xgrow((void **)&t->events, cap, t->nevents + 1, sizeof(*t->events));
		t->nevents++;
	} else if (!(t->events[ev->index - t->first].flags & MPIV_EV_INCOMPLETE)) {
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "event %u written twice", ev->index);
	} else if (t->events[ev->index - t->first].call != ev->call) {
		/* the recorder rewrites a blocked call when it returns: the same call */
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "event %u, %s, rewritten as %s", ev->index,
				      mpiv_call_name(t->events[ev->index - t->first].call),
				      mpiv_call_name(ev->call));
	} else {
		mpiv_event_release(&t->events[ev->index - t->first]);
	}
	slot = &t->events[ev->index - t->first];
	*slot = *ev; /* the group, if any, is the caller's to give */
	slot->reqs = NULL;
	if (ev->nreqs) {
		slot->reqs = xmalloc(ev->nreqs * sizeof(*slot->reqs));
		memcpy(slot->reqs, ev->reqs, ev->nreqs * sizeof(*slot->reqs));
	}
	return 0;
}

/* Every field of a decoded event within what it can mean (mpiv_event_check). */
static int check_event(const struct mpiv_rank_trace *t, const struct mpiv_event *ev,
		       uint32_t version, size_t off, struct mpiv_error *err)
{
	char why[256];

	/* an empty group would read as "no in-neighbours": a verdict on data never recorded */
	if (version < MPIV_TRACE_VERSION_NEIGHBOR && (mpiv_call_flags(ev->call) & MPIV_F_NEIGHBOR))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)ev->index,
				      "%s in a trace of version %u, which does not "
				      "record its neighbours: record the program again (record at "
				      "byte %zu)",
				      mpiv_call_name(ev->call), version, off);
	if (mpiv_event_check(ev, t->size, why, sizeof(why)))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)ev->index,
				      "%s (record at byte %zu)", why, off);
	return 0;
}

/* Whether module record rec names a module t has already, as it was. */
static int module_again(const struct mpiv_rank_trace *t, const struct mpiv_tf_record *rec)
{
	size_t i;

	for (i = 0; i < t->nmodules; i++)
		if (t->modules[i].id == rec->module)
			return strlen(t->modules[i].path) == rec->pathlen &&
			       !memcmp(t->modules[i].path, rec->path, rec->pathlen);
	return 0;
}

/* The rule of mpiv_trace_check_incomplete(), event by event as a reader meets them (a trace
 * kept as records is read once): per thread, its last event and whether that one is
 * incomplete now. An event the recorder writes again only goes from incomplete to complete
 * (or stays incomplete), so an event incomplete in the end was so whenever a later one of its
 * thread came: those are the candidates, checked once every event is read. */
struct incomplete_rule {
	struct rule_thread {
		int32_t thread;
		size_t last; /* its last event */
		int open;    /* which is incomplete */
	} * threads;
	size_t nthreads, capthreads;
	size_t *cands; /* incomplete events their thread went on from */
	size_t ncands, capcands;
};

static struct rule_thread *rule_thread(struct incomplete_rule *r, int32_t thread)
{
	size_t k;

	for (k = 0; k < r->nthreads && r->threads[k].thread != thread; k++)
		;
	if (k == r->nthreads) {
		xgrow((void **)&r->threads, &r->capthreads, r->nthreads + 1, sizeof(*r->threads));
		r->threads[k].thread = thread;
		r->threads[k].open = 0;
		r->nthreads++;
	}
	return &r->threads[k];
}

/* A new event i of thread, incomplete or not. */
static void rule_event(struct incomplete_rule *r, size_t i, int32_t thread, int incomplete)
{
	struct rule_thread *th = rule_thread(r, thread);

	if (th->open) {
		xgrow((void **)&r->cands, &r->capcands, r->ncands + 1, sizeof(*r->cands));
		r->cands[r->ncands++] = th->last;
	}
	th->last = i;
	th->open = incomplete;
}

/* Event i of thread written again, incomplete or not. */
static void rule_rewrite(struct incomplete_rule *r, size_t i, int32_t thread, int incomplete)
{
	struct rule_thread *th = rule_thread(r, thread);

	if (th->last == i)
		th->open = incomplete;
}

/* Every event read: the last one still incomplete whose thread went on is an error. Returns 0,
 * or -1 with err filled; frees the rule's room either way. */
static int rule_end(struct incomplete_rule *r, const struct mpiv_rank_trace *t,
		    struct mpiv_error *err)
{
	const struct mpiv_event *ev = NULL;
	size_t k, bad = 0;
	int found = 0, rc = 0;

	for (k = 0; k < r->ncands; k++)
		if ((!found || r->cands[k] > bad) &&
		    (mpiv_trace_event(t, r->cands[k])->flags & MPIV_EV_INCOMPLETE)) {
			bad = r->cands[k];
			found = 1;
		}
	if (found) {
		ev = mpiv_trace_event(t, bad);
		rc = mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)bad,
				    "event %zu is incomplete (its call had not returned), yet its "
				    "thread %d made a later one",
				    bad, ev->thread);
	}
	free(r->threads);
	free(r->cands);
	return rc;
}

/* Keep a new event of a trace kept as records (t->store): its place; one written again: what
 * it is now, and only over an incomplete one of the same call (as put_event()). */
static int store_event(struct mpiv_rank_trace *t, const struct mpiv_event *ev, int replaces,
		       size_t off, int32_t last_req, struct mpiv_error *err)
{
	const struct mpiv_event *was;

	if (!replaces) {
		mpiv_store_event(t->store, t->nevents, off, last_req);
		t->nevents++;
		return 0;
	}
	was = mpiv_trace_event(t, ev->index);
	if (!(was->flags & MPIV_EV_INCOMPLETE))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "event %u written twice", ev->index);
	if (was->call != ev->call)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, ev->index,
				      "event %u, %s, rewritten as %s", ev->index,
				      mpiv_call_name(was->call), mpiv_call_name(ev->call));
	mpiv_store_rewrite(t->store, ev);
	return 0;
}

/* The decoding loop of mpiv_trace_load_bin() over the records (of the file whose header is h)
 * from byte off of the file (the end of its header) to byte len: byte offsets in messages are
 * the file's. With t->store, the events stay records there. */
static int load_records(struct mpiv_rank_trace *t, const struct mpiv_tf_header *h, const char *data,
			size_t len, size_t off, struct incomplete_rule *rule,
			struct mpiv_error *err)
{
	struct mpiv_tf_stream st;
	struct mpiv_tf_reader rd;
	struct mpiv_tf_record rec;
	size_t evcap = 0, livecap = 0;
	int ended = 0, rc = -1;
	int after_poll = 0;    /* the record before was a new event, a failed poll */
	int after_restart = 0; /* no event since a restart record */
	int32_t last_req;
	long n;

	memset(&rd, 0, sizeof(rd));
	mpiv_tf_reader_start(&rd, h);
	mpiv_tf_stream_mem(&st, data, len, off, &rd);
	for (;;) {
		if (ended) {
			if (mpiv_tf_stream_offset(&st) < len) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
					       "data after the end record at byte %llu",
					       (unsigned long long)mpiv_tf_stream_offset(&st));
				goto out;
			}
			break;
		}
		last_req = st.rd.last_req;
		n = mpiv_tf_stream_next(&st, &rec);
		off = (size_t)st.at;
		if (n == 0) {
			if (mpiv_tf_stream_cut(&st))
				t->truncated =
					1; /* cut inside a record: read up to the one before */
			break;
		}
		if (n < 0) {
			if (st.oom)
				die(MPIV_EXIT_TOOL, "out of memory");
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
				       (long)st.rd.nevents, "%s (record at byte %zu)", st.why, off);
			goto out;
		}
		if (t->store)
			mpiv_store_sites(t->store, st.sites, st.nsites);
		switch (rec.kind) {
		case MPIV_TF_END:
			ended = 1;
			break;
		case MPIV_TF_STOP:
			if (t->end != MPIV_END_UNKNOWN) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
					       "a second stop record (record at byte %zu)", off);
				goto out;
			}
			t->end = rec.how;
			t->end_code = rec.code;
			break;
		case MPIV_TF_MODULE:
			/* after a restart, the modules come again */
			if (after_restart && module_again(t, &rec))
				break;
			if (mpiv_trace_add_module(t, rec.module, rec.path, rec.pathlen, err))
				goto out;
			break;
		case MPIV_TF_SITE: /* the stream keeps the table */
			break;
		case MPIV_TF_RESTART:
			/* a window however long: its sites restart, which a store cannot follow */
			if (!mpiv_trace_windows_read || t->store) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					       (long)rec.first, "%s", MPIV_TRACE_WINDOW_REFUSED);
				goto out;
			}
			if (t->nevents || t->first)
				break; /* the decoder checked that it goes on from there */
			t->first = rec.first;
			break;
		case MPIV_TF_LIVE:
			if (!after_restart) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					       (long)st.rd.nevents,
					       "a live record that does not follow a restart "
					       "record (record at byte %zu)",
					       off);
				goto out;
			}
			/* the window's start only: a later restart's were made in it */
			if (t->nevents)
				break;
			xgrow((void **)&t->live, &livecap, t->nlive + 1, sizeof(*t->live));
			t->live[t->nlive].req = rec.live_req;
			t->live[t->nlive].maker = rec.ev;
			t->live[t->nlive].maker.reqs = NULL;
			t->live[t->nlive].maker.nreqs = 0;
			t->nlive++;
			break;
		case MPIV_TF_EVENT:
			if (rec.ev.ngroup) {
				rec.ev.group = xmalloc(rec.ev.ngroup * sizeof(*rec.ev.group));
				mpiv_tf_group(&rec, rec.ev.group);
			}
			t->kinds |= 1ULL << mpiv_call_kind(rec.ev.call);
			t->call_flags |= mpiv_call_flags(rec.ev.call);
			t->threaded |= rec.ev.thread != 0;
			if (check_event(t, &rec.ev, h->version, off, err) ||
			    (t->store ? store_event(t, &rec.ev, rec.replaces, off, last_req, err) :
					put_event(t, &evcap, &rec.ev, rec.replaces, err))) {
				free(rec.ev.group);
				goto out;
			}
			if (!rec.replaces)
				mpiv_thread_note_requests(t, &rec.ev);
			if (rec.replaces)
				rule_rewrite(rule, rec.ev.index, rec.ev.thread,
					     rec.ev.flags & MPIV_EV_INCOMPLETE);
			else
				rule_event(rule, rec.ev.index, rec.ev.thread,
					   rec.ev.flags & MPIV_EV_INCOMPLETE);
			if (t->store)
				free(rec.ev.group); /* the store has it (or decodes it) */
			break;
		case MPIV_TF_COMM: {
			int32_t *members = xmalloc((rec.nmembers ? rec.nmembers : 1) *
						   sizeof(*members));
			int bad;

			mpiv_tf_comm_members(&rec, members);
			/* after a restart: a communicator made before it, written again; a
			 * window keeps those of its start (a later restart's are in it) */
			if (!after_restart)
				bad = mpiv_trace_add_newcomm(t, rec.comm_event, rec.comm_id,
							     rec.nmembers, members, err);
			else
				bad = t->nevents ?
					      0 :
					      mpiv_trace_add_comm_before(t, rec.comm_event,
									 rec.comm_id, rec.nmembers,
									 members, err);
			free(members);
			if (bad)
				goto out;
			break;
		}
		case MPIV_TF_THREAD: {
			char where[48];

			snprintf(where, sizeof(where), "record at byte %zu", off);
			if (mpiv_trace_add_thread_op(t, &rec.thread, st.rd.nevents, where, err))
				goto out;
			break;
		}
		case MPIV_TF_REDUCE:
			if (mpiv_trace_add_reduction(t, &rec.red, err))
				goto out;
			break;
		case MPIV_TF_REPEAT:
			/* the run's event is the last one, and it stays what it was; in a
			 * window, it may have fallen out of it */
			if (!after_poll && after_restart)
				break;
			if (!after_poll) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					       (long)st.rd.nevents - 1,
					       "a repeat record that does not "
					       "follow a failed poll (record at byte %zu)",
					       off);
				goto out;
			}
			/* kept as records, the event is decoded with its repeats (a file with
			 * times is never kept so: load_bin()) */
			if (!t->store)
				t->events[t->nevents - 1].repeat =
					rec.more > UINT64_MAX - t->events[t->nevents - 1].repeat ?
						UINT64_MAX :
						t->events[t->nevents - 1].repeat + rec.more;
			if (st.rd.clock.on) {
				struct mpiv_event *run = &t->events[t->nevents - 1];

				if (rec.leave < run->enter || rec.leave > (uint64_t)INT64_MAX) {
					mpiv_error_set(
						err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
						(long)st.rd.nevents - 1,
						"a repeat record whose "
						"last return (%llu) is not from its event's "
						"enter (%llu) to 2^63 - 1 (record at byte %zu)",
						(unsigned long long)rec.leave,
						(unsigned long long)run->enter, off);
					goto out;
				}
				run->leave = rec.leave;
			}
			break;
		}
		after_restart = rec.kind == MPIV_TF_RESTART ||
				(after_restart &&
				 (rec.kind == MPIV_TF_MODULE || rec.kind == MPIV_TF_LIVE ||
				  rec.kind == MPIV_TF_COMM));
		/* a repeat record goes on from its poll, unless it was a window's first record
		 * (its poll fell out) */
		after_poll = (rec.kind == MPIV_TF_EVENT && !rec.replaces &&
			      mpiv_event_failed_poll(&rec.ev) && !rec.ev.flags) ||
			     (rec.kind == MPIV_TF_REPEAT && after_poll);
		if (t->store)
			mpiv_store_passed(t->store, off, off + (size_t)n);
	}
	/* Without its end record the file was not closed by the recorder: the rank died, and
	 * what it had not written yet is lost even if the file ends between records. */
	if (!ended)
		t->truncated = 1;
	if (t->store)
		mpiv_store_end(t->store, (size_t)mpiv_tf_stream_offset(&st));
	rc = 0;
out:
	/* the store decodes events with the site table, on success or not (the caller still
	 * reads events after a bad record: rule_end()) */
	if (t->store) {
		size_t nsites;
		uint64_t *sites = mpiv_tf_stream_take_sites(&st, &nsites);

		mpiv_store_own_sites(t->store, sites, nsites);
	}
	mpiv_tf_stream_release(&st);
	return rc;
}

/* mpiv_trace_load_bin(), the events into t->events, or (records) kept as records in a store. */
static int load_bin(const char *path, struct mpiv_rank_trace *t, int records,
		    struct mpiv_error *err)
{
	struct incomplete_rule rule;
	struct mpiv_tf_header h;
	struct mpiv_filemap map;
	const char *data;
	size_t len;
	char why[256];
	long n;
	int rc;

	memset(t, 0, sizeof(*t));
	t->rank = -1;
	t->source = xstrdup(path);
	rc = mpiv_map_file(path, &map);
	if (rc) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cannot %s: %s",
			       rc == -1 ? "open" : "read", strerror(errno));
		goto fail;
	}
	data = map.data;
	len = map.len;
	n = mpiv_tf_decode_header(data, len, &h, why, sizeof(why));
	if (n < 0) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "%s", why);
		goto fail;
	}
	if (n == 0) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
			       len ? "trace ends inside its header (the rank died as it started)" :
				     "empty trace (the rank died as it started)");
		goto fail;
	}
	if (h.thread_level < MPIV_THREAD_SINGLE || h.thread_level > MPIV_THREAD_MULTIPLE) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, h.rank, -1,
			       "thread level %d, "
			       "expected %d (MPI_THREAD_SINGLE) to %d (MPI_THREAD_MULTIPLE)",
			       h.thread_level, MPIV_THREAD_SINGLE, MPIV_THREAD_MULTIPLE);
		goto fail;
	}
	t->rank = h.rank;
	t->size = h.size;
	t->pid = h.pid;
	t->thread_level = h.thread_level;
	memcpy(t->host, h.host, sizeof(t->host));
	t->host[sizeof(t->host) - 1] = '\0';
	memcpy(t->library, h.library, sizeof(t->library));
	t->library[sizeof(t->library) - 1] = '\0';
	t->bsend_overhead = h.bsend_overhead;
	if (h.version >= MPIV_TRACE_VERSION_TIME) {
		t->clock = (int)h.clock;
		t->clock_origin = h.origin;
		t->clock_realtime = h.realtime;
	}
	/* the store has the file now; not a file with times, whose records are differences
	 * from the one before (a store decodes a record alone): those are decoded whole */
	if (records && !t->clock)
		t->store = mpiv_store_new(&map, h.version, path);
	memset(&rule, 0, sizeof(rule));
	if (load_records(t, &h, data, len, (size_t)n, &rule, err)) {
		rule_end(&rule, t, NULL);
		goto fail;
	}
	if (rule_end(&rule, t, err))
		goto fail;
	if (t->nevents &&
	    (mpiv_trace_event(t, t->first + t->nevents - 1)->flags & MPIV_EV_INCOMPLETE))
		t->incomplete = 1;
	mpiv_map_release(&map);
	return 0;
fail:
	mpiv_map_release(&map);
	mpiv_rank_trace_release(t);
	return -1;
}

int mpiv_trace_load_bin(const char *path, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	return load_bin(path, t, 0, err);
}

int mpiv_trace_load_records(const char *path, struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	return load_bin(path, t, 1, err);
}

const struct mpiv_event *mpiv_trace_event(const struct mpiv_rank_trace *t, size_t i)
{
	return t->store ? mpiv_store_get(t->store, i) : &t->events[i - t->first];
}

long mpiv_trace_request_maker(const struct mpiv_rank_trace *t, long e, int32_t req)
{
	long i;
	uint32_t j;

	for (i = e - 1; i >= (long)t->first; i--) {
		const struct mpiv_event *ev = mpiv_trace_event(t, (size_t)i);

		if (mpiv_call_kind(ev->call) == MPIV_KIND_WAIT)
			continue;
		for (j = 0; j < ev->nreqs; j++)
			if (ev->reqs[j].req == req)
				return i;
	}
	return -1;
}

int mpiv_trace_save_bin(const char *path, const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	struct mpiv_tf_writer *w = xmalloc(sizeof(*w));
	const struct mpiv_newcomm *nc;
	struct mpiv_tf_header h;
	unsigned char *buf = NULL;
	size_t cap = 0, len, k, th;
	FILE *f;

	memset(w, 0, sizeof(*w));
	f = fopen(path, "wb");
	if (!f) {
		free(w);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1,
				      "cannot create: %s", strerror(errno));
	}
	memset(&h, 0, sizeof(h));
	h.version = MPIV_TRACE_VERSION;
	h.rank = t->rank;
	h.size = t->size;
	h.pid = t->pid;
	h.thread_level = t->thread_level;
	memcpy(h.host, t->host, sizeof(h.host) - 1);
	memcpy(h.library, t->library, sizeof(h.library) - 1);
	h.bsend_overhead = t->bsend_overhead;
	h.clock = (uint32_t)t->clock;
	h.origin = t->clock_origin;
	h.realtime = t->clock_realtime;
	mpiv_tf_writer_start(w, &h);
	xgrow((void **)&buf, &cap, MPIV_TF_HEADER_MAX, 1);
	len = mpiv_tf_encode_header(buf, cap, &h);
	fwrite(buf, 1, len, f);
	for (k = 0; k < t->nmodules; k++) {
		xgrow((void **)&buf, &cap, MPIV_TF_MODULE_MAX(strlen(t->modules[k].path)), 1);
		len = mpiv_tf_encode_module(buf, cap, t->modules[k].id, t->modules[k].path);
		fwrite(buf, 1, len, f);
	}
	for (k = 0, th = 0; k <= t->nevents; k++) {
		struct mpiv_event ev;

		/* the thread records before event k */
		xgrow((void **)&buf, &cap, MPIV_TF_THREAD_MAX, 1);
		for (; th < t->nthread_ops && t->thread_ops[th].before <= k; th++) {
			len = mpiv_tf_encode_thread(buf, cap, &t->thread_ops[th]);
			fwrite(buf, 1, len, f);
		}
		if (k == t->nevents)
			break;
		ev = *mpiv_trace_event(t, k);
		ev.index = (uint32_t)k;
		xgrow((void **)&buf, &cap, MPIV_TF_EVENT_MAX(ev.nreqs + ev.ngroup), 1);
		len = mpiv_tf_encode_event(w, buf, cap, &ev);
		fwrite(buf, 1, len, f);
		if (ev.repeat > 1) {
			/* the event's record has the run's span already */
			len = mpiv_tf_encode_repeat(buf, cap, ev.repeat - 1, &w->clock, ev.leave);
			fwrite(buf, 1, len, f);
		}
		nc = mpiv_trace_newcomm(t, (uint32_t)k);
		if (nc) {
			xgrow((void **)&buf, &cap, MPIV_TF_COMM_MAX(nc->n), 1);
			len = mpiv_tf_encode_comm(buf, cap, nc->event, nc->id, nc->n, nc->members);
			fwrite(buf, 1, len, f);
		}
	}
	/* after every event: a finding names its events by index */
	xgrow((void **)&buf, &cap, MPIV_TF_REDUCE_MAX, 1);
	for (k = 0; k < t->nreductions; k++) {
		len = mpiv_tf_encode_reduction(buf, cap, &t->reductions[k]);
		fwrite(buf, 1, len, f);
	}
	xgrow((void **)&buf, &cap, MPIV_TF_STOP_MAX + MPIV_TF_END_MAX, 1);
	if (t->end != MPIV_END_UNKNOWN) {
		len = mpiv_tf_encode_stop(buf, cap, t->end, t->end_code);
		fwrite(buf, 1, len, f);
	}
	/* A truncated trace stays one: no end record. */
	if (!t->truncated) {
		len = mpiv_tf_encode_end(buf, cap);
		fwrite(buf, 1, len, f);
	}
	free(buf);
	free(w);
	if (ferror(f) | (fclose(f) != 0))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, t->rank, -1,
				      "cannot write: %s", strerror(errno));
	return 0;
}

int64_t mpiv_trace_realtime(const struct mpiv_rank_trace *t, uint64_t ns)
{
	return (int64_t)(ns - t->clock_origin) + (int64_t)t->clock_realtime;
}

int64_t mpiv_trace_ns_between(const struct mpiv_rank_trace *ta, uint64_t a,
			      const struct mpiv_rank_trace *tb, uint64_t b)
{
	if (ta->clock == tb->clock && !strcmp(ta->host, tb->host))
		return (int64_t)(b - a);
	return mpiv_trace_realtime(tb, b) - mpiv_trace_realtime(ta, a);
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

int mpiv_trace_check_incomplete(const struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	struct incomplete_rule rule;
	size_t i;

	memset(&rule, 0, sizeof(rule));
	for (i = t->first; i < t->first + t->nevents; i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);

		rule_event(&rule, i, ev->thread, ev->flags & MPIV_EV_INCOMPLETE);
	}
	return rule_end(&rule, t, err);
}

int mpiv_trace_add_module(struct mpiv_rank_trace *t, uint32_t id, const char *path, size_t len,
			  struct mpiv_error *err)
{
	size_t i;

	if (id >= MPIV_SITE_NO_MODULE)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
				      "module id %u, expected below %u (a call site names its "
				      "module in 16 bits)",
				      id, MPIV_SITE_NO_MODULE);
	for (i = 0; i < t->nmodules; i++)
		if (t->modules[i].id == id)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, -1,
					      "module id %u given twice", id);
	/* one at a time: a trace has a few modules */
	t->modules = xrealloc(t->modules, (t->nmodules + 1) * sizeof(*t->modules));
	t->modules[t->nmodules].id = id;
	t->modules[t->nmodules].path = xmalloc(len + 1);
	memcpy(t->modules[t->nmodules].path, path, len);
	t->modules[t->nmodules].path[len] = '\0';
	t->nmodules++;
	return 0;
}

const struct mpiv_newcomm *mpiv_trace_newcomm(const struct mpiv_rank_trace *t, uint32_t event)
{
	size_t lo = 0, hi = t->ncomms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->comms[mid].event == event)
			return &t->comms[mid];
		if (t->comms[mid].event < event)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The checks and the insertion mpiv_trace_add_newcomm() and mpiv_trace_add_comm_before()
 * share: id not made before, members in the world, once each, the rank among them. */
static int newcomm_insert(struct mpiv_rank_trace *t, uint32_t event, int32_t id, uint32_t n,
			  const int32_t *members, struct mpiv_error *err)
{
	struct mpiv_newcomm *nc;
	size_t k, at;
	uint32_t i, j;
	int self = 0;

	if (id < MPIV_COMM_FIRST_LOCAL)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)event,
				      "new communicator id %d (ids of new ones start at %d)", id,
				      MPIV_COMM_FIRST_LOCAL);
	for (k = 0; k < t->ncomms; k++)
		if (t->comms[k].id == id)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      (long)event,
					      "communicator id %d made twice (events "
					      "%u and %u)",
					      id, t->comms[k].event, event);
	for (i = 0; i < n; i++) {
		if (members[i] < 0 || (t->size > 0 && members[i] >= t->size))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					      (long)event,
					      "member %d of communicator %d is not a "
					      "rank of a world of %d",
					      members[i], id, t->size);
		for (j = 0; j < i; j++)
			if (members[j] == members[i])
				return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
						      (long)event,
						      "rank %d is twice a member of "
						      "communicator %d",
						      members[i], id);
		self |= members[i] == t->rank;
	}
	if (!self)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)event,
				      "communicator %d does not have its own rank %d as a member",
				      id, t->rank);
	/* kept sorted by event; records come in event order but for a call written incomplete
	 * first, so the search from the end is short */
	t->comms = xrealloc(t->comms, (t->ncomms + 1) * sizeof(*t->comms));
	for (at = t->ncomms; at > 0 && t->comms[at - 1].event > event; at--)
		;
	memmove(t->comms + at + 1, t->comms + at, (t->ncomms - at) * sizeof(*t->comms));
	nc = &t->comms[at];
	nc->event = event;
	nc->id = id;
	nc->n = n;
	nc->members = xmalloc((n ? n : 1) * sizeof(*nc->members));
	memcpy(nc->members, members, n * sizeof(*nc->members));
	t->ncomms++;
	return 0;
}

int mpiv_trace_add_newcomm(struct mpiv_rank_trace *t, uint32_t event, int32_t id, uint32_t n,
			   const int32_t *members, struct mpiv_error *err)
{
	if (event >= t->first + t->nevents)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)event,
				      "a new communicator for event %u, beyond the trace", event);
	if (event < t->first)
		return 0; /* its event fell out of the window: nothing refers to it */
	if (!(mpiv_call_flags(mpiv_trace_event(t, event)->call) & MPIV_F_NEWCOMM))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)event,
				      "a new communicator for event %u, %s, which does not make "
				      "one",
				      event, mpiv_call_name(mpiv_trace_event(t, event)->call));
	if (mpiv_trace_newcomm(t, event))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)event,
				      "a second new communicator for event %u", event);
	return newcomm_insert(t, event, id, n, members, err);
}

int mpiv_trace_add_comm_before(struct mpiv_rank_trace *t, uint32_t event, int32_t id, uint32_t n,
			       const int32_t *members, struct mpiv_error *err)
{
	if (event >= t->first)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)event,
				      "a window's communicator made by event %u, which is not "
				      "before its first, %u",
				      event, t->first);
	return newcomm_insert(t, event, id, n, members, err);
}

void mpiv_rank_trace_release(struct mpiv_rank_trace *t)
{
	size_t i;

	for (i = 0; i < t->ncomms; i++)
		free(t->comms[i].members);
	free(t->comms);
	free(t->reductions);
	free(t->thread_ops);
	free(t->live);
	mpiv_thread_requests_release(t);

	for (i = 0; t->events && i < t->nevents; i++)
		mpiv_event_release(&t->events[i]);
	free(t->events);
	mpiv_store_free(t->store);
	for (i = 0; i < t->nmodules; i++)
		free(t->modules[i].path);
	free(t->modules);
	free(t->source);
	free(t->unjudged_why);
	memset(t, 0, sizeof(*t));
	t->rank = -1;
}
