/* mpiverify check: traces -> model -> SPIN in each buffering mode -> one counterexample per
 * distinct deadlock, and the report. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "diag.h"
#include "environment.h"
#include "findings.h"
#include "jsontext.h"
#include "mpilib.h"
#include "outdir.h"
#include "report.h"
#include "child.h"
#include "report_files.h"
#include "search_pool.h"
#include "spin_run.h"
#include "translate.h"
#include "xalloc.h"

#define MAX_TRAILS 20 /* deadlock states pan reports per mode before it stops */
/* zero, infinite and eager, the buffered ones each with its twin whose collectives
 * synchronise */
#define MAX_MODES 5

/* One buffering mode to search. */
struct mode {
	struct mpiv_buffering b;
	/* mpiv_buffering_name(): "zero", "eager-65536"; also its
	 * subdirectory */
	char name[32];
};

static const char check_usage[] =
	"usage: mpiverify check [DIR] [--buffering MODE] [-o OUTDIR]\n"
	"                       [--json | --sarif | --diagnostics-format=gcc]\n"
	"                       [--suppressions FILE]... [--gen-suppressions[=FILE]]\n"
	"                       [--ignore-potential-below BYTES] [--time-limit SEC]\n"
	"                       [--memory-limit MB] [--full-search] [--swarm N]\n"
	"       mpiverify check --promela FILE [--buffering MODE] [DIR]\n"
	"\n"
	"Translate the traces in DIR (default ./mpiverify-trace) into a model and let SPIN\n"
	"explore every behaviour for deadlocks: every match of a wildcard receive and, per\n"
	"buffering mode, whether standard sends are buffered.\n"
	"\n"
	"  --buffering MODE  zero (no standard send is buffered), infinite (all are),\n"
	"                    eager:BYTES (those up to BYTES are), or all (zero and infinite,\n"
	"                    with each deadlock classified; the default)\n"
	"  -o, --output DIR  where the model, SPIN's files, cex.json and the reports go\n"
	"                    (default DIR/check)\n"
	"      --json        print the verdict and the findings as one JSON document\n"
	"      --sarif       print them as a SARIF 2.1.0 log (report.sarif) instead\n"
	"      --diagnostics-format=gcc  print them as compilers do, a FILE:LINE: error:\n"
	"                    line a finding and notes, for editors and CI\n"
	"      --suppressions FILE  leave the findings FILE names out of the exit status,\n"
	"                    listed as suppressed (repeatable; doc/reports.md)\n"
	"      --gen-suppressions[=FILE]  write a suppression for each finding, into FILE\n"
	"                    or after the report on standard output\n"
	"      --ignore-potential-below BYTES  suppress the potential deadlocks whose\n"
	"                    unbuffered standard sends are all smaller than BYTES\n"
	"      --time-limit SEC    stop each search after SEC seconds (default 600)\n"
	"      --memory-limit MB   stop each search at MB megabytes, the program it walks\n"
	"                          included (default 2048)\n"
	"      --full-search       offer the search every choice, without its reductions\n"
	"                          (the same verdict, slower: for comparing)\n"
	"      --swarm N     for a search one core cannot finish: N bitstate searches per\n"
	"                    mode, each in its own order, at once on the CPUs; they find\n"
	"                    deadlocks (each checked as usual) but never prove there is\n"
	"                    none: without one found the verdict is inconclusive\n"
	"      --promela FILE      write a standalone Promela model of the traces into FILE\n"
	"                    (- for standard output) instead of searching: one process per\n"
	"                    rank, MPI's rules in Promela, the buffering mode (default zero)\n"
	"                    a #define; check it with spin -a FILE && cc -o pan pan.c && ./pan\n"
	"  -h, --help        this help\n"
	"\n"
	"OUTDIR also gets report.html (the findings with space-time diagrams, for a\n"
	"browser), report.sarif (for CI) and waits-for.dot (for Graphviz).\n"
	"\n"
	"A search stopped by a limit never answers \"no deadlock\": it is inconclusive.\n"
	"\n"
	"Reductions that record --check-reductions found wrong are MPI correctness errors:\n"
	"they are listed, and check exits 1 for them whatever the search finds.\n"
	"\n"
	"exit: 0 no deadlock (or every one suppressed), 1 deadlock (or reduction error) found,\n"
	"2 usage, 3 bad trace or suppressions file, 4 spin or the C compiler failed,\n"
	"5 inconclusive (the search was cut short);\n"
	"with --promela: 0 written, 3 a call or a size the standalone model cannot encode\n";

static void add_mode_to_search(struct mode *modes, int *n, enum mpiv_buffering_mode mode,
			       long long bytes, int sync_colls)
{
	struct mode *m = &modes[(*n)++];

	m->b.mode = mode;
	m->b.bytes = bytes;
	m->b.sync_colls = sync_colls;
	mpiv_buffering_name(&m->b, m->name, sizeof(m->name));
}

/* modes[0..*n) as the searches a program needs (tr_searches(): with buffering, and twins, a
 * twin whose collectives synchronise). */
static void searches_of(int twins, struct mode *modes, int *n)
{
	struct mpiv_buffering given[MAX_MODES], out[2 * MAX_MODES];
	int k, nout;

	for (k = 0; k < *n; k++)
		given[k] = modes[k].b;
	nout = tr_searches(twins, given, *n, out);
	*n = 0;
	for (k = 0; k < nout && k < MAX_MODES; k++)
		add_mode_to_search(modes, n, out[k].mode, out[k].bytes, out[k].sync_colls);
}

/* --buffering's modes to search. Returns 0 or -1. */
static int parse_modes(const char *arg, struct mode *modes, int *n)
{
	struct mpiv_buffering b[2];
	int k, nb;

	*n = 0;
	if (mpiv_buffering_arg(arg, b, &nb) < 0)
		return -1;
	for (k = 0; k < nb; k++)
		add_mode_to_search(modes, n, b[k].mode, b[k].bytes, 0);
	return 0;
}

