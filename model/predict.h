/*
 * predict.h - the PPR model end to end: the native kernels' loops on the
 * DAG scheduler, one prediction of (machine, kernel, input) with ECM and
 * Roofline beside it, BCSR block-shape selection, the convolution study
 * and the 3-D FFT intensity.
 *
 * Ownership: every result is a caller-owned struct filled in place; the
 * functions allocate only internally and free before returning.
 */
#ifndef PPR_MODEL_PREDICT_H
#define PPR_MODEL_PREDICT_H

#include <stdint.h>

#include "common/ppr_err.h"
#include "dag/dag.h"
#include "kernels/kernels.h"
#include "machines/machine.h"
#include "matrix/matrix.h"
#include "model/model.h"

/* ---- kernel loops (model/loops.c) ---------------------------------- */

/* objdump -d listing of a native kernel function, embedded at build time
 * (scripts/extract-loops.sh); NULL when the symbol is unknown. */
const char *model_kernel_asm(const char *symbol);
/* Symbols embedded, NULL-terminated iteration: i-th or NULL. */
const char *model_kernel_asm_symbol(unsigned i);

/*
 * How much work the loop does.  Flat kernels (conv, FFT): outer_iters = 0
 * and total_flops = executed flops (with fill); iterations = total_flops /
 * flops per loop iteration.  Nested (SpMV): outer_iters rows (block rows)
 * and inner_flops_per_outer the flops of the inner loop per outer
 * iteration (mean row length x 2, with fill for BCSR); the enclosing loop
 * is scheduled with the inner loop run that many times.
 */
struct model_work {
	double total_flops;
	double outer_iters;
	double inner_flops_per_outer;
	double inner_trips;      /* > 0: nested with this many inner
				    iterations per outer one; outer
				    iterations = total_flops / (trips x inner
				    flops) (conv: 16 taps) */
	int have_inner_mean;     /* inner_mean is set */
	double inner_mean;       /* mean whole inner iterations per outer
				    one, from the input (may be below 1);
				    replaces inner_flops_per_outer / flops
				    per inner iteration */
	double remainder_skip;   /* share of outer iterations that skip the
				    remainder after an inner loop unrolled
				    by 2 (CSR rows of even length) */
};

struct model_kernel_dag {
	char symbol[64];
	double compute_cycles;   /* S_DAG(compute), whole run */
	double memory_cycles;    /* S_DAG(memory), whole run */
	double cycles;           /* full schedule, whole run */
	double iterations;       /* loop iterations (outer when nested) */
	double inner_trips;      /* inner iterations per outer (0: flat) */
	double cycles_per_iter;
	double acc_chain_per_inner; /* accumulator recurrence, cycles per
				       inner (or flat) loop iteration */
	double acc_chain_cycles; /* the same over the whole run: a lower
				    bound on its time */
	struct dag_result res;   /* the schedule (nested when inner_trips) */
};

/* The core model of a machine: its "core" section, else a built-in by
 * name (haswell for a file named haswell, zen5 otherwise). */
const struct dag_core *model_machine_core(const struct machine *m);

int model_kernel_dag(const char *symbol, const struct dag_core *core,
		     const struct model_work *w, struct model_kernel_dag *out,
		     struct ppr_err *err);

/*
 * The same, cheaper per call once the points below are known (the 64-shape
 * selection caches them): the enclosing loop scheduled at a few inner trip
 * counts (1..64) and interpolated between them.
 */
int model_kernel_dag_fast(const char *symbol, const struct dag_core *core,
			  const struct model_work *w,
			  struct model_kernel_dag *out, struct ppr_err *err);

