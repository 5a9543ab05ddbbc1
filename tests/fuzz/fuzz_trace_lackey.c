/*
 * fuzz_trace_lackey.c - the lackey trace reader on hostile bytes: read as
 * TRACE_FMT_LACKEY, in batches whose size
 * comes from the input length (1..7 references per call).
 */
#include "tests/fuzz/fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_trace_read(data, size, TRACE_FMT_LACKEY, 1 + size % 7);

	return 0;
}
