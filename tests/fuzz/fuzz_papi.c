/*
 * fuzz_papi.c - PAPI (papi_command_line style) counter import (counter_import_papi) on
 * hostile bytes.  Accepted input must leave a set within
 * COUNTER_MAX_EVENTS whose names and texts are terminated.
 */
#include "kernels/kernels.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct counter_set s;
	struct ppr_err err;
	size_t i;
	int rc;

	memset(&s, 0, sizeof(s));
	memset(&err, 0, sizeof(err));
	rc = counter_import_papi(&s, FUZZ_NAME, (const char *)data, size, &err);
	fuzz_check_rc(rc, &err, FUZZ_NAME);
	if (s.n > COUNTER_MAX_EVENTS)
		fuzz_fail("more events than COUNTER_MAX_EVENTS", NULL);
	for (i = 0; i < s.n; i++)
		if (!memchr(s.ev[i].name, '\0', sizeof(s.ev[i].name)) ||
		    !memchr(s.ev[i].unit, '\0', sizeof(s.ev[i].unit)) ||
		    !memchr(s.ev[i].why, '\0', sizeof(s.ev[i].why)))
			fuzz_fail("unterminated event text", NULL);
	return 0;
}
