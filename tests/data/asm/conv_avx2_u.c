/* AVX2 1-D convolution with unaligned loads (paper algorithm 2). */
#include <immintrin.h>
void conv_avx2_u(int n, const float *in, const float *k, float *out)
{
	for (int i = 0; i < n; i += 8) {
		__m256 acc = _mm256_setzero_ps();
		for (int t = 0; t < 16; t++)
			acc = _mm256_fmadd_ps(_mm256_loadu_ps(in + i + t),
					      _mm256_broadcast_ss(k + t), acc);
		_mm256_storeu_ps(out + i, acc);
	}
}
