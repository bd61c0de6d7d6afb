/* Encoding and decoding of binary rank traces, version 8 (doc/trace-format.md): LEB128 varints,
 * zigzag for signed fields, a presence mask per event so that a call carries only the fields
 * it uses, implicit event indices, call sites as indices into a table built as it goes, and
 * times as differences from the time before. */
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "tracefmt.h"

/* The presence mask of an event record: which fields follow, in this order. The most common
 * fields take the low seven bits, so that most masks are one byte (the data digests came
 * last: a record with one has a mask of three). */
enum tf_field {
	TF_SITE = 1 << 0,     /* index into the site table */
	TF_PEER = 1 << 1,     /* zigzag peer */
	TF_TAG = 1 << 2,      /* zigzag tag */
	TF_COMM = 1 << 3,     /* zigzag comm */
	TF_BYTES = 1 << 4,    /* bytes */
	TF_REQS = 1 << 5,     /* count, then each request (see put_req) */
	TF_MATCH = 1 << 6,    /* zigzag src, zigzag mtag: what a blocking receive matched */
	TF_THREAD = 1 << 7,   /* zigzag thread */
	TF_ROOT = 1 << 8,     /* zigzag root */
	TF_PEER2 = 1 << 9,    /* zigzag peer2 */
	TF_TAG2 = 1 << 10,    /* zigzag tag2 */
	TF_PENDING = 1 << 11, /* npending */
	TF_FLAGS = 1 << 12,   /* flags */
	TF_REPLACE = 1 << 13, /* the index of the earlier event this record replaces */
	TF_WIN = 1 << 14,     /* zigzag win: the window (one-sided calls) */
	TF_LOCK = 1 << 15,    /* zigzag lock type (MPI_Win_lock) */
	TF_GROUP = 1 << 16,   /* count, then each world rank as zigzag(rank - previous) */
	TF_DATA = 1 << 17,    /* data: the digest of what a send sent (version 8) */
	TF_RDATA = 1 << 18,   /* rdata: the digest of what a blocking receive took (version 8) */
	TF_ALL_V7 = (1 << 17) - 1, /* every field before version 8 */
	TF_ALL = (1 << 19) - 1,
};

/* The low bits of a request's first number: a src and a tag follow; a digest follows
 * (version 8, which shifts the id's difference by two bits instead of one). */
enum tf_req_bits {
	TF_REQ_STATUS = 1 << 0,
	TF_REQ_DATA = 1 << 1,
};

/* Whether a file of this version (0: MPIV_TRACE_VERSION) has data digests. */
static inline int has_digests(uint32_t version)
{
	return version == 0 || version >= MPIV_TRACE_VERSION_DATA;
}

/* ---- varints ---- */

static inline uint32_t zz_enc(int32_t v)
{
	return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
}

static inline int32_t zz_dec(uint32_t v)
{
	return (int32_t)((v >> 1) ^ (0u - (v & 1)));
}

/* The same for the difference of two 64-bit times (wrapping: any two times have one). */
static inline uint64_t zz_enc64(uint64_t v)
{
	return (v << 1) ^ (0 - (v >> 63));
}

static inline uint64_t zz_dec64(uint64_t v)
{
	return (v >> 1) ^ (0 - (v & 1));
}

