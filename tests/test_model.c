/* test_model.c - PPR eq. (1)-(4), ECM and Roofline arithmetic. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dag/dag.h"
#include "model/model.h"
#include "tests/t.h"

/* The paper's Haswell (ppr-model.md section 3 and section 5.1): L2->L1
 * 64 B/cy, L3->L2 32 B/cy, and 10 cycles for 2 lines from memory, i.e.
 * 12.8 B/cy; 2.7 GHz. */
static void haswell(struct model_ppr_in *in)
{
	in->nlevels = 3;
	in->bw[0] = 64;
	in->bw[1] = 32;
	in->bw[2] = 12.8;
	in->line_size = 64;
	in->clock_ghz = 2.7;
}

/*
 * Tables 4-6: per block of 16 outputs, flops 16*16*2; (compute, memory
 * instruction) cycles from the paper's instruction counts; lines per block
 * 2 (algorithms 1, 2) or 8 (algorithm 3, input copied 4x); data resident in
 * L1, L2, L3, memory.  Predicted GFLOPS as printed (2 decimals).
 */
static void test_paper_conv_tables(void)
{
	static const struct {
		int line;
		double compute, memory, lines;
		double gflops[4];
	} rows[] = {
		{ __LINE__, 128, 128, 2, { 10.80, 10.63, 10.47, 10.02 } },
		{ __LINE__, 16, 32, 2, { 43.20, 40.66, 38.40, 32.91 } },
		{ __LINE__, 16, 16, 8, { 86.40, 57.60, 43.20, 24.69 } },
	};
	unsigned r, lvl;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		for (lvl = 0; lvl < 4; lvl++) {
			struct model_ppr_in in = { 0 };
			struct model_ppr_out out;

			haswell(&in);
			in.flops = 16 * 16 * 2;
			in.compute_cycles = rows[r].compute;
			in.memory_cycles = rows[r].memory;
			in.regular_bytes = rows[r].lines * 64;
			in.regular_from = lvl;
			T_CHECK_AT(model_ppr_eval(&in, &out, NULL) == 0,
				   rows[r].line);
			T_NEAR_AT(round(out.gflops * 100) / 100,
				  rows[r].gflops[lvl], 1e-12, rows[r].line);
		}
	}
}

/* The paper's algorithms 2 (unaligned: 16 compute, 32 memory-instruction
 * cycles, 2 lines a block) and 3 (aligned: 16, 16, 8 lines) from memory
 * on Haswell: 32 + 128 / B against 16 + 512 / B cycles, equal at B = 24
 * B/cy (below the 32 B/cy of L3 -> L2), 64.8 GB/s at 2.7 GHz; aligned
 * leads above it.  From L1 no link binds: no crossing. */
static void conv_block(struct model_ppr_in *in, double memory, double lines,
		       unsigned from)
{
	memset(in, 0, sizeof(*in));
	haswell(in);
	in->flops = 16 * 16 * 2;
	in->compute_cycles = 16;
	in->memory_cycles = memory;
	in->regular_bytes = lines * 64;
	in->regular_from = from;
}

static void test_mem_crossover(void)
{
	struct model_ppr_in un, al;
	struct model_ppr_out o1, o2;
	double gbs = 0;

	conv_block(&un, 32, 2, 3);
	conv_block(&al, 16, 8, 3);
	T_CHECK(model_ppr_mem_crossover(&un, &al, &gbs, NULL) == 1);
	T_NEAR(gbs, 64.8, 1e-3);
	gbs = 0;
	T_CHECK(model_ppr_mem_crossover(&al, &un, &gbs, NULL) == 1);
	T_NEAR(gbs, 64.8, 1e-3);
	/* the order on either side of it, evaluated directly */
	un.bw[2] = al.bw[2] = 24 * 0.99;
	T_CHECK(model_ppr_eval(&un, &o1, NULL) == 0);
	T_CHECK(model_ppr_eval(&al, &o2, NULL) == 0);
	T_CHECK(o1.gflops > o2.gflops);
	un.bw[2] = al.bw[2] = 24 * 1.01;
	T_CHECK(model_ppr_eval(&un, &o1, NULL) == 0);
	T_CHECK(model_ppr_eval(&al, &o2, NULL) == 0);
	T_CHECK(o1.gflops < o2.gflops);
	/* from a machine where aligned leads, the crossing is below */
	un.bw[2] = al.bw[2] = 30;
	T_CHECK(model_ppr_mem_crossover(&al, &un, &gbs, NULL) == 1);
	T_NEAR(gbs, 64.8, 1e-3);
	/* beyond 16x the file's bandwidth: none found (24 / 1.4 > 16) */
	un.bw[2] = al.bw[2] = 1.4;
	T_CHECK(model_ppr_mem_crossover(&un, &al, &gbs, NULL) == 0);
	/* from L1: the same at every memory bandwidth */
	conv_block(&un, 32, 2, 0);
	conv_block(&al, 16, 8, 0);
	T_CHECK(model_ppr_mem_crossover(&un, &al, &gbs, NULL) == 0);
	/* equal cycles from L1: a tie, no crossing either */
	conv_block(&al, 32, 2, 0);
	T_CHECK(model_ppr_mem_crossover(&un, &al, &gbs, NULL) == 0);
	/* not the same machine */
	conv_block(&un, 32, 2, 3);
	conv_block(&al, 16, 8, 3);
	al.bw[1] = 31;
	T_CHECK(model_ppr_mem_crossover(&un, &al, &gbs, NULL) == PPR_EINVAL);
	al.bw[1] = 32;
	al.clock_ghz = 3;
	T_CHECK(model_ppr_mem_crossover(&un, &al, &gbs, NULL) == PPR_EINVAL);
}

