/* test_model.c - PPR eq. (1)-(4), ECM and Roofline arithmetic. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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
	r.peak_gflops = 10;
	T_CHECK(model_roofline_eval(&r, &ro, NULL) == 0);
	T_CHECK(ro.limiting == -1);
	T_NEAR(ro.gflops, 10, 0);
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

int main(void)
{
	test_sysfs();
	test_paper_conv_tables();
	test_bottleneck();
	test_min_bandwidth();
	test_ecm_roofline();
	return t_done();
}
