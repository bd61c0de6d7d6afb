/* Translator: communicators. Each rank names the communicators it made by rank-local ids
 * (base/event.h); here the ids of all ranks that denote one communicator become one engine
 * communicator with its members (struct eng_comm). A creation is a collective on its parent,
 * so the k-th collective on a parent is the same call on every member of the parent, and the
 * communicators that call made are told apart by their member lists (MPI_Comm_split makes
 * several at once): (parent, k, members) names a communicator on every rank alike.
 * MPI_Comm_create_group is collective over its group only: (parent, tag, members, how many
 * such calls the rank made before) names it; MPI_Comm_create_from_group likewise, its parent
 * MPI_COMM_WORLD and its tag a hash of its string tag (preload/env_comm.c). MPI_Intercomm_create is a collective on each
 * group's local communicator: (local communicator, position) names a group's call, and the
 * two groups whose leaders name each other with the same tag make one intercommunicator, whose
 * members are the first group's (the one of the lower leader), then the other's.
 * MPI_Intercomm_create_from_groups is the same with each group's own communicator in place of
 * the local one, named as MPI_Comm_create_from_group's would be. The rules:
 * doc/semantics.md 6. */
#include <stdlib.h>
#include <string.h>

#include "tr_comm.h"
#include "translate.h"
#include "xalloc.h"

/* What names a derived communicator on every rank alike. */
struct comm_key {
	int32_t parent; /* engine id of the parent */
	/* 1 for MPI_Comm_create_group, 2 for an intercommunicator, 3
	 * for the groups of an MPI_Intercomm_create whose leaders never
	 * meet, 4 for MPI_Comm_create_from_group (on MPI_COMM_WORLD),
	 * 5 for the meeting of one group of an
	 * MPI_Intercomm_create_from_groups (on MPI_COMM_WORLD), else 0 */
	int32_t group;
	/* the creation's collective position on the parent (group 0,
	 * 2, 3), or its tag (group 1, 4, 5) */
	int32_t pos;
	int32_t occ;	       /* group 1, 4, 5: earlier such calls of the rank with this key */
	int32_t parent2, pos2; /* group 2: the second group's parent and position */
};

/* A rank's MPI_Intercomm_create not yet given its intercommunicator. */
struct inter_half {
	int32_t rank;
	uint32_t event;
	int32_t parent;		   /* engine id of its local communicator */
	int32_t pos;		   /* its collective position there */
	int32_t leader, peer, tag; /* the event's root, peer and tag */
	int paired;
};

/* A creation on a parent of a rank, as the cross-check needs it. */
struct comm_made {
	int32_t parent; /* engine id of the parent */
	int32_t pos;	/* its collective position on the parent */
	uint32_t event; /* the creating event */
	int32_t result; /* engine id of what it made, -1 for none (MPI_COMM_NULL) */
};

/* Engine communicators being collected: the fixed ones, then one per key. */
struct comm_set {
	struct eng_prog *prog;
	struct comm_key *keys;	 /* by engine id; unused below 1 + nranks */
	int32_t *by_rank;	 /* by engine id: the rank that first named it */
	uint32_t *by_event;	 /* ... and its event */
	size_t cap;		 /* room in prog->comms, keys, by_rank and by_event */
	struct comm_made **made; /* per rank: its completed creations on a parent */
	size_t *nmade;
	/* by engine id: the first group's size of an
	 * intercommunicator, 0 for an intracommunicator */
	int32_t *split;
	struct inter_half *halves; /* this walk's unresolved MPI_Intercomm_create */
	size_t nhalves, caphalves;
};

static int same_members(const struct eng_comm *c, const struct mpiv_newcomm *nc)
{
	return (uint32_t)c->n == nc->n &&
	       !memcmp(c->members, nc->members, nc->n * sizeof(*nc->members));
}

