/*
 * test_cli_svg.c - the SVG writer, the plots and the results reader of
 * cli/ (compiled in here: cli/ is not a library the tests link).
 */
#include "cli/plot_bars.c"
#include "cli/plot_heatmap.c"
#include "cli/plot_roofline.c"
#include "cli/results.c"
#include "cli/svg.c"

#include <stdlib.h>

#include "machines/machine.h"
#include "tests/t.h"

/* Occurrences of needle in hay. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0, l = strlen(needle);

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + l, needle))
		n++;
	return n;
}

static void test_escape_and_numbers(void)
{
	static const struct { double v; const char *want; int line; } fmt[] = {
		{ 43.2, "43.2", __LINE__ }, { 172.8, "173", __LINE__ },
		{ 0.9, "0.9", __LINE__ }, { 2.5, "2.5", __LINE__ },
		{ 10, "10", __LINE__ }, { 0.01, "0.01", __LINE__ },
		{ 0, "0", __LINE__ }, { 100000, "100000", __LINE__ },
		{ 1e7, "1e+07", __LINE__ }, { 34.56, "34.6", __LINE__ },
	};
	struct svg_scale sc = { 1, 100, 0, 200, 1 }, lin = { 0, 10, 50, 150, 0 };
	char *buf = NULL, num[32], col[8];
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	svg_escape(f, "<a&b>\"'\n");
	fclose(f);
	T_STR(buf, "&lt;a&amp;b&gt;&quot;&#39;?");
	free(buf);
	for (i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
		svg_fmt_num(fmt[i].v, num, sizeof num);
		T_CHECK_AT(strcmp(num, fmt[i].want) == 0, fmt[i].line);
	}
	T_NEAR(svg_scale_map(&sc, 10), 100, 1e-12);
	T_NEAR(svg_scale_map(&sc, 100), 200, 1e-12);
	T_NEAR(svg_scale_map(&sc, -1), 0, 1e-12);	/* clamped to d0 */
	T_NEAR(svg_scale_map(&lin, 5), 100, 1e-12);
	svg_colour_map(0, col);
	T_STR(col, "#440154");
	svg_colour_map(1, col);
	T_STR(col, "#fde725");
	svg_colour_map(2, col);		/* clamped */
	T_STR(col, "#fde725");
}

static void test_roofs(void)
{
	struct machine m;
	struct ppr_err err = { 0 };
	struct roof_line r[24];
	struct roof_point p[2] = {
		{ "a<b", 0.12, 1.9, 0.12, 1.5 },
		{ "dram kernel", 0.2, 3.0, 0, 0 },
	};
	char *buf = NULL, *buf2 = NULL;
	size_t n, i, len = 0, len2 = 0;
	int found = 0;
	FILE *f;

	if (machine_load("machines/haswell.json", &m, &err) != 0) {
		T_SKIP("machines/haswell.json not readable from here");
		return;
	}
	n = plot_roofline_roofs(&m, 0, r, 24);
	/* haswell: 16 flops/cy x 2.7 GHz; 256-bit SIMD = 4 doubles; fp_add
	 * latency 3; L1D and L2 both 64 B/cy (one merged roof); L3 32 B/cy;
	 * memory 34.56 GB/s */
	T_EQ_U64(n, 7);
	T_NEAR(r[0].value, 43.2, 1e-12);
	T_NEAR(r[1].value, 21.6, 1e-12);
	T_NEAR(r[2].value, 10.8, 1e-12);
	for (i = 0; i < n; i++) {
		if (strcmp(r[i].label, "L1D, L2 172.8 GB/s") == 0 ||
		    strcmp(r[i].label, "L1D, L2 173 GB/s") == 0) {
			T_NEAR(r[i].value, 172.8, 1e-12);
			found++;
		}
		if (strncmp(r[i].label, "DRAM", 4) == 0) {
			T_NEAR(r[i].value, 34.56, 1e-12);
			T_CHECK(r[i].bandwidth);
			found++;
		}
	}
	T_EQ_U64(found, 2);
	T_EQ_U64(plot_roofline_roofs(&m, 1, r, 24), 9);
	T_CHECK(r[7].integer && r[8].integer);

	f = open_memstream(&buf, &len);
	T_EQ_U64(plot_roofline_write(f, &m, p, 2, 0, &err), 0);
	fclose(f);
	f = open_memstream(&buf2, &len2);
	T_EQ_U64(plot_roofline_write(f, &m, p, 2, 0, &err), 0);
	fclose(f);
	T_CHECK(len == len2 && memcmp(buf, buf2, len) == 0); /* deterministic */
	T_EQ_U64(count(buf, "class=\"dot dot-pred\""), 2);
	T_EQ_U64(count(buf, "class=\"dot dot-meas\""), 1);
	T_EQ_U64(count(buf, "class=\"roof roof-bandwidth\""), 3);
	T_EQ_U64(count(buf, "class=\"roof roof-compute\""), 1);
	T_EQ_U64(count(buf, "class=\"roof roof-ceiling\""), 3);
	T_CHECK(count(buf, "a&lt;b") == 1 && count(buf, "a<b") == 0);
	T_CHECK(count(buf, "<title>Roofline: haswell") == 1);
	T_CHECK(strncmp(buf, "<svg xmlns=", 11) == 0);
	T_CHECK(count(buf, "</svg>") == 1);
	free(buf);
	free(buf2);
	machine_release(&m);
}

