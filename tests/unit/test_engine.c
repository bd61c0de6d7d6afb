/* The model's semantics (models/engine.c) on every case of tests/model/cases: each case is a
 * trace directory written as JSON with an `expect` file giving the verdict per buffering mode.
 * tests/model/run.sh checks the same cases through SPIN, so the two searches are compared on
 * every rule the model encodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "unit.h"
#include "xalloc.h"

/* An expect file's mode: zero, infinite or eager:N, the buffered ones with "-sync" for the
 * search whose collectives synchronise (*sync 1). Returns 0 or -1. */
static int parse_mode(const char *s, struct tr_opts *o, int *sync)
{
	char base[64];
	size_t n = strlen(s);

	memset(o, 0, sizeof(*o));
	*sync = n > 5 && !strcmp(s + n - 5, "-sync");
	if (n >= sizeof(base))
		return -1;
	memcpy(base, s, n + 1);
	if (*sync)
		base[n - 5] = '\0';
	if (!strcmp(base, "zero") && !*sync)
		o->buffering = ENG_BUF_ZERO;
	else if (!strcmp(base, "infinite"))
		o->buffering = ENG_BUF_INFINITE;
	else if (!strncmp(base, "eager:", 6)) {
		o->buffering = ENG_BUF_EAGER;
		o->eager = atoll(base + 6);
	} else {
		return -1;
	}
	return 0;
}

/* Check one case; returns the number of (mode, verdict) lines checked. */
static int check_case(const char *dir)
{
	char path[512], line[256], mode[64], verdict[64];
	struct mpiv_traceset ts;
	struct mpiv_error err;
	FILE *f;
	int n = 0;

	mpiv_error_init(&err);
	if (mpiv_traceset_load(dir, &ts, &err)) {
		fprintf(stderr, "\n%s: %s\n", dir, err.text);
		CU_FAIL("case did not load");
		return 0;
	}
	CU_ASSERT_FATAL(snprintf(path, sizeof(path), "%s/expect", dir) < (int)sizeof(path));
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f)) {
		struct tr_opts opts;
		struct eng_prog prog;
		long dl, done;
		int sync;

		if (line[0] == '#' || sscanf(line, "%63s %63s", mode, verdict) != 2)
			continue;
		CU_ASSERT_FATAL(parse_mode(mode, &opts, &sync) == 0);
		mpiv_error_init(&err);
		if (tr_translate(&ts, &opts, &prog, &err)) {
			fprintf(stderr, "\n%s: %s: event %ld: %s\n", dir, mode, err.event,
				err.text);
			CU_FAIL("case did not translate");
			break;
		}
		prog.sync_colls = sync;
		dl = unit_explore(&prog, &done);
		if ((dl > 0) != !strcmp(verdict, "deadlock") || dl < 0) {
			fprintf(stderr,
				"\n%s: %s: expected %s, the engine found %ld deadlock "
				"states\n",
				dir, mode, verdict, dl);
			CU_FAIL("wrong verdict");
		}
		/* a case with no deadlock must still finish somewhere */
		if (dl == 0)
			CU_ASSERT(done > 0);
		eng_prog_release(&prog);
		n++;
	}
	fclose(f);
	mpiv_traceset_release(&ts);
	return n;
}

static void check_one(const char *dir, void *nlines)
{
	*(int *)nlines += check_case(dir);
}

static void test_cases(void)
{
	int nlines = 0, ncases = unit_each_case(check_one, &nlines);

	/* an empty or unreadable case directory must not pass for success */
	CU_ASSERT(ncases >= 10);
	CU_ASSERT(nlines >= 2 * ncases);
}

/* Does instruction y, read back from model.dat, say what x said? Only the fields x's opcode
 * has (struct eng_instr shares storage between the others). */
static int same_instr(const struct eng_instr *x, const struct eng_instr *y)
{
	int coll = x->op == ENG_COLL || x->op == ENG_ICOLL;

	if (x->op != y->op || x->ev != y->ev || x->a != y->a || x->b != y->b || x->c != y->c ||
	    x->d != y->d || x->reg != y->reg)
		return 0;
	if (coll ? x->call != y->call : x->sym != y->sym)
		return 0;
	if ((x->op == ENG_POST_SEND && x->site != y->site) ||
	    (x->op == ENG_POST_RECV && x->cancel != y->cancel))
		return 0;
	if (!ENG_LISTED(x->op))
		return x->bytes == y->bytes;
	return x->n == y->n &&
	       (x->n == 0 || !memcmp(x->list, y->list, (size_t)x->n * sizeof(*x->list)));
}

