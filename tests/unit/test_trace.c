/* Rank traces: the binary format (version 8) field by field, a file cut at every byte, garbage,
 * the JSON form, and the errors bad input gets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filemap.h"
#include "tracefmt.h"
#include "unit.h"

#define MAX_RECORDS 64

/* A small binary trace in memory, as the recorder writes one. */
struct bin {
	unsigned char data[8192];    /* the file */
	size_t len;		     /* its length */
	size_t hdrlen;		     /* the header's length */
	size_t ends[MAX_RECORDS];    /* where each record after the header ends */
	size_t nevents[MAX_RECORDS]; /* events complete when the file ends there */
	size_t nrec;
	struct mpiv_tf_writer w; /* encoding state */
};

static void bin_header(struct bin *b, int rank, int size)
{
	struct mpiv_tf_header h;

	memset(b, 0, sizeof(*b));
	memset(&h, 0, sizeof(h));
	h.version = MPIV_TRACE_VERSION;
	h.rank = rank;
	h.size = size;
	h.pid = 4242;
	h.thread_level = 3;
	snprintf(h.host, sizeof(h.host), "node1");
	snprintf(h.library, sizeof(h.library), "MPICH Version: 4.0.2");
	b->len = mpiv_tf_encode_header(b->data, sizeof(b->data), &h);
	b->hdrlen = b->len;
}

static void bin_mark(struct bin *b)
{
	CU_ASSERT_FATAL(b->nrec < MAX_RECORDS);
	b->ends[b->nrec] = b->len;
	b->nevents[b->nrec] = b->w.nevents;
	b->nrec++;
}

static void bin_event(struct bin *b, const struct mpiv_event *ev)
{
	size_t n = mpiv_tf_encode_event(&b->w, b->data + b->len, sizeof(b->data) - b->len, ev);

	CU_ASSERT_FATAL(n > 0);
	b->len += n;
	bin_mark(b);
}

static void bin_module(struct bin *b, uint32_t id, const char *path)
{
	b->len += mpiv_tf_encode_module(b->data + b->len, sizeof(b->data) - b->len, id, path);
	bin_mark(b);
}

static void bin_end(struct bin *b)
{
	b->len += mpiv_tf_encode_end(b->data + b->len, sizeof(b->data) - b->len);
	bin_mark(b);
}

static void bin_save(const struct bin *b, size_t len, const char *path)
{
	FILE *f = fopen(path, "wb");

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(fwrite(b->data, 1, len, f), len);
	fclose(f);
}

static const char *tmp_path(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", unit_tmpdir(), name);
	return path;
}

/* An MPI_Irecv, event index, from peer with tag on MPI_COMM_WORLD, that made request *req. */
static void irecv_event(struct mpiv_event *ev, uint32_t index, int32_t peer, int32_t tag,
			struct mpiv_reqinfo *req)
{
	mpiv_event_init(ev, MPIV_CALL_Irecv);
	ev->index = index;
	ev->peer = peer;
	ev->tag = tag;
	ev->comm = MPIV_COMM_WORLD;
	ev->nreqs = 1;
	ev->reqs = req;
}

/* Rank 0 of 2: a module, Init, an Irecv, a blocking Recv written incomplete then complete,
 * a Wait, Finalize, the end record. */
static void small_trace(struct bin *b)
{
	struct mpiv_reqinfo req = {7, MPIV_NONE, MPIV_NONE, 0};
	struct mpiv_event ev;

	bin_header(b, 0, 2);
	bin_module(b, 0, "/bin/app");
	mpiv_event_init(&ev, MPIV_CALL_Init);
	ev.site = MPIV_SITE(0, 0x1000);
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Irecv);
	ev.index = 1;
	ev.peer = MPIV_ANY_SOURCE;
	ev.tag = 3;
	ev.comm = MPIV_COMM_SELF;
	ev.bytes = 4;
	ev.site = MPIV_SITE(0, 0x1234);
	ev.nreqs = 1;
	ev.reqs = &req;
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Recv);
	ev.index = 2;
	ev.peer = 1;
	ev.tag = MPIV_ANY_TAG;
	ev.comm = MPIV_COMM_WORLD;
	ev.site = MPIV_SITE(0, 0x1300);
	ev.flags = MPIV_EV_INCOMPLETE;
	bin_event(b, &ev);
	ev.flags = 0;
	ev.src = 1;
	ev.mtag = 9;
	ev.rdata = 0xabcdef01; /* what it took */
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Wait);
	ev.index = 3;
	ev.site = MPIV_SITE(0, 0x1234); /* a site seen before: no new site record */
	req.src = 1;
	req.tag = 3;
	req.data = 0x12345; /* what the Irecv took */
	ev.nreqs = 1;
	ev.reqs = &req;
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Finalize);
	ev.index = 4;
	bin_event(b, &ev);
	bin_end(b);
}

static void test_binary_roundtrip(void)
{
	struct bin b;
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	const char *path = tmp_path("rank-0.mpivt");

	small_trace(&b);
	bin_save(&b, b.len, path);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &t, &err), 0);
	CU_ASSERT_EQUAL(t.rank, 0);
	CU_ASSERT_EQUAL(t.size, 2);
	CU_ASSERT_EQUAL(t.pid, 4242);
	CU_ASSERT_EQUAL(t.thread_level, 3);
	CU_ASSERT_STRING_EQUAL(t.host, "node1");
	CU_ASSERT_STRING_EQUAL(t.library, "MPICH Version: 4.0.2");
	CU_ASSERT_FALSE(t.truncated);
	CU_ASSERT_FALSE(t.incomplete);
	CU_ASSERT_EQUAL_FATAL(t.nevents, 5);
	CU_ASSERT_EQUAL(t.events[1].call, MPIV_CALL_Irecv);
	CU_ASSERT_EQUAL(t.events[1].index, 1);
	CU_ASSERT_EQUAL(t.events[1].peer, MPIV_ANY_SOURCE);
	CU_ASSERT_EQUAL(t.events[1].comm, MPIV_COMM_SELF);
	CU_ASSERT_EQUAL(t.events[1].reqs[0].req, 7);
	CU_ASSERT_EQUAL(t.events[1].reqs[0].src, MPIV_NONE);
	/* the complete record replaced the incomplete one */
	CU_ASSERT_EQUAL(t.events[2].flags, 0);
	CU_ASSERT_EQUAL(t.events[2].src, 1);
	CU_ASSERT_EQUAL(t.events[2].mtag, 9);
	CU_ASSERT_EQUAL(t.events[2].rdata, 0xabcdef01);
	CU_ASSERT_EQUAL(t.events[3].reqs[0].data, 0x12345);
	CU_ASSERT_EQUAL(t.events[2].tag, MPIV_ANY_TAG);
	CU_ASSERT_EQUAL(t.events[3].reqs[0].src, 1);
	CU_ASSERT_EQUAL(t.events[3].reqs[0].tag, 3);
	CU_ASSERT_EQUAL(t.events[3].site, MPIV_SITE(0, 0x1234));
	CU_ASSERT_EQUAL(t.events[4].call, MPIV_CALL_Finalize);
	CU_ASSERT_STRING_EQUAL(mpiv_trace_module(&t, t.events[1].site), "/bin/app");
	mpiv_rank_trace_release(&t);
}

static void assert_same_event(const struct mpiv_event *a, const struct mpiv_event *b)
{
	uint32_t i;

	CU_ASSERT_EQUAL(a->index, b->index);
	CU_ASSERT_EQUAL(a->call, b->call);
	CU_ASSERT_EQUAL(a->flags, b->flags);
	CU_ASSERT_EQUAL(a->peer, b->peer);
	CU_ASSERT_EQUAL(a->tag, b->tag);
	CU_ASSERT_EQUAL(a->comm, b->comm);
	CU_ASSERT_EQUAL(a->root, b->root);
	CU_ASSERT_EQUAL(a->src, b->src);
	CU_ASSERT_EQUAL(a->mtag, b->mtag);
	CU_ASSERT_EQUAL(a->thread, b->thread);
	CU_ASSERT_EQUAL(a->peer2, b->peer2);
	CU_ASSERT_EQUAL(a->tag2, b->tag2);
	CU_ASSERT_EQUAL(a->npending, b->npending);
	CU_ASSERT_EQUAL(a->bytes, b->bytes);
	CU_ASSERT_EQUAL(a->data, b->data);
	CU_ASSERT_EQUAL(a->rdata, b->rdata);
	CU_ASSERT_EQUAL(a->site, b->site);
	CU_ASSERT_EQUAL(a->win, b->win);
	CU_ASSERT_EQUAL(a->lock, b->lock);
	CU_ASSERT_EQUAL(a->ngroup, b->ngroup);
	CU_ASSERT_EQUAL_FATAL(a->nreqs, b->nreqs);
	for (i = 0; i < a->nreqs; i++) {
		CU_ASSERT_EQUAL(a->reqs[i].req, b->reqs[i].req);
		CU_ASSERT_EQUAL(a->reqs[i].src, b->reqs[i].src);
		CU_ASSERT_EQUAL(a->reqs[i].tag, b->reqs[i].tag);
		CU_ASSERT_EQUAL(a->reqs[i].data, b->reqs[i].data);
	}
}

/* Every field of struct mpiv_event, at ordinary and extreme values, through the encoder and
 * the decoder: what goes in comes out. */
