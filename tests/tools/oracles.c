/* oracles: the differential test of the two models of a trace. The engine (models/engine.c,
 * the semantics check's SPIN search drives) is searched here natively, completely
 * (tr_explore()); the standalone Promela model (translator/tr_promela.c, MPI's rules written
 * in Promela) is searched by SPIN: spin -a, cc, pan -e, and every error trail replayed with
 * pan -r. For every buffering mode, both must find the same deadlocks: the same sets of
 * blocked calls, and the same erroneous calls. And check's own pass (translator/tr_cut.c)
 * must keep them: the program cut where the search first has a choice must read back as pan
 * reads it, and a search of it find the whole program's deadlocks.
 *
 *   oracles case [OPTIONS] TRACE_DIR...
 *	the trace directories given
 *   oracles random [OPTIONS] [--keep DIR] SEED COUNT
 *	COUNT random trace sets from seeds SEED, SEED + 1, ... (oracles_random.c); one the two
 *	disagree on is kept under --keep (default WORK/kept), to become a model case
 *
 * Options: --modes zero,infinite,eager:N (the default, N = 16); --batch N (default 10)
 * traces to a model, whose init chooses the trace and the mode, so that one compile of pan.c
 * serves them all (a batch cut short is searched again a trace at a time); --plain: the
 * model exactly as check --promela writes it instead, one per trace and mode; --work DIR
 * (default a new /tmp/oracles.*); --memory MB, pan's memory limit (default 1024).
 *
 * One line per comparison: "agree", "DISAGREE" (both verdicts, and what only one found) or
 * "not comparable" (why: a call the standalone model does not encode, a search cut short).
 * Exit 0 if nothing disagreed, 1 if something did, 2 usage, 4 a tool failed. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracles.h"
#include "translate.h"
#include "xalloc.h"
#include "tr_check.h"
#include "tr_explore.h"
#include "tr_promela.h"

#define ENGINE_MAX_STATES 2000000 /* the native search gives up beyond: not comparable */
#define PAN_SECONDS 120		  /* each pan run; beyond: not comparable */
#define MAX_TRAILS 400		  /* error trails read back; beyond, a sample */
#define MAX_SIGS 4096

static int pan_memory_mb = 1024; /* --memory */

/* ---- what a search found ---- */

/* A deadlock: which process is blocked at which instruction, sorted by process. */
struct sig {
	int n;
	int q[64], i[64];
};

/* An erroneous call: rank and event. */
struct err {
	int rank;
	long event;
};

struct found {
	int complete;
	char why[256];
	long states;
	struct sig *sigs;
	int nsigs;
	struct err *errs;
	int nerrs;
	int sample; /* only some of the error states were read back */
};

static void found_release(struct found *f)
{
	free(f->sigs);
	free(f->errs);
	memset(f, 0, sizeof(*f));
}

static int sig_eq(const struct sig *a, const struct sig *b)
{
	int k;

	if (a->n != b->n)
		return 0;
	for (k = 0; k < a->n; k++)
		if (a->q[k] != b->q[k] || a->i[k] != b->i[k])
			return 0;
	return 1;
}

static int has_sig(const struct found *f, const struct sig *s)
{
	int k;

	for (k = 0; k < f->nsigs; k++)
		if (sig_eq(&f->sigs[k], s))
			return 1;
	return 0;
}

static void add_sig(struct found *f, const struct sig *s)
{
	if (has_sig(f, s) || f->nsigs >= MAX_SIGS)
		return;
	f->sigs = xrealloc(f->sigs, (size_t)(f->nsigs + 1) * sizeof(*f->sigs));
	f->sigs[f->nsigs++] = *s;
}

static int has_err(const struct found *f, int rank, long event)
{
	int k;

	for (k = 0; k < f->nerrs; k++)
		if (f->errs[k].rank == rank && f->errs[k].event == event)
			return 1;
	return 0;
}

static void add_err(struct found *f, int rank, long event)
{
	if (has_err(f, rank, event))
		return;
	f->errs = xrealloc(f->errs, (size_t)(f->nerrs + 1) * sizeof(*f->errs));
	f->errs[f->nerrs].rank = rank;
	f->errs[f->nerrs++].event = event;
}