/* Remove what an earlier run left (trails, model data, pan's output), so that only this run's
 * is read and found there. */
static void clean_mode_dir(const char *dir)
{
	static const char *const left[] = {"model.dat", "pan.out"};
	char path[PATH_MAX];
	size_t k;
	int i;

	for (k = 0; k < sizeof(left) / sizeof(left[0]); k++)
		if (snprintf(path, sizeof(path), "%s/%s", dir, left[k]) < (int)sizeof(path))
			unlink(path);

	/* a name cut short would remove another file: none is longer than the directory's
	 * own files (check_mode made it) by more than a dozen bytes, and it is checked */
	for (i = 1; i <= MAX_TRAILS + 1; i++)
		if (snprintf(path, sizeof(path), "%s/model.pml%d.trail", dir, i) <
		    (int)sizeof(path))
			unlink(path);
	if (snprintf(path, sizeof(path), "%s/model.pml.trail", dir) < (int)sizeof(path))
		unlink(path);
}

/* Whether name is one cex_path() makes: cex.json, cex-N.json. */
static int is_cex_name(const char *name)
{
	const char *p;

	if (!strcmp(name, "cex.json"))
		return 1;
	if (strncmp(name, "cex-", 4))
		return 0;
	for (p = name + 4; *p >= '0' && *p <= '9'; p++)
		;
	return p > name + 4 && !strcmp(p, ".json");
}

/* Remove the counterexamples an earlier check left in outdir: a deadlock it found and this
 * one does not must not look found. Returns 0, or -1 with err filled. */
static int remove_old_cex(const char *outdir, struct mpiv_error *err)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(outdir);
	int rc = 0;

	if (!d)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, outdir, -1, -1, "cannot read: %s",
				      strerror(errno));
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!is_cex_name(e->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", outdir, e->d_name) >= (int)sizeof(path) ||
		    (unlink(path) != 0 && errno != ENOENT))
			rc = mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					    "cannot remove "
					    "the counterexample of an earlier check: %s",
					    strerror(errno));
	}
	closedir(d);
	return rc;
}

char *cex_path(const char *outdir, int i)
{
	size_t n = strlen(outdir) + 32;
	char *buf = xmalloc(n);

	if (i == 1)
		snprintf(buf, n, "%s/cex.json", outdir);
	else
		snprintf(buf, n, "%s/cex-%d.json", outdir, i);
	return buf;
}

struct check_run {
	double seconds; /* time limit of each search, 0 for none */
	const struct mpiv_traceset *ts;
	struct eng_prog *prog;
	const char *outdir; /* absolute */
	/* the prebuilt verifier with room for the state
	 * (spin_prebuilt()), or with --swarm the bitstate one
	 * (spin_swarm_verifier()); "": a search that needs one
	 * builds its own in its mode's directory */
	char pan[PATH_MAX];
	long memory_mb; /* memory limit of each search */
	/* --swarm: bitstate searches per mode, 0 for one
	 * exhaustive search */
	int swarm;
	struct tr_deadlocks found;
	int incomplete; /* some mode's search was cut short */
	json_t *modes_json;
	/* the search with every send buffered, once taken and
	 * found no deadlock (a borrowed entry of modes_json), by
	 * whether collectives synchronised */
	json_t *infinite[2];
	/* checked a segment at a time (check_segmented()): how many, and
	 * the events of the longest; 0: as one program */
	int segments;
	size_t most;
};

/* Write each deadlock's counterexample: cex.json, cex-2.json, ... Returns 0, or -1 with err
 * filled. */
static int save_cexes(struct check_run *run, struct mpiv_error *err)
{
	int i;

	for (i = 0; i < run->found.n; i++) {
		run->found.d[i].path = cex_path(run->outdir, i + 1);
		if (mpiv_cex_save(run->found.d[i].path, &run->found.d[i].cex, err))
			return -1;
	}
	return 0;
}

/* The eager threshold of the library every rank ran with, on one host (mpilib.c), or -1. */
static long long library_eager(const struct mpiv_traceset *ts)
{
	int r;

	for (r = 1; r < ts->nranks; r++)
		if (strcmp(ts->ranks[r].library, ts->ranks[0].library) ||
		    strcmp(ts->ranks[r].host, ts->ranks[0].host))
			return -1;
	return ts->nranks ? mpiv_mpilib_eager(ts->ranks[0].library) : -1;
}

/* The mode's directory, into dir (PATH_MAX bytes). Returns 0, or -1 with err filled. */
static int mode_dir(const struct check_run *run, const struct mode *m, char *dir,
		    struct mpiv_error *err)
{
	if (snprintf(dir, PATH_MAX, "%s/%s", run->outdir, m->name) >= PATH_MAX)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, run->outdir, -1, -1,
				      "output directory name too long");
	return 0;
}

/* The verifier of the mode in dir: the prebuilt one, or the one its search built there. */
static void mode_pan(const struct check_run *run, const char *dir, char *pan, size_t size)
{
	if (run->pan[0])
		snprintf(pan, size, "%s", run->pan);
	else
		snprintf(pan, size, "%s/pan", dir);
}

/* The model data of prog into dir/model.dat. Returns 0, or -1 with err filled. */
static int emit_model(struct eng_prog *prog, const char *dir, struct mpiv_error *err)
{
	char dat[PATH_MAX + 16];
	FILE *f;

	snprintf(dat, sizeof(dat), "%s/model.dat", dir);
	f = fopen(dat, "w");
	if (!f)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, dat, -1, -1, "cannot create: %s",
				      strerror(errno));
	if (tr_emit(prog, f, dat, err) | fclose(f))
		return mpiv_error_set(err, MPIV_EXIT_TOOL, dat, -1, -1, "cannot write");
	return 0;
}

