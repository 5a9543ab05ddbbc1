/*
 * cmd_bcsr.c - `ppr bcsr`: predict SpMV for all 64 BCSR block shapes with
 * the PPR model, rank them and pick one; optionally measure all 64, or
 * only the pick and the shapes predicted close to it (--measure-close).
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "cli/plot.h"
#include "common/ppr_version.h"
#include "kernels/kernels.h"
#include "machines/machine.h"
#include "matrix/matrix.h"
#include "model/predict.h"

/*
 * The shapes predicted within the margin (--margin, default CAND_MARGIN)
 * of the pick's time are the candidates: measuring them (a few, not 64:
 * --measure-close) finds the best shape where the model's ranking misses
 * it.  Against seven measured sets of all 64 shapes of the 39 medium
 * matrices (two hosts, 2026-11-25; the default sampled counts), the
 * measured best was the pick in 75% of the 273 cases and among the
 * shapes within 15% in 97%, 2.8 shapes on average, and the fastest
 * of them reached at least 0.958 of the best, 0.9994 on average (within
 * 10%: 92%, 2.0 shapes, min 0.846; within 20%: 97%, 3.6 shapes;
 * model/README.md).
 */
#define CAND_MARGIN 0.15

PPR_COMMAND(bcsr, "pick the BCSR block shape of a matrix (64 shapes predicted)")

/* Progress on stderr: rewritten in place on a terminal; otherwise plain
 * lines, at most one a second (and the last one), so a log stays short. */
