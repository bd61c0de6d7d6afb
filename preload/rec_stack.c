/* The call stack of a blocked MPI call (rec_stack.h), unwound in the rank itself: the signal
 * handler does nothing but backtrace() into the thread's buffer, on the thread's alternate
 * signal stack; everything that asks the dynamic loader happens later, on the status thread. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rec_site.h"
#include "rec_stack.h"

/* this thread's buffer, NULL if unbound; initial-exec: a plain load, also in a handler */
static __thread struct rec_stack *stk_self __attribute__((tls_model("initial-exec")));
static atomic_int stk_on;      /* the handler is installed */
static char stk_exe[PATH_MAX]; /* the main program's file, "" if unknown */

/* Whether the handler running at where (an address on its stack) may unwind there: on this
 * library's alternate stack, or on one of the program's with as much room. */
static int stk_room(const void *where)
{
	stack_t cur;

	switch (rec_stack_alt_of(where)) {
	case REC_ALT_OURS:
		return 1;
	case REC_ALT_PROGRAM:
		return sigaltstack(NULL, &cur) == 0 && cur.ss_size >= REC_STACK_ALT_ROOM;
	default:
		return 0;
	}
}

/* Runs on the thread in the call. Only async-signal-safe work: backtrace() is, once the
 * unwinder is loaded (rec_stack_init), as long as the thread is not inside the dynamic
 * loader, which a call blocked in MPI is not. */
static void stk_handler(int sig, siginfo_t *si, void *uc)
{
	struct rec_stack *st = stk_self;
	int saved = errno;
	char here = 0; /* only its address is used: where this frame is */

	(void)sig;
	(void)si;
	(void)uc;
	if (st && atomic_load_explicit(&st->state, memory_order_acquire) == REC_STACK_WANTED) {
		/* Only on an alternate stack with room (the program may have put a small one in
		 * ours' place since): an unwinder has no business on the program's stack. */
		st->n = stk_room(&here) ? backtrace(st->frames, REC_STACK_MAX) : 0;
		atomic_store_explicit(&st->state, REC_STACK_DONE, memory_order_release);
	}
	errno = saved;
}

int rec_stack_init(void)
{
	struct sigaction sa, old;
	void *warm[4];
	ssize_t n;

	if (atomic_load(&stk_on))
		return 0;
	if (sigaction(REC_STACK_SIGNAL, NULL, &old) != 0)
		return -1;
	/* The program's own handler wins: no stacks then. */
	if ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN))
		return -1;
	backtrace(warm, 4);
	n = readlink("/proc/self/exe", stk_exe, sizeof(stk_exe) - 1);
	stk_exe[n > 0 ? n : 0] = '\0';
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = stk_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(REC_STACK_SIGNAL, &sa, NULL) != 0)
		return -1;
	atomic_store(&stk_on, 1);
	return 0;
}

void rec_stack_bind(struct rec_stack *st)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	stack_t cur, ss;
	char *mem;

	stk_self = st;
	st->alt = NULL;
	st->altsize = 0;
	st->askable = 0;
	if (sigaltstack(NULL, &cur) != 0)
		return;
	/* A thread with an alternate stack of the program's keeps it. */
	if (!(cur.ss_flags & SS_DISABLE)) {
		st->askable = cur.ss_size >= REC_STACK_ALT_ROOM;
		return;
	}
	mem = mmap(NULL, REC_STACK_ALT_ROOM + page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (mem == MAP_FAILED)
		return;
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = mem + page;
	ss.ss_size = REC_STACK_ALT_ROOM;
	if (mprotect(mem, page, PROT_NONE) != 0 || sigaltstack(&ss, NULL) != 0) {
		munmap(mem, REC_STACK_ALT_ROOM + page);
		return;
	}
	st->alt = mem;
	st->altsize = REC_STACK_ALT_ROOM + page;
	st->askable = 1;
}

void rec_stack_unbind(struct rec_stack *st)
{
	stack_t cur, off;

	if (stk_self == st)
		stk_self = NULL;
	if (!st->alt)
		return;
	/* Still in place (the program may have set one of its own since): switch it off first. */
	if (sigaltstack(NULL, &cur) == 0 && (char *)cur.ss_sp >= st->alt &&
	    (char *)cur.ss_sp < st->alt + st->altsize) {
		if (cur.ss_flags & SS_ONSTACK)
			return; /* a handler runs on it: keep it, mapped for good */
		memset(&off, 0, sizeof(off));
		off.ss_flags = SS_DISABLE;
		if (sigaltstack(&off, NULL) != 0)
			return;
	}
	munmap(st->alt, st->altsize);
	st->alt = NULL;
	st->altsize = 0;
	st->askable = 0;
}

enum rec_stack_alt rec_stack_alt_of(const void *where)
{
	const struct rec_stack *st = stk_self;
	stack_t cur;

