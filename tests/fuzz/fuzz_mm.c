/*
 * fuzz_mm.c - Matrix Market reader (matrix_mm_parse_buf) on hostile bytes.
 * Accepted input must give a CSR that keeps the invariants of matrix.h:
 * row_ptr non-decreasing from 0 to nnz, columns below cols and strictly
 * increasing within a row.  The working-set limit is 256 MiB so that a
 * small file declaring a huge matrix is refused, never allocated.
 */
#include "matrix/matrix.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_csr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csr a;
	struct matrix_info inf;
	struct ppr_err err;
	int rc;

	matrix_mem_limit_set(UINT64_C(256) << 20);
	memset(&a, 0, sizeof(a));
	memset(&err, 0, sizeof(err));
	rc = matrix_mm_parse_buf(FUZZ_NAME, (const char *)data, size, &a,
				 &inf, &err);
	fuzz_check_rc(rc, &err, FUZZ_NAME);
	if (rc == 0)
		fuzz_csr_check(&a, &inf);
	matrix_csr_release(&a);
	return 0;
}
