/* check's report: each deadlock's class, where every rank is stuck with file:line, the
 * wait-for cycle, the choices that lead there, and how to replay it. */
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "findings.h"
#include "jsontext.h"
#include "report.h"
#include "report_group.h"
#include "srcloc.h"
#include "translate.h"
#include "tr_check.h"

/* How many standard sends of cex wait for their receive on the way (are not buffered). */
static size_t unbuffered_sends(const struct mpiv_cex *cex)
{
	size_t k, n = 0;
	int r;

	for (r = 0; r < cex->nranks; r++)
		for (k = 0; k < cex->ranks[r].nops; k++)
			if (cex->ranks[r].ops[k].sync == 1)
				n++;
	return n;
}

/* Is a rank of cex, or a thread of one, blocked in call (its name)? */
static int any_blocked_in(const struct mpiv_cex *cex, const char *call)
{
	size_t k;
	int r;

	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];

		if (cr->blocked_call && !strcmp(cr->blocked_call, call))
			return 1;
		for (k = 0; k < cr->nthreads; k++)
			if (cr->threads[k].blocked_desc &&
			    !strncmp(cr->threads[k].blocked_desc, call, strlen(call)) &&
			    cr->threads[k].blocked_desc[strlen(call)] == '(')
				return 1;
	}
	return 0;
}

const char *report_class(const struct tr_deadlock *d, const char **meaning)
{
	int sync;

	if (d->cex.bsend_overflow) {
		*meaning = "a buffered send (MPI_Bsend) can find too little room for its message "
			   "in the attached buffer (what the messages before it, not yet "
			   "transmitted, left of it; or none attached): the program is erroneous "
			   "(MPI 3.6) and the library fails the call";
		return "buffered send overflows the attached buffer";
	}
	if (d->cex.ready_send) {
		*meaning = "a ready send (MPI_Rsend) can start before its matching receive is "
			   "posted: the program is erroneous (MPI 3.4) and its outcome undefined";
		return "ready send without a posted receive";
	}
	if (d->cex.mismatch) {
		*meaning = "ranks call different collectives, or name different roots, at the same "
			   "place on a communicator: the program is erroneous and hangs or fails";
		return "collective mismatch";
	}
	/* found with buffering only where collectives synchronise (doc/semantics.md 5.2) */
	sync = !d->in_buffered_data && !d->in_eager_data;
	if (!d->classified) {
		*meaning = (d->in_buffered || d->in_eager) && sync ?
				   "found in the buffering mode searched, where collectives "
				   "synchronise, as MPI lets every one of them do; --buffering all "
				   "tells whether it depends on buffering" :
				   "found in the buffering mode searched; --buffering all tells "
				   "whether it depends on buffering";
		return "deadlock";
	}
	if (d->in_zero && d->in_buffered) {
		*meaning =
			sync ? "whatever the MPI library buffers, where its collectives "
			       "synchronise, as MPI lets every one of them do (without buffering "
			       "they do)" :
			       "whatever the MPI library buffers";
		return "deadlock";
	}
	if (d->in_zero) {
		int sends = unbuffered_sends(&d->cex) > 0,
		    detach = any_blocked_in(&d->cex, "MPI_Buffer_detach");

		*meaning =
			detach && !sends ?
				"only when the MPI library keeps the messages of buffered sends "
				"(MPI_Bsend) in the attached buffer until they are received, which "
				"MPI allows: MPI_Buffer_detach then waits for them; the program "
				"relies on the library sending them on at once" :
			detach ? "only when standard sends are not buffered and the messages of "
				 "buffered sends stay in the attached buffer until received: the "
				 "program relies on the MPI library doing otherwise, which MPI "
				 "does not promise" :
				 "only when standard sends are not buffered: the program relies on "
				 "the MPI library buffering them, which MPI does not promise";
		return "potential deadlock";
	}
	if (d->in_buffered) {
		*meaning = sync ? "only when standard sends are buffered and collectives "
				  "synchronise, as MPI lets every one of them do" :
			   d->colls_early ?
				  "only when standard sends are buffered and a collective lets a "
				  "member leave before the others arrive, as MPI lets it do then "
				  "(where collectives synchronise it does not happen)" :
				  "only when standard sends are buffered";
		return "buffering-induced deadlock";
	}
	*meaning =
		sync ? "only with the recorded MPI library's eager buffering (small standard "
		       "sends buffered, large ones not) and collectives that synchronise, as MPI "
		       "lets every one of them do" :
		       "only with the recorded MPI library's eager buffering (small standard "
		       "sends buffered, large ones not)";
	return "buffering-induced deadlock";
}

int report_kind(const struct tr_deadlock *d)
{
	if (d->cex.bsend_overflow)
		return MPIV_FIND_BSEND_OVERFLOW;
	if (d->cex.ready_send)
		return MPIV_FIND_READY_SEND;
	if (d->cex.mismatch)
		return MPIV_FIND_COLL_MISMATCH;
	if (!d->classified || (d->in_zero && d->in_buffered))
		return MPIV_FIND_DEADLOCK;
	return d->in_zero ? MPIV_FIND_POTENTIAL : MPIV_FIND_BUFFERING;
}

