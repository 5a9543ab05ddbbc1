/*
 * test_machines.c - the machine loader: every shipped machine file loads
 * with the geometry it claims, and malformed files fail with the exact
 * one-line error expected (table-driven, rows carry __LINE__).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "machines/machine.h"
#include "machines/machine_int.h"
#include "t.h"

static void check_level(const struct sim_level_config *l, const char *name,
			uint64_t size, uint64_t sets, uint32_t ways, int line)
{
	T_STR_AT(l->name, name, line);
	T_EQ_U64_AT(l->size, size, line);
	T_EQ_U64_AT(l->sets, sets, line);
	T_EQ_U64_AT(l->ways, ways, line);
	T_EQ_U64_AT(l->line_size, 64, line);
	T_EQ_U64_AT(l->sets * l->ways * l->line_size, l->size, line);
}

static int load_ok(const char *path, struct machine *m)
{
	struct ppr_err err = { 0 };
	char buf[1400];
	int rc = machine_load(path, m, &err);

	if (rc)
		fprintf(stderr, "load %s: %s\n", path,
			ppr_err_format(&err, buf, sizeof(buf)));
	T_CHECK(rc == 0);
	return rc;
}

static void test_haswell(void)
{
	struct machine m;
	double bw[SIM_MAX_LEVELS];

	if (load_ok("machines/haswell.json", &m))
		return;
	T_STR(m.name, "haswell");
	T_CHECK(m.source[0] != '\0');
	T_NEAR(m.clock_ghz, 2.7, 1e-12);
	T_EQ_U64(m.hier.nlevels, 3);
	T_CHECK(!m.hier.split_l1);
	check_level(&m.hier.levels[0], "L1D", 32768, 64, 8, __LINE__);
	check_level(&m.hier.levels[1], "L2", 262144, 512, 8, __LINE__);
	check_level(&m.hier.levels[2], "L3", 30u << 20, 24576, 20, __LINE__);
	T_CHECK(m.hier.levels[2].inclusion == SIM_INCL_INCLUSIVE);
	T_CHECK(m.hier.levels[1].prefetch == SIM_PF_NEXTLINE);
	T_CHECK(m.hier.levels[0].prefetch == SIM_PF_NONE);
	T_CHECK(m.hier.levels[2].prefetch == SIM_PF_NONE);
	T_CHECK(m.hier.levels[0].repl == SIM_REPL_LRU);
	T_CHECK(m.hier.writebacks == 1);
	T_CHECK(m.hier.straddle == SIM_STRADDLE_SPLIT);
	/* sustained: the paper's 10 cycles per 2 lines at 2.7 GHz */
	T_NEAR(m.mem_bandwidth_gbs, 34.56, 1e-12);
	T_NEAR(m.mem_peak_bandwidth_gbs, 42.6, 1e-12);
	T_NEAR(m.flops_per_cycle_dp, 16, 0);
	T_NEAR(m.load_bytes_per_cycle, 64, 0);
	T_NEAR(m.store_bytes_per_cycle, 32, 0);
	T_CHECK(m.fma == 1);
	T_EQ_U64(machine_fill_bandwidths(&m, bw), 3);
	T_NEAR(bw[0], 64, 0);          /* L2 -> L1 */
	T_NEAR(bw[1], 32, 0);          /* L3 -> L2 */
	T_NEAR(bw[2], 12.8, 1e-12); /* memory -> L3, B/cy */
	machine_release(&m);
	T_CHECK(m.name == NULL);
	machine_release(&m);  /* twice: harmless */
}

static void test_zen(void)
{
	struct machine m;

	if (load_ok("machines/zen4-epyc.json", &m))
		return;
	T_EQ_U64(m.hier.nlevels, 3);
	T_CHECK(m.hier.split_l1 == 1);
	check_level(&m.hier.levels[0], "L1D", 49152, 64, 12, __LINE__);
	check_level(&m.hier.l1i, "L1I", 32768, 64, 8, __LINE__);
	check_level(&m.hier.levels[1], "L2", 1u << 20, 1024, 16, __LINE__);
	/* simulated with the 9 usable ways of its 16 (the file's
	 * usable_ways: the rest hold other tenants' lines) */
	check_level(&m.hier.levels[2], "L3", 18u << 20, 32768, 9, __LINE__);
	T_EQ_U64(m.level[2].size_bytes, 32u << 20);
	T_EQ_U64(m.level[2].ways, 16);
	T_CHECK(m.hier.levels[2].inclusion == SIM_INCL_EXCLUSIVE);
	T_CHECK(m.hier.levels[0].role == SIM_ROLE_DATA);
	T_CHECK(m.hier.l1i.role == SIM_ROLE_INSTR);
	T_NEAR(m.clock_ghz, 3.48, 1e-12);
	/* its L3 as DIP in a quarter of its sets since 2026-12-03 (the
	 * Zen 5 host's 3-D Laplacian n=60, model/README.md) */
	T_CHECK(m.hier.levels[2].repl == SIM_REPL_DIP);
	T_NEAR(m.hier.levels[2].lru_sets_share, 0.75, 0);
	T_CHECK(m.hier.levels[1].repl == SIM_REPL_LRU);
	machine_release(&m);
	/* the Zen 4 host's L3: DIP in a quarter of its sets (the file's
	 * lru_sets_share), simulated with its usable ways */
	if (load_ok("machines/zen4-genoa.json", &m))
		return;
	T_EQ_U64(m.hier.nlevels, 3);
	T_CHECK(m.hier.levels[2].repl == SIM_REPL_DIP);
	T_NEAR(m.hier.levels[2].lru_sets_share, 0.75, 0);
	T_CHECK(m.hier.levels[1].repl == SIM_REPL_LRU);
	T_EQ_U64(m.level[2].ways, 16);
	machine_release(&m);
}

/* The Sapphire Rapids guest's L3: 2 of 15 ways usable, simulated as 2/15
 * of its 114,688 sets (usable_by "sets"), a count no power of two. */
static void test_spr(void)
{
	struct machine m;

	if (load_ok("machines/xeon-spr.json", &m))
		return;
	T_EQ_U64(m.hier.nlevels, 3);
	check_level(&m.hier.levels[0], "L1D", 49152, 64, 12, __LINE__);
	check_level(&m.hier.l1i, "L1I", 32768, 64, 8, __LINE__);
	check_level(&m.hier.levels[1], "L2", 2u << 20, 2048, 16, __LINE__);
	/* (114688 * 2 + 7) / 15 = 15292 sets of 15 ways */
	check_level(&m.hier.levels[2], "L3", 15292ull * 15 * 64, 15292, 15,
		    __LINE__);
	T_EQ_U64(m.level[2].size_bytes, 105ull << 20);
	T_EQ_U64(m.level[2].ways, 15);
	machine_release(&m);
}

