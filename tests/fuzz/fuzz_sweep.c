/*
 * fuzz_sweep.c - the results-file reader of `ppr sweep merge/diff`
 * (cli/sweep_rec.c: sweep_file_read, then sweep_recs_best and the key
 * sort) on hostile bytes.  The file is never truncated here
 * (truncate_partial = 0).  Its messages go to stderr (it is CLI code).
 */
#include "cli/sweep.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_write(data, size, ".jsonl");
	struct sweep_recs rs;
	size_t *best = NULL, ndup = 0, dropped = 0, nkeys, i;
	int rc;

	memset(&rs, 0, sizeof(rs));
	rc = sweep_file_read(path, 0, 0, &rs, &dropped);
	if (rc != 0 && rc != 1)
		fuzz_fail("sweep_file_read returned neither 0 nor 1", NULL);
	nkeys = sweep_recs_best(&rs, &best, &ndup, 0);
	if (nkeys > rs.n || nkeys + ndup != rs.n)
		fuzz_fail("distinct keys + duplicates != records", NULL);
	for (i = 0; i < nkeys; i++)
		if (best[i] >= rs.n)
			fuzz_fail("best index beyond the records", NULL);
	if (nkeys)
		sweep_sort_by_key(&rs, best, nkeys);
	free(best);
	sweep_recs_free(&rs);
	return 0;
}
