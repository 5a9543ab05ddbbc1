/*
 * sweep.h - private helpers of `ppr sweep` (cli/cmd_sweep.c, cli/sweep_rec.c,
 * cli/sweep_merge.c): reading results files, record keys, picking the best
 * of duplicate records, the flat CSV table.
 *
 * A results file holds one JSON record per line:
 *   {"key":{"input":..,"machine":..,"kernel":..,"options":..},
 *    "status":"ok"|"error", "error":"..." (error only), "elapsed_s":..,
 *    "max_rss_mb":.., "finished_unix":.., "ppr_version":..,
 *    "sweep":{"shard":"i/N","input_index":k,"inputs_total":T,
 *             "keys_per_input":K},
 *    "result":{...the child's JSON...} (ok only)}
 */
#ifndef PPR_CLI_SWEEP_H
#define PPR_CLI_SWEEP_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct sweep_rec {
	cJSON *j;		/* the whole record (owned) */
	char *key;		/* canonical key string (owned) */
	int ok;			/* status == "ok" */
	double finished;	/* finished_unix, 0 if absent */
	long line;		/* line in its file (1-based) */
	const char *file;	/* file it came from (not owned) */
};

struct sweep_recs {
	struct sweep_rec *v;
	size_t n, cap;
};

/* Record fields that vary between runs of the same job. */
extern const char *const sweep_volatile_fields[];

/*
 * Canonical key string of a record ("input\x1fmachine\x1fkernel\x1foptions"),
 * or NULL when the record lacks a well-formed "key" object.
 */
char *sweep_key_string(const cJSON *rec);

/*
 * Read all records of a results file into rs (appending).  A last line
 * without its newline is a record cut by a kill: with truncate_partial the
 * file is truncated to drop it, otherwise it is skipped with a warning;
 * *dropped (may be NULL) counts such lines.  A complete line that is not a
 * record is an error ("file:line: ..."), printed; returns 0 or 1.
 * A missing file is an empty one when missing_ok.
 */
int sweep_file_read(const char *path, int truncate_partial, int missing_ok,
		    struct sweep_recs *rs, size_t *dropped);
void sweep_recs_free(struct sweep_recs *rs);

/*
 * Deduplicate by key: *best receives, for each distinct key in first-seen
 * order, the index into rs->v of the record kept (an ok record over an
 * error one; among equals, the newest finished_unix, then the later one).
 * *ndup counts the records dropped; when report is set each duplicate is
 * named on stderr.  Returns the number of distinct keys.
 */
size_t sweep_recs_best(const struct sweep_recs *rs, size_t **best,
		       size_t *ndup, int report);

/* Write records (idx[0..n-1] of rs) as RFC 4180 CSV; 0 or 1 (printed). */
int sweep_csv_write(const char *path, const struct sweep_recs *rs,
		    const size_t *idx, size_t n);

/* qsort helper state: sort idx by key string. */
void sweep_sort_by_key(const struct sweep_recs *rs, size_t *idx, size_t n);

int sweep_merge_main(int argc, char **argv);
int sweep_diff_main(int argc, char **argv);

#endif
