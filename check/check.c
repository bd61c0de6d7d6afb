/* check's room (check.h): the plan of the modes, the searches of each, their counterexamples,
 * the classification of each deadlock and the verdict. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "child.h"
#include "diag.h"
#include "environment.h"
#include "mpilib.h"
#include "outdir.h"
#include "search_pool.h"
#include "spin_run.h"
#include "xalloc.h"
#include "tr_check.h"

#define MAX_TRAILS 20 /* deadlock states pan reports per mode before it stops */

static void add_mode_to_search(struct check_mode *modes, int *n, enum mpiv_buffering_mode mode,
			       long long bytes, int sync_colls)
{
	struct check_mode *m = &modes[(*n)++];

	m->b.mode = mode;
	m->b.bytes = bytes;
	m->b.sync_colls = sync_colls;
	mpiv_buffering_name(&m->b, m->name, sizeof(m->name));
}

/* modes[0..*n) as the searches a program needs (tr_searches(): with buffering, and twins, a
 * twin whose collectives synchronise). */
static void searches_of(int twins, struct check_mode *modes, int *n)
{
	struct mpiv_buffering given[CHECK_MAX_MODES], out[2 * CHECK_MAX_MODES];
	int k, nout;

	for (k = 0; k < *n; k++)
		given[k] = modes[k].b;
	nout = tr_searches(twins, given, *n, out);
	*n = 0;
	for (k = 0; k < nout && k < CHECK_MAX_MODES; k++)
		add_mode_to_search(modes, n, out[k].mode, out[k].bytes, out[k].sync_colls);
}

int check_plan_modes(struct check_plan *plan, const char *arg)
{
	struct mpiv_buffering b[2];
	int k, nb;

	if (mpiv_buffering_arg(arg, b, &nb) < 0)
		return -1;
	plan->nmodes = 0;
	for (k = 0; k < nb; k++)
		add_mode_to_search(plan->modes, &plan->nmodes, b[k].mode, b[k].bytes, 0);
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
	/* what it found: the searches, the deadlocks, whether some search was cut short */
	struct check_result *res;
	/* the search with every send buffered, once taken and found no deadlock (its index in
	 * res->searches), by whether collectives synchronised; -1: none */
	int infinite[2];
};

/* Write each deadlock's counterexample: cex.json, cex-2.json, ... Returns 0, or -1 with err
 * filled. */