/* Add process q blocked at instruction i to s, keeping it sorted. */
static void sig_add(struct sig *s, int q, int i)
{
	int k;

	if (s->n >= 64)
		return;
	for (k = s->n; k > 0 && s->q[k - 1] > q; k--) {
		s->q[k] = s->q[k - 1];
		s->i[k] = s->i[k - 1];
	}
	s->q[k] = q;
	s->i[k] = i;
	s->n++;
}

/* ---- the engine, natively ---- */

static void engine_search(struct eng_prog *p, int mode, long long eager, struct found *f)
{
	struct tr_explore_opts o;
	struct tr_explore_result res;
	int k, q;

	memset(f, 0, sizeof(*f));
	memset(&o, 0, sizeof(o));
	o.max_states = ENGINE_MAX_STATES;
	/* the reductions' tables for this mode: the search check makes (engine.c) */
	eng_set_buffering(p, mode, eager);
	tr_explore(p, &o, &res);
	f->complete = res.complete;
	snprintf(f->why, sizeof(f->why), "the engine's search: %s", res.why);
	f->states = res.states;
	for (k = 0; k < res.nstuck; k++) {
		const struct tr_stuck *st = &res.stuck[k];
		struct sig s = {0};

		if (st->error) {
			int e;

			/* the erroneous process: the one eng_error() names at the end of the path */
			int32_t *state = xmalloc(eng_state_bytes(p));
			int j;

			eng_start(p, state);
			for (j = 0; j < st->npath; j++)
				eng_choose(p, state, st->path[j]);
			eng_error(p, state, &e);
			if (e >= 0)
				add_err(f, p->proc_rank[e], eng_instr_at(p, state, e)->ev);
			free(state);
			continue;
		}
		for (q = 0; q < p->nprocs; q++)
			if (st->place[q] >= 0)
				sig_add(&s, q, (int)st->place[q]);
		add_sig(f, &s);
	}
	tr_explore_release(&res);
}

/* ---- running spin, the C compiler, pan ---- */

/* Run argv in dir with stdout and stderr into out (a path), killed after seconds. Returns
 * its exit status, 128 + the signal that ended it, or -1 if it could not be run. */
static int run(const char *dir, char *const argv[], const char *out, int seconds)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		FILE *o = fopen(out, "w");

		if (!o || chdir(dir))
			_exit(127);
		dup2(fileno(o), 1);
		dup2(fileno(o), 2);
		alarm((unsigned)seconds); /* kept across exec: SIGALRM ends it */
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	if (!f)
		return xstrdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = xmalloc((size_t)(n > 0 ? n : 0) + 1);
	n = (long)fread(s, 1, (size_t)(n > 0 ? n : 0), f);
	s[n > 0 ? n : 0] = 0;
	fclose(f);
	return s;
}

