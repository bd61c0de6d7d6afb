/* Watching a running job through its ranks' status files, for record and replay alike: tells a
 * deadlock from slow progress and notices a divergence (monitor_report.c then says where each
 * rank is). Detection reads only the shared status directory, never /proc, so ranks may be
 * remote; only a launcher that outlives ranks of this host is found through /proc. */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "event.h"
#include "launch.h"
#include "monitor.h"
#include "nodes.h"
#include "report_group.h"
#include "status_file.h"
#include "xalloc.h"

static const char *call_name(unsigned call)
{
	const char *name = mpiv_call_name(call);

	return name ? name : "an unknown MPI call";
}

/* Whether a rank in state is running, in MPI or out of it. */
static int in_or_out(uint32_t state)
{
	return state == MPIV_ST_RUNNING || state == MPIV_ST_IN_CALL;
}

void monitor_rank_update(struct monitor_rank *m, const struct mpiv_status *st, double t)
{
	if (!m->seen || st->progress != m->progress || st->state != m->state ||
	    st->call != m->call || st->op != m->op)
		m->changed = t;
	if (!m->seen || st->beat != m->beat)
		m->beat_changed = t;
	/* a rank that polls goes in and out of MPI all the time: that is no change */
	if (!m->seen || st->progress != m->progress ||
	    (st->state != m->state && (!in_or_out(st->state) || !in_or_out(m->state)))) {
		m->progress_changed = t;
		m->polls_base = st->polls;
	}
	if (!m->seen || st->polls != m->polls)
		m->polls_changed = t;
	m->polls = st->polls;
	m->seen = 1;
	m->state = st->state;
	m->call = st->call;
	m->call_name = call_name(st->call);
	m->op = st->op;
	m->progress = st->progress;
	m->beat = st->beat;
	m->site = st->site;
	m->pid = st->pid;
	memcpy(m->host, st->host, sizeof(m->host));
	memcpy(m->text, st->text, sizeof(m->text));
	m->notes = st->notes;
	memcpy(m->module, st->module, sizeof(m->module));
	memcpy(m->stack, st->stack, sizeof(m->stack));
	m->stack_op = st->stack_op;
	m->unwritten = st->unwritten;
	m->nframes = st->nframes;
}

/* Read every rank's status once; note the time of changes. */
static void scan(const char *dir, struct monitor_result *res, double t)
{
	struct mpiv_status st;
	int r;

	if (!res->size) {
		res->size = status_file_size(dir);
		if (!res->size)
			return;
		res->ranks = xcalloc(res->size, sizeof(*res->ranks));
	}
	for (r = 0; r < res->size; r++) {
		/* a missing or damaged read keeps what was seen last */
		if (status_file_read(dir, r, &st) < 0 || st.size != res->size)
			continue;
		monitor_rank_update(&res->ranks[r], &st, t);
	}
}

/* Whether a rank is in state (a sticky one: DIVERGED, FAILED). */
static int any_in(const struct monitor_result *res, enum mpiv_rank_state state)
{
	int r;

	for (r = 0; r < res->size; r++)
		if (res->ranks[r].seen && res->ranks[r].state == state)
			return 1;
	return 0;
}

/* How long a rank's beat may stand still before the rank counts as stopped rather than
 * blocked. A live rank beats every MPIV_STATUS_PERIOD_MS; the slack is for a loaded host and
 * for a shared file system that shows another node's writes late, without letting a rank
 * stopped a few seconds before the deadline pass for deadlocked. */
double monitor_beat_limit(double timeout)
{
	double limit = timeout / 3;

	if (limit < 2)
		limit = 2;
	return limit < timeout ? limit : timeout;
}

/* Whether m polls without progress: it made failed polls since its progress last changed, and
 * recently, and is between polls or in one (not in another call, which would block). */
int monitor_rank_polling(const struct monitor_rank *m, double t, double timeout)
{
	if (m->state != MPIV_ST_RUNNING && m->state != MPIV_ST_IN_CALL)
		return 0;
	if (m->polls == m->polls_base || t - m->polls_changed >= monitor_beat_limit(timeout))
		return 0;
	return m->state == MPIV_ST_RUNNING || (mpiv_call_flags(m->call) & MPIV_F_POLL);
}

