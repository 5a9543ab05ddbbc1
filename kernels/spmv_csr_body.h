/*
 * spmv_csr_body.h - y = A x for CSR, written once (see kernels_int.h).
 *
 * Tags as the paper's Fig. 6: row_ptr, col_idx, vals and y regular; x
 * irregular (indirect through col_idx).  row_ptr[i+1] is loaded once per
 * row (the end of row i is the start of row i+1), so R+1 row_ptr loads.
 * Two accumulators per row break the add chain.
 */
void KCAT2(kern_spmv_csr, KSFX)(const struct kern_csr_args *a KPARAM);
KERN_NOINLINE void KCAT2(kern_spmv_csr, KSFX)(const struct kern_csr_args *a KPARAM)
{
	const uint64_t *restrict row_ptr = a->row_ptr;
	const uint32_t *restrict col = a->col_idx;
	const double *restrict val = a->vals;
	const double *restrict x = a->x;
	double *restrict y = a->y;
	uint64_t rows = a->rows, i, start;

	KLD(&row_ptr[0], 8, KT_REG);
	start = row_ptr[0];
	for (i = 0; i < rows; i++) {
		uint64_t end, k;
		double s0 = 0.0, s1 = 0.0;

		KLD(&row_ptr[i + 1], 8, KT_REG);
		end = row_ptr[i + 1];
		for (k = start; k + 1 < end; k += 2) {
			KLD(&col[k], 4, KT_REG);
			KLD(&val[k], 8, KT_REG);
			KLD(&x[col[k]], 8, KT_IRR);
			KLD(&col[k + 1], 4, KT_REG);
			KLD(&val[k + 1], 8, KT_REG);
			KLD(&x[col[k + 1]], 8, KT_IRR);
			s0 += val[k] * x[col[k]];
			s1 += val[k + 1] * x[col[k + 1]];
		}
		if (k < end) {
			KLD(&col[k], 4, KT_REG);
			KLD(&val[k], 8, KT_REG);
			KLD(&x[col[k]], 8, KT_IRR);
			s0 += val[k] * x[col[k]];
		}
		KST(&y[i], 8, KT_REG);
		y[i] = s0 + s1;
		start = end;
	}
}
