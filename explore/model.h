/* verify's model of its runs (doc/verify.md, section 2): every run so far, one program whose
 * processes are graphs, and a path of it as the decisions a run of the program must take.
 *
 *	model.c		the runs, one model: each process's calls as a tree of what the runs did,
 *			branches that compare what the runs show the process acts on; which
 *			sends and receives follow an input
 *	model_fold.c	loops: the branches of a call site where the process goes on alike
 *	model_layout.c	the tree and its loops laid out as the model's graph
 *	model_path.c	a path of the model as a run must take it: each rank's decisions
 *	model_inputs.c	the inputs a run took, written into the branches of its own program
 *	model_threads.c	a rank's threads, the same processes in every run, and the order
 *			pthread_create and pthread_join put between them
 *
 * Library code, as the translator's: errors go into a struct mpiv_error, nothing is printed. */
#ifndef MPIV_MODEL_H
#define MPIV_MODEL_H

#include <stdint.h>

#include "engine.h"
#include "error.h"
#include "steer.h"
#include "trace.h"

/* ---- model_inputs.c ---- */

/* Fill every branch of prog (translated with tr_opts.verify from ts alone: one way on each)
 * with the input the recorded run took there: the recorded path is run on the engine, every
 * input it takes noted. An input it never took stays TR_NO_INPUT. Cannot fail. */
void xmodel_fill_inputs(struct eng_prog *prog, const struct mpiv_traceset *ts);

/* ---- model.c ---- */

/* Room for messages in flight a model starts with: a state holds two words for each, and few
 * programs have more in flight at once; a search that finds more makes room for more
 * (xmodel_more_room()). */
#define XMODEL_MSGS 64

struct xmodel {
	struct eng_prog prog; /* each process a graph (engine.h, ENG_BRANCH) */
	int nruns;
	int maxmsg; /* the most room for messages in flight it may need: one per send */
	/* per process, per instruction: the run it was taken from (its
	 * event, prog.ins[q][i].ev, is one of that run's trace) */
	int32_t **run;
	/* per process, per instruction: the requests that run's rank had made
	 * before its event (the recorder numbers them 0, 1, ... as they
	 * are made): where a path is in a run's numbering */
	int32_t **made;
	/* per process, per instruction: a post's request, by the
	 * recorder's id in that run; -1 else */
	int32_t **req;
	/* per process, per instruction: 1 if the instruction starts the
	 * way on of a branch, before whose event its run had made anchor
	 * requests */
	char **starts;
	int32_t **anchor;
	/* per process, per instruction: 1 if the instruction is a branch whose runs show neither
	 * that it goes on as the branches of its place do, nor that it does not (model_fold.c):
	 * the runs of its frontiers may fold the model, and are made first */
	char **unsettled;
};

/* How a model takes what its runs show. */
enum xmodel_flags {
	/* every part of an input a call left open is compared everywhere, no call site's
	 * branches are one loop, and every any-completion's outcome is a choice: every order
	 * of every decision is a path of its own (verify --exhaustive, the reference the
	 * tests hold the model's reductions to) */
	XMODEL_EXHAUSTIVE = 1 << 0,
};

/* Make one model of the runs: progs[i] (translated with tr_opts.verify, inputs filled) is run
 * i, sets[i] its trace set; flags (enum xmodel_flags) say how. Decides which sends'
 * destinations and receives' sources follow an input (and so changes the posts of progs).
 * Returns 0 (release m with xmodel_release()), or -1 with err filled when the runs cannot be
 * one model (threads made where the runs differ, one-sided synchronisation, different
 * communicators). */
int xmodel_build(struct eng_prog *const *progs, struct mpiv_traceset *const *sets, int nruns,
		 unsigned flags, struct xmodel *m, struct mpiv_error *err);

/* Make room for four times as many messages in flight, up to m->maxmsg: 1 if there is more
 * room now, 0 if there was all it may need. */
int xmodel_more_room(struct xmodel *m);

void xmodel_release(struct xmodel *m);

/* ---- model_path.c ---- */

struct xpath {
	int ok; /* the path's choices were all on offer */
	int nranks;
	/* per rank: the decisions a run must take to follow the path, up
	 * to the first it leaves open */
	struct mpiv_steer *steer;
	int *run;     /* per rank: the run of the instruction it is at in the last state */
	long *event;  /* per rank: that instruction's event, in that run's trace */
	char *at_end; /* per rank: 1 if it reached its end */
	/* the same per process (a rank's threads each): the run and event of the instruction
	 * it is at; a rank's entries above are its first process's (its initial thread's) */
	int nprocs;
	int *prun;
	long *pevent;
};

/* Run path[0..npath) on m's program and describe it (out: release with xpath_release()).
 * sets[i] is run i's trace set. Returns 0, or -1 if a choice was not on offer (out->ok 0,
 * filled up to there). */
int xpath_of(const struct xmodel *m, struct mpiv_traceset *const *sets, const int *path, int npath,
	     struct xpath *out);
void xpath_release(struct xpath *pt);

#endif
