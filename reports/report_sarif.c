/* report.sarif and --sarif (doc/reports.md): the findings of a check or verify document as a
 * SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), which CI systems read:
 * one result per finding, located at its first call site with the other calls as related
 * locations, a fingerprint that follows the finding from run to run, and the suppression
 * that hides it, if one does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jsontext.h"
#include "report_files.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define FINGERPRINT_KEY "mpiverifyFinding/v1"

/* What each kind of finding is, for the log's rules. */
static const char *rule_text(int kind)
{
	switch (kind) {
	case MPIV_FIND_DEADLOCK:
		return "ranks block each other forever, whatever the MPI library buffers";
	case MPIV_FIND_POTENTIAL:
		return "ranks block each other when standard sends are not buffered (or the "
		       "messages of buffered sends stay in the attached buffer until received): "
		       "the program relies on buffering, which MPI does not promise";
	case MPIV_FIND_BUFFERING:
		return "ranks block each other only when standard sends are buffered";
	case MPIV_FIND_COLL_MISMATCH:
		return "ranks call different collectives, or name different roots, at the same "
		       "place on a communicator";
	case MPIV_FIND_READY_SEND:
		return "a ready send (MPI_Rsend) can start before its receive is posted";
	case MPIV_FIND_BSEND_OVERFLOW:
		return "a buffered send (MPI_Bsend) can find the attached buffer too full";
	case MPIV_FIND_CRASH:
		return "a rank dies of a signal, calls MPI_Abort or exits without MPI_Finalize on "
		       "a path the MPI library allows";
	case MPIV_FIND_UNRECEIVED:
		return "a message was sent and never received";
	case MPIV_FIND_TRUNCATED:
		return "a receive was shorter than the message it took";
	case MPIV_FIND_UNCOMPLETED:
		return "a request was never completed";
	case MPIV_FIND_COMM_LEAK:
		return "a communicator was never freed";
	case MPIV_FIND_DISCONNECT_PENDING:
		return "a request was still pending when its communicator was disconnected";
	case MPIV_FIND_RECV_BEFORE_SEND:
		return "a message was received before it was sent, by the recorded times: the "
		       "clocks of the two hosts disagree";
	case MPIV_FIND_LONG_SEND:
		return "a blocking send took much longer than its receive: the receiver came late";
	case MPIV_FIND_RED_MISMATCH:
		return "a reduction's result differs from a second, independent computation";
	case MPIV_FIND_RED_FAILED:
		return "a reduction returned an error";
	case MPIV_FIND_RED_CORRUPT:
		return "the data of a reduction's second computation arrived damaged";
	case MPIV_FIND_RED_UNCHECKED:
		return "a reduction could not be checked";
	default:
		return "a rank did not finish: the run is not a whole path";
	}
}

/* A file name as a URI reference: an absolute path as file://, a relative one as it is
 * (relative to the source root, %SRCROOT%); bytes other than unreserved ones and '/'
 * percent-encoded. */
static json_t *artifact(const char *file)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(file), i, k = 0;
	char *uri = malloc(n * 3 + 8);
	json_t *o;

	if (!uri)
		return NULL;
	if (file[0] == '/')
		k += (size_t)sprintf(uri, "file://");
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)file[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("-._~/", c)) {
			uri[k++] = (char)c;
		} else {
			uri[k++] = '%';
			uri[k++] = hex[c >> 4];
			uri[k++] = hex[c & 15];
		}
	}
	uri[k] = '\0';
	o = json_pack("{s:s}", "uri", uri);
	if (file[0] != '/')
		json_object_set_new(o, "uriBaseId", json_string("%SRCROOT%"));
	free(uri);
	return o;
}

