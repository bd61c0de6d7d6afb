/* Where each rank of a watched job stands, as record and replay print it: the blocked call
 * with its site and stack, resolved to file:line, and, for replay, next to what the
 * counterexample predicted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exit.h"
#include "monitor.h"
#include "report_group.h"
#include "srcloc.h"
#include "trace.h"
#include "xalloc.h"

/* The module path comes from the status, else from the module table of the rank's trace. */
void monitor_site(const struct monitor_rank *m, int r, const char *trace_dir, char *buf,
		  size_t size)
{
	const char *module = NULL;
	struct mpiv_rank_trace t;
	struct mpiv_cex_site s;
	struct mpiv_error err;
	char where[1024];
	int ok = 0, have_trace = 0;

	buf[0] = '\0';
	if (!m->site)
		return;
	memset(&s, 0, sizeof(s));
	if (m->module[0] == '/') {
		module = m->module;
		ok = mpiv_srcloc_resolve(module, MPIV_SITE_ADDR(m->site), &s) == 0;
	}
	/* the whole trace is read only when the status did not do */
	if (!ok && trace_dir) {
		mpiv_error_init(&err);
		have_trace = mpiv_trace_load_rank(trace_dir, r, &t, &err) == 0;
	}
	if (have_trace && mpiv_trace_module(&t, m->site)) {
		mpiv_cex_site_release(&s);
		module = mpiv_trace_module(&t, m->site);
		ok = mpiv_srcloc_resolve(module, MPIV_SITE_ADDR(m->site), &s) == 0;
	}
	if (ok) {
		mpiv_srcloc_format(&s, where, sizeof(where));
		snprintf(buf, size, " at %s", where);
	} else if (module) {
		snprintf(buf, size, " at %s+0x%llx", module,
			 (unsigned long long)MPIV_SITE_ADDR(m->site));
	} else {
		snprintf(buf, size, " at site 0x%016llx", (unsigned long long)m->site);
	}
	mpiv_cex_site_release(&s);
	if (have_trace)
		mpiv_rank_trace_release(&t);
}

/* Print the status text, each line indented, e.g. what diverged. */
static void print_text(FILE *f, const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(f, "    %s\n", p);
			break;
		}
		if (nl > p)
			fprintf(f, "    %.*s\n", (int)(nl - p), p);
		p = nl + 1;
	}
}

int monitor_stack_frames(const char *stack, char ***out)
{
	const char *p = stack, *nl, *plus;
	char path[4096], where[4200];
	struct mpiv_cex_site s;
	unsigned long long addr;
	char **frames = NULL;
	int n = 0, top = 0;
	size_t len;

	for (; *p && !top; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		/* "PATH+0xADDR": the path may hold '+', the address is after the last one */
		plus = p + (nl - p);
		while (plus > p && *plus != '+')
			plus--;
		len = (size_t)(plus - p);
		if (plus == p || len >= sizeof(path) || sscanf(plus + 1, "0x%llx", &addr) != 1)
			continue;
		memcpy(path, p, len);
		path[len] = '\0';
		memset(&s, 0, sizeof(s));
		/* a loaded object's file, or a Python script's function (MPIV_SITE_PYTHON) */
		if ((path[0] == '/' ||
		     !strncmp(path, MPIV_SITE_PYTHON, strlen(MPIV_SITE_PYTHON))) &&
		    mpiv_srcloc_resolve(path, addr, &s) == 0) {
			mpiv_srcloc_format(&s, where, sizeof(where));
			top = s.function && !strcmp(s.function, "main");
		} else {
			const char *base = strrchr(path, '/');

			snprintf(where, sizeof(where), "%s+0x%llx", base ? base + 1 : path, addr);
		}
		mpiv_cex_site_release(&s);
		frames = xrealloc(frames, (size_t)(n + 1) * sizeof(*frames));
		frames[n++] = xstrdup(where);
	}
	*out = frames;
	return n;
}

/* Print the stack m took in its current call (or, with crash, where it died), one
 * "    #N file.c:12 (func)" line a frame, up to main; a frame that cannot be resolved shows its
 * module and offset. Nothing if the stack is missing or was taken in another call. */
