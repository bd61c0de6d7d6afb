/* The binary rank-trace format (doc/trace-format.md; MPIV_TRACE_VERSION): the one place that knows its
 * layout. The recorder encodes with it from inside the user's program, the reader in trace.c
 * decodes with it. No I/O and no allocation here, so the preload library can use it freely. */
#ifndef MPIV_TRACEFMT_H
#define MPIV_TRACEFMT_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "reduction.h"

#define MPIV_TRACE_VERSION 11
/* The oldest version still read: version 5 is version 4 with reduction records added,
 * version 6 version 5 with times, version 7 version 6 with the in-neighbours of
 * neighbourhood collectives, version 8 version 7 with data digests, and version 9 version 8
 * with thread records, so versions 4 and 5 read as files without times, a file before
 * version 7 is refused only where it has a neighbourhood collective, one before version 8
 * reads as one without digests, and one before version 9 as one that says nothing of its
 * threads' order. */
#define MPIV_TRACE_VERSION_OLDEST 4
/* The first version with reduction records. */
#define MPIV_TRACE_VERSION_REDUCE 5
/* The first version whose header says whether events carry times. */
#define MPIV_TRACE_VERSION_TIME 6
/* The first version whose neighbourhood collectives carry the caller's in-neighbours (the
 * event's group): before it they were recorded without, as calls check refused. */
#define MPIV_TRACE_VERSION_NEIGHBOR 7
/* The first version with data digests: the event fields data and rdata, and a request's
 * digest (struct mpiv_reqinfo's data), which changes how a request is encoded. */
#define MPIV_TRACE_VERSION_DATA 8
/* The first version with thread records (pthread_create, pthread_join). */
#define MPIV_TRACE_VERSION_THREADS 9
/* The first version with restart records (record --last: a window of the run's last calls). */
#define MPIV_TRACE_VERSION_WINDOW 10
/* The first version with live records (a window's requests made before it). */
#define MPIV_TRACE_VERSION_LIVE 11
#define MPIV_TRACE_MAGIC "MPIVTRC" /* 8 bytes with its NUL: the first bytes of a file */
#define MPIV_TRACE_MAGIC_LEN 8

/* Distinct call sites a writer remembers; past that, a site seen again is written again (the
 * file stays correct, only longer). A power of two. */
#define MPIV_TF_SITE_SLOTS 4096

/* Longest encodings, for sizing buffers: the header, a module record (path of n bytes) and
 * an event record with n requests and group members, the site record it may bring along
 * included. */
#define MPIV_TF_HEADER_MAX (MPIV_TRACE_MAGIC_LEN + 11 * 10 + 64 + 128)
#define MPIV_TF_MODULE_MAX(n) (3 * 10 + (size_t)(n))
#define MPIV_TF_EVENT_MAX(n) (3 * 10 + 20 * 10 + MPIV_TF_TIMES_MAX + (size_t)(n)*20)
#define MPIV_TF_TIMES_MAX (2 * 10) /* an event's times */
#define MPIV_TF_END_MAX 1
#define MPIV_TF_STOP_MAX (1 + 10 + 5)		    /* how the rank ended, and its code */
#define MPIV_TF_THREAD_MAX (1 + 1 + 5 + 5)	    /* a thread record */
#define MPIV_TF_COMM_MAX(n) (4 * 5 + (size_t)(n)*5) /* a comm record of n members */
#define MPIV_TF_REPEAT_MAX 21
#define MPIV_TF_RESTART_MAX (1 + 5 + 5 + 10) /* a restart record */
#define MPIV_TF_LIVE_MAX (1 + 5 + 3 + 4 * 5) /* a live record */
/* a reduction record: its numbers, then its text fields, each a length and the bytes */
#define MPIV_TF_REDUCE_MAX (13 * 10 + 6 * (2 + MPIV_RED_TEXT))

/* What the header of a file holds. */
struct mpiv_tf_header {
	uint32_t version; /* MPIV_TRACE_VERSION when written; what the file says when read */
	int32_t rank;	  /* rank in MPI_COMM_WORLD */
	int32_t size;	  /* size of MPI_COMM_WORLD */
	int32_t pid;
	int32_t thread_level; /* granted by MPI_Init_thread, MPI_THREAD_SINGLE for MPI_Init */
	char host[64];	      /* NUL-terminated, cut if longer */
	char library[128];    /* MPI_Get_library_version's first line, cut */
	/* the library's MPI_BSEND_OVERHEAD: bytes a buffered message
	 * takes in the attached buffer besides its data */
	int64_t bsend_overhead;
	uint32_t clock; /* enum mpiv_clock: the events' times (version 6) */
	/* with a clock: its time when the file was opened, from which
	 * the first time is counted */
	uint64_t origin;
	/* with a clock: CLOCK_REALTIME (nanoseconds since the epoch)
	 * at that moment, to put the times of ranks on several hosts on
	 * one time line */
	uint64_t realtime;
};