long long report_unbuffered_max(const struct mpiv_traceset *ts, const struct mpiv_cex *cex)
{
	long long most = -1;
	size_t k;
	int r;

	for (r = 0; r < cex->nranks; r++)
		for (k = 0; k < cex->ranks[r].nops; k++) {
			const struct mpiv_cex_op *op = &cex->ranks[r].ops[k];

			if (op->sync == 1 && op->op < ts->ranks[r].nevents &&
			    (long long)mpiv_trace_event(&ts->ranks[r], op->op)->bytes > most)
				most = (long long)mpiv_trace_event(&ts->ranks[r], op->op)->bytes;
		}
	return most;
}

int site_of(const struct mpiv_traceset *ts, int r, long e, struct mpiv_cex_site *s)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	const struct mpiv_event *ev;

	memset(s, 0, sizeof(*s));
	if (e < 0 || (size_t)e >= t->nevents || !mpiv_trace_event(t, (size_t)e)->site)
		return -1;
	ev = mpiv_trace_event(t, (size_t)e);
	mpiv_srcloc_resolve(mpiv_trace_module(t, ev->site), MPIV_SITE_ADDR(ev->site), s);
	return 0;
}

void site_str(const struct mpiv_traceset *ts, int r, long e, char *buf, size_t size)
{
	struct mpiv_cex_site s;

	if (site_of(ts, r, e, &s)) {
		snprintf(buf, size, "unknown location");
		return;
	}
	mpiv_srcloc_format(&s, buf, size);
	mpiv_cex_site_release(&s);
}

/* The sends and receives MPI_Cancel cancelled on the way (doc/semantics.md 4.7), whose
 * cancellation succeeded (how = 1) or failed (2): the library may do either, and the deadlock
 * needs what it did there. */
static void report_cancelled(FILE *f, const struct mpiv_cex *cex, int how)
{
	size_t k, n = 0;
	int r;

	for (r = 0; r < cex->nranks; r++)
		for (k = 0; k < cex->ranks[r].nops; k++)
			n += cex->ranks[r].ops[k].cancelled == how;
	if (!n)
		return;
	fprintf(f,
		how == 1 ? "  cancelled on the way, unmatched (%zu):" :
			   "  cancels that failed on the way, matched or sent (%zu):",
		n);
	for (r = 0; r < cex->nranks; r++)
		for (k = 0; k < cex->ranks[r].nops; k++)
			if (cex->ranks[r].ops[k].cancelled == how)
				fprintf(f, " rank %d event %u;", r, cex->ranks[r].ops[k].op);
	fputc('\n', f);
}

/* The passive-target locks ranks hold at the deadlock: acquired, never released on the way.
 * Which rank acquired a contended lock first is one of the search's choices. */
static void report_locks_held(FILE *f, const struct mpiv_traceset *ts, const struct mpiv_cex *cex)
{
	char desc[256], where[512];
	int r, any = 0;
	size_t k, j;

	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];
		const struct mpiv_rank_trace *t = &ts->ranks[r];

		for (k = 0; k < cr->nops; k++) {
			/* the lock's fields: the events looked at after it may take its place */
			const struct mpiv_event *lk = mpiv_trace_event(t, cr->ops[k].op);
			int32_t win = lk->win, peer = lk->peer;
			int held = 1;

			if ((long)cr->ops[k].op == cr->blocked_op ||
			    mpiv_call_kind(lk->call) != MPIV_KIND_WIN_LOCK)
				continue;
			for (j = k + 1; j < cr->nops && held; j++) {
				const struct mpiv_event *un = mpiv_trace_event(t, cr->ops[j].op);

				held = !(mpiv_call_kind(un->call) == MPIV_KIND_WIN_UNLOCK &&
					 un->win == win && un->peer == peer &&
					 (long)cr->ops[j].op != cr->blocked_op);
			}
			if (!held)
				continue;
			if (!any)
				fprintf(f, "  locks held there (acquired first):\n");
			any = 1;
			tr_describe_event(ts, r, (long)cr->ops[k].op, desc, sizeof(desc));
			site_str(ts, r, (long)cr->ops[k].op, where, sizeof(where));
			fprintf(f, "    rank %d %s at %s\n", r, desc, where);
		}
	}
}

/* Print s so that a shell reads it back as one word: as it is if it is made of characters
 * no shell treats specially, else in single quotes. */