/* CSR SpMV, section 4: T_process = 5*NNZ when compute is NNZ. */
static void test_bottleneck(void)
{
	struct model_ppr_in in = { 0 };
	struct model_ppr_out out;

	haswell(&in);
	in.flops = 2000;
	in.compute_cycles = 1000;
	in.memory_cycles = 5000;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == 0);
	T_NEAR(out.t_process, 5000, 0);
	T_CHECK(out.bottleneck == MODEL_BOUND_MEMORY_INSTR);

	/* 1000 irregular L3 misses of 64 B at 12.8 B/cy = 5000 cycles. */
	in.irregular_misses[0] = 1000;
	in.irregular_misses[1] = 1000;
	in.irregular_misses[2] = 1000;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == 0);
	T_NEAR(out.t_irr_level[0], 1000, 1e-12);
	T_NEAR(out.t_irr_level[1], 2000, 1e-12);
	T_NEAR(out.t_irr_level[2], 5000, 1e-12);
	T_NEAR(out.t_irregular, 8000, 1e-12);
	T_NEAR(out.cycles, 13000, 1e-12);
	T_CHECK(out.bottleneck == MODEL_BOUND_IRREGULAR);
	T_NEAR(out.gflops, 2000 * 2.7 / 13000, 1e-12);

	in.compute_cycles = 20000;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == 0);
	T_CHECK(out.bottleneck == MODEL_BOUND_COMPUTE);

	in.clock_ghz = 0;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == PPR_EINVAL);
}

/* Without overlap, hidden_share hides that share of the shorter of
 * S_DAG(memory) and the transfers under the longer: 0 the paper's sum,
 * 1 their maximum; outside 0..1 an error. */
static void test_hidden_share(void)
{
	struct model_ppr_in in = { 0 };
	struct model_ppr_out out;

	haswell(&in);
	in.flops = 2000;
	in.compute_cycles = 1000;
	in.memory_cycles = 5000;
	/* 1000 L1 misses of 64 B over 64 B/cy: T_irregular 1000 */
	in.irregular_misses[0] = 1000;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == 0);
	T_NEAR(out.t_irregular, 1000, 1e-12);
	T_NEAR(out.cycles, 6000, 1e-12);
	in.hidden_share = 0.7;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == 0);
	T_NEAR(out.cycles, 5000 + 0.3 * 1000, 1e-9);
	in.hidden_share = 1;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == 0);
	T_NEAR(out.cycles, 5000, 1e-12);
	/* the transfers longer: the instructions are the shorter */
	in.hidden_share = 0.7;
	in.memory_cycles = 400;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == 0);
	T_NEAR(out.cycles, fmax(1000, 1000 + 0.3 * 400), 1e-9);
	in.hidden_share = 1.5;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == PPR_EINVAL);
	in.hidden_share = -0.1;
	T_CHECK(model_ppr_eval(&in, &out, NULL) == PPR_EINVAL);
}

static void test_min_bandwidth(void)
{
	double bw[3] = { 64, 32, 12.8 };

	T_NEAR(model_min_bandwidth(bw, 3, 1), 64, 0);
	T_NEAR(model_min_bandwidth(bw, 3, 2), 32, 0);
	T_NEAR(model_min_bandwidth(bw, 3, 3), 12.8, 0);
	T_NEAR(model_min_bandwidth(bw, 3, 9), 12.8, 0);
}

