/* The standalone Promela model of a trace (tr_promela.c, doc/promela.md): check --promela, and
 * the differential test that holds it against the engine. */
#ifndef MPIV_TR_PROMELA_H
#define MPIV_TR_PROMELA_H

#include "translate.h"

/* The most engine instructions a standalone model takes: the C compiler's time and memory on
 * pan.c grow faster than the trace, about 5 s and 440 MB at 1000 (doc/promela.md, "Size"). */
#define TR_PROMELA_MAX_INSTRS 1000

struct tr_promela_input {
	const struct eng_prog *prog;	/* translated by tr_translate(), without variants */
	const struct mpiv_traceset *ts; /* its traces: the calls' descriptions and sites */
};

struct tr_promela_opts {
	enum eng_buffering buffering; /* written as #define BUFFERING */
	long long eager;	      /* written as #define EAGER_LIMIT */
	/* 0: one program, its processes active, the buffering mode a #define (what check
	 * --promela writes). 1: any number, names prefixed p0_, p1_, ...: init chooses a
	 * program and a buffering mode of `modes` and runs that program's processes, so that
	 * one pan searches them all (the differential tests). */
	int choose;
	unsigned modes; /* choose: 1 << enum eng_buffering, for each mode */
};

/* Where the model put each process and instruction, for reading pan's trails back. */
struct tr_promela_map {
	long nlines; /* lines written */
	/* per line (from 1): the program of the rank process whose
	 * instruction it belongs to, -1 if none */
	int *line_prog;
	int *line_proc, *line_instr; /* that process and instruction */
	int nprogs;
	/* per program: the processes it runs (its pids 0 .. npids-1 one
	 * program alone, 1 .. npids with choose: init is pid 0) */
	int *npids;
	/* per program, per pid: the engine process, -1 for a library
	 * process or the judge */
	int **pid_proc;
	/* per program: 1 if its deadlocks are the judge's assertion
	 * rather than invalid end states */
	int *judged;
};

/* Write the standalone Promela model of the programs in[0..n) (n is 1 unless o->choose) into
 * f, named path in its comments; fill map if not NULL (release it with
 * tr_promela_map_release()). Returns 0, or -1 with err filled: BAD_INPUT naming the rank and
 * event of a call the model cannot encode (or a trace above TR_PROMELA_MAX_INSTRS), nothing
 * written then; TOOL if f cannot be written. */
int tr_promela(FILE *f, const char *path, const struct tr_promela_input *in, int n,
	       const struct tr_promela_opts *o, struct tr_promela_map *map, struct mpiv_error *err);
void tr_promela_map_release(struct tr_promela_map *map);

#endif
