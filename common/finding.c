/* Kinds of finding, their call sites and fingerprints (finding.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "xalloc.h"

static const char *const kind_names[MPIV_FIND__COUNT] = {
	[MPIV_FIND_DEADLOCK] = "deadlock",
	[MPIV_FIND_POTENTIAL] = "potential-deadlock",
	[MPIV_FIND_BUFFERING] = "buffering-induced-deadlock",
	[MPIV_FIND_COLL_MISMATCH] = "collective-mismatch",
	[MPIV_FIND_READY_SEND] = "ready-send",
	[MPIV_FIND_BSEND_OVERFLOW] = "bsend-overflow",
	[MPIV_FIND_CRASH] = "crash",
	[MPIV_FIND_UNRECEIVED] = "unreceived",
	[MPIV_FIND_TRUNCATED] = "truncated",
	[MPIV_FIND_UNCOMPLETED] = "uncompleted-request",
	[MPIV_FIND_COMM_LEAK] = "unfreed-communicator",
	[MPIV_FIND_DISCONNECT_PENDING] = "pending-at-disconnect",
	[MPIV_FIND_RECV_BEFORE_SEND] = "received-before-sent",
	[MPIV_FIND_LONG_SEND] = "long-send",
	[MPIV_FIND_RED_MISMATCH] = "reduction-mismatch",
	[MPIV_FIND_RED_FAILED] = "reduction-failed",
	[MPIV_FIND_RED_CORRUPT] = "reduction-corrupt",
	[MPIV_FIND_RED_UNCHECKED] = "reduction-unchecked",
	[MPIV_FIND_RANK_STOPPED] = "rank-stopped",
};

const char *mpiv_finding_kind_name(int kind)
{
	return kind >= 0 && kind < MPIV_FIND__COUNT ? kind_names[kind] : NULL;
}

int mpiv_finding_kind_from_name(const char *name)
{
	int k;

	for (k = 0; k < MPIV_FIND__COUNT; k++)
		if (!strcmp(kind_names[k], name))
			return k;
	return -1;
}

int mpiv_finding_kind_is_deadlock(int kind)
{
	return kind >= MPIV_FIND_DEADLOCK && kind <= MPIV_FIND_CRASH;
}

const char *mpiv_finding_basename(const char *file)
{
	const char *slash;

	if (!file || !*file)
		return "?";
	slash = strrchr(file, '/');
	return !slash ? file : slash[1] ? slash + 1 : "?";
}

static int strcmp_null(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int site_cmp(const void *pa, const void *pb)
{
	const struct mpiv_finding_site *a = pa, *b = pb;
	int c;

	if ((c = strcmp_null(a->call, b->call)))
		return c;
	if ((c = strcmp_null(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp_null(a->function, b->function);
}

size_t mpiv_finding_distinct_sites(const struct mpiv_finding *f, struct mpiv_finding_site *out)
{
	size_t i, n = 0;

	if (!f->nsites)
		return 0;
	memcpy(out, f->sites, f->nsites * sizeof(*out));
	qsort(out, f->nsites, sizeof(*out), site_cmp);
	for (i = 0; i < f->nsites; i++)
		if (!n || site_cmp(&out[n - 1], &out[i]))
			out[n++] = out[i];
	return n;
}

/* FNV-1a, 64 bits: the same on every machine, and enough to tell findings apart. */
static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int strptr_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void mpiv_finding_fingerprint(const struct mpiv_finding *f, char buf[MPIV_FINGERPRINT_SIZE])
{
	char **each = xcalloc(f->nsites + 1, sizeof(*each));
	uint64_t h = fnv(0xcbf29ce484222325ULL,
			 mpiv_finding_kind_name(f->kind) ? mpiv_finding_kind_name(f->kind) : "?");
	size_t i;

	/* the calls each once by name, file and function, whatever their lines */
	for (i = 0; i < f->nsites; i++) {
		const struct mpiv_finding_site *s = &f->sites[i];
		const char *call = s->call ? s->call : "?", *fun = s->function ? s->function : "?";
		const char *file = mpiv_finding_basename(s->file);

		each[i] = xmalloc(strlen(call) + strlen(file) + strlen(fun) + 3);
		sprintf(each[i], "%s|%s|%s", call, file, fun);
	}
	qsort(each, f->nsites, sizeof(*each), strptr_cmp);
	for (i = 0; i < f->nsites; i++)
		if (!i || strcmp(each[i - 1], each[i]))
			h = fnv(fnv(h, "\n"), each[i]);
	for (i = 0; i < f->nsites; i++)
		free(each[i]);
	free(each);
	snprintf(buf, MPIV_FINGERPRINT_SIZE, "%016llx", (unsigned long long)h);
}
