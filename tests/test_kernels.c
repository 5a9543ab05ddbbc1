/*
 * test_kernels.c - every kernel against a plain reference; instrumented
 * streams (counts per array and tag, same outputs as native).
 *
 * Tolerances (normwise, per output: |got - ref| / sum |terms|):
 *   SpMV (double)       1e-14
 *   conv1d (float)      1e-6
 *   FFT vs direct DFT   1e-13 (1-D n <= 1024), 1e-13 (3-D n <= 8)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"
#include "matrix/matrix.h"
#include "tests/t.h"

static struct kernel_run *mk(const struct kernel_params *p, int line)
{
	struct kernel_run *r = NULL;
	struct ppr_err err;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = kernel_run_new(p, &r, &err);
	if (rc)
		fprintf(stderr, "row %d: kernel_run_new: %s\n", line, err.msg);
	T_CHECK_AT(rc == 0 && r, line);
	return r;
}

static double check(struct kernel_run *r, int line)
{
	struct ppr_err err;
	double e = -1;
	int rc = kernel_run_check(r, &e, &err);

	if (rc)
		fprintf(stderr, "row %d: check: %s\n", line, err.msg);
	T_CHECK_AT(rc == 0, line);
	return e;
}

/* Native result, then instrumented result: both must match the reference
 * and each other exactly (same body, same arithmetic). */
static void native_and_instr(const struct kernel_params *p, double tol,
			     int line)
{
	struct kernel_run *r = mk(p, line);
	struct kernel_access_count cnt;
	struct ppr_sink sink;
	const void *out;
	void *copy;
	size_t n, es;
	int k;

	if (!r)
		return;
	kernel_run_reset(r);
	kernel_run_native(r);
	T_CHECK_AT(check(r, line) <= tol, line);
	out = kernel_run_output(r, &n, &es);
	copy = malloc(n * es + 1);
	memcpy(copy, out, n * es);
	/* every placed copy of the kernel (spmv_place.c): the same code, so
	 * bit-identical output */
	for (k = 0; k < kernel_run_code_offsets(r); k++) {
		T_CHECK_AT(kernel_run_set_code_offset(r, k) == 0, line);
		memset((void *)out, 0, n * es);
		kernel_run_reset(r);
		kernel_run_native(r);
		T_CHECK_AT(memcmp(copy, out, n * es) == 0, line);
	}
	T_CHECK_AT(kernel_run_set_code_offset(r, -1) == 0, line);
	memset((void *)out, 0, n * es);
	kernel_access_count_sink(&cnt, &sink);
	kernel_run_reset(r);
	T_CHECK_AT(kernel_run_instrumented(r, &sink) == 0, line);
	/* Bit-identical unless the native path is a fallback (conv without
	 * AVX2: unfused multiply-add), which only has to pass the check. */
	if (!kernel_run_note(r))
		T_CHECK_AT(memcmp(copy, out, n * es) == 0, line);
	T_CHECK_AT(check(r, line) <= tol, line);
	T_CHECK_AT(cnt.n[PPR_OP_LOAD][0] + cnt.n[PPR_OP_LOAD][1] > 0, line);
	free(copy);
	kernel_run_free(r);
}

/* A hand-made 3x4 CSR: counts of the instrumented stream per array. */
struct arrays {
	uint64_t base[5];	/* addresses in the stream */
	size_t bytes[5];
	uint64_t loads[5], stores[5], irregular[5], other;
};

static int arrays_emit(void *ctx, const struct ppr_access *a, size_t n)
{
	struct arrays *ar = ctx;
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 5; k++) {
			uint64_t b = ar->base[k];

			if (a[i].addr >= b && a[i].addr < b + ar->bytes[k])
				break;
		}
		if (k == 5) {
			ar->other++;
			continue;
		}
		if (a[i].op == PPR_OP_LOAD)
			ar->loads[k]++;
		else if (a[i].op == PPR_OP_STORE)
			ar->stores[k]++;
		if (a[i].tag == PPR_TAG_IRREGULAR)
			ar->irregular[k]++;
	}
	return 0;
}

static int failing_emit(void *ctx, const struct ppr_access *a, size_t n)
{
	(void)a;
	(void)n;
	++*(int *)ctx;
	return PPR_EIO;
}

