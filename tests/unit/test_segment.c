/* A long run checked a segment at a time (translator/tr_segment.c): every cut it finds is one
 * (counted again here from scratch, the plain way), it finds the cuts a run plainly has, none
 * in a rank whose threads call MPI, and where the segments answer "no deadlock" the whole
 * program's complete search finds none either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr_comm.h"
#include "translate.h"
#include "unit.h"
#include "xalloc.h"
#include "tr_check.h"

/* Messages of one envelope before a cut: sent less received. */
struct envelope {
	int32_t from, to, comm, tag;
	long balance;
};

struct recount {
	struct envelope *env;
	size_t n, cap;
	long *colls; /* per engine communicator, per world rank: collectives entered */
	int ncomms, nranks;
};

static void add_message(struct recount *rc, int32_t from, int32_t to, int32_t comm, int32_t tag,
			long d)
{
	size_t i;

	if (from == MPIV_PROC_NULL || to == MPIV_PROC_NULL)
		return;
	for (i = 0; i < rc->n; i++)
		if (rc->env[i].from == from && rc->env[i].to == to && rc->env[i].comm == comm &&
		    rc->env[i].tag == tag)
			break;
	if (i == rc->n) {
		xgrow((void **)&rc->env, &rc->cap, rc->n + 1, sizeof(*rc->env));
		memset(&rc->env[rc->n++], 0, sizeof(*rc->env));
		rc->env[i].from = from;
		rc->env[i].to = to;
		rc->env[i].comm = comm;
		rc->env[i].tag = tag;
	}
	rc->env[i].balance += d;
}

/* A persistent request, as the recount follows it. */
struct persistent {
	int32_t req;
	struct mpiv_event copy; /* its template, without its requests and group */
};

/* Count a receive (or send, d = 1) by envelope (fine) and by receiver and communicator alone
 * (coarse: from -1, tag -1); a wildcard receive by receiver alone, noted in *wild. */
static void count_one(struct recount *fine, struct recount *coarse, int r, int32_t peer,
		      int32_t tag, int c, long d, int *wild)
{
	if (peer == MPIV_PROC_NULL)
		return;
	if (d < 0 && (peer == MPIV_ANY_SOURCE || tag == MPIV_ANY_TAG))
		*wild = 1;
	else if (d > 0)
		add_message(fine, r, peer, c, tag, 1);
	else
		add_message(fine, peer, r, c, tag, -1);
	add_message(coarse, -1, d > 0 ? peer : r, c, -1, d);
}

/* Is cut k of cuts one, for the segment that ends there: every request made in it completed
 * in it; every envelope even, or, where a receive of the segment is a wildcard or a send a
 * buffered one, every
 * receiver's count on every communicator even and every rank's last call a collective that
 * synchronises the world on one communicator; every communicator's members through as many
 * collectives; and are the persistent requests and the attached buffer it lists each rank's
 * there? */
