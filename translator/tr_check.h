/* What check's search (check/) stands on: check's own pass and what it leaves to SPIN
 * (tr_cut.c), the searches a program needs and the deadlocks they find, one entry per distinct
 * deadlock (tr_search.c), and a long run checked a segment at a time (tr_segment.c). */
#ifndef MPIV_TR_CHECK_H
#define MPIV_TR_CHECK_H

#include "translate.h"

/* ---- tr_cut.c: check's own pass, and what it leaves to SPIN ---- */

/* Run prog from its start into st (eng_state_bytes(prog) bytes) for as long as the search
 * offers exactly one choice: a state with none (the end of every path: finished, deadlocked,
 * erroneous or overflowed) or several (where SPIN takes over). Returns the choices taken. */
long tr_forced_path(const struct eng_prog *prog, int32_t *st);

/* The part of prog a search from state st (of prog) can still reach, as a program of its own
 * that starts in st (out->start): each process's instructions from the first one st still
 * refers to, renumbered from 0. A search of out offers the same choices in the same order as
 * one of prog from st, so that its choices replay on prog. Returns 1 with out filled (release
 * it with eng_prog_release()), or 0 if prog cannot be cut so (its instructions name other
 * processes' instructions, or what the engine makes of one depends on the whole program:
 * ready sends, an attached buffer, variants, tables cut short). Cannot fail. */
int tr_cut(const struct eng_prog *prog, const int32_t *st, struct eng_prog *out);

/* ---- tr_search.c: check's search of a program, and the deadlocks it finds ---- */

/* The depth bound for SPIN's search of prog: a path takes at most (choice loop + 2 steps) per
 * choice the program offers (a wildcard receive's match, which rank gets a contended window
 * lock first), plus a margin. */
long tr_search_depth(const struct eng_prog *prog);

/* Does some collective of prog let a member leave before every other entered, with
 * buffering (its rule is not ENG_COLL_ALL)? */
int tr_colls_partial(const struct eng_prog *prog);

/* The searches the buffering modes given[0..n) need, into out (room for 2 * n): each mode,
 * and with twins (tr_colls_partial() of the program) after each buffered one its twin whose
 * collectives all synchronise (sync_colls). MPI allows both, whatever the buffering, and
 * with wildcard receives either can deadlock where the other does not (doc/semantics.md
 * 5.2). Returns the number of searches. */
int tr_searches(int twins, const struct mpiv_buffering *given, int n, struct mpiv_buffering *out);

/* 1 if no send of prog carries more than bytes: then a search with that eager threshold is
 * the search with every send buffered (ENG_BUF_INFINITE), state for state. */
int tr_sends_within(const struct eng_prog *prog, long long bytes);

/* One distinct deadlock: its counterexample and the buffering modes it was found in. */
#define TR_DEADLOCK_MODES 8 /* modes one deadlock is noted in, at most (check searches fewer) */

struct tr_deadlock {
	struct mpiv_cex cex;
	/* by rank of cex: the event it is blocked at, -1 if it is not (tr_deadlock_signature());
	 * NULL once merged into another */
	long *signature;
	/* the buffering modes it was found in, in the order found */
	struct mpiv_buffering found[TR_DEADLOCK_MODES];
	int nfound;
	int in_zero, in_buffered; /* found with unbuffered / with buffered standard sends */
	int in_eager;		  /* found with the recorded library's eager threshold */
	/* found with buffering (in_buffered, in_eager) where collectives
	 * wait only for the data they need, not only in a twin search
	 * whose collectives synchronise (mpiv_buffering.sync_colls) */
	int in_buffered_data, in_eager_data;
	/* found with buffering in a twin search whose collectives
	 * synchronise */
	int in_sync;
	/* check: found with buffering only where collectives wait for no
	 * more than their data, a twin search where they synchronise
	 * being whole without it */
	int colls_early;
	/* check: 1 + a deadlock found in the other kind of mode (without
	 * buffering where this one was found only with it, or the other
	 * way round) and not in this one's: the program deadlocks there
	 * instead; 0 if none */
	int instead;
	/* the recorded run's own wildcard matches lead there (in the
	 * mode of its cex): 1 yes, 0 no, -1 the trace does not say */
	int recorded;
	long long eager; /* that threshold when it was searched too, else -1 */
	/* both kinds of mode were searched, completely where it was not
	 * found, so the class is known */
	int classified;
	char *path; /* where its cex.json was written (by check), else NULL */
};

/* The deadlocks of one check, in the order they were found. */
struct tr_deadlocks {
	struct tr_deadlock *d;
	int n;
};

/* Which rank is blocked at which event: for each of cex->nranks ranks its blocked event, -1
 * if it is not blocked (malloc'ed). With core set, ranks blocked in a standard send that was
 * not buffered (and in no receive of theirs) are left out (-1): the same deadlock found with
 * buffered sends has those ranks finished, and otherwise the same ranks stuck in the same
 * calls. */
long *tr_deadlock_signature(const struct mpiv_cex *cex, int core);

/* "zero, infinite": the names of the modes d was found in, into buf. */
void tr_deadlock_modes(const struct tr_deadlock *d, char *buf, size_t size);