/* The engine id of the communicator of key k with nc's members, made if new. */
static int32_t comm_find(struct comm_set *s, const struct comm_key *k,
			 const struct mpiv_newcomm *nc, int rank)
{
	struct eng_prog *p = s->prog;
	size_t cap = s->cap, cap2 = s->cap, cap3 = s->cap, cap4 = s->cap;
	int32_t g;

	for (g = 1 + p->nranks; g < p->ncomms; g++)
		if (!memcmp(&s->keys[g], k, sizeof(*k)) && same_members(&p->comms[g], nc))
			return g;
	xgrow((void **)&s->split, &cap4, (size_t)p->ncomms + 1, sizeof(*s->split));
	xgrow((void **)&p->comms, &s->cap, (size_t)p->ncomms + 1, sizeof(*p->comms));
	xgrow((void **)&s->keys, &cap, (size_t)p->ncomms + 1, sizeof(*s->keys));
	xgrow((void **)&s->by_rank, &cap2, (size_t)p->ncomms + 1, sizeof(*s->by_rank));
	xgrow((void **)&s->by_event, &cap3, (size_t)p->ncomms + 1, sizeof(*s->by_event));
	g = p->ncomms++;
	s->split[g] = 0;
	s->keys[g] = *k;
	s->by_rank[g] = rank;
	s->by_event[g] = nc->event;
	p->comms[g].n = (int32_t)nc->n;
	p->comms[g].members = xmalloc((nc->n ? nc->n : 1) * sizeof(int32_t));
	memcpy(p->comms[g].members, nc->members, nc->n * sizeof(int32_t));
	return g;
}

/* How many calls like rank t's event i (the same call on the same communicator with the same
 * tag, giving the same members nc) t made before it: what tells apart a group's repeated
 * creations with one tag. */
static int32_t earlier_alike(const struct mpiv_rank_trace *t, size_t i,
			     const struct mpiv_newcomm *nc)
{
	const struct mpiv_event *ev = mpiv_trace_event(t, i);
	unsigned call = ev->call;
	int32_t comm = ev->comm, tag = ev->tag, occ = 0; /* ev may not outlive the loop */
	size_t j;

	for (j = 0; j < t->ncomms && t->comms[j].event < i; j++) {
		const struct mpiv_event *e = mpiv_trace_event(t, t->comms[j].event);

		if (e->call == call && e->comm == comm && e->tag == tag && t->comms[j].n == nc->n &&
		    !memcmp(t->comms[j].members, nc->members, nc->n * sizeof(*nc->members)))
			occ++;
	}
	return occ;
}

/* The engine communicator on which the local group of rank t's
 * MPI_Intercomm_create_from_groups event i (on parent; nc, if it returned) meets before it
 * meets the other group: one of its own, as MPI_Comm_create_from_group would make it. Its
 * members are the group the event lists (the recorder writes it with the call), else the
 * new communicator's local group; -1 if neither is known. */
static int32_t group_meeting(struct comm_set *s, const struct mpiv_rank_trace *t, size_t i,
			     int32_t parent, const struct mpiv_newcomm *nc)
{
	const struct mpiv_event *ev = mpiv_trace_event(t, i);
	const int32_t *members = ev->ngroup ? ev->group : nc ? nc->members : NULL;
	struct mpiv_newcomm own;
	struct comm_key k;
	int32_t g;

	if (!members)
		return -1;
	memset(&own, 0, sizeof(own));
	memset(&k, 0, sizeof(k));
	k.parent = parent;
	k.group = 5;
	k.pos = ev->tag;
	own.event = (uint32_t)i;
	own.n = ev->ngroup ? ev->ngroup : nc->n;
	/* a copy: the walk below may decode other events into ev's place */
	own.members = xmalloc((own.n ? own.n : 1) * sizeof(*own.members));
	memcpy(own.members, members, own.n * sizeof(*own.members));
	k.occ = earlier_alike(t, i, &own);
	g = comm_find(s, &k, &own, t->rank);
	free(own.members);
	return g;
}

/* What rank's MPI_Intercomm_create (or _from_groups) `event` was given, or NULL. */
static const struct tr_inter *inter_find(const struct tr_comms *cm, int rank, uint32_t event)
{
	size_t i;

	for (i = 0; i < cm->ninter; i++)
		if (cm->inter[i].rank == rank && cm->inter[i].event == event)
			return &cm->inter[i];
	return NULL;
}

/* The intercommunicator rank's MPI_Intercomm_create `event` was given, or -1. */
static int32_t inter_of(const struct tr_comms *cm, int rank, uint32_t event)
{
	const struct tr_inter *x = inter_find(cm, rank, event);

	return x ? x->comm : -1;
}

