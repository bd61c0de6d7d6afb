/* The MPI-semantics engine that SPIN drives: the model's transition relation, in C.
 *
 * models/mpi.pml is a fixed Promela interpreter: it includes this engine through c_code, keeps
 * the engine's state in its state vector (c_state), and branches over the engine's choices,
 * so that SPIN explores every behaviour and stores every state. The trace is data (model.dat,
 * written by the translator), so neither the Promela nor the C that SPIN generates grows with
 * the trace.
 *
 * Between choices the engine runs every deterministic step to quiescence in one transition.
 * Deterministic steps (posting, matching a receive that names its source, completing waits
 * and collectives) are monotone and commute, so one canonical order reaches the same
 * quiescent state as any other (the confluence argument behind POE, Vakkalanka et al., and
 * Siegel's "urgent" search, VMCAI 2005; models/README.md, "Why this shape"). The only
 * choices are which message a MPI_ANY_SOURCE receive takes, offered at quiescence when every
 * candidate is there: delaying a wildcard never removes a candidate, because only its own rank
 * consumes the messages sent to it and every channel stays in FIFO order; and which rank takes
 * a contended window lock first (acquiring one disables the others, so it cannot be a
 * deterministic step; a free lock stays free until some rank is chosen to take it).
 *
 * Matching follows MPI's two ordering rules (doc/semantics.md 2.2; MPI-4.1 section 3.5,
 * "Order"): a receive takes the first message of
 * a sender that matches it (non-overtaking of messages), and a message goes to the earliest
 * posted open receive that matches it (non-overtaking of receives). A send that is not
 * buffered completes when a matching receive is posted and matched, even while the receiving
 * rank is blocked elsewhere (doc/semantics.md 3.3; MPI-4.1 section 3.5, "Progress").
 *
 * The file is plain C99 with no dependency but libc, so that pan.c can include it. */
#ifndef MPIV_ENGINE_H
#define MPIV_ENGINE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENG_FORMAT "mpiverify-model"
#define ENG_VERSION 6

#define ENG_ANY (-1)	   /* MPI_ANY_SOURCE or MPI_ANY_TAG in an instruction */
#define ENG_PROC_NULL (-2) /* MPI_PROC_NULL peer: completes at once */

/* An instruction of a process's program. A blocking MPI call becomes a post and a wait. A
 * process is one thread of a rank that calls MPI (one per rank without threads): each runs
 * its own instructions, and the processes of a rank share its messages and its posted
 * receives (doc/semantics.md 1.3). Peers, roots and members are world ranks. */
