/* oracles: small random trace sets, the same for the same seed (oracles.h). Each is a few
 * messages between 2 to 4 ranks, with the receives in any order, some of them wildcards,
 * every send mode, nonblocking and persistent requests completed by waits (now and then by an
 * MPI_Waitany the trace says returned its first request), MPI_Sendrecv, probes, an attached
 * buffer, collectives in the same order on every rank (now and then with another root on
 * one; neighbourhood ones with random in-neighbours on each rank), now and then a rank whose
 * calls come from two threads (in half of them, the second created and joined by the first),
 * a window whose ranks lock
 * its targets around some of their calls, a rank whose trace stops before MPI_Finalize:
 * enough for deadlocks of every kind the model knows, and small enough for both searches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "oracles.h"

#define MAX_RANKS 4
#define MAX_ITEMS 64
#define BSEND_OVERHEAD 16

/* splitmix64: a seed gives the same stream everywhere */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n). */
static int rnd(uint64_t *s, int n)
{
	return (int)(next(s) % (uint64_t)n);
}

enum item_kind { SEND, RECV, SENDRECV, COLL };

/* One call of a rank, before its completions are placed. */
struct item {
	enum item_kind kind;
	const char *call; /* MPI_Send, MPI_Irecv, MPI_Bcast, ... */
	int peer;	  /* -1: MPI_ANY_SOURCE */
	int tag;	  /* -1: MPI_ANY_TAG */
	int bytes;
	int peer2, tag2; /* MPI_Sendrecv: its receive */
	int root;	 /* collectives: -1 none */
	unsigned in;	 /* neighbourhood collectives: the in-neighbours, a bit per rank */
	int nonblocking; /* it makes a request */
	int persistent;	 /* MPI_Send_init / MPI_Recv_init, then MPI_Start */
	int probe;	 /* a blocking receive: a probe first */
	int src, mtag;	 /* the message the recorded run received (for the probe) */
	int thread;	 /* the thread that calls it (0 unless the rank has two) */
};

struct rank {
	struct item items[MAX_ITEMS];
	int n;
	int bsend;   /* it makes a buffered send */
	int threads; /* 1, or 2 (MPI_THREAD_MULTIPLE) */
	/* two threads: thread 0 creates thread 1 right before its first call, and joins it
	 * before MPI_Finalize (thread records) */
	int order;
	int window;		/* it creates (and frees) window 0 with the others */
	int lock_from, lock_to; /* it holds a lock on window 0 around items [from, to); -1 */
	int lock_target, lock_exclusive;
	/* its trace ends after this many items, without MPI_Finalize;
	 * -1: it finishes */
	int stop;
};

/* The requests of one thread not completed yet. */
struct pending {
	int req[MAX_ITEMS];
	int n;
};

static void add(struct rank *r, struct item it)
{
	if (r->n < MAX_ITEMS)
		r->items[r->n++] = it;
}

static void peer_json(FILE *f, const char *key, int v)
{
	if (v < 0)
		fprintf(f, ", \"%s\": \"any\"", key);
	else
		fprintf(f, ", \"%s\": %d", key, v);
}

static void thread_json(FILE *f, const struct rank *r, int thread)
{
	if (r->threads > 1)
		fprintf(f, ", \"thread\": %d", thread);
}

/* Complete requests of thread t: a Wait for one, a Waitall for several (every one with all),
 * or a Waitany over the first two that the trace says returned the first (the other stays
 * pending). */
static void complete(FILE *f, uint64_t *s, const struct rank *r, int t, struct pending *p, int all)
{
	int n = all ? p->n : 1 + rnd(s, p->n), i;

	if (!all && p->n >= 2 && rnd(s, 6) == 0) {
		fprintf(f,
			",\n  {\"call\": \"MPI_Waitany\", \"reqs\": [{\"req\": %d}, {\"req\": %d}], "
			"\"pending\": 1",
			p->req[0], p->req[1]);
		thread_json(f, r, t);
		fprintf(f, "}");
		memmove(p->req, p->req + 1, (size_t)(p->n - 1) * sizeof(p->req[0]));
		p->n--;
		return;
	}
	fprintf(f, ",\n  {\"call\": \"%s\", \"reqs\": [", n == 1 ? "MPI_Wait" : "MPI_Waitall");
	for (i = 0; i < n; i++)
		fprintf(f, "%s{\"req\": %d}", i ? ", " : "", p->req[i]);
	fprintf(f, "]");
	thread_json(f, r, t);
	fprintf(f, "}");
	memmove(p->req, p->req + n, (size_t)(p->n - n) * sizeof(p->req[0]));
	p->n -= n;
}

