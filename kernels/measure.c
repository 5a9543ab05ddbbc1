/*
 * measure.c - timing harness: warm-up, repetitions, min/median with
 * CLOCK_MONOTONIC, optional cache flush, optional hardware counters
 * around the timed executions only.
 */
#include "kernels/kernels_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "common/xalloc.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Kept alive so the flush loop is not optimised away. */
volatile double kern_flush_sink;

/* Largest cache of cpu0 from sysfs (0 if unknown). */
static uint64_t largest_cache(void)
{
	uint64_t best = 0;
	int i;

	for (i = 0; i < 16; i++) {
		char path[96], line[64], *end;
		unsigned long long v;
		FILE *f;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fgets(line, sizeof(line), f)) {
			v = strtoull(line, &end, 10);
			if (*end == 'K')
				v <<= 10;
			else if (*end == 'M')
				v <<= 20;
			if (v > best)
				best = v;
		}
		fclose(f);
	}
	return best;
}

uint64_t kernel_flush_default_bytes(void)
{
	uint64_t c = largest_cache();

	/* 4x the last-level cache, at least 64 MiB; 256 MiB if unknown. */
	if (!c)
		return 256ull << 20;
	return 4 * c > (64ull << 20) ? 4 * c : (64ull << 20);
}

void kernel_cache_flush(uint64_t bytes)
{
	static double *buf;
	static uint64_t have;
	uint64_t n, i;
	double s = 0.0;

	if (!bytes)
		bytes = kernel_flush_default_bytes();
	n = bytes / sizeof(double);
	if (have < n) {
		free(buf);
		buf = xaligned_alloc(n * sizeof(double));
		have = n;
	}
	for (i = 0; i < n; i++)
		buf[i] = (double)i;
	for (i = 0; i < n; i += 8)
		s += buf[i];
	kern_flush_sink = s;
}

/*
 * MEASURE_CODE_BEST: time each placed copy of the kernel (SCREEN_WARM
 * untimed runs, then screen_reps runs; the least) and leave the fastest
 * selected.  The untimed runs let the branch predictor learn the copy's
 * loop exits (new code addresses start unlearned; it takes about 5 runs
 * of a short-row SpMV, cli/cmd_bcsr.c).  The copies are screened in
 * turn, so a slow spell of the machine can favour one; the least of
 * several runs makes that unlikely.  With no copies the linker's runs.
 */
#define SCREEN_WARM 6

static void screen_code(struct kernel_run *r, const struct measure_opts *opts,
			struct measure_result *res)
{
	unsigned n = (unsigned)kernel_run_code_offsets(r), k, i;
	unsigned sr = opts->screen_reps ? opts->screen_reps : 3;
	int best = -1;

	if (n > KERNEL_CODE_OFFSETS)
		n = KERNEL_CODE_OFFSETS;
	for (k = 0; k < n; k++) {
		double mn = INFINITY;

		kernel_run_set_code_offset(r, (int)k);
		for (i = 0; i < SCREEN_WARM; i++) {
			kernel_run_reset(r);
			kernel_run_native(r);
		}
		for (i = 0; i < sr; i++) {
			double t0, t1;

			kernel_run_reset(r);
			if (opts->flush)
				kernel_cache_flush(opts->flush_bytes);
			t0 = now_s();
			kernel_run_native(r);
			t1 = now_s();
			if (t1 - t0 < mn)
				mn = t1 - t0;
		}
		res->code_screen_min_s[k] = mn;
		if (best < 0 || mn < res->code_screen_min_s[best])
			best = (int)k;
	}
	res->code_offsets = n;
	kernel_run_set_code_offset(r, best);
	res->code_offset = best;
	/* the chosen copy's exits learned again before the timed runs */
	for (i = 0; n && i < SCREEN_WARM; i++) {
		kernel_run_reset(r);
		kernel_run_native(r);
	}
}

/*
 * Executions per timed sample (opts->batch_s): 1, or enough that a sample
 * lasts batch_s, judged on the least of 3 untimed executions, at most
 * MEASURE_BATCH_MAX.  Not with counters: they count per timed sample.
 */
#define MEASURE_BATCH_MAX 100000

static unsigned choose_batch(struct kernel_run *r,
			     const struct measure_opts *opts, int use_counters,
			     double *probe_s)
{
	double one = INFINITY, k;
	unsigned i;

	if (!(opts->batch_s > 0) || opts->flush || use_counters ||
	    kernel_run_needs_reset(r))
		return 1;
	for (i = 0; i < 3; i++) {
		double t0 = now_s(), t1;

		kernel_run_native(r);
		t1 = now_s();
		if (t1 - t0 < one)
			one = t1 - t0;
	}
	*probe_s = one;
	if (!(one > 0) || one >= opts->batch_s)
		return 1;
	k = ceil(opts->batch_s / one);
	return k > MEASURE_BATCH_MAX ? MEASURE_BATCH_MAX : (unsigned)k;
}