/*
 * What model_kernel_dag_fast computes from the DAG, kept apart from the
 * work so it can be computed once per (core, kernel) and reused: the
 * inner loop's steady state, and the enclosing loop scheduled with
 * model_nest_trips[k] inner trips (cycles, S_DAG(compute), S_DAG(memory)
 * per outer iteration).  A trip count between two points interpolates
 * linearly; beyond the last, the last segment's slope continues (inner
 * loops that long overlap their outer iterations as at 512 trips).  The
 * points went to 64 trips until 2026-11-26: beyond it the slope of 48-64
 * trips still counted on the next row starting in the reorder window,
 * and a 1x1 block loop of 301 blocks per row (one accumulator chain)
 * was scheduled 30% fast on the Zen 4 guest (bench/dag_bcsr_grid.sh,
 * gen:banded:n=1000,bw=150: 2.58 cycles per block measured, 1.98
 * modelled; 2.54 with the points to 512, the width-1 shapes' median
 * |error| 15.0% -> 5.6%).
 */
#define MODEL_NEST_POINTS 15
extern const unsigned model_nest_trips[MODEL_NEST_POINTS];
struct model_nest_points {
	double flops_per_inner;
	double inner[3];                   /* cycles, compute, memory */
	double nest[MODEL_NEST_POINTS][3]; /* per model_nest_trips[k] */
	double acc_chain;                  /* accumulator recurrence */
	struct dag_result res1;            /* the 1-trip schedule (report) */
};
/* All points (PPR_EINVAL: the kernel has no enclosing loop). */
int model_nest_points_get(const char *symbol, const struct dag_core *core,
			 struct model_nest_points *pt, struct ppr_err *err);
/* The cycles, compute and memory cycles per outer iteration of trips
 * inner ones (at least 1), from the points' nest[]: linear between the
 * points, the last segment's slope beyond them. */
void model_nest_at(const double (*nest)[3], double trips, double v[3]);
/* model_kernel_dag_fast from the points (no scheduling). */
int model_nest_points_eval(const struct model_nest_points *pt,
			   const struct model_work *w,
			   struct model_kernel_dag *out, struct ppr_err *err);

/* ---- one prediction (model/predict.c) ------------------------------- */

struct model_level_traffic {
	char name[SIM_NAME_MAX];
	uint64_t misses_regular, misses_irregular;
	uint64_t misses_far;     /* irregular misses of far references */
	uint64_t writebacks;
	uint64_t prefetches;
	double bytes_regular;    /* regular lines into this level, bytes */
	double bytes_irregular;  /* irregular lines into this level, bytes */
	double bytes_total;      /* fills + write-backs crossing below it */
};

struct model_prediction {
	char describe[768];
	char symbol[64];
	double flops;            /* useful flops of one execution */
	double clock_ghz;
	struct model_kernel_dag dag;
	unsigned nlevels;
	struct model_level_traffic lev[MODEL_MAX_LEVELS];
	struct model_ppr_in ppr_in;
	struct model_ppr_out ppr;
	struct model_ecm_in ecm_in;
	struct model_ecm_out ecm;
	struct model_roofline_in roof_in;
	struct model_roofline_out roof;
	double bw_gbs[MODEL_MAX_LEVELS];
	double branch_misses;    /* predicted inner-loop exit mispredictions */
	double branch_events;    /* SpMV: changes of the inner loop's exit
				    pattern from one row (BCSR: block row)
				    to the next */
	double branch_contexts;  /* CSR with the machine's
				    branch.history_rows: the distinct
				    histories of the changes, what fills
				    the predictor (0: not counted) */
	double fill_lines;       /* regular lines filled into the first
				    level (streams: what its prefetchers
				    bring ahead of the loads) */
	double fill_cycles;      /* what they take from its loads (the
				    level's fill_load_cycles each), in
				    S_DAG(memory) (model/predict.c: fills
				    on the loads) */
	double fill_port_cycles; /* the busiest load port's cycles over the
				    run, to which they add */
	double late_share;       /* of the regular bytes, those from levels
				    with a late_line_cycles (0: the late
				    lines' schedule was not run) */
	double late_cycles;      /* that schedule over the run, the others'
				    bytes at the loop's own (model/predict.c:
				    late lines) */
	double rows;             /* SpMV: matrix rows */
	double csr_row_nnz;      /* CSR whose memory link took the machine's
				    memory.csr_bandwidth_gbs: its mean
				    nonzeros per row (0: the memory
				    bandwidth was used) */
	double branches;         /* CSR: conditional branches per run */
	double stream_jumps;     /* near irregular references more than
				    MODEL_JUMP_DIST lines from the one before
				    (x's streams taken in turn: model/predict.c,
				    jumps between streams) */
	int cold;
};

