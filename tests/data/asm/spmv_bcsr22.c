/* BCSR 2x2 SpMV, block row loop unrolled by hand (test input for dag/). */
void spmv_bcsr22(int nbr, const int *brp, const int *bci, const double *b,
		 const double *x, double *y)
{
	for (int i = 0; i < nbr; i++) {
		double s0 = 0.0, s1 = 0.0;
		for (int k = brp[i]; k < brp[i + 1]; k++) {
			const double *a = b + 4 * k;
			const double *xx = x + 2 * bci[k];
			s0 += a[0] * xx[0] + a[1] * xx[1];
			s1 += a[2] * xx[0] + a[3] * xx[1];
		}
		y[2 * i] = s0;
		y[2 * i + 1] = s1;
	}
}