enum eng_opcode {
	ENG_POST_SEND = 1, /* a = dest, b = comm, c = tag, d = enum eng_send_mode, bytes */
	/* a = source or ENG_ANY, b = comm, c = tag or ENG_ANY; d =
	 * ENG_RECV_LAZY when it may match a ready send (eng_layout());
	 * verify: with sym ENG_IN_SOURCE, its source is the one in
	 * register rreg - 1 when it is posted (a receive from the rank
	 * just heard from) */
	ENG_POST_RECV = 2,
	/* wait until every request in list[0..n) completes, then free them;
	 * with sym ENG_WAIT_LIVE (verify), every live request posted by
	 * one of the listed instructions (in ascending order) */
	ENG_WAIT = 3,
	/* a = comm, b = enum eng_coll_rule, c = this rank's sequence number
	 * on comm (1, 2, ...), d = root (world rank) for ENG_COLL_ROOT
	 * (ENG_PROC_NULL: a member of an intercommunicator's root group
	 * other than the root); list[0..n) = the members waited for under
	 * ENG_COLL_LIST (world ranks), none otherwise */
	ENG_COLL = 4,
	ENG_END = 5, /* the process is done (MPI_Finalize returned) */
	/* nonblocking collective: operands as ENG_COLL; enters it now and
	 * posts a request that completes when the rule is met */
	ENG_ICOLL = 6,
	/* MPI_Waitany and kin: list[0..d) are the requests the trace says
	 * completed, list[d..n) the others passed; waits for the first d,
	 * frees them. Stuck while one of the others is complete, the program
	 * would have taken another path than the trace. verify: with a
	 * register (reg), which complete request it returns is a choice,
	 * an input; with sym ENG_WAIT_LIVE, of the live requests posted by
	 * the listed instructions (without a register: the first complete
	 * one, the outcome being one the process does not act on) */
	ENG_WAITANY = 7,
	/* a = source or ENG_ANY, b = comm, c = tag or ENG_ANY: wait until a
	 * message a receive with these arguments would match is there */
	ENG_PROBE = 8,
	/* the trace ends here but the process did not finish (it crashed,
	 * aborted, exited without MPI_Finalize, was killed or was still
	 * running when the job ended): it never moves again, and whoever
	 * waits for it is not deadlocked (it might have gone on) */
	ENG_STOP = 9,
	/* wait until at least one request of list[0..n) completes (a
	 * polling loop that was still polling when the job ended) */
	ENG_WAIT_SOME = 10,
	ENG_BUF_ATTACH = 11, /* MPI_Buffer_attach: bytes = the buffer's size */
	/* MPI_Buffer_detach: waits until no message the rank sent with a
	 * buffered send occupies the buffer, then detaches it */
	ENG_BUF_DETACH = 12,
	/* verify: where the process's behaviour may depend on an input
	 * (in register a, from 0; -1: none), sym = the parts compared
	 * (ENG_IN_*); list holds the ways on, ENG_BRANCH_WORDS words
	 * each: (target instruction, source, tag, site, request), the
	 * input some run took here and where the process went on. Goes
	 * to the target of the way whose input equals the register's in
	 * the parts compared (a choice when several do); stuck for good
	 * when none does: a frontier (doc/verify.md) */
	ENG_BRANCH = 13,
	/* MPI_Cancel of the request posted at instruction a (an
	 * ENG_POST_SEND or ENG_POST_RECV of the same process, before it).
	 * A send whose message is still in flight: a choice between
	 * success (its message is withdrawn, the request completes) and
	 * failure (the send goes on as it would have); a receive: stays
	 * open, and until it is matched its cancellation may succeed at
	 * any time (a choice), which completes it without a message
	 * (doc/semantics.md 4.7) */
	ENG_CANCEL = 14,
	/* One-sided synchronisation (doc/semantics.md 7, MPI-4.1 section 13.7.3). A window is an
	 * engine communicator of its own (its group); creation, free and fence are ENG_COLL. */
	ENG_WIN_POST = 16, /* a = window: opens an exposure epoch; never blocks */
	/* a = window; list[0..n) pairs (target process, the instruction of
	 * its matching MPI_Win_post, -1 if it never posts): waits until
	 * every target has executed it (the blocking variant MPI allows) */
	ENG_WIN_START = 17,
	ENG_WIN_COMPLETE = 18, /* as ENG_WIN_START: may wait for the targets' posts */
	/* a = window; list pairs (origin process, the instruction of its
	 * matching MPI_Win_complete, -1 if none): waits until every origin
	 * did it */
	ENG_WIN_WAIT = 19,
	/* a = window, b = target world rank or ENG_ANY (lock_all: every
	 * member), c = 1 exclusive, 0 shared, d = 1 if another rank locks
	 * the same target in a conflicting way somewhere in its trace: then
	 * who gets the lock first is a choice. Waits while a conflicting
	 * lock is held (prog->locks says who holds what) */
	ENG_WIN_LOCK = 20,
	ENG_WIN_UNLOCK = 21, /* a = window, b = target or ENG_ANY: releases; never blocks */
	/* Generalized requests (doc/semantics.md 4.8, MPI-4.1 section 13.2): no message, no
	 * other rank; the program itself says when one is complete. */
	/* MPI_Grequest_start: a request that only its ENG_GREQ_DONE
	 * completes */
	ENG_GREQ = 22,
	/* MPI_Grequest_complete of the request posted at instruction a
	 * (an ENG_GREQ of the same process, before it); never blocks */
	ENG_GREQ_DONE = 23,
	/* The order pthread_create and pthread_join put between the threads of a rank (doc/
	 * semantics.md 1.3): a thread starts after its creator's calls before the create, and a
	 * join returns after the joined thread's last call. */
	/* where a thread created another, or before a thread's end
	 * that another joins: never blocks */
	ENG_THREAD_MARK = 24,
	/* list[0..n) pairs (process of the same rank, the instruction
	 * of its ENG_THREAD_MARK, or ENG_MARK_END): waits until each has
	 * executed it (a thread's start, a return from pthread_join) */
	ENG_THREAD_AFTER = 25,
};

