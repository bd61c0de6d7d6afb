/* Suppressions (suppress.h, doc/reports.md): the reader, the matcher and the writer. The
 * format is line based: blocks in braces, a name, "mpiverify:KIND", one line per call. */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "suppress.h"
#include "xalloc.h"

#define MAX_FILE_BYTES (64L << 20) /* a suppressions file is a list of findings: not more */

/* The reader's place in the text. */
struct reader {
	const char *p, *end;
	const char *file;
	int line;  /* of the line last read */
	char *buf; /* that line, its blanks around it cut */
	size_t cap;
	struct mpiv_error *err;
};

static int fail(struct reader *rd, const char *fmt, const char *arg)
{
	char text[400];

	snprintf(text, sizeof(text), fmt, arg ? arg : "");
	mpiv_error_set(rd->err, MPIV_EXIT_BAD_INPUT, rd->file, -1, -1, "%s", text);
	if (rd->err && !rd->err->line)
		rd->err->line = rd->line;
	return -1;
}

/* The next line into rd->buf, its blanks around it cut; 0 at the end, 1 with a line, -1
 * after an error. Comment lines ('#' first) and blank lines are skipped. */
static int next_line(struct reader *rd)
{
	while (rd->p < rd->end) {
		const char *nl = memchr(rd->p, '\n', (size_t)(rd->end - rd->p));
		const char *b = rd->p, *e = nl ? nl : rd->end;

		rd->p = nl ? nl + 1 : rd->end;
		rd->line++;
		if (memchr(b, '\0', (size_t)(e - b)))
			return fail(rd, "a NUL byte: not a text file", NULL);
		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (b == e || *b == '#')
			continue;
		xgrow((void **)&rd->buf, &rd->cap, (size_t)(e - b) + 1, 1);
		memcpy(rd->buf, b, (size_t)(e - b));
		rd->buf[e - b] = '\0';
		return 1;
	}
	return 0;
}

/* Does the kind pattern name some kind? */
static int kind_known(const char *pat)
{
	int k;

	for (k = 0; k < MPIV_FIND__COUNT; k++)
		if (k != MPIV_FIND_RANK_STOPPED && !fnmatch(pat, mpiv_finding_kind_name(k), 0))
			return 1;
	return 0;
}

/* A call line: "CALL [fun:PATTERN] [src:PATTERN[:LINE]]". */
static int parse_site(struct reader *rd, char *buf, struct mpiv_supp_site *s)
{
	char *tok, *save = NULL;

	memset(s, 0, sizeof(*s));
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!s->call) {
			if (strchr(tok, ':'))
				return fail(rd,
					    "expected the call's name first (MPI_Send, or a "
					    "pattern), got '%s'",
					    tok);
			s->call = xstrdup(tok);
		} else if (!strncmp(tok, "fun:", 4)) {
			if (s->fun || !tok[4])
				return fail(rd, "'%s': fun: given twice, or empty", tok);
			s->fun = xstrdup(tok + 4);
		} else if (!strncmp(tok, "src:", 4)) {
			char *colon = strrchr(tok + 4, ':');

			if (s->src || !tok[4])
				return fail(rd, "'%s': src: given twice, or empty", tok);
			/* src:FILE:LINE when what follows the last ':' is a number */
			if (colon && colon[1] &&
			    strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
				long line;

				errno = 0;
				line = strtol(colon + 1, NULL, 10);
				if (errno || line < 1 || line > 1 << 30)
					return fail(rd,
						    "'%s': the line of src:FILE:LINE must be a "
						    "positive number",
						    tok);
				s->line = (int)line;
				*colon = '\0';
				if (!tok[4])
					return fail(rd, "'%s': src: without a file", tok);
			}
			s->src = xstrdup(tok + 4);
		} else {
			return fail(rd,
				    "unexpected '%s': a call line is CALL [fun:FUNCTION] "
				    "[src:FILE[:LINE]]",
				    tok);
		}
	}
	return 0;
}

static void supp_release(struct mpiv_suppression *s)
{
	size_t i;

	for (i = 0; i < s->nsites; i++) {
		free(s->sites[i].call);
		free(s->sites[i].fun);
		free(s->sites[i].src);
	}
	free(s->sites);
	free(s->name);
	free(s->kind);
	free(s->file);
	memset(s, 0, sizeof(*s));
}