static void test_ecm_roofline(void)
{
	struct model_ecm_in e = { 0 };
	struct model_ecm_out eo;
	struct model_roofline_in r = { 0 };
	struct model_roofline_out ro;

	/* Kerncraft-style: T = max(T_OL, T_nOL + T_L1L2 + T_L2L3 + T_L3Mem). */
	e.flops = 16;
	e.t_ol = 4;
	e.t_nol = 2;
	e.nlevels = 3;
	e.bytes[0] = e.bytes[1] = e.bytes[2] = 128;
	e.bw[0] = 64;
	e.bw[1] = 32;
	e.bw[2] = 12.8;
	e.clock_ghz = 2.7;
	T_CHECK(model_ecm_eval(&e, &eo, NULL) == 0);
	T_NEAR(eo.cycles, 2 + 2 + 4 + 10, 1e-12);
	e.t_ol = 30;
	T_CHECK(model_ecm_eval(&e, &eo, NULL) == 0);
	T_NEAR(eo.cycles, 30, 0);

	/* 1 GFLOP over 1 GB from DRAM at 20 GB/s: 20 GFLOPS < 100 peak. */
	r.flops = 1e9;
	r.peak_gflops = 100;
	r.nlevels = 2;
	r.bytes[0] = 4e9;  /* L1 traffic: ceiling 0.25 * 200 = 50 */
	r.bw_gbs[0] = 200;
	r.bytes[1] = 1e9;
	r.bw_gbs[1] = 20;
	T_CHECK(model_roofline_eval(&r, &ro, NULL) == 0);
	T_NEAR(ro.dram_intensity, 1.0, 1e-12);
	T_NEAR(ro.dram_gflops, 20, 1e-12);
	T_NEAR(ro.ceiling_gflops[0], 50, 1e-12);
	T_NEAR(ro.gflops, 20, 1e-12);
	T_CHECK(ro.limiting == 1);
	T_NEAR(ro.time_s, 1e9 / 20e9, 1e-15);
	r.peak_gflops = 10;
	T_CHECK(model_roofline_eval(&r, &ro, NULL) == 0);
	T_CHECK(ro.limiting == -1);
	T_NEAR(ro.gflops, 10, 0);
	T_NEAR(ro.time_s, 1e9 / 10e9, 1e-15);
	/* No flops: 0 GFLOPS (not the peak), the time of the slowest
	 * level's traffic (16 GB at 200 GB/s beats 1 GB at 20). */
	r.flops = 0;
	r.bytes[0] = 16e9;
	T_CHECK(model_roofline_eval(&r, &ro, NULL) == 0);
	T_NEAR(ro.gflops, 0, 0);
	T_NEAR(ro.dram_gflops, 0, 0);
	T_NEAR(ro.time_s, 16e9 / 200e9, 1e-15);
	T_CHECK(ro.limiting == 0);
	/* ... and nothing at all when there is no traffic either. */
	r.bytes[0] = r.bytes[1] = 0;
	T_CHECK(model_roofline_eval(&r, &ro, NULL) == 0);
	T_NEAR(ro.gflops, 0, 0);
	T_NEAR(ro.time_s, 0, 0);
	T_CHECK(ro.limiting == -1);
	r.flops = -1;
	T_CHECK(model_roofline_eval(&r, &ro, NULL) != 0);
}

static void put(const char *dir, const char *name, const char *val)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

/* A fake sysfs tree: one good L1D, then an index with a broken size. */
static void test_sysfs(void)
{
	char root[] = "/tmp/ppr-sysfs-XXXXXX", dir[600];
	struct detect_cache c[DETECT_MAX_CACHES];
	struct ppr_err e = { 0 };
	unsigned n = 0;

	if (!mkdtemp(root)) {
		T_SKIP("cannot make a temporary directory");
		return;
	}
	T_CHECK(detect_caches_sysfs(root, c, &n, &e) == PPR_ENOENT);
	snprintf(dir, sizeof(dir), "%s/index0", root);
	mkdir(dir, 0700);
	put(dir, "level", "1\n");
	put(dir, "type", "Data\n");
	put(dir, "size", "48K\n");
	put(dir, "ways_of_associativity", "12\n");
	put(dir, "number_of_sets", "64\n");
	put(dir, "coherency_line_size", "64\n");
	T_CHECK(detect_caches_sysfs(root, c, &n, &e) == 0);
	T_EQ_U64(n, 1);
	T_EQ_U64(c[0].size, 48 * 1024);
	T_EQ_U64(c[0].ways, 12);
	T_EQ_U64(c[0].sets, 64);
	T_STR(c[0].type, "Data");
	snprintf(dir, sizeof(dir), "%s/index1", root);
	mkdir(dir, 0700);
	put(dir, "level", "2\n");
	put(dir, "type", "Unified\n");
	put(dir, "size", "1024Q\n");
	T_CHECK(detect_caches_sysfs(root, c, &n, &e) == PPR_EFORMAT);
	T_CHECK(strstr(e.msg, "'1024Q' is not a number") != NULL);
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		T_CHECK(system(cmd) == 0);
	}
}