static unsigned char *put_uv_long(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/* Most values are small: one byte, no loop. */
static inline unsigned char *put_uv(unsigned char *p, uint64_t v)
{
	if (__builtin_expect(v < 0x80, 1)) {
		*p = (unsigned char)v;
		return p + 1;
	}
	return put_uv_long(p, v);
}

static inline unsigned char *put_zz(unsigned char *p, int32_t v)
{
	return put_uv(p, zz_enc(v));
}

/* A bounded cursor over the bytes being decoded. */
struct tf_in {
	const unsigned char *p;	  /* next byte */
	const unsigned char *end; /* end of the file */
	int short_;		  /* ran past end: the file ends here */
	int bad;		  /* malformed: a varint too long for its field */
};

static uint64_t get_uv_long(struct tf_in *in, unsigned maxbits)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (in->p == in->end) {
			in->short_ = 1;
			return 0;
		}
		b = *in->p++;
		if (shift >= maxbits ||
		    (shift > 0 && maxbits - shift < 7 && (b & 0x7f) >> (maxbits - shift))) {
			in->bad = 1;
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

/* Most values are small, as when encoded: one byte (every field has 7 bits at least). */
static inline uint64_t get_uv(struct tf_in *in, unsigned maxbits)
{
	if (__builtin_expect(in->p < in->end && *in->p < 0x80, 1))
		return *in->p++;
	return get_uv_long(in, maxbits);
}

static uint32_t get_u32(struct tf_in *in)
{
	return (uint32_t)get_uv(in, 32);
}

static int32_t get_zz(struct tf_in *in)
{
	return zz_dec(get_u32(in));
}

/* ---- encoding ---- */

size_t mpiv_tf_encode_header(void *buf, size_t cap, const struct mpiv_tf_header *h)
{
	uint32_t version = h->version ? h->version : MPIV_TRACE_VERSION;
	unsigned char *p = buf;
	size_t n;

	if (cap < MPIV_TF_HEADER_MAX)
		return 0;
	memcpy(p, MPIV_TRACE_MAGIC, MPIV_TRACE_MAGIC_LEN);
	p += MPIV_TRACE_MAGIC_LEN;
	p = put_uv(p, version);
	p = put_zz(p, h->rank);
	p = put_zz(p, h->size);
	p = put_zz(p, h->pid);
	p = put_zz(p, h->thread_level);
	n = strnlen(h->host, sizeof(h->host) - 1);
	p = put_uv(p, n);
	memcpy(p, h->host, n);
	p += n;
	n = strnlen(h->library, sizeof(h->library) - 1);
	p = put_uv(p, n);
	memcpy(p, h->library, n);
	p += n;
	p = put_uv(p, (uint64_t)(h->bsend_overhead > 0 ? h->bsend_overhead : 0));
	if (version < MPIV_TRACE_VERSION_TIME)
		return (size_t)(p - (unsigned char *)buf);
	p = put_uv(p, h->clock);
	if (h->clock != MPIV_CLOCK_NONE) {
		p = put_uv(p, h->origin);
		p = put_uv(p, h->realtime);
	}
	return (size_t)(p - (unsigned char *)buf);
}

void mpiv_tf_writer_start(struct mpiv_tf_writer *w, const struct mpiv_tf_header *h)
{
	w->version = h->version;
	w->clock.on = h->clock != MPIV_CLOCK_NONE;
	w->clock.last = h->origin;
}

void mpiv_tf_reader_start(struct mpiv_tf_reader *r, const struct mpiv_tf_header *h)
{
	r->version = h->version;
	r->clock.on = h->version >= MPIV_TRACE_VERSION_TIME && h->clock != MPIV_CLOCK_NONE;
	r->clock.last = h->origin;
}

/* An event's times at p (the file has a clock): enter, as the difference from the time
 * before, and leave as 1 + its difference from enter, 0 if the call had not returned. */
static unsigned char *put_times(unsigned char *p, struct mpiv_tf_clock *clock, uint64_t enter,
				uint64_t leave)
{
	p = put_uv(p, zz_enc64(enter - clock->last));
	if (leave && leave < enter)
		leave = enter; /* a clock never goes back */
	p = put_uv(p, leave ? leave - enter + 1 : 0);
	clock->last = leave ? leave : enter;
	return p;
}

size_t mpiv_tf_encode_module(void *buf, size_t cap, uint32_t id, const char *path)
{
	unsigned char *p = buf;
	size_t n = strlen(path);

	if (cap < MPIV_TF_MODULE_MAX(n))
		return 0;
	p = put_uv(p, MPIV_TF_MODULE);
	p = put_uv(p, id);
	p = put_uv(p, n);
	memcpy(p, path, n);
	return (size_t)(p + n - (unsigned char *)buf);
}

size_t mpiv_tf_encode_repeat(void *buf, size_t cap, uint64_t more, struct mpiv_tf_clock *clock,
			     uint64_t leave)
{
	unsigned char *p = buf;

	if (cap < MPIV_TF_REPEAT_MAX || more == 0)
		return 0;
	p = put_uv(p, MPIV_TF_REPEAT);
	p = put_uv(p, more);
	if (clock->on) {
		if (leave < clock->last)
			leave = clock->last;
		p = put_uv(p, leave - clock->last);
		clock->last = leave;
	}
	return (size_t)(p - (unsigned char *)buf);
}

size_t mpiv_tf_encode_end(void *buf, size_t cap)
{
	if (cap < MPIV_TF_END_MAX)
		return 0;
	*(unsigned char *)buf = MPIV_TF_END;
	return 1;
}

size_t mpiv_tf_encode_stop(void *buf, size_t cap, int how, int32_t code)
{
	unsigned char *p = buf;

	if (cap < MPIV_TF_STOP_MAX || how <= MPIV_END_UNKNOWN || how > MPIV_END_LAST)
		return 0;
	p = put_uv(p, MPIV_TF_STOP);
	p = put_uv(p, (uint64_t)how);
	p = put_zz(p, code);
	return (size_t)(p - (unsigned char *)buf);
}

size_t mpiv_tf_encode_restart(struct mpiv_tf_writer *w, void *buf, size_t cap)
{
	unsigned char *p = buf;

	if (cap < MPIV_TF_RESTART_MAX)
		return 0;
	p = put_uv(p, MPIV_TF_RESTART);
	p = put_uv(p, w->nevents);
	p = put_zz(p, w->last_req);
	if (w->clock.on)
		p = put_uv_long(p, w->clock.last);
	w->nsites = 0;
	w->copy_len = 0;
	memset(w->sites, 0, sizeof(w->sites));
	memset(w->memo, 0, sizeof(w->memo));
	return (size_t)(p - (unsigned char *)buf);
}

size_t mpiv_tf_encode_live(void *buf, size_t cap, int32_t req, const struct mpiv_event *maker)
{
	unsigned char *p = buf;

	if (cap < MPIV_TF_LIVE_MAX || maker->call >= MPIV_CALL__COUNT ||
	    !mpiv_call_name(maker->call))
		return 0;
	p = put_uv(p, MPIV_TF_LIVE);
	p = put_zz(p, req);
	p = put_uv(p, maker->call);
	p = put_zz(p, maker->peer);
	p = put_zz(p, maker->peer2);
	p = put_zz(p, maker->tag);
	p = put_zz(p, maker->comm);
	return (size_t)(p - (unsigned char *)buf);
}

size_t mpiv_tf_encode_thread(void *buf, size_t cap, const struct mpiv_thread_op *op)
{
	unsigned char *p = buf;

	if (cap < MPIV_TF_THREAD_MAX || op->op < MPIV_THREAD_CREATE || op->op > MPIV_THREAD_EXIT ||
	    op->self < 0 || op->other < 0)
		return 0;
	p = put_uv(p, MPIV_TF_THREAD);
	p = put_uv(p, (uint64_t)op->op);
	p = put_uv(p, (uint64_t)op->self);
	p = put_uv(p, (uint64_t)op->other);
	return (size_t)(p - (unsigned char *)buf);
}

size_t mpiv_tf_encode_comm(void *buf, size_t cap, uint32_t event, int32_t id, uint32_t n,
			   const int32_t *members)
{
	unsigned char *p = buf;
	uint32_t i;

	if (cap < MPIV_TF_COMM_MAX(n))
		return 0;
	p = put_uv(p, MPIV_TF_COMM);
	p = put_uv(p, event);
	p = put_zz(p, id);
	p = put_uv(p, n);
	for (i = 0; i < n; i++)
		p = put_uv(p, (uint32_t)members[i]);
	return (size_t)(p - (unsigned char *)buf);
}

/* A text field of a reduction record: its length, then its bytes (no NUL). */
static unsigned char *put_text(unsigned char *p, const char *s)
{
	size_t n = strnlen(s, MPIV_RED_TEXT - 1);

	p = put_uv(p, n);
	memcpy(p, s, n);
	return p + n;
}

/* A double as the uvarint of its bits (IEEE 754 binary64). */
static unsigned char *put_double(unsigned char *p, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	return put_uv(p, bits);
}

size_t mpiv_tf_encode_reduction(void *buf, size_t cap, const struct mpiv_reduction *r)
{
	unsigned char *p = buf;

	if (cap < MPIV_TF_REDUCE_MAX)
		return 0;
	p = put_uv(p, MPIV_TF_REDUCE);
	p = put_uv(p, r->event);
	p = put_uv(p, r->done);
	p = put_uv(p, (uint32_t)r->what);
	p = put_uv(p, r->flags);
	p = put_zz(p, r->peer);
	p = put_zz(p, r->code);
	p = put_uv(p, r->count);
	p = put_uv(p, r->differ);
	p = put_uv(p, r->first);
	p = put_double(p, r->rel);
	p = put_double(p, r->allowed);
	p = put_text(p, r->type);
	p = put_text(p, r->elem);
	p = put_text(p, r->op);
	p = put_text(p, r->got);
	p = put_text(p, r->want);
	p = put_text(p, r->why);
	return (size_t)(p - (unsigned char *)buf);
}

/* The site table index of site, writing its site record at *pp the first time. */
static uint32_t site_index(struct mpiv_tf_writer *w, uint64_t site, unsigned char **pp)
{
	unsigned i = (unsigned)((site * 0x9e3779b97f4a7c15ULL) >> 52) & (MPIV_TF_SITE_SLOTS - 1);
	unsigned probes;
	uint32_t index;

	/* At most a quarter of the slots are used, so that probes stay short. */
	for (probes = 0; probes < MPIV_TF_SITE_SLOTS; probes++) {
		if (w->sites[i].site == site)
			return w->sites[i].index;
		if (w->sites[i].site == 0)
			break;
		i = (i + 1) & (MPIV_TF_SITE_SLOTS - 1);
	}
	index = w->nsites++;
	*pp = put_uv(*pp, MPIV_TF_SITE);
	*pp = put_uv(*pp, MPIV_SITE_MODULE(site));
	*pp = put_uv(*pp, MPIV_SITE_ADDR(site));
	if (w->sites[i].site == 0 && index < MPIV_TF_SITE_SLOTS / 4) {
		w->sites[i].site = site;
		w->sites[i].index = index;
	}
	return index;
}

/* A request: its id as the difference from the last id written (ids mostly come in order),
 * shifted left by one, the low bit saying whether src and tag follow; with digests (version
 * 8), shifted by two, the second bit saying whether a digest follows them. */
static unsigned char *put_req(unsigned char *p, int32_t *last, const struct mpiv_reqinfo *r,
			      int digests)
{
	unsigned bits = r->src != MPIV_NONE || r->tag != MPIV_NONE ? TF_REQ_STATUS : 0;
	uint64_t id = zz_enc((int32_t)((uint32_t)r->req - (uint32_t)*last));

	if (digests && r->data)
		bits |= TF_REQ_DATA;
	p = put_uv(p, id << (1 + digests) | bits);
	*last = r->req;
	if (bits & TF_REQ_STATUS) {
		p = put_zz(p, r->src);
		p = put_zz(p, r->tag);
	}
	if (bits & TF_REQ_DATA)
		p = put_uv(p, r->data);
	return p;
}

/* The fields most calls do not use, from thread on, and the index of a replacement (else
 * the event takes the next index). Kept out of line: the common path stays short. */
static __attribute__((noinline)) unsigned char *
put_rare(unsigned char *p, struct mpiv_tf_writer *w, const struct mpiv_event *ev, unsigned *mask)
{
	*mask = 0;
	if (ev->thread) {
		p = put_zz(p, ev->thread);
		*mask |= TF_THREAD;
	}
	if (ev->root != MPIV_NONE) {
		p = put_zz(p, ev->root);
		*mask |= TF_ROOT;
	}
	if (ev->peer2 != MPIV_NONE) {
		p = put_zz(p, ev->peer2);
		*mask |= TF_PEER2;
	}
	if (ev->tag2 != MPIV_NONE) {
		p = put_zz(p, ev->tag2);
		*mask |= TF_TAG2;
	}
	if (ev->npending) {
		p = put_uv(p, ev->npending);
		*mask |= TF_PENDING;
	}
	if (ev->flags) {
		p = put_uv(p, ev->flags);
		*mask |= TF_FLAGS;
	}
	if (ev->index < w->nevents) {
		p = put_uv(p, ev->index);
		*mask |= TF_REPLACE;
	} else {
		w->nevents++;
	}
	if (ev->win != MPIV_NONE) {
		p = put_zz(p, ev->win);
		*mask |= TF_WIN;
	}
	if (ev->lock != MPIV_NONE) {
		p = put_zz(p, ev->lock);
		*mask |= TF_LOCK;
	}
	if (ev->ngroup) {
		int32_t prev = 0;
		uint32_t i;

		/* groups are mostly ascending: differences keep each rank to a byte */
		p = put_uv(p, ev->ngroup);
		for (i = 0; i < ev->ngroup; i++) {
			p = put_zz(p, (int32_t)((uint32_t)ev->group[i] - (uint32_t)prev));
			prev = ev->group[i];
		}
		*mask |= TF_GROUP;
	}
	return p;
}

/* Whether ev has a field of put_rare() or replaces an earlier event: one test for all. */
static inline int has_rare(const struct mpiv_tf_writer *w, const struct mpiv_event *ev)
{
	return ev->flags || !mpiv_event_rare_none(ev) || ev->index < w->nevents;
}

/* Encode ev (room checked, index valid). */
static size_t encode_event(struct mpiv_tf_writer *w, void *buf, const struct mpiv_event *ev)
{
	unsigned char *p = buf, *m;
	unsigned mask = 0, rare;
	uint32_t i;

	/* One pass: the fields go after a one-byte mask, which is moved out of their way in
	 * the rare case that it needs more. The site record, if any, goes first. */
	if (ev->site) {
		uint32_t site = site_index(w, ev->site, &p);

		p = put_uv(p, MPIV_TF_EVENT + (uint64_t)ev->call);
		m = p++;
		p = put_uv(p, site);
		mask = TF_SITE;
	} else {
		p = put_uv(p, MPIV_TF_EVENT + (uint64_t)ev->call);
		m = p++;
	}
	if (ev->peer != MPIV_NONE) {
		p = put_zz(p, ev->peer);
		mask |= TF_PEER;
	}
	if (ev->tag != MPIV_NONE) {
		p = put_zz(p, ev->tag);
		mask |= TF_TAG;
	}
	if (ev->comm != MPIV_NONE) {
		p = put_zz(p, ev->comm);
		mask |= TF_COMM;
	}
	if (ev->bytes) {
		p = put_uv(p, ev->bytes);
		mask |= TF_BYTES;
	}
	if (ev->nreqs) {
		int digests = has_digests(w->version);

		p = put_uv(p, ev->nreqs);
		for (i = 0; i < ev->nreqs; i++)
			p = put_req(p, &w->last_req, &ev->reqs[i], digests);
		mask |= TF_REQS;
	}
	if (ev->src != MPIV_NONE || ev->mtag != MPIV_NONE) {
		p = put_zz(p, ev->src);
		p = put_zz(p, ev->mtag);
		mask |= TF_MATCH;
	}
	/* The rest is rare: one test for all of it. */
	if (has_rare(w, ev)) {
		p = put_rare(p, w, ev, &rare);
		mask |= rare;
	} else {
		w->nevents++;
	}
	if ((ev->data | ev->rdata) && has_digests(w->version)) {
		if (ev->data) {
			p = put_uv(p, ev->data);
			mask |= TF_DATA;
		}
		if (ev->rdata) {
			p = put_uv(p, ev->rdata);
			mask |= TF_RDATA;
		}
	}
	if (mask < 0x80) {
		*m = (unsigned char)mask;
	} else {
		/* the one-sided fields and the digests need three */
		size_t extra = mask < 0x4000 ? 1 : 2;

		memmove(m + 1 + extra, m + 1, (size_t)(p - m - 1));
		put_uv_long(m, mask);
		p += extra;
	}
	return (size_t)(p - (unsigned char *)buf);
}

/* ---- remembered records (struct mpiv_tf_memo) ---- */

static inline struct mpiv_tf_memo *memo_slot(struct mpiv_tf_writer *w, uint64_t site)
{
	return &w->memo[((site * 0x9e3779b97f4a7c15ULL) >> 56) & (MPIV_TF_MEMO_SLOTS - 1)];
}

/* Whether the fields from call to bytes of ev are the ones m was made from: five words
 * compared at once (memcmp() might be a call). */
static inline int memo_key_same(const struct mpiv_tf_memo *m, const struct mpiv_event *ev)
{
	uint64_t a[5], b[5];

	_Static_assert(sizeof(a) == MPIV_EVENT_KEY_SIZE, "the key is five words");
	memcpy(a, m->key, sizeof(a));
	memcpy(b, ev, sizeof(b));
	return !((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]));
}

/* Whether m's record is what encoding ev, which has nothing rare, would write now: same
 * fields, same requests at the same distance from the last request id. */
static inline int memo_plain_same(const struct mpiv_tf_writer *w, const struct mpiv_tf_memo *m,
				  const struct mpiv_event *ev)
{
	int32_t last = w->last_req;
	uint32_t i;

	if (m->site != ev->site || m->nreqs != ev->nreqs || !memo_key_same(m, ev))
		return 0;
	for (i = 0; i < ev->nreqs; i++) {
		if (m->req_delta[i] != (int32_t)((uint32_t)ev->reqs[i].req - (uint32_t)last) ||
		    m->req_src[i] != ev->reqs[i].src || m->req_tag[i] != ev->reqs[i].tag ||
		    m->req_data[i] != ev->reqs[i].data)
			return 0;
		last = ev->reqs[i].req;
	}
	return 1;
}

/* Whether m's record is what encoding ev would write now: same fields, same requests at the
 * same distance from the last request id, nothing rare. */
static inline int memo_same(const struct mpiv_tf_writer *w, const struct mpiv_tf_memo *m,
			    const struct mpiv_event *ev)
{
	return !has_rare(w, ev) && memo_plain_same(w, m, ev);
}

/* Remember rec, len bytes just written for ev (its times left out), starting from request id
 * last (the writer's before ev), if ev is of the kind remembered. */
static void memo_keep(struct mpiv_tf_writer *w, const struct mpiv_event *ev, int32_t last,
		      const unsigned char *rec, size_t len)
{
	struct mpiv_tf_memo *m;
	uint32_t i;

	if (!ev->site || ev->nreqs > MPIV_TF_MEMO_REQS || len > MPIV_TF_MEMO_LEN)
		return;
	m = memo_slot(w, ev->site);
	memcpy(m->key, ev, MPIV_EVENT_KEY_SIZE);
	m->site = ev->site;
	m->nreqs = (uint8_t)ev->nreqs;
	for (i = 0; i < ev->nreqs; i++) {
		m->req_delta[i] = (int32_t)((uint32_t)ev->reqs[i].req - (uint32_t)last);
		m->req_src[i] = ev->reqs[i].src;
		m->req_tag[i] = ev->reqs[i].tag;
		m->req_data[i] = ev->reqs[i].data;
		last = ev->reqs[i].req;
	}
	m->len = (uint8_t)len;
	memcpy(m->rec, rec, len);
}

size_t mpiv_tf_encode_copy_untimed(struct mpiv_tf_writer *w, void *buf, const void *rec, size_t len,
				   const struct mpiv_event *ev)
{
	/* the whole room is ours: copy the most a record may be, the length is what counts */
	memcpy(buf, rec, MPIV_TF_MEMO_LEN);
	if (ev->nreqs)
		w->last_req = ev->reqs[ev->nreqs - 1].req;
	w->nevents++;
	return len;
}

size_t mpiv_tf_encode_copy(struct mpiv_tf_writer *w, void *buf, const void *rec, size_t len,
			   const struct mpiv_event *ev)
{
	mpiv_tf_encode_copy_untimed(w, buf, rec, len, ev);
	if (!w->clock.on)
		return len;
	return (size_t)(put_times((unsigned char *)buf + len, &w->clock, ev->enter, ev->leave) -
			(unsigned char *)buf);
}

/* Write m's record for ev at buf: the writer moves on as if ev had been encoded. */
static inline size_t memo_put(struct mpiv_tf_writer *w, const struct mpiv_tf_memo *m, void *buf,
			      const struct mpiv_event *ev)
{
	return mpiv_tf_encode_copy(w, buf, m->rec, m->len, ev);
}

size_t mpiv_tf_encode_plain(struct mpiv_tf_writer *w, void *buf, const struct mpiv_event *ev)
{
	const struct mpiv_tf_memo *m = memo_slot(w, ev->site);

	return memo_plain_same(w, m, ev) ? memo_put(w, m, buf, ev) : 0;
}

size_t mpiv_tf_encode_event(struct mpiv_tf_writer *w, void *buf, size_t cap,
			    const struct mpiv_event *ev)
{
	struct mpiv_tf_memo *m;
	uint32_t known;
	int32_t last;
	int plain;
	size_t n;

	w->copy_len = 0;
	if (cap < MPIV_TF_EVENT_MAX(ev->nreqs + ev->ngroup) || ev->index > w->nevents)
		return 0;
	if (ev->site) {
		m = memo_slot(w, ev->site);
		if (memo_same(w, m, ev)) {
			w->copy_len = m->len;
			return memo_put(w, m, buf, ev);
		}
	}
	/* Remembered if plain (no rare field, not a replacement) and written without its site
	 * record (the site is in the table: its index will not change). */
	plain = ev->site && !has_rare(w, ev);
	known = w->nsites;
	last = w->last_req;
	n = encode_event(w, buf, ev);
	if (plain && w->nsites == known) {
		memo_keep(w, ev, last, buf, n);
		if (n <= MPIV_TF_MEMO_LEN && ev->nreqs <= MPIV_TF_MEMO_REQS)
			w->copy_len = (uint32_t)n;
	}
	if (w->clock.on)
		n = (size_t)(put_times((unsigned char *)buf + n, &w->clock, ev->enter, ev->leave) -
			     (unsigned char *)buf);
	return n;
}

/* ---- decoding ---- */

long mpiv_tf_decode_header(const void *buf, size_t len, struct mpiv_tf_header *h, char *why,
			   size_t whysize)
{
	const unsigned char *b = buf;
	struct tf_in in = {b + MPIV_TRACE_MAGIC_LEN, b + len, 0, 0};
	uint64_t n;

	memset(h, 0, sizeof(*h));
	if (memcmp(b, MPIV_TRACE_MAGIC, len < MPIV_TRACE_MAGIC_LEN ? len : MPIV_TRACE_MAGIC_LEN)) {
		/* Version 1 files started with a record header, then the magic. */
		if (len >= 16 && !memcmp(b + 8, MPIV_TRACE_MAGIC, MPIV_TRACE_MAGIC_LEN))
			snprintf(why, whysize,
				 "trace format version 1, which this mpiverify no "
				 "longer reads (version %d): record the program again",
				 MPIV_TRACE_VERSION);
		else
			snprintf(why, whysize, "not an mpiverify trace (bad magic)");
		return -1;
	}
	if (len < MPIV_TRACE_MAGIC_LEN)
		return 0;
	h->version = get_u32(&in);
	if (!in.short_ && !in.bad &&
	    (h->version < MPIV_TRACE_VERSION_OLDEST || h->version > MPIV_TRACE_VERSION)) {
		snprintf(why, whysize, "trace format version %u, this mpiverify reads version %d",
			 h->version, MPIV_TRACE_VERSION);
		return -1;
	}
	h->rank = get_zz(&in);
	h->size = get_zz(&in);
	h->pid = get_zz(&in);
	h->thread_level = get_zz(&in);
	n = get_uv(&in, 64);
	if (!in.short_ && !in.bad && n >= sizeof(h->host))
		in.bad = 1;
	if (!in.short_ && !in.bad) {
		if ((size_t)(in.end - in.p) < n) {
			in.short_ = 1;
		} else {
			memcpy(h->host, in.p, n);
			in.p += n;
		}
	}
	n = get_uv(&in, 64);
	if (!in.short_ && !in.bad && n >= sizeof(h->library))
		in.bad = 1;
	if (!in.short_ && !in.bad) {
		if ((size_t)(in.end - in.p) < n) {
			in.short_ = 1;
		} else {
			memcpy(h->library, in.p, n);
			in.p += n;
		}
	}
	n = get_uv(&in, 31);
	h->bsend_overhead = (int64_t)n;
	if (h->version >= MPIV_TRACE_VERSION_TIME) {
		h->clock = get_u32(&in);
		if (!in.short_ && !in.bad && h->clock > MPIV_CLOCK_MONOTONIC) {
			snprintf(why, whysize, "not an mpiverify trace (unknown clock %u)",
				 h->clock);
			return -1;
		}
		if (h->clock != MPIV_CLOCK_NONE) {
			h->origin = get_uv(&in, 63);
			h->realtime = get_uv(&in, 63);
		}
	}
	if (in.bad) {
		snprintf(why, whysize, "not an mpiverify trace (malformed header)");
		return -1;
	}
	if (in.short_)
		return 0;
	if (h->rank < 0 || h->size <= 0 || h->rank >= h->size) {
		snprintf(why, whysize, "not an mpiverify trace (rank %d of a world of %d)", h->rank,
			 h->size);
		return -1;
	}
	return (long)(in.p - b);
}

/* Decode a comm record after its code: check its members, remember where they are. */
static void decode_comm(const struct mpiv_tf_reader *r, struct tf_in *in,
			struct mpiv_tf_record *rec, char *why, size_t whysize)
{
	uint32_t i, m;

	rec->comm_event = get_u32(in);
	rec->comm_id = get_zz(in);
	rec->nmembers = get_u32(in);
	if (in->short_ || in->bad)
		return;
	if (rec->comm_event >= r->nevents) {
		snprintf(why, whysize, "comm record of event %u, but only %u were written",
			 rec->comm_event, r->nevents);
		in->bad = 1;
		return;
	}
	/* Each member takes a byte at least: a count beyond the file is cut or garbage. */
	if (rec->nmembers > (size_t)(in->end - in->p)) {
		in->short_ = 1;
		return;
	}
	rec->members = in->p;
	for (i = 0; i < rec->nmembers && !in->short_ && !in->bad; i++) {
		m = get_u32(in);
		if (!in->short_ && !in->bad && m > INT32_MAX) {
			snprintf(why, whysize, "comm record with member %u", m);
			in->bad = 1;
		}
	}
}

/* A text field of a reduction record into out (MPIV_RED_TEXT bytes), NUL-terminated. */
static void get_text(struct tf_in *in, char *out, const char *field, char *why, size_t whysize)
{
	uint64_t n = get_uv(in, 32);

	if (in->short_ || in->bad)
		return;
	if ((size_t)(in->end - in->p) < n) {
		in->short_ = 1;
		return;
	}
	if (!mpiv_red_text_ok((const char *)in->p, n)) {
		snprintf(why, whysize,
			 "reduction record with a %s that is not printable text of "
			 "at most %d bytes",
			 field, MPIV_RED_TEXT - 1);
		in->bad = 1;
		return;
	}
	memcpy(out, in->p, n);
	out[n] = '\0';
	in->p += n;
}

static double get_double(struct tf_in *in)
{
	uint64_t bits = get_uv(in, 64);
	double v;

	memcpy(&v, &bits, sizeof(v));
	return v;
}

/* Decode a reduction record after its code, and check what needs no other record: its events
 * written already (done not before event), a known kind and flags, counts that agree, finite
 * tolerances. What the events are is the trace reader's to check (mpiv_trace_add_reduction). */
static void decode_reduction(const struct mpiv_tf_reader *r, struct tf_in *in,
			     struct mpiv_reduction *red, char *why, size_t whysize)
{
	red->event = get_u32(in);
	red->done = get_u32(in);
	red->what = (int32_t)get_u32(in);
	red->flags = get_u32(in);
	red->peer = get_zz(in);
	red->code = get_zz(in);
	red->count = get_uv(in, 64);
	red->differ = get_uv(in, 64);
	red->first = get_uv(in, 64);
	red->rel = get_double(in);
	red->allowed = get_double(in);
	get_text(in, red->type, "type", why, whysize);
	get_text(in, red->elem, "element type", why, whysize);
	get_text(in, red->op, "op", why, whysize);
	get_text(in, red->got, "library value", why, whysize);
	get_text(in, red->want, "reliable value", why, whysize);
	get_text(in, red->why, "reason", why, whysize);
	if (in->short_ || in->bad)
		return;
	in->bad = 1;
	if (r->version && r->version < MPIV_TRACE_VERSION_REDUCE)
		snprintf(why, whysize, "reduction record in a trace of version %u", r->version);
	else if (red->event >= r->nevents || red->done >= r->nevents)
		snprintf(why, whysize,
			 "reduction record of events %u and %u, but only %u were "
			 "written",
			 red->event, red->done, r->nevents);
	else if (red->done < red->event)
		snprintf(why, whysize, "reduction record checked at event %u, before its event %u",
			 red->done, red->event);
	else if (!mpiv_red_what_name(red->what))
		snprintf(why, whysize, "reduction record of an unknown kind %d", red->what);
	else if (red->flags & ~(uint32_t)MPIV_RED_FLAGS_ALL)
		snprintf(why, whysize, "reduction record with unknown flags 0x%x",
			 red->flags & ~(uint32_t)MPIV_RED_FLAGS_ALL);
	else if (red->what == MPIV_RED_MISMATCH &&
		 (red->differ == 0 || red->differ > red->count || red->first >= red->count))
		snprintf(why, whysize,
			 "reduction mismatch of %llu elements of %llu, the first at "
			 "%llu",
			 (unsigned long long)red->differ, (unsigned long long)red->count,
			 (unsigned long long)red->first);
	else if (!isfinite(red->rel) || red->rel < 0 || !isfinite(red->allowed) || red->allowed < 0)
		snprintf(why, whysize,
			 "reduction record with a tolerance that is not a finite "
			 "number >= 0");
	else
		in->bad = 0;
}

void mpiv_tf_comm_members(const struct mpiv_tf_record *rec, int32_t *out)
{
	/* decode_comm() checked them: the end is not needed */
	struct tf_in in = {rec->members, rec->members + (size_t)rec->nmembers * 5, 0, 0};
	uint32_t i;

	for (i = 0; i < rec->nmembers; i++)
		out[i] = (int32_t)get_u32(&in);
}

/* Decode the fields of an event record after its code. Returns 0, or -1 (in->short_ or
 * in->bad set, or why filled), or -2 (too many requests). */
static int decode_event(struct mpiv_tf_reader *r, struct tf_in *in, struct mpiv_tf_record *rec,
			struct mpiv_reqinfo *reqs, size_t maxreqs, int32_t *last_req,
			struct mpiv_tf_clock *clock, char *why, size_t whysize)
{
	struct mpiv_event *ev = &rec->ev;
	unsigned mask = get_u32(in);
	int digests = has_digests(r->version);
	unsigned all = digests ? TF_ALL : TF_ALL_V7;
	uint32_t i, site;

	if (in->short_ || in->bad)
		return -1;
	if (mask & ~all) {
		snprintf(why, whysize, "unknown fields 0x%x in an event record", mask & ~all);
		return -1;
	}
	if (mask & TF_SITE) {
		site = get_u32(in);
		if (!in->short_ && !in->bad && site >= r->nsites) {
			snprintf(why, whysize, "site %u of a site table of %zu", site, r->nsites);
			return -1;
		}
		if (!in->short_ && !in->bad)
			ev->site = r->sites[site];
	}
	if (mask & TF_PEER)
		ev->peer = get_zz(in);
	if (mask & TF_TAG)
		ev->tag = get_zz(in);
	if (mask & TF_COMM)
		ev->comm = get_zz(in);
	if (mask & TF_BYTES)
		ev->bytes = get_uv(in, 64);
	if (mask & TF_REQS) {
		ev->nreqs = get_u32(in);
		if (in->short_ || in->bad)
			return -1;
		/* Each request takes a byte at least: a count beyond the file is cut or garbage. */
		if (ev->nreqs > (size_t)(in->end - in->p)) {
			in->short_ = 1;
			return -1;
		}
		if (ev->nreqs > maxreqs)
			return -2;
		for (i = 0; i < ev->nreqs; i++) {
			uint64_t v = get_uv(in, 33 + digests);

			reqs[i].req = (int32_t)((uint32_t)*last_req +
						(uint32_t)zz_dec((uint32_t)(v >> (1 + digests))));
			*last_req = reqs[i].req;
			reqs[i].src = MPIV_NONE;
			reqs[i].tag = MPIV_NONE;
			reqs[i].data = 0;
			if (v & TF_REQ_STATUS) {
				reqs[i].src = get_zz(in);
				reqs[i].tag = get_zz(in);
			}
			if (digests && (v & TF_REQ_DATA))
				reqs[i].data = get_u32(in);
		}
	}
	if (mask & TF_MATCH) {
		ev->src = get_zz(in);
		ev->mtag = get_zz(in);
	}
	if (mask & TF_THREAD)
		ev->thread = get_zz(in);
	if (mask & TF_ROOT)
		ev->root = get_zz(in);
	if (mask & TF_PEER2)
		ev->peer2 = get_zz(in);
	if (mask & TF_TAG2)
		ev->tag2 = get_zz(in);
	if (mask & TF_PENDING)
		ev->npending = get_u32(in);
	if (mask & TF_FLAGS) {
		uint32_t f = get_u32(in);

		if (f > UINT16_MAX)
			in->bad = 1;
		ev->flags = (uint16_t)f;
	}
	ev->index = r->nevents;
	if (mask & TF_REPLACE) {
		ev->index = get_u32(in);
		if (!in->short_ && !in->bad && ev->index >= r->nevents) {
			snprintf(why, whysize,
				 "event record replaces event %u, but only %u were "
				 "written",
				 ev->index, r->nevents);
			return -1;
		}
		rec->replaces = 1;
	}
	if (mask & TF_WIN)
		ev->win = get_zz(in);
	if (mask & TF_LOCK)
		ev->lock = get_zz(in);
	if (mask & TF_GROUP) {
		ev->ngroup = get_u32(in);
		if (in->short_ || in->bad)
			return -1;
		/* a byte a member at least: a count beyond the file is cut or garbage */
		if (ev->ngroup > (size_t)(in->end - in->p)) {
			in->short_ = 1;
			return -1;
		}
		rec->group = in->p; /* mpiv_tf_group() decodes it */
		for (i = 0; i < ev->ngroup; i++)
			get_u32(in);
	}
	if (mask & TF_DATA)
		ev->data = get_u32(in);
	if (mask & TF_RDATA)
		ev->rdata = get_u32(in);
	if (clock->on) {
		uint64_t d;

		ev->enter = clock->last + zz_dec64(get_uv(in, 64));
		d = get_uv(in, 64);
		ev->leave = d ? ev->enter + (d - 1) : 0;
		clock->last = d ? ev->leave : ev->enter;
	}
	if (in->short_ || in->bad)
		return -1;
	if (ev->npending > ev->nreqs) {
		snprintf(why, whysize, "%u pending requests of %u", ev->npending, ev->nreqs);
		return -1;
	}
	ev->reqs = ev->nreqs ? reqs : NULL;
	return 0;
}

void mpiv_tf_group(const struct mpiv_tf_record *rec, int32_t *out)
{
	struct tf_in in = {rec->group, rec->group + 5 * (size_t)rec->ev.ngroup, 0, 0};
	int32_t prev = 0;
	uint32_t i;

	for (i = 0; i < rec->ev.ngroup; i++) {
		prev = (int32_t)((uint32_t)prev + (uint32_t)get_zz(&in));
		out[i] = prev;
	}
}

int mpiv_tf_is_repeat(const void *buf, size_t len)
{
	struct tf_in in = {buf, (const unsigned char *)buf + len, 0, 0};
	uint64_t code = get_uv(&in, 32);

	return !in.short_ && !in.bad && code == MPIV_TF_REPEAT;
}

long mpiv_tf_decode(struct mpiv_tf_reader *r, const void *buf, size_t len,
		    struct mpiv_tf_record *rec, struct mpiv_reqinfo *reqs, size_t maxreqs,
		    char *why, size_t whysize)
{
	struct tf_in in = {buf, (const unsigned char *)buf + len, 0, 0};
	int32_t last_req = r->last_req;
	struct mpiv_tf_clock clock = r->clock;
	uint64_t code, v;
	int rc = 0;

	why[0] = '\0';
	/* every field but the reduction finding, which is most of the record's size and only a
	 * reduction record fills (below): a reader of millions of events decodes many */
	memset(rec, 0, offsetof(struct mpiv_tf_record, red));
	memset((char *)rec + offsetof(struct mpiv_tf_record, red) + sizeof(rec->red), 0,
	       sizeof(*rec) - offsetof(struct mpiv_tf_record, red) - sizeof(rec->red));
	code = get_uv(&in, 32);
	if (in.short_)
		return 0;
	switch (code) {
	case MPIV_TF_END:
		rec->kind = MPIV_TF_END;
		break;
	case MPIV_TF_MODULE:
		rec->kind = MPIV_TF_MODULE;
		rec->module = get_u32(&in);
		v = get_uv(&in, 32);
		if (in.short_ || in.bad)
			break;
		if ((size_t)(in.end - in.p) < v) {
			in.short_ = 1;
			break;
		}
		if (v == 0 || memchr(in.p, '\0', v)) {
			snprintf(why, whysize, "malformed module record");
			return -1;
		}
		rec->path = (const char *)in.p;
		rec->pathlen = v;
		in.p += v;
		break;
	case MPIV_TF_SITE:
		rec->kind = MPIV_TF_SITE;
		v = get_uv(&in, 16);
		rec->site = MPIV_SITE(v, get_uv(&in, 48));
		if (!in.short_ && !in.bad && rec->site == 0) {
			snprintf(why, whysize, "site record of site 0");
			return -1;
		}
		break;
	case MPIV_TF_COMM:
		rec->kind = MPIV_TF_COMM;
		decode_comm(r, &in, rec, why, whysize);
		break;
	case MPIV_TF_STOP:
		rec->kind = MPIV_TF_STOP;
		rec->how = (int32_t)get_uv(&in, 8);
		rec->code = get_zz(&in);
		if (!in.short_ && !in.bad &&
		    (rec->how <= MPIV_END_UNKNOWN || rec->how > MPIV_END_LAST)) {
			snprintf(why, whysize, "stop record of an unknown kind %d", rec->how);
			return -1;
		}
		break;
	case MPIV_TF_THREAD:
		rec->kind = MPIV_TF_THREAD;
		rec->thread.op = (int32_t)get_uv(&in, 8);
		rec->thread.self = (int32_t)get_uv(&in, 31);
		rec->thread.other = (int32_t)get_uv(&in, 31);
		rec->thread.before = r->nevents;
		if (in.short_ || in.bad)
			break;
		if (r->version && r->version < MPIV_TRACE_VERSION_THREADS) {
			snprintf(why, whysize, "thread record in a trace of version %u",
				 r->version);
			return -1;
		}
		if (rec->thread.op < MPIV_THREAD_CREATE || rec->thread.op > MPIV_THREAD_EXIT) {
			snprintf(why, whysize, "thread record of an unknown kind %d",
				 rec->thread.op);
			return -1;
		}
		if ((rec->thread.op == MPIV_THREAD_EXIT) !=
		    (rec->thread.self == rec->thread.other)) {
			if (rec->thread.op == MPIV_THREAD_EXIT) {
				snprintf(why, whysize,
					 "exit record of thread %d naming another, thread %d",
					 rec->thread.self, rec->thread.other);
				return -1;
			}
			snprintf(why, whysize, "thread record of thread %d %s itself",
				 rec->thread.self,
				 rec->thread.op == MPIV_THREAD_CREATE ? "creating" : "joining");
			return -1;
		}
		break;
	case MPIV_TF_REDUCE:
		rec->kind = MPIV_TF_REDUCE;
		memset(&rec->red, 0, sizeof(rec->red));
		decode_reduction(r, &in, &rec->red, why, whysize);
		break;
	case MPIV_TF_RESTART:
		/* a window starts at its first (r->nevents is 0: nothing decoded yet); a later
		 * one continues the index (the site table is the caller's to clear) */
		rec->kind = MPIV_TF_RESTART;
		rec->first = (uint32_t)get_uv(&in, 32);
		last_req = get_zz(&in);
		if (clock.on)
			clock.last = get_uv(&in, 64);
		if (in.short_ || in.bad)
			break;
		if (r->version && r->version < MPIV_TRACE_VERSION_WINDOW) {
			snprintf(why, whysize, "restart record in a trace of version %u",
				 r->version);
			return -1;
		}
		if (r->nevents && rec->first != r->nevents) {
			snprintf(why, whysize, "restart record at event %u, after %u events",
				 rec->first, r->nevents);
			return -1;
		}
		r->nevents = rec->first;
		r->last_req = last_req;
		break;
	case MPIV_TF_LIVE:
		rec->kind = MPIV_TF_LIVE;
		rec->live_req = get_zz(&in);
		v = get_uv(&in, 16);
		if (in.short_ || in.bad)
			break;
		if (v >= MPIV_CALL__COUNT || !mpiv_call_name((unsigned)v) ||
		    mpiv_call_kind((unsigned)v) == MPIV_KIND_WAIT) {
			snprintf(why, whysize,
				 "live record of request %d made by call %llu, which "
				 "makes no request",
				 rec->live_req, (unsigned long long)v);
			return -1;
		}
		mpiv_event_init(&rec->ev, (unsigned)v);
		rec->ev.peer = get_zz(&in);
		rec->ev.peer2 = get_zz(&in);
		rec->ev.tag = get_zz(&in);
		rec->ev.comm = get_zz(&in);
		if (in.short_ || in.bad)
			break;
		if (r->version && r->version < MPIV_TRACE_VERSION_LIVE) {
			snprintf(why, whysize, "live record in a trace of version %u", r->version);
			return -1;
		}
		break;
	case MPIV_TF_REPEAT:
		rec->kind = MPIV_TF_REPEAT;
		rec->more = get_uv(&in, 64);
		if (!in.short_ && !in.bad && rec->more == 0) {
			snprintf(why, whysize, "repeat record of 0 times");
			return -1;
		}
		if (clock.on) {
			rec->leave = clock.last + get_uv(&in, 64);
			clock.last = rec->leave;
		}
		break;
	default:
		/* the list's numbers may have gaps: a number that is no call is unknown too */
		if (code < MPIV_TF_EVENT || code - MPIV_TF_EVENT >= MPIV_CALL__COUNT ||
		    !mpiv_call_name((unsigned)(code - MPIV_TF_EVENT))) {
			if (!in.bad)
				snprintf(why, whysize, "unknown record code %llu",
					 (unsigned long long)code);
			in.bad = 1;
			break;
		}
		rec->kind = MPIV_TF_EVENT;
		mpiv_event_init(&rec->ev, (unsigned)(code - MPIV_TF_EVENT));
		rc = decode_event(r, &in, rec, reqs, maxreqs, &last_req, &clock, why, whysize);
		break;
	}
	if (rc == -2)
		return -2;
	if (in.short_)
		return 0;
	if (in.bad || rc) {
		if (!why[0])
			snprintf(why, whysize,
				 "malformed record (a number too large for its field)");
		return -1;
	}
	if (rec->kind == MPIV_TF_EVENT) {
		r->last_req = last_req;
		if (!rec->replaces)
			r->nevents++;
	}
	r->clock = clock;
	return (long)(in.p - (const unsigned char *)buf);
}