/* The times of a file with a clock: each is written as its difference from the last one. */
struct mpiv_tf_clock {
	/* the header has a clock: every event record ends with its
	 * times, every repeat record with the run's last one */
	int on;
	/* the time written last: the header's origin, then each
	 * record's latest (an event's leave, or its enter if it had not
	 * returned; a run's last leave) */
	uint64_t last;
};

/* A site the writer has written a site record for. */
struct mpiv_tf_site {
	uint64_t site;	/* MPIV_SITE(); 0 marks a free slot (site 0 is never written) */
	uint32_t index; /* its place in the file's site table */
};

/* Event records remembered, one per slot, by site (a power of two). A call made in a loop
 * mostly writes the same bytes every time: the record of the last event of a site is kept
 * with the fields it was made from, and an event whose fields are all the same is written
 * by copying it, which costs a fraction of encoding it (the recorder does it at every call).
 * A record's times (a file with a clock) follow the copy. */
#define MPIV_TF_MEMO_SLOTS 256
#define MPIV_TF_MEMO_REQS 2 /* events with more requests are not remembered */
#define MPIV_TF_MEMO_LEN 32 /* nor those whose record is longer */

/* The last event record written for a site, and what it was made of. */
struct mpiv_tf_memo {
	unsigned char key[MPIV_EVENT_KEY_SIZE]; /* the event's fields from call to bytes */
	uint64_t site;				/* its site; 0: the slot is empty */
	/* its requests: each as the difference from the request id
	 * before, with what it reports */
	uint8_t nreqs;
	uint8_t len; /* the record's length, times left out */
	int32_t req_delta[MPIV_TF_MEMO_REQS], req_src[MPIV_TF_MEMO_REQS],
		req_tag[MPIV_TF_MEMO_REQS];
	uint32_t req_data[MPIV_TF_MEMO_REQS];
	unsigned char rec[MPIV_TF_MEMO_LEN]; /* the record */
};

/* Encoding state of one file: what later records refer to. Zero it before the header, then
 * set version and clock as the header says (mpiv_tf_writer_start()). */
struct mpiv_tf_writer {
	/* the file's version, 0 for MPIV_TRACE_VERSION; one before
	 * MPIV_TRACE_VERSION_DATA (tests only) leaves the digests out */
	uint32_t version;
	uint32_t nevents;	    /* events written: the index of the next new one */
	uint32_t nsites;	    /* site records written */
	int32_t last_req;	    /* the last request id written: ids are coded as differences */
	struct mpiv_tf_clock clock; /* the file's times */
	/* the event record written last, if an event with the same
	 * fields (requests at the same distances from the ids before,
	 * nothing rare) would have the very same record: its length, its
	 * times left out (at most MPIV_TF_MEMO_LEN); else 0 */
	uint32_t copy_len;
	struct mpiv_tf_site sites[MPIV_TF_SITE_SLOTS]; /* sites written, open addressing */
	struct mpiv_tf_memo memo[MPIV_TF_MEMO_SLOTS];  /* by site, direct-mapped */
};

/* Decoding state of one file. The caller keeps the site table: every MPIV_TF_SITE record
 * decoded must be appended to sites (and nsites bumped) before the next record is decoded.
 * Zero it, then mpiv_tf_reader_start() with the file's header. */
struct mpiv_tf_reader {
	uint32_t version;	    /* the file's version (its header's); 0 is MPIV_TRACE_VERSION */
	uint32_t nevents;	    /* events decoded: the index of the next new one */
	int32_t last_req;	    /* as in the writer */
	struct mpiv_tf_clock clock; /* as in the writer */
	const uint64_t *sites;	    /* the site table so far, the caller's */
	size_t nsites;
};

/* Set the version and clock of w or r from header h. */
void mpiv_tf_writer_start(struct mpiv_tf_writer *w, const struct mpiv_tf_header *h);
void mpiv_tf_reader_start(struct mpiv_tf_reader *r, const struct mpiv_tf_header *h);