/* One trail's deadlock or error, read back with pan -r, into per-(program, mode) results. */
static int read_trail(const char *work, const char *trail, const struct tr_promela_map *map,
		      int choose, int mode0, struct found *fs)
{
	char out[PATH_MAX], *text, *line, *save = NULL;
	char *argv[] = {"./pan", "-r", (char *)trail, "-S", "-w10", NULL};
	int prog = 0, mode = mode0, error = 0, rank = -1, judged_any = 0;
	long event = -1;
	int blocked_by_judge[64], nb = 0, pid_line[256], pid_invalid[256], k;
	struct sig s = {0};
	struct found *f;

	snprintf(out, sizeof(out), "%s/replay.out", work);
	if (run(work, argv, out, PAN_SECONDS) != 0)
		return -1;
	for (k = 0; k < 256; k++)
		pid_line[k] = pid_invalid[k] = -1;
	text = slurp(out);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p;
		int pid, ln;

		if (sscanf(line, "program %d, buffering %d", &prog, &mode) == 2)
			continue;
		if ((p = strstr(line, ": erroneous: ")) && sscanf(line, "rank %d", &rank) == 1) {
			char *e = strstr(p, "[event ");

			error = 1;
			if (e)
				event = strtol(e + 7, NULL, 10);
			continue;
		}
		if (!strncmp(line, "deadlock: ", 10) && (p = strstr(line, "(process "))) {
			judged_any = 1;
			if (nb < 64)
				blocked_by_judge[nb++] = atoi(p + 9);
			continue;
		}
		p = strstr(line, "proc ");
		if (p && sscanf(p, "proc %d (", &pid) == 1 && pid >= 0 && pid < 256) {
			char *c = strchr(p, ')');

			/* "proc 0 (rank0:1) model.pml:77 (state 8) (invalid end state)" */
			if (c && (c = strchr(c, ':')) && sscanf(c + 1, "%d", &ln) == 1 &&
			    !strstr(line, "[")) {
				pid_line[pid] = ln;
				pid_invalid[pid] = strstr(line, "(invalid end state)") != NULL;
			}
		}
	}
	free(text);
	if (prog < 0 || prog >= map->nprogs || mode < 0 || mode > 2)
		return -1;
	f = &fs[prog * 3 + mode];
	if (error) {
		add_err(f, rank, event);
		return 0;
	}
	for (k = 0; k < map->npids[prog]; k++) {
		int pid = k + (choose ? 1 : 0), q = map->pid_proc[prog][k], ln, blocked = 0, j;

		if (q < 0 || pid >= 256)
			continue;
		if (map->judged[prog]) {
			for (j = 0; j < nb; j++)
				blocked |= blocked_by_judge[j] == q;
		} else {
			blocked = pid_invalid[pid] == 1;
		}
		if (!blocked)
			continue;
		ln = pid_line[pid];
		if (ln <= 0 || ln > map->nlines || map->line_proc[ln] != q ||
		    map->line_prog[ln] != prog) {
			fprintf(stderr,
				"oracles: %s: process %d at line %d, which is not its code\n",
				trail, q, ln);
			return -1;
		}
		sig_add(&s, q, map->line_instr[ln]);
	}
	if (map->judged[prog] && !judged_any)
		return -1; /* a judged program's deadlock names its blocked ranks */
	add_sig(f, &s);
	return 0;
}

/* SPIN on the model in work/model.pml: fills fs[prog * 3 + mode] for the programs of map
 * and the mode the model has (mode0), or every mode init chooses from (choose; mode0 -1).
 * Returns 0, or -1 (a tool failed: err says which). */
static int spin_search(const char *work, const struct tr_promela_map *map, int choose, int mode0,
		       struct found *fs, char *err, size_t errsize)
{
	char out[PATH_MAX], mem[64], trail[64], *text, *p;
	char *spin[] = {"spin", "-a", "model.pml", NULL};
	const char *cc = getenv("CC") ? getenv("CC") : "cc";
	char *ccv[] = {(char *)cc, "-O0", "-w",	 "-DSAFETY", "-DVECTORSZ=65536",
		       mem,	   "-o",  "pan", "pan.c",    NULL};
	char *pan[] = {"./pan", "-e", "-c0", "-n", "-m1000000", "-w20", NULL};
	long errors = 0, k;
	int rc, i, complete = 1;
	char why[256] = "";

