/* Writes synthetic trace directories for the check benchmark (and the tests that compare
 * check's ways of searching), in the recorder's binary format (base/tracefmt.h), so that
 * trace size can grow without running MPI (it prints how many events it wrote):
 *   gen_trace halo DIR RANKS ITERS     wildcard-free ring halo exchange: per iteration
 *                                      Irecv left, Irecv right, Isend right, Isend left, Waitall
 *   gen_trace mw DIR WORKERS RESULTS   master/worker: the master receives every result with
 *                                      MPI_ANY_SOURCE, each worker sends RESULTS results
 *   gen_trace rounds DIR WORKERS ROUNDS  master/worker in rounds: each worker sends a result,
 *                                      which the master receives with MPI_ANY_SOURCE, then
 *                                      every rank enters MPI_Barrier
 *   gen_trace cycle DIR RANKS ITERS    the halo exchange, then a ring of blocking standard
 *                                      sends: a potential deadlock after a long trace (the
 *                                      report's size test, tests/e2e/reports.sh)
 *   gen_trace halo-any DIR RANKS ITERS the halo exchange, each iteration's requests completed
 *   gen_trace cycle-any DIR RANKS ITERS  by any-completions instead: MPI_Waitany four times,
 *                                      MPI_Waitsome twice, or a failed MPI_Testany then
 *                                      MPI_Waitany, by turns, in orders that vary; cycle-any
 *                                      ends with cycle's ring
 *   gen_trace farm DIR WORKERS ITEMS   a task farm as a ray tracer runs one: the master hands
 *                                      out ITEMS work items of three kinds (tags), one at a
 *                                      time to the worker that answered last, and receives
 *                                      every answer with MPI_ANY_SOURCE and MPI_ANY_TAG; a
 *                                      worker receives its items with MPI_ANY_SOURCE too and
 *                                      answers each with its kind's tag, items of the third
 *                                      kind with a partial answer first; a stop message
 *                                      (tag 0) ends each worker. The run it writes is one that
 *                                      could happen: items take their time, answers are
 *                                      received in the order they come.
 *   gen_trace farm-rounds DIR WORKERS ROUNDS  the farm, of 2 * WORKERS items, ROUNDS times, each
 *                                      round closed by MPI_Barrier */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefmt.h"

/* The encoding state of the file being written (one at a time). */
static struct mpiv_tf_writer writer;

/* Events written, all ranks: printed at the end (the benchmark's per-event figures). */
static unsigned long long written;

static FILE *open_rank(const char *dir, int rank, int size)
{
	char path[4096];
	unsigned char buf[MPIV_TF_HEADER_MAX];
	struct mpiv_tf_header h;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/rank-%d.mpivt", dir, rank);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	memset(&writer, 0, sizeof(writer));
	memset(&h, 0, sizeof(h));
	h.version = MPIV_TRACE_VERSION;
	h.rank = rank;
	h.size = size;
	snprintf(h.host, sizeof(h.host), "bench");
	n = mpiv_tf_encode_header(buf, sizeof(buf), &h);
	fwrite(buf, 1, n, f);
	return f;
}

/* Write the end record and close: the recorder's files end so when the rank finished. */
static void close_rank(FILE *f)
{
	unsigned char end[MPIV_TF_END_MAX];

	fwrite(end, 1, mpiv_tf_encode_end(end, sizeof(end)), f);
	fclose(f);
}

static void put(FILE *f, struct mpiv_event *ev, uint32_t *index)
{
	unsigned char buf[MPIV_TF_EVENT_MAX(8)];
	size_t n;

	ev->index = (*index)++;
	n = mpiv_tf_encode_event(&writer, buf, sizeof(buf), ev);
	fwrite(buf, 1, n, f);
	written++;
}

static void simple(FILE *f, uint32_t *index, unsigned call, int peer, int tag, int req)
{
	struct mpiv_event ev;
	struct mpiv_reqinfo r = {req, MPIV_NONE, MPIV_NONE, 0};

	mpiv_event_init(&ev, call);
	if (call != MPIV_CALL_Init && call != MPIV_CALL_Finalize) {
		ev.peer = peer;
		ev.tag = tag;
		ev.comm = MPIV_COMM_WORLD;
		ev.bytes = 8;
	}
	if (req >= 0) {
		ev.nreqs = 1;
		ev.reqs = &r;
	}
	put(f, &ev, index);
}

