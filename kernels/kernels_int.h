/*
 * kernels_int.h - shared inside kernels/ only.
 *
 * The access hooks.  A kernel body (kernels/<name>_body.h) is a function
 * written once with these macros:
 *
 *   KLD(ptr, size, tag)   a load of 'size' bytes at ptr
 *   KST(ptr, size, tag)   a store
 *   KPARAM                extra trailing parameter(s) of the function
 *   KFN(name)             the function's name
 *
 * Including it with KERN_INSTRUMENTED undefined makes KLD/KST expand to
 * nothing and KPARAM to nothing: the native kernel.  With
 * KERN_INSTRUMENTED defined they append to a local buffer of
 * KERNEL_EMIT_BATCH references that is flushed through the sink.
 */
#ifndef PPR_KERNELS_INT_H
#define PPR_KERNELS_INT_H

#include <stdint.h>
#include <string.h>

#include "common/ppr_access.h"
#include "kernels/kernels.h"

#define KERN_NOINLINE_NATIVE __attribute__((noinline))
#define KERN_NOINLINE KERN_NOINLINE_NATIVE
/* The compiler can place code at chosen offsets in a line (the placed
 * copies of place_copies.h). */
#if defined(__has_attribute)
#if __has_attribute(patchable_function_entry)
#define KERN_HAVE_PLACEMENT 1
#endif
#endif
/* Keep a deliberately scalar kernel scalar (GCC; clang honours its own
 * loop pragmas, and does not outer-loop vectorise this loop). */
#if defined(__GNUC__) && !defined(__clang__)
#define KERN_NOVEC __attribute__((optimize("no-tree-vectorize")))
#else
#define KERN_NOVEC
#endif

/*
 * Address layout.  A kernel's arrays live wherever malloc and mmap put
 * them, and that differs between runs (address-space randomisation, and
 * what the heap held before): the page numbers, so the L2/L3 set each
 * array starts in, and for small heap blocks the page offset too.  With
 * them a few conflict misses change.  To make every prediction
 * reproducible, the emitter maps each registered array to a fixed
 * virtual layout before the references reach the sink: arrays in the
 * order registered, each starting on a fresh 4 KiB page after the
 * previous one, from KERN_LAYOUT_BASE.  So every array is taken to be
 * page-aligned (large malloc blocks are page-aligned plus a 16-byte
 * header; the difference is at most one line per array).  What this does
 * not model: the physical pages a real L2/L3 indexes with, which the OS
 * scatters; a fixed contiguous layout stands for them.  References
 * outside every registered array pass through unchanged.
 */
#define KERN_LAYOUT_BASE 0x10000000ull
#define KERN_MAX_REGIONS 8

struct kern_region {
	uint64_t lo, hi;	/* real [lo, hi) */
	uint64_t delta;		/* virtual = real + delta (mod 2^64) */
};

struct kern_layout {
	unsigned nreg;
	uint64_t next_virt;	/* next free virtual page */
	struct kern_region reg[KERN_MAX_REGIONS];
};

/* Start an empty layout at KERN_LAYOUT_BASE. */
void kern_layout_init(struct kern_layout *l);
/* Register an array of 'bytes' bytes at p (see above); NULL or empty
 * arrays and calls past KERN_MAX_REGIONS are ignored. */
void kern_layout_add(struct kern_layout *l, const void *p, uint64_t bytes);
/* the same, the next region right behind this one (not at the next
 * page): arrays apart in memory, one block in the trace */
void kern_layout_add_packed(struct kern_layout *l, const void *p,
			    uint64_t bytes);
/* The address a reference to real address a gets in the layout. */
uint64_t kern_layout_map(const struct kern_layout *l, uint64_t a);

struct kern_emit {
	const struct ppr_sink *sink;
	size_t n;
	int rc;			/* first sink error; emission stops */
	struct kern_layout lay;	/* empty: addresses pass unchanged */
	struct ppr_access buf[KERNEL_EMIT_BATCH];
};

void kern_emit_init(struct kern_emit *e, const struct ppr_sink *sink);
/* Deliver the buffered references; returns e->rc. */
int kern_emit_flush(struct kern_emit *e);

static inline void kern_emit_put(struct kern_emit *e, const void *p,
				 uint32_t size, unsigned op, unsigned tag)
{
	struct ppr_access *a;

	if (e->n == KERNEL_EMIT_BATCH)
		kern_emit_flush(e);
	a = &e->buf[e->n++];
	a->addr = (uint64_t)(uintptr_t)p;
	a->size = size;
	a->op = (uint8_t)op;
	a->tag = (uint8_t)tag;
	a->pad = 0;
}