/* SPIN's search, in dir, of what is left from st, the first state with several choices (lead
 * choices from the start), or of the whole program (st NULL), into res. Returns 0, or -1
 * with err filled. */
static int search_rest(struct check_run *run, const char *dir, int32_t *st, long lead,
		       struct spin_result *res, struct mpiv_error *err)
{
	char pan[PATH_MAX + 8];
	struct eng_prog cut;
	long depth;
	int rc, is_cut;

	/* no prebuilt verifier with room for the state: this search builds its own */
	if (!run->pan[0] && spin_verifier(dir, run->prog->words, pan, sizeof(pan), err))
		return -1;
	mode_pan(run, dir, pan, sizeof(pan));
	/* SPIN gets the rest of the program, or all of it, starting in st; or from the start,
	 * the program as it is */
	is_cut = st ? tr_cut(run->prog, st, &cut) : 0;
	if (!is_cut)
		run->prog->start = st;
	depth = tr_search_depth(is_cut ? &cut : run->prog);
	rc = emit_model(is_cut ? &cut : run->prog, dir, err);
	run->prog->start = NULL;
	if (is_cut)
		eng_prog_release(&cut);
	if (rc)
		return -1;
	if (spin_search(pan, dir, depth, run->memory_mb, MAX_TRAILS, run->seconds, res, err))
		return -1;
	res->lead = lead;
	res->states += lead;
	return 0;
}

/* Set prog up for a search of mode m: its buffering (and the reductions' tables for it) and
 * whether its collectives synchronise. */
static void use_mode(struct eng_prog *prog, const struct mode *m)
{
	eng_set_buffering(prog, (enum eng_buffering)m->b.mode, m->b.bytes);
	prog->sync_colls = m->b.sync_colls;
}

/* Make dir, without the trails of an earlier search, for a search of mode m. Returns 0, or
 * -1 with err filled. */
static int fresh_dir(struct check_run *run, const struct mode *m, const char *dir,
		     struct mpiv_error *err)
{
	if (outdir_make(dir))
		return mpiv_error_set(err, MPIV_EXIT_TOOL, dir, -1, -1, "cannot create: %s",
				      strerror(errno));
	clean_mode_dir(dir);
	use_mode(run->prog, m);
	return 0;
}

/* With --swarm, mode m's directory (check() made it, with the model data its trails are
 * replayed with): the member-th search of its swarm, in its subdirectory swarm-MEMBER, of
 * the whole program. Returns 0, or -1 with err filled. */
static int search_swarm_member(struct check_run *run, const struct mode *m, const char *dir,
			       int member, struct spin_result *res, struct mpiv_error *err)
{
	char sub[PATH_MAX];

	if (snprintf(sub, sizeof(sub), "%s/swarm-%d", dir, member) >= (int)sizeof(sub))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, run->outdir, -1, -1,
				      "output directory name too long");
	if (fresh_dir(run, m, sub, err) || emit_model(run->prog, sub, err))
		return -1;
	return spin_swarm_search(run->pan, sub, tr_search_depth(run->prog), run->memory_mb,
				 MAX_TRAILS, run->seconds, member, res, err);
}

/* A mode's swarm as one search (its members' results, n of them, released here): the
 * states and deadlocks of all, their trails named from the mode's directory, never
 * complete. */
static void swarm_result(struct spin_result *members, int n, struct spin_result *res)
{
	char name[PATH_MAX];
	int k, i;

	memset(res, 0, sizeof(*res));
	snprintf(res->why, sizeof(res->why),
		 "a swarm of %d bitstate searches is not "
		 "exhaustive",
		 n);
	for (k = 0; k < n; k++) {
		res->states += members[k].states;
		res->errors += members[k].errors;
		if (members[k].seconds > res->seconds)
			res->seconds = members[k].seconds;
		/* a member cut short by a limit says so (its words cut to fit the line) */
		if (strcmp(members[k].why, SPIN_BITSTATE_WHY))
			snprintf(res->why, sizeof(res->why),
				 "a swarm of %d bitstate searches is "
				 "not exhaustive (%.180s)",
				 n, members[k].why);
		for (i = 0; i < members[k].ntrails; i++) {
			snprintf(name, sizeof(name), "swarm-%d/%s", k, members[k].trails[i]);
			res->trails = xrealloc(res->trails,
					       (size_t)(res->ntrails + 1) * sizeof(char *));
			res->trails[res->ntrails++] = xstrdup(name);
		}
		spin_result_release(&members[k]);
	}
}

/* The search of one mode, into res: check's own pass as long as the search offers one choice
 * at a time, then, where it branches, SPIN on the rest (tr_cut.c); with --swarm, the
 * member-th search of the mode's swarm. Runs in a process of its own when several are
 * searched at once (search_pool.h). Returns 0, or -1 with err filled. */
static int search_mode(struct check_run *run, const struct mode *m, int member,
		       struct spin_result *res, struct mpiv_error *err)
{
	char dir[PATH_MAX];
	int32_t *st;
	long lead;
	int rc = 0;

	if (mode_dir(run, m, dir, err))
		return -1;
	if (run->swarm)
		return search_swarm_member(run, m, dir, member, res, err);
	if (fresh_dir(run, m, dir, err))
		return -1;
	if (getenv(MPIV_ENV_SPIN_FROM_START))
		return search_rest(run, dir, NULL, 0, res, err);
	st = xmalloc(eng_state_bytes(run->prog));
	lead = tr_forced_path(run->prog, st);
	if (eng_nchoices(run->prog, st) > 0) {
		rc = search_rest(run, dir, st, lead, res, err);
	} else {
		/* one path, to its end: no SPIN (take_mode() describes a deadlock there) */
		res->own = 1;
		res->lead = lead;
		res->states = lead + 1;
		res->complete = !st[ENG_ST_OVERFLOW];
		if (st[ENG_ST_OVERFLOW])
			snprintf(res->why, sizeof(res->why),
				 "more messages in flight than the model "
				 "has room for (%d)",
				 run->prog->maxmsg);
		else
			res->errors = !eng_all_done(run->prog, st);
	}
	free(st);
	return rc;
}

