/* The report files of an output directory (report_files.h): report.html, report.sarif and
 * waits-for.dot, each written whole or not at all (into a temporary name, then renamed), so
 * that a CI job never reads half a log. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
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
