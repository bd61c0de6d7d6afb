/* Communicators for both preload libraries: communicator ids for the trace, and rank
 * translation between a communicator and MPI_COMM_WORLD. A communicator the program made has
 * its ranks' world ranks in a table, built when first needed, and each thread remembers the
 * last communicator it looked up: a call on a derived communicator then costs no MPI call and
 * no lock, as one on MPI_COMM_WORLD. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "rec_comm.h"
#include "rec_hot.h"
#include "rec_msg.h"

/* A communicator the program holds, with the id the trace gives it. */
struct comm_ent {
	MPI_Comm handle;
	int32_t id;
	int32_t n; /* entries of world; -1 until first needed, 0 if it cannot be had */
	/* world rank by rank in it (its remote group's, for an
	 * intercommunicator); malloc'ed, immutable once built */
	int32_t *world;
};

/* What one thread last looked up: valid while the table is at generation gen. */
struct comm_seen {
	unsigned gen;
	MPI_Comm handle;
	int32_t id, n;
	const int32_t *world;
};

static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER; /* all below */
static MPI_Group world_group = MPI_GROUP_NULL;		      /* cached, made on first use */
static struct comm_ent *comm_tab; /* live communicators, in order of creation */
static size_t comm_n, comm_cap;
static int32_t comm_next = MPIV_COMM_FIRST_LOCAL; /* the id of the next one */
/* Bumped whenever an entry is added or goes: a thread's comm_seen of an older generation is
 * looked up again (a freed handle may be given to another communicator). */
static atomic_uint comm_gen = 1;
static __thread struct comm_seen comm_last __attribute__((tls_model("initial-exec")));

static MPI_Group comm_world_group_locked(void);

/* The members of group as world ranks (world: the world group), as rec_group_to_world(). */
static int32_t *group_to_world(MPI_Group group, MPI_Group world, uint32_t *n)
{
	int size = 0, i, *ranks;
	int32_t *out = NULL;

	*n = 0;
	if (world == MPI_GROUP_NULL || group == MPI_GROUP_NULL ||
	    PMPI_Group_size(group, &size) != MPI_SUCCESS || size <= 0)
		return NULL;
	ranks = malloc(2 * (size_t)size * sizeof(*ranks));
	if (!ranks)
		return NULL;
	for (i = 0; i < size; i++)
		ranks[i] = i;
	if (PMPI_Group_translate_ranks(group, size, ranks, world, ranks + size) == MPI_SUCCESS &&
	    (out = malloc((size_t)size * sizeof(*out))) != NULL) {
		for (i = 0; i < size; i++)
			out[i] = ranks[size + i] == MPI_UNDEFINED ? MPIV_NONE : ranks[size + i];
		*n = (uint32_t)size;
	}
	free(ranks);
	return out;
}

/* Build e's world ranks (e->n and e->world; n 0 if MPI cannot say). Call with comm_lock
 * held. */
static void comm_build_world(struct comm_ent *e)
{
	MPI_Group group;
	uint32_t n = 0;
	int inter = 0;

	e->n = 0;
	if (PMPI_Comm_test_inter(e->handle, &inter) != MPI_SUCCESS)
		return;
	/* point-to-point ranks of an intercommunicator name the other side */
	if ((inter ? PMPI_Comm_remote_group(e->handle, &group) :
		     PMPI_Comm_group(e->handle, &group)) != MPI_SUCCESS)
		return;
	e->world = group_to_world(group, comm_world_group_locked(), &n);
	e->n = (int32_t)n;
	PMPI_Group_free(&group);
}

