/*
 * loops.c - the native kernels' loops on the instruction-DAG scheduler.
 *
 * Notes:
 * - The loop bodies are the compiled native kernels themselves: the build
 *   runs `objdump -d --no-show-raw-insn` on the kernels' objects and embeds
 *   every kern_* function as a string (scripts/extract-loops.sh ->
 *   $(BUILD)/gen/kernel_asm.c), so the schedule is of the instructions
 *   that run, with the flags they were compiled with.
 * - Nested loops (SpMV: rows around nonzeros, block rows around blocks)
 *   are scheduled as the enclosing loop with the inner loop repeated
 *   inner_trips times (dag_sched_opts.inner_trips), so successive short
 *   rows overlap in the reorder window as they do on the hardware.  The
 *   inner trip count is the mean inner work per outer iteration divided by
 *   the inner loop's flops per iteration (gcc unrolls the CSR loop by 2);
 *   a fractional count is interpolated between the two neighbouring
 *   integer schedules.  The remainder code of an unrolled loop runs in
 *   every scheduled outer iteration.  For CSR (unrolled by 2) the caller
 *   gives the mean whole pairs per row (inner_mean, which may be below 1:
 *   the slope from 1 to 2 pairs continues down) and the share of rows of
 *   even length (remainder_skip), whose remainder is taken off at half a
 *   pair's cost (one nonzero of the two).  Measured here (2026-11-24,
 *   20,000 rows of constant length L, x in L1, fastest of 3 medians of
 *   100 runs, cycles per row, measured / model): L = 1 1.93 / 1.81, 2
 *   3.18 / 2.98, 3 4.26 / 4.15, 4 5.37 / 5.32, 5 6.76 / 6.49, 6 8.14 /
 *   7.83, 8 10.2 / 10.3; before, rows of 1 and 2 nonzeros were both
 *   scheduled as a pair plus a remainder (4.0 / 4.15).
 * - Flat loops (convolution, FFT butterflies) run total_flops / flops per
 *   iteration iterations at the steady-state cycles per iteration.
 * - Accumulator recurrence (acc_chain_*): a vector/FP register that the
 *   loop only ever updates in place with FP adds or FMAs (y_i += a*x) is
 *   a loop-carried chain; one iteration cannot take less than the sum of
 *   those updates' latencies.  The bound is computed from the IR and the
 *   core's latencies, independently of the scheduler's own chain search.
 *   In a nested loop the whole outer body is searched: an accumulator
 *   reset per row (pxor) is not carried across rows, and rows overlap in
 *   the reorder window (the nested schedule models that), so no bound.
 * - The convolution's naive loop is nested (outputs around 16 taps): it is
 *   scheduled nested with w->inner_trips taps, so the chains of successive
 *   outputs overlap as they do on the hardware.
 */
#include "model/predict.h"
#include "common/ppr_hot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct model_asm_entry {
	const char *symbol;
	const char *text;
};
extern const struct model_asm_entry model_asm_table[];

const char *model_kernel_asm(const char *symbol)
{
	unsigned i;

	if (!symbol)
		return NULL;
	for (i = 0; model_asm_table[i].symbol; i++)
		if (!strcmp(model_asm_table[i].symbol, symbol))
			return model_asm_table[i].text;
	return NULL;
}

const char *model_kernel_asm_symbol(unsigned i)
{
	unsigned k;

	for (k = 0; model_asm_table[k].symbol; k++)
		if (k == i)
			return model_asm_table[k].symbol;
	return NULL;
}

/* in the selection's section: `ppr bcsr` calls it first thing, and out
 * in .text its page was the one code page a fresh process faulted in
 * inside the timed selection (common/ppr_hot.h; model/README.md,
 * 2026-12-05 21:47) */
PPR_SELECT_TEXT
const struct dag_core *model_machine_core(const struct machine *m)
{
	if (m->has_core)
		return &m->core;
	if (m->name && strstr(m->name, "haswell"))
		return dag_core_builtin("haswell");
	return dag_core_builtin("zen5");
}

/* Longest accumulator recurrence of insn[begin, end), cycles/iteration. */
static double acc_chain(const struct dag_prog *p, size_t begin, size_t end,
			const struct dag_core *core)
{
	double best = 0;
	int r;

	for (r = DAG_REG_VEC; r < DAG_REG_VEC + 32; r++) {
		double lat = 0;
		int ok = 1, any = 0;

		for (size_t i = begin; i < end && ok; i++) {
			const struct dag_insn *in = &p->insn[i];
			int writes = 0, reads = 0;

			for (int k = 0; k < in->ndst; k++)
				writes |= in->dst[k] == r;
			if (!writes)
				continue;
			for (int k = 0; k < in->nsrc; k++)
				reads |= in->src[k] == r;
			if (reads && (in->cls == DAG_FP_ADD ||
				      in->cls == DAG_FP_FMA)) {
				lat += core->cost[in->cls].latency;
				any = 1;
			} else {
				ok = 0;
			}
		}
		if (ok && any && lat > best)
			best = lat;
	}
	return best;
}

