/* Translator: how each rank's run ended. A rank has finished only when MPI_Finalize returned
 * (doc/semantics.md 8); a trace that ends otherwise is a rank that stopped:
 * it crashed, aborted, exited without MPI_Finalize, was killed, or was still blocked or
 * computing when the job was ended. The model gives a stopped rank an end it never passes,
 * and check never answers "no deadlock" for a run with one. What the rank wrote itself (its
 * stop record) comes first; what record saw of it from outside (meta.json) fills in. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "mpilib.h"
#include "translate.h"
#include "xalloc.h"

/* Whether call ends a rank that finishes: MPI_Finalize, or the end of the last session of a
 * process of the Sessions model (the last event of its trace). */
static int finalizes(unsigned call)
{
	return call == MPIV_CALL_Finalize || call == MPIV_CALL_Session_finalize;
}

/* Did the recorded run end this rank with a complete MPI_Finalize, as a trace written by
 * hand says by ending there? */
static int ends_in_finalize(const struct mpiv_rank_trace *t)
{
	const struct mpiv_event *last = t->nevents ? mpiv_trace_event(t, t->nevents - 1) : NULL;

	return last && finalizes(last->call) && !(last->flags & MPIV_EV_INCOMPLETE) &&
	       !t->truncated;
}

/* Was rank r inside MPI_Finalize when record ended a hung job? */
static int waits_in_finalize(const struct mpiv_traceset *ts, int r)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	const struct mpiv_meta *m = &ts->meta;

	return (m->job == MPIV_JOB_DEADLOCK || m->job == MPIV_JOB_NO_PROGRESS) && r < m->nranks &&
	       m->ranks[r].seen == MPIV_SEEN_FINALIZED && t->nevents &&
	       finalizes(mpiv_trace_event(t, t->nevents - 1)->call);
}

void tr_stop_of(const struct mpiv_traceset *ts, int r, struct tr_stop *s)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	const struct mpiv_meta *m = &ts->meta;
	const struct mpiv_meta_rank *seen = r < m->nranks ? &m->ranks[r] : NULL;
	int by_record = m->job != MPIV_JOB_EXITED;

	memset(s, 0, sizeof(*s));
	s->rank = r;
	s->kind = TR_FINISHED;
	s->code = t->end_code;
	s->event = t->nevents ? (long)t->nevents - 1 : -1;
	s->in_call = t->nevents &&
		     (mpiv_trace_event(t, t->nevents - 1)->flags & MPIV_EV_INCOMPLETE);
	s->seen = seen ? seen->seen : MPIV_SEEN_NONE;
	if (t->unjudged) {
		s->kind = TR_STOP_UNJUDGED;
		s->event = t->unjudged - 2;
		s->in_call = 0;
		return;
	}
	if (seen && seen->seen == MPIV_SEEN_IN_CALL)
		s->in_call = 1;
	/* In a hang record ended, a rank inside MPI_Finalize waited there for the others (as
	 * MPICH's does): it had made its last call, and is as good as finished for deadlock. */
	if (waits_in_finalize(ts, r))
		return;
	switch (t->end) {
	case MPIV_END_FINALIZED:
		s->kind = TR_FINISHED;
		return;
	case MPIV_END_ABORTED:
		s->kind = TR_STOP_ABORTED;
		return;
	case MPIV_END_EXIT:
		s->kind = TR_STOP_EXIT;
		return;
	case MPIV_END_SIGNAL:
		/* the signal record ended the job with (SIGTERM from the launcher it stopped) */
		if (by_record && (s->code == SIGTERM || s->code == SIGINT || s->code == SIGHUP)) {
			s->kind = TR_STOP_ENDED;
			return;
		}
		s->kind = TR_STOP_SIGNAL;
		return;
	default:
		break;
	}
	if (ends_in_finalize(t) && !by_record) {
		s->kind = TR_FINISHED;
		return;
	}

	s->kind = by_record ? TR_STOP_ENDED : TR_STOP_KILLED;
}

int tr_all_finished(const struct mpiv_traceset *ts)
{
	struct tr_stop s;
	int r;

	for (r = 0; r < ts->nranks; r++) {
		tr_stop_of(ts, r, &s);
		if (s.kind != TR_FINISHED)
			return 0;
	}
	return 1;
}