static void write_item(FILE *f, const struct rank *r, const struct item *it, int req)
{
	if (it->probe) {
		fprintf(f, ",\n  {\"call\": \"MPI_Probe\"");
		peer_json(f, "peer", it->peer);
		peer_json(f, "tag", it->tag);
		fprintf(f, ", \"comm\": 0, \"src\": %d, \"mtag\": %d", it->src, it->mtag);
		thread_json(f, r, it->thread);
		fprintf(f, "}");
	}
	if (it->persistent) {
		/* the persistent request made, then started */
		fprintf(f, ",\n  {\"call\": \"%s\"",
			it->kind == SEND ? "MPI_Send_init" : "MPI_Recv_init");
		peer_json(f, "peer", it->peer);
		peer_json(f, "tag", it->tag);
		fprintf(f, ", \"bytes\": %d, \"comm\": 0, \"req\": %d", it->bytes, req);
		thread_json(f, r, it->thread);
		fprintf(f, "},\n  {\"call\": \"MPI_Start\", \"req\": %d", req);
		thread_json(f, r, it->thread);
		fprintf(f, "}");
		return;
	}
	fprintf(f, ",\n  {\"call\": \"%s\"", it->call);
	if (it->kind != COLL) {
		peer_json(f, "peer", it->peer);
		peer_json(f, "tag", it->tag);
		fprintf(f, ", \"bytes\": %d", it->bytes);
	}
	if (it->kind == SENDRECV) {
		peer_json(f, "peer2", it->peer2);
		peer_json(f, "tag2", it->tag2);
	}
	fprintf(f, ", \"comm\": 0");
	if (it->root >= 0)
		fprintf(f, ", \"root\": %d", it->root);
	if (it->kind == COLL && strstr(it->call, "eighbor")) {
		const char *sep = "";
		int k;

		fprintf(f, ", \"group\": [");
		for (k = 0; k < MAX_RANKS; k++)
			if (it->in & (1u << k)) {
				fprintf(f, "%s%d", sep, k);
				sep = ", ";
			}
		fprintf(f, "]");
	}
	if (it->nonblocking)
		fprintf(f, ", \"req\": %d", req);
	thread_json(f, r, it->thread);
	fprintf(f, "}");
}

/* The events written into f before offset at (each starts with {"call"). */
static int events_before(FILE *f, long at)
{
	long end = ftell(f);
	char *text = malloc((size_t)at + 1), *p;
	int n = 0;

	fflush(f);
	if (!text || fseek(f, 0, SEEK_SET) || fread(text, 1, (size_t)at, f) != (size_t)at) {
		free(text);
		fseek(f, end, SEEK_SET);
		return 0;
	}
	text[at] = '\0';
	for (p = text; (p = strstr(p, "{\"call\"")); p++)
		n++;
	free(text);
	fseek(f, end, SEEK_SET);
	return n;
}

static int write_rank(const char *dir, int me, int nranks, struct rank *r, uint64_t *s)
{
	char path[4096];
	struct pending pend[2];
	long create_at = -1, join_at;
	int nreq = 0, i, t;
	FILE *f;

	memset(pend, 0, sizeof(pend));
	snprintf(path, sizeof(path), "%s/rank-%d.json", dir, me);
	f = fopen(path, "w+");
	if (!f)
		return -1;
	fprintf(f,
		"{\"format\": \"mpiverify-trace\", \"version\": 1, \"rank\": %d, \"size\": %d, "
		"\"bsend_overhead\": %d, \"thread_level\": %d,\n \"events\": [\n"
		"  {\"call\": \"MPI_Init\"}",
		me, nranks, BSEND_OVERHEAD, r->threads > 1 ? 3 : 0);
	if (r->bsend)
		fprintf(f, ",\n  {\"call\": \"MPI_Buffer_attach\", \"bytes\": %d}",
			rnd(s, 2) ? 200 : 80);
	if (r->window)
		fprintf(f, ",\n  {\"call\": \"MPI_Win_create\", \"comm\": 0, \"win\": 0}");
	for (i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];

		if (i == r->stop)
			break; /* the rank stopped here: no more calls */
		if (r->order && it->thread == 1 && create_at < 0)
			create_at = ftell(f);
		if (i == r->lock_from)
			fprintf(f,
				",\n  {\"call\": \"MPI_Win_lock\", \"peer\": %d, \"win\": 0, "
				"\"lock\": \"%s\"}",
				r->lock_target, r->lock_exclusive ? "exclusive" : "shared");
		write_item(f, r, it, nreq);
		if (i + 1 == r->lock_to)
			fprintf(f, ",\n  {\"call\": \"MPI_Win_unlock\", \"peer\": %d, \"win\": 0}",
				r->lock_target);
		if (it->nonblocking || it->persistent) {
			struct pending *p = &pend[it->thread];

			p->req[p->n++] = nreq++;
		}
		t = r->threads > 1 ? rnd(s, 2) : 0;
		if (pend[t].n && rnd(s, 10) < 3)
			complete(f, s, r, t, &pend[t], 0);
	}
	if (r->stop >= 0) {
		fprintf(f, "\n ]}\n"); /* no MPI_Finalize: the rank stopped */
		return fclose(f) ? -1 : 0;
	}
	/* most requests are completed before the end; now and then one is left */
	for (t = 0; t < r->threads; t++)
		if (pend[t].n && rnd(s, 10) < 9)
			complete(f, s, r, t, &pend[t], 1);
	if (r->bsend && rnd(s, 2))
		fprintf(f, ",\n  {\"call\": \"MPI_Buffer_detach\"}");
	if (r->window)
		fprintf(f, ",\n  {\"call\": \"MPI_Win_free\", \"win\": 0}");
	join_at = ftell(f);
	fprintf(f, ",\n  {\"call\": \"MPI_Finalize\"}\n ]");
	if (r->order && create_at >= 0)
		fprintf(f,
			",\n \"threads\": [{\"op\": \"create\", \"thread\": 0, \"other\": 1, "
			"\"before\": %d}, {\"op\": \"join\", \"thread\": 0, \"other\": 1, "
			"\"before\": %d}]",
			events_before(f, create_at), events_before(f, join_at));
	fprintf(f, "}\n");
	return fclose(f) ? -1 : 0;
}

