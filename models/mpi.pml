/* mpiverify's model: a fixed Promela interpreter of MPI semantics over a recorded trace.
 *
 * The trace is data (model.dat in the working directory, written by the translator), the
 * semantics is models/engine.c (included below), and this file is the part SPIN explores:
 * the engine's state lives in SPIN's state vector, and at every quiescent state SPIN branches
 * over the engine's choices (which message each MPI_ANY_SOURCE receive takes). A state with no
 * choice where some rank has not reached its end is an invalid end state: a deadlock. See
 * models/README.md for the encoding and doc/semantics.md for the MPI rules it implements.
 *
 * pan.c is compiled with -include <this directory>/engine.h and linked with engine.c (an
 * #include here would be expanded by spin's own preprocessing, system headers and all), with
 * -DMPIV_STATE_WORDS=<room for the engine state, in int32 words>; the rest of pan's build
 * settings are below, so that every build of pan has them: `make` builds pan once for each of
 * a few state sizes, and check builds its own only for a state larger than all of them. */

c_decl {
/* pan's build settings: \# passes a directive through spin's preprocessing to pan.c, where
 * c_decl comes before pan's own #ifdefs. SAFETY: no cycle checks; NOREDUCE: one process,
 * nothing for partial-order reduction to do (the engine's closure is the reduction);
 * AUTO_RESIZE: the hash table starts small (-w) and grows with the search, so that a small
 * search does not pay for a large table; not with BITSTATE (check --swarm: a bit array of a
 * fixed size, no table to grow). */
\#define SAFETY
\#define NOREDUCE
\#ifndef BITSTATE
\#define AUTO_RESIZE
\#endif
\#define VECTORSZ (MPIV_STATE_WORDS * 4 + 256)
/* pan stops cleanly at this many megabytes and says so ("reached -DMEMLIM bound"): the search
 * is then inconclusive. Set at run time by --memory-limit=MB, pan's first argument (main
 * below); unbounded without it. */
static int mpiv_memory_mb = INT_MAX;
\#define MEMLIM mpiv_memory_mb

/* The program is read once, before the search starts; it is not part of the state. */
static struct eng_prog mpiv_prog;

__attribute__((constructor)) static void mpiv_load(void)
{
	char msg[256];
	FILE *f = fopen("model.dat", "r");

	if (!f) {
		fprintf(stderr, "mpiverify model: cannot open model.dat\n");
		exit(3);
	}
	if (eng_prog_read(&mpiv_prog, f, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "mpiverify model: %s\n", msg);
		exit(3);
	}
	fclose(f);
	/* a pan with room for more words serves too: the words past the program's stay 0, so
	 * equal engine states are still equal state vectors */
	if (mpiv_prog.words > MPIV_STATE_WORDS) {
		fprintf(stderr, "mpiverify model: model.dat needs %d state words, pan has room "
			"for %d\n", mpiv_prog.words, MPIV_STATE_WORDS);
		exit(3);
	}
}

/* pan's own main, renamed (the #define below reaches its definition, later in pan.c): this
 * one takes the model's run-time option off the command line first. */
int mpiv_pan_main(int argc, char *argv[]);

int main(int argc, char *argv[])
{
	if (argc > 1 && !strncmp(argv[1], "--memory-limit=", 15)) {
		mpiv_memory_mb = atoi(argv[1] + 15);
		argv[1] = argv[0];
		return mpiv_pan_main(argc - 1, argv + 1);
	}
	return mpiv_pan_main(argc, argv);
}
\#define main mpiv_pan_main
}

c_state "int32_t st[MPIV_STATE_WORDS]" "Global"

/* Take choice K in one indivisible step: a d_step leaves no intermediate state, so a state
 * with n choices has exactly n successors. The trail replay (pan -r) prints each choice taken. */
#define TAKE(K) \
	:: d_step { c_expr { now.st[ENG_ST_NCHOICES] > K } -> \
		c_code { Printf("MPIV-CHOICE %d\n", K); eng_choose(&mpiv_prog, now.st, K); } }

active proctype mpi()
{
	int k;		/* a choice beyond the direct ones; back to 0 after use so it never
			 * splits states */

	c_code { eng_start(&mpiv_prog, now.st); };
	do
	TAKE(0) TAKE(1) TAKE(2) TAKE(3) TAKE(4) TAKE(5) TAKE(6) TAKE(7)
	TAKE(8) TAKE(9) TAKE(10) TAKE(11) TAKE(12) TAKE(13) TAKE(14) TAKE(15)
	:: c_expr { now.st[ENG_ST_NCHOICES] > 16 } ->
		/* more choices than the direct ones: reach choice k >= 16 in steps */
		k = 16;
		do
		:: c_expr { Pmpi->k + 1 < now.st[ENG_ST_NCHOICES] } -> k++
		:: break
		od;
		c_code {
			Printf("MPIV-CHOICE %d\n", Pmpi->k);
			eng_choose(&mpiv_prog, now.st, Pmpi->k);
			Pmpi->k = 0;
		}
	:: c_expr { now.st[ENG_ST_NCHOICES] == 0 } -> break
	od;
	/* more messages in flight than the state has room for: the search would be wrong */
	assert(c_expr { now.st[ENG_ST_OVERFLOW] == 0 });
	/* blocks, and so is an invalid end state, unless no rank is deadlocked */
	c_expr { now.st[ENG_ST_DONE] != 0 }
}
