/* Shared helpers of the fuzz targets (fuzz.h). */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "model.h"
#include "translate.h"
#include "xalloc.h"
#include "tr_check.h"
#include "tr_explore.h"

#define MAX_STEPS 64	    /* choices taken on a walk through the search */
#define MAX_WORDS (1 << 20) /* larger states are not walked: the input is about sizes */

static char dir[256];

static void remove_dir(void)
{
	fuzz_clear();
	rmdir(dir);
}

const char *fuzz_dir(void)
{
	const char *base = getenv("TMPDIR");

	if (dir[0])
		return dir;
	/* tmpfs where there is one: a file per input is written and read again */
	if (!base || !*base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof(dir), "%s/mpiv-fuzz-XXXXXX", base);
	if (!mkdtemp(dir))
		fuzz_fail("cannot make a scratch directory under '%s'", base);
	atexit(remove_dir);
	return dir;
}

const char *fuzz_write(const char *name, const void *data, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		fuzz_fail("cannot write '%s'", path);
	return path;
}

void fuzz_clear(void)
{
	char path[600];
	struct dirent *e;
	DIR *d = opendir(fuzz_dir());

	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* Write rank r of ts back in both formats; each must read again, the same length. */
static void roundtrip(const struct mpiv_rank_trace *t)
{
	struct mpiv_rank_trace back;
	struct mpiv_error err;
	char path[512], text[1024];
	int json;

	for (json = 0; json < 2; json++) {
		snprintf(path, sizeof(path), "%s/copy.%s", fuzz_dir(), json ? "json" : "mpivt");
		mpiv_error_init(&err);
		if ((json ? mpiv_trace_save_json : mpiv_trace_save_bin)(path, t, &err))
			fuzz_fail("cannot write '%s'", path);
		if ((json ? mpiv_trace_load_json : mpiv_trace_load_bin)(path, &back, &err)) {
			mpiv_error_format(&err, text, sizeof(text));
			fuzz_fail("rank %d written as %s does not read again: %s", t->rank,
				  json ? "JSON" : "binary", text);
		}
		if (back.nevents != t->nevents || back.ncomms != t->ncomms ||
		    back.truncated != t->truncated)
			fuzz_fail("rank %d written as %s reads as another trace", t->rank,
				  json ? "JSON" : "binary");
		mpiv_rank_trace_release(&back);
		unlink(path);
	}
}

/* model.dat as the translator writes it must read again. */
static void reread_model(const struct eng_prog *prog)
{
	struct eng_prog back;
	char *buf = NULL, msg[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || eng_prog_write(prog, f) || fclose(f))
		fuzz_fail("cannot write model.dat");
	f = fmemopen(buf, len, "r");
	if (!f)
		fuzz_fail("cannot read model.dat back");
	if (eng_prog_read(&back, f, msg, sizeof(msg)))
		fuzz_fail("the model.dat the translator wrote does not read: %s", msg);
	if (back.words != prog->words)
		fuzz_fail("model.dat reads with %d state words, written with %d", back.words,
			  prog->words);
	eng_prog_release(&back);
	fclose(f);
	free(buf);
}

/* check's own pass: the forced path, and the program cut where it ends, which must read
 * again as model.dat and start where the path ended. */
static void forced_and_cut(const struct eng_prog *prog)
{
	int32_t *st = xcalloc(eng_state_bytes(prog), 1);
	struct eng_prog cut;

	tr_forced_path(prog, st);
	if (eng_nchoices(prog, st) > 1 && tr_cut(prog, st, &cut)) {
		int32_t *cst = xcalloc(eng_state_bytes(&cut), 1);

		reread_model(&cut);
		eng_start(&cut, cst);
		if (eng_nchoices(&cut, cst) != eng_nchoices(prog, st))
			fuzz_fail("the program cut offers %d choices where the whole offers %d",
				  eng_nchoices(&cut, cst), eng_nchoices(prog, st));
		free(cst);
		eng_prog_release(&cut);
	}
	free(st);
}

/* Walk the search from the start, taking the picked choices, then make the counterexample
 * of that state as check does for a trail. */
static void walk(const struct eng_prog *prog, const struct mpiv_traceset *ts, const uint8_t *picks,
		 size_t npicks)
{
	int32_t *st = xcalloc(eng_state_bytes(prog), 1);
	int *out = xcalloc((size_t)prog->nprocs, sizeof(int));
	static const struct mpiv_buffering zero = {MPIV_BUF_ZERO, 0, 0};
	int choices[MAX_STEPS], n = 0, r, i, nc, d, ri, s, si;
	struct mpiv_error err;
	struct mpiv_cex cex;
	char text[1024];

	eng_start(prog, st);
	while (n < MAX_STEPS && (nc = eng_nchoices(prog, st)) > 0) {
		choices[n] = npicks ? picks[(size_t)n % npicks] % nc : 0;
		eng_choice(prog, st, choices[n], &d, &ri, &s, &si);
		eng_choose(prog, st, choices[n]);
		n++;
	}
	for (r = 0; r < prog->nprocs; r++) {
		int m = eng_waits_for(prog, st, r, out);

		for (i = 0; i < m; i++)
			if (out[i] < 0 || out[i] >= prog->nprocs)
				fuzz_fail("process %d waits for process %d of %d", r, out[i],
					  prog->nprocs);
		eng_left_path(prog, st, r);
	}
	eng_all_done(prog, st);
	for (i = 0; i < eng_unreceived(prog, st); i++)
		eng_message(prog, st, i, &s, &si, &d);
	mpiv_error_init(&err);
	if (tr_cex(prog, ts, 0, choices, n, &zero, &cex, &err) >= 0) {
		if (mpiv_cex_check_trace(&cex, ts, "cex", &err)) {
			mpiv_error_format(&err, text, sizeof(text));
			fuzz_fail("the counterexample made from the trace does not fit it: %s",
				  text);
		}
		mpiv_cex_release(&cex);
	}
	free(out);
	free(st);
}

/* What verify does with a run's trace: its program for verify, the inputs the run took, the
 * model of that one run, a bounded search of it, and the steering of every path it found. */
static void verify_pipeline(const struct mpiv_traceset *ts, enum eng_buffering b)
{
	struct tr_opts opts = {b, 64, 0, 1, 0};
	struct tr_explore_opts xo = {200, 0, 0, NULL, NULL, NULL};
	struct tr_explore_result res;
	struct mpiv_traceset *runs[1] = {(struct mpiv_traceset *)ts};
	struct eng_prog prog, *progs[1] = {&prog};
	struct xmodel m;
	struct xpath pt;
	struct mpiv_error err;
	int i;

	mpiv_error_init(&err);
	if (tr_translate(ts, &opts, &prog, &err))
		return;
	if (prog.words > MAX_WORDS) {
		eng_prog_release(&prog);
		return;
	}
	xmodel_fill_inputs(&prog, ts);
	mpiv_error_init(&err);
	if (xmodel_build(progs, runs, 1, 0, &m, &err)) {
		eng_prog_release(&prog);
		return;
	}
	if (tr_explore(&m.prog, &xo, &res) == 0) {
		for (i = 0; i < res.nfrontiers; i++) {
			xpath_of(&m, runs, res.frontiers[i].path, res.frontiers[i].npath, &pt);
			xpath_release(&pt);
		}
		for (i = 0; i < res.nstuck; i++) {
			xpath_of(&m, runs, res.stuck[i].path, res.stuck[i].npath, &pt);
			xpath_release(&pt);
		}
		tr_explore_release(&res);
	}
	xmodel_release(&m);
	eng_prog_release(&prog);
}

/* The run cut into segments of a few events and checked a segment at a time, as check does
 * with a long one (translator/tr_segment.c). */
static void segments(const struct mpiv_traceset *ts)
{
	static const struct mpiv_buffering given[] = {{MPIV_BUF_ZERO, 0, 0},
						      {MPIV_BUF_INFINITE, 0, 0}};
	struct tr_segmented seg;

	if (tr_check_segments(ts, 2, given, 2, 0, &seg))
		free(seg.warns);
}

void fuzz_pipeline(const struct mpiv_traceset *ts, const uint8_t *picks, size_t npicks)
{
	static const struct tr_opts modes[] = {
		{ENG_BUF_ZERO, 0, 0, 0, 0},
		{ENG_BUF_INFINITE, 0, 0, 0, 0},
		{ENG_BUF_EAGER, 64, 0, 0, 0},
	};
	struct tr_warning *warns;
	struct mpiv_error err;
	struct eng_prog prog;
	char desc[256];
	size_t m, e;
	int r;

	for (r = 0; r < ts->nranks; r++) {
		roundtrip(&ts->ranks[r]);
		for (e = 0; e < ts->ranks[r].nevents; e++)
			tr_describe_event(ts, r, (long)e, desc, sizeof(desc));
	}
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		mpiv_error_init(&err);
		if (tr_translate(ts, &modes[m], &prog, &err))
			continue; /* refused, with a reason: what check does too */
		if (prog.words <= MAX_WORDS) {
			int32_t *st = xcalloc(eng_state_bytes(&prog), 1);

			reread_model(&prog);
			tr_warnings(&prog, ts, &warns);
			free(warns);
			tr_recorded_path(&prog, ts, modes[m].buffering, modes[m].eager, 0, NULL,
					 st);
			free(st);
			forced_and_cut(&prog);
			walk(&prog, ts, picks, npicks);
		}
		eng_prog_release(&prog);
	}
	verify_pipeline(ts, ENG_BUF_ZERO);
	verify_pipeline(ts, ENG_BUF_INFINITE);
	segments(ts);
}
