/*
 * dag_int.h - declarations shared inside dag/ only.
 */
#ifndef PPR_DAG_INT_H
#define PPR_DAG_INT_H

#include "dag/dag.h"

/* insn flag (internal): may macro-fuse with a following jcc. */
#define DAG_FI_FUSIBLE (1u << 16)
/* insn flag (internal): destination is a partial (8/16-bit) GPR write. */
#define DAG_FI_PARTIAL (1u << 17)

/* Register class of a canonical register. */
static inline int dag_reg_is_gpr(int r) { return r >= DAG_REG_GPR && r < DAG_REG_GPR + 16; }
static inline int dag_reg_is_vec(int r) { return r >= DAG_REG_VEC && r < DAG_REG_VEC + 32; }

/* Whether class c is arithmetic counted as compute in PPR eq. (1). */
static inline int dag_class_is_fp_compute(enum dag_class c)
{
	return c == DAG_FP_ADD || c == DAG_FP_MUL || c == DAG_FP_FMA ||
	       c == DAG_FP_DIV || c == DAG_FP_DIVD;
}

/* Index of the instruction a branch goes to, or (size_t)-1. */
size_t dag_branch_dest(const struct dag_prog *p, const struct dag_insn *b);

/* Floating-point operations of one instruction (lanes; an FMA counts 2). */
double dag_insn_flops(const struct dag_insn *in);

#endif