	if (st && st->alt && (const char *)where >= st->alt &&
	    (const char *)where < st->alt + st->altsize)
		return REC_ALT_OURS;
	if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_ONSTACK))
		return REC_ALT_PROGRAM;
	return REC_ALT_NONE;
}

int rec_stack_take(struct rec_stack *st)
{
	char here = 0;

	st->n = stk_room(&here) ? backtrace(st->frames, REC_STACK_MAX) : 0;
	atomic_store_explicit(&st->state, REC_STACK_DONE, memory_order_release);
	return st->n;
}

int rec_stack_request(struct rec_stack *st, pid_t tid)
{
	struct sigaction cur;

	if (!atomic_load(&stk_on) || tid <= 0 || !st->askable)
		return -1;
	/* The program may have taken the signal over since: then it is not ours to send. */
	if (sigaction(REC_STACK_SIGNAL, NULL, &cur) != 0 || !(cur.sa_flags & SA_SIGINFO) ||
	    cur.sa_sigaction != stk_handler) {
		atomic_store(&stk_on, 0);
		return -1;
	}
	atomic_store_explicit(&st->state, REC_STACK_WANTED, memory_order_release);
	if (syscall(SYS_tgkill, (long)getpid(), (long)tid, REC_STACK_SIGNAL) != 0) {
		atomic_store_explicit(&st->state, REC_STACK_IDLE, memory_order_relaxed);
		return -1;
	}
	return 0;
}

/* The loaded object addr is in, or NULL. */
static struct link_map *stk_module(const void *addr)
{
	struct link_map *lm = NULL;
	Dl_info info;

	if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP))
		return NULL;
	return lm;
}

void rec_stack_python(const uint64_t *sites, int n)
{
	struct rec_stack *st = stk_self;

	if (!st)
		return;
	if (n > REC_STACK_MAX)
		n = REC_STACK_MAX;
	memcpy(st->py, sites, (size_t)n * sizeof(*sites));
	st->npy = n;
}

/* A Python program's stack, its script's frames (rec_stack_python()), as
 * rec_stack_format() writes one: "python:FILE:FUNCTION+0xLINE" a line. */
static int stk_format_python(const struct rec_stack *st, char *buf, size_t size)
{
	size_t used = 0;
	int i, len;

	for (i = 0; i < st->npy; i++) {
		const char *path = rec_site_module_path(MPIV_SITE_MODULE(st->py[i]));

		len = snprintf(buf + used, size - used, "%s+0x%llx\n", path ? path : "?",
			       (unsigned long long)MPIV_SITE_ADDR(st->py[i]));
		if (len <= 0 || used + (size_t)len >= size) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)len;
	}
	return i;
}

int rec_stack_format(const struct rec_stack *st, char *buf, size_t size)
{
	struct link_map *self = stk_module((const void *)rec_stack_format), *lm;
	struct link_map *libc = stk_module((const void *)abort);
	const char *path;
	size_t used = 0;
	int i, first, lines = 0, n, outer = 0, inner = -1;
	char line[PATH_MAX + 32];

	if (size)
		buf[0] = '\0';
	if (atomic_load_explicit(&st->state, memory_order_acquire) != REC_STACK_DONE)
		return 0;
	if (st->npy)
		return stk_format_python(st, buf, size);
	n = st->n < REC_STACK_MAX ? st->n : REC_STACK_MAX;
	/* The program's frames start after the outermost frame of this library: the MPI_*
	 * wrapper the program called. But a thread the program created through this library's
	 * pthread_create starts in this library's start routine (rec_threads.c), below which
	 * only the C library's frames come: that frame ends the program's, and the one of this
	 * library before it is the wrapper. */
	for (i = 0; i < n; i++) {
		if (self && stk_module(st->frames[i]) == self) {
			inner = outer;
			outer = i;
		}
	}
	if (outer > 0 && inner >= 0 && libc) {
		for (i = outer + 1; i < n && stk_module(st->frames[i]) == libc; i++)
			;
		if (i == n) {
			n = outer;
			outer = inner;
		}
	}
	first = outer + 1;
	/* and after the MPI library's frames that called it: a Fortran binding */
	while (first < n && rec_site_inner(st->frames[first]))
		first++;
	for (i = first; i < n; i++) {
		uintptr_t addr = (uintptr_t)st->frames[i];
		int len;

		lm = stk_module(st->frames[i]);
		if (lm) {
			path = lm->l_name && lm->l_name[0] ? lm->l_name : stk_exe;
			len = snprintf(line, sizeof(line), "%s+0x%llx\n", path[0] ? path : "?",
				       (unsigned long long)(addr - lm->l_addr));
		} else {
			len = snprintf(line, sizeof(line), "?+0x%llx\n", (unsigned long long)addr);
		}
		if (len <= 0 || (size_t)len >= sizeof(line) || used + len >= size)
			break;
		memcpy(buf + used, line, len + 1);
		used += len;
		lines++;
	}
	return lines;
}
