/* Writes synthetic trace directories for the check benchmark, in the recorder's binary format
 * (common/tracefmt.h), so that trace size can grow without running MPI:
 *   gen_trace halo DIR RANKS ITERS     wildcard-free ring halo exchange: per iteration
 *                                      Irecv left, Irecv right, Isend right, Isend left, Waitall
 *   gen_trace mw DIR WORKERS RESULTS   master/worker: the master receives every result with
 *                                      MPI_ANY_SOURCE, each worker sends RESULTS results
 *   gen_trace cycle DIR RANKS ITERS    the halo exchange, then a ring of blocking standard
 *                                      sends: a potential deadlock after a long trace (the
 *                                      report's size test, tests/e2e/reports.sh) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefmt.h"

/* The encoding state of the file being written (one at a time). */
static struct mpiv_tf_writer writer;

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
}

static void simple(FILE *f, uint32_t *index, unsigned call, int peer, int tag, int req)
{
	struct mpiv_event ev;
	struct mpiv_reqinfo r = {req, MPIV_NONE, MPIV_NONE};

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

/* The halo exchange for iters iterations; with ring set, then each rank sends to its right
 * neighbour and receives from its left with blocking standard calls: a ring of sends that
 * deadlocks when they are not buffered (a potential deadlock) at the end of a long trace. */
static void halo(const char *dir, int ranks, int iters, int ring)
{
	int r, i;

	for (r = 0; r < ranks; r++) {
		FILE *f = open_rank(dir, r, ranks);
		uint32_t index = 0;
		int left = (r + ranks - 1) % ranks, right = (r + 1) % ranks, req = 0;

		simple(f, &index, MPIV_CALL_Init, 0, 0, -1);
		for (i = 0; i < iters; i++)
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

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "halo")) {
		halo(argv[2], atoi(argv[3]), atoi(argv[4]), 0);
	} else if (argc == 5 && !strcmp(argv[1], "mw")) {
		mw(argv[2], atoi(argv[3]), atoi(argv[4]));
	} else if (argc == 5 && !strcmp(argv[1], "cycle")) {
		halo(argv[2], atoi(argv[3]), atoi(argv[4]), 1);
	} else {
		fprintf(stderr, "usage: gen_trace halo|mw|cycle DIR N M\n");
		return 2;
	}
	return 0;
}
