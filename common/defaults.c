/* Default options (defaults.h): split a file's lines, or a variable's value, into words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defaults.h"
#include "xalloc.h"

static const char *const commands[] = {"record", "check", "replay", "verify", "trace"};

int mpiv_defaults_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i]))
			return 1;
	return 0;
}

static void add_word(struct mpiv_defaults *d, const char *w, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, w, n);
	s[n] = '\0';
	d->words = xrealloc(d->words, (d->n + 1) * sizeof(*d->words));
	d->words[d->n++] = s;
}

static void add_from(struct mpiv_defaults *d, const char *from)
{
	size_t old = d->from ? strlen(d->from) : 0, n = strlen(from);

	d->from = xrealloc(d->from, old + n + 3);
	if (old)
		memcpy(d->from + old, ", ", 2), old += 2;
	memcpy(d->from + old, from, n + 1);
}

/* Add the words of line (n bytes, no newline) to out. Returns 0, or -1 with why set. */
static int split(const char *line, size_t n, struct mpiv_defaults *out, const char **why)
{
	size_t i = 0, start;

	for (;;) {
		while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i == n || line[i] == '#')
			return 0;
		if (line[i] == '"') {
			start = ++i;
			while (i < n && line[i] != '"')
				i++;
			if (i == n) {
				*why = "a quote that does not end on its line";
				return -1;
			}
			add_word(out, line + start, i - start);
			i++;
			continue;
		}
		start = i;
		while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
		       line[i] != '"')
			i++;
		add_word(out, line + start, i - start);
	}
}

/* Add what got holds to d, and release got. */
static void take(struct mpiv_defaults *d, struct mpiv_defaults *got)
{
	size_t k;

	for (k = 0; k < got->n; k++)
		add_word(d, got->words[k], strlen(got->words[k]));
	if (got->from)
		add_from(d, got->from);
	mpiv_defaults_release(got);
}

/* The words of line number `line` of text (n bytes) into got, with where they came from, if
 * the line is command cmd's. Returns 0, or -1 with why set. */
static int parse_line(struct mpiv_defaults *got, const char *text, size_t n, const char *cmd,
		      const char *source, int line, const char **why)
{
	struct mpiv_defaults words = {NULL, 0, NULL};
	char from[300];
	size_t k;

	if (split(text, n, &words, why) == 0 && words.n && !mpiv_defaults_command(words.words[0]))
		*why = "its first word is no command of mpiverify's (record, check, replay, verify, "
		       "trace)";
	if (!*why && words.n > 1 && !strcmp(words.words[0], cmd)) {
		for (k = 1; k < words.n; k++)
			add_word(got, words.words[k], strlen(words.words[k]));
		snprintf(from, sizeof(from), "%.280s:%d", source, line);
		add_from(got, from);
	}
	mpiv_defaults_release(&words);
	return *why ? -1 : 0;
}

int mpiv_defaults_parse(struct mpiv_defaults *d, const char *text, size_t len, const char *cmd,
			const char *source, struct mpiv_error *err)
{
	struct mpiv_defaults got = {NULL, 0, NULL};
	const char *why = NULL;
	size_t pos = 0;
	int line = 0;
	const char *nul = memchr(text, '\0', len);

	if (nul) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1,
			       "a NUL byte: not a text file");
		for (err->line = 1; text < nul; text++)
			err->line += *text == '\n';
		return -1;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		if (parse_line(&got, text + pos, n, cmd, source, ++line, &why) < 0) {
			mpiv_defaults_release(&got);
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, -1, -1, "%s", why);
			err->line = line;
			return -1;
		}
		pos += n + (nl ? 1 : 0);
	}
	take(d, &got);
	return 0;
}

int mpiv_defaults_words(struct mpiv_defaults *d, const char *value, const char *name,
			struct mpiv_error *err)
{
	struct mpiv_defaults got = {NULL, 0, NULL};
	const char *why = NULL;

	if (strchr(value, '\n'))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, name, -1, -1,
				      "a newline: its options are one line");
	if (split(value, strlen(value), &got, &why) < 0) {
		mpiv_defaults_release(&got);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, name, -1, -1, "%s", why);
	}
	if (got.n)
		add_from(&got, name);
	take(d, &got);
	return 0;
}

void mpiv_defaults_release(struct mpiv_defaults *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->words[i]);
	free(d->words);
	free(d->from);
	memset(d, 0, sizeof(*d));
}