/* What one mode's search found (res, released here): its line of the report, and a
 * counterexample per deadlock (each trail's, or that of the end of check's own path). Returns
 * 0, or -1 with err filled. */
static int take_mode(struct check_run *run, const struct mode *m, struct spin_result *res,
		     struct mpiv_error *err)
{
	char dir[PATH_MAX], pan[PATH_MAX + 8];
	int i, found = run->found.n;

	if (mode_dir(run, m, dir, err))
		return -1;
	mode_pan(run, dir, pan, sizeof(pan));
	/* the tables of the reductions as the search had them, for the replays below */
	use_mode(run->prog, m);
	if (!res->complete)
		run->incomplete = 1;
	json_array_append_new(run->modes_json,
			      json_pack("{s:s, s:b, s:s?, s:I, s:i}", "mode", m->name, "complete",
					res->complete, "why", res->complete ? NULL : res->why,
					"states", (json_int_t)res->states, "deadlock_states",
					res->errors));
	if (res->own && res->errors) {
		struct mpiv_cex cex;
		int rc = tr_cex(run->prog, run->ts, res->lead, NULL, 0, &m->b, &cex, err);

		if (rc <= 0) {
			if (rc == 0)
				mpiv_cex_release(&cex);
			spin_result_release(res);
			return rc < 0 ? -1 :
					mpiv_error_set(err, MPIV_EXIT_TOOL, NULL, -1, -1,
						       "mode %s: the engine's path does not "
						       "end where it did",
						       m->name);
		}
		tr_deadlocks_add(&run->found, &cex);
	}
	for (i = 0; i < res->ntrails; i++) {
		struct mpiv_cex cex;
		int *choices = NULL, n = 0, rc;

		if (spin_trail_choices(pan, dir, res->trails[i], &choices, &n, err)) {
			spin_result_release(res);
			return -1;
		}
		rc = tr_cex(run->prog, run->ts, res->lead, choices, n, &m->b, &cex, err);
		free(choices);
		if (rc < 0) {
			spin_result_release(res);
			return -1;
		}
		if (rc == 0) {
			/* an overflow state, or pan and the engine disagree: never a verdict */
			mpiv_cex_release(&cex);
			run->incomplete = 1;
			warning("mode %s: trail '%s' does not end in a deadlock; treating the search "
				"as inconclusive",
				m->name, res->trails[i]);
			continue;
		}
		tr_deadlocks_add(&run->found, &cex);
	}
	spin_result_release(res);
	if (m->b.mode == MPIV_BUF_INFINITE && run->found.n == found)
		run->infinite[m->b.sync_colls] = json_array_get(run->modes_json,
								json_array_size(run->modes_json) -
									1);
	return 0;
}

/* With an eager threshold no send of the program exceeds, every send is buffered: the search
 * is the one with infinite buffering. If that one was taken and found no deadlock, mode m's
 * entry repeats it (1); else 0, m is to be searched. */
static int same_as_infinite(struct check_run *run, const struct mode *m)
{
	json_t *same;

	if (m->b.mode != MPIV_BUF_EAGER || !run->infinite[m->b.sync_colls] ||
	    !tr_sends_within(run->prog, m->b.bytes))
		return 0;
	same = json_deep_copy(run->infinite[m->b.sync_colls]);
	json_object_set_new(same, "mode", json_string(m->name));
	json_array_append_new(run->modes_json, same);
	return 1;
}

/* Does mode m (of modes[0..n)) wait for the infinite one's search (of the same collectives),
 * which it may repeat? */
static int waits_for_infinite(const struct check_run *run, const struct mode *modes, int n,
			      const struct mode *m)
{
	int i;

	if (m->b.mode != MPIV_BUF_EAGER || !tr_sends_within(run->prog, m->b.bytes))
		return 0;
	for (i = 0; i < n; i++)
		if (modes[i].b.mode == MPIV_BUF_INFINITE &&
		    modes[i].b.sync_colls == m->b.sync_colls)
			return 1;
	return 0;
}

/* Was deadlock d found in a search of buffering mode `mode`? */
static int found_in(const struct tr_deadlock *d, enum mpiv_buffering_mode mode)
{
	switch (mode) {
	case MPIV_BUF_ZERO:
		return d->in_zero;
	case MPIV_BUF_INFINITE:
		return d->in_buffered;
	default:
		return d->in_eager;
	}
}

/* Was mode m's search (modes_json's entry) whole? */
static int whole(json_t *modes_json, int m)
{
	return json_is_true(json_object_get(json_array_get(modes_json, m), "complete"));
}

/* For classified deadlock i of set, what the other kind of mode tells of it: whether it needs
 * collectives that let members leave early (struct tr_deadlock's colls_early), and which
 * deadlock the modes that did not find it found instead (instead). */
static void other_kind(struct tr_deadlocks *set, int i, const struct mode *modes, int nmodes,
		       json_t *modes_json)
{
	struct tr_deadlock *d = &set->d[i];
	int buffered = d->in_buffered || d->in_eager, m, j;

	for (m = 0; m < nmodes; m++)
		if (modes[m].b.mode != MPIV_BUF_ZERO && modes[m].b.sync_colls &&
		    whole(modes_json, m) && !d->in_sync && !d->in_zero &&
		    (d->in_buffered_data || d->in_eager_data))
			d->colls_early = 1;
	if (d->in_zero == buffered)
		return;
	for (j = 0; j < set->n && !d->instead; j++)
		if (j != i &&
		    (d->in_zero ? set->d[j].in_buffered || set->d[j].in_eager : set->d[j].in_zero))
			d->instead = j + 1;
}

