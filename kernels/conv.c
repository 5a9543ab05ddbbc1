/*
 * conv.c - 1-D convolution: algorithm 1 (naive) native and instrumented,
 * algorithms 2 and 3 over a portable 8-float vector (the fallback on CPUs
 * without AVX2/FMA, and the instrumented form).  The AVX2 native versions
 * are in conv_avx2.c, from the same conv_vec_body.h.  The fallback
 * differs from the AVX2 kernel only in rounding (unfused multiply-add).
 */
#include "kernels/kernels_int.h"

#include <math.h>

struct kv8 {
	float f[8];
};

static inline struct kv8 kv8_zero(void)
{
	struct kv8 v = { { 0 } };

	return v;
}

static inline struct kv8 kv8_loadu(const float *p)
{
	struct kv8 v;
	int i;

	for (i = 0; i < 8; i++)
		v.f[i] = p[i];
	return v;
}

static inline struct kv8 kv8_bcast(const float *p)
{
	struct kv8 v;
	int i;

	for (i = 0; i < 8; i++)
		v.f[i] = *p;
	return v;
}

/* a*b + c with one rounding, as _mm256_fmadd_ps. */
static inline struct kv8 kv8_fma(struct kv8 a, struct kv8 b, struct kv8 c)
{
	struct kv8 v;
	int i;

	for (i = 0; i < 8; i++)
		v.f[i] = fmaf(a.f[i], b.f[i], c.f[i]);
	return v;
}

/* a*b + c rounded twice: the fast fallback on CPUs without FMA (one
 * libm call per lane would cost 50x); results differ from the fused form
 * in the last bit. */
static inline struct kv8 kv8_muladd(struct kv8 a, struct kv8 b, struct kv8 c)
{
	struct kv8 v;
	int i;

	for (i = 0; i < 8; i++)
		v.f[i] = a.f[i] * b.f[i] + c.f[i];
	return v;
}

static inline void kv8_storeu(float *p, struct kv8 v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = v.f[i];
}

#define KV struct kv8
#define KV_ZERO() kv8_zero()
#define KV_LOADU(p) kv8_loadu(p)
#define KV_BCAST(p) kv8_bcast(p)
#define KV_STOREU(p, v) kv8_storeu(p, v)
#define KV_PREFIX kern_conv_vec8

/* Native fallback: same loads, unfused multiply-add. */
#define KV_FMA(a, b, c) kv8_muladd(a, b, c)
#undef KERN_INSTRUMENTED
#include "kernels/kern_hooks.h"
/* The fallback's 8-lane structs are big when unrolled 16 times (and slow
 * to compile under sanitizers); 4 keeps the loads in flight. */
#undef KUNROLL16
#define KUNROLL16 _Pragma("GCC unroll 4")
#include "kernels/conv_naive_body.h"
#include "kernels/conv_vec_body.h"
#undef KV_FMA

/* Instrumented: fused like _mm256_fmadd_ps, so its output equals the AVX2
 * kernel's bit for bit. */
#define KV_FMA(a, b, c) kv8_fma(a, b, c)
#define KERN_INSTRUMENTED 1
#include "kernels/kern_hooks.h"
#include "kernels/conv_naive_body.h"
#include "kernels/conv_vec_body.h"
#undef KERN_INSTRUMENTED

/*
 * Placed copies of the naive kernel (kern_conv_naive_at0 .. _at48): each
 * starts on a 64-byte boundary followed by 0, 16, 32 or 48 bytes of
 * no-ops (place_copies.h), as for SpMV.  Measured here (2026-11-25) the
 * naive loop's 16 taps run at 16.0 cycles per output at most placements
 * and at 17.1 at others; the model cannot see the placement, so
 * `ppr conv --measure` times every copy and keeps the fastest.
 */
#ifdef KERN_HAVE_PLACEMENT
#undef KERN_INSTRUMENTED
#include "kernels/kern_hooks.h"
#define PLACE_BODY "kernels/conv_naive_body.h"
#include "kernels/place_copies.h"

typedef void (*conv_fn)(const struct kern_conv_args *a);
static const conv_fn naive_at[KERN_PLACEMENTS] = {
	kern_conv_naive_at0, kern_conv_naive_at16, kern_conv_naive_at32,
	kern_conv_naive_at48,
};
#endif

int kern_conv_placements(enum conv_variant v, int use_avx2)
{
#ifdef KERN_HAVE_PLACEMENT
	if (v == CONV_NAIVE)
		return KERN_PLACEMENTS;
#endif
	if (v != CONV_NAIVE && use_avx2)
		return kern_conv_avx2_placements();
	return 0;
}

void kern_conv_native_at(const struct kern_conv_args *a, int use_avx2,
			 int place)
{
	if (place < 0 || place >= kern_conv_placements(a->variant, use_avx2))
		kern_conv_native(a, use_avx2);
#ifdef KERN_HAVE_PLACEMENT
	else if (a->variant == CONV_NAIVE)
		naive_at[place](a);
#endif
	else
		kern_conv_avx2_native_at(a, place);
}

void kern_conv_native(const struct kern_conv_args *a, int use_avx2)
{
	if (a->variant == CONV_NAIVE)
		kern_conv_naive(a);
	else if (use_avx2)
		kern_conv_avx2_native(a);
	else if (a->variant == CONV_AVX2_UNALIGNED)
		kern_conv_vec8_unaligned(a);
	else
		kern_conv_vec8_aligned(a);
}

void kern_conv_instr(const struct kern_conv_args *a, struct kern_emit *em)
{
	if (a->variant == CONV_NAIVE)
		kern_conv_naive_instr(a, em);
	else if (a->variant == CONV_AVX2_UNALIGNED)
		kern_conv_vec8_unaligned_instr(a, em);
	else
		kern_conv_vec8_aligned_instr(a, em);
}

const char *kern_conv_symbol(enum conv_variant v, int use_avx2)
{
	switch (v) {
	case CONV_NAIVE:
		return "kern_conv_naive";
	case CONV_AVX2_UNALIGNED:
		return use_avx2 ? "kern_conv_avx2_unaligned" :
				  "kern_conv_vec8_unaligned";
	case CONV_AVX2_ALIGNED:
		return use_avx2 ? "kern_conv_avx2_aligned" :
				  "kern_conv_vec8_aligned";
	}
	return "?";
}

int kernel_cpu_has_avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
	return 0;
#endif
}