/* Compare with sysfs when it is there (this machine's file). */
static void test_zen_sysfs(void)
{
	static const struct {
		int idx;
		unsigned which; /* 0 L1D, 9 L1I, else levels[which] */
	} map[] = { { 0, 0 }, { 1, 9 }, { 2, 1 }, { 3, 2 } };
	struct machine m;
	size_t i;
	FILE *f;

	f = fopen("/sys/devices/system/cpu/cpu0/cache/index0/type", "r");
	if (!f) {
		T_SKIP("no /sys/devices/system/cpu/cpu0/cache");
		return;
	}
	fclose(f);
	if (load_ok("machines/zen4-epyc.json", &m))
		return;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		char path[128];
		unsigned long long ways = 0, sets = 0;
		const struct sim_level_config *l =
			map[i].which == 9 ? &m.hier.l1i
					  : &m.hier.levels[map[i].which];
		/* the physical ways (a shared level is simulated with its
		 * usable_ways) */
		unsigned lw = map[i].which == 9 ? m.l1i.ways
						: m.level[map[i].which].ways;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/"
			 "cache/index%d/ways_of_associativity", map[i].idx);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%llu", &ways) != 1) {
			if (f)
				fclose(f);
			T_SKIP("sysfs cache entry unreadable");
			continue;
		}
		fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/"
			 "cache/index%d/number_of_sets", map[i].idx);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%llu", &sets) != 1) {
			if (f)
				fclose(f);
			T_SKIP("sysfs cache entry unreadable");
			continue;
		}
		fclose(f);
		/* the file describes the machine the tests were written on;
		 * elsewhere a mismatch is expected, not a failure */
		if (lw != ways || l->sets != sets) {
			printf("note: sysfs index%d is %llu-way %llu sets, "
			       "zen4-epyc.json says %u-way %llu sets "
			       "(another machine?)\n", map[i].idx, ways, sets,
			       lw, (unsigned long long)l->sets);
			T_SKIP("not the machine zen4-epyc.json describes");
			continue;
		}
		T_EQ_U64_AT(lw, ways, map[i].idx);
		T_EQ_U64_AT(l->sets, sets, map[i].idx);
	}
	machine_release(&m);
}

static void test_compat(void)
{
	struct machine m;

	if (!load_ok("machines/compat/dinero-p2.json", &m)) {
		T_EQ_U64(m.hier.nlevels, 3);
		check_level(&m.hier.levels[0], "L1", 32768, 64, 8, __LINE__);
		check_level(&m.hier.levels[1], "L2", 262144, 512, 8, __LINE__);
		check_level(&m.hier.levels[2], "L3", 32u << 20, 32768, 16,
			    __LINE__);
		for (unsigned i = 0; i < 3; i++) {
			const struct sim_level_config *l = &m.hier.levels[i];

			T_CHECK_AT(l->repl == SIM_REPL_LRU, i);
			T_CHECK_AT(l->inclusion == SIM_INCL_NINE, i);
			T_CHECK_AT(l->write == SIM_WRITE_BACK_ALLOCATE, i);
			T_CHECK_AT(l->prefetch == SIM_PF_NONE, i);
			T_CHECK_AT(l->index == SIM_INDEX_MODULO, i);
		}
		T_CHECK(!m.hier.split_l1);
		T_CHECK(m.hier.writebacks == 1);
		T_NEAR(m.clock_ghz, 0, 0);  /* not given */
		machine_release(&m);
	}
	if (!load_ok("machines/compat/haswell-nine.json", &m)) {
		check_level(&m.hier.levels[2], "L3", 30u << 20, 24576, 20,
			    __LINE__);
		T_CHECK(m.hier.levels[2].inclusion == SIM_INCL_NINE);
		T_CHECK(m.hier.levels[1].prefetch == SIM_PF_NONE);
		machine_release(&m);
	}
	if (!load_ok("machines/compat/cachegrind.json", &m)) {
		T_EQ_U64(m.hier.nlevels, 2);
		T_CHECK(m.hier.split_l1 == 1);
		check_level(&m.hier.l1i, "I1", 32768, 64, 8, __LINE__);
		check_level(&m.hier.levels[0], "D1", 32768, 64, 8, __LINE__);
		check_level(&m.hier.levels[1], "LL", 32u << 20, 32768, 16,
			    __LINE__);
		T_CHECK(m.hier.straddle == SIM_STRADDLE_ONE);
		T_CHECK(m.hier.writebacks == 0);
		T_CHECK(m.hier.levels[1].write == SIM_WRITE_BACK_ALLOCATE);
		machine_release(&m);
	}
}

/* Every shipped file builds a hierarchy, and references go where the
 * roles say: an ifetch to the instruction cache when split. */
static void test_sim_builds(void)
{
	static const char *const files[] = {
		"machines/haswell.json", "machines/zen4-epyc.json",
		"machines/zen4-genoa.json", "machines/xeon-gnr.json",
		"machines/xeon-spr.json", "machines/zen3-milan.json",
		"machines/compat/dinero-p2.json",
		"machines/compat/haswell-nine.json",
		"machines/compat/cachegrind.json",
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct ppr_err err = { 0 };
		struct machine m;
		struct sim_hier *h;
		struct ppr_access a[2] = {
			{ .addr = 0x1000, .size = 4, .op = PPR_OP_IFETCH },
			{ .addr = 0x2000, .size = 8, .op = PPR_OP_LOAD },
		};
		unsigned n, first_i;

		if (load_ok(files[i], &m))
			continue;
		h = sim_hier_new(&m.hier, &err);
		T_CHECK_AT(h != NULL, i);
		if (!h) {
			fprintf(stderr, "%s: %s\n", files[i], err.msg);
			machine_release(&m);
			continue;
		}
		n = sim_hier_level_count(h);
		T_EQ_U64_AT(n, m.hier.nlevels + (m.hier.split_l1 ? 1 : 0), i);
		sim_hier_access_batch(h, a, 2);
		/* with a split L1, the L1I comes right after L1D */
		first_i = m.hier.split_l1 ? 1 : 0;
		T_EQ_U64_AT(sim_stat_op(sim_hier_level_stats(h, first_i)->misses,
					PPR_OP_IFETCH), 1, i);
		T_EQ_U64_AT(sim_stat_op(sim_hier_level_stats(h, 0)->misses,
					PPR_OP_LOAD), 1, i);
		T_STR_AT(sim_hier_level_config(h, first_i)->name,
			 m.hier.split_l1 ? m.hier.l1i.name : m.hier.levels[0].name,
			 i);
		sim_hier_free(h);
		machine_release(&m);
	}
}

/* ---- malformed files ---------------------------------------------------- */

/* A valid level and its pieces, to build rows from. */
#define LV "{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8, " \
	   "\"cl_size\": 64}"
#define LVN(n) "{\"name\": \"" n "\", \"size_bytes\": 32768, \"ways\": 8, " \
	       "\"cl_size\": 64}"
#define DOC(levels) "{\"name\": \"m\",\n \"hierarchy\": {\"levels\": [\n" \
		    levels "\n]}}\n"
/* A valid document with a "validation" section (line 3 on). */
#define VDOC(val) "{\"name\": \"m\",\n \"hierarchy\": {\"levels\": [" LV \
		  "]},\n \"validation\": " val "}\n"