	snprintf(mem, sizeof(mem), "-DMEMLIM=%d", pan_memory_mb);
	snprintf(out, sizeof(out), "%s/spin.out", work);
	if ((rc = run(work, spin, out, 120)) != 0) {
		snprintf(err, errsize, "spin -a failed (exit %d): see %.300s", rc, out);
		return -1;
	}
	snprintf(out, sizeof(out), "%s/cc.out", work);
	if ((rc = run(work, ccv, out, 600)) != 0) {
		snprintf(err, errsize, "%s failed (exit %d): see %.300s", cc, rc, out);
		return -1;
	}
	snprintf(out, sizeof(out), "%s/pan.out", work);
	rc = run(work, pan, out, PAN_SECONDS);
	text = slurp(out);
	if (rc == 128 + SIGALRM) {
		complete = 0;
		snprintf(why, sizeof(why), "pan ran out of time (%d s)", PAN_SECONDS);
	} else if (rc != 0 || strstr(text, "VECTORSZ")) {
		/* the model sets its own room for the state: too little is its bug */
		snprintf(err, errsize, "pan failed (exit %d): see %.300s", rc, out);
		free(text);
		return -1;
	} else if (strstr(text, "MEMLIM") || strstr(text, "out of memory")) {
		complete = 0;
		snprintf(why, sizeof(why),
			 "pan reached its memory limit (%d MB): the "
			 "standalone model's search, without the engine's reductions, is too large",
			 pan_memory_mb);
	} else if (strstr(text, "max search depth too small")) {
		complete = 0;
		snprintf(why, sizeof(why), "pan's search was cut short (its depth limit)");
	}
	p = strstr(text, "errors: ");
	if (p)
		errors = strtol(p + 8, NULL, 10);
	p = strstr(text, "states, stored");
	for (i = 0; i < map->nprogs * 3; i++) {
		if (mode0 >= 0 && i % 3 != mode0)
			continue;
		fs[i].complete = complete;
		snprintf(fs[i].why, sizeof(fs[i].why), "%s", why);
		if (p) {
			char *q = p;

			while (q > text && q[-1] != '\n')
				q--;
			fs[i].states = strtol(q, NULL, 10);
		}
	}
	free(text);
	if (!complete)
		return 0;
	for (k = 1; k <= errors && k <= MAX_TRAILS; k++) {
		snprintf(trail, sizeof(trail), "model.pml%ld.trail", k);
		if (read_trail(work, trail, map, choose, mode0, fs)) {
			snprintf(err, errsize, "cannot read trail %.300s/%s back", work, trail);
			return -1;
		}
	}
	if (errors > MAX_TRAILS)
		for (i = 0; i < map->nprogs * 3; i++)
			fs[i].sample = 1;
	/* a fresh start for the next model in this directory */
	for (k = 1; k <= errors; k++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/model.pml%ld.trail", work, k);
		unlink(path);
	}
	return 0;
}

/* ---- comparing ---- */

static const char *mode_str(int mode, long long eager, char *buf, size_t size)
{
	if (mode == ENG_BUF_EAGER)
		snprintf(buf, size, "eager:%lld", eager);
	else
		snprintf(buf, size, "%s", mode == ENG_BUF_ZERO ? "zero" : "infinite");
	return buf;
}

static void describe_sig(FILE *o, const struct eng_prog *p, const struct sig *s)
{
	int k;

	for (k = 0; k < s->n; k++)
		fprintf(o, "%srank %d event %d", k ? ", " : "", p->proc_rank[s->q[k]],
			p->ins[s->q[k]][s->i[k]].ev);
}

static void describe_found(FILE *o, const struct eng_prog *p, const struct found *f)
{
	int k;

	if (!f->nsigs && !f->nerrs) {
		fprintf(o, "no deadlock");
		return;
	}
	if (f->nsigs)
		fprintf(o, "%d deadlock%s", f->nsigs, f->nsigs == 1 ? "" : "s");
	for (k = 0; k < f->nsigs && k < 4; k++) {
		fprintf(o, "%s[", k ? " " : " ");
		describe_sig(o, p, &f->sigs[k]);
		fprintf(o, "]");
	}
	if (f->nsigs > 4)
		fprintf(o, " ...");
	if (f->nerrs)
		fprintf(o, "%s%d erroneous call%s", f->nsigs ? ", " : "", f->nerrs,
			f->nerrs == 1 ? "" : "s");
	for (k = 0; k < f->nerrs && k < 4; k++)
		fprintf(o, " [rank %d event %ld]", f->errs[k].rank, f->errs[k].event);
}

/* Is every deadlock and error of a also one of b? */
static int within(const struct found *a, const struct found *b)
{
	int k;

	for (k = 0; k < a->nsigs; k++)
		if (!has_sig(b, &a->sigs[k]))
			return 0;
	for (k = 0; k < a->nerrs; k++)
		if (!has_err(b, a->errs[k].rank, a->errs[k].event))
			return 0;
	return 1;
}

static int disagreements, comparisons, not_comparable, tool_failures;

/* The deadlocks of f, found in p, with each blocked instruction named by its event: the same
 * in a program and in its cut (whose instructions are renumbered). */
static void sigs_by_event(const struct eng_prog *p, struct found *f)
{
	int k, j;

	for (k = 0; k < f->nsigs; k++)
		for (j = 0; j < f->sigs[k].n; j++)
			f->sigs[k].i[j] = p->ins[f->sigs[k].q[j]][f->sigs[k].i[j]].ev;
}