static void test_csr_stream(void)
{
	struct kernel_params p = { .kernel = "spmv-csr",
				   .input = "gen:laplace2d:n=40" };
	struct kernel_run *r = mk(&p, __LINE__);
	struct csr a;
	struct ppr_err err;
	struct arrays ar;
	struct ppr_sink sink = { arrays_emit, &ar };
	const double *y;
	size_t n, es;
	int calls = 0;
	struct ppr_sink bad = { failing_emit, &calls };

	if (!r)
		return;
	/* The same matrix, to know the arrays' sizes. */
	memset(&a, 0, sizeof(a));
	T_CHECK(matrix_load("gen:laplace2d:n=40", &a, NULL, &err) == 0);
	y = kernel_run_output(r, &n, &es);
	T_EQ_U64(n, a.rows);
	memset(&ar, 0, sizeof(ar));
	/* Addresses of the instance's own arrays come from the stream: the
	 * kernel's y is known; the rest are classified by size/tag below. */
	ar.base[0] = kernel_run_trace_addr(r, y);
	ar.bytes[0] = a.rows * 8;
	kernel_run_instrumented(r, &sink);
	T_EQ_U64(ar.stores[0], a.rows);		/* one store per row */
	T_EQ_U64(ar.loads[0], 0);
	{
		struct kernel_access_count c;
		struct ppr_sink cs;

		kernel_access_count_sink(&c, &cs);
		kernel_run_instrumented(r, &cs);
		/* loads: row_ptr R+1, col_idx NNZ, vals NNZ (regular), x NNZ
		 * (irregular); stores: y R (regular) */
		T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_REGULAR],
			 a.rows + 1 + 2 * a.nnz);
		T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_IRREGULAR], a.nnz);
		T_EQ_U64(c.n[PPR_OP_STORE][PPR_TAG_REGULAR], a.rows);
		T_EQ_U64(c.n[PPR_OP_STORE][PPR_TAG_IRREGULAR], 0);
		T_EQ_U64(c.bytes[PPR_OP_LOAD][PPR_TAG_REGULAR],
			 (a.rows + 1) * 8 + a.nnz * 12);
		T_EQ_U64(c.bytes[PPR_OP_LOAD][PPR_TAG_IRREGULAR], a.nnz * 8);
		/* batches of KERNEL_EMIT_BATCH */
		T_EQ_U64(c.batches,
			 (a.rows + 1 + 3 * a.nnz + a.rows + KERNEL_EMIT_BATCH - 1) /
			 KERNEL_EMIT_BATCH);
	}
	/* A failing sink: the error comes back, emission stops at once. */
	T_CHECK(kernel_run_instrumented(r, &bad) == PPR_EIO);
	T_EQ_U64(calls, 1);
	matrix_csr_release(&a);
	kernel_run_free(r);
}

/* FNV-1a over a stream. */
struct digest {
	uint64_t h, n;
};

static int digest_emit(void *ctx, const struct ppr_access *a, size_t n)
{
	struct digest *d = ctx;
	size_t i;

	for (i = 0; i < n; i++) {
		const unsigned char *b = (const unsigned char *)&a[i];
		size_t k;

		for (k = 0; k < sizeof(a[i]); k++)
			d->h = (d->h ^ b[k]) * 0x100000001b3ull;
	}
	d->n += n;
	return 0;
}

/* Two runs of one input alive at once have their arrays at different
 * real addresses; their streams must still be identical (the fixed
 * layout of kernels.h), every array on a page of its own. */