/* Rank t's MPI_Intercomm_create (or Intercomm_create_from_groups) ev at position pos on its
 * local communicator parent (for the latter, its group's own): map its intercommunicator (nc)
 * if an earlier walk paired its group, else keep it for pairing. Returns 0, or -1 with err
 * filled. */
static int comm_inter_half(struct comm_set *s, const struct tr_comms *cm,
			   const struct mpiv_rank_trace *t, const struct mpiv_event *ev,
			   int32_t parent, int32_t pos, const struct mpiv_newcomm *nc,
			   int32_t *local, struct mpiv_error *err)
{
	int32_t g = inter_of(cm, t->rank, ev->index);
	struct inter_half *h;
	size_t cap = s->caphalves;

	if (nc && nc->id >= (int64_t)t->nevents + MPIV_COMM_FIRST_LOCAL)
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)ev->index,
				      "communicator id %d, beyond the %zu events "
				      "of the trace",
				      nc->id, t->nevents);
	if (g >= 0) {
		if (nc)
			local[nc->id] = g;
		return 0;
	}
	if (parent < 0)
		return 0; /* on a communicator check does not know: refused at its use */
	if (ev->root < 0 || !tr_comms_member(s->prog, parent, ev->root) ||
	    (ev->root == t->rank && (ev->peer < 0 || tr_comms_member(s->prog, parent, ev->peer))))
		return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)ev->index,
				      "%s without a local leader in its group (root %d) or, on "
				      "the leader, a remote leader outside it (peer %d)",
				      mpiv_call_name(ev->call), ev->root, ev->peer);
	xgrow((void **)&s->halves, &cap, s->nhalves + 1, sizeof(*s->halves));
	s->caphalves = cap;
	h = &s->halves[s->nhalves++];
	h->rank = t->rank;
	h->event = ev->index;
	h->parent = parent;
	h->pos = pos;
	h->leader = ev->root;
	h->peer = ev->peer;
	h->tag = ev->tag;
	h->paired = 0;
	return 0;
}

/* Walk rank r's events in order: count its collectives per communicator, and map each
 * communicator it made to its engine id. */
static int comm_rank(struct comm_set *s, struct tr_comms *cm, const struct mpiv_rank_trace *t,
		     struct mpiv_error *err)
{
	/* local ids: the ones the rank's communicators have (one beyond its events is refused
	 * below); events naming others name a communicator check does not know */
	int32_t nids = MPIV_COMM_FIRST_LOCAL, *local, *count;
	size_t i, j, cap = 0;
	int32_t id;

	for (j = 0; j < t->ncomms; j++)
		if (t->comms[j].id >= nids &&
		    t->comms[j].id < (int64_t)t->nevents + MPIV_COMM_FIRST_LOCAL)
			nids = t->comms[j].id + 1;
	local = xmalloc((size_t)nids * sizeof(*local));
	count = xcalloc((size_t)nids, sizeof(*count)); /* collectives per local id */