/* check's own pass on p in one mode (translator/tr_cut.c): the stretch with one choice run
 * natively, the rest cut into a program of its own, written as pan reads it and read back.
 * It must read back, and a search of it must find the deadlocks a search of the whole
 * program found (e, by event). 1 if it did not. */
static int cut_agrees(const char *name, const char *mode, struct eng_prog *p, const struct found *e)
{
	int32_t *st = xmalloc(eng_state_bytes(p));
	struct eng_prog cut, back;
	struct found fc;
	char msg[256] = "", *text = NULL;
	size_t len = 0;
	FILE *f;
	int bad = 0;

	tr_forced_path(p, st);
	if (!tr_cut(p, st, &cut)) {
		free(st);
		return 0; /* check does not cut it either */
	}
	free(st);
	f = open_memstream(&text, &len);
	if (!f || eng_prog_write(&cut, f) || fclose(f))
		abort();
	f = fmemopen(text, len, "r");
	if (!f || eng_prog_read(&back, f, msg, sizeof(msg))) {
		printf("DISAGREE: %s %s: check's cut of the program does not read back: %s\n", name,
		       mode, msg);
		disagreements++;
		bad = 1;
	} else {
		engine_search(&back, back.buffering, back.eager, &fc);
		sigs_by_event(&back, &fc);
		comparisons++;
		if (fc.complete && !(within(e, &fc) && within(&fc, e))) {
			printf("DISAGREE: %s %s: check's cut finds other deadlocks than the whole "
			       "program's search\n",
			       name, mode);
			disagreements++;
			bad = 1;
		}
		found_release(&fc);
	}
	if (f)
		fclose(f);
	eng_prog_release(&back);
	eng_prog_release(&cut);
	free(text);
	return bad;
}

/* Compare the engine's e and the standalone model's m on one program and mode; print the
 * line. Returns 1 on a disagreement. */
static int compare(const char *name, const char *mode, const struct eng_prog *p,
		   const struct found *e, const struct found *m)
{
	int edl = e->nsigs || e->nerrs, mdl = m->nsigs || m->nerrs, same;

	comparisons++;
	if (!e->complete || !m->complete) {
		not_comparable++;
		printf("not comparable: %s %s: %s\n", name, mode, !e->complete ? e->why : m->why);
		return 0;
	}
	if (m->sample && (e->nerrs || m->nerrs))
		/* the model's erroneous calls read back are a sample (more error trails than
		 * MAX_TRAILS): an engine's erroneous call may be on a trail not read, so only
		 * whether both found one can be compared */
		same = !e->nerrs == !m->nerrs;
	else if (e->nerrs || m->nerrs)
		/* after an erroneous call the engine stops, the standalone model goes on */
		same = !e->nerrs == !m->nerrs && within(e, m);
	else if (m->sample)
		same = edl == mdl && within(m, e); /* every deadlock read back is the engine's */
	else
		same = within(e, m) && within(m, e);
	if (same && edl == mdl) {
		printf("agree: %s %s: ", name, mode);
		describe_found(stdout, p, e);
		printf(" (engine %ld states, standalone model %ld%s)\n", e->states, m->states,
		       m->sample ? ", a sample of its error trails read back" : "");
		return 0;
	}
	disagreements++;
	printf("DISAGREE: %s %s:\n  engine:           ", name, mode);
	describe_found(stdout, p, e);
	printf("\n  standalone model: ");
	describe_found(stdout, p, m);
	printf("\n");
	return 1;
}

/* ---- one model for several programs and modes ---- */

struct job {
	char **dirs;
	int n;
	unsigned modes; /* 1 << mode */
	long long eager;
	int choose; /* one model for all (random), else one per program and mode */
	const char *work;
	const char *keep; /* where disagreeing traces are copied, or NULL */
};

static int copy_dir(const char *from, const char *to)
{
	char *argv[] = {"cp", "-r", (char *)from, (char *)to, NULL};

	return run(".", argv, "/dev/null", 60);
}