/* Known start alignment of a kernel's vector loads (0: the element).
 * The convolution's algorithm 3 loads from 64-byte aligned copies at
 * multiples of 16 bytes (kernels/conv_vec_body.h): 1 in 4 of its 32-byte
 * loads crosses a line, against 7 in 16 for algorithm 2. */
static unsigned kernel_align_bytes(const char *symbol)
{
	if (!strcmp(symbol, "kern_conv_avx2_aligned") ||
	    !strcmp(symbol, "kern_conv_vec8_aligned"))
		return 16;
	return 0;
}

/* Schedule with a given integer inner trip count (0: flat). */
static int sched(const struct dag_prog *p, const struct dag_loop *loop,
		 const struct dag_core *core, unsigned trips,
		 unsigned align_bytes, struct dag_result *res,
		 struct ppr_err *err)
{
	struct dag_sched_opts o = { 0 };

	o.inner_trips = trips;
	o.align_bytes = align_bytes;
	return dag_sched_run(p, loop, core, &o, res, err);
}

int model_kernel_dag(const char *symbol, const struct dag_core *core,
		     const struct model_work *w, struct model_kernel_dag *out,
		     struct ppr_err *err)
{
	const char *text = model_kernel_asm(symbol);
	struct dag_prog *p;
	struct dag_loop loop;
	struct dag_result inner, lo, hi;
	unsigned ab;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!text)
		return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
				   "no extracted loop for kernel symbol '%s'",
				   symbol ? symbol : "(null)");
	snprintf(out->symbol, sizeof(out->symbol), "%s", symbol);
	ab = kernel_align_bytes(symbol);
	p = dag_prog_new();
	rc = dag_asm_parse(p, text, strlen(text), symbol, err);
	if (!rc)
		rc = dag_loop_find(p, NULL, &loop, err);
	if (rc)
		goto done;
	if ((w->outer_iters > 0 || w->inner_trips > 0) && loop.has_outer) {
		double trips, frac;
		unsigned t0;

		rc = sched(p, &loop, core, 0, ab, &inner, err);
		if (rc)
			goto done;
		trips = inner.flops_per_iter > 0 ?
			w->inner_flops_per_outer / inner.flops_per_iter : 1;
		if (w->inner_trips > 0)
			trips = w->inner_trips;
		else if (w->have_inner_mean)
			trips = w->inner_mean;
		if (!w->have_inner_mean && trips < 1)
			trips = 1;
		t0 = trips < 1 ? 1 : (unsigned)floor(trips);
		frac = trips - t0;
		rc = sched(p, &loop, core, t0, ab, &lo, err);
		if (rc)
			goto done;
		if (frac > 1e-6 || frac < -1e-6 || w->remainder_skip > 0) {
			double skip = w->remainder_skip > 0 ?
				      w->remainder_skip / 2 : 0;

			rc = sched(p, &loop, core, t0 + 1, ab, &hi, err);
			if (rc)
				goto done;
			/* between the two schedules, or below one trip
			 * along the same slope; then the remainder skipped
			 * (half an unrolled iteration: one nonzero of the
			 * pair) where it does not run */
			lo.cycles_per_iter += (frac - skip) *
				(hi.cycles_per_iter - lo.cycles_per_iter);
			lo.compute_cycles += (frac - skip) *
				(hi.compute_cycles - lo.compute_cycles);
			lo.memory_cycles += (frac - skip) *
				(hi.memory_cycles - lo.memory_cycles);
			/* rows all empty: nothing below zero */
			lo.cycles_per_iter = fmax(lo.cycles_per_iter, 0);
			lo.compute_cycles = fmax(lo.compute_cycles, 0);
			lo.memory_cycles = fmax(lo.memory_cycles, 0);
		}
		out->inner_trips = trips;
		out->iterations = w->outer_iters;
		if (w->inner_trips > 0)
			out->iterations = inner.flops_per_iter > 0 ?
				w->total_flops / (trips *
						  inner.flops_per_iter) : 0;
		out->res = lo;
	} else {
		rc = sched(p, &loop, core, 0, ab, &out->res, err);
		if (rc)
			goto done;
		out->iterations = out->res.flops_per_iter > 0 ?
			w->total_flops / out->res.flops_per_iter :
			w->outer_iters;
	}
	out->cycles_per_iter = out->res.cycles_per_iter;
	out->cycles = out->res.cycles_per_iter * out->iterations;
	out->compute_cycles = out->res.compute_cycles * out->iterations;
	out->memory_cycles = out->res.memory_cycles * out->iterations;
	out->acc_chain_per_inner = loop.has_outer ?
		acc_chain(p, loop.outer_begin, loop.outer_end, core) :
		acc_chain(p, loop.begin, loop.end, core);
	out->acc_chain_cycles = out->acc_chain_per_inner * out->iterations *
				(out->inner_trips > 0 ? out->inner_trips : 1);
done:
	dag_prog_free(p);
	return rc;
}