/* In an ENG_THREAD_AFTER pair, the mark before the process's end: the pair holds once the
 * process is at an ENG_END. verify's model of several runs has one such mark per way a thread
 * can end (explore/model_threads.c), and a join waits for whichever it passed. */
#define ENG_MARK_END (-2)

/* Is op one of the one-sided synchronisation instructions (their operand a is a window)? */
#define ENG_WIN_OP(op) ((op) >= ENG_WIN_POST && (op) <= ENG_WIN_UNLOCK)

/* Whom a rank in a collective waits for before it may leave it, with buffering: only for the
 * data it needs. Without buffering, or where collectives synchronise (eng_prog.sync_colls),
 * every collective synchronises (ENG_COLL_ALL), as MPI lets each do and a portable program
 * must allow. */
enum eng_coll_rule {
	ENG_COLL_ALL = 0,   /* every member (barrier, all-to-all kinds, a root gathering) */
	ENG_COLL_ROOT = 1,  /* the root (non-roots of Bcast and Scatter) */
	ENG_COLL_NONE = 2,  /* nobody (a root broadcasting, non-roots of Reduce and Gather) */
	ENG_COLL_LOWER = 3, /* the members of lower rank in the communicator (Scan, Exscan) */
	/* the members called different collectives or roots here:
	 * erroneous, and it never completes */
	ENG_COLL_MISMATCH = 4,
	/* the members in the instruction's list: an intercommunicator's
	 * collectives, the other group (doc/semantics.md 6.3); a
	 * neighbourhood collective, the in-neighbours (5.4; MPI-4.1
	 * chapter 8). An empty list waits for nobody */
	ENG_COLL_LIST = 5,
};

enum eng_send_mode {
	ENG_SEND_STANDARD = 0, /* buffered or not, as the buffering mode says */
	ENG_SEND_SYNC = 1,     /* completes when matched */
	/* completes at once; its message occupies the rank's attached
	 * buffer (bytes + prog->bsend_overhead) until it is matched, or
	 * at once when the eager mode transmits it; one that does not fit
	 * is erroneous */
	ENG_SEND_BUFFERED = 2,
	/* as a standard send, but erroneous when started while no
	 * matching receive is posted (MPI_Rsend, MPI-4.1 3.4) */
	ENG_SEND_READY = 3,
};

/* A receive that may match a ready send is posted, and matched, as a choice, not as a
 * deterministic step, and the ready send starts as one: so that the search meets every order
 * of receive posts, their matches and ready sends, and with it a ready send started before
 * its receive is posted, or after it took another message, if the program allows one. */
#define ENG_RECV_LAZY 1

enum eng_buffering {
	ENG_BUF_ZERO = 0,     /* no standard send completes before it is matched */
	ENG_BUF_INFINITE = 1, /* every standard send completes at once */
	ENG_BUF_EAGER = 2,    /* standard sends up to `eager` bytes complete at once */
};

/* The parts of an input a branch compares, and of a send or receive that follow an input. An
 * input is ENG_REG_WORDS words in a register: source, tag, site, request. */
/* the source a receive took; an any-completion: the peer of
 * the request it returned (the source its receive took, or its
 * send's destination) */
#define ENG_IN_SOURCE 1
#define ENG_IN_TAG 2 /* the tag of the message it took */
/* what the message carried: the call site of its send and a
 * digest of its data (the send's site, tr_site_key()) */
#define ENG_IN_SITE 8
/* an any-completion: which request it returned (the
 * instruction that posted it) */
#define ENG_IN_REQ 16
/* the register's last reader: cleared once read, so that
 * states that differ only in a spent input are one */
#define ENG_IN_LAST 4
#define ENG_IN_PARTS (ENG_IN_SOURCE | ENG_IN_TAG | ENG_IN_SITE | ENG_IN_REQ)
#define ENG_REG_WORDS 4	   /* words of an input register */
#define ENG_BRANCH_WORDS 5 /* words of a branch's way on (ENG_BRANCH) */

/* ENG_WAIT, ENG_WAITANY (verify): the list names posts, and the wait is for the live
 * requests they posted: which those are depends on the path (a request reposted for the
 * sender an any-completion returned) */
#define ENG_WAIT_LIVE 1