/* SPIN on the standalone model of the programs sel[0..n) of progs: one model for all
 * (choose: init picks the program and the mode), or one per mode (n is 1). Fills
 * fm[sel[k] * 3 + mode]. Returns 0, or -1 if a tool failed (said, and counted). */
static int search_models(const struct job *j, struct eng_prog **progs, struct mpiv_traceset *ts,
			 const int *sel, int n, struct found *fm)
{
	struct tr_promela_input *in = xcalloc((size_t)n, sizeof(*in));
	struct found *got = xcalloc((size_t)n * 3, sizeof(*got));
	char path[PATH_MAX], err[PATH_MAX + 256];
	int k, m, rc = 0;

	for (k = 0; k < n; k++) {
		in[k].prog = progs[sel[k]];
		in[k].ts = &ts[sel[k]];
	}
	snprintf(path, sizeof(path), "%s/model.pml", j->work);
	for (m = j->choose ? -1 : 0; m <= 2 && rc == 0; m++) {
		struct tr_promela_opts o;
		struct tr_promela_map map;
		struct mpiv_error e;
		FILE *f;

		if (m >= 0 && !(j->modes & (1u << m)))
			continue;
		memset(&o, 0, sizeof(o));
		o.buffering = m < 0 ? ENG_BUF_ZERO : m;
		o.eager = j->eager;
		o.choose = j->choose;
		o.modes = j->modes;
		mpiv_error_init(&e);
		f = fopen(path, "w");
		if (!f || tr_promela(f, path, in, n, &o, &map, &e)) {
			snprintf(err, sizeof(err), "cannot write %.300s: %.512s", path,
				 e.set ? e.text : strerror(errno));
			if (f)
				fclose(f);
			rc = -1;
			break;
		}
		fclose(f);
		if (spin_search(j->work, &map, j->choose, m, got, err, sizeof(err)))
			rc = -1;
		tr_promela_map_release(&map);
		if (m < 0)
			break;
	}
	if (rc) {
		/* a model SPIN or pan cannot take is the generator's bug: said, and the other
		 * traces still compared */
		printf("FAIL: %s%s: %s\n", j->dirs[sel[0]],
		       n > 1 ? " and the others of its model" : "", err);
		tool_failures++;
	}
	for (k = 0; k < n && rc == 0; k++)
		for (m = 0; m < 3; m++) {
			found_release(&fm[sel[k] * 3 + m]);
			fm[sel[k] * 3 + m] = got[k * 3 + m];
			memset(&got[k * 3 + m], 0, sizeof(got[0]));
		}
	for (k = 0; k < n * 3; k++)
		found_release(&got[k]);
	free(got);
	free(in);
	return rc;
}

/* Compare the engine and the standalone model on the programs of j (NULL: refused, reason
 * in why[k], or not loaded, why[k] NULL too); keep those that disagree. */
static void compare_all(const struct job *j, struct eng_prog **progs, char **why, struct found *fm,
			const int *failed)
{
	char mode[32];
	int k, m;

	for (k = 0; k < j->n; k++) {
		int bad = 0;

		if ((!progs[k] && !why[k]) || failed[k])
			continue; /* it could not be loaded or searched (FAIL above) */
		for (m = 0; m <= 2; m++) {
			struct found fe;

			if (!(j->modes & (1u << m)))
				continue;
			mode_str(m, j->eager, mode, sizeof(mode));
			if (!progs[k]) {
				comparisons++;
				not_comparable++;
				printf("not comparable: %s %s: the standalone model refuses it: %s\n",
				       j->dirs[k], mode, why[k]);
				continue;
			}
			engine_search(progs[k], m, j->eager, &fe);
			bad |= compare(j->dirs[k], mode, progs[k], &fe, &fm[k * 3 + m]);
			if (fe.complete) {
				sigs_by_event(progs[k], &fe);
				bad |= cut_agrees(j->dirs[k], mode, progs[k], &fe);
			}
			found_release(&fe);
		}
		if (bad && j->keep) {
			char dest[PATH_MAX];
			const char *base = strrchr(j->dirs[k], '/');

			mkdir(j->keep, 0777);
			snprintf(dest, sizeof(dest), "%s/%s", j->keep,
				 base ? base + 1 : j->dirs[k]);
			if (copy_dir(j->dirs[k], dest) == 0)
				printf("  kept in %s: a model case to add, with the verdicts it must "
				       "have\n",
				       dest);
		}
	}
}

