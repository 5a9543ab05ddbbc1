/*
 * cmd_sweep.c - `ppr sweep`: run ppr over many inputs x machines x kernels
 * in forked worker processes, records appended to a JSON-lines file;
 * resumable, shardable.  `ppr sweep merge` and `ppr sweep diff` are in
 * cli/sweep_merge.c.
 *
 * Each job is `ppr predict|bcsr|matrix info ... --format json` run in a
 * forked worker process (the command is called in the copy, no exec; a
 * worker runs jobs one after another, see "Workers" below), so a crash, an
 * out-of-memory kill or a timeout of one input becomes an error record and
 * the sweep goes on.  A record is one
 * line written with a single write() on an O_APPEND descriptor, then
 * fdatasync(): a kill at any moment leaves every completed record intact
 * and at most one partial last line, which the next run truncates away.
 *
 * Shards: inputs are sorted (byte order of their names, duplicates
 * removed); shard i/N takes the inputs whose index in that order is
 * i mod N, with every machine and kernel of each input.
 *
 * Parallelism: --jobs N workers at once, each single-threaded (the
 * sweep sets PPR_THREADS=1 in them unless it is already set), and the
 * expected-longest jobs start first (input_weight below).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "common/ppr_version.h"
#include "common/xalloc.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(p, sz) free(p)
#include <uthash.h>

PPR_COMMAND(sweep, "run predictions over many inputs (parallel, resumable, sharded); merge results")

static const char usage_str[] =
	"usage: ppr sweep [options] INPUT... -o results.jsonl\n"
	"       ppr sweep merge FILE.jsonl... [-o all.jsonl] [--csv FILE]\n"
	"       ppr sweep diff A.jsonl B.jsonl [--ignore FIELD]...\n"
	"  one job `ppr predict|bcsr|matrix info` per (input, machine, kernel),\n"
	"  run in --jobs worker processes;\n"
	"  one JSON record per line in the results file; a rerun of the same\n"
	"  command skips the keys already there (ok or error)\n"
	"inputs: matrix files, directories (searched recursively for .mtx,\n"
	"  .mtx.gz, .rb and Harwell-Boeing .rua/.rsa/.psa/.cua/.rra...), @LIST\n"
	"  files (one input per line, # comments), generator specs gen:...\n"
	"  -o, --output FILE   results file (JSON lines; appended to, resumed)\n"
	"  -m, --machine M     machine file (repeatable; part of the key)\n"
	"  -k, --kernel K      kernel for `ppr predict` (repeatable; default\n"
	"                      spmv-csr); 'none' = matrix statistics + fill\n"
	"      --info          same as --kernel none (no machine needed)\n"
	"      --bcsr          also run `ppr bcsr` (all 64 block shapes)\n"
	"      --block RxC     block shape passed to predict (spmv-bcsr)\n"
	"      --measure       passed to predict/bcsr (also measure natively)\n"
	"      --measure-close passed to bcsr (measure the pick and the shapes\n"
	"                      predicted close to it)\n"
	"  -j, --jobs N        jobs at once, one core each (default: online cores)\n"
	"      --timeout S     kill a job after S seconds: an error record\n"
	"      --job-memory MB address-space limit (RLIMIT_AS) of each job\n"
	"      --shard i/N     only inputs with index = i mod N (0 <= i < N)\n"
	"      --csv FILE      also write every record of the results file as CSV\n"
	"      --dry-run       print the jobs (keys) this command would run\n"
	"      --retry-errors  rerun keys whose record is an error\n"
	"  -q, --quiet         no progress on stderr (the summary stays)\n"
	"exit: 0 when every job has a record (ok or error), 1 on a setup or\n"
	"  write failure, 130/143 when interrupted (completed records kept)\n";

enum job_kind { JOB_INFO, JOB_PREDICT, JOB_BCSR };

struct sweep_kernel {
	const char *name;	/* key "kernel" */
	enum job_kind kind;
};

struct job {
	size_t input;		/* index into the sorted inputs */
	size_t machine;		/* index into machines (unused for info) */
	size_t kernel;
	char *key;		/* canonical key string */
	uint64_t weight;	/* expected cost, for the run order */
};

struct sweep_opts {
	const char *out, *csv, *block;
	const char **machines;
	size_t nmachines;
	struct sweep_kernel *kernels;
	size_t nkernels;
	int measure, measure_close, dry_run, retry_errors, quiet;
	unsigned jobs;
	double timeout;
	unsigned long long max_mem_mb;
	unsigned shard_i, shard_n;
};

struct strvec {
	char **v;
	size_t n, cap;
};

