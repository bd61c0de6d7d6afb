/* mpiverify trace: a recorded trace as JSON, for a person or another tool, or as an OTF2
 * archive (otf2_write.c), of the recorded run or of a counterexample's way to its deadlock. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cex.h"
#include "cli.h"
#include "diag.h"
#include "otf2_write.h"
#include "trace.h"

static const char trace_usage[] =
	"usage: mpiverify trace [DIR | FILE] [-r RANK] [-o OUTDIR]\n"
	"       mpiverify trace --otf2 -o OUTDIR [--cex CEX] [DIR]\n"
	"\n"
	"Print a trace as JSON (the format of doc/trace-format.md): every rank of trace\n"
	"directory DIR (default ./mpiverify-trace), one rank with -r, or one rank's FILE.\n"
	"With -o, write OUTDIR/rank-N.json for every rank instead, and the run's meta.json:\n"
	"a trace directory check reads like the recorded one.\n"
	"\n"
	"With --otf2, write the recorded run as the OTF2 archive OUTDIR/traces.otf2 (for\n"
	"Vampir, otf2-print), with the run's times if it was recorded with --timestamps, else\n"
	"synthetic ones; with --cex, the operations of check's counterexample CEX on its way\n"
	"to the deadlock (DIR defaults to the trace it names), with synthetic times.\n"
	"\n"
	"exit: 0 done, 2 usage, 3 missing or malformed trace or counterexample, 4 mpiverify\n"
	"was built without OTF2\n";

/* --otf2: the archive of the traces in what (a directory; with cex, the one it names if what
 * is NULL) into outdir. */
static int write_otf2(const char *what, const char *cexfile, const char *outdir)
{
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct mpiv_cex cex;
	int rc;

	if (!otf2_available())
		return otf2_write(outdir, NULL, NULL); /* says how to get it */
	mpiv_error_init(&err);
	memset(&cex, 0, sizeof(cex));
	if (cexfile && mpiv_cex_load(cexfile, &cex, &err))
		return error_report(&err);
	if (!what)
		what = cexfile ? cex.trace_dir : "mpiverify-trace";
	if (mpiv_traceset_load(what, &ts, &err)) {
		mpiv_cex_release(&cex);
		return error_report(&err);
	}
	if (cexfile && mpiv_cex_check_trace(&cex, &ts, cexfile, &err))
		rc = error_report(&err);
	else
		rc = otf2_write(outdir, &ts, cexfile ? &cex : NULL);
	mpiv_traceset_release(&ts);
	mpiv_cex_release(&cex);
	return rc;
}

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

/* -o of a whole directory: what record saw of the run (meta.json) goes with its ranks. Of a
 * hung job, it says which ranks had reached MPI_Finalize: without it, a rank record ended
 * there would be one that stopped, and a deadlock on it no deadlock. */
static int copy_meta(const char *what, const struct mpiv_traceset *ts, const char *outdir)
{
	char path[PATH_MAX];
	struct mpiv_error err;

	if (snprintf(path, sizeof(path), "%s/" MPIV_META_FILE, what) >= (int)sizeof(path) ||
	    access(path, F_OK) != 0)
		return MPIV_EXIT_OK;
	mpiv_error_init(&err);
	if (mpiv_meta_save(outdir, &ts->meta, &err))
		return error_report(&err);
	return MPIV_EXIT_OK;
}

int cmd_trace(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"rank", required_argument, NULL, 'r'}, {"output", required_argument, NULL, 'o'},
		{"otf2", no_argument, NULL, 'O'},	{"cex", required_argument, NULL, 'x'},
		{"help", no_argument, NULL, 'h'},	{NULL, 0, NULL, 0},
	};
	const char *what = NULL, *outdir = NULL, *cexfile = NULL;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	int c, rank = -1, r, rc = MPIV_EXIT_OK, otf2 = 0;
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
				return usage_error("trace",
						   "invalid -r '%s': expected a rank (0 or "
						   "more)",
						   optarg);
			rank = (int)lrank;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'O':
			otf2 = 1;
			break;
		case 'x':
			cexfile = optarg;
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
	if (cexfile && !otf2)
		return usage_error("trace", "--cex goes with --otf2");
	if (otf2 && !outdir)
		return usage_error("trace", "--otf2 needs -o OUTDIR, the archive's directory");
	if (otf2 && rank >= 0)
		return usage_error("trace", "--otf2 writes every rank: -r goes without it");
	if (otf2)
		return write_otf2(what, cexfile, outdir);
	if (!what)
		what = "mpiverify-trace";
	/* made if missing, as check's -o is (one level) */
	if (outdir && mkdir(outdir, 0777) != 0 && errno != EEXIST) {
		error("cannot create output directory '%s': %s", outdir, strerror(errno));
		return MPIV_EXIT_BAD_INPUT;
	}
	mpiv_error_init(&err);
	/* shown as it is, a window of the run's last calls too (its "first" says so) */
	mpiv_trace_windows_read = 1;
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
	if (rc == MPIV_EXIT_OK && outdir && rank < 0)
		rc = copy_meta(what, &ts, outdir);
	mpiv_traceset_release(&ts);
	return rc;
}
