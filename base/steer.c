/* The steering file of a verify run (steer.h): written by verify, parsed by the recorder in
 * every rank. Malloc and string functions only, so that the preload library can use it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "steer.h"

/* A cursor over the text. */
struct steer_in {
	const char *p, *end;
};

static void skip_space(struct steer_in *in)
{
	while (in->p < in->end &&
	       (*in->p == ' ' || *in->p == '\t' || *in->p == '\n' || *in->p == '\r'))
		in->p++;
}

/* The next word, into buf (size bytes); 0, or -1 at the end or for one too long. */
static int word(struct steer_in *in, char *buf, size_t size)
{
	size_t n = 0;

	skip_space(in);
	while (in->p < in->end && *in->p != ' ' && *in->p != '\t' && *in->p != '\n' &&
	       *in->p != '\r') {
		if (n + 1 >= size)
			return -1;
		buf[n++] = *in->p++;
	}
	buf[n] = '\0';
	return n ? 0 : -1;
}

/* The next word as an integer in [lo, hi]; 0 or -1. */
static int number(struct steer_in *in, long lo, long hi, long *out)
{
	char buf[32], *e;

	if (word(in, buf, sizeof(buf)))
		return -1;
	*out = strtol(buf, &e, 10);
	return *e || *out < lo || *out > hi ? -1 : 0;
}

static int bad(char *why, size_t whysize, const char *what)
{
	size_t n = strlen(what);

	if (whysize) {
		if (n >= whysize)
			n = whysize - 1;
		memcpy(why, what, n);
		why[n] = '\0';
	}
	return -1;
}

/* One decision line into d (already zeroed); 0 or -1. */
static int parse_decision(struct steer_in *in, struct mpiv_steer_decision *d)
{
	char name[64], kind[16];
	long v, k;
	int call;
	uint32_t i;

	if (word(in, name, sizeof(name)) || (call = mpiv_call_from_name(name)) < 0)
		return -1;
	d->call = (uint16_t)call;
	if (number(in, -3, INT32_MAX, &v))
		return -1;
	d->comm = (int32_t)v;
	if (number(in, -3, INT32_MAX, &v))
		return -1;
	d->tag = (int32_t)v;
	d->src = MPIV_NONE;
	if (word(in, kind, sizeof(kind)))
		return -1;
	if (!strcmp(kind, "free"))
		return 0; /* an outcome the model leaves to the run */
	if (!strcmp(kind, "src")) {
		if (number(in, 0, INT32_MAX, &v))
			return -1;
		d->src = (int32_t)v;
		return 0;
	}
	if (strcmp(kind, "reqs") || number(in, 1, 1 << 20, &k))
		return -1;
	d->reqs = malloc((size_t)k * sizeof(*d->reqs));
	if (!d->reqs)
		return -1;
	d->nreqs = (uint32_t)k;
	for (i = 0; i < d->nreqs; i++) {
		if (number(in, 0, INT32_MAX, &v))
			return -1;
		d->reqs[i] = (int32_t)v;
	}
	return 0;
}

static const char *const buffering_names[] = {"natural", "zero", "infinite", "eager"};

/* The optional buffering line; 0 or -1. */
static int parse_buffering(struct steer_in *in, struct mpiv_steer *s)
{
	struct steer_in look = *in;
	char buf[16];
	long long v;
	char *e;
	int i;

	if (word(&look, buf, sizeof(buf)) || strcmp(buf, "buffering"))
		return 0;
	if (word(&look, buf, sizeof(buf)))
		return -1;
	for (i = 0; i < 4 && strcmp(buf, buffering_names[i]); i++)
		;
	if (i == 4)
		return -1;
	s->buffering = (enum mpiv_steer_buffering)i;
	if (i == MPIV_STEER_EAGER) {
		if (word(&look, buf, sizeof(buf)))
			return -1;
		errno = 0;
		v = strtoll(buf, &e, 10);
		if (e == buf || *e || v < 0 || errno)
			return -1;
		s->eager = v;
	}
	*in = look;
	/* the optional collectives line */
	if ((i == MPIV_STEER_INFINITE || i == MPIV_STEER_EAGER) && !word(&look, buf, sizeof(buf)) &&
	    !strcmp(buf, "collectives")) {
		if (word(&look, buf, sizeof(buf)) || strcmp(buf, "synchronise"))
			return -1;
		s->sync_colls = 1;
		*in = look;
	}
	return 0;
}