static int is_cut(const struct mpiv_traceset *ts, const struct eng_prog *p,
		  const struct tr_comms *cm, const struct tr_cuts *cuts, int k)
{
	struct recount fine, coarse;
	int r, c, ok = 1, wild = 0, sync_comm = -2;
	size_t i;

	memset(&fine, 0, sizeof(fine));
	memset(&coarse, 0, sizeof(coarse));
	fine.colls = xcalloc((size_t)p->ncomms * (size_t)ts->nranks, sizeof(*fine.colls));
	for (r = 0; r < ts->nranks && ok; r++) {
		const struct mpiv_rank_trace *t = &ts->ranks[r];
		const size_t *first = &cuts->first[(size_t)k * (size_t)ts->nranks + (size_t)r];
		size_t from, to;
		struct persistent pers[16];
		int32_t live[64];
		int nlive = 0, npers = 0, l, q, last_sync = -1;
		long attach = -1; /* the event that attached the buffer attached, -1: none */

		tr_segment_bounds(ts, cuts, k, r, &from, &to);
		/* the persistent requests from the start; the rest within the segment */
		for (i = 0; i < to; i++) {
			const struct mpiv_event *ev = mpiv_trace_event(t, i);
			enum mpiv_kind kind = mpiv_call_kind(ev->call);
			uint32_t j;

			if ((kind == MPIV_KIND_SEND_INIT || kind == MPIV_KIND_RECV_INIT) &&
			    npers < 16) {
				pers[npers].req = ev->reqs[0].req;
				pers[npers].copy = *ev;
				pers[npers].copy.reqs = NULL;
				pers[npers++].copy.group = NULL;
			}
			if (kind == MPIV_KIND_BUF_ATTACH)
				attach = (long)i;
			if (kind == MPIV_KIND_BUF_DETACH)
				attach = -1;
			for (j = 0; kind == MPIV_KIND_REQUEST_FREE && j < ev->nreqs; j++)
				for (q = npers - 1; q >= 0; q--)
					if (pers[q].req == ev->reqs[j].req)
						pers[q] = pers[--npers];
			if (i < from)
				continue;
			c = tr_comms_id(cm, r, ev->comm);
			last_sync = -1;
			if (kind == MPIV_KIND_SEND || kind == MPIV_KIND_ISEND ||
			    kind == MPIV_KIND_SENDRECV)
				count_one(&fine, &coarse, r, ev->peer, ev->tag, c, 1, &wild);
			/* a buffered send's segment ends as a wildcard receive's does, and so does a
			 * wildcard probe's that found a message */
			if ((mpiv_call_flags(ev->call) & MPIV_F_BUFFERED) ||
			    (kind == MPIV_KIND_PROBE && ev->src != MPIV_NONE &&
			     (ev->peer == MPIV_ANY_SOURCE || ev->tag == MPIV_ANY_TAG)))
				wild = 1;
			if (kind == MPIV_KIND_RECV || kind == MPIV_KIND_IRECV)
				count_one(&fine, &coarse, r, ev->peer, ev->tag, c, -1, &wild);
			if (kind == MPIV_KIND_SENDRECV)
				count_one(&fine, &coarse, r, ev->peer2, ev->tag2, c, -1, &wild);
			if (kind == MPIV_KIND_COLL || kind == MPIV_KIND_ICOLL)
				fine.colls[(size_t)c * (size_t)ts->nranks + (size_t)r]++;
			if (kind == MPIV_KIND_COLL && tr_coll_synchronises(ev->call) &&
			    p->comms[c].n == ts->nranks)
				last_sync = c;
			if (kind == MPIV_KIND_COMM_GROUP && mpiv_trace_newcomm(t, ev->index)) {
				c = tr_comms_id(cm, r, mpiv_trace_newcomm(t, ev->index)->id);
				fine.colls[(size_t)c * (size_t)ts->nranks + (size_t)r]++;
			}
			if ((kind == MPIV_KIND_ISEND || kind == MPIV_KIND_IRECV ||
			     kind == MPIV_KIND_ICOLL) &&
			    nlive < 64)
				live[nlive++] = ev->reqs[0].req;
			for (j = 0; kind == MPIV_KIND_START && j < ev->nreqs; j++)
				for (q = 0; q < npers; q++) {
					const struct mpiv_event *in = &pers[q].copy;

					if (pers[q].req != ev->reqs[j].req)
						continue;
					count_one(&fine, &coarse, r, in->peer, in->tag,
						  tr_comms_id(cm, r, in->comm),
						  mpiv_call_kind(in->call) == MPIV_KIND_SEND_INIT ?
							  1 :
							  -1,
						  &wild);
					if (nlive < 64)
						live[nlive++] = ev->reqs[j].req;
				}
			for (j = 0; kind == MPIV_KIND_WAIT && j + ev->npending < ev->nreqs; j++)
				for (l = 0; l < nlive; l++)
					if (live[l] == ev->reqs[j].req) {
						live[l] = live[--nlive];
						break;
					}
		}
		if (nlive || first[1] - first[0] != (size_t)npers + (attach >= 0))
			ok = 0;
		for (i = first[0]; ok && attach >= 0 && i < first[1]; i++)
			if (cuts->tmpl[i].req == TR_TMPL_BUFFER && cuts->tmpl[i].event != attach)
				ok = 0;
		for (q = 0; ok && q < npers; q++) {
			size_t e;

			for (e = first[0]; e < first[1] && cuts->tmpl[e].req != pers[q].req; e++)
				;
			if (e == first[1] || cuts->tmpl[e].event != pers[q].copy.index)
				ok = 0;
		}
		/* the same synchronising communicator for all, if the segment is wild */
		if (sync_comm == -2)
			sync_comm = last_sync;
		else if (sync_comm != last_sync)
			sync_comm = -1;
	}
	for (i = 0; ok && i < (wild ? coarse.n : fine.n); i++)
		if ((wild ? coarse.env : fine.env)[i].balance)
			ok = 0;
	if (wild && sync_comm < 0)
		ok = 0;
	for (c = 0; ok && c < p->ncomms; c++) {
		const struct eng_comm *m = &p->comms[c];

		for (r = 1; r < m->n; r++)
			if (fine.colls[(size_t)c * (size_t)ts->nranks + (size_t)m->members[r]] !=
			    fine.colls[(size_t)c * (size_t)ts->nranks + (size_t)m->members[0]])
				ok = 0;
	}
	free(fine.env);
	free(coarse.env);
	free(fine.colls);
	return ok;
}