static void strvec_push(struct strvec *sv, char *s)
{
	if (sv->n == sv->cap) {
		sv->cap = sv->cap ? 2 * sv->cap : 64;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
}

static void strvec_free(struct strvec *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_unix(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- inputs --------------------------------------------------------- */

/* Matrix file name?  .mtx, .mm, .rb, .hb, Harwell-Boeing [rcp][suhzr][ae],
 * each optionally .gz. */
static int matrix_name(const char *name)
{
	size_t n = strlen(name);
	const char *dot;
	char ext[8];
	size_t i, el;

	if (n > 3 && !strcmp(name + n - 3, ".gz"))
		n -= 3;
	for (dot = name + n; dot > name && dot[-1] != '.'; dot--)
		;
	if (dot == name)
		return 0;
	el = (size_t)(name + n - dot);
	if (el == 0 || el >= sizeof(ext))
		return 0;
	for (i = 0; i < el; i++)
		ext[i] = (char)((dot[i] >= 'A' && dot[i] <= 'Z') ? dot[i] + 32
								: dot[i]);
	ext[el] = '\0';
	if (!strcmp(ext, "mtx") || !strcmp(ext, "mm") || !strcmp(ext, "rb") ||
	    !strcmp(ext, "hb"))
		return 1;
	return el == 3 && strchr("rcp", ext[0]) && strchr("suhzr", ext[1]) &&
	       strchr("ae", ext[2]);
}

static int walk_dir(const char *dir, int depth, struct strvec *out)
{
	DIR *d;
	struct dirent *de;
	struct strvec names = { 0 };
	size_t i;
	int rc = 0;

	if (depth > 64)
		return cli_error("%s: directories nested deeper than 64 (a symlink loop?)",
				 dir);
	d = opendir(dir);
	if (!d)
		return cli_error("%s: cannot open directory: %s", dir,
				 strerror(errno));
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			strvec_push(&names, xstrdup(de->d_name));
	closedir(d);
	for (i = 0; i < names.n && !rc; i++) {
		size_t len = strlen(dir) + strlen(names.v[i]) + 2;
		char *p = xmalloc(len);
		struct stat st;

		snprintf(p, len, "%s%s%s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", names.v[i]);
		if (stat(p, &st)) {
			free(p);	/* dangling link: not an input */
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			rc = walk_dir(p, depth + 1, out);
			free(p);
		} else if (S_ISREG(st.st_mode) && matrix_name(names.v[i])) {
			strvec_push(out, p);
		} else {
			free(p);
		}
	}
	strvec_free(&names);
	return rc;
}

static int add_input(const char *arg, int from_list, struct strvec *out);

static int read_list(const char *path, struct strvec *out)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (!f)
		return cli_error("%s: cannot read input list: %s", path,
				 strerror(errno));
	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		char *s = line, *e = line + n;

		while (e > s && (e[-1] == '\n' || e[-1] == '\r' ||
				 e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			continue;
		rc = add_input(s, 1, out);
	}
	free(line);
	fclose(f);
	return rc;
}

static int add_input(const char *arg, int from_list, struct strvec *out)
{
	struct stat st;

	if (arg[0] == '@' && !from_list)
		return read_list(arg + 1, out);
	if (!strncmp(arg, "gen:", 4)) {
		strvec_push(out, xstrdup(arg));
		return 0;
	}
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return walk_dir(arg, 0, out);
	/* A file (or a missing one: its job records the error). */
	strvec_push(out, xstrdup(arg));
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Run order: the most expensive jobs first (longest processing time
 * first), so that with N workers the sweep does not end with one long
 * job running alone.  The cost is guessed from the input: a generator
 * spec (gen:...) is taken to be large (they are how users ask for sizes
 * no file has), a file by its size in bytes, a gzip'd one five times
 * that.  Ties keep the input order.  Records are keyed, so the order
 * changes nothing in the results.
 */
static uint64_t input_weight(const char *path)
{
	struct stat st;
	size_t n = strlen(path);

	if (!strncmp(path, "gen:", 4))
		return UINT64_MAX / 2;
	if (stat(path, &st) || st.st_size < 0)
		return 0;
	if (n > 3 && !strcmp(path + n - 3, ".gz"))
		return (uint64_t)st.st_size * 5;
	return (uint64_t)st.st_size;
}

static int cmp_job_weight(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	if (x->kernel != y->kernel)
		return x->kernel < y->kernel ? -1 : 1;
	return x->machine < y->machine ? -1 : x->machine > y->machine;
}

struct seen {
	char *id;
	UT_hash_handle hh;
};

/* Sort, then drop duplicates (the same file spelled twice counts once). */
static void inputs_normalise(struct strvec *in)
{
	struct seen *set = NULL, *e, *tmp;
	size_t i, k = 0;

	qsort(in->v, in->n, sizeof(*in->v), cmp_str);
	for (i = 0; i < in->n; i++) {
		char *rp = strncmp(in->v[i], "gen:", 4) ? realpath(in->v[i], NULL)
							: NULL;
		char *id = rp ? rp : xstrdup(in->v[i]);

		HASH_FIND_STR(set, id, e);
		if (e) {
			free(id);
			free(in->v[i]);
			continue;
		}
		e = xmalloc(sizeof(*e));
		e->id = id;
		HASH_ADD_KEYPTR(hh, set, e->id, strlen(e->id), e);
		in->v[k++] = in->v[i];
	}
	in->n = k;
	HASH_ITER(hh, set, e, tmp) {
		HASH_DEL(set, e);
		free(e->id);
		free(e);
	}
}

/* ---- jobs and keys -------------------------------------------------- */

static void job_options(const struct sweep_opts *o, enum job_kind kind,
			char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	if (kind == JOB_INFO) {
		snprintf(buf, n, "fill");
		return;
	}
	if (kind == JOB_PREDICT && o->block)
		len += (size_t)snprintf(buf + len, n - len, "block=%s", o->block);
	if (o->measure && len < n)
		len += (size_t)snprintf(buf + len, n - len, "%smeasure",
					len ? "," : "");
	if (kind == JOB_BCSR && o->measure_close && len < n)
		snprintf(buf + len, n - len, "%smeasure-close", len ? "," : "");
}

static cJSON *job_key_json(const struct sweep_opts *o, const struct strvec *in,
			   const struct job *jb)
{
	const struct sweep_kernel *k = &o->kernels[jb->kernel];
	cJSON *key = cJSON_CreateObject();
	char opt[256];

	job_options(o, k->kind, opt, sizeof(opt));
	cJSON_AddStringToObject(key, "input", in->v[jb->input]);
	cJSON_AddStringToObject(key, "machine", k->kind == JOB_INFO ? ""
					  : o->machines[jb->machine]);
	cJSON_AddStringToObject(key, "kernel", k->name);
	cJSON_AddStringToObject(key, "options", opt);
	return key;
}

static char *job_key_string(const struct sweep_opts *o, const struct strvec *in,
			    const struct job *jb)
{
	cJSON *rec = cJSON_CreateObject();
	char *s;

	cJSON_AddItemToObject(rec, "key", job_key_json(o, in, jb));
	s = sweep_key_string(rec);
	cJSON_Delete(rec);
	return s;
}

/* A job's argument vector (pointers into o and in; free the array). */
static char **job_argv(const struct sweep_opts *o, const struct strvec *in,
		       const struct job *jb)
{
	const struct sweep_kernel *k = &o->kernels[jb->kernel];
	char **a = xcalloc(16, sizeof(*a));
	int n = 0;

	a[n++] = (char *)"ppr";
	if (k->kind == JOB_INFO) {
		a[n++] = (char *)"matrix";
		a[n++] = (char *)"info";
		a[n++] = (char *)"--fill";
	} else {
		a[n++] = (char *)(k->kind == JOB_BCSR ? "bcsr" : "predict");
		a[n++] = (char *)"--machine";
		a[n++] = (char *)o->machines[jb->machine];
		if (k->kind == JOB_PREDICT) {
			a[n++] = (char *)"--kernel";
			a[n++] = (char *)k->name;
			if (o->block) {
				a[n++] = (char *)"--block";
				a[n++] = (char *)o->block;
			}
		}
		if (o->measure)
			a[n++] = (char *)"--measure";
		if (k->kind == JOB_BCSR && o->measure_close)
			a[n++] = (char *)"--measure-close";
	}
	a[n++] = (char *)"--format";
	a[n++] = (char *)"json";
	a[n++] = in->v[jb->input];
	a[n] = NULL;
	return a;
}

/* ---- workers -------------------------------------------------------- */

struct buf {
	char *p;
	size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

/*
 * Workers.  A worker is a forked copy of the sweep that runs jobs one after
 * another: the parent writes a job index on the worker's command pipe; the
 * worker runs the job's command in place (no exec) with its stdout and
 * stderr on two memory files (memfd) that the parent reads afterwards, and
 * answers with a struct wmsg on its status pipe.  A worker that dies in a
 * job (a crash, a fatal error that exits, an out-of-memory kill, a timeout
 * kill) shows as end-of-file on the status pipe; the parent records the job
 * from the wait status and starts a new worker for the next one.
 *
 * Why not a fresh child per job: on the paravirtualised test guest a page
 * fault costs several microseconds and two processes faulting at once slow
 * each other, so a job's first touch of the memory its matrix and simulator
 * state need (zeroed fresh pages, about 260,000 faults in the bench sweep)
 * was a fifth of the sweep's time and most of what kept --jobs 2 from
 * scaling.  A worker keeps its freed heap (ppr_main's mallopt) for the next
 * job.  Every job still starts from the same command line and the model
 * uses no real addresses (kernels map them to a fixed layout), so a job's
 * record does not depend on what ran before it in the same worker (the
 * bench checks: shards, restarts and --jobs 1 give byte-equal results).
 * A job that fails with an error message (a bad file: the command
 * returns its exit status) leaves the worker to go on: error paths free
 * what they took, and replacing the worker cost more than the job (its
 * exit, tearing down its heap, took 6.7 ms here, against under 1 ms for a
 * rejected file).  A worker is replaced after WORKER_JOBS jobs, which bounds
 * what a leak could gather; with --job-memory every job gets a fresh worker
 * (an address-space limit must not count a previous job's kept heap).
 */
#define WORKER_JOBS 128

struct wmsg {
	int32_t rc;		/* the command's exit status */
	int32_t pad;
	int64_t hwm_kb;		/* peak resident set during the job (KiB), -1 */
};

struct child {
	pid_t pid;		/* the worker; 0 = none */
	int cmd, st;		/* pipes: job indices out, status messages in */
	int ofd, efd;		/* memfds: the worker's stdout and stderr */
	int busy, timed_out;
	unsigned ran;		/* jobs this worker has finished */
	size_t job, got;	/* current job; bytes of msg read so far */
	struct wmsg msg;
	struct buf out, err;
	double t0;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int read_full(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int write_full(int fd, const void *p, size_t n)
{
	size_t put = 0;

	while (put < n) {
		ssize_t w = write(fd, (const char *)p + put, n - put);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		put += (size_t)w;
	}
	return 0;
}

/* Peak resident set: reset it before a job, read it after (KiB, or -1). */
static void hwm_reset(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		(void)!write(fd, "5", 1);
		close(fd);
	}
}

static int64_t hwm_read(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* The worker's loop: never returns. */
static void worker_loop(const struct sweep_opts *o, const struct strvec *in,
			const struct job *jobs, int cmd, int st)
{
	for (;;) {
		uint64_t idx;
		struct wmsg m;
		char **argv;
		int argc = 0;

		if (read_full(cmd, &idx, sizeof(idx)))
			_exit(0);	/* the sweep closed the pipe: done */
		clearerr(stdout);
		if (ftruncate(1, 0) || lseek(1, 0, SEEK_SET) < 0 ||
		    ftruncate(2, 0) || lseek(2, 0, SEEK_SET) < 0)
			_exit(127);
		hwm_reset();
		argv = job_argv(o, in, &jobs[idx]);
		while (argv[argc])
			argc++;
		optind = 0;	/* getopt from the start */
		memset(&m, 0, sizeof(m));
		/* (it flushes stdout and reports a failed write) */
		m.rc = ppr_dispatch(argc, argv);
		fflush(stderr);
		free(argv);
		m.hwm_kb = hwm_read();
		if (write_full(st, &m, sizeof(m)))
			_exit(127);
	}
}

/* Start the worker of slot `self`; the other slots' descriptors and the
 * results file are closed in it. */
static int worker_start(const struct sweep_opts *o, const struct strvec *in,
			const struct job *jobs, struct child *ch, size_t self,
			int results_fd)
{
	struct child *c = &ch[self];
	int pc[2], ps[2], of, ef;
	pid_t parent = getpid();
	size_t j;

	of = memfd_create("ppr-sweep-stdout", MFD_CLOEXEC);
	ef = of >= 0 ? memfd_create("ppr-sweep-stderr", MFD_CLOEXEC) : -1;
	if (ef < 0) {
		if (of >= 0)
			close(of);
		return -1;
	}
	if (pipe2(pc, O_CLOEXEC)) {
		close(of); close(ef);
		return -1;
	}
	if (pipe2(ps, O_CLOEXEC)) {
		close(of); close(ef); close(pc[0]); close(pc[1]);
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		c->pid = 0;
		close(of); close(ef);
		close(pc[0]); close(pc[1]); close(ps[0]); close(ps[1]);
		return -1;
	}
	if (c->pid == 0) {
		/* Die with the sweep: a killed sweep leaves no orphans. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		for (j = 0; j < o->jobs; j++) {
			if (j == self || !ch[j].pid)
				continue;
			close_fd(&ch[j].cmd);
			close_fd(&ch[j].st);
			close_fd(&ch[j].ofd);
			close_fd(&ch[j].efd);
		}
		close(results_fd);
		close(pc[1]);
		close(ps[0]);
		/* What a fresh process has, the worker sets: default signal
		 * handlers (SIGPIPE stays ignored, as across exec). */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* Parallelism is across jobs: each job runs on one thread
		 * (--jobs N = N cores busy), unless the user set PPR_THREADS. */
		setenv("PPR_THREADS", "1", 0);
		if (o->max_mem_mb) {
			struct rlimit rl;

			rl.rlim_cur = rl.rlim_max =
				(rlim_t)o->max_mem_mb * 1024 * 1024;
			setrlimit(RLIMIT_AS, &rl);
		}
		if (dup2(of, 1) < 0 || dup2(ef, 2) < 0)
			_exit(127);
		close(of);
		close(ef);
		worker_loop(o, in, jobs, pc[0], ps[1]);
	}
	close(pc[0]);
	close(ps[1]);
	c->cmd = pc[1];
	c->st = ps[0];
	c->ofd = of;
	c->efd = ef;
	c->busy = 0;
	c->ran = 0;
	return 0;
}

/* Give the worker job `index`. */
static int job_send(struct child *c, size_t index)
{
	uint64_t idx = index;

	if (write_full(c->cmd, &idx, sizeof(idx)))
		return -1;
	/* (out and err are empty: job_collect hands them on) */
	memset(&c->msg, 0, sizeof(c->msg));
	c->got = 0;
	c->busy = 1;
	c->timed_out = 0;
	c->job = index;
	c->t0 = now_mono();
	return 0;
}

/* Wait for the worker to end (kill it first when asked); its memfds stay
 * open, for the output of the job it died in. */
static void worker_wait(struct child *c, int sig, int *status,
			struct rusage *ru)
{
	int st = 0;
	struct rusage r;

	memset(&r, 0, sizeof(r));
	if (c->pid) {
		if (sig)
			kill(c->pid, sig);
		close_fd(&c->cmd);	/* an idle worker exits on end-of-file */
		while (wait4(c->pid, &st, 0, &r) < 0 && errno == EINTR)
			;
	}
	if (status)
		*status = st;
	if (ru)
		*ru = r;
	c->pid = 0;
}

/* End the worker and close everything it had. */
static void worker_end(struct child *c, int sig)
{
	worker_wait(c, sig, NULL, NULL);
	close_fd(&c->cmd);
	close_fd(&c->st);
	close_fd(&c->ofd);
	close_fd(&c->efd);
	c->busy = 0;
}

/* Read a memfd's whole content. */
static void memfd_slurp(int fd, struct buf *b)
{
	char tmp[65536];
	off_t off = 0;
	ssize_t r;

	if (fd < 0)
		return;
	while ((r = pread(fd, tmp, sizeof(tmp), off)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		buf_add(b, tmp, (size_t)r);
		off += r;
	}
}

/* A job's one-line reason: its last "error:" line, else its last line. */
static char *child_reason(const struct buf *err)
{
	const char *s = err->p ? err->p : "", *last = NULL, *last_err = NULL;
	const char *p = s, *pick;
	size_t len;
	char *r;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l > 0) {
			last = p;
			if (memmem(p, l, "error:", 6))
				last_err = p;
		}
		p += l + (e ? 1 : 0);
	}
	pick = last_err ? last_err : last;
	if (!pick)
		return NULL;
	if (!strncmp(pick, "ppr: error: ", 12))
		pick += 12;
	len = strcspn(pick, "\n");
	r = xmalloc(len + 1);
	memcpy(r, pick, len);
	r[len] = '\0';
	return r;
}

/* Build the record of a finished job. */
static cJSON *child_record(const struct sweep_opts *o, const struct strvec *in,
			   const struct job *jb, const struct child *c,
			   int status, double rss_kb, double elapsed,
			   size_t keys_per_input, char **why)
{
	cJSON *rec = cJSON_CreateObject(), *res = NULL, *sw;
	char msg[1024], shard[64];
	char *reason = child_reason(&c->err);

	msg[0] = '\0';
	if (c->timed_out) {
		snprintf(msg, sizeof(msg), "timeout after %g s (killed)",
			 o->timeout);
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		snprintf(msg, sizeof(msg), "killed by signal %d (%s)%s%s%s", sig,
			 strsignal(sig),
			 sig == SIGKILL ? "; out of memory?" : "",
			 reason ? ": " : "", reason ? reason : "");
	} else if (WEXITSTATUS(status) != 0) {
		if (reason)
			snprintf(msg, sizeof(msg), "%s", reason);
		else
			snprintf(msg, sizeof(msg), "exit status %d, no message",
				 WEXITSTATUS(status));
	} else {
		res = c->out.p ? cJSON_Parse(c->out.p) : NULL;
		if (!cJSON_IsObject(res)) {
			cJSON_Delete(res);
			res = NULL;
			snprintf(msg, sizeof(msg),
				 "the job's output is not a JSON object (%zu bytes)",
				 c->out.n);
		}
	}
	free(reason);
	cJSON_AddItemToObject(rec, "key", job_key_json(o, in, jb));
	cJSON_AddStringToObject(rec, "status", res ? "ok" : "error");
	if (!res)
		cJSON_AddStringToObject(rec, "error", msg);
	cJSON_AddNumberToObject(rec, "elapsed_s", round(elapsed * 1e4) / 1e4);
	if (rss_kb >= 0)
		cJSON_AddNumberToObject(rec, "max_rss_mb",
					round(rss_kb / 1024.0 * 10) / 10);
	cJSON_AddNumberToObject(rec, "finished_unix",
				round(now_unix() * 1e3) / 1e3);
	cJSON_AddStringToObject(rec, "ppr_version", PPR_VERSION);
	sw = cJSON_AddObjectToObject(rec, "sweep");
	snprintf(shard, sizeof(shard), "%u/%u", o->shard_i, o->shard_n);
	cJSON_AddStringToObject(sw, "shard", shard);
	cJSON_AddNumberToObject(sw, "input_index", (double)jb->input);
	cJSON_AddNumberToObject(sw, "inputs_total", (double)in->n);
	cJSON_AddNumberToObject(sw, "keys_per_input", (double)keys_per_input);
	if (res)
		cJSON_AddItemToObject(rec, "result", res);
	*why = res ? NULL : xstrdup(msg);
	return rec;
}

/* One record = one write() on the O_APPEND descriptor, then fdatasync. */
static int record_append(int fd, const char *path, cJSON *rec)
{
	char *s = cJSON_PrintUnformatted(rec);
	size_t n;
	ssize_t w;

	if (!s)
		ppr_oom();
	n = strlen(s);
	s = xrealloc(s, n + 2);
	s[n++] = '\n';
	s[n] = '\0';
	do
		w = write(fd, s, n);
	while (w < 0 && errno == EINTR);
	free(s);
	if (w < 0 || (size_t)w != n)
		return cli_error("%s: cannot append a record: %s", path,
				 w < 0 ? strerror(errno) : "short write");
	if (fdatasync(fd) && errno != EINVAL)
		return cli_error("%s: fdatasync: %s", path, strerror(errno));
	return 0;
}

/* ---- progress ------------------------------------------------------- */

struct progress {
	int tty, quiet;
	size_t total, skipped, done, failed;
	double t0, last_draw;
};

static void fmt_dur(char *b, size_t n, double s)
{
	long t = (long)(s + 0.5);

	if (!(s >= 0) || s > 1e8)
		snprintf(b, n, "--:--");
	else if (t >= 3600)
		snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

static void progress_bar(struct progress *p, int force)
{
	double t = now_mono(), el = t - p->t0, rate;
	size_t fin = p->done + p->failed, todo = p->total - p->skipped;
	size_t cnt = p->skipped + fin, w = 30, fill, i;
	char eta[32], bar[40];

	if (!p->tty || p->quiet || (!force && t - p->last_draw < 0.2))
		return;
	p->last_draw = t;
	rate = el > 0 ? (double)fin / el : 0;
	fmt_dur(eta, sizeof(eta), rate > 0 ? (double)(todo - fin) / rate : -1);
	fill = p->total ? cnt * w / p->total : w;
	for (i = 0; i < w; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[w] = '\0';
	fprintf(stderr, "\r[%s] %zu/%zu  %.2f/s  ETA %s  %zu failed\033[K", bar,
		cnt, p->total, rate, eta, p->failed);
	fflush(stderr);
}

static void progress_line(struct progress *p, int ok, const char *what,
			  double elapsed, const char *why)
{
	if (p->quiet)
		return;
	if (p->tty)
		fputs("\r\033[K", stderr);
	if (!p->tty || !ok)
		fprintf(stderr, "[%zu/%zu] %s %s %.2f s%s%s\n",
			p->skipped + p->done + p->failed, p->total,
			ok ? "ok" : "error", what, elapsed, why ? ": " : "",
			why ? why : "");
	progress_bar(p, 1);
}

/* ---- the run -------------------------------------------------------- */

struct done_ent {
	char *key;
	UT_hash_handle hh;
};

static int parse_shard(const char *s, unsigned *i, unsigned *n)
{
	char *e;
	long a, b;

	errno = 0;
	a = strtol(s, &e, 10);
	if (e == s || *e != '/' || errno)
		return -1;
	s = e + 1;
	b = strtol(s, &e, 10);
	if (e == s || *e || errno || b < 1 || b > 1000000 || a < 0 || a >= b)
		return -1;
	*i = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

/* Take a finished job's output from its worker's memfds into `done` (the
 * worker can then be given its next job before the record is written). */
static void job_collect(struct child *c, struct child *done, double *elapsed)
{
	*elapsed = now_mono() - c->t0;
	c->busy = 0;
	if (!stop_signal) {
		memfd_slurp(c->ofd, &c->out);
		memfd_slurp(c->efd, &c->err);
	}
	*done = *c;
	memset(&c->out, 0, sizeof(c->out));
	memset(&c->err, 0, sizeof(c->err));
}

/* Record a finished job (or drop it when the sweep is stopping). */
static int job_done(const struct sweep_opts *o, const struct strvec *in,
		    const struct job *jobs, struct child *c, int status,
		    double rss_kb, double elapsed, size_t keys_per_input,
		    int fd, struct progress *pg)
{
	const struct job *jb = &jobs[c->job];
	char *why = NULL;
	cJSON *rec;
	int rc = 0;

	if (stop_signal) {	/* interrupted: no record */
		free(c->out.p);
		free(c->err.p);
		return 0;
	}
	rec = child_record(o, in, jb, c, status, rss_kb, elapsed,
			   keys_per_input, &why);
	free(c->out.p);
	free(c->err.p);
	if (record_append(fd, o->out, rec))
		rc = 1;
	cJSON_Delete(rec);
	if (why)
		pg->failed++;
	else
		pg->done++;
	{
		char what[PATH_MAX + 512];

		if (o->nmachines > 1 || o->nkernels > 1)
			snprintf(what, sizeof(what), "%s (%s, %s)",
				 in->v[jb->input],
				 o->kernels[jb->kernel].kind == JOB_INFO
				 ? "-" : o->machines[jb->machine],
				 o->kernels[jb->kernel].name);
		else
			snprintf(what, sizeof(what), "%s", in->v[jb->input]);
		progress_line(pg, !why, what, elapsed, why);
	}
	free(why);
	return rc;
}

static int run_jobs(const struct sweep_opts *o, const struct strvec *in,
		    struct job *jobs, size_t njobs, size_t total,
		    size_t skipped, size_t keys_per_input, int fd)
{
	struct child *ch = xcalloc(o->jobs, sizeof(*ch));
	struct pollfd *pf = xcalloc(o->jobs, sizeof(*pf));
	size_t *pslot = xcalloc(o->jobs, sizeof(*pslot));
	struct progress pg = { 0 };
	size_t next = 0, nbusy = 0, i;
	unsigned max_ran = o->max_mem_mb ? 1 : WORKER_JOBS;
	int rc = 0;
	char el[32];

	pg.tty = isatty(2);
	pg.quiet = o->quiet;
	pg.total = total;
	pg.skipped = skipped;
	pg.t0 = now_mono();
	for (i = 0; i < o->jobs; i++) {
		ch[i].pid = 0;
		ch[i].cmd = ch[i].st = ch[i].ofd = ch[i].efd = -1;
	}
	progress_bar(&pg, 1);
	while ((next < njobs && !stop_signal && !rc) || nbusy) {
		size_t np = 0;
		double t = now_mono(), wait_s = 0.25;
		int pr;

		/* Give idle workers jobs, starting workers where needed. */
		for (i = 0; i < o->jobs && next < njobs && !stop_signal && !rc; i++) {
			struct child *c = &ch[i];
			int tries;

			if (c->busy)
				continue;
			for (tries = 0; tries < 2; tries++) {
				if (!c->pid && worker_start(o, in, jobs, ch, i, fd))
					break;
				if (!job_send(c, next))
					break;
				worker_end(c, SIGKILL);	/* died idle */
			}
			if (!c->busy) {
				rc = cli_error("cannot start a worker process: %s",
					       strerror(errno));
				break;
			}
			next++;
			nbusy++;
		}
		/* Poll the busy workers' status pipes; wake for the nearest
		 * deadline. */
		for (i = 0; i < o->jobs; i++) {
			if (!ch[i].busy)
				continue;
			if (o->timeout > 0 && !ch[i].timed_out) {
				double left = ch[i].t0 + o->timeout - t;

				if (left <= 0) {
					kill(ch[i].pid, SIGKILL);
					ch[i].timed_out = 1;
				} else if (left < wait_s) {
					wait_s = left;
				}
			}
			pf[np].fd = ch[i].st;
			pf[np].events = POLLIN;
			pf[np].revents = 0;
			pslot[np++] = i;
		}
		if (stop_signal) {
			for (i = 0; i < o->jobs; i++)
				if (ch[i].busy)
					kill(ch[i].pid, SIGKILL);
		}
		pr = np ? poll(pf, np, (int)(wait_s * 1000) + 1) : 0;
		if (pr < 0 && errno != EINTR) {
			rc = cli_error("poll: %s", strerror(errno));
			stop_signal = SIGTERM;
			continue;
		}
		for (i = 0; pr > 0 && i < np; i++) {
			struct child *c = &ch[pslot[i]];
			struct child done;
			ssize_t r;
			int status;
			double elapsed;
			struct rusage ru;

			if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(c->st, (char *)&c->msg + c->got,
				 sizeof(c->msg) - c->got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r > 0) {
				c->got += (size_t)r;
				if (c->got < sizeof(c->msg))
					continue;
				/* The job finished and the worker lives on: it
				 * gets its next job before the record is
				 * written. */
				nbusy--;
				job_collect(c, &done, &elapsed);
				if (++c->ran >= max_ran)
					worker_end(c, 0);
				else if (next < njobs && !stop_signal && !rc &&
					 !job_send(c, next)) {
					next++;
					nbusy++;
				}
				if (job_done(o, in, jobs, &done,
					     W_EXITCODE(done.msg.rc & 0xff, 0),
					     (double)done.msg.hwm_kb, elapsed,
					     keys_per_input, fd, &pg)) {
					rc = 1;
					stop_signal = SIGTERM;
				}
				continue;
			}
			/* End of file: the worker died in the job (the rss
			 * is then the worker's whole life's peak). */
			worker_wait(c, 0, &status, &ru);
			nbusy--;
			job_collect(c, &done, &elapsed);
			worker_end(c, 0);
			if (job_done(o, in, jobs, &done, status,
				     (double)ru.ru_maxrss, elapsed,
				     keys_per_input, fd, &pg)) {
				rc = 1;
				stop_signal = SIGTERM;
			}
		}
		progress_bar(&pg, 0);
	}
	for (i = 0; i < o->jobs; i++)
		worker_end(&ch[i], stop_signal ? SIGKILL : 0);
	if (pg.tty && !pg.quiet)
		fputs("\r\033[K", stderr);
	fmt_dur(el, sizeof(el), now_mono() - pg.t0);
	fprintf(stderr, "ppr sweep: %zu done, %zu failed, %zu skipped, %zu of %zu jobs%s, elapsed %s (%.1f s)%s%s\n",
		pg.done, pg.failed, pg.skipped,
		pg.done + pg.failed + pg.skipped, total,
		stop_signal && !rc ? " (interrupted)" : "", el,
		now_mono() - pg.t0, rc ? "" : " -> ", rc ? "" : o->out);
	free(ch);
	free(pf);
	free(pslot);
	return rc;
}

static int add_kernel(struct sweep_opts *o, const char *name)
{
	size_t i;
	enum job_kind kind = JOB_PREDICT;

	if (!strcmp(name, "none") || !strcmp(name, "info")) {
		name = "none";
		kind = JOB_INFO;
	} else if (!strcmp(name, "bcsr")) {
		kind = JOB_BCSR;
	}
	for (i = 0; i < o->nkernels; i++)
		if (!strcmp(o->kernels[i].name, name))
			return 0;
	o->kernels = xrealloc(o->kernels, (o->nkernels + 1) * sizeof(*o->kernels));
	o->kernels[o->nkernels].name = name;
	o->kernels[o->nkernels++].kind = kind;
	return 0;
}

/* A usage error inside sweep_run: release what was parsed so far. */
#define SWEEP_USAGE(...) do { \
	rc = cli_usage_error(usage_str, __VA_ARGS__); \
	goto out; \
} while (0)

static int sweep_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "machine", required_argument, NULL, 'm' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "info", no_argument, NULL, 'I' },
		{ "bcsr", no_argument, NULL, 'B' },
		{ "block", required_argument, NULL, 'b' },
		{ "measure", no_argument, NULL, 'M' },
		{ "measure-close", no_argument, NULL, 'Z' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "job-memory", required_argument, NULL, 'X' },
		{ "shard", required_argument, NULL, 'S' },
		{ "csv", required_argument, NULL, 'C' },
		{ "dry-run", no_argument, NULL, 'D' },
		{ "retry-errors", no_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sweep_opts o;
	struct strvec in = { 0 };
	struct sweep_recs prev = { 0 };
	struct done_ent *done = NULL, *e, *tmp;
	struct job *jobs = NULL;
	size_t njobs = 0, total = 0, skipped = 0, keys_per_input = 0, i, m, k;
	unsigned long long u;
	int c, rc = 0, fd = -1, need_machine = 0;
	long ncpu;

	memset(&o, 0, sizeof(o));
	o.shard_n = 1;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o.jobs = ncpu > 0 ? (unsigned)ncpu : 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:m:k:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = optarg; break;
		case 'm':
			o.machines = xrealloc(o.machines, (o.nmachines + 1) *
					      sizeof(*o.machines));
			o.machines[o.nmachines++] = optarg;
			break;
		case 'k': add_kernel(&o, optarg); break;
		case 'I': add_kernel(&o, "none"); break;
		case 'B': add_kernel(&o, "bcsr"); break;
		case 'b': o.block = optarg; break;
		case 'M': o.measure = 1; break;
		case 'Z': o.measure_close = 1; break;
		case 'j':
			if (cli_parse_u64(optarg, &u) || u < 1 || u > 4096)
				SWEEP_USAGE("sweep: --jobs '%s': want 1..4096", optarg);
			o.jobs = (unsigned)u;
			break;
		case 'T':
			if (cli_parse_double(optarg, &o.timeout) || !(o.timeout > 0))
				SWEEP_USAGE("sweep: --timeout '%s': want seconds > 0", optarg);
			break;
		case 'X':
			if (cli_parse_u64(optarg, &u) || u < 1 || u > (1ULL << 40))
				SWEEP_USAGE("sweep: --job-memory '%s': want megabytes >= 1", optarg);
			o.max_mem_mb = u;
			break;
		case 'S':
			if (parse_shard(optarg, &o.shard_i, &o.shard_n))
				SWEEP_USAGE("sweep: --shard '%s': want i/N with 0 <= i < N", optarg);
			break;
		case 'C': o.csv = optarg; break;
		case 'D': o.dry_run = 1; break;
		case 'R': o.retry_errors = 1; break;
		case 'q': o.quiet = 1; break;
		case 'h':
			fputs(usage_str, stdout);
			goto out;
		case ':':
			SWEEP_USAGE("sweep: option '%s' needs a value", argv[optind - 1]);
		default:
			SWEEP_USAGE("sweep: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!o.nkernels)
		add_kernel(&o, "spmv-csr");
	for (k = 0; k < o.nkernels; k++)
		if (o.kernels[k].kind != JOB_INFO)
			need_machine = 1;
	if (optind >= argc) {
		SWEEP_USAGE("sweep: no INPUT given");
	}
	if (!o.out && !o.dry_run) {
		rc = cli_usage_error(usage_str, "sweep: no results file (-o FILE)");
		goto out;
	}
	if (need_machine && !o.nmachines) {
		rc = cli_usage_error(usage_str, "sweep: --machine M.json is needed (or --info for statistics only)");
		goto out;
	}
	for (i = (size_t)optind; i < (size_t)argc && !rc; i++)
		rc = add_input(argv[i], 0, &in);
	if (rc)
		goto out;
	inputs_normalise(&in);
	if (!in.n) {
		rc = cli_error("sweep: no inputs found (directories hold no matrix files?)");
		goto out;
	}
	for (k = 0; k < o.nkernels; k++)
		keys_per_input += o.kernels[k].kind == JOB_INFO ? 1 : o.nmachines;

	/* Resume: the keys already recorded. */
	if (o.out && !o.dry_run) {
		size_t dropped;

		if (sweep_file_read(o.out, 1, 1, &prev, &dropped)) {
			rc = 1;
			goto out;
		}
		for (i = 0; i < prev.n; i++) {
			if (o.retry_errors && !prev.v[i].ok)
				continue;
			HASH_FIND_STR(done, prev.v[i].key, e);
			if (e)
				continue;
			e = xmalloc(sizeof(*e));
			e->key = prev.v[i].key;
			HASH_ADD_KEYPTR(hh, done, e->key, strlen(e->key), e);
		}
	}
	jobs = xcalloc(in.n * keys_per_input + 1, sizeof(*jobs));
	for (i = 0; i < in.n; i++) {
		if (i % o.shard_n != o.shard_i)
			continue;
		for (k = 0; k < o.nkernels; k++) {
			size_t nm = o.kernels[k].kind == JOB_INFO ? 1 : o.nmachines;

			for (m = 0; m < nm; m++) {
				struct job jb = { i, m, k, NULL, 0 };

				jb.key = job_key_string(&o, &in, &jb);
				total++;
				HASH_FIND_STR(done, jb.key, e);
				if (e) {
					skipped++;
					free(jb.key);
					continue;
				}
				jobs[njobs++] = jb;
			}
		}
	}
	if (o.dry_run) {
		for (i = 0; i < njobs; i++) {
			char **a = job_argv(&o, &in, &jobs[i]);
			int n;

			printf("%zu", jobs[i].input);
			for (n = 0; a[n]; n++)
				printf(" %s", a[n]);
			putchar('\n');
			free(a);
		}
		fprintf(stderr, "ppr sweep: %zu jobs (shard %u/%u of %zu inputs), %zu already done\n",
			total, o.shard_i, o.shard_n, in.n, skipped);
		goto out;
	}
	for (i = 0; i < njobs; i++)
		jobs[i].weight = input_weight(in.v[jobs[i].input]);
	qsort(jobs, njobs, sizeof(*jobs), cmp_job_weight);
	fd = open(o.out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = cli_error("%s: cannot open for appending: %s", o.out,
			       strerror(errno));
		goto out;
	}
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		signal(SIGPIPE, SIG_IGN);
	}
	rc = run_jobs(&o, &in, jobs, njobs, total, skipped, keys_per_input, fd);
	if (close(fd) && !rc)
		rc = cli_error("%s: close: %s", o.out, strerror(errno));
	fd = -1;
	if (!rc && stop_signal)
		rc = 128 + stop_signal;
	if (!rc && o.csv) {
		struct sweep_recs all = { 0 };
		size_t *idx, nd;
		size_t nb;

		if (sweep_file_read(o.out, 0, 0, &all, NULL)) {
			rc = 1;
		} else {
			nb = sweep_recs_best(&all, &idx, &nd, 0);
			rc = sweep_csv_write(o.csv, &all, idx, nb);
			free(idx);
		}
		sweep_recs_free(&all);
	}
out:
	HASH_ITER(hh, done, e, tmp) {
		HASH_DEL(done, e);
		free(e);
	}
	for (i = 0; i < njobs; i++)
		free(jobs[i].key);
	free(jobs);
	sweep_recs_free(&prev);
	strvec_free(&in);
	free(o.machines);
	free(o.kernels);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "merge"))
		return sweep_merge_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "diff"))
		return sweep_diff_main(argc - 1, argv + 1);
	return sweep_run(argc, argv);
}
