/*
 * ppr.c - PPR eq. (1)-(4), ECM and Roofline arithmetic.
 *
 * Notes:
 * - eq. (2): regular data moves at the narrowest bandwidth between the level
 *   it lives in and L2; its latency is taken as hidden by prefetch (the
 *   paper's assumption, measured on Haswell).  Data resident in L1 costs no
 *   transfer; data in L2 crosses only the L2->L1 link.
 * - eq. (3): each miss of irregular data at level i moves one line across
 *   the link into level i at that link's bandwidth.
 * - eq. (4): the compute side and the memory side (memory instructions plus
 *   transfers) overlap; the larger one is the time and the bottleneck.
 * - Beyond the paper: S_DAG(compute) and S_DAG(memory) are schedules of
 *   half the loop each, so a loop-carried chain through both (load ->
 *   multiply -> add -> next load's address) is in neither; when the caller
 *   gives the whole loop's schedule (core_cycles) it bounds the time from
 *   below (bottleneck "in-core-schedule").  stall_cycles (branch
 *   mispredictions) are added after the overlap: a flush stops both sides.
 */
#include "model/model.h"

#include <math.h>

static int bad(struct ppr_err *err, const char *what)
{
	return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0, "%s", what);
}

double model_min_bandwidth(const double *bw, unsigned nlevels, unsigned from)
{
	double m;
	unsigned i;

	if (!nlevels)
		return 0;
	if (from > nlevels)
		from = nlevels;
	m = bw[0];
	for (i = 1; i < from; i++)
		if (bw[i] < m)
			m = bw[i];
	return m;
}

const char *model_bottleneck_name(enum model_bottleneck b)
{
	switch (b) {
	case MODEL_BOUND_COMPUTE: return "compute";
	case MODEL_BOUND_MEMORY_INSTR: return "memory-instructions";
	case MODEL_BOUND_REGULAR: return "regular-transfer";
	case MODEL_BOUND_IRREGULAR: return "irregular-transfer";
	case MODEL_BOUND_CORE: return "in-core-schedule";
	}
	return "unknown";
}

int model_ppr_eval(const struct model_ppr_in *in, struct model_ppr_out *out,
		   struct ppr_err *err)
{
	unsigned i;
	double t_irr = 0;

	if (!in->nlevels || in->nlevels > MODEL_MAX_LEVELS)
		return bad(err, "model: number of cache levels must be 1..4");
	if (!(in->clock_ghz > 0))
		return bad(err, "model: clock must be positive");
	for (i = 0; i < in->nlevels; i++)
		if (!(in->bw[i] > 0))
			return bad(err, "model: bandwidths must be positive");
	if (in->compute_cycles < 0 || in->memory_cycles < 0 ||
	    in->regular_bytes < 0 || in->flops < 0)
		return bad(err, "model: negative cycle or byte count");

	out->t_process = fmax(in->compute_cycles, in->memory_cycles);
	out->t_regular = 0;
	if (in->regular_from >= 1 && in->regular_bytes > 0)
		out->t_regular = in->regular_bytes /
			model_min_bandwidth(in->bw, in->nlevels,
					    in->regular_from);
	else if (in->regular_bytes <= 0)
		for (i = 1; i <= in->nlevels && i <= MODEL_MAX_LEVELS; i++)
			if (in->regular_by_origin[i] > 0)
				out->t_regular += in->regular_by_origin[i] /
					model_min_bandwidth(in->bw, in->nlevels,
							    i);
	for (i = 0; i < in->nlevels; i++) {
		out->t_irr_level[i] = in->irregular_misses[i] *
				      in->line_size / in->bw[i];
		t_irr += out->t_irr_level[i];
	}
	for (; i < MODEL_MAX_LEVELS; i++)
		out->t_irr_level[i] = 0;
	out->t_irregular = t_irr;
	out->memory_side = in->memory_cycles + out->t_regular + t_irr;
	out->cycles = fmax(in->compute_cycles, out->memory_side);
	out->time_s = out->cycles / (in->clock_ghz * 1e9);
	out->gflops = out->cycles > 0 ? in->flops * in->clock_ghz / out->cycles
				      : 0;
	if (in->compute_cycles >= out->memory_side)
		out->bottleneck = MODEL_BOUND_COMPUTE;
	else if (in->memory_cycles >= out->t_regular &&
		 in->memory_cycles >= t_irr)
		out->bottleneck = MODEL_BOUND_MEMORY_INSTR;
	else if (out->t_regular >= t_irr)
		out->bottleneck = MODEL_BOUND_REGULAR;
	else
		out->bottleneck = MODEL_BOUND_IRREGULAR;
	if (in->core_cycles > out->cycles) {
		out->cycles = in->core_cycles;
		out->bottleneck = MODEL_BOUND_CORE;
	}
	if (in->stall_cycles > 0)
		out->cycles += in->stall_cycles;
	out->time_s = out->cycles / (in->clock_ghz * 1e9);
	out->gflops = out->cycles > 0 ? in->flops * in->clock_ghz / out->cycles
				      : 0;
	return 0;
}

int model_ecm_eval(const struct model_ecm_in *in, struct model_ecm_out *out,
		   struct ppr_err *err)
{
	unsigned i;
	double sum = in->t_nol;

	if (in->nlevels > MODEL_MAX_LEVELS)
		return bad(err, "ecm: number of cache levels must be 0..4");
	if (!(in->clock_ghz > 0))
		return bad(err, "ecm: clock must be positive");
	for (i = 0; i < MODEL_MAX_LEVELS; i++)
		out->t_data[i] = 0;
	for (i = 0; i < in->nlevels; i++) {
		if (!(in->bw[i] > 0))
			return bad(err, "ecm: bandwidths must be positive");
		out->t_data[i] = in->bytes[i] / in->bw[i];
		sum += out->t_data[i];
	}
	out->cycles = fmax(in->t_ol, sum);
	out->time_s = out->cycles / (in->clock_ghz * 1e9);
	out->gflops = out->cycles > 0 ? in->flops * in->clock_ghz / out->cycles
				      : 0;
	return 0;
}

int model_roofline_eval(const struct model_roofline_in *in,
			struct model_roofline_out *out, struct ppr_err *err)
{
	unsigned i;

	if (!(in->peak_gflops > 0))
		return bad(err, "roofline: peak must be positive");
	if (!in->nlevels || in->nlevels > MODEL_MAX_LEVELS + 1)
		return bad(err, "roofline: number of levels must be 1..5");
	out->gflops = in->peak_gflops;
	out->limiting = -1;
	for (i = 0; i < in->nlevels; i++) {
		if (!(in->bw_gbs[i] > 0))
			return bad(err, "roofline: bandwidths must be positive");
		if (in->bytes[i] > 0) {
			out->intensity[i] = in->flops / in->bytes[i];
			out->ceiling_gflops[i] = in->bw_gbs[i] *
						 out->intensity[i];
		} else {
			out->intensity[i] = INFINITY;
			out->ceiling_gflops[i] = INFINITY;
		}
		if (out->ceiling_gflops[i] < out->gflops) {
			out->gflops = out->ceiling_gflops[i];
			out->limiting = (int)i;
		}
	}
	i = in->nlevels - 1;
	out->dram_intensity = out->intensity[i];
	out->dram_gflops = fmin(in->peak_gflops, out->ceiling_gflops[i]);
	return 0;
}