static void test_layout_reproducible(const char *kernel, const char *input,
				     uint64_t n, int line)
{
	struct kernel_params p = { .kernel = kernel, .input = input, .n = n,
				   .variant = CONV_AVX2_ALIGNED,
				   .block_r = 3, .block_c = 3 };
	struct kernel_run *r1 = mk(&p, line), *r2 = mk(&p, line);
	struct digest d1 = { 0xcbf29ce484222325ull, 0 }, d2 = d1;
	struct ppr_sink s1 = { digest_emit, &d1 }, s2 = { digest_emit, &d2 };
	const double *y1, *y2;
	size_t cnt, es;

	if (!r1 || !r2) {
		kernel_run_free(r1);
		kernel_run_free(r2);
		return;
	}
	T_CHECK_AT(kernel_run_instrumented(r1, &s1) == 0, line);
	T_CHECK_AT(kernel_run_instrumented(r2, &s2) == 0, line);
	T_CHECK_AT(d1.n > 0, line);
	T_EQ_U64_AT(d1.n, d2.n, line);
	T_EQ_U64_AT(d1.h, d2.h, line);
	y1 = kernel_run_output(r1, &cnt, &es);
	y2 = kernel_run_output(r2, &cnt, &es);
	T_CHECK_AT(y1 != y2, line);
	T_EQ_U64_AT(kernel_run_trace_addr(r1, y1), kernel_run_trace_addr(r2, y2),
		    line);
	T_EQ_U64_AT(kernel_run_trace_addr(r1, y1) & 4095, 0, line);
	T_CHECK_AT(kernel_run_trace_addr(r1, y1) >= 0x10000000ull, line);
	/* A pointer outside the run's arrays is returned as is. */
	T_EQ_U64_AT(kernel_run_trace_addr(r1, &d1), (uint64_t)(uintptr_t)&d1,
		    line);
	kernel_run_free(r1);
	kernel_run_free(r2);
}

static void test_bcsr_stream(void)
{
	struct kernel_params p = { .kernel = "spmv-bcsr", .block_r = 3,
				   .block_c = 2,
				   .input = "gen:fem3d:n=4,dof=3" };
	struct kernel_run *r = mk(&p, __LINE__);
	struct kernel_access_count c;
	struct ppr_sink cs;
	struct csr a;
	struct bcsr b;
	struct ppr_err err;

	if (!r)
		return;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	T_CHECK(matrix_load(p.input, &a, NULL, &err) == 0);
	T_CHECK(matrix_bcsr_build(&a, 3, 2, &b, &err) == 0);
	kernel_access_count_sink(&c, &cs);
	kernel_run_instrumented(r, &cs);
	/* bptr brows+1, bcol nblocks, vals 6*nblocks regular; x 2*nblocks
	 * irregular; y 3*brows stores */
	T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_REGULAR],
		 b.brows + 1 + b.nblocks + 6 * b.nblocks);
	T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_IRREGULAR], 2 * b.nblocks);
	T_EQ_U64(c.n[PPR_OP_STORE][PPR_TAG_REGULAR], 3 * b.brows);
	T_STR(kernel_run_symbol(r), "kern_spmv_bcsr_3x2");
	matrix_bcsr_release(&b);
	matrix_csr_release(&a);
	kernel_run_free(r);
}

static void test_spmv_all_shapes(const char *input, int line)
{
	unsigned br, bc;

	for (br = 1; br <= 8; br++)
		for (bc = 1; bc <= 8; bc++) {
			struct kernel_params p = { .kernel = "spmv-bcsr",
						   .block_r = br, .block_c = bc,
						   .input = input };

			native_and_instr(&p, 1e-14, line * 100 + (int)(br * 10 + bc));
		}
	{
		struct kernel_params p = { .kernel = "spmv-csr", .input = input };

		native_and_instr(&p, 1e-14, line);
	}
}

static void test_conv(void)
{
	static const struct {
		enum conv_variant v;
		uint64_t n;
		int no_simd;
		int line;
	} rows[] = {
		{ CONV_NAIVE, 16, 0, __LINE__ },
		{ CONV_NAIVE, 1000, 0, __LINE__ },
		{ CONV_AVX2_UNALIGNED, 16, 0, __LINE__ },
		{ CONV_AVX2_UNALIGNED, 47, 0, __LINE__ },
		{ CONV_AVX2_UNALIGNED, 4111, 0, __LINE__ },
		{ CONV_AVX2_UNALIGNED, 4111, 1, __LINE__ },
		{ CONV_AVX2_ALIGNED, 31, 0, __LINE__ },
		{ CONV_AVX2_ALIGNED, 4096, 0, __LINE__ },
		{ CONV_AVX2_ALIGNED, 4111, 0, __LINE__ },
		{ CONV_AVX2_ALIGNED, 4111, 1, __LINE__ },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct kernel_params p = { .kernel = "conv1d", .variant = rows[i].v,
					   .n = rows[i].n,
					   .no_simd = rows[i].no_simd };

		native_and_instr(&p, 1e-6, rows[i].line);
	}
	/* Stream of algorithm 2 for n = 16*B + 15: B blocks of 32 vector
	 * loads + 16 broadcasts, 2 vector stores; algorithm 3 the same
	 * counts, from the copies. */
	{
		struct kernel_params p = { .kernel = "conv1d",
					   .variant = CONV_AVX2_UNALIGNED,
					   .n = 16 * 10 + 15 };
		struct kernel_run *r = mk(&p, __LINE__);
		struct kernel_access_count c;
		struct ppr_sink cs;

		if (r) {
			kernel_access_count_sink(&c, &cs);
			kernel_run_instrumented(r, &cs);
			T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_REGULAR], 10 * 48);
			T_EQ_U64(c.bytes[PPR_OP_LOAD][PPR_TAG_REGULAR],
				 10 * (32 * 32 + 16 * 4));
			T_EQ_U64(c.n[PPR_OP_STORE][PPR_TAG_REGULAR], 20);
			T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_IRREGULAR], 0);
			kernel_run_free(r);
		}
	}
	{
		struct kernel_params p = { .kernel = "conv1d", .n = 10 };
		struct kernel_run *r = NULL;
		struct ppr_err err;

		T_CHECK(kernel_run_new(&p, &r, &err) == PPR_EINVAL);
		T_CHECK(r == NULL);
		T_CHECK(strstr(err.msg, "N >= 16") != NULL);
	}
}

