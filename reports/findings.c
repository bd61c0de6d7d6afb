/* The findings of a document and their suppression (findings.h, doc/reports.md). */
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "xalloc.h"

char *findings_call_name(const char *desc)
{
	size_t n = desc ? strcspn(desc, "(") : 0;
	char *s = xmalloc(n + 1);

	memcpy(s, desc ? desc : "", n);
	s[n] = '\0';
	return s;
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The call site of entry o (its "site") with the call name call. */
static void add_site(struct finding *fd, const char *call, json_t *site)
{
	struct mpiv_finding_site *s;

	fd->f.sites = xrealloc(fd->f.sites, (fd->f.nsites + 1) * sizeof(*fd->f.sites));
	s = &fd->f.sites[fd->f.nsites++];
	s->call = call;
	s->function = str(site, "function");
	s->file = str(site, "file");
	s->line = (int)json_integer_value(json_object_get(site, "line"));
}

/* A name the finding owns (freed with it). */
static const char *own(struct finding *fd, char *name)
{
	size_t n = 0;

	while (fd->names && fd->names[n])
		n++;
	fd->names = xrealloc(fd->names, (n + 2) * sizeof(*fd->names));
	fd->names[n] = name;
	fd->names[n + 1] = NULL;
	return name;
}

static struct finding *add(struct findings *fs, json_t *entry, const char *section, int index,
			   int kind)
{
	struct finding *fd;

	fs->f = xrealloc(fs->f, (size_t)(fs->n + 1) * sizeof(*fs->f));
	fd = &fs->f[fs->n++];
	memset(fd, 0, sizeof(*fd));
	fd->entry = entry;
	fd->section = section;
	fd->index = index;
	fd->f.kind = kind;
	return fd;
}

/* The entries of an array whose each is about one call ("call", "site"). */
static void one_call_each(struct findings *fs, json_t *doc, const char *section, int fixed_kind)
{
	json_t *a = json_object_get(doc, section), *e;
	size_t i;

	json_array_foreach(a, i, e)
	{
		int kind = fixed_kind >= 0 ? fixed_kind :
					     mpiv_finding_kind_from_name(
						     str(e, "kind") ? str(e, "kind") : "");
		struct finding *fd;

		if (kind < 0)
			continue;
		fd = add(fs, e, section, (int)i, kind);
		if (str(e, "call"))
			add_site(fd, own(fd, findings_call_name(str(e, "call"))),
				 json_object_get(e, "site"));
	}
}

void findings_of(struct findings *fs, json_t *doc)
{
	json_t *a = json_object_get(doc, "deadlocks"), *e, *b;
	size_t i, j;
	int k, m;

	memset(fs, 0, sizeof(*fs));
	json_array_foreach(a, i, e)
	{
		int kind = mpiv_finding_kind_from_name(str(e, "kind") ? str(e, "kind") : "");
		struct finding *fd = add(fs, e, "deadlocks", (int)i,
					 kind < 0 ? MPIV_FIND_DEADLOCK : kind);

		json_array_foreach(json_object_get(e, "blocked"), j, b)
			add_site(fd, str(b, "call"), json_object_get(b, "site"));
	}
	one_call_each(fs, doc, "errors", -1);
	one_call_each(fs, doc, "warnings", -1);
	one_call_each(fs, doc, "stopped", MPIV_FIND_RANK_STOPPED);
	/* the N-th finding of a fingerprint: two alike (the same calls at other lines) differ */
	for (k = 0; k < fs->n; k++) {
		char hex[MPIV_FINGERPRINT_SIZE];
		int nth = 1;

		mpiv_finding_fingerprint(&fs->f[k].f, hex);
		for (m = 0; m < k; m++)
			if (!strncmp(fs->f[m].fingerprint, hex, MPIV_FINGERPRINT_SIZE - 1))
				nth++;
		snprintf(fs->f[k].fingerprint, sizeof(fs->f[k].fingerprint), "%s:%d", hex, nth);
		json_object_set_new(fs->f[k].entry, "fingerprint",
				    json_string(fs->f[k].fingerprint));
	}
}

void findings_suppress(struct findings *fs, const struct mpiv_suppressions *set,
		       long long ignore_below)
{
	int k;

	snprintf(fs->ignored, sizeof(fs->ignored), "--ignore-potential-below %lld", ignore_below);
	for (k = 0; k < fs->n; k++) {
		struct finding *fd = &fs->f[k];
		const struct mpiv_suppression *sp = mpiv_suppressions_match(set, &fd->f);
		json_t *most = json_object_get(fd->entry, "unbuffered_max_bytes");

		if (sp)
			fd->suppressed = sp->name;
		else if (ignore_below > 0 && json_is_integer(most) &&
			 json_integer_value(most) < ignore_below &&
			 (fd->f.kind == MPIV_FIND_POTENTIAL ||
			  json_is_true(json_object_get(fd->entry, "needs_unbuffered"))))
			fd->suppressed = fs->ignored;
		if (!fd->suppressed)
			continue;
		fs->nsuppressed++;
		json_object_set_new(fd->entry, "suppressed", json_string(fd->suppressed));
	}
}

int findings_hidden(const struct findings *fs, const char *section, int index)
{
	int k;

	for (k = 0; fs && k < fs->n; k++)
		if (fs->f[k].index == index && !strcmp(fs->f[k].section, section))
			return fs->f[k].suppressed != NULL;
	return 0;
}

int findings_shown(const struct findings *fs, int deadlocks)
{
	int k, n = 0;

	for (k = 0; k < fs->n; k++) {
		int kind = fs->f[k].f.kind;

		if (fs->f[k].suppressed)
			continue;
		if (deadlocks ? mpiv_finding_kind_is_deadlock(kind) :
				kind >= MPIV_FIND_RED_MISMATCH && kind <= MPIV_FIND_RED_CORRUPT)
			n++;
	}
	return n;
}

/* "MPI_Send at x.c:12 (main)" of a site. */
static void site_text(const struct mpiv_finding_site *s, char *buf, size_t size)
{
	if (s->file && s->function)
		snprintf(buf, size, "%s at %s:%d (%s)", s->call ? s->call : "?",
			 mpiv_finding_basename(s->file), s->line, s->function);
	else if (s->file || s->function)
		snprintf(buf, size, "%s at %s", s->call ? s->call : "?",
			 s->file ? mpiv_finding_basename(s->file) : s->function);
	else
		snprintf(buf, size, "%s at an unknown location", s->call ? s->call : "?");
}

void findings_print_suppressed(FILE *f, const struct findings *fs)
{
	int k;
	size_t i;

	if (!fs->nsuppressed)
		return;
	fprintf(f, "suppressed findings (%d), not counted in the exit status:\n", fs->nsuppressed);
	for (k = 0; k < fs->n; k++) {
		const struct finding *fd = &fs->f[k];
		struct mpiv_finding_site *d;
		size_t n;

		if (!fd->suppressed)
			continue;
		d = xcalloc(fd->f.nsites + 1, sizeof(*d));
		n = mpiv_finding_distinct_sites(&fd->f, d);
		fprintf(f, "  %s:", mpiv_finding_kind_name(fd->f.kind));
		for (i = 0; i < n; i++) {
			char where[512];

			site_text(&d[i], where, sizeof(where));
			fprintf(f, "%s %s", i ? "," : "", where);
		}
		fprintf(f, " (by '%s')\n", fd->suppressed);
		free(d);
	}
}

int findings_write_suppressions(FILE *f, const struct findings *fs)
{
	int k, n = 0;

	for (k = 0; k < fs->n; k++) {
		const struct finding *fd = &fs->f[k];
		char name[600], where[512];

		if (fd->suppressed || fd->f.kind == MPIV_FIND_RANK_STOPPED)
			continue;
		if (fd->f.nsites) {
			site_text(&fd->f.sites[0], where, sizeof(where));
			snprintf(name, sizeof(name), "%s: %s", mpiv_finding_kind_name(fd->f.kind),
				 where);
		} else {
			snprintf(name, sizeof(name), "%s", mpiv_finding_kind_name(fd->f.kind));
		}
		mpiv_suppression_write(f, &fd->f, name);
		n++;
	}
	return n;
}

const char *findings_severity(int kind)
{
	if (mpiv_finding_kind_is_deadlock(kind) ||
	    (kind >= MPIV_FIND_RED_MISMATCH && kind <= MPIV_FIND_RED_CORRUPT))
		return "error";
	return kind == MPIV_FIND_RED_UNCHECKED ? "note" : "warning";
}

void findings_release(struct findings *fs)
{
	int k;
	size_t i;

	for (k = 0; k < fs->n; k++) {
		for (i = 0; fs->f[k].names && fs->f[k].names[i]; i++)
			free(fs->f[k].names[i]);
		free(fs->f[k].names);
		free(fs->f[k].f.sites);
	}
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}