static void print_shell_word(FILE *f, const char *s)
{
	const char *p;

	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			    "/._+-,=:@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (p = s; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/* The most items a list of the report names one by one (edges, ranks of a cycle, sends). */
#define REPORT_LIST_MOST 12

/* The classes of the counterexample's ranks: those in the same state, in the same call from
 * the same place (a rank whose threads call MPI is a class of its own). */
static void rank_classes_of(const struct mpiv_cex *cex, struct rank_classes *cs)
{
	char key[1024], where[512];
	int r;

	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];

		if (cr->nthreads)
			snprintf(key, sizeof(key), "threads %d", r);
		else if (cr->blocked_op < 0)
			snprintf(key, sizeof(key), "%s", cr->stopped ? "stopped" : "finished");
		else {
			mpiv_srcloc_format(&cr->site, where, sizeof(where));
			snprintf(key, sizeof(key), "blocked in %s\n          at %s",
				 cr->blocked_call ? cr->blocked_call : "?", where);
		}
		classes_add(cs, key, r);
	}
}

/* A class of GROUP_MIN ranks or more, once: "ranks 0-15 (16)  blocked in MPI_Send at ...,
 * e.g. rank 0 in MPI_Send(dest=1, ...), event 3". */
static void report_class_line(FILE *f, const struct mpiv_cex *cex, const struct rank_class *c)
{
	const struct mpiv_cex_rank *cr = &cex->ranks[c->ranks[0]];
	char ranks[256];

	ranks_text(c->ranks, c->n, ranks, sizeof(ranks));
	if (cr->blocked_op < 0) {
		fprintf(f, "  %s  %s\n", ranks,
			cr->stopped ? "stopped (their traces end there: they did not finish)" :
				      "finished");
		return;
	}
	fprintf(f, "  %s  %s, e.g. rank %d in %s, event %ld\n", ranks, c->key, c->ranks[0],
		cr->blocked_desc ? cr->blocked_desc : "?", cr->blocked_op);
}

/* The wait-for edges over classes, when there are too many to name: "ranks 0-15 (16) ->
 * ranks 0-15 (16) (16 edges)". */
static void report_edges_grouped(FILE *f, const struct mpiv_cex *cex, const struct rank_classes *cs)
{
	struct rank_classes pairs = {0};
	char key[600], from[256], to[256];
	size_t k;

	for (k = 0; k < cex->nedges; k++) {
		const struct mpiv_cex_edge *e = &cex->edges[k];
		const struct rank_class *a = classes_of(cs, e->rank),
					*b = classes_of(cs, e->waits_for);

		if (a->n >= GROUP_MIN)
			ranks_text(a->ranks, a->n, from, sizeof(from));
		else
			snprintf(from, sizeof(from), "rank %d", e->rank);
		if (b->n >= GROUP_MIN)
			ranks_text(b->ranks, b->n, to, sizeof(to));
		else
			snprintf(to, sizeof(to), "rank %d%s", e->waits_for,
				 cex->ranks[e->waits_for].blocked_op >= 0 ? "" :
				 cex->ranks[e->waits_for].stopped	  ? " (stopped)" :
									    " (finished)");
		snprintf(key, sizeof(key), "%s -> %s", from, to);
		classes_add(&pairs, key, (int)k);
	}
	fprintf(f, "  waits for, by class:");
	for (k = 0; k < pairs.n; k++)
		fprintf(f, "%s %s (%d edge%s)", k ? "," : "", pairs.c[k].key, pairs.c[k].n,
			pairs.c[k].n == 1 ? "" : "s");
	fputc('\n', f);
	classes_release(&pairs);
}

