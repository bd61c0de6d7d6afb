/* The binary rank-trace format (doc/trace-format.md): record layouts and their encoding, shared
 * by the recorder (which writes them from inside the user's program) and the trace reader. No
 * I/O and no allocation here, so the preload library can use it freely. */
#ifndef MPIV_TRACEFMT_H
#define MPIV_TRACEFMT_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

#define MPIV_TRACE_VERSION 1
#define MPIV_TRACE_MAGIC "MPIVTRC"	/* 8 bytes with its NUL, first in the header record */
#define MPIV_TRACE_BOM 0x01020304u	/* byte-order mark: records are in the writer's order */

/* Every record starts with this; len counts the whole record, header included. */
struct mpiv_rec_hdr {
	uint32_t len;
	uint16_t type;		/* enum mpiv_rec_type */
	uint16_t reserved;	/* 0 */
};

enum mpiv_rec_type {
	MPIV_REC_HEADER = 1,	/* first record of every file */
	MPIV_REC_MODULE = 2,	/* a loaded object that call sites refer to */
	MPIV_REC_EVENT = 3,	/* one MPI call */
};

/* MPIV_REC_HEADER payload. */
struct mpiv_rec_header {
	char magic[8];		/* MPIV_TRACE_MAGIC */
	uint32_t version;	/* MPIV_TRACE_VERSION */
	uint32_t bom;		/* MPIV_TRACE_BOM */
	int32_t rank;		/* rank in MPI_COMM_WORLD */
	int32_t size;		/* size of MPI_COMM_WORLD */
	int32_t pid;
	int32_t thread_level;	/* granted by MPI_Init_thread, MPI_THREAD_SINGLE for MPI_Init */
	char host[64];		/* NUL-terminated, cut if longer */
	char library[128];	/* MPI_Get_library_version's first line, cut */
};

/* MPIV_REC_MODULE payload: fixed part, then the path with its NUL. */
struct mpiv_rec_module {
	uint32_t id;		/* what MPIV_SITE_MODULE() of a site refers to */
	uint32_t reserved;
};

/* MPIV_REC_EVENT payload: fixed part, then nreqs struct mpiv_rec_req. An event written again
 * with the same index replaces the earlier one (the recorder first writes a blocked call as
 * MPIV_EV_INCOMPLETE, then again when it returns). */
struct mpiv_rec_event {
	uint32_t index;
	uint16_t call;
	uint16_t flags;
	int32_t peer, tag, comm, root, src, mtag, thread;
	uint32_t nreqs;
	uint64_t bytes;
	uint64_t site;
};

struct mpiv_rec_req {
	int32_t req, src, tag;
};

/* Encode an event as one record into buf (cap bytes). Returns the record's length, or 0 if it
 * does not fit. */
size_t mpiv_rec_encode_event(void *buf, size_t cap, const struct mpiv_event *ev);

/* Encode a module record; returns its length or 0 if it does not fit. */
size_t mpiv_rec_encode_module(void *buf, size_t cap, uint32_t id, const char *path);

/* Encode the header record; returns its length or 0 if it does not fit. */
size_t mpiv_rec_encode_header(void *buf, size_t cap, const struct mpiv_rec_header *h);

/* Decode the event record rec (len bytes, header included) into ev. The reqs are written to
 * reqs_out (room for max entries; ev->reqs points there). Returns 0, or -1 if the record is
 * malformed (its length disagrees with its nreqs) or has more than max requests. */
int mpiv_rec_decode_event(const void *rec, size_t len, struct mpiv_event *ev,
			  struct mpiv_reqinfo *reqs_out, size_t max);

#endif
