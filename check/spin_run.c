/* Running spin, the C compiler and pan (see spin_run.h). pan's verdict is read from its
 * "errors: N" line and its warnings, never from the words "invalid end state", which its
 * banner prints on every run. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "paths.h"
#include "spin_run.h"
#include "xalloc.h"

#define TIMED_OUT 1000	 /* run_limited's status when it ended the command at its time limit */
#define INTERRUPTED 1001 /* ... when it ended it because mpiverify was told to stop */

/* Stopping check: SIGINT, SIGTERM and SIGHUP end the command running (its process group: cc
 * has children of its own), and run_limited says so; between commands they end mpiverify at
 * once. Either way it says why, and gives no verdict. */
static volatile sig_atomic_t stop_signal; /* the signal received, 0 if none */
static volatile pid_t running;		  /* the command running (its group), or 0 */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Async-signal-safe: write(2) only. */
static void say_stopped(int sig)
{
	static const char tail[] = ": search stopped, no verdict\n";
	char msg[96] = "mpiverify: interrupted by signal ";
	size_t n = strlen(msg);
	int d = 100;

	for (; d > 1 && sig < d; d /= 10)
		;
	for (; d > 0; d /= 10)
		msg[n++] = (char)('0' + sig / d % 10);
	memcpy(msg + n, tail, sizeof(tail) - 1);
	if (write(2, msg, n + sizeof(tail) - 1) < 0)
		return;
}

static void on_stop(int sig)
{
	pid_t pid = running;

	stop_signal = sig;
	if (pid > 0) {
		kill(-pid, SIGKILL); /* run_limited reaps it and returns INTERRUPTED */
		return;
	}
	say_stopped(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

void spin_catch_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		/* a signal ignored by whoever started us (nohup) stays ignored */
		if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
}

int spin_stopped(void)
{
	if (stop_signal)
		say_stopped(stop_signal);
	return stop_signal;
}

/* Block (how SIG_BLOCK) or unblock the stop signals. */
static void mask_stop_signals(int how)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(how, &set, NULL);
}

/* Run argv with cwd as working directory, stdout and stderr to logpath, for at most
 * seconds (0: no limit), in a process group of its own. Returns the exit status (128 +
 * signal when killed), TIMED_OUT if it was ended at the limit, INTERRUPTED if mpiverify was
 * told to stop meanwhile (the command is ended, its group too), or -1 if it could not be
 * started (errno kept). */
static int run_limited(const char *cwd, char *const argv[], const char *logpath, double seconds)
{
	/* polled every millisecond at first, then less often: a short pan run is not kept
	 * waiting, a long one not polled in vain */
	struct timespec t0, t, nap = {0, 1000 * 1000};
	pid_t pid, got;
	int status, fd;
	size_t i;

	if (stop_signal)
		return INTERRUPTED;
	fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	/* no stop signal between the fork and `running`: it would miss the child */
	mask_stop_signals(SIG_BLOCK);
	pid = fork();
	if (pid < 0) {
		mask_stop_signals(SIG_UNBLOCK);
		close(fd);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
			if (signal(stop_signals[i], SIG_DFL) == SIG_IGN)
				signal(stop_signals[i], SIG_IGN);
		mask_stop_signals(SIG_UNBLOCK);
		if (chdir(cwd) != 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
	running = pid;
	mask_stop_signals(SIG_UNBLOCK);
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		got = waitpid(pid, &status, seconds > 0 ? WNOHANG : 0);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			running = 0;
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (seconds > 0 &&
		    (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 >= seconds) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			running = 0;
			return stop_signal ? INTERRUPTED : TIMED_OUT;
		}
		if (seconds > 0) {
			nanosleep(&nap, NULL);
			if (nap.tv_nsec < 20 * 1000 * 1000)
				nap.tv_nsec *= 2;
		}
	}
	running = 0;
	if (stop_signal)
		return INTERRUPTED;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int run_logged(const char *cwd, char *const argv[], const char *logpath)
{
	return run_limited(cwd, argv, logpath, 0);
}

/* The last lines of a log, for an error message. */
static const char *tail_of(const char *text, int lines)
{
	const char *p = text + strlen(text);

	while (p > text && (p[-1] == '\n'))
		p--;
	while (p > text && lines > 0) {
		p--;
		if (*p == '\n')
			lines--;
	}
	return *p == '\n' ? p + 1 : p;
}

static int tool_failed(const char *what, const char *log, int rc, struct mpiv_error *err)
{
	char *text;
	int ret;

	/* the caller asks spin_stopped(): this error is not what went wrong */
	if (rc == INTERRUPTED)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, log, -1, -1,
				      "%s stopped: mpiverify "
				      "was interrupted",
				      what);
	text = xread_file(log, NULL);

	if (rc == 127 || rc < 0)
		ret = mpiv_error_set(err, MPIV_EXIT_TOOL, log, -1, -1, "cannot run %s%s%s", what,
				     text ? ": " : "", text ? tail_of(text, 3) : "");
	else
		ret = mpiv_error_set(err, MPIV_EXIT_TOOL, log, -1, -1, "%s failed (exit %d): %s",
				     what, rc, text ? tail_of(text, 5) : "no output");
	free(text);
	return ret;
}

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "r"), *out;
	char buf[8192];
	size_t n;
	int rc = 0;

	if (!in)
		return -1;
	out = fopen(to, "w");
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	fclose(in);
	if (fclose(out) != 0)
		rc = -1;
	return rc;
}