/* Every case, in each mode, plain and for verify: written as model.dat and read back, the
 * program is the same, instruction by instruction. */
static void round_trip(const char *dir, void *ctx)
{
	static const enum eng_buffering modes[] = {ENG_BUF_ZERO, ENG_BUF_INFINITE, ENG_BUF_EAGER};
	int *compared = ctx;
	struct mpiv_traceset ts;
	size_t m;
	int verify;

	if (unit_case_load(dir, &ts))
		return;
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (verify = 0; verify < 2; verify++) {
			struct tr_opts opts = {modes[m], 64, 0, verify, 0};
			struct eng_prog a, b;
			struct mpiv_error err;
			char *text = NULL, msg[256] = "";
			size_t len = 0;
			FILE *f;
			int q, i, diff = 0;

			mpiv_error_init(&err);
			if (tr_translate(&ts, &opts, &a, &err))
				continue; /* a case check refuses: the bad-input tests' */
			/* the cases name no call sites: give verify's sends some, of the 31 bits
			 * tr_site_key() hashes them to */
			for (q = 0; verify && q < a.nprocs; q++)
				for (i = 0; i < a.nins[q]; i++)
					if (a.ins[q][i].op == ENG_POST_SEND)
						a.ins[q][i].site = INT32_MAX - (i % 7);
			/* the header's flag both ways: set where sends are buffered, for verify */
			a.sync_colls = modes[m] != ENG_BUF_ZERO && verify;
			f = open_memstream(&text, &len);
			CU_ASSERT_PTR_NOT_NULL_FATAL(f);
			CU_ASSERT_EQUAL(eng_prog_write(&a, f), 0);
			fclose(f);
			f = fmemopen(text, len, "r");
			CU_ASSERT_PTR_NOT_NULL_FATAL(f);
			CU_ASSERT_EQUAL(eng_prog_read(&b, f, msg, sizeof(msg)), 0);
			fclose(f);
			if (msg[0])
				fprintf(stderr, "\n%s (mode %d, verify %d): %s\n", dir,
					(int)modes[m], verify, msg);
			CU_ASSERT_EQUAL(a.nprocs, b.nprocs);
			CU_ASSERT_EQUAL(a.sync_colls, b.sync_colls);
			for (q = 0; !msg[0] && q < a.nprocs && q < b.nprocs; q++) {
				CU_ASSERT_EQUAL(a.nins[q], b.nins[q]);
				for (i = 0; i < a.nins[q] && i < b.nins[q]; i++)
					if (!same_instr(&a.ins[q][i], &b.ins[q][i]) && !diff++)
						fprintf(stderr,
							"\n%s (mode %d, verify %d): process %d, "
							"instruction %d (opcode %d) read back "
							"otherwise\n",
							dir, (int)modes[m], verify, q, i,
							a.ins[q][i].op);
				*compared += i;
			}
			CU_ASSERT_EQUAL(diff, 0);
			eng_prog_release(&b);
			eng_prog_release(&a);
			free(text);
		}
	}
	mpiv_traceset_release(&ts);
}

static void test_model_dat_round_trip(void)
{
	int compared = 0;

	unit_each_case(round_trip, &compared);
	CU_ASSERT(compared >= 1000); /* instructions compared: not an empty directory */
}

struct matches {
	int recv_instr[8], send_instr[8], n;
};

static void note_match(void *ctx, int d, int ri, const struct eng_instr *rin, int s, int si,
		       const struct eng_instr *sin)
{
	struct matches *m = ctx;

	(void)d;
	(void)s;
	if (m->n < 8) {
		m->recv_instr[m->n] = ri;
		m->send_instr[m->n] = si;
	}
	m->n++;
}

/* Matching by tag, seen from the inside: Irecv(tag 0) takes the second message (tag 0), the
 * ANY_TAG receive the first (tag 5), whatever order they were posted in. */