/* A location of a call site; NULL when nothing of it is known. */
static json_t *location(const struct mpiv_finding_site *s, const char *text)
{
	json_t *loc = json_object();

	if (s->file && *s->file) {
		json_t *phys = json_pack("{s:o}", "artifactLocation", artifact(s->file));

		if (s->line > 0)
			json_object_set_new(phys, "region",
					    json_pack("{s:i}", "startLine", s->line));
		json_object_set_new(loc, "physicalLocation", phys);
	}
	if (s->function && *s->function)
		json_object_set_new(loc, "logicalLocations",
				    json_pack("[{s:o, s:s}]", "name", mpiv_json_text(s->function),
					      "kind", "function"));
	if (!json_object_size(loc)) {
		json_decref(loc);
		return NULL;
	}
	if (text)
		json_object_set_new(loc, "message",
				    json_pack("{s:o}", "text", mpiv_json_text(text)));
	return loc;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* "rank 2 blocked in MPI_Send(dest=0, ...) at x.c:29 (main)" of a deadlock's blocked entry. */
static void blocked_text(json_t *b, const struct mpiv_finding_site *s, char *buf, size_t size)
{
	snprintf(buf, size, "rank %d blocked in %s at %s:%d%s%s%s",
		 (int)json_integer_value(json_object_get(b, "rank")),
		 *str(b, "desc") ? str(b, "desc") : str(b, "call"), mpiv_finding_basename(s->file),
		 s->line, s->function ? " (" : "", s->function ? s->function : "",
		 s->function ? ")" : "");
}

/* The message, locations and related locations of finding fd. */
static void describe(json_t *result, const struct finding *fd)
{
	json_t *e = fd->entry, *locs = json_array(), *related = json_array(), *l;
	char text[4096], line[1024];
	size_t k, n = 0;

	if (!strcmp(fd->section, "deadlocks")) {
		json_t *blocked = json_object_get(e, "blocked"), *w;

		n = (size_t)snprintf(text, sizeof(text), "%s: ",
				     *str(e, "class") ? str(e, "class") :
							mpiv_finding_kind_name(fd->f.kind));
		for (k = 0; k < fd->f.nsites; k++) {
			blocked_text(json_array_get(blocked, k), &fd->f.sites[k], line,
				     sizeof(line));
			if (n < sizeof(text))
				n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s",
						      k ? "; " : "", line);
			l = location(&fd->f.sites[k], line);
			if (!l)
				continue;
			if (!json_array_size(locs)) {
				json_array_append_new(locs, l);
			} else {
				json_object_set_new(l, "id",
						    json_integer(
							    (json_int_t)json_array_size(related)));
				json_array_append_new(related, l);
			}
		}
		json_array_foreach(json_object_get(e, "waits_for"), k, w) if (n < sizeof(text))
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s rank %d -> rank %d",
					      k ? "," : "; waits for:",
					      (int)json_integer_value(json_object_get(w, "rank")),
					      (int)json_integer_value(
						      json_object_get(w, "waits_for")));
	} else {
		/* a stopped rank's text says how it stopped, the others' what went wrong */
		snprintf(text, sizeof(text), "rank %d %s: %s",
			 (int)json_integer_value(json_object_get(e, "rank")),
			 !strcmp(fd->section, "stopped") ? "stopped" : str(e, "call"),
			 str(e, "text"));
		if (fd->f.nsites && (l = location(&fd->f.sites[0], NULL)))
			json_array_append_new(locs, l);
	}
	json_object_set_new(result, "message", json_pack("{s:o}", "text", mpiv_json_text(text)));
	if (json_array_size(locs))
		json_object_set(result, "locations", locs);
	if (json_array_size(related))
		json_object_set(result, "relatedLocations", related);
	json_decref(locs);
	json_decref(related);
}

void report_sarif(FILE *f, json_t *doc, const struct findings *fs)
{
	json_t *rules = json_array(), *results = json_array(), *run, *log;
	int index[MPIV_FIND__COUNT], kind, k;

	/* a rule for each kind found, in the order of the kinds */
	for (kind = 0; kind < MPIV_FIND__COUNT; kind++) {
		index[kind] = -1;
		for (k = 0; k < fs->n && fs->f[k].f.kind != kind; k++)
			;
		if (k == fs->n)
			continue;
		index[kind] = (int)json_array_size(rules);
		json_array_append_new(rules,
				      json_pack("{s:s, s:{s:s}, s:{s:s}}", "id",
						mpiv_finding_kind_name(kind), "shortDescription",
						"text", rule_text(kind), "defaultConfiguration",
						"level", findings_severity(kind)));
	}
	for (k = 0; k < fs->n; k++) {
		const struct finding *fd = &fs->f[k];
		json_t *r = json_pack("{s:s, s:i, s:s}", "ruleId",
				      mpiv_finding_kind_name(fd->f.kind), "ruleIndex",
				      index[fd->f.kind], "level", findings_severity(fd->f.kind));

		describe(r, fd);
		json_object_set_new(r, "partialFingerprints",
				    json_pack("{s:s}", FINGERPRINT_KEY, fd->fingerprint));
		if (fd->suppressed)
			json_object_set_new(r, "suppressions",
					    json_pack("[{s:s, s:o}]", "kind", "external",
						      "justification",
						      mpiv_json_text(fd->suppressed)));
		json_array_append_new(results, r);
	}
	run = json_pack("{s:{s:{s:s, s:s, s:o}}, s:[{s:b, s:I}], s:o}", "tool", "driver", "name",
			"mpiverify", "version", PACKAGE_VERSION, "rules", rules, "invocations",
			"executionSuccessful", 1, "exitCode",
			json_integer_value(json_object_get(doc, "exit")), "results", results);
	log = json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs",
			run);
	json_dumpf(log, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(log);
}