static void progress(int last, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void progress(int last, const char *fmt, ...)
{
	static int tty = -1;
	static double t_prev = -1;
	struct timespec ts;
	double t;
	va_list ap;

	if (tty < 0)
		tty = isatty(2);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = ts.tv_sec + ts.tv_nsec * 1e-9;
	if (!tty && !last && t_prev >= 0 && t - t_prev < 1.0)
		return;
	t_prev = t;
	va_start(ap, fmt);
	if (tty)
		fputc('\r', stderr);
	vfprintf(stderr, fmt, ap);
	if (tty)
		fputs("   ", stderr);
	else
		fputc('\n', stderr);
	va_end(ap);
}

/* End a progress line on a terminal. */
static void progress_end(void)
{
	if (isatty(2))
		fputc('\n', stderr);
}

static const char usage_text[] =
	"usage: ppr bcsr --machine M.json MATRIX [options]\n"
	"\n"
	"Predict SpMV time for all 64 BCSR shapes r x c (1..8 each) with the\n"
	"PPR model, rank them, and name the pick and its predicted speedup over\n"
	"CSR run as 1x1 blocks; the CSR kernel itself (two nonzeros an\n"
	"iteration) can beat every shape: --vs-csr compares it.  The cost\n"
	"of the prediction is reported in SpMV equivalents (prediction wall\n"
	"time / the median CPU time of one measured CSR SpMV).  The shapes\n"
	"predicted within 15% of the pick are listed as close (JSON:\n"
	"candidates); measuring those few (--measure-close) settles the\n"
	"choice.  With a machine file that carries a validation of the picks\n"
	"(machines/README.md), \"trust\" says what they reached of the\n"
	"measured best there (JSON: validation).\n"
	"\n"
	"options:\n"
	"  -m, --machine FILE   machine file (required)\n"
	"      --measure        also run all 64 natively: GFLOPS per shape,\n"
	"                       the best, the pick's share; then the 4\n"
	"                       fastest and the pick head to head (paired)\n"
	"      --measure-close  run only the pick and the close shapes\n"
	"                       natively and name the fastest of them the\n"
	"                       choice; its cost (prediction and measurement)\n"
	"                       is reported beside the prediction's\n"
	"      --vs-csr         also predict the CSR kernel as ppr predict\n"
	"                       does (costlier than the 64 shapes; reported\n"
	"                       apart) and advise the pick or CSR (JSON:\n"
	"                       csr_kernel)\n"
	"      --tie F          shapes predicted within F of the fastest are\n"
	"                       a tie, and the pick is the one of least fill\n"
	"                       (the least work) among them (default 0.02;\n"
	"                       0: the fastest)\n"
	"      --margin F       close: predicted within F of the pick's time\n"
	"                       (default 0.15)\n"
	"      --reps N         timed samples per shape and round, and of the\n"
	"                       CSR SpMV for the cost (default 5); a sample\n"
	"                       runs the kernel for at least 0.2 ms\n"
	"      --rounds N       measurement rounds over the shapes run, each in\n"
	"                       a different order (default 3): rounds x reps\n"
	"                       samples per shape, interleaved between the\n"
	"                       shapes; a shape's figure is its least CPU\n"
	"                       time per SpMV.  Each sample follows 50\n"
	"                       untimed runs (or 30 ms); the samples rotate\n"
	"                       over the kernel's 4 code placements, the\n"
	"                       fastest kept (ppr measure --code-offset)\n"
	"      --sample F       fraction of rows simulated (default: auto:\n"
	"                       block counts over 4,000 nonzeros, again over\n"
	"                       8,000 when the pick is within two standard\n"
	"                       errors of another shape; rows many times\n"
	"                       longer than the mean counted apart, whole;\n"
	"                       x's misses simulated over 1,000 nonzeros,\n"
	"                       not at all when the matrix fits in L2)\n"
	"      --cpu N          measure (the CSR SpMV of the cost, and with\n"
	"                       --measure the shapes) on CPU N only; the\n"
	"                       prediction still uses --threads CPUs\n"
	"      --threads N      threads for the prediction, 1..8 (default:\n"
	"                       $PPR_THREADS, else the online CPUs, at most\n"
	"                       8); the result does not depend on it\n"
	"      --top N          table: rows shown (default 10; 64 = all)\n"
	"      --svg FILE       8x8 heatmap of the predicted GFLOP/s per shape,\n"
	"                       the pick marked (with --measure, the measured\n"
	"                       grid beside it, its best marked)\n"
	"  -f, --format FMT     table | csv | json (default table)\n"
	"  -o, --output FILE    write the result to FILE\n"
	"  -h, --help           show this help\n";

/* the rest of --help, apart: C99 compilers need not accept a string
 * literal over 4095 bytes */
static const char usage_env[] =
	"\n"
	"environment:\n"
	"  PPR_THREADS          threads, as --threads\n"
	"  PPR_CACHE_DIR        where the in-core schedules are cached (empty:\n"
	"                       no cache; default $XDG_CACHE_HOME/ppr, else\n"
	"                       ~/.cache/ppr); a built-in core model's are in\n"
	"                       the program (computed when it was built)\n"
	"  PPR_COUNT_PORTABLE   1: count blocks with the portable code instead\n"
	"                       of the AVX2 one (the same counts)\n";

struct meas {
	int have;		/* all 64 measured (--measure) */
	unsigned char measured[64];	/* shapes with a measured figure */
	double gflops[64];	/* at the shape's fastest code placement */
	/* per code placement (kernels.h); 0 when none was timed */
	double gflops_at[64][KERNEL_CODE_OFFSETS];
	unsigned nplaces;	/* placed copies timed (0: the linker's) */
	double csr_time_s;   /* one CSR SpMV: median CPU time */
	double csr_after_s;  /* the same after the shapes measured */
	double csr_gflops;   /* --vs-csr: the CSR kernel, measured among
				the shapes as they are (0: not measured) */
	double wall_s;       /* the measurement's wall time */
	unsigned best;
	int cpu;             /* --cpu, -1: not pinned */
};

/* Wall time: what a measurement costs the user. */
static double now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Thread CPU time: a shape's samples do not count the time the thread
 * waits for a core on a shared machine. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define MEAS_SAMPLE_S 2e-4  /* a sample runs the kernel at least this long */
#define PLACE_CYCLE (-2)    /* measure_round: every code placement in turn */
/*
 * Untimed runs before a sample: the branch predictor relearns a kernel's
 * loop exits over its first runs after other code ran (wiki-Vote 1x1, one
 * run after 5x5 and 3x2: 133, 93, 77, 71, 67, 65, 65, 64 us; 2x1 148, 115,
 * 59, 55, 54, 54 us; 2026-11-24), and the model predicts the learned state
 * of repeated SpMVs.  So every sample follows MEAS_WARM_RUNS runs, or a
 * sample's worth if that is more.  Six runs were not enough where the
 * other code is the same kernel at another code placement, whose exits
 * the predictor holds under the same histories (2026-11-27, CPU 1,
 * --measure-close, GFLOPS at placement 32 after 6 / 12 / 25 / 50 / 200
 * runs): de2010 2x1 2.56 / 3.11 / 3.32 / 3.34 / 3.33, as `ppr measure
 * --warmup 6` times it in a process of its own (3.38); vsp_sctap 2x1
 * 2.64 / - / - / 2.72 / 2.75; vt2010 2x1 2.25 / - / - / 2.30 / 2.32,
 * its 3x1 and 4x1 within 1% of 6's.  Hence 50.
 */
#define MEAS_WARM_RUNS 50
/* ...but a run this long is a warm-up by itself: most of its exits are
 * learned within it, and 50 runs of a large high-fill shape would take
 * seconds per sample (30 ms: 50 runs of 0.6 ms, ct2010's CSR SpMV). */
#define MEAS_WARM_S 30e-3

/* Untimed runs: MEAS_WARM_RUNS (or n if more), stopping early once they
 * have taken MEAS_WARM_S. */
static void warm_runs(struct kernel_run *run, unsigned n)
{
	unsigned i, want = n > MEAS_WARM_RUNS ? n : MEAS_WARM_RUNS;
	double t0 = cpu_now();

	for (i = 0; i < want; i++) {
		kernel_run_native(run);
		if (cpu_now() - t0 >= MEAS_WARM_S)
			break;
	}
}

/* One sample of a built run: n back-to-back SpMVs, CPU time per SpMV. */
static double sample_run(struct kernel_run *run, unsigned n)
{
	double t0, t1;
	unsigned i;

	t0 = cpu_now();
	for (i = 0; i < n; i++)
		kernel_run_native(run);
	t1 = cpu_now();
	return (t1 - t0) / n;
}

/* Build the run of shape r x c (r = 0: the CSR kernel) on the loaded
 * matrix, time one SpMV, and set *n to the SpMVs a sample of
 * MEAS_SAMPLE_S takes. */
static int build_run(const struct csr *a, const char *input, unsigned r,
		     unsigned c, struct kernel_run **run, unsigned *n,
		     struct ppr_err *err)
{
	struct kernel_params p;
	double t;
	int rc;

	memset(&p, 0, sizeof(p));
	p.kernel = r ? "spmv-bcsr" : "spmv-csr";
	p.input = input;
	p.csr = a;
	p.block_r = r;
	p.block_c = c;
	rc = kernel_run_new(&p, run, err);
	if (rc)
		return rc;
	kernel_run_reset(*run);
	t = sample_run(*run, 1);
	*n = t < MEAS_SAMPLE_S ? (unsigned)fmin(1000.0, ceil(MEAS_SAMPLE_S /
							  fmax(t, 1e-8))) : 1;
	return 0;
}

/*
 * One round of one shape (r = c = 0: the CSR kernel): build the run on the
 * loaded matrix, untimed runs (warm_runs), then reps samples of n back-to-back
 * SpMVs (n so that a sample lasts MEAS_SAMPLE_S); the least CPU time per
 * SpMV.  times[] gets every sample's time per SpMV when not NULL.  place:
 * the code placement (kernel_run_set_code_offset), or PLACE_CYCLE for
 * sample k at placement (cycle0 + k) mod the copies, with min_at[] (when
 * not NULL) the least time per placement.
 */
static int measure_round(const struct csr *a, const char *input,
			 unsigned r, unsigned c, unsigned reps, int place,
			 unsigned cycle0, double *min_s, double *times,
			 double *flops, double *min_at, struct ppr_err *err)
{
	struct kernel_run *run = NULL;
	unsigned k, n;
	double best = INFINITY;
	int rc, nplace;

	rc = build_run(a, input, r, c, &run, &n, err);
	if (rc)
		return rc;
	nplace = kernel_run_code_offsets(run);
	if (place != PLACE_CYCLE)
		kernel_run_set_code_offset(run, place);
	if (place != PLACE_CYCLE || nplace <= 0)
		warm_runs(run, n);
	for (k = 0; k < reps; k++) {
		double t;
		int pk = -1;

		if (place == PLACE_CYCLE && nplace > 0) {
			/* new code addresses: the exits are learned anew */
			pk = (int)((cycle0 + k) % (unsigned)nplace);
			kernel_run_set_code_offset(run, pk);
			warm_runs(run, n);
		}
		t = sample_run(run, n);
		if (times)
			times[k] = t;
		if (t < best)
			best = t;
		if (min_at && pk >= 0 && pk < KERNEL_CODE_OFFSETS &&
		    t < min_at[pk])
			min_at[pk] = t;
	}
	*flops = kernel_run_flops(run);
	kernel_run_free(run);
	*min_s = best;
	return 0;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Median of n values (sorted in place). */
static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/*
 * The CSR SpMV time for the cost: median of reps samples (CPU time) of the
 * fastest code placement (two samples of each decide which), so the cost
 * divides by what CSR can do, not by a slow placement's time.
 */
static int measure_csr(const struct csr *a, const char *input,
		       unsigned reps, double *median_s, struct ppr_err *err)
{
	double *t = calloc(reps, sizeof(*t)), mn, fl;
	double at[KERNEL_CODE_OFFSETS];
	int rc, k, best = -1;

	if (!t)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "out of memory");
	for (k = 0; k < KERNEL_CODE_OFFSETS; k++)
		at[k] = INFINITY;
	rc = measure_round(a, input, 0, 0, 2 * KERNEL_CODE_OFFSETS, PLACE_CYCLE, 0,
			   &mn, NULL, &fl, at, err);
	for (k = 0; !rc && k < KERNEL_CODE_OFFSETS; k++)
		if (at[k] < INFINITY && (best < 0 || at[k] < at[best]))
			best = k;
	if (!rc)
		rc = measure_round(a, input, 0, 0, reps, best, 0, &mn, t, &fl,
				   NULL, err);
	if (!rc) {
		*median_s = median_of(t, reps);
	}
	free(t);
	return rc;
}

/* Matrices up to this many nonzeros keep the 64 BCSR copies at once
 * (about 64 x 24 B per nonzero with a fill of 2: 650k -> 1 GB). */
#define KEEP_ALL_NNZ 650000

/* measured: the 64 shapes and the CSR kernel (index 64, --vs-csr) */
#define NMEAS 65

/*
 * The shapes asked for (want[]: all 64, or the candidates), robust on a
 * shared machine.  A shape's figure is its
 * least CPU time per SpMV over all its samples (other programs only ever
 * slow a sample down), and the samples of the shapes are interleaved
 * in time, so a burst of load from other programs falls on every shape
 * alike: small matrices keep the BCSR copies and take one sample of
 * each shape in turn (rounds x reps passes, each in a different order);
 * larger ones run `rounds` rounds over the shapes (reps samples each,
 * rebuilt each round), each round in a different order.  Each shape's
 * samples go to its code placements in turn (kernels/spmv_place.c: the
 * same kernel can run up to 2x faster at another offset in its cache
 * line), and its figure is the fastest placement's: the shape's speed,
 * not the build's luck.  want[64] asks for the CSR kernel too (--vs-csr),
 * measured the same way among the shapes (me->csr_gflops).
 */
static int measure_shapes(const struct csr *a, const char *input,
			  unsigned reps, unsigned rounds,
			  const unsigned char *want, struct meas *me,
			  struct ppr_err *err)
{
	double best_t[NMEAS], at[NMEAS][KERNEL_CODE_OFFSETS], fl = 0;
	unsigned k, i, rd, j, nplace = 0;
	int rc = 0;

	for (i = 0; i < NMEAS; i++) {
		best_t[i] = INFINITY;
		for (j = 0; j < KERNEL_CODE_OFFSETS; j++)
			at[i][j] = INFINITY;
	}
	if (a->nnz <= KEEP_ALL_NNZ) {
		struct kernel_run *run[NMEAS] = { NULL };
		unsigned n[NMEAS], pass, npass = rounds * reps;

		for (i = 0; i < NMEAS && !rc; i++) {
			if (!want[i])
				continue;
			if (i < 64)
				progress(0, "ppr bcsr: building %ux%u",
					 i / 8 + 1, i % 8 + 1);
			rc = build_run(a, input, i < 64 ? i / 8 + 1 : 0,
				       i < 64 ? i % 8 + 1 : 0, &run[i], &n[i],
				       err);
			if (rc)
				break;
			nplace = (unsigned)kernel_run_code_offsets(run[i]);
			if (nplace > KERNEL_CODE_OFFSETS)
				nplace = KERNEL_CODE_OFFSETS;
			if (i < 64)
				fl = kernel_run_flops(run[i]);
		}
		/* every placement at least once */
		if (npass < nplace)
			npass = nplace;
		for (pass = 0; pass < npass && !rc; pass++) {
			progress(pass + 1 == npass,
				 "ppr bcsr: measuring pass %u/%u", pass + 1,
				 npass);
			for (k = 0; k < NMEAS; k++) {
				double t;

				/* a different rotation each pass, every
				 * other pass backwards */
				i = (pass % 2 ? NMEAS - 1 - k : k) + pass * 23;
				i %= NMEAS;
				if (!want[i])
					continue;
				if (nplace)
					kernel_run_set_code_offset(run[i],
						(int)(pass % nplace));
				/* untimed runs first: the previous sample
				 * was another shape's, and the model
				 * predicts the steady state of repeated
				 * SpMVs (caches and learned branches), not
				 * the first runs from colder levels */
				warm_runs(run[i], n[i]);
				t = sample_run(run[i], n[i]);
				if (t < best_t[i])
					best_t[i] = t;
				if (nplace && t < at[i][pass % nplace])
					at[i][pass % nplace] = t;
			}
		}
		for (i = 0; i < NMEAS; i++)
			kernel_run_free(run[i]);
		progress_end();
		if (rc)
			return rc;
	} else {
		/* every placement at least once */
		unsigned klast = NMEAS - 1; /* the last round's last one */

		while (rounds * reps < KERNEL_CODE_OFFSETS)
			rounds++;
		while (klast > 0 &&
		       !want[(klast + (rounds - 1) * 23) % NMEAS])
			klast--;
		for (rd = 0; rd < rounds; rd++)
			for (k = 0; k < NMEAS; k++) {
				double t, f;

				i = (k + rd * 23) % NMEAS;
				if (!want[i])
					continue;
				if (i < 64)
					progress(rd + 1 == rounds &&
						 k == klast, "ppr bcsr: "
						 "measuring round %u/%u, %ux%u",
						 rd + 1, rounds, i / 8 + 1,
						 i % 8 + 1);
				else
					progress(rd + 1 == rounds &&
						 k == klast, "ppr bcsr: "
						 "measuring round %u/%u, CSR",
						 rd + 1, rounds);
				rc = measure_round(a, input,
						   i < 64 ? i / 8 + 1 : 0,
						   i < 64 ? i % 8 + 1 : 0, reps,
						   PLACE_CYCLE, rd * reps, &t,
						   NULL, &f, at[i], err);
				if (i < 64)
					fl = f;
				if (rc) {
					progress_end();
					return rc;
				}
				if (t < best_t[i])
					best_t[i] = t;
			}
		progress_end();
	}
	me->nplaces = 0;
	for (i = 0; i < 64; i++)
		for (j = 0; j < KERNEL_CODE_OFFSETS; j++) {
			me->gflops_at[i][j] = at[i][j] < INFINITY ?
					      fl / at[i][j] * 1e-9 : 0;
			if (at[i][j] < INFINITY && j + 1 > me->nplaces)
				me->nplaces = j + 1;
		}
	me->best = 64;
	for (i = 0; i < 64; i++) {
		me->measured[i] = want[i] && best_t[i] < INFINITY;
		me->gflops[i] = me->measured[i] && best_t[i] > 0 ?
				fl / best_t[i] * 1e-9 : 0;
		if (me->measured[i] && (me->best == 64 ||
					me->gflops[i] > me->gflops[me->best]))
			me->best = i;
	}
	if (me->best == 64)
		me->best = 0;
	me->csr_gflops = want[64] && best_t[64] < INFINITY && best_t[64] > 0 ?
			 fl / best_t[64] * 1e-9 : 0;
	return 0;
}

/*
 * Head to head (--measure): the measured fastest shapes and the pick timed
 * again side by side.  A shape's figure above is its least time, and the
 * shapes' samples lie seconds to minutes apart: on a shared machine whose
 * speed moves (this guest's runs 0.6x-1x of their usual speed for minutes
 * at a time), a shape that caught the one fast spell of a slow stretch
 * ranks first (2026-12-05 07:55, vt2010: 5x1 at 2.25 GFLOPS at one code
 * placement, 1.35-1.60 at the other three, 4x1 at most 1.95; in five
 * passes before 4x1 measured 3.1-3.3 and 5x1 2.5-2.7).  Here the
 * finalists (PAIR_TOP fastest and the pick, each at its fastest code
 * placement) run in turn, PAIR_PASSES passes in rotated orders, each sample
 * after its warm-up runs; per pass each finalist's speed is taken
 * relative to the geometric mean of the pass, and its figure is the median
 * of those over the passes: what a slow or fast spell does to a whole pass
 * cancels.  The shares of the head to head are the pick's relative speed
 * over the fastest finalist's (JSON paired.share_of_best); share_of_best keeps
 * the least-time figures.
 */
#define PAIR_TOP 4
#define PAIR_PASSES 7
#define PAIR_MAX (PAIR_TOP + 1)

struct paired {
	int have;
	unsigned n;                 /* finalists */
	unsigned shape[PAIR_MAX];   /* their shape indices (r - 1) * 8 + c - 1 */
	int place[PAIR_MAX];        /* the code placement timed (-1: linker's) */
	double rel[PAIR_MAX];       /* median relative speed over the passes */
	unsigned best;              /* the fastest finalist (shape index) */
	double share;               /* the pick's rel over the best's */
	double wall_s;
};

static const double *pair_sort_g;

static int cmp_dbl_desc_idx_gflops(const void *x, const void *y)
{
	unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
	double ga = pair_sort_g[a], gb = pair_sort_g[b];

	if (ga != gb)
		return ga < gb ? 1 : -1;
	return (a > b) - (a < b);
}

/* The finalists: the PAIR_TOP measured fastest, then the pick if it is
 * not among them.  Returns how many. */
static unsigned pair_finalists(const struct meas *me, unsigned pick,
			       unsigned *out)
{
	unsigned idx[64], n = 0, i, k;

	for (i = 0; i < 64; i++)
		if (me->measured[i] && me->gflops[i] > 0)
			idx[n++] = i;
	pair_sort_g = me->gflops;
	qsort(idx, n, sizeof(idx[0]), cmp_dbl_desc_idx_gflops);
	k = n < PAIR_TOP ? n : PAIR_TOP;
	memcpy(out, idx, k * sizeof(*out));
	for (i = 0; i < k && out[i] != pick; i++)
		;
	if (i == k && pick < 64 && me->measured[pick])
		out[k++] = pick;
	return k;
}

static int measure_paired(const struct csr *a, const char *input,
			  const struct meas *me, unsigned pick,
			  struct paired *pr, struct ppr_err *err)
{
	struct kernel_run *run[PAIR_MAX] = { NULL };
	unsigned nrep[PAIR_MAX] = { 0 }, pass, k, i, j, n;
	double t[PAIR_PASSES][PAIR_MAX], rel[PAIR_PASSES], t0 = now_wall();
	int rc = 0, keep = a->nnz <= KEEP_ALL_NNZ;

	memset(pr, 0, sizeof(*pr));
	n = pair_finalists(me, pick, pr->shape);
	if (n < 2)
		return 0;
	pr->n = n;
	for (k = 0; k < n; k++) {
		unsigned s = pr->shape[k];

		pr->place[k] = -1;
		for (j = 0; j < me->nplaces && j < KERNEL_CODE_OFFSETS; j++)
			if (me->gflops_at[s][j] > 0 && (pr->place[k] < 0 ||
			    me->gflops_at[s][j] >
			    me->gflops_at[s][pr->place[k]]))
				pr->place[k] = (int)j;
	}
	/* small matrices: the finalists' runs built once */
	for (k = 0; keep && k < n && !rc; k++) {
		rc = build_run(a, input, pr->shape[k] / 8 + 1,
			       pr->shape[k] % 8 + 1, &run[k], &nrep[k], err);
		if (!rc)
			kernel_run_set_code_offset(run[k], pr->place[k]);
	}
	for (pass = 0; pass < PAIR_PASSES && !rc; pass++) {
		progress(pass + 1 == PAIR_PASSES, "ppr bcsr: head to head, "
			 "pass %u/%u", pass + 1, PAIR_PASSES);
		for (i = 0; i < n && !rc; i++) {
			/* a different rotation each pass, every other
			 * pass backwards */
			k = ((pass % 2 ? n - 1 - i : i) + pass) % n;
			if (keep) {
				double u;

				warm_runs(run[k], nrep[k]);
				u = sample_run(run[k], nrep[k]);
				t[pass][k] = fmin(u, sample_run(run[k],
								nrep[k]));
			} else {
				double fl;

				rc = measure_round(a, input,
						   pr->shape[k] / 8 + 1,
						   pr->shape[k] % 8 + 1, 2,
						   pr->place[k], 0, &t[pass][k],
						   NULL, &fl, NULL, err);
			}
		}
	}
	progress_end();
	for (k = 0; k < n; k++)
		kernel_run_free(run[k]);
	if (rc)
		return rc;
	for (k = 0; k < n; k++) {
		for (pass = 0; pass < PAIR_PASSES; pass++) {
			double lg = 0;

			for (j = 0; j < n; j++)
				lg += log(t[pass][j]);
			rel[pass] = exp(lg / n) / t[pass][k];
		}
		pr->rel[k] = median_of(rel, PAIR_PASSES);
	}
	for (k = 1, j = 0; k < n; k++)
		if (pr->rel[k] > pr->rel[j])
			j = k;
	pr->best = pr->shape[j];
	/* the pick is a finalist (pair_finalists) */
	for (k = 0; k < n && pr->shape[k] != pick; k++)
		;
	pr->share = k < n && pr->rel[j] > 0 ? pr->rel[k] / pr->rel[j] : 0;
	pr->wall_s = now_wall() - t0;
	pr->have = 1;
	return 0;
}

/*
 * --vs-csr: the CSR kernel, predicted as `ppr predict -k spmv-csr` predicts
 * it (the whole instrumented run simulated, steady state), set against
 * the pick, which is advised from MODEL_BCSR_ADVICE_MIN (model/predict.h)
 * over it, as ppr predict's advice does.
 */
struct csr_cmp {
	int have;
	double time_s, gflops;  /* the CSR kernel, predicted */
	double speedup;         /* its time / the pick's predicted time */
	double wall_s;          /* the prediction's wall time */
};

static int predict_csr(const struct machine *m, const struct csr *a,
		       const char *input, const struct model_bcsr_result *res,
		       struct csr_cmp *cc, struct ppr_err *err)
{
	struct model_prediction *pr = malloc(sizeof(*pr));
	struct model_predict_opts po = { 0 };
	struct kernel_params kp;
	double t0 = now_wall(), tp = res->shape[res->pick].time_s;
	int rc;

	if (!pr)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "out of memory");
	memset(&kp, 0, sizeof(kp));
	kp.kernel = "spmv-csr";
	kp.input = input;
	kp.csr = a;
	fprintf(stderr, "ppr bcsr: predicting the CSR kernel (--vs-csr)\n");
	rc = model_predict(m, &kp, &po, pr, err);
	if (!rc) {
		cc->have = 1;
		cc->time_s = pr->ppr.time_s;
		cc->gflops = pr->ppr.gflops;
		cc->speedup = tp > 0 ? cc->time_s / tp : 1;
		cc->wall_s = now_wall() - t0;
	}
	free(pr);
	return rc;
}