static void test_every_field(void)
{
	struct mpiv_reqinfo reqs[5] = {
		{0, MPIV_NONE, MPIV_NONE, 0},
		{INT32_MAX, 3, INT32_MAX, UINT32_MAX},
		/* a request the recorder did not see made; a digest without a status */
		{-1, MPIV_NONE, MPIV_NONE, 1},
		{INT32_MIN, 0, MPIV_ANY_TAG, 0},
		{12, 2, 0, 0x80000000u},
	};
	struct mpiv_reqinfo out[5];
	int32_t group[4] = {3, 0, INT32_MAX, 2}, gout[4]; /* out of order: differences < 0 */
	struct mpiv_event evs[4], ev;
	struct mpiv_tf_writer *w = calloc(1, sizeof(*w));
	struct mpiv_tf_reader r;
	struct mpiv_tf_record rec;
	unsigned char buf[4096];
	uint64_t sites[8];
	size_t len = 0, off = 0, k = 0, nsites = 0;
	char why[256];
	long n;

	CU_ASSERT_FATAL(w != NULL);
	/* every field set, none at its default */
	mpiv_event_init(&evs[0], MPIV_CALL__COUNT - 1);
	evs[0].flags = 0xabcd;
	evs[0].peer = 5;
	evs[0].tag = INT32_MAX;
	evs[0].comm = 123456;
	evs[0].root = 2;
	evs[0].src = 4;
	evs[0].mtag = INT32_MIN;
	evs[0].thread = 17;
	evs[0].peer2 = MPIV_PROC_NULL;
	evs[0].tag2 = MPIV_ANY_TAG;
	evs[0].npending = 2;
	evs[0].bytes = UINT64_MAX;
	evs[0].data = UINT32_MAX;
	evs[0].rdata = 1;
	evs[0].site = MPIV_SITE(0xfffe, 0xffffffffffffULL);
	evs[0].nreqs = 5;
	evs[0].reqs = reqs;
	evs[0].win = 7;
	evs[0].lock = MPIV_LOCK_EXCLUSIVE;
	evs[0].ngroup = 4;
	evs[0].group = group;
	/* nothing set */
	mpiv_event_init(&evs[1], 0);
	evs[1].index = 1;
	/* negative specials, thread -1 (untracked), a small site, a replacement of event 0 */
	mpiv_event_init(&evs[2], MPIV_CALL_Send);
	evs[2].index = 2;
	evs[2].peer = MPIV_PROC_NULL;
	evs[2].tag = -1;
	evs[2].comm = MPIV_COMM_UNKNOWN;
	evs[2].thread = -1;
	evs[2].site = MPIV_SITE(1, 1);
	evs[2].data = 0x7f; /* a digest alone: its mask needs three bytes */
	evs[3] = evs[0];
	evs[3].flags = 0;
	evs[3].src = MPIV_ANY_SOURCE;
	evs[3].mtag = MPIV_NONE; /* one of the matched pair set */

	for (k = 0; k < 4; k++) {
		n = (long)mpiv_tf_encode_event(w, buf + len, sizeof(buf) - len, &evs[k]);
		CU_ASSERT_FATAL(n > 0);
		len += (size_t)n;
	}
	CU_ASSERT_EQUAL(w->nevents, 3);
	/* an index beyond the next one is refused */
	ev = evs[1];
	ev.index = 7;
	CU_ASSERT_EQUAL(mpiv_tf_encode_event(w, buf + len, sizeof(buf) - len, &ev), 0);
	/* so is a buffer that might be too short */
	ev.index = 3;
	CU_ASSERT_EQUAL(mpiv_tf_encode_event(w, buf, MPIV_TF_EVENT_MAX(0) - 1, &ev), 0);

	memset(&r, 0, sizeof(r));
	for (k = 0; off < len;) {
		r.sites = sites;
		r.nsites = nsites;
		n = mpiv_tf_decode(&r, buf + off, len - off, &rec, out, 5, why, sizeof(why));
		CU_ASSERT_FATAL(n > 0);
		off += (size_t)n;
		if (rec.kind == MPIV_TF_SITE) {
			sites[nsites++] = rec.site;
			continue;
		}
		CU_ASSERT_EQUAL_FATAL(rec.kind, MPIV_TF_EVENT);
		CU_ASSERT_EQUAL(rec.replaces, k == 3);
		assert_same_event(&rec.ev, &evs[k]);
		if (rec.ev.ngroup == 4) {
			mpiv_tf_group(&rec, gout);
			CU_ASSERT(!memcmp(gout, group, sizeof(group)));
		}
		k++;
	}
	CU_ASSERT_EQUAL(k, 4);
	CU_ASSERT_EQUAL(nsites, 2); /* the replacement reused its site */
	CU_ASSERT_EQUAL(r.nevents, 3);

	/* too little room for the requests: -2 and the count, then success */
	memset(&r, 0, sizeof(r));
	r.sites = sites;
	r.nsites = 0;
	n = mpiv_tf_decode(&r, buf, len, &rec, out, 5, why, sizeof(why)); /* site record */
	CU_ASSERT_FATAL(n > 0);
	r.nsites = 1;
	CU_ASSERT_EQUAL(mpiv_tf_decode(&r, buf + n, len - (size_t)n, &rec, out, 4, why,
				       sizeof(why)),
			-2);
	CU_ASSERT_EQUAL(rec.ev.nreqs, 5);
	CU_ASSERT(mpiv_tf_decode(&r, buf + n, len - (size_t)n, &rec, out, 5, why, sizeof(why)) > 0);
	free(w);
}

/* A draw from a few values (so that events repeat) or, now and then, any value. */
static int32_t pick(unsigned *seed, const int32_t *few, int nfew)
{
	unsigned r = (unsigned)rand_r(seed);

	if (r % 16 == 0)
		return (int32_t)((unsigned)rand_r(seed) * 2654435761u);
	return few[r % (unsigned)nfew];
}

/* Random events from a few call sites, most of them the same as an earlier one of their site
 * but for the request ids (which the writer remembers the records of and copies), some with
 * other fields, more requests, rare fields or replacing the event before: decoded, they are
 * what was encoded. */
static void test_random_events(void)
{
	enum { N = 20000, MAXREQ = 4 };
	static const int32_t ranks[] = {0, 1, 2, MPIV_ANY_SOURCE, MPIV_PROC_NULL, MPIV_NONE};
	static const int32_t tags[] = {0, 7, MPIV_ANY_TAG, MPIV_NONE};
	static const int32_t comms[] = {MPIV_COMM_WORLD, MPIV_COMM_SELF, 3, MPIV_NONE};
	/* data digests: mostly the same (a loop sending the same), now and then another */
	static const int32_t digests[] = {0, 0x1234567, (int32_t)0xdeadbeef};
	static const int32_t calls[] = {MPIV_CALL_Isend, MPIV_CALL_Recv, MPIV_CALL_Wait,
					MPIV_CALL_Waitall, MPIV_CALL_Testany};
	struct mpiv_event *evs = calloc(N, sizeof(*evs)), prev;
	struct mpiv_reqinfo *reqs = calloc((size_t)N * MAXREQ, sizeof(*reqs)), out[MAXREQ];
	struct mpiv_tf_writer *w = calloc(1, sizeof(*w));
	size_t cap = (size_t)N * MPIV_TF_EVENT_MAX(MAXREQ), len = 0, off = 0, k, nsites = 0;
	unsigned char *buf = malloc(cap);
	uint64_t sites[16];
	struct mpiv_tf_reader r;
	struct mpiv_tf_record rec;
	unsigned seed = 12345, i, j, kept = 0;
	uint32_t index = 0; /* of the next new event */
	int32_t next_req = 0;
	char why[256];
	long n;

	CU_ASSERT_FATAL(evs && reqs && w && buf);
	for (k = 0; k < N; k++) {
		struct mpiv_event *ev = &evs[k];
		unsigned r1 = (unsigned)rand_r(&seed);

		if (k > 0 && r1 % 50 == 0 && !evs[k - 1].ngroup) {
			/* the event before, written again complete (the recorder's replacement) */
			*ev = evs[k - 1];
			ev->flags = 0;
			ev->src = 1;
			ev->mtag = 0;
			continue;
		}
		mpiv_event_init(ev, (unsigned)calls[r1 % 5]);
		ev->index = index++;
		ev->site = MPIV_SITE(0, 0x100 + 16 * (rand_r(&seed) % 12));
		if (ev->call != MPIV_CALL_Wait && ev->call != MPIV_CALL_Waitall &&
		    ev->call != MPIV_CALL_Testany) {
			ev->peer = pick(&seed, ranks, 6);
			ev->tag = pick(&seed, tags, 4);
			ev->comm = pick(&seed, comms, 4);
			ev->bytes = rand_r(&seed) % 8 ? 8 : (uint64_t)rand_r(&seed) << 20;
		}
		if (ev->call == MPIV_CALL_Recv && rand_r(&seed) % 4) {
			ev->src = pick(&seed, ranks, 3);
			ev->mtag = pick(&seed, tags, 2);
			ev->rdata = (uint32_t)pick(&seed, digests, 3);
		}
		if (ev->call == MPIV_CALL_Isend)
			ev->data = (uint32_t)pick(&seed, digests, 3);
		ev->nreqs = ev->call == MPIV_CALL_Recv ?
				    0 :
				    (uint32_t)(rand_r(&seed) % 3 ? 1 :
								   rand_r(&seed) % (MAXREQ + 1));
		ev->reqs = &reqs[k * MAXREQ];
		for (j = 0; j < ev->nreqs; j++) {
			/* mostly the next id or one made just before, as a loop makes them */
			ev->reqs[j].req = rand_r(&seed) % 8 ?
						  next_req - (int32_t)(rand_r(&seed) % 2) :
						  pick(&seed, ranks, 3);
			ev->reqs[j].src = rand_r(&seed) % 2 ? MPIV_NONE : pick(&seed, ranks, 3);
			ev->reqs[j].tag = ev->reqs[j].src == MPIV_NONE ? MPIV_NONE : 0;
			ev->reqs[j].data = ev->call == MPIV_CALL_Isend ?
						   0 :
						   (uint32_t)pick(&seed, digests, 3);
			next_req++;
		}
		if (ev->call == MPIV_CALL_Testany)
			ev->npending = ev->nreqs; /* a rare field */
		if (rand_r(&seed) % 40 == 0)
			ev->thread = 1 + (int32_t)(rand_r(&seed) % 3);
		if (rand_r(&seed) % 60 == 0)
			ev->flags = MPIV_EV_INCOMPLETE;
	}
	for (k = 0; k < N; k++) {
		n = (long)mpiv_tf_encode_event(w, buf + len, cap - len, &evs[k]);
		CU_ASSERT_FATAL(n > 0);
		len += (size_t)n;
	}
	for (i = 0; i < MPIV_TF_MEMO_SLOTS; i++)
		kept += w->memo[i].site != 0;
	CU_ASSERT(kept > 0); /* the copying path was taken */

	memset(&r, 0, sizeof(r));
	memset(&prev, 0, sizeof(prev));
	for (k = 0; off < len;) {
		r.sites = sites;
		r.nsites = nsites;
		n = mpiv_tf_decode(&r, buf + off, len - off, &rec, out, MAXREQ, why, sizeof(why));
		CU_ASSERT_FATAL(n > 0);
		off += (size_t)n;
		if (rec.kind == MPIV_TF_SITE) {
			CU_ASSERT_FATAL(nsites < 16);
			sites[nsites++] = rec.site;
			continue;
		}
		CU_ASSERT_EQUAL_FATAL(rec.kind, MPIV_TF_EVENT);
		assert_same_event(&rec.ev, &evs[k]);
		k++;
	}
	CU_ASSERT_EQUAL(k, N);
	free(buf);
	free(w);
	free(reqs);
	free(evs);
}

/* A rank killed at any moment leaves a prefix of its file: cut it at every byte. Inside the
 * header it is an error; after, the trace reads up to the last whole record, truncated unless
 * the end record is there. */
static void test_truncated_everywhere(void)
{
	struct bin b;
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	const char *path = tmp_path("rank-0.mpivt");
	size_t cut, want, i;

	small_trace(&b);
	for (cut = 0; cut <= b.len; cut++) {
		bin_save(&b, cut, path);
		mpiv_error_init(&err);
		if (cut < b.hdrlen) {
			CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
			CU_ASSERT(strstr(err.text, "header") || strstr(err.text, "empty"));
			continue;
		}
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &t, &err), 0);
		want = 0;
		for (i = 0; i < b.nrec && b.ends[i] <= cut; i++)
			want = b.nevents[i];
		CU_ASSERT_EQUAL(t.nevents, want);
		CU_ASSERT_EQUAL(t.truncated, cut != b.len);
		/* the Recv was written incomplete first: cut before its second record, the
		 * trace ends inside it */
		CU_ASSERT_EQUAL(t.incomplete, cut >= b.ends[3] && cut < b.ends[4]);
		mpiv_rank_trace_release(&t);
	}
}

/* The file of b cut at len must not read, with an error that says text: read either way
 * (its events decoded, or kept as records), the same error. */
static void expect_error(const struct bin *b, size_t len, const char *text)
{
	struct mpiv_rank_trace t;
	struct mpiv_error err, err2;
	const char *path = tmp_path("rank-0.mpivt");

	bin_save(b, len, path);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
	CU_ASSERT(err.set);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	CU_ASSERT_STRING_EQUAL(err.source, path);
	if (!strstr(err.text, text))
		fprintf(stderr, "\nerror '%s' does not say '%s'\n", err.text, text);
	CU_ASSERT(strstr(err.text, text) != NULL);
	mpiv_error_init(&err2);
	CU_ASSERT_EQUAL(mpiv_trace_load_records(path, &t, &err2), -1);
	CU_ASSERT_STRING_EQUAL(err2.text, err.text);
	CU_ASSERT_EQUAL(err2.event, err.event);
}

