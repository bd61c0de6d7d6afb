/* A trace directory as a whole: which file holds each rank (rank-N.mpivt, else rank-N.json),
 * and the run's meta.json. The rank files themselves are read by trace.c (binary) and
 * trace_json.c (JSON). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "jsontext.h"
#include "trace.h"
#include "tracefmt.h"
#include "xalloc.h"

#define META_FORMAT "mpiverify-meta"
#define META_VERSION 2 /* 2: the job's end and what record saw of each rank */

/* The names meta.json uses for enum mpiv_job_end and enum mpiv_rank_seen. */
static const char *const job_names[] = {"exited", "deadlock", "no-progress", "interrupted"};
static const char *const seen_names[] = {"none", "running", "in-call", "polling", "finalized"};

#define NAMES(a) (sizeof(a) / sizeof((a)[0]))

/* The index of s in names[0..n), or -1. */
static int name_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

const char *mpiv_job_end_name(int job)
{
	return job >= 0 && (size_t)job < NAMES(job_names) ? job_names[job] : "?";
}

const char *mpiv_rank_seen_name(int seen)
{
	return seen >= 0 && (size_t)seen < NAMES(seen_names) ? seen_names[seen] : "?";
}


static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

const char *mpiv_trace_rank_file(const char *dir, int rank, char *buf, size_t size)
{
	snprintf(buf, size, "%s/" MPIV_TRACE_BIN_FILE, dir, rank);
	if (exists(buf))
		return buf;
	snprintf(buf, size, "%s/" MPIV_TRACE_JSON_FILE, dir, rank);
	return exists(buf) ? buf : NULL;
}

/* mpiv_trace_load_rank(), a binary file's events kept as records or not. */
static int load_rank(const char *dir, int rank, struct mpiv_rank_trace *t, int records,
		     struct mpiv_error *err)
{
	char path[4096];
	size_t n;

	if (!mpiv_trace_rank_file(dir, rank, path, sizeof(path))) {
		memset(t, 0, sizeof(*t));
		t->rank = -1;
		return 1;
	}
	n = strlen(path);
	if (n > 5 && !strcmp(path + n - 5, ".json"))
		return mpiv_trace_load_json(path, t, err);
	return records ? mpiv_trace_load_records(path, t, err) : mpiv_trace_load_bin(path, t, err);
}

int mpiv_trace_load_rank(const char *dir, int rank, struct mpiv_rank_trace *t,
			 struct mpiv_error *err)
{
	return load_rank(dir, rank, t, 0, err);
}

/* Rank r of a recorded run of `world` ranks, which left no file: no event, never finished. */
static void absent_trace(struct mpiv_rank_trace *t, const char *dir, int r, int world)
{
	char path[4096];

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, dir, r);
	t->rank = r;
	t->size = world;
	t->truncated = 1;
	t->absent = 1;
	t->source = xstrdup(path);
}

/* Did the rank whose binary trace is at path die before its header was whole (a rank the
 * launcher killed as it started, once another stopped)? */
static int header_unwritten(const char *path)
{
	struct mpiv_tf_header h;
	char buf[8192], why[64];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n >= 0 && (size_t)n < sizeof(buf) &&
	       mpiv_tf_decode_header(buf, (size_t)n, &h, why, sizeof(why)) == 0;
}

/* mpiv_traceset_load(), binary files' events kept as records or not. */
static int load_set(const char *dir, struct mpiv_traceset *ts, int records, struct mpiv_error *err)
{
	char path[4096];
	size_t cap = 0;
	struct stat st;
	int r, world = -1, recorded = 0;

	memset(ts, 0, sizeof(*ts));
	ts->meta.exit_status = -1;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, dir, -1, -1,
				      "not a trace directory: %s",
				      errno ? strerror(errno) : "not a directory");
	ts->dir = xstrdup(dir);
	/* meta.json first: in a recorded run, a rank may have left no trace at all (killed
	 * before its MPI_Init returned), and record says how many ranks the job had */
	snprintf(path, sizeof(path), "%s/" MPIV_META_FILE, dir);
	if (exists(path)) {
		if (mpiv_meta_load(path, &ts->meta, err))
			goto fail;
		recorded = 1;
	}
	for (r = 0;; r++) {
		struct mpiv_rank_trace t;
		int rc;

		/* in a recorded run, a rank that died before its header was written left no
		 * trace, as one that left no file */
		snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, dir, r);
		rc = recorded && header_unwritten(path) ? 1 : load_rank(dir, r, &t, records, err);
		if (rc > 0) {
			if (world < 0 && recorded)
				world = ts->meta.nranks;
			if (!recorded || r >= world)
				break;
			absent_trace(&t, dir, r, world);
			rc = 0;
		}
		if (rc < 0)
			goto fail;
		if (t.rank != r) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t.source, t.rank, -1,
				       "file of rank %d holds rank %d", r, t.rank);
			mpiv_rank_trace_release(&t);
			goto fail;
		}
		if (world < 0)
			world = t.size;
		xgrow((void **)&ts->ranks, &cap, (size_t)r + 1, sizeof(*ts->ranks));
		ts->ranks[r] = t;
		ts->nranks = r + 1;
	}
	if (ts->nranks == 0) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, dir, -1, -1,
			       "no trace in directory (expected rank-0.mpivt or rank-0.json)");
		goto fail;
	}
	for (r = 0; r < ts->nranks; r++) {
		if (ts->ranks[r].size != ts->nranks) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, ts->ranks[r].source, r, -1,
				       "rank of a world of %d, but the directory holds %d ranks",
				       ts->ranks[r].size, ts->nranks);
			goto fail;
		}
	}
	return 0;