/*
 * CSR (spmv-csr) loop exits, measured on the zen4-epyc machine (Zen 5)
 * with bench/predict_branch.sh: cycles per mispredicted exit (random row
 * lengths 1..9 against constant ones: 32.5 cycles per row at 1.29 exit
 * changes per row at 32,000 and 64,000 rows, median of 50 runs), and how
 * many exit changes per run the predictor learns over repeated runs.  It
 * is the changes that count, not the branches executed: rows of 1..9 and
 * of 10..18 nonzeros (twice the branches) lose the same share at the same
 * row counts (2026-11-22 03:06 UTC, load 5, median of 30 runs: 10,300
 * changes all learned; 20,500: 15-16 cycles per change, 41,000: 20.8,
 * 82,000: 22-23), and so do the row-length sequences of the road graphs
 * vt2010 and de2010 (9,600 changes learned; 18,000-19,000: 10-19 cycles;
 * 27,500-39,300: 21-25).  Beyond C0 = 10,000 changes the unlearned share
 * follows 1 - C0 / changes within 0.11 of those points.  The figures are
 * the defaults of the machine file's "branch" section.
 */
#define MODEL_CSR_EXIT_MISS_CYCLES MACHINE_LOOP_EXIT_MISS_CYCLES
#define MODEL_LEARNED_EXIT_CHANGES MACHINE_LEARNED_EXIT_CHANGES
/* (both are the defaults of the machine file's "branch" section,
 * loop_exit_miss_cycles and learned_exit_changes; a machine file gives its
 * own core's figures there, and the model uses those) */

/* Block rows of height r whose block count (r x c blocks) differs from
 * the previous one's (the loop exits of BCSR r x c that change),
 * returned; hist (as model_exit_unlearned_hist takes it) gets them by
 * the block row's blocks.  Out of memory for the marks, the nonzeros of
 * the block row stand for its blocks. */
double model_spmv_length_hist(const struct csr *a, unsigned r, unsigned c,
			      double *hist);
/* CSR: rows whose pair count (len / 2) differs from the previous row's,
 * plus rows whose parity differs: the exits of the compiled loop, which
 * runs pairs of nonzeros then an odd remainder, that differ.  *branches
 * (if not NULL): the conditional branches one run executes (3 per row
 * plus one per pair); hist (if not NULL, MODEL_EXIT_TMAX + 1 entries):
 * the changes by the pairs of the row they end. */
double model_spmv_csr_exit_changes(const struct csr *a, double *branches,
				   double *hist);
/* CSR: the distinct (lengths of the previous k rows, this row's length)
 * among the rows whose exits change (model_spmv_csr_exit_changes): the
 * entries a history-based predictor needs to hold the run's exits, where
 * a sequence of lengths that repeats needs fewer than it has changes.
 * k = 0, or out of memory: -1.  *change_rows (if not NULL): the rows
 * whose exits change (0 with k = 0). */
double model_spmv_csr_exit_contexts(const struct csr *a, unsigned k,
				    double *change_rows);
/* BCSR's block-row changes fill the predictor by this ratio on machine m:
 * with branch.history_rows, the CSR rows' histories per changing row
 * (model_spmv_csr_exit_contexts's count, estimated in a fixed 8 KiB
 * sketch: within about 1%, at most 1; 1 without changes or memory), else
 * 1.  A proxy: block rows are taken to repeat as the rows do. */
double model_exit_fill_ratio(const struct machine *m, const struct csr *a);
/* Share of the loop-exit changes (CSR rows, BCSR block rows) that
 * mispredict: 1 cold; warm 0 up to
 * 'learned' changes per run (the machine's learned_exit_changes), then
 * 1 - learned / changes. */
double model_exit_unlearned(double changes, double learned, int cold);
/* The same with the machine's form beyond the capacity (CSR,
 * branch.csr_unlearned_exponent and csr_unlearned_max): umax x (1 -
 * (learned / changes)^expo); expo = umax = 1 is model_exit_unlearned. */