const unsigned model_nest_trips[MODEL_NEST_POINTS] = {
	1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128, 256, 512
};

int model_nest_points_get(const char *symbol, const struct dag_core *core,
			 struct model_nest_points *pt, struct ppr_err *err)
{
	const char *text = model_kernel_asm(symbol);
	struct dag_prog *p;
	struct dag_loop loop;
	struct dag_result res;
	struct dag_sched_opts o = { 0 };
	unsigned k;
	int rc;

	memset(pt, 0, sizeof(*pt));
	if (!text)
		return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
				   "no extracted loop for kernel symbol '%s'",
				   symbol ? symbol : "(null)");
	p = dag_prog_new();
	rc = dag_asm_parse(p, text, strlen(text), symbol, err);
	if (!rc)
		rc = dag_loop_find(p, NULL, &loop, err);
	if (rc)
		goto done;
	if (!loop.has_outer) {
		rc = ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				 "kernel '%s' has no enclosing loop", symbol);
		goto done;
	}
	o.iterations = 60;
	rc = dag_sched_run(p, &loop, core, &o, &res, err);
	if (rc)
		goto done;
	pt->flops_per_inner = res.flops_per_iter;
	pt->inner[0] = res.cycles_per_iter;
	pt->inner[1] = res.compute_cycles;
	pt->inner[2] = res.memory_cycles;
	for (k = 0; k < MODEL_NEST_POINTS; k++) {
		unsigned t = model_nest_trips[k];

		/* enough outer iterations for a steady state: at least 24
		 * or about 200 inner ones */
		o.inner_trips = t;
		o.iterations = t <= 8 ? 24 : 200 / t > 4 ? 200 / t : 4;
		rc = dag_sched_run(p, &loop, core, &o, &res, err);
		if (rc)
			goto done;
		pt->nest[k][0] = res.cycles_per_iter;
		pt->nest[k][1] = res.compute_cycles;
		pt->nest[k][2] = res.memory_cycles;
		if (k == 0)
			pt->res1 = res;
	}
	pt->acc_chain = acc_chain(p, loop.outer_begin, loop.outer_end, core);
done:
	dag_prog_free(p);
	return rc;
}

PPR_SELECT_TEXT
void model_nest_at(const double (*nest)[3], double trips, double v[3])
{
	const unsigned *T = model_nest_trips, n = MODEL_NEST_POINTS;
	unsigned k, j;

	if (trips < 1)
		trips = 1;
	if (trips >= T[n - 1]) {
		/* beyond the last point: its slope, the steady state of
		 * long inner loops with the outer loop overlapping */
		double d = T[n - 1] - T[n - 2];

		for (j = 0; j < 3; j++)
			v[j] = nest[n - 1][j] + (trips - T[n - 1]) *
			       (nest[n - 1][j] - nest[n - 2][j]) / d;
	} else {
		for (k = 0; k + 1 < n && T[k + 1] <= trips; k++)
			;
		if (k + 1 >= n)
			k = n - 2;
		for (j = 0; j < 3; j++)
			v[j] = nest[k][j] + (trips - T[k]) *
			       (nest[k + 1][j] - nest[k][j]) /
			       (double)(T[k + 1] - T[k]);
	}
}

int model_nest_points_eval(const struct model_nest_points *pt,
			   const struct model_work *w,
			   struct model_kernel_dag *out, struct ppr_err *err)
{
	double trips, v[3];

	(void)err;
	memset(out, 0, sizeof(*out));
	trips = pt->flops_per_inner > 0 ?
		w->inner_flops_per_outer / pt->flops_per_inner : 1;
	if (trips < 1)
		trips = 1;
	model_nest_at((const double (*)[3])pt->nest, trips, v);
	out->inner_trips = trips;
	out->iterations = w->outer_iters;
	out->res = pt->res1;
	out->cycles_per_iter = v[0];
	out->cycles = v[0] * out->iterations;
	out->compute_cycles = v[1] * out->iterations;
	out->memory_cycles = v[2] * out->iterations;
	out->acc_chain_per_inner = pt->acc_chain;
	out->acc_chain_cycles = pt->acc_chain * out->iterations * trips;
	return 0;
}

int model_kernel_dag_fast(const char *symbol, const struct dag_core *core,
			  const struct model_work *w,
			  struct model_kernel_dag *out, struct ppr_err *err)
{
	struct model_nest_points *pt;
	int rc;

	if (!(w->outer_iters > 0))
		return model_kernel_dag(symbol, core, w, out, err);
	pt = calloc(1, sizeof(*pt));
	if (!pt)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "out of memory");
	rc = model_nest_points_get(symbol, core, pt, err);
	if (rc == PPR_EINVAL && model_kernel_asm(symbol)) {
		free(pt);
		return model_kernel_dag(symbol, core, w, out, err);
	}
	if (!rc)
		rc = model_nest_points_eval(pt, w, out, err);
	if (!rc)
		snprintf(out->symbol, sizeof(out->symbol), "%s", symbol);
	free(pt);
	return rc;
}