/* ENG_WAIT with ENG_WAIT_LIVE (verify): of the live requests its posts made, only those whose
 * peer is the source in register reg - 1, none at all being a wait that returns at once. A
 * program that keeps a request per peer (its last reply to each worker) waits for that peer's
 * when it hears from the peer again, and on MPI_REQUEST_NULL the first time: one call, whose
 * request follows the input as a reply's destination does (explore/model.c) */
#define ENG_WAIT_FOLLOW 2

/* verify: ENG_WAIT, ENG_WAITANY, ENG_PROBE, ENG_POST_RECV: the call stands for a poll that
 * succeeded (MPI_Test*, MPI_Iprobe, the receive of what a wildcard MPI_Iprobe found): a
 * program that polls goes on in whichever of its polls succeeds first, so at a branch's
 * choice a way that begins with it is taken only once it can complete at once; a process
 * whose ways are all such and none can is blocked there, as in all of its polls (a deadlock
 * with it is confirmed by a run that polls in vain, refuted by one that passes) */
#define ENG_POLLED 64

/* The most bytes a message, a buffer or an overhead may have: far beyond any real one, and
 * small enough that the sums of a rank's buffered messages cannot overflow. */
#define ENG_MAX_BYTES (1LL << 48)

/* Does opcode op have a list (list[0..n))? Only these use n and list; the others use the
 * fields that share their storage (struct eng_instr). */
#define ENG_LISTED(op)                                                                           \
	((op) == ENG_WAIT || (op) == ENG_WAITANY || (op) == ENG_WAIT_SOME || (op) == ENG_COLL || \
	 (op) == ENG_ICOLL || (op) == ENG_BRANCH || (op) == ENG_THREAD_AFTER ||                  \
	 ((op) >= ENG_WIN_POST && (op) <= ENG_WIN_WAIT))

/* 40 bytes, since a program has two of them per blocking call and traces have millions of
 * calls (doc/performance.md). Fields no opcode uses together share storage: an
 * instruction with a list (ENG_LISTED) has no message size, site or cancel, only a send has
 * a site and only a receive a cancel, and a collective has a call instead of sym. Code that
 * walks every instruction reads a shared field only where ENG_LISTED or the opcode says it is
 * there; model.dat writes each in its own column. */
struct eng_instr {
	union {
		/* message size, for the eager threshold (at most ENG_MAX_BYTES): posts,
		 * ENG_BUF_ATTACH */
		int64_t bytes;
		/* ENG_LISTED: ENG_WAIT and kin, the instruction indices of the posts it
		 * waits for; see enum eng_opcode for the others */
		int32_t *list;
	};
	int16_t op; /* enum eng_opcode */
	union {
		/* ENG_POST_SEND, ENG_POST_RECV: ENG_IN_* parts of its
		 * envelope taken from a register (a destination or source
		 * that follows the source just received from); ENG_BRANCH:
		 * the parts compared; ENG_WAIT, ENG_WAITANY: ENG_WAIT_LIVE */
		int16_t sym;
		/* ENG_COLL, ENG_ICOLL: the call (members whose k-th
		 * collectives on a communicator differ in call or root never
		 * complete it) */
		int16_t call;
	};
	int32_t ev;	    /* index of the trace event it comes from */
	int32_t a, b, c, d; /* operands, see enum eng_opcode */
	/* verify: 1 + the input register a receive, probe or
	 * any-completion writes, a send with sym reads; 0: none */
	int32_t reg;
	union {
		int32_t n; /* ENG_LISTED: number of list entries */
		/* verify: ENG_POST_SEND: what its message carries: its
		 * call site and a digest of its data (ENG_IN_SITE), 0 if
		 * unknown */
		int32_t site;
		/* ENG_POST_RECV: the instruction of the ENG_CANCEL that
		 * cancels it, 0 if none (eng_layout(); not in model.dat) */
		int32_t cancel;
		/* verify: ENG_POST_RECV with sym: 1 + the register its
		 * source is taken from (verify has no cancels) */
		int32_t rreg;
	};
};
_Static_assert(sizeof(struct eng_instr) == 40, "padding in struct eng_instr");

struct eng_comm {
	int32_t n; /* number of members */
	/* world ranks, by rank in the communicator (MPI_COMM_WORLD:
	 * ascending) */
	int32_t *members;
};

/* A passive-target lock of the trace: process proc holds a lock on target of window comm
 * while its pc is past the lock instruction and not past the unlock instruction. Holding is
 * read off the program counters, so locks need no state words. */