double model_exit_unlearned_form(double changes, double learned,
				 double expo, double umax, int cold);

/* Far references (model/predict.c's notes): an irregular reference is
 * "near" when its line is within MODEL_FAR_DIST lines of one of the last
 * MODEL_FAR_RING irregular lines, else "far"; `ppr predict` and `ppr
 * bcsr`'s x simulation tell them the same way. */
#define MODEL_FAR_RING 16
#define MODEL_FAR_DIST 2
/* a near reference more than this many lines from the irregular
 * reference before it jumps between x's streams (model/predict.c) */
#define MODEL_JUMP_DIST 8

/* The cycles a far reference costs that misses level i of the n levels
 * modelled: the far_miss_cycles of the level that serves it, level i + 1,
 * or memory's (0: not given). */
static inline double model_far_cost(const struct machine *m, unsigned i,
				    unsigned n)
{
	return i + 1 < n ? m->level[i + 1].far_miss_cycles :
			   m->mem_far_miss_cycles;
}

/* The machine's learned_exit_changes is counted in CSR's exit changes
 * (its pair loop and its parity test: 1.29 per row on rows of random
 * length 1..9), but what the predictor holds is loop runs: BCSR 1x1 on
 * the same rows (one exit per block row, 0.89 changes per row) loses its
 * exits at the same row counts as CSR, between 12,000 and 16,000 rows
 * (bench/predict_branch.sh with KERNEL=spmv-bcsr, 2026-11-25).  So a
 * BCSR block row's change, one loop run, gets learned_exit_changes x
 * 0.89 / 1.29 of capacity (model_exit_unlearned_hist's 'learned'). */
#define MODEL_BCSR_LEARNED_SHARE 0.69

/* The capacity BCSR's block-row exit changes get on machine m. */
static inline double model_bcsr_learned_exits(const struct machine *m)
{
	return m->bcsr_learned_exit_changes >= 0 ?
	       m->bcsr_learned_exit_changes :
	       m->learned_exit_changes * MODEL_BCSR_LEARNED_SHARE;
}

/* Loop-exit changes by the trip count of the loop run that ends at the
 * change: hist[t] for t = 1 .. MODEL_EXIT_TMAX - 1 iterations,
 * hist[MODEL_EXIT_TMAX] for that many or more (hist[0]: none). */
#define MODEL_EXIT_TMAX 64
/* The histogram entry of a loop run of t iterations. */
static inline unsigned model_exit_bucket(uint64_t t)
{
	return t < 1 ? 1 : t >= MODEL_EXIT_TMAX ? MODEL_EXIT_TMAX :
	       (unsigned)t;
}
/* The mispredicted exits of a run with these changes: each change of trip
 * count t is learned while the run's changes stay within the predictor's
 * capacity for loops of t iterations, learned * min(1, (trips / t)^3)
 * (trips: the machine's learned_exit_trips; 0: every t gets 'learned',
 * as model_exit_unlearned), else the share
 * model_exit_unlearned_form(changes, capacity, expo, umax) of it is
 * mispredicted (expo = umax = 1: 1 - capacity / changes).  Cold: all of
 * them. */
double model_exit_unlearned_hist(const double *hist, double learned,
				 double trips, double expo, double umax,
				 int cold);
/* The same with fill (> 0) in place of the changes' sum as what fills
 * the predictor (model_spmv_csr_exit_contexts); the share so found
 * applies to the changes of each trip count. */
double model_exit_unlearned_fill(const double *hist, double fill,
				 double learned, double trips, double expo,
				 double umax, int cold);
/* That capacity for loops of t iterations. */
double model_exit_capacity(double learned, double trips, unsigned t);

struct model_predict_opts {
	int cold;   /* 1: one execution from cold caches; 0 (default): the
		       steady state of repeated executions (the second of
		       two simulated runs), as `ppr measure` times it */
};

/*
 * Predict one execution of a kernel instance on machine m: the
 * instrumented kernel into a simulator built from m->hier, the loop's DAG
 * schedule, then PPR eq. (1)-(4), ECM and Roofline.  o may be NULL.
 */