	for (id = 0; id < nids; id++)
		local[id] = -1;
	local[MPIV_COMM_WORLD] = 0;
	local[MPIV_COMM_SELF] = 1 + t->rank;
	cm->local[t->rank] = local;
	cm->nlocal[t->rank] = nids;
	/* a rank that makes no communicator has nothing more to map: no need to read it */
	for (i = 0; (t->call_flags & MPIV_F_NEWCOMM) && i < tr_judged(t, t->nevents); i++) {
		const struct mpiv_event *ev = mpiv_trace_event(t, i);
		enum mpiv_kind kind = mpiv_call_kind(ev->call);
		const struct mpiv_newcomm *nc = mpiv_trace_newcomm(t, (uint32_t)i);
		int32_t comm = ev->comm, tag = ev->tag; /* ev may not outlive the loop below */
		struct comm_key k;
		struct mpiv_newcomm dup;
		int32_t parent = -1;

		if (ev->comm >= 0 && ev->comm < nids)
			parent = local[ev->comm];
		if ((kind == MPIV_KIND_COLL || kind == MPIV_KIND_ICOLL) && parent >= 0)
			count[ev->comm]++;
		if (ev->call == MPIV_CALL_Intercomm_create ||
		    ev->call == MPIV_CALL_Intercomm_create_from_groups) {
			int32_t pos = parent >= 0 ? count[comm] : 0;

			/* from groups: the local group meets on a communicator of its own,
			 * first, in no other communicator's order */
			if (ev->call == MPIV_CALL_Intercomm_create_from_groups) {
				parent = parent >= 0 ? group_meeting(s, t, i, parent, nc) : -1;
				pos = 0;
				ev = mpiv_trace_event(t, i); /* comm_find() may have read others */
			}
			if (comm_inter_half(s, cm, t, ev, parent, pos, nc, local, err)) {
				free(count);
				return -1;
			}
			continue;
		}
		if (kind != MPIV_KIND_COMM_GROUP && parent >= 0 &&
		    (mpiv_call_flags(ev->call) & MPIV_F_NEWCOMM) &&
		    !(ev->flags & MPIV_EV_INCOMPLETE)) {
			struct comm_made *m;

			xgrow((void **)&s->made[t->rank], &cap, s->nmade[t->rank] + 1, sizeof(*m));
			m = &s->made[t->rank][s->nmade[t->rank]++];
			m->parent = parent;
			m->pos = count[ev->comm];
			m->event = (uint32_t)i;
			m->result = -1;
		}
		if (!nc)
			continue;
		if (nc->id >= (int64_t)t->nevents + MPIV_COMM_FIRST_LOCAL) {
			free(count);
			return mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, t->source, t->rank, (long)i,
					      "communicator id %d, beyond the %zu events of "
					      "the trace",
					      nc->id, t->nevents);
		}
		if (parent < 0)
			continue; /* made from one check does not know: refused at its use */
		if (s->split[parent] && ev->call != MPIV_CALL_Intercomm_merge) {
			/* a duplicate has its parent's two groups; the recorder wrote the local
			 * one */
			if (ev->call != MPIV_CALL_Comm_dup && ev->call != MPIV_CALL_Comm_idup &&
			    ev->call != MPIV_CALL_Comm_dup_with_info &&
			    ev->call != MPIV_CALL_Comm_idup_with_info) {
				free(count);
				return tr_unjudged(err, t->source, t->rank, (long)i,
						   "%s of an intercommunicator, which "
						   "check cannot judge yet",
						   mpiv_call_name(ev->call));
			}
			dup = *nc;
			dup.n = (uint32_t)s->prog->comms[parent].n;
			dup.members = s->prog->comms[parent].members;
			nc = &dup;
		}
		memset(&k, 0, sizeof(k));
		k.parent = parent;
		if (kind == MPIV_KIND_COMM_GROUP) {
			k.group = ev->call == MPIV_CALL_Comm_create_from_group ? 4 : 1;
			k.pos = tag;
			k.occ = earlier_alike(t, i, nc);
		} else {
			k.pos = count[comm];
		}
		local[nc->id] = comm_find(s, &k, nc, t->rank);
		if (nc == &dup)
			s->split[local[nc->id]] = s->split[parent];
		if (k.group == 0)
			s->made[t->rank][s->nmade[t->rank] - 1].result = local[nc->id];
	}
	free(count);
	return 0;
}

/* Whether halves a and b are calls of one group (the same position on one communicator). */
static int same_group(const struct inter_half *a, const struct inter_half *b)
{
	return a->parent == b->parent && a->pos == b->pos;
}

/* The leader's call of h's group, or NULL if the leader never made it. */
static struct inter_half *group_leader(struct comm_set *s, const struct inter_half *h)
{
	size_t i;

	for (i = 0; i < s->nhalves; i++)
		if (same_group(&s->halves[i], h) && s->halves[i].rank == h->leader)
			return &s->halves[i];
	return NULL;
}

/* Give every call of h's group (and of o's, if not NULL) engine communicator g. */
static void inter_give(struct comm_set *s, struct tr_comms *cm, const struct inter_half *h,
		       const struct inter_half *o, int32_t g)
{
	struct inter_half key[2] = {*h, o ? *o : *h};
	size_t i;

	for (i = 0; i < s->nhalves; i++) {
		struct inter_half *x = &s->halves[i];

		if (x->paired || (!same_group(x, &key[0]) && !same_group(x, &key[1])))
			continue;
		x->paired = 1;
		xgrow((void **)&cm->inter, &cm->capinter, cm->ninter + 1, sizeof(*cm->inter));
		cm->inter[cm->ninter].rank = x->rank;
		cm->inter[cm->ninter].event = x->event;
		cm->inter[cm->ninter].local = x->parent;
		cm->inter[cm->ninter++].comm = g;
	}
}

