/*
 * spmv.c - SpMV CSR and BCSR r x c (64 shapes): the native kernels and
 * the dispatch table.  The instrumented twins come from the same bodies
 * (spmv_csr_body.h, spmv_bcsr_body.h) in spmv_instr.c.
 */
#include "kernels/kernels_int.h"

#include <stdio.h>

/* ---- native ---- */
#undef KERN_INSTRUMENTED
#include "kernels/kern_hooks.h"
#include "kernels/spmv_csr_body.h"
#include "kernels/spmv_bcsr_all.h"

/* The instrumented twins are in spmv_instr.c (compiled in parallel). */
void kern_spmv_csr_instr(const struct kern_csr_args *a, struct kern_emit *em);
#define D(R, C) void kern_spmv_bcsr_##R##x##C##_instr( \
		const struct kern_bcsr_args *a, struct kern_emit *em);
#define DROW(R) D(R, 1) D(R, 2) D(R, 3) D(R, 4) D(R, 5) D(R, 6) D(R, 7) D(R, 8)
DROW(1) DROW(2) DROW(3) DROW(4) DROW(5) DROW(6) DROW(7) DROW(8)
#undef DROW
#undef D

struct bcsr_entry {
	void (*native)(const struct kern_bcsr_args *a);
	void (*instr)(const struct kern_bcsr_args *a, struct kern_emit *em);
	const char *symbol;
};

#define E(R, C) { kern_spmv_bcsr_##R##x##C, kern_spmv_bcsr_##R##x##C##_instr, \
		  "kern_spmv_bcsr_" #R "x" #C }
#define ROW(R) E(R, 1), E(R, 2), E(R, 3), E(R, 4), E(R, 5), E(R, 6), \
	E(R, 7), E(R, 8)
static const struct bcsr_entry bcsr_table[8][8] = {
	{ ROW(1) }, { ROW(2) }, { ROW(3) }, { ROW(4) },
	{ ROW(5) }, { ROW(6) }, { ROW(7) }, { ROW(8) },
};
#undef ROW
#undef E

void kern_csr_native(const struct kern_csr_args *a)
{
	kern_spmv_csr(a);
}

void kern_csr_instr(const struct kern_csr_args *a, struct kern_emit *em)
{
	kern_spmv_csr_instr(a, em);
}

void kern_bcsr_native(const struct kern_bcsr_args *a)
{
	bcsr_table[a->r - 1][a->c - 1].native(a);
}

void kern_bcsr_instr(const struct kern_bcsr_args *a, struct kern_emit *em)
{
	bcsr_table[a->r - 1][a->c - 1].instr(a, em);
}

const char *kern_bcsr_symbol(unsigned r, unsigned c)
{
	if (r < 1 || r > 8 || c < 1 || c > 8)
		return "?";
	return bcsr_table[r - 1][c - 1].symbol;
}
