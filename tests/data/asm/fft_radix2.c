/* Radix-2 FFT butterfly loop over one stage, split re/im (test input). */
void fft_stage(int half, double *re, double *im, const double *wr,
	       const double *wi)
{
	for (int j = 0; j < half; j++) {
		double tr = re[j + half] * wr[j] - im[j + half] * wi[j];
		double ti = re[j + half] * wi[j] + im[j + half] * wr[j];
		re[j + half] = re[j] - tr;
		im[j + half] = im[j] - ti;
		re[j] += tr;
		im[j] += ti;
	}
}
