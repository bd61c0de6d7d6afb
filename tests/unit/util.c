/* Helpers of the CUnit tests: cases stated as JSON, and a native exhaustive search over the
 * engine's choices (the same semantics SPIN explores, without SPIN). */
#include <stdarg.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#include "translate.h"
#include "tr_explore.h"
#include "unit.h"
#include "xalloc.h"

const char *unit_cases_dir(void)
{
	const char *d = getenv("MPIV_MODEL_CASES");

	return d && *d ? d : "tests/model/cases";
}

const char *unit_data_dir(void)
{
	const char *d = getenv("MPIV_UNIT_DATA");

	return d && *d ? d : "tests/unit/data";
}

int unit_each_case(void (*fn)(const char *dir, void *ctx), void *ctx)
{
	DIR *d = opendir(unit_cases_dir());
	struct dirent *e;
	int n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	while ((e = readdir(d))) {
		char path[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", unit_cases_dir(), e->d_name);
		fn(path, ctx);
		n++;
	}
	closedir(d);
	return n;
}

int unit_case_load(const char *dir, struct mpiv_traceset *ts)
{
	struct mpiv_error err;

	mpiv_error_init(&err);
	if (!mpiv_traceset_load(dir, ts, &err))
		return 0;
	fprintf(stderr, "\n%s: %s\n", dir, err.text);
	CU_FAIL("case did not load");
	return -1;
}

int unit_case_translate(const char *dir, const struct mpiv_traceset *ts, enum eng_buffering b,
			long long eager, struct eng_prog *prog)
{
	struct tr_opts opts = {b, eager, 0, 0, 0};
	struct mpiv_error err;

	mpiv_error_init(&err);
	if (!tr_translate(ts, &opts, prog, &err))
		return 0;
	fprintf(stderr, "\n%s: %s\n", dir, err.text);
	CU_FAIL("case did not translate");
	return -1;
}

/* The run's own temporary directory, which unit_tmpdir() makes the others in: one to remove
 * at the end, so that runs leave nothing behind in /tmp. */
static char tmproot[64];

/* Remove path and, if it is a directory, all in it (not following links). */
static void remove_tree(const char *path)
{
	struct stat sb;
	DIR *d;
	struct dirent *e;
	char sub[512];

	if (lstat(path, &sb))
		return;
	if (S_ISDIR(sb.st_mode) && (d = opendir(path))) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
				remove_tree(sub);
			}
		closedir(d);
	}
	remove(path);
}

void unit_tmpdir_remove(void)
{
	if (tmproot[0])
		remove_tree(tmproot);
	tmproot[0] = 0;
}

const char *unit_tmpdir(void)
{
	static char dir[96];
	static unsigned n;

	if (!tmproot[0]) {
		snprintf(tmproot, sizeof(tmproot), "/tmp/mpiv-unit-XXXXXX");
		if (!mkdtemp(tmproot)) {
			tmproot[0] = 0;
			return NULL;
		}
	}
	snprintf(dir, sizeof(dir), "%s/%u", tmproot, n++);
	if (mkdir(dir, 0700))
		return NULL;
	return dir;
}

/* Write ranks[] as rank-N.json into the temporary directory, each the top level after its
 * rank and size as fmt makes it of the string given, and load them. */
static int load_json(const char *const ranks[], const char *fmt, struct mpiv_traceset *ts)
{
	const char *dir = unit_tmpdir();
	struct mpiv_error err;
	char path[256];
	int n = 0, r;

	while (ranks[n])
		n++;
	for (r = 0; r < n; r++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/rank-%d.json", dir, r);
		f = fopen(path, "w");
		if (!f)
			return -1;
		fprintf(f,
			"{\"format\": \"mpiverify-trace\", \"version\": 1, \"rank\": %d, "
			"\"size\": %d, ",
			r, n);
		fprintf(f, fmt, ranks[r]);
		fprintf(f, "}\n");
		fclose(f);
	}
	mpiv_error_init(&err);
	if (mpiv_traceset_load(dir, ts, &err)) {
		char buf[1024];

		mpiv_error_format(&err, buf, sizeof(buf));
		fprintf(stderr, "unit_load_case: %s\n", buf);
		return -1;
	}
	return 0;
}