#define VGRP "{\"matrices\": 4, \"median_abs_error\": 0.05, " \
	     "\"p90_abs_error\": 0.2, \"min_error\": -0.2, " \
	     "\"max_error\": 0.1}"

static const struct bad_row {
	int line;
	const char *text;
	const char *want;
} bad_rows[] = {
	{ __LINE__, "", "bad.json:1:1: empty file: expected a JSON object" },
	{ __LINE__, " \n\t\n", "bad.json:1:1: empty file: expected a JSON "
	  "object" },
	{ __LINE__, "{\"name\": \"m\",\n  \"hierarchy\" {}}",
	  "bad.json:2:15: syntax error near '{'" },
	{ __LINE__, "{\"name\": \"m\"", "bad.json:1:13: syntax error: "
	  "unexpected end of file" },
	{ __LINE__, "{\"name\": \"m\"}\n}", "bad.json:2:1: syntax error near "
	  "'}'" },
	{ __LINE__, "[1, 2]", "bad.json:1:1: 'machine file' must be an "
	  "object" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"colour\": 1}}",
	  "bad.json:2:34: unknown key 'colour' in 'memory' (allowed: "
	  "bandwidth_gbs, peak_bandwidth_gbs, latency_ns, far_miss_cycles, "
	  "late_line_cycles, late_line_ns, csr_bandwidth_gbs, "
	  "far_stream_serial, writeback_share, stream_jump_cycles)" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n   \"assoc\": 8}"),
	  "bad.json:4:4: unknown key 'assoc' in 'levels[]' (allowed: name, "
	  "role, size_bytes, sets, ways, cl_size, replacement_policy, seed, "
	  "inclusion, write_back, write_allocate, prefetch, prefetch_degree, "
	  "prefetch_distance, index, bandwidth_bytes_per_cycle, "
	  "latency_cycles, far_miss_cycles, late_line_cycles, "
	  "shared_by_cores, usable_ways, usable_by, lru_sets_share, "
	  "writeback_share, fill_load_cycles)" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n   \"lru_sets_share\": 0.5}"),
	  "bad.json:4:4: 'lru_sets_share' needs \"replacement_policy\": "
	  "\"dip\"" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n   \"replacement_policy\": \"dip\", "
	  "\"lru_sets_share\": 1.5}"),
	  "bad.json:4:33: 'lru_sets_share' must be between 0 and 1, got 1.5" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n   \"replacement_policy\": \"dip\", "
	  "\"lru_sets_share\": -1}"),
	  "bad.json:4:33: 'lru_sets_share' must be a non-negative number" },
	{ __LINE__, "{\"hierarchy\": {\"levels\": [" LV "]}}",
	  "bad.json:1:1: missing required key 'name'" },
	{ __LINE__, "{\"name\": \"m\",\n  \"hierarchy\": {}}",
	  "bad.json:2:16: missing required key 'levels'" },
	{ __LINE__, "{\"name\": \"m\"}", "bad.json:1:1: missing required "
	  "key 'hierarchy'" },
	{ __LINE__, DOC("  {\"name\": \"L1\", \"ways\": 8, \"cl_size\": 64}"),
	  "bad.json:3:3: missing required key 'size_bytes'" },
	{ __LINE__, "{\"name\": 5, \"hierarchy\": {\"levels\": [" LV "]}}",
	  "bad.json:1:2: 'name' must be a string" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": "
	  "\"8\", \"cl_size\": 64}"),
	  "bad.json:3:37: 'ways' must be a positive integer" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": "
	  "8.5, \"cl_size\": 64}"),
	  "bad.json:3:37: 'ways' must be a positive integer" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 0, \"ways\": 8, "
	  "\"cl_size\": 64}"),
	  "bad.json:3:16: 'size_bytes' must be a positive integer" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": "
	  "-8, \"cl_size\": 64}"),
	  "bad.json:3:37: 'ways' must be a positive integer" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 30720, \"ways\": 8,"
	  " \"cl_size\": 48}"),
	  "bad.json:3:48: 'cl_size' must be a power of two (got 48)" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32000, \"sets\": 64,"
	  " \"ways\": 8, \"cl_size\": 64}"),
	  "bad.json:3:16: 'size_bytes' must equal sets x ways x cl_size (64 "
	  "x 8 x 64), got 32000" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32000, \"ways\": 8,"
	  " \"cl_size\": 64}"),
	  "bad.json:3:16: 'size_bytes' must be a multiple of ways x cl_size "
	  "(8 x 64 = 512), got 32000" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"replacement_policy\": \"LRU-ish\"}"),
	  "bad.json:4:2: 'replacement_policy' must be one of \"lru\", "
	  "\"plru\", \"fifo\", \"random\", \"dip\", \"slru\"" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"inclusion\": \"mostly\"}"),
	  "bad.json:4:2: 'inclusion' must be one of \"non_inclusive\", "
	  "\"inclusive\", \"exclusive\"" },
	{ __LINE__, DOC(LVN("L1") ",\n" LVN("L2") ",\n" LVN("L3") ",\n" LVN("L4") ",\n"
	  LVN("L5")),
	  "bad.json:7:1: 'levels' must have at most 4 cache levels (plus an "
	  "optional instruction cache)" },
	{ __LINE__, DOC(""), "bad.json:2:16: 'levels' must have at least one "
	  "cache level" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"name\": \"L2\", \"size_bytes\": "
	  "32768, \"ways\": 8, \"cl_size\": 64}"),
	  "bad.json:3:16: duplicate key 'name'" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"write_allocate\": false}"),
	  "bad.json:4:2: 'write_allocate' must equal 'write_back': only "
	  "write-back + write-allocate and write-through + "
	  "no-write-allocate are simulated" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 49152, \"ways\": "
	  "12, \"cl_size\": 64,\n \"replacement_policy\": \"plru\"}"),
	  "bad.json:4:2: 'replacement_policy' \"plru\" needs a power-of-two "
	  "'ways' <= 64 (got 12)" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"write_back\": \"yes\"}"),
	  "bad.json:4:2: 'write_back' must be true or false" },
	{ __LINE__, DOC(LV ",\n{\"name\": \"L2\", \"size_bytes\": 65536, "
	  "\"ways\": 8, \"cl_size\": 128}"),
	  "bad.json:4:48: 'cl_size' must be the same in every level (64 in "
	  "the first), got 128" },
	{ __LINE__, DOC(LV ",\n" LV), "bad.json:4:2: 'name' must be unique: "
	  "\"L1\" is used twice" },
	{ __LINE__, "{\"name\": \"m\", \"clock_ghz\": 0,\n \"hierarchy\": "
	  "{\"levels\": [" LV "]}}",
	  "bad.json:1:15: 'clock_ghz' must be a positive number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": []}",
	  "bad.json:1:15: 'hierarchy' must be an object" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]"
	  "},\n \"memory\": {\"latency_ns\": 80}}",
	  "bad.json:2:12: missing required key 'bandwidth_gbs'" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "],"
	  "\n \"bcsr_hidden_share\": 1.5}}",
	  "bad.json:2:2: 'bcsr_hidden_share' must be between 0 and 1, got "
	  "1.5" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "],"
	  "\n \"bcsr_hidden_share\": -0.1}}",
	  "bad.json:2:2: 'bcsr_hidden_share' must be a non-negative number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "],"
	  "\n \"bcsr_miss_load_ratio\": 2}}",
	  "bad.json:2:2: 'bcsr_miss_load_ratio' must be between 0 and 1, got "
	  "2" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "],"
	  "\n \"bcsr_miss_load_ratio\": -1}}",
	  "bad.json:2:2: 'bcsr_miss_load_ratio' must be a non-negative "
	  "number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "],"
	  "\n \"straddle\": \"both\"}}",
	  "bad.json:2:2: 'straddle' must be one of \"split\", \"one\"" },
	{ __LINE__, DOC("{\"name\": \"I1\", \"role\": \"instruction\", "
	  "\"size_bytes\": 32768, \"ways\": 8, \"cl_size\": 64},\n" LV),
	  "bad.json:3:1: a split L1 needs one 'role' \"data\" and one 'role' "
	  "\"instruction\" entry" },
	{ __LINE__, DOC("{\"name\": \"L1-data-cache-00\", \"size_bytes\": 32768,"
	  " \"ways\": 8, \"cl_size\": 64}"),
	  "bad.json:3:2: 'name' must be 1 to 15 characters" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"prefetch\": \"next_line\"}"),
	  "bad.json:4:2: 'prefetch' \"next_line\" needs a level above: not "
	  "allowed in the first level" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"far_miss_cycles\": -0.5}"),
	  "bad.json:4:2: 'far_miss_cycles' must be a non-negative number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"far_miss_cycles\": \"20\"}}",
	  "bad.json:2:34: 'far_miss_cycles' must be a non-negative number" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"late_line_cycles\": -1}"),
	  "bad.json:4:2: 'late_line_cycles' must be a non-negative number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"late_line_cycles\": true}}",
	  "bad.json:2:34: 'late_line_cycles' must be a non-negative number" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"late_line_cycles\": 1000.5}"),
	  "bad.json:4:2: 'late_line_cycles' must be at most 1000, got 1000.5" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"writeback_share\": 1.5}"),
	  "bad.json:4:2: 'writeback_share' must be between 0 and 1, got 1.5" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"usable_ways\": 2, \"usable_by\": \"lines\"}"),
	  "bad.json:4:20: 'usable_by' must be one of \"ways\", \"sets\"" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"late_line_cycles\": 4000}}",
	  "bad.json:2:34: 'late_line_cycles' must be at most 1000, got 4000" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"late_line_ns\": -6}}",
	  "bad.json:2:34: 'late_line_ns' must be a non-negative number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"late_line_cycles\": 21,"
	  "\n \"late_line_ns\": 6}}",
	  "bad.json:3:2: give 'late_line_cycles' or 'late_line_ns', not "
	  "both" },
	{ __LINE__, "{\"name\": \"m\", \"clock_ghz\": 4, \"hierarchy\": "
	  "{\"levels\": [" LV "]},\n \"memory\": {\"bandwidth_gbs\": 40, "
	  "\"late_line_ns\": 260}}",
	  "bad.json:2:34: 'late_line_ns' must be at most 1000 cycles at "
	  "clock_ghz 4, got 260 ns (1040 cycles)" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"late_line_ns\": 6}}",
	  "bad.json:2:34: 'late_line_ns' needs clock_ghz" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"far_stream_serial\": -2}}",
	  "bad.json:2:34: 'far_stream_serial' must be a non-negative number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"stream_jump_cycles\": -1}}",
	  "bad.json:2:34: 'stream_jump_cycles' must be a non-negative number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"writeback_share\": 1.5}}",
	  "bad.json:2:34: 'writeback_share' must be between 0 and 1, got 1.5" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"writeback_share\": -1}}",
	  "bad.json:2:34: 'writeback_share' must be a non-negative number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"csr_bandwidth_gbs\": 26}}",
	  "bad.json:2:34: 'csr_bandwidth_gbs' must be an array" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"csr_bandwidth_gbs\": []}}",
	  "bad.json:2:34: 'csr_bandwidth_gbs' must not be empty" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40,\n \"csr_bandwidth_gbs\": "
	  "[[5, 26], [7]]}}",
	  "bad.json:3:33: 'csr_bandwidth_gbs' entries must be [nonzeros per "
	  "row, GB/s] pairs" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40,\n \"csr_bandwidth_gbs\": "
	  "[[5, 26], [7, -1]]}}",
	  "bad.json:3:37: 'GB/s' must be a positive number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40,\n \"csr_bandwidth_gbs\": "
	  "[[5, 26], [\"7\", 30]]}}",
	  "bad.json:3:34: 'nonzeros per row' must be a positive number" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40,\n \"csr_bandwidth_gbs\": "
	  "[[7, 26], [5, 30]]}}",
	  "bad.json:3:33: 'csr_bandwidth_gbs' row lengths must increase" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"peak\": {\"flops_per_cycle_dp\": -16}}",
	  "bad.json:2:11: 'flops_per_cycle_dp' must be a non-negative "
	  "number" },
	{ __LINE__, "{\"name\": \"m\", \"source\": \"caf\\u00e9 \\\"q\\\" {[\","
	  " \"cores\": 0,\n \"hierarchy\": {\"levels\": [" LV "]}}",
	  "bad.json:1:47: 'cores' must be a positive integer" },
	{ __LINE__, "\xEF\xBB\xBF{\"name\": \"m\", \"hierarchy\": {\"levels\": "
	  "[" LV "]},\n \"peak\": {\"fma\": true, \"fma\": false}}",
	  "bad.json:2:24: duplicate key 'fma'" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 40, \"a\tb\xc3\xa9\": 1}}",
	  "bad.json:2:34: unknown key 'a\\x09b\\xc3\\xa9' in 'memory' "
	  "(allowed: bandwidth_gbs, peak_bandwidth_gbs, latency_ns, "
	  "far_miss_cycles, late_line_cycles, late_line_ns, "
	  "csr_bandwidth_gbs, far_stream_serial, writeback_share, "
	  "stream_jump_cycles)" },
	{ __LINE__, DOC("{\"name\": \"L\\u0001\", \"size_bytes\": 32768, "
	  "\"ways\": 8, \"cl_size\": 64}"),
	  "bad.json:3:2: 'name' must be printable ASCII" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": "
	  "8,\n \"cl_size\": 64, \"prefetch_degree\": 65}"),
	  "bad.json:4:17: 'prefetch_degree' must be at most 64" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"peak\": {\"simd_width_bits\": 96}}",
	  "bad.json:2:11: 'simd_width_bits' must be 0 or a power of two >= 64"
	},
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"levels\": [" LV "]},"
	  "\n \"memory\": {\"bandwidth_gbs\": 0}}",
	  "bad.json:2:13: 'bandwidth_gbs' must be a positive number" },
	{ __LINE__, DOC(LV ",\n{\"name\": \"L2\", \"size_bytes\": 65536, "
	  "\"ways\": 8, \"cl_size\": 64,\n \"inclusion\": \"exclusive\"},\n"
	  "{\"name\": \"I1\", \"role\": \"instruction\", \"size_bytes\": "
	  "32768, \"ways\": 8, \"cl_size\": 64}"),
	  "bad.json:6:16: 'role' \"instruction\" is only allowed in the first "
	  "two entries of 'levels' (a split L1)" },
	{ __LINE__, DOC(LV ",\n{\"name\": \"L2\", \"size_bytes\": 65536, "
	  "\"ways\": 8, \"cl_size\": 64,\n \"inclusion\": \"exclusive\", "
	  "\"prefetch\": \"stream\"}"),
	  "bad.json:5:28: 'prefetch' must be \"none\" in an exclusive level" },
	{ __LINE__, "{\"name\": \"m\", \"hierarchy\": {\"straddle\": \"one\","
	  "\n\"levels\": [" LV ",\n{\"name\": \"L2\", \"size_bytes\": "
	  "65536, \"ways\": 8, \"cl_size\": 64, \"inclusion\": "
	  "\"exclusive\"}]}}",
	  "bad.json:3:63: 'inclusion' \"exclusive\" cannot be combined with "
	  "'straddle' \"one\"" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 32768, \"ways\": 8,"
	  " \"cl_size\": 64,\n \"write_back\": false, \"write_allocate\": "
	  "false},\n{\"name\": \"L2\", \"size_bytes\": 65536, \"ways\": 8, "
	  "\"cl_size\": 64, \"inclusion\": \"exclusive\"}"),
	  "bad.json:5:63: 'inclusion' \"exclusive\" needs write-back levels "
	  "above it" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 4194304, \"ways\": "
	  "1, \"cl_size\": 2097152}"),
	  "bad.json:3:50: 'cl_size' must be in 8..1048576 (got 2097152)" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 8192, \"ways\": "
	  "128, \"cl_size\": 64,\n \"replacement_policy\": \"plru\"}"),
	  "bad.json:4:2: 'replacement_policy' \"plru\" needs a power-of-two "
	  "'ways' <= 64 (got 128)" },
	{ __LINE__, DOC("{\"name\": \"L1\", \"size_bytes\": 2199023255552, "
	  "\"ways\": 8, \"cl_size\": 64}"),
	  "bad.json:3:16: 'size_bytes' must hold at most 2^34 lines" },
	{ __LINE__, VDOC("{\"spmv\": {}}"),
	  "bad.json:3:17: unknown key 'spmv' in 'validation' (allowed: "
	  "spmv_csr, bcsr_pick, conv)" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"date\": \"d\"}}"),
	  "bad.json:3:29: missing required key 'all'" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"all\": {\"matrices\": 0, "
	  "\"median_abs_error\": 0.05, \"p90_abs_error\": 0.2, "
	  "\"min_error\": -0.2, \"max_error\": 0.1}}}"),
	  "bad.json:3:38: 'matrices' must be a positive integer" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"all\": {\"matrices\": 4, "
	  "\"median_abs_error\": 0.05, \"p90_abs_error\": 0.2, "
	  "\"min_error\": -1, \"max_error\": 0.1}}}"),
	  "bad.json:3:101: 'min_error' must be above -1 (predicted / "
	  "measured - 1), got -1" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"all\": {\"matrices\": 4, "
	  "\"median_abs_error\": 0.3, \"p90_abs_error\": 0.2, "
	  "\"min_error\": -0.2, \"max_error\": 0.1}}}"),
	  "bad.json:3:78: 'p90_abs_error' (0.2) must not be below "
	  "'median_abs_error' (0.3)" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"all\": {\"matrices\": 4, "
	  "\"median_abs_error\": 0.05, \"p90_abs_error\": 0.25, "
	  "\"min_error\": -0.2, \"max_error\": 0.1}}}"),
	  "bad.json:3:79: 'p90_abs_error' (0.25) must not be above the "
	  "largest error (0.2)" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"all\": {\"matrices\": 4, "
	  "\"median_abs_error\": 0.05, \"p90_abs_error\": 0.2, "
	  "\"min_error\": 0.2, \"max_error\": 0.1}}}"),
	  "bad.json:3:119: 'max_error' (0.1) must not be below 'min_error' "
	  "(0.2)" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"all\": " VGRP ", \"exits\": "
	  VGRP "}}"),
	  "bad.json:3:17: 'exit_share' must be above 0 and at most 1 with "
	  "'exits' or 'rest' (the share of mispredicted loop exits that "
	  "splits them), got 0" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"exit_share\": 0.5, \"all\": "
	  VGRP ", \"exits\": " VGRP ", \"rest\": " VGRP "}}"),
	  "bad.json:3:49: 'all' has 4 matrices, fewer than 'exits' and "
	  "'rest' together (8)" },
	{ __LINE__, VDOC("{\"spmv_csr\": {\"all\": " VGRP ", \"when\": 1}}"),
	  "bad.json:3:139: unknown key 'when' in 'spmv_csr' (allowed: date, "
	  "command, exit_share, all, exits, rest)" },
	{ __LINE__, VDOC("{\"bcsr_pick\": {\"matrices\": 4, "
	  "\"at_least_95\": 5, \"mean_share\": 0.98, \"min_share\": 0.9}}"),
	  "bad.json:3:46: 'at_least_95' (5) must not exceed 'matrices' (4)" },
	{ __LINE__, VDOC("{\"bcsr_pick\": {\"matrices\": 4, "
	  "\"at_least_95\": 3, \"mean_share\": 0.98, \"min_share\": 0.99}}"),
	  "bad.json:3:84: the shares must satisfy 0 < 'min_share' <= "
	  "'mean_share' <= 1, got 0.99 and 0.98" },
	{ __LINE__, VDOC("{\"bcsr_pick\": {\"matrices\": 4, "
	  "\"at_least_95\": 3, \"mean_share\": 1.5, \"min_share\": 0.9}}"),
	  "bad.json:3:64: the shares must satisfy 0 < 'min_share' <= "
	  "'mean_share' <= 1, got 0.9 and 1.5" },
	{ __LINE__, VDOC("{\"bcsr_pick\": {\"matrices\": 4, "
	  "\"mean_share\": 0.98, \"min_share\": 0.9}}"),
	  "bad.json:3:30: missing required key 'at_least_95'" },
	{ __LINE__, VDOC("{\"conv\": {\"cells\": 12, \"within_10\": 13, "
	  "\"median_abs_error\": 0.04, \"worst_error\": 0.1, \"sizes\": 4, "
	  "\"best_right\": 4}}"),
	  "bad.json:3:39: 'within_10' (13) must not exceed 'cells' (12)" },
	{ __LINE__, VDOC("{\"conv\": {\"cells\": 12, \"within_10\": 12, "
	  "\"median_abs_error\": 0.04, \"worst_error\": 0.1, \"sizes\": 4, "
	  "\"best_right\": 5}}"),
	  "bad.json:3:114: 'best_right' (5) must not exceed 'sizes' (4)" },
	{ __LINE__, VDOC("{\"conv\": {\"cells\": 12, \"within_10\": 12, "
	  "\"median_abs_error\": 0.04, \"worst_error\": -1, \"sizes\": 4, "
	  "\"best_right\": 4}}"),
	  "bad.json:3:82: 'worst_error' must be above -1 (predicted / "
	  "measured - 1), got -1" },
	{ __LINE__, VDOC("{\"conv\": {\"cells\": 12, \"within_10\": 12, "
	  "\"median_abs_error\": 0.04, \"worst_error\": -0.03, \"sizes\": "
	  "4, \"best_right\": 4}}"),
	  "bad.json:3:82: 'worst_error' (-0.03) must not be smaller in "
	  "magnitude than 'median_abs_error' (0.04)" },
	{ __LINE__, VDOC("{\"conv\": {\"cells\": 12, \"within_10\": 12, "
	  "\"median_abs_error\": 0.04, \"worst_error\": 0.1}}"),
	  "bad.json:3:25: missing required key 'sizes'" },
	{ __LINE__, VDOC("{\"conv\": {\"cells\": 12, \"within_10\": 12, "
	  "\"median_abs_error\": 0.04, \"worst_error\": 0.1, \"sizes\": 4, "
	  "\"best_right\": 4, \"best\": 4}}"),
	  "bad.json:3:131: unknown key 'best' in 'conv' (allowed: date, "
	  "command, cells, within_10, median_abs_error, worst_error, "
	  "worst_cell, sizes, best_right)" },
};

