/*
 * spmv_bcsr_body.h - y = A x for BCSR BR x BC, written once per shape.
 *
 * The includer defines BR and BC (1..8); this file undefines them.  The
 * block's BC x values are loaded once into registers and reused by its BR
 * rows; the BR row sums stay in registers for the whole block row, and
 * each takes one add per block (the block row's products are summed
 * first), so successive blocks overlap instead of queueing on one chain.  x is
 * padded to bcols*BC and y to brows*BR so edge blocks need no branches.
 * Tags: brow_ptr, bcol_idx, vals, y regular; x irregular.
 */
#define KB_NAME KCAT2(KCAT2(KCAT2(KCAT2(kern_spmv_bcsr_, BR), x), BC), KSFX)
void KB_NAME(const struct kern_bcsr_args *a KPARAM);
KERN_NOINLINE void KB_NAME(const struct kern_bcsr_args *a KPARAM)
{
	const uint64_t *restrict bptr = a->bptr;
	const uint32_t *restrict bcol = a->bcol;
	const double *restrict val = a->vals;
	const double *restrict x = a->x;
	double *restrict y = a->y;
	uint64_t brows = a->brows, I, start;

	KLD(&bptr[0], 8, KT_REG);
	start = bptr[0];
	for (I = 0; I < brows; I++) {
		double acc[BR];
		uint64_t end, b;
		int ii, jj;

KUNROLL8
		for (ii = 0; ii < BR; ii++)
			acc[ii] = 0.0;
		KLD(&bptr[I + 1], 8, KT_REG);
		end = bptr[I + 1];
		for (b = start; b < end; b++) {
			const double *restrict v = val + b * (BR * BC);
			const double *restrict xb;
			double xr[BC];

			KLD(&bcol[b], 4, KT_REG);
			xb = x + (uint64_t)bcol[b] * BC;
KUNROLL8
			for (jj = 0; jj < BC; jj++) {
				KLD(&xb[jj], 8, KT_IRR);
				xr[jj] = xb[jj];
			}
KUNROLL8
			for (ii = 0; ii < BR; ii++) {
				double s;

				/* The block row's dot product first, then one
				 * add into the running sum: the loop-carried
				 * chain is one add per block, not BC. */
				KLD(&v[ii * BC], 8, KT_REG);
				s = v[ii * BC] * xr[0];
KUNROLL8
				for (jj = 1; jj < BC; jj++) {
					KLD(&v[ii * BC + jj], 8, KT_REG);
					s += v[ii * BC + jj] * xr[jj];
				}
				acc[ii] += s;
			}
		}
KUNROLL8
		for (ii = 0; ii < BR; ii++) {
			KST(&y[I * BR + ii], 8, KT_REG);
			y[I * BR + ii] = acc[ii];
		}
		start = end;
	}
}
#undef KB_NAME
#undef BR
#undef BC