void report_deadlock(FILE *f, const struct mpiv_traceset *ts, const struct tr_deadlock *d, int i,
		     int n)
{
	const struct mpiv_cex *cex = &d->cex;
	const char *meaning;
	const char *klass = report_class(d, &meaning);
	struct rank_classes cs = RANK_CLASSES(d->cex.nranks);
	char desc[256], where[512], modes[256];
	size_t k, nsync = 0, nwild = 0, iwild = 0;
	int r, any_wild = 0, differ = 0;

	tr_deadlock_modes(d, modes, sizeof(modes));
	fprintf(f, "\n%s %d of %d: %s (found with buffering: %s)\n", klass, i, n, meaning, modes);
	if (d->instead)
		fprintf(f, "  %s buffering the search found deadlock %d instead\n",
			d->in_zero ? "with" : "without", d->instead);
	if (d->eager >= 0)
		fprintf(f,
			"  with the recorded MPI library's buffering (standard sends up to %lld "
			"bytes buffered) it %s\n",
			d->eager,
			!d->in_eager	 ? "does not happen" :
			d->in_eager_data ? "happens" :
					   "happens if its collectives synchronise");
	rank_classes_of(cex, &cs);
	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];
		const struct rank_class *c = classes_of(&cs, r);

		if (c && c->n >= GROUP_MIN) {
			if (c->ranks[0] == r)
				report_class_line(f, cex, c);
			continue;
		}
		if (cr->nthreads) {
			for (k = 0; k < cr->nthreads; k++) {
				const struct mpiv_cex_thread *th = &cr->threads[k];

				if (th->blocked_op < 0) {
					fprintf(f, "  rank %d thread %d  %s\n", r, th->thread,
						cr->stopped ? "stopped" : "finished");
					continue;
				}
				mpiv_srcloc_format(&th->site, where, sizeof(where));
				fprintf(f,
					"  rank %d thread %d  blocked in %s\n          at %s, "
					"event %ld\n",
					r, th->thread, th->blocked_desc ? th->blocked_desc : "?",
					where, th->blocked_op);
			}
			continue;
		}
		if (cr->blocked_op < 0) {
			fprintf(f, "  rank %d  %s\n", r,
				cr->stopped ? "stopped (its trace ends there: "
					      "it did not finish)" :
					      "finished");
			continue;
		}
		mpiv_srcloc_format(&cr->site, where, sizeof(where));
		fprintf(f, "  rank %d  blocked in %s\n          at %s, event %ld\n", r,
			cr->blocked_desc ? cr->blocked_desc : "?", where, cr->blocked_op);
	}
	if (cex->nedges > REPORT_LIST_MOST) {
		report_edges_grouped(f, cex, &cs);
	} else if (cex->nedges) {
		fprintf(f, "  waits for:");
		for (k = 0; k < cex->nedges; k++) {
			const struct mpiv_cex_edge *e = &cex->edges[k];

			fprintf(f, "%s rank %d -> rank %d%s", k ? "," : "", e->rank, e->waits_for,
				cex->ranks[e->waits_for].blocked_op >= 0 ? "" :
				cex->ranks[e->waits_for].stopped	 ? " (stopped)" :
									   " (finished)");
		}
		fputc('\n', f);
	}
	if (cex->ncycle && cex->cycle[0].waits_for == cex->cycle[cex->ncycle - 1].rank &&
	    (cex->ncycle < cex->nedges || cex->nedges > REPORT_LIST_MOST)) {
		/* the cycle among them, when there is more than the cycle */
		fprintf(f, "  cycle:");
		for (k = 0; k < cex->ncycle; k++) {
			if (k == REPORT_LIST_MOST / 2 && cex->ncycle > REPORT_LIST_MOST) {
				k = cex->ncycle - REPORT_LIST_MOST / 2;
				fprintf(f, " ... (%zu ranks in all) ->", cex->ncycle);
			}
			fprintf(f, " rank %d ->", cex->cycle[k].rank);
		}
		fprintf(f, " rank %d\n", cex->cycle[0].rank);
	}
	classes_release(&cs);
	for (k = 0; k < cex->nmatches; k++) {
		nwild += cex->matches[k].wildcard != 0;
		differ |= cex->matches[k].wildcard && !cex->matches[k].as_recorded;
	}
	for (k = 0; k < cex->nmatches; k++) {
		const struct mpiv_cex_match *m = &cex->matches[k];

		if (!m->wildcard)
			continue;
		/* a farm's manager takes hundreds: the first and the last, the rest counted */
		iwild++;
		if (nwild > REPORT_LIST_MOST && iwild > REPORT_LIST_MOST / 2 &&
		    iwild <= nwild - REPORT_LIST_MOST / 2) {
			if (iwild == REPORT_LIST_MOST / 2 + 1)
				fprintf(f,
					"    ... %zu more (%zu in all; the counterexample lists each)\n",
					nwild - REPORT_LIST_MOST / 2 * 2, nwild);
			continue;
		}
		/* the recorded run's own may lead there where the counterexample's differ */
		if (!any_wild)
			fprintf(f, "  wildcard matches that lead there, in order (%s%s):\n",
				d->recorded > 0 && differ ?
					"the counterexample's, not all the recorded run's; but " :
					"",
				d->recorded > 0 ?
					"the recorded run's own lead there too: it needs no "
					"other" :
				!d->recorded ? "the recorded run made others: it needs these" :
					       "the trace does not say which the run made");
		any_wild = 1;
		tr_describe_event(ts, m->recv_rank, m->recv_op, desc, sizeof(desc));
		site_str(ts, m->recv_rank, m->recv_op, where, sizeof(where));
		fprintf(f, "    rank %d %s at %s took rank %d's message (event %ld)%s\n",
			m->recv_rank, desc, where, m->send_rank, m->send_op,
			m->as_recorded > 0 ? ", as in the recorded run" :
			!m->as_recorded	   ? ", which the recorded run did not" :
					     "");
	}
	if (!any_wild)
		fprintf(f, "  no MPI_ANY_SOURCE receive's choice is involved\n");
	else if (!d->recorded)
		fprintf(f,
			"  it needs other outcomes than the recorded run's decisions: where the "
			"program acts on which sender it got, it may never get there ('mpiverify "
			"verify' runs those paths and confirms what is real)\n");
	else if (d->recorded > 0)
		fprintf(f, "  it lies on the recorded run's own decisions\n");
	report_locks_held(f, ts, cex);
	nsync = unbuffered_sends(cex);
	if (nsync > REPORT_LIST_MOST) {
		struct rank_classes senders = {0};

		for (r = 0; r < cex->nranks; r++)
			for (k = 0; k < cex->ranks[r].nops; k++)
				if (cex->ranks[r].ops[k].sync == 1) {
					classes_add(&senders, "", r);
					break;
				}
		ranks_text(senders.c[0].ranks, senders.c[0].n, where, sizeof(where));
		fprintf(f,
			"  standard sends not buffered on the way: %zu, of %s (the "
			"counterexample lists each)\n",
			nsync, where);
		classes_release(&senders);
	} else if (nsync) {
		fprintf(f, "  standard sends not buffered on the way (%zu):", nsync);
		for (r = 0; r < cex->nranks; r++)
			for (k = 0; k < cex->ranks[r].nops; k++)
				if (cex->ranks[r].ops[k].sync == 1)
					fprintf(f, " rank %d event %u;", r,
						cex->ranks[r].ops[k].op);
		fputc('\n', f);
	}
	report_cancelled(f, cex, 1);
	report_cancelled(f, cex, 2);
	fprintf(f, "  counterexample: %s\n  replay it: mpiverify replay --trace ", d->path);
	print_shell_word(f, d->path);
	fputc('\n', f);
}

