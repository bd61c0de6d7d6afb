/* The recorder's reduction check (rec_reduce.h; doc/reductions.md): the method of Intel's
 * "Handling potential deadlocks and correctness problems of reduce operations in parallel
 * systems". The library's reduction runs as the program called it; a second computation,
 * independent of the library's reduction algorithms, makes the same result again: each rank
 * sends its input, with a checksum, by point-to-point messages on a private duplicate of the
 * communicator to every rank whose result it is part of, and each rank combines what it needs
 * itself, in rank order (MPI-4.1 6.9.1's order: the same for commutative and non-commutative
 * operations). The two results are compared, and in correction mode the second is written
 * over the first.
 *
 * The messages are posted before the library's call and waited for after it (for a
 * nonblocking reduction: at the completion that completes its request), so the check adds no
 * wait on another rank that the reduction itself does not have: a rank's contribution is on
 * its way as soon as the rank entered the reduction. They are on private communicators, so
 * they never meet the program's messages. A private duplicate is made where every member of
 * the communicator is in the same call: MPI_Init for MPI_COMM_WORLD, the call that made the
 * communicator for the others. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "environment.h"
#include "recorder.h"
#include "rec_comm.h"
#include "rec_reduce.h"

#define RED_HDR 16		/* a contribution's header: checksum, payload bytes */
#define RED_TAG_MASK 0x7fff	/* tags stay below the least MPI_TAG_UB MPI allows */
#define RED_PRINT_MAX 10	/* findings printed by a rank; later ones only go to the trace */
#define RED_UNCHECKED_SITES 256 /* call sites whose unchecked reductions are reported */
#define RED_POOL 8		/* large data buffers kept for the next reductions */
#define RED_POOL_MIN (64 << 10) /* below this, buffers come and go with malloc cheaply */

int rec_reduce_on;

static struct mpiv_red_opts red_opts;
static pthread_mutex_t red_lock = PTHREAD_MUTEX_INITIALIZER; /* the lists below */

/* A communicator of the program, with its private duplicate. */
struct red_comm {
	MPI_Comm comm; /* the program's handle */
	/* its private duplicate; MPI_COMM_NULL when it has one member
	 * (nothing to send) or is an intercommunicator */
	MPI_Comm priv;
	MPI_Request idup; /* the duplicate of an MPI_Comm_idup, until it completes */
	int inter;	  /* an intercommunicator: its reductions are not checked */
	int size, rank;
	unsigned seq; /* reductions on it so far: the tag of the next */
	struct red_comm *next;
};
static struct red_comm *red_comms;

/* A user-defined operation, as MPI_Op_create made it (MPI gives no way to get the function
 * back from the handle). */
struct red_userop {
	MPI_Op op;
	MPI_User_function *fn;
	int commute;
	struct red_userop *next;
};
static struct red_userop *red_userops;

/* Nonblocking reductions started, not completed yet. */
static struct rec_red *red_pending;

/* Large data buffers freed, for reuse: glibc maps every allocation of this size afresh and
 * unmaps it when freed, and the page faults of a new mapping for each contribution cost more
 * than the reduction. Each buffer has its size in front (red_data()). */
static struct {
	unsigned char *p;
	size_t cap;
} red_pool[RED_POOL];
static int red_npool;

static uint64_t red_unchecked_sites[RED_UNCHECKED_SITES]; /* reported unchecked */
static int red_nunchecked;
static int red_printed; /* findings printed */

/* One reduction being checked. */
struct rec_red {
	struct rec_red *next;  /* in the list of the call that handles it (rec_call's reduce) */
	struct rec_red *pnext; /* in red_pending */
	int exchanging;	       /* the exchange is posted, not finished */
	unsigned call;	       /* its MPIV_CALL_ */
	uint64_t site;
	uint32_t event;	    /* its event's index, once written */
	MPI_Request handle; /* a nonblocking one's request */
	struct rec_red_args a;
	MPI_Comm priv; /* the private communicator (MPI_COMM_NULL: no messages) */
	int n, me;     /* its size, this rank's rank in it */
	int tag;
	struct rd_sig *sig;
	enum rd_op op;
	MPI_User_function *fn; /* RD_USER: the function */
	int commute;
	void *result;  /* where the library's result is on this rank, or NULL */
	size_t rcount; /* its elements */
	int lo, hi;    /* the result combines the contributions of ranks lo..hi-1 */
	/* by rank: the message received from it, or this rank's own
	 * input ([header | packed data]); malloc'ed */
	unsigned char **bufs;
	size_t *bytes;		       /* by rank: the payload bytes expected from it */
	const unsigned char **contrib; /* by rank: its contribution to this rank's result */
	unsigned char **sends;	       /* MPI_Reduce_scatter: the slice for each rank; else NULL */
	MPI_Request *reqs;
	int *req_rank; /* by request: the rank it receives from, -1 for a send */
	int nreqs;
	struct mpiv_reduction *finding; /* what it found; NULL for nothing */
};