/* comm_find() when this thread's comm_last is not comm's entry. */
static REC_COLD const struct comm_seen *comm_find_slow(MPI_Comm comm, int with_world)
{
	struct comm_seen *seen = &comm_last;
	size_t i;

	pthread_mutex_lock(&comm_lock);
	/* programs hold few communicators, and use the newest most */
	for (i = comm_n; i > 0 && comm_tab[i - 1].handle != comm; i--)
		;
	if (i == 0) {
		pthread_mutex_unlock(&comm_lock);
		return NULL;
	}
	if (with_world && comm_tab[i - 1].n < 0)
		comm_build_world(&comm_tab[i - 1]);
	seen->gen = atomic_load_explicit(&comm_gen, memory_order_relaxed);
	seen->handle = comm;
	seen->id = comm_tab[i - 1].id;
	seen->n = comm_tab[i - 1].n;
	seen->world = comm_tab[i - 1].world;
	pthread_mutex_unlock(&comm_lock);
	return seen;
}

/* comm's entry as this thread's comm_last, with its world ranks if with_world; NULL if the
 * program's communicator is not in the table (made by a call not recorded). comm is neither
 * MPI_COMM_WORLD nor MPI_COMM_SELF. */
static inline const struct comm_seen *comm_find(MPI_Comm comm, int with_world)
{
	unsigned gen = atomic_load_explicit(&comm_gen, memory_order_acquire);
	const struct comm_seen *seen = &comm_last;

	if (seen->gen == gen && seen->handle == comm && (!with_world || seen->n >= 0))
		return seen;
	return comm_find_slow(comm, with_world);
}

unsigned rec_comm_gen(void)
{
	return atomic_load_explicit(&comm_gen, memory_order_acquire);
}

int rec_comm_id(MPI_Comm comm)
{
	const struct comm_seen *e;

	if (comm == MPI_COMM_WORLD)
		return MPIV_COMM_WORLD;
	if (comm == MPI_COMM_SELF)
		return MPIV_COMM_SELF;
	e = comm_find(comm, 0);
	return e ? e->id : MPIV_COMM_UNKNOWN;
}

int rec_comm_register(MPI_Comm newcomm)
{
	struct comm_ent *tab;
	int32_t id;
	size_t i;

	if (newcomm == MPI_COMM_NULL)
		return MPIV_COMM_UNKNOWN;
	pthread_mutex_lock(&comm_lock);
	id = comm_next++;
	for (i = 0; i < comm_n && comm_tab[i].handle != newcomm; i++)
		;
	if (i == comm_n && comm_n == comm_cap) {
		tab = realloc(comm_tab, (comm_cap ? 2 * comm_cap : 16) * sizeof(*tab));
		if (!tab) {
			pthread_mutex_unlock(&comm_lock);
			return MPIV_COMM_UNKNOWN;
		}
		comm_tab = tab;
		comm_cap = comm_cap ? 2 * comm_cap : 16;
	}
	if (i == comm_n)
		comm_n++;
	else
		free(comm_tab[i].world);
	comm_tab[i].handle = newcomm;
	comm_tab[i].id = id;
	comm_tab[i].n = -1; /* built at first use: an MPI_Comm_idup's is not usable yet */
	comm_tab[i].world = NULL;
	atomic_fetch_add_explicit(&comm_gen, 1, memory_order_release);
	pthread_mutex_unlock(&comm_lock);
	return id;
}

void rec_comm_forget(MPI_Comm comm)
{
	size_t i;

	pthread_mutex_lock(&comm_lock);
	for (i = 0; i < comm_n; i++) {
		if (comm_tab[i].handle == comm) {
			free(comm_tab[i].world);
			memmove(comm_tab + i, comm_tab + i + 1,
				(comm_n - i - 1) * sizeof(*comm_tab));
			comm_n--;
			atomic_fetch_add_explicit(&comm_gen, 1, memory_order_release);
			break;
		}
	}
	pthread_mutex_unlock(&comm_lock);
}

/* The cached world group, or MPI_GROUP_NULL. Call with comm_lock held. */
static MPI_Group comm_world_group_locked(void)
{
	if (world_group == MPI_GROUP_NULL &&
	    PMPI_Comm_group(MPI_COMM_WORLD, &world_group) != MPI_SUCCESS)
		world_group = MPI_GROUP_NULL;
	return world_group;
}