/* One block, its '{' read. Returns 0 or -1. */
static int parse_block(struct reader *rd, struct mpiv_suppression *s)
{
	int start = rd->line, rc;

	memset(s, 0, sizeof(*s));
	s->file = xstrdup(rd->file);
	s->line = start;
	if ((rc = next_line(rd)) <= 0 || !strcmp(rd->buf, "}") || !strcmp(rd->buf, "{"))
		return rc < 0  ? -1 :
		       rc == 0 ? fail(rd, "the suppression has no end", NULL) :
				 fail(rd, "expected the suppression's name, got '%s'", rd->buf);
	s->name = xstrdup(rd->buf);
	if ((rc = next_line(rd)) <= 0)
		return rc < 0 ? -1 : fail(rd, "the suppression has no end", NULL);
	if (strncmp(rd->buf, "mpiverify:", 10) || !rd->buf[10])
		return fail(rd,
			    "expected 'mpiverify:KIND' (deadlock, potential-deadlock, ...), "
			    "got '%s'",
			    rd->buf);
	if (!strcmp(rd->buf + 10, mpiv_finding_kind_name(MPIV_FIND_RANK_STOPPED)))
		return fail(rd,
			    "'%s': a rank that stopped cannot be suppressed: the run is not "
			    "a whole path",
			    rd->buf);
	if (!kind_known(rd->buf + 10))
		return fail(rd, "unknown kind '%s' (see doc/reports.md)", rd->buf + 10);
	s->kind = xstrdup(rd->buf + 10);
	for (;;) {
		if ((rc = next_line(rd)) <= 0)
			return rc < 0 ? -1 : fail(rd, "the suppression has no '}'", NULL);
		if (!strcmp(rd->buf, "}"))
			break;
		if (s->more)
			return fail(rd, "expected '}' after '...', got '%s'", rd->buf);
		if (!strcmp(rd->buf, "...")) {
			s->more = 1;
			continue;
		}
		if (!strcmp(rd->buf, "{"))
			return fail(rd, "a '{' inside a suppression: its '}' is missing", NULL);
		s->sites = xrealloc(s->sites, (s->nsites + 1) * sizeof(*s->sites));
		if (parse_site(rd, rd->buf, &s->sites[s->nsites++]))
			return -1;
	}
	if (!s->nsites && !s->more)
		return fail(rd,
			    "the suppression names no call: give one line per call, or '...' "
			    "for any",
			    NULL);
	return 0;
}

int mpiv_suppressions_parse(struct mpiv_suppressions *set, const char *text, size_t len,
			    const char *file, struct mpiv_error *err)
{
	struct reader rd = {text, text + len, file, 0, NULL, 0, err};
	size_t first = set->n;
	int rc;

	while ((rc = next_line(&rd)) > 0) {
		if (strcmp(rd.buf, "{")) {
			rc = fail(&rd, "expected '{' to open a suppression, got '%s'", rd.buf);
			break;
		}
		xgrow((void **)&set->s, &set->cap, set->n + 1, sizeof(*set->s));
		if (parse_block(&rd, &set->s[set->n])) {
			supp_release(&set->s[set->n]);
			rc = -1;
			break;
		}
		set->n++;
	}
	free(rd.buf);
	if (rc == 0)
		return 0;
	while (set->n > first)
		supp_release(&set->s[--set->n]);
	return -1;
}

int mpiv_suppressions_load(struct mpiv_suppressions *set, const char *path, struct mpiv_error *err)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long len;
	int rc;

	if (!f)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "cannot read suppressions: %s", strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "cannot read suppressions: not a regular file");
	}
	if (len > MAX_FILE_BYTES) {
		fclose(f);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "suppressions file of %ld bytes: more than %ld", len,
				      MAX_FILE_BYTES);
	}
	text = xmalloc((size_t)len + 1);
	if (fread(text, 1, (size_t)len, f) != (size_t)len) {
		free(text);
		fclose(f);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "cannot read suppressions: %s", strerror(errno));
	}
	fclose(f);
	rc = mpiv_suppressions_parse(set, text, (size_t)len, path, err);
	free(text);
	return rc;
}

