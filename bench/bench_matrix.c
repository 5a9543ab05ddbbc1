/*
 * bench_matrix.c - reading speed and fill-count speed.
 *
 *   1. gen:random:n=1000000,per_row=10 (10^7 nonzeros) is written as a
 *      Matrix Market file to a temporary file; matrix_load() reads it 3
 *      times: min and median wall time, MB/s (goal: under 3 s).
 *   2. matrix_fill_count_all() (blocks of all 64 BCSR shapes) on that
 *      matrix and on gen:fem3d:n=60,dof=3: min and median of 3.
 * Wall and process CPU time are both printed: this 2-core machine is
 * shared, and CPU time shows what the code costs when others run.
 * Set PPR_BENCH_NNZ_ROWS to change the number of rows (per_row stays 10).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "matrix/matrix.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void fill_bench(const char *spec)
{
	struct csr a;
	struct ppr_err err;
	uint64_t nb[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK];
	double t[3], c[3];
	int k;

	memset(&err, 0, sizeof(err));
	if (matrix_load(spec, &a, NULL, &err)) {
		fprintf(stderr, "bench_matrix: %s: %s\n", spec, err.msg);
		return;
	}
	for (k = 0; k < 3; k++) {
		double t0 = now(), c0 = cpu();

		matrix_fill_count_all(&a, nb);
		t[k] = now() - t0;
		c[k] = cpu() - c0;
	}
	qsort(t, 3, sizeof(double), dcmp);
	qsort(c, 3, sizeof(double), dcmp);
	printf("fill count, all 64 shapes, %s (%llu nnz): wall min %.3f s, median %.3f s;"
	       " cpu min %.3f s (%.2f ns per nonzero per shape; 4x4 blocks %llu)\n",
	       spec, (unsigned long long)a.nnz, t[0], t[1], c[0],
	       c[0] * 1e9 / (double)a.nnz / 64.0,
	       (unsigned long long)nb[3][3]);
	matrix_csr_release(&a);
}

int main(void)
{
	char spec[128], path[] = "/tmp/ppr_bench_matrix_XXXXXX";
	const char *rows_env = getenv("PPR_BENCH_NNZ_ROWS");
	unsigned long rows = rows_env ? strtoul(rows_env, NULL, 10) : 1000000;
	struct csr a, b;
	struct matrix_info inf;
	struct ppr_err err;
	struct stat st;
	double t[3], c[3], tw;
	FILE *f;
	int fd, k;

	memset(&err, 0, sizeof(err));
	snprintf(spec, sizeof(spec), "gen:random:n=%lu,per_row=10,seed=7", rows);
	if (matrix_load(spec, &a, NULL, &err)) {
		fprintf(stderr, "bench_matrix: %s\n", err.msg);
		return 1;
	}
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		perror("bench_matrix: temp file");
		return 1;
	}
	tw = now();
	if (matrix_csr_write_mm(&a, f, &err) || fclose(f)) {
		fprintf(stderr, "bench_matrix: cannot write %s\n", path);
		unlink(path);
		return 1;
	}
	tw = now() - tw;
	stat(path, &st);
	printf("wrote %s: %llu nnz, %.1f MB in %.2f s\n", spec,
	       (unsigned long long)a.nnz, (double)st.st_size / 1e6, tw);
	for (k = 0; k < 3; k++) {
		double t0 = now(), c0 = cpu();

		if (matrix_load(path, &b, &inf, &err)) {
			fprintf(stderr, "bench_matrix: %s: %s\n", path, err.msg);
			unlink(path);
			return 1;
		}
		t[k] = now() - t0;
		c[k] = cpu() - c0;
		if (b.nnz != a.nnz || memcmp(b.col_idx, a.col_idx,
					     a.nnz * sizeof(uint32_t)) ||
		    memcmp(b.vals, a.vals, a.nnz * sizeof(double)))
			fprintf(stderr, "bench_matrix: read-back differs from what was written\n");
		matrix_csr_release(&b);
	}
	unlink(path);
	qsort(t, 3, sizeof(double), dcmp);
	qsort(c, 3, sizeof(double), dcmp);
	printf("matrix market load, %llu nnz (%.1f MB): wall min %.3f s, median %.3f s,"
	       " %.0f MB/s at the min; cpu min %.3f s, median %.3f s (goal: < 3 s) %s\n",
	       (unsigned long long)a.nnz, (double)st.st_size / 1e6, t[0], t[1],
	       (double)st.st_size / 1e6 / t[0], c[0], c[1],
	       t[1] < 3.0 ? "ok" : "SLOW (wall; see cpu time on a loaded machine)");
	matrix_csr_release(&a);
	fill_bench(spec);
	fill_bench("gen:fem3d:n=60,dof=3");
	return 0;
}
