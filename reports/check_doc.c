/* check's JSON document (doc/check-json.md): the verdict, the modes searched, each deadlock,
 * the stopped ranks, the reduction check's errors and the recorded run's warnings. Every
 * output of check is made from it: --json prints it, the text report and suppressions follow
 * its findings (findings.c), and report.html, report.sarif and waits-for.dot are drawn from it
 * (report_files.c). */
#include "jsontext.h"
#include "report.h"
#include "translate.h"

json_t *check_document(const struct check_outcome *c)
{
	json_t *doc = json_object(), *dl = json_array();
	int i;

	for (i = 0; i < c->found->n; i++)
		json_array_append_new(dl, report_deadlock_json(c->ts, &c->found->d[i]));
	json_object_set_new(doc, "format", json_string("mpiverify-check"));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "trace", mpiv_json_text(c->dir));
	json_object_set_new(doc, "verdict",
			    json_string(c->rc == MPIV_EXIT_DEADLOCK	? "deadlock" :
					c->rc == MPIV_EXIT_INCONCLUSIVE ? "inconclusive" :
					c->rc == MPIV_EXIT_OK		? "no deadlock" :
									  "error"));
	json_object_set_new(doc, "exit", json_integer(c->rc));
	if (c->rc == MPIV_EXIT_INCONCLUSIVE) {
		json_t *why = json_array();

		json_object_set_new(
			doc, "why",
			json_string(
				c->incomplete ?
					"a search was cut short" :
					"some ranks did not finish: the run is not a whole path"));
		/* each reason, as a word a script can test (doc/check-json.md) */
		if (c->incomplete)
			json_array_append_new(why, json_string("search-cut"));
		if (!tr_all_finished(c->ts))
			json_array_append_new(why, json_string("ranks-stopped"));
		if (tr_left_out(c->ts))
			json_array_append_new(why, json_string("calls-left-out"));
		json_object_set_new(doc, "inconclusive", why);
	}
	json_object_set_new(doc, "stopped", report_stops_json(c->ts, c->prog));
	json_object_set_new(doc, "modes", json_incref(c->modes));
	json_object_set_new(doc, "deadlocks", dl);
	json_object_set_new(doc, "errors", report_reductions_json(json_array(), c->ts, 1));
	json_object_set_new(doc, "warnings",
			    report_reductions_json(report_warnings_json(c->ts, c->warns, c->nwarns),
						   c->ts, 0));
	return doc;
}