static int save_cexes(struct check_run *run, struct mpiv_error *err)
{
	int i;

	struct tr_deadlocks *found = &run->res->found;

	for (i = 0; i < found->n; i++) {
		found->d[i].path = cex_path(run->outdir, i + 1);
		if (mpiv_cex_save(found->d[i].path, &found->d[i].cex, err))
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
static int mode_dir(const struct check_run *run, const struct check_mode *m, char *dir,
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
static void use_mode(struct eng_prog *prog, const struct check_mode *m)
{
	eng_set_buffering(prog, tr_buffering(m->b.mode), m->b.bytes);
	prog->sync_colls = m->b.sync_colls;
}

/* Make dir, without the trails of an earlier search, for a search of mode m. Returns 0, or
 * -1 with err filled. */
static int fresh_dir(struct check_run *run, const struct check_mode *m, const char *dir,
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
static int search_swarm_member(struct check_run *run, const struct check_mode *m, const char *dir,
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
static int search_mode(struct check_run *run, const struct check_mode *m, int member,
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
static int take_mode(struct check_run *run, const struct check_mode *m, struct spin_result *res,
		     struct mpiv_error *err)
{
	char dir[PATH_MAX], pan[PATH_MAX + 8];
	struct check_result *out = run->res;
	struct check_search *s = &out->searches[out->nsearches++];
	int i, found = out->found.n;

	if (mode_dir(run, m, dir, err))
		return -1;
	mode_pan(run, dir, pan, sizeof(pan));
	/* the tables of the reductions as the search had them, for the replays below */
	use_mode(run->prog, m);
	if (!res->complete)
		out->incomplete = 1;
	snprintf(s->mode, sizeof(s->mode), "%s", m->name);
	s->complete = res->complete;
	snprintf(s->why, sizeof(s->why), "%s", res->complete ? "" : res->why);
	s->states = res->states;
	s->deadlock_states = res->errors;
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
		tr_deadlocks_add(&out->found, &cex);
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
			out->incomplete = 1;
			warning("mode %s: trail '%s' does not end in a deadlock; treating the search "
				"as inconclusive",
				m->name, res->trails[i]);
			continue;
		}
		tr_deadlocks_add(&out->found, &cex);
	}
	spin_result_release(res);
	if (m->b.mode == MPIV_BUF_INFINITE && out->found.n == found)
		run->infinite[m->b.sync_colls] = out->nsearches - 1;
	return 0;
}

/* With an eager threshold no send of the program exceeds, every send is buffered: the search
 * is the one with infinite buffering. If that one was taken and found no deadlock, mode m's
 * entry repeats it (1); else 0, m is to be searched. */
static int same_as_infinite(struct check_run *run, const struct check_mode *m)
{
	struct check_result *out = run->res;
	struct check_search *same;

	if (m->b.mode != MPIV_BUF_EAGER || run->infinite[m->b.sync_colls] < 0 ||
	    !tr_sends_within(run->prog, m->b.bytes))
		return 0;
	same = &out->searches[out->nsearches++];
	*same = out->searches[run->infinite[m->b.sync_colls]];
	snprintf(same->mode, sizeof(same->mode), "%s", m->name);
	return 1;
}

/* Does mode m (of modes[0..n)) wait for the infinite one's search (of the same collectives),
 * which it may repeat? */
static int waits_for_infinite(const struct check_run *run, const struct check_mode *modes, int n,
			      const struct check_mode *m)
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

/* For classified deadlock i of set, what the other kind of mode tells of it: whether it needs
 * collectives that let members leave early (struct tr_deadlock's colls_early), and which
 * deadlock the modes that did not find it found instead (instead). */
static void other_kind(struct tr_deadlocks *set, int i, const struct check_mode *modes, int nmodes,
		       const struct check_search *searches)
{
	struct tr_deadlock *d = &set->d[i];
	int buffered = d->in_buffered || d->in_eager, m, j;

	for (m = 0; m < nmodes; m++)
		if (modes[m].b.mode != MPIV_BUF_ZERO && modes[m].b.sync_colls &&
		    searches[m].complete && !d->in_sync && !d->in_zero &&
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
	const struct check_mode *modes;
	int which[CHECK_MAX_MODES]; /* the modes searched at once, by their index in modes */
	int per;		    /* searches per mode: --swarm's N, or 1 */
};

static int search_nth(void *ctx, int i, struct spin_result *res, struct mpiv_error *err)
{
	struct mode_search *ms = ctx;

	return search_mode(ms->run, &ms->modes[ms->which[i / ms->per]], i % ms->per, res, err);
}

/* After a spin_* call failed: -1, with the signal check was told to stop by (which
 * spin_stopped() says) in run->res, if any. */
static int stopped(struct check_run *run)
{
	run->res->signal = spin_stopped();
	return -1;
}

/* The most instructions a program of plan's check may have: check's own pass holds the program
 * it searches, and the memory limit bounds it as it bounds SPIN's search. */
static size_t max_instrs(const struct check_plan *plan)
{
	return (size_t)plan->memory_mb * (1 << 20) / TR_INSTR_BYTES;
}

/* "zero, infinite": the names of plan's modes, into res. */
static void modes_names(const struct check_plan *plan, struct check_result *res)
{
	size_t size = sizeof(res->modes);
	int i;

	res->modes[0] = '\0';
	for (i = 0; i < plan->nmodes; i++) {
		if (i)
			strncat(res->modes, ", ", size - strlen(res->modes) - 1);
		strncat(res->modes, plan->modes[i].name, size - strlen(res->modes) - 1);
	}
}

/* A search every state of which was visited, of states states: mode's entry in res. */
static void search_whole(struct check_result *res, const char *mode, long long states)
{
	struct check_search *s = &res->searches[res->nsearches++];

	memset(s, 0, sizeof(*s));
	snprintf(s->mode, sizeof(s->mode), "%s", mode);
	s->complete = 1;
	s->states = states;
}

/* Events per segment where a run is checked a segment at a time: a program of this many
 * events takes some 50 MB. */
#define SEGMENT_EVENTS (1 << 19)

/* A run checked a segment at a time (translator/tr_segment.c), where it can be cut and no
 * segment has a choice to make but one at a time: its memory is a segment's, and its search
 * each segment's. Returns 1 when that settles it (no deadlock in any mode: res filled), or 0
 * when the whole program is to be checked (no cut, or a segment with a choice that branches
 * or a deadlock). */
static int check_segmented(struct check_plan *plan, struct check_result *res)
{
	struct mpiv_buffering given[CHECK_MAX_MODES];
	const char *env = getenv(MPIV_ENV_SEGMENT_EVENTS);
	size_t target = SEGMENT_EVENTS;
	struct tr_segmented seg;
	int k;

	if (env && *env && atol(env) <= 0)
		return 0;
	if (env && *env)
		target = (size_t)atol(env);
	/* a segment well within the memory limit (some two instructions an event) */
	if (target > max_instrs(plan) / 4)
		target = max_instrs(plan) / 4;
	if (plan->nmodes > TR_SEGMENT_MODES)
		return 0;
	for (k = 0; k < plan->nmodes; k++)
		given[k] = plan->modes[k].b;
	/* a run shorter than a segment is cut only where wildcard receives are closed by a
	 * collective (a round at a time keeps the search small); with none, it has no cut */
	if (!tr_check_segments(&res->ts, target, given, plan->nmodes, max_instrs(plan), &seg))
		return 0;
	searches_of(seg.twins, plan->modes, &plan->nmodes);
	modes_names(plan, res);
	res->segments = seg.nsegments;
	res->most = seg.most;
	res->warns = seg.warns;
	res->nwarns = seg.nwarns;
	for (k = 0; k < plan->nmodes; k++)
		search_whole(res, plan->modes[k].name, (long long)seg.lead[k] + 1);
	return 1;
}

/* A run whose program passed the memory limit as it was built (err says where): no mode was
 * searched, inconclusive; res filled. */
static void too_large(struct check_plan *plan, struct check_result *res,
		      const struct mpiv_error *err)
{
	int k;

	modes_names(plan, res);
	res->incomplete = 1;
	for (k = 0; k < plan->nmodes; k++) {
		struct check_search *s = &res->searches[res->nsearches++];

		memset(s, 0, sizeof(*s));
		snprintf(s->mode, sizeof(s->mode), "%s", plan->modes[k].name);
		mpiv_error_format(err, s->why, sizeof(s->why));
	}
}

/* The searches of every mode of plan on run's program, at once as far as the CPUs go, but
 * those that may repeat the infinite one's; what they found is taken in the modes' order, so
 * that the result does not depend on which ended first. Returns 0, or -1 with err filled
 * (or run->res->signal set). */
static int search_modes(struct check_run *run, struct check_plan *plan, struct mpiv_error *err)
{
	struct spin_result *results, merged;
	struct mpiv_error *errs;
	int *rcs, nat = 0, at[CHECK_MAX_MODES], per = plan->swarm ? plan->swarm : 1, i, k, rc = 0;
	struct mode_search ms;

	ms.run = run;
	ms.modes = plan->modes;
	ms.per = per;
	for (i = 0; i < plan->nmodes; i++) {
		at[i] = -1;
		if (plan->swarm ||
		    !waits_for_infinite(run, plan->modes, plan->nmodes, &plan->modes[i])) {
			at[i] = nat;
			ms.which[nat++] = i;
		}
	}
	results = xcalloc((size_t)(nat * per), sizeof(*results));
	errs = xcalloc((size_t)(nat * per), sizeof(*errs));
	rcs = xcalloc((size_t)(nat * per), sizeof(*rcs));
	/* a swarm's trails are replayed from the mode's directory: its model data goes there */
	for (i = 0; plan->swarm && i < plan->nmodes && !rc; i++) {
		char dir[PATH_MAX];

		if (mode_dir(run, &plan->modes[i], dir, err) ||
		    fresh_dir(run, &plan->modes[i], dir, err) || emit_model(run->prog, dir, err))
			rc = -1;
	}
	if (!rc)
		search_pool_run(search_nth, &ms, nat * per, child_cpus(), results, errs, rcs);
	for (i = 0; i < plan->nmodes; i++) {
		struct spin_result late;
		struct spin_result *res = &late;

		if (at[i] < 0) {
			/* the same search as the infinite one, made only if that one found a
			 * deadlock (or was not taken) */
			if (rc || same_as_infinite(run, &plan->modes[i]))
				continue;
			memset(&late, 0, sizeof(late));
			if (search_mode(run, &plan->modes[i], 0, &late, err)) {
				rc = stopped(run);
				spin_result_release(&late);
				continue;
			}
		} else {
			for (k = 0; k < per; k++)
				if (!rc && rcs[at[i] * per + k]) {
					*err = errs[at[i] * per + k];
					rc = stopped(run);
				}
			if (plan->swarm)
				swarm_result(results + at[i] * per, per, &merged);
			else
				merged = results[at[i]];
			res = &merged;
		}
		if (!rc && take_mode(run, &plan->modes[i], res, err))
			rc = stopped(run);
		spin_result_release(res);
	}
	free(results);
	free(errs);
	free(rcs);
	return rc;
}

/* Each deadlock of res: whether both kinds of mode searched, wholly where they did not find
 * it, so that it is classified (and what the other kind found instead); whether the recorded
 * run leads there; the library's eager threshold. */
static void classify(const struct check_plan *plan, struct check_result *res, long long eager)
{
	int i, m;

	for (i = 0; i < res->found.n; i++) {
		struct tr_deadlock *d = &res->found.d[i];
		int zero = 0, buffered = 0, known = 1;

		for (m = 0; m < plan->nmodes; m++) {
			if (plan->modes[m].b.mode == MPIV_BUF_ZERO)
				zero = 1;
			else if (plan->modes[m].b.mode == MPIV_BUF_INFINITE || !plan->all)
				buffered = 1;
			/* where it was not found, the search must have been whole */
			if (!found_in(d, plan->modes[m].b.mode) &&
			    (m >= res->nsearches || !res->searches[m].complete))
				known = 0;
		}
		d->classified = zero && buffered && known && res->nsearches == plan->nmodes;
		if (d->classified)
			other_kind(&res->found, i, plan->modes, plan->nmodes, res->searches);
		d->recorded = tr_on_recorded_path(res->prog, &res->ts, &d->cex);
		d->eager = eager;
	}
}

/* Make the output directory, without the counterexamples of an earlier check, into
 * res->outdir. Returns 0, or -1 with err filled. */
static int make_outdir(const struct check_plan *plan, struct check_result *res,
		       struct mpiv_error *err)
{
	char outbuf[PATH_MAX];
	const char *out = plan->out;

	if (!out) {
		snprintf(outbuf, sizeof(outbuf), "%s/check", plan->dir);
		out = outbuf;
	}
	if (outdir_make(out) || !realpath(out, res->outdir))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, out, -1, -1,
				      "cannot create output directory: %s", strerror(errno));
	return remove_old_cex(res->outdir, err);
}

int check_traces(struct check_plan *plan, struct check_result *res, struct mpiv_error *err)
{
	struct tr_opts topts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	long long eager = -1;
	struct check_run run;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	spin_catch_signals();
	/* as records: a trace of millions of events takes a few bytes an event */
	if (mpiv_traceset_load_records(plan->dir, &res->ts, err))
		return -1;
	if (plan->all && (eager = library_eager(&res->ts)) >= 0)
		add_mode_to_search(plan->modes, &plan->nmodes, MPIV_BUF_EAGER, eager, 0);
	if (make_outdir(plan, res, err))
		goto fail;
	if (!plan->swarm && !getenv(MPIV_ENV_SPIN_FROM_START) && check_segmented(plan, res))
		return MPIV_EXIT_OK;
	/* the reductions' tables are built for the first mode searched (a pass over the whole
	 * program): its search then needs no other (fresh_dir()) */
	if (plan->nmodes) {
		topts.buffering = tr_buffering(plan->modes[0].b.mode);
		topts.eager = plan->modes[0].b.bytes;
	}
	topts.max_instrs = max_instrs(plan);
	/* a call it cannot judge yet: its rank's calls from there on are left out */
	if (tr_translate_judged(&res->ts, &topts, &res->prog_store, err)) {
		if (err->code != MPIV_EXIT_INCONCLUSIVE)
			goto fail;
		too_large(plan, res, err);
		return MPIV_EXIT_INCONCLUSIVE;
	}
	res->prog = &res->prog_store;
	res->prog->full = plan->full;
	searches_of(tr_colls_partial(res->prog), plan->modes, &plan->nmodes);
	modes_names(plan, res);
	res->nwarns = tr_warnings(res->prog, &res->ts, &res->warns);
	memset(&run, 0, sizeof(run));
	run.infinite[0] = run.infinite[1] = -1;
	run.res = res;
	if (plan->swarm) {
		if (spin_swarm_verifier(res->outdir, res->prog->words, run.pan, sizeof(run.pan),
					err)) {
			stopped(&run);
			goto fail;
		}
	} else if (spin_prebuilt(res->prog->words, run.pan, sizeof(run.pan))) {
		/* a search that needs a verifier and finds none prebuilt builds its own */
		run.pan[0] = '\0';
	}
	run.memory_mb = plan->memory_mb;
	run.swarm = plan->swarm;
	run.seconds = plan->seconds;
	run.ts = &res->ts;
	run.prog = res->prog;
	run.outdir = res->outdir;
	if (search_modes(&run, plan, err))
		goto fail;
	tr_deadlocks_merge(&res->found);
	if (save_cexes(&run, err))
		goto fail;
	classify(plan, res, eager);
	/* a run in which some rank did not finish is not a whole path: never "no deadlock" */
	if (res->found.n)
		return MPIV_EXIT_DEADLOCK;
	return res->incomplete || !tr_all_finished(&res->ts) ? MPIV_EXIT_INCONCLUSIVE :
							       MPIV_EXIT_OK;
fail:
	rc = res->signal;
	check_result_release(res);
	res->signal = rc;
	return -1;
}

void check_result_release(struct check_result *res)
{
	tr_deadlocks_release(&res->found);
	free(res->warns);
	if (res->prog)
		eng_prog_release(res->prog);
	mpiv_traceset_release(&res->ts);
	memset(res, 0, sizeof(*res));
}
