/*
 * fuzz_asm.c - the x86 assembly front end (dag_asm_parse) on hostile
 * bytes: gcc/clang .s text or objdump -d listings.  Accepted text must give
 * labels that point inside the instruction list.
 */
#include "dag/dag.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dag_prog *p = dag_prog_new();
	struct ppr_err err;
	size_t i;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = dag_asm_parse(p, (const char *)data, size, FUZZ_NAME, &err);
	fuzz_check_rc(rc, &err, FUZZ_NAME);
	if (rc == 0) {
		if (p->n > p->cap || p->nlabel > p->labcap)
			fuzz_fail("program counts beyond capacity", NULL);
		for (i = 0; i < p->nlabel; i++) {
			if (p->label[i].at > p->n)
				fuzz_fail("label beyond the last instruction", NULL);
			if (!memchr(p->label[i].name, '\0',
				    sizeof(p->label[i].name)))
				fuzz_fail("label name not terminated", NULL);
		}
	}
	dag_prog_free(p);
	return 0;
}