/* ---- memory ---- */

/* Fatal: the check could not take part in an exchange the other ranks count on. */
static void out_of_memory(void)
{
	rec_msg("fatal: out of memory for the reduction check: ending the job");
	PMPI_Abort(MPI_COMM_WORLD, 1);
}

/* n bytes, zeroed if zero (a table) and not (data, soon overwritten: zeroing megabytes would
 * cost as much as copying them). */
static void *red_alloc(size_t n, int zero)
{
	void *p = zero ? calloc(1, n ? n : 1) : malloc(n ? n : 1);

	if (!p)
		out_of_memory();
	return p;
}

/* A data buffer of n bytes, from the pool if one there is large enough (and not more than
 * twice as large): free it with red_data_free(). */
static unsigned char *red_data(size_t n)
{
	size_t *h;
	int i, best = -1;

	if (n >= RED_POOL_MIN) {
		pthread_mutex_lock(&red_lock);
		for (i = 0; i < red_npool; i++)
			if (red_pool[i].cap >= n && red_pool[i].cap <= 2 * n &&
			    (best < 0 || red_pool[i].cap < red_pool[best].cap))
				best = i;
		if (best >= 0) {
			unsigned char *p = red_pool[best].p;

			red_pool[best] = red_pool[--red_npool];
			pthread_mutex_unlock(&red_lock);
			return p;
		}
		pthread_mutex_unlock(&red_lock);
	}
	h = red_alloc(2 * sizeof(*h) + n, 0); /* two words: the data stays aligned */
	h[0] = n;
	return (unsigned char *)(h + 2);
}

static void red_data_free(unsigned char *p)
{
	size_t *h;

	if (!p)
		return;
	h = (size_t *)p - 2;
	if (h[0] >= RED_POOL_MIN) {
		pthread_mutex_lock(&red_lock);
		if (red_npool < RED_POOL) {
			red_pool[red_npool].p = p;
			red_pool[red_npool++].cap = h[0];
			p = NULL;
		}
		pthread_mutex_unlock(&red_lock);
	}
	if (p)
		free(h);
}

/* ---- tables ---- */

static struct red_comm *comm_find(MPI_Comm comm)
{
	struct red_comm *e;

	for (e = red_comms; e; e = e->next)
		if (e->comm == comm)
			return e;
	return NULL;
}

static void comm_drop(MPI_Comm comm)
{
	struct red_comm **pp, *e;

	for (pp = &red_comms; *pp; pp = &(*pp)->next) {
		if ((*pp)->comm != comm)
			continue;
		e = *pp;
		*pp = e->next;
		if (e->idup != MPI_REQUEST_NULL)
			PMPI_Wait(&e->idup, MPI_STATUS_IGNORE);
		if (e->priv != MPI_COMM_NULL)
			PMPI_Comm_free(&e->priv);
		free(e);
		return;
	}
}

/* Our own errors come back as codes: the program's error handlers are not ours to call. */
static void priv_setup(MPI_Comm priv)
{
	PMPI_Comm_set_errhandler(priv, MPI_ERRORS_RETURN);
	PMPI_Comm_set_name(priv, "mpiverify reduction check");
}

/* Record communicator comm, of size members, with the private duplicate made by make (1:
 * PMPI_Comm_dup of from, 2: PMPI_Comm_idup of from, 0: none). Out of memory, the
 * communicator is not followed (its reductions are reported unchecked). */