/* Copy src into dst (size n), truncating; always NUL-terminated. */
static inline void kern_strlcpy(char *dst, const char *src, size_t n)
{
	size_t len = strlen(src);

	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

#define KT_REG PPR_TAG_REGULAR
#define KT_IRR PPR_TAG_IRREGULAR

/* ---- the hooks: include kernels/kern_hooks.h after setting or clearing
 * KERN_INSTRUMENTED; it (re)defines KLD, KST, KPARAM, KARG, KSFX. ---- */

/* Name pasting with macro expansion of the arguments. */
#define KCAT2_(a, b) a##b
#define KCAT2(a, b) KCAT2_(a, b)

/* ---- per-kernel entry points (defined in the kernel .c files) -------- */

struct kern_csr_args {
	uint64_t rows;
	const uint64_t *row_ptr;
	const uint32_t *col_idx;
	const double *vals;
	const double *x;
	double *y;
};

struct kern_bcsr_args {
	unsigned r, c;
	uint64_t brows;
	const uint64_t *bptr;
	const uint32_t *bcol;
	const double *vals;
	const double *x;	/* padded to bcols * c */
	double *y;		/* padded to brows * r */
};

/*
 * The native SpMV kernels at KERN_PLACEMENTS controlled code placements
 * (spmv_place.c): copy k starts 16k bytes into a 64-byte line.
 * kern_spmv_placements() is KERN_PLACEMENTS, or 0 when the compiler
 * cannot place code (then the _at functions run the linker's copy).
 */
#define KERN_PLACEMENTS KERNEL_CODE_OFFSETS
int kern_spmv_placements(void);
void kern_csr_native_at(const struct kern_csr_args *a, int place);
void kern_bcsr_native_at(const struct kern_bcsr_args *a, int place);
void kern_csr_native(const struct kern_csr_args *a);
void kern_csr_instr(const struct kern_csr_args *a, struct kern_emit *em);
/* r, c in 1..8; the name of the native function for that shape. */
void kern_bcsr_native(const struct kern_bcsr_args *a);
void kern_bcsr_instr(const struct kern_bcsr_args *a, struct kern_emit *em);
const char *kern_bcsr_symbol(unsigned r, unsigned c);

struct kern_conv_args {
	enum conv_variant variant;
	uint64_t n;		/* input length */
	uint64_t nout;		/* n - CONV_KLEN + 1 */
	const float *in;	/* n floats (+ padding) */
	const float *copies[4];	/* aligned: copies[s][j] = in[j + s] */
	const float *krev;	/* reversed kernel: krev[k] = kernel[15-k] */
	float *out;
};

void kern_conv_native(const struct kern_conv_args *a, int use_avx2);
void kern_conv_instr(const struct kern_conv_args *a, struct kern_emit *em);
/* Defined in conv_avx2.c (compiled with -mavx2 -mfma). */
void kern_conv_avx2_native(const struct kern_conv_args *a);
/*
 * The native convolution kernels at KERN_PLACEMENTS code placements, as
 * the SpMV kernels (spmv_place.c): copy k starts 16k bytes into a 64-byte
 * line.  kern_conv_placements() is KERN_PLACEMENTS for the naive kernel
 * and the AVX2 ones, 0 for the portable vector fallback or when the
 * compiler cannot place code; kern_conv_native_at() runs copy 'place'.
 */
int kern_conv_placements(enum conv_variant v, int use_avx2);
void kern_conv_native_at(const struct kern_conv_args *a, int use_avx2,
			 int place);
int kern_conv_avx2_placements(void);
void kern_conv_avx2_native_at(const struct kern_conv_args *a, int place);
const char *kern_conv_symbol(enum conv_variant v, int use_avx2);

struct kern_fft_args {
	uint64_t n;		/* per dimension, power of two */
	int dims;		/* 1 or 3 */
	double *data;		/* interleaved re,im: n^dims complex */
	const uint32_t *rev;	/* bit reversal of 0..n-1 */
	const double *tw;	/* n-1 twiddles, per stage contiguous */
	double *scratch;	/* 3-D: 4 * n complex */
};

void kern_fft_native(const struct kern_fft_args *a);
void kern_fft_instr(const struct kern_fft_args *a, struct kern_emit *em);
/* Fill rev and tw for n (power of two). */
void kern_fft_tables(uint64_t n, uint32_t *rev, double *tw);

#endif