/* Build outdir/pan from the model's sources for states of exactly `words` words, as the
 * prebuilt verifiers are built (Makefile.in, "the verifiers"), except that pan.c is compiled
 * with -O0: a state this large allows few states, so the compile is what costs. swarm: with
 * bitstate hashing and randomised orders instead (spin_swarm_verifier()). */
static int spin_build(const char *outdir, long words, int swarm, struct mpiv_error *err)
{
	char log[4096], eng[4096], hdr[4096], src[4096], model[4096], dwords[64];
	int rc;
	char *spin_argv[] = {(char *)mpiv_spin(), "-a", "model.pml", NULL};
	char *eng_argv[] = {(char *)mpiv_cc(), "-O2", "-c", "-o", "engine.o", eng, NULL};
	char *cc_argv[] =
		{(char *)mpiv_cc(), "-O0",	"-w", dwords, "-include", hdr, "-o", "pan",
		 "pan.c",	    "engine.o", NULL, NULL,   NULL,	  NULL};
	/* SPIN's swarm settings: a bit per hash function and state instead of the state, and
	 * the transitions and processes tried in an order each seed (-RS) shuffles */
	char *swarm_defs[] = {"-DBITSTATE", "-DT_RAND", "-DP_RAND"};

	snprintf(src, sizeof(src), "%s/mpi.pml", mpiv_models_dir());
	snprintf(model, sizeof(model), "%s/model.pml", outdir);
	if (copy_file(src, model))
		return mpiv_error_set(err, MPIV_EXIT_TOOL, src, -1, -1,
				      "cannot copy the model to "
				      "'%s': %s",
				      model, strerror(errno));
	snprintf(log, sizeof(log), "%s/spin.log", outdir);
	rc = run_logged(outdir, spin_argv, log);
	if (rc != 0)
		return tool_failed("spin -a", log, rc, err);
	snprintf(eng, sizeof(eng), "%s/engine.c", mpiv_models_dir());
	snprintf(hdr, sizeof(hdr), "%s/engine.h", mpiv_models_dir());
	if (access(eng, R_OK) != 0 || access(hdr, R_OK) != 0)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, eng, -1, -1,
				      "cannot read the model's "
				      "engine: %s",
				      strerror(errno));
	snprintf(log, sizeof(log), "%s/cc-engine.log", outdir);
	rc = run_logged(outdir, eng_argv, log);
	if (rc != 0)
		return tool_failed("the C compiler on the model's engine", log, rc, err);
	snprintf(dwords, sizeof(dwords), "-DMPIV_STATE_WORDS=%ld", words);
	if (swarm) {
		cc_argv[1] = "-O1"; /* a swarm runs long: a faster search is worth the compile */
		memcpy(cc_argv + 10, swarm_defs, sizeof(swarm_defs));
	}
	snprintf(log, sizeof(log), "%s/cc.log", outdir);
	rc = run_logged(outdir, cc_argv, log);
	if (rc != 0)
		return tool_failed("the C compiler on pan.c", log, rc, err);
	return 0;
}