enum mpiv_tf_kind {
	MPIV_TF_END = 1,    /* the recorder closed the file: nothing follows */
	MPIV_TF_MODULE = 2, /* a loaded object that call sites point into */
	MPIV_TF_SITE = 3,   /* the next entry of the site table */
	MPIV_TF_COMM = 4,   /* the communicator an event made (struct mpiv_newcomm) */
	MPIV_TF_REPEAT = 6, /* the event before, a failed poll, was made n more times */
	MPIV_TF_STOP = 7,   /* how the rank ended (enum mpiv_end), and its code */
	MPIV_TF_REDUCE = 8, /* a finding of the reduction check (struct mpiv_reduction) */
	MPIV_TF_THREAD = 9, /* a thread created or joined another (struct mpiv_thread_op) */
	/* the records after it decode on their own: a window of the
	 * run's last calls starts here (record --last) */
	MPIV_TF_RESTART = 10,
	/* after a restart: a request made before it, still alive, and the call that made it */
	MPIV_TF_LIVE = 11,
	MPIV_TF_EVENT = 16, /* one MPI call (the record's code is 16 + its call) */
};

/* One decoded record. Strings point into the decoded buffer and are not NUL-terminated. */
struct mpiv_tf_record {
	enum mpiv_tf_kind kind;
	uint32_t module;  /* MODULE: its id */
	const char *path; /* MODULE: its path, pathlen bytes */
	size_t pathlen;
	uint64_t site; /* SITE: the site */
	uint64_t more; /* REPEAT: the times more, at least 1 */
	/* REPEAT, in a file with a clock: when the run's last poll
	 * returned */
	uint64_t leave;
	int32_t how;		      /* STOP: enum mpiv_end */
	int32_t code;		      /* STOP: the abort code, signal number or exit status */
	struct mpiv_thread_op thread; /* THREAD: what; its before is the reader's nevents */
	struct mpiv_reduction red;    /* REDUCE: the finding; its events are below nevents */
	int replaces;		      /* EVENT: it replaces the earlier event of the same index */
	uint32_t first;		      /* RESTART: the index of the event after it */
	int32_t live_req;	      /* LIVE: the request (its maker in ev) */
	uint32_t comm_event;	      /* COMM: the index of the event that made it */
	int32_t comm_id;	      /* COMM: its rank-local id */
	/* COMM: its number of members; mpiv_tf_comm_members() decodes
	 * them */
	uint32_t nmembers;
	const unsigned char *members; /* COMM: where the members are encoded */
	/* EVENT: ev.reqs points to the caller's array; ev.group is
	 * NULL, ev.ngroup members wait in group for mpiv_tf_group().
	 * LIVE: call, peer, peer2, tag and comm only */
	struct mpiv_event ev;
	const unsigned char *group; /* EVENT: the encoded group, inside the decoded buffer */
};

/* Encode the header into buf (cap bytes), of version h->version (MPIV_TRACE_VERSION if 0; an
 * older one only for tests: the events that follow must be of that version, encoded by a
 * writer started from the same header). Returns its length, or 0 if it does not fit. */
size_t mpiv_tf_encode_header(void *buf, size_t cap, const struct mpiv_tf_header *h);

/* Encode a module record; returns its length or 0 if it does not fit. */
size_t mpiv_tf_encode_module(void *buf, size_t cap, uint32_t id, const char *path);

/* Encode a repeat record: the event before was made more (at least 1) times more, the last of
 * them returning at leave (kept if clock->on, and clock->last moves to it); returns its length
 * or 0 if it does not fit. The reader checks that it follows a failed poll. */
size_t mpiv_tf_encode_repeat(void *buf, size_t cap, uint64_t more, struct mpiv_tf_clock *clock,
			     uint64_t leave);

/* Encode the end record; returns its length or 0 if it does not fit. */
size_t mpiv_tf_encode_end(void *buf, size_t cap);

/* Encode a stop record: the rank ended this way (enum mpiv_end, not MPIV_END_UNKNOWN) with
 * code; returns its length or 0 if it does not fit. */
size_t mpiv_tf_encode_stop(void *buf, size_t cap, int how, int32_t code);

/* Encode a restart record, and start w afresh after it: its site table and the records it
 * remembers are forgotten, so that what follows decodes without what came before (the next
 * event's index, the last request id and the clock are in the record). A reader that starts
 * at it (a window of the run's last calls, written by record --last) knows nothing of the
 * events before. Returns its length, or 0 (w unchanged) if cap is less than
 * MPIV_TF_RESTART_MAX. */
size_t mpiv_tf_encode_restart(struct mpiv_tf_writer *w, void *buf, size_t cap);

/* Encode a live record, after a restart record: request req, made before it by a call such as
 * maker (its call, peer, peer2, tag and comm), has not completed yet (a persistent one: has
 * not been freed). Returns its length, or 0 if cap is less than MPIV_TF_LIVE_MAX or maker's
 * call is no call. */
size_t mpiv_tf_encode_live(void *buf, size_t cap, int32_t req, const struct mpiv_event *maker);

/* Encode a thread record: thread op->self created or joined op->other (op->before is
 * implicit: the events written before it). Returns its length or 0 if it does not fit. */