struct eng_lock {
	int32_t proc;	   /* who locks */
	int32_t comm;	   /* the window (an engine communicator) */
	int32_t target;	   /* world rank locked */
	int32_t lock;	   /* instruction of the ENG_WIN_LOCK */
	int32_t unlock;	   /* instruction of its ENG_WIN_UNLOCK; INT32_MAX if none */
	int32_t exclusive; /* 1 exclusive, 0 shared */
};

/* Called for every step the engine takes, when an observer is set (the cex builder). */
struct eng_observer {
	void *ctx;
	/* process d's receive (instruction ri, rin) took the message of process s's send si */
	void (*match)(void *ctx, int d, int ri, const struct eng_instr *rin, int s, int si,
		      const struct eng_instr *sin);
	/* process r executed instruction i, in (a post, or a wait or collective that completed,
	 * or a branch, after which r may be in another variant) */
	void (*exec)(void *ctx, int r, int i, const struct eng_instr *in);
	/* verify: process r's instruction i (a receive, probe or any-completion with a
	 * register) took input v (ENG_REG_WORDS words: source, tag, site, request; ENG_IN_*).
	 * May be NULL. */
	void (*input)(void *ctx, int r, int i, const struct eng_instr *in, const int32_t *v);
	/* process r's request posted at instruction i was cancelled: its message, or its
	 * receive, withdrawn. May be NULL. */
	void (*cancelled)(void *ctx, int r, int i);
	/* verify: process r's any-completion at instruction i returned, of live requests its
	 * list names: whether the program made a choice there (the recorder counts a decision
	 * where two or more are live). May be NULL. */
	void (*returned)(void *ctx, int r, int i, int live);
};

/* Rank d's MPI_ANY_SOURCE receives on comm with tag (or ENG_ANY): the static tables of the
 * reductions in engine.c for one envelope (eng_layout() builds them for the program's
 * buffering mode; not part of the state). Only for programs with one process per rank. */
struct eng_wenv {
	int32_t d, comm, tag;
	/* per instruction i of d: the blocking receives with this
	 * envelope (post, then a wait for it alone) d makes from i on
	 * before it can block on anything else (it passes only sends the
	 * mode completes at once, and waits for them, between them) */
	int32_t *run;
	/* per rank s: the instructions of s that post a send such a
	 * receive would match, ascending (NULL: none) */
	int32_t **sends;
	int32_t *nsends; /* per rank s: how many */
	/* per rank s: where the last count of its sends found the
	 * first at or after a pc (a hint only: engine.c, wenv_future) */
	int32_t *hint;
};

/* What makes a state erroneous rather than deadlocked (ENG_ST_ERROR says who). */
enum eng_error {
	ENG_ERR_NONE = 0,
	ENG_ERR_READY = 1, /* a ready send started with no matching receive posted */
	ENG_ERR_BSEND = 2, /* a buffered send that does not fit the attached buffer */
};

/* Blocks of wait lists (eng_list_alloc(), engine.c). */
struct eng_lists;