/* The cached world group, or MPI_GROUP_NULL. */
static MPI_Group comm_world_group(void)
{
	MPI_Group world;

	pthread_mutex_lock(&comm_lock);
	world = comm_world_group_locked();
	pthread_mutex_unlock(&comm_lock);
	return world;
}

int32_t *rec_group_to_world(MPI_Group group, uint32_t *n)
{
	return group_to_world(group, comm_world_group(), n);
}

int rec_comm_members(MPI_Comm comm, int32_t **out)
{
	MPI_Group group;
	uint32_t n = 0;

	*out = NULL;
	if (PMPI_Comm_group(comm, &group) != MPI_SUCCESS)
		return -1;
	*out = rec_group_to_world(group, &n);
	PMPI_Group_free(&group);
	return *out ? (int)n : -1;
}

int rec_comm_tag(int tag)
{
	return tag == MPI_ANY_TAG ? MPIV_ANY_TAG : tag;
}

/* Translate rank between comm's (remote) group and the world group. Returns the rank or
 * MPI_UNDEFINED. */
static REC_COLD int comm_translate(MPI_Comm comm, int rank, int to_world)
{
	MPI_Group group, world;
	int inter = 0;
	int out = MPI_UNDEFINED;
	int rc;

	world = comm_world_group();
	if (world == MPI_GROUP_NULL)
		return MPI_UNDEFINED;

	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
		return MPI_UNDEFINED;
	/* Point-to-point ranks of an intercommunicator name the other side. */
	rc = inter ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group);
	if (rc != MPI_SUCCESS)
		return MPI_UNDEFINED;
	if (to_world)
		rc = PMPI_Group_translate_ranks(group, 1, &rank, world, &out);
	else
		rc = PMPI_Group_translate_ranks(world, 1, &rank, group, &out);
	PMPI_Group_free(&group);
	return rc == MPI_SUCCESS ? out : MPI_UNDEFINED;
}

/* This process's rank in MPI_COMM_WORLD: MPI_COMM_SELF's only member, asked once (a
 * group translation per call is what a MPI_COMM_SELF message loop would otherwise cost). */
static int self_me = -1;

static int self_world_rank(void)
{
	if (self_me < 0)
		PMPI_Comm_rank(MPI_COMM_WORLD, &self_me);
	return self_me;
}

void rec_comm_set_world(MPI_Group world, int rank)
{
	pthread_mutex_lock(&comm_lock);
	if (world_group != MPI_GROUP_NULL)
		PMPI_Group_free(&world_group);
	world_group = world;
	self_me = rank;
	pthread_mutex_unlock(&comm_lock);
}

int rec_comm_spawned(int rank, int size, const char *done)
{
	MPI_Comm parent = MPI_COMM_NULL;

	PMPI_Comm_get_parent(&parent);
	if (parent == MPI_COMM_NULL)
		return 0;
	if (rank == 0)
		rec_msg("this job was started by MPI_Comm_spawn: its %d rank(s) are not %s "
			"(dynamic processes are not modelled)",
			size, done);
	return 1;
}

#if MPI_VERSION >= 4
int rec_comm_session_world(MPI_Session session, int *rank, int *size)
{
	MPI_Group world = MPI_GROUP_NULL;

	if (PMPI_Group_from_session_pset(session, "mpi://WORLD", &world) != MPI_SUCCESS)
		return -1;
	if (PMPI_Group_rank(world, rank) != MPI_SUCCESS ||
	    PMPI_Group_size(world, size) != MPI_SUCCESS || *rank == MPI_UNDEFINED) {
		PMPI_Group_free(&world);
		return -1;
	}
	rec_comm_set_world(world, *rank);
	return 0;
}
#endif

int rec_comm_to_world(MPI_Comm comm, int rank)
{
	const struct comm_seen *e;
	int w;

	if (rank == MPI_ANY_SOURCE)
		return MPIV_ANY_SOURCE;
	if (rank == MPI_PROC_NULL)
		return MPIV_PROC_NULL;
	if (comm == MPI_COMM_WORLD)
		return rank;
	if (comm == MPI_COMM_SELF)
		return rank == 0 ? self_world_rank() : MPIV_NONE;
	e = comm_find(comm, 1);
	if (e && e->n > 0)
		return rank >= 0 && rank < e->n ? e->world[rank] : MPIV_NONE;
	w = comm_translate(comm, rank, 1);
	return w == MPI_UNDEFINED ? MPIV_NONE : w;
}

