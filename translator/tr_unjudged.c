/* Calls check cannot judge yet (doc/usage.md, "Calls check leaves out"). The translator stops at
 * the first with an error marked unjudged; check then leaves out that rank's calls from it on,
 * as though the rank had stopped there (tr_stop_of()), and translates again. The calls before
 * are modelled exactly, so a deadlock found among them is real; the rank did not finish in
 * the model, so the answer is never "no deadlock". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "translate.h"
#include "xalloc.h"

int tr_unjudged(struct mpiv_error *err, const char *source, int rank, long event, const char *fmt,
		...)
{
	char text[sizeof(err->text)];
	int first = err && !err->set;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, source, rank, event, "%s", text);
	if (first)
		err->unjudged = 1;
	return -1;
}

size_t tr_judged(const struct mpiv_rank_trace *t, size_t to)
{
	if (t->unjudged && (size_t)t->unjudged - 1 < to)
		return (size_t)t->unjudged - 1;
	return to;
}

int tr_leave_out(struct mpiv_traceset *ts, const struct mpiv_error *err)
{
	struct mpiv_rank_trace *t;

	if (!err->unjudged || err->rank < 0 || err->rank >= ts->nranks || err->event < 0)
		return 0;
	t = &ts->ranks[err->rank];
	/* left out from there already: the error is not the call's (it cannot be) */
	if (t->unjudged && t->unjudged - 1 <= err->event)
		return 0;
	t->unjudged = err->event + 1;
	free(t->unjudged_why);
	t->unjudged_why = xstrdup(err->text);
	return 1;
}

int tr_left_out(const struct mpiv_traceset *ts)
{
	int r, n = 0;

	for (r = 0; r < ts->nranks; r++)
		n += ts->ranks[r].unjudged != 0;
	return n;
}

int tr_translate_judged(struct mpiv_traceset *ts, const struct tr_opts *opts, struct eng_prog *prog,
			struct mpiv_error *err)
{
	int rc;

	while ((rc = tr_translate(ts, opts, prog, err)) && tr_leave_out(ts, err))
		mpiv_error_init(err);
	return rc;
}
