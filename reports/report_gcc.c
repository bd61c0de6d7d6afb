/* --diagnostics-format=gcc (doc/reports.md): the findings of a check or verify document as
 * compilers print theirs, one "FILE:LINE: error: ..." line a finding at its first call site,
 * its other calls and what to do next as "note:" lines, so that an editor's error list (Vim's
 * quickfix, Emacs's compilation mode) and a CI problem matcher read them. A call site with no
 * file is named "mpiverify" instead. */
#include <stdio.h>
#include <string.h>

#include "report_files.h"

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* "FILE:LINE: SEVERITY: " of site s (mpiverify's own name when the file is unknown). */
static void lead(FILE *f, const struct mpiv_finding_site *s, const char *sev)
{
	if (s && s->file && *s->file && s->line > 0)
		fprintf(f, "%s:%d: %s: ", s->file, s->line, sev);
	else
		fprintf(f, "mpiverify: %s: ", sev);
}

/* " in FUNCTION" of site s, or nothing. */
static const char *in_function(const struct mpiv_finding_site *s, char *buf, size_t size)
{
	if (!s || !s->function)
		return "";
	snprintf(buf, size, " in %s", s->function);
	return buf;
}

static void deadlock(FILE *f, const struct finding *fd)
{
	json_t *e = fd->entry, *blocked = json_object_get(e, "blocked"), *w;
	const struct mpiv_finding_site *first = fd->f.nsites ? &fd->f.sites[0] : NULL;
	char fn[256];
	size_t k;

	for (k = 0; k < fd->f.nsites; k++) {
		json_t *b = json_array_get(blocked, k);
		const struct mpiv_finding_site *s = &fd->f.sites[k];

		lead(f, s, k ? "note" : findings_severity(fd->f.kind));
		if (!k)
			fprintf(f, "%s: ",
				*str(e, "class") ? str(e, "class") :
						   mpiv_finding_kind_name(fd->f.kind));
		fprintf(f, "rank %d blocked in %s%s",
			(int)json_integer_value(json_object_get(b, "rank")),
			*str(b, "desc") ? str(b, "desc") : str(b, "call"),
			in_function(s, fn, sizeof(fn)));
		fprintf(f, k ? "\n" : " [%s]\n", fd->fingerprint);
	}
	if (!fd->f.nsites) { /* no blocked call known: the finding alone */
		lead(f, NULL, findings_severity(fd->f.kind));
		fprintf(f, "%s [%s]\n", mpiv_finding_kind_name(fd->f.kind), fd->fingerprint);
	}
	if (json_array_size(json_object_get(e, "waits_for"))) {
		lead(f, first, "note");
		json_array_foreach(json_object_get(e, "waits_for"), k, w)
			fprintf(f, "%s rank %d -> rank %d", k ? "," : "waits for:",
				(int)json_integer_value(json_object_get(w, "rank")),
				(int)json_integer_value(json_object_get(w, "waits_for")));
		fputc('\n', f);
	}
	if (*str(e, "replay")) {
		lead(f, first, "note");
		fprintf(f, "replay it: %s\n", str(e, "replay"));
	}
}

void report_gcc(FILE *f, json_t *doc, const struct findings *fs)
{
	int i, shown = 0;
	char fn[256];

	for (i = 0; i < fs->n; i++) {
		const struct finding *fd = &fs->f[i];
		json_t *e = fd->entry;

		if (fd->suppressed)
			continue;
		shown++;
		if (!strcmp(fd->section, "deadlocks")) {
			deadlock(f, fd);
			continue;
		}
		/* a stopped rank says how it stopped, the others what went wrong */
		lead(f, fd->f.nsites ? &fd->f.sites[0] : NULL, findings_severity(fd->f.kind));
		fprintf(f, "%s: rank %d %s%s: %s [%s]\n", mpiv_finding_kind_name(fd->f.kind),
			(int)json_integer_value(json_object_get(e, "rank")),
			!strcmp(fd->section, "stopped") ? "stopped" : str(e, "call"),
			in_function(fd->f.nsites ? &fd->f.sites[0] : NULL, fn, sizeof(fn)),
			str(e, "text"), fd->fingerprint);
	}
	/* the answer, as a compiler's count of errors closes its output */
	fprintf(f, "mpiverify: note: verdict: %s (%d finding%s shown, %d suppressed)\n",
		str(doc, "verdict"), shown, shown == 1 ? "" : "s", fs->nsuppressed);
}