/* What the cache knows of a datatype besides its size. */
enum type_bits {
	TYPE_NAMED = 1 << 0, /* predefined: the handle always has this size and layout */
	/* one element's data fill its size in bytes from the buffer's start (true lower bound 0,
	 * true extent its size) */
	TYPE_CONTIG_ONE = 1 << 1,
	TYPE_CONTIG = 1 << 2, /* so do any number of them (and its extent is its size) */
};

/* The sizes and layouts of datatypes, cached direct-mapped by handle: a message's size then
 * costs no MPI call. A predefined type never changes. A derived one is cached with an attribute
 * of ours on it, whose delete function MPI calls when the type goes (MPI-4.1 7.7.4: freed, and
 * its last use done): that empties its slot before MPI may give the handle to another type,
 * which is then asked anew. Shared by all threads (thread-local storage would take room at the
 * top of each of the program's thread stacks): written rarely, under type_lock, read through a
 * sequence lock. */
#define TYPE_SLOTS 64 /* a power of two */
struct type_ent {
	atomic_ullong type; /* the handle's bits */
	atomic_ullong size; /* 0: the slot is empty */
	atomic_uint bits;   /* enum type_bits */
};
static struct type_ent type_cache[TYPE_SLOTS];
static atomic_uint type_seq;				      /* odd while a slot is written */
static pthread_mutex_t type_lock = PTHREAD_MUTEX_INITIALIZER; /* writers */
/* our attribute on the derived types cached (type_watch()) */
static int type_keyval = MPI_KEYVAL_INVALID;
static pthread_once_t type_keyval_once = PTHREAD_ONCE_INIT;

static uint64_t type_bits(MPI_Datatype type)
{
	uint64_t v = 0;

	memcpy(&v, &type, sizeof(type) < sizeof(v) ? sizeof(type) : sizeof(v));
	return v;
}

static struct type_ent *type_slot(uint64_t bits)
{
	return &type_cache[(unsigned)((bits * 0x9e3779b97f4a7c15ULL) >> 58) & (TYPE_SLOTS - 1)];
}

/* Write slot e: type's size and bits, or empty it (size 0) if it holds type. */
static void type_store(struct type_ent *e, uint64_t type, uint64_t size, unsigned bits)
{
	unsigned seq;

	pthread_mutex_lock(&type_lock);
	if (size || atomic_load_explicit(&e->type, memory_order_relaxed) == type) {
		seq = atomic_load_explicit(&type_seq, memory_order_relaxed);
		atomic_store_explicit(&type_seq, seq + 1, memory_order_relaxed);
		atomic_thread_fence(memory_order_release);
		atomic_store_explicit(&e->type, type, memory_order_relaxed);
		atomic_store_explicit(&e->size, size, memory_order_relaxed);
		atomic_store_explicit(&e->bits, bits, memory_order_relaxed);
		atomic_store_explicit(&type_seq, seq + 2, memory_order_release);
	}
	pthread_mutex_unlock(&type_lock);
}

/* Our attribute's delete function: the type goes, and its handle may come back as another. */
static int type_forget(MPI_Datatype type, int keyval, void *value, void *extra)
{
	uint64_t bits = type_bits(type);

	type_store(type_slot(bits), bits, 0, 0);
	return MPI_SUCCESS;
}

static void type_keyval_make(void)
{
	if (PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_forget, &type_keyval, NULL) !=
	    MPI_SUCCESS)
		type_keyval = MPI_KEYVAL_INVALID;
}

/* Have MPI tell type_forget() when derived type goes. Returns 1, or 0 if it cannot (the type
 * is then not cached). */
