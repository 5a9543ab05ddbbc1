/*
 * fuzz_trace.h - read hostile bytes as a trace of one format, in small
 * batches (so batch boundaries fall everywhere), checking every reference
 * and that the reader keeps returning its error once it failed.
 */
#ifndef PPR_FUZZ_TRACE_H
#define PPR_FUZZ_TRACE_H

#include "traces/trace.h"
#include "tests/fuzz/fuzz.h"

static inline void fuzz_trace_read(const uint8_t *data, size_t size,
			    enum trace_format fmt, size_t batch)
{
	struct trace_reader_config cfg = { .format = fmt };
	struct trace_reader *r = NULL;
	struct ppr_access buf[7];
	struct ppr_err err;
	struct trace_info ti;
	uint64_t total = 0;
	size_t n, i;
	int rc;

	if (batch < 1 || batch > 7)
		batch = 7;
	memset(&err, 0, sizeof(err));
	rc = trace_reader_new_mem(&r, data, size, FUZZ_NAME, &cfg, &err);
	fuzz_check_rc(rc, &err, FUZZ_NAME);
	while (rc == 0) {
		n = 0;
		rc = trace_reader_next(r, buf, batch, &n, &err);
		if (n > batch)
			fuzz_fail("reader returned more than cap", NULL);
		for (i = 0; i < n; i++)
			if (buf[i].size == 0 || buf[i].size > TRACE_SIZE_MAX ||
			    buf[i].op >= PPR_NOPS || buf[i].tag >= PPR_NTAGS)
				fuzz_fail("malformed reference returned", NULL);
		total += n;
		if (rc == 0 && n == 0)
			break;
	}
	fuzz_check_rc(rc, &err, FUZZ_NAME);
	if (r) {
		trace_reader_info(r, &ti);
		if (ti.records != total)
			fuzz_fail("trace_info.records differs from references read", NULL);
		if (rc < 0) {
			int rc2;
			n = 0;
			rc2 = trace_reader_next(r, buf, batch, &n, &err);
			if (rc2 != rc || n != 0)
				fuzz_fail("reader does not repeat its error", &err);
		}
	}
	trace_reader_free(r);
}

#endif