int unit_load_case(const char *const events[], struct mpiv_traceset *ts)
{
	return load_json(events, "\"events\": %s", ts);
}

int unit_load_ranks(const char *const ranks[], struct mpiv_traceset *ts)
{
	return load_json(ranks, "%s", ts);
}

/* r's program of its loaded traces, for verify, its inputs filled in. Returns 0 or -1. */
static int run_translate(struct unit_run *r)
{
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 1, 0};

	if (tr_translate(&r->ts, &opts, &r->prog, NULL)) {
		mpiv_traceset_release(&r->ts);
		return -1;
	}
	xmodel_fill_inputs(&r->prog, &r->ts);
	return 0;
}

int unit_run_load(const char *const ranks[], int events, struct unit_run *r)
{
	memset(r, 0, sizeof(*r));
	if ((events ? unit_load_case : unit_load_ranks)(ranks, &r->ts))
		return -1;
	return run_translate(r);
}

int unit_run_load_dir(const char *dir, struct unit_run *r)
{
	char path[512];

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/%s", unit_data_dir(), dir);
	if (mpiv_traceset_load_records(path, &r->ts, NULL) < 0)
		return -1;
	return run_translate(r);
}

void unit_run_release(struct unit_run *r)
{
	eng_prog_release(&r->prog);
	mpiv_traceset_release(&r->ts);
}

int unit_merge_search(struct unit_run *runs, int n, enum eng_buffering b, struct xmodel *m,
		      struct tr_explore_result *res)
{
	struct eng_prog *progs[4];
	struct mpiv_traceset *sets[4];
	struct tr_explore_opts eo;
	int i;

	for (i = 0; i < n && i < 4; i++) {
		progs[i] = &runs[i].prog;
		sets[i] = &runs[i].ts;
	}
	if (n > 4 || xmodel_build(progs, sets, n, 0, m, NULL))
		return -1;
	m->prog.buffering = b;
	memset(&eo, 0, sizeof(eo));
	return tr_explore(&m->prog, &eo, res);
}

void unit_expect_explored(struct tr_explore_result *res)
{
	CU_ASSERT(res->complete);
	CU_ASSERT_EQUAL(res->nstuck, 0);
	CU_ASSERT_EQUAL(res->nfrontiers, 0);
	tr_explore_release(res);
}

static long explore(const struct eng_prog *p, const int32_t *st, long *done, int depth)
{
	size_t bytes = eng_state_bytes(p);
	int n = eng_nchoices(p, st), k;
	long dl = 0;

	if (st[ENG_ST_OVERFLOW] || depth > 10000)
		return -1;
	if (n == 0) {
		if (eng_all_done(p, st))
			(*done)++;
		else
			dl++;
		return dl;
	}
	for (k = 0; k < n; k++) {
		int32_t *next = xmalloc(bytes);
		long sub;

		memcpy(next, st, bytes);
		eng_choose(p, next, k);
		sub = explore(p, next, done, depth + 1);
		free(next);
		if (sub < 0)
			return -1;
		dl += sub;
	}
	return dl;
}

long unit_explore(const struct eng_prog *prog, long *done)
{
	int32_t *st = xmalloc(eng_state_bytes(prog));
	long dl;

	*done = 0;
	eng_start(prog, st);
	dl = explore(prog, st, done, 0);
	free(st);
	return dl;
}

long unit_deadlocks(const char *const events[], enum eng_buffering b)
{
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct tr_opts opts = {b, 0, 0, 0, 0};
	struct mpiv_error err;
	long dl, done;

	if (unit_load_case(events, &ts))
		return -2;
	mpiv_error_init(&err);
	if (tr_translate(&ts, &opts, &prog, &err)) {
		mpiv_traceset_release(&ts);
		return -2;
	}
	dl = unit_explore(&prog, &done);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return dl;
}

void unit_add(struct unit_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!b->s) {
		b->cap = 256;
		b->s = xmalloc(b->cap);
		b->len = 0;
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if ((size_t)n < b->cap - b->len)
			break;
		b->cap = 2 * b->cap + (size_t)n + 64;
		b->s = xrealloc(b->s, b->cap);
	}
	b->len += (size_t)n;
}