/* The call a rank's last event made and where: "MPI_Send at ring.c:5 (main)". */
static void call_at(const struct mpiv_traceset *ts, int r, long e, char *buf, size_t size)
{
	char where[512];

	site_str(ts, r, e, where, sizeof(where));
	snprintf(buf, size, "%s at %s",
		 mpiv_call_name(mpiv_trace_event(&ts->ranks[r], (size_t)e)->call), where);
}

void report_trace_notes(FILE *f, const struct mpiv_traceset *ts)
{
	struct rank_classes truncated = RANK_CLASSES(ts->nranks), inside = RANK_CLASSES(ts->nranks);
	char key[1024], ranks[256], desc[256];
	int r;

	if (ts->meta.hung)
		fprintf(f, "note: the recorded run itself deadlocked and was ended by record\n");
	for (r = 0; r < ts->nranks; r++) {
		const struct mpiv_rank_trace *t = &ts->ranks[r];

		if (t->truncated && !t->absent)
			classes_add(&truncated, "", r);
		if (t->incomplete) {
			call_at(ts, r, (long)t->nevents - 1, key, sizeof(key));
			classes_add(&inside, key, r);
		}
	}
	/* in the order of the ranks; a class of GROUP_MIN or more at its first */
	for (r = 0; r < ts->nranks; r++) {
		const struct rank_class *c = classes_of(&truncated, r);

		if (c && c->n < GROUP_MIN) {
			fprintf(f,
				"note: rank %d's trace '%s' is truncated: read up to its last "
				"complete record\n",
				r, ts->ranks[r].source);
		} else if (c && c->ranks[0] == r) {
			ranks_text(c->ranks, c->n, ranks, sizeof(ranks));
			fprintf(f,
				"note: the traces of %s are truncated: each read up to its last "
				"complete record\n",
				ranks);
		}
		c = classes_of(&inside, r);
		if (!c || (c->n >= GROUP_MIN && c->ranks[0] != r))
			continue;
		tr_describe_event(ts, r, (long)ts->ranks[r].nevents - 1, desc, sizeof(desc));
		if (c->n < GROUP_MIN) {
			fprintf(f, "note: rank %d's trace ends inside %s, which never returned\n",
				r, desc);
			continue;
		}
		ranks_text(c->ranks, c->n, ranks, sizeof(ranks));
		fprintf(f,
			"note: the traces of %s end inside %s, which never returned (rank %d's: "
			"%s)\n",
			ranks, c->key, r, desc);
	}
	classes_release(&truncated);
	classes_release(&inside);
}

