/*
 * fft.c - radix-2 FFT 1-D and 3-D, native and instrumented from
 * fft_body.h, and the twiddle / bit-reversal tables.
 */
#include "kernels/kernels_int.h"

#include <math.h>

#undef KERN_INSTRUMENTED
#include "kernels/kern_hooks.h"
#include "kernels/fft_body.h"

#define KERN_INSTRUMENTED 1
#include "kernels/kern_hooks.h"
#include "kernels/fft_body.h"
#undef KERN_INSTRUMENTED

void kern_fft_native(const struct kern_fft_args *a)
{
	if (a->dims == 3)
		kern_fft3d(a);
	else
		kern_fft1d(a);
}

void kern_fft_instr(const struct kern_fft_args *a, struct kern_emit *em)
{
	if (a->dims == 3)
		kern_fft3d_instr(a, em);
	else
		kern_fft1d_instr(a, em);
}

void kern_fft_tables(uint64_t n, uint32_t *rev, double *tw)
{
	unsigned bits = 0;
	uint64_t i, h;

	while ((1ull << bits) < n)
		bits++;
	for (i = 0; i < n; i++) {
		uint64_t r = 0, v = i;
		unsigned b;

		for (b = 0; b < bits; b++) {
			r = (r << 1) | (v & 1);
			v >>= 1;
		}
		rev[i] = (uint32_t)r;
	}
	/* Stage with half-span h: w_k = exp(-2 pi i k / (2h)), k < h.
	 * Computed directly (not by recurrence) for full accuracy. */
	for (h = 1; h < n; h <<= 1)
		for (i = 0; i < h; i++) {
			double ang = -M_PI * (double)i / (double)h;

			tw[2 * (h - 1 + i)] = cos(ang);
			tw[2 * (h - 1 + i) + 1] = sin(ang);
		}
}