int model_predict_run(const struct machine *m, struct kernel_run *run,
		      const struct kernel_params *p,
		      const struct model_predict_opts *o,
		      struct model_prediction *out, struct ppr_err *err);
int model_predict(const struct machine *m, const struct kernel_params *p,
		  const struct model_predict_opts *o,
		  struct model_prediction *out, struct ppr_err *err);

/* ---- BCSR shape selection (model/bcsr_select.c) --------------------- */

struct model_bcsr_shape {
	unsigned r, c;
	uint64_t nblocks;        /* estimated from the sample (exact when
				    sample = 1) */
	double nblocks_rel_err;  /* relative standard error of nblocks over
				    the sampled windows (0 when exact) */
	double fill;
	double cycles;           /* predicted, one SpMV */
	double time_s;
	double gflops;           /* useful flops (2 nnz) / time */
	double dag_cycles;       /* T_process */
	double compute_cycles, memory_instr_cycles; /* S_DAG halves */
	double core_cycles;      /* the whole loop's schedule (its
				    accumulator chains) plus far_cycles */
	double far_cycles;       /* x's far references (model_far_cost per
				    far miss, times the machine's scale for
				    the shape: bcsr_miss_load_ratio); in
				    S_DAG(memory) and in core_cycles */
	double stall_cycles;     /* branch mispredictions */
	double exit_changes;     /* changes of the block count between
				    consecutive block rows in one SpMV (from
				    the sample): each a mispredicted loop
				    exit unless the predictor learned it
				    (stall_cycles: those it did not) */
	enum model_bottleneck bottleneck; /* what sets the time (of the
					     part with more cycles, with
					     long block rows apart) */
	double t_regular, t_irregular;
	double x_misses[MODEL_MAX_LEVELS];
};

struct model_bcsr_opts {
	unsigned threads;        /* 0: model_threads_default(); at most 8
				    are used */
	double sample;           /* fraction of block rows simulated (0: auto) */
	double tie;              /* shapes predicted within this fraction of
				    the fastest are a tie, the one of least
				    fill picked (model_bcsr_pick); 0: the
				    default MODEL_BCSR_TIE, below 0: none
				    (the fastest) */
};

#define MODEL_BCSR_TIE 0.02

struct model_bcsr_result {
	struct model_bcsr_shape shape[64]; /* index (r-1)*8 + (c-1) */
	unsigned pick;           /* index of the pick: the least fill of
				    the shapes within tie of the fastest */
	double tie;              /* the tie used (0: the fastest) */
	double speedup;          /* predicted time of 1x1 / pick */
	double sample;           /* fraction of block rows simulated */
	double wall_s;           /* prediction wall time */
	double phase_s[4];       /* its parts: in-core points, block
				    counts, x simulation, evaluation */
	int incore_cached;       /* the 64 in-core schedules came from the
				    cache file or the built-in table
				    (model_bcsr_select notes) */
	int incore_builtin;      /* from the built-in table */
	uint64_t rows, cols, nnz;
	uint64_t long_rows;      /* rows counted apart from the sample as
				    long (bcsr_select.c, struct lstat) */
	int sample_refined;      /* the pick was in doubt at the first
				    sample: counted again, larger */
	double long_counted;     /* share of their regions' nonzeros
				    counted (1: all; else an even
				    selection, scaled) */
};

/*
 * The 64 BCSR kernels' in-core points of a core model, packed (the
 * evaluation's form): MODEL_BCSR_NPT_VALS values per shape r x c at
 * (r - 1) * 8 + c - 1.  model_bcsr_incore_points computes them (nth
 * threads); model_bcsr_core_key is the core model's key (its contents),
 * by which the built-in table (model/gen/bcsr_incore_gen.c writes it at
 * build time for the built-in core models) is looked up.
 */
#define MODEL_BCSR_NPT_VALS (1 + 3 + MODEL_NEST_POINTS * 3 + 1)
struct model_bcsr_incore {
	uint64_t key;
	double v[64][MODEL_BCSR_NPT_VALS];
};
uint64_t model_bcsr_core_key(const struct dag_core *c);
/* The core a BCSR kernel is scheduled on, into *out: c with its
 * bcsr_window, where set and below its rob_size, as the reorder window
 * (dag/dag.h; `ppr bcsr`'s points and `ppr predict -k spmv-bcsr`). */