/* Two CSR times of one run more than 20% apart (the guest's slow spells
 * move short-row SpMVs by up to 2x; repeats on a quiet machine stay within
 * a few per cent). */
static int speed_moved(double before, double after)
{
	double lo = fmin(before, after), hi = fmax(before, after);

	return lo > 0 && hi > 1.2 * lo;
}

/* The table's line on code placement: the shape it moved most. */
static void placement_note(FILE *out, const struct meas *me)
{
	unsigned i, k, worst = 0;
	double wr = 1.0;

	for (i = 0; i < 64; i++) {
		double lo = INFINITY, hi = 0;

		for (k = 0; k < me->nplaces; k++) {
			double g = me->gflops_at[i][k];

			if (g <= 0)
				continue;
			lo = g < lo ? g : lo;
			hi = g > hi ? g : hi;
		}
		if (hi > 0 && hi / lo > wr) {
			wr = hi / lo;
			worst = i;
		}
	}
	if (me->cpu >= 0)
		fprintf(out, "measured on CPU %d only (--cpu)\n", me->cpu);
	fprintf(out, "measured at %u code placements per shape, the fastest "
		"kept; placement moved %ux%u most (%.2fx)\n", me->nplaces,
		worst / 8 + 1, worst % 8 + 1, wr);
}

