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
 * - Beyond the paper, overlap (in->overlap, the machine file's
 *   hierarchy.transfers_overlap): eq. (4) adds the memory instructions and
 *   the transfers, as on the paper's Haswell, where an L1 line fill and
 *   the loads do not proceed in the same cycle (ECM's non-overlap).  On
 *   AMD Zen cores transfers overlap each other and the loads (reported for
 *   Zen by Hofmann et al., "Bridging the architecture gap", 2020, and
 *   measured here: a CSR matrix streamed from L3 (64,000 rows x 5) runs at
 *   its L1 in-core speed, 1.06x S_DAG(memory), where the sum predicts
 *   1.46x; the aligned convolution at n = 4096, which moves 4 input copies
 *   from L2, runs at its in-core speed).  Then the memory side is the
 *   slowest of S_DAG(memory) and each link's time: the regular bytes that
 *   cross the link (those from its origin level and beyond) plus the
 *   irregular misses into that level, at the link's bandwidth.
 * - With overlap, irregular lines that come from beyond L2 (the eq. 3
 *   terms of the links into L2, L3, ...) are also added to S_DAG(memory):
 *   their addresses come from loads (x[col[k]]), so no prefetcher fetches
 *   them ahead, and an L3 or memory latency (50 cycles, 200 ns) is more
 *   than the reorder window covers; the L2 latency of L1's irregular
 *   misses (14 cycles) is covered.  Measured here (2026-11-24 night,
 *   uniform random CSR, 15 per row, least of 3 runs): with x in L2 (64-512
 *   KB) an L1 miss of x costs 0.5-0.9 cycles beyond S_DAG(memory) (the
 *   link gives it 1 cycle, hidden under the max); with x in L3 (1-8 MB)
 *   an L2 miss of x costs 3-13 cycles (the link gives 2.5, hidden before).
 *   Against the stored SpMV measurements (bench/predict_spmv.sh, 42
 *   matrices, 5 sets) the worst |error| went from 41.6 / 46.2 / 57.3 /
 *   38.8 / 37.9% to 30.3 / 38.8 / 57.3 / 26.9 / 27.3% (rmat scale 18
 *   -39% -> -27%), the median moved by -0.2 to +0.5 points.  Adding L1's
 *   irregular misses too fits random x better but over-predicts
 *   FEM-ordered x, whose near-sequential misses the hardware does
 *   prefetch (wing -26% -> +26%, MIT8 -2% -> +15%); convolution has no
 *   irregular lines and is unchanged.
 * - Far references (2026-11-25): model/predict.c tells the irregular
 *   references no prefetcher finds (not within 2 lines of the last 16
 *   irregular lines) from the rest.  Where the machine file gives
 *   far_miss_cycles for the level that serves one (in->far_cost), a far
 *   reference costs that many cycles beyond S_DAG(memory), whichever
 *   level it comes from (L2 too); the near ones from beyond L2 keep
 *   their link times as above, and the near misses L2 serves stay hidden.
 *   zen4-epyc: 0.3 / 4 / 20 cycles served by L2 / L3 / memory, fitted by
 *   bench/fit_far.sh on random-column CSR and R-MAT (11 matrices, x from
 *   L1-L2 to memory): median |error| 16.5% -> 8.8%, worst 52.1% -> 15.0%;
 *   on the 42 matrices of bench/predict_spmv.sh, not used in the fit, the
 *   worst went from 26.9% to 18.9% on the same measurements (rmat scale
 *   18 -26.9% -> -15.2%, wing -18.7% -> -2.1%), the median from 9.0% to
 *   8.8%.  Without far_miss_cycles a far reference costs what a near one
 *   does (the link times), so other machine files predict as before.
 * - Held-up streams (2026-11-27, in->stream_serial, the machine file's
 *   memory.far_stream_serial, computed in model/predict.c): with far
 *   references, a stream from memory no longer runs under the core's
 *   work.  Measured on the Zen 4 guest (`ppr measure`, least of 3 medians
 *   of 10 runs, FEM and Laplacian matrices from memory measured beside
 *   them 4-14% slower than predicted): CSR with 1,048,576 rows of 15
 *   random columns from an x of 32 KB, 512 KB or 2 MB (gen:random
 *   ...,cols=4096 / 65536 / 262144), and R-MAT scale 20 with its rows
 *   sorted by length or its columns folded into 512 KB or 2 MB, ran
 *   35-45% slower than the overlap predicted, and within about 15% of
 *   the sum of the last link's time and S_DAG(memory) + not hidden.
 *   Banded rows (bw 7) with a share p of their columns made random in
 *   32 KB went 7.6, 10.0, 14.3, 16.3, 16.8 ms for p = 0, 0.1, 0.25, 0.5,
 *   1: the held-up part grows with the far references' share phi of L1's
 *   misses (0, 0.25, 0.38, 0.47, 0.54) and is complete from about 0.4.
 *   So the last link's time becomes its lines plus the share
 *   min(1, far_stream_serial x phi) (2 on zen4-genoa.json) of
 *   S_DAG(memory) and the not-hidden cycles of what the caches serve
 *   (the far references memory serves are on that link already).  Why
 *   the hardware does this is not measured here (no counters); a
 *   prefetcher that a stream of random lines disturbs, or miss buffers
 *   the far references fill, would both look like it.  The share is
 *   phased in as the footprint goes from the last level's usable share
 *   to its whole size: a matrix of 12-17 MB (random n = 65536 .. 262144)
 *   streams from memory in the LRU simulation of 5 ways, yet measured
 *   up to 1.5x apart between runs as other tenants leave more or less
 *   of the L3.  On 12 stored sets of bench/predict_spmv.sh, the worst
 *   error over the 4 generated matrices over the L3 went from 12-48%
 *   to 9-36%, 10 of 12 within 15% (R-MAT scale 20, edge factor 8: from
 *   12-48% fast to between 36% fast and 8% slow); R-MAT scale 18 went
 *   from -16..-35% to -8..+19%; the other 41 of bench/predict_spmv.sh's
 *   42 are unchanged.
 *   The per-row-4 random matrices, over-predicted before, are more so
 *   (n = 1,048,576: +22..+57% -> +28..+64% in 11 of the 12 sets).
 *   CSR only: the FFT's far references were not measured so.
 *   On the Zen 5 host (zen4-epyc.json, 2026-12-05) the fit is 1, not 2:
 *   without the key R-MAT scale 18 (x in the L3, its 47 MB from memory)
 *   was predicted 17-31% fast in all four stored passes of the day, and
 *   R-MAT 20 (edge factor 8) 6-21%.  On a fresh pass of 61 matrices
 *   (bench/predict_spmv.sh with SPMV_RANDOM=1) 0 / 0.5 / 1 / 1.5 / 2 gave
 *   R-MAT 18 -29.1 / -13.8 / +3.3 / +13.1 / +13.1%; the random-column
 *   matrices' median |error| 13.8 / 11.4 / 10.4 / 13.8 / 13.8% and worst
 *   53.1 / 42.7 / 32.7 / 38.2 / 38.2%; the 42 real and generated ones'
 *   median 4.8 / 4.8 / 4.5 / 4.8 / 4.8%.  Its share of the held-up time,
 *   min(1, phi), is R-MAT's phi of 0.78: on this core part of the
 *   core's memory time still runs under the stream.  A later pass, not
 *   in the fit: without / with the key, the 42's worst 32.6 / 28.3%
 *   (R-MAT 18 -32.6 / -15.9%), the random-column worst 65.0 / 37.0%.
 * - Beyond the paper: S_DAG(compute) and S_DAG(memory) are schedules of
 *   half the loop each, so a loop-carried chain through both (load ->
 *   multiply -> add -> next load's address) is in neither; when the caller
 *   gives the whole loop's schedule (core_cycles) it bounds the time from
 *   below (bottleneck "in-core-schedule"); late_cycles, the schedule
 *   with the loads waiting for late lines (model/predict.c), does too
 *   (bottleneck "late-lines").  stall_cycles (branch
 *   mispredictions) are added after the overlap: a flush stops both sides.
 */
#include "model/model.h"
#include "common/ppr_hot.h"

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
	case MODEL_BOUND_LATE_LINES: return "late-lines";
	}
	return "unknown";
}