void model_bcsr_core(const struct dag_core *c, struct dag_core *out);
/* the table: absent (weak, NULL) from programs built without it */
extern const struct model_bcsr_incore model_bcsr_incore_builtin[]
	__attribute__((weak));
extern const unsigned model_bcsr_incore_nbuiltin __attribute__((weak));
/* model_bcsr_incore_builtin[i].key for each i, side by side */
extern const uint64_t model_bcsr_incore_keys[] __attribute__((weak));
int model_bcsr_incore_points(const struct dag_core *c, unsigned nth,
			     double (*pv)[MODEL_BCSR_NPT_VALS],
			     struct ppr_err *err);

/* The pick of a result's 64 predictions: of the shapes whose cycles are
 * within tie (a fraction, 0: none) of the fastest, the one of least
 * fill, the faster at equal fill. */
unsigned model_bcsr_pick(const struct model_bcsr_result *out, double tie);
/* The least predicted speedup of the pick over the CSR kernel (its own
 * prediction, `ppr predict -k spmv-csr`) at which the advice is to
 * convert: below it, keep CSR.  The CSR kernel runs two nonzeros into two
 * sums, the selection's 1x1 one into one, and it measured faster than the
 * best of the 64 shapes on 20-22 of the 43 matrices of
 * bench/predict_bcsr.sh in four passes (2026-11-27/28); advising the pick
 * only from 1.02 chose the faster of the two on 33-35 of them
 * (model/README.md).  `ppr predict`'s advice and `ppr bcsr --vs-csr` use
 * it, and `ppr predict -k spmv-bcsr` the same against its own shape. */
#define MODEL_BCSR_ADVICE_MIN 1.02
int model_bcsr_select(const struct machine *m, const struct csr *a,
		      const struct model_bcsr_opts *o,
		      struct model_bcsr_result *out, struct ppr_err *err);

/* Default thread count of the shape evaluation: the environment variable
 * PPR_THREADS when set (a positive integer, else PPR_EINVAL naming it),
 * else the number of online CPUs; capped at 8.  The result never depends
 * on the thread count. */
int model_threads_default(unsigned *n, struct ppr_err *err);

/* ---- convolution study (model/conv.c) ------------------------------- */


struct model_conv_row {
	enum conv_variant variant;
	double compute_cycles, memory_cycles; /* per block of 16 outputs */
	double lines;            /* lines transferred per block */
	double gflops[MODEL_MAX_LEVELS + 1];  /* per residence level */
	double cycles[MODEL_MAX_LEVELS + 1];
};

struct model_conv_paper {
	unsigned nres;           /* residence levels: L1..Ln, memory */
	char res_name[MODEL_MAX_LEVELS + 1][16];
	struct model_conv_row row[3];
	int best[MODEL_MAX_LEVELS + 1]; /* variant index per residence */
};

/* Tables 4-6 from the paper's instruction counts on machine m. */
int model_conv_paper(const struct machine *m,
		     struct model_conv_paper *out, struct ppr_err *err);

/* ---- 3-D FFT (model/fft.c) ------------------------------------------ */

struct model_fft3d {
	uint64_t n;              /* per dimension */
	double flops;            /* 5 N^3 log2 N^3 */
	double bytes_dram;       /* predicted DRAM traffic */
	double intensity;        /* flops / DRAM byte, on this machine */
	double intensity_pencil; /* 3 passes: only a pencil stays in cache */
	double bytes_plane;      /* when one n x n plane stays in cache */
	double intensity_plane;
	double passes;           /* passes over the data from DRAM */
	double time_s;           /* bandwidth-bound time */
	double gflops;
};

/*
 * The Roofline paper's 3-D FFT intensity: out-of-cache passes over the
 * 16 N^3-byte array (complex double), each reading and writing it.
 */
int model_fft3d_eval(const struct machine *m, uint64_t n,
		     struct model_fft3d *out, struct ppr_err *err);

#endif
