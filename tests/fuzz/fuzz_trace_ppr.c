/*
 * fuzz_trace_ppr.c - the ppr trace reader on hostile bytes: read as
 * TRACE_FMT_PPR and as TRACE_FMT_AUTO (format detection), in batches whose size
 * comes from the input length (1..7 references per call).
 */
#include "tests/fuzz/fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_trace_read(data, size, TRACE_FMT_PPR, 1 + size % 7);
	fuzz_trace_read(data, size, TRACE_FMT_AUTO, 7);
	return 0;
}