/* search_pool's view of search_mode(). */
struct mode_search {
	struct check_run *run;
	const struct mode *modes;
	int which[MAX_MODES]; /* the modes searched at once, by their index in modes */
	int per;	      /* searches per mode: --swarm's N, or 1 */
};

static int search_nth(void *ctx, int i, struct spin_result *res, struct mpiv_error *err)
{
	struct mode_search *ms = ctx;

	return search_mode(ms->run, &ms->modes[ms->which[i / ms->per]], i % ms->per, res, err);
}

/* After a spin_* call failed: 128 + the signal if check was told to stop (which spin_stopped
 * says), else err's exit code once it is printed. */
static int stopped_or_report(const struct mpiv_error *err)
{
	int sig = spin_stopped();

	return sig ? 128 + sig : (int)error_report(err);
}

static void release_run(struct check_run *run)
{
	tr_deadlocks_release(&run->found);
	json_decref(run->modes_json);
}

/* What the command line asks for. */
struct check_args {
	const char *dir; /* the trace directory */
	const char *out; /* -o, NULL for DIR/check */
	struct mode modes[MAX_MODES];
	int nmodes;
	int all; /* --buffering all: each deadlock classified */
	double seconds;
	long memory_mb;
	int full;  /* --full-search: without the reductions */
	int swarm; /* --swarm N, 0 without */
	struct findings_opts o;
};

/* The text report: notes, stopped ranks, warnings, reduction errors, the deadlocks fs does not
 * hide, the suppressed ones, and the verdict; search_rc is the search's answer. */
static void print_text(const struct check_run *run, const struct check_outcome *co,
		       const struct findings *fs, int search_rc, const char *modes_str)
{
	const struct mpiv_traceset *ts = co->ts;
	const char *but = search_rc == MPIV_EXIT_DEADLOCK ? " but those suppressed" : "";
	int i, nstops, shown = findings_shown(fs, 1), nred = findings_shown(fs, 0);

	report_trace_notes(stdout, ts);
	nstops = report_stops(stdout, ts, co->prog);
	report_warnings(stdout, ts, co->warns, co->nwarns, fs);
	report_reductions(stdout, ts, fs, co->nwarns);
	if (search_rc == MPIV_EXIT_DEADLOCK && shown) {
		printf("mpiverify: %d deadlock%s found on the recorded path of '%s'", shown,
		       shown == 1 ? "" : "s", co->dir);
		if (shown < run->found.n)
			printf(" (and %d suppressed, below)", run->found.n - shown);
		putchar('\n');
		for (i = 0; i < run->found.n; i++)
			if (!findings_hidden(fs, "deadlocks", i))
				report_deadlock(stdout, ts, &run->found.d[i], i + 1, run->found.n);
	}
	for (i = 0; i < (int)json_array_size(run->modes_json); i++) {
		json_t *m = json_array_get(run->modes_json, i);

		if (!json_is_true(json_object_get(m, "complete")))
			printf("%ssearch with buffering %s was cut short: %s\n",
			       search_rc == MPIV_EXIT_DEADLOCK ? "\nnote: " : "",
			       json_string_value(json_object_get(m, "mode")),
			       json_string_value(json_object_get(m, "why")));
	}
	if (fs->nsuppressed) {
		putchar('\n');
		findings_print_suppressed(stdout, fs);
	}
	if (search_rc == MPIV_EXIT_DEADLOCK && shown)
		; /* the deadlocks above are the answer */
	else if (!co->incomplete && !nstops)
		printf("mpiverify: no deadlock on the recorded path of '%s'%s (buffering: %s)\n",
		       co->dir, but, modes_str);
	else if (co->incomplete)
		printf("mpiverify: inconclusive: no deadlock found%s, but the search was not "
		       "complete\n",
		       but);
	else
		printf("mpiverify: inconclusive: no deadlock among what was recorded%s, but %d "
		       "rank%s did not finish (above): the rest of the run is unknown\n",
		       but, nstops, nstops == 1 ? "" : "s");
	if (nred)
		printf("mpiverify: %d MPI correctness error%s in reductions (above)\n", nred,
		       nred == 1 ? "" : "s");
}

/* The search's answer search_rc (OK, DEADLOCK or INCONCLUSIVE) on run, whose program is prog
 * (NULL for a run checked a segment at a time) and whose recorded path warns of warns: the
 * document, the findings it holds and what suppressions hide, the files of the output
 * directory, and what standard output shows. Returns the exit status. */
static int report(struct check_args *a, struct check_run *run, const struct eng_prog *prog,
		  const struct tr_warning *warns, int nwarns, int search_rc, const char *modes_str)
{
	const struct check_outcome co = {a->dir,      run->ts,	       prog,
					 &run->found, run->modes_json, warns,
					 nwarns,      search_rc,       run->incomplete};
	struct findings fs;
	json_t *doc = check_document(&co);
	int rc;

	if (run->segments)
		json_object_set_new(doc, "segments",
				    json_pack("{s:i, s:I}", "count", run->segments, "most_events",
					      (json_int_t)run->most));

	findings_of(&fs, doc);
	findings_suppress(&fs, &a->o.supps, a->o.ignore_below);
	rc = findings_exit(search_rc, &fs, run->incomplete || !tr_all_finished(run->ts));
	json_object_set_new(doc, "exit", json_integer(rc));
	json_object_set_new(doc, "suppressed", json_integer(fs.nsuppressed));
	if (report_files(run->outdir, doc, &fs, report_details_check(&co)) < 0) {
		rc = MPIV_EXIT_BAD_INPUT;
	} else if (a->o.output == OUT_JSON) {
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	} else if (a->o.output == OUT_SARIF) {
		report_sarif(stdout, doc, &fs);
	} else if (a->o.output == OUT_GCC) {
		report_gcc(stdout, doc, &fs);
	} else {
		print_text(run, &co, &fs, search_rc, modes_str);
	}
	if (rc != MPIV_EXIT_BAD_INPUT && findings_gen(&a->o, &fs) < 0)
		rc = MPIV_EXIT_BAD_INPUT;
	findings_release(&fs);
	json_decref(doc);
	return rc;
}