/* Pair the groups of this walk's MPI_Intercomm_create calls: two groups whose leaders name
 * each other with the same tag make one intercommunicator. With final, a group that found
 * none gets a communicator of its own with the remote leader it names (if its leader came):
 * the model then waits for that leader, who never joins (doc/semantics.md 6.3). Returns how
 * many calls got their intercommunicator. */
static size_t comm_pair(struct comm_set *s, struct tr_comms *cm, int final)
{
	size_t before = cm->ninter, i, j;

	for (i = 0; i < s->nhalves; i++) {
		struct inter_half *h = &s->halves[i], *a, *b = NULL;
		const struct eng_comm *ga, *gb;
		struct mpiv_newcomm nc;
		struct comm_key k;
		int32_t *m, g;
		int x;

		if (h->paired)
			continue;
		a = group_leader(s, h);
		for (j = 0; a && j < s->nhalves && !b; j++) {
			struct inter_half *o = &s->halves[j];

			if (!o->paired && o->rank == o->leader && !same_group(o, a) &&
			    o->leader == a->peer && o->peer == a->leader && o->tag == a->tag &&
			    !tr_comms_member(s->prog, o->parent, a->leader) &&
			    !tr_comms_member(s->prog, a->parent, o->leader))
				b = o;
		}
		if (!b && !final)
			continue;
		if (b && b->leader < a->leader) {
			struct inter_half *tmp = a;

			a = b;
			b = tmp;
		}
		if (!a)
			a = h;
		ga = &s->prog->comms[a->parent];
		gb = b ? &s->prog->comms[b->parent] : NULL;
		m = xmalloc(((size_t)ga->n + (gb ? (size_t)gb->n : 0) + 1) * sizeof(*m));
		memcpy(m, ga->members, (size_t)ga->n * sizeof(*m));
		nc.event = a->event;
		nc.id = 0;
		nc.n = (uint32_t)ga->n;
		nc.members = m;
		memset(&k, 0, sizeof(k));
		k.parent = a->parent;
		k.pos = a->pos;
		if (gb) {
			for (x = 0; x < gb->n; x++)
				m[nc.n++] = gb->members[x];
			k.group = 2;
			k.parent2 = b->parent;
			k.pos2 = b->pos;
		} else {
			k.group = 3;
			/* the remote leader it waits for, named by the call of the rank its group
			 * takes for the leader, if that rank took itself for one too (in traces
			 * that disagree on the leader it names none) */
			if (group_leader(s, h) && a->rank == a->leader && a->peer >= 0)
				m[nc.n++] = a->peer;
		}
		g = comm_find(s, &k, &nc, a->rank);
		if (gb)
			s->split[g] = ga->n;
		free(m);
		inter_give(s, cm, a, b, g);
	}
	return cm->ninter - before;
}

/* Every member of a communicator made on a parent must have got it from its own call at that
 * place, if it completed the same call there: otherwise the traces disagree (they do not come
 * from one run), and the model would wait for a member that is not coming. A member that
 * called another collective there is a collective mismatch, which the model reports. */
static int comm_crosscheck(const struct comm_set *s, const struct mpiv_traceset *ts,
			   struct mpiv_error *err)
{
	const struct eng_prog *p = s->prog;
	int32_t g, i;
	size_t j;

	for (g = 1 + p->nranks; g < p->ncomms; g++) {
		const struct mpiv_rank_trace *by = &ts->ranks[s->by_rank[g]];
		unsigned call = mpiv_trace_event(by, s->by_event[g])->call;

		if (s->keys[g].group)
			continue;
		for (i = 0; i < p->comms[g].n; i++) {
			int m = p->comms[g].members[i];
			const struct mpiv_rank_trace *t = &ts->ranks[m];

			for (j = 0; j < s->nmade[m]; j++) {
				const struct comm_made *x = &s->made[m][j];

				if (x->parent != s->keys[g].parent || x->pos != s->keys[g].pos ||
				    mpiv_trace_event(t, x->event)->call != call || x->result == g)
					continue;
				return mpiv_error_set(
					err, MPIV_EXIT_BAD_INPUT, t->source, t->rank,
					(long)x->event,
					"%s did not give this rank the "
					"communicator that rank %d's (event %u) lists it "
					"in: the traces do not come from one run",
					mpiv_call_name(call), s->by_rank[g], s->by_event[g]);
			}
		}
	}
	return 0;
}