fail:
	mpiv_traceset_release(ts);
	return -1;
}

int mpiv_traceset_load(const char *dir, struct mpiv_traceset *ts, struct mpiv_error *err)
{
	return load_set(dir, ts, 0, err);
}

int mpiv_traceset_load_records(const char *dir, struct mpiv_traceset *ts, struct mpiv_error *err)
{
	return load_set(dir, ts, 1, err);
}

int mpiv_meta_save(const char *dir, const struct mpiv_meta *m, struct mpiv_error *err)
{
	char path[4096];
	json_t *root = json_object(), *cmd = json_array(), *ranks = json_array();
	size_t i;
	int rc = 0, r;

	snprintf(path, sizeof(path), "%s/" MPIV_META_FILE, dir);
	for (i = 0; m->command && m->command[i]; i++)
		json_array_append_new(cmd, mpiv_json_text(m->command[i]));
	json_object_set_new(root, "format", json_string(META_FORMAT));
	json_object_set_new(root, "version", json_integer(META_VERSION));
	json_object_set_new(root, "command", cmd);
	if (m->cwd)
		json_object_set_new(root, "cwd", mpiv_json_text(m->cwd));
	json_object_set_new(root, "exit_status", json_integer(m->exit_status));
	json_object_set_new(root, "hung", json_boolean(m->hung));
	json_object_set_new(root, "job", json_string(mpiv_job_end_name(m->job)));
	for (r = 0; r < m->nranks; r++) {
		const struct mpiv_meta_rank *mr = &m->ranks[r];
		json_t *o = json_object();

		json_object_set_new(o, "rank", json_integer(r));
		json_object_set_new(o, "seen", json_string(mpiv_rank_seen_name(mr->seen)));
		if (mr->event >= 0)
			json_object_set_new(o, "event", json_integer(mr->event));
		if (mr->call >= 0 && mpiv_call_name((unsigned)mr->call))
			json_object_set_new(o, "call",
					    json_string(mpiv_call_name((unsigned)mr->call)));
		json_array_append_new(ranks, o);
	}
	json_object_set_new(root, "ranks", ranks);
	if (json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
		rc = mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cannot write: %s",
				    strerror(errno));
	json_decref(root);
	return rc;
}

