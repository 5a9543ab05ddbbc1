/*
 * bench_kernels.c - native kernel speed, printed (no pass/fail).
 *
 *  1. memory read bandwidth of this machine (sum over 512 MiB; best run);
 *  2. CSR SpMV on gen:laplace3d:n=160 (28.5 M nonzeros, 440 MB: larger
 *     than any L3): ours (kern_spmv_csr) against a straightforward CSR
 *     loop compiled here with -O3 -march=native (kernels/kernels.mk adds
 *     -march=native to this file only), runs interleaved;
 *  3. every BCSR shape r x c on gen:fem3d:n=32,dof=3 (3-dof FEM, 98 304
 *     rows, about 90 MB: larger than the L3), GFLOPS on the true nonzeros
 *     and bytes/s of the BCSR arrays, best of 3 rounds spread over the
 *     sweep;
 *  4. the three conv1d variants in L1, L2, L3 and memory.
 * Figures: min and median of the repetitions (the 2-core machine is
 * shared: medians move, minima less).
 *
 * Environment: BENCH_QUICK=1 uses smaller inputs and fewer runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/xalloc.h"
#include "kernels/kernels.h"
#include "matrix/matrix.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(double), cmp_d);
	return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* The straightforward CSR a user would write; -O3 -march=native. */
__attribute__((noinline)) static void ref_csr(uint64_t rows,
					       const uint64_t *rp,
					       const uint32_t *ci,
					       const double *v,
					       const double *x, double *y)
{
	for (uint64_t i = 0; i < rows; i++) {
		double s = 0.0;

		for (uint64_t k = rp[i]; k < rp[i + 1]; k++)
			s += v[k] * x[ci[k]];
		y[i] = s;
	}
}

volatile double bench_sink;

static double read_bw(uint64_t bytes, int reps)
{
	uint64_t n = bytes / 8, i;
	double *a = xaligned_alloc(n * 8), best = 0;
	int r;

	for (i = 0; i < n; i++)
		a[i] = 1.0;
	for (r = 0; r < reps; r++) {
		double s0 = 0, s1 = 0, s2 = 0, s3 = 0, t0 = now_s(), t;

		for (i = 0; i + 3 < n; i += 4) {
			s0 += a[i];
			s1 += a[i + 1];
			s2 += a[i + 2];
			s3 += a[i + 3];
		}
		t = now_s() - t0;
		bench_sink = s0 + s1 + s2 + s3;
		if ((double)bytes / t > best)
			best = (double)bytes / t;
	}
	free(a);
	return best;
}

static void bench_csr(const char *spec, int reps, double bw)
{
	struct kernel_params p = { .kernel = "spmv-csr", .input = spec };
	struct kernel_run *run = NULL;
	struct ppr_err err;
	struct csr a;
	double *x, *y, *to = xmalloc(reps * sizeof(double));
	double *tr = xmalloc(reps * sizeof(double)), flops, bytes, maxd = 0;
	const double *yo;
	size_t n, es;
	uint64_t i;
	int r;

	memset(&a, 0, sizeof(a));
	if (kernel_run_new(&p, &run, &err) ||
	    matrix_load(spec, &a, NULL, &err)) {
		printf("csr: cannot set up %s: %s\n", spec, err.msg);
		return;
	}
	x = xaligned_alloc(a.cols * 8);
	y = xaligned_alloc(a.rows * 8);
	for (i = 0; i < a.cols; i++)
		x[i] = 1.0 / (double)(i + 1);
	flops = kernel_run_flops(run);
	bytes = kernel_run_bytes(run);
	kernel_run_native(run);
	ref_csr(a.rows, a.row_ptr, a.col_idx, a.vals, x, y);
	for (r = 0; r < reps; r++) {
		double t0 = now_s();

		kernel_run_native(run);
		to[r] = now_s() - t0;
		t0 = now_s();
		ref_csr(a.rows, a.row_ptr, a.col_idx, a.vals, x, y);
		tr[r] = now_s() - t0;
	}
	/* same product? run ours on the same x through the check API */
	{
		double e = -1;

		kernel_run_check(run, &e, &err);
		maxd = e;
	}
	yo = kernel_run_output(run, &n, &es);
	(void)yo;
	printf("CSR SpMV %s: %llu rows, %llu nnz, %.1f MB compulsory "
	       "(> L3), %d runs\n", spec, (unsigned long long)a.rows,
	       (unsigned long long)a.nnz, bytes * 1e-6, reps);
	{
		double mo, mr, lo, lr;

		qsort(to, (size_t)reps, sizeof(double), cmp_d);
		qsort(tr, (size_t)reps, sizeof(double), cmp_d);
		lo = to[0];
		lr = tr[0];
		mo = median(to, reps);
		mr = median(tr, reps);
		printf("  ours kern_spmv_csr          : %.3f GFLOP/s best, "
		       "%.3f median; %.2f GB/s best (%.0f%% of read bw)\n",
		       flops / lo * 1e-9, flops / mo * 1e-9, bytes / lo * 1e-9,
		       100.0 * bytes / lo / bw);
		printf("  straightforward -O3 -march=native: %.3f GFLOP/s "
		       "best, %.3f median; %.2f GB/s best\n",
		       flops / lr * 1e-9, flops / mr * 1e-9, bytes / lr * 1e-9);
		printf("  ours / straightforward: %.3f (best), %.3f (median); "
		       "ours vs reference error %.2g\n", lr / lo, mr / mo,
		       maxd);
	}
	free(x);
	free(y);
	free(to);
	free(tr);
	matrix_csr_release(&a);
	kernel_run_free(run);
}

