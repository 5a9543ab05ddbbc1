/*
 * fft_body.h - radix-2 complex double FFT (forward, e^{-2 pi i jk/n}),
 * 1-D and 3-D, written once (see kernels_int.h for the hooks).
 *
 * 1-D: iterative decimation in time: bit-reversal permutation through a
 * precomputed table, then log2 n stages of butterflies.  Twiddles are
 * precomputed per stage and stored contiguously (stage with half-span h
 * uses tw[h-1 .. 2h-2]), so every stage reads them with unit stride.
 * Tags: the permutation's partner a[rev[i]] is irregular, everything else
 * (rev, the butterfly pairs, the twiddles) is regular.  Complex values are
 * 16-byte references.
 *
 * 3-D (n^3, x fastest): 1-D transforms along x in place; along y and z,
 * 4 neighbouring pencils (one 64-byte line of x) are gathered into a
 * contiguous scratch, transformed there, and scattered back.  The gather
 * and scatter walk the big array with a stride of n or n^2 complex
 * values: irregular.
 */
static inline void KCAT2(fft_line, KSFX)(double *restrict a, uint64_t n,
					 const uint32_t *restrict rev,
					 const double *restrict tw KPARAM)
{
	uint64_t i, h;

	for (i = 0; i < n; i++) {
		uint64_t j;

		KLD(&rev[i], 4, KT_REG);
		j = rev[i];
		if (i < j) {
			double re = a[2 * i], im = a[2 * i + 1];

			KLD(&a[2 * i], 16, KT_REG);
			KLD(&a[2 * j], 16, KT_IRR);
			KST(&a[2 * i], 16, KT_REG);
			KST(&a[2 * j], 16, KT_IRR);
			a[2 * i] = a[2 * j];
			a[2 * i + 1] = a[2 * j + 1];
			a[2 * j] = re;
			a[2 * j + 1] = im;
		}
	}
	for (h = 1; h < n; h <<= 1) {
		const double *restrict w = tw + 2 * (h - 1);

		for (i = 0; i < n; i += 2 * h) {
			double *restrict p = a + 2 * i;
			double *restrict q = a + 2 * (i + h);
			uint64_t k;

			for (k = 0; k < h; k++) {
				double wr, wi, tr, ti, ur, ui;

				KLD(&w[2 * k], 16, KT_REG);
				KLD(&p[2 * k], 16, KT_REG);
				KLD(&q[2 * k], 16, KT_REG);
				wr = w[2 * k];
				wi = w[2 * k + 1];
				tr = q[2 * k] * wr - q[2 * k + 1] * wi;
				ti = q[2 * k] * wi + q[2 * k + 1] * wr;
				ur = p[2 * k];
				ui = p[2 * k + 1];
				KST(&p[2 * k], 16, KT_REG);
				KST(&q[2 * k], 16, KT_REG);
				p[2 * k] = ur + tr;
				p[2 * k + 1] = ui + ti;
				q[2 * k] = ur - tr;
				q[2 * k + 1] = ui - ti;
			}
		}
	}
}

void KCAT2(kern_fft1d, KSFX)(const struct kern_fft_args *a KPARAM);
KERN_NOINLINE void KCAT2(kern_fft1d, KSFX)(const struct kern_fft_args *a KPARAM)
{
	KCAT2(fft_line, KSFX)(a->data, a->n, a->rev, a->tw KARG);
}

/* Transform 'cnt' (<= 4) pencils starting at base, element stride s. */
static inline void KCAT2(fft_pencils, KSFX)(const struct kern_fft_args *a,
					    double *restrict base, uint64_t s,
					    unsigned cnt KPARAM)
{
	double *restrict sc = a->scratch;
	uint64_t n = a->n, j;
	unsigned p;

	for (j = 0; j < n; j++) {
		double *row = base + 2 * j * s;

		for (p = 0; p < cnt; p++) {
			KLD(&row[2 * p], 16, KT_IRR);
			KST(&sc[2 * (p * n + j)], 16, KT_REG);
			sc[2 * (p * n + j)] = row[2 * p];
			sc[2 * (p * n + j) + 1] = row[2 * p + 1];
		}
	}
	for (p = 0; p < cnt; p++)
		KCAT2(fft_line, KSFX)(sc + 2 * p * n, n, a->rev, a->tw KARG);
	for (j = 0; j < n; j++) {
		double *row = base + 2 * j * s;

		for (p = 0; p < cnt; p++) {
			KLD(&sc[2 * (p * n + j)], 16, KT_REG);
			KST(&row[2 * p], 16, KT_IRR);
			row[2 * p] = sc[2 * (p * n + j)];
			row[2 * p + 1] = sc[2 * (p * n + j) + 1];
		}
	}
}

void KCAT2(kern_fft3d, KSFX)(const struct kern_fft_args *a KPARAM);
KERN_NOINLINE void KCAT2(kern_fft3d, KSFX)(const struct kern_fft_args *a KPARAM)
{
	uint64_t n = a->n, l, z, y, x;
	double *d = a->data;
	unsigned cnt = n < 4 ? (unsigned)n : 4;

	for (l = 0; l < n * n; l++)		/* along x */
		KCAT2(fft_line, KSFX)(d + 2 * l * n, n, a->rev, a->tw KARG);
	for (z = 0; z < n; z++)			/* along y: stride n */
		for (x = 0; x < n; x += cnt)
			KCAT2(fft_pencils, KSFX)(a, d + 2 * (z * n * n + x),
						 n, cnt KARG);
	for (y = 0; y < n; y++)			/* along z: stride n^2 */
		for (x = 0; x < n; x += cnt)
			KCAT2(fft_pencils, KSFX)(a, d + 2 * (y * n + x),
						 n * n, cnt KARG);
}
