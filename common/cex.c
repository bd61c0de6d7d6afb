/* cex.json: save and validated load (doc/cex-format.md). Uses plain malloc and never exits,
 * because the replayer loads it inside the user's program. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cex.h"
#include "event.h"
#include "jsontext.h"
#include "trace.h"

static json_t *buffering_to_json(const struct mpiv_buffering *b)
{
	json_t *o = json_object();

	json_object_set_new(o, "mode", json_string(mpiv_buffering_word(b->mode)));
	if (b->mode == MPIV_BUF_EAGER)
		json_object_set_new(o, "bytes", json_integer(b->bytes));
	if (b->sync_colls && b->mode != MPIV_BUF_ZERO)
		json_object_set_new(o, "collectives", json_string("synchronise"));
	return o;
}

/* "buffering": {"mode": "eager", "bytes": 8255}, with "collectives": "synchronise" when they
 * do (version 2), or the mode's name (version 1). Returns 0, or -1 with err filled. */
static int buffering_from_json(json_t *j, long version, struct mpiv_buffering *b, const char *path,
			       struct mpiv_error *err)
{
	json_t *mode, *bytes, *colls;
	int m;

	if (version == 1) {
		if (!json_is_string(j) || mpiv_buffering_parse(json_string_value(j), b))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					      "buffering: expected \"zero\", \"infinite\" or "
					      "\"eager-BYTES\"");
		return 0;
	}
	if (!json_is_object(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "buffering: expected an object");
	mode = json_object_get(j, "mode");
	m = json_is_string(mode) ? mpiv_buffering_mode_of(json_string_value(mode)) : -1;
	if (m < 0)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "buffering.mode: expected \"zero\", \"infinite\" or "
				      "\"eager\"");
	b->mode = (enum mpiv_buffering_mode)m;
	b->bytes = 0;
	bytes = json_object_get(j, "bytes");
	if (m == MPIV_BUF_EAGER) {
		if (!json_is_integer(bytes) || json_integer_value(bytes) < 0)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					      "buffering.bytes: expected a number of bytes");
		b->bytes = (long long)json_integer_value(bytes);
	} else if (bytes) {
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "buffering.bytes: only mode \"eager\" has a threshold");
	}
	colls = json_object_get(j, "collectives");
	b->sync_colls = colls != NULL;
	if (colls && (!json_is_string(colls) || strcmp(json_string_value(colls), "synchronise") ||
		      m == MPIV_BUF_ZERO))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "buffering.collectives: expected \"synchronise\", with mode "
				      "\"infinite\" or \"eager\" (without buffering every "
				      "collective synchronises)");
	return 0;
}

static json_t *site_to_json(const struct mpiv_cex_site *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "function", mpiv_json_text(s->function));
	json_object_set_new(o, "file", mpiv_json_text(s->file));
	json_object_set_new(o, "line", json_integer(s->line));
	return o;
}