/* Warnings of ranks that look stopped a job prints, at most, before the last one that says
 * more are not listed: on a machine with far more ranks than cores, ranks lag a few at a time
 * for minutes, and a report's length must follow its classes, not its ranks. */
#define MONITOR_STOPPED_WARNINGS 3

/* Warn of the ranks fresh[0..n), ascending, found not rewriting their status at time t: one
 * line, however many (hundreds may lag at once). */
static void warn_stopped(struct monitor_result *res, const int *fresh, int n, double t)
{
	const struct monitor_rank *m;
	double least, most;
	char ranks[256];
	int i;

	if (n && res->stopped_warnings == MONITOR_STOPPED_WARNINGS)
		warning("more ranks have not updated their status for a few seconds: they are "
			"not counted as deadlocked while they do not, and not listed here");
	if (n && res->stopped_warnings++ >= MONITOR_STOPPED_WARNINGS)
		return;
	if (n == 1) {
		m = &res->ranks[fresh[0]];
		warning("rank %d (pid %d on '%s') has not updated its status for %.0f s: it looks "
			"stopped or unreachable, so the job is not counted as deadlocked",
			fresh[0], m->pid, m->host, t - m->beat_changed);
		return;
	}
	if (!n)
		return;
	least = most = t - res->ranks[fresh[0]].beat_changed;
	for (i = 1; i < n; i++) {
		double d = t - res->ranks[fresh[i]].beat_changed;

		least = d < least ? d : least;
		most = d > most ? d : most;
	}
	ranks_text(fresh, n, ranks, sizeof(ranks));
	if ((int)(least + 0.5) == (int)(most + 0.5))
		warning("%s have not updated their status for %.0f s: they look stopped or "
			"unreachable, so the job is not counted as deadlocked",
			ranks, least);
	else
		warning("%s have not updated their status for %.0f to %.0f s: they look stopped "
			"or unreachable, so the job is not counted as deadlocked",
			ranks, least, most);
}

int monitor_deadlocked(struct monitor_result *res, double t, double timeout, char *warned)
{
	double last = 0;
	int r, in_call = 0, stopped = 0, npolling = 0, nfresh = 0, *fresh = NULL;

	if (!res->size)
		return 0;
	for (r = 0; r < res->size; r++) {
		struct monitor_rank *m = &res->ranks[r];

		if (!m->seen)
			return 0;
		m->polling = monitor_rank_polling(m, t, timeout);
		if (m->polling) {
			npolling++;
			if (m->progress_changed > last)
				last = m->progress_changed;
			continue;
		}
		if (m->state == MPIV_ST_IN_CALL)
			in_call++;
		else if (m->state != MPIV_ST_FINALIZED)
			return 0;
		if (m->changed > last)
			last = m->changed;
	}
	if ((!in_call && !npolling) || t - last < timeout)
		return 0;
	/* the recorder has yet to write a blocked call into its trace: a little longer */
	for (r = 0; r < res->size && t - last < timeout + MONITOR_WRITE_WAIT; r++)
		if (res->ranks[r].state == MPIV_ST_IN_CALL && res->ranks[r].unwritten)
			return 0;
	/* A rank that does not even rewrite its status is stopped (a debugger, SIGSTOP) or
	 * gone, not blocked: ending the job would be wrong. */
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (m->polling || m->state != MPIV_ST_IN_CALL ||
		    t - m->beat_changed < monitor_beat_limit(timeout))
			continue;
		stopped = 1;
		if (!warned[r]) {
			if (!nfresh++)
				fresh = xmalloc((size_t)res->size * sizeof(*fresh));
			fresh[nfresh - 1] = r;
			warned[r] = 1;
		}
	}
	warn_stopped(res, fresh, nfresh, t);
	free(fresh);
	if (stopped)
		return 0;
	res->stalled = t - last;
	res->npolling = npolling;
	return 1;
}

/* The expected deadlock holds: every rank is where expect has it (or, without a prediction,
 * blocked or finished in a deadlock known already), still, for grace. */
