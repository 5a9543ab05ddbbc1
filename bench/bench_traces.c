/*
 * bench_traces.c - speed of the ppr binary trace format.
 *
 * Workloads (issue 2): seq = 50,000,000 loads of 8 bytes at
 * 0x10000000 + 8*i; rand = 20,000,000 loads of 8 bytes at
 * 0x10000000 + 8*(xs() >> 41), xs() = xorshift64* seeded 0x9E3779B97F4A7C15.
 * Each is written to a temporary file 5 times (timed: generate + encode +
 * write), then read back 5 times from the page cache (timed: read +
 * decode into batches of 4096 struct ppr_access).  Prints min and median
 * records/s of the 5 runs and the bytes per record.  Target: reading at
 * least 100 M records/s.  For comparison, 5,000,000 rand records as
 * extended din text are timed the same way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "traces/trace.h"

#define RUNS 5
#define BATCH 4096

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall time, and the CPU time of this process (user + system). */
static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu_now(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct workload {
	const char *name;
	uint64_t n;
	int random;
	enum trace_format fmt;
};

static uint64_t gen(const struct workload *wl, uint64_t i, uint64_t *state)
{
	uint64_t x;

	if (!wl->random)
		return 0x10000000ull + 8 * i;
	x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return 0x10000000ull + 8 * ((x * 0x2545F4914F6CDD1Dull) >> 41);
}

/* Returns the checksum of addresses written, or 0 on failure. */
static uint64_t write_trace(const struct workload *wl, const char *path,
			    uint64_t *bytes)
{
	struct ppr_access *buf = calloc(BATCH, sizeof(*buf));
	struct trace_writer_config cfg = { .format = wl->fmt, .line_size = 64 };
	struct trace_writer *w;
	struct ppr_err err = { 0 };
	uint64_t state = 0x9E3779B97F4A7C15ull, sum = 0, i = 0, k;
	char msg[1400];

	if (trace_writer_new(&w, path, &cfg, &err)) {
		fprintf(stderr, "bench_traces: %s\n", ppr_err_format(&err, msg, sizeof(msg)));
		free(buf);
		return 0;
	}
	while (i < wl->n) {
		uint64_t m = wl->n - i < BATCH ? wl->n - i : BATCH;

		for (k = 0; k < m; k++, i++) {
			buf[k].addr = gen(wl, i, &state);
			buf[k].size = 8;
			buf[k].op = PPR_OP_LOAD;
			/* text formats have no tag: keep the default one */
			buf[k].tag = wl->random && wl->fmt == TRACE_FMT_PPR
				     ? PPR_TAG_IRREGULAR : PPR_TAG_REGULAR;
			sum += buf[k].addr;
		}
		if (trace_writer_write(w, buf, m, &err))
			break;
	}
	if (trace_writer_finish(w, &err)) {
		fprintf(stderr, "bench_traces: %s\n", ppr_err_format(&err, msg, sizeof(msg)));
		sum = 0;
	}
	*bytes = trace_writer_bytes(w);
	trace_writer_free(w);
	free(buf);
	return sum;
}

static uint64_t read_trace(const char *path, uint64_t *records)
{
	struct ppr_access *buf = malloc(BATCH * sizeof(*buf));
	struct trace_reader *r;
	struct ppr_err err = { 0 };
	uint64_t sum = 0, total = 0;
	size_t n, k;
	char msg[1400];

	*records = 0;
	if (trace_reader_new(&r, path, NULL, &err)) {
		fprintf(stderr, "bench_traces: %s\n", ppr_err_format(&err, msg, sizeof(msg)));
		free(buf);
		return 0;
	}
	for (;;) {
		if (trace_reader_next(r, buf, BATCH, &n, &err)) {
			fprintf(stderr, "bench_traces: %s\n",
				ppr_err_format(&err, msg, sizeof(msg)));
			sum = 0;
			break;
		}
		if (!n)
			break;
		for (k = 0; k < n; k++)
			sum += buf[k].addr;
		total += n;
	}
	trace_reader_free(r);
	free(buf);
	*records = total;
	return sum;
}

/* best = min time; median of 5 is element 2; worst = max time */
static void report(const struct workload *wl, const char *what, double *t,
		   double *c, uint64_t bytes)
{
	double n = (double)wl->n * 1e-6;

	qsort(t, RUNS, sizeof(double), cmp_double);
	qsort(c, RUNS, sizeof(double), cmp_double);
	printf("%-4s %-6s %s %9llu records %6.3f bytes/record | wall M rec/s: best "
	       "%6.1f median %6.1f worst %6.1f | cpu-time M rec/s: best %6.1f "
	       "median %6.1f\n",
	       wl->name, trace_format_name(wl->fmt), what,
	       (unsigned long long)wl->n,
	       (double)bytes / (double)wl->n, n / t[0], n / t[RUNS / 2],
	       n / t[RUNS - 1], n / c[0], n / c[RUNS / 2]);
}

static int bench(const struct workload *wl)
{
	char path[] = "/tmp/ppr-bench-traces-XXXXXX";
	double tw[RUNS], tr[RUNS], cw[RUNS], cr[RUNS], t0, c0;
	uint64_t bytes = 0, wsum = 0, rsum, got;
	int fd = mkstemp(path), i, ok = 1;

	if (fd < 0) {
		perror("bench_traces: mkstemp");
		return 1;
	}
	close(fd);
	for (i = 0; i < RUNS; i++) {
		t0 = now();
		c0 = cpu_now();
		wsum = write_trace(wl, path, &bytes);
		cw[i] = cpu_now() - c0;
		tw[i] = now() - t0;
		if (!wsum)
			ok = 0;
	}
	for (i = 0; ok && i < RUNS; i++) {
		t0 = now();
		c0 = cpu_now();
		rsum = read_trace(path, &got);
		cr[i] = cpu_now() - c0;
		tr[i] = now() - t0;
		if (rsum != wsum || got != wl->n) {
			fprintf(stderr, "bench_traces: %s: read back %llu records, "
				"checksum %s\n", wl->name, (unsigned long long)got,
				rsum == wsum ? "ok" : "WRONG");
			ok = 0;
		}
	}
	unlink(path);
	if (!ok)
		return 1;
	report(wl, "read ", tr, cr, bytes);
	report(wl, "write", tw, cw, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	struct workload wls[] = {
		{ "seq", 50000000, 0, TRACE_FMT_PPR },
		{ "rand", 20000000, 1, TRACE_FMT_PPR },
		/* for comparison: the same rand workload as din text */
		{ "rand", 5000000, 1, TRACE_FMT_DIN },
	};
	double scale = 1.0;
	int rc = 0;
	size_t i;

	/* optional argument: scale the record counts (e.g. 0.1 for a quick run) */
	if (argc > 1)
		scale = strtod(argv[1], NULL);
	if (!(scale > 0))
		scale = 1.0;
	printf("trace formats, reading from the page cache; target: ppr read "
	       ">= 100 M records/s\n");
	printf("rates over %d runs: best (min time), median, worst (max time); "
	       "wall clock, and CPU time of this process (the 2-core machine "
	       "is shared: wall rates drop when others run)\n", RUNS);
	for (i = 0; i < sizeof(wls) / sizeof(wls[0]); i++) {
		wls[i].n = (uint64_t)((double)wls[i].n * scale);
		if (wls[i].n == 0)
			wls[i].n = 1;
		rc |= bench(&wls[i]);
	}
	return rc;
}