int mpiv_cex_save(const char *path, const struct mpiv_cex *cex, struct mpiv_error *err)
{
	json_t *root = json_object(), *ranks = json_array(), *cycle = json_array();
	json_t *cmd = json_array(), *matches = json_array();
	size_t i;
	int r, rc = 0;

	for (i = 0; i < cex->nmatches; i++) {
		const struct mpiv_cex_match *m = &cex->matches[i];
		json_t *o = json_object();

		json_object_set_new(o, "recv",
				    json_pack("[iI]", m->recv_rank, (json_int_t)m->recv_op));
		json_object_set_new(o, "send",
				    json_pack("[iI]", m->send_rank, (json_int_t)m->send_op));
		if (m->wildcard)
			json_object_set_new(o, "wildcard", json_true());
		if (m->wildcard && m->as_recorded >= 0)
			json_object_set_new(o, "as_recorded", json_boolean(m->as_recorded));
		json_array_append_new(matches, o);
	}

	json_object_set_new(root, "format", json_string(MPIV_CEX_FORMAT));
	json_object_set_new(root, "version", json_integer(MPIV_CEX_VERSION));
	json_object_set_new(root, "trace", mpiv_json_text(cex->trace_dir ? cex->trace_dir : ""));
	json_object_set_new(root, "buffering", buffering_to_json(&cex->buffering));
	for (i = 0; cex->command && cex->command[i]; i++)
		json_array_append_new(cmd, mpiv_json_text(cex->command[i]));
	json_object_set_new(root, "command", cmd);
	if (cex->cwd)
		json_object_set_new(root, "cwd", mpiv_json_text(cex->cwd));
	json_object_set_new(root, "nranks", json_integer(cex->nranks));
	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];
		json_t *o = json_object(), *ops = json_array();

		json_object_set_new(o, "rank", json_integer(cr->rank));
		for (i = 0; i < cr->nops; i++) {
			const struct mpiv_cex_op *op = &cr->ops[i];
			json_t *jo = json_object();

			json_object_set_new(jo, "op", json_integer(op->op));
			if (op->match_rank >= 0) {
				json_t *m = json_object();

				json_object_set_new(m, "rank", json_integer(op->match_rank));
				json_object_set_new(m, "op", json_integer(op->match_op));
				json_object_set_new(jo, "match", m);
			}
			if (op->wildcard)
				json_object_set_new(jo, "wildcard", json_true());
			if (op->sync >= 0)
				json_object_set_new(jo, "buffered", json_boolean(!op->sync));
			if (op->cancelled)
				json_object_set_new(jo, "cancelled",
						    json_boolean(op->cancelled == 1));
			json_array_append_new(ops, jo);
		}
		json_object_set_new(o, "ops", ops);
		if (cr->blocked_op >= 0) {
			json_t *b = json_object();

			json_object_set_new(b, "op", json_integer(cr->blocked_op));
			json_object_set_new(b, "call",
					    mpiv_json_text(cr->blocked_call ? cr->blocked_call :
									      ""));
			json_object_set_new(b, "desc",
					    mpiv_json_text(cr->blocked_desc ? cr->blocked_desc :
									      ""));
			json_object_set_new(b, "site", site_to_json(&cr->site));
			json_object_set_new(o, "blocked", b);
		} else {
			json_object_set_new(o, "blocked", json_null());
		}
		if (cr->stopped)
			json_object_set_new(o, "stopped", json_true());
		if (cr->nthreads) {
			json_t *ths = json_array();

			for (i = 0; i < cr->nthreads; i++) {
				const struct mpiv_cex_thread *th = &cr->threads[i];
				json_t *jt = json_object();

				json_object_set_new(jt, "thread", json_integer(th->thread));
				if (th->blocked_op >= 0) {
					json_object_set_new(jt, "op", json_integer(th->blocked_op));
					json_object_set_new(jt, "desc",
							    json_string(th->blocked_desc ?
										th->blocked_desc :
										""));
					json_object_set_new(jt, "site", site_to_json(&th->site));
				}
				json_array_append_new(ths, jt);
			}
			json_object_set_new(o, "threads", ths);
		}
		json_array_append_new(ranks, o);
	}
	json_object_set_new(root, "ranks", ranks);
	for (i = 0; i < cex->ncycle; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "rank", json_integer(cex->cycle[i].rank));
		json_object_set_new(e, "op", json_integer(cex->cycle[i].op));
		json_object_set_new(e, "waits_for", json_integer(cex->cycle[i].waits_for));
		json_array_append_new(cycle, e);
	}
	json_object_set_new(root, "cycle", cycle);
	{
		json_t *edges = json_array();

		for (i = 0; i < cex->nedges; i++)
			json_array_append_new(edges,
					      json_pack("{s:i, s:I, s:i}", "rank",
							cex->edges[i].rank, "op",
							(json_int_t)cex->edges[i].op, "waits_for",
							cex->edges[i].waits_for));
		json_object_set_new(root, "waits_for", edges);
	}
	json_object_set_new(root, "matches", matches);
	if (cex->mismatch)
		json_object_set_new(root, "collective_mismatch", json_true());
	if (cex->ready_send > 0)
		json_object_set_new(root, "ready_send_unmatched",
				    json_integer(cex->ready_send - 1));
	if (cex->bsend_overflow > 0)
		json_object_set_new(root, "bsend_overflow", json_integer(cex->bsend_overflow - 1));
	if (json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
		rc = mpiv_error_set(err, MPIV_EXIT_TOOL, path, -1, -1, "cannot write: %s",
				    strerror(errno));
	json_decref(root);
	return rc;
}