static void test_bad(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		const struct bad_row *r = &bad_rows[i];
		struct ppr_err err = { 0 };
		struct machine m;
		char buf[1400];
		int rc;

		memset(&m, 0x5a, sizeof(m));
		rc = machine_load_string("bad.json", r->text, strlen(r->text),
					 &m, &err);
		T_CHECK_AT(rc == PPR_EFORMAT, r->line);
		T_STR_AT(ppr_err_format(&err, buf, sizeof(buf)), r->want,
			 r->line);
		T_CHECK_AT(!strchr(buf, '\n'), r->line);
	}
}

/* A valid minimal document; defaults filled in. */
static void test_defaults(void)
{
	static const char txt[] = "{\"name\": \"m\", \"hierarchy\": "
				  "{\"levels\": [" LV "]}}";
	struct ppr_err err = { 0 };
	struct machine m;
	const struct sim_level_config *l;

	T_CHECK(machine_load_string("ok.json", txt, strlen(txt), &m,
				    &err) == 0);
	l = &m.hier.levels[0];
	T_EQ_U64(m.hier.nlevels, 1);
	T_EQ_U64(l->sets, 64);
	T_CHECK(l->repl == SIM_REPL_LRU && l->inclusion == SIM_INCL_NINE);
	T_CHECK(l->write == SIM_WRITE_BACK_ALLOCATE);
	T_CHECK(l->prefetch == SIM_PF_NONE && l->index == SIM_INDEX_MODULO);
	T_EQ_U64(l->pf_degree, 1);
	T_EQ_U64(l->pf_distance, 1);
	T_EQ_U64(l->seed, 1);
	T_CHECK(l->role == SIM_ROLE_UNIFIED);
	T_CHECK(m.hier.straddle == SIM_STRADDLE_SPLIT && m.hier.writebacks);
	T_CHECK(!m.hier.split_l1 && !m.hier.classify_3c);
	T_EQ_U64(m.cores, 1);
	T_STR(m.description, "");
	T_STR(m.path, "ok.json");
	T_EQ_U64(m.level[0].shared_by_cores, 1);
	machine_release(&m);
	T_STR(machine_repl_name(SIM_REPL_PLRU), "plru");
	T_STR(machine_inclusion_name(SIM_INCL_NINE), "non_inclusive");
	T_STR(machine_prefetch_name(SIM_PF_NEXTLINE), "next_line");
	T_STR(machine_prefetch_name((enum sim_prefetch)99), "?");

	T_CHECK(machine_load("machines/no-such.json", &m, &err) ==
		PPR_ENOENT);
	T_CHECK(strstr(err.msg, "no-such.json") != NULL);
}