static void test_fft(void)
{
	static const struct {
		const char *k;
		uint64_t n;
		int line;
	} rows[] = {
		{ "fft1d", 2, __LINE__ },
		{ "fft1d", 8, __LINE__ },
		{ "fft1d", 64, __LINE__ },
		{ "fft1d", 1024, __LINE__ },
		{ "fft3d", 2, __LINE__ },
		{ "fft3d", 4, __LINE__ },
		{ "fft3d", 8, __LINE__ },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct kernel_params p = { .kernel = rows[i].k, .n = rows[i].n };

		native_and_instr(&p, 1e-13, rows[i].line);
	}
	{
		struct kernel_params p = { .kernel = "fft1d", .n = 12 };
		struct kernel_run *r = NULL;
		struct ppr_err err;

		T_CHECK(kernel_run_new(&p, &r, &err) == PPR_EINVAL);
		T_CHECK(strstr(err.msg, "power of two") != NULL);
	}
	/* fft1d n=8: 8 rev loads, 2 swaps (1<->4, 3<->6), 3 stages x 4
	 * butterflies x 3 loads. */
	{
		struct kernel_params p = { .kernel = "fft1d", .n = 8 };
		struct kernel_run *r = mk(&p, __LINE__);
		struct kernel_access_count c;
		struct ppr_sink cs;

		if (r) {
			kernel_access_count_sink(&c, &cs);
			kernel_run_instrumented(r, &cs);
			T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_REGULAR], 8 + 2 + 36);
			T_EQ_U64(c.n[PPR_OP_LOAD][PPR_TAG_IRREGULAR], 2);
			T_EQ_U64(c.n[PPR_OP_STORE][PPR_TAG_REGULAR], 2 + 24);
			T_EQ_U64(c.n[PPR_OP_STORE][PPR_TAG_IRREGULAR], 2);
			T_NEAR(kernel_run_flops(r), 5.0 * 8 * 3, 1e-15);
			kernel_run_free(r);
		}
	}
}

static void test_table(void)
{
	unsigned r, c;
	enum conv_variant v;

	T_CHECK(kernel_desc_find("spmv-csr") != NULL);
	T_CHECK(kernel_desc_find("fft3d") != NULL);
	T_CHECK(kernel_desc_find("nope") == NULL);
	T_CHECK(kernel_block_parse("4x3", &r, &c) == 0 && r == 4 && c == 3);
	T_CHECK(kernel_block_parse("9x1", &r, &c) == PPR_EINVAL);
	T_CHECK(kernel_block_parse("4x", &r, &c) == PPR_EINVAL);
	T_CHECK(kernel_block_parse("0x2", &r, &c) == PPR_EINVAL);
	T_CHECK(kernel_variant_parse("avx2-aligned", &v) == 0 &&
		v == CONV_AVX2_ALIGNED);
	T_CHECK(kernel_variant_parse("avx512", &v) == PPR_EINVAL);
	{
		struct kernel_params p = { .kernel = "spmv-bcsr",
					   .input = "gen:laplace2d:n=4" };
		struct kernel_run *k = NULL;
		struct ppr_err err;

		T_CHECK(kernel_run_new(&p, &k, &err) == PPR_EINVAL);
		T_CHECK(strstr(err.msg, "--block") != NULL);
	}
	{
		struct kernel_params p = { .kernel = "spmv-csr" };
		struct kernel_run *k = NULL;
		struct ppr_err err;

		T_CHECK(kernel_run_new(&p, &k, &err) == PPR_EINVAL);
	}
}