/* Validation helpers: each returns the value or sets err naming the JSON path. */
static int want_int(json_t *j, long min, long max, long *out, const char *path,
		    struct mpiv_error *err, const char *what)
{
	if (!json_is_integer(j) || json_integer_value(j) < min || json_integer_value(j) > max)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "%s: expected an integer in %ld..%ld", what, min, max);
	*out = (long)json_integer_value(j);
	return 0;
}

/* An optional string or null at key of j into *out (NULL when absent or null). */
static int want_string(json_t *j, const char *key, char **out, const char *path, int r,
		       const char *where, struct mpiv_error *err)
{
	json_t *f = json_object_get(j, key);

	if (f && !json_is_string(f) && !json_is_null(f))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
				      "%s.%s: expected a string or null", where, key);
	*out = json_is_string(f) ? strdup(json_string_value(f)) : NULL;
	return 0;
}

/* A call's site at JSON path where: function and file (strings or null), line (0 if
 * unknown). */
static int load_site(json_t *j, struct mpiv_cex_site *s, const char *path, int r, const char *where,
		     struct mpiv_error *err)
{
	char what[96];
	json_t *f;
	long v;

	if (!j || json_is_null(j))
		return 0;
	if (!json_is_object(j))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
				      "%s: expected an object", where);
	if (want_string(j, "function", &s->function, path, r, where, err) ||
	    want_string(j, "file", &s->file, path, r, where, err))
		return -1;
	f = json_object_get(j, "line");
	snprintf(what, sizeof(what), "%s.line", where);
	if (f && want_int(f, 0, INT32_MAX, &v, path, err, what))
		return -1;
	s->line = f ? (int)v : 0;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The operations of rank cr are in program order, one thread's after another's. With several
 * threads they are in the order the model ran them, which interleaves the threads' events
 * (cex.h): each event there once. Sets cr->in_order. Returns 0, or -1 with err filled. */
static int ops_in_order(struct mpiv_cex_rank *cr, const char *path, struct mpiv_error *err)
{
	uint32_t *sorted;
	size_t i;

	cr->in_order = 1;
	for (i = 1; i < cr->nops && cr->in_order; i++)
		cr->in_order = cr->ops[i].op > cr->ops[i - 1].op;
	if (cr->in_order)
		return 0;
	if (cr->nthreads < 2)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, cr->rank, -1,
				      "ranks[%d].ops: operations must be in program order",
				      cr->rank);
	sorted = malloc(cr->nops * sizeof(*sorted));
	if (!sorted)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, path, cr->rank, -1, "out of memory");
	for (i = 0; i < cr->nops; i++)
		sorted[i] = cr->ops[i].op;
	qsort(sorted, cr->nops, sizeof(*sorted), cmp_u32);
	for (i = 1; i < cr->nops && sorted[i] != sorted[i - 1]; i++)
		;
	free(sorted);
	if (i < cr->nops)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, cr->rank, -1,
				      "ranks[%d].ops: an operation listed twice", cr->rank);
	return 0;
}

/* An optional boolean at key of j: 1 if true. Returns 0, or -1 with err filled. */
static int want_bool(json_t *j, const char *key, int *out, const char *path, int r,
		     const char *where, struct mpiv_error *err)
{
	json_t *f = json_object_get(j, key);

	if (f && !json_is_boolean(f))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
				      "%s%s%s: expected true or false", where, *where ? "." : "",
				      key);
	*out = json_is_true(f);
	return 0;
}

static int load_rank(json_t *o, int r, int nranks, struct mpiv_cex_rank *cr, const char *path,
		     struct mpiv_error *err)
{
	char what[96], site[112];
	json_t *ops, *b;
	long v;
	size_t i;

