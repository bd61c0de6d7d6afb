/* The report files of an output directory (report_files.h): report.html, report.sarif and
 * waits-for.dot, each written whole or not at all (into a temporary name, then renamed), so
 * that a CI job never reads half a log. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "report_files.h"

enum which { HTML, SARIF, DOT };

static int write_one(const char *dir, const char *name, enum which w, json_t *doc,
		     const struct findings *fs, json_t *details)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int bad;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return error("cannot write '%s/%s': name too long", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return error("cannot write '%s': %s", tmp, strerror(errno));
	if (w == HTML)
		report_html(f, doc, details);
	else if (w == SARIF)
		report_sarif(f, doc, fs);
	else
		report_dot(f, doc);
	bad = ferror(f);
	if ((fclose(f) | bad) != 0 || rename(tmp, path) != 0) {
		error("cannot write '%s': %s", path, bad ? "write error" : strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int report_files(const char *dir, json_t *doc, const struct findings *fs, json_t *details)
{
	int rc = write_one(dir, REPORT_SARIF_FILE, SARIF, doc, fs, details);

	if (!rc)
		rc = write_one(dir, REPORT_DOT_FILE, DOT, doc, fs, details);
	if (!rc)
		rc = write_one(dir, REPORT_HTML_FILE, HTML, doc, fs, details);
	json_decref(details);
	return rc;
}

#define DATA_OPEN "<script type=\"application/json\" id=\"mpiverify-data\">"

/* The data report_html() put into the page at path, or NULL (no such page, or not one of
 * ours). */
static json_t *page_data(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, *start, *end;
	size_t len = 0;
	json_t *data = NULL;

	if (!f)
		return NULL;
	if (getdelim(&text, &len, '\0', f) > 0 && (start = strstr(text, DATA_OPEN)) &&
	    (end = strstr(start, "</script>"))) {
		/* the data has no '<' of its own (report_html.c): the first end tag is its end */
		start += strlen(DATA_OPEN);
		data = json_loadb(start, (size_t)(end - start), 0, NULL);
	}
	free(text);
	fclose(f);
	return data;
}

int report_html_replayed(const char *cex_path, json_t *outcome)
{
	char *copy = strdup(cex_path), *abs = realpath(cex_path, NULL), dir[PATH_MAX];
	json_t *data, *d;
	size_t k;
	int rc = 0, found = 0;

	snprintf(dir, sizeof(dir), "%s", copy ? dirname(copy) : ".");
	free(copy);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s", REPORT_HTML_FILE);
	data = page_data(dir);
	json_array_foreach(json_object_get(json_object_get(data, "doc"), "deadlocks"), k,
			   d) if (abs && json_is_string(json_object_get(d, "cex")) &&
				  !strcmp(json_string_value(json_object_get(d, "cex")), abs))
	{
		json_object_set(d, "replay_outcome", outcome);
		found = 1;
	}
	if (found) {
		*strrchr(dir, '/') = '\0';
		rc = write_one(dir, REPORT_HTML_FILE, HTML, json_object_get(data, "doc"), NULL,
			       json_object_get(data, "details"));
	}
	json_decref(data);
	json_decref(outcome);
	free(abs);
	return rc;
}
