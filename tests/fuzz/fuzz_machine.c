/*
 * fuzz_machine.c - machine description JSON (machine_load_string) on
 * hostile bytes.  An accepted machine must have a hierarchy the
 * simulator's own checker accepts.
 */
#include "machines/machine.h"
#include "sim/sim.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct machine m;
	struct ppr_err err;
	int rc;

	memset(&m, 0, sizeof(m));
	memset(&err, 0, sizeof(err));
	rc = machine_load_string(FUZZ_NAME, (const char *)data, size, &m, &err);
	fuzz_check_rc(rc, &err, FUZZ_NAME);
	if (rc == 0) {
		struct ppr_err e2;
		memset(&e2, 0, sizeof(e2));
		if (m.hier.nlevels < 1 || m.hier.nlevels > SIM_MAX_LEVELS)
			fuzz_fail("accepted a machine with no/too many levels", NULL);
		if (sim_config_check(&m.hier, &e2))
			fuzz_fail("accepted a hierarchy sim_config_check refuses", &e2);
	}
	machine_release(&m);
	return 0;
}