json_t *site_json(const struct mpiv_cex_site *s)
{
	/* names from the debug information are bytes: not always UTF-8 */
	return json_pack("{s:o, s:o, s:i}", "function", mpiv_json_text(s->function), "file",
			 mpiv_json_text(s->file), "line", s->line);
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* "MPI_Send(dest=1, ...) at x.c:9 (main), event 1", or "no MPI call recorded". */
static void last_call(const struct mpiv_traceset *ts, const struct tr_stop *s, char *buf,
		      size_t size)
{
	char desc[256], where[512];

	if (s->event < 0) {
		snprintf(buf, size, "no MPI call recorded");
		return;
	}
	tr_describe_event(ts, s->rank, s->event, desc, sizeof(desc));
	site_str(ts, s->rank, s->event, where, sizeof(where));
	snprintf(buf, size, "%s at %s, event %ld", desc, where, s->event);
}

/* A class of GROUP_MIN ranks or more that did not finish, once: how, the call they were
 * last in (rank c->ranks[0]'s as the example), and every rank that waited for one of them. */
static void report_stop_class(FILE *f, const struct mpiv_traceset *ts, const struct eng_prog *prog,
			      const struct rank_class *c, int *who)
{
	struct rank_classes waiters = {0};
	struct tr_stop s;
	char ranks[256], call[1024];
	int i, k, w;

	ranks_text(c->ranks, c->n, ranks, sizeof(ranks));
	tr_stop_of(ts, c->ranks[0], &s);
	last_call(ts, &s, call, sizeof(call));
	fprintf(f, "  %s  %s\n          rank %d's last call: %s\n", ranks, c->key, c->ranks[0],
		call);
	for (i = 0; i < c->n; i++) {
		k = tr_stop_waiters(prog, ts, c->ranks[i], who);
		for (w = 0; w < k; w++)
			if (!classes_of(&waiters, who[w]))
				classes_add(&waiters, "", who[w]);
	}
	if (waiters.n) {
		/* added in no order: sorted, for the ranges */
		qsort(waiters.c[0].ranks, (size_t)waiters.c[0].n, sizeof(int), cmp_int);
		ranks_text(waiters.c[0].ranks, waiters.c[0].n, ranks, sizeof(ranks));
	}
	fprintf(f, "          waited for by: %s\n", waiters.n ? ranks : "no rank");
	classes_release(&waiters);
}

int report_stops(FILE *f, const struct mpiv_traceset *ts, const struct eng_prog *prog)
{
	int *who = malloc((size_t)ts->nranks * sizeof(int) + 1);
	struct rank_classes cs = RANK_CLASSES(ts->nranks);
	int r, n = 0, k;

	for (r = 0; r < ts->nranks && who; r++) {
		struct tr_stop s;
		char how[512], key[1600], call[1024];

		tr_stop_of(ts, r, &s);
		if (s.kind == TR_FINISHED)
			continue;
		tr_stop_describe(ts, &s, how, sizeof(how));
		if (s.event >= 0)
			call_at(ts, r, s.event, call, sizeof(call));
		else
			snprintf(call, sizeof(call), "none");
		snprintf(key, sizeof(key), "%s\n%s", how, call);
		classes_add(&cs, key, r);
	}
	for (r = 0; r < ts->nranks && who; r++) {
		const struct rank_class *c = classes_of(&cs, r);
		struct tr_stop s;
		char how[512], call[1024], waiters[256];

		if (!c)
			continue;
		if (!n++)
			fprintf(f,
				"ranks that did not finish%s (the run is not a whole path: check "
				"never answers \"no deadlock\" for it):\n",
				tr_left_out(ts) ? ", or whose calls check left out from one it "
						  "cannot judge yet" :
						  "");
		if (c->n >= GROUP_MIN) {
			if (c->ranks[0] == r) {
				struct rank_class one = *c;

				/* the key's first line is how they stopped */
				one.key = how;
				snprintf(how, sizeof(how), "%.*s", (int)strcspn(c->key, "\n"),
					 c->key);
				report_stop_class(f, ts, prog, &one, who);
			}
			continue;
		}
		tr_stop_of(ts, r, &s);
		tr_stop_describe(ts, &s, how, sizeof(how));
		last_call(ts, &s, call, sizeof(call));
		fprintf(f, "  rank %d  %s\n          last call: %s\n", r, how, call);
		k = tr_stop_waiters(prog, ts, r, who);
		/* as ranges: a manager waited for by every worker is one line */
		qsort(who, (size_t)k, sizeof(int), cmp_int);
		ranks_text(who, k, waiters, sizeof(waiters));
		fprintf(f, "          waited for by: %s\n", k ? waiters : "no rank");
	}
	/* a class counts each of its ranks */
	for (n = 0, r = 0; r < (int)cs.n; r++)
		n += cs.c[r].n;
	classes_release(&cs);
	free(who);
	return n;
}

json_t *report_stops_json(const struct mpiv_traceset *ts, const struct eng_prog *prog)
{
	static const char *const kinds[] = {
		[TR_FINISHED] = "finished",	     [TR_STOP_ABORTED] = "aborted",
		[TR_STOP_SIGNAL] = "signal",	     [TR_STOP_EXIT] = "exit",
		[TR_STOP_ENDED] = "ended-by-record", [TR_STOP_KILLED] = "killed",
		[TR_STOP_UNJUDGED] = "left-out",
	};
	json_t *a = json_array();
	int *who = malloc((size_t)ts->nranks * sizeof(int) + 1);
	int r, k, w;

	for (r = 0; r < ts->nranks && who; r++) {
		struct tr_stop s;
		struct mpiv_cex_site site;
		char how[512];
		json_t *o, *waiters;

		tr_stop_of(ts, r, &s);
		if (s.kind == TR_FINISHED)
			continue;
		waiters = json_array(); /* after the skip: a finished rank's would leak */
		tr_stop_describe(ts, &s, how, sizeof(how));
		o = json_pack("{s:i, s:s, s:i, s:b, s:s}", "rank", r, "how", kinds[s.kind], "code",
			      s.code, "in_call", s.in_call, "text", how);
		if (s.event >= 0) {
			char desc[256];

			tr_describe_event(ts, r, s.event, desc, sizeof(desc));
			json_object_set_new(o, "event", json_integer(s.event));
			json_object_set_new(o, "call", json_string(desc));
			if (!site_of(ts, r, s.event, &site)) {
				json_object_set_new(o, "site", site_json(&site));
				mpiv_cex_site_release(&site);
			}
		}
		k = tr_stop_waiters(prog, ts, r, who);
		for (w = 0; w < k; w++)
			json_array_append_new(waiters, json_integer(who[w]));
		json_object_set_new(o, "waited_for_by", waiters);
		json_array_append_new(a, o);
	}
	free(who);
	return a;
}


/* The finding kind of each warning: its name in the JSON document (finding.c). */
static const int warn_kinds[] = {
	[TR_WARN_UNRECEIVED] = MPIV_FIND_UNRECEIVED,
	[TR_WARN_TRUNCATED] = MPIV_FIND_TRUNCATED,
	[TR_WARN_UNCOMPLETED] = MPIV_FIND_UNCOMPLETED,
	[TR_WARN_COMM_LEAK] = MPIV_FIND_COMM_LEAK,
	[TR_WARN_DISCONNECT_PENDING] = MPIV_FIND_DISCONNECT_PENDING,
	[TR_WARN_RECV_BEFORE_SEND] = MPIV_FIND_RECV_BEFORE_SEND,
	[TR_WARN_LONG_SEND] = MPIV_FIND_LONG_SEND,
};

/* What happened, after the call: ": never received by rank 1", ... */
static void warning_text(const struct tr_warning *w, char *buf, size_t size)
{
	switch (w->kind) {
	case TR_WARN_UNRECEIVED:
		snprintf(buf, size, "sent, never received by rank %d", w->peer);
		break;
	case TR_WARN_TRUNCATED:
		snprintf(buf, size,
			 "took a %lld-byte message into %lld bytes (rank %d's event "
			 "%ld): truncated",
			 w->peer_bytes, w->bytes, w->peer, w->peer_event);
		break;
	case TR_WARN_COMM_LEAK:
		snprintf(buf, size, "communicator never freed");
		break;
	case TR_WARN_DISCONNECT_PENDING:
		snprintf(buf, size,
			 "request still pending at the MPI_Comm_disconnect of its communicator "
			 "(event %ld), which MPI allows only once all its communication is "
			 "complete",
			 w->peer_event);
		break;
	case TR_WARN_RECV_BEFORE_SEND:
		snprintf(buf, size,
			 "received %.1f us before rank %d sent it (its event %ld): the "
			 "clocks of their hosts disagree",
			 w->ns / 1e3, w->peer, w->peer_event);
		break;
	case TR_WARN_LONG_SEND:
		snprintf(buf, size,
			 "took %.3f ms, its receive (rank %d's event %ld) %.3f ms: the "
			 "receiver came late",
			 w->ns / 1e6, w->peer, w->peer_event, w->peer_ns / 1e6);
		break;
	default:
		snprintf(buf, size, "request never completed");
		break;
	}
}

void report_warnings(FILE *f, const struct mpiv_traceset *ts, const struct tr_warning *w, int n,
		     const struct findings *fs)
{
	char desc[256], where[512], what[256];
	int i, shown = 0;

	for (i = 0; i < n; i++)
		shown += !findings_hidden(fs, "warnings", i);
	if (shown <= 0)
		return;
	fprintf(f, "warnings from the recorded run (%d):\n", shown);
	for (i = 0; i < n; i++) {
		if (findings_hidden(fs, "warnings", i))
			continue;
		tr_describe_event(ts, w[i].rank, w[i].event, desc, sizeof(desc));
		site_str(ts, w[i].rank, w[i].event, where, sizeof(where));
		warning_text(&w[i], what, sizeof(what));
		fprintf(f, "  rank %d %s at %s, event %ld: %s", w[i].rank, desc, where, w[i].event,
			what);
		if (w[i].count > 1)
			fprintf(f, " (%ld messages between these calls, the worst shown)",
				w[i].count);
		fputc('\n', f);
	}
}

json_t *report_warnings_json(const struct mpiv_traceset *ts, const struct tr_warning *w, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++) {
		char desc[256], what[256];
		struct mpiv_cex_site s;
		json_t *o;

		tr_describe_event(ts, w[i].rank, w[i].event, desc, sizeof(desc));
		warning_text(&w[i], what, sizeof(what));
		o = json_pack("{s:s, s:i, s:I, s:s, s:s}", "kind",
			      mpiv_finding_kind_name(warn_kinds[w[i].kind]), "rank", w[i].rank,
			      "event", (json_int_t)w[i].event, "call", desc, "text", what);
		if (!site_of(ts, w[i].rank, w[i].event, &s)) {
			json_object_set_new(o, "site", site_json(&s));
			mpiv_cex_site_release(&s);
		}
		if (w[i].peer >= 0)
			json_object_set_new(o, "peer", json_integer(w[i].peer));
		if (w[i].kind == TR_WARN_TRUNCATED) {
			json_object_set_new(o, "peer_event", json_integer(w[i].peer_event));
			json_object_set_new(o, "bytes", json_integer(w[i].bytes));
			json_object_set_new(o, "message_bytes", json_integer(w[i].peer_bytes));
		} else if (w[i].kind == TR_WARN_UNRECEIVED) {
			json_object_set_new(o, "bytes", json_integer(w[i].bytes));
		} else if (w[i].kind == TR_WARN_DISCONNECT_PENDING) {
			json_object_set_new(o, "disconnect", json_integer(w[i].peer_event));
		} else if (w[i].kind == TR_WARN_RECV_BEFORE_SEND ||
			   w[i].kind == TR_WARN_LONG_SEND) {
			json_object_set_new(o, "peer_event", json_integer(w[i].peer_event));
			json_object_set_new(o, "count", json_integer(w[i].count));
			json_object_set_new(o, "ns", json_integer(w[i].ns));
			if (w[i].kind == TR_WARN_LONG_SEND)
				json_object_set_new(o, "peer_ns", json_integer(w[i].peer_ns));
		}
		json_array_append_new(a, o);
	}
	return a;
}

