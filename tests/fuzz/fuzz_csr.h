/*
 * fuzz_csr.h - invariants of an accepted matrix (matrix/matrix.h), shared
 * by the matrix fuzz targets.
 */
#ifndef PPR_FUZZ_CSR_H
#define PPR_FUZZ_CSR_H

#include "matrix/matrix.h"
#include "tests/fuzz/fuzz.h"

static inline void fuzz_csr_check(const struct csr *a, const struct matrix_info *inf)
{
	uint64_t i, k;

	if (a->rows > UINT32_MAX || a->cols > UINT32_MAX)
		fuzz_fail("accepted a matrix beyond 2^32 rows/cols", NULL);
	if (inf && (inf->rows != a->rows || inf->cols != a->cols ||
		    inf->nnz != a->nnz))
		fuzz_fail("matrix_info disagrees with the CSR", NULL);
	if (!a->row_ptr || a->row_ptr[0] != 0 || a->row_ptr[a->rows] != a->nnz)
		fuzz_fail("row_ptr does not run from 0 to nnz", NULL);
	for (i = 0; i < a->rows; i++) {
		if (a->row_ptr[i] > a->row_ptr[i + 1])
			fuzz_fail("row_ptr decreases", NULL);
		for (k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
			if (a->col_idx[k] >= a->cols)
				fuzz_fail("column index beyond cols", NULL);
			if (k > a->row_ptr[i] &&
			    a->col_idx[k] <= a->col_idx[k - 1])
				fuzz_fail("columns not strictly increasing", NULL);
		}
	}
}

#endif