/* Does line p of a suppression match call site s? */
static int site_matches(const struct mpiv_supp_site *p, const struct mpiv_finding_site *s)
{
	if (fnmatch(p->call, s->call ? s->call : "", 0))
		return 0;
	if (p->fun && fnmatch(p->fun, s->function ? s->function : "", 0))
		return 0;
	if (p->src &&
	    fnmatch(p->src,
		    strchr(p->src, '/') ? (s->file ? s->file : "") : mpiv_finding_basename(s->file),
		    0))
		return 0;
	return !p->line || p->line == s->line;
}

static int matches(const struct mpiv_suppression *sp, const struct mpiv_finding *f)
{
	size_t i, j;

	if (fnmatch(sp->kind, mpiv_finding_kind_name(f->kind), 0))
		return 0;
	/* every line matches a call of the finding ... */
	for (i = 0; i < sp->nsites; i++) {
		for (j = 0; j < f->nsites && !site_matches(&sp->sites[i], &f->sites[j]); j++)
			;
		if (j == f->nsites)
			return 0;
	}
	if (sp->more)
		return 1;
	/* ... and every call of the finding is matched by a line */
	for (j = 0; j < f->nsites; j++) {
		for (i = 0; i < sp->nsites && !site_matches(&sp->sites[i], &f->sites[j]); i++)
			;
		if (i == sp->nsites)
			return 0;
	}
	return 1;
}

const struct mpiv_suppression *mpiv_suppressions_match(const struct mpiv_suppressions *set,
						       const struct mpiv_finding *f)
{
	size_t i;

	if (!set || f->kind == MPIV_FIND_RANK_STOPPED || !mpiv_finding_kind_name(f->kind))
		return NULL;
	for (i = 0; i < set->n; i++)
		if (matches(&set->s[i], f))
			return &set->s[i];
	return NULL;
}

/* s as a pattern that matches exactly it: glob characters escaped, and those the reader
 * gives a meaning at a line's start ('#', '{', '}', "..."); blanks (which end a token),
 * other control characters and ':' (which may start a line number) matched by '?'. */
static void put_literal(FILE *out, const char *s)
{
	if (!strcmp(s, "..."))
		fputc('\\', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == 0x7f || c == ':')
			fputc('?', out);
		else if (strchr("*?[]\\#{}", c))
			fprintf(out, "\\%c", c);
		else
			fputc(c, out);
	}
}

void mpiv_suppression_write(FILE *out, const struct mpiv_finding *f, const char *name)
{
	struct mpiv_finding_site *d = xcalloc(f->nsites + 1, sizeof(*d));
	size_t n = mpiv_finding_distinct_sites(f, d), i, j;
	const char *p;

	/* the name as one line the reader takes for a name: not blank, not a comment, no
	 * brace */
	fprintf(out, "{\n   ");
	p = name + strspn(name, " \t\r\n");
	if (!*p || strchr("#{}", *p))
		fputs("- ", out);
	for (p = name; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
	fprintf(out, "\n   mpiverify:%s\n", mpiv_finding_kind_name(f->kind));
	for (i = 0; i < n; i++) {
		/* the same call, function and file at another line: one line matches both */
		for (j = 0; j < i; j++)
			if (!strcmp(d[j].call ? d[j].call : "", d[i].call ? d[i].call : "") &&
			    !strcmp(d[j].function ? d[j].function : "",
				    d[i].function ? d[i].function : "") &&
			    !strcmp(mpiv_finding_basename(d[j].file),
				    mpiv_finding_basename(d[i].file)))
				break;
		if (j < i)
			continue;
		fputs("   ", out);
		if (d[i].call && *d[i].call)
			put_literal(out, d[i].call);
		else
			fputc('*', out); /* an unknown call: any */
		if (d[i].function && *d[i].function) {
			fputs(" fun:", out);
			put_literal(out, d[i].function);
		}
		if (d[i].file && *d[i].file) {
			fputs(" src:", out);
			put_literal(out, mpiv_finding_basename(d[i].file));
		}
		fputc('\n', out);
	}
	if (!n)
		fputs("   ...\n", out);
	fputs("}\n", out);
	free(d);
}

void mpiv_suppressions_release(struct mpiv_suppressions *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		supp_release(&set->s[i]);
	free(set->s);
	memset(set, 0, sizeof(*set));
}