/* memory.csr_bandwidth_gbs: loaded in order, interpolated linearly in the
 * row length, the end points' figures beyond them; without it, the
 * memory bandwidth. */
static void test_csr_bandwidth(void)
{
	static const char txt[] = "{\"name\": \"m\", \"hierarchy\": "
		"{\"levels\": [" LV "]}, \"memory\": {\"bandwidth_gbs\": 40, "
		"\"csr_bandwidth_gbs\": [[5, 26], [9, 26], [15, 38]]}}";
	static const char plain[] = "{\"name\": \"m\", \"hierarchy\": "
		"{\"levels\": [" LV "]}, \"memory\": {\"bandwidth_gbs\": 40}}";
	struct ppr_err err = { 0 };
	struct machine m;

	T_CHECK(machine_load_string("ok.json", txt, strlen(txt), &m,
				    &err) == 0);
	T_EQ_U64(m.csr_bw_points, 3);
	T_NEAR(machine_csr_bandwidth(&m, 1), 26, 0);
	T_NEAR(machine_csr_bandwidth(&m, 7), 26, 1e-12);
	T_NEAR(machine_csr_bandwidth(&m, 11), 26 + 12.0 * 2 / 6, 1e-12);
	T_NEAR(machine_csr_bandwidth(&m, 15), 38, 1e-12);
	T_NEAR(machine_csr_bandwidth(&m, 80), 38, 0);
	T_NEAR(m.mem_bandwidth_gbs, 40, 0);
	machine_release(&m);
	T_CHECK(machine_load_string("ok.json", plain, strlen(plain), &m,
				    &err) == 0);
	T_EQ_U64(m.csr_bw_points, 0);
	T_NEAR(machine_csr_bandwidth(&m, 7), 40, 0);
	machine_release(&m);
}