/* "signal 11 (Segmentation fault)" */
static void signal_name(int sig, char *buf, size_t size)
{
	const char *name = sig > 0 && sig < NSIG ? strsignal(sig) : NULL;

	if (name)
		snprintf(buf, size, "signal %d (%s)", sig, name);
	else
		snprintf(buf, size, "signal %d", sig);
}

void tr_stop_describe(const struct mpiv_traceset *ts, const struct tr_stop *s, char *buf,
		      size_t size)
{
	char sig[96];
	const char *where = s->in_call			 ? "while in its last call" :
			    s->seen == MPIV_SEEN_POLLING ? "while polling in its last call" :
							   "after its last call, outside MPI";

	switch (s->kind) {
	case TR_FINISHED:
		snprintf(buf, size, "finished (MPI_Finalize returned)");
		break;
	case TR_STOP_UNJUDGED:
		snprintf(buf, size, "was left out from its event %ld on: %s", s->event + 1,
			 ts->ranks[s->rank].unjudged_why ? ts->ranks[s->rank].unjudged_why :
							   "a call check cannot judge yet");
		break;
	case TR_STOP_ABORTED:
		snprintf(buf, size, "called MPI_Abort with error code %d", s->code);
		break;
	case TR_STOP_SIGNAL:
		signal_name(s->code, sig, sizeof(sig));
		snprintf(buf, size, "died of %s %s", sig, where);
		break;
	case TR_STOP_EXIT:
		snprintf(buf, size, "exited with status %d without calling MPI_Finalize", s->code);
		break;
	case TR_STOP_ENDED:
		snprintf(buf, size, "%s when record ended the job (%s)",
			 s->in_call			? "was blocked in its last call" :
			 s->seen == MPIV_SEEN_POLLING	? "was polling without progress" :
			 s->seen == MPIV_SEEN_FINALIZED ? "was inside MPI_Finalize" :
			 s->seen == MPIV_SEEN_NONE	? "had not got through MPI_Init" :
							  "was computing, outside MPI,",
			 ts->meta.job == MPIV_JOB_INTERRUPTED ? "mpiverify was interrupted" :
			 ts->meta.job == MPIV_JOB_NO_PROGRESS ? "no progress" :
								"no progress: a hang");
		break;
	default:
		if (ts->ranks[s->rank].absent) {
			snprintf(buf, size,
				 "left no trace: it was killed before its MPI_Init returned, "
				 "or its file is gone");
			break;
		}
		snprintf(buf, size,
			 "was killed, or its trace was cut, %s, without a word of how "
			 "(a signal that cannot be caught, such as the launcher's SIGKILL after "
			 "another rank stopped)",
			 where);
		break;
	}
}

int tr_stop_waiters(const struct eng_prog *prog, const struct mpiv_traceset *ts, int r, int *out)
{
	int32_t *st = xmalloc(eng_state_bytes(prog));
	int *wf = xmalloc((size_t)prog->nprocs * sizeof(int));
	char *waits = xcalloc((size_t)prog->nranks, 1);
	long long eager;
	int q, k, n = 0, x;

	/* the run's own buffering where the library's threshold is known: a rank stopped in a
	 * send the library does not buffer waits for its receiver */
	eager = ts->nranks ? mpiv_mpilib_eager(ts->ranks[0].library) : -1;
	tr_recorded_path(prog, ts, eager >= 0 ? ENG_BUF_EAGER : ENG_BUF_INFINITE,
			 eager >= 0 ? eager : 0, 0, NULL, st);
	for (q = 0; q < prog->nprocs; q++) {
		if (prog->proc_rank[q] == r || eng_at_end(prog, st, q))
			continue;
		k = eng_waits_for(prog, st, q, wf);
		for (x = 0; x < k; x++)
			if (prog->proc_rank[wf[x]] == r)
				waits[prog->proc_rank[q]] = 1;
	}
	for (x = 0; x < prog->nranks; x++)
		if (waits[x])
			out[n++] = x;
	free(st);
	free(wf);
	free(waits);
	return n;
}