/* One iteration of the halo exchange: Irecv left, Irecv right, Isend right, Isend left,
 * Waitall; *req the first of its four request ids. */
static void halo_iteration(FILE *f, uint32_t *index, int left, int right, int *req)
{
	struct mpiv_event ev;
	struct mpiv_reqinfo reqs[4];
	int k;

	simple(f, index, MPIV_CALL_Irecv, left, 0, *req);
	simple(f, index, MPIV_CALL_Irecv, right, 1, *req + 1);
	simple(f, index, MPIV_CALL_Isend, right, 0, *req + 2);
	simple(f, index, MPIV_CALL_Isend, left, 1, *req + 3);
	mpiv_event_init(&ev, MPIV_CALL_Waitall);
	for (k = 0; k < 4; k++) {
		reqs[k].req = *req + k;
		reqs[k].src = MPIV_NONE;
		reqs[k].tag = MPIV_NONE;
	}
	ev.nreqs = 4;
	ev.reqs = reqs;
	put(f, &ev, index);
	*req += 4;
}

/* An any-completion call over reqs[0..n), of which the first done complete. */
static void any_completion(FILE *f, uint32_t *index, unsigned call, struct mpiv_reqinfo *reqs,
			   int n, int done)
{
	struct mpiv_event ev;

	mpiv_event_init(&ev, call);
	ev.nreqs = (uint32_t)n;
	ev.npending = (uint32_t)(n - done);
	ev.reqs = reqs;
	put(f, &ev, index);
}

/* One iteration of the halo exchange whose requests complete by any-completions (iteration i
 * says which calls, and in which order the requests complete): four MPI_Waitany, two
 * MPI_Waitsome of two, or an MPI_Testany that finds nothing, then four MPI_Waitany. */
static void halo_any_iteration(FILE *f, uint32_t *index, int left, int right, int *req, int i)
{
	struct mpiv_reqinfo reqs[4];
	int k, n;

	simple(f, index, MPIV_CALL_Irecv, left, 0, *req);
	simple(f, index, MPIV_CALL_Irecv, right, 1, *req + 1);
	simple(f, index, MPIV_CALL_Isend, right, 0, *req + 2);
	simple(f, index, MPIV_CALL_Isend, left, 1, *req + 3);
	/* the order the requests complete in: a rotation of the four, by iteration */
	for (k = 0; k < 4; k++) {
		int q = (k + i) % 4;

		reqs[k].req = *req + q;
		reqs[k].src = q == 0 ? left : q == 1 ? right : MPIV_NONE;
		reqs[k].tag = q < 2 ? q : MPIV_NONE;
	}
	if (i % 3 == 1) {
		any_completion(f, index, MPIV_CALL_Waitsome, reqs, 4, 2);
		any_completion(f, index, MPIV_CALL_Waitsome, reqs + 2, 2, 2);
	} else {
		if (i % 3 == 2)
			any_completion(f, index, MPIV_CALL_Testany, reqs, 4, 0);
		for (n = 4; n > 0; n--)
			any_completion(f, index, MPIV_CALL_Waitany, reqs + 4 - n, n, 1);
	}
	*req += 4;
}

/* The halo exchange for iters iterations, its requests completed by MPI_Waitall, or with
 * any set by any-completions; with ring set, then each rank sends to its right neighbour and
 * receives from its left with blocking standard calls: a ring of sends that deadlocks when
 * they are not buffered (a potential deadlock) at the end of a long trace. */
static void halo(const char *dir, int ranks, int iters, int ring, int any)
{
	int r, i;

	for (r = 0; r < ranks; r++) {
		FILE *f = open_rank(dir, r, ranks);
		uint32_t index = 0;
		int left = (r + ranks - 1) % ranks, right = (r + 1) % ranks, req = 0;

		simple(f, &index, MPIV_CALL_Init, 0, 0, -1);
		for (i = 0; i < iters; i++)
			if (any)
				halo_any_iteration(f, &index, left, right, &req, i);
			else
				halo_iteration(f, &index, left, right, &req);
		if (ring) {
			simple(f, &index, MPIV_CALL_Send, right, 2, -1);
			simple(f, &index, MPIV_CALL_Recv, left, 2, -1);
		}
		simple(f, &index, MPIV_CALL_Finalize, 0, 0, -1);
		close_rank(f);
	}
}