/* Which attempt of `ppr machine detect` is written: the Zen 5 guest of
 * 2026-12-04, whose first attempt ran 3.626 -> 3.453 GHz (-4.8%) and
 * whose second stayed at 3.446 (+0.0%) in a slow phase, 5.0% under the
 * add chains timed right after; a third at 3.620 (-0.1%) is steady. */
static void test_attempt_offness(void)
{
	double fastest = 3.626;

	T_NEAR(detect_attempt_offness(3.626, -0.048, fastest), 0.048, 1e-12);
	/* the second moved nothing and is still 5.0% off */
	T_NEAR(detect_attempt_offness(3.446, 0, fastest), 1 - 3.446 / 3.626,
	       1e-12);
	T_CHECK(detect_attempt_offness(3.446, 0, fastest) > 0.03);
	/* the third: its drift, under the 3% default */
	T_NEAR(detect_attempt_offness(3.620, -0.001, fastest),
	       1 - 3.620 / 3.626, 1e-12);
	T_CHECK(detect_attempt_offness(3.620, -0.001, fastest) < 0.03);
	/* a reading over the fastest (the caller keeps fastest the max) and
	 * no reading yet count as not slow */
	T_NEAR(detect_attempt_offness(3.7, 0.01, fastest), 0.01, 1e-12);
	T_NEAR(detect_attempt_offness(3.7, -0.02, 0), 0.02, 1e-12);
}

/* The CPU detect measures on: the fastest clock, the first of equals,
 * none when no CPU was timed (the Zen 5 guest's two vCPUs, 2026-12-07:
 * CPU 0 3.365 GHz, CPU 1 3.408). */
static void test_fastest_cpu(void)
{
	double two[] = { 3.365, 3.408 };
	double tie[] = { 3.4, 3.4, 3.1 };
	double some[] = { 0, 3.2, 0, 3.3 };
	double none[] = { 0, 0 };

	T_CHECK(detect_fastest(two, 2) == 1);
	T_CHECK(detect_fastest(two, 1) == 0);
	T_CHECK(detect_fastest(tie, 3) == 0);
	T_CHECK(detect_fastest(some, 4) == 3);
	T_CHECK(detect_fastest(none, 2) == -1);
	T_CHECK(detect_fastest(none, 0) == -1);
}

/* The usable ways of a shared last level from where its read bandwidth
 * fell: the Zen 5 guest's L3 (32 MiB, 16 ways), its bandwidth a tenth of
 * the way down at 20.8 MiB on 2026-12-06 (`ppr machine detect`'s sweep
 * beyond the L2) -> 10.4 of 16 ways, 10. */
static void test_usable_ways(void)
{
	double mib = 1048576.0;

	T_CHECK(detect_usable_ways(20.8 * mib, 32 * mib, 16) == 10);
	T_CHECK(detect_usable_ways(14.2 * mib, 32 * mib, 16) == 7);
	/* never under one way, never over the level's */
	T_CHECK(detect_usable_ways(0.1 * mib, 32 * mib, 16) == 1);
	T_CHECK(detect_usable_ways(0, 32 * mib, 16) == 1);
	T_CHECK(detect_usable_ways(60 * mib, 32 * mib, 16) == 16);
	/* no geometry */
	T_CHECK(detect_usable_ways(20.8 * mib, 0, 16) == 0);
	T_CHECK(detect_usable_ways(20.8 * mib, 32 * mib, 0) == 0);
}

/* The clock-window summary: a guest where 3 windows in 5 run at the core's
 * clock and the rest lose 10-20% to interruptions. */