static void test_heatmap_and_bars(void)
{
	struct heat_grid pred, meas;
	struct ppr_err err = { 0 };
	struct bar_group g[3] = {
		{ "L1D", { 3125, 13100 } }, { "L2", { 1, 1300 } },
		{ "L3", { 0, NAN } },
	};
	static const char *const series[2] = { "sim", "meas" };
	char *buf = NULL;
	size_t len = 0;
	int r, c;
	FILE *f;

	heat_grid_clear(&pred);
	heat_grid_clear(&meas);
	for (r = 0; r < HEAT_N; r++)
		for (c = 0; c < HEAT_N; c++) {
			pred.v[r][c] = 1 + r + 0.1 * c;
			meas.v[r][c] = 2 + c;
		}
	pred.v[7][7] = NAN;
	pred.mark_r = 3, pred.mark_c = 2;
	meas.mark_r = 1, meas.mark_c = 8;
	f = open_memstream(&buf, &len);
	T_EQ_U64(plot_heatmap_write(f, "m <1>", &pred, NULL, &err), 0);
	fclose(f);
	T_EQ_U64(count(buf, "class=\"heat-cell heat-pred\""), 64);
	T_EQ_U64(count(buf, "class=\"heat-pick\""), 1);
	T_EQ_U64(count(buf, ">n/a<"), 1);
	T_EQ_U64(count(buf, "pick: 3x2"), 1);
	T_CHECK(count(buf, "m &lt;1&gt;") >= 1);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	T_EQ_U64(plot_heatmap_write(f, NULL, &pred, &meas, &err), 0);
	fclose(f);
	T_EQ_U64(count(buf, "class=\"heat-cell "), 128);
	T_EQ_U64(count(buf, "class=\"heat-best\""), 1);
	T_EQ_U64(count(buf, "measured best: 1x8"), 1);
	free(buf);
	buf = NULL;
	T_EQ_U64(plot_heatmap_write(stdout, NULL, NULL, NULL, &err),
		 PPR_EINVAL);

	f = open_memstream(&buf, &len);
	T_EQ_U64(plot_bars_write(f, "t", "misses", series, 2, g, 3, 1, &err),
		 0);
	fclose(f);
	/* five bars: the NaN is absent, the 0 is drawn at the axis */
	T_EQ_U64(count(buf, "class=\"bar bar-s0\""), 3);
	T_EQ_U64(count(buf, "class=\"bar bar-s1\""), 2);
	T_EQ_U64(count(buf, "class=\"group-label\""), 3);
	free(buf);
	T_EQ_U64(plot_bars_write(stdout, "t", "y", series, 0, g, 3, 0, &err),
		 PPR_EINVAL);
}