static void print_stack(FILE *f, const struct monitor_rank *m, int crash)
{
	char **frames;
	int n, k;

	if (!m->nframes || m->stack_op != (crash ? MPIV_STATUS_CRASH_OP : (uint32_t)m->op))
		return;
	n = monitor_stack_frames(m->stack, &frames);
	for (k = 0; k < n; k++) {
		fprintf(f, "    #%d %s\n", k, frames[k]);
		free(frames[k]);
	}
	free(frames);
}

static void print_prediction(FILE *f, const struct mpiv_cex_rank *cr, int differs)
{
	const struct mpiv_cex_site *site;
	const char *desc;
	long op = mpiv_cex_first_blocked(cr, &desc, &site);
	char where[1024];
	int name;

	if (op < 0) {
		fprintf(f, "    predicted: finished%s\n", differs ? " (differs)" : "");
		return;
	}
	where[0] = '\0';
	if (site->function || site->file) {
		char loc[1000];

		mpiv_srcloc_format(site, loc, sizeof(loc));
		snprintf(where, sizeof(where), " at %s", loc);
	}
	/* the call's name: a thread's is its description up to the arguments */
	if (op == cr->blocked_op && cr->blocked_call)
		desc = cr->blocked_call;
	if (!desc)
		desc = "an MPI call";
	name = (int)strcspn(desc, "(");
	fprintf(f, "    predicted: blocked in %.*s (event %ld)%s%s\n", name, desc, op, where,
		differs ? " (differs)" : "");
}

/* What rank m is doing, as "blocked in MPI_Recv (event 5)"; a call is only said to block in a
 * deadlock (after a crash, say, the rank was merely in it). */
static void describe(const struct monitor_rank *m, enum monitor_outcome outcome, char *buf,
		     size_t size)
{
	switch (m->state) {
	case MPIV_ST_STARTING:
		snprintf(buf, size, "starting (MPI_Init has not returned)");
		break;
	case MPIV_ST_RUNNING:
	case MPIV_ST_IN_CALL:
		if (m->polling && outcome == MONITOR_DEADLOCK) {
			snprintf(buf, size,
				 "polling without progress: %llu failed %s (last: "
				 "event %ld)",
				 (unsigned long long)(m->polls - m->polls_base), m->call_name,
				 m->op);
			break;
		}
		if (m->state == MPIV_ST_RUNNING) {
			snprintf(buf, size, "running outside MPI (after event %ld)", m->op);
			break;
		}
		snprintf(buf, size, "%s %s (event %ld)",
			 outcome == MONITOR_DEADLOCK ? "blocked in" : "in", m->call_name, m->op);
		break;
	case MPIV_ST_FINALIZED:
		snprintf(buf, size, "finished");
		break;
	case MPIV_ST_DIVERGED:
		snprintf(buf, size, "diverged in %s (event %ld)", m->call_name, m->op);
		break;
	case MPIV_ST_FAILED:
		snprintf(buf, size, "cannot replay");
		break;
	}
}

/* Rank r's lines of the report into f, after its "rank R: " (nothing for a rank that finished
 * as predicted); returns 1 if it is not where the counterexample has it. */
static int rank_block(FILE *f, const struct monitor_result *res, int r, const char *trace_dir,
		      const struct mpiv_cex *cex)
{
	const struct monitor_rank *m = r < res->size ? &res->ranks[r] : NULL;
	const struct mpiv_cex_rank *cr = cex && r < cex->nranks ? &cex->ranks[r] : NULL;
	int finished, differs;
	char what[256], where[1200];

	finished = m && m->seen && m->state == MPIV_ST_FINALIZED;
	if (cr) {
		long op = mpiv_cex_first_blocked(cr, NULL, NULL);

		if (finished)
			differs = op >= 0;
		else
			differs = !m || !m->seen || m->state != MPIV_ST_IN_CALL || m->op != op;
	} else {
		differs = 0;
	}
	/* finished ranks are not news, unless the counterexample has them blocked */
	if (finished && !differs)
		return 0;
	if (!m || !m->seen) {
		fprintf(f, "no status reported\n");
		if (cr)
			print_prediction(f, cr, differs);
		return differs;
	}
	describe(m, res->outcome, what, sizeof(what));
	where[0] = '\0';
	if (m->state == MPIV_ST_IN_CALL || m->state == MPIV_ST_DIVERGED || m->polling)
		monitor_site(m, r, trace_dir, where, sizeof(where));
	fprintf(f, "%s%s\n", what, where);
	if (m->state == MPIV_ST_IN_CALL && !m->polling)
		print_stack(f, m, 0);
	/* DIVERGED's and FAILED's text says why; the notes are for replay's own report */
	if (m->state == MPIV_ST_DIVERGED || m->state == MPIV_ST_FAILED)
		print_text(f, m->text);
	if (cr)
		print_prediction(f, cr, differs);
	return differs;
}