static void test_match_by_tag(void)
{
	char dir[512];
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	struct eng_observer obs;
	struct matches m;
	int32_t *st;

	snprintf(dir, sizeof(dir), "%s/match-by-tag", unit_cases_dir());
	CU_ASSERT_FATAL(mpiv_traceset_load(dir, &ts, NULL) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &prog, NULL) == 0);
	memset(&m, 0, sizeof(m));
	obs.ctx = &m;
	obs.match = note_match;
	obs.exec = NULL;
	prog.obs = &obs;
	st = xmalloc(eng_state_bytes(&prog));
	eng_start(&prog, st);
	CU_ASSERT(eng_all_done(&prog, st));
	CU_ASSERT_EQUAL_FATAL(m.n, 2);
	/* rank 1: instruction 0 Irecv(tag 0), 1 Irecv(ANY_TAG); rank 0: 0 Isend(5), 1 Isend(0) */
	CU_ASSERT(m.recv_instr[0] == 0 && m.send_instr[0] == 1);
	CU_ASSERT(m.recv_instr[1] == 1 && m.send_instr[1] == 0);
	free(st);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
}

/* Every state the search stores must be the same bytes for the same MPI state. */
static void test_canonical_state(void)
{
	char dir[512];
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct tr_opts opts = {ENG_BUF_INFINITE, 0, 0, 0, 0};
	int32_t *a, *b;

	/* wildcard-gather: taking rank 1 then rank 2, or 2 then 1, ends in the same state
	 * (searched in full: the reduction would offer rank 1's message alone) */
	snprintf(dir, sizeof(dir), "%s/wildcard-gather", unit_cases_dir());
	CU_ASSERT_FATAL(mpiv_traceset_load(dir, &ts, NULL) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &prog, NULL) == 0);
	prog.full = 1;
	a = xmalloc(eng_state_bytes(&prog));
	b = xmalloc(eng_state_bytes(&prog));
	eng_start(&prog, a);
	CU_ASSERT_EQUAL_FATAL(eng_nchoices(&prog, a), 2);
	memcpy(b, a, eng_state_bytes(&prog));
	eng_choose(&prog, a, 0);
	eng_choose(&prog, a, 0);
	eng_choose(&prog, b, 1);
	eng_choose(&prog, b, 0);
	CU_ASSERT(eng_all_done(&prog, a) && eng_all_done(&prog, b));
	CU_ASSERT_EQUAL(memcmp(a, b, eng_state_bytes(&prog)), 0);
	free(a);
	free(b);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
}

/* model.dat of a head-to-head send cycle, as the translator writes it; %s is replaced by
 * each case's instruction 0 of rank 0 (its send). */
static const char model_dat[] =
	"mpiverify-model 6\n"
	"nranks 2 nprocs 2 ncomms 3 maxlive 1 maxmsg 2 buffering 0 eager 0 sync_colls 0 "
	"bsend_overhead 0 nregs %d verify %d full 0\n"
	"comm 0 2 0 1\ncomm 1 1 0\ncomm 2 1 1\n"
	"proc 0 0 0 5\n%s\n3 1 0 0 0 1 0 0 0 0 1 0\n2 2 1 0 0 0 4 0 0 0 0\n"
	"3 2 0 0 0 1 0 0 0 0 1 2\n5 3 0 0 0 0 0 0 0 0 0\n"
	"proc 1 1 0 5\n1 1 0 0 0 0 4 0 0 0 0\n3 1 0 0 0 1 0 0 0 0 1 0\n"
	"2 2 0 0 0 0 4 0 0 0 0\n3 2 0 0 0 1 0 0 0 0 1 2\n5 3 0 0 0 0 0 0 0 0 0\nlocks 0\n"
	"start %s\n";

/* A program of verify's: rank 0 branches (%s: its instruction 0), then ends; rank 1 ends. */
static const char model_dat_verify[] =
	"mpiverify-model 6\n"
	"nranks 2 nprocs 2 ncomms 3 maxlive 1 maxmsg 2 buffering 0 eager 0 sync_colls 0 "
	"bsend_overhead 0 nregs 1 verify 1 full 0\n"
	"comm 0 2 0 1\ncomm 1 1 0\ncomm 2 1 1\n"
	"proc 0 0 0 2\n%s\n5 3 0 0 0 0 0 0 0 0 0\n"
	"proc 1 1 0 1\n5 3 0 0 0 0 0 0 0 0 0\nlocks 0\nstart 0\n";

