/*
 * fuzz_results.c - the results.jsonl reader of `ppr report` / `ppr
 * roofline` (cli/results.c: results_load, then the figures the charts
 * take from each record: results_roof_point, results_heat_grids) on
 * hostile bytes.  Bad lines are collected, never fatal; every kept
 * message must be one line naming the file.
 */
#include "cli/plot.h"
#include "cli/results.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_write(data, size, ".jsonl");
	struct results r;
	struct ppr_err err;
	size_t i;
	int rc;

	memset(&r, 0, sizeof(r));
	memset(&err, 0, sizeof(err));
	rc = results_load(&r, path, &err);
	fuzz_check_rc(rc, &err, path);
	for (i = 0; i < r.nbad; i++)
		if (strncmp(r.bad[i], path, strlen(path)) ||
		    strchr(r.bad[i], '\n'))
			fuzz_fail("bad-line message not one line naming the file",
				  NULL);
	for (i = 0; i < r.n; i++) {
		double oi, gf, gm;
		const char *level = NULL;
		struct heat_grid pred, meas;
		int has_meas = 0;

		if (r.rec[i].line < 1)
			fuzz_fail("record without a line number", NULL);
		if (!r.rec[i].result)
			continue;
		(void)results_roof_point(r.rec[i].result, &oi, &gf, &gm,
					 &level);
		(void)results_heat_grids(r.rec[i].result, &pred, &meas,
					 &has_meas);
	}
	results_free(&r);
	return 0;
}