/* The most instructions a program of a's check may have: check's own pass holds the program it
 * searches, and the memory limit bounds it as it bounds SPIN's search. */
static size_t max_instrs(const struct check_args *a)
{
	return (size_t)a->memory_mb * (1 << 20) / TR_INSTR_BYTES;
}

/* "zero, infinite": the names of a's modes, into buf. */
static void modes_names(const struct check_args *a, char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < a->nmodes; i++) {
		if (i)
			strncat(buf, ", ", size - strlen(buf) - 1);
		strncat(buf, a->modes[i].name, size - strlen(buf) - 1);
	}
}

/* Events per segment where a run is checked a segment at a time: a program of this many
 * events takes some 50 MB. */
#define SEGMENT_EVENTS (1 << 19)

/* A run checked a segment at a time (translator/tr_segment.c), where it can be cut and no
 * segment has a choice to make but one at a time: its memory is a segment's, and its search
 * each segment's. Returns the exit code when that settles it (no deadlock in any mode), or
 * -1 when the whole program is to be checked (no cut, or a segment with a choice that
 * branches or a deadlock). */
static int check_segmented(struct check_args *a, const struct mpiv_traceset *ts, const char *outdir)
{
	char modes_str[MAX_MODES * (sizeof(a->modes[0].name) + 2)];
	struct mpiv_buffering given[MAX_MODES];
	const char *env = getenv(MPIV_ENV_SEGMENT_EVENTS);
	size_t target = SEGMENT_EVENTS;
	struct tr_segmented seg;
	struct check_run run;
	int k, rc = -1;

	if (env && *env && atol(env) <= 0)
		return -1;
	if (env && *env)
		target = (size_t)atol(env);
	/* a segment well within the memory limit (some two instructions an event) */
	if (target > max_instrs(a) / 4)
		target = max_instrs(a) / 4;
	if (a->nmodes > TR_SEGMENT_MODES)
		return -1;
	for (k = 0; k < a->nmodes; k++)
		given[k] = a->modes[k].b;
	/* a run shorter than a segment is cut only where wildcard receives are closed by a
	 * collective (a round at a time keeps the search small); with none, it has no cut */
	if (tr_check_segments(ts, target, given, a->nmodes, max_instrs(a), &seg)) {
		searches_of(seg.twins, a->modes, &a->nmodes);
		modes_names(a, modes_str, sizeof(modes_str));
		memset(&run, 0, sizeof(run));
		run.ts = ts;
		run.outdir = outdir;
		run.modes_json = json_array();
		run.segments = seg.nsegments;
		run.most = seg.most;
		for (k = 0; k < a->nmodes; k++)
			json_array_append_new(run.modes_json,
					      json_pack("{s:s, s:b, s:s?, s:I, s:i}", "mode",
							a->modes[k].name, "complete", 1, "why",
							NULL, "states", (json_int_t)seg.lead[k] + 1,
							"deadlock_states", 0));
		rc = report(a, &run, NULL, seg.warns, seg.nwarns, MPIV_EXIT_OK, modes_str);
		release_run(&run);
		free(seg.warns);
	}
	return rc;
}

/* A run whose program passed the memory limit as it was built (err says where): no mode was
 * searched, inconclusive. Returns the exit code. */
static int too_large(struct check_args *a, const struct mpiv_traceset *ts, const char *outdir,
		     const struct mpiv_error *err)
{
	char modes_str[MAX_MODES * (sizeof(a->modes[0].name) + 2)], why[1024];
	struct check_run run;
	int k, rc;

	mpiv_error_format(err, why, sizeof(why));
	modes_names(a, modes_str, sizeof(modes_str));
	memset(&run, 0, sizeof(run));
	run.ts = ts;
	run.outdir = outdir;
	run.incomplete = 1;
	run.modes_json = json_array();
	for (k = 0; k < a->nmodes; k++)
		json_array_append_new(run.modes_json,
				      json_pack("{s:s, s:b, s:s, s:I, s:i}", "mode",
						a->modes[k].name, "complete", 0, "why", why,
						"states", (json_int_t)0, "deadlock_states", 0));
	rc = report(a, &run, NULL, NULL, 0, MPIV_EXIT_INCONCLUSIVE, modes_str);
	release_run(&run);
	return rc;
}

