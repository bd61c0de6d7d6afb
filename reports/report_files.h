/* The files check and verify leave in their output directory beside the text and JSON reports
 * (doc/reports.md): report.html, report.sarif and waits-for.dot, each drawn from the JSON
 * document (check_doc.c, verify_report.c) and its findings (findings.c); report.html also
 * shows each deadlock's space-time diagram, stacks and source lines (report_details.c). */
#ifndef MPIV_REPORT_FILES_H
#define MPIV_REPORT_FILES_H

#include <stdio.h>

#include <jansson.h>

#include "findings.h"
#include "report.h"

#define REPORT_HTML_FILE "report.html"
#define REPORT_SARIF_FILE "report.sarif"
#define REPORT_DOT_FILE "waits-for.dot"

/* Write the three files into dir from doc, fs and details (one entry per deadlock of doc,
 * report_details_*(); taken). Returns 0, or -1 after an error message naming the file. */
int report_files(const char *dir, json_t *doc, const struct findings *fs, json_t *details);

/* Add what replay found of the counterexample at cex_path (outcome, taken: {"outcome":
 * "reproduced" | "not reproduced" | "diverged", "exit": N, "text": ...}) to the report.html
 * of the check that wrote it, beside it, when that page is there and names it; the page is
 * drawn again from its own data. Returns 0 (also when there is no such page), or -1 after an
 * error message. */
int report_html_replayed(const char *cex_path, json_t *outcome);

/* ---- report_sarif.c ---- */

/* The SARIF 2.1.0 log of doc's findings: one result per finding, at its first call site,
 * the others as related locations, each with its fingerprint; a hidden finding carries its
 * suppression. */
void report_sarif(FILE *f, json_t *doc, const struct findings *fs);

/* ---- report_gcc.c ---- */

/* doc's findings not hidden as a compiler prints its diagnostics: "FILE:LINE: error: ..." a
 * finding (warning, note by its kind), "note:" lines for its other calls, its waits and its
 * replay, and a last line with the verdict (--diagnostics-format=gcc). */
void report_gcc(FILE *f, json_t *doc, const struct findings *fs);

/* ---- report_dot.c ---- */

/* The wait-for graph of each deadlock of doc as Graphviz: one cluster per deadlock, a node
 * per rank on it, an edge per wait, the cycle's in red. */
void report_dot(FILE *f, json_t *doc);

/* ---- report_html.c ---- */

/* The page: the template (report_template.html) with doc, the findings' suppressions and
 * details in it, as one self-contained file. */
void report_html(FILE *f, json_t *doc, json_t *details);

/* ---- report_details.c: what report.html shows beyond the document ---- */

/* For each deadlock of a check: its space-time diagram (the counterexample's last operations
 * per rank, its matches, and the recorded run's where it made others), and each blocked
 * call's stack and source lines. A new array. */
json_t *report_details_check(const struct check_outcome *co);

/* The same for a deadlock a run of verify showed: its trace in run_dir, drawn as the run
 * went (its standard sends buffered as mode, the name of the buffering it was forced with,
 * says; else as its MPI library does), its blocked calls as the ranks' status files last said,
 * with their stacks. The blocked calls, and the wait-for edges and cycle where the trace ends
 * in the deadlock, also go into entry, the deadlock's entry of verify's document. A new
 * object ({} when the trace cannot be read). */
json_t *report_details_run(const char *run_dir, const char *mode, json_t *entry);

#endif
