/*
 * paper.c - the paper's hand counts (ppr-model.md sections 4-5) computed
 * from instruction counts and the core's port counts.
 *
 * Notes:
 * - Compute cycles: (adds + multiplies + FMAs) / FP-arithmetic ports (the
 *   ports that can run an FMA).  Memory-instruction cycles: the larger of
 *   load slots / load ports and stores / store-data ports, where a
 *   line-crossing (unaligned 256-bit) load takes line_split_slots slots,
 *   as the paper assumes for _mm256_loadu_ps.
 * - Convolution (single precision, 16 taps), per block of 16 outputs: the
 *   16 taps (or their broadcasts) stay in registers, so only the input is
 *   loaded.  Algorithm 1 (scalar): 256 FMAs, 256 scalar loads, 16 stores.
 *   Algorithm 2 (AVX2, unaligned): 32 FMAs on 8-wide vectors, 32 unaligned
 *   256-bit loads, 2 stores.  Algorithm 3 (AVX2, input copied so that
 *   every load is aligned): 32 FMAs, 32 aligned loads, 2 stores.
 * - CSR SpMV, per nonzero: 1 add + 1 multiply; loads of col_idx and vals
 *   issue together, the x load waits for col_idx (the paper's 3-cycle
 *   dependent-load latency, a constant of the paper, not the core's load
 *   latency) and then takes its own issue cycle: 1 + 3 + 1 = 5 cycles.
 *   row_ptr loads and y stores (R of them) are left out per nonzero, as
 *   the paper does.
 */
#include <string.h>

#include "dag/dag.h"

/* The paper's latency of a load whose address comes from a load. */
#define PAPER_DEP_LOAD_LAT 3

static unsigned popcount32(uint32_t x)
{
	unsigned n = 0;

	while (x) {
		x &= x - 1;
		n++;
	}
	return n;
}

static const char *const kernels[] = { "conv1", "conv2", "conv3", "csr", NULL };

const char *const *dag_paper_kernels(void)
{
	return kernels;
}

static double ceil_div(double a, double b)
{
	double q = a / b;
	double f = (double)(long long)q;

	return f < q ? f + 1 : f;
}

int dag_paper_eval(const char *kernel, const struct dag_core *core,
		   struct dag_paper *out, struct ppr_err *err)
{
	unsigned fp_ports, ld_ports, st_ports, split;
	double load_slots, ld_cy, st_cy;

	memset(out, 0, sizeof(*out));
	if (!core->cost[DAG_FP_FMA].valid || !core->cost[DAG_FP_FMA].ports)
		return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
				   "core '%s' has no FMA ports", core->name);
	fp_ports = popcount32(core->cost[DAG_FP_FMA].ports);
	ld_ports = popcount32(core->load_ports);
	st_ports = popcount32(core->store_data_ports);
	split = core->line_split_slots ? core->line_split_slots : 1;
	if (!ld_ports || !st_ports)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s' has no load or store port",
				   core->name);
	out->kernel = NULL;
	for (int i = 0; kernels[i]; i++)
		if (!strcmp(kernels[i], kernel))
			out->kernel = kernels[i];
	if (!out->kernel)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "unknown paper kernel '%s' (conv1, conv2, "
				   "conv3, csr)", kernel);
	if (!strcmp(kernel, "csr")) {
		out->unit = "nonzero";
		out->adds = 1;
		out->muls = 1;
		out->loads = 3;
		out->stores = 0;
		out->compute_cycles = ceil_div(out->adds + out->muls, fp_ports);
		/* col_idx + vals together, then the dependent x load */
		out->memory_cycles = ceil_div(2, ld_ports) + PAPER_DEP_LOAD_LAT + 1;
		out->how = "compute = (A+M)/FP ports; memory = issue(col_idx, vals)"
			   " + dependent-load latency 3 + issue(x)";
		return 0;
	}
	out->unit = "block of 16 outputs";
	if (!strcmp(kernel, "conv1")) {
		out->fmas = 256;
		out->loads = 256;
		out->stores = 16;
		load_slots = 256;
		out->how = "scalar: 256 FMA, 256 loads (taps in registers), 16 stores";
	} else if (!strcmp(kernel, "conv2")) {
		out->fmas = 32;
		out->loads = 32;
		out->stores = 2;
		load_slots = 32.0 * split;
		out->how = "AVX2 unaligned: 32 FMA, 32 loadu x line-split slots, 2 stores";
	} else {
		out->fmas = 32;
		out->loads = 32;
		out->stores = 2;
		load_slots = 32;
		out->how = "AVX2 aligned copies: 32 FMA, 32 aligned loads, 2 stores";
	}
	out->compute_cycles = ceil_div(out->fmas, fp_ports);
	ld_cy = ceil_div(load_slots, ld_ports);
	st_cy = ceil_div(out->stores, st_ports);
	out->memory_cycles = ld_cy > st_cy ? ld_cy : st_cy;
	return 0;
}
