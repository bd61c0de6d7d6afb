/* sarif_check: check that a file is a SARIF 2.1.0 log as the standard (OASIS SARIF 2.1.0,
 * section 3) requires of the properties mpiverify writes, for tests/e2e/reports.sh.
 *
 *   sarif_check FILE                  "ok: N results (M suppressed)", or each fault
 *   sarif_check --fingerprints FILE   also one "RULE FINGERPRINT" line per result, sorted
 *
 * Exit 0 valid, 1 not, 2 usage, 3 unreadable or not JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static int faults;

static void fault(const char *where, const char *what)
{
	printf("FAULT %s: %s\n", where, what);
	faults++;
}

static int is_string(json_t *o, const char *key)
{
	return json_is_string(json_object_get(o, key)) &&
	       *json_string_value(json_object_get(o, key));
}

/* A URI reference (RFC 3986) as SARIF wants it: no blank, no control, no raw non-ASCII. */
static int uri_ok(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f ||
		    strchr("\"<>\\^`{|}", *s))
			return 0;
	return 1;
}

static void check_location(json_t *loc, const char *where)
{
	json_t *phys = json_object_get(loc, "physicalLocation"), *lg, *x;
	size_t k;

	if (!json_is_object(loc))
		return fault(where, "a location is not an object");
	if (!phys && !json_object_get(loc, "logicalLocations"))
		fault(where, "a location with neither physicalLocation nor logicalLocations");
	if (phys) {
		json_t *art = json_object_get(phys, "artifactLocation");
		json_t *region = json_object_get(phys, "region");

		if (!is_string(art, "uri") ||
		    !uri_ok(json_string_value(json_object_get(art, "uri"))))
			fault(where, "physicalLocation.artifactLocation.uri missing or not a URI");
		if (region && (!json_is_integer(json_object_get(region, "startLine")) ||
			       json_integer_value(json_object_get(region, "startLine")) < 1))
			fault(where, "region.startLine missing or below 1");
	}
	lg = json_object_get(loc, "logicalLocations");
	json_array_foreach(lg, k,
			   x) if (!is_string(x, "name") && !is_string(x, "fullyQualifiedName"))
		fault(where, "a logicalLocation without a name");
	if (json_object_get(loc, "message") && !is_string(json_object_get(loc, "message"), "text"))
		fault(where, "a location's message has no text");
}

static int check_result(json_t *r, json_t *rules, size_t i, int fingerprints)
{
	static const char *const levels[] = {"none", "note", "warning", "error", NULL};
	char where[64];
	json_t *x, *ids = json_object(), *rule;
	const char *level, *key;
	size_t k;
	int j, suppressed = 0;

	snprintf(where, sizeof(where), "results[%zu]", i);
	if (!is_string(json_object_get(r, "message"), "text"))
		fault(where, "message.text missing");
	if (!is_string(r, "ruleId"))
		fault(where, "ruleId missing");
	x = json_object_get(r, "ruleIndex");
	if (x) {
		rule = json_array_get(rules, (size_t)json_integer_value(x));
		if (!json_is_integer(x) || !rule ||
		    !json_equal(json_object_get(rule, "id"), json_object_get(r, "ruleId")))
			fault(where, "ruleIndex does not name the rule of ruleId");
	}
	level = json_string_value(json_object_get(r, "level"));
	for (j = 0; level && levels[j] && strcmp(levels[j], level); j++)
		;
	if (!level || !levels[j])
		fault(where, "level is not none, note, warning or error");
	json_array_foreach(json_object_get(r, "locations"), k, x) check_location(x, where);
	json_array_foreach(json_object_get(r, "relatedLocations"), k, x)
	{
		char id[32];

		check_location(x, where);
		if (!json_is_integer(json_object_get(x, "id")) ||
		    json_integer_value(json_object_get(x, "id")) < 0)
			fault(where, "a related location without an id of 0 or more");
		snprintf(id, sizeof(id), "%lld",
			 (long long)json_integer_value(json_object_get(x, "id")));
		if (json_object_get(ids, id))
			fault(where, "two related locations of the same id");
		json_object_set_new(ids, id, json_true());
	}
	json_decref(ids);
	x = json_object_get(r, "partialFingerprints");
	if (!json_is_object(x) || !json_object_size(x))
		fault(where, "partialFingerprints missing");
	json_object_foreach(x, key, rule)
	{
		if (!json_is_string(rule))
			fault(where, "a fingerprint that is not a string");
		else if (fingerprints)
			printf("%s %s=%s\n", json_string_value(json_object_get(r, "ruleId")), key,
			       json_string_value(rule));
	}
	json_array_foreach(json_object_get(r, "suppressions"), k, x)
	{
		const char *kind = json_string_value(json_object_get(x, "kind"));

		if (!kind || (strcmp(kind, "inSource") && strcmp(kind, "external")))
			fault(where, "a suppression's kind is not inSource or external");
		suppressed = 1;
	}
	return suppressed;
}

int main(int argc, char **argv)
{
	int fingerprints = argc == 3 && !strcmp(argv[1], "--fingerprints");
	json_t *log, *runs, *run, *driver, *rules, *x;
	json_error_t jerr;
	size_t i, k, n = 0;
	int nsupp = 0;

	if (argc != 2 && !fingerprints) {
		fprintf(stderr, "usage: sarif_check [--fingerprints] FILE\n");
		return 2;
	}
	log = json_load_file(argv[argc - 1], 0, &jerr);
	if (!log) {
		printf("FAULT '%s': line %d: %s\n", argv[argc - 1], jerr.line, jerr.text);
		return 3;
	}
	if (!json_is_object(log))
		fault("log", "not an object");
	if (!json_is_string(json_object_get(log, "version")) ||
	    strcmp(json_string_value(json_object_get(log, "version")), "2.1.0"))
		fault("log", "version is not \"2.1.0\"");
	if (!is_string(log, "$schema"))
		fault("log", "$schema missing");
	runs = json_object_get(log, "runs");
	if (!json_is_array(runs) || !json_array_size(runs))
		fault("log", "runs missing or empty");
	json_array_foreach(runs, i, run)
	{
		driver = json_object_get(json_object_get(run, "tool"), "driver");
		if (!is_string(driver, "name"))
			fault("run", "tool.driver.name missing");
		rules = json_object_get(driver, "rules");
		json_array_foreach(rules, k, x)
		{
			size_t m;

			if (!is_string(x, "id"))
				fault("rules", "a rule without an id");
			for (m = 0; m < k; m++)
				if (json_equal(json_object_get(json_array_get(rules, m), "id"),
					       json_object_get(x, "id")))
					fault("rules", "two rules of the same id");
		}
		json_array_foreach(json_object_get(run, "invocations"), k,
				   x) if (!json_is_boolean(json_object_get(x,
									   "executionSuccessful")))
			fault("invocations", "executionSuccessful missing");
		if (!json_is_array(json_object_get(run, "results")))
			fault("run", "results missing");
		json_array_foreach(json_object_get(run, "results"), k, x)
		{
			nsupp += check_result(x, rules, n, fingerprints);
			n++;
		}
	}
	json_decref(log);
	if (faults)
		return 1;
	printf("ok: %zu results (%d suppressed)\n", n, nsupp);
	return 0;
}