static void test_garbage(void)
{
	static const char text[] = "this is not a trace at all, but it is long enough to be read";
	struct bin b, g;
	struct mpiv_event ev;
	size_t at;

	memset(&g, 0, sizeof(g));
	memcpy(g.data, text, sizeof(text));
	expect_error(&g, sizeof(text), "not an mpiverify trace");
	expect_error(&g, 3, "not an mpiverify trace");
	/* a version 1 file: record length and type, then the magic */
	memset(&g, 0, sizeof(g));
	g.data[0] = 0xf4;
	g.data[4] = 1;
	memcpy(g.data + 8, MPIV_TRACE_MAGIC, MPIV_TRACE_MAGIC_LEN);
	expect_error(&g, 64, "version 1");
	/* a version from the future */
	bin_header(&b, 0, 1);
	b.data[MPIV_TRACE_MAGIC_LEN] = MPIV_TRACE_VERSION + 1;
	{
		char reads[32];

		snprintf(reads, sizeof(reads), "reads version %d", MPIV_TRACE_VERSION);
		expect_error(&b, b.len, reads);
	}
	/* rank out of its world */
	bin_header(&b, 0, 1);
	b.data[MPIV_TRACE_MAGIC_LEN + 1] = 4; /* zigzag 2 */
	expect_error(&b, b.len, "rank 2 of a world of 1");
	/* an unknown record code */
	bin_header(&b, 0, 1);
	b.data[b.len++] = 5;
	expect_error(&b, b.len, "unknown record code 5");
	/* a call beyond the list */
	bin_header(&b, 0, 1);
	b.data[b.len++] = 0x80 | ((MPIV_TF_EVENT + MPIV_CALL__COUNT) & 0x7f);
	b.data[b.len++] = (MPIV_TF_EVENT + MPIV_CALL__COUNT) >> 7;
	b.data[b.len++] = 0;
	expect_error(&b, b.len, "unknown record code");
	/* unknown fields */
	bin_header(&b, 0, 1);
	b.data[b.len++] = MPIV_TF_EVENT;
	b.data[b.len++] = 0x80;
	b.data[b.len++] = 0x80;
	b.data[b.len++] = 0x20; /* bit 19: no such field */
	b.data[b.len++] = 0;
	expect_error(&b, b.len, "unknown fields");
	/* a site index with no site record */
	bin_header(&b, 0, 1);
	b.data[b.len++] = MPIV_TF_EVENT;
	b.data[b.len++] = 1 << 0; /* the site field */
	b.data[b.len++] = 0;
	expect_error(&b, b.len, "site 0 of a site table of 0");
	/* a varint longer than its field */
	bin_header(&b, 0, 1);
	b.data[b.len++] = MPIV_TF_EVENT;
	b.data[b.len++] = 1 << 1; /* the peer field */
	for (at = 0; at < 6; at++)
		b.data[b.len++] = 0xff;
	b.data[b.len++] = 0;
	expect_error(&b, b.len, "malformed record");
	/* a peer outside the world */
	bin_header(&b, 0, 2);
	mpiv_event_init(&ev, MPIV_CALL_Send);
	ev.peer = 2;
	bin_event(&b, &ev);
	expect_error(&b, b.len,
		     "peer: 2, expected a world rank (0 to 1), MPI_ANY_SOURCE or MPI_PROC_NULL");
	/* a complete event written twice */
	bin_header(&b, 0, 1);
	mpiv_event_init(&ev, MPIV_CALL_Init);
	bin_event(&b, &ev);
	bin_event(&b, &ev);
	expect_error(&b, b.len, "event 0 written twice");
	/* anything after the end record */
	small_trace(&b);
	b.data[b.len++] = MPIV_TF_END;
	expect_error(&b, b.len, "data after the end record");
}

static void bin_repeat(struct bin *b, uint64_t more)
{
	size_t n = mpiv_tf_encode_repeat(b->data + b->len, sizeof(b->data) - b->len, more,
					 &b->w.clock, 0);

	CU_ASSERT_FATAL(n > 0);
	b->len += n;
	bin_mark(b);
}

/* Rank 0 of 1: Init, an Irecv, a run of 1000 failed MPI_Test (one event and a repeat record
 * of 999), the MPI_Test that completes it, Finalize. */
static void polling_trace(struct bin *b)
{
	struct mpiv_reqinfo req = {0, MPIV_NONE, MPIV_NONE, 0};
	struct mpiv_event ev;

	bin_header(b, 0, 1);
	mpiv_event_init(&ev, MPIV_CALL_Init);
	bin_event(b, &ev);
	irecv_event(&ev, 1, 0, 0, &req);
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Test);
	ev.index = 2;
	ev.nreqs = 1;
	ev.reqs = &req;
	ev.npending = 1;
	bin_event(b, &ev);
	bin_repeat(b, 999);
	ev.index = 3;
	ev.npending = 0;
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Finalize);
	ev.index = 4;
	bin_event(b, &ev);
	bin_end(b);
}

/* A run of failed polls is one event with its repeat count, in binary and in JSON; a repeat
 * record anywhere but after a failed poll, or of 0 times, is an error. */
static void test_poll_runs(void)
{
	char bin[256], json[256], bin2[256];
	struct mpiv_rank_trace a, j, c;
	struct mpiv_event ev;
	struct bin b;

	snprintf(bin, sizeof(bin), "%s/rank-0.mpivt", unit_tmpdir());
	snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
	snprintf(bin2, sizeof(bin2), "%s/copy.mpivt", unit_tmpdir());
	polling_trace(&b);
	bin_save(&b, b.len, bin);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(a.nevents, 5);
	CU_ASSERT_EQUAL(a.events[2].repeat, 1000);
	CU_ASSERT_EQUAL(a.events[3].repeat, 1);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_bin(bin2, &j, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin2, &c, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(c.nevents, 5);
	CU_ASSERT_EQUAL(j.events[2].repeat, 1000);
	CU_ASSERT_EQUAL(c.events[2].repeat, 1000);
	CU_ASSERT_EQUAL(c.events[3].repeat, 1);
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&j);
	mpiv_rank_trace_release(&c);
	/* after an event that is not a failed poll */
	bin_header(&b, 0, 1);
	mpiv_event_init(&ev, MPIV_CALL_Init);
	bin_event(&b, &ev);
	bin_repeat(&b, 3);
	expect_error(&b, b.len, "a repeat record that does not follow a failed poll");
	/* first in the file */
	bin_header(&b, 0, 1);
	bin_repeat(&b, 3);
	expect_error(&b, b.len, "a repeat record that does not follow a failed poll");
	/* of 0 times */
	polling_trace(&b);
	b.len = b.ends[3]; /* just after the first MPI_Test */
	b.data[b.len++] = MPIV_TF_REPEAT;
	b.data[b.len++] = 0;
	expect_error(&b, b.len, "repeat record of 0 times");
}

/* A trace with times (clock 1, origin 1000 ns): Init, a Send, a Recv written incomplete
 * (no leave) then complete, two failed polls of one site (a run), Finalize. The events'
 * times, as written. */
static const uint64_t timed_enter[] = {900, 5000, 9000, 70000, 80000};
static const uint64_t timed_leave[] = {1500, 5200, 60000, 70100, 80300};

static void timed_trace(struct bin *b)
{
	struct mpiv_reqinfo req = {4, MPIV_NONE, MPIV_NONE, 0};
	struct mpiv_tf_header h;
	struct mpiv_event ev;

	memset(b, 0, sizeof(*b));
	memset(&h, 0, sizeof(h));
	h.rank = 0;
	h.size = 2;
	h.thread_level = 0;
	h.clock = MPIV_CLOCK_MONOTONIC;
	h.origin = 1000;
	h.realtime = 1700000000000000000ull;
	b->len = mpiv_tf_encode_header(b->data, sizeof(b->data), &h);
	b->hdrlen = b->len;
	mpiv_tf_writer_start(&b->w, &h);
	mpiv_event_init(&ev, MPIV_CALL_Init);
	ev.site = MPIV_SITE(0, 0x100);
	ev.enter = timed_enter[0]; /* before the origin: a negative difference */
	ev.leave = timed_leave[0];
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Send);
	ev.index = 1;
	ev.peer = 1;
	ev.tag = 0;
	ev.comm = MPIV_COMM_WORLD;
	ev.site = MPIV_SITE(0, 0x200);
	ev.enter = timed_enter[1];
	ev.leave = timed_leave[1];
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Recv);
	ev.index = 2;
	ev.peer = 1;
	ev.tag = 0;
	ev.comm = MPIV_COMM_WORLD;
	ev.site = MPIV_SITE(0, 0x300);
	ev.flags = MPIV_EV_INCOMPLETE;
	ev.enter = timed_enter[2];
	bin_event(b, &ev);
	ev.flags = 0;
	ev.src = 1;
	ev.mtag = 0;
	ev.leave = timed_leave[2];
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Test);
	ev.index = 3;
	ev.site = MPIV_SITE(0, 0x400);
	ev.nreqs = 1;
	ev.npending = 1;
	ev.reqs = &req;
	ev.enter = timed_enter[3];
	ev.leave = 70050; /* the first poll's; the run's last returns at timed_leave[3] */
	bin_event(b, &ev);
	b->len += mpiv_tf_encode_repeat(b->data + b->len, sizeof(b->data) - b->len, 9, &b->w.clock,
					timed_leave[3]);
	bin_mark(b);
	mpiv_event_init(&ev, MPIV_CALL_Finalize);
	ev.index = 4;
	ev.enter = timed_enter[4];
	ev.leave = timed_leave[4];
	bin_event(b, &ev);
	bin_end(b);
}

/* Every event has the times timed_trace() wrote. */
static void check_times(const struct mpiv_rank_trace *t)
{
	size_t i;

	CU_ASSERT_EQUAL_FATAL(t->nevents, 5);
	CU_ASSERT_EQUAL(t->clock, MPIV_CLOCK_MONOTONIC);
	CU_ASSERT_EQUAL(t->clock_origin, 1000);
	CU_ASSERT_EQUAL(t->clock_realtime, 1700000000000000000ull);
	for (i = 0; i < t->nevents; i++) {
		CU_ASSERT_EQUAL(t->events[i].enter, timed_enter[i]);
		CU_ASSERT_EQUAL(t->events[i].leave, timed_leave[i]);
	}
	CU_ASSERT_EQUAL(t->events[3].repeat, 10);
}

/* Times: written as differences, read back in both formats; a file cut before the Recv's
 * complete record has it without a leave. */
static void test_times(void)
{
	char bin[256], json[256], bin2[256];
	struct mpiv_rank_trace a, j, c;
	struct bin b;

	snprintf(bin, sizeof(bin), "%s/rank-0.mpivt", unit_tmpdir());
	snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
	snprintf(bin2, sizeof(bin2), "%s/copy.mpivt", unit_tmpdir());
	timed_trace(&b);
	bin_save(&b, b.len, bin);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	check_times(&a);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
	check_times(&j);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_bin(bin2, &j, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin2, &c, NULL), 0);
	check_times(&c);
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&j);
	mpiv_rank_trace_release(&c);
	/* cut after the incomplete Recv */
	bin_save(&b, b.ends[2], bin);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(a.nevents, 3);
	CU_ASSERT_EQUAL(a.events[2].enter, timed_enter[2]);
	CU_ASSERT_EQUAL(a.events[2].leave, 0);
	CU_ASSERT(a.incomplete);
	mpiv_rank_trace_release(&a);
	/* a time beyond what JSON keeps: refused */
	timed_trace(&b);
	memset(&b.w, 0, sizeof(b.w));
	b.w.clock.on = 1;
	b.w.clock.last = 1000;
	b.len = b.hdrlen;
	{
		struct mpiv_event ev;

		mpiv_event_init(&ev, MPIV_CALL_Init);
		ev.enter = (uint64_t)INT64_MAX + 10;
		b.len += mpiv_tf_encode_event(&b.w, b.data + b.len, sizeof(b.data) - b.len, &ev);
	}
	expect_error(&b, b.len, "enter: 9223372036854775817, expected at most");
}