static void test_measure(void)
{
	struct kernel_params p = { .kernel = "fft1d", .n = 256 };
	struct kernel_run *r = mk(&p, __LINE__);
	struct measure_opts o = { .reps = 5, .warmup = 1 };
	struct measure_result res;
	struct counter_backend cb;
	struct counter_set set;
	struct ppr_err err;
	double e;

	if (!r)
		return;
	T_CHECK(counter_backend_init(&cb, "fake", &err) == 0);
	T_CHECK(counter_set_parse(&set, "PAPI_TOT_CYC,PAPI_L1_DCM", &err) == 0);
	o.counters = &cb;
	o.set = &set;
	o.flush = 1;
	o.flush_bytes = 1 << 20;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_EQ_U64(res.reps, 5);
	T_CHECK(res.time_min_s > 0 && res.time_min_s <= res.time_median_s);
	T_CHECK(res.time_median_s <= res.time_max_s);
	T_CHECK(res.gflops > 0);
	T_CHECK(res.counters_ok);
	/* fake: event i counts 1000*(i+1) per timed repetition */
	T_EQ_U64(set.ev[0].value, 5 * 1000);
	T_EQ_U64(set.ev[1].value, 5 * 2000);
	/* in-place FFT: reset before each run keeps the result right */
	T_CHECK(kernel_run_check(r, &e, &err) == 0 && e <= 1e-13);
	kernel_run_free(r);
}

/*
 * Warm-up: --warmup N makes exactly N untimed runs (warmup_max 0); the
 * default goes on to warmup_max runs in all while they take less than
 * warmup_s, and never below warmup, then (warmup_learn_s) in doubling
 * blocks while they get faster; warmup_runs reports the count.
 */
static void test_measure_warmup(void)
{
	struct kernel_params p = { .kernel = "fft1d", .n = 64 };
	struct kernel_run *r = mk(&p, __LINE__);
	struct measure_opts o = { .reps = 2, .warmup = 3 };
	struct measure_result res;
	struct ppr_err err;

	if (!r)
		return;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_EQ_U64(res.warmup_runs, 3);
	o.warmup = 1;
	o.warmup_max = 7;
	o.warmup_s = 100;       /* the count bounds it, not the time */
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_EQ_U64(res.warmup_runs, 7);
	o.warmup = 4;
	o.warmup_s = 0;         /* no time: the runs asked for only */
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_EQ_U64(res.warmup_runs, 4);
	/* learning on (warmup_learn_s): after warmup_max runs in time,
	 * blocks of 7, 14, 28, ... runs until one is not 1% faster, so
	 * 7 + 7 x (2^k - 1) runs with k >= 1 blocks */
	o.warmup = 1;
	o.warmup_s = 100;
	o.warmup_learn_s = 5;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_CHECK(res.warmup_runs >= 14);
	T_CHECK(res.warmup_runs % 7 == 0);
	T_CHECK(((res.warmup_runs / 7) & (res.warmup_runs / 7 - 1)) == 0);
	/* not when the first runs ran out of time before warmup_max */
	o.warmup_s = 0;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_EQ_U64(res.warmup_runs, 1);
	o.warmup_learn_s = 0;
	o.warmup = 0;
	o.warmup_max = 0;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_EQ_U64(res.warmup_runs, 0);
	T_EQ_U64(res.reps, 2);
	kernel_run_free(r);
}

/*
 * Batching (batch_s): a kernel shorter than batch_s is timed several
 * executions a sample, each sample's time divided by their number; one
 * execution a sample without batch_s, with flush, with counters, and for
 * the in-place FFT (reset between executions).
 */