size_t mpiv_tf_encode_thread(void *buf, size_t cap, const struct mpiv_thread_op *op);

/* Encode a reduction record: finding r, whose events must have been written already, its
 * text fields NUL-terminated (each cut to MPIV_RED_TEXT - 1 bytes). Returns its length, or 0
 * if cap is less than MPIV_TF_REDUCE_MAX. */
size_t mpiv_tf_encode_reduction(void *buf, size_t cap, const struct mpiv_reduction *r);

/* Encode the comm record of the communicator event `event` made: its rank-local id and its n
 * members (world ranks, >= 0). Returns its length, or 0 if cap is less than
 * MPIV_TF_COMM_MAX(n). */
size_t mpiv_tf_encode_comm(void *buf, size_t cap, uint32_t event, int32_t id, uint32_t n,
			   const int32_t *members);

/* The members of a decoded COMM record, into out (room for rec->nmembers). */
void mpiv_tf_comm_members(const struct mpiv_tf_record *rec, int32_t *out);

/* Encode ev. ev->index must be w->nevents (a new event: the index is implicit) or an earlier
 * index (the record replaces that event: the recorder writes a blocked call as
 * MPIV_EV_INCOMPLETE, then again when it returns). A site not written before gets its site
 * record in front. With a clock, ev->enter and ev->leave (0: not returned) follow its fields.
 * Returns the bytes written, or 0 (w unchanged) if cap is less than
 * MPIV_TF_EVENT_MAX(ev->nreqs + ev->ngroup) or the index is beyond w->nevents. */
size_t mpiv_tf_encode_event(struct mpiv_tf_writer *w, void *buf, size_t cap,
			    const struct mpiv_event *ev);

/* Write at buf the record rec of len bytes (at most MPIV_TF_MEMO_LEN) for ev, a new event
 * whose record it is (copy_len said so when it was first encoded, and the fields and request
 * distances are the same), and ev's times: the writer moves on as if ev had been encoded.
 * buf has room for MPIV_TF_MEMO_LEN + MPIV_TF_TIMES_MAX. Returns the bytes written. */
size_t mpiv_tf_encode_copy(struct mpiv_tf_writer *w, void *buf, const void *rec, size_t len,
			   const struct mpiv_event *ev);

/* mpiv_tf_encode_copy() for a writer whose clock is off: one test less, for a writer that
 * knows. */
size_t mpiv_tf_encode_copy_untimed(struct mpiv_tf_writer *w, void *buf, const void *rec, size_t len,
				   const struct mpiv_event *ev);

/* The same for a new event (ev->index == w->nevents) that uses none of the fields from root to
 * group and has no flags, if the last record written for its site was made of the same
 * fields: written by copying that record. Returns the bytes written, or 0 if it is not so
 * (then mpiv_tf_encode_event() does it); buf has room for MPIV_TF_EVENT_MAX(ev->nreqs). The
 * recorder's quick path (its caller knows the event plain): the rare fields are not read. */
size_t mpiv_tf_encode_plain(struct mpiv_tf_writer *w, void *buf, const struct mpiv_event *ev);

/* Decode the header at the start of a file of len bytes into h. Returns its length; 0 if the
 * file ends inside the header; -1 if it is not a trace of a version this mpiverify reads
 * (MPIV_TRACE_VERSION_OLDEST to MPIV_TRACE_VERSION), with why (a line
 * starting "not an mpiverify trace" for garbage) filled. */
long mpiv_tf_decode_header(const void *buf, size_t len, struct mpiv_tf_header *h, char *why,
			   size_t whysize);

/* Decode the record at buf (len bytes to the end of the file) into rec, its requests into
 * reqs (room for maxreqs). Returns the record's length; 0 if the file ends inside it; -1 if
 * it is malformed, with why filled; -2 if it has more than maxreqs requests: rec->ev.nreqs
 * says how many, call again with room for them. On success r advances past the record (its
 * nevents and last_req); otherwise r is unchanged. */
long mpiv_tf_decode(struct mpiv_tf_reader *r, const void *buf, size_t len,
		    struct mpiv_tf_record *rec, struct mpiv_reqinfo *reqs, size_t maxreqs,
		    char *why, size_t whysize);

/* Is the record at buf (len bytes to the end of the file) a repeat record (MPIV_TF_REPEAT)?
 * Its code only is read: a reader that looks for the repeats after an event decodes no other
 * record twice. */
int mpiv_tf_is_repeat(const void *buf, size_t len);

/* The group of the event record just decoded into rec (while its buffer is still there):
 * rec->ev.ngroup world ranks into out. */
void mpiv_tf_group(const struct mpiv_tf_record *rec, int32_t *out);

#endif