/* Load and translate the trace directories of j; search and compare them. A batch whose
 * search was cut short (one trace too large spoils it) is searched again one trace at a
 * time. */
static void run_job(const struct job *j)
{
	struct mpiv_traceset *ts = xcalloc((size_t)j->n, sizeof(*ts));
	struct eng_prog *progs = xcalloc((size_t)j->n, sizeof(*progs));
	struct eng_prog **pp = xcalloc((size_t)j->n, sizeof(*pp));
	struct found *fm = xcalloc((size_t)j->n * 3, sizeof(*fm));
	char **why = xcalloc((size_t)j->n, sizeof(*why));
	int *sel = xcalloc((size_t)j->n, sizeof(int)), *failed = xcalloc((size_t)j->n, sizeof(int));
	int k, n = 0, stage;

	for (k = 0; k < j->n; k++) {
		struct tr_opts to = {ENG_BUF_ZERO, 0, 0, 0, 0};
		struct tr_promela_input in;
		struct tr_promela_opts po;
		struct mpiv_error e;
		char text[1024];
		FILE *null;

		mpiv_error_init(&e);
		if (mpiv_traceset_load(j->dirs[k], &ts[k], &e) ||
		    tr_translate(&ts[k], &to, &progs[k], &e)) {
			mpiv_error_format(&e, text, sizeof(text));
			printf("FAIL: %s: %s\n", j->dirs[k], text);
			tool_failures++;
			continue;
		}
		/* does the standalone model take it? (a refusal names the call) */
		memset(&po, 0, sizeof(po));
		in.prog = &progs[k];
		in.ts = &ts[k];
		null = fopen("/dev/null", "w");
		if (tr_promela(null, "model.pml", &in, 1, &po, NULL, &e)) {
			mpiv_error_format(&e, text, sizeof(text));
			why[k] = xstrdup(text);
		} else {
			pp[k] = &progs[k];
			sel[n++] = k;
		}
		fclose(null);
	}
	/* a batch in one model; then each trace whose search was cut short, or whose error
	 * trails were too many to read back, alone: in one model for its modes, then, if its
	 * trails were still too many, in one per mode (where pan's error count alone says
	 * whether that mode has a deadlock) */
	for (stage = j->choose ? (n > 1 ? 0 : 1) : 2; stage <= 2 && n > 0; stage++) {
		struct job one = *j;
		int again = 0, batch_failed = 0;

		one.choose = stage < 2;
		if (stage == 0)
			batch_failed = search_models(&one, pp, ts, sel, n, fm) != 0;
		for (k = 0; stage > 0 && k < n; k++)
			failed[sel[k]] = search_models(&one, pp, ts, &sel[k], 1, fm) != 0;
		if (stage == 2)
			break;
		for (k = 0; k < n; k++) {
			const struct found *f = &fm[sel[k] * 3];

			if (failed[sel[k]] || (stage == 1 && !f[0].complete))
				continue;
			if (batch_failed || !f[0].complete || f[0].sample)
				sel[again++] = sel[k];
		}
		n = again;
	}
	compare_all(j, pp, why, fm, failed);
	for (k = 0; k < j->n; k++) {
		if (progs[k].nprocs)
			eng_prog_release(&progs[k]);
		if (ts[k].dir)
			mpiv_traceset_release(&ts[k]);
		free(why[k]);
	}
	for (k = 0; k < j->n * 3; k++)
		found_release(&fm[k]);
	free(fm);
	free(sel);
	free(failed);
	free(ts);
	free(progs);
	free(pp);
	free(why);
}

/* ---- the command line ---- */

static int usage(void)
{
	fprintf(stderr, "usage: oracles case [OPTIONS] TRACE_DIR...\n"
			"       oracles random [OPTIONS] [--keep DIR] SEED COUNT\n"
			"options: --modes M,... (zero,infinite,eager:N), --work DIR, --batch N, "
			"--plain, --memory MB\n");
	return 2;
}