/* A JSON trace's times: enter with a clock only, leave not before it. */
static void test_json_times(void)
{
	static const struct {
		const char *doc, *error;
	} cases[] = {
		{"\"events\": [{\"call\": \"MPI_Init\", \"enter\": 5}]",
		 "events[0].enter: times in a trace without a clock"},
		{"\"clock\": {\"kind\": \"monotonic\", \"origin\": 0, \"realtime\": 0}, "
		 "\"events\": [{\"call\": \"MPI_Init\"}]",
		 "events[0].enter: expected nanoseconds"},
		{"\"clock\": {\"kind\": \"monotonic\", \"origin\": 0, \"realtime\": 0}, "
		 "\"events\": [{\"call\": \"MPI_Init\", \"enter\": 9, \"leave\": 8}]",
		 "events[0].leave: expected nanoseconds, at or after enter (9)"},
		{"\"clock\": {\"kind\": \"sundial\", \"origin\": 0, \"realtime\": 0}, "
		 "\"events\": []",
		 "clock: expected {\"kind\": \"monotonic\""},
		{"\"clock\": {\"kind\": \"monotonic\", \"origin\": 0, \"realtime\": 0}, "
		 "\"events\": [{\"call\": \"MPI_Init\", \"enter\": 9, \"leave\": 12}]",
		 NULL},
	};
	const char *path = tmp_path("rank-0.json");
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	char text[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");

		CU_ASSERT_FATAL(f != NULL);
		fprintf(f,
			"{\"format\": \"mpiverify-trace\", \"version\": 1, \"rank\": 0, "
			"\"size\": 1, %s}\n",
			cases[i].doc);
		fclose(f);
		mpiv_error_init(&err);
		if (!cases[i].error) {
			CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(path, &t, &err), 0);
			CU_ASSERT_EQUAL(t.events[0].enter, 9);
			CU_ASSERT_EQUAL(t.events[0].leave, 12);
			mpiv_rank_trace_release(&t);
			continue;
		}
		CU_ASSERT_EQUAL(mpiv_trace_load_json(path, &t, &err), -1);
		mpiv_error_format(&err, text, sizeof(text));
		if (!strstr(text, cases[i].error))
			fprintf(stderr, "\nwant '%s', got '%s'\n", cases[i].error, text);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[i].error));
	}
}

/* A field set out of range on a valid MPI_Recv (rank 0 of 2, event 1), and what reading it
 * must say. */
struct bad_field {
	const char *what;
	const char *text;
};

static const struct bad_field bad_fields[] = {
	{"peer below the special values", "peer: -7, expected a world rank (0 to 1), "
					  "MPI_ANY_SOURCE or MPI_PROC_NULL"},
	{"peer beyond the world", "peer: 2, expected a world rank"},
	{"negative tag", "tag: -5, expected a tag (0 or more) or MPI_ANY_TAG"},
	{"communicator", "comm: -9, expected a communicator id"},
	{"root", "root: -7, expected a world rank (0 to 1) or MPI_PROC_NULL"},
	{"matched source", "src: 5, expected a world rank (0 to 1) or MPI_PROC_NULL"},
	{"matched tag", "mtag: -2, expected a tag"},
	{"thread", "thread: -1, expected 0 or more"},
	{"window", "win: -4, expected a window"},
	{"lock type", "lock: 7, expected 1 (shared) or 2 (exclusive)"},
	{"size beyond int64", "bytes: 9223372036854775808, expected at most"},
	{"request id", "reqs[0].req: -5, expected a request id"},
	{"request's source", "reqs[0].src: -7, expected a world rank"},
	{"group member", "group[1]: 3, expected a world rank (0 to 1)"},
	{"data digest of a receive", "data: 5, expected 0 (only a send has the digest"},
	{"request's digest of a receive",
	 "reqs[0].data: 9, expected 0 (only a request a completion call completed"},
	{"flags", "flags: unknown bits 0x10"},
};

/* Set case k of bad_fields on ev, which owns nothing; req and group are its room. */
static void set_bad_field(struct mpiv_event *ev, size_t k, struct mpiv_reqinfo *req, int32_t *group)
{
	switch (k) {
	case 0:
		ev->peer = -7;
		break;
	case 1:
		ev->peer = 2;
		break;
	case 2:
		ev->tag = -5;
		break;
	case 3:
		ev->comm = -9;
		break;
	case 4:
		ev->root = -7;
		break;
	case 5:
		ev->src = 5;
		break;
	case 6:
		ev->mtag = -2;
		break;
	case 7:
		ev->thread = -1;
		break;
	case 8:
		ev->win = -4;
		break;
	case 9:
		ev->lock = 7;
		break;
	case 10:
		ev->bytes = (uint64_t)INT64_MAX + 1;
		break;
	case 11:
		req->req = -5;
		ev->reqs = req;
		ev->nreqs = 1;
		break;
	case 12:
		req->src = -7;
		ev->reqs = req;
		ev->nreqs = 1;
		break;
	case 13:
		group[0] = 0;
		group[1] = 3;
		ev->group = group;
		ev->ngroup = 2;
		break;
	case 14:
		ev->data = 5;
		break;
	case 15:
		req->data = 9;
		ev->reqs = req;
		ev->nreqs = 1;
		break;
	default:
		ev->flags = 0x10; /* the first bit no flag has (MPIV_EV_FLAGS_ALL) */
		break;
	}
}

static void recv_event(struct mpiv_event *ev)
{
	mpiv_event_init(ev, MPIV_CALL_Recv);
	ev->index = 1;
	ev->peer = 1;
	ev->tag = 0;
	ev->comm = MPIV_COMM_WORLD;
	ev->bytes = 4;
}

/* Every field of a binary event is checked against what it can mean: a bad one is an error
 * naming the file, the rank, the event and the field (before, a peer of -7 went through to
 * the engine, whose tables it indexed). */
static void test_bad_fields(void)
{
	const char *path = tmp_path("rank-0.mpivt");
	struct mpiv_reqinfo req;
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	struct mpiv_event ev;
	int32_t group[2];
	struct bin b;
	size_t k;

	for (k = 0; k < sizeof(bad_fields) / sizeof(bad_fields[0]); k++) {
		bin_header(&b, 0, 2);
		mpiv_event_init(&ev, MPIV_CALL_Init);
		bin_event(&b, &ev);
		recv_event(&ev);
		req.req = 0;
		req.src = MPIV_NONE;
		req.tag = MPIV_NONE;
		req.data = 0;
		set_bad_field(&ev, k, &req, group);
		bin_event(&b, &ev);
		bin_end(&b);
		bin_save(&b, b.len, path);
		mpiv_error_init(&err);
		CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
		CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
		CU_ASSERT_STRING_EQUAL(err.source, path);
		CU_ASSERT_EQUAL(err.rank, 0);
		CU_ASSERT_EQUAL(err.event, 1);
		if (!strstr(err.text, bad_fields[k].text))
			fprintf(stderr, "\n%s: error '%s' does not say '%s'\n", bad_fields[k].what,
				err.text, bad_fields[k].text);
		CU_ASSERT(strstr(err.text, bad_fields[k].text) != NULL);
		CU_ASSERT(strstr(err.text, "(record at byte ") != NULL);
	}
}

/* The header, modules and rewritten events are checked too. */
static void test_bad_records(void)
{
	struct mpiv_tf_header h;
	struct mpiv_event ev;
	struct bin b;
	int k;

	memset(&b, 0, sizeof(b));
	memset(&h, 0, sizeof(h));
	h.version = MPIV_TRACE_VERSION;
	h.size = 1;
	h.thread_level = 9;
	b.len = b.hdrlen = mpiv_tf_encode_header(b.data, sizeof(b.data), &h);
	expect_error(&b, b.len, "thread level 9, expected 0 (MPI_THREAD_SINGLE) to 3");
	bin_header(&b, 0, 1);
	bin_module(&b, MPIV_SITE_NO_MODULE, "/bin/app");
	expect_error(&b, b.len, "module id 65535, expected below 65535");
	bin_header(&b, 0, 1);
	bin_module(&b, 3, "/bin/app");
	bin_module(&b, 3, "/lib/libmpi.so");
	expect_error(&b, b.len, "module id 3 given twice");
	/* a blocked MPI_Recv rewritten as another call */
	bin_header(&b, 0, 2);
	recv_event(&ev);
	ev.index = 0;
	ev.flags = MPIV_EV_INCOMPLETE;
	bin_event(&b, &ev);
	ev.call = MPIV_CALL_Send;
	ev.flags = 0;
	bin_event(&b, &ev);
	expect_error(&b, b.len, "event 0, MPI_Recv, rewritten as MPI_Send");
	/* a blocked call, then another call of the same thread (another thread's is fine: it
	 * is how a multi-threaded rank's file may end), as binary and as JSON */
	for (k = 0; k < 2; k++) {
		struct mpiv_rank_trace t;
		char json[512];

		bin_header(&b, 0, 2);
		recv_event(&ev);
		ev.index = 0;
		ev.flags = MPIV_EV_INCOMPLETE;
		bin_event(&b, &ev);
		recv_event(&ev);
		ev.index = 1;
		ev.thread = (int32_t)k;
		bin_event(&b, &ev);
		bin_end(&b);
		if (k == 0) {
			expect_error(&b, b.len,
				     "event 0 is incomplete (its call had not "
				     "returned), yet its thread 0 made a later one");
			continue;
		}
		snprintf(json, sizeof(json), "%s", tmp_path("rank-0.mpivt"));
		bin_save(&b, b.len, json);
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(json, &t, NULL), 0);
		snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
		CU_ASSERT_EQUAL(mpiv_trace_save_json(json, &t, NULL), 0);
		mpiv_rank_trace_release(&t);
		CU_ASSERT_EQUAL(mpiv_trace_load_json(json, &t, NULL), 0);
		mpiv_rank_trace_release(&t);
	}
}

/* Binary -> JSON -> load, and JSON -> binary -> load, give the same events. */
static void test_json_roundtrip(void)
{
	char bin[256], json[256], bin2[256];
	struct bin b;
	struct mpiv_rank_trace a, j, c;
	size_t i;

	snprintf(bin, sizeof(bin), "%s/rank-0.mpivt", unit_tmpdir());
	snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
	snprintf(bin2, sizeof(bin2), "%s/copy.mpivt", unit_tmpdir());
	small_trace(&b);
	bin_save(&b, b.len, bin);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_bin(bin2, &j, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin2, &c, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(a.nevents, j.nevents);
	CU_ASSERT_EQUAL_FATAL(a.nevents, c.nevents);
	for (i = 0; i < a.nevents; i++) {
		assert_same_event(&a.events[i], &j.events[i]);
		assert_same_event(&a.events[i], &c.events[i]);
	}
	CU_ASSERT_STRING_EQUAL(j.modules[0].path, "/bin/app");
	CU_ASSERT_STRING_EQUAL(j.host, "node1");
	CU_ASSERT_STRING_EQUAL(c.modules[0].path, "/bin/app");
	CU_ASSERT_STRING_EQUAL(c.host, "node1");
	CU_ASSERT_EQUAL(c.truncated, 0);
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&j);
	mpiv_rank_trace_release(&c);
}