/* verify's branches: a register of the program, ways on to its instructions. */
static void test_model_dat_verify(void)
{
	static const struct {
		const char *branch;
		int ok;
	} cases[] = {
		{"13 1 0 0 0 0 0 0 0 0 5 1 0 0 0 0", 1},	    /* one way on */
		{"13 1 0 0 0 0 0 0 1 0 10 1 0 0 0 0 1 1 0 0 0", 1}, /* two ways on */
		{"13 1 -1 0 0 0 0 0 0 0 5 1 0 0 0 0", 1},	    /* on no register */
		{"13 1 1 0 0 0 0 0 0 0 5 1 0 0 0 0", 0},	    /* on a register beyond */
		{"13 1 0 0 0 0 0 0 0 0 5 2 0 0 0 0", 0},	    /* to an instruction beyond */
		{"13 1 0 0 0 0 0 0 0 0 5 -1 0 0 0 0", 0},	    /* to none */
		{"13 1 0 0 0 0 0 0 0 0 4 1 0 0 0", 0},		    /* half a way */
		{"13 1 0 0 0 0 0 0 0 0 0", 0},			    /* no way at all */
		{"13 1 -1 0 0 0 0 0 1 0 5 1 0 0 0 0", 0},	    /* comparing no register */
		{"13 1 0 0 0 0 0 0 64 0 5 1 0 0 0 0", 0},	    /* an unknown part */
	};
	char text[1024], msg[256];
	struct eng_prog prog;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), model_dat_verify, cases[i].branch);
		f = fmemopen(text, strlen(text), "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		msg[0] = '\0';
		CU_ASSERT_EQUAL(eng_prog_read(&prog, f, msg, sizeof(msg)), cases[i].ok ? 0 : -1);
		if (cases[i].ok != !msg[0])
			fprintf(stderr, "\n'%s': %s\n", cases[i].branch, msg);
		if (cases[i].ok) {
			int32_t *st = xmalloc(eng_state_bytes(&prog));

			/* the register holds 0 (no input): the first way takes it, and ends */
			eng_start(&prog, st);
			CU_ASSERT(eng_nchoices(&prog, st) > 0 || eng_all_done(&prog, st));
			free(st);
		}
		eng_prog_release(&prog);
		fclose(f);
	}
}

/* pan reads model.dat with the engine: every operand is checked against what the engine
 * indexes with it (before, a send to rank -7 reached the message table as a shift of a
 * negative number). */
