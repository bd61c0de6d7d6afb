/* Thread numbers, and pthread_create and pthread_join interposed (rec_threads.h). The
 * numbers are given by a counter and never reused: a thread slot of the live status is reused
 * when its thread ends, its number is not. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "event.h"
#include "rec_threads.h"
#include "steer.h"

#define MPIV_EXPORT __attribute__((visibility("default")))

void (*rec_thread_told)(int op, int32_t self, int32_t other);

static atomic_int th_next = 1;	  /* the next number a thread gets (0: the initial one) */
static __thread int32_t th_number /* 1 + the calling thread's own number; 0: none yet */
	__attribute__((tls_model("initial-exec")));
/* The own number of the thread that initialised MPI, if not the initial thread's (0): the
 * numbers it and the initial thread are known by are swapped (rec_thread_make_main()). */
static atomic_int th_main;
/* the calling thread was started by pthread_create() here: its end is told */
static __thread int th_started __attribute__((tls_model("initial-exec")));
/* its path (base/steer.h): "" for the initial thread (whose path is "0") and for one whose
 * creation was not told; th_path_set says which */
static __thread char th_path[MPIV_STEER_PATH] __attribute__((tls_model("initial-exec")));
static __thread int th_path_set __attribute__((tls_model("initial-exec")));
/* the threads it created while creations were told: the next one's K is 1 + this */
static __thread unsigned th_created __attribute__((tls_model("initial-exec")));

/* The C library's functions, found once. */
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*join_fn)(pthread_t, void **);
typedef void (*exit_fn)(void *) __attribute__((noreturn));
static create_fn th_create;
static join_fn th_join;
static exit_fn th_exit;
static pthread_once_t th_once = PTHREAD_ONCE_INIT;

static void th_find(void)
{
	th_create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	th_join = (join_fn)dlsym(RTLD_NEXT, "pthread_join");
	th_exit = (exit_fn)dlsym(RTLD_NEXT, "pthread_exit");
}

/* The calling thread's own number: its creation's, 0 for the initial thread. */
static int32_t th_own(void)
{
	if (!th_number)
		th_number = 1 +
			    (syscall(SYS_gettid) == getpid() ? 0 : atomic_fetch_add(&th_next, 1));
	return th_number - 1;
}

/* The number a thread whose own number is own is known by. */
static int32_t th_known(int32_t own)
{
	int32_t main = atomic_load_explicit(&th_main, memory_order_relaxed);

	return own == main ? 0 : own == 0 ? main : own;
}

int32_t rec_thread_number(void)
{
	return th_known(th_own());
}

void rec_thread_make_main(void)
{
	atomic_store_explicit(&th_main, th_own(), memory_order_relaxed);
}

const char *rec_thread_path(void)
{
	int32_t main = atomic_load_explicit(&th_main, memory_order_relaxed);

	if (main)
		return th_own() == main ? "0" : th_own() == 0 ? "" : th_path_set ? th_path : "";
	if (th_path_set)
		return th_path;
	return syscall(SYS_gettid) == getpid() ? "0" : "";
}

int rec_thread_create_own(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	pthread_once(&th_once, th_find);
	return th_create ? th_create(t, attr, fn, arg) : EAGAIN;
}

/* Who a created thread is: its number, until pthread_join asks (a detached thread's stays;
 * one entry per thread the program ever created and did not join). */
struct th_entry {
	pthread_t id;
	int32_t number;
	int ended; /* it returned or called pthread_exit */
	struct th_entry *next;
};
static struct th_entry *th_list;
static pthread_mutex_t th_lock = PTHREAD_MUTEX_INITIALIZER;

/* The thread whose own number is number ended. */
static void th_ended(int32_t number)
{
	struct th_entry *e;

	pthread_mutex_lock(&th_lock);
	for (e = th_list; e; e = e->next)
		if (e->number == number)
			e->ended = 1;
	pthread_mutex_unlock(&th_lock);
}

void rec_thread_tell_made(void)
{
	struct th_entry *e;

	if (!rec_thread_told)
		return;
	/* the initial thread, where another initialised MPI */
	if (th_known(0))
		rec_thread_told(MPIV_THREAD_CREATE, 0, th_known(0));
	pthread_mutex_lock(&th_lock);
	for (e = th_list; e; e = e->next)
		if (!e->ended && th_known(e->number))
			rec_thread_told(MPIV_THREAD_CREATE, 0, th_known(e->number));
	pthread_mutex_unlock(&th_lock);
}