/* A validation's provenance in a sentence. */
static void test_val_when(void)
{
	char b[64];

	T_STR(machine_val_when(b, sizeof(b), "d", "c"), " (d, c)");
	T_STR(machine_val_when(b, sizeof(b), "d", ""), " (d)");
	T_STR(machine_val_when(b, sizeof(b), "", "c"), " (c)");
	T_STR(machine_val_when(b, sizeof(b), "", ""), "");
	T_STR(machine_val_when(b, sizeof(b), NULL, NULL), "");
}

/* the command of the first validation member present */
static const char *val_command(const struct machine *m)
{
	return m->val_csr.have ? m->val_csr.command :
	       m->val_bcsr.have ? m->val_bcsr.command :
	       m->val_conv.have ? m->val_conv.command : "";
}

/* machine_validation_json writes what the file said: put back into a
 * document, it loads to the same figures. */
static void test_validation_roundtrip(const char *txt)
{
	struct ppr_err err = { 0 };
	struct machine a, b;
	cJSON *v, *doc;
	char *s = NULL;

	T_CHECK(machine_load_string("a.json", txt, strlen(txt), &a, &err) ==
		0);
	v = machine_validation_json(&a);
	T_CHECK(v != NULL);
	doc = cJSON_Parse(txt);
	if (v && doc) {
		cJSON_ReplaceItemInObjectCaseSensitive(doc, "validation", v);
		s = cJSON_Print(doc);
	}
	cJSON_Delete(doc);
	T_CHECK(s && machine_load_string("b.json", s, strlen(s), &b, &err) ==
		0);
	if (s) {
		T_CHECK(a.val_csr.have == b.val_csr.have &&
			a.val_bcsr.have == b.val_bcsr.have);
		T_STR(val_command(&a), val_command(&b));
		T_EQ_U64(a.val_csr.exits.matrices, b.val_csr.exits.matrices);
		T_EQ_U64(a.val_csr.rest.matrices, b.val_csr.rest.matrices);
		T_NEAR(a.val_csr.rest.p90_abs, b.val_csr.rest.p90_abs, 0);
		T_NEAR(a.val_csr.all.min_err, b.val_csr.all.min_err, 0);
		T_STR(a.val_csr.have ? a.val_csr.all.min_matrix : "",
		      b.val_csr.have ? b.val_csr.all.min_matrix : "");
		T_NEAR(a.val_bcsr.min_share, b.val_bcsr.min_share, 0);
		T_NEAR(a.val_bcsr.close_min_share, b.val_bcsr.close_min_share,
		       0);
		T_EQ_U64(a.val_bcsr.at_least_95, b.val_bcsr.at_least_95);
		T_STR(a.val_bcsr.have ? a.val_bcsr.min_pick : "",
		      b.val_bcsr.have ? b.val_bcsr.min_pick : "");
		T_CHECK(a.val_conv.have == b.val_conv.have);
		T_EQ_U64(a.val_conv.within_10, b.val_conv.within_10);
		T_EQ_U64(a.val_conv.best_right, b.val_conv.best_right);
		T_NEAR(a.val_conv.worst_err, b.val_conv.worst_err, 0);
		T_STR(a.val_conv.have ? a.val_conv.worst_cell : "",
		      b.val_conv.have ? b.val_conv.worst_cell : "");
		machine_release(&b);
	}
	free(s);
	machine_release(&a);
}