	cr->rank = r;
	cr->blocked_op = -1;
	if (!json_is_object(o))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
				      "ranks[%d]: expected an object", r);
	snprintf(what, sizeof(what), "ranks[%d].rank", r);
	if (want_int(json_object_get(o, "rank"), r, r, &v, path, err, what))
		return -1;
	ops = json_object_get(o, "ops");
	if (!json_is_array(ops))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
				      "ranks[%d].ops: expected an array", r);
	cr->ops = calloc(json_array_size(ops) + 1, sizeof(*cr->ops));
	if (!cr->ops)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, path, r, -1, "out of memory");
	for (i = 0; i < json_array_size(ops); i++) {
		json_t *jo = json_array_get(ops, i), *m, *bf;
		struct mpiv_cex_op *op = &cr->ops[i];

		op->match_rank = -1;
		op->match_op = -1;
		op->sync = -1;
		snprintf(what, sizeof(what), "ranks[%d].ops[%zu].op", r, i);
		if (want_int(json_object_get(jo, "op"), 0, INT32_MAX, &v, path, err, what))
			return -1;
		op->op = (uint32_t)v;
		m = json_object_get(jo, "match");
		if (m) {
			snprintf(what, sizeof(what), "ranks[%d].ops[%zu].match.rank", r, i);
			if (want_int(json_object_get(m, "rank"), 0, nranks - 1, &v, path, err,
				     what))
				return -1;
			op->match_rank = (int32_t)v;
			snprintf(what, sizeof(what), "ranks[%d].ops[%zu].match.op", r, i);
			if (want_int(json_object_get(m, "op"), 0, INT32_MAX, &v, path, err, what))
				return -1;
			op->match_op = (int32_t)v;
		}
		snprintf(what, sizeof(what), "ranks[%d].ops[%zu]", r, i);
		if (want_bool(jo, "wildcard", &op->wildcard, path, r, what, err))
			return -1;
		bf = json_object_get(jo, "cancelled");
		if (bf && !json_is_boolean(bf))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
					      "ranks[%d].ops[%zu].cancelled: expected a boolean", r,
					      i);
		op->cancelled = !bf ? 0 : json_is_true(bf) ? 1 : 2;
		bf = json_object_get(jo, "buffered");
		if (bf) {
			if (!json_is_boolean(bf))
				return mpiv_error_set(
					err, MPIV_EXIT_BAD_INPUT, path, r, -1,
					"ranks[%d].ops[%zu].buffered: expected a boolean", r, i);
			op->sync = !json_is_true(bf);
		}
		cr->nops = i + 1;
	}
	b = json_object_get(o, "blocked");
	if (b && !json_is_null(b)) {
		if (!json_is_object(b))
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
					      "ranks[%d].blocked: expected an object or null", r);
		snprintf(what, sizeof(what), "ranks[%d].blocked.op", r);
		if (want_int(json_object_get(b, "op"), 0, INT32_MAX, &v, path, err, what))
			return -1;
		cr->blocked_op = v;
		snprintf(what, sizeof(what), "ranks[%d].blocked", r);
		snprintf(site, sizeof(site), "ranks[%d].blocked.site", r);
		if (want_string(b, "call", &cr->blocked_call, path, r, what, err) ||
		    want_string(b, "desc", &cr->blocked_desc, path, r, what, err) ||
		    load_site(json_object_get(b, "site"), &cr->site, path, r, site, err))
			return -1;
	}
	snprintf(what, sizeof(what), "ranks[%d]", r);
	if (want_bool(o, "stopped", &cr->stopped, path, r, what, err))
		return -1;
	b = json_object_get(o, "threads");
	if (b && (!json_is_array(b) || json_array_size(b) > 4096))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
				      "ranks[%d].threads: expected an array", r);
	if (b && json_array_size(b)) {
		cr->threads = calloc(json_array_size(b), sizeof(*cr->threads));
		if (!cr->threads)
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, -1,
					      "out of memory");
		for (i = 0; i < json_array_size(b); i++) {
			json_t *jt = json_array_get(b, i);
			struct mpiv_cex_thread *th = &cr->threads[i];

			cr->nthreads = i + 1;
			th->blocked_op = -1;
			snprintf(what, sizeof(what), "ranks[%d].threads[%zu].thread", r, i);
			if (want_int(json_object_get(jt, "thread"), 0, INT32_MAX, &v, path, err,
				     what))
				return -1;
			th->thread = (int)v;
			if (!json_object_get(jt, "op"))
				continue;
			snprintf(what, sizeof(what), "ranks[%d].threads[%zu].op", r, i);
			if (want_int(json_object_get(jt, "op"), 0, INT32_MAX, &v, path, err, what))
				return -1;
			th->blocked_op = v;
			snprintf(what, sizeof(what), "ranks[%d].threads[%zu]", r, i);
			snprintf(site, sizeof(site), "ranks[%d].threads[%zu].site", r, i);
			if (want_string(jt, "desc", &th->blocked_desc, path, r, what, err) ||
			    load_site(json_object_get(jt, "site"), &th->site, path, r, site, err))
				return -1;
		}
	}
	return ops_in_order(cr, path, err);
}

