/*
 * conv_vec_body.h - the paper's algorithms 2 and 3 written once over an
 * 8-float vector type.  The includer defines:
 *   KV_PREFIX        function name prefix (kern_conv_avx2 / kern_conv_vec8)
 *   KV               the vector type
 *   KV_ZERO()  KV_LOADU(p)  KV_BCAST(p)  KV_FMA(a, b, c) (= a*b + c)
 *   KV_STOREU(p, v)
 * AVX2 intrinsics natively (conv_avx2.c), a portable struct of 8 floats
 * for the fallback and the instrumented form (conv.c).  The instrumented
 * form fuses with fmaf() and matches the AVX2 kernel bit for bit; the
 * fallback multiplies then adds (fast without FMA hardware).
 *
 * Per block of 16 outputs (base = 16*b): two accumulators cover outputs
 * base..base+7 and base+8..base+15; for k in 0..15 the reversed kernel
 * value krev[k] is broadcast and multiplied into the 8 inputs starting at
 * base+k and base+k+8.  32 vector loads, 32 FMAs, 2 vector stores per
 * block.  Outputs after the last full block are done as algorithm 1.
 *
 * Algorithm 3 reads the same inputs from 4 shifted copies, copies[s][j] =
 * in[j+s] (s = 0..3, each copy 64-byte aligned): in[o] is copies[o&3][o -
 * (o&3)], whose address is a multiple of 16 bytes, the alignment the
 * paper asks for.  A 256-bit load at a 16-byte (not 32-byte) boundary
 * still needs the unaligned instruction form (vmovups; vmovaps would
 * fault), so both variants use KV_LOADU; what algorithm 3 changes is that
 * no load starts inside a 16-byte chunk, so only loads starting at byte
 * 48 of a line split across two lines (1 in 4) against 7 in 16 for
 * algorithm 2, at the price of 4x the input data (8 lines per block
 * instead of 2, as the paper counts).
 */
#define KV_FN(suffix) KCAT2(KCAT2(KV_PREFIX, suffix), KSFX)

static inline void KV_FN(_tail)(const struct kern_conv_args *a,
					  uint64_t from KPARAM)
{
	const float *restrict in = a->in;
	const float *restrict kr = a->krev;
	float *restrict out = a->out;
	uint64_t i;
	int k;

	for (i = from; i < a->nout; i++) {
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

void KV_FN(_unaligned)(const struct kern_conv_args *a KPARAM);
KERN_NOINLINE void KV_FN(_unaligned)(const struct kern_conv_args *a KPARAM)
{
	const float *restrict in = a->in;
	const float *restrict kr = a->krev;
	float *restrict out = a->out;
	uint64_t nb = a->nout / 16, b;

	for (b = 0; b < nb; b++) {
		const float *p = in + b * 16;
		KV acc0 = KV_ZERO(), acc1 = KV_ZERO();
		int k;

KUNROLL16
		for (k = 0; k < CONV_KLEN; k++) {
			KV w;

			KLD(&kr[k], 4, KT_REG);
			w = KV_BCAST(&kr[k]);
			KLD(p + k, 32, KT_REG);
			acc0 = KV_FMA(w, KV_LOADU(p + k), acc0);
			KLD(p + k + 8, 32, KT_REG);
			acc1 = KV_FMA(w, KV_LOADU(p + k + 8), acc1);
		}
		KST(out + b * 16, 32, KT_REG);
		KV_STOREU(out + b * 16, acc0);
		KST(out + b * 16 + 8, 32, KT_REG);
		KV_STOREU(out + b * 16 + 8, acc1);
	}
	KV_FN(_tail)(a, nb * 16 KARG);
}

void KV_FN(_aligned)(const struct kern_conv_args *a KPARAM);
KERN_NOINLINE void KV_FN(_aligned)(const struct kern_conv_args *a KPARAM)
{
	const float *restrict c0 = a->copies[0];
	const float *restrict c1 = a->copies[1];
	const float *restrict c2 = a->copies[2];
	const float *restrict c3 = a->copies[3];
	const float *restrict kr = a->krev;
	float *restrict out = a->out;
	uint64_t nb = a->nout / 16, b;

	for (b = 0; b < nb; b++) {
		uint64_t base = b * 16;
		KV acc0 = KV_ZERO(), acc1 = KV_ZERO();
		int q;

		/* k = 4q + s reads copy s at base + 4q (+ 8): 16-byte aligned. */
KUNROLL8
		for (q = 0; q < CONV_KLEN / 4; q++) {
			const float *cs[4];
			int s;

			cs[0] = c0 + base + 4 * q;
			cs[1] = c1 + base + 4 * q;
			cs[2] = c2 + base + 4 * q;
			cs[3] = c3 + base + 4 * q;
KUNROLL8
			for (s = 0; s < 4; s++) {
				int k = 4 * q + s;
				KV w;

				KLD(&kr[k], 4, KT_REG);
				w = KV_BCAST(&kr[k]);
				KLD(cs[s], 32, KT_REG);
				acc0 = KV_FMA(w, KV_LOADU(cs[s]), acc0);
				KLD(cs[s] + 8, 32, KT_REG);
				acc1 = KV_FMA(w, KV_LOADU(cs[s] + 8), acc1);
			}
		}
		KST(out + base, 32, KT_REG);
		KV_STOREU(out + base, acc0);
		KST(out + base + 8, 32, KT_REG);
		KV_STOREU(out + base + 8, acc1);
	}
	KV_FN(_tail)(a, nb * 16 KARG);
}
#undef KV_FN