/* A process-indexed program plus the layout of the state that the engine works on. */
struct eng_prog {
	int32_t nranks; /* world ranks */
	int32_t nprocs; /* processes: one per (rank, thread) that calls MPI */
	/* per process: its world rank (processes of a rank are
	 * contiguous, in the order of their threads) */
	int32_t *proc_rank;
	int32_t *proc_thread; /* per process: the recorder's thread number (0: main) */
	/* per rank, then one more: rank r's processes are
	 * rank_proc[r] .. rank_proc[r + 1] - 1 (eng_layout()) */
	int32_t *rank_proc;
	int32_t ncomms;
	struct eng_comm *comms; /* by communicator id */
	/* per process: number of instructions (the last is ENG_END or
	 * ENG_STOP, or, verify, an ENG_BRANCH) */
	int32_t *nins;
	struct eng_instr **ins; /* per process: its instructions */
	/* 1: a program of verify's (doc/verify.md): receives, probes and
	 * any-completions take inputs into registers, branches (ENG_BRANCH)
	 * go on where the runs showed, sends and receives may follow an
	 * input; each process's instructions are a graph the branches
	 * join, not a straight line */
	int32_t verify;
	/* input registers per process (ENG_REG_WORDS words each) */
	int32_t nregs;
	int32_t buffering; /* enum eng_buffering */
	int64_t eager;	   /* threshold in bytes for ENG_BUF_EAGER */
	/* 1: every collective synchronises, whatever the buffering
	 * (ENG_BUF_ZERO makes them do so anyway); 0: with buffering a
	 * member waits only for the data it needs (its ENG_COLL_ rule) */
	int32_t sync_colls;
	/* bytes a buffered message takes in the attached buffer
	 * besides its data (the library's MPI_BSEND_OVERHEAD) */
	int64_t bsend_overhead;
	int32_t maxlive; /* most requests any process has posted and not yet waited for */
	int32_t maxmsg;	 /* room for messages in flight; more is reported as overflow */
	int32_t nlocks;	 /* passive-target locks in the trace */
	/* 1: its last communicator is the translator's for partitioned requests, whose tags
	 * name pairs of one run (explore/ does not merge such runs) */
	int32_t partitioned;
	struct eng_lock *locks; /* every one of them, by process, then instruction */
	/* state layout, in int32 words (eng_layout() fills these) */
	int32_t off_pc, off_coll, off_nlive, off_live, off_lsrc, off_buf, off_reg, off_msg, words;
	/* words of attached buffer sizes: nranks if the program
	 * attaches a buffer, else 0 (eng_layout) */
	int32_t nbuf;
	/* 1: offer every choice, without the reductions (the tests'
	 * reference search, check --full-search) */
	int32_t full;
	/* 0: a state's ENG_ST_NCHOICES counts every choice (SPIN's search, which offers each);
	 * else at most this many, for check's own walks, which ask only whether there is a
	 * choice (1) or more than one (2) and need not walk every rank's candidates to know */
	int32_t count;
	/* check's own walks, each step of which takes a choice on the state the last left: what
	 * the closure keeps between steps (eng_sweep_new()); NULL: each closure sweeps every
	 * process (SPIN's search, which goes back to earlier states) */
	struct eng_sweep *sweep;
	/* the state a search starts from (eng_state_bytes(), after
	 * eng_layout): where check's own pass handed the search over;
	 * NULL: the start of every process's program */
	int32_t *start;
	int32_t nready;	    /* ready sends in the program (eng_layout) */
	int32_t ncoll;	    /* blocking collectives in it (eng_layout) */
	int32_t nwinops;    /* one-sided synchronisation instructions in it (eng_layout) */
	int32_t nicoll;	    /* nonblocking collectives in it (eng_layout) */
	int32_t nwild;	    /* MPI_ANY_SOURCE receives in it (eng_layout) */
	int32_t ncontended; /* contended window locks in it (eng_layout) */
	int32_t threaded;   /* some rank has more than one process (eng_layout) */
	/* threaded (not verify): per process, per instruction, 1 for a receive whose match
	 * is no choice: no other thread of its rank receives or probes what it may take, and
	 * one thread of its source rank sends it (eng_layout) */
	uint8_t **uncontended;
	int32_t ncancel; /* ENG_CANCEL instructions in the program (eng_layout) */
	/* the reductions' tables (eng_layout), by envelope, rank by
	 * rank */
	int32_t nwenv;
	struct eng_wenv *wenv;
	/* per rank d, then one more: d's envelopes are
	 * wenv[wenv_first[d] .. wenv_first[d + 1]) */
	int32_t *wenv_first;
	int32_t red_buffering;	/* the buffering mode and threshold the tables were built */
	int64_t red_eager;	/* for: in another, the search offers every choice */
	int32_t red_persistent; /* the persistent-set reduction applies (engine.c) */
	/* some envelopes got no tables (limits, memory): what the
	 * reductions do depends on the whole program */
	int32_t red_partial;
	struct eng_observer *obs; /* NULL inside SPIN */
	/* verify: per process, per instruction, the nearest collective
	 * before it on the paths that reach it, -1 if none
	 * (eng_layout()) */
	int32_t **prevcoll;
	/* the blocks eng_list_alloc() gave lists from (NULL:
	 * every list is an allocation of its own) */
	struct eng_lists *lists;
};

/* The first state words, which mpi.pml reads directly (SPIN refuses function calls in c_expr
 * as possible side effects, so the engine keeps what the model branches on in the state). */
