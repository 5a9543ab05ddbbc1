/*
 * conv_avx2.c - algorithms 2 and 3 with AVX2 + FMA intrinsics, from the
 * same conv_vec_body.h as the portable and instrumented forms.  Compiled
 * with -mavx2 -mfma (kernels/kernels.mk) and called only after
 * kernel_cpu_has_avx2() said yes.
 */
#include "kernels/kernels_int.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#define KV __m256
#define KV_ZERO() _mm256_setzero_ps()
#define KV_LOADU(p) _mm256_loadu_ps(p)
#define KV_BCAST(p) _mm256_broadcast_ss(p)
#define KV_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define KV_STOREU(p, v) _mm256_storeu_ps(p, v)
#define KV_PREFIX kern_conv_avx2

#undef KERN_INSTRUMENTED
#include "kernels/kern_hooks.h"
#include "kernels/conv_vec_body.h"

void kern_conv_avx2_native(const struct kern_conv_args *a)
{
	if (a->variant == CONV_AVX2_ALIGNED)
		kern_conv_avx2_aligned(a);
	else
		kern_conv_avx2_unaligned(a);
}

/* Placed copies of both (place_copies.h, as conv.c and spmv_place.c):
 * 64-byte aligned entry, then 0, 16, 32 or 48 bytes of no-ops. */
#ifdef KERN_HAVE_PLACEMENT
#define PLACE_BODY "kernels/conv_vec_body.h"
#include "kernels/place_copies.h"

typedef void (*conv_fn)(const struct kern_conv_args *a);
static const conv_fn unaligned_at[KERN_PLACEMENTS] = {
	kern_conv_avx2_unaligned_at0, kern_conv_avx2_unaligned_at16,
	kern_conv_avx2_unaligned_at32, kern_conv_avx2_unaligned_at48,
};
static const conv_fn aligned_at[KERN_PLACEMENTS] = {
	kern_conv_avx2_aligned_at0, kern_conv_avx2_aligned_at16,
	kern_conv_avx2_aligned_at32, kern_conv_avx2_aligned_at48,
};

int kern_conv_avx2_placements(void)
{
	return KERN_PLACEMENTS;
}

void kern_conv_avx2_native_at(const struct kern_conv_args *a, int place)
{
	if (a->variant == CONV_AVX2_ALIGNED)
		aligned_at[place](a);
	else
		unaligned_at[place](a);
}
#else
int kern_conv_avx2_placements(void)
{
	return 0;
}

void kern_conv_avx2_native_at(const struct kern_conv_args *a, int place)
{
	(void)place;
	kern_conv_avx2_native(a);
}
#endif
#else
/* Built without -mavx2 -mfma (not x86): never selected, see
 * kernel_cpu_has_avx2(); the portable vector form stands in. */
void kern_conv_avx2_native(const struct kern_conv_args *a)
{
	kern_conv_native(a, 0);
}

int kern_conv_avx2_placements(void)
{
	return 0;
}

void kern_conv_avx2_native_at(const struct kern_conv_args *a, int place)
{
	(void)place;
	kern_conv_native(a, 0);
}
#endif