/* Each malformed JSON trace gets an error that names the JSON path. */
static void test_json_errors(void)
{
	static const struct {
		const char *events;
		const char *text;
	} cases[] = {
		{"[{\"call\":\"MPI_Sned\"}]", "events[0].call: unknown MPI call 'MPI_Sned'"},
		{"[{\"call\":\"MPI_Init\"},{\"call\":\"MPI_Send\",\"peer\":\"x\"}]",
		 "events[1].peer: expected a non-negative integer, \"any\" or \"null\""},
		{"[{\"call\":\"MPI_Send\",\"peer\":5,\"tag\":0}]",
		 "events[0].peer: 5, expected a world rank (0 to 0), MPI_ANY_SOURCE or MPI_PROC_NULL"},
		{"{}", "events: expected an array"},
		{"[{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":0,\"repeat\":2}]",
		 "events[0].repeat: 2, but only a poll that found nothing (an MPI_Test* that "
		 "completed none of its requests, an MPI_Iprobe without a source) is made more "
		 "than once"},
		{"[{\"call\":\"MPI_Iprobe\",\"peer\":0,\"tag\":0,\"repeat\":0}]",
		 "events[0].repeat: expected a positive integer"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *events[] = {cases[i].events, NULL};
		char path[256];
		struct mpiv_rank_trace t;
		struct mpiv_error err;
		FILE *f;

		snprintf(path, sizeof(path), "%s/rank-0.json", unit_tmpdir());
		f = fopen(path, "w");
		fprintf(f,
			"{\"format\":\"mpiverify-trace\",\"version\":1,\"rank\":0,\"size\":1,"
			"\"events\":%s}",
			events[0]);
		fclose(f);
		mpiv_error_init(&err);
		CU_ASSERT_EQUAL(mpiv_trace_load_json(path, &t, &err), -1);
		CU_ASSERT_STRING_EQUAL(err.text, cases[i].text);
		CU_ASSERT_STRING_EQUAL(err.source, path);
	}
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* A neighbourhood collective carries the caller's in-neighbours (its group), an empty group
 * meaning none: from version 7 of the binary format on, and in JSON as a "group" always
 * there. Older binary traces and JSON without the group never recorded them, and are refused
 * rather than read as "no in-neighbours". */
static void test_neighbor_group(void)
{
	int32_t in[2] = {1, 2};
	struct mpiv_tf_header h;
	struct mpiv_rank_trace t, j;
	struct mpiv_error err;
	struct mpiv_event ev;
	struct bin b;
	char json[512];
	int version;

	for (version = MPIV_TRACE_VERSION_NEIGHBOR - 1; version <= MPIV_TRACE_VERSION_NEIGHBOR;
	     version++) {
		memset(&b, 0, sizeof(b));
		memset(&h, 0, sizeof(h));
		h.version = (uint32_t)version;
		h.size = 3;
		b.len = b.hdrlen = mpiv_tf_encode_header(b.data, sizeof(b.data), &h);
		mpiv_event_init(&ev, MPIV_CALL_Neighbor_allgather);
		ev.comm = MPIV_COMM_FIRST_LOCAL;
		ev.group = in;
		ev.ngroup = 2;
		bin_event(&b, &ev);
		mpiv_event_init(&ev, MPIV_CALL_Neighbor_alltoall);
		ev.index = 1;
		ev.comm = MPIV_COMM_FIRST_LOCAL;
		bin_event(&b, &ev);
		bin_end(&b);
		if (version < MPIV_TRACE_VERSION_NEIGHBOR) {
			expect_error(&b, b.len,
				     "MPI_Neighbor_allgather in a trace of version 6, "
				     "which does not record its neighbours: record the program "
				     "again");
			continue;
		}
		snprintf(json, sizeof(json), "%s", tmp_path("rank-0.mpivt"));
		bin_save(&b, b.len, json);
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(json, &t, NULL), 0);
		CU_ASSERT_EQUAL_FATAL(t.nevents, 2);
		CU_ASSERT_EQUAL_FATAL(t.events[0].ngroup, 2);
		CU_ASSERT_EQUAL(t.events[0].group[1], 2);
		CU_ASSERT_EQUAL(t.events[1].ngroup, 0);
		/* through JSON: the empty group is written, and read back */
		snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &t, NULL), 0);
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
		CU_ASSERT_EQUAL(j.events[0].ngroup, 2);
		CU_ASSERT_EQUAL(j.events[1].ngroup, 0);
		mpiv_rank_trace_release(&j);
		mpiv_rank_trace_release(&t);
	}
	write_file(json, "{\"format\":\"mpiverify-trace\",\"version\":1,\"rank\":0,\"size\":2,"
			 "\"events\":[{\"call\":\"MPI_Ineighbor_alltoall\",\"comm\":2,"
			 "\"reqs\":[{\"req\":1}]}]}");
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_json(json, &j, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.text,
			       "events[0].group: missing: MPI_Ineighbor_alltoall needs "
			       "the caller's in-neighbours (an array of ranks, empty for none)");
}

/* A file of version 7 reads as it did, without digests: its requests are coded with one low
 * bit (a status follows), and an event record with a digest's bit is refused. The same
 * events in version 8 carry their digests, also through JSON and back. */
static void test_digest_versions(void)
{
	struct mpiv_reqinfo made = {3, MPIV_NONE, MPIV_NONE, 0}, done = {3, 1, 5, 0x777};
	const char *path = tmp_path("rank-0.mpivt");
	char json[256];
	struct mpiv_tf_writer *w = calloc(1, sizeof(*w));
	struct mpiv_tf_header h;
	struct mpiv_rank_trace t, j;
	struct mpiv_event ev;
	struct bin b;
	size_t at;
	int version;

	CU_ASSERT_FATAL(w != NULL);
	snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
	for (version = MPIV_TRACE_VERSION_DATA - 1; version <= MPIV_TRACE_VERSION_DATA; version++) {
		int digests = version >= MPIV_TRACE_VERSION_DATA;

		memset(&b, 0, sizeof(b));
		memset(&h, 0, sizeof(h));
		h.version = (uint32_t)version;
		h.size = 2;
		b.len = b.hdrlen = mpiv_tf_encode_header(b.data, sizeof(b.data), &h);
		mpiv_tf_writer_start(&b.w, &h);
		irecv_event(&ev, 0, 1, 5, &made);
		at = b.len;
		bin_event(&b, &ev);
		/* the request: (zigzag(3) << 1), or << 2 with digests */
		CU_ASSERT_EQUAL(b.data[b.len - 1], digests ? 24 : 12);
		CU_ASSERT_EQUAL(b.len - at, 7);
		mpiv_event_init(&ev, MPIV_CALL_Send);
		ev.index = 1;
		ev.peer = 1;
		ev.tag = 0;
		ev.comm = MPIV_COMM_WORLD;
		ev.data = 0x55;
		bin_event(&b, &ev);
		mpiv_event_init(&ev, MPIV_CALL_Wait);
		ev.index = 2;
		ev.nreqs = 1;
		ev.reqs = &done;
		bin_event(&b, &ev);
		bin_end(&b);
		bin_save(&b, b.len, path);
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &t, NULL), 0);
		CU_ASSERT_EQUAL_FATAL(t.nevents, 3);
		CU_ASSERT_EQUAL(t.events[0].reqs[0].req, 3);
		CU_ASSERT_EQUAL(t.events[1].data, digests ? 0x55 : 0);
		CU_ASSERT_EQUAL(t.events[2].reqs[0].req, 3);
		CU_ASSERT_EQUAL(t.events[2].reqs[0].src, 1);
		CU_ASSERT_EQUAL(t.events[2].reqs[0].tag, 5);
		CU_ASSERT_EQUAL(t.events[2].reqs[0].data, digests ? 0x777 : 0);
		/* through JSON and back */
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &t, NULL), 0);
		CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
		CU_ASSERT_EQUAL(j.events[1].data, t.events[1].data);
		CU_ASSERT_EQUAL(j.events[2].reqs[0].data, t.events[2].reqs[0].data);
		mpiv_rank_trace_release(&j);
		mpiv_rank_trace_release(&t);
	}
	/* version 7 with a record of version 8: a field it does not have */
	memset(&b, 0, sizeof(b));
	memset(&h, 0, sizeof(h));
	h.version = MPIV_TRACE_VERSION_DATA - 1;
	h.size = 2;
	b.len = b.hdrlen = mpiv_tf_encode_header(b.data, sizeof(b.data), &h);
	mpiv_event_init(&ev, MPIV_CALL_Send);
	ev.peer = 1;
	ev.tag = 0;
	ev.data = 0x55;
	b.len += mpiv_tf_encode_event(w, b.data + b.len, sizeof(b.data) - b.len, &ev);
	expect_error(&b, b.len, "unknown fields 0x20000 in an event record");
	free(w);
}

/* Paths and names are bytes: one that is not UTF-8 is written to JSON with U+FFFD for each
 * byte that cannot be written (before, Jansson refused the string, the module's path became
 * null, and the JSON trace did not read). */
static void test_json_not_utf8(void)
{
	const char *bin = tmp_path("rank-0.mpivt");
	char json[512];
	struct mpiv_rank_trace a, j;
	struct mpiv_event ev;
	struct bin b;

	bin_header(&b, 0, 1);
	bin_module(&b, 0, "/home/j\xfcrgen/app\xc3");
	mpiv_event_init(&ev, MPIV_CALL_Init);
	bin_event(&b, &ev);
	bin_end(&b);
	bin_save(&b, b.len, bin);
	snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
	CU_ASSERT_STRING_EQUAL(j.modules[0].path, "/home/j\xef\xbf\xbdrgen/app\xef\xbf\xbd");
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&j);
}

/* The top level of a JSON trace, and events' fields beyond their type, are checked too:
 * each error names its JSON path. */
static void test_json_fields(void)
{
#define HEAD "{\"format\":\"mpiverify-trace\",\"version\":1,\"rank\":0,\"size\":2,"
	static const struct {
		const char *doc;
		const char *text;
	} cases[] = {
		{HEAD "\"pid\":\"x\",\"events\":[]}", "pid: expected an integer"},
		{HEAD "\"thread_level\":9,\"events\":[]}",
		 "thread_level: expected 0 "
		 "(MPI_THREAD_SINGLE) to 3 (MPI_THREAD_MULTIPLE)"},
		{HEAD "\"truncated\":\"yes\",\"events\":[]}", "truncated: expected true or false"},
		{HEAD "\"host\":3,\"events\":[]}", "host: expected a string"},
		{HEAD "\"modules\":{},\"events\":[]}", "modules: expected an array"},
		{HEAD "\"modules\":[{\"id\":70000,\"path\":\"/a\"}],\"events\":[]}",
		 "modules[0].id: expected an integer from 0 to 65534"},
		{HEAD "\"modules\":[{\"id\":1,\"path\":\"/a\"},{\"id\":1,\"path\":\"/b\"}],"
		      "\"events\":[]}",
		 "module id 1 given twice"},
		{"{\"format\":\"mpiverify-trace\",\"version\":1,\"rank\":0,\"size\":4294967296,"
		 "\"events\":[]}",
		 "size: expected an integer above the rank"},
		{HEAD "\"events\":[{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"src\":-7}]}",
		 "events[0].src: -7, expected a world rank (0 to 1) or MPI_PROC_NULL"},
		{HEAD "\"events\":[{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"comm\":-5}]}",
		 "events[0].comm: -5, expected a communicator id"},
		{HEAD "\"events\":[{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,"
		      "\"incomplete\":1}]}",
		 "events[0].incomplete: expected true or false"},
		{HEAD "\"events\":[{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,"
		      "\"site\":{\"module\":65536,\"addr\":0}}]}",
		 "events[0].site: expected {\"module\": 0 to 65535"},
		{HEAD "\"events\":[{\"call\":\"MPI_Wait\",\"reqs\":[3]}]}",
		 "events[0].reqs[0]: expected an object"},
		{HEAD "\"events\":[{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":4294967296}]}]}",
		 "events[0].reqs[0].req: expected an integer"},
		{HEAD "\"events\":[{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":1,\"src\":\"a\"}]}]}",
		 "events[0].reqs[0].src: expected an integer"},
		{HEAD "\"events\":[{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":1,\"src\":-4}]}]}",
		 "events[0].reqs[0].src: -4, expected a world rank"},
		{HEAD "\"events\":[{\"call\":\"MPI_Win_start\",\"win\":0,\"group\":[1,2]}]}",
		 "events[0].group[1]: 2, expected a world rank (0 to 1)"},
		{HEAD "\"events\":[{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":0,"
		      "\"data\":4294967296}]}",
		 "events[0].data: expected a digest (an integer from 0 to 4294967295)"},
		{HEAD "\"events\":[{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"rdata\":-1}]}",
		 "events[0].rdata: expected a digest"},
		{HEAD "\"events\":[{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":0,\"rdata\":3}]}",
		 "events[0].rdata: 3, expected 0 (only a blocking receive has the digest"},
		{HEAD "\"events\":[{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":1,\"data\":\"x\"}]}]}",
		 "events[0].reqs[0].data: expected a digest"},
		{HEAD "\"events\":[{\"call\":\"MPI_Testany\",\"reqs\":[{\"req\":1,\"data\":7}],"
		      "\"pending\":1}]}",
		 "events[0].reqs[0].data: 7, expected 0"},
	};
