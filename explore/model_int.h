/* The inside of verify's model (model.h): what model.c, model_fold.c and model_layout.c share
 * while they make one model of the runs. */
#ifndef MPIV_MODEL_INT_H
#define MPIV_MODEL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* One run's program of the process being merged. */
struct seq {
	int run;
	const struct mpiv_rank_trace *t; /* the run's trace of the process's rank */
	int32_t thread;			 /* the process's thread in that trace */
	struct eng_instr *ins;		 /* the run's (xm_threads_ins()) */
	int n;
	int32_t *node;	   /* per instruction: its node in the tree */
	int ninputs;	   /* inputs it takes (the highest register number) */
	int32_t *post;	   /* per input: the instruction that takes it, -1 */
	int32_t *lastread; /* per input: the last instruction that reads it, -1 */
	/* per instruction: requests the process's thread made before its event, and a
	 * post's request, by its number among them (mpiv_thread_request(): in a rank of one
	 * thread, the recorder's id); -1 */
	int32_t *made;
	int32_t *req;
	int32_t *live;	 /* per instruction: requests live before it */
	uint32_t *colls; /* per instruction: a digest of the collectives before it */
	/* per instruction: a digest of the calls of its phase up to it, in any order (from the
	 * start, the first after the last collective, or after the last any-completion that
	 * left no request live); 0 in a phase that began with requests live */
	uint32_t *since;
	int32_t *drains; /* per instruction: the any-completions before it that left none */
};

/* A run's pass through a node: seq s, its instruction k. */
struct pass {
	int s, k;
};

/* A node of a process's tree: instructions that are the same call after the same calls. */
struct tnode {
	int parent, child, sibling; /* -1: none */
	struct pass *pass;	    /* the runs through it */
	size_t npass, cappass;
	char last; /* a reader: no run through it reads its register later */
	char poll; /* a branch on no input, before a poll */
	/* a branch of a place (or a round) of a phase whose runs show neither that the process
	 * goes on alike from its nodes nor that it does not (model_fold.c): a run that takes
	 * at one node an input taken at another may show which */
	char unsettled;
	int32_t key; /* a branch: the call site of the call whose input it learns */
	/* a branch: a digest of the collectives before it and (on an input) its call's
	 * communicator and tag, which tell a call site's phases apart (model_fold.c) */
	uint32_t phase;
	uint32_t path; /* a branch: its run's since (struct seq) */
	/* a branch: 1 + how often its run took, at its call site in its phase, an input that
	 * went two ways there (a round's stop, model_fold.c); 0 where none did */
	uint32_t exits;
	int32_t group; /* a branch: its group (struct bgroup), else -1 */
	int32_t instr; /* while laid out: its copy on the path being laid out */
};

/* A branch of the model: one branch node of the tree, or (a loop) every branch node of a
 * call site where the runs show the process go on alike whatever calls it made before
 * (model_fold.c). */
struct bgroup {
	int32_t key; /* the call site of the call whose input it learns (0: the start) */
	int folded;  /* 1: every node of a call site */
	int *nodes;  /* its nodes */
	size_t nnodes, capnodes;
	int16_t sym;   /* the parts it compares */
	char last;     /* the last reader of its register on every run */
	int32_t reg;   /* folded: a register of its own (from 1), else 0 */
	int laid;      /* while laid out: its ways are (being) laid out */
	int32_t *list; /* its ways on, once laid out */
	int32_t n;
	int32_t *copies; /* while laid out: its instructions waiting for the list */
	size_t ncopies, capcopies;
};

struct tree {
	struct tnode *n;
	size_t len, cap;
	struct bgroup *g;
	size_t ng, capg;
};

/* ---- model.c ---- */

/* The call site of instruction in's call in the trace t of its run, the same in every run
 * (0: unknown). */
int32_t xm_call_key(const struct mpiv_rank_trace *t, const struct eng_instr *in);

/* Do two instructions make the same call, whatever inputs they took? */
int xm_same_call(const struct eng_instr *x, const struct eng_instr *y);

/* Where run s goes on from its instruction k (a branch): its next branch or its end. */
int xm_way_of(const struct seq *v, int s, int k);