int mpiv_cex_load(const char *path, struct mpiv_cex *cex, struct mpiv_error *err)
{
	json_error_t jerr;
	json_t *root, *j, *ranks, *cycle, *cmd;
	long v, version;
	size_t i;
	int r;

	memset(cex, 0, sizeof(*cex));
	root = json_load_file(path, 0, &jerr);
	if (!root) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "%s", jerr.text);
		if (err && jerr.line > 0)
			err->line = jerr.line;
		return -1;
	}
	j = json_object_get(root, "format");
	if (!json_is_string(j) || strcmp(json_string_value(j), MPIV_CEX_FORMAT)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
			       "format: expected \"" MPIV_CEX_FORMAT "\"");
		goto fail;
	}
	if (want_int(json_object_get(root, "version"), 1, MPIV_CEX_VERSION, &version, path, err,
		     "version"))
		goto fail;
	j = json_object_get(root, "trace");
	if (!json_is_string(j)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "trace: expected a string");
		goto fail;
	}
	cex->trace_dir = strdup(json_string_value(j));
	if (buffering_from_json(json_object_get(root, "buffering"), version, &cex->buffering, path,
				err))
		goto fail;
	cmd = json_object_get(root, "command");
	if (cmd && !json_is_array(cmd)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
			       "command: expected an array of strings");
		goto fail;
	}
	if (cmd && json_array_size(cmd) > 0) {
		cex->command = calloc(json_array_size(cmd) + 1, sizeof(char *));
		for (i = 0; cex->command && i < json_array_size(cmd); i++) {
			j = json_array_get(cmd, i);
			if (!json_is_string(j)) {
				mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
					       "command[%zu]: expected a string", i);
				goto fail;
			}
			cex->command[i] = strdup(json_string_value(j));
		}
	}
	j = json_object_get(root, "cwd");
	if (j && !json_is_string(j)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cwd: expected a string");
		goto fail;
	}
	cex->cwd = j ? strdup(json_string_value(j)) : NULL;
	if (want_int(json_object_get(root, "nranks"), 1, 1 << 20, &v, path, err, "nranks"))
		goto fail;
	ranks = json_object_get(root, "ranks");
	if (!json_is_array(ranks) || json_array_size(ranks) != (size_t)v) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
			       "ranks: expected an array of nranks (%ld) entries", v);
		goto fail;
	}
	cex->ranks = calloc((size_t)v, sizeof(*cex->ranks));
	if (!cex->ranks) {
		mpiv_error_set(err, MPIV_EXIT_TOOL, path, -1, -1, "out of memory");
		goto fail;
	}
	cex->nranks = (int)v;
	for (r = 0; r < cex->nranks; r++)
		cex->ranks[r].blocked_op = -1;
	for (r = 0; r < cex->nranks; r++)
		if (load_rank(json_array_get(ranks, (size_t)r), r, cex->nranks, &cex->ranks[r],
			      path, err))
			goto fail;
	if (want_bool(root, "collective_mismatch", &cex->mismatch, path, -1, "", err))
		goto fail;
	{
		json_t *rs = json_object_get(root, "ready_send_unmatched");

		if (rs && (!json_is_integer(rs) || json_integer_value(rs) < 0 ||
			   json_integer_value(rs) >= cex->nranks)) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				       "ready_send_unmatched: expected a rank");
			goto fail;
		}
		if (rs)
			cex->ready_send = 1 + (int)json_integer_value(rs);
		rs = json_object_get(root, "bsend_overflow");
		if (rs && (!json_is_integer(rs) || json_integer_value(rs) < 0 ||
			   json_integer_value(rs) >= cex->nranks)) {
			mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				       "bsend_overflow: expected a rank");
			goto fail;
		}
		if (rs)
			cex->bsend_overflow = 1 + (int)json_integer_value(rs);
	}
	cycle = json_object_get(root, "cycle");
	if (cycle && !json_is_array(cycle)) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cycle: expected an array");
		goto fail;
	}
	if (cycle && json_array_size(cycle)) {
		cex->cycle = calloc(json_array_size(cycle), sizeof(*cex->cycle));
		for (i = 0; cex->cycle && i < json_array_size(cycle); i++) {
			json_t *e = json_array_get(cycle, i);
			char what[64];

			snprintf(what, sizeof(what), "cycle[%zu].rank", i);
			if (want_int(json_object_get(e, "rank"), 0, cex->nranks - 1, &v, path, err,
				     what))
				goto fail;
			cex->cycle[i].rank = (int)v;
			snprintf(what, sizeof(what), "cycle[%zu].op", i);
			if (want_int(json_object_get(e, "op"), 0, INT32_MAX, &v, path, err, what))
				goto fail;
			cex->cycle[i].op = v;
			snprintf(what, sizeof(what), "cycle[%zu].waits_for", i);
			if (want_int(json_object_get(e, "waits_for"), 0, cex->nranks - 1, &v, path,
				     err, what))
				goto fail;
			cex->cycle[i].waits_for = (int)v;
			cex->ncycle = i + 1;
		}
	}
	json_decref(root);
	return 0;
