/* oracles: small random trace sets, the same for the same seed (oracles.h). Each is a few
 * messages between 2 to 4 ranks, with the receives in any order, some of them wildcards,
 * every send mode, nonblocking requests completed by waits (now and then by an MPI_Waitany
 * the trace says returned its first request), probes, an attached buffer, and collectives
 * in the same order on every rank (now and then with another root on one): enough for
 * deadlocks of every kind the model knows, and small enough for both searches. */
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

enum item_kind { SEND, RECV, COLL };

/* One call of a rank, before its completions are placed. */
struct item {
	enum item_kind kind;
	const char *call;	/* MPI_Send, MPI_Irecv, MPI_Bcast, ... */
	int peer;		/* -1: MPI_ANY_SOURCE */
	int tag;		/* -1: MPI_ANY_TAG */
	int bytes;
	int root;		/* collectives: -1 none */
	int nonblocking;	/* it makes a request */
	int probe;		/* a blocking receive: a probe first */
	int src, mtag;		/* the message the recorded run received (for the probe) */
};

struct rank {
	struct item items[MAX_ITEMS];
	int n;
	int bsend;		/* it makes a buffered send */
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

/* Complete requests: a Wait for one, a Waitall for several, or a Waitany over the first two
 * that the trace says returned the first (the other stays pending). */
static int complete(FILE *f, uint64_t *s, int *pending, int *npending, int all, int sep)
{
	int n = all ? *npending : 1 + rnd(s, *npending), i;

	if (!all && n >= 2 && rnd(s, 10) == 0) {
		fprintf(f, "%s\n  {\"call\": \"MPI_Waitany\", \"reqs\": [{\"req\": %d}, {\"req\": %d}], "
			   "\"pending\": 1}", sep ? "," : "", pending[0], pending[1]);
		memmove(pending, pending + 1, (size_t)(*npending - 1) * sizeof(*pending));
		(*npending)--;
		return 1;
	}
	fprintf(f, "%s\n  {\"call\": \"%s\", \"reqs\": [", sep ? "," : "",
		n == 1 ? "MPI_Wait" : "MPI_Waitall");
	for (i = 0; i < n; i++)
		fprintf(f, "%s{\"req\": %d}", i ? ", " : "", pending[i]);
	fprintf(f, "]}");
	memmove(pending, pending + n, (size_t)(*npending - n) * sizeof(*pending));
	*npending -= n;
	return 1;
}

static int write_rank(const char *dir, int me, int nranks, struct rank *r, uint64_t *s)
{
	char path[4096];
	int pending[MAX_ITEMS], npending = 0, nreq = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/rank-%d.json", dir, me);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "{\"format\": \"mpiverify-trace\", \"version\": 1, \"rank\": %d, \"size\": %d, "
		   "\"bsend_overhead\": %d,\n \"events\": [\n  {\"call\": \"MPI_Init\"}", me, nranks,
		BSEND_OVERHEAD);
	if (r->bsend)
		fprintf(f, ",\n  {\"call\": \"MPI_Buffer_attach\", \"bytes\": %d}",
			rnd(s, 2) ? 200 : 80);
	for (i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];

		if (it->probe) {
			fprintf(f, ",\n  {\"call\": \"MPI_Probe\"");
			peer_json(f, "peer", it->peer);
			peer_json(f, "tag", it->tag);
			fprintf(f, ", \"comm\": 0, \"src\": %d, \"mtag\": %d}", it->src, it->mtag);
		}
		fprintf(f, ",\n  {\"call\": \"%s\"", it->call);
		if (it->kind != COLL) {
			peer_json(f, "peer", it->peer);
			peer_json(f, "tag", it->tag);
			fprintf(f, ", \"bytes\": %d", it->bytes);
		}
		fprintf(f, ", \"comm\": 0");
		if (it->root >= 0)
			fprintf(f, ", \"root\": %d", it->root);
		if (it->nonblocking) {
			fprintf(f, ", \"req\": %d", nreq);
			pending[npending++] = nreq++;
		}
		fprintf(f, "}");
		if (npending && rnd(s, 10) < 3)
			complete(f, s, pending, &npending, 0, 1);
	}
	/* most requests are completed before the end; now and then one is left */
	if (npending && rnd(s, 10) < 9)
		complete(f, s, pending, &npending, 1, 1);
	if (r->bsend && rnd(s, 2))
		fprintf(f, ",\n  {\"call\": \"MPI_Buffer_detach\"}");
	fprintf(f, ",\n  {\"call\": \"MPI_Finalize\"}\n ]}\n");
	return fclose(f) ? -1 : 0;
}

/* Shuffle the first n items of r. */
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

static const char *send_call(uint64_t *s, int *nonblocking)
{
	static const char *calls[] = {"MPI_Send", "MPI_Send", "MPI_Send", "MPI_Send", "MPI_Send",
				      "MPI_Isend", "MPI_Isend", "MPI_Isend", "MPI_Ssend",
				      "MPI_Ssend", "MPI_Issend", "MPI_Bsend", "MPI_Rsend"};
	const char *c = calls[rnd(s, (int)(sizeof(calls) / sizeof(calls[0])))];

	*nonblocking = c[4] == 'I';
	return c;
}

int oracles_random_trace(uint64_t seed, const char *dir)
{
	struct rank ranks[MAX_RANKS];
	uint64_t st = seed, *s = &st;
	int nranks = 2 + rnd(s, 3), nmsg = 1 + rnd(s, 6), ncoll, k, r;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return -1;
	memset(ranks, 0, sizeof(ranks));
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
		rcv.probe = !rcv.nonblocking && rnd(s, 10) == 0;
		/* now and then a send nobody receives, or a receive nobody sends */
		if (rnd(s, 20))
			add(&ranks[src], snd);
		if (rnd(s, 20))
			add(&ranks[dst], rcv);
	}
	for (r = 0; r < nranks; r++)
		shuffle(&ranks[r], s);
	/* collectives, the same sequence on every rank, each at a random place */
	ncoll = rnd(s, 10) < 4 ? 1 + rnd(s, 2) : 0;
	for (k = 0; k < ncoll; k++) {
		static const char *calls[] = {"MPI_Barrier", "MPI_Bcast", "MPI_Reduce",
					      "MPI_Allreduce", "MPI_Ibarrier"};
		struct item c;
		int which = rnd(s, 5), root = rnd(s, nranks), odd = rnd(s, 30) == 0 ?
			rnd(s, nranks) : -1;

		memset(&c, 0, sizeof(c));
		c.kind = COLL;
		c.call = calls[which];
		c.nonblocking = which == 4;
		c.peer = c.tag = 0;
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
			c.root = which == 1 || which == 2 ? (r == odd ? (root + 1) % nranks : root) : -1;
			memmove(&rk->items[at + 1], &rk->items[at],
				(size_t)(rk->n - at) * sizeof(rk->items[0]));
			rk->items[at] = c;
			rk->n++;
		}
	}
	for (r = 0; r < nranks; r++)
		if (write_rank(dir, r, nranks, &ranks[r], s))
			return -1;
	return 0;
}