int mpiv_steer_path_valid(const char *path)
{
	size_t n = strlen(path), i;

	if (n >= MPIV_STEER_PATH || path[0] != '0')
		return 0;
	for (i = 1; i < n; i++) {
		if (path[i] != '.')
			return 0;
		/* K: digits, the first not 0 */
		if (path[++i] < '1' || path[i] > '9')
			return 0;
		while (i + 1 < n && path[i + 1] >= '0' && path[i + 1] <= '9')
			i++;
	}
	return 1;
}

/* The list a section's decisions go into: the initial thread's (path NULL), or thread
 * path's, emptied (a thread named twice: its last section stands). NULL without memory. */
static struct mpiv_steer_decision **section(struct mpiv_steer *s, const char *path, size_t **n)
{
	struct mpiv_steer_thread *t = NULL;
	size_t i;

	if (!path) {
		for (i = 0; i < s->n; i++)
			free(s->d[i].reqs);
		free(s->d);
		s->d = NULL;
		s->n = 0;
		*n = &s->n;
		return &s->d;
	}
	for (i = 0; i < s->nthreads && strcmp(s->threads[i].path, path); i++)
		;
	if (i < s->nthreads) {
		t = &s->threads[i];
		while (t->n)
			free(t->d[--t->n].reqs);
		free(t->d);
		t->d = NULL;
	} else {
		t = realloc(s->threads, (s->nthreads + 1) * sizeof(*t));
		if (!t)
			return NULL;
		s->threads = t;
		t = &s->threads[s->nthreads++];
		memset(t, 0, sizeof(*t));
		memcpy(t->path, path, strlen(path) + 1);
	}
	*n = &t->n;
	return &t->d;
}

/* A thread without decisions is not kept: every kept one has some. */
static void drop_empty_threads(struct mpiv_steer *s)
{
	size_t i, k = 0;

	for (i = 0; i < s->nthreads; i++)
		if (s->threads[i].n)
			s->threads[k++] = s->threads[i];
		else
			free(s->threads[i].d);
	s->nthreads = k;
}

int mpiv_steer_parse(const char *text, size_t len, int rank, struct mpiv_steer *s, char *why,
		     size_t whysize)
{
	struct steer_in in = {text, text + len};
	char buf[32], path[MPIV_STEER_PATH];
	long v, r, n, i;

	memset(s, 0, sizeof(*s));
	s->rank = rank;
	if (word(&in, buf, sizeof(buf)) || strcmp(buf, MPIV_STEER_FORMAT) ||
	    number(&in, MPIV_STEER_VERSION, MPIV_STEER_VERSION, &v))
		return bad(why, whysize, "not a steering file of version 1");
	if (parse_buffering(&in, s))
		return bad(why, whysize, "malformed buffering line");
	while (!word(&in, buf, sizeof(buf))) {
		struct mpiv_steer_decision **list = NULL;
		size_t *count = NULL, cap = 0;
		int thread = !strcmp(buf, "thread");

		if ((!thread && strcmp(buf, "rank")) || number(&in, 0, INT32_MAX, &r))
			return bad(why, whysize, "malformed rank line");
		if (thread && (word(&in, path, sizeof(path)) || !mpiv_steer_path_valid(path) ||
			       !strcmp(path, "0")))
			return bad(why, whysize, "malformed thread line");
		if (number(&in, 0, 1 << 24, &n))
			return bad(why, whysize,
				   thread ? "malformed thread line" : "malformed rank line");
		if (r == rank && !(list = section(s, thread ? path : NULL, &count)))
			return bad(why, whysize, "out of memory");
		for (i = 0; i < n; i++) {
			struct mpiv_steer_decision tmp;

			memset(&tmp, 0, sizeof(tmp));
			if (parse_decision(&in, &tmp)) {
				free(tmp.reqs);
				return bad(why, whysize, "malformed decision line");
			}
			if (!list) {
				free(tmp.reqs);
				continue;
			}
			/* grown as lines come: no larger than what the file holds */
			if (*count == cap) {
				struct mpiv_steer_decision *d;

				cap = cap ? 2 * cap : 16;
				d = realloc(*list, cap * sizeof(*d));
				if (!d) {
					free(tmp.reqs);
					return bad(why, whysize, "out of memory");
				}
				*list = d;
			}
			(*list)[(*count)++] = tmp;
		}
	}
	skip_space(&in);
	if (in.p != in.end)
		return bad(why, whysize, "malformed steering file");
	drop_empty_threads(s);
	return 0;
}