/* The "validation" section, spmv_csr, bcsr_pick and conv: read whole;
 * absent, nothing set. */
static void test_validation(void)
{
	static const char txt[] = VDOC("{\"spmv_csr\": {\"date\": "
		"\"2026-12-07\", \"command\": \"sh bench/predict_spmv.sh\", "
		"\"exit_share\": 0.5, \"all\": {\"matrices\": 6, "
		"\"median_abs_error\": 0.04, \"p90_abs_error\": 0.25, "
		"\"min_error\": -0.25, \"min_matrix\": \"vt2010.mtx\", "
		"\"max_error\": 0.12, \"max_matrix\": \"w.mtx\"}, \"exits\": "
		VGRP ", \"rest\": {\"matrices\": 2, \"median_abs_error\": "
		"0.01, \"p90_abs_error\": 0.02, \"min_error\": -0.02, "
		"\"max_error\": 0.01}}}");
	static const char plain[] = "{\"name\": \"m\", \"hierarchy\": "
				    "{\"levels\": [" LV "]}}";
	static const char btxt[] = VDOC("{\"bcsr_pick\": {\"matrices\": 43, "
		"\"at_least_95\": 38, \"mean_share\": 0.989, \"min_share\": "
		"0.91, \"min_matrix\": \"bcsstk16.mtx.gz\", \"min_pick\": "
		"\"3x1\", \"close_min_share\": 0.99}}");
	/* a worst error larger in magnitude than the median, negative */
	static const char ctxt[] = VDOC("{\"conv\": {\"date\": "
		"\"2026-12-08\", \"cells\": 12, \"within_10\": 11, "
		"\"median_abs_error\": 0.041, \"worst_error\": -0.123, "
		"\"worst_cell\": \"L3 avx2-unaligned n=589824\", \"sizes\": 4, "
		"\"best_right\": 3}}");
	struct ppr_err err = { 0 };
	struct machine m;
	const struct machine_validation *v = &m.val_csr;

	T_CHECK(machine_load_string("ok.json", txt, strlen(txt), &m,
				    &err) == 0);
	T_CHECK(v->have);
	T_STR(v->date, "2026-12-07");
	T_STR(v->command, "sh bench/predict_spmv.sh");
	T_NEAR(v->exit_share, 0.5, 0);
	T_EQ_U64(v->all.matrices, 6);
	T_NEAR(v->all.median_abs, 0.04, 0);
	T_NEAR(v->all.p90_abs, 0.25, 0);
	T_NEAR(v->all.min_err, -0.25, 0);
	T_NEAR(v->all.max_err, 0.12, 0);
	T_STR(v->all.min_matrix, "vt2010.mtx");
	T_STR(v->all.max_matrix, "w.mtx");
	T_EQ_U64(v->exits.matrices, 4);
	T_STR(v->exits.min_matrix, "");
	T_EQ_U64(v->rest.matrices, 2);
	T_NEAR(v->rest.p90_abs, 0.02, 0);
	T_CHECK(!m.val_bcsr.have);
	machine_release(&m);
	T_CHECK(machine_load_string("ok.json", plain, strlen(plain), &m,
				    &err) == 0);
	T_CHECK(!m.val_csr.have && !m.val_csr.all.matrices);
	T_CHECK(!m.val_bcsr.have);
	T_CHECK(machine_validation_json(&m) == NULL);
	machine_release(&m);
	T_CHECK(machine_load_string("ok.json", btxt, strlen(btxt), &m,
				    &err) == 0);
	T_CHECK(m.val_bcsr.have && !m.val_csr.have);
	T_EQ_U64(m.val_bcsr.matrices, 43);
	T_EQ_U64(m.val_bcsr.at_least_95, 38);
	T_NEAR(m.val_bcsr.mean_share, 0.989, 0);
	T_NEAR(m.val_bcsr.min_share, 0.91, 0);
	T_STR(m.val_bcsr.min_matrix, "bcsstk16.mtx.gz");
	T_STR(m.val_bcsr.min_pick, "3x1");
	T_STR(m.val_bcsr.min_best, "");
	T_NEAR(m.val_bcsr.close_min_share, 0.99, 0);
	T_NEAR(m.val_bcsr.cost_mean, 0, 0);
	T_STR(m.val_bcsr.date, "");
	machine_release(&m);
	T_CHECK(machine_load_string("ok.json", ctxt, strlen(ctxt), &m,
				    &err) == 0);
	T_CHECK(m.val_conv.have && !m.val_csr.have && !m.val_bcsr.have);
	T_STR(m.val_conv.date, "2026-12-08");
	T_STR(m.val_conv.command, "");
	T_EQ_U64(m.val_conv.cells, 12);
	T_EQ_U64(m.val_conv.within_10, 11);
	T_NEAR(m.val_conv.median_abs, 0.041, 0);
	T_NEAR(m.val_conv.worst_err, -0.123, 0);
	T_STR(m.val_conv.worst_cell, "L3 avx2-unaligned n=589824");
	T_EQ_U64(m.val_conv.sizes, 4);
	T_EQ_U64(m.val_conv.best_right, 3);
	machine_release(&m);
	test_validation_roundtrip(txt);
	test_validation_roundtrip(btxt);
	test_validation_roundtrip(ctxt);
}