PPR_SELECT_TEXT
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
	    in->core_cycles < 0 || in->late_cycles < 0 ||
	    in->regular_bytes < 0 || in->flops < 0)
		return bad(err, "model: negative cycle or byte count");
	if (!(in->hidden_share >= 0 && in->hidden_share <= 1))
		return bad(err, "model: hidden share must be 0..1");
	if (!(in->stream_serial >= 0 && in->stream_serial <= 1))
		return bad(err, "model: stream serial share must be 0..1");
	if (!(in->jump_cycles >= 0))
		return bad(err, "model: jump cycles must be non-negative");
	for (i = 0; i < in->nlevels; i++)
		if (in->far_misses[i] < 0 || in->far_cost[i] < 0 ||
		    in->irregular_misses[i] < 0)
			return bad(err, "model: negative miss count or cost");

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
	out->link_max = -1;
	out->t_far = 0;
	out->t_serial = 0;
	for (i = 0; i < MODEL_MAX_LEVELS; i++)
		out->t_link[i] = 0;
	if (in->overlap) {
		double reg_link[MODEL_MAX_LEVELS] = { 0 };
		unsigned o;

		/* regular bytes from origin o cross links 0..o-1 */
		if (in->regular_bytes > 0) {
			for (i = 0; i < in->regular_from && i < in->nlevels;
			     i++)
				reg_link[i] = in->regular_bytes;
		} else {
			for (o = 1; o <= in->nlevels &&
				    o <= MODEL_MAX_LEVELS; o++)
				for (i = 0; i < o; i++)
					reg_link[i] +=
						in->regular_by_origin[o];
		}
		double t_far = 0, t_far_mem = 0;

		/* irregular lines from beyond L2 are not hidden: added to
		 * the memory instructions (notes); far references at their
		 * far_cost where it is given */
		for (i = 1; i < in->nlevels; i++)
			t_far += (in->irregular_misses[i] -
				  fmin(in->far_misses[i],
				       in->irregular_misses[i])) *
				 in->line_size / in->bw[i];
		for (i = 0; i < in->nlevels; i++) {
			double served = fmin(in->far_misses[i],
					     in->irregular_misses[i]);
			unsigned j;

			if (i + 1 < in->nlevels)
				served -= fmin(in->far_misses[i + 1],
					       in->irregular_misses[i + 1]);
			double t = 0;

			if (served <= 0)
				continue;
			if (in->far_cost[i] > 0)
				t = served * in->far_cost[i];
			else
				for (j = 1; j <= i; j++)
					t += served * in->line_size / in->bw[j];
			t_far += t;
			if (i + 1 == in->nlevels)
				t_far_mem = t; /* served by memory */
		}
		out->t_far = t_far;
		out->memory_side = in->memory_cycles + t_far;
		for (i = 0; i < in->nlevels; i++) {
			out->t_link[i] = (reg_link[i] +
					  in->irregular_misses[i] *
					  in->line_size) / in->bw[i];
			if (out->t_link[i] > out->memory_side) {
				out->memory_side = out->t_link[i];
				out->link_max = (int)i;
			}
		}
		/* the stream from memory and what the core does meanwhile
		 * (notes: stream_serial) */
		if (in->stream_serial > 0 || in->jump_cycles > 0) {
			unsigned l = in->nlevels - 1;

			out->t_serial = in->stream_serial *
					(in->memory_cycles + t_far - t_far_mem) +
					in->jump_cycles;
			if (out->t_link[l] + out->t_serial >
			    out->memory_side) {
				out->memory_side = out->t_link[l] +
						   out->t_serial;
				out->link_max = (int)l;
			}
		}
	} else {
		double tr = out->t_regular + t_irr;

		out->memory_side = in->memory_cycles + tr -
				   in->hidden_share *
				   fmin(in->memory_cycles, tr);
	}
	out->cycles = fmax(in->compute_cycles, out->memory_side);
	if (in->compute_cycles >= out->memory_side)
		out->bottleneck = MODEL_BOUND_COMPUTE;
	else if (in->overlap && out->link_max < 0)
		out->bottleneck = out->memory_side - in->memory_cycles >
				  in->memory_cycles ? MODEL_BOUND_IRREGULAR :
				  MODEL_BOUND_MEMORY_INSTR;
	else if (in->overlap && out->t_serial >
		 out->t_link[out->link_max])
		/* the serial share outweighs the stream: as without it */
		out->bottleneck = out->t_far > in->memory_cycles ?
				  MODEL_BOUND_IRREGULAR :
				  MODEL_BOUND_MEMORY_INSTR;
	else if (in->overlap)
		out->bottleneck = in->irregular_misses[out->link_max] *
				  in->line_size * 2 > out->t_link[out->link_max] *
				  in->bw[out->link_max] ?
				  MODEL_BOUND_IRREGULAR : MODEL_BOUND_REGULAR;
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
	if (in->late_cycles > out->cycles) {
		out->cycles = in->late_cycles;
		out->bottleneck = MODEL_BOUND_LATE_LINES;
	}
	if (in->stall_cycles > 0)
		out->cycles += in->stall_cycles;
	out->time_s = out->cycles / (in->clock_ghz * 1e9);
	out->gflops = out->cycles > 0 ? in->flops * in->clock_ghz / out->cycles
				      : 0;
	return 0;
}

