/* AVX2 1-D convolution, aligned loads from 8 shifted copies (algorithm 3). */
#include <immintrin.h>
void conv_avx2_a(int n, const float *const *shifted, const float *k, float *out)
{
	for (int i = 0; i < n; i += 8) {
		__m256 acc = _mm256_setzero_ps();
		for (int t = 0; t < 16; t++)
			acc = _mm256_fmadd_ps(_mm256_load_ps(shifted[t & 7] + i + (t & ~7)),
					      _mm256_broadcast_ss(k + t), acc);
		_mm256_store_ps(out + i, acc);
	}
}