static void comm_add(MPI_Comm comm, MPI_Comm from, int make)
{
	struct red_comm *e = calloc(1, sizeof(*e));

	if (!e)
		return;
	e->comm = comm;
	e->priv = MPI_COMM_NULL;
	e->idup = MPI_REQUEST_NULL;
	PMPI_Comm_test_inter(from, &e->inter);
	PMPI_Comm_size(from, &e->size);
	PMPI_Comm_rank(from, &e->rank);
	if (!e->inter && e->size > 1 && make == 1 && PMPI_Comm_dup(from, &e->priv) == MPI_SUCCESS)
		priv_setup(e->priv);
	else if (!e->inter && e->size > 1 && make == 2)
		PMPI_Comm_idup(from, &e->priv, &e->idup);
	pthread_mutex_lock(&red_lock);
	comm_drop(comm); /* a handle MPI gave again, freed behind the tool's back */
	e->next = red_comms;
	red_comms = e;
	pthread_mutex_unlock(&red_lock);
}

void rec_reduce_comm_made(MPI_Comm newcomm, MPI_Comm members_of)
{
	comm_add(newcomm, members_of, members_of == newcomm ? 1 : 2);
}

void rec_reduce_comm_free(MPI_Comm comm)
{
	if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)
		return;
	pthread_mutex_lock(&red_lock);
	comm_drop(comm);
	pthread_mutex_unlock(&red_lock);
}

void rec_reduce_init(void)
{
	const char *v = getenv(MPIV_ENV_CHECK_REDUCTIONS);

	if (!v)
		return;
	if (mpiv_red_opts_parse(v, &red_opts)) {
		rec_msg("invalid " MPIV_ENV_CHECK_REDUCTIONS " '%s': reductions are not checked",
			v);
		return;
	}
	comm_add(MPI_COMM_WORLD, MPI_COMM_WORLD, 1);
	comm_add(MPI_COMM_SELF, MPI_COMM_SELF, 0);
	rec_reduce_on = 1;
}

/* ---- findings ---- */

/* Replace what text cannot hold (the readers accept printable ASCII only). */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = *s == '\n' ? ' ' : '?';
}

static struct mpiv_reduction *finding(struct rec_red *r, int what)
{
	struct mpiv_reduction *f = r->finding;

	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return NULL; /* out of memory: the finding is lost, not the run */
		r->finding = f;
	} else {
		memset(f, 0, sizeof(*f));
	}
	f->what = what;
	f->peer = MPIV_NONE;
	if (r->sig) {
		snprintf(f->type, sizeof(f->type), "%s", rd_sig_name(r->sig));
	} else {
		char name[MPI_MAX_OBJECT_NAME] = "";
		int len = 0;

		/* a predefined type has its name; a derived one none, unless the program gave it */
		if (r->a.type != MPI_DATATYPE_NULL)
			PMPI_Type_get_name(r->a.type, name, &len);
		snprintf(f->type, sizeof(f->type), "%s", len > 0 ? name : "derived");
		printable(f->type);
	}
	snprintf(f->op, sizeof(f->op), "%s",
		 r->op != RD_USER ? rd_op_name(r->op) :
		 r->commute	  ? "user-defined (commutative)" :
				    "user-defined (not commutative)");
	return f;
}

/* A reduction that cannot be checked, and why: reported once per call site. */
static void unchecked(struct rec_red *r, const char *why)
{
	struct mpiv_reduction *f;
	int i, seen = 0;

	pthread_mutex_lock(&red_lock);
	for (i = 0; i < red_nunchecked && !seen; i++)
		seen = red_unchecked_sites[i] == r->site;
	if (!seen && red_nunchecked < RED_UNCHECKED_SITES)
		red_unchecked_sites[red_nunchecked++] = r->site;
	else
		seen = 1;
	pthread_mutex_unlock(&red_lock);
	if (seen)
		return;
	f = finding(r, MPIV_RED_UNCHECKED);
	if (f)
		snprintf(f->why, sizeof(f->why), "%s", why);
}