#undef HEAD
	const char *path = tmp_path("rank-0.json");
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_file(path, cases[i].doc);
		mpiv_error_init(&err);
		CU_ASSERT_EQUAL(mpiv_trace_load_json(path, &t, &err), -1);
		CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
		if (!strstr(err.text, cases[i].text))
			fprintf(stderr, "\nerror '%s' does not say '%s'\n", err.text,
				cases[i].text);
		CU_ASSERT(strstr(err.text, cases[i].text) != NULL);
	}
}

/* meta.json: a version this mpiverify does not know is refused (before, any was read as
 * version 1), and so are fields of the wrong type. */
static void test_meta(void)
{
#define META "{\"format\":\"mpiverify-meta\",\"command\":[\"mpirun\"],"
	static const struct {
		const char *doc;
		const char *text; /* NULL: it loads */
	} cases[] = {
		{META "\"version\":1,\"exit_status\":0,\"hung\":false,\"cwd\":\"/x\"}", NULL},
		{META "\"version\":3}", "version: this mpiverify reads versions 1 to 2"},
		{META "\"exit_status\":0}", "version: this mpiverify reads versions 1 to 2"},
		{META "\"version\":1,\"exit_status\":300}",
		 "exit_status: expected -1 (unknown) to 255"},
		{META "\"version\":1,\"hung\":\"no\"}", "hung: expected true or false"},
		{META "\"version\":1,\"cwd\":[]}", "cwd: expected a string"},
	};
#undef META
	const char *path = tmp_path("meta.json");
	struct mpiv_error err;
	struct mpiv_meta m;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_file(path, cases[i].doc);
		mpiv_error_init(&err);
		if (!cases[i].text) {
			CU_ASSERT_EQUAL(mpiv_meta_load(path, &m, &err), 0);
			CU_ASSERT_STRING_EQUAL(m.cwd, "/x");
			mpiv_meta_release(&m);
			continue;
		}
		CU_ASSERT_EQUAL(mpiv_meta_load(path, &m, &err), -1);
		CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
		if (!strstr(err.text, cases[i].text))
			fprintf(stderr, "\nerror '%s' does not say '%s'\n", err.text,
				cases[i].text);
		CU_ASSERT(strstr(err.text, cases[i].text) != NULL);
	}
}

static void bin_comm(struct bin *b, uint32_t event, int32_t id, uint32_t n, const int32_t *members)
{
	size_t len = mpiv_tf_encode_comm(b->data + b->len, sizeof(b->data) - b->len, event, id, n,
					 members);

	CU_ASSERT_FATAL(len > 0);
	b->len += len;
	bin_mark(b);
}

/* Rank 2 of 4: MPI_Comm_split gives it communicator 2 of world ranks 3 and 2 (in that order),
 * then an MPI_Barrier on it. */
static void comm_trace(struct bin *b)
{
	static const int32_t members[] = {3, 2};
	struct mpiv_event ev;

	bin_header(b, 2, 4);
	mpiv_event_init(&ev, MPIV_CALL_Init);
	bin_event(b, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Comm_split);
	ev.index = 1;
	ev.comm = MPIV_COMM_WORLD;
	bin_event(b, &ev);
	bin_comm(b, 1, 2, 2, members);
	mpiv_event_init(&ev, MPIV_CALL_Barrier);
	ev.index = 2;
	ev.comm = 2;
	bin_event(b, &ev);
	bin_end(b);
}

static void assert_comm_trace(const struct mpiv_rank_trace *t)
{
	const struct mpiv_newcomm *nc;

	CU_ASSERT_EQUAL_FATAL(t->nevents, 3);
	CU_ASSERT_EQUAL_FATAL(t->ncomms, 1);
	CU_ASSERT(mpiv_trace_newcomm(t, 0) == NULL);
	CU_ASSERT(mpiv_trace_newcomm(t, 2) == NULL);
	nc = mpiv_trace_newcomm(t, 1);
	CU_ASSERT_FATAL(nc != NULL);
	CU_ASSERT_EQUAL(nc->event, 1);
	CU_ASSERT_EQUAL(nc->id, 2);
	CU_ASSERT_EQUAL_FATAL(nc->n, 2);
	CU_ASSERT_EQUAL(nc->members[0], 3);
	CU_ASSERT_EQUAL(nc->members[1], 2);
	CU_ASSERT_EQUAL(t->events[1].comm, MPIV_COMM_WORLD);
	CU_ASSERT_EQUAL(t->events[2].comm, 2);
}

/* The communicator an event made: binary -> JSON -> binary keeps its id and members, and a
 * file cut inside its record is read up to the event before. */
static void test_comm_roundtrip(void)
{
	char bin[256], json[256], bin2[256];
	struct bin b;
	struct mpiv_rank_trace a, j, c;

	snprintf(bin, sizeof(bin), "%s/rank-2.mpivt", unit_tmpdir());
	snprintf(json, sizeof(json), "%s/rank-2.json", unit_tmpdir());
	snprintf(bin2, sizeof(bin2), "%s/copy.mpivt", unit_tmpdir());
	comm_trace(&b);
	bin_save(&b, b.len, bin);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	assert_comm_trace(&a);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
	assert_comm_trace(&j);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_bin(bin2, &j, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin2, &c, NULL), 0);
	assert_comm_trace(&c);
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&j);
	mpiv_rank_trace_release(&c);
	/* cut one byte short of the comm record's end: the split is there, its comm not */
	bin_save(&b, b.ends[2] - 1, bin);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	CU_ASSERT(a.truncated);
	CU_ASSERT_EQUAL(a.nevents, 2);
	CU_ASSERT_EQUAL(a.ncomms, 0);
	mpiv_rank_trace_release(&a);
}

static void bin_thread(struct bin *b, int op, int32_t self, int32_t other)
{
	struct mpiv_thread_op t = {op, self, other, 0};
	size_t n = mpiv_tf_encode_thread(b->data + b->len, sizeof(b->data) - b->len, &t);

	CU_ASSERT_FATAL(n > 0);
	b->len += n;
	bin_mark(b);
}

/* Thread 0 makes event 0, creates thread 1, which makes event 1 and ends, and joins it. */
static void thread_trace(struct bin *b)
{
	struct mpiv_event ev;

	bin_header(b, 0, 2);
	recv_event(&ev);
	ev.index = 0;
	bin_event(b, &ev);
	bin_thread(b, MPIV_THREAD_CREATE, 0, 1);
	ev.index = 1;
	ev.thread = 1;
	bin_event(b, &ev);
	bin_thread(b, MPIV_THREAD_EXIT, 1, 1);
	bin_thread(b, MPIV_THREAD_JOIN, 0, 1);
	bin_end(b);
}

static void assert_thread_trace(const struct mpiv_rank_trace *t)
{
	CU_ASSERT_EQUAL_FATAL(t->nthread_ops, 3);
	CU_ASSERT_EQUAL(t->thread_ops[0].op, MPIV_THREAD_CREATE);
	CU_ASSERT_EQUAL(t->thread_ops[0].self, 0);
	CU_ASSERT_EQUAL(t->thread_ops[0].other, 1);
	CU_ASSERT_EQUAL(t->thread_ops[0].before, 1);
	CU_ASSERT_EQUAL(t->thread_ops[1].op, MPIV_THREAD_EXIT);
	CU_ASSERT_EQUAL(t->thread_ops[1].self, 1);
	CU_ASSERT_EQUAL(t->thread_ops[2].op, MPIV_THREAD_JOIN);
	CU_ASSERT_EQUAL(t->thread_ops[2].before, 2);
}

/* Thread records: binary -> JSON -> binary keeps them where they were; bad ones refused. */
static void test_thread_records(void)
{
	char bin[256], json[256], bin2[256];
	struct bin b;
	struct mpiv_rank_trace a, j, c;
	struct mpiv_error err;
	struct mpiv_event ev;
	FILE *f;

	snprintf(bin, sizeof(bin), "%s/rank-0.mpivt", unit_tmpdir());
	snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
	snprintf(bin2, sizeof(bin2), "%s/copy.mpivt", unit_tmpdir());
	thread_trace(&b);
	bin_save(&b, b.len, bin);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	assert_thread_trace(&a);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &j, NULL), 0);
	assert_thread_trace(&j);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_bin(bin2, &j, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_records(bin2, &c, NULL), 0);
	assert_thread_trace(&c);
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&j);
	mpiv_rank_trace_release(&c);
	/* a thread created twice; one joining itself; a kind no reader knows */
	bin_header(&b, 0, 1);
	bin_thread(&b, MPIV_THREAD_CREATE, 0, 1);
	bin_thread(&b, MPIV_THREAD_CREATE, 2, 1);
	expect_error(&b, b.len, "thread 1 created twice");
	bin_header(&b, 0, 2);
	recv_event(&ev);
	ev.index = 0;
	bin_event(&b, &ev);
	b.data[b.len++] = MPIV_TF_THREAD;
	b.data[b.len++] = MPIV_THREAD_JOIN;
	b.data[b.len++] = 3;
	b.data[b.len++] = 3;
	expect_error(&b, b.len, "thread record of thread 3 joining itself");
	bin_header(&b, 0, 1);
	b.data[b.len++] = MPIV_TF_THREAD;
	b.data[b.len++] = MPIV_THREAD_EXIT;
	b.data[b.len++] = 2;
	b.data[b.len++] = 3;
	expect_error(&b, b.len, "exit record of thread 2 naming another, thread 3");
	bin_header(&b, 0, 1);
	b.data[b.len++] = MPIV_TF_THREAD;
	b.data[b.len++] = 7;
	b.data[b.len++] = 0;
	b.data[b.len++] = 1;
	expect_error(&b, b.len, "thread record of an unknown kind 7");
	/* JSON: out of order, and a record after the events */
	f = fopen(json, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("{\"format\": \"mpiverify-trace\", \"version\": 1, \"rank\": 0, \"size\": 1, "
	      "\"events\": [{\"call\": \"MPI_Init\"}], \"threads\": [{\"op\": \"create\", "
	      "\"thread\": 0, \"other\": 1, \"before\": 2}]}",
	      f);
	fclose(f);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_json(json, &a, &err), -1);
	CU_ASSERT(strstr(err.text, "threads[0]: a thread record out of order") != NULL);
}