static int as_expected(struct monitor_result *res, const struct monitor_expect *expect, double t)
{
	double last = 0;
	int r, predicted = expect && expect->call != NULL, stackless = 0;

	if (!expect || !res->size || expect->n != res->size)
		return 0;
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen || (m->state != MPIV_ST_IN_CALL && m->state != MPIV_ST_FINALIZED))
			return 0;
		if (predicted &&
		    (expect->call[r] < 0 ?
			     m->state != MPIV_ST_FINALIZED :
			     m->state != MPIV_ST_IN_CALL || m->call != (unsigned)expect->call[r] ||
				     (expect->op && expect->op[r] >= 0 && m->op != expect->op[r])))
			predicted = 0;
		if (m->changed > last)
			last = m->changed;
		stackless |= m->state == MPIV_ST_IN_CALL &&
			     (!m->nframes || m->stack_op != (uint32_t)m->op);
	}
	if (t - last < expect->grace)
		return 0;
	/* the report shows each blocked call's stack, which a rank takes after half a second in
	 * the call, later on a busy machine: a little longer for them, never for good (a rank
	 * that cannot take its stack has none) */
	if (stackless && t - last < expect->grace + MONITOR_STACK_WAIT)
		return 0;
	if (!predicted && !(expect->known && expect->known(expect->ctx, res)))
		return 0;
	res->stalled = t - last;
	res->npolling = 0;
	return 1;
}

/* The standstill expect->stuck judges: every rank blocked in a call that does not poll (or
 * finished), one at least blocked, each blocked call in its trace and the rank still beating,
 * nothing changed for grace. *asked is the time of the last change before the standstill
 * judged last, so that each is judged once (again only while its traces lag). */
static int stuck_early(struct monitor_result *res, const struct monitor_expect *expect, double t,
		       double *asked)
{
	double last = 0;
	int r, in_call = 0, verdict;

	if (!expect || !expect->stuck || !res->size || (expect->n && expect->n != res->size))
		return 0;
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen)
			return 0;
		if (m->state == MPIV_ST_IN_CALL) {
			if ((mpiv_call_flags(m->call) & MPIV_F_POLL) || m->unwritten ||
			    t - m->beat_changed >= expect->grace)
				return 0;
			in_call++;
		} else if (m->state != MPIV_ST_FINALIZED) {
			return 0;
		}
		if (m->changed > last)
			last = m->changed;
	}
	if (!in_call || t - last < expect->grace || last == *asked)
		return 0;
	verdict = expect->stuck(expect->stuck_ctx, res);
	if (verdict >= 0)
		*asked = last;
	if (verdict <= 0)
		return 0;
	res->stalled = t - last;
	res->npolling = 0;
	res->proven = 1;
	return 1;
}

void monitor_summarise(struct monitor_rank *const *ranks, int n, double t, double timeout,
		       struct node_summary *s)
{
	double last = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct monitor_rank *m = ranks[i];

		s->n++;
		s->progress += m->progress;
		m->polling = monitor_rank_polling(m, t, timeout);
		if (m->state == MPIV_ST_DIVERGED) {
			s->diverged++;
		} else if (m->state == MPIV_ST_FAILED) {
			s->failed++;
		} else if (m->polling) {
			s->polling++;
			if (m->progress_changed > last)
				last = m->progress_changed;
			continue;
		} else if (m->state == MPIV_ST_IN_CALL) {
			s->in_call++;
			if (t - m->beat_changed >= monitor_beat_limit(timeout))
				s->stopped++;
		} else if (m->state == MPIV_ST_FINALIZED) {
			s->finalized++;
		} else {
			s->other++;
		}
		if (m->changed > last)
			last = m->changed;
	}
	s->still = n ? t - last : 0;
}