/* Shuffle the items of r. */
static void shuffle(struct rank *r, uint64_t *s)
{
	int i;

	for (i = r->n - 1; i > 0; i--) {
		int j = rnd(s, i + 1);
		struct item t = r->items[i];

		r->items[i] = r->items[j];
		r->items[j] = t;
	}
}

/* Merge a blocking send and a blocking receive of r, now and then, into one MPI_Sendrecv. */
static void make_sendrecv(struct rank *r, uint64_t *s)
{
	int i, snd = -1, rcv = -1;

	if (rnd(s, 4))
		return;
	for (i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];

		if (it->kind == SEND && !strcmp(it->call, "MPI_Send") && snd < 0)
			snd = i;
		if (it->kind == RECV && !strcmp(it->call, "MPI_Recv") && !it->probe && rcv < 0)
			rcv = i;
	}
	if (snd < 0 || rcv < 0)
		return;
	r->items[snd].kind = SENDRECV;
	r->items[snd].call = "MPI_Sendrecv";
	r->items[snd].peer2 = r->items[rcv].peer;
	r->items[snd].tag2 = r->items[rcv].tag;
	memmove(&r->items[rcv], &r->items[rcv + 1], (size_t)(r->n - rcv - 1) * sizeof(r->items[0]));
	r->n--;
}

static const char *send_call(uint64_t *s, int *nonblocking)
{
	static const char *calls[] = {"MPI_Send",  "MPI_Send",	"MPI_Send",   "MPI_Send",
				      "MPI_Send",  "MPI_Isend", "MPI_Isend",  "MPI_Isend",
				      "MPI_Ssend", "MPI_Ssend", "MPI_Issend", "MPI_Bsend",
				      "MPI_Rsend"};
	const char *c = calls[rnd(s, (int)(sizeof(calls) / sizeof(calls[0])))];

	*nonblocking = c[4] == 'I';
	return c;
}