/* a's GFLOPS less b's with the memory link's bandwidth times s */
static int mem_scaled_diff(const struct model_ppr_in *a,
			   const struct model_ppr_in *b, double s, double *d,
			   struct ppr_err *err)
{
	struct model_ppr_in x = *a, y = *b;
	struct model_ppr_out ox, oy;
	int rc;

	x.bw[x.nlevels - 1] *= s;
	y.bw[y.nlevels - 1] *= s;
	rc = model_ppr_eval(&x, &ox, err);
	if (!rc)
		rc = model_ppr_eval(&y, &oy, err);
	if (!rc)
		*d = ox.gflops - oy.gflops;
	return rc;
}

/* The sign of d, with a relative dead band: predictions equal to 1e-12
 * of their size (both bound away from the memory link) are a tie, 0. */
static int sign_of(double d, double scale)
{
	return fabs(d) <= 1e-12 * scale ? 0 : d > 0 ? 1 : -1;
}

/* Notes: the two sides of the predicted bandwidth are searched apart,
 * by bisection on the logarithm of the scale, and the crossing nearer
 * to 1 wins; a GFLOPS difference that changes sign more than once on a
 * side (it need not be monotone: eq. (4)'s max switches terms) yields
 * one of its crossings there. */
int model_ppr_mem_crossover(const struct model_ppr_in *a,
			    const struct model_ppr_in *b, double *gbs,
			    struct ppr_err *err)
{
	double d1, dlo, dhi, scale, best = 0;
	unsigned n = a->nlevels, i, side;
	int s1, rc, found = 0;