static void test_measure_batch(void)
{
	struct kernel_params pc = { .kernel = "conv1d", .n = 256,
				    .variant = CONV_NAIVE };
	struct kernel_params pf = { .kernel = "fft1d", .n = 64 };
	struct kernel_run *c = mk(&pc, __LINE__), *f = mk(&pf, __LINE__);
	struct measure_opts o = { .reps = 3, .warmup = 1 };
	struct measure_result res;
	struct counter_backend cb;
	struct counter_set set;
	struct ppr_err err;
	double e;

	if (!c || !f)
		goto out;
	T_CHECK(kernel_measure(c, &o, &res, &err) == 0);
	T_EQ_U64(res.batch, 1);
	/* 256 outputs take microseconds even under valgrind: 0.05 s is many */
	o.batch_s = 0.05;
	T_CHECK(kernel_measure(c, &o, &res, &err) == 0);
	T_CHECK(res.batch > 1);
	T_CHECK(res.batch <= 100000);
	/* the times are per execution (microseconds), not per sample (at
	 * least about 0.05 s), and the GFLOPS follow from them */
	T_CHECK(res.time_median_s > 0 && res.time_median_s < 0.01);
	T_CHECK(res.gflops > 0 &&
		fabs(res.gflops - res.flops / res.time_median_s * 1e-9) <=
		1e-9 * res.gflops);
	/* batch is the least count whose samples last batch_s, judged on
	 * the fastest probe execution (not on the timed samples: their
	 * length depends on how loaded the machine is) */
	T_CHECK(res.batch_probe_s > 0 && res.batch_probe_s < 0.05);
	T_CHECK(res.batch == 100000 ||
		(res.batch * res.batch_probe_s >= 0.05 * (1 - 1e-12) &&
		 (res.batch - 1) * res.batch_probe_s < 0.05));
	/* a kernel longer than batch_s: one execution */
	o.batch_s = 1e-12;
	T_CHECK(kernel_measure(c, &o, &res, &err) == 0);
	T_EQ_U64(res.batch, 1);
	o.batch_s = 0.05;
	o.flush = 1;
	o.flush_bytes = 1 << 20;
	T_CHECK(kernel_measure(c, &o, &res, &err) == 0);
	T_EQ_U64(res.batch, 1);
	o.flush = 0;
	T_CHECK(counter_backend_init(&cb, "fake", &err) == 0);
	T_CHECK(counter_set_parse(&set, "PAPI_TOT_CYC", &err) == 0);
	o.counters = &cb;
	o.set = &set;
	T_CHECK(kernel_measure(c, &o, &res, &err) == 0);
	T_CHECK(res.counters_ok);
	T_EQ_U64(res.batch, 1);
	T_EQ_U64(set.ev[0].value, 3 * 1000);
	o.counters = NULL;
	o.set = NULL;
	/* in place: reset before each execution, so never batched; the
	 * result stays right */
	T_CHECK(kernel_measure(f, &o, &res, &err) == 0);
	T_EQ_U64(res.batch, 1);
	T_CHECK(kernel_run_check(f, &e, &err) == 0 && e <= 1e-13);
out:
	kernel_run_free(c);
	kernel_run_free(f);
}

/*
 * Code placements: the SpMV kernels have 4 placed copies, so do the naive
 * convolution and the AVX2 ones (the portable vector fallback and FFT
 * none); out-of-range choices are refused; kernel_measure's modes time
 * the copy asked for, and MEASURE_CODE_BEST keeps the copy whose
 * screening time was least.  (That every copy computes the same output is
 * checked in native_and_instr.)
 */
