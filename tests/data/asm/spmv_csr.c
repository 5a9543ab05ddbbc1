/* CSR SpMV, as the project's native kernel writes it (test input for dag/). */
void spmv_csr(int n, const int *rp, const int *ci, const double *v,
	      const double *x, double *y)
{
	for (int i = 0; i < n; i++) {
		double s = 0.0;
		for (int j = rp[i]; j < rp[i + 1]; j++)
			s += v[j] * x[ci[j]];
		y[i] = s;
	}
}