static int type_watch(MPI_Datatype type)
{
	pthread_once(&type_keyval_once, type_keyval_make);
	return type_keyval != MPI_KEYVAL_INVALID &&
	       PMPI_Type_set_attr(type, type_keyval, NULL) == MPI_SUCCESS;
}

/* The size of type, asking MPI, and its bits (enum type_bits) into *bits; caches both (a
 * derived type only if it can be watched). 0 if unknown. */
static REC_COLD uint64_t type_size_slow(MPI_Datatype type, struct type_ent *e, unsigned *bits)
{
	MPI_Count size = 0, lb, extent;
	int ni, na, nd, combiner;

	*bits = 0;
	if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size <= 0)
		return 0;
	if (PMPI_Type_get_true_extent_x(type, &lb, &extent) == MPI_SUCCESS && lb == 0 &&
	    extent == size) {
		*bits |= TYPE_CONTIG_ONE;
		if (PMPI_Type_get_extent_x(type, &lb, &extent) == MPI_SUCCESS && extent == size)
			*bits |= TYPE_CONTIG;
	}
	if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
		return (uint64_t)size;
	if (combiner == MPI_COMBINER_NAMED)
		*bits |= TYPE_NAMED;
	else if (!type_watch(type))
		return (uint64_t)size;
	type_store(e, type_bits(type), (uint64_t)size, *bits);
	return (uint64_t)size;
}

uint64_t rec_comm_bytes(int count, MPI_Datatype type)
{
	unsigned how;

	return rec_comm_type(count, type, &how);
}

uint64_t rec_comm_type(int count, MPI_Datatype type, unsigned *how)
{
	uint64_t bits = type_bits(type), size, key;
	struct type_ent *e;
	unsigned seq, tb;

	*how = 0;
	if (count <= 0 || type == MPI_DATATYPE_NULL)
		return 0;
	e = type_slot(bits);
	seq = atomic_load_explicit(&type_seq, memory_order_acquire);
	key = atomic_load_explicit(&e->type, memory_order_relaxed);
	size = atomic_load_explicit(&e->size, memory_order_relaxed);
	tb = atomic_load_explicit(&e->bits, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (!size || key != bits || (seq & 1) ||
	    atomic_load_explicit(&type_seq, memory_order_relaxed) != seq) {
		size = type_size_slow(type, e, &tb);
		tb &= ~(unsigned)TYPE_NAMED; /* not known already */
	}
	if (tb & TYPE_NAMED)
		*how |= REC_TYPE_NAMED;
	if ((tb & TYPE_CONTIG) || ((tb & TYPE_CONTIG_ONE) && count == 1))
		*how |= REC_TYPE_CONTIG;
	return (uint64_t)count * size;
}

int rec_comm_from_world(MPI_Comm comm, int world)
{
	const struct comm_seen *e;
	int r;

	if (comm == MPI_COMM_WORLD)
		return world;
	if (comm == MPI_COMM_SELF)
		return world == self_world_rank() ? 0 : -1;
	e = comm_find(comm, 1);
	if (e && e->n > 0) {
		for (r = 0; r < e->n; r++)
			if (e->world[r] == world)
				return r;
		return -1;
	}
	r = comm_translate(comm, world, 0);
	return r == MPI_UNDEFINED ? -1 : r;
}

void rec_comm_release(void)
{
	pthread_mutex_lock(&comm_lock);
	if (world_group != MPI_GROUP_NULL)
		PMPI_Group_free(&world_group);
	world_group = MPI_GROUP_NULL;
	while (comm_n > 0)
		free(comm_tab[--comm_n].world);
	atomic_fetch_add_explicit(&comm_gen, 1, memory_order_release);
	free(comm_tab);
	comm_tab = NULL;
	comm_n = comm_cap = 0;
	pthread_mutex_unlock(&comm_lock);
	/* the types cached keep their attributes (a type that goes still empties its slot); no
	 * type is watched from now on */
	if (type_keyval != MPI_KEYVAL_INVALID)
		PMPI_Type_free_keyval(&type_keyval);
}
