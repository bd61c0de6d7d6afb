/* report.html (doc/reports.md): the template reports/report_template.html (built into the
 * executable as report_template.gen.c) with the report's data where its marker is: the JSON
 * document and each deadlock's details (report_details.c), which the page's script draws. Long
 * lists are cut to what a page can hold (the JSON document has them all), and the data is
 * written so that no text in it can end the script element. */
#include <stdlib.h>
#include <string.h>

#include "report_files.h"

#define MARKER "@MPIVERIFY_REPORT_DATA@"
#define MAX_ROWS 200	 /* warnings, errors, stopped ranks, runs on the page */
#define MAX_DEADLOCKS 20 /* deadlocks drawn on the page */

extern const char report_template[]; /* report_template.gen.c */

/* doc's array key cut to max entries on page (a copy of doc), with "KEY_more" the rest. */
static void cut(json_t *page, const char *key, size_t max)
{
	json_t *a = json_object_get(page, key), *head;
	char more[64];
	size_t k;

	if (!json_is_array(a) || json_array_size(a) <= max)
		return;
	head = json_array();
	for (k = 0; k < max; k++)
		json_array_append(head, json_array_get(a, k));
	snprintf(more, sizeof(more), "%s_more", key);
	json_object_set_new(page, more, json_integer((json_int_t)(json_array_size(a) - max)));
	json_object_set_new(page, key, head);
}

/* JSON text inside <script>: '<' written as \u003c (it can only be inside a string), so that
 * neither "</script>" nor "<!--" can appear. */
static void put_script_json(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("\\u003c", f);
		else
			fputc(*s, f);
	}
}

void report_html(FILE *f, json_t *doc, json_t *details)
{
	const char *at = strstr(report_template, MARKER);
	json_t *page = json_copy(doc), *data, *d;
	char *text;
	size_t k;

	cut(page, "warnings", MAX_ROWS);
	cut(page, "errors", MAX_ROWS);
	cut(page, "stopped", MAX_ROWS);
	cut(page, "runs", MAX_ROWS);
	cut(page, "unconfirmed", MAX_ROWS);
	cut(page, "deadlocks", MAX_DEADLOCKS);
	/* a copy of the array, whose entries are replaced: doc's stays as it is */
	json_object_set_new(page, "deadlocks", json_copy(json_object_get(page, "deadlocks")));
	json_array_foreach(json_object_get(page, "deadlocks"), k, d)
	{
		/* each deadlock's own lists too: a long path has many sends on the way */
		json_t *own = json_copy(d);

		cut(own, "unbuffered_sends", MAX_ROWS);
		cut(own, "wildcard_matches", MAX_ROWS);
		cut(own, "blocked", MAX_ROWS);
		cut(own, "waits_for", MAX_ROWS);
		json_array_set_new(json_object_get(page, "deadlocks"), k, own);
	}
	data = json_pack("{s:o, s:O}", "doc", page, "details", details ? details : json_null());
	if (!data)
		return;
	if (json_is_array(details) && json_array_size(details) > MAX_DEADLOCKS) {
		json_t *head = json_array();

		for (k = 0; k < MAX_DEADLOCKS; k++)
			json_array_append(head, json_array_get(details, k));
		json_object_set_new(data, "details", head);
	}
	text = json_dumps(data, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fwrite(report_template, 1, (size_t)(at - report_template), f);
	put_script_json(f, text ? text : "{}");
	fputs(at + strlen(MARKER), f);
	free(text);
	json_decref(data);
}