/* Add the deadlock of one trail, found in the mode cex->buffering names, unless the same one
 * (same signature) was found before in that mode. Takes cex (it is released or kept, and
 * zeroed). Cannot fail. */
void tr_deadlocks_add(struct tr_deadlocks *set, struct mpiv_cex *cex);

/* One entry per deadlock, whatever modes it was found in: entries with the same core
 * signature, or, found in different modes, one core within the other (the same ranks stuck in
 * the same calls, some moving on to be stuck further when sends are buffered), merge into the
 * first (so the counterexample of the first mode searched, zero's when there is one, is
 * kept), which then lists every mode. */
void tr_deadlocks_merge(struct tr_deadlocks *set);

/* Do the recorded run's own wildcard matches lead to the deadlock of cex, in the mode of cex?
 * 1 yes, 0 no, -1 the trace does not say which matches the run made. */
int tr_on_recorded_path(const struct eng_prog *prog, const struct mpiv_traceset *ts,
			const struct mpiv_cex *cex);

/* Free what set owns and empty it. */
void tr_deadlocks_release(struct tr_deadlocks *set);

/* ---- tr_segment.c: a long run, a segment at a time ---- */

/* Places where every rank's trace can be cut so that nothing before waits for anything after,
 * found all at once (tr_cuts_find()) or one at a time (tr_cuts_start(), tr_cuts_next()), the
 * earlier ones dropped as they are done with (tr_cuts_drop()). With k held (dropped <= k <
 * n), at[(k - dropped) * nranks + r] is rank r's first event after cut k (cuts in order); its
 * persistent requests and attached buffer there are tr_cuts_tmpl()'s. */
struct tr_cut_finder;
struct tr_cuts {
	int nranks;
	int n;	     /* cuts found so far */
	int dropped; /* the cuts before this one are no longer held */
	int done;    /* 1: n is every cut there is */
	size_t *at;
	struct tr_tmpl *tmpl;
	size_t *first; /* (n - dropped) * nranks + 1 entries, into tmpl */
	size_t ntmpl;
	struct tr_cut_finder *finder; /* the search for the next one; NULL once done */
};

/* The cuts of ts into segments of about target events each, as far as its calls allow
 * (doc/semantics.md 10): up to the first call that makes a choice or that a cut cannot pass,
 * and only in a run every rank of which finished. Returns how many (0: none; release cuts
 * either way with tr_cuts_release()). */
int tr_cuts_find(const struct mpiv_traceset *ts, size_t target, struct tr_cuts *cuts);

/* The same one cut at a time: tr_cuts_start() finds the first, tr_cuts_next() each next; both
 * return 1 if they found one, 0 once there is none left (cuts->done). */
int tr_cuts_start(const struct mpiv_traceset *ts, size_t target, struct tr_cuts *cuts);
int tr_cuts_next(struct tr_cuts *cuts);

/* No longer hold the cuts before cut j (j <= cuts->n). */
void tr_cuts_drop(struct tr_cuts *cuts, int j);

/* Rank r's persistent requests and attached buffer at held cut k: *ntmpl entries, NULL if
 * none. */
const struct tr_tmpl *tr_cuts_tmpl(const struct tr_cuts *cuts, int k, int r, size_t *ntmpl);

void tr_cuts_release(struct tr_cuts *cuts);

/* Where segment j of cuts starts and ends in rank r's trace: [*from, *to) (from cut j - 1, or
 * the start for j = 0, to cut j, or the end for j = cuts->n once cuts->done); cuts j - 1 and
 * j must be held. */
void tr_segment_bounds(const struct mpiv_traceset *ts, const struct tr_cuts *cuts, int j, int r,
		       size_t *from, size_t *to);

/* The most buffering modes tr_check_segments() takes. */
#define TR_SEGMENT_MODES 4

/* What the segments of a run said, every one of them to its end in every search. */
struct tr_segmented {
	int twins; /* some collective lets a member leave early: the twin searches were made */
	int nmodes;
	struct mpiv_buffering modes[2 * TR_SEGMENT_MODES]; /* the searches (tr_searches()) */
	long lead[2 * TR_SEGMENT_MODES]; /* per search: the choices its own pass took, summed */
	struct tr_warning *warns;	 /* the recorded run's warnings (tr_warnings()) */
	int nwarns;
	int nsegments;
	size_t most; /* events in the longest segment */
};

/* Check ts one segment at a time, cut into segments of about target events (tr_cuts_find()),
 * each translated alone (with at most max_instrs instructions, as tr_opts says) and searched
 * by check's own pass in every search the modes given[0..ngiven) need: 1 when every segment
 * ran to its end with every process done, on a single path, in every search (no deadlock
 * anywhere; out filled, its warnings the caller's to free); 0 when the run has no cut, or
 * some segment does not settle it (a choice, a deadlock, an erroneous call, too many messages
 * in flight, a bad event, too many instructions): the whole program is to be checked
 * instead. */
int tr_check_segments(const struct mpiv_traceset *ts, size_t target,
		      const struct mpiv_buffering *given, int ngiven, size_t max_instrs,
		      struct tr_segmented *out);

#endif