int monitor_nodes_deadlocked(struct node_watch *w, struct monitor_result *res, double t,
			     double timeout)
{
	double still = -1;
	int i, size = 0, n = 0, busy = 0, npolling = 0, stopped = 0;

	for (i = 0; i < w->nnodes; i++) {
		const struct node_summary *s = &w->nodes[i];

		if (!s->n)
			continue;
		if ((size && s->size != size) || s->other || s->diverged || s->failed)
			return 0;
		size = s->size;
		n += s->n;
		busy += s->in_call + s->polling;
		npolling += s->polling;
		if (still < 0 || s->still < still)
			still = s->still;
	}
	if (!size || n != size || !busy || still < timeout)
		return 0;
	for (i = 0; i < w->nnodes; i++) {
		const struct node_summary *s = &w->nodes[i];

		if (!s->n)
			continue;
		if (t - s->received >= monitor_beat_limit(timeout)) {
			if (!(w->warned[i] & 1))
				warning("node '%s' has not reported its ranks for %.0f s: its helper "
					"looks stopped or unreachable, so the job is not counted as "
					"deadlocked",
					s->host, t - s->received);
			w->warned[i] |= 1;
			stopped = 1;
		} else if (s->stopped) {
			if (!(w->warned[i] & 2))
				warning("%d rank(s) on node '%s' have not updated their status for "
					"%.0f s: they look stopped, so the job is not counted as "
					"deadlocked",
					s->stopped, s->host, monitor_beat_limit(timeout));
			w->warned[i] |= 2;
			stopped = 1;
		}
	}
	if (stopped)
		return 0;
	res->stalled = still;
	res->npolling = npolling;
	return 1;
}

/* As as_expected(), across nodes (nodes.h): the summaries do not say which call each rank
 * sits in, so once they say that every rank has been blocked or finished, still, for
 * expect's grace, the ranks' status files are gathered once (a peek; again only after
 * something changed since) and the expectation is taken on them. */
static int nodes_as_expected(struct node_watch *w, const char *status_dir,
			     const struct monitor_expect *expect, struct monitor_result *res,
			     double t)
{
	struct monitor_result seen;
	double still = -1;
	int i, size = 0, n = 0, ok;

	if (!expect || !w->peek_dir)
		return 0;
	for (i = 0; i < w->nnodes; i++) {
		const struct node_summary *s = &w->nodes[i];

		if (!s->n)
			continue;
		if ((size && s->size != size) || s->other || s->polling || s->diverged ||
		    s->failed || t - s->received >= 1)
			return 0;
		size = s->size;
		n += s->n;
		if (still < 0 || s->still < still)
			still = s->still;
	}
	if (!size || n != size || still < expect->grace || (w->peeked && still > t - w->peeked))
		return 0;
	w->peeked = t;
	if (nodes_peek(w, status_dir) < 0)
		return 0;
	memset(&seen, 0, sizeof(seen));
	monitor_rescan(w->peek_dir, &seen);
	/* still for grace by the summaries: the files are taken as of then */
	ok = as_expected(&seen, expect, mpiv_now() + expect->grace);
	monitor_result_release(&seen);
	if (!ok)
		return 0;
	res->stalled = still;
	res->npolling = 0;
	return 1;
}

/* The nodes' ranks in state count (diverged or failed). */
static int nodes_any(const struct node_watch *w, int failed)
{
	int i;

	for (i = 0; i < w->nnodes; i++)
		if (failed ? w->nodes[i].failed : w->nodes[i].diverged)
			return 1;
	return 0;
}

/* Whether a rank reported at all. */
static int reported(const struct monitor_result *res, const struct node_watch *nodes)
{
	int i;

	if (!nodes)
		return res->size > 0;
	for (i = 0; i < nodes->nnodes; i++)
		if (nodes->nodes[i].n)
			return 1;
	return 0;
}

/* Whether every rank reported and has not beaten for a while: none is running any more, as far
 * as its status file goes. */
static int all_still(const struct monitor_result *res, double t, double timeout)
{
	int r;

	if (!res->size)
		return 0;
	for (r = 0; r < res->size; r++)
		if (!res->ranks[r].seen ||
		    t - res->ranks[r].beat_changed < monitor_beat_limit(timeout))
			return 0;
	return 1;
}

/* Seconds between a rank's word that it diverged or cannot replay and the end of the job. */
#define NOTE_GRACE 0.3