static void test_clock_windows(void)
{
	double v[10] = { 3.1, 3.68, 3.3, 3.675, 3.679, 3.6, 3.68, 2.9, 3.65,
			 3.61 };
	struct detect_clock_windows cw;
	struct ppr_err e;

	T_CHECK(detect_clock_windows_summarise(v, 10, &cw) == 0);
	T_EQ_U64(cw.windows, 10);
	T_NEAR(cw.fastest_ghz, 3.68, 1e-12);
	/* sorted: 2.9 3.1 3.3 3.6 3.61 3.65 3.675 3.679 3.68 3.68 */
	T_NEAR(cw.median_ghz, 0.5 * (3.61 + 3.65), 1e-12);
	/* within 2% of 3.68 (>= 3.6064): 3.61 3.65 3.675 3.679 3.68 3.68 */
	T_NEAR(cw.uninterrupted, 0.6, 1e-12);
	/* the 95th percentile of 10: rank floor(0.95 x 9) = 8 of 0..9 */
	T_NEAR(cw.p95_ghz, 3.68, 1e-12);
	{
		/* of 100 windows 1..100 GHz: rank 94, so the five fastest
		   (96..100) and 95 itself are not under it */
		double u[100];

		for (int i = 0; i < 100; i++)
			u[99 - i] = i + 1; /* descending: summarise sorts */
		T_CHECK(detect_clock_windows_summarise(u, 100, &cw) == 0);
		T_NEAR(cw.p95_ghz, 95, 1e-12);
		T_NEAR(cw.fastest_ghz, 100, 1e-12);
		T_NEAR(cw.median_ghz, 50.5, 1e-12);
	}
	T_CHECK(detect_clock_windows_summarise(v, 0, &cw) == PPR_EINVAL);
	T_CHECK(detect_clock_windows(0, 2e-4, &cw, &e) == PPR_EINVAL);
	T_CHECK(detect_clock_windows(10, 0, &cw, &e) == PPR_EINVAL);
#if defined(__x86_64__)
	/* a real measurement: its figures are ordered and in range */
	T_CHECK(detect_clock_windows(20, 5e-5, &cw, &e) == 0);
	T_EQ_U64(cw.windows, 20);
	T_CHECK(cw.fastest_ghz >= cw.median_ghz && cw.median_ghz > 0);
	T_CHECK(cw.fastest_ghz >= cw.p95_ghz && cw.p95_ghz >= cw.median_ghz);
	T_CHECK(cw.uninterrupted > 0 && cw.uninterrupted <= 1);
	T_CHECK(cw.window_s > 0);
#endif
}

/* AMD APM vol. 3, table "L2/L3 Cache and TLB Associativity Field Encoding". */
static void test_amd_assoc(void)
{
	static const int want[16] = {
		0, 1, 2, 3, 4, 6, 8, DETECT_ASSOC_RESERVED, 16, DETECT_ASSOC_SEE_1D,
		32, 48, 64, 96, 128, DETECT_ASSOC_FULL,
	};
	unsigned code;

	for (code = 0; code < 16; code++)
		T_CHECK_AT(detect_amd_assoc(code) == want[code], code);
}

static void set4(uint32_t r[4], uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	r[0] = a;
	r[1] = b;
	r[2] = c;
	r[3] = d;
}

/* The Firecracker guest of an AMD EPYC family 1Ah these tests were written
 * on: no TOPOEXT, 0x8000001D and leaf 4 zero, legacy leaves as read. */
static void fc_epyc(struct detect_cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->vendor, sizeof(r->vendor), "AuthenticAMD");
	r->max_leaf = 13;
	r->max_ext_leaf = 0x80000021;
	r->ext1_ecx = 0x440001f1;
	set4(r->amd_l1, 0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140);
	set4(r->amd_l2l3, 0x40802040, 0x60804040, 0x04006140, 0x0fe09140);
}

static void check_cache(const struct detect_cache *c, unsigned level,
			const char *type, uint64_t size, uint32_t ways,
			uint64_t sets, int line)
{
	T_EQ_U64_AT(c->level, level, line);
	T_STR_AT(c->type, type, line);
	T_EQ_U64_AT(c->size, size, line);
	T_EQ_U64_AT(c->ways, ways, line);
	T_EQ_U64_AT(c->sets, sets, line);
	T_EQ_U64_AT(c->line_size, 64, line);
}