/* Warm-up beyond warmup_max (> 0) runs while the runs still get faster
 * (the branch predictor still learning); the runs made.  w0: the
 * warm-up's start. */
static unsigned warm_learn(struct kernel_run *r,
			   const struct measure_opts *opts, double w0)
{
	unsigned blk = opts->warmup_max, n = 0, j;
	double prev = 0, t0, per;

	while (blk <= UINT_MAX / 4) {
		t0 = now_s();
		for (j = 0; j < blk; j++) {
			kernel_run_reset(r);
			kernel_run_native(r);
		}
		n += blk;
		per = (now_s() - t0) / blk;
		if (prev > 0 && per > prev * (1 - MEASURE_WARMUP_GAIN))
			break;
		prev = per;
		/* the next block, twice as long, must end in time */
		if (now_s() - w0 + 2 * blk * per > opts->warmup_learn_s)
			break;
		blk *= 2;
	}
	return n;
}

int kernel_measure(struct kernel_run *r, const struct measure_opts *opts,
		   struct measure_result *res, struct ppr_err *err)
{
	unsigned reps = opts->reps ? opts->reps : 10, i;
	unsigned warm = opts->warmup;
	struct counter_backend *cb = opts->counters;
	double *t = NULL, sum = 0.0;
	int use_counters = 0, rc = 0;

	memset(res, 0, sizeof(*res));
	if (cb && opts->set && opts->set->n) {
		struct ppr_err e2;

		memset(&e2, 0, sizeof(e2));
		if (cb->open(cb, opts->set, &e2) == 0) {
			use_counters = 1;
		} else {
			kern_strlcpy(res->counters_why, e2.msg,
				     sizeof(res->counters_why));
			cb->close(cb);
		}
	}
	t = xmalloc(reps * sizeof(double));
	res->code_offset = -1;
	if (opts->code_mode == MEASURE_CODE_FIXED &&
	    kernel_run_set_code_offset(r, opts->code_offset) == 0)
		res->code_offset = opts->code_offset;
	else if (opts->code_mode == MEASURE_CODE_BEST)
		screen_code(r, opts, res);
	else
		kernel_run_set_code_offset(r, -1);
	{
		double w0 = now_s();

		for (i = 0; i < warm || (i < opts->warmup_max &&
					 now_s() - w0 < opts->warmup_s); i++) {
			kernel_run_reset(r);
			kernel_run_native(r);
		}
		if (opts->warmup_learn_s > 0 && opts->warmup_max &&
		    i >= opts->warmup_max)
			i += warm_learn(r, opts, w0);
		res->warmup_runs = i;
	}
	res->batch = choose_batch(r, opts, use_counters, &res->batch_probe_s);
	for (i = 0; i < reps; i++) {
		double t0, t1;
		unsigned j;

		kernel_run_reset(r);
		if (opts->flush)
			kernel_cache_flush(opts->flush_bytes);
		if (use_counters && cb->start(cb)) {
			rc = ppr_err_set(err, PPR_EIO, NULL, 0, 0,
					 "cannot start the counters");
			goto out;
		}
		t0 = now_s();
		for (j = 0; j < res->batch; j++)
			kernel_run_native(r);
		t1 = now_s();
		if (use_counters && cb->stop(cb)) {
			rc = ppr_err_set(err, PPR_EIO, NULL, 0, 0,
					 "cannot stop the counters");
			goto out;
		}
		t[i] = (t1 - t0) / res->batch;
		sum += t[i];
	}
	if (use_counters) {
		if (cb->read(cb, opts->set)) {
			rc = ppr_err_set(err, PPR_EIO, NULL, 0, 0,
					 "cannot read the counters");
			goto out;
		}
		res->counters_ok = 1;
	}
	qsort(t, reps, sizeof(double), cmp_double);
	res->reps = reps;
	res->time_min_s = t[0];
	res->time_max_s = t[reps - 1];
	res->time_median_s = reps % 2 ? t[reps / 2] :
			     0.5 * (t[reps / 2 - 1] + t[reps / 2]);
	res->time_mean_s = sum / reps;
	res->flops = kernel_run_flops(r);
	res->bytes = kernel_run_bytes(r);
	if (res->time_median_s > 0) {
		res->gflops = res->flops / res->time_median_s * 1e-9;
		res->bytes_per_s = res->bytes / res->time_median_s;
	}
	if (res->time_min_s > 0)
		res->gflops_best = res->flops / res->time_min_s * 1e-9;
out:
	if (use_counters)
		cb->close(cb);
	free(t);
	return rc;
}