/* The cuts of ts found one at a time, each dropped once the next is found (as check finds
 * them while it checks the segments), are all's, with the same requests and buffers. */
static void assert_streamed(const struct mpiv_traceset *ts, size_t target,
			    const struct tr_cuts *all)
{
	struct tr_cuts one;
	int j = 0, r;

	for (tr_cuts_start(ts, target, &one); j < one.n; j++) {
		for (r = 0; r < ts->nranks; r++) {
			size_t na, no, from, to, afrom, ato;
			const struct tr_tmpl *ta = tr_cuts_tmpl(all, j, r, &na),
					     *to_ = tr_cuts_tmpl(&one, j, r, &no);

			tr_segment_bounds(ts, &one, j, r, &from, &to);
			tr_segment_bounds(ts, all, j, r, &afrom, &ato);
			CU_ASSERT(from == afrom && to == ato);
			CU_ASSERT_EQUAL_FATAL(na, no);
			CU_ASSERT(!na || !memcmp(ta, to_, na * sizeof(*ta)));
		}
		CU_ASSERT(one.n - one.dropped <= 2);
		if (j + 1 == one.n)
			tr_cuts_next(&one);
		tr_cuts_drop(&one, j);
	}
	CU_ASSERT(one.done && one.finder == NULL);
	CU_ASSERT_EQUAL(one.n, all->n);
	tr_cuts_release(&one);
}

/* Every cut of dir's case, for segments of several lengths, is one, inside the ranks' runs
 * and after the one before, and found one at a time the same; returns (in ctx) how many were
 * checked. */