static void test_cpuid_amd_legacy(void)
{
	struct detect_cpuid_regs r;
	struct detect_cache c[DETECT_MAX_CACHES];
	struct detect_cpuid_note note;
	struct ppr_err e = { 0 };
	unsigned n = 0;

	/* as read here: L1D, L1I, L2; the L3 (code 9, socket-wide) left out */
	fc_epyc(&r);
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 3);
	check_cache(&c[0], 1, "Data", 48 << 10, 12, 64, __LINE__);
	check_cache(&c[1], 1, "Instruction", 32 << 10, 8, 64, __LINE__);
	check_cache(&c[2], 2, "Unified", 1 << 20, 8, 2048, __LINE__);
	T_CHECK(note.partial);
	T_CHECK(strstr(note.source, "0x80000005/0x80000006") != NULL);
	T_CHECK(strstr(note.source, "no TOPOEXT") != NULL);
	T_CHECK(strncmp(note.left_out, "L3 508 MiB (0x80000006 EDX): "
			"associativity code 9", 49) == 0);
	T_CHECK(strstr(note.left_out, "which cores share it") != NULL);
	T_CHECK(strchr(note.left_out, '\n') == NULL);

	/* the same with a valid L3 code: still left out (no sharing info) */
	r.amd_l2l3[3] = (64u << 18) | (8u << 12) | 64;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 3);
	T_CHECK(note.partial);
	T_CHECK(strncmp(note.left_out, "L3 32 MiB 16-way (0x80000006 EDX)",
			33) == 0);

	/* no L3 at all: nothing left out, the L2 is the last level */
	r.amd_l2l3[3] = 0;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 3);
	T_CHECK(!note.partial);
	T_STR(note.left_out, "");

	/* L2 code 9 and no 0x8000001D: L2 and the L3 beyond it left out */
	fc_epyc(&r);
	r.amd_l2l3[2] = (1024u << 16) | (9u << 12) | 64;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 2);
	T_STR(c[1].type, "Instruction");
	T_CHECK(note.partial);
	T_CHECK(strncmp(note.left_out, "L2 1 MiB (0x80000006 ECX): "
			"associativity code 9", 47) == 0);
	T_CHECK(strstr(note.left_out, "; L3 508 MiB") != NULL);

	/* L2 fully associative (code 0xF) and reserved (code 7): left out */
	r.amd_l2l3[2] = (1024u << 16) | (15u << 12) | 64;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 2);
	T_CHECK(strstr(note.left_out, "code 0xF, fully associative") != NULL);
	r.amd_l2l3[2] = (1024u << 16) | (7u << 12) | 64;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 2);
	T_CHECK(strstr(note.left_out, "code 7, reserved") != NULL);

	/* L2 disabled (code 0), no L3: L1 only, said, and not partial */
	r.amd_l2l3[2] = 0;
	r.amd_l2l3[3] = 0;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 2);
	T_CHECK(!note.partial);
	T_CHECK(strncmp(note.left_out, "L2: disabled", 12) == 0);

	/* L1I fully associative: left out, the data path stays */
	fc_epyc(&r);
	r.amd_l1[3] = 0x20ff0140;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 2);
	T_STR(c[1].type, "Unified");
	T_CHECK(strncmp(note.left_out, "L1I (0x80000005 EDX): fully", 27) == 0);

	/* a geometry that is not whole sets: left out, not rounded */
	fc_epyc(&r);
	r.amd_l2l3[2] = (1024u << 16) | (5u << 12) | 64; /* 6-way */
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 2);
	T_CHECK(strstr(note.left_out, "not a whole number of sets") != NULL);

	/* no L1D: an error naming what was left out */
	fc_epyc(&r);
	r.amd_l1[2] = 0x30000140; /* associativity 0: reserved */
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == PPR_ENOENT);
	T_CHECK(strstr(e.msg, "no usable first-level data cache: L1D "
		       "(0x80000005 ECX): associativity 0") != NULL);
	/* no 0x80000005 at all */
	r.max_ext_leaf = 0x80000004;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, NULL, &e) == PPR_ENOENT);
	T_CHECK(strstr(e.msg, "no cache leaves") != NULL);
}

/* A machine file's level against a detected cache (detect --base): a
 * legacy L2 of the same size and line keeps the file's ways and sets; a
 * first level, another size or line, or a non-legacy source must agree
 * in all four. */
static void test_base_level_match(void)
{
	struct detect_cpuid_regs r;
	struct detect_cache c[DETECT_MAX_CACHES];
	struct detect_cpuid_note note;
	struct ppr_err e = { 0 };
	unsigned n = 0;
	/* zen4-epyc.json's L1D and L2 (its sysfs: 16-way) */
	const double l1d[4] = { 48 << 10, 64, 12, 64 };
	const double l2[4] = { 1 << 20, 1024, 16, 64 };
	double g[4];

	fc_epyc(&r);
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_CHECK(note.legacy);
	T_EQ_U64(detect_base_level_match(&c[0], note.legacy, l1d),
		 DETECT_BASE_SAME);
	T_EQ_U64(detect_base_level_match(&c[2], note.legacy, l2),
		 DETECT_BASE_SIZE);
	T_EQ_U64(detect_base_level_match(&c[2], 0, l2), DETECT_BASE_OTHER);
	/* the legacy L1's ways are the CPU's own: they must agree */
	memcpy(g, l1d, sizeof(g));
	g[1] = 32;
	g[2] = 24;
	T_EQ_U64(detect_base_level_match(&c[0], note.legacy, g),
		 DETECT_BASE_OTHER);
	/* another size (Zen 4's 1 MiB L2 is the same size: the core model
	 * decides there, base_open) or line */
	memcpy(g, l2, sizeof(g));
	g[0] = 512 << 10;
	T_EQ_U64(detect_base_level_match(&c[2], note.legacy, g),
		 DETECT_BASE_OTHER);
	memcpy(g, l2, sizeof(g));
	g[3] = 128;
	T_EQ_U64(detect_base_level_match(&c[2], note.legacy, g),
		 DETECT_BASE_OTHER);
	/* as read: the same in all four */
	g[0] = 1 << 20;
	g[1] = 2048;
	g[2] = 8;
	g[3] = 64;
	T_EQ_U64(detect_base_level_match(&c[2], note.legacy, g),
		 DETECT_BASE_SAME);
	/* 0x8000001D (TOPOEXT with caches listed) is not legacy */
	r.ext1_ecx |= 1u << 22;
	r.det_amd[0][0] = 0x121;
	r.det_amd[0][1] = (11u << 22) | 63;
	r.det_amd[0][2] = 63;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_CHECK(!note.legacy);
}