static void test_model_dat(void)
{
	static const struct {
		const char *send; /* rank 0's first instruction */
		int ok;
		int verify; /* a program of verify's, with one register */
	} cases[] = {
		{"1 1 1 0 0 0 4 0 0 0 0", 1, 0},
		{"1 1 -2 0 0 0 4 0 0 0 0", 1, 0},	    /* to MPI_PROC_NULL */
		{"1 1 -7 0 0 0 4 0 0 0 0", 0, 0},	    /* to no rank */
		{"1 1 2 0 0 0 4 0 0 0 0", 0, 0},	    /* to a rank beyond */
		{"1 1 -1 0 0 0 4 0 0 0 0", 0, 0},	    /* a send to MPI_ANY_SOURCE */
		{"1 1 1 3 0 0 4 0 0 0 0", 0, 0},	    /* on a communicator beyond */
		{"1 1 1 0 -4 0 4 0 0 0 0", 0, 0},	    /* a negative tag */
		{"1 1 1 0 0 9 4 0 0 0 0", 0, 0},	    /* an unknown send mode */
		{"2 1 -7 0 0 0 4 0 0 0 0", 0, 0},	    /* a receive from no rank */
		{"8 1 -7 0 0 0 0 0 0 0 0", 0, 0},	    /* a probe of no rank */
		{"4 1 0 0 1 5 0 0 0 0 0", 0, 0},	    /* a collective rooted beyond */
		{"4 1 0 7 1 0 0 0 0 0 0", 0, 0},	    /* an unknown collective rule */
		{"6 1 0 5 1 0 0 0 0 0 1 1", 1, 0},	    /* waits for its in-neighbour 1 */
		{"6 1 0 5 1 0 0 0 0 0 0", 1, 0},	    /* for none */
		{"6 1 0 5 1 0 0 0 0 0 1 2", 0, 0},	    /* for a rank beyond */
		{"6 1 1 5 1 0 0 0 0 0 1 1", 0, 0},	    /* for a non-member */
		{"6 1 0 0 1 0 0 0 0 0 1 1", 0, 0},	    /* a list under another rule */
		{"6 1 0 6 1 0 0 0 0 0 0", 0, 0},	    /* a rule beyond ENG_COLL_LIST */
		{"3 1 0 0 0 1 0 0 0 0 1 0", 0, 0},	    /* a wait for itself */
		{"15 1 0 0 0 0 0 0 0 0 0", 0, 0},	    /* an unknown opcode */
		{"14 1 0 0 0 0 0 0 0 0 0", 0, 0},	    /* a cancel of no earlier post */
		{"22 1 0 0 0 0 0 0 0 0 0", 1, 0},	    /* a generalized request */
		{"23 1 0 0 0 0 0 0 0 0 0", 0, 0},	    /* the completion of no earlier
								 * generalized request */
		{"24 1 0 0 0 0 0 0 0 0 0", 0, 0},	    /* an unknown opcode */
		{"13 1 0 0 0 0 0 0 0 0 5 1 0 0 0 0", 0, 0}, /* a branch outside verify */
		{"1 1 1 0 0 0 4 1 1 0 0", 0, 0},	    /* a send following outside verify */
		{"3 1 0 0 0 1 0 0 1 0 1 0", 0, 0},	    /* a wait for live posts, outside */
		/* verify's programs: branches, registers, posts that follow */
		{"1 1 1 0 0 0 4 1 1 0 0", 1, 1},	  /* a send following register 0 */
		{"1 1 1 0 0 0 4 2 1 0 0", 0, 1},	  /* a register beyond */
		{"1 1 1 0 0 0 4 0 1 0 0", 0, 1},	  /* following no register */
		{"2 1 1 0 0 0 4 1 1 1 0", 1, 1},	  /* a receive following one */
		{"2 1 1 0 0 0 4 1 1 2 0", 0, 1},	  /* a register beyond */
		{"2 1 1 0 0 0 4 1 1 0 0", 0, 1},	  /* following no register */
		{"14 1 0 0 0 0 0 0 0 0 0", 0, 1},	  /* a cancel in verify */
		{"1 1 1 0 0 0 4 0 0 0 2147483647", 0, 0}, /* a list longer than the file */
		/* the fields that share storage in struct eng_instr, each where its opcode
		 * has it and nowhere else */
		{"1 1 1 0 0 0 4 0 0 7 0", 1, 0},	  /* a send's call site */
		{"1 1 1 0 0 0 4 0 0 2147483647 0", 1, 0}, /* of 31 bits */
		{"1 1 1 0 0 0 4 0 0 0 1 0", 0, 0},	  /* a send with a list */
		{"2 1 1 0 0 0 4 0 0 7 0", 0, 0},	  /* a receive with a site */
		{"6 1 0 5 1 0 0 0 0 40 1 1", 1, 0},	  /* a collective's call */
		{"6 1 0 5 1 0 0 0 0 40000 1 1", 0, 0},	  /* a call beyond any */
		{"6 1 0 5 1 0 8 0 0 0 1 1", 0, 0},	  /* a collective with a size */
		{"6 1 0 5 1 0 0 0 2 0 1 1", 0, 0},	  /* a collective with sym */
		{"11 1 0 0 0 0 64 0 0 0 1 0", 0, 0},	  /* a buffer attached with a list */
	};
	/* start states (check's handoff), in the layout of that program: header, pc[2],
	 * coll[3 * 2], nlive[2], live[2 * 1], msg[2 * 2] */
	static const struct {
		const char *words;
		int ok;
	} starts[] = {
		{"0", 1}, /* none */
		{"21 "
		 "0 0 0 0 0  0 0  0 0 0 0 0 0  0 0  0 0  0 0 0 0",
		 1}, /* the start */
		/* rank 0 posted its send: live, and its message in flight to rank 1 */
		{"21 "
		 "0 1 0 0 0  1 0  0 0 0 0 0 0  1 0  0 0  65536 1 0 0",
		 1},
		{"20 "
		 "0 0 0 0 0  0 0  0 0 0 0 0 0  0 0  0 0  0 0 0",
		 0}, /* too short */
		{"21 "
		 "0 0 0 0 0  5 0  0 0 0 0 0 0  0 0  0 0  0 0 0 0",
		 0}, /* pc beyond */
		{"21 "
		 "0 0 0 0 0  0 0  0 0 0 0 0 0  1 0  0 0  0 0 0 0",
		 0}, /* a live request
										 * not posted */
		{"21 "
		 "0 1 0 0 0  1 0  0 0 0 0 0 0  1 0  0 0  65536 3 0 0",
		 0}, /* a message of
										 * no send */
		{"21 "
		 "0 1 0 0 0  1 0  0 0 0 0 0 0  1 0  0 0  65541 1 0 0",
		 0}, /* from no
										 * process */
		{"21 "
		 "0 0 0 0 0  1 0  0 0 0 0 0 0  1 0  0 0  65536 1 0 0",
		 0}, /* a message
										 * not counted */
		{"21 "
		 "0 1 0 0 0  1 0  0 0 0 0 0 0  1 0  0 0  65536 1 0 7",
		 0}, /* a word past
										 * the messages */
	};
	char text[1024], msg[256];
	struct eng_prog prog;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		snprintf(text, sizeof(text), model_dat, 0, 0, cases[0].send, starts[i].words);
		f = fmemopen(text, strlen(text), "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		msg[0] = '\0';
		CU_ASSERT_EQUAL(eng_prog_read(&prog, f, msg, sizeof(msg)), starts[i].ok ? 0 : -1);
		if (starts[i].ok != !msg[0])
			fprintf(stderr, "\nstart '%s': %s\n", starts[i].words, msg);
		if (starts[i].ok && prog.start) {
			int32_t *st = xmalloc(eng_state_bytes(&prog));

			/* a search from there: rank 1 receives, both go on to their end */
			eng_start(&prog, st);
			CU_ASSERT_EQUAL(eng_pc(&prog, st, 0), eng_pc(&prog, st, 1));
			free(st);
		}
		eng_prog_release(&prog);
		fclose(f);
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), model_dat, cases[i].verify, cases[i].verify,
			 cases[i].send, "0");
		f = fmemopen(text, strlen(text), "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		msg[0] = '\0';
		CU_ASSERT_EQUAL(eng_prog_read(&prog, f, msg, sizeof(msg)), cases[i].ok ? 0 : -1);
		if (cases[i].ok != !msg[0])
			fprintf(stderr, "\n'%s': %s\n", cases[i].send, msg);
		eng_prog_release(&prog);
		fclose(f);
	}
	/* sizes whose state would not fit */
	snprintf(text, sizeof(text),
		 "mpiverify-model 6\nnranks 30000 nprocs 30000 ncomms 2000000 "
		 "maxlive 1 maxmsg 1 buffering 0 eager 0 sync_colls 0 bsend_overhead 0 nregs 0 "
		 "verify 0 full 0\n");
	f = fmemopen(text, strlen(text), "r");
	CU_ASSERT_EQUAL(eng_prog_read(&prog, f, msg, sizeof(msg)), -1);
	CU_ASSERT(strstr(msg, "state larger") != NULL);
	eng_prog_release(&prog);
	fclose(f);
}

static CU_TestInfo engine_tests[] = {
	{"model.dat: operands checked", test_model_dat},
	{"model.dat: verify's branches checked", test_model_dat_verify},
	{"model.dat: every case read back as written", test_model_dat_round_trip},
	{"every case of tests/model/cases", test_cases},
	{"match by tag", test_match_by_tag},
	{"canonical states", test_canonical_state},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo engine_suite = {"engine", NULL, NULL, NULL, NULL, engine_tests};