void mpiv_steer_decisions_of(const struct mpiv_steer *s, const char *path,
			     const struct mpiv_steer_decision **d, size_t *n)
{
	size_t i;

	*d = NULL;
	*n = 0;
	if (!strcmp(path, "0")) {
		*d = s->d;
		*n = s->n;
		return;
	}
	for (i = 0; i < s->nthreads; i++)
		if (!strcmp(s->threads[i].path, path)) {
			*d = s->threads[i].d;
			*n = s->threads[i].n;
			return;
		}
}

void mpiv_steer_write_header(FILE *f, enum mpiv_steer_buffering b, long long eager, int sync_colls)
{
	fprintf(f, "%s %d\n", MPIV_STEER_FORMAT, MPIV_STEER_VERSION);
	if (b == MPIV_STEER_EAGER)
		fprintf(f, "buffering eager %lld\n", eager);
	else if (b != MPIV_STEER_NATURAL)
		fprintf(f, "buffering %s\n", buffering_names[b]);
	if (sync_colls && (b == MPIV_STEER_INFINITE || b == MPIV_STEER_EAGER))
		fprintf(f, "collectives synchronise\n");
}

/* Decision lines d[0..n). */
static void write_decisions(FILE *f, const struct mpiv_steer_decision *d, size_t n)
{
	size_t i;
	uint32_t j;

	for (i = 0; i < n; i++) {
		fprintf(f, "%s %d %d ", mpiv_call_name(d[i].call), (int)d[i].comm, (int)d[i].tag);
		if (mpiv_steer_free(&d[i])) {
			fprintf(f, "free\n");
			continue;
		}
		if (d[i].src != MPIV_NONE) {
			fprintf(f, "src %d\n", (int)d[i].src);
			continue;
		}
		fprintf(f, "reqs %u", d[i].nreqs);
		for (j = 0; j < d[i].nreqs; j++)
			fprintf(f, " %d", (int)d[i].reqs[j]);
		fputc('\n', f);
	}
}

void mpiv_steer_write_rank(FILE *f, int rank, const struct mpiv_steer_decision *d, size_t n)
{
	fprintf(f, "rank %d %zu\n", rank, n);
	write_decisions(f, d, n);
}

void mpiv_steer_write_thread(FILE *f, int rank, const char *path,
			     const struct mpiv_steer_decision *d, size_t n)
{
	fprintf(f, "thread %d %s %zu\n", rank, path, n);
	write_decisions(f, d, n);
}

void mpiv_steer_write_all(FILE *f, const struct mpiv_steer *s)
{
	size_t i;

	if (s->n)
		mpiv_steer_write_rank(f, s->rank, s->d, s->n);
	for (i = 0; i < s->nthreads; i++)
		mpiv_steer_write_thread(f, s->rank, s->threads[i].path, s->threads[i].d,
					s->threads[i].n);
}

void mpiv_steer_release(struct mpiv_steer *s)
{
	size_t i, k;

	for (i = 0; s->d && i < s->n; i++)
		free(s->d[i].reqs);
	free(s->d);
	for (k = 0; k < s->nthreads; k++) {
		for (i = 0; i < s->threads[k].n; i++)
			free(s->threads[k].d[i].reqs);
		free(s->threads[k].d);
	}
	free(s->threads);
	memset(s, 0, sizeof(*s));
}