static void mw(const char *dir, int workers, int results)
{
	int r, i;

	for (r = 0; r <= workers; r++) {
		FILE *f = open_rank(dir, r, workers + 1);
		uint32_t index = 0;

		simple(f, &index, MPIV_CALL_Init, 0, 0, -1);
		for (i = 0; i < (r == 0 ? workers * results : results); i++) {
			if (r == 0)
				simple(f, &index, MPIV_CALL_Recv, MPIV_ANY_SOURCE, 0, -1);
			else
				simple(f, &index, MPIV_CALL_Send, 0, 0, -1);
		}
		simple(f, &index, MPIV_CALL_Finalize, 0, 0, -1);
		close_rank(f);
	}
}

static void rounds(const char *dir, int workers, int nrounds)
{
	struct mpiv_event bar;
	int r, i, k;

	for (r = 0; r <= workers; r++) {
		FILE *f = open_rank(dir, r, workers + 1);
		uint32_t index = 0;

		simple(f, &index, MPIV_CALL_Init, 0, 0, -1);
		for (k = 0; k < nrounds; k++) {
			for (i = 0; i < (r == 0 ? workers : 1); i++) {
				if (r == 0)
					simple(f, &index, MPIV_CALL_Recv, MPIV_ANY_SOURCE, 0, -1);
				else
					simple(f, &index, MPIV_CALL_Send, 0, 0, -1);
			}
			mpiv_event_init(&bar, MPIV_CALL_Barrier);
			bar.comm = MPIV_COMM_WORLD;
			put(f, &bar, &index);
		}
		simple(f, &index, MPIV_CALL_Finalize, 0, 0, -1);
		close_rank(f);
	}
}

/* The farm's pseudo-random numbers: the same trace on every machine. */
static unsigned farm_rand(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

#define FARM_MAX 64 /* workers at most */

/* One call of a farm's rank: a send to peer with tag, or (peer -1) a receive from anyone with
 * any tag that took src's message with tag, or (peer FARM_BARRIER) MPI_Barrier. */
#define FARM_BARRIER (-2)
struct farm_call {
	int peer, tag, src;
};

/* The calls of each rank, made while the run is played, written once it is over (the writer
 * encodes one file at a time). */
struct farm_rank {
	struct farm_call *calls;
	size_t n, cap;
};

static void farm_add(struct farm_rank *r, int peer, int tag, int src)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->calls = realloc(r->calls, r->cap * sizeof(*r->calls));
		if (!r->calls) {
			perror("gen_trace");
			exit(1);
		}
	}
	r->calls[r->n++] = (struct farm_call){peer, tag, src};
}

/* An answer on its way to the master: when it arrives, from whom, its tag. */
struct answer {
	long when;
	int worker, tag;
};

/* The master hands worker w its next item (the stop message when there is none) at time now;
 * the worker's answers join the queue. */
static void farm_give(struct farm_rank *rk, int w, int *given, int items, long now, unsigned *seed,
		      struct answer *queue, int *n)
{
	int kind = *given < items ? 1 + (int)(farm_rand(seed) % 3) : 0;
	long t = now + 10 + farm_rand(seed) % 90;

	farm_add(&rk[0], w, kind, 0);
	farm_add(&rk[w], -1, 0, kind);
	if (!kind)
		return;
	++*given;
	if (kind == 3) { /* a partial answer first */
		farm_add(&rk[w], 0, 4, 0);
		queue[(*n)++] = (struct answer){t, w, 4};
		t += 10 + farm_rand(seed) % 40;
	}
	farm_add(&rk[w], 0, kind, 0);
	queue[(*n)++] = (struct answer){t, w, kind};
}