/* The ranking: the pick first (it may be up to the tie slower than the
 * fastest), then by predicted cycles. */
static int cmp_pred(const void *a, const void *b, void *ctx)
{
	const struct model_bcsr_result *r = ctx;
	unsigned i = *(const unsigned *)a, j = *(const unsigned *)b;
	double x = r->shape[i].cycles, y = r->shape[j].cycles;

	if (i == r->pick || j == r->pick)
		return (j == r->pick) - (i == r->pick);
	return (x > y) - (x < y);
}

static const struct model_bcsr_result *sort_ctx;

static int cmp_pred_q(const void *a, const void *b)
{
	return cmp_pred(a, b, (void *)sort_ctx);
}

/* The heatmap of the 64 shapes (cli/plot.h); 0 or 1 after a message. */
static int bcsr_svg_write(const char *path, const char *input,
			  const char *machine,
			  const struct model_bcsr_result *res,
			  const struct meas *me)
{
	struct heat_grid pred, meas;
	struct ppr_err err = { 0 };
	char title[512];
	unsigned i;
	FILE *f;
	int rc;

	heat_grid_clear(&pred);
	heat_grid_clear(&meas);
	for (i = 0; i < 64; i++) {
		pred.v[i / 8][i % 8] = res->shape[i].gflops;
		if (me->have)
			meas.v[i / 8][i % 8] = me->gflops[i];
	}
	pred.mark_r = (int)(res->pick / 8) + 1;
	pred.mark_c = (int)(res->pick % 8) + 1;
	if (me->have) {
		meas.mark_r = (int)(me->best / 8) + 1;
		meas.mark_c = (int)(me->best % 8) + 1;
	}
	snprintf(title, sizeof(title), "BCSR shapes: %s on %s", input,
		 machine);
	f = cli_open_out(path);
	if (!f)
		return 1;
	rc = plot_heatmap_write(f, title, &pred, me->have ? &meas : NULL, &err);
	if (rc != 0) {
		cli_error_err(&err);
		if (f != stdout)
			fclose(f);
		return 1;
	}
	return cli_close_out(f, path);
}