void monitor_run(struct launch *l, const char *status_dir, double timeout,
		 const struct monitor_expect *expect, struct node_watch *nodes,
		 struct monitor_result *res)
{
	double start = mpiv_now(), t, noted = 0, ended = 0, asked = -1;
	char *warned = NULL;
	int warned_none = 0, done, failed;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	for (;;) {
		/* The launcher's exit is taken before the scan, so that the last scan sees the
		 * ranks' final word (a rank that diverged and then aborted the job). */
		done = launch_poll(l);
		t = mpiv_now();
		if (nodes)
			nodes_watch_poll(nodes, t);
		else
			scan(status_dir, res, t);
		if (res->size && !warned)
			warned = xcalloc(res->size, 1);
		/* a rank that cannot replay says why, whatever the others did; its own line on
		 * stderr is still on its way through the launcher's proxies, which ending the
		 * job would cut: a moment for it first */
		failed = nodes ? nodes_any(nodes, 1) : any_in(res, MPIV_ST_FAILED);
		if (failed || (nodes ? nodes_any(nodes, 0) : any_in(res, MPIV_ST_DIVERGED))) {
			if (!noted)
				noted = t;
			if (done || t - noted >= NOTE_GRACE) {
				res->outcome = failed ? MONITOR_FAILED : MONITOR_DIVERGED;
				break;
			}
			launch_relay(l, MPIV_STATUS_PERIOD_MS);
			continue;
		}
		if (done) {
			res->outcome = MONITOR_COMPLETED;
			break;
		}
		if (launch_interrupted()) {
			res->outcome = MONITOR_INTERRUPTED;
			res->signal = launch_interrupted();
			break;
		}
		/* Every rank has ended, and the launcher has not collected one for timeout: it
		 * hangs after its job (Open MPI 4.1's mpirun does now and then, deaf to SIGTERM).
		 * Nothing is left to watch, and waiting would hang mpiverify with it. */
		if (!nodes && all_still(res, t, timeout) && launch_ranks_ended(l)) {
			if (!ended)
				ended = t;
			if (t - ended >= timeout) {
				warning("every rank of the job has ended, but the launcher (pid %d) "
					"has not collected them for %.0f s: ending it",
					(int)l->pid, t - ended);
				launch_end(l);
				res->outcome = MONITOR_COMPLETED;
				break;
			}
		} else {
			ended = 0;
		}
		if (nodes ? nodes_as_expected(nodes, status_dir, expect, res, t) ||
				    monitor_nodes_deadlocked(nodes, res, t, timeout) :
			    as_expected(res, expect, t) || stuck_early(res, expect, t, &asked) ||
				    monitor_deadlocked(res, t, timeout, warned)) {
			res->outcome = MONITOR_DEADLOCK;
			break;
		}
		/* No status at all: the ranks may not have started yet, or may not load our
		 * library, or may not see the directory. A program may also compute for long
		 * before MPI_Init, so this is no reason to end it; only say why hangs cannot be
		 * caught, and keep watching. Not before MONITOR_FIRST_REPORT: a job of hundreds of
		 * ranks on a few cores takes seconds to start them. */
		if (!reported(res, nodes) && !warned_none &&
		    t - start >=
			    (timeout > MONITOR_FIRST_REPORT ? timeout : MONITOR_FIRST_REPORT)) {
			warning("no rank has reported to '%s' after %.0f s: hangs cannot be detected "
				"until one does (is the program a dynamically linked MPI program, "
				"and is the directory shared with every node?)",
				status_dir, t - start);
			warned_none = 1;
		}
		launch_relay(l, MPIV_STATUS_PERIOD_MS);
	}
	if (res->outcome == MONITOR_COMPLETED)
		launch_flush(l);
	free(warned);
	res->exit_code = launch_exit_code(l);
}

void monitor_rescan(const char *dir, struct monitor_result *res)
{
	struct mpiv_status st;
	double t = mpiv_now();
	int r, size = status_file_size(dir);

	free(res->ranks);
	res->ranks = NULL;
	res->size = size;
	if (!size)
		return;
	res->ranks = xcalloc(size, sizeof(*res->ranks));
	for (r = 0; r < size; r++) {
		struct monitor_rank *m = &res->ranks[r];

		if (status_file_read(dir, r, &st) < 0 || st.size != size)
			continue;
		monitor_rank_update(m, &st, t);
		/* the nodes counted the ranks that polled; a rank between polls or in one was
		 * one of them */
		m->polling = res->outcome == MONITOR_DEADLOCK && res->npolling &&
			     (m->state == MPIV_ST_RUNNING ||
			      (m->state == MPIV_ST_IN_CALL &&
			       (mpiv_call_flags(m->call) & MPIV_F_POLL)));
	}
}

void monitor_result_release(struct monitor_result *res)
{
	free(res->ranks);
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
}