/* Each shape gets ROUNDS turns spread over the sweep (the machine's load
 * changes over a minute), and keeps its best run: the matrix is loaded
 * once, each turn builds that shape's BCSR and times it. */
static void bench_bcsr(const char *spec, int reps, int rounds, double bw)
{
	double best[8][8], gf_best = 0, t[64];
	unsigned br, bc, best_r = 0, best_c = 0;
	struct csr a;
	struct ppr_err err;
	int round;

	memset(&a, 0, sizeof(a));
	if (matrix_load(spec, &a, NULL, &err)) {
		printf("bcsr: cannot load %s: %s\n", spec, err.msg);
		return;
	}
	for (br = 0; br < 8; br++)
		for (bc = 0; bc < 8; bc++)
			best[br][bc] = 1e300;
	for (round = 0; round < rounds; round++)
		for (br = 1; br <= 8; br++)
			for (bc = 1; bc <= 8; bc++) {
				struct kernel_params p = {
					.kernel = "spmv-bcsr", .input = spec,
					.csr = &a, .block_r = br, .block_c = bc };
				struct kernel_run *run = NULL;
				int r;

				if (kernel_run_new(&p, &run, &err)) {
					printf("bcsr %ux%u: %s\n", br, bc, err.msg);
					continue;
				}
				kernel_run_native(run);
				for (r = 0; r < reps; r++) {
					double t0 = now_s();

					kernel_run_native(run);
					t[r] = now_s() - t0;
					if (t[r] < best[br - 1][bc - 1])
						best[br - 1][bc - 1] = t[r];
				}
				kernel_run_free(run);
			}
	printf("BCSR SpMV %s (%llu rows, %llu nnz), best of %d x %d runs per "
	       "shape: GFLOP/s on true nonzeros, GB/s of the BCSR arrays\n      ",
	       spec, (unsigned long long)a.rows, (unsigned long long)a.nnz,
	       rounds, reps);
	for (bc = 1; bc <= 8; bc++)
		printf("   c=%u       ", bc);
	printf("\n");
	for (br = 1; br <= 8; br++) {
		printf("  r=%u ", br);
		for (bc = 1; bc <= 8; bc++) {
			uint64_t nb = matrix_fill_count(&a, br, bc);
			double lo = best[br - 1][bc - 1];
			double gf = 2.0 * (double)a.nnz / lo * 1e-9;
			double bytes = (double)((a.rows + br - 1) / br + 1) * 8 +
				       (double)nb * (4 + 8.0 * br * bc) +
				       (double)a.cols * 8 + (double)a.rows * 8;

			printf(" %5.2f %4.1fGB", gf, bytes / lo * 1e-9);
			if (gf > gf_best) {
				gf_best = gf;
				best_r = br;
				best_c = bc;
			}
		}
		printf("\n");
	}
	printf("  best shape %ux%u: %.3f GFLOP/s = %.2f x the 1x1 figure "
	       "(%.3f); machine read bandwidth %.2f GB/s\n", best_r, best_c,
	       gf_best, gf_best / (2.0 * (double)a.nnz / best[0][0] * 1e-9),
	       2.0 * (double)a.nnz / best[0][0] * 1e-9, bw * 1e-9);
	matrix_csr_release(&a);
}

static void bench_conv(int quick)
{
	static const char *const vn[] = { "naive", "avx2-unaligned",
					  "avx2-aligned" };
	static const uint64_t sizes[] = { 4096, 65536, 1u << 20, 1u << 25 };
	static const char *const where[] = { "L1 (16 KiB)", "L2 (256 KiB)",
					     "L3 (4 MiB)", "memory (128 MiB)" };
	unsigned s, v;

	printf("conv1d (single precision, kernel 16): GFLOP/s best / median; "
	       "AVX2 %s\n", kernel_cpu_has_avx2() ? "yes" : "no (fallback)");
	for (s = 0; s < 4; s++) {
		printf("  n=%-9llu %-17s", (unsigned long long)sizes[s],
		       where[s]);
		for (v = 0; v < 3; v++) {
			struct kernel_params p = { .kernel = "conv1d",
						   .n = sizes[s] };
			struct kernel_run *run = NULL;
			struct ppr_err err;
			double t[64];
			int r, reps = quick ? 5 : (s < 2 ? 50 : 11);

			kernel_variant_parse(vn[v], &p.variant);
			if (kernel_run_new(&p, &run, &err)) {
				printf(" error: %s", err.msg);
				continue;
			}
			kernel_run_native(run);
			for (r = 0; r < reps; r++) {
				double t0 = now_s();

				kernel_run_native(run);
				t[r] = now_s() - t0;
			}
			{
				double lo, me;

				me = median(t, reps);
				lo = t[0];
				printf("  %s %6.2f / %6.2f", vn[v],
				       kernel_run_flops(run) / lo * 1e-9,
				       kernel_run_flops(run) / me * 1e-9);
			}
			kernel_run_free(run);
		}
		printf("\n");
	}
}

int main(void)
{
	int quick = getenv("BENCH_QUICK") != NULL;
	double bw;

	bw = read_bw(quick ? (64u << 20) : (512u << 20), quick ? 2 : 5);
	printf("memory read bandwidth (1 core, sum over %u MiB, best): "
	       "%.2f GB/s\n", quick ? 64 : 512, bw * 1e-9);
	bench_csr(quick ? "gen:laplace3d:n=60" : "gen:laplace3d:n=160",
		  quick ? 5 : 15, bw);
	bench_bcsr(quick ? "gen:fem3d:n=12,dof=3" : "gen:fem3d:n=32,dof=3",
		   quick ? 3 : 5, quick ? 1 : 3, bw);
	bench_conv(quick);
	return 0;
}