/* Comm records that cannot be right are refused, naming what is wrong. */
static void test_comm_errors(void)
{
	static const int32_t outside[] = {2, 4}, noself[] = {0, 1}, twice[] = {2, 2};
	static const struct {
		uint32_t event;
		int32_t id;
		const int32_t *members; /* two */
		const char *text;
	} after_split[] = {
		{5, 2, noself, "comm record of event 5, but only 2 were written"},
		{1, 2, outside, "member 4 of communicator 2 is not a rank of a world of 4"},
		{1, 2, noself, "does not have its own rank 2 as a member"},
		{1, 2, twice, "rank 2 is twice a member of communicator 2"},
		{1, 1, outside, "new communicator id 1"},
	};
	size_t i;
	struct bin b;
	struct mpiv_event ev;
	char path[256];
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	FILE *f;

	comm_trace(&b);
	b.len = b.ends[3]; /* after the barrier, before the end */
	bin_comm(&b, 2, 3, 2, noself);
	expect_error(&b, b.len, "event 2, MPI_Barrier, which does not make one");
	/* records after the split, each on its own */
	for (i = 0; i < sizeof(after_split) / sizeof(after_split[0]); i++) {
		comm_trace(&b);
		b.len = b.ends[1];
		bin_comm(&b, after_split[i].event, after_split[i].id, 2, after_split[i].members);
		expect_error(&b, b.len, after_split[i].text);
	}
	/* the same id from two calls */
	comm_trace(&b);
	b.len = b.ends[2];
	b.w.nevents = (uint32_t)b.nevents[2];
	mpiv_event_init(&ev, MPIV_CALL_Comm_dup);
	ev.index = 2;
	ev.comm = MPIV_COMM_WORLD;
	bin_event(&b, &ev);
	bin_comm(&b, 2, 2, 1, twice);
	expect_error(&b, b.len, "communicator id 2 made twice");
	/* JSON: newcomm without members */
	snprintf(path, sizeof(path), "%s/rank-0.json", unit_tmpdir());
	f = fopen(path, "w");
	fprintf(f, "{\"format\":\"mpiverify-trace\",\"version\":1,\"rank\":0,\"size\":1,"
		   "\"events\":[{\"call\":\"MPI_Comm_dup\",\"comm\":0,\"newcomm\":2}]}");
	fclose(f);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_json(path, &t, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.text, "events[0].members: expected an array of world ranks");
}

static void test_traceset_errors(void)
{
	struct mpiv_traceset ts;
	struct mpiv_error err;
	const char *dir = unit_tmpdir();

	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_traceset_load("/nonexistent/trace", &ts, &err), -1);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_traceset_load(dir, &ts, &err), -1);
	CU_ASSERT(strstr(err.text, "no trace in directory") != NULL);
}

/* The file at path read both ways (events decoded, or kept as records) gives the same trace:
 * every event in order, backwards and in a scattered order (through the decoded slots, the
 * marks and a read in order), and what the readers note of them. */
static void assert_same_both_ways(const char *path)
{
	struct mpiv_rank_trace a, r;
	size_t i, k;

	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_records(path, &r, NULL), 0);
	CU_ASSERT(r.events == NULL && r.store != NULL);
	CU_ASSERT_EQUAL_FATAL(a.nevents, r.nevents);
	CU_ASSERT_EQUAL(a.truncated, r.truncated);
	CU_ASSERT_EQUAL(a.incomplete, r.incomplete);
	CU_ASSERT_EQUAL(a.ncomms, r.ncomms);
	CU_ASSERT_EQUAL(a.nmodules, r.nmodules);
	CU_ASSERT_EQUAL(a.end, r.end);
	CU_ASSERT(a.kinds == r.kinds && a.call_flags == r.call_flags && a.threaded == r.threaded);
	for (i = 0; i < a.nevents; i++) {
		assert_same_event(&a.events[i], mpiv_trace_event(&r, i));
		CU_ASSERT_EQUAL(a.events[i].repeat, mpiv_trace_event(&r, i)->repeat);
	}
	for (i = a.nevents; i-- > 0;)
		assert_same_event(&a.events[i], mpiv_trace_event(&r, i));
	for (k = 0; k < 4 * a.nevents; k++) {
		i = (k * 7919 + k / 3) % a.nevents;
		assert_same_event(&a.events[i], mpiv_trace_event(&r, i));
	}
	/* every slot of the ring holds what it held until it is taken again */
	if (a.nevents > MPIV_TRACE_SLOTS) {
		const struct mpiv_event *held[MPIV_TRACE_SLOTS];

		for (k = 0; k < MPIV_TRACE_SLOTS; k++)
			held[k] = mpiv_trace_event(&r, a.nevents - 1 - 3 * k % a.nevents);
		for (k = 0; k < MPIV_TRACE_SLOTS; k++)
			assert_same_event(&a.events[a.nevents - 1 - 3 * k % a.nevents], held[k]);
	}
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&r);
}

/* A trace kept as records reads as the same events as one decoded: the small traces (a call
 * written again, repeats, communicators), each cut at every record, and a long random one,
 * whose file is many times what a read holds of it (filemap.c), so that the pages the reader
 * and the store passed are dropped and read again. */
static void test_records(void)
{
	enum { N = 60000 };
	static const int32_t group[] = {1, 0, 2};
	struct mpiv_tf_writer *w = calloc(1, sizeof(*w));
	struct mpiv_tf_header h;
	struct mpiv_reqinfo reqs[4];
	size_t cap = MPIV_TF_HEADER_MAX + (size_t)N * (MPIV_TF_EVENT_MAX(4) + 16), len, k;
	unsigned char *buf = malloc(cap);
	const char *path = tmp_path("rank-0.mpivt");
	unsigned seed = 4242;
	int32_t next_req = 0;
	struct bin b;
	int tr;

	for (tr = 0; tr < 3; tr++) {
		if (tr == 0)
			small_trace(&b);
		else if (tr == 1)
			polling_trace(&b);
		else
			comm_trace(&b);
		for (k = 0; k < b.nrec; k++) {
			bin_save(&b, b.ends[k], path);
			assert_same_both_ways(path);
		}
	}
	/* many events: requests made and completed, failed polls repeated, groups, another
	 * thread now and then, a call written incomplete and again when it returned */
	CU_ASSERT_FATAL(w && buf);
	memset(&h, 0, sizeof(h));
	h.version = MPIV_TRACE_VERSION;
	h.size = 4;
	h.thread_level = 3;
	len = mpiv_tf_encode_header(buf, cap, &h);
	for (k = 0; k < N; k++) {
		struct mpiv_event ev;
		unsigned what = (unsigned)rand_r(&seed) % 10;
		size_t n;

		mpiv_event_init(&ev, MPIV_CALL_Isend);
		ev.index = w->nevents;
		ev.site = MPIV_SITE(0, 0x100 + 16 * (rand_r(&seed) % 40));
		if (what < 4) {
			ev.call = what < 2 ? MPIV_CALL_Isend : MPIV_CALL_Irecv;
			ev.peer = rand_r(&seed) % 4;
			ev.tag = rand_r(&seed) % 3;
			ev.comm = MPIV_COMM_WORLD;
			ev.bytes = 8;
			reqs[0].req = next_req++;
			reqs[0].src = reqs[0].tag = MPIV_NONE;
			ev.nreqs = 1;
			ev.reqs = reqs;
		} else if (what < 6) {
			ev.call = MPIV_CALL_Waitall;
			ev.nreqs = 1 + (uint32_t)(rand_r(&seed) % 4);
			for (n = 0; n < ev.nreqs; n++) {
				reqs[n].req = next_req - 1 - (int32_t)n;
				reqs[n].src = n % 2 ? 1 : MPIV_NONE;
				reqs[n].tag = n % 2 ? 0 : MPIV_NONE;
			}
			ev.reqs = reqs;
		} else if (what < 8) {
			ev.call = MPIV_CALL_Test; /* a failed poll, made again and again */
			reqs[0].req = next_req;
			reqs[0].src = reqs[0].tag = MPIV_NONE;
			ev.nreqs = 1;
			ev.npending = 1;
			ev.reqs = reqs;
		} else if (what == 8) {
			ev.call = MPIV_CALL_Win_post;
			ev.win = 0;
			ev.ngroup = 3;
			ev.group = (int32_t *)group;
		} else {
			ev.call = MPIV_CALL_Recv;
			ev.peer = MPIV_ANY_SOURCE;
			ev.tag = 0;
			ev.comm = MPIV_COMM_WORLD;
			ev.thread = rand_r(&seed) % 5 == 0;
			ev.flags = MPIV_EV_INCOMPLETE;
		}
		n = mpiv_tf_encode_event(w, buf + len, cap - len, &ev);
		CU_ASSERT_FATAL(n > 0);
		len += n;
		if (ev.call == MPIV_CALL_Test && rand_r(&seed) % 2)
			len += mpiv_tf_encode_repeat(buf + len, cap - len, 1 + rand_r(&seed) % 9,
						     &w->clock, 0);
		if (ev.call == MPIV_CALL_Recv) { /* it returned */
			ev.flags = 0;
			ev.src = 2;
			ev.mtag = 0;
			n = mpiv_tf_encode_event(w, buf + len, cap - len, &ev);
			CU_ASSERT_FATAL(n > 0);
			len += n;
		}
	}
	len += mpiv_tf_encode_end(buf + len, cap - len);
	{
		FILE *f = fopen(path, "wb");

		CU_ASSERT_FATAL(f != NULL);
		CU_ASSERT_EQUAL(fwrite(buf, 1, len, f), len);
		fclose(f);
	}
	assert_same_both_ways(path);
	free(buf);
	free(w);
}

/* This process's resident pages (/proc/self/statm), -1 if unknown. */
static long resident_pages(void)
{
	long size, res = -1;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &size, &res) != 2)
			res = -1;
		fclose(f);
	}
	return res;
}

/* A mapped file's pages that were read and then forgotten leave the process (what check
 * holds of a long trace is the part it reads), and read again they are the file's bytes. */
static void test_filemap_forget(void)
{
	enum { MB = 16 };
	const size_t len = (size_t)MB << 20;
	const char *path = tmp_path("mapped");
	struct mpiv_filemap m;
	unsigned char *buf = malloc(len);
	long page = sysconf(_SC_PAGESIZE), before, touched, after;
	size_t i, off;
	unsigned sum = 0, again = 0;
	FILE *f;

	CU_ASSERT_FATAL(buf != NULL);
	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 131 + i / 4099);
	f = fopen(path, "wb");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(fwrite(buf, 1, len, f), len);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(mpiv_map_file(path, &m), 0);
	CU_ASSERT_FATAL(m.mapped && m.len == len);
	before = resident_pages();
	for (i = 0; i < len; i += (size_t)page)
		sum += (unsigned char)m.data[i];
	touched = resident_pages();
	/* read in order, told of in steps, as the reader and the store tell it */
	for (off = 0; off < len; off += 4096)
		mpiv_map_forget(&m, off, off + 4096);
	after = resident_pages();
	CU_ASSERT(touched - before >= (long)(len / (size_t)page) * 9 / 10);
	CU_ASSERT(touched - after >= (long)(len / (size_t)page) * 9 / 10);
	/* read back, every byte, out of order */
	CU_ASSERT_EQUAL(memcmp(m.data + len / 2, buf + len / 2, len / 2), 0);
	CU_ASSERT_EQUAL(memcmp(m.data, buf, len / 2), 0);
	for (i = 0; i < len; i += (size_t)page)
		again += (unsigned char)m.data[i];
	CU_ASSERT_EQUAL(sum, again);
	mpiv_map_release(&m);
	CU_ASSERT(m.data == NULL);
	/* what cannot be mapped is read: an empty file, and a missing one fails */
	f = fopen(path, "wb");
	CU_ASSERT_FATAL(f != NULL);
	fclose(f);
	CU_ASSERT_EQUAL(mpiv_map_file(path, &m), 0);
	CU_ASSERT(!m.mapped && m.len == 0 && m.data != NULL);
	mpiv_map_forget(&m, 0, 0);
	mpiv_map_release(&m);
	unlink(path);
	CU_ASSERT_EQUAL(mpiv_map_file(path, &m), -1);
	free(buf);
}

