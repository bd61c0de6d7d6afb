/* The recorder's per-rank trace file, rank-<r>.mpivt (doc/trace-format.md, encoders in
 * common/tracefmt.c), written as the run goes: one record per write(2) on an O_APPEND file, so
 * that a crash or SIGKILL leaves every completed call readable. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder.h"
#include "trace.h"
#include "tracefmt.h"

/* Records of events with up to this many requests are built on the stack. */
#define REC_OUT_STACK_REQS 64

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;	/* below, and the writes */
static atomic_int out_fd = -1;		/* the trace, -1 when not recording */
static uint32_t out_next_index;		/* the next event index of this rank, MPI_Init's 0 */
static char out_path[PATH_MAX];		/* for messages */

/* Append len bytes as one record; on failure say so once and stop recording. Call with
 * out_lock held. */
static void out_write(const void *buf, size_t len)
{
	const char *p = buf;

	while (out_fd >= 0 && len > 0) {
		ssize_t w = write(out_fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rec_msg("cannot write trace '%s': %s: recording stops", out_path,
				w < 0 ? strerror(errno) : "nothing written");
			close(out_fd);
			out_fd = -1;
			return;
		}
		p += w;
		len -= (size_t)w;
	}
}

/* The first line of MPI_Get_library_version, cut to fit dst. */
static void library_version(char *dst, size_t size)
{
	char buf[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;
	size_t n;

	dst[0] = '\0';
	if (PMPI_Get_library_version(buf, &len) != MPI_SUCCESS || len <= 0)
		return;
	buf[len < (int)sizeof(buf) ? len : (int)sizeof(buf) - 1] = '\0';
	n = strcspn(buf, "\r\n");
	if (n >= size)
		n = size - 1;
	memcpy(dst, buf, n);
	dst[n] = '\0';
}

int rec_output_open(int rank, int size, int thread_level)
{
	const char *dir = getenv("MPIVERIFY_TRACE_DIR");
	char name[64];
	char rec[sizeof(struct mpiv_rec_hdr) + sizeof(struct mpiv_rec_header)];
	struct mpiv_rec_header h;
	size_t len;
	int fd;

	if (!dir || !*dir) {
		rec_msg("MPIVERIFY_TRACE_DIR is not set: not recording");
		return -1;
	}
	snprintf(name, sizeof(name), MPIV_TRACE_BIN_FILE, rank);
	if (snprintf(out_path, sizeof(out_path), "%s/%s", dir, name) >= (int)sizeof(out_path)) {
		rec_msg("trace directory '%s' is too long: not recording", dir);
		return -1;
	}
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		rec_msg("cannot open trace '%s': %s: not recording", out_path, strerror(errno));
		return -1;
	}

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MPIV_TRACE_MAGIC, sizeof(h.magic));
	h.version = MPIV_TRACE_VERSION;
	h.bom = MPIV_TRACE_BOM;
	h.rank = rank;
	h.size = size;
	h.pid = (int32_t)getpid();
	h.thread_level = thread_level;
	if (gethostname(h.host, sizeof(h.host) - 1) != 0)
		h.host[0] = '\0';
	library_version(h.library, sizeof(h.library));
	len = mpiv_rec_encode_header(rec, sizeof(rec), &h);

	pthread_mutex_lock(&out_lock);
	out_fd = fd;
	out_write(rec, len);
	fd = out_fd;
	pthread_mutex_unlock(&out_lock);
	return fd >= 0 ? 0 : -1;
}

void rec_output_call(struct rec_call *c, unsigned flags)
{
	char stack[sizeof(struct mpiv_rec_hdr) + sizeof(struct mpiv_rec_event) +
		   REC_OUT_STACK_REQS * sizeof(struct mpiv_rec_req)];
	size_t cap = sizeof(struct mpiv_rec_hdr) + sizeof(struct mpiv_rec_event) +
		     (size_t)c->ev.nreqs * sizeof(struct mpiv_rec_req);
	struct mpiv_event ev;
	char *buf = stack;

	/* Only to skip the work when not recording; out_write() checks again under the lock. */
	if (atomic_load_explicit(&out_fd, memory_order_relaxed) < 0)
		return;
	if (cap > sizeof(stack)) {
		buf = malloc(cap);
		if (!buf) {
			rec_msg("out of memory for a %s record: recording stops",
				mpiv_call_name(c->ev.call));
			rec_output_close();
			return;
		}
	}
	pthread_mutex_lock(&out_lock);
	if (!c->indexed) {
		c->ev.index = out_next_index++;
		c->indexed = 1;
	}
	ev = c->ev;
	ev.flags |= flags;
	out_write(buf, mpiv_rec_encode_event(buf, cap, &ev));
	pthread_mutex_unlock(&out_lock);
	if (buf != stack)
		free(buf);
}

void rec_output_module(unsigned id, const char *path)
{
	char buf[sizeof(struct mpiv_rec_hdr) + sizeof(struct mpiv_rec_module) + PATH_MAX + 1];
	size_t len = mpiv_rec_encode_module(buf, sizeof(buf), id, path);

	if (!len)
		return;
	pthread_mutex_lock(&out_lock);
	out_write(buf, len);
	pthread_mutex_unlock(&out_lock);
}

void rec_output_close(void)
{
	pthread_mutex_lock(&out_lock);
	if (out_fd >= 0)
		close(out_fd);
	out_fd = -1;
	pthread_mutex_unlock(&out_lock);
}