json_t *report_cycle_json(const struct mpiv_cex *cex)
{
	json_t *a = json_array();
	size_t k;

	/* a closed cycle, each edge's rank waiting for the next's; else (ranks wait for
	 * finished ranks) no cycle */
	for (k = 0; k < cex->ncycle; k++)
		if (cex->cycle[k].waits_for != cex->cycle[(k + 1) % cex->ncycle].rank)
			return a;
	for (k = 0; k < cex->ncycle; k++)
		json_array_append_new(a, json_integer(cex->cycle[k].rank));
	return a;
}

json_t *report_deadlock_json(const struct mpiv_traceset *ts, const struct tr_deadlock *d)
{
	const char *meaning;
	const char *klass = report_class(d, &meaning);
	json_t *o = json_object(), *blocked = json_array(), *cycle = json_array();
	json_t *wild = json_array(), *unbuffered = json_array();
	char modes[256];
	size_t k;
	int r;

	json_object_set_new(o, "kind", json_string(mpiv_finding_kind_name(report_kind(d))));
	json_object_set_new(o, "class", json_string(klass));
	json_object_set_new(o, "meaning", json_string(meaning));
	tr_deadlock_modes(d, modes, sizeof(modes));
	json_object_set_new(o, "modes", json_string(modes));
	if (d->instead)
		json_object_set_new(o, "instead", json_integer(d->instead));
	json_object_set_new(o, "cex", mpiv_json_text(d->path));
	if (d->eager >= 0)
		json_object_set_new(o, "library_buffering",
				    json_pack("{s:I, s:b, s:b}", "eager", (json_int_t)d->eager,
					      "happens", d->in_eager,
					      "only_if_collectives_synchronise",
					      d->in_eager && !d->in_eager_data));
	for (r = 0; r < d->cex.nranks; r++) {
		const struct mpiv_cex_rank *cr = &d->cex.ranks[r];

		if (cr->blocked_op < 0)
			continue;
		json_array_append_new(blocked,
				      json_pack("{s:i, s:I, s:s?, s:s?, s:o}", "rank", r, "event",
						(json_int_t)cr->blocked_op, "call",
						cr->blocked_call, "desc", cr->blocked_desc, "site",
						site_json(&cr->site)));
	}
	json_object_set_new(o, "blocked", blocked);
	for (k = 0; k < d->cex.nedges; k++)
		json_array_append_new(cycle,
				      json_pack("{s:i, s:I, s:i}", "rank", d->cex.edges[k].rank,
						"event", (json_int_t)d->cex.edges[k].op,
						"waits_for", d->cex.edges[k].waits_for));
	json_object_set_new(o, "waits_for", cycle);
	json_object_set_new(o, "cycle", report_cycle_json(&d->cex));
	for (k = 0; k < d->cex.nmatches; k++) {
		const struct mpiv_cex_match *m = &d->cex.matches[k];

		if (m->wildcard) {
			json_t *jm = json_pack("{s:[iI], s:[iI]}", "recv", m->recv_rank,
					       (json_int_t)m->recv_op, "send", m->send_rank,
					       (json_int_t)m->send_op);

			if (m->as_recorded >= 0)
				json_object_set_new(jm, "as_recorded",
						    json_boolean(m->as_recorded));
			json_array_append_new(wild, jm);
		}
	}
	json_object_set_new(o, "wildcard_matches", wild);
	if (d->recorded >= 0)
		json_object_set_new(o, "needs_other_matches", json_boolean(!d->recorded));
	for (r = 0; r < d->cex.nranks; r++)
		for (k = 0; k < d->cex.ranks[r].nops; k++)
			if (d->cex.ranks[r].ops[k].sync == 1)
				json_array_append_new(
					unbuffered,
					json_pack("[iI]", r,
						  (json_int_t)d->cex.ranks[r].ops[k].op));
	json_object_set_new(o, "unbuffered_sends", unbuffered);
	if (json_array_size(unbuffered))
		json_object_set_new(o, "unbuffered_max_bytes",
				    json_integer(report_unbuffered_max(ts, &d->cex)));
	json_object_set_new(o, "replay", json_sprintf("mpiverify replay --trace %s", d->path));
	return o;
}