/* In a child whose stderr goes to errpath: the file at path, loaded as records, written again
 * in place by another program: shrunk to nothing (shrink), else its records after the header
 * overwritten; then its events asked for. Returns the child's exit status, -1 if it did not
 * exit. */
static int changed_underneath(const char *path, const char *errpath, size_t hdrlen, int shrink)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct mpiv_rank_trace t;
		size_t i;
		FILE *f;

		if (!freopen(errpath, "w", stderr) || mpiv_trace_load_records(path, &t, NULL))
			_exit(100);
		if (shrink) {
			if (truncate(path, 0))
				_exit(101);
		} else {
			f = fopen(path, "r+b");
			if (!f || fseek(f, (long)hdrlen, SEEK_SET))
				_exit(102);
			for (i = hdrlen; i < 2048; i++)
				fputc(0xff, f);
			fclose(f);
		}
		for (i = 0; i < t.nevents; i++)
			(void)mpiv_trace_event(&t, i)->call;
		_exit(0); /* never read again: a test failure */
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A trace file that another program writes again while check reads it, shrunk or
 * overwritten, is bad input (exit 3) naming the file, not a crash. */
static void test_changed_underneath(void)
{
	char path[512], errpath[512], text[1024] = "";
	struct bin b;
	int shrink;
	FILE *f;

	snprintf(path, sizeof(path), "%s", tmp_path("rank-0.mpivt"));
	snprintf(errpath, sizeof(errpath), "%s", tmp_path("changed.err"));
	for (shrink = 0; shrink < 2; shrink++) {
		small_trace(&b);
		bin_save(&b, b.len, path);
		CU_ASSERT_EQUAL(changed_underneath(path, errpath, b.hdrlen, shrink), 3);
		f = fopen(errpath, "r");
		CU_ASSERT_FATAL(f != NULL);
		text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
		fclose(f);
		CU_ASSERT(strstr(text, path) && strstr(text, shrink ? "shrank" : "changed"));
	}
	unlink(path);
	unlink(errpath);
}

/* ---- record --last: restart records, and windows that start at one ---- */

static void bin_restart(struct bin *b)
{
	size_t n = mpiv_tf_encode_restart(&b->w, b->data + b->len, sizeof(b->data) - b->len);

	CU_ASSERT_FATAL(n > 0);
	b->len += n;
	bin_mark(b);
}

/* A communicator made before the restart it follows, by event 0, still in use: ranks 0 and 1,
 * id MPIV_COMM_FIRST_LOCAL. */
static void bin_comm_before(struct bin *b)
{
	static const int32_t members[] = {0, 1};
	size_t n = mpiv_tf_encode_comm(b->data + b->len, sizeof(b->data) - b->len, 0,
				       MPIV_COMM_FIRST_LOCAL, 2, members);

	CU_ASSERT_FATAL(n > 0);
	b->len += n;
	bin_mark(b);
}

/* A live record: request 100, made by an MPI_Recv_init from rank 1 with tag 5 before the
 * restart it follows. */
static void bin_live(struct bin *b)
{
	struct mpiv_event maker;
	size_t n;

	mpiv_event_init(&maker, MPIV_CALL_Recv_init);
	maker.peer = 1;
	maker.tag = 5;
	maker.comm = MPIV_COMM_WORLD;
	n = mpiv_tf_encode_live(b->data + b->len, sizeof(b->data) - b->len, 100, &maker);
	CU_ASSERT_FATAL(n > 0);
	b->len += n;
	bin_mark(b);
}

/* Rank 0 of 2 as record --last writes it: ROUNDS rounds of an Irecv and a Wait from two sites,
 * a restart (its module again, the live record of a persistent request made before the
 * rounds, and the comm record of a communicator made before them) every 4 rounds, the window's last call a blocked Recv. Sets *from to where the
 * restart before the last one starts, *first to its event. */
static void window_trace(struct bin *b, size_t *from, uint32_t *first)
{
	struct mpiv_reqinfo req = {0, MPIV_NONE, MPIV_NONE, 0};
	struct mpiv_event ev;
	int i;

	bin_header(b, 0, 2);
	bin_module(b, 0, "/bin/app");
	for (i = 0; i < 12; i++) {
		if (i && i % 4 == 0) {
			*from = b->len;
			*first = b->w.nevents;
			bin_restart(b);
			bin_module(b, 0, "/bin/app");
			bin_live(b);
			bin_comm_before(b);
		}
		req.req = i;
		irecv_event(&ev, b->w.nevents, 1, i, &req);
		ev.site = MPIV_SITE(0, 0x1000);
		bin_event(b, &ev);
		mpiv_event_init(&ev, MPIV_CALL_Wait);
		ev.index = b->w.nevents;
		ev.site = MPIV_SITE(0, 0x2000);
		ev.nreqs = 1;
		ev.reqs = &req;
		bin_event(b, &ev);
	}
	mpiv_event_init(&ev, MPIV_CALL_Recv);
	ev.index = b->w.nevents;
	ev.peer = 1;
	ev.tag = 99;
	ev.comm = MPIV_COMM_WORLD;
	ev.site = MPIV_SITE(0, 0x3000);
	ev.flags = MPIV_EV_INCOMPLETE;
	bin_event(b, &ev);
}

/* Every event of t from its first on is the round's Irecv or Wait, at its site, with its
 * request, and the last the blocked Recv. */
static void assert_window_events(const struct mpiv_rank_trace *t, uint32_t first)
{
	size_t i;

	CU_ASSERT_EQUAL(t->first, first);
	CU_ASSERT_EQUAL_FATAL(t->nevents, 25 - first);
	for (i = first; i + 1 < first + t->nevents; i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);

		CU_ASSERT_EQUAL(ev->index, i);
		CU_ASSERT_EQUAL(ev->call, i % 2 ? MPIV_CALL_Wait : MPIV_CALL_Irecv);
		CU_ASSERT_EQUAL(ev->site, MPIV_SITE(0, i % 2 ? 0x2000 : 0x1000));
		CU_ASSERT_EQUAL_FATAL(ev->nreqs, 1);
		CU_ASSERT_EQUAL(ev->reqs[0].req, (int32_t)(i / 2));
	}
	CU_ASSERT_EQUAL(mpiv_trace_event(t, 24)->call, MPIV_CALL_Recv);
	CU_ASSERT_EQUAL(mpiv_trace_event(t, 24)->site, MPIV_SITE(0, 0x3000));
	CU_ASSERT(t->incomplete);
	CU_ASSERT_EQUAL_FATAL(t->nmodules, 1);
	CU_ASSERT_STRING_EQUAL(t->modules[0].path, "/bin/app");
}

static void test_windows(void)
{
	const char *path = tmp_path("rank-0.mpivt");
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	static struct bin b, cut, b2;
	uint32_t first = 0;
	size_t from = 0;

	window_trace(&b, &from, &first);
	CU_ASSERT_EQUAL_FATAL(first, 16);
	/* the whole run, restarts in it: refused by default, read by mpiverify trace */
	bin_save(&b, b.len, path);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "record --last"));
	mpiv_trace_windows_read = 1;
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &t, &err), 0);
	assert_window_events(&t, 0);
	/* the whole run: every request and communicator was made in it */
	CU_ASSERT_EQUAL(t.nlive, 0);
	CU_ASSERT_EQUAL(t.ncomms, 0);
	mpiv_rank_trace_release(&t);
	/* the window: the header, then from the last restart but one */
	memcpy(&cut, &b, sizeof(cut));
	memcpy(cut.data + cut.hdrlen, b.data + from, b.len - from);
	cut.len = cut.hdrlen + (b.len - from);
	bin_save(&cut, cut.len, path);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &t, &err), 0);
	assert_window_events(&t, first);
	CU_ASSERT_EQUAL_FATAL(t.nlive, 1);
	CU_ASSERT_EQUAL(t.live[0].req, 100);
	CU_ASSERT_EQUAL(t.live[0].maker.call, MPIV_CALL_Recv_init);
	CU_ASSERT_EQUAL(t.live[0].maker.peer, 1);
	CU_ASSERT_EQUAL(t.live[0].maker.tag, 5);
	CU_ASSERT_EQUAL(t.live[0].maker.comm, MPIV_COMM_WORLD);
	CU_ASSERT_EQUAL_FATAL(t.ncomms, 1);
	CU_ASSERT_EQUAL(t.comms[0].event, 0);
	CU_ASSERT_EQUAL(t.comms[0].id, MPIV_COMM_FIRST_LOCAL);
	CU_ASSERT_EQUAL(t.comms[0].n, 2);
	mpiv_rank_trace_release(&t);
	/* the same window written as version 10, which had no live records */
	cut.data[MPIV_TRACE_MAGIC_LEN] = MPIV_TRACE_VERSION_LIVE - 1;
	bin_save(&cut, cut.len, path);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "live record in a trace of version 10"));
	cut.data[MPIV_TRACE_MAGIC_LEN] = MPIV_TRACE_VERSION;
	/* kept as records (check's way with large traces): never */
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_records(path, &t, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "record --last"));
	/* a restart's communicator made by an event of the window */
	{
		static const int32_t members[] = {0, 1};

		memcpy(&b2, &cut, sizeof(b2));
		b2.len = b2.hdrlen;
		b2.w.nevents = first;
		bin_restart(&b2);
		b2.len += mpiv_tf_encode_comm(b2.data + b2.len, sizeof(b2.data) - b2.len, first,
					      MPIV_COMM_FIRST_LOCAL, 2, members);
		bin_save(&b2, b2.len, path);
		mpiv_error_init(&err);
		CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "comm record of event 16, but only 16"));
	}
	/* a live record after an event: only a restart's may follow it */
	bin_live(&cut);
	bin_save(&cut, cut.len, path);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "a live record that does not follow a restart"));
	/* a restart that does not go on from the events before it */
	b.w.nevents += 3;
	bin_restart(&b);
	bin_save(&b, b.len, path);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "restart record at event 28, after 25 events"));
	mpiv_trace_windows_read = 0;
}

static CU_TestInfo trace_tests[] = {
	{"binary round trip", test_binary_roundtrip},
	{"binary: every field", test_every_field},
	{"binary: random events, records copied or encoded", test_random_events},
	{"binary: cut at every byte", test_truncated_everywhere},
	{"binary: garbage and malformed records", test_garbage},
	{"binary and json: runs of failed polls", test_poll_runs},
	{"binary and json: times", test_times},
	{"json: times checked", test_json_times},
	{"binary: every field range-checked", test_bad_fields},
	{"binary: header, modules and rewrites checked", test_bad_records},
	{"json round trip", test_json_roundtrip},
	{"json errors", test_json_errors},
	{"json: header and fields checked", test_json_fields},
	{"json: names that are not UTF-8", test_json_not_utf8},
	{"meta.json: version and fields checked", test_meta},
	{"trace set errors", test_traceset_errors},
	{"comm records round trip", test_comm_roundtrip},
	{"comm record errors", test_comm_errors},
	{"thread records: round trip, errors", test_thread_records},
	{"binary and json: neighbourhood collectives' groups", test_neighbor_group},
	{"binary and json: data digests, version 7 read as before", test_digest_versions},
	{"binary: kept as records, the same events", test_records},
	{"a mapped file's pages dropped once read", test_filemap_forget},
	{"record --last: restart and live records, windows", test_windows},
	{"a trace written again while it is read: bad input", test_changed_underneath},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo trace_suite = {"trace", NULL, NULL, NULL, NULL, trace_tests};