#define ENG_ST_OVERFLOW 0 /* nonzero: more messages in flight than maxmsg */
#define ENG_ST_NMSG 1	  /* messages in flight */
#define ENG_ST_NCHOICES 2 /* eng_nchoices() of this state (at most eng_prog.count) */
#define ENG_ST_DONE 3	  /* eng_all_done() of this state when it has no choice, else 0 */
/* 1 + the process whose next instruction is erroneous (enum
 * eng_error says how: eng_error()); the search ends there; else 0 */
#define ENG_ST_ERROR 4
#define ENG_ST_HEADER 5

/* Compute the state layout of prog from nranks, nprocs, ncomms, maxlive and maxmsg, the rank
 * to process table, and the static tables of the wildcard reduction from its instructions
 * (again on a second call). proc_rank must be set; without it (NULL) every rank is one
 * process. */
void eng_layout(struct eng_prog *prog);

/* Set prog's buffering mode (and eager threshold) and rebuild the reductions' tables for it
 * (those built for this mode already are kept): a program searched in several modes must be
 * set so between them. */
void eng_set_buffering(struct eng_prog *prog, enum eng_buffering b, int64_t eager);

/* Room for an instruction list of n entries, given from blocks the program owns: one
 * allocation for many lists rather than one each (a blocking call's wait has a list of one,
 * and a trace millions of them). eng_prog_release() frees the blocks with the program; such a
 * list is never freed or grown alone. NULL when out of memory. */
int32_t *eng_list_alloc(struct eng_prog *prog, size_t n);

/* The bytes the blocks of prog's lists take. */
size_t eng_list_bytes(const struct eng_prog *prog);

/* Which processes the closure found stuck at the end of the last step of a walk, so that the
 * next passes over those the choice it takes leaves stuck (engine.c, closure()): for a walk
 * that takes every choice on the state the last call left, set as prog->sweep of the program
 * it walks (after eng_layout; freed with eng_sweep_free() by its caller). */
struct eng_sweep *eng_sweep_new(const struct eng_prog *prog);
void eng_sweep_free(struct eng_sweep *sweep);

/* Size of a state in bytes (after eng_layout). */
size_t eng_state_bytes(const struct eng_prog *prog);

/* Initialise st (eng_state_bytes() bytes) to the start of every process's program, or to
 * prog->start, and run every deterministic step. */
void eng_start(const struct eng_prog *prog, int32_t *st);

/* Number of choices in st (0 when st is final: every process done, or a deadlock). */
int eng_nchoices(const struct eng_prog *prog, const int32_t *st);

/* Take choice k (0 <= k < eng_nchoices()), then run every deterministic step. */
void eng_choose(const struct eng_prog *prog, int32_t *st, int k);

/* Which choice eng_choose_first() takes: the first that accept() takes, given as eng_choice()
 * describes it (accept() sees st unchanged). sender, if not NULL, is asked first whether
 * process d's receive (its instruction ri) may take a message of process s at all: a match it
 * says no to, which accept() must not take either, is passed over without being described or
 * counted, and the k eng_choose_first() returns is then no index of eng_choice(). source, if
 * not NULL (with sender), is asked once per receive before it: the one world rank whose
 * processes sender may say yes to, or -1 for any; the others are not even asked about. */
struct eng_chooser {
	int (*accept)(void *ctx, const int32_t *st, int d, int ri, int s, int si);
	int (*sender)(void *ctx, const int32_t *st, int d, int ri, int s);
	void *ctx;
	int (*source)(void *ctx, const int32_t *st, int d, int ri);
};

/* Take the first choice of st, in the order of eng_choice(), that c takes, as eng_choose()
 * takes it; returns its k, or -1 if c took none (st unchanged). One walk, up to the choice
 * taken. */
int eng_choose_first(const struct eng_prog *prog, int32_t *st, const struct eng_chooser *c);

/* Describe choice k: process d's receive instruction *ri takes process *s's send instruction
 * *si; or, with *s == -1, process d executes its instruction *ri: it posts a receive that may
 * match a ready send (ENG_RECV_LAZY) or starts a ready send, acquires a contended window
 * lock, passes a probe
 * another thread's receive could overtake, or takes a step on the attached buffer its rank's
 * threads share (attach, detach, a buffered send); or (verify) with *s == -2, process d's
 * any-completion *ri completes the request posted at its instruction *si; with *s == -3, its
 * wildcard probe *ri finds a message of world rank *si; with *s == -4, its branch *ri goes on
 * at instruction *si (one of several ways that took the same input); with *s == -5 or -6, process d's
 * ENG_CANCEL *ri of a send in flight succeeds (-5: the message is withdrawn) or fails (-6);
 * with *s == -7, the cancellation of process d's open receive posted at *ri succeeds. */