/*
 * How far the pick may be from the best: the machine file's validation
 * ("bcsr_pick", machines/README.md), what the picks reached of the
 * measured best on the matrices of bench/predict_bcsr.sh.
 */
static void print_trust(FILE *out, const struct machine *m)
{
	const struct machine_val_bcsr *b = &m->val_bcsr;
	char when[512];

	if (!b->have) {
		fprintf(out, "trust:   not known: this machine file has no "
			"validation of the picks (bench/predict_bcsr.sh with "
			"VALIDATION=FILE measures one)\n");
		return;
	}
	fprintf(out, "trust:   on this file's validation%s, the pick reached "
		"%.3f of the measured best on average, 0.95 or more on %u of "
		"%u matrices, %.3f at least",
		machine_val_when(when, sizeof(when), b->date, b->command),
		b->mean_share, b->at_least_95, b->matrices, b->min_share);
	if (b->min_matrix[0])
		fprintf(out, " (%s%s%s%s%s)", b->min_matrix,
			b->min_pick[0] ? ": " : "", b->min_pick,
			b->min_pick[0] && b->min_best[0] ? " picked, best " : "",
			b->min_pick[0] ? b->min_best : "");
	if (b->close_min_share > 0)
		fprintf(out, "; measuring the close shapes too "
			"(--measure-close) reached %.3f at least",
			b->close_min_share);
	fputc('\n', out);
}

static void json_trust(cJSON *root, const struct machine *m)
{
	if (!m->val_bcsr.have)
		cJSON_AddNullToObject(root, "validation");
	else
		cJSON_AddItemToObject(root, "validation",
				      machine_val_bcsr_json(&m->val_bcsr));
}