fail:
	json_decref(root);
	mpiv_cex_release(cex);
	return -1;
}

/* The calls whose events post a send or a receive the model matches (translator/). */
#define SEND_KINDS                                                                       \
	(1ull << MPIV_KIND_SEND | 1ull << MPIV_KIND_ISEND | 1ull << MPIV_KIND_SENDRECV | \
	 1ull << MPIV_KIND_ISENDRECV | 1ull << MPIV_KIND_START)
#define RECV_KINDS                                                                          \
	(1ull << MPIV_KIND_RECV | 1ull << MPIV_KIND_IRECV | 1ull << MPIV_KIND_SENDRECV |    \
	 1ull << MPIV_KIND_ISENDRECV | 1ull << MPIV_KIND_MPROBE | 1ull << MPIV_KIND_MRECV | \
	 1ull << MPIV_KIND_START)

/* Whether the event of rank r's trace at index op exists (and, with kinds, is of one of
 * those kinds, a mask of 1 << enum mpiv_kind); else err is filled, naming what refers to
 * it. */
static int check_op(const struct mpiv_traceset *ts, int r, long op, unsigned long long kinds,
		    const char *path, const char *what, struct mpiv_error *err)
{
	const struct mpiv_rank_trace *t = &ts->ranks[r];
	const struct mpiv_event *ev;

	if (op < 0 || (size_t)op >= t->nevents)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, r, op,
				      "%s: rank %d's event "
				      "%ld is not in the trace '%s', whose rank %d has %zu events: "
				      "the counterexample is not from this trace",
				      what, r, op, ts->dir ? ts->dir : "", r, t->nevents);
	ev = mpiv_trace_event(t, (size_t)op);
	/* a partitioned send's message goes where its last partition is made ready */
	if (kinds && !(kinds & (1ull << mpiv_call_kind(ev->call))) &&
	    !(kinds == SEND_KINDS && (ev->flags & MPIV_EV_PARTS_READY)))
		return mpiv_error_set(
			err, MPIV_EXIT_BAD_INPUT, path, r, op,
			"%s: rank %d's event "
			"%ld is %s in the trace '%s', which %s: the counterexample is "
			"not from this trace",
			what, r, op, mpiv_call_name(ev->call), ts->dir ? ts->dir : "",
			kinds == SEND_KINDS ? "sends nothing" : "receives nothing");
	return 0;
}

