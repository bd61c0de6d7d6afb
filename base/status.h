/* The live status of one rank, shared between a preload library (recorder or replayer), which
 * writes it, and the monitor in the mpiverify process, which reads it to tell a hang from
 * progress. It is a small file per rank in a directory that every node can see (the trace or
 * replay directory), rewritten in place by a thread of the rank: nothing assumes that the ranks
 * share a host with mpiverify. */
#ifndef MPIV_STATUS_H
#define MPIV_STATUS_H

#include <stdint.h>

#define MPIV_STATUS_MAGIC 0x4d505653u /* "MPVS" */
#define MPIV_STATUS_VERSION 5
#define MPIV_STATUS_PERIOD_MS 100	  /* how often a rank rewrites its status file */
#define MPIV_STATUS_FILE "rank-%d.status" /* in $MPIVERIFY_STATUS_DIR */
#define MPIV_STATUS_STACK_SIZE 4096	  /* room for a blocked call's stack, as text */
/* stack_op of a stack taken when the rank died of a fatal signal (SIGSEGV, SIGABRT, ...) */
#define MPIV_STATUS_CRASH_OP 0xffffffffu

enum mpiv_rank_state {
	MPIV_ST_STARTING = 0,  /* before MPI_Init returned */
	MPIV_ST_RUNNING = 1,   /* outside MPI */
	MPIV_ST_IN_CALL = 2,   /* inside the MPI call `call` */
	MPIV_ST_FINALIZED = 3, /* reached MPI_Finalize: done as far as deadlock goes */
	MPIV_ST_DIVERGED = 4,  /* replay only: the program left the recorded path */
	MPIV_ST_FAILED = 5,    /* replay only: the rank cannot replay (text says why) */
};

/* What the replayer (or, steered, the recorder) noted in the status text, as bits of struct
 * mpiv_status's notes: replay and verify read these, not the English of the lines. */
enum mpiv_note_kind {
	MPIV_NOTE_UNFORCED = 1 << 0, /* the counterexample needs a choice replay cannot force */
	MPIV_NOTE_PASSED = 1 << 1,   /* a call the counterexample has blocked completed */
	/* ... a standard send replay was not asked to make
	 * synchronous: the library was free to buffer it */
	MPIV_NOTE_FREE_TO_BUFFER = 1 << 2,
	/* ... a nonblocking collective replay did not make
	 * synchronise */
	MPIV_NOTE_ICOLL_FREE = 1 << 3,
	MPIV_NOTE_FORCED = 1 << 4, /* replay forced a completion call's outcome */
	/* the members of a communicator called different
	 * collectives (or roots) at the same place: confirmed */
	MPIV_NOTE_MISMATCH = 1 << 5,
	/* recorder, verify: the rank left the steered path
	 * (a decision call other than the steering's) */
	MPIV_NOTE_STEER_LEFT = 1 << 6,
};

/* The whole file; written with one pwrite at offset 0. */
struct mpiv_status {
	uint32_t magic;	  /* MPIV_STATUS_MAGIC */
	uint32_t version; /* MPIV_STATUS_VERSION */
	int32_t rank;	  /* world rank */
	int32_t size;	  /* world size */
	int32_t pid;
	uint32_t state; /* enum mpiv_rank_state */
	uint32_t call;	/* enum mpiv_call of the current call when IN_CALL */
	uint32_t op;	/* event index of the current (or last) call */
	/* calls completed so far, failed polls left out: a change
	 * means progress */
	uint64_t progress;
	uint64_t beat; /* bumped at every rewrite: a stale beat means a dead rank */
	uint64_t site; /* call site of the current call, MPIV_SITE() */
	char host[64];
	/* DIVERGED, FAILED: what happened; otherwise notes of the
	 * replayer on what it forced (one per line), or "" */
	char text[512];
	char module[512];  /* the path of the module `site` points into, "" if unknown */
	uint32_t stack_op; /* the call (event index) the stack below was taken in */
	/* lines in stack; 0: no stack (not blocked long enough, or
	 * it could not be taken) */
	uint32_t nframes;
	/* IN_CALL for a while: the stack of the
	 * thread in the call (stack_op MPIV_STATUS_CRASH_OP: the
	 * stack of the thread a fatal signal killed, from the
	 * signal's frames outwards), from the program's call into MPI outwards,
	 * one frame a line: "PATH+0xADDR" (ADDR relative to the module's
	 * link-time addresses, as MPIV_SITE_ADDR) or "?+0xADDR" */
	char stack[MPIV_STATUS_STACK_SIZE];
	/* failed polls so far (MPI_Test* that completed nothing,
	 * MPI_Iprobe that found nothing): growing polls with standing
	 * progress mean a rank that polls without progress */
	uint64_t polls;
	uint32_t notes; /* enum mpiv_note_kind bits of the notes in text */
	/* recorder: the rank's threads in a blocking call whose event is
	 * not in the trace file yet (the recorder writes it once the
	 * call has been stuck half a second); the monitor waits for them
	 * before it ends a hung job, so that the traces say where every
	 * rank stopped */
	uint32_t unwritten;
};

#endif