static void test_code_offsets(void)
{
	struct kernel_params ps = { .kernel = "spmv-bcsr", .block_r = 2,
				    .block_c = 1,
				    .input = "gen:random:n=500,per_row=3" };
	struct kernel_params pf = { .kernel = "fft1d", .n = 64 };
	struct kernel_run *r = mk(&ps, __LINE__), *f = mk(&pf, __LINE__);
	struct measure_opts o = { .reps = 3, .warmup = 1 };
	struct measure_result res;
	struct ppr_err err;
	unsigned k;

	if (!r || !f)
		goto out;
	T_EQ_U64(kernel_run_code_offsets(r), 4);
	T_EQ_U64(kernel_run_code_offsets(f), 0);
	{
		struct kernel_params pc = { .kernel = "conv1d", .n = 256,
					    .variant = CONV_NAIVE };
		struct kernel_run *c = mk(&pc, __LINE__);

		if (c) {
			T_EQ_U64(kernel_run_code_offsets(c), 4);
			kernel_run_free(c);
		}
		pc.variant = CONV_AVX2_ALIGNED;
		c = mk(&pc, __LINE__);
		if (c) {
			T_EQ_U64(kernel_run_code_offsets(c),
				 kernel_cpu_has_avx2() ? 4 : 0);
			T_CHECK(kernel_run_set_code_offset(c, 3) ==
				(kernel_cpu_has_avx2() ? 0 : -1));
			kernel_run_free(c);
		}
		pc.variant = CONV_AVX2_UNALIGNED;
		pc.no_simd = 1;
		c = mk(&pc, __LINE__);
		if (c) {
			T_EQ_U64(kernel_run_code_offsets(c), 0);
			kernel_run_free(c);
		}
	}
	T_CHECK(kernel_run_set_code_offset(r, 4) == -1);
	T_CHECK(kernel_run_set_code_offset(r, -2) == -1);
	T_CHECK(kernel_run_set_code_offset(f, 0) == -1);
	T_CHECK(kernel_run_set_code_offset(f, -1) == 0);
	T_CHECK(kernel_run_set_code_offset(r, 3) == 0);
	T_CHECK(kernel_run_code_offset(r) == 3);

	o.code_mode = MEASURE_CODE_BEST;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_EQ_U64(res.code_offsets, 4);
	T_CHECK(res.code_offset >= 0 && res.code_offset < 4);
	T_CHECK(kernel_run_code_offset(r) == res.code_offset);
	for (k = 0; k < 4; k++) {
		T_CHECK(res.code_screen_min_s[k] > 0);
		T_CHECK(res.code_screen_min_s[res.code_offset] <=
			res.code_screen_min_s[k]);
	}
	o.code_mode = MEASURE_CODE_FIXED;
	o.code_offset = 2;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_CHECK(res.code_offset == 2 && res.code_offsets == 0);
	o.code_mode = MEASURE_CODE_LINKED;
	T_CHECK(kernel_measure(r, &o, &res, &err) == 0);
	T_CHECK(res.code_offset == -1 && kernel_run_code_offset(r) == -1);
	/* no copies: BEST and FIXED time the linker's */
	o.code_mode = MEASURE_CODE_BEST;
	T_CHECK(kernel_measure(f, &o, &res, &err) == 0);
	T_CHECK(res.code_offset == -1 && res.code_offsets == 0);
	o.code_mode = MEASURE_CODE_FIXED;
	T_CHECK(kernel_measure(f, &o, &res, &err) == 0);
	T_CHECK(res.code_offset == -1);
out:
	kernel_run_free(r);
	kernel_run_free(f);
}

/* A borrowed, already loaded matrix: same results, not freed by the run. */
static void test_borrowed_csr(void)
{
	struct csr a;
	struct ppr_err err;
	unsigned br;

	memset(&a, 0, sizeof(a));
	T_CHECK(matrix_load("gen:fem3d:n=3,dof=2", &a, NULL, &err) == 0);
	for (br = 1; br <= 3; br++) {
		struct kernel_params p = { .kernel = "spmv-bcsr", .csr = &a,
					   .block_r = br, .block_c = 2 };
		struct kernel_run *r = mk(&p, __LINE__);
		double e = -1;

		if (!r)
			continue;
		kernel_run_native(r);
		T_CHECK(kernel_run_check(r, &e, &err) == 0 && e <= 1e-14);
		T_CHECK(strstr(kernel_run_describe(r), "(matrix)") != NULL);
		kernel_run_free(r);
	}
	T_CHECK(a.row_ptr != NULL && a.nnz > 0);	/* still ours */
	matrix_csr_release(&a);
}

int main(void)
{
	test_table();
	test_csr_stream();
	test_bcsr_stream();
	test_layout_reproducible("spmv-csr", "gen:random:n=3000,per_row=9,seed=2",
				 0, __LINE__);
	test_layout_reproducible("spmv-bcsr", "gen:fem3d:n=6,dof=3", 0,
				 __LINE__);
	test_layout_reproducible("conv1d", NULL, 70000, __LINE__);
	test_layout_reproducible("fft1d", NULL, 4096, __LINE__);
	test_spmv_all_shapes("gen:random:n=203,per_row=7,seed=5", __LINE__);
	test_spmv_all_shapes("gen:fem3d:n=3,dof=3", __LINE__);
	test_conv();
	test_fft();
	test_measure();
	test_measure_warmup();
	test_measure_batch();
	test_code_offsets();
	test_borrowed_csr();
	return t_done();
}
