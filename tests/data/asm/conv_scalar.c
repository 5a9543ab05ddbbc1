/* Scalar 1-D convolution, 16 taps, single precision (paper algorithm 1). */
void conv_scalar(int n, const float *in, const float *k, float *out)
{
	for (int i = 0; i < n; i++) {
		float s = 0.0f;
		for (int t = 0; t < 16; t++)
			s += in[i + t] * k[t];
		out[i] = s;
	}
}