	if (!n || n > MODEL_MAX_LEVELS || n != b->nlevels ||
	    a->clock_ghz != b->clock_ghz)
		return bad(err, "model: crossover of predictions on "
			   "different machines");
	for (i = 0; i < n; i++)
		if (a->bw[i] != b->bw[i])
			return bad(err, "model: crossover of predictions on "
				   "different machines");
	rc = mem_scaled_diff(a, b, 1, &d1, err);
	if (!rc)
		rc = mem_scaled_diff(a, b, 1 / MODEL_CROSSOVER_RANGE, &dlo,
				     err);
	if (!rc)
		rc = mem_scaled_diff(a, b, MODEL_CROSSOVER_RANGE, &dhi, err);
	if (rc)
		return rc;
	/* the size of the GFLOPS compared: a's at the predicted bandwidth
	 * and the differences seen */
	scale = fmax(fabs(d1), fmax(fabs(dlo), fabs(dhi)));
	s1 = sign_of(d1, scale);
	if (s1 == 0 && scale > 0) {   /* equal at the predicted bandwidth */
		*gbs = a->bw[n - 1] * a->clock_ghz;
		return 1;
	}
	for (side = 0; side < 2; side++) {
		double lo = 0, hi = 0, dend = side ? dhi : dlo;
		int send = sign_of(dend, scale), slo;
		unsigned it;

		if (send == s1 || send == 0)
			continue;
		/* log2 of the scale: the end, and 1 (log 0) */
		if (side) {
			lo = 0;
			hi = log2(MODEL_CROSSOVER_RANGE);
		} else {
			lo = -log2(MODEL_CROSSOVER_RANGE);
			hi = 0;
		}
		slo = side ? s1 : send;
		/* 30 halvings of 4 octaves: well within 0.1% */
		for (it = 0; it < 30; it++) {
			double mid = 0.5 * (lo + hi), dm;

			rc = mem_scaled_diff(a, b, exp2(mid), &dm, err);
			if (rc)
				return rc;
			if (sign_of(dm, scale) == slo)
				lo = mid;
			else
				hi = mid;
		}
		if (!found || fabs(0.5 * (lo + hi)) < fabs(best)) {
			best = 0.5 * (lo + hi);
			found = 1;
		}
	}
	if (found)
		*gbs = a->bw[n - 1] * exp2(best) * a->clock_ghz;
	return found;
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
	double t;
	unsigned i;
	int slowest = -1;	/* the level whose traffic takes longest */

	if (!(in->peak_gflops > 0))
		return bad(err, "roofline: peak must be positive");
	if (!in->nlevels || in->nlevels > MODEL_MAX_LEVELS + 1)
		return bad(err, "roofline: number of levels must be 1..5");
	if (!(in->flops >= 0))
		return bad(err, "roofline: flops must not be negative");
	out->gflops = in->peak_gflops;
	out->limiting = -1;
	out->time_s = in->flops / (in->peak_gflops * 1e9);
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
		t = in->bytes[i] > 0 ? in->bytes[i] / (in->bw_gbs[i] * 1e9) : 0;
		if (t > out->time_s) {
			out->time_s = t;
			slowest = (int)i;
		}
	}
	i = in->nlevels - 1;
	out->dram_intensity = out->intensity[i];
	out->dram_gflops = fmin(in->peak_gflops, out->ceiling_gflops[i]);
	if (!(in->flops > 0)) {
		/* no work: no GFLOPS to bound, only the traffic's time */
		out->gflops = out->dram_gflops = 0;
		out->limiting = slowest;
	}
	return 0;
}
