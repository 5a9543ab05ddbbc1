/*
 * spmv_place_one.h - one placed copy of the native SpMV kernels (CSR and
 * the 64 BCSR shapes) for spmv_place.c.
 *
 * No include guard on purpose: the includer defines PLACE_PAD (bytes of
 * no-ops after the 64-byte aligned entry: 0, 16, 32 or 48) and PLACE_SFX
 * (the copy's name suffix, e.g. _at16), includes this file, and this file
 * undefines both.
 */
#undef KERN_NOINLINE
#undef KSFX
#define KERN_NOINLINE __attribute__((noinline, aligned(64), \
				       patchable_function_entry(PLACE_PAD, 0)))
#define KSFX PLACE_SFX
#include "kernels/spmv_csr_body.h"
#include "kernels/spmv_bcsr_all.h"
#undef PLACE_PAD
#undef PLACE_SFX