/* A farm of items in rounds (nrounds > 1: each ends with every rank in MPI_Barrier). */
static void farm(const char *dir, int workers, int items, int nrounds)
{
	struct farm_rank rk[FARM_MAX + 1];
	struct answer *queue = calloc(2 * (size_t)(items + workers) + 1, sizeof(*queue));
	unsigned seed = 12345;
	int r, n, given, i, round;
	size_t k;

	if (workers < 1 || workers > FARM_MAX || items < 0 || !queue) {
		fprintf(stderr, "gen_trace farm: 1 to %d workers\n", FARM_MAX);
		exit(2);
	}
	memset(rk, 0, sizeof(rk));
	for (round = 0; round < nrounds; round++) {
		n = given = 0;
		for (r = 1; r <= workers; r++)
			farm_give(rk, r, &given, items, 0, &seed, queue, &n);
		while (n > 0) {
			struct answer a;
			int first = 0;

			for (i = 1; i < n; i++)
				if (queue[i].when < queue[first].when)
					first = i;
			a = queue[first];
			queue[first] = queue[--n];
			farm_add(&rk[0], -1, 0, a.worker * 8 + a.tag);
			if (a.tag != 4) /* a final answer: the worker is free */
				farm_give(rk, a.worker, &given, items, a.when, &seed, queue, &n);
		}
		for (r = 0; nrounds > 1 && r <= workers; r++)
			farm_add(&rk[r], FARM_BARRIER, 0, 0);
	}
	for (r = 0; r <= workers; r++) {
		FILE *f = open_rank(dir, r, workers + 1);
		uint32_t index = 0;

		simple(f, &index, MPIV_CALL_Init, 0, 0, -1);
		for (k = 0; k < rk[r].n; k++) {
			const struct farm_call *c = &rk[r].calls[k];
			struct mpiv_event ev;

			if (c->peer >= 0) {
				simple(f, &index, MPIV_CALL_Send, c->peer, c->tag, -1);
				continue;
			}
			if (c->peer == FARM_BARRIER) {
				mpiv_event_init(&ev, MPIV_CALL_Barrier);
				ev.comm = MPIV_COMM_WORLD;
				put(f, &ev, &index);
				continue;
			}
			mpiv_event_init(&ev, MPIV_CALL_Recv);
			ev.peer = MPIV_ANY_SOURCE;
			ev.tag = MPIV_ANY_TAG;
			ev.comm = MPIV_COMM_WORLD;
			ev.bytes = 64;
			/* the master's receives: 8 * worker + tag; a worker's: the item's kind */
			ev.src = r == 0 ? c->src / 8 : 0;
			ev.mtag = r == 0 ? c->src % 8 : c->src;
			put(f, &ev, &index);
		}
		simple(f, &index, MPIV_CALL_Finalize, 0, 0, -1);
		close_rank(f);
		free(rk[r].calls);
	}
	free(queue);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "halo")) {
		halo(argv[2], atoi(argv[3]), atoi(argv[4]), 0, 0);
	} else if (argc == 5 && !strcmp(argv[1], "halo-any")) {
		halo(argv[2], atoi(argv[3]), atoi(argv[4]), 0, 1);
	} else if (argc == 5 && !strcmp(argv[1], "cycle-any")) {
		halo(argv[2], atoi(argv[3]), atoi(argv[4]), 1, 1);
	} else if (argc == 5 && !strcmp(argv[1], "mw")) {
		mw(argv[2], atoi(argv[3]), atoi(argv[4]));
	} else if (argc == 5 && !strcmp(argv[1], "rounds")) {
		rounds(argv[2], atoi(argv[3]), atoi(argv[4]));
	} else if (argc == 5 && !strcmp(argv[1], "cycle")) {
		halo(argv[2], atoi(argv[3]), atoi(argv[4]), 1, 0);
	} else if (argc == 5 && !strcmp(argv[1], "farm")) {
		farm(argv[2], atoi(argv[3]), atoi(argv[4]), 1);
	} else if (argc == 5 && !strcmp(argv[1], "farm-rounds")) {
		farm(argv[2], atoi(argv[3]), 2 * atoi(argv[3]), atoi(argv[4]));
	} else {
		fprintf(stderr,
			"usage: gen_trace halo|halo-any|mw|rounds|cycle|cycle-any|farm|farm-rounds DIR N M\n");
		return 2;
	}
	printf("%llu events\n", written);
	return 0;
}
