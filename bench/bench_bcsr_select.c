/*
 * bench_bcsr_select.c - the compute cost of `ppr bcsr`'s selection, warm.
 *
 * model_bcsr_select() on a few matrices, REPS times in one process, one
 * thread: the median wall time of the whole selection and of its parts
 * (in-core points, block counts, x simulation, evaluation), with the
 * median CSR SpMV time of the same matrix for scale.  In one process the
 * pages are already mapped, so this shows what the algorithms cost; a
 * fresh `ppr bcsr` process also pays for its first touches (on the test
 * guest 11.5 us per page) and reading the in-core cache file.
 *
 * PPR_BENCH_MACHINE names the machine file (machines/zen4-epyc.json).
 * Matrices: the arguments (files or gen: specs), else ../shared/matrices/medium/{Pd,bcsstk38,wiki-Vote,ct2010}
 * when present, else generated ones.  PPR_BENCH_REPS sets REPS (21);
 * PPR_BENCH_SAMPLE the sample fraction (as `ppr bcsr --sample`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machines/machine.h"
#include "matrix/matrix.h"
#include "model/predict.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), dcmp);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define MAXREPS 201

/* CSR SpMV for scale (the kernels' own is internal to kernels/) */
static __attribute__((noinline)) void spmv(const struct csr *a,
					   const double *x, double *y)
{
	uint64_t i, k;

	for (i = 0; i < a->rows; i++) {
		double s = 0;

		for (k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
			s += a->vals[k] * x[a->col_idx[k]];
		y[i] = s;
	}
}

static void one(const struct machine *m, const char *spec, unsigned reps)
{
	struct csr a;
	struct ppr_err err;
	struct model_bcsr_opts o = { .threads = 1 };
	const char *se = getenv("PPR_BENCH_SAMPLE");
	static struct model_bcsr_result res;
	double wall[MAXREPS], part[4][MAXREPS], tsp[MAXREPS];
	double *x, *y;
	unsigned i, k;

	memset(&err, 0, sizeof(err));
	if (se && *se)
		o.sample = strtod(se, NULL);
	if (matrix_load(spec, &a, NULL, &err)) {
		fprintf(stderr, "bench_bcsr_select: %s: %s\n", spec, err.msg);
		return;
	}
	x = calloc(a.cols + 1, sizeof(*x));
	y = calloc(a.rows + 1, sizeof(*y));
	for (i = 0; x && i < a.cols; i++)
		x[i] = 1.0 + (double)(i % 7);
	for (i = 0; i < reps && x && y; i++) {
		double t = now();

		spmv(&a, x, y);
		tsp[i] = now() - t;
		if (model_bcsr_select(m, &a, &o, &res, &err)) {
			fprintf(stderr, "bench_bcsr_select: %s: %s\n", spec,
				err.msg);
			break;
		}
		wall[i] = res.wall_s;
		for (k = 0; k < 4; k++)
			part[k][i] = res.phase_s[k];
	}
	if (i == reps && reps)
		printf("%-44s %9llu nnz  select %8.3f ms  (in-core %.3f, "
		       "counts %.3f, x %.3f, eval %.3f)  SpMV %8.2f us  "
		       "= %6.1f SpMV\n", spec, (unsigned long long)a.nnz,
		       median(wall, reps) * 1e3, median(part[0], reps) * 1e3,
		       median(part[1], reps) * 1e3,
		       median(part[2], reps) * 1e3,
		       median(part[3], reps) * 1e3,
		       median(tsp, reps) * 1e6,
		       median(wall, reps) / median(tsp, reps));
	free(x);
	free(y);
	matrix_csr_release(&a);
}

int main(int argc, char **argv)
{
	static const char *shared[] = {
		"../shared/matrices/medium/Pd.mtx",
		"../shared/matrices/medium/bcsstk38.mtx",
		"../shared/matrices/medium/wiki-Vote.mtx",
		"../shared/matrices/medium/ct2010.mtx.gz",
	};
	static const char *gen[] = {
		"gen:fem3d:n=10,dof=3",
		"gen:random:n=20000,per_row=4",
	};
	struct machine m;
	struct ppr_err err;
	const char *e = getenv("PPR_BENCH_REPS");
	const char *mf = getenv("PPR_BENCH_MACHINE");
	unsigned reps = e ? (unsigned)strtoul(e, NULL, 10) : 21, i;
	FILE *f;

	if (reps < 1 || reps > MAXREPS)
		reps = 21;
	memset(&err, 0, sizeof(err));
	if (!mf || !*mf)
		mf = "machines/zen4-epyc.json";
	if (machine_load(mf, &m, &err)) {
		fprintf(stderr, "bench_bcsr_select: %s\n", err.msg);
		return 1;
	}
	printf("model_bcsr_select, 1 thread, medians of %u in one process "
	       "(%s)\n", reps, mf);
	if (argc > 1) {
		for (i = 1; i < (unsigned)argc; i++)
			one(&m, argv[i], reps);
		machine_release(&m);
		return 0;
	}
	f = fopen(shared[0], "r");
	if (f) {
		fclose(f);
		for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
			one(&m, shared[i], reps);
	} else {
		printf("(../shared/matrices absent: generated matrices)\n");
	}
	for (i = 0; i < sizeof(gen) / sizeof(gen[0]); i++)
		one(&m, gen[i], reps);
	machine_release(&m);
	return 0;
}
