/* json2bin: a JSON rank trace written as a binary one (rank-N.mpivt, the format of this
 * build), with fields set to values no recorder writes, for the bad-input tests
 * (tests/e2e/badinput.sh, tests/traces-invalid/): a committed binary file would stop
 * reaching the reader's checks once the format's version changes.
 *
 *   json2bin IN.json OUT.mpivt [EVENT FIELD VALUE]...
 *
 * FIELD is peer, tag, comm, root or lock of event EVENT; thread_level of the header (EVENT
 * -1); or module (EVENT -1): two modules of id VALUE. Exit 0, 2 usage, 3 IN unreadable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "xalloc.h"

static int set_field(struct mpiv_rank_trace *t, long e, const char *field, long long v)
{
	struct mpiv_event *ev = e >= 0 && (size_t)e < t->nevents ? &t->events[e] : NULL;

	if (!strcmp(field, "thread_level")) {
		t->thread_level = (int)v;
	} else if (!strcmp(field, "module")) {
		t->modules = xrealloc(t->modules, (t->nmodules + 2) * sizeof(*t->modules));
		t->modules[t->nmodules].id = (uint32_t)v;
		t->modules[t->nmodules++].path = xstrdup("/bin/a");
		t->modules[t->nmodules].id = (uint32_t)v;
		t->modules[t->nmodules++].path = xstrdup("/bin/b");
	} else if (!ev) {
		return -1;
	} else if (!strcmp(field, "peer")) {
		ev->peer = (int32_t)v;
	} else if (!strcmp(field, "tag")) {
		ev->tag = (int32_t)v;
	} else if (!strcmp(field, "comm")) {
		ev->comm = (int32_t)v;
	} else if (!strcmp(field, "root")) {
		ev->root = (int32_t)v;
	} else if (!strcmp(field, "lock")) {
		ev->lock = (int32_t)v;
	} else {
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	char text[1024];
	int i;

	if (argc < 3 || (argc - 3) % 3) {
		fprintf(stderr, "usage: json2bin IN.json OUT.mpivt [EVENT FIELD VALUE]...\n");
		return 2;
	}
	mpiv_error_init(&err);
	if (mpiv_trace_load_json(argv[1], &t, &err)) {
		mpiv_error_format(&err, text, sizeof(text));
		fprintf(stderr, "json2bin: %s\n", text);
		return 3;
	}
	for (i = 3; i < argc; i += 3) {
		if (set_field(&t, atol(argv[i]), argv[i + 1], atoll(argv[i + 2]))) {
			fprintf(stderr, "json2bin: no field '%s' of event %s\n", argv[i + 1],
				argv[i]);
			return 2;
		}
	}
	if (mpiv_trace_save_bin(argv[2], &t, &err)) {
		mpiv_error_format(&err, text, sizeof(text));
		fprintf(stderr, "json2bin: %s\n", text);
		return 3;
	}
	mpiv_rank_trace_release(&t);
	return 0;
}