static void failed(struct rec_red *r, int rc)
{
	struct mpiv_reduction *f = finding(r, MPIV_RED_FAILED);
	char text[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (!f)
		return;
	f->code = rc;
	if (PMPI_Error_string(rc, text, &len) != MPI_SUCCESS)
		len = 0;
	text[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING - 1] = '\0';
	/* cut to what a finding keeps (the trace format's limit) */
	len = (int)strnlen(text, sizeof(f->why) - 1);
	memcpy(f->why, text, (size_t)len);
	f->why[len] = '\0';
	printable(f->why);
}

static void print_finding(const struct rec_red *r, const struct mpiv_reduction *f)
{
	static const char *const heads[] = {
		[MPIV_RED_MISMATCH] = "reduction mismatch",
		[MPIV_RED_FAILED] = "reduction failed",
		[MPIV_RED_CORRUPT] = "reduction not judged",
		[MPIV_RED_UNCHECKED] = "reduction not checked",
	};
	char where[512], text[1024], at[64] = "";

	rec_srcline(r->site, where, sizeof(where));
	mpiv_red_describe(f, text, sizeof(text));
	if (f->done != f->event)
		snprintf(at, sizeof(at), ", completed at event %u", f->done);
	rec_msg("%s: %s at %s, event %u%s: %s", heads[f->what], mpiv_call_name(r->call), where,
		f->event, at, text);
}

static void red_free(struct rec_red *r)
{
	int i;

	for (i = 0; r->bufs && i < r->n; i++)
		red_data_free(r->bufs[i]);
	for (i = 0; r->sends && i < r->n; i++)
		red_data_free(r->sends[i]);
	free(r->bufs);
	free(r->bytes);
	free(r->contrib);
	free(r->sends);
	free(r->reqs);
	free(r->req_rank);
	free(r->finding);
	rd_sig_free(r->sig);
	free(r);
}

REC_COLD void rec_reduce_leave(struct rec_call *c)
{
	struct rec_red *r = c->reduce, *next;

	c->reduce = NULL;
	for (; r; r = next) {
		next = r->next;
		if (r->exchanging) {
			/* a nonblocking reduction's start: it waits in red_pending */
			r->event = c->ev.index;
			continue;
		}
		if (r->call == c->ev.call)
			r->event = c->ev.index; /* checked in its own call */
		if (r->finding) {
			r->finding->event = r->event;
			r->finding->done = c->ev.index;
			rec_output_reduction(r->finding);
			pthread_mutex_lock(&red_lock);
			if (red_printed++ < RED_PRINT_MAX)
				print_finding(r, r->finding);
			else if (red_printed == RED_PRINT_MAX + 1)
				rec_msg("further reduction findings are written to the trace only");
			pthread_mutex_unlock(&red_lock);
		}
		red_free(r);
	}
}

/* c handles r: its findings are written after c's event. */
static void attach(struct rec_call *c, struct rec_red *r)
{
	r->next = c->reduce;
	c->reduce = r;
}

/* ---- the exchange ---- */

/* Pack count elements of the datatype at buf into out (which has room). */
static void pack(const struct rec_red *r, const void *buf, size_t count, unsigned char *out)
{
	int pos = 0;

	if (rd_sig_direct(r->sig))
		memcpy(out, buf, count * rd_sig_bytes(r->sig));
	else
		PMPI_Pack(buf, (int)count, r->a.type, out, (int)(count * rd_sig_bytes(r->sig)),
			  &pos, r->priv != MPI_COMM_NULL ? r->priv : MPI_COMM_SELF);
}

static void unpack(const struct rec_red *r, const unsigned char *in, size_t count, void *buf)
{
	int pos = 0;

	if (rd_sig_direct(r->sig))
		memcpy(buf, in, count * rd_sig_bytes(r->sig));
	else
		PMPI_Unpack(in, (int)(count * rd_sig_bytes(r->sig)), &pos, buf, (int)count,
			    r->a.type, r->priv != MPI_COMM_NULL ? r->priv : MPI_COMM_SELF);
}

/* Write the header of a [header | payload] message of bytes payload bytes. */
static void seal(unsigned char *b, size_t bytes)
{
	uint64_t sum = rd_checksum(b + RED_HDR, bytes), len = bytes;

	memcpy(b, &sum, 8);
	memcpy(b + 8, &len, 8);
}

/* A [header | payload] message holding count packed elements of buf. */
static unsigned char *contribution(const struct rec_red *r, const void *buf, size_t count)
{
	size_t bytes = count * rd_sig_bytes(r->sig);
	unsigned char *b = red_data(RED_HDR + bytes);

	pack(r, buf, count, b + RED_HDR);
	seal(b, bytes);
	return b;
}

/* The same of bytes already packed at data. */
static unsigned char *sealed_copy(const unsigned char *data, size_t bytes)
{
	unsigned char *b = red_data(RED_HDR + bytes);

	memcpy(b + RED_HDR, data, bytes);
	seal(b, bytes);
	return b;
}

/* MPI_Reduce_scatter's recvcounts[p], from its int array or its MPI_Count one. */
static MPI_Count recvcount(const struct rec_red_args *a, int p)
{
	return a->recvcounts ? a->recvcounts[p] : a->recvcounts_c[p];
}

/* Who sends what to whom, and what this rank's result combines: MPI-4.1 6.9.1 (reduce),
 * 6.9.6 (allreduce), 6.10 (reduce-scatter), 6.11 (scan, exscan). Sets result, rcount, lo,
 * hi; returns the elements of this rank's input, and the elements it sends to rank p in
 * send[p] (0: nothing). */
static size_t plan(struct rec_red *r, size_t *send)
{
	const struct rec_red_args *a = &r->a;
	size_t in = (size_t)a->count;
	int p;

	r->result = a->recvbuf;
	r->rcount = (size_t)a->count;
	r->lo = 0;
	r->hi = r->n;
	for (p = 0; p < r->n; p++)
		send[p] = p == r->me ? 0 : (size_t)a->count;
	switch (a->shape) {
	case REC_RED_REDUCE:
		for (p = 0; p < r->n; p++)
			send[p] = p == a->root && p != r->me ? (size_t)a->count : 0;
		if (r->me != a->root) {
			r->result = NULL;
			r->hi = 0;
		}
		break;
	case REC_RED_SCATTER:
		in = 0;
		for (p = 0; p < r->n; p++) {
			in += (size_t)recvcount(a, p);
			send[p] = p == r->me ? 0 : (size_t)recvcount(a, p);
		}
		r->rcount = (size_t)recvcount(a, r->me);
		break;
	case REC_RED_SCATTER_BLOCK:
		in = (size_t)a->count * (size_t)r->n;
		break;
	case REC_RED_SCAN:
	case REC_RED_EXSCAN:
		for (p = 0; p <= r->me; p++)
			send[p] = 0;
		r->hi = a->shape == REC_RED_SCAN ? r->me + 1 : r->me;
		if (r->hi == 0)
			r->result = NULL; /* rank 0's exscan result is undefined */
		break;
	case REC_RED_LOCAL: /* inbuf is "rank 0", inoutbuf's old value "rank 1" */
		send[1] = 0;
		r->hi = 2;
		break;
	default:
		break;
	}
	if (!r->rcount) {
		/* a reduce-scatter's empty part: nothing comes, nothing to compare */
		r->result = NULL;
		r->hi = 0;
	}
	return in;
}

/* Post the exchange: receives first, so that messages find them, then sends. */
static void post(struct rec_red *r, const void *input, size_t in, const size_t *send)
{
	size_t off = 0, sz = rd_sig_bytes(r->sig);
	int p;

	r->bufs = red_alloc(r->n * sizeof(*r->bufs), 1);
	r->bytes = red_alloc(r->n * sizeof(*r->bytes), 1);
	r->contrib = red_alloc(r->n * sizeof(*r->contrib), 1);
	r->reqs = red_alloc(2 * r->n * sizeof(*r->reqs), 1);
	r->req_rank = red_alloc(2 * r->n * sizeof(*r->req_rank), 1);
	r->bufs[r->me] = contribution(r, input, in);
	for (p = r->lo; p < r->hi; p++) {
		if (p == r->me || r->a.shape == REC_RED_LOCAL)
			continue;
		r->bytes[p] = r->rcount * sz; /* every contribution is a result's size */
		r->bufs[p] = red_data(RED_HDR + r->bytes[p]);
		r->req_rank[r->nreqs] = p;
		PMPI_Irecv(r->bufs[p], (int)(RED_HDR + r->bytes[p]), MPI_BYTE, p, r->tag, r->priv,
			   &r->reqs[r->nreqs++]);
	}
	if (r->a.shape == REC_RED_SCATTER || r->a.shape == REC_RED_SCATTER_BLOCK) {
		/* rank p gets the p-th slice of the input: a message of its own */
		r->sends = red_alloc(r->n * sizeof(*r->sends), 1);
		for (p = 0; p < r->n; p++) {
			size_t cnt = r->a.shape == REC_RED_SCATTER ? (size_t)recvcount(&r->a, p) :
								     (size_t)r->a.count;
			unsigned char *slice = r->bufs[r->me] + RED_HDR + off * sz;

			if (p == r->me)
				r->contrib[p] = slice;
			else if (send[p])
				r->sends[p] = sealed_copy(slice, cnt * sz);
			off += cnt;
		}
	} else {
		r->contrib[r->me] = r->bufs[r->me] + RED_HDR;
	}
	for (p = 0; p < r->n; p++) {
		unsigned char *b = r->sends ? r->sends[p] : r->bufs[r->me];

		if (!send[p])
			continue;
		r->req_rank[r->nreqs] = -1;
		PMPI_Isend(b, (int)(RED_HDR + send[p] * sz), MPI_BYTE, p, r->tag, r->priv,
			   &r->reqs[r->nreqs++]);
	}
}

/* ---- the second computation ---- */

/* The message from rank p arrived (err: its status's error): it is p's contribution if its
 * length and checksum are right; else the finding says how it was damaged. */
static void verify(struct rec_red *r, int p, int err, const MPI_Status *st)
{
	const unsigned char *b = r->bufs[p];
	const char *why = NULL;
	struct mpiv_reduction *f;
	uint64_t sum, len;
	int cnt = -1;

	if (err != MPI_SUCCESS)
		why = "the message failed";
	else if (PMPI_Get_count(st, MPI_BYTE, &cnt) != MPI_SUCCESS ||
		 (size_t)cnt != RED_HDR + r->bytes[p])
		why = "wrong length";
	if (!why) {
		memcpy(&sum, b, 8);
		memcpy(&len, b + 8, 8);
		if (len != r->bytes[p])
			why = "wrong length";
		else if (sum != rd_checksum(b + RED_HDR, r->bytes[p]))
			why = "wrong checksum";
	}
	if (!why) {
		r->contrib[p] = b + RED_HDR;
		return;
	}
	if (r->finding && r->finding->what == MPIV_RED_CORRUPT)
		return; /* the first damaged one is reported */
	f = finding(r, MPIV_RED_CORRUPT);
	if (!f)
		return;
	f->peer = rec_comm_to_world(r->a.comm, p);
	snprintf(f->why, sizeof(f->why), "%s", why);
}

/* A user-defined operation: its function applied in rank order, acc = acc op x, on buffers
 * laid out as the datatype says (the function expects the program's layout); the result is
 * packed into f->acc. */
static void user_fold(struct rec_red *r, struct rd_fold *f)
{
	MPI_Aint lb, ext, tlb, text;
	MPI_Datatype type = r->a.type;
	unsigned char *m1, *m2, *t;
	int len = (int)r->rcount, p;
	size_t span;

	PMPI_Type_get_extent(type, &lb, &ext);
	PMPI_Type_get_true_extent(type, &tlb, &text);
	span = (size_t)text + (r->rcount - 1) * (size_t)ext;
	m1 = red_data(span);
	m2 = red_data(span);
	unpack(r, r->contrib[r->lo], r->rcount, m1 - tlb);
	for (p = r->lo + 1; p < r->hi; p++) {
		/* the function computes inoutvec = invec op inoutvec */
		unpack(r, r->contrib[p], r->rcount, m2 - tlb);
		r->fn(m1 - tlb, m2 - tlb, &len, &type);
		t = m1;
		m1 = m2;
		m2 = t;
	}
	pack(r, m1 - tlb, r->rcount, f->acc);
	red_data_free(m1);
	red_data_free(m2);
}

/* Combine the contributions, compare with the library's result (rc: what its call
 * returned), and write the reliable result over it if asked. */
static void compute(struct rec_red *r, int rc)
{
	struct rd_cmp cmp = {r->op, r->hi - r->lo, red_opts.tol};
	struct mpiv_reduction *f;
	size_t bytes = r->rcount * rd_sig_bytes(r->sig);
	unsigned char *lib = NULL;
	struct rd_fold fold;

	rd_fold(&fold, r->sig, r->op, r->rcount, r->contrib + r->lo, r->hi - r->lo,
		red_data(bytes));
	if (r->op == RD_USER)
		user_fold(r, &fold);
	if (rc == MPI_SUCCESS) {
		if (rd_sig_direct(r->sig)) {
			lib = r->result;
		} else {
			lib = red_data(bytes);
			pack(r, r->result, r->rcount, lib);
		}
		/* a finding to fill, dropped when nothing differs (the call succeeded: there is
		 * no other finding) */
		f = finding(r, MPIV_RED_MISMATCH);
		if (f && !rd_compare(&fold, lib, &cmp, f)) {
			free(f);
			r->finding = NULL;
		}
		if (lib != r->result)
			red_data_free(lib);
	}
	/* the patent's correction: the library's result is wrong or undefined */
	if (red_opts.correct && r->finding &&
	    (r->finding->what == MPIV_RED_MISMATCH || r->finding->what == MPIV_RED_FAILED)) {
		unpack(r, fold.acc, r->rcount, r->result);
		r->finding->flags |= MPIV_RED_CORRECTED;
	}
	red_data_free(fold.acc);
}

/* The library's call returned rc: wait for the exchange, check what came, and compare. */
static void finish(struct rec_red *r, int rc)
{
	MPI_Status *st = NULL;
	int k, wrc = MPI_SUCCESS;

	r->exchanging = 0;
	if (r->nreqs) {
		st = red_alloc(r->nreqs * sizeof(*st), 0);
		wrc = PMPI_Waitall(r->nreqs, r->reqs, st);
	}
	if (rc != MPI_SUCCESS)
		failed(r, rc);
	for (k = 0; k < r->nreqs; k++)
		if (r->req_rank[k] >= 0)
			verify(r, r->req_rank[k], wrc == MPI_ERR_IN_STATUS ? st[k].MPI_ERROR : wrc,
			       &st[k]);
	free(st);
	if ((r->finding && r->finding->what == MPIV_RED_CORRUPT) || !r->result || r->lo >= r->hi)
		return;
	compute(r, rc);
}

/* Whether the reduction can be checked; if not, r's finding says why. */
static int checkable(struct rec_red *r)
{
	const struct rec_red_args *a = &r->a;
	char why[MPIV_RED_TEXT];
	MPI_Aint lb, ext, tlb, text;
	size_t elements = (size_t)a->count;
	int p;

	if (a->shape == REC_RED_SCATTER)
		for (p = 0, elements = 0; p < r->n; p++)
			elements += (size_t)recvcount(a, p);
	else if (a->shape == REC_RED_SCATTER_BLOCK)
		elements *= (size_t)r->n;
	if (rd_sig_make(a->type, &r->sig, why, sizeof(why))) {
		unchecked(r, why);
		return 0;
	}
	if (r->op == RD_USER && !r->fn) {
		unchecked(r, "a user-defined operation the check did not see made (MPI_Op_create "
			     "after MPI_Init, from C)");
		return 0;
	}
	if (!rd_op_ok(r->op, r->sig, why, sizeof(why))) {
		unchecked(r, why);
		return 0;
	}
	PMPI_Type_get_extent(a->type, &lb, &ext);
	PMPI_Type_get_true_extent(a->type, &tlb, &text);
	if (r->op == RD_USER && (ext <= 0 || text <= 0)) {
		unchecked(r, "a datatype of no positive extent");
		return 0;
	}
	if (elements * rd_sig_bytes(r->sig) > (size_t)(INT32_MAX - RED_HDR)) {
		unchecked(r, "more than 2 GiB of data");
		return 0;
	}
	return 1;
}

/* Whether the arguments are what MPI requires; if not the library reports it, and the check
 * stays out of the way. */
static int valid(const struct rec_red *r)
{
	const struct rec_red_args *a = &r->a;
	int p, any = 0;

	if (a->type == MPI_DATATYPE_NULL || a->op == MPI_OP_NULL)
		return 0;
	if (a->shape == REC_RED_SCATTER) {
		if (!a->recvcounts && !a->recvcounts_c)
			return 0;
		for (p = 0; p < r->n; p++) {
			if (recvcount(a, p) < 0)
				return 0;
			any |= recvcount(a, p) > 0;
		}
		return any;
	}
	if (a->shape == REC_RED_REDUCE && (a->root < 0 || a->root >= r->n))
		return 0;
	return a->count > 0;
}

struct rec_red *rec_reduce_begin(struct rec_call *c, const struct rec_red_args *a)
{
	struct rec_red *r = red_alloc(sizeof(*r), 1);
	struct red_userop *u;
	struct red_comm *e = NULL;
	const void *input;
	size_t in, *send;

	r->call = c->ev.call;
	r->site = c->ev.site;
	r->a = *a;
	r->handle = MPI_REQUEST_NULL;
	r->priv = MPI_COMM_NULL;
	r->op = rd_op_of(a->op);
	r->n = 2; /* MPI_Reduce_local: inbuf and inoutbuf */
	pthread_mutex_lock(&red_lock);
	for (u = red_userops; r->op == RD_USER && u; u = u->next) {
		if (u->op == a->op) {
			r->fn = u->fn;
			r->commute = u->commute;
			break;
		}
	}
	if (a->shape != REC_RED_LOCAL && (e = comm_find(a->comm))) {
		if (e->idup != MPI_REQUEST_NULL &&
		    PMPI_Wait(&e->idup, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
		    e->priv != MPI_COMM_NULL)
			priv_setup(e->priv);
		r->priv = e->priv;
		r->n = e->size;
		r->me = e->rank;
		r->tag = (int)(e->seq++ & RED_TAG_MASK);
	}
	pthread_mutex_unlock(&red_lock);
	if ((a->shape != REC_RED_LOCAL && !e) || !valid(r)) {
		/* a communicator made by a call the recorder does not follow is no error of the
		 * program: say so once; invalid arguments are the library's to report */
		if (a->shape != REC_RED_LOCAL && !e)
			unchecked(r, "a communicator made by a call the check does not follow");
		if (r->finding)
			return r;
		red_free(r);
		return NULL;
	}
	if (e && e->inter) {
		unchecked(r, "an intercommunicator");
		return r;
	}
	if (!checkable(r))
		return r;
	send = red_alloc(r->n * sizeof(*send), 1);
	in = plan(r, send);
	input = a->sendbuf == MPI_IN_PLACE ? a->recvbuf : a->sendbuf;
	post(r, input, in, send);
	free(send);
	if (a->shape == REC_RED_LOCAL) {
		/* inoutbuf's value before the library overwrites it */
		r->bufs[1] = contribution(r, a->recvbuf, (size_t)a->count);
		r->contrib[1] = r->bufs[1] + RED_HDR;
	}
	r->exchanging = 1;
	return r;
}

void rec_reduce_end(struct rec_red *r, struct rec_call *c, int rc)
{
	if (r->exchanging)
		finish(r, rc);
	else if (rc != MPI_SUCCESS)
		failed(r, rc);
	attach(c, r);
}

void rec_reduce_started(struct rec_red *r, struct rec_call *c, int rc, const MPI_Request *request)
{
	attach(c, r);
	if (!r->exchanging || rc != MPI_SUCCESS) {
		/* unchecked, or no request to complete: done now */
		if (r->exchanging)
			finish(r, rc);
		else if (rc != MPI_SUCCESS)
			failed(r, rc);
		return;
	}
	r->handle = *request;
	pthread_mutex_lock(&red_lock);
	r->pnext = red_pending;
	red_pending = r;
	pthread_mutex_unlock(&red_lock);
}

REC_COLD void rec_reduce_completed(struct rec_call *c, MPI_Request h, int rc)
{
	struct rec_red **pp, *r = NULL;

	pthread_mutex_lock(&red_lock);
	for (pp = &red_pending; *pp; pp = &(*pp)->pnext) {
		if ((*pp)->handle == h) {
			r = *pp;
			*pp = r->pnext;
			break;
		}
	}
	pthread_mutex_unlock(&red_lock);
	if (!r)
		return;
	finish(r, rc);
	attach(c, r);
}

/* ---- the calls of the check's own (mpi_calls.def) ---- */

int rec_Reduce_local(struct rec_call *c, const void *inbuf, void *inoutbuf, int count,
		     MPI_Datatype datatype, MPI_Op op)
{
	struct rec_red_args a = {REC_RED_LOCAL, inbuf,	  inoutbuf, count, NULL,
				 NULL,		datatype, op,	    0,	   MPI_COMM_SELF};
	struct rec_red *r = rec_reduce_on ? rec_reduce_begin(c, &a) : NULL;
	int rc;

	rc = PMPI_Reduce_local(inbuf, inoutbuf, count, datatype, op);
	if (r)
		rec_reduce_end(r, c, rc);
	return rc;
}

int rec_Op_create(struct rec_call *c, MPI_User_function *user_fn, int commute, MPI_Op *op)
{
	int rc = PMPI_Op_create(user_fn, commute, op);
	struct red_userop *u, **pp;

	(void)c;
	if (rc != MPI_SUCCESS || !rec_reduce_on)
		return rc;
	u = calloc(1, sizeof(*u));
	if (!u)
		return rc; /* its reductions are reported unchecked */
	u->op = *op;
	u->fn = user_fn;
	u->commute = commute;
	pthread_mutex_lock(&red_lock);
	/* a handle MPI gives again after MPI_Op_free names the new operation */
	for (pp = &red_userops; *pp; pp = &(*pp)->next) {
		if ((*pp)->op == *op) {
			struct red_userop *old = *pp;

			*pp = old->next;
			free(old);
			break;
		}
	}
	u->next = red_userops;
	red_userops = u;
	pthread_mutex_unlock(&red_lock);
	return rc;
}