void eng_choice(const struct eng_prog *prog, const int32_t *st, int k, int *d, int *ri, int *s,
		int *si);

/* Every choice of st at once, as eng_choice() describes each (d, ri, s, si, rooms for max
 * entries): one walk where asking eng_choice() for each k walks them k times. Returns how many
 * there are (entries past max are not filled), or -1 without memory. */
int eng_choice_list(const struct eng_prog *prog, const int32_t *st, int *d, int *ri, int *s,
		    int *si, int max);

/* 1 when no process is deadlocked: every process reached its ENG_END or ENG_STOP, or left the
 * recorded path (eng_left_path), or waits for a process that stopped or left it (it may
 * still be released). */
int eng_all_done(const struct eng_prog *prog, const int32_t *st);

/* The processes that are deadlocked in st (eng_all_done() is 0): marks blocked[p] = 1 for
 * each (room for nprocs) and returns how many. */
int eng_deadlocked(const struct eng_prog *prog, const int32_t *st, char *blocked);

/* 1 if process r, stuck at its pc, would have left the recorded path there (a completion call
 * that would have returned another request than the trace's). */
int eng_left_path(const struct eng_prog *prog, const int32_t *st, int r);

/* The instruction process r is at (its pc); equals nins[r] - 1 (the ENG_END or ENG_STOP) when
 * it reached its end. */
int eng_pc(const struct eng_prog *prog, const int32_t *st, int r);

/* 1 if process r reached its last instruction (ENG_END or ENG_STOP). */
int eng_at_end(const struct eng_prog *prog, const int32_t *st, int r);

/* The erroneous instruction's process in st and how (ENG_ERR_NONE, -1 if none). */
enum eng_error eng_error(const struct eng_prog *prog, const int32_t *st, int *proc);

/* 1 if the send `in` completes without being matched in this buffering mode. */
int eng_send_buffered(const struct eng_prog *prog, const struct eng_instr *in);

/* The instruction process r is at in st. */
const struct eng_instr *eng_instr_at(const struct eng_prog *prog, const int32_t *st, int r);

/* 1 if collective `in` of rank r can never complete: another member's collective at the same
 * place on its communicator is another call or has another root (doc/semantics.md 5.1).
 * Outside verify the translator marks those (ENG_COLL_MISMATCH); in verify's graphs, which
 * collectives meet depends on the paths the members took. */
int eng_coll_mismatch(const struct eng_prog *prog, const int32_t *st, int r,
		      const struct eng_instr *in);

/* 1 if process r is stuck at a branch whose input no run took there: a frontier
 * (doc/verify.md); its register holds the input (eng_input()). */
int eng_at_frontier(const struct eng_prog *prog, const int32_t *st, int r);

/* The input in register reg of process r, into v (ENG_REG_WORDS words: ENG_IN_*). */
void eng_input(const struct eng_prog *prog, const int32_t *st, int r, int reg, int32_t *v);

/* For a process blocked at its pc, the processes it waits for: fills out[] (room for nprocs)
 * and returns how many. A wait on a wildcard receive waits for every process that is not at
 * its end. */
int eng_waits_for(const struct eng_prog *prog, const int32_t *st, int r, int *out);

/* Messages still in flight (sent, never received): returns how many. */
int eng_unreceived(const struct eng_prog *prog, const int32_t *st);

/* Message i (0 <= i < eng_unreceived()) in flight: process *src's send instruction *si to
 * world rank *dst. */
void eng_message(const struct eng_prog *prog, const int32_t *st, int i, int *src, int *si,
		 int *dst);

/* Read and write the program as text (model.dat). eng_prog_read returns 0, or -1 with a
 * message in msg (size bytes). */
int eng_prog_write(const struct eng_prog *prog, FILE *f);
int eng_prog_read(struct eng_prog *prog, FILE *f, char *msg, size_t size);

/* Free what eng_prog_read or the translator allocated. */
void eng_prog_release(struct eng_prog *prog);

#endif