static void test_results(void)
{
	struct results res = { 0 };
	struct ppr_err err = { 0 };
	struct heat_grid pred, meas;
	double oi, gf, gm;
	const char *lv;
	int hm;
	cJSON *j;

	if (results_load(&res, "tests/data/report/bad.jsonl", &err) != 0) {
		T_SKIP("tests/data/report not readable from here");
		return;
	}
	T_EQ_U64(res.n, 1);
	T_EQ_U64(res.nbad, 5);
	if (res.nbad == 5) {
		T_CHECK(strstr(res.bad[0], "bad.jsonl:2: not valid JSON") != NULL);
		T_CHECK(strstr(res.bad[1], "bad.jsonl:4: field 'key'") != NULL);
		T_CHECK(strstr(res.bad[2], "bad.jsonl:5: field 'status'") != NULL);
		T_CHECK(strstr(res.bad[3], "bad.jsonl:6: field 'result'") != NULL);
		T_CHECK(strstr(res.bad[4], "bad.jsonl:7: record is not") != NULL);
	}
	T_CHECK(res.n == 1 && !res.rec[0].ok &&
		strcmp(res.rec[0].error, "bad header") == 0 &&
		res.rec[0].line == 1);
	T_EQ_U64(results_load(&res, "tests/data/report/none.jsonl", &err),
		 PPR_ENOENT);
	results_free(&res);

	/* a cache-resident kernel: intensity from the deepest level used */
	j = cJSON_Parse("{\"flops\":100,\"gflops\":2,\"roofline\":"
			"{\"dram_intensity\":0},\"levels\":[{\"name\":\"L1D\","
			"\"bytes_regular\":800,\"bytes_irregular\":200},{\"name\":"
			"\"L2\",\"bytes_regular\":300,\"bytes_irregular\":100},"
			"{\"name\":\"L3\",\"bytes_regular\":0}],"
			"\"measured_gflops\":1.5}");
	T_EQ_U64(results_roof_point(j, &oi, &gf, &gm, &lv), 0);
	T_NEAR(oi, 0.25, 1e-12);
	T_NEAR(gf, 2, 1e-12);
	T_NEAR(gm, 1.5, 1e-12);
	T_STR(lv, "L2");
	cJSON_Delete(j);
	j = cJSON_Parse("{\"flops\":100,\"gflops\":2,\"roofline\":"
			"{\"dram_intensity\":0.5}}");
	T_EQ_U64(results_roof_point(j, &oi, &gf, &gm, &lv), 0);
	T_NEAR(oi, 0.5, 1e-12);
	T_STR(lv, "DRAM");
	T_CHECK(isnan(gm));
	cJSON_Delete(j);
	j = cJSON_Parse("{\"gflops\":2}");
	T_EQ_U64(results_roof_point(j, &oi, &gf, &gm, &lv), PPR_ENOENT);
	cJSON_Delete(j);

	/* shapes as an object keyed by "RxC"; out-of-range shapes ignored */
	j = cJSON_Parse("{\"pick\":\"3x3\",\"shapes\":{\"3x3\":"
			"{\"predicted_gflops\":4,\"measured_gflops\":3},\"1x2\":"
			"{\"predicted_gflops\":2,\"measured_gflops\":3.5},"
			"\"9x1\":{\"predicted_gflops\":9}}}");
	T_EQ_U64(results_heat_grids(j, &pred, &meas, &hm), 0);
	T_CHECK(hm == 1);
	T_NEAR(pred.v[2][2], 4, 1e-12);
	T_NEAR(meas.v[0][1], 3.5, 1e-12);
	T_CHECK(isnan(pred.v[0][0]));
	T_CHECK(pred.mark_r == 3 && pred.mark_c == 3);
	T_CHECK(meas.mark_r == 1 && meas.mark_c == 2); /* largest measured */
	cJSON_Delete(j);
	j = cJSON_Parse("{\"pick\":\"2x2\"}");
	T_EQ_U64(results_heat_grids(j, &pred, &meas, &hm), PPR_ENOENT);
	cJSON_Delete(j);
}

int main(void)
{
	test_escape_and_numbers();
	test_roofs();
	test_heatmap_and_bars();
	test_results();
	return t_done();
}
