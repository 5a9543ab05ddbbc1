/*
 * conv.c - the convolution study of the paper's section 5 (Tables 4-6):
 * the three algorithms per block of 16 outputs, data resident in each
 * cache level and in memory, and the best algorithm per residence.
 *
 * Notes:
 * - Instruction counts and the resulting S_DAG(compute) / S_DAG(memory)
 *   per block come from dag_paper_eval on the machine's core model
 *   (128/128, 16/32, 16/16 cycles on Haswell).
 * - Lines per block of 16 single-precision outputs: 2 for algorithms 1
 *   and 2 (the 16 inputs plus the 16-wide halo); 8 for algorithm 3, whose
 *   input is copied 4 times so every vector load is aligned (the paper's
 *   working set).  All of it is regular: T_regular = lines x 64 B / the
 *   narrowest link from the residence level to L2 (eq. 2).
 * - Memory bandwidth: the machine file's sustained figure (memory
 *   bandwidth_gbs); haswell.json carries the paper's 10 cycles per 2 lines
 *   = 12.8 B/cycle = 34.56 GB/s at 2.7 GHz (its section 5.1), not the
 *   42.6 GB/s peak.
 */
#include "model/predict.h"

#include <stdio.h>
#include <string.h>

int model_conv_paper(const struct machine *m, struct model_conv_paper *out,
		     struct ppr_err *err)
{
	static const char *const names[3] = { "conv1", "conv2", "conv3" };
	static const enum conv_variant vars[3] = {
		CONV_NAIVE, CONV_AVX2_UNALIGNED, CONV_AVX2_ALIGNED
	};
	static const double lines[3] = { 2, 2, 8 };
	const struct dag_core *core = model_machine_core(m);
	double bw[SIM_MAX_LEVELS];
	unsigned n, i, lvl;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!core)
		return ppr_err_set(err, PPR_EINVAL, m->path, 0, 0,
				   "no core model for machine '%s'", m->name);
	n = machine_fill_bandwidths(m, bw);
	if (n < 1 || n > MODEL_MAX_LEVELS)
		return ppr_err_set(err, PPR_EINVAL, m->path, 0, 0,
				   "conv: the machine needs 1..4 cache levels");
	out->nres = n + 1;
	for (lvl = 0; lvl < n; lvl++) {
		unsigned k = lvl;

		/* level names: L1D of a split L1 is levels[0] */
		snprintf(out->res_name[lvl], sizeof(out->res_name[lvl]), "%s",
			 m->hier.levels[k].name);
	}
	snprintf(out->res_name[n], sizeof(out->res_name[n]), "memory");
	for (i = 0; i < 3; i++) {
		struct dag_paper dp;
		struct model_conv_row *row = &out->row[i];

		rc = dag_paper_eval(names[i], core, &dp, err);
		if (rc)
			return rc;
		row->variant = vars[i];
		row->compute_cycles = dp.compute_cycles;
		row->memory_cycles = dp.memory_cycles;
		row->lines = lines[i];
		for (lvl = 0; lvl <= n; lvl++) {
			struct model_ppr_in in = { 0 };
			struct model_ppr_out o;
			unsigned b;

			in.flops = 16 * CONV_KLEN * 2;
			in.compute_cycles = dp.compute_cycles;
			in.memory_cycles = dp.memory_cycles;
			in.regular_bytes = lines[i] * 64;
			in.regular_from = lvl;
			in.nlevels = n;
			for (b = 0; b < n; b++)
				in.bw[b] = bw[b];
			in.line_size = 64;
			in.clock_ghz = m->clock_ghz;
			rc = model_ppr_eval(&in, &o, err);
			if (rc)
				return rc;
			row->gflops[lvl] = o.gflops;
			row->cycles[lvl] = o.cycles;
		}
	}
	for (lvl = 0; lvl <= n; lvl++) {
		out->best[lvl] = 0;
		for (i = 1; i < 3; i++)
			if (out->row[i].cycles[lvl] <
			    out->row[out->best[lvl]].cycles[lvl])
				out->best[lvl] = (int)i;
	}
	return 0;
}
