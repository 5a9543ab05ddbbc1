/*
 * spmv_place.c - the native SpMV kernels again, at four controlled code
 * placements.
 *
 * Where the linker puts a kernel changes how fast it runs.  On this
 * project's Zen guest (2026-11-24, kernels/README.md), kern_spmv_bcsr_1x1
 * on Pd.mtx (1.6 nonzeros per row) runs at 4.2 GFLOPS when its inner
 * loop starts 16, 32 or 48 bytes into a 64-byte line and at 2.0 GFLOPS
 * when it starts at 0 or 8 bytes into a 16-byte block; the CSR kernel and
 * the other shapes move too.  The source is the same, so the model cannot
 * see it, and a measured "best shape" would depend on the build.
 *
 * Each copy here starts on a 64-byte boundary followed by 0, 16, 32 or 48
 * bytes of no-ops (GCC/clang patchable_function_entry, executed once per
 * call), so copy k's code sits 16k bytes into its line whatever the link
 * order; the compiler's 16-byte loop alignment inside is unchanged.  The
 * measurement commands time every copy and keep the fastest (a build
 * artefact is not the kernel's speed); kernel_run_set_code_offset() picks
 * one.
 */
#include "kernels/kernels_int.h"

#undef KERN_INSTRUMENTED
#include "kernels/kern_hooks.h"

#ifdef KERN_HAVE_PLACEMENT
#define PLACE_BODY "kernels/spmv_place_one.h"
#include "kernels/place_copies.h"

typedef void (*csr_fn)(const struct kern_csr_args *a);
typedef void (*bcsr_fn)(const struct kern_bcsr_args *a);

#define E(R, C, S) kern_spmv_bcsr_##R##x##C##S
#define ROW(R, S) { E(R, 1, S), E(R, 2, S), E(R, 3, S), E(R, 4, S), \
		    E(R, 5, S), E(R, 6, S), E(R, 7, S), E(R, 8, S) }
#define TAB(S) { ROW(1, S), ROW(2, S), ROW(3, S), ROW(4, S), \
		 ROW(5, S), ROW(6, S), ROW(7, S), ROW(8, S) }
static const bcsr_fn bcsr_at[KERN_PLACEMENTS][8][8] = {
	TAB(_at0), TAB(_at16), TAB(_at32), TAB(_at48),
};
#undef TAB
#undef ROW
#undef E

static const csr_fn csr_at[KERN_PLACEMENTS] = {
	kern_spmv_csr_at0, kern_spmv_csr_at16, kern_spmv_csr_at32,
	kern_spmv_csr_at48,
};

int kern_spmv_placements(void)
{
	return KERN_PLACEMENTS;
}

void kern_csr_native_at(const struct kern_csr_args *a, int place)
{
	csr_at[place](a);
}

void kern_bcsr_native_at(const struct kern_bcsr_args *a, int place)
{
	bcsr_at[place][a->r - 1][a->c - 1](a);
}
#else
/* No way to place the code: the linker's placement only. */
int kern_spmv_placements(void)
{
	return 0;
}

void kern_csr_native_at(const struct kern_csr_args *a, int place)
{
	(void)place;
	kern_csr_native(a);
}

void kern_bcsr_native_at(const struct kern_bcsr_args *a, int place)
{
	(void)place;
	kern_bcsr_native(a);
}
#endif