/* Zen 4 as 0x8000001D describes it: L1D 32 KiB 8-way, L1I 32 KiB 8-way,
 * L2 1 MiB 8-way, L3 32 MiB 16-way (EAX sharing bits set as on hardware). */
static void test_cpuid_amd_topoext(void)
{
	struct detect_cpuid_regs r;
	struct detect_cache c[DETECT_MAX_CACHES];
	struct detect_cpuid_note note;
	struct ppr_err e = { 0 };
	unsigned n = 0;

	fc_epyc(&r);
	r.ext1_ecx |= 1u << 22;
	/* TOPOEXT set but 0x8000001D empty: the legacy leaves, and said so */
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 3);
	T_CHECK(strstr(note.source, "0x8000001D lists no caches") != NULL);
	T_CHECK(strstr(note.left_out, "which lists no caches") != NULL);

	set4(r.det_amd[0], 0x00004121, 0x01c0003f, 63, 0);
	set4(r.det_amd[1], 0x00004122, 0x01c0003f, 63, 0);
	set4(r.det_amd[2], 0x00004143, 0x01c0003f, 2047, 0);
	set4(r.det_amd[3], 0x0003c163, 0x03c0003f, 32767, 1);
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 4);
	check_cache(&c[0], 1, "Data", 32 << 10, 8, 64, __LINE__);
	check_cache(&c[1], 1, "Instruction", 32 << 10, 8, 64, __LINE__);
	check_cache(&c[2], 2, "Unified", 1 << 20, 8, 2048, __LINE__);
	check_cache(&c[3], 3, "Unified", 32 << 20, 16, 32768, __LINE__);
	T_CHECK(!note.partial);
	T_STR(note.left_out, "");
	T_CHECK(strstr(note.source, "0x8000001D") == note.source + 6);

	/* a fully associative L2 (EAX bit 9): it and the L3 left out */
	r.det_amd[2][0] |= 1u << 9;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 2);
	T_CHECK(note.partial);
	T_CHECK(strstr(note.left_out, "L2 (0x8000001D subleaf 2): fully") != NULL);
	T_CHECK(strstr(note.left_out, "L3: beyond the left-out L2") != NULL);
}

/* Haswell E5-2680 v3 by leaf 4: 30 MiB 20-way L3 has 24,576 sets. */
static void test_cpuid_intel(void)
{
	struct detect_cpuid_regs r;
	struct detect_cache c[DETECT_MAX_CACHES];
	struct detect_cpuid_note note;
	struct ppr_err e = { 0 };
	unsigned n = 0;

	memset(&r, 0, sizeof(r));
	snprintf(r.vendor, sizeof(r.vendor), "GenuineIntel");
	r.max_leaf = 15;
	r.max_ext_leaf = 0x80000008;
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == PPR_ENOENT);
	T_CHECK(strstr(e.msg, "leaf 4 lists no caches") != NULL);
	set4(r.det_leaf4[0], 0x1c004121, 0x01c0003f, 63, 0);
	set4(r.det_leaf4[1], 0x1c004122, 0x01c0003f, 63, 0);
	set4(r.det_leaf4[2], 0x1c004143, 0x01c0003f, 511, 0);
	set4(r.det_leaf4[3], 0x1c03c163, 0x04c0003f, 24575, 6);
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == 0);
	T_EQ_U64(n, 4);
	check_cache(&c[0], 1, "Data", 32 << 10, 8, 64, __LINE__);
	check_cache(&c[2], 2, "Unified", 256 << 10, 8, 512, __LINE__);
	check_cache(&c[3], 3, "Unified", 30 << 20, 20, 24576, __LINE__);
	T_CHECK(strstr(note.source, "leaf 4") != NULL);

	snprintf(r.vendor, sizeof(r.vendor), "CentaurHauls");
	T_CHECK(detect_caches_cpuid_decode(&r, c, &n, &note, &e) == PPR_ENOTSUP);
	T_CHECK(strstr(e.msg, "'CentaurHauls'") != NULL);
}

/* This CPU: whatever it says must be a consistent geometry, or a clear
 * error (no assumption about the machine the test runs on). */
