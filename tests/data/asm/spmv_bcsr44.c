/* BCSR 4x4 SpMV (test input for dag/). */
void spmv_bcsr44(int nbr, const int *brp, const int *bci, const double *b,
		 const double *x, double *y)
{
	for (int i = 0; i < nbr; i++) {
		double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
		for (int k = brp[i]; k < brp[i + 1]; k++) {
			const double *a = b + 16 * k;
			const double *xx = x + 4 * bci[k];
			double x0 = xx[0], x1 = xx[1], x2 = xx[2], x3 = xx[3];
			s0 += a[0] * x0 + a[1] * x1 + a[2] * x2 + a[3] * x3;
			s1 += a[4] * x0 + a[5] * x1 + a[6] * x2 + a[7] * x3;
			s2 += a[8] * x0 + a[9] * x1 + a[10] * x2 + a[11] * x3;
			s3 += a[12] * x0 + a[13] * x1 + a[14] * x2 + a[15] * x3;
		}
		y[4 * i] = s0;
		y[4 * i + 1] = s1;
		y[4 * i + 2] = s2;
		y[4 * i + 3] = s3;
	}
}
