/* mpiverify trace: a recorded trace as JSON, for a person or another tool. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "trace.h"

static const char trace_usage[] =
	"usage: mpiverify trace [DIR | FILE] [-r RANK] [-o OUTDIR]\n"
	"\n"
	"Print a trace as JSON (the format of doc/trace-format.md): every rank of trace\n"
	"directory DIR (default ./mpiverify-trace), one rank with -r, or one rank's FILE.\n"
	"With -o, write OUTDIR/rank-N.json for every rank instead: a trace directory check\n"
	"reads like the recorded one.\n"
	"\n"
	"exit: 0 done, 2 usage, 3 missing or malformed trace\n";

/* One rank: into outdir/rank-N.json, or onto stdout after the ranks before it (reopening
 * /dev/stdout, as this did, truncated a file stdout was redirected to at every rank, and
 * wrote each from its start). */
static int print_rank(const struct mpiv_rank_trace *t, const char *outdir)
{
	struct mpiv_error err;
	char path[4096];

	mpiv_error_init(&err);
	if (!outdir) {
		if (mpiv_trace_write_json(stdout, t) == 0)
			return MPIV_EXIT_OK;
		error("cannot write rank %d to standard output: %s", t->rank, strerror(errno));
		return MPIV_EXIT_TOOL;
	}
	if (snprintf(path, sizeof(path), "%s/" MPIV_TRACE_JSON_FILE, outdir, t->rank) >=
	    (int)sizeof(path))
		return usage_error("trace", "output directory name too long");
	if (mpiv_trace_save_json(path, t, &err))
		return error_report(&err);
	return MPIV_EXIT_OK;
}

int cmd_trace(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"rank", required_argument, NULL, 'r'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *what = "mpiverify-trace", *outdir = NULL;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	int c, rank = -1, r, rc = MPIV_EXIT_OK;
	char *end;
	long lrank;
	size_t len;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			errno = 0;
			lrank = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || lrank < 0 || lrank > INT_MAX)
				return usage_error("trace", "invalid -r '%s': expected a rank (0 or "
						   "more)", optarg);
			rank = (int)lrank;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'h':
			fputs(trace_usage, stdout);
			return MPIV_EXIT_OK;
		default:
			return option_error("trace", c, argv);
		}
	}
	if (optind < argc)
		what = argv[optind++];
	if (optind < argc)
		return usage_error("trace", "unexpected argument '%s'", argv[optind]);
	/* made if missing, as check's -o is (one level) */
	if (outdir && mkdir(outdir, 0777) != 0 && errno != EEXIST) {
		error("cannot create output directory '%s': %s", outdir, strerror(errno));
		return MPIV_EXIT_BAD_INPUT;
	}
	mpiv_error_init(&err);
	len = strlen(what);
	if (len > 6 && !strcmp(what + len - 6, ".mpivt")) {
		struct mpiv_rank_trace t;

		if (mpiv_trace_load_bin(what, &t, &err))
			return error_report(&err);
		rc = print_rank(&t, outdir);
		mpiv_rank_trace_release(&t);
		return rc;
	}
	if (mpiv_traceset_load(what, &ts, &err))
		return error_report(&err);
	if (rank >= ts.nranks)
		rc = usage_error("trace", "no rank %d in '%s' (it has %d)", rank, what, ts.nranks);
	for (r = 0; rc == MPIV_EXIT_OK && r < ts.nranks; r++)
		if (rank < 0 || r == rank)
			rc = print_rank(&ts.ranks[r], outdir);
	mpiv_traceset_release(&ts);
	return rc;
}