/* The input run p took at its branch: ENG_REG_WORDS words (the branch's way on, words 1..). */
const int32_t *xm_pass_input(const struct seq *v, const struct pass *p);

/* The parts in which two inputs differ (ENG_IN_*). */
int xm_input_diff(const int32_t *a, const int32_t *b);

/* Is pass p's way cut short: its run stopped before its next branch (a hang, a crash, a
 * steered run sent where the program could not go)? Such a way goes the way of any that makes
 * the same calls up to there (xm_same_way()), and so tells nothing of where its input leads. */
int xm_cut_short(const struct seq *v, const struct pass *p);

/* Do passes a and b of t's branches go on the same way: the same calls to the same branch
 * (group) or end? */
int xm_same_way(const struct seq *v, const struct tree *t, const struct pass *a,
		const struct pass *b);

/* Every pass of group g, into *out (malloc'ed); returns how many. */
size_t xm_group_passes(const struct tree *t, const struct bgroup *g, struct pass **out);

/* ---- model_fold.c ---- */

/* Group process q's branch nodes (tree t, runs v[0..nv)): a group each, but, if loops, where
 * the nodes of a call site are one loop (model_fold.c's rules); the groups into t->g. */
void xm_fold(struct seq *v, int nv, struct tree *t, int loops);

/* ---- model_unread.c ---- */

/* The sends a build made send their call site alone (model_unread.c). */
struct xstripped {
	struct eng_instr *at; /* a run's send */
	int32_t was, key;     /* its site as recorded; its call site */
};
struct xstrip {
	struct xstripped *saved; /* every send ever stripped, by at */
	size_t nsaved, capsaved;
	/* call sites whose messages some branch compared, or whose process took one input two
	 * ways once they were stripped */
	int32_t *keep;
	size_t nkeep, capkeep;
	long *choices; /* per process: its choices with every send as recorded (choices()) */
};

/* After choose_parts(): strip what no branch of trees[0..nprocs) reads of the sends of the
 * runs vs[q][0..nruns), and give back what one now reads. Returns 1 if a send changed (grow
 * the trees again), else 0. */
int xm_strip_unread(struct seq *const *vs, const struct tree *trees, int nprocs, int nruns,
		    struct xstrip *st);

/* Every send as its run recorded it; st released. */
void xm_strip_restore(struct xstrip *st);

/* ---- model_layout.c ---- */

/* Lay process q of m out from its tree and groups: input i of its runs in register color[i] + 1
 * (of nregs), but the folded groups' inputs, each group's in a register of its own (nregs + 1,
 * ...). */
void xm_layout(struct xmodel *m, struct seq *v, int nv, struct tree *t, int nregs,
	       const int32_t *color, unsigned flags, int q);

/* A run's program, as it is, is its own model: for what cannot be merged (threads, one-sided
 * synchronisation), whose instructions name other processes' instructions. */
void xm_copy(struct xmodel *m, const struct seq *v, int q);

/* ---- model_threads.c ---- */

/* The runs' programs as the model sees them where ranks call MPI from several threads: each
 * run's processes in the model's order, their marks named alike in every run. */
struct xthreads {
	int on; /* 0: a process per rank, each run's programs as they are */
	int nruns, nprocs;
	int **perm;		 /* per run, per model process: the run's process */
	struct eng_instr ***ins; /* per run, per model process: its program, copied */
	int **nins;
};

/* Ready th for progs[0..nruns) (their posts decided: follow_inputs()). Returns NULL, or why
 * the runs cannot be one model (th released). */
const char *xm_threads_prepare(struct eng_prog *const *progs, struct mpiv_traceset *const *sets,
			       int nruns, struct xthreads *th);

/* Run s's program of model process q (*n instructions), and its process number in s. */
struct eng_instr *xm_threads_ins(const struct xthreads *th, struct eng_prog *const *progs, int s,
				 int q, int *n);
int xm_threads_proc(const struct xthreads *th, int s, int q);

/* Once every process is laid out: each creation's mark named by its instruction in the
 * model. */
void xm_threads_fix(struct xmodel *m, struct seq *const *vs, const struct tree *trees,
		    const struct xthreads *th);

void xm_threads_release(struct xthreads *th);

#endif