/* The smallest prebuilt verifier in dir with room for `words` state words, into pan (size
 * bytes). Returns 0, or -1 if none has room (or dir cannot be read). */
static int prebuilt(const char *dir, long words, char *pan, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long best = -1, w;
	char *end;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "pan-", 4))
			continue;
		w = strtol(e->d_name + 4, &end, 10);
		if (end == e->d_name + 4 || *end || w < words || (best >= 0 && w >= best))
			continue;
		snprintf(pan, size, "%s/%s", dir, e->d_name);
		if (access(pan, X_OK) == 0)
			best = w;
	}
	closedir(d);
	if (best < 0)
		return -1;
	snprintf(pan, size, "%s/pan-%ld", dir, best);
	return 0;
}

int spin_prebuilt(long words, char *pan, size_t size)
{
	const char *dir = mpiv_pan_dir();

	return dir ? prebuilt(dir, words, pan, size) : -1;
}

int spin_verifier(const char *outdir, long words, char *pan, size_t size, struct mpiv_error *err)
{
	if (spin_prebuilt(words, pan, size) == 0)
		return 0;
	if (spin_build(outdir, words, 0, err))
		return -1;
	snprintf(pan, size, "%s/pan", outdir);
	return 0;
}

int spin_swarm_verifier(const char *outdir, long words, char *pan, size_t size,
			struct mpiv_error *err)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/swarm", outdir);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return mpiv_error_set(err, MPIV_EXIT_TOOL, dir, -1, -1, "cannot create: %s",
				      strerror(errno));
	if (spin_build(dir, words, 1, err))
		return -1;
	snprintf(pan, size, "%s/pan", dir);
	return 0;
}

static void add_trail(struct spin_result *res, const char *name)
{
	res->trails = xrealloc(res->trails, (size_t)(res->ntrails + 1) * sizeof(char *));
	res->trails[res->ntrails++] = xstrdup(name);
}

/* Read pan's output: the counts, the trails it wrote, and anything that cut it short. */
static void parse_pan(const char *text, struct spin_result *res)
{
	const char *line = text;
	static const char *const cut[] = {
		"max search depth too small",
		"reached -DMEMLIM bound",
		"out of memory",
		"Search not completed",
		"search interrupted",
		"VECTORSZ is too small",
		"time limit",
	};
	size_t i;

	res->complete = 1;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[1024];
		const char *p;
		char name[256];

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		p = strstr(buf, "errors: ");
		if (p)
			res->errors = atoi(p + 8);
		/* sscanf assigns a leading number even when the words after it differ (the
		 * memory lines start with one too): match the words first */
		if (strstr(buf, " states, stored"))
			(void)sscanf(buf, " %ld", &res->states);
		if (!strncmp(buf, "pan: elapsed time ", 18))
			(void)sscanf(buf + 18, "%lf", &res->seconds);
		if (sscanf(buf, "pan: wrote %255s", name) == 1)
			add_trail(res, name);
		for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
			if (strstr(buf, cut[i]) && res->complete) {
				res->complete = 0;
				snprintf(res->why, sizeof(res->why), "%.200s", buf);
			}
		line = nl ? nl + 1 : NULL;
	}
}

/* spin_search() and spin_swarm_search(): pan with the hash and order options opts (up to
 * three, a NULL after the last). */
static int search_with(const char *pan, const char *workdir, long depth, long memory_mb,
		       int max_trails, double seconds, char *const opts[3], struct spin_result *res,
		       struct mpiv_error *err)
{
	char log[8192], mem[64], m[64], c[64];
	char *argv[] = {(char *)pan, mem, "-e", c, m, opts[0], opts[1], opts[2], NULL};
	char *text;
	int rc;