int tr_comms_build(const struct mpiv_traceset *ts, struct eng_prog *prog, struct tr_comms *cm,
		   struct mpiv_error *err)
{
	struct comm_set s;
	int r, rc = 0;

	memset(cm, 0, sizeof(*cm));
	cm->nranks = ts->nranks;
	cm->local = xcalloc((size_t)ts->nranks, sizeof(*cm->local));
	cm->nlocal = xcalloc((size_t)ts->nranks, sizeof(*cm->nlocal));
	prog->ncomms = 1 + ts->nranks;
	prog->comms = xcalloc((size_t)prog->ncomms, sizeof(*prog->comms));
	prog->comms[0].n = ts->nranks;
	prog->comms[0].members = xcalloc((size_t)ts->nranks, sizeof(int32_t));
	for (r = 0; r < ts->nranks; r++) {
		prog->comms[0].members[r] = r;
		prog->comms[1 + r].n = 1;
		prog->comms[1 + r].members = xcalloc(1, sizeof(int32_t));
		prog->comms[1 + r].members[0] = r;
	}
	memset(&s, 0, sizeof(s));
	s.prog = prog;
	s.cap = (size_t)prog->ncomms;
	s.keys = xcalloc(s.cap, sizeof(*s.keys));
	s.by_rank = xcalloc(s.cap, sizeof(*s.by_rank));
	s.by_event = xcalloc(s.cap, sizeof(*s.by_event));
	s.made = xcalloc((size_t)ts->nranks, sizeof(*s.made));
	s.nmade = xcalloc((size_t)ts->nranks, sizeof(*s.nmade));
	s.split = xcalloc(s.cap, sizeof(*s.split));
	/* each walk maps the communicators it can; an intercommunicator needs both groups'
	 * calls, and may be the parent of others: walk again until no call is left to pair */
	for (;;) {
		for (r = 0; r < ts->nranks; r++) {
			free(cm->local[r]);
			cm->local[r] = NULL;
			free(s.made[r]);
			s.made[r] = NULL;
			s.nmade[r] = 0;
		}
		s.nhalves = 0;
		for (r = 0; r < ts->nranks && !rc; r++)
			rc = comm_rank(&s, cm, &ts->ranks[r], err);
		if (rc || (!comm_pair(&s, cm, 0) && !comm_pair(&s, cm, 1)))
			break;
	}
	if (!rc)
		rc = comm_crosscheck(&s, ts, err);
	cm->ncomms = prog->ncomms;
	cm->split = xcalloc((size_t)prog->ncomms, sizeof(*cm->split));
	memcpy(cm->split, s.split, (size_t)prog->ncomms * sizeof(*cm->split));
	free(s.split);
	free(s.halves);
	for (r = 0; r < ts->nranks; r++)
		free(s.made[r]);
	free(s.made);
	free(s.nmade);
	free(s.keys);
	free(s.by_rank);
	free(s.by_event);
	return rc;
}

int tr_comms_id(const struct tr_comms *cm, int rank, int comm)
{
	if (rank < 0 || rank >= cm->nranks || comm < 0 || comm >= cm->nlocal[rank])
		return -1;
	return cm->local[rank][comm];
}

int tr_comms_inter(const struct tr_comms *cm, int rank, uint32_t event)
{
	return inter_of(cm, rank, event);
}

int tr_comms_inter_local(const struct tr_comms *cm, int rank, uint32_t event)
{
	const struct tr_inter *x = inter_find(cm, rank, event);

	return x ? x->local : -1;
}

int tr_comms_split(const struct tr_comms *cm, int c)
{
	return c >= 0 && c < cm->ncomms ? cm->split[c] : 0;
}

int tr_comms_member(const struct eng_prog *prog, int c, int world)
{
	int i;

	for (i = 0; i < prog->comms[c].n; i++)
		if (prog->comms[c].members[i] == world)
			return 1;
	return 0;
}

void tr_comms_release(struct tr_comms *cm)
{
	int r;

	for (r = 0; r < cm->nranks; r++)
		free(cm->local[r]);
	free(cm->local);
	free(cm->nlocal);
	free(cm->split);
	free(cm->inter);
	memset(cm, 0, sizeof(*cm));
}
