/*
 * fft.c - DRAM operational intensity and time of a 3-D FFT (the Roofline
 * paper's model, roofline-williams-waterman-patterson.md).
 *
 * Notes:
 * - Flops: 5 N log2 N for N = n^3 complex points (the usual radix-2
 *   count, as kernel_run_flops).  Data: 16 B per complex double point.
 * - Each pass over the array from DRAM reads and writes it once (32 B per
 *   point).  The transform along each of the 3 dimensions is one pass when
 *   nothing larger than a pencil stays in cache (the paper's 1.09 flop/B
 *   for 128^3, 1.41 for 512^3); when an n x n plane (16 n^2 B) stays in
 *   cache the two in-plane transforms share one pass, 2 passes in all
 *   (the paper's 1.64 for 128^3).
 * - Which case applies on a machine: a plane is taken to stay in cache
 *   when it fits in half of the largest private cache level (the other
 *   half for twiddles, the pencil being transformed and the streams).  On
 *   haswell.json that is 128 KiB of its 256 KiB L2: neither 128^3 (256
 *   KiB plane) nor 512^3 qualifies, as in the paper's headline figures.
 * - Time: the DRAM roofline, min(peak, bandwidth x intensity); the FFT at
 *   these sizes is bandwidth-bound on every machine shipped.
 */
#include "model/predict.h"

#include <math.h>
#include <string.h>

int model_fft3d_eval(const struct machine *m, uint64_t n,
		     struct model_fft3d *out, struct ppr_err *err)
{
	double pts, pass_bytes, peak, bw, plane_cache = 0;
	unsigned i;

	memset(out, 0, sizeof(*out));
	if (n < 2 || (n & (n - 1)))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "fft3d: n must be a power of two >= 2 "
				   "(got %llu)", (unsigned long long)n);
	if (!(m->clock_ghz > 0) || !(m->mem_bandwidth_gbs > 0))
		return ppr_err_set(err, PPR_EINVAL, m->path, 0, 0,
				   "fft3d: the machine needs a clock and a "
				   "memory bandwidth");
	out->n = n;
	pts = (double)n * n * n;
	out->flops = 5.0 * pts * log2(pts);
	pass_bytes = 32.0 * pts;
	for (i = 0; i < m->hier.nlevels; i++)
		if (m->level[i].shared_by_cores <= 1 &&
		    (double)m->hier.levels[i].size > plane_cache)
			plane_cache = (double)m->hier.levels[i].size;
	out->bytes_plane = 2 * pass_bytes;
	out->intensity_plane = out->flops / out->bytes_plane;
	out->passes = 16.0 * n * n <= plane_cache / 2 ? 2 : 3;
	out->bytes_dram = out->passes * pass_bytes;
	out->intensity = out->flops / out->bytes_dram;
	out->intensity_pencil = out->flops / (3 * pass_bytes);
	peak = m->clock_ghz * (m->flops_per_cycle_dp > 0 ?
			       m->flops_per_cycle_dp : 16);
	bw = m->mem_bandwidth_gbs;
	out->gflops = fmin(peak, bw * out->flops / out->bytes_dram);
	out->time_s = out->flops / (out->gflops * 1e9);
	return 0;
}