/* Positions survive escapes, nesting and multi-byte text. */
static void test_positions(void)
{
	static const char txt[] =
		"{\n"
		"  \"a\": \"x\\\"}{\",\n"
		"  \"b\": [1, {\"c\": true},\n"
		"        \"\xc3\xa9\", null],\n"
		"\t\"d\": -1.5e3\n"
		"}\n";
	struct machine_json doc;
	struct ppr_err err = { 0 };
	const cJSON *b, *c;
	long l, col;

	T_CHECK(machine_json_parse(&doc, "p.json", txt, strlen(txt), &err)
		== 0);
	machine_json_where(&doc, doc.root, &l, &col);
	T_EQ_U64(l, 1);
	T_EQ_U64(col, 1);
	machine_json_where(&doc, cJSON_GetObjectItemCaseSensitive(doc.root,
								  "a"),
			   &l, &col);
	T_EQ_U64(l, 2);
	T_EQ_U64(col, 3);
	b = cJSON_GetObjectItemCaseSensitive(doc.root, "b");
	c = cJSON_GetArrayItem(b, 1);
	machine_json_where(&doc, c, &l, &col);
	T_EQ_U64(l, 3);
	T_EQ_U64(col, 12);
	machine_json_where(&doc, cJSON_GetArrayItem(b, 3), &l, &col);
	T_EQ_U64(l, 4);
	T_EQ_U64(col, 15);   /* columns count bytes */
	machine_json_where(&doc, cJSON_GetObjectItemCaseSensitive(c, "c"),
			   &l, &col);
	T_EQ_U64(l, 3);
	T_EQ_U64(col, 13);
	machine_json_where(&doc, cJSON_GetObjectItemCaseSensitive(doc.root,
								  "d"),
			   &l, &col);
	T_EQ_U64(l, 5);
	T_EQ_U64(col, 2);
	machine_json_release(&doc);
}

/* The getters: defaults for absent and null keys, ranges, types. */
static void test_getters(void)
{
	static const char txt[] = "{\"n\": null, \"i\": 7, \"d\": 2.5, "
				  "\"s\": \"lru\", \"b\": false, \"o\": {}, "
				  "\"a\": [1]}";
	static const struct machine_json_enum tab[] = {
		{ "lru", 3 }, { "fifo", 4 }, { NULL, 0 }
	};
	static const char *const keys[] = { "n", "i", "d", "s", "b", "o", "a",
					    NULL };
	static const char *const fewer[] = { "n", "i", NULL };
	struct machine_json doc;
	struct ppr_err err = { 0 };
	const cJSON *o = NULL, *a = NULL;
	const char *str = NULL;
	uint64_t u = 0;
	double d = 0;
	int e = 0, bo = 1;

	if (machine_json_parse(&doc, "g.json", txt, strlen(txt), &err)) {
		T_CHECK(0);
		return;
	}
	T_CHECK(machine_json_check_keys(&doc, doc.root, "g", keys, &err) == 0);
	T_CHECK(machine_json_check_keys(&doc, doc.root, "g", fewer, &err) ==
		PPR_EFORMAT);
	T_STR(err.msg, "unknown key 'd' in 'g' (allowed: n, i)");
	/* null is absent: the default */
	T_CHECK(machine_json_get_u64(&doc, doc.root, "n", 0, 42, 0, 100, &u,
				     &err) == 0);
	T_EQ_U64(u, 42);
	T_CHECK(machine_json_get_u64(&doc, doc.root, "n",
				     MACHINE_JSON_REQUIRED, 42, 0, 100, &u,
				     &err) == PPR_EFORMAT);
	T_STR(err.msg, "missing required key 'n'");
	T_CHECK(machine_json_get_u64(&doc, doc.root, "i", 0, 0, 0, 100, &u,
				     &err) == 0);
	T_EQ_U64(u, 7);
	T_CHECK(machine_json_get_u64(&doc, doc.root, "i", 0, 0, 8, 100, &u,
				     &err) == PPR_EFORMAT);
	T_STR(err.msg, "'i' must be an integer in [8, 100]");
	T_CHECK(machine_json_get_u64(&doc, doc.root, "d", 0, 0, 0, 100, &u,
				     &err) == PPR_EFORMAT);
	T_STR(err.msg, "'d' must be a non-negative integer");
	T_CHECK(machine_json_get_double(&doc, doc.root, "d",
					MACHINE_JSON_POSITIVE, 0, &d, &err)
		== 0);
	T_NEAR(d, 2.5, 0);
	T_CHECK(machine_json_get_double(&doc, doc.root, "s", 0, 0, &d, &err)
		== PPR_EFORMAT);
	T_STR(err.msg, "'s' must be a number");
	T_CHECK(machine_json_get_enum(&doc, doc.root, "s", 0, tab, 0, &e,
				      &err) == 0);
	T_EQ_U64(e, 3);
	T_CHECK(machine_json_get_enum(&doc, doc.root, "zz", 0, tab, 4, &e,
				      &err) == 0);
	T_EQ_U64(e, 4);
	T_CHECK(machine_json_get_enum(&doc, doc.root, "i", 0, tab, 4, &e,
				      &err) == PPR_EFORMAT);
	T_STR(err.msg, "'i' must be one of \"lru\", \"fifo\"");
	T_CHECK(machine_json_get_bool(&doc, doc.root, "b", 0, 1, &bo, &err)
		== 0);
	T_EQ_U64(bo, 0);
	T_CHECK(machine_json_get_string(&doc, doc.root, "s", 0, NULL, &str,
					&err) == 0);
	T_STR(str, "lru");
	T_CHECK(machine_json_get_string(&doc, doc.root, "q", 0, "dflt", &str,
					&err) == 0);
	T_STR(str, "dflt");
	T_CHECK(machine_json_get_object(&doc, doc.root, "o", 0, &o, &err) ==
		0 && o != NULL);
	T_CHECK(machine_json_get_object(&doc, doc.root, "a", 0, &o, &err) ==
		PPR_EFORMAT);
	T_STR(err.msg, "'a' must be an object");
	T_CHECK(machine_json_get_array(&doc, doc.root, "a", 0, &a, &err) ==
		0 && a != NULL);
	T_CHECK(machine_json_get_array(&doc, doc.root, "x", 0, &a, &err) ==
		0 && a == NULL);
	T_EQ_U64(err.line, 1);
	machine_json_release(&doc);
	machine_json_release(&doc);  /* harmless twice */
}

int main(void)
{
	test_haswell();
	test_zen();
	test_spr();
	test_zen_sysfs();
	test_compat();
	test_sim_builds();
	test_bad();
	test_defaults();
	test_csr_bandwidth();
	test_validation();
	test_val_when();
	test_positions();
	test_getters();
	return t_done();
}