/* Whether text is one or more stack lines ("    #N ...") and nothing else. */
static int only_stack(const char *text)
{
	if (!*text)
		return 0;
	for (; *text; text += strcspn(text, "\n") + 1)
		if (strncmp(text, "    #", 5) || !text[strcspn(text, "\n")])
			return 0;
	return 1;
}

/* A rank whose stack was not taken (its status thread ran too seldom on a loaded machine),
 * blocked where another rank is whose stack was: its block becomes that rank's, so that it
 * joins the class of the ranks blocked there rather than stand alone. */
static void stack_of_peer(char **blocks, int n, int r)
{
	size_t line = strcspn(blocks[r], "\n");
	int s;

	/* its one line, and nothing after it (no prediction of replay's, which is its own) */
	if (!blocks[r][line] || blocks[r][line + 1])
		return;
	for (s = 0; s < n; s++)
		if (s != r && !strncmp(blocks[s], blocks[r], line + 1) &&
		    only_stack(blocks[s] + line + 1)) {
			free(blocks[r]);
			blocks[r] = xstrdup(blocks[s]);
			return;
		}
}

int monitor_report(FILE *f, const struct monitor_result *res, const char *trace_dir,
		   const struct mpiv_cex *cex)
{
	struct rank_classes cs = {0};
	int n = res->size, r, differ = 0;
	char **blocks;
	size_t len;

	if (cex && cex->nranks > n)
		n = cex->nranks;
	cs.apart = n < GROUP_FROM_RANKS;
	if (!n)
		fprintf(f, "no rank reported its status\n");
	/* each rank's lines, after "rank R: "; ranks whose lines are the same are one class */
	blocks = xcalloc((size_t)n + 1, sizeof(*blocks));
	for (r = 0; r < n; r++) {
		FILE *b = open_memstream(&blocks[r], &len);

		if (!b)
			die(MPIV_EXIT_TOOL, "out of memory");
		differ += rank_block(b, res, r, trace_dir, cex);
		fclose(b);
	}
	for (r = 0; r < n; r++) {
		stack_of_peer(blocks, n, r);
		if (blocks[r][0])
			classes_add(&cs, blocks[r], r);
	}
	/* in the order of the ranks; a class of GROUP_MIN or more at its first */
	for (r = 0; r < n; r++) {
		const struct rank_class *c = classes_of(&cs, r);
		char ranks[256];

		if (!c)
			continue;
		if (c->n < GROUP_MIN) {
			fprintf(f, "rank %d: %s", r, c->key);
		} else if (c->ranks[0] == r) {
			ranks_text(c->ranks, c->n, ranks, sizeof(ranks));
			fprintf(f, "%s: %s", ranks, c->key);
		}
	}
	for (r = 0; r < n; r++)
		free(blocks[r]);
	free(blocks);
	classes_release(&cs);
	return differ;
}

int monitor_report_crashes(FILE *f, const struct monitor_result *res, const char *trace_dir)
{
	char where[1200];
	int r, n = 0;

	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen || !m->nframes || m->stack_op != MPIV_STATUS_CRASH_OP)
			continue;
		monitor_site(m, r, trace_dir, where, sizeof(where));
		fprintf(f, "rank %d died here (its last MPI call: %s%s):\n", r, m->call_name,
			where);
		print_stack(f, m, 1);
		n++;
	}
	return n;
}