/* The check itself, once the command line is read. */
static int check(struct check_args *a)
{
	struct spin_result *results, merged;
	struct mpiv_error *errs;
	int *rcs, nat = 0, at[MAX_MODES], per = a->swarm ? a->swarm : 1, k;
	struct mode_search ms;
	long long eager = -1;
	char modes_str[MAX_MODES * (sizeof(a->modes[0].name) + 2)] = "";
	char outbuf[PATH_MAX], outdir[PATH_MAX];
	const char *out = a->out;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct eng_prog prog;
	struct tr_opts topts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	struct check_run run;
	struct tr_warning *warns = NULL;
	int nwarns, finished, i, rc;

	spin_catch_signals();
	mpiv_error_init(&err);
	/* as records: a trace of millions of events takes a few bytes an event */
	if (mpiv_traceset_load_records(a->dir, &ts, &err))
		return error_report(&err);
	if (a->all && (eager = library_eager(&ts)) >= 0)
		add_mode_to_search(a->modes, &a->nmodes, MPIV_BUF_EAGER, eager, 0);
	if (!out) {
		snprintf(outbuf, sizeof(outbuf), "%s/check", a->dir);
		out = outbuf;
	}
	if (outdir_make(out) || !realpath(out, outdir)) {
		error("cannot create output directory '%s': %s", out, strerror(errno));
		mpiv_traceset_release(&ts);
		return MPIV_EXIT_BAD_INPUT;
	}
	if (remove_old_cex(outdir, &err)) {
		mpiv_traceset_release(&ts);
		return error_report(&err);
	}
	if (!a->swarm && !getenv(MPIV_ENV_SPIN_FROM_START) &&
	    (rc = check_segmented(a, &ts, outdir)) >= 0) {
		mpiv_traceset_release(&ts);
		return rc;
	}
	/* the reductions' tables are built for the first mode searched (a pass over the whole
	 * program): its search then needs no other (fresh_dir()) */
	if (a->nmodes) {
		topts.buffering = (enum eng_buffering)a->modes[0].b.mode;
		topts.eager = a->modes[0].b.bytes;
	}
	topts.max_instrs = max_instrs(a);
	if (tr_translate(&ts, &topts, &prog, &err)) {
		rc = err.code == MPIV_EXIT_INCONCLUSIVE ? too_large(a, &ts, outdir, &err) :
							  (int)error_report(&err);
		mpiv_traceset_release(&ts);
		return rc;
	}
	prog.full = a->full;
	searches_of(tr_colls_partial(&prog), a->modes, &a->nmodes);
	modes_names(a, modes_str, sizeof(modes_str));
	nwarns = tr_warnings(&prog, &ts, &warns);
	memset(&run, 0, sizeof(run));
	if (a->swarm) {
		if (spin_swarm_verifier(outdir, prog.words, run.pan, sizeof(run.pan), &err)) {
			free(warns);
			eng_prog_release(&prog);
			mpiv_traceset_release(&ts);
			return stopped_or_report(&err);
		}
	} else if (spin_prebuilt(prog.words, run.pan, sizeof(run.pan))) {
		/* a search that needs a verifier and finds none prebuilt builds its own */
		run.pan[0] = '\0';
	}
	run.memory_mb = a->memory_mb;
	run.swarm = a->swarm;
	run.seconds = a->seconds;
	run.ts = &ts;
	run.prog = &prog;
	run.outdir = outdir;
	run.modes_json = json_array();
	rc = MPIV_EXIT_OK;
	/* every mode's search at once, as far as the CPUs go, but those that may repeat the
	 * infinite one's; what they found is taken in the modes' order, so that the report does
	 * not depend on which ended first */
	ms.run = &run;
	ms.modes = a->modes;
	ms.per = per;
	for (i = 0; i < a->nmodes; i++) {
		at[i] = -1;
		if (a->swarm || !waits_for_infinite(&run, a->modes, a->nmodes, &a->modes[i])) {
			at[i] = nat;
			ms.which[nat++] = i;
		}
	}
	results = xcalloc((size_t)(nat * per), sizeof(*results));
	errs = xcalloc((size_t)(nat * per), sizeof(*errs));
	rcs = xcalloc((size_t)(nat * per), sizeof(*rcs));
	/* a swarm's trails are replayed from the mode's directory: its model data goes there */
	for (i = 0; a->swarm && i < a->nmodes && rc == MPIV_EXIT_OK; i++) {
		char dir[PATH_MAX];

		if (mode_dir(&run, &a->modes[i], dir, &err) ||
		    fresh_dir(&run, &a->modes[i], dir, &err) || emit_model(&prog, dir, &err))
			rc = error_report(&err);
	}
	if (rc == MPIV_EXIT_OK)
		search_pool_run(search_nth, &ms, nat * per, child_cpus(), results, errs, rcs);
	for (i = 0; i < a->nmodes; i++) {
		struct spin_result late;
		struct mpiv_error lerr;
		struct spin_result *res = &late;

		if (at[i] < 0) {
			/* the same search as the infinite one, made only if that one found a
			 * deadlock (or was not taken) */
			if (rc != MPIV_EXIT_OK || same_as_infinite(&run, &a->modes[i]))
				continue;
			memset(&late, 0, sizeof(late));
			mpiv_error_init(&lerr);
			if (search_mode(&run, &a->modes[i], 0, &late, &lerr)) {
				rc = stopped_or_report(&lerr);
				spin_result_release(&late);
				continue;
			}
		} else {
			for (k = 0; k < per; k++)
				if (rc == MPIV_EXIT_OK && rcs[at[i] * per + k])
					rc = stopped_or_report(&errs[at[i] * per + k]);
			if (a->swarm)
				swarm_result(results + at[i] * per, per, &merged);
			else
				merged = results[at[i]];
			res = &merged;
		}
		if (rc == MPIV_EXIT_OK && take_mode(&run, &a->modes[i], res, &err))
			rc = stopped_or_report(&err);
		spin_result_release(res);
	}
	free(results);
	free(errs);
	free(rcs);
	if (rc == MPIV_EXIT_OK) {
		tr_deadlocks_merge(&run.found);
		if (save_cexes(&run, &err))
			rc = error_report(&err);
	}
	for (i = 0; i < run.found.n; i++) {
		int zero = 0, buffered = 0, known = 1, m;

		for (m = 0; m < a->nmodes; m++) {
			if (a->modes[m].b.mode == MPIV_BUF_ZERO)
				zero = 1;
			else if (a->modes[m].b.mode == MPIV_BUF_INFINITE || !a->all)
				buffered = 1;
			/* where it was not found, the search must have been whole */
			if (!found_in(&run.found.d[i], a->modes[m].b.mode) &&
			    !json_is_true(
				    json_object_get(json_array_get(run.modes_json, m), "complete")))
				known = 0;
		}
		run.found.d[i].classified = zero && buffered && known &&
					    json_array_size(run.modes_json) == (size_t)a->nmodes;
		if (run.found.d[i].classified)
			other_kind(&run.found, i, a->modes, a->nmodes, run.modes_json);
		run.found.d[i].recorded = tr_on_recorded_path(&prog, &ts, &run.found.d[i].cex);
		run.found.d[i].eager = eager;
	}
	/* a run in which some rank did not finish is not a whole path: never "no deadlock" */
	finished = tr_all_finished(&ts);
	if (rc == MPIV_EXIT_OK)
		rc = run.found.n		 ? MPIV_EXIT_DEADLOCK :
		     run.incomplete || !finished ? MPIV_EXIT_INCONCLUSIVE :
						   MPIV_EXIT_OK;
	/* a verdict, not a failure: reported (a failure was, as an error) */
	if (rc == MPIV_EXIT_OK || rc == MPIV_EXIT_DEADLOCK || rc == MPIV_EXIT_INCONCLUSIVE)
		rc = report(a, &run, &prog, warns, nwarns, rc, modes_str);
	release_run(&run);
	free(warns);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return rc;
}