/* "zero,infinite,eager:16" */
static int parse_modes(const char *s, unsigned *modes, long long *eager)
{
	char buf[256], *tok, *save = NULL;

	*modes = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "zero"))
			*modes |= 1u << ENG_BUF_ZERO;
		else if (!strcmp(tok, "infinite"))
			*modes |= 1u << ENG_BUF_INFINITE;
		else if (!strncmp(tok, "eager:", 6) && tok[6]) {
			*modes |= 1u << ENG_BUF_EAGER;
			*eager = atoll(tok + 6);
		} else {
			return -1;
		}
	}
	return *modes ? 0 : -1;
}

/* Run j over dirs[0..n), batch directories at a time. */
static void run_batches(struct job *j, char **dirs, int n, int batch)
{
	int k;

	for (k = 0; k < n; k += batch) {
		j->dirs = &dirs[k];
		j->n = n - k < batch ? n - k : batch;
		run_job(j);
	}
}

int main(int argc, char **argv)
{
	struct job j;
	const char *cmd;
	char work[PATH_MAX] = "", keep[PATH_MAX];
	long batch = 10;
	int a = 2, plain = 0;

	memset(&j, 0, sizeof(j));
	parse_modes("zero,infinite,eager:16", &j.modes, &j.eager);
	if (argc < 2)
		return usage();
	cmd = argv[1];
	for (; a < argc && !strncmp(argv[a], "--", 2); a += 2) {
		if (!strcmp(argv[a], "--plain")) {
			plain = 1;
			a--;
			continue;
		}
		if (a + 1 >= argc)
			return usage();
		if (!strcmp(argv[a], "--modes")) {
			if (parse_modes(argv[a + 1], &j.modes, &j.eager))
				return usage();
		} else if (!strcmp(argv[a], "--work")) {
			snprintf(work, sizeof(work), "%s", argv[a + 1]);
		} else if (!strcmp(argv[a], "--batch")) {
			batch = atol(argv[a + 1]);
		} else if (!strcmp(argv[a], "--memory")) {
			pan_memory_mb = atoi(argv[a + 1]);
		} else if (!strcmp(argv[a], "--keep")) {
			j.keep = argv[a + 1];
		} else {
			return usage();
		}
	}
	if (batch < 1 || pan_memory_mb < 16)
		return usage();
	if (!*work) {
		char tmpl[] = "/tmp/oracles.XXXXXX";

		if (!mkdtemp(tmpl))
			return 4;
		snprintf(work, sizeof(work), "%s", tmpl);
	}
	mkdir(work, 0777);
	j.work = work;
	/* the plain model: one per mode, BUFFERING a #define, exactly as check --promela
	 * writes it; else one model for a batch of traces and every mode */
	j.choose = !plain;
	if (!strcmp(cmd, "case")) {
		if (a >= argc)
			return usage();
		run_batches(&j, &argv[a], argc - a, plain ? 1 : (int)batch);
	} else if (!strcmp(cmd, "random")) {
		unsigned long long seed, count, k;
		char **dirs;

		if (a + 2 != argc)
			return usage();
		seed = strtoull(argv[a], NULL, 10);
		count = strtoull(argv[a + 1], NULL, 10);
		if (!j.keep) {
			snprintf(keep, sizeof(keep), "%s/kept", work);
			j.keep = keep;
		}
		dirs = xcalloc((size_t)count + 1, sizeof(*dirs));
		for (k = 0; k < count; k++) {
			char dir[PATH_MAX];

			snprintf(dir, sizeof(dir), "%s/random-%llu", work, seed + k);
			if (oracles_random_trace(seed + k, dir)) {
				fprintf(stderr, "oracles: cannot write %s: %s\n", dir,
					strerror(errno));
				return 4;
			}
			dirs[k] = xstrdup(dir);
		}
		run_batches(&j, dirs, (int)count, plain ? 1 : (int)batch);
		for (k = 0; k < count; k++)
			free(dirs[k]);
		free(dirs);
	} else {
		return usage();
	}
	printf("%d comparisons: %d agree, %d disagree, %d not comparable%s\n", comparisons,
	       comparisons - disagreements - not_comparable, disagreements, not_comparable,
	       tool_failures ? "; some could not be searched (FAIL above)" : "");
	if (tool_failures)
		return 4;
	return disagreements ? 1 : 0;
}