static void cuts_of_case(const char *dir, void *ctx)
{
	static const size_t targets[] = {1, 2, 3, 5, 8, 1000};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_comms cm;
	struct mpiv_error err;
	size_t k;
	int j, r, *checked = ctx;

	if (unit_case_load(dir, &ts))
		return;
	memset(&p, 0, sizeof(p));
	p.nranks = ts.nranks;
	mpiv_error_init(&err);
	if (tr_comms_build(&ts, &p, &cm, &err)) {
		tr_comms_release(&cm);
		eng_prog_release(&p);
		mpiv_traceset_release(&ts);
		return; /* a case of bad communicators: no cut either */
	}
	for (k = 0; k < sizeof(targets) / sizeof(targets[0]); k++) {
		struct tr_cuts cuts;
		int n = tr_cuts_find(&ts, targets[k], &cuts);

		CU_ASSERT_EQUAL(n, cuts.n);
		for (j = 0; j < cuts.n; j++) {
			const size_t *at = &cuts.at[(size_t)j * (size_t)ts.nranks];
			int later = 0;

			for (r = 0; r < ts.nranks; r++) {
				CU_ASSERT(at[r] < ts.ranks[r].nevents);
				if (j && at[r] < at[r - ts.nranks])
					CU_FAIL("a cut before the one before");
				if (!j || at[r] > at[r - ts.nranks])
					later = 1;
			}
			CU_ASSERT(later);
			if (!is_cut(&ts, &p, &cm, &cuts, j)) {
				fprintf(stderr, "\n%s: segments of %zu: cut %d is none\n", dir,
					targets[k], j);
				CU_FAIL("a cut that is none");
			}
			(*checked)++;
		}
		assert_streamed(&ts, targets[k], &cuts);
		tr_cuts_release(&cuts);
	}
	tr_comms_release(&cm);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

static void test_cuts_hold(void)
{
	int checked = 0;

	unit_each_case(cuts_of_case, &checked);
	/* the cases have runs to cut: a finder that never cuts would pass the rest */
	CU_ASSERT(checked > 50);
}

#define INIT "{\"call\": \"MPI_Init\"}"
#define FIN "{\"call\": \"MPI_Finalize\"}"
#define SEND(peer, tag)                                                \
	"{\"call\": \"MPI_Send\", \"peer\": " #peer ", \"tag\": " #tag \
	", \"comm\": 0, \"bytes\": 4}"
#define RECV(peer, tag)                                                \
	"{\"call\": \"MPI_Recv\", \"peer\": " #peer ", \"tag\": " #tag \
	", \"comm\": 0, \"bytes\": 4}"
#define ISEND(peer, tag, req)                                           \
	"{\"call\": \"MPI_Isend\", \"peer\": " #peer ", \"tag\": " #tag \
	", \"comm\": 0, \"bytes\": "                                    \
	"4, \"reqs\": [{\"req\": " #req "}]}"
#define WAIT(req) "{\"call\": \"MPI_Wait\", \"reqs\": [{\"req\": " #req "}]}"

/* Three round trips: a cut after each but the last, and none inside one (rank 0's Isend is
 * waited for after rank 1's answer); with wildcards, no cut from the first on. */
static void test_cut_positions(void)
{
	static const char *const plain[] = {
		"[" INIT
		", " ISEND(1, 0, 7) ", " RECV(1, 1) ", " WAIT(7) ", " ISEND(1, 0, 7) ", " RECV(
			1, 1) ", " WAIT(7) ", " ISEND(1, 0, 7) ", " RECV(1, 1) ", " WAIT(7) ", " FIN
											    "]",
		"[" INIT ", " RECV(0, 0) ", " SEND(0, 1) ", " RECV(0, 0) ", " SEND(0, 1) ", " RECV(
			0, 0) ", " SEND(0, 1) ", " FIN "]",
		NULL,
	};
	static const char *const wild[] = {
		"[" INIT ", " SEND(1, 0) ", " SEND(1, 0) ", " FIN "]",
		"[" INIT
		", " RECV(0, 0) ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, "
				"\"comm\": 0, \"bytes\": 4}, " FIN "]",
		NULL,
	};
	static const size_t want[] = {4, 3, 7, 5};
	struct mpiv_traceset ts;
	struct tr_cuts cuts;

	CU_ASSERT_FATAL(unit_load_case(plain, &ts) == 0);
	CU_ASSERT_EQUAL(tr_cuts_find(&ts, 2, &cuts), 2);
	if (cuts.n == 2)
		CU_ASSERT(!memcmp(cuts.at, want, sizeof(want)));
	tr_cuts_release(&cuts);
	mpiv_traceset_release(&ts);
	/* the last cut is after the first receive: the wildcard one after it is where they
	 * stop */
	CU_ASSERT_FATAL(unit_load_case(wild, &ts) == 0);
	CU_ASSERT(tr_cuts_find(&ts, 1, &cuts) >= 1);
	if (cuts.n >= 1) {
		CU_ASSERT_EQUAL(cuts.at[2 * (cuts.n - 1)], 2);
		CU_ASSERT_EQUAL(cuts.at[2 * (cuts.n - 1) + 1], 2);
	}
	tr_cuts_release(&cuts);
	mpiv_traceset_release(&ts);
}

#define IRECV(peer, tag, req)                                           \
	"{\"call\": \"MPI_Irecv\", \"peer\": " #peer ", \"tag\": " #tag \
	", \"comm\": 0, \"bytes\": "                                    \
	"4, \"reqs\": [{\"req\": " #req "}]}"
#define WAITANY2(done, other)                                                            \
	"{\"call\": \"MPI_Waitany\", \"reqs\": [{\"req\": " #done "}, {\"req\": " #other \
	"}], \"pending\": 1}"
#define WAITANY1(req) "{\"call\": \"MPI_Waitany\", \"reqs\": [{\"req\": " #req "}]}"

/* Two round trips whose requests rank 0 completes with MPI_Waitany, in the order the trace
 * says: a cut between them (check's program completes there what the trace says), none
 * between a round's two MPI_Waitany, where a request is still live. */
static void test_cut_after_any_completion(void)
{
	static const char *const waitany[] = {
		"[" INIT ", " IRECV(1, 1, 5) ", " ISEND(1, 0, 7) ", " WAITANY2(7, 5) ", " WAITANY1(
			5) ", " IRECV(1, 1,
				      5) ", " ISEND(1, 0,
						    7) ", " WAITANY2(5, 7) ", " WAITANY1(7) ", " FIN
											    "]",
		"[" INIT ", " RECV(0, 0) ", " SEND(0, 1) ", " RECV(0, 0) ", " SEND(0, 1) ", " FIN
											 "]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct tr_cuts cuts;
	int k, between = 0;

	CU_ASSERT_FATAL(unit_load_case(waitany, &ts) == 0);
	CU_ASSERT(tr_cuts_find(&ts, 1, &cuts) >= 1);
	for (k = 0; k < cuts.n; k++) {
		CU_ASSERT(cuts.at[2 * k] != 4 && cuts.at[2 * k] != 8);
		if (cuts.at[2 * k] == 5 && cuts.at[2 * k + 1] == 3)
			between = 1;
	}
	CU_ASSERT(between);
	tr_cuts_release(&cuts);
	mpiv_traceset_release(&ts);
}

#define ANYRECV "{\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0, \"bytes\": 4}"
#define BARRIER "{\"call\": \"MPI_Barrier\", \"comm\": 0}"
#define BCAST "{\"call\": \"MPI_Bcast\", \"comm\": 0, \"root\": 0}"

/* The last cut of events[] with segments of one event, into at[0..3) (three ranks); returns
 * how many there are. */
static int last_cut(const char *const events[], size_t at[3])
{
	struct mpiv_traceset ts;
	struct tr_cuts cuts;
	int n;

	CU_ASSERT_FATAL(unit_load_case(events, &ts) == 0);
	n = tr_cuts_find(&ts, 1, &cuts);
	if (n > 0)
		memcpy(at, &cuts.at[(size_t)(n - 1) * 3], 3 * sizeof(*at));
	tr_cuts_release(&cuts);
	mpiv_traceset_release(&ts);
	return n;
}

/* Rounds of a master receiving with MPI_ANY_SOURCE: a cut only right after a collective every
 * member waits in for every other (a barrier), where each worker's messages were all taken;
 * none after a broadcast, which a root leaves at once with buffering. */
static void test_cut_after_wildcards(void)
{
	static const char *const rounds[] = {
		"[" INIT ", " ANYRECV ", " ANYRECV ", " BARRIER ", " ANYRECV ", " ANYRECV
		", " BARRIER ", " FIN "]",
		"[" INIT ", " SEND(0, 0) ", " BARRIER ", " SEND(0, 0) ", " BARRIER ", " FIN "]",
		"[" INIT ", " SEND(0, 0) ", " BARRIER ", " SEND(0, 0) ", " BARRIER ", " FIN "]",
		NULL,
	};
	static const char *const bcast[] = {
		"[" INIT ", " ANYRECV ", " ANYRECV ", " BCAST ", " ANYRECV ", " ANYRECV ", " BCAST
		", " FIN "]",
		"[" INIT ", " SEND(0, 0) ", " BCAST ", " SEND(0, 0) ", " BCAST ", " FIN "]",
		"[" INIT ", " SEND(0, 0) ", " BCAST ", " SEND(0, 0) ", " BCAST ", " FIN "]",
		NULL,
	};
	/* the master takes one result before the first barrier, three after: the other one sent
	 * before it crosses the barrier, which is then no cut */
	static const char *const late[] = {
		"[" INIT ", " ANYRECV ", " BARRIER ", " ANYRECV ", " ANYRECV ", " ANYRECV
		", " BARRIER ", " FIN "]",
		"[" INIT ", " SEND(0, 0) ", " BARRIER ", " SEND(0, 0) ", " BARRIER ", " FIN "]",
		"[" INIT ", " SEND(0, 0) ", " BARRIER ", " SEND(0, 0) ", " BARRIER ", " FIN "]",
		NULL,
	};
	size_t at[3];

	CU_ASSERT(last_cut(rounds, at) >= 1);
	CU_ASSERT(at[0] == 4 && at[1] == 3 && at[2] == 3);
	CU_ASSERT(last_cut(bcast, at) >= 1);
	CU_ASSERT(at[0] == 1 && at[1] == 1 && at[2] == 1);
	CU_ASSERT(last_cut(late, at) >= 1);
	CU_ASSERT(at[0] == 1 && at[1] == 1 && at[2] == 1);
}

/* A rank whose threads call MPI is never cut: a later call of one thread may take the message
 * an earlier call of another took in the run (the model case threads-receive-race). */
static void test_threads_not_cut(void)
{
	char dir[1024];
	struct mpiv_traceset ts;
	struct tr_cuts cuts;

	snprintf(dir, sizeof(dir), "%s/threads-receive-race", unit_cases_dir());
	if (unit_case_load(dir, &ts))
		return;
	CU_ASSERT_EQUAL(tr_cuts_find(&ts, 1, &cuts), 0);
	tr_cuts_release(&cuts);
	mpiv_traceset_release(&ts);
}

/* Where the segments answer, every mode's complete search of the whole program finds no
 * deadlock; counts (in ctx) the cases they answered. */
static void segments_of_case(const char *dir, void *ctx)
{
	static const struct mpiv_buffering given[] = {{MPIV_BUF_ZERO, 0, 0},
						      {MPIV_BUF_INFINITE, 0, 0},
						      {MPIV_BUF_EAGER, 16, 0}};
	struct mpiv_traceset ts;
	struct tr_segmented seg;
	int m, *answered = ctx;

	if (unit_case_load(dir, &ts))
		return;
	if (tr_check_segments(&ts, 3, given, (int)(sizeof(given) / sizeof(given[0])), 0, &seg)) {
		(*answered)++;
		for (m = 0; m < seg.nmodes; m++) {
			struct eng_prog prog;
			long done, dl;

			if (unit_case_translate(dir, &ts, tr_buffering(seg.modes[m].mode),
						seg.modes[m].bytes, &prog))
				break;
			prog.sync_colls = seg.modes[m].sync_colls;
			dl = unit_explore(&prog, &done);
			if (dl != 0) {
				fprintf(stderr,
					"\n%s: the segments say no deadlock, the whole program "
					"has %ld deadlock states (mode %d)\n",
					dir, dl, m);
				CU_FAIL("segments and the whole program disagree");
			}
			eng_prog_release(&prog);
		}
		free(seg.warns);
	}
	mpiv_traceset_release(&ts);
}

static void test_segments_as_whole(void)
{
	int answered = 0;

	unit_each_case(segments_of_case, &answered);
	CU_ASSERT(answered > 5);
}

static CU_TestInfo segment_tests[] = {
	{"every cut found is one", test_cuts_hold},
	{"cuts between round trips, none past a wildcard", test_cut_positions},
	{"cuts after any-completions, none while a request is live", test_cut_after_any_completion},
	{"after wildcards, cuts only after a synchronising collective", test_cut_after_wildcards},
	{"no cut in a rank with threads", test_threads_not_cut},
	{"no deadlock by segments: none in the whole program", test_segments_as_whole},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo segment_suite = {"segments", NULL, NULL, NULL, NULL, segment_tests};