/* CPUID leaf 1 EAX of real parts (AMD and Intel revision guides) to
 * the built-in core model, display family and model. */
static void test_core_decode(void)
{
	static const struct {
		const char *vendor;
		uint32_t eax;
		const char *core;
		unsigned family, model;
	} rows[] = {
		{ "AuthenticAMD", 0x00a10f11, "zen4", 0x19, 0x11 }, /* Genoa */
		{ "AuthenticAMD", 0x00a60f12, "zen4", 0x19, 0x61 }, /* Raphael */
		{ "AuthenticAMD", 0x00aa0f01, "zen4", 0x19, 0xa0 }, /* Bergamo */
		{ "AuthenticAMD", 0x00a00f11, NULL, 0x19, 0x01 },   /* Milan */
		{ "AuthenticAMD", 0x00b00f21, "zen5", 0x1a, 0x02 }, /* Turin */
		{ "AuthenticAMD", 0x00800f12, NULL, 0x17, 0x01 },   /* Naples */
		{ "GenuineIntel", 0x000306f2, "haswell", 6, 0x3f }, /* E5 v3 */
		{ "GenuineIntel", 0x000306c3, "haswell", 6, 0x3c },
		{ "GenuineIntel", 0x00050654, NULL, 6, 0x55 },      /* Skylake-SP */
		{ "GenuineIntel", 0x000806f8, "goldencove", 6, 0x8f }, /* SPR */
		{ "GenuineIntel", 0x000c06f2, "goldencove", 6, 0xcf }, /* EMR */
		{ "GenuineIntel", 0x000a06d1, "goldencove", 6, 0xad }, /* GNR */
		/* this project's Granite Rapids guest: Rocket Lake's
		   signature; the features decide below */
		{ "GenuineIntel", 0x000a0671, NULL, 6, 0xa7 },
		{ "HygonGenuine", 0x00900f01, NULL, 0x18, 0x00 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned f = 0, m = 0;
		const char *c = detect_core_decode(rows[i].vendor, rows[i].eax,
						   0, &f, &m);

		T_CHECK_AT(rows[i].core ? c && !strcmp(c, rows[i].core) : !c,
			   (int)i);
		T_EQ_U64_AT(f, rows[i].family, (int)i);
		T_EQ_U64_AT(m, rows[i].model, (int)i);
		/* every name it gives is a built-in core */
		T_CHECK_AT(!c || dag_core_builtin(c) != NULL, (int)i);
	}
	T_CHECK(detect_core_decode("AuthenticAMD", 0x00a10f11, 0, NULL, NULL) !=
		NULL);
	/* leaf 7 EDX as the Granite Rapids guest reads it (0x23c14010):
	   AMX-TILE and AVX512-FP16 name the core whatever the model says;
	   either alone, or on AMD, does not */
	{
		const char *c = detect_core_decode("GenuineIntel", 0x000a0671,
						   0x23c14010, NULL, NULL);

		T_CHECK(c && !strcmp(c, "goldencove"));
		T_CHECK(!detect_core_decode("GenuineIntel", 0x000a0671,
					    0x23c14010 & ~(1u << 24), NULL,
					    NULL));
		T_CHECK(!detect_core_decode("GenuineIntel", 0x000a0671,
					    0x23c14010 & ~(1u << 23), NULL,
					    NULL));
		T_CHECK(!detect_core_decode("AuthenticAMD", 0x00800f12,
					    0x23c14010, NULL, NULL));
	}
}

static void test_cpuid_here(void)
{
	struct detect_cache c[DETECT_MAX_CACHES];
	struct detect_cpuid_note note;
	struct ppr_err e = { 0 };
	unsigned n = 0, i;

	if (detect_caches_cpuid(c, &n, &note, &e)) {
		T_CHECK(e.msg[0] != 0);
		T_SKIP(e.msg);
		return;
	}
	T_CHECK(n >= 1 && n <= DETECT_MAX_CACHES);
	T_CHECK(note.source != NULL);
	for (i = 0; i < n; i++)
		T_EQ_U64_AT(c[i].sets * c[i].ways * c[i].line_size, c[i].size, i);
}

int main(void)
{
	test_sysfs();
	test_amd_assoc();
	test_attempt_offness();
	test_fastest_cpu();
	test_usable_ways();
	test_clock_windows();
	test_cpuid_amd_legacy();
	test_base_level_match();
	test_cpuid_amd_topoext();
	test_cpuid_intel();
	test_cpuid_here();
	test_core_decode();
	test_paper_conv_tables();
	test_bottleneck();
	test_hidden_share();
	test_min_bandwidth();
	test_ecm_roofline();
	test_mem_crossover();
	return t_done();
}
