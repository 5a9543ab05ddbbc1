/*
 * conv_naive_body.h - the paper's algorithm 1, written once: for each
 * output, a scalar dot product of 16 inputs with the reversed kernel.
 * Tags: in, krev and out regular (contiguous, reused along i).
 * Kept scalar as the paper's algorithm 1 is (KERN_NOVEC): at -O3 GCC
 * would otherwise vectorise across outputs and make it algorithm 2.
 */
void KCAT2(kern_conv_naive, KSFX)(const struct kern_conv_args *a KPARAM);
KERN_NOINLINE KERN_NOVEC void KCAT2(kern_conv_naive, KSFX)(const struct kern_conv_args *a KPARAM)
{
	const float *restrict in = a->in;
	const float *restrict kr = a->krev;
	float *restrict out = a->out;
	uint64_t nout = a->nout, i;
	int k;

	for (i = 0; i < nout; i++) {
		float tmp = 0.0f;

		for (k = 0; k < CONV_KLEN; k++) {
			KLD(&in[i + k], 4, KT_REG);
			KLD(&kr[k], 4, KT_REG);
			tmp += in[i + k] * kr[k];
		}
		KST(&out[i], 4, KT_REG);
		out[i] = tmp;
	}
}