	memset(res, 0, sizeof(*res));
	snprintf(mem, sizeof(mem), "--memory-limit=%ld", memory_mb);
	snprintf(m, sizeof(m), "-m%ld", depth);
	snprintf(c, sizeof(c), "-c%d", max_trails);
	snprintf(log, sizeof(log), "%s/pan.out", workdir);
	rc = run_limited(workdir, argv, log, seconds);
	if (rc == INTERRUPTED)
		return tool_failed("pan", log, rc, err);
	if (rc == TIMED_OUT) {
		/* what pan found before the limit is still in its output and trails */
		text = xread_file(log, NULL);
		if (text)
			parse_pan(text, res);
		free(text);
		res->complete = 0;
		snprintf(res->why, sizeof(res->why), "time limit of %.0f s reached", seconds);
		return 0;
	}
	text = xread_file(log, NULL);
	if (rc != 0 || !text || !strstr(text, "errors: ")) {
		int ret = tool_failed("pan", log, rc ? rc : 1, err);

		free(text);
		return ret;
	}
	parse_pan(text, res);
	if (!res->complete && strstr(res->why, "MEMLIM"))
		snprintf(res->why, sizeof(res->why), "memory limit of %ld MB reached", memory_mb);
	/* pan stops at the max_trails-th error: the rest was not explored (pan says only
	 * "Search not completed") */
	if (res->errors >= max_trails &&
	    (res->complete || strstr(res->why, "Search not completed"))) {
		res->complete = 0;
		snprintf(res->why, sizeof(res->why), "stopped after %d deadlock states",
			 max_trails);
	}
	free(text);
	return 0;
}

int spin_search(const char *pan, const char *workdir, long depth, long memory_mb, int max_trails,
		double seconds, struct spin_result *res, struct mpiv_error *err)
{
	/* the hash table starts at 2^18 slots (2 MB) and grows with the search (AUTO_RESIZE in
	 * models/mpi.pml) */
	char *opts[3] = {"-w18", NULL, NULL};

	return search_with(pan, workdir, depth, memory_mb, max_trails, seconds, opts, res, err);
}

int spin_swarm_search(const char *pan, const char *workdir, long depth, long memory_mb,
		      int max_trails, double seconds, int seed, struct spin_result *res,
		      struct mpiv_error *err)
{
	char w[32], rs[32], h[32];
	char *opts[3] = {w, rs, h};
	long long bytes = memory_mb * 1024LL * 1024 / 2; /* half for the bit array */
	int bits = 20, rc;

	/* the largest bit array of 2^bits bits that half the memory limit holds */
	while (bits < 35 && (1LL << (bits + 1)) / 8 <= bytes)
		bits++;
	snprintf(w, sizeof(w), "-w%d", bits);
	/* each member a search order of its own (-RS) and a hash function of its own (-h) */
	snprintf(rs, sizeof(rs), "-RS%d", 1 + seed * 7919);
	snprintf(h, sizeof(h), "-h%d", seed % 500);
	rc = search_with(pan, workdir, depth, memory_mb, max_trails, seconds, opts, res, err);
	/* one stopped by a limit says which */
	if (rc == 0 && res->complete) {
		res->complete = 0;
		snprintf(res->why, sizeof(res->why), "%s", SPIN_BITSTATE_WHY);
	}
	return rc;
}

int spin_trail_choices(const char *pan, const char *workdir, const char *trail, int **choices,
		       int *n, struct mpiv_error *err)
{
	char log[8192];
	/* a replay stores no states: a small hash table (pan's default is 128 MB) */
	char *argv[] = {(char *)pan, "-w10", "-r", (char *)trail, NULL};
	char *text, *line;
	int rc, cap = 16;

	snprintf(log, sizeof(log), "%s/%s.out", workdir, trail);
	rc = run_logged(workdir, argv, log);
	text = xread_file(log, NULL);
	if (rc != 0 || !text)
		return tool_failed("pan -r", log, rc ? rc : 1, err);
	*n = 0;
	*choices = xmalloc((size_t)cap * sizeof(int));
	for (line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		int k;

		if (sscanf(line, "MPIV-CHOICE %d", &k) == 1) {
			if (*n == cap) {
				cap *= 2;
				*choices = xrealloc(*choices, (size_t)cap * sizeof(int));
			}
			(*choices)[(*n)++] = k;
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return 0;
}

void spin_result_release(struct spin_result *res)
{
	int i;

	for (i = 0; i < res->ntrails; i++)
		free(res->trails[i]);
	free(res->trails);
	memset(res, 0, sizeof(*res));
}