/* --promela FILE: the standalone Promela model of the traces in dir, in buffering b, into
 * path ("-": standard output). Returns the exit code. */
static int write_promela(const char *path, const char *dir, const struct mpiv_buffering *b)
{
	struct tr_opts topts = {(enum eng_buffering)b->mode, b->bytes, 0, 0, 0};
	struct tr_promela_opts popts = {(enum eng_buffering)b->mode, b->bytes, 0, 0};
	struct tr_promela_input in;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct eng_prog prog;
	int to_stdout = !strcmp(path, "-"), rc;
	FILE *f;

	mpiv_error_init(&err);
	if (mpiv_traceset_load(dir, &ts, &err))
		return error_report(&err);
	if (tr_translate(&ts, &topts, &prog, &err)) {
		mpiv_traceset_release(&ts);
		return error_report(&err);
	}
	f = to_stdout ? stdout : fopen(path, "w");
	if (!f) {
		rc = error("cannot create '%s': %s", path, strerror(errno));
		eng_prog_release(&prog);
		mpiv_traceset_release(&ts);
		return MPIV_EXIT_BAD_INPUT;
	}
	in.prog = &prog;
	in.ts = &ts;
	rc = tr_promela(f, to_stdout ? "model.pml" : path, &in, 1, &popts, NULL, &err);
	if (!to_stdout && fclose(f) && rc == 0)
		rc = mpiv_error_set(&err, MPIV_EXIT_TOOL, path, -1, -1, "cannot write: %s",
				    strerror(errno));
	if (rc && !to_stdout)
		unlink(path); /* no half a model */
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return rc ? error_report(&err) : MPIV_EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"buffering", required_argument, NULL, 'b'},
		{"output", required_argument, NULL, 'o'},
		FINDINGS_LONGOPTS,
		{"time-limit", required_argument, NULL, 'T'},
		{"memory-limit", required_argument, NULL, 'M'},
		{"full-search", no_argument, NULL, 'F'},
		{"swarm", required_argument, NULL, 'S'},
		{"promela", required_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct check_args a;
	const char *promela = NULL;
	char *end;
	int c, rc = -1, help = 0, buffering_given = 0;

	memset(&a, 0, sizeof(a));
	a.dir = "mpiverify-trace";
	a.all = 1;
	a.seconds = 600;
	a.memory_mb = 2048;
	parse_modes("all", a.modes, &a.nmodes);
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":b:o:h", longopts, NULL)) != -1) {
		if ((rc = findings_option(&a.o, "check", c, optarg)) >= 0) {
			rc = rc ? rc : -1;
			continue;
		}
		switch (c) {
		case 'b':
			if (parse_modes(optarg, a.modes, &a.nmodes))
				rc = usage_error("check", "unknown buffering mode '%s'", optarg);
			a.all = !strcmp(optarg, "all");
			buffering_given = 1;
			break;
		case 'o':
			a.out = optarg;
			break;
		case 'T':
			/* 0 is refused, not read as "no limit": every command's seconds
			 * options want a positive number */
			if (parse_seconds(optarg, &a.seconds) < 0)
				rc = usage_error("check",
						 "invalid --time-limit '%s': expected a "
						 "positive number of seconds",
						 optarg);
			break;
		case 'M':
			a.memory_mb = strtol(optarg, &end, 10);
			if (end == optarg || *end || a.memory_mb < 16)
				rc = usage_error("check",
						 "invalid --memory-limit '%s': expected "
						 "megabytes, at least 16",
						 optarg);
			break;
		case 'F':
			a.full = 1;
			break;
		case 'S':
			a.swarm = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || a.swarm < 1 || a.swarm > 1000)
				rc = usage_error("check",
						 "invalid --swarm '%s': expected a number of "
						 "searches, 1 to 1000",
						 optarg);
			break;
		case 'P':
			if (!*optarg)
				rc = usage_error("check", "empty --promela file name");
			promela = optarg;
			break;
		case 'h':
			fputs(check_usage, stdout);
			help = 1;
			rc = MPIV_EXIT_OK;
			break;
		default:
			rc = option_error("check", c, argv);
			break;
		}
	}
	if (rc < 0 && optind < argc)
		a.dir = argv[optind++];
	if (rc < 0 && optind < argc)
		rc = usage_error("check", "unexpected argument '%s'", argv[optind]);
	if (rc < 0 && promela) {
		/* one model, one mode: zero unless --buffering names another */
		if (buffering_given && a.nmodes != 1)
			rc = usage_error("check", "--promela writes one buffering mode: zero, "
						  "infinite or eager:BYTES");
		else if (a.swarm)
			rc = usage_error("check", "--promela writes a model instead of searching: "
						  "--swarm has nothing to do with it");
		else
			rc = write_promela(promela, a.dir,
					   buffering_given ?
						   &a.modes[0].b :
						   &(struct mpiv_buffering){MPIV_BUF_ZERO, 0, 0});
		findings_opts_release(&a.o);
		return rc;
	}
	if (rc < 0)
		rc = findings_options_done(&a.o, "check");
	if (!rc && !help)
		rc = check(&a);
	findings_opts_release(&a.o);
	return rc;
}