/* meta.json's fields after the command, each optional. Returns 0, or -1 with err filled. */
static int meta_fields(json_t *root, struct mpiv_meta *m, const char *path, struct mpiv_error *err)
{
	json_t *j = json_object_get(root, "exit_status");

	/* a shell's status: 0 to 255, 128 + N for a signal; -1 when unknown */
	if (j && (!json_is_integer(j) || json_integer_value(j) < -1 || json_integer_value(j) > 255))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "exit_status: expected -1 (unknown) to 255");
	if (j)
		m->exit_status = (int)json_integer_value(j);
	j = json_object_get(root, "hung");
	if (j && !json_is_boolean(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "hung: expected true or false");
	m->hung = json_is_true(j);
	j = json_object_get(root, "cwd");
	if (j && !json_is_string(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "cwd: expected a string");
	if (j)
		m->cwd = xstrdup(json_string_value(j));
	return 0;
}

/* meta.json's "ranks" (version 2): what record saw of each rank. */
static int meta_load_ranks(const char *path, json_t *ranks, struct mpiv_meta *m,
			   struct mpiv_error *err)
{
	size_t i;

	if (!ranks)
		return 0;
	if (!json_is_array(ranks) || json_array_size(ranks) > (1u << 20))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "ranks: expected an array");
	m->nranks = (int)json_array_size(ranks);
	m->ranks = xcalloc((size_t)m->nranks + 1, sizeof(*m->ranks));
	for (i = 0; i < json_array_size(ranks); i++) {
		json_t *o = json_array_get(ranks, i), *j;
		struct mpiv_meta_rank *mr = &m->ranks[i];

		j = json_object_get(o, "rank");
		if (!json_is_object(o) || !json_is_integer(j) ||
		    json_integer_value(j) != (json_int_t)i)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					      "ranks[%zu].rank: expected %zu", i, i);
		mr->seen = name_index(seen_names, NAMES(seen_names),
				      json_string_value(json_object_get(o, "seen")));
		if (mr->seen < 0)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					      "ranks[%zu].seen: expected one of none, running, "
					      "in-call, polling, finalized",
					      i);
		j = json_object_get(o, "event");
		mr->event = json_is_integer(j) && json_integer_value(j) >= 0 &&
					    json_integer_value(j) < UINT32_MAX ?
				    (long)json_integer_value(j) :
				    -1;
		mr->call = -1;
		j = json_object_get(o, "call");
		if (j && (!json_is_string(j) ||
			  (mr->call = mpiv_call_from_name(json_string_value(j))) < 0))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					      "ranks[%zu].call: not an MPI call mpiverify knows",
					      i);
	}
	return 0;
}

int mpiv_meta_load(const char *path, struct mpiv_meta *m, struct mpiv_error *err)
{
	json_error_t jerr;
	json_t *root, *cmd, *j;
	json_int_t version;
	size_t i;

	memset(m, 0, sizeof(*m));
	m->exit_status = -1;
	root = json_load_file(path, 0, &jerr);
	if (!root) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "%s", jerr.text);
		if (err)
			err->line = jerr.line;
		return -1;
	}
	j = json_object_get(root, "format");
	if (!json_is_string(j) || strcmp(json_string_value(j), META_FORMAT)) {
		json_decref(root);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "format: expected \"" META_FORMAT "\"");
	}
	j = json_object_get(root, "version");
	version = json_is_integer(j) ? json_integer_value(j) : -1;
	if (version < 1 || version > META_VERSION) {
		json_decref(root);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "version: this mpiverify reads versions 1 to %d",
				      META_VERSION);
	}
	cmd = json_object_get(root, "command");
	if (!json_is_array(cmd)) {
		json_decref(root);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "command: expected an array of strings");
	}
	m->command = xcalloc(json_array_size(cmd) + 1, sizeof(char *));
	for (i = 0; i < json_array_size(cmd); i++) {
		j = json_array_get(cmd, i);
		if (!json_is_string(j)) {
			json_decref(root);
			mpiv_meta_release(m);
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					      "command[%zu]: expected a string", i);
		}
		m->command[i] = xstrdup(json_string_value(j));
	}
	if (meta_fields(root, m, path, err)) {
		json_decref(root);
		mpiv_meta_release(m);
		return -1;
	}
	j = json_object_get(root, "job");
	m->job = j	 ? name_index(job_names, NAMES(job_names), json_string_value(j)) :
		 m->hung ? MPIV_JOB_DEADLOCK :
			   MPIV_JOB_EXITED;
	if (m->job < 0) {
		json_decref(root);
		mpiv_meta_release(m);
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "job: expected one of exited, deadlock, no-progress, "
				      "interrupted");
	}
	if (meta_load_ranks(path, json_object_get(root, "ranks"), m, err)) {
		json_decref(root);
		mpiv_meta_release(m);
		return -1;
	}
	json_decref(root);
	return 0;
}

void mpiv_meta_release(struct mpiv_meta *m)
{
	size_t i;

	for (i = 0; m->command && m->command[i]; i++)
		free(m->command[i]);
	free(m->command);
	free(m->cwd);
	free(m->ranks);
	memset(m, 0, sizeof(*m));
	m->exit_status = -1;
}

void mpiv_traceset_release(struct mpiv_traceset *ts)
{
	int r;

	for (r = 0; r < ts->nranks; r++)
		mpiv_rank_trace_release(&ts->ranks[r]);
	free(ts->ranks);
	free(ts->dir);
	mpiv_meta_release(&ts->meta);
	memset(ts, 0, sizeof(*ts));
}
