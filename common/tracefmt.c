/* Encoding and decoding of binary trace records (doc/trace-format.md). */
#include <string.h>

#include "tracefmt.h"

static size_t put_hdr(void *buf, uint32_t len, uint16_t type)
{
	struct mpiv_rec_hdr h = {len, type, 0};

	memcpy(buf, &h, sizeof(h));
	return sizeof(h);
}

size_t mpiv_rec_encode_event(void *buf, size_t cap, const struct mpiv_event *ev)
{
	struct mpiv_rec_event e;
	size_t len = sizeof(struct mpiv_rec_hdr) + sizeof(e) +
		     ev->nreqs * sizeof(struct mpiv_rec_req);
	char *p = buf;
	uint32_t i;

	if (len > cap)
		return 0;
	memset(&e, 0, sizeof(e));
	e.index = ev->index;
	e.call = ev->call;
	e.flags = ev->flags;
	e.peer = ev->peer;
	e.tag = ev->tag;
	e.comm = ev->comm;
	e.root = ev->root;
	e.src = ev->src;
	e.mtag = ev->mtag;
	e.thread = ev->thread;
	e.nreqs = ev->nreqs;
	e.bytes = ev->bytes;
	e.site = ev->site;
	p += put_hdr(p, (uint32_t)len, MPIV_REC_EVENT);
	memcpy(p, &e, sizeof(e));
	p += sizeof(e);
	for (i = 0; i < ev->nreqs; i++) {
		struct mpiv_rec_req r = {ev->reqs[i].req, ev->reqs[i].src, ev->reqs[i].tag};

		memcpy(p, &r, sizeof(r));
		p += sizeof(r);
	}
	return len;
}

size_t mpiv_rec_encode_module(void *buf, size_t cap, uint32_t id, const char *path)
{
	struct mpiv_rec_module m = {id, 0};
	size_t plen = strlen(path) + 1;
	size_t len = sizeof(struct mpiv_rec_hdr) + sizeof(m) + plen;
	char *p = buf;

	if (len > cap)
		return 0;
	p += put_hdr(p, (uint32_t)len, MPIV_REC_MODULE);
	memcpy(p, &m, sizeof(m));
	memcpy(p + sizeof(m), path, plen);
	return len;
}

size_t mpiv_rec_encode_header(void *buf, size_t cap, const struct mpiv_rec_header *h)
{
	size_t len = sizeof(struct mpiv_rec_hdr) + sizeof(*h);

	if (len > cap)
		return 0;
	put_hdr(buf, (uint32_t)len, MPIV_REC_HEADER);
	memcpy((char *)buf + sizeof(struct mpiv_rec_hdr), h, sizeof(*h));
	return len;
}

int mpiv_rec_decode_event(const void *rec, size_t len, struct mpiv_event *ev,
			  struct mpiv_reqinfo *reqs_out, size_t max)
{
	const char *p = (const char *)rec + sizeof(struct mpiv_rec_hdr);
	struct mpiv_rec_event e;
	uint32_t i;

	if (len < sizeof(struct mpiv_rec_hdr) + sizeof(e))
		return -1;
	memcpy(&e, p, sizeof(e));
	if (len != sizeof(struct mpiv_rec_hdr) + sizeof(e) + (size_t)e.nreqs * sizeof(struct mpiv_rec_req))
		return -1;
	if (e.nreqs > max)
		return -1;
	mpiv_event_init(ev, e.call);
	ev->index = e.index;
	ev->flags = e.flags;
	ev->peer = e.peer;
	ev->tag = e.tag;
	ev->comm = e.comm;
	ev->root = e.root;
	ev->src = e.src;
	ev->mtag = e.mtag;
	ev->thread = e.thread;
	ev->bytes = e.bytes;
	ev->site = e.site;
	ev->nreqs = e.nreqs;
	ev->reqs = reqs_out;
	p += sizeof(e);
	for (i = 0; i < e.nreqs; i++) {
		struct mpiv_rec_req r;

		memcpy(&r, p, sizeof(r));
		p += sizeof(r);
		reqs_out[i].req = r.req;
		reqs_out[i].src = r.src;
		reqs_out[i].tag = r.tag;
	}
	return 0;
}