int cmd_bcsr(int argc, char **argv)
{
	enum { OPT_MEASURE = 256, OPT_REPS, OPT_ROUNDS, OPT_SAMPLE,
	       OPT_THREADS, OPT_TOP, OPT_SVG, OPT_MEASURE_CLOSE, OPT_MARGIN,
	       OPT_VS_CSR,
	       OPT_CPU, OPT_TIE };
	static const struct option long_opts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "measure", no_argument, NULL, OPT_MEASURE },
		{ "measure-close", no_argument, NULL, OPT_MEASURE_CLOSE },
		{ "vs-csr", no_argument, NULL, OPT_VS_CSR },
		{ "margin", required_argument, NULL, OPT_MARGIN },
		{ "tie", required_argument, NULL, OPT_TIE },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "rounds", required_argument, NULL, OPT_ROUNDS },
		{ "sample", required_argument, NULL, OPT_SAMPLE },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mpath = NULL, *outpath = NULL, *input, *svgpath = NULL;
	enum cli_format fmt = CLI_FMT_TABLE;
	struct model_bcsr_opts bo = { 0 };
	struct model_bcsr_result *res = NULL;
	struct meas *me = NULL;
	struct machine m;
	struct csr a = { 0 };
	struct ppr_err err;
	unsigned long long v;
	unsigned reps = 5, rounds = 3, top = 10, order[64], ncand, i;
	unsigned choice = 64;   /* the fastest measured candidate (64: none) */
	unsigned char want[NMEAS];
	int c, do_measure = 0, do_close = 0, rc = 1, cpu = -1, vs_csr = 0;
	struct csr_cmp cc = { 0 };
	struct paired pr = { 0 };
	double cost, margin = CAND_MARGIN;
	FILE *out;

	memset(&err, 0, sizeof(err));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hm:f:o:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			fputs(usage_env, stdout);
			return 0;
		case 'm':
			mpath = optarg;
			break;
		case OPT_MEASURE:
			do_measure = 1;
			break;
		case OPT_MEASURE_CLOSE:
			do_close = 1;
			break;
		case OPT_VS_CSR:
			vs_csr = 1;
			break;
		case OPT_MARGIN:
			if (cli_parse_double(optarg, &margin) ||
			    !(margin >= 0 && margin <= 1))
				return cli_usage_error(usage_text, "--margin '%s': "
						       "expected a fraction in "
						       "[0, 1]", optarg);
			break;
		case OPT_TIE:
			if (cli_parse_double(optarg, &bo.tie) ||
			    !(bo.tie >= 0 && bo.tie <= 1))
				return cli_usage_error(usage_text, "--tie '%s': "
						       "expected a fraction in "
						       "[0, 1]", optarg);
			if (bo.tie == 0)
				bo.tie = -1;    /* none: the fastest */
			break;
		case OPT_REPS:
			if (cli_parse_u64(optarg, &v) || !v || v > 100000)
				return cli_usage_error(usage_text, "--reps '%s': "
						       "expected 1..100000", optarg);
			reps = (unsigned)v;
			break;
		case OPT_ROUNDS:
			if (cli_parse_u64(optarg, &v) || !v || v > 1000)
				return cli_usage_error(usage_text, "--rounds '%s': "
						       "expected 1..1000", optarg);
			rounds = (unsigned)v;
			break;
		case OPT_SAMPLE:
			if (cli_parse_double(optarg, &bo.sample) ||
			    !(bo.sample > 0 && bo.sample <= 1))
				return cli_usage_error(usage_text, "--sample '%s': "
						       "expected a fraction in "
						       "(0, 1]", optarg);
			break;
		case OPT_CPU: {
			char msg[256];

			if (cli_check_cpu(optarg, &cpu, msg, sizeof(msg)))
				return cli_usage_error(usage_text, "--cpu: %s",
						       msg);
			break;
		}
		case OPT_THREADS:
			if (cli_parse_u64(optarg, &v) || !v || v > 8)
				return cli_usage_error(usage_text, "--threads '%s': "
						       "expected 1..8", optarg);
			bo.threads = (unsigned)v;
			break;
		case OPT_TOP:
			if (cli_parse_u64(optarg, &v) || !v)
				return cli_usage_error(usage_text, "--top '%s': "
						       "expected a positive "
						       "integer", optarg);
			top = v > 64 ? 64 : (unsigned)v;
			break;
		case 'f':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_text, "--format '%s': "
						       "expected table, csv or "
						       "json", optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		case OPT_SVG:
			svgpath = optarg;
			break;
		default:
			return cli_usage_error(usage_text, "unknown or "
					       "incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (!mpath)
		return cli_usage_error(usage_text, "--machine is required");
	if (optind != argc - 1)
		return cli_usage_error(usage_text, "one MATRIX argument (file "
				       "or gen:...) is required");
	input = argv[optind];
	if (cli_check_gen(usage_text, input))
		return 2;
	if (!bo.threads && model_threads_default(&bo.threads, &err))
		return cli_error_err(&err);
	if (machine_load(mpath, &m, &err))
		return cli_error_err(&err);
	res = calloc(1, sizeof(*res));
	me = calloc(1, sizeof(*me));
	if (!res || !me) {
		rc = cli_error("out of memory");
		goto done;
	}
	if (matrix_load(input, &a, NULL, &err)) {
		rc = cli_error_err(&err);
		goto done;
	}
	if (!a.nnz) {
		rc = cli_error("%s: the matrix has no nonzeros: no BCSR shape "
			       "to pick", input);
		goto done;
	}
	fprintf(stderr, "ppr bcsr: predicting 64 shapes of %s\n", input);
	if (model_bcsr_select(&m, &a, &bo, res, &err)) {
		rc = cli_error_err(&err);
		goto done;
	}
	if (vs_csr && predict_csr(&m, &a, input, res, &cc, &err)) {
		rc = cli_error_err(&err);
		goto done;
	}
	/* the measurements on --cpu's CPU (the prediction's threads are
	 * done) */
	me->cpu = cpu;
	if (cpu >= 0 && cli_pin_cpu(cpu))
		goto done;
	/* one CSR SpMV, for the cost in SpMV equivalents */
	if (measure_csr(&a, input, reps, &me->csr_time_s, &err)) {
		rc = cli_error_err(&err);
		goto done;
	}
	cost = me->csr_time_s > 0 ? res->wall_s / me->csr_time_s : 0;
	for (i = 0; i < 64; i++)
		order[i] = i;
	sort_ctx = res;
	qsort(order, 64, sizeof(order[0]), cmp_pred_q);
	/* the candidates: the pick and the shapes predicted within the
	 * margin, order[0 .. ncand) */
	for (ncand = 1; ncand < 64 && res->shape[order[ncand]].time_s <=
	     res->shape[order[0]].time_s * (1 + margin); ncand++)
		;
	for (i = 0; i < 64; i++)
		want[i] = (unsigned char)do_measure;
	for (i = 0; i < ncand; i++)
		want[order[i]] = 1;
	want[64] = (unsigned char)vs_csr;       /* the CSR kernel */
	if (do_measure || do_close) {
		double t0 = now_wall();

		if (!do_measure)
			fprintf(stderr, "ppr bcsr: measuring the pick and %u "
				"close shape%s\n", ncand - 1,
				ncand == 2 ? "" : "s");
		if (measure_shapes(&a, input, reps, rounds, want, me,
				   &err)) {
			rc = cli_error_err(&err);
			goto done;
		}
		me->wall_s = now_wall() - t0;
		me->have = do_measure;
		for (i = 0; i < ncand; i++)
			if (me->measured[order[i]] &&
			    (choice == 64 || me->gflops[order[i]] >
					     me->gflops[choice]))
				choice = order[i];
		/* the CSR time again: a shared machine whose speed moved
		 * during the measurement makes the shares unreliable, and
		 * the user should know */
		if (measure_csr(&a, input, reps, &me->csr_after_s, &err)) {
			rc = cli_error_err(&err);
			goto done;
		}
		if (speed_moved(me->csr_time_s, me->csr_after_s))
			cli_warn("the machine's speed moved during the "
				 "measurement (CSR SpMV %.4g s before the "
				 "shapes, %.4g s after): the measured shares "
				 "may be off; measure again on a quieter "
				 "machine", me->csr_time_s, me->csr_after_s);
		/* the fastest and the pick again, side by side */
		if (do_measure &&
		    measure_paired(&a, input, me, res->pick, &pr, &err)) {
			rc = cli_error_err(&err);
			goto done;
		}
	}
	matrix_csr_release(&a);

	out = cli_open_out(outpath);
	if (!out)
		goto done;
	if (fmt == CLI_FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *arr, *u;
		char buf[32], *s;

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "machine", m.name);
		cJSON_AddStringToObject(root, "matrix", input);
		u = cJSON_AddObjectToObject(root, "units");
		cJSON_AddStringToObject(u, "time_s", "s");
		cJSON_AddStringToObject(u, "tie", "fraction of the fastest "
					"shape's predicted time (0: the "
					"pick is the fastest)");
		cJSON_AddStringToObject(u, "gflops", "10^9 flop/s (2 nnz "
					"per SpMV, fill not counted)");
		cJSON_AddStringToObject(u, "cost_spmv_equivalents",
					"prediction wall time / median CSR "
					"SpMV CPU time");
		cJSON_AddStringToObject(u, "measured_gflops",
					"10^9 flop/s at the least thread CPU "
					"time per SpMV over all samples, at "
					"the shape's fastest code placement");
		cJSON_AddStringToObject(u, "relative_speed",
					"median over the head-to-head passes "
					"of the geometric mean time of the "
					"pass's finalists / the shape's time");
		{
			char ub[200];

			snprintf(ub, sizeof(ub), "--vs-csr: the CSR kernel "
				 "predicted as ppr predict -k spmv-csr; "
				 "pick_speedup = its time / the pick's; advice "
				 "bcsr when that is %.2f or more; measured "
				 "among the shapes, as they are",
				 MODEL_BCSR_ADVICE_MIN);
			cJSON_AddStringToObject(u, "csr_kernel", ub);
		}
		cJSON_AddStringToObject(u, "*_cycles", "core cycles of one "
					"SpMV (the shapes' process_, "
					"compute_, memory_instr_, core_, far_, "
					"stall_, t_regular_ and "
					"t_irregular_cycles)");
		cJSON_AddStringToObject(u, "measured_gflops_by_code_offset",
					"the same per code placement (key: "
					"bytes into a 64-byte line)");
		cJSON_AddStringToObject(u, "exit_changes", "changes of the "
					"block count between consecutive block "
					"rows in one SpMV (estimated from the "
					"sample): loop exits the branch "
					"predictor must learn; up to about "
					"learned_exit_changes a run it does, "
					"the others cost stall_cycles");
		cJSON_AddStringToObject(u, "bottleneck", "what sets the "
					"shape's predicted time (as ppr "
					"predict's bottleneck)");
		cJSON_AddNumberToObject(root, "learned_exit_changes",
					model_bcsr_learned_exits(&m));
		cJSON_AddNumberToObject(root, "rows", (double)res->rows);
		cJSON_AddNumberToObject(root, "cols", (double)res->cols);
		cJSON_AddNumberToObject(root, "nnz", (double)res->nnz);
		snprintf(buf, sizeof(buf), "%ux%u", res->shape[res->pick].r,
			 res->shape[res->pick].c);
		cJSON_AddStringToObject(root, "pick", buf);
		cJSON_AddNumberToObject(root, "tie", res->tie);
		cJSON_AddNumberToObject(root, "predicted_speedup", res->speedup);
		json_trust(root, &m);
		{
			cJSON *ca = cJSON_AddObjectToObject(root, "candidates");
			cJSON *cs = ca ? cJSON_AddArrayToObject(ca, "shapes") :
				    NULL;
			double t0 = res->shape[order[0]].time_s;

			if (ca)
				cJSON_AddNumberToObject(ca, "margin", margin);
			for (i = 0; cs && i < ncand; i++) {
				const struct model_bcsr_shape *sh =
					&res->shape[order[i]];
				cJSON *o = cJSON_CreateObject();

				snprintf(buf, sizeof(buf), "%ux%u", sh->r,
					 sh->c);
				cJSON_AddStringToObject(o, "shape", buf);
				cJSON_AddNumberToObject(o,
					"predicted_time_ratio",
					t0 > 0 ? sh->time_s / t0 : 1);
				if (me->measured[order[i]])
					cJSON_AddNumberToObject(o,
						"measured_gflops",
						me->gflops[order[i]]);
				cJSON_AddItemToArray(cs, o);
			}
			/* the fastest measured candidate, and what the pick
			 * reaches of it (and it of the best of all 64) */
			if (ca && choice < 64) {
				snprintf(buf, sizeof(buf), "%ux%u",
					 choice / 8 + 1, choice % 8 + 1);
				cJSON_AddStringToObject(ca, "choice", buf);
				cJSON_AddNumberToObject(ca,
					"pick_share_of_choice",
					me->gflops[res->pick] /
					me->gflops[choice]);
				if (me->have)
					cJSON_AddNumberToObject(ca,
						"choice_share_of_best",
						me->gflops[choice] /
						me->gflops[me->best]);
			} else if (ca) {
				cJSON_AddNullToObject(ca, "choice");
			}
		}
		cJSON_AddNumberToObject(root, "sample_fraction", res->sample);
		cJSON_AddBoolToObject(root, "sample_refined",
				      res->sample_refined);
		cJSON_AddNumberToObject(root, "long_rows",
					(double)res->long_rows);
		if (res->long_rows)
			cJSON_AddNumberToObject(root, "long_rows_counted_share",
						res->long_counted);
		cJSON_AddNumberToObject(root, "prediction_wall_s", res->wall_s);
		{
			static const char *const pn[4] = {
				"incore_points", "block_counts",
				"x_simulation", "evaluation" };
			cJSON *ph = cJSON_AddObjectToObject(root,
							    "prediction_parts_s");
			unsigned k;

			for (k = 0; ph && k < 4; k++)
				cJSON_AddNumberToObject(ph, pn[k],
							res->phase_s[k]);
		}
		cJSON_AddBoolToObject(root, "incore_cached",
				      res->incore_cached);
		cJSON_AddBoolToObject(root, "incore_builtin",
				      res->incore_builtin);
		cJSON_AddNumberToObject(root, "csr_spmv_time_s", me->csr_time_s);
		cli_json_cpu(root, me->cpu);
		if (choice < 64) {
			cJSON_AddNumberToObject(root, "csr_spmv_time_after_s",
						me->csr_after_s);
			cJSON_AddBoolToObject(root, "speed_moved",
				speed_moved(me->csr_time_s, me->csr_after_s));
		}
		cJSON_AddNumberToObject(root, "cost_spmv_equivalents", cost);
		if (cc.have) {
			cJSON *o = cJSON_AddObjectToObject(root, "csr_kernel");
			int pick_better =
				cc.speedup >= MODEL_BCSR_ADVICE_MIN;

			cJSON_AddNumberToObject(o, "predicted_time_s", cc.time_s);
			cJSON_AddNumberToObject(o, "predicted_gflops", cc.gflops);
			cJSON_AddNumberToObject(o, "pick_speedup", cc.speedup);
			cJSON_AddStringToObject(o, "advice", pick_better ?
						"bcsr" : "csr");
			cJSON_AddNumberToObject(o, "prediction_wall_s",
						cc.wall_s);
			if (me->csr_gflops > 0 && me->measured[res->pick]) {
				double gp = me->gflops[res->pick];

				cJSON_AddNumberToObject(o, "measured_gflops",
							me->csr_gflops);
				cJSON_AddNumberToObject(o,
					"measured_pick_speedup",
					gp / me->csr_gflops);
				cJSON_AddBoolToObject(o, "advice_right",
					pick_better == (gp > me->csr_gflops));
			}
		} else {
			cJSON_AddNullToObject(root, "csr_kernel");
		}
		if (choice < 64) {
			cJSON_AddNumberToObject(root, "measurement_wall_s",
						me->wall_s);
			cJSON_AddNumberToObject(root,
				"cost_with_measurement_spmv_equivalents",
				me->csr_time_s > 0 ? (res->wall_s + me->wall_s) /
						     me->csr_time_s : 0);
		}
		if (me->have) {
			snprintf(buf, sizeof(buf), "%ux%u", me->best / 8 + 1,
				 me->best % 8 + 1);
			cJSON_AddStringToObject(root, "measured_best", buf);
			cJSON_AddNumberToObject(root, "share_of_best",
				me->gflops[res->pick] / me->gflops[me->best]);
		} else {
			cJSON_AddNullToObject(root, "measured_best");
			cJSON_AddNullToObject(root, "share_of_best");
		}
		if (pr.have) {
			cJSON *po = cJSON_AddObjectToObject(root, "paired");
			cJSON *pa = cJSON_AddArrayToObject(po, "finalists");

			snprintf(buf, sizeof(buf), "%ux%u", pr.best / 8 + 1,
				 pr.best % 8 + 1);
			cJSON_AddStringToObject(po, "measured_best", buf);
			cJSON_AddNumberToObject(po, "share_of_best", pr.share);
			cJSON_AddNumberToObject(po, "passes", PAIR_PASSES);
			cJSON_AddNumberToObject(po, "wall_s", pr.wall_s);
			for (i = 0; i < pr.n; i++) {
				cJSON *f = cJSON_CreateObject();

				snprintf(buf, sizeof(buf), "%ux%u",
					 pr.shape[i] / 8 + 1,
					 pr.shape[i] % 8 + 1);
				cJSON_AddStringToObject(f, "shape", buf);
				if (pr.place[i] >= 0)
					cJSON_AddNumberToObject(f,
						"code_offset_bytes",
						pr.place[i] *
						KERNEL_CODE_OFFSET_STEP);
				else
					cJSON_AddNullToObject(f,
						"code_offset_bytes");
				cJSON_AddNumberToObject(f, "relative_speed",
							pr.rel[i]);
				cJSON_AddItemToArray(pa, f);
			}
		} else {
			cJSON_AddNullToObject(root, "paired");
		}
		arr = cJSON_AddArrayToObject(root, "shapes");
		for (i = 0; i < 64; i++) {
			const struct model_bcsr_shape *sh = &res->shape[order[i]];
			cJSON *o = cJSON_CreateObject();

			snprintf(buf, sizeof(buf), "%ux%u", sh->r, sh->c);
			cJSON_AddStringToObject(o, "shape", buf);
			cJSON_AddNumberToObject(o, "rank", i + 1);
			cJSON_AddNumberToObject(o, "nblocks", (double)sh->nblocks);
			cJSON_AddNumberToObject(o, "fill", sh->fill);
			cJSON_AddNumberToObject(o, "nblocks_rel_err",
						sh->nblocks_rel_err);
			cJSON_AddNumberToObject(o, "predicted_time_s", sh->time_s);
			cJSON_AddNumberToObject(o, "predicted_gflops", sh->gflops);
			cJSON_AddNumberToObject(o, "process_cycles", sh->dag_cycles);
			cJSON_AddNumberToObject(o, "compute_cycles",
						sh->compute_cycles);
			cJSON_AddNumberToObject(o, "memory_instr_cycles",
						sh->memory_instr_cycles);
			cJSON_AddNumberToObject(o, "core_cycles",
						sh->core_cycles);
			cJSON_AddNumberToObject(o, "far_cycles",
						sh->far_cycles);
			cJSON_AddNumberToObject(o, "stall_cycles",
						sh->stall_cycles);
			cJSON_AddNumberToObject(o, "exit_changes",
						sh->exit_changes);
			cJSON_AddStringToObject(o, "bottleneck",
				model_bottleneck_name(sh->bottleneck));
			cJSON_AddNumberToObject(o, "t_regular_cycles",
						sh->t_regular);
			cJSON_AddNumberToObject(o, "t_irregular_cycles",
						sh->t_irregular);
			if (me->measured[order[i]])
				cJSON_AddNumberToObject(o, "measured_gflops",
							me->gflops[order[i]]);
			if (me->measured[order[i]] && me->nplaces) {
				cJSON *po = cJSON_AddObjectToObject(o,
					"measured_gflops_by_code_offset");
				unsigned k;

				for (k = 0; po && k < me->nplaces; k++) {
					snprintf(buf, sizeof(buf), "%u",
						 k * KERNEL_CODE_OFFSET_STEP);
					cJSON_AddNumberToObject(po, buf,
						me->gflops_at[order[i]][k]);
				}
			}
			cJSON_AddItemToArray(arr, o);
		}
		s = cJSON_Print(root);
		if (s) {
			fputs(s, out);
			fputc('\n', out);
			free(s);
		}
		cJSON_Delete(root);
	} else if (fmt == CLI_FMT_CSV) {
		fputs("rank,shape,nblocks,fill,predicted_time_s,"
		      "predicted_gflops,measured_gflops,bottleneck,"
		      "exit_changes,stall_cycles\n", out);
		for (i = 0; i < 64; i++) {
			const struct model_bcsr_shape *sh = &res->shape[order[i]];

			fprintf(out, "%u,%ux%u,%llu,%.4f,%.6g,%.4f,", i + 1,
				sh->r, sh->c, (unsigned long long)sh->nblocks,
				sh->fill, sh->time_s, sh->gflops);
			if (me->measured[order[i]])
				fprintf(out, "%.4f", me->gflops[order[i]]);
			fprintf(out, ",%s,%.0f,%.0f\n",
				model_bottleneck_name(sh->bottleneck),
				sh->exit_changes, sh->stall_cycles);
		}
	} else {
		const struct model_bcsr_shape *pk = &res->shape[res->pick];

		fprintf(out, "matrix:  %s (%llu x %llu, nnz %llu)\n", input,
			(unsigned long long)res->rows,
			(unsigned long long)res->cols,
			(unsigned long long)res->nnz);
		fprintf(out, "machine: %s (%s)\n", m.name, m.path);
		fprintf(out, "pick:    %ux%u, predicted %.3f GFLOPS, %.2fx over "
			"CSR run as 1x1 blocks\n", pk->r, pk->c, pk->gflops,
			res->speedup);
		if (cc.have) {
			char adv[32] = "keep CSR";

			if (cc.speedup >= MODEL_BCSR_ADVICE_MIN)
				snprintf(adv, sizeof(adv), "convert to BCSR "
					 "%ux%u", pk->r, pk->c);
			fprintf(out, "csr:     the CSR kernel predicted %.4g s "
				"(%.3f GFLOPS); the pick %.2fx of it: %s "
				"(predicting it took %.3g s)\n", cc.time_s,
				cc.gflops, cc.speedup, adv, cc.wall_s);
		}
		if (res->shape[order[1]].cycles < pk->cycles)
			fprintf(out, "         the least fill (%.2f) of the shapes "
				"predicted within %.0f%% of the fastest (--tie)"
				"\n", pk->fill, 100 * res->tie);
		fputs("close:  ", out);
		for (i = 1; i < ncand; i++)
			fprintf(out, "%s %ux%u %+.1f%%", i > 1 ? "," : "",
				res->shape[order[i]].r, res->shape[order[i]].c,
				100 * (res->shape[order[i]].time_s /
				       res->shape[order[0]].time_s - 1));
		if (ncand > 1)
			fprintf(out, " (predicted within %.0f%% of the pick: "
				"worth measuring too)\n", 100 * margin);
		else
			fprintf(out, " no other shape predicted within %.0f%% "
				"of the pick\n", 100 * margin);
		print_trust(out, &m);
		if (choice < 64)
			fprintf(out, "choice:  %ux%u, the fastest of the pick "
				"and the close shapes measured: %.3f GFLOPS "
				"(the pick %.3f = %.1f%% of it); measuring "
				"them took %.3g s = %.0f CSR SpMV equivalents\n",
				choice / 8 + 1, choice % 8 + 1,
				me->gflops[choice], me->gflops[res->pick],
				100 * me->gflops[res->pick] /
				me->gflops[choice], me->wall_s,
				me->csr_time_s > 0 ? me->wall_s /
						     me->csr_time_s : 0);
		fprintf(out, "cost:    %.4g s = %.1f CSR SpMV equivalents "
			"(CSR SpMV %.4g s; %.1f%% of rows simulated)\n",
			res->wall_s, cost, me->csr_time_s, 100 * res->sample);
		if (res->long_rows)
			fprintf(out, "long:    %" PRIu64 " long rows counted "
				"apart from the sample (%.0f%% of their "
				"regions), their block rows scheduled at their "
				"own lengths\n", res->long_rows,
				100 * res->long_counted);
		if (me->csr_gflops > 0 && me->measured[res->pick])
			fprintf(out, "measured CSR kernel: %.3f GFLOPS (measured "
				"among the shapes); the pick %.2fx of it\n",
				me->csr_gflops,
				me->gflops[res->pick] / me->csr_gflops);
		if (me->have)
			fprintf(out, "measured best: %ux%u %.3f GFLOPS; the pick "
				"reaches %.3f GFLOPS = %.1f%% of it\n",
				me->best / 8 + 1, me->best % 8 + 1,
				me->gflops[me->best], me->gflops[res->pick],
				100 * me->gflops[res->pick] /
				me->gflops[me->best]);
		if (pr.have) {
			fprintf(out, "head to head (%u finalists, %u passes, "
				"median speed relative to each pass):",
				pr.n, PAIR_PASSES);
			for (i = 0; i < pr.n; i++)
				fprintf(out, " %ux%u %.3f", pr.shape[i] / 8 + 1,
					pr.shape[i] % 8 + 1, pr.rel[i]);
			fprintf(out, "; best %ux%u, the pick reaches %.1f%% "
				"of it\n", pr.best / 8 + 1, pr.best % 8 + 1,
				100 * pr.share);
		}
		if (me->have && me->nplaces)
			placement_note(out, me);
		{
			char fewer[64] = "";

			if (m.learned_exit_trips > 0)
				snprintf(fewer, sizeof(fewer), " (fewer where "
					 "block rows hold over %.0f blocks)",
					 m.learned_exit_trips);
			fprintf(out, "exits:   the branch predictor learns "
				"about %.0f changes of the block count a "
				"run%s; beyond them each costs %.0f cycles "
				"(exits: changes a run, mispredicted: the "
				"model's share of them)\n",
				model_bcsr_learned_exits(&m), fewer,
				m.loop_exit_miss_cycles);
		}
		fprintf(out, "\n%4s %5s %10s %6s %12s %10s%s %9s %12s  %s\n",
			"rank", "shape", "blocks", "fill", "pred time s",
			"pred GF/s", choice < 64 ? "  meas GF/s" : "",
			"exits", "mispredicted", "bound");
		for (i = 0; i < top; i++) {
			const struct model_bcsr_shape *sh = &res->shape[order[i]];
			double miss = m.loop_exit_miss_cycles > 0 &&
				      sh->exit_changes > 0 ?
				      sh->stall_cycles / m.loop_exit_miss_cycles /
				      sh->exit_changes : 0;

			fprintf(out, "%4u %3ux%u %10llu %6.3f %12.4g %10.3f",
				i + 1, sh->r, sh->c,
				(unsigned long long)sh->nblocks, sh->fill,
				sh->time_s, sh->gflops);
			if (me->measured[order[i]])
				fprintf(out, " %11.3f", me->gflops[order[i]]);
			else if (choice < 64)
				fprintf(out, " %11s", "-");
			fprintf(out, " %9.0f %11.1f%%  %s\n", sh->exit_changes,
				100 * miss,
				model_bottleneck_name(sh->bottleneck));
		}
	}
	rc = cli_close_out(out, outpath);
	if (rc == 0 && svgpath)
		rc = bcsr_svg_write(svgpath, input, m.name, res, me);
done:
	matrix_csr_release(&a);
	free(res);
	free(me);
	machine_release(&m);
	return rc;
}