int mpiv_cex_check_trace(const struct mpiv_cex *cex, const struct mpiv_traceset *ts,
			 const char *path, struct mpiv_error *err)
{
	char what[96];
	size_t i;
	int r;

	if (ts->nranks != cex->nranks)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1,
				      "the counterexample "
				      "is for %d ranks, but its trace '%s' has %d",
				      cex->nranks, ts->dir ? ts->dir : "", ts->nranks);
	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];

		for (i = 0; i < cr->nops; i++) {
			const struct mpiv_cex_op *op = &cr->ops[i];

			snprintf(what, sizeof(what), "ranks[%d].ops[%zu]", r, i);
			if (check_op(ts, r, op->op,
				     op->match_rank >= 0 ? RECV_KINDS :
				     op->sync >= 0	 ? SEND_KINDS :
							   0,
				     path, what, err))
				return -1;
			if (op->match_rank < 0)
				continue;
			/* any event, not only a send: a match the program cannot make is replay's
			 * to find out, which it reports as a divergence */
			snprintf(what, sizeof(what), "ranks[%d].ops[%zu].match", r, i);
			if (check_op(ts, op->match_rank, op->match_op, 0, path, what, err))
				return -1;
		}
		snprintf(what, sizeof(what), "ranks[%d].blocked", r);
		if (cr->blocked_op >= 0 && check_op(ts, r, cr->blocked_op, 0, path, what, err))
			return -1;
		for (i = 0; i < cr->nthreads; i++) {
			snprintf(what, sizeof(what), "ranks[%d].threads[%zu]", r, i);
			if (cr->threads[i].blocked_op >= 0 &&
			    check_op(ts, r, cr->threads[i].blocked_op, 0, path, what, err))
				return -1;
		}
	}
	for (i = 0; i < cex->ncycle; i++) {
		snprintf(what, sizeof(what), "cycle[%zu]", i);
		if (check_op(ts, cex->cycle[i].rank, cex->cycle[i].op, 0, path, what, err))
			return -1;
	}
	return 0;
}

const struct mpiv_cex_op *mpiv_cex_find(const struct mpiv_cex_rank *r, uint32_t op)
{
	size_t lo = 0, hi = r->nops;

	if (!r->in_order) {
		for (lo = 0; lo < r->nops; lo++)
			if (r->ops[lo].op == op)
				return &r->ops[lo];
		return NULL;
	}
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r->ops[mid].op == op)
			return &r->ops[mid];
		if (r->ops[mid].op < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

long mpiv_cex_first_blocked(const struct mpiv_cex_rank *cr, const char **desc,
			    const struct mpiv_cex_site **site)
{
	long blocked = cr->blocked_op;
	const char *d = cr->blocked_desc;
	const struct mpiv_cex_site *s = &cr->site;
	size_t k;

	for (k = 0; cr->nthreads > 1 && k < cr->nthreads; k++)
		if (cr->threads[k].blocked_op >= 0 &&
		    (blocked < 0 || cr->threads[k].blocked_op < blocked)) {
			blocked = cr->threads[k].blocked_op;
			d = cr->threads[k].blocked_desc;
			s = &cr->threads[k].site;
		}
	if (desc)
		*desc = d;
	if (site)
		*site = s;
	return blocked;
}

void mpiv_cex_release(struct mpiv_cex *cex)
{
	size_t i;
	int r;

	free(cex->trace_dir);
	for (i = 0; cex->command && cex->command[i]; i++)
		free(cex->command[i]);
	free(cex->command);
	free(cex->cwd);
	for (r = 0; cex->ranks && r < cex->nranks; r++) {
		struct mpiv_cex_rank *cr = &cex->ranks[r];

		free(cr->ops);
		free(cr->blocked_call);
		free(cr->blocked_desc);
		free(cr->site.function);
		free(cr->site.file);
		for (i = 0; i < cr->nthreads; i++) {
			free(cr->threads[i].blocked_desc);
			free(cr->threads[i].site.function);
			free(cr->threads[i].site.file);
		}
		free(cr->threads);
	}
	free(cex->ranks);
	free(cex->cycle);
	free(cex->edges);
	free(cex->matches);
	memset(cex, 0, sizeof(*cex));
}