struct th_start {
	void *(*fn)(void *);
	void *arg;
	int32_t number;
	char path[MPIV_STEER_PATH]; /* "" if not known */
};

static void *th_begin(void *p)
{
	struct th_start s = *(struct th_start *)p;
	void *ret;

	free(p);
	th_number = 1 + s.number;
	th_started = 1;
	memcpy(th_path, s.path, sizeof(th_path));
	th_path_set = 1;
	ret = s.fn(s.arg);
	/* it makes no more calls: a rank ended while other threads were blocked is not
	 * waiting for this one (the end of the thread that initialised MPI, as the initial
	 * thread's, is not told) */
	th_ended(s.number);
	if (rec_thread_told && th_known(s.number))
		rec_thread_told(MPIV_THREAD_EXIT, th_known(s.number), th_known(s.number));
	return ret;
}

/* A thread that ends by pthread_exit() ends as one that returns (th_begin()). The initial
 * thread's end is not told: the rank goes on while others run, to MPI_Finalize. */
MPIV_EXPORT void pthread_exit(void *ret)
{
	pthread_once(&th_once, th_find);
	if (th_started)
		th_ended(th_own());
	if (th_started && rec_thread_told && rec_thread_number())
		rec_thread_told(MPIV_THREAD_EXIT, rec_thread_number(), rec_thread_number());
	th_started = 0;
	if (th_exit)
		th_exit(ret);
	abort(); /* no C library's pthread_exit: nothing else ends a thread */
}

MPIV_EXPORT int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
			       void *arg)
{
	struct th_start *s = malloc(sizeof(*s));
	struct th_entry *e = malloc(sizeof(*e));
	int rc;

	pthread_once(&th_once, th_find);
	if (!th_create) {
		free(s);
		free(e);
		return EAGAIN;
	}
	/* unnumbered: it gets a number at its first call, if it makes one, and no order */
	if (!s || !e || rec_thread_in_call()) {
		free(s);
		free(e);
		return th_create(t, attr, fn, arg);
	}
	s->fn = fn;
	s->arg = arg;
	s->number = atomic_fetch_add(&th_next, 1);
	s->path[0] = '\0';
	/* told before it can run: its calls come after the creator's before this one; its
	 * path counts the creations told, those a trace holds */
	if (rec_thread_told) {
		const char *mine = rec_thread_path();
		int n;

		rec_thread_told(MPIV_THREAD_CREATE, rec_thread_number(), th_known(s->number));
		th_created++;
		n = snprintf(s->path, sizeof(s->path), "%s.%u", mine, th_created);
		if (!*mine || n < 0 || (size_t)n >= sizeof(s->path))
			s->path[0] = '\0';
	}
	/* listed before it runs, so that its end finds it (th_ended()) */
	e->number = s->number;
	e->ended = 0;
	memset(&e->id, 0, sizeof(e->id));
	pthread_mutex_lock(&th_lock);
	e->next = th_list;
	th_list = e;
	pthread_mutex_unlock(&th_lock);
	rc = th_create(t, attr, th_begin, s);
	pthread_mutex_lock(&th_lock);
	if (rc != 0) {
		struct th_entry **p;

		for (p = &th_list; *p != e; p = &(*p)->next)
			;
		*p = e->next;
	} else {
		e->id = *t;
	}
	pthread_mutex_unlock(&th_lock);
	if (rc != 0) {
		free(s);
		free(e);
	}
	return rc;
}

MPIV_EXPORT int pthread_join(pthread_t t, void **ret)
{
	struct th_entry **p, *e = NULL;
	int rc;

	pthread_once(&th_once, th_find);
	if (!th_join)
		return EINVAL;
	rc = th_join(t, ret);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&th_lock);
	for (p = &th_list; *p; p = &(*p)->next)
		if (pthread_equal((*p)->id, t)) {
			e = *p;
			*p = e->next;
			break;
		}
	pthread_mutex_unlock(&th_lock);
	if (e && rec_thread_told)
		rec_thread_told(MPIV_THREAD_JOIN, rec_thread_number(), th_known(e->number));
	free(e);
	return 0;
}