int oracles_random_trace(uint64_t seed, const char *dir)
{
	struct rank ranks[MAX_RANKS];
	uint64_t st = seed, *s = &st;
	int nranks = 2 + rnd(s, 3), nmsg = 1 + rnd(s, 6), ncoll, k, r, threaded;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return -1;
	memset(ranks, 0, sizeof(ranks));
	/* now and then one rank's calls come from two threads */
	threaded = rnd(s, 6) == 0 ? rnd(s, nranks) : -1;
	for (r = 0; r < nranks; r++) {
		ranks[r].threads = r == threaded ? 2 : 1;
		/* from the seed alone, so that the other choices stay those of the seed */
		ranks[r].order = r == threaded && (seed * 0x9E3779B97F4A7C15ULL) >> 63;
		ranks[r].lock_from = ranks[r].lock_to = ranks[r].stop = -1;
	}
	for (k = 0; k < nmsg; k++) {
		struct item snd, rcv;
		int src = rnd(s, nranks), dst = (src + 1 + rnd(s, nranks - 1)) % nranks;
		int tag = rnd(s, 2), bytes = rnd(s, 2) ? 4 : 64;

		memset(&snd, 0, sizeof(snd));
		snd.kind = SEND;
		snd.call = send_call(s, &snd.nonblocking);
		snd.peer = dst;
		snd.tag = tag;
		snd.bytes = bytes;
		snd.root = -1;
		snd.thread = rnd(s, ranks[src].threads);
		if (!strcmp(snd.call, "MPI_Send") && rnd(s, 8) == 0)
			snd.persistent = 1;
		if (!strcmp(snd.call, "MPI_Bsend"))
			ranks[src].bsend = 1;
		memset(&rcv, 0, sizeof(rcv));
		rcv.kind = RECV;
		rcv.nonblocking = rnd(s, 10) < 4;
		rcv.call = rcv.nonblocking ? "MPI_Irecv" : "MPI_Recv";
		rcv.peer = rnd(s, 10) < 3 ? -1 : src;
		rcv.tag = rnd(s, 20) < 3 ? -1 : tag;
		rcv.bytes = bytes;
		rcv.root = -1;
		rcv.src = src;
		rcv.mtag = tag;
		rcv.thread = rnd(s, ranks[dst].threads);
		rcv.probe = !rcv.nonblocking && rnd(s, 10) == 0;
		if (rcv.nonblocking && rnd(s, 8) == 0) {
			rcv.persistent = 1;
			rcv.nonblocking = 0;
		}
		/* now and then a send nobody receives, or a receive nobody sends */
		if (rnd(s, 20))
			add(&ranks[src], snd);
		if (rnd(s, 20))
			add(&ranks[dst], rcv);
	}
	for (r = 0; r < nranks; r++) {
		shuffle(&ranks[r], s);
		make_sendrecv(&ranks[r], s);
	}
	/* collectives, the same sequence on every rank (its thread 0), each at a random place */
	ncoll = rnd(s, 10) < 4 ? 1 + rnd(s, 2) : 0;
	for (k = 0; k < ncoll; k++) {
		static const char *calls[] = {"MPI_Barrier", "MPI_Bcast", "MPI_Reduce",
					      "MPI_Allreduce", "MPI_Ibarrier",
					      "MPI_Neighbor_alltoall", "MPI_Ineighbor_allgather",
					      /* on the world, which MPI forbids: to the model a
					       * collective whose members wait for nobody with
					       * buffering, as on any communicator */
					      "MPI_Comm_disconnect"};
		struct item c;
		int which = rnd(s, 8), root = rnd(s, nranks),
		    odd = rnd(s, 30) == 0 ? rnd(s, nranks) : -1;

		memset(&c, 0, sizeof(c));
		c.kind = COLL;
		c.call = calls[which];
		c.nonblocking = which == 4 || which == 6;
		for (r = 0; r < nranks; r++) {
			struct rank *rk = &ranks[r];
			int last = -1, i, at;

			/* after this rank's earlier collectives */
			for (i = 0; i < rk->n; i++)
				if (rk->items[i].kind == COLL)
					last = i;
			at = last + 1 + rnd(s, rk->n - last);
			if (rk->n >= MAX_ITEMS)
				continue;
			c.root = which == 1 || which == 2 ?
					 (r == odd ? (root + 1) % nranks : root) :
					 -1;
			/* each other rank an in-neighbour or not, as a distributed graph allows */
			c.in = which == 5 || which == 6 ?
				       (unsigned)rnd(s, 1 << nranks) & ~(1u << r) :
				       0;
			memmove(&rk->items[at + 1], &rk->items[at],
				(size_t)(rk->n - at) * sizeof(rk->items[0]));
			rk->items[at] = c;
			rk->n++;
		}
	}
	/* now and then a window: every rank creates it; some lock a target around some calls
	 * (not in a rank with threads: check refuses one-sided calls there) */
	if (rnd(s, 6) == 0 && threaded < 0) {
		for (r = 0; r < nranks; r++) {
			struct rank *rk = &ranks[r];

			rk->window = 1;
			if (rk->n == 0 || rnd(s, 2))
				continue;
			rk->lock_from = rnd(s, rk->n);
			rk->lock_to = rk->lock_from + 1 + rnd(s, rk->n - rk->lock_from);
			rk->lock_target = rnd(s, nranks);
			rk->lock_exclusive = rnd(s, 2);
		}
	}
	/* now and then a rank stops before MPI_Finalize */
	if (rnd(s, 8) == 0) {
		r = rnd(s, nranks);
		ranks[r].stop = rnd(s, ranks[r].n + 1);
	}
	for (r = 0; r < nranks; r++)
		if (write_rank(dir, r, nranks, &ranks[r], s))
			return -1;
	return 0;
}
