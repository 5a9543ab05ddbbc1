/*
 * results.h - reader of results.jsonl files (one JSON object per line, as
 * `ppr sweep` writes them: {"key":{input,machine,kernel,options},
 * "status":"ok"|"error","error":...,"elapsed_s":...,"result":{...}}), and
 * the figures the charts take from a record.
 *
 * Blank lines are skipped.  Every malformed line (not JSON, not an object,
 * no "key" object, "status" neither "ok" nor "error", an "ok" record
 * without a "result" object) is kept as one message "file:line: reason" in
 * bad[]; the good records are kept in rec[] in file order.
 */
#ifndef PPR_CLI_RESULTS_H
#define PPR_CLI_RESULTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "common/ppr_err.h"

struct result_rec {
	char *file;		/* the file it came from */
	long line;		/* 1-based line number */
	cJSON *json;		/* the whole record (owned) */
	const char *input, *machine, *kernel, *options;	/* from "key" */
	int ok;			/* status "ok" */
	const char *error;	/* status "error": the reason ("" if none) */
	const cJSON *result;	/* "result" object or NULL */
};

struct results {
	struct result_rec *rec;
	size_t n, cap;
	char **bad;		/* one "file:line: reason" per bad line */
	size_t nbad, capbad;
};

/* Read one file and append to r.  Returns 0 (bad lines go to r->bad), or
 * PPR_EIO / PPR_ENOENT when the file cannot be read (err set). */
int results_load(struct results *r, const char *path, struct ppr_err *err);
void results_free(struct results *r);

/* A number member of o, or NaN when absent / not a number. */
double results_num(const cJSON *o, const char *name);

/* The measured time a `ppr predict` result's validation implies: its
 * expected_error.time_range_s object ("low", "high"), or NULL when the
 * result has none (no validation in the machine file, another kernel,
 * another command). */
const cJSON *results_time_range(const cJSON *result);

/*
 * The roofline dot of a predict result: intensity = flops / the DRAM
 * bytes (roofline.dram_intensity) when the kernel reaches memory, else
 * flops / the bytes of the deepest level with traffic (so a cache-resident
 * kernel sits on its cache roof), GFLOP/s = "gflops"; measured figures
 * from "measured_gflops" (same intensity) when present.  Returns 0, or
 * PPR_ENOENT when the result has no usable flops/gflops.
 */
int results_roof_point(const cJSON *result, double *oi, double *gflops,
		       double *gflops_meas, const char **level);

struct heat_grid;
/*
 * The BCSR grids of a bcsr result ("shapes" as an array of {"shape":"RxC",
 * "predicted_gflops", "measured_gflops"} or an object keyed by "RxC"),
 * "pick" and "measured_best".  *has_meas = 1 when any measured value is
 * present.  Returns 0, or PPR_ENOENT when the result has no shapes.
 */
int results_heat_grids(const cJSON *result, struct heat_grid *pred,
		       struct heat_grid *meas, int *has_meas);

#endif
