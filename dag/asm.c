/*
 * asm.c - x86-64 AT&T assembly front end: gcc/clang .s files and
 * objdump -d listings into the instruction IR of dag.h.
 *
 * Notes:
 * - AT&T operand order: sources first, destination last.  A memory
 *   operand in the last position of an instruction that writes its
 *   destination is a store (also a load when the destination is read, as
 *   in addq $1,(%rax)); anywhere else it is a load.  lea and nop never
 *   access memory.
 * - Registers are canonicalised: %eax/%ax/%al are one register, and so are
 *   %xmmN/%ymmN/%zmmN.  A 32-bit GPR write zero-extends (a full write); an
 *   8/16-bit write merges, so it also reads the register.  VEX writes to an
 *   xmm/ymm register are full writes.
 * - The flags are one register: arithmetic writes them, jcc/setcc/cmov/adc
 *   read them.
 * - Two-operand forms (SSE addsd %xmm1,%xmm0, addq %rax,%rbx) read their
 *   destination; three-operand VEX forms do not, except FMA (which always
 *   reads all three) and merge-masked AVX-512 destinations.
 * - Zero idioms (xor/sub/vpxor/vxorps/pcmpgt... of a register with itself)
 *   read nothing.  Register-register moves are marked as candidates for
 *   move elimination; whether they are eliminated is the core model's call.
 * - cmp/test/add/sub/and/inc/dec directly followed by a jcc (no label in
 *   between) are marked for macro-fusion; again the core decides.
 * - Prefixes (rep, lock, notrack, data16, cs, ds) are skipped; objdump's
 *   "cs nopw" and "xchg %ax,%ax" padding are no-ops.
 * - Only instructions in the table below are known; anything else is the
 *   error "file:line: unknown instruction 'x'".
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "dag/dag.h"
#include "dag/dag_int.h"

/* ---- the mnemonic table ------------------------------------------------- */

enum {
	S_RMW = 1u << 0,      /* 2-operand form reads its destination */
	S_NOWDST = 1u << 1,   /* last operand is read, not written */
	S_WFL = 1u << 2,      /* writes flags */
	S_RFL = 1u << 3,      /* reads flags */
	S_ZI = 1u << 4,       /* zero idiom when all sources are the dst */
	S_MOVE = 1u << 5,     /* reg-reg form eliminable */
	S_ALIGNED = 1u << 6,  /* aligned memory form */
	S_SUFFIX = 1u << 7,   /* integer op taking a b/w/l/q suffix */
	S_NOMEM = 1u << 8,    /* memory operand not accessed (lea, nop) */
	S_MOVLIKE = 1u << 9,  /* memory source: pure load; memory dst: store */
	S_SS = 1u << 10,      /* scalar single */
	S_SD = 1u << 11,      /* scalar double */
	S_UNARY = 1u << 12,   /* one operand, read and written (inc, neg) */
	S_FUSE = 1u << 13,    /* can macro-fuse with a following jcc */
	S_ALLRD = 1u << 14,   /* every operand read (FMA: the dst too) */
	S_IMPL = 1u << 15,    /* implicit operands, handled by name */
	S_GATHER = 1u << 16,
	S_NOOPS = 1u << 17,   /* no register effects at all */
};

struct op {
	const char *name;
	enum dag_class cls;
	enum dag_fpkind fpk;
	unsigned sem;
	unsigned msz;         /* memory operand bytes; 0: from the operands */
};

#define ALU (S_RMW | S_WFL | S_SUFFIX)
static const struct op ops[] = {
	/* integer */
	{ "add", DAG_INT_ALU, 0, ALU | S_FUSE, 0 },
	{ "sub", DAG_INT_ALU, 0, ALU | S_FUSE | S_ZI, 0 },
	{ "and", DAG_INT_ALU, 0, ALU | S_FUSE, 0 },
	{ "or", DAG_INT_ALU, 0, ALU, 0 },
	{ "xor", DAG_INT_ALU, 0, ALU | S_ZI, 0 },
	{ "adc", DAG_INT_ALU, 0, ALU | S_RFL, 0 },
	{ "sbb", DAG_INT_ALU, 0, ALU | S_RFL, 0 },
	{ "cmp", DAG_INT_ALU, 0, S_NOWDST | S_WFL | S_SUFFIX | S_FUSE, 0 },
	{ "test", DAG_INT_ALU, 0, S_NOWDST | S_WFL | S_SUFFIX | S_FUSE, 0 },
	{ "bt", DAG_INT_ALU, 0, S_NOWDST | S_WFL | S_SUFFIX, 0 },
	{ "inc", DAG_INT_ALU, 0, S_UNARY | S_WFL | S_SUFFIX | S_FUSE, 0 },
	{ "dec", DAG_INT_ALU, 0, S_UNARY | S_WFL | S_SUFFIX | S_FUSE, 0 },
	{ "neg", DAG_INT_ALU, 0, S_UNARY | S_WFL | S_SUFFIX, 0 },
	{ "not", DAG_INT_ALU, 0, S_UNARY | S_SUFFIX, 0 },
	{ "mov", DAG_MOV, 0, S_MOVLIKE | S_MOVE | S_SUFFIX, 0 },
	{ "movabs", DAG_INT_ALU, 0, S_MOVLIKE | S_SUFFIX, 8 },
	{ "movslq", DAG_INT_ALU, 0, S_MOVLIKE, 4 },
	{ "movsbl", DAG_INT_ALU, 0, S_MOVLIKE, 1 },
	{ "movsbq", DAG_INT_ALU, 0, S_MOVLIKE, 1 },
	{ "movsbw", DAG_INT_ALU, 0, S_MOVLIKE, 1 },
	{ "movswl", DAG_INT_ALU, 0, S_MOVLIKE, 2 },
	{ "movswq", DAG_INT_ALU, 0, S_MOVLIKE, 2 },
	{ "movzbl", DAG_INT_ALU, 0, S_MOVLIKE, 1 },
	{ "movzbq", DAG_INT_ALU, 0, S_MOVLIKE, 1 },
	{ "movzbw", DAG_INT_ALU, 0, S_MOVLIKE, 1 },
	{ "movzwl", DAG_INT_ALU, 0, S_MOVLIKE, 2 },
	{ "movzwq", DAG_INT_ALU, 0, S_MOVLIKE, 2 },
	{ "movsx", DAG_INT_ALU, 0, S_MOVLIKE, 0 },
	{ "movsxd", DAG_INT_ALU, 0, S_MOVLIKE, 4 },
	{ "movzx", DAG_INT_ALU, 0, S_MOVLIKE, 0 },
	{ "lea", DAG_LEA, 0, S_NOMEM | S_SUFFIX, 0 },
	{ "shl", DAG_INT_SHIFT, 0, S_RMW | S_WFL | S_SUFFIX, 0 },
	{ "sal", DAG_INT_SHIFT, 0, S_RMW | S_WFL | S_SUFFIX, 0 },
	{ "shr", DAG_INT_SHIFT, 0, S_RMW | S_WFL | S_SUFFIX, 0 },
	{ "sar", DAG_INT_SHIFT, 0, S_RMW | S_WFL | S_SUFFIX, 0 },
	{ "rol", DAG_INT_SHIFT, 0, S_RMW | S_WFL | S_SUFFIX, 0 },
	{ "ror", DAG_INT_SHIFT, 0, S_RMW | S_WFL | S_SUFFIX, 0 },
	{ "shlx", DAG_INT_SHIFT, 0, S_SUFFIX, 0 },
	{ "shrx", DAG_INT_SHIFT, 0, S_SUFFIX, 0 },
	{ "sarx", DAG_INT_SHIFT, 0, S_SUFFIX, 0 },
	{ "imul", DAG_INT_MUL, 0, S_RMW | S_WFL | S_SUFFIX | S_IMPL, 0 },
	{ "mul", DAG_INT_MUL, 0, S_WFL | S_SUFFIX | S_IMPL, 0 },
	{ "div", DAG_INT_DIV, 0, S_WFL | S_SUFFIX | S_IMPL, 0 },
	{ "idiv", DAG_INT_DIV, 0, S_WFL | S_SUFFIX | S_IMPL, 0 },
	{ "cltq", DAG_INT_ALU, 0, S_IMPL, 0 },
	{ "cdqe", DAG_INT_ALU, 0, S_IMPL, 0 },
	{ "cltd", DAG_INT_ALU, 0, S_IMPL, 0 },
	{ "cqto", DAG_INT_ALU, 0, S_IMPL, 0 },
	{ "cqo", DAG_INT_ALU, 0, S_IMPL, 0 },
	{ "cdq", DAG_INT_ALU, 0, S_IMPL, 0 },
	{ "push", DAG_CALL, 0, S_IMPL | S_SUFFIX, 8 },
	{ "pop", DAG_CALL, 0, S_IMPL | S_SUFFIX, 8 },
	{ "leave", DAG_CALL, 0, S_IMPL | S_SUFFIX, 8 },
	{ "call", DAG_CALL, 0, S_IMPL | S_SUFFIX, 8 },
	{ "ret", DAG_CALL, 0, S_IMPL | S_SUFFIX, 8 },
	{ "jmp", DAG_BRANCH, 0, S_IMPL | S_SUFFIX, 0 },
	{ "nop", DAG_NOP, 0, S_NOMEM | S_NOOPS | S_SUFFIX, 0 },
	{ "endbr64", DAG_NOP, 0, S_NOOPS, 0 },
	{ "pause", DAG_NOP, 0, S_NOOPS, 0 },
	{ "xchg", DAG_INT_ALU, 0, S_IMPL | S_SUFFIX, 0 },
	{ "prefetcht0", DAG_PREFETCH, 0, S_NOWDST, 1 },
	{ "prefetcht1", DAG_PREFETCH, 0, S_NOWDST, 1 },
	{ "prefetcht2", DAG_PREFETCH, 0, S_NOWDST, 1 },
	{ "prefetchnta", DAG_PREFETCH, 0, S_NOWDST, 1 },
	{ "prefetchw", DAG_PREFETCH, 0, S_NOWDST, 1 },
	{ "vzeroupper", DAG_VZEROUPPER, 0, S_NOOPS, 0 },
	{ "vzeroall", DAG_VZEROUPPER, 0, S_NOOPS, 0 },
	/* scalar/packed FP moves */
	{ "movss", DAG_VEC_SHUF, 0, S_MOVLIKE | S_RMW | S_SS, 4 },
	{ "movsd", DAG_VEC_SHUF, 0, S_MOVLIKE | S_RMW | S_SD, 8 },
	{ "vmovss", DAG_VEC_SHUF, 0, S_MOVLIKE | S_SS, 4 },
	{ "vmovsd", DAG_VEC_SHUF, 0, S_MOVLIKE | S_SD, 8 },
	{ "movaps", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "movapd", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "movups", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "movupd", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "movdqa", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "movdqu", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "vmovaps", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "vmovapd", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "vmovups", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "vmovupd", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "vmovdqa", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "vmovdqa32", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "vmovdqa64", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE | S_ALIGNED, 0 },
	{ "vmovdqu", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "vmovdqu8", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "vmovdqu32", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "vmovdqu64", DAG_VEC_MOV, 0, S_MOVLIKE | S_MOVE, 0 },
	{ "vmovntps", DAG_VEC_MOV, 0, S_MOVLIKE | S_ALIGNED, 0 },
	{ "vmovntpd", DAG_VEC_MOV, 0, S_MOVLIKE | S_ALIGNED, 0 },
	{ "movd", DAG_VEC_SHUF, 0, S_MOVLIKE, 4 },
	{ "movq", DAG_MOV, 0, S_MOVLIKE | S_MOVE, 8 }, /* also the GPR movq */
	{ "vmovd", DAG_VEC_SHUF, 0, S_MOVLIKE, 4 },
	{ "vmovq", DAG_VEC_SHUF, 0, S_MOVLIKE, 8 },
	{ "vmovhpd", DAG_VEC_SHUF, 0, 0, 8 },
	{ "vmovhps", DAG_VEC_SHUF, 0, 0, 8 },
	{ "vmovlpd", DAG_VEC_SHUF, 0, 0, 8 },
	{ "vmovlps", DAG_VEC_SHUF, 0, 0, 8 },
	{ "movhpd", DAG_VEC_SHUF, 0, S_RMW, 8 },
	{ "movlpd", DAG_VEC_SHUF, 0, S_RMW, 8 },
	{ "vmovddup", DAG_VEC_SHUF, 0, S_MOVLIKE, 0 },
	{ "vmovshdup", DAG_VEC_SHUF, 0, S_MOVLIKE, 0 },
	{ "vmovsldup", DAG_VEC_SHUF, 0, S_MOVLIKE, 0 },
	/* broadcasts: from memory a pure load */
	{ "vbroadcastss", DAG_VEC_PERM, 0, S_MOVLIKE, 4 },
	{ "vbroadcastsd", DAG_VEC_PERM, 0, S_MOVLIKE, 8 },
	{ "vbroadcastf128", DAG_VEC_PERM, 0, S_MOVLIKE, 16 },
	{ "vbroadcasti128", DAG_VEC_PERM, 0, S_MOVLIKE, 16 },
	{ "vpbroadcastb", DAG_VEC_PERM, 0, S_MOVLIKE, 1 },
	{ "vpbroadcastw", DAG_VEC_PERM, 0, S_MOVLIKE, 2 },
	{ "vpbroadcastd", DAG_VEC_PERM, 0, S_MOVLIKE, 4 },
	{ "vpbroadcastq", DAG_VEC_PERM, 0, S_MOVLIKE, 8 },
	/* FP arithmetic */
#define FP(n, c, k) { n "ss", c, k, S_RMW | S_SS, 4 }, { n "sd", c, k, S_RMW | S_SD, 8 }, \
	{ n "ps", c, k, S_RMW, 0 }, { n "pd", c, k, S_RMW, 0 }, \
	{ "v" n "ss", c, k, S_RMW | S_SS, 4 }, { "v" n "sd", c, k, S_RMW | S_SD, 8 }, \
	{ "v" n "ps", c, k, S_RMW, 0 }, { "v" n "pd", c, k, S_RMW, 0 }
	FP("add", DAG_FP_ADD, DAG_FPK_ADD),
	FP("sub", DAG_FP_ADD, DAG_FPK_ADD),
	FP("mul", DAG_FP_MUL, DAG_FPK_MUL),
	FP("div", DAG_FP_DIV, DAG_FPK_NONE),
	FP("min", DAG_FP_ADD, DAG_FPK_NONE),
	FP("max", DAG_FP_ADD, DAG_FPK_NONE),
	FP("sqrt", DAG_FP_DIV, DAG_FPK_NONE),
#undef FP
	{ "vaddsubps", DAG_FP_ADD, DAG_FPK_ADD, 0, 0 },
	{ "vaddsubpd", DAG_FP_ADD, DAG_FPK_ADD, 0, 0 },
	{ "vhaddps", DAG_VEC_SHUF, DAG_FPK_ADD, 0, 0 },
	{ "vhaddpd", DAG_VEC_SHUF, DAG_FPK_ADD, 0, 0 },
	{ "ucomiss", DAG_FP_ADD, 0, S_NOWDST | S_WFL | S_SS, 4 },
	{ "ucomisd", DAG_FP_ADD, 0, S_NOWDST | S_WFL | S_SD, 8 },
	{ "vucomiss", DAG_FP_ADD, 0, S_NOWDST | S_WFL | S_SS, 4 },
	{ "vucomisd", DAG_FP_ADD, 0, S_NOWDST | S_WFL | S_SD, 8 },
	{ "vcomiss", DAG_FP_ADD, 0, S_NOWDST | S_WFL | S_SS, 4 },
	{ "vcomisd", DAG_FP_ADD, 0, S_NOWDST | S_WFL | S_SD, 8 },
	{ "vcmpps", DAG_FP_ADD, 0, 0, 0 },
	{ "vcmppd", DAG_FP_ADD, 0, 0, 0 },
	{ "vcmpss", DAG_FP_ADD, 0, S_SS, 4 },
	{ "vcmpsd", DAG_FP_ADD, 0, S_SD, 8 },
	/* conversions */
	{ "vcvtss2sd", DAG_FP_CVT, 0, S_SS, 4 },
	{ "vcvtsd2ss", DAG_FP_CVT, 0, S_SD, 8 },
	{ "vcvtps2pd", DAG_FP_CVT, 0, 0, 0 },
	{ "vcvtpd2ps", DAG_FP_CVT, 0, 0, 0 },
	{ "vcvtpd2psx", DAG_FP_CVT, 0, 0, 16 },
	{ "vcvtpd2psy", DAG_FP_CVT, 0, 0, 32 },
	{ "vcvtdq2pd", DAG_FP_CVT, 0, 0, 0 },
	{ "vcvtdq2ps", DAG_FP_CVT, 0, 0, 0 },
	{ "vcvttps2dq", DAG_FP_CVT, 0, 0, 0 },
	{ "vcvtsi2sd", DAG_FP_CVT, 0, S_SUFFIX, 0 },
	{ "vcvtsi2ss", DAG_FP_CVT, 0, S_SUFFIX, 0 },
	{ "vcvttsd2si", DAG_FP_CVT, 0, S_SUFFIX, 8 },
	{ "cvtsi2sd", DAG_FP_CVT, 0, S_SUFFIX | S_RMW, 0 },
	{ "cvtss2sd", DAG_FP_CVT, 0, S_RMW, 4 },
	{ "pxor", DAG_VEC_LOGIC, 0, S_RMW | S_ZI, 0 },
	/* bitwise */
	{ "xorps", DAG_VEC_LOGIC, 0, S_RMW | S_ZI, 0 },
	{ "xorpd", DAG_VEC_LOGIC, 0, S_RMW | S_ZI, 0 },
	{ "andps", DAG_VEC_LOGIC, 0, S_RMW, 0 },
	{ "andpd", DAG_VEC_LOGIC, 0, S_RMW, 0 },
	{ "vxorps", DAG_VEC_LOGIC, 0, S_ZI, 0 },
	{ "vxorpd", DAG_VEC_LOGIC, 0, S_ZI, 0 },
	{ "vpxor", DAG_VEC_LOGIC, 0, S_ZI, 0 },
	{ "vpxord", DAG_VEC_LOGIC, 0, S_ZI, 0 },
	{ "vpxorq", DAG_VEC_LOGIC, 0, S_ZI, 0 },
	{ "vandps", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vandpd", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vandnps", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vandnpd", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vorps", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vorpd", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vpand", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vpandn", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vpor", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vblendps", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vblendpd", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vpblendd", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vblendvps", DAG_VEC_LOGIC, 0, 0, 0 },
	{ "vblendvpd", DAG_VEC_LOGIC, 0, 0, 0 },
	/* vector integer */
	{ "vpaddd", DAG_VEC_INT, 0, 0, 0 },
	{ "vpaddq", DAG_VEC_INT, 0, 0, 0 },
	{ "vpsubd", DAG_VEC_INT, 0, S_ZI, 0 },
	{ "vpsubq", DAG_VEC_INT, 0, S_ZI, 0 },
	{ "vpcmpeqd", DAG_VEC_INT, 0, 0, 0 },
	{ "vpcmpeqq", DAG_VEC_INT, 0, 0, 0 },
	{ "vpcmpgtd", DAG_VEC_INT, 0, S_ZI, 0 },
	{ "vpcmpgtq", DAG_VEC_INT, 0, S_ZI, 0 },
	{ "vpsllq", DAG_VEC_INT, 0, 0, 0 },
	{ "vpslld", DAG_VEC_INT, 0, 0, 0 },
	{ "vpsrlq", DAG_VEC_INT, 0, 0, 0 },
	{ "vpsrld", DAG_VEC_INT, 0, 0, 0 },
	{ "vpmovsxdq", DAG_VEC_PERM, 0, S_MOVLIKE, 0 },
	{ "vpmovzxdq", DAG_VEC_PERM, 0, S_MOVLIKE, 0 },
	{ "vpmulld", DAG_FP_MUL, 0, 0, 0 },
	{ "vpmuludq", DAG_FP_MUL, 0, 0, 0 },
	/* shuffles and permutes */
	{ "vshufps", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vshufpd", DAG_VEC_SHUF, 0, 0, 0 },
	{ "shufps", DAG_VEC_SHUF, 0, S_RMW, 0 },
	{ "shufpd", DAG_VEC_SHUF, 0, S_RMW, 0 },
	{ "vunpcklps", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vunpckhps", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vunpcklpd", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vunpckhpd", DAG_VEC_SHUF, 0, 0, 0 },
	{ "unpcklpd", DAG_VEC_SHUF, 0, S_RMW, 0 },
	{ "unpckhpd", DAG_VEC_SHUF, 0, S_RMW, 0 },
	{ "vpunpcklqdq", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vpunpckhqdq", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vpermilps", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vpermilpd", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vpshufd", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vpshufb", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vpalignr", DAG_VEC_SHUF, 0, 0, 0 },
	{ "vinsertps", DAG_VEC_SHUF, 0, 0, 4 },
	{ "vpermpd", DAG_VEC_PERM, 0, 0, 0 },
	{ "vpermps", DAG_VEC_PERM, 0, 0, 0 },
	{ "vpermq", DAG_VEC_PERM, 0, 0, 0 },
	{ "vpermd", DAG_VEC_PERM, 0, 0, 0 },
	{ "vpermt2pd", DAG_VEC_PERM, 0, S_ALLRD, 0 },
	{ "vpermt2ps", DAG_VEC_PERM, 0, S_ALLRD, 0 },
	{ "vpermi2pd", DAG_VEC_PERM, 0, S_ALLRD, 0 },
	{ "vperm2f128", DAG_VEC_PERM, 0, 0, 0 },
	{ "vperm2i128", DAG_VEC_PERM, 0, 0, 0 },
	{ "vinsertf128", DAG_VEC_PERM, 0, 0, 16 },
	{ "vinserti128", DAG_VEC_PERM, 0, 0, 16 },
	{ "vinsertf32x4", DAG_VEC_PERM, 0, 0, 16 },
	{ "vinsertf64x2", DAG_VEC_PERM, 0, 0, 16 },
	{ "vinsertf64x4", DAG_VEC_PERM, 0, 0, 32 },
	{ "vinsertf32x8", DAG_VEC_PERM, 0, 0, 32 },
	{ "vextractf128", DAG_VEC_PERM, 0, 0, 16 },
	{ "vextracti128", DAG_VEC_PERM, 0, 0, 16 },
	{ "vextractf32x4", DAG_VEC_PERM, 0, 0, 16 },
	{ "vextractf64x2", DAG_VEC_PERM, 0, 0, 16 },
	{ "vextractf64x4", DAG_VEC_PERM, 0, 0, 32 },
	{ "vextractf32x8", DAG_VEC_PERM, 0, 0, 32 },
	{ "vshuff64x2", DAG_VEC_PERM, 0, 0, 0 },
	{ "vshuff32x4", DAG_VEC_PERM, 0, 0, 0 },
	{ "vextractps", DAG_VEC_SHUF, 0, 0, 4 },
	/* gathers */
	{ "vgatherdpd", DAG_VEC_GATHER, 0, S_GATHER, 8 },
	{ "vgatherqpd", DAG_VEC_GATHER, 0, S_GATHER, 8 },
	{ "vgatherdps", DAG_VEC_GATHER, 0, S_GATHER, 4 },
	{ "vgatherqps", DAG_VEC_GATHER, 0, S_GATHER, 4 },
	{ "vpgatherdd", DAG_VEC_GATHER, 0, S_GATHER, 4 },
	{ "vpgatherdq", DAG_VEC_GATHER, 0, S_GATHER, 8 },
	{ "vpgatherqq", DAG_VEC_GATHER, 0, S_GATHER, 8 },
	/* AVX-512 mask registers */
	{ "kxnorw", DAG_MASK_OP, 0, 0, 0 },
	{ "kxnorb", DAG_MASK_OP, 0, 0, 0 },
	{ "kxnorq", DAG_MASK_OP, 0, 0, 0 },
	{ "kxorw", DAG_MASK_OP, 0, 0, 0 },
	{ "kmovw", DAG_MASK_OP, 0, S_MOVLIKE, 2 },
	{ "kmovb", DAG_MASK_OP, 0, S_MOVLIKE, 1 },
	{ "kmovd", DAG_MASK_OP, 0, S_MOVLIKE, 4 },
	{ "kmovq", DAG_MASK_OP, 0, S_MOVLIKE, 8 },
	{ "kortestw", DAG_MASK_OP, 0, S_NOWDST | S_WFL, 0 },
};

/* FMA: vf{n}m{add,sub}{132,213,231}{ss,sd,ps,pd} and vfmaddsub. */
static int fma_lookup(const char *m, struct op *o)
{
	const char *p = m;
	size_t n = strlen(m);

	if (strncmp(p, "vf", 2))
		return -1;
	p += 2;
	if (*p == 'n')
		p++;
	if (!strncmp(p, "maddsub", 7) || !strncmp(p, "msubadd", 7))
		p += 7;
	else if (!strncmp(p, "madd", 4) || !strncmp(p, "msub", 4))
		p += 4;
	else
		return -1;
	if (strncmp(p, "132", 3) && strncmp(p, "213", 3) && strncmp(p, "231", 3))
		return -1;
	p += 3;
	if (strlen(p) != 2 || (p - m) + 2 != (long)n)
		return -1;
	memset(o, 0, sizeof(*o));
	o->name = m;
	o->cls = DAG_FP_FMA;
	o->fpk = DAG_FPK_FMA;
	o->sem = S_ALLRD;
	if (!strcmp(p, "ss"))
		o->sem |= S_SS, o->msz = 4;
	else if (!strcmp(p, "sd"))
		o->sem |= S_SD, o->msz = 8;
	else if (strcmp(p, "ps") && strcmp(p, "pd"))
		return -1;
	return 0;
}

static const char *const conds[] = {
	"a", "ae", "b", "be", "c", "e", "g", "ge", "l", "le", "na", "nae",
	"nb", "nbe", "nc", "ne", "ng", "nge", "nl", "nle", "no", "np", "ns",
	"nz", "o", "p", "pe", "po", "s", "z", NULL
};

static int is_cond(const char *s)
{
	for (size_t i = 0; conds[i]; i++)
		if (!strcmp(s, conds[i]))
			return 1;
	return 0;
}

/* Conditional forms: jcc, setcc, cmovcc. */
enum { K_NONE, K_JCC, K_SETCC, K_CMOVCC };

static int op_lookup(const char *m, struct op *o, int *kind, unsigned *isz)
{
	size_t i, n = strlen(m);
	char base[24];

	*kind = K_NONE;
	*isz = 0;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(ops[i].name, m)) {
			*o = ops[i];
			return 0;
		}
	if (!fma_lookup(m, o))
		return 0;
	if (m[0] == 'j' && is_cond(m + 1)) {
		memset(o, 0, sizeof(*o));
		o->name = m;
		o->cls = DAG_BRANCH;
		o->sem = S_RFL | S_IMPL;
		*kind = K_JCC;
		return 0;
	}
	if (!strncmp(m, "set", 3) && is_cond(m + 3)) {
		memset(o, 0, sizeof(*o));
		o->name = m;
		o->cls = DAG_INT_ALU;
		o->sem = S_RFL;
		o->msz = 1;
		*kind = K_SETCC;
		return 0;
	}
	if (!strncmp(m, "cmov", 4) && n > 5) {
		char c[8];
		size_t cl = n - 4;

		if (cl < sizeof(c)) {
			memcpy(c, m + 4, cl + 1);
			if (!is_cond(c) && strchr("wlq", c[cl - 1])) {
				*isz = c[cl - 1] == 'w' ? 2 : c[cl - 1] == 'l' ? 4 : 8;
				c[cl - 1] = 0;
			}
			if (is_cond(c)) {
				memset(o, 0, sizeof(*o));
				o->name = m;
				o->cls = DAG_INT_ALU;
				o->sem = S_RFL | S_RMW;
				*kind = K_CMOVCC;
				return 0;
			}
		}
	}
	/* integer size suffix */
	if (n >= 2 && n < sizeof(base) && strchr("bwlq", m[n - 1])) {
		memcpy(base, m, n - 1);
		base[n - 1] = 0;
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if ((ops[i].sem & S_SUFFIX) && !strcmp(ops[i].name, base)) {
				*o = ops[i];
				switch (m[n - 1]) {
				case 'b': *isz = 1; break;
				case 'w': *isz = 2; break;
				case 'l': *isz = 4; break;
				default: *isz = 8; break;
				}
				return 0;
			}
	}
	return -1;
}

/* ---- registers --------------------------------------------------------- */

static const char *const gpr64[16] = { "rax", "rcx", "rdx", "rbx", "rsp",
	"rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
	"r15" };
static const char *const gpr32[16] = { "eax", "ecx", "edx", "ebx", "esp",
	"ebp", "esi", "edi" };
static const char *const gpr16[16] = { "ax", "cx", "dx", "bx", "sp", "bp",
	"si", "di" };
static const char *const gpr8[16] = { "al", "cl", "dl", "bl", "spl", "bpl",
	"sil", "dil" };

/*
 * Parse a register name (without '%'); returns the canonical register and
 * its width in bits (8..512), or DAG_REG_NONE.  Segment registers give
 * width 0.
 */
static int reg_parse(const char *s, unsigned *bits)
{
	int i;
	char *end;
	long v;

	for (i = 0; i < 16; i++) {
		if (!strcmp(s, gpr64[i])) { *bits = 64; return DAG_REG_GPR + i; }
		if (i < 8) {
			if (!strcmp(s, gpr32[i])) { *bits = 32; return DAG_REG_GPR + i; }
			if (!strcmp(s, gpr16[i])) { *bits = 16; return DAG_REG_GPR + i; }
			if (!strcmp(s, gpr8[i])) { *bits = 8; return DAG_REG_GPR + i; }
		}
	}
	if (!strcmp(s, "ah") || !strcmp(s, "ch") || !strcmp(s, "dh") ||
	    !strcmp(s, "bh")) {
		*bits = 8;
		return DAG_REG_GPR + (s[0] == 'a' ? 0 : s[0] == 'c' ? 1 :
				      s[0] == 'd' ? 2 : 3);
	}
	if (s[0] == 'r' && isdigit((unsigned char)s[1])) {
		v = strtol(s + 1, &end, 10);
		if (v >= 8 && v <= 15) {
			if (!*end) { *bits = 64; return DAG_REG_GPR + (int)v; }
			if (!strcmp(end, "d")) { *bits = 32; return DAG_REG_GPR + (int)v; }
			if (!strcmp(end, "w")) { *bits = 16; return DAG_REG_GPR + (int)v; }
			if (!strcmp(end, "b") || !strcmp(end, "l")) {
				*bits = 8;
				return DAG_REG_GPR + (int)v;
			}
		}
		return -2;
	}
	if (!strcmp(s, "rip")) { *bits = 64; return DAG_REG_RIP; }
	if ((!strncmp(s, "xmm", 3) || !strncmp(s, "ymm", 3) ||
	     !strncmp(s, "zmm", 3)) && isdigit((unsigned char)s[3])) {
		v = strtol(s + 3, &end, 10);
		if (*end || v < 0 || v > 31 || (s[4] && s[3] == '0'))
			return -2;
		*bits = s[0] == 'x' ? 128 : s[0] == 'y' ? 256 : 512;
		return DAG_REG_VEC + (int)v;
	}
	if (s[0] == 'k' && s[1] >= '0' && s[1] <= '7' && !s[2]) {
		*bits = 64;
		return DAG_REG_MASK + (s[1] - '0');
	}
	if (!strcmp(s, "fs") || !strcmp(s, "gs") || !strcmp(s, "cs") ||
	    !strcmp(s, "ds") || !strcmp(s, "es") || !strcmp(s, "ss")) {
		*bits = 0;
		return DAG_REG_NONE;
	}
	return -2;
}

const char *dag_reg_name(int reg)
{
	static const char *const vec[32] = { "xmm0", "xmm1", "xmm2", "xmm3",
		"xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
		"xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17",
		"xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",
		"xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31" };
	static const char *const mask[8] = { "k0", "k1", "k2", "k3", "k4",
		"k5", "k6", "k7" };

	if (reg >= DAG_REG_GPR && reg < DAG_REG_GPR + 16)
		return gpr64[reg];
	if (reg == DAG_REG_RIP)
		return "rip";
	if (reg >= DAG_REG_VEC && reg < DAG_REG_VEC + 32)
		return vec[reg - DAG_REG_VEC];
	if (reg >= DAG_REG_MASK && reg < DAG_REG_MASK + 8)
		return mask[reg - DAG_REG_MASK];
	if (reg == DAG_REG_FLAGS)
		return "flags";
	return "?";
}

/* ---- operands ---------------------------------------------------------- */

enum okind { O_REG, O_IMM, O_MEM, O_TARGET };

struct operand {
	enum okind kind;
	int reg;
	unsigned bits;
	int mask;            /* {%kN} decoration, or DAG_REG_NONE */
	int zeroing;         /* {z} */
	int bcast;           /* {1toN}: N */
	struct dag_mem mem;
	char text[64];
	unsigned long addr;  /* O_TARGET in objdump form */
	int has_addr;
};

#define FAIL(...) ppr_err_set(err, PPR_EFORMAT, name, lineno, 0, __VA_ARGS__)

/* Copy a string, truncating to the destination. */
static void copystr(char *dst, size_t n, const char *src)
{
	size_t l = strlen(src);

	if (l >= n)
		l = n - 1;
	memcpy(dst, src, l);
	dst[l] = 0;
}

static void trim_copy(char *dst, size_t n, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len >= n)
		len = n - 1;
	memcpy(dst, s, len);
	dst[len] = 0;
}

/* Strip {...} decorations off the end of an operand. */
static int decorations(char *s, struct operand *o, const char *name,
		       long lineno, struct ppr_err *err)
{
	char *b;

	while ((b = strrchr(s, '{')) != NULL) {
		char *e = strchr(b, '}');
		char d[24];

		if (!e || e[1])
			return FAIL("bad operand '%s'", s);
		trim_copy(d, sizeof(d), b + 1, (size_t)(e - b - 1));
		if (d[0] == '%') {
			unsigned bits;
			int r = reg_parse(d + 1, &bits);

			if (r < DAG_REG_MASK || r >= DAG_REG_MASK + 8)
				return FAIL("bad register '%s'", d);
			o->mask = r;
		} else if (!strcmp(d, "z")) {
			o->zeroing = 1;
		} else if (!strncmp(d, "1to", 3)) {
			o->bcast = (int)strtol(d + 3, NULL, 10);
		} else if (strstr(d, "sae")) {
			/* rounding control: no effect on the schedule */
		} else {
			return FAIL("bad operand '%s'", s);
		}
		*b = 0;
		/* "%ymm7 {%k1}": drop the blank before the decoration */
		while (b > s && isspace((unsigned char)b[-1]))
			*--b = 0;
	}
	return 0;
}

static int parse_reg_tok(const char *t, int *reg, unsigned *bits,
			 const char *name, long lineno, struct ppr_err *err)
{
	int r;

	if (t[0] != '%')
		return FAIL("bad operand '%s'", t);
	r = reg_parse(t + 1, bits);
	if (r == -2)
		return FAIL("bad register '%s'", t);
	*reg = r;
	return 0;
}

static int parse_operand(const char *src, struct operand *o, int branch,
			 const char *name, long lineno, struct ppr_err *err)
{
	char s[128], *p, *paren;
	int rc;

	memset(o, 0, sizeof(*o));
	o->mask = DAG_REG_NONE;
	o->mem.base = o->mem.index = DAG_REG_NONE;
	o->mem.scale = 1;
	trim_copy(s, sizeof(s), src, strlen(src));
	copystr(o->text, sizeof(o->text), s);
	if (!s[0])
		return FAIL("bad operand ''");
	if ((rc = decorations(s, o, name, lineno, err)))
		return rc;
	p = s;
	if (p[0] == '*')      /* indirect branch/call */
		p++;
	if (p[0] == '%' && !strchr(p, ':') && !strchr(p, '(')) {
		o->kind = O_REG;
		return parse_reg_tok(p, &o->reg, &o->bits, name, lineno, err);
	}
	if (p[0] == '$') {
		o->kind = O_IMM;
		if (!p[1])
			return FAIL("bad operand '%s'", s);
		return 0;
	}
	if (branch && !strchr(p, '(')) {
		/* label, or objdump "401136 <f+0x16>" */
		char *end;
		unsigned long a;

		o->kind = O_TARGET;
		a = strtoul(p, &end, 16);
		if (end != p && (!*end || *end == ' ' || *end == '<')) {
			o->addr = a;
			o->has_addr = 1;
		}
		copystr(o->text, sizeof(o->text), p);
		return 0;
	}
	/* memory: [seg:]disp(base,index,scale) */
	o->kind = O_MEM;
	if (p[0] == '%' && strchr(p, ':'))     /* segment override */
		p = strchr(p, ':') + 1;
	paren = strchr(p, '(');
	if (paren != p) {
		char d[64];
		char *end;

		trim_copy(d, sizeof(d), p, paren ? (size_t)(paren - p) : strlen(p));
		if (!d[0])
			return FAIL("bad operand '%s'", s);
		errno = 0;
		o->mem.disp = strtol(d, &end, 0);
		if (*end || errno) {
			o->mem.disp = 0;
			if (!(isalpha((unsigned char)d[0]) || d[0] == '.' ||
			      d[0] == '_'))
				return FAIL("bad operand '%s'", s);
			copystr(o->mem.sym, sizeof(o->mem.sym), d);
		}
	}
	if (paren) {
		char in[96], *f[3] = { NULL, NULL, NULL };
		char *close = strchr(paren, ')');
		int nf = 0;

		if (!close || close[1])
			return FAIL("bad operand '%s'", s);
		trim_copy(in, sizeof(in), paren + 1, (size_t)(close - paren - 1));
		f[nf++] = in;
		for (char *c = in; *c; c++)
			if (*c == ',') {
				if (nf == 3)
					return FAIL("bad operand '%s'", s);
				*c = 0;
				f[nf++] = c + 1;
			}
		for (int i = 0; i < nf; i++) {
			char t[24];

			trim_copy(t, sizeof(t), f[i], strlen(f[i]));
			f[i] = NULL;
			if (i < 2 && t[0]) {
				int r = -1;
				unsigned bits = 0;

				if ((rc = parse_reg_tok(t, &r, &bits, name, lineno, err)))
					return rc;
				if (i == 0)
					o->mem.base = r;
				else
					o->mem.index = r;
			} else if (i == 2) {
				char *end;
				long sc = strtol(t, &end, 10);

				if (*end || (sc != 1 && sc != 2 && sc != 4 && sc != 8))
					return FAIL("bad operand '%s'", s);
				o->mem.scale = (unsigned)sc;
			}
		}
	}
	return 0;
}

/* Split operands at top-level commas (not inside parentheses or braces). */
static int split_operands(const char *s, char out[][128], int max)
{
	int n = 0, depth = 0;
	size_t k = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s == '(' || *s == '{')
			depth++;
		else if (*s == ')' || *s == '}')
			depth--;
		if (*s == ',' && depth == 0) {
			out[n][k] = 0;
			if (++n >= max)
				return -1;
			k = 0;
			continue;
		}
		if (k + 1 < 128)
			out[n][k++] = *s;
	}
	out[n][k] = 0;
	return n + 1;
}

/* ---- one instruction --------------------------------------------------- */

static void add_src(struct dag_insn *in, int r)
{
	if (r < 0 || r == DAG_REG_RIP)
		return;
	for (int i = 0; i < in->nsrc; i++)
		if (in->src[i] == r)
			return;
	if (in->nsrc < DAG_MAX_SRC)
		in->src[in->nsrc++] = r;
}

static void add_dst(struct dag_insn *in, int r)
{
	if (r < 0 || r == DAG_REG_RIP)
		return;
	for (int i = 0; i < in->ndst; i++)
		if (in->dst[i] == r)
			return;
	if (in->ndst < DAG_MAX_DST)
		in->dst[in->ndst++] = r;
}

static int is_prefix(const char *w)
{
	static const char *const pfx[] = { "rep", "repz", "repe", "repnz",
		"repne", "lock", "notrack", "data16", "cs", "ds", "es", "ss",
		"bnd", "addr32", NULL };

	for (int i = 0; pfx[i]; i++)
		if (!strcmp(w, pfx[i]))
			return 1;
	return 0;
}

int dag_insn_parse(const char *line, struct dag_insn *in, const char *name,
		   long lineno, struct ppr_err *err)
{
	char buf[512], m[32], opnd[6][128];
	const char *p = line;
	struct operand o[6];
	struct op op;
	int nop, kind, rc, i, memi = -1, nreg_ops = 0;
	unsigned isz;
	size_t k;

	memset(in, 0, sizeof(*in));
	in->mem.base = in->mem.index = DAG_REG_NONE;
	in->line = lineno;
	trim_copy(buf, sizeof(buf), p, strlen(p));
	copystr(in->text, sizeof(in->text), buf);
	/* normalise tabs in the kept text */
	for (char *c = in->text; *c; c++)
		if (*c == '\t')
			*c = ' ';
	p = buf;
	for (;;) {
		k = 0;
		while (*p && !isspace((unsigned char)*p) && k + 1 < sizeof(m))
			m[k++] = (char)tolower((unsigned char)*p++);
		m[k] = 0;
		while (isspace((unsigned char)*p))
			p++;
		if (!is_prefix(m) || !*p)
			break;
	}
	if (!m[0])
		return FAIL("no instruction");
	if (op_lookup(m, &op, &kind, &isz))
		return ppr_err_set(err, PPR_EINVAL, name, lineno, 0,
				   "unknown instruction '%s'", m);
	copystr(in->mnem, sizeof(in->mnem), m);
	nop = split_operands(p, opnd, 6);
	if (nop < 0)
		return FAIL("too many operands in '%s'", buf);
	for (i = 0; i < nop; i++) {
		rc = parse_operand(opnd[i], &o[i], op.cls == DAG_BRANCH ||
				   !strcmp(op.name, "call"), name, lineno, err);
		if (rc)
			return rc;
		if (o[i].kind == O_MEM) {
			if (memi >= 0)
				return FAIL("two memory operands in '%s'", buf);
			memi = i;
		}
		if (o[i].kind == O_REG || o[i].kind == O_MEM)
			nreg_ops++;
		if (o[i].kind == O_REG && o[i].bits > 64 &&
		    o[i].bits > in->vbits)
			in->vbits = o[i].bits;
		if (o[i].kind == O_REG && o[i].reg >= DAG_REG_MASK &&
		    o[i].reg < DAG_REG_MASK + 8 && op.cls != DAG_MASK_OP &&
		    op.cls != DAG_VEC_GATHER && !(op.sem & S_MOVLIKE))
			return FAIL("bad operand '%s'", o[i].text);
	}
	in->cls = op.cls;
	in->fpk = op.fpk;
	in->scalar = (op.sem & (S_SS | S_SD)) ? 1 : 0;
	if (op.sem & S_FUSE)
		in->flags |= DAG_FI_FUSIBLE;
	if (op.sem & S_NOOPS)
		return 0;
	if (op.cls == DAG_NOP)
		return 0;

	/* memory operand */
	if (memi >= 0) {
		in->has_mem = 1;
		in->mem = o[memi].mem;
		if (o[memi].bcast)
			in->flags |= DAG_F_BCAST;
		if (op.sem & S_NOMEM)
			in->flags |= DAG_F_NOACCESS;
		if (op.sem & S_ALIGNED)
			in->flags |= DAG_F_ALIGNED;
		/* size */
		if (op.sem & S_NOMEM)
			in->mem_size = 0;
		else if (o[memi].bcast)
			in->mem_size = strstr(m, "pd") || strstr(m, "q") ? 8 : 4;
		else if (op.msz)
			in->mem_size = op.msz;
		else if (isz)
			in->mem_size = isz;
		else if (in->vbits)
			in->mem_size = in->vbits / 8;
		else {
			unsigned b = 0;

			for (i = 0; i < nop; i++)
				if (o[i].kind == O_REG && o[i].bits > b)
					b = o[i].bits;
			in->mem_size = b ? b / 8 : 8;
		}
	}

	/* implicit forms */
	if (op.sem & S_IMPL) {
		const char *b = op.name;

		if (kind == K_JCC || !strcmp(b, "jmp")) {
			in->flags |= DAG_F_BRANCH;
			if (kind == K_JCC) {
				in->flags |= DAG_F_COND;
				add_src(in, DAG_REG_FLAGS);
			}
			if (nop != 1)
				return FAIL("bad operand count in '%s'", buf);
			if (o[0].kind == O_TARGET) {
				snprintf(in->target, sizeof(in->target), "%s",
					 o[0].text);
				if (o[0].has_addr) {
					in->target_addr = o[0].addr;
					in->has_target_addr = 1;
				}
			} else if (o[0].kind == O_REG) {
				add_src(in, o[0].reg);
			}
			return 0;
		}
		if (!strcmp(b, "cltq") || !strcmp(b, "cdqe")) {
			add_src(in, DAG_REG_GPR + 0);
			add_dst(in, DAG_REG_GPR + 0);
			return 0;
		}
		if (!strcmp(b, "cltd") || !strcmp(b, "cqto") || !strcmp(b, "cqo") ||
		    !strcmp(b, "cdq")) {
			add_src(in, DAG_REG_GPR + 0);
			add_dst(in, DAG_REG_GPR + 2);
			return 0;
		}
		if (!strcmp(b, "push") || !strcmp(b, "pop") || !strcmp(b, "call") ||
		    !strcmp(b, "ret") || !strcmp(b, "leave")) {
			/* stack engine: rsp updates are free; push stores, pop
			   loads */
			in->has_mem = 1;
			in->mem.base = DAG_REG_GPR + 4;
			in->mem_size = 8;
			if (!strcmp(b, "push") || !strcmp(b, "call")) {
				in->flags |= DAG_F_STORE;
				if (nop == 1 && o[0].kind == O_REG && !strcmp(b, "push"))
					add_src(in, o[0].reg);
			} else {
				in->flags |= DAG_F_LOAD;
				if (nop == 1 && o[0].kind == O_REG)
					add_dst(in, o[0].reg);
				if (!strcmp(b, "leave"))
					add_dst(in, DAG_REG_GPR + 5);
			}
			if (!strcmp(b, "call") || !strcmp(b, "ret"))
				in->flags |= DAG_F_BRANCH;
			return 0;
		}
		if (!strcmp(b, "xchg")) {
			if (nop != 2)
				return FAIL("bad operand count in '%s'", buf);
			if (o[0].kind == O_REG && o[1].kind == O_REG &&
			    o[0].reg == o[1].reg) {
				in->cls = DAG_NOP;   /* xchg %ax,%ax padding */
				return 0;
			}
			for (i = 0; i < 2; i++)
				if (o[i].kind == O_REG) {
					add_src(in, o[i].reg);
					add_dst(in, o[i].reg);
				}
			if (memi >= 0)
				in->flags |= DAG_F_LOAD | DAG_F_STORE;
			return 0;
		}
		if ((!strcmp(b, "mul") || !strcmp(b, "imul") || !strcmp(b, "div") ||
		     !strcmp(b, "idiv")) && nop == 1) {
			add_src(in, DAG_REG_GPR + 0);
			if (b[0] != 'm' && strcmp(b, "imul"))
				add_src(in, DAG_REG_GPR + 2);
			if (o[0].kind == O_REG)
				add_src(in, o[0].reg);
			else if (memi == 0)
				in->flags |= DAG_F_LOAD;
			add_dst(in, DAG_REG_GPR + 0);
			add_dst(in, DAG_REG_GPR + 2);
			add_dst(in, DAG_REG_FLAGS);
			return 0;
		}
		/* imul with 2 or 3 operands: the generic path */
	}

	if (op.sem & S_GATHER) {
		/* AVX2: vgather mask, mem, dst; AVX-512: vgather mem, dst{k} */
		if (memi < 0 || o[memi].mem.index < DAG_REG_VEC)
			return FAIL("bad operand '%s'", buf);
		in->flags |= DAG_F_LOAD;
		for (i = 0; i < nop; i++)
			if (o[i].kind == O_REG) {
				add_src(in, o[i].reg);   /* merges into dst */
				add_dst(in, o[i].reg);   /* mask is cleared too */
				if (o[i].mask >= 0) {
					add_src(in, o[i].mask);
					add_dst(in, o[i].mask);
				}
			}
		/* elements: the smaller of data and index vectors */
		{
			unsigned vb = in->vbits ? in->vbits : 128;
			unsigned eb = in->mem_size * 8;

			in->nelem = vb / eb;
			if (strstr(m, "qps") || strstr(m, "qd"))
				in->nelem = vb / 64;
			if (!in->nelem)
				in->nelem = 1;
		}
		return 0;
	}

	if (nop == 0) {
		if (op.cls == DAG_BRANCH)
			return 0;
		return FAIL("missing operands in '%s'", buf);
	}
	/* binary operations need a source and a destination */
	if (nop < 2 && (op.sem & S_RMW) && op.cls != DAG_INT_SHIFT &&
	    !(op.sem & S_UNARY) && strcmp(op.name, "imul"))
		return FAIL("bad operand count in '%s'", buf);
	if (nop < 2 && (op.sem & (S_MOVLIKE | S_ALLRD | S_NOWDST)) &&
	    op.cls != DAG_PREFETCH && op.cls != DAG_MASK_OP)
		return FAIL("bad operand count in '%s'", buf);

	/* generic: sources ..., destination last */
	{
		struct operand *d = &o[nop - 1];
		int rmw = 0;

		if (op.sem & S_UNARY)
			rmw = 1;
		else if ((op.sem & S_RMW) && nreg_ops <= 2 && nop >= 2 &&
			 !(nop == 3 && !strcmp(op.name, "imul")))
			rmw = 1;   /* imul $imm, src, dst does not read dst */
		/* movss/movsd from memory write the whole register (upper
		 * lanes zeroed): only the register-to-register form merges */
		if ((op.sem & S_MOVLIKE) && memi >= 0 && memi < nop - 1 &&
		    nop == 2 && !(op.sem & (S_UNARY | S_ALLRD)))
			rmw = 0;
		if (op.sem & S_ALLRD)
			rmw = 1;
		if (d->mask >= 0) {
			add_src(in, d->mask);
			if (!d->zeroing)
				rmw = 1;
		}
		if (op.sem & S_RFL)
			add_src(in, DAG_REG_FLAGS);
		if (op.sem & S_WFL)
			add_dst(in, DAG_REG_FLAGS);
		/* sources */
		for (i = 0; i < nop - 1; i++) {
			if (o[i].kind == O_REG)
				add_src(in, o[i].reg);
			else if (o[i].kind == O_MEM && !(op.sem & S_NOMEM))
				in->flags |= DAG_F_LOAD;
			else if (o[i].kind == O_TARGET)
				return FAIL("bad operand '%s'", o[i].text);
		}
		/* destination */
		if (d->kind == O_IMM) {
			if (!(op.sem & S_NOWDST) || op.cls == DAG_PREFETCH)
				return FAIL("bad operand '%s'", d->text);
		} else if (d->kind == O_TARGET) {
			return FAIL("bad operand '%s'", d->text);
		} else if (d->kind == O_REG) {
			if (op.sem & S_NOWDST) {
				add_src(in, d->reg);
			} else {
				if (rmw)
					add_src(in, d->reg);
				if (dag_reg_is_gpr(d->reg) && d->bits < 32) {
					add_src(in, d->reg);  /* partial write merges */
					in->flags |= DAG_FI_PARTIAL;
				}
				add_dst(in, d->reg);
			}
		} else if (d->kind == O_MEM && !(op.sem & S_NOMEM)) {
			if ((op.sem & S_NOWDST) || op.cls == DAG_PREFETCH)
				in->flags |= DAG_F_LOAD;
			else {
				in->flags |= DAG_F_STORE;
				if (rmw && !(op.sem & S_MOVLIKE))
					in->flags |= DAG_F_LOAD;
			}
		}
		if (op.cls == DAG_LEA) {
			add_src(in, o[memi >= 0 ? memi : 0].mem.base);
			add_src(in, o[memi >= 0 ? memi : 0].mem.index);
			if (memi >= 0) {
				int terms = (o[memi].mem.base >= 0 &&
					     o[memi].mem.base != DAG_REG_RIP) +
					    (o[memi].mem.index >= 0) +
					    (o[memi].mem.disp != 0 ||
					     o[memi].mem.sym[0]);

				if (terms >= 3)
					in->cls = DAG_LEA3;
			}
		}
		/* pure loads and stores of move-like instructions */
		if (op.sem & S_MOVLIKE) {
			if (memi >= 0 && memi < nop - 1 && nop == 2)
				in->cls = DAG_LOAD;
			else if (memi == nop - 1)
				in->cls = DAG_STORE;
			else if (nop == 2 && o[0].kind == O_IMM)
				in->cls = DAG_INT_ALU;
			else if ((op.sem & S_MOVE) && nop == 2 &&
				 o[0].kind == O_REG && d->kind == O_REG) {
				int g0 = dag_reg_is_gpr(o[0].reg), g1 = dag_reg_is_gpr(d->reg);

				if (g0 && g1 && o[0].bits >= 32 && d->bits >= 32) {
					in->cls = DAG_MOV;
					in->flags |= DAG_F_MOVE;
				} else if (!g0 && !g1 && dag_reg_is_vec(o[0].reg) &&
					   dag_reg_is_vec(d->reg) && d->mask < 0) {
					in->cls = DAG_VEC_MOV;
					in->flags |= DAG_F_MOVE;
				} else {
					in->cls = DAG_VEC_SHUF; /* gpr<->xmm */
				}
			} else if (op.cls == DAG_MOV) {
				in->cls = DAG_INT_ALU;
			}
		}
		/* the pure load of a merge-masked move still reads the dst */
		/* zero idioms: every register source is the destination */
		if ((op.sem & S_ZI) && memi < 0 && d->kind == O_REG &&
		    nop >= 2) {
			int same = 1;

			for (i = 0; i < nop - 1; i++)
				if (o[i].kind != O_REG || o[i].reg != d->reg)
					same = 0;
			if (same && d->mask < 0) {
				in->flags |= DAG_F_ZERO_IDIOM;
				in->nsrc = 0;
			}
		}
		/* flag-only writers keep just the flags as destination */
	}
	return 0;
}

/* ---- files -------------------------------------------------------------- */

struct dag_prog *dag_prog_new(void)
{
	return xcalloc(1, sizeof(struct dag_prog));
}

void dag_prog_free(struct dag_prog *p)
{
	if (!p)
		return;
	free(p->insn);
	free(p->label);
	free(p);
}

static void add_label(struct dag_prog *p, const char *s, size_t len)
{
	if (p->nlabel == p->labcap) {
		p->labcap = p->labcap ? 2 * p->labcap : 32;
		p->label = xrealloc(p->label, p->labcap * sizeof(*p->label));
	}
	trim_copy(p->label[p->nlabel].name, sizeof(p->label[0].name), s, len);
	p->label[p->nlabel].at = p->n;
	p->nlabel++;
}

static int label_at(const struct dag_prog *p, size_t at)
{
	for (size_t i = 0; i < p->nlabel; i++)
		if (p->label[i].at == at)
			return 1;
	return 0;
}

static void add_insn(struct dag_prog *p, const struct dag_insn *in)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->insn = xrealloc(p->insn, p->cap * sizeof(*p->insn));
	}
	p->insn[p->n] = *in;
	/* macro-fusion candidate: fusible insn right before a jcc */
	if ((in->flags & DAG_F_COND) && p->n > 0 &&
	    (p->insn[p->n - 1].flags & DAG_FI_FUSIBLE) &&
	    !label_at(p, p->n) &&
	    !(p->insn[p->n - 1].has_mem && p->insn[p->n - 1].mem_size &&
	      (p->insn[p->n - 1].flags & DAG_F_STORE)))
		p->insn[p->n].flags |= DAG_F_FUSED;
	p->n++;
}

/* Is this an objdump instruction line "  1a:\t48 63 ..\tmov ..."? */
static int objdump_line(const char *s, unsigned long *addr, const char **ins)
{
	const char *p = s, *tab;
	char *end;

	while (*p == ' ')
		p++;
	if (!isxdigit((unsigned char)*p))
		return 0;
	*addr = strtoul(p, &end, 16);
	if (end[0] != ':' || end[1] != '\t')
		return 0;
	p = end + 2;
	/* hex bytes column */
	while (isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
	       (p[2] == ' ' || p[2] == '\t' || p[2] == 0))
		p += p[2] ? 3 : 2;
	while (*p == ' ')
		p++;
	tab = p;
	if (*tab == '\t')
		tab++;
	*ins = tab;
	return 1;
}

static int parse_line(struct dag_prog *p, char *s, const char *name,
		      long lineno, struct ppr_err *err)
{
	char *c, *q;
	unsigned long addr;
	const char *ins;
	struct dag_insn in;
	int rc;

	/* objdump: "0000000000000000 <f>:" and instruction lines */
	if (objdump_line(s, &addr, &ins)) {
		p->objdump = 1;
		while (isspace((unsigned char)*ins))
			ins++;
		if (!*ins || !strncmp(ins, "(bad)", 5))
			return *ins ? FAIL("undecodable bytes") : 0; /* continuation bytes */
		q = strchr(ins, '#');
		if (q)
			*q = 0;
		q = strchr(ins, '<');     /* keep "jg 20 <f+0x20>" whole */
		(void)q;
		rc = dag_insn_parse(ins, &in, name, lineno, err);
		if (rc)
			return rc;
		in.addr = addr;
		add_insn(p, &in);
		return 0;
	}
	/* comments: '#' (gcc/clang), '//' and ';' statement separators */
	c = strchr(s, '#');
	if (c)
		*c = 0;
	c = strstr(s, "//");
	if (c)
		*c = 0;
	q = s;
	while (isspace((unsigned char)*q))
		q++;
	if (!*q)
		return 0;
	if (isxdigit((unsigned char)*q) && strstr(q, ">:")) {
		/* objdump symbol line: 0000000000000000 <spmv_csr>: */
		char *lt = strchr(q, '<'), *gt = strstr(q, ">:");

		if (lt && gt > lt)
			add_label(p, lt + 1, (size_t)(gt - lt - 1));
		return 0;
	}
	if (!strncmp(q, "Disassembly of section", 22) || strstr(q, "file format"))
		return 0;
	/* labels (possibly several, possibly followed by an instruction) */
	for (;;) {
		char *colon = q;

		while (*colon && (isalnum((unsigned char)*colon) || *colon == '_' ||
				  *colon == '.' || *colon == '$'))
			colon++;
		if (colon > q && *colon == ':') {
			add_label(p, q, (size_t)(colon - q));
			q = colon + 1;
			while (isspace((unsigned char)*q))
				q++;
			if (!*q)
				return 0;
			continue;
		}
		break;
	}
	if (q[0] == '.')
		return 0;          /* directive */
	rc = dag_insn_parse(q, &in, name, lineno, err);
	if (rc)
		return rc;
	add_insn(p, &in);
	return 0;
}

int dag_asm_parse(struct dag_prog *p, const char *text, size_t len,
		  const char *name, struct ppr_err *err)
{
	const char *s = text, *end = text + len;
	long lineno = 0;
	size_t before = p->n;

	if (!name)
		name = "<input>";
	if (!p->file[0])
		copystr(p->file, sizeof(p->file), name);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		char line[1024];
		int rc;

		lineno++;
		if (l >= sizeof(line))
			return ppr_err_set(err, PPR_EFORMAT, name, lineno, 0,
					   "line too long");
		memcpy(line, s, l);
		line[l] = 0;
		if (l && line[l - 1] == '\r')
			line[l - 1] = 0;
		rc = parse_line(p, line, name, lineno, err);
		if (rc)
			return rc;
		s += l + 1;
	}
	if (p->n == before)
		return ppr_err_set(err, PPR_EFORMAT, name, 0, 0,
				   "no instructions");
	return 0;
}

int dag_asm_parse_file(struct dag_prog *p, const char *path,
		       struct ppr_err *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;
	int rc;

	if (!f)
		return ppr_err_set(err, PPR_ENOENT, path, 0, 0,
				   "cannot open '%s': %s", path, strerror(errno));
	for (;;) {
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return ppr_err_set(err, PPR_EIO, path, 0, 0, "cannot read '%s'",
				   path);
	}
	fclose(f);
	rc = dag_asm_parse(p, buf, n, path, err);
	free(buf);
	return rc;
}

/* ---- loops -------------------------------------------------------------- */

double dag_insn_flops(const struct dag_insn *in)
{
	size_t ml = strlen(in->mnem);
	unsigned eb;
	double lanes;

	if (in->fpk == DAG_FPK_NONE)
		return 0;
	eb = (ml >= 2 && in->mnem[ml - 1] == 'd') ? 64 : 32;
	lanes = in->scalar ? 1.0 : (double)(in->vbits ? in->vbits : 128) / eb;
	return lanes * (in->fpk == DAG_FPK_FMA ? 2.0 : 1.0);
}

static double range_flops(const struct dag_prog *p, size_t b, size_t e)
{
	double f = 0;

	for (size_t i = b; i < e; i++)
		f += dag_insn_flops(&p->insn[i]);
	return f;
}

/* Index of the instruction a branch goes to, or (size_t)-1. */
size_t dag_branch_dest(const struct dag_prog *p, const struct dag_insn *b)
{
	size_t i;

	if (b->has_target_addr && p->objdump) {
		for (i = 0; i < p->n; i++)
			if (p->insn[i].addr == b->target_addr)
				return i;
		return (size_t)-1;
	}
	for (i = 0; i < p->nlabel; i++)
		if (!strcmp(p->label[i].name, b->target))
			return p->label[i].at;
	return (size_t)-1;
}

static void loop_name(const struct dag_prog *p, size_t at, char *out,
		      size_t n)
{
	for (size_t i = 0; i < p->nlabel; i++)
		if (p->label[i].at == at) {
			snprintf(out, n, "%s", p->label[i].name);
			return;
		}
	if (p->objdump)
		snprintf(out, n, "%lx", p->insn[at].addr);
	else
		snprintf(out, n, "line %ld", p->insn[at].line);
}

int dag_loop_find(const struct dag_prog *p, const char *label,
		  struct dag_loop *loop, struct ppr_err *err)
{
	size_t i, best_b = 0, best_e = 0, nloops = 0;
	size_t lb[256], le[256];
	int found = 0;

	memset(loop, 0, sizeof(*loop));
	if (!p->n)
		return ppr_err_set(err, PPR_EFORMAT, p->file, 0, 0,
				   "no instructions");
	for (i = 0; i < p->n; i++) {
		const struct dag_insn *b = &p->insn[i];
		size_t d;

		if (!(b->flags & DAG_F_BRANCH) || b->cls != DAG_BRANCH)
			continue;
		d = dag_branch_dest(p, b);
		if (d == (size_t)-1 || d > i)
			continue;
		if (d == i)
			return ppr_err_set(err, PPR_EFORMAT, p->file, b->line, 0,
					   "empty loop: the branch to '%s' is its "
					   "only instruction", b->target);
		if (nloops < 256) {
			lb[nloops] = d;
			le[nloops] = i + 1;
			nloops++;
		}
	}
	if (label) {
		for (i = 0; i < nloops; i++) {
			char nm[64];

			loop_name(p, lb[i], nm, sizeof(nm));
			if (!strcmp(nm, label)) {
				best_b = lb[i];
				best_e = le[i];
				found = 1;
			}
		}
		if (!found)
			return ppr_err_set(err, PPR_ENOENT, p->file, 0, 0,
					   "no loop at label '%s'", label);
	} else if (nloops) {
		/* innermost loops contain no other loop; take the one doing
		   the most floating-point work per iteration (the vectorised
		   main loop, not a scalar remainder), then the largest */
		double best_f = -1;

		for (i = 0; i < nloops; i++) {
			int inner = 1;
			double fl;

			for (size_t j = 0; j < nloops; j++)
				if (j != i && lb[j] >= lb[i] && le[j] <= le[i] &&
				    (lb[j] != lb[i] || le[j] != le[i]))
					inner = 0;
			if (!inner)
				continue;
			fl = range_flops(p, lb[i], le[i]);
			if (!found || fl > best_f ||
			    (fl == best_f && le[i] - lb[i] > best_e - best_b)) {
				best_b = lb[i];
				best_e = le[i];
				best_f = fl;
				found = 1;
			}
		}
	}
	if (!found) {
		loop->begin = 0;
		loop->end = p->n;
		loop->whole_file = 1;
		snprintf(loop->label, sizeof(loop->label), "(whole file)");
	} else {
		loop->begin = best_b;
		loop->end = best_e;
		loop_name(p, best_b, loop->label, sizeof(loop->label));
		/* the smallest loop strictly enclosing it */
		for (i = 0; i < nloops; i++) {
			if (lb[i] <= best_b && le[i] >= best_e &&
			    (lb[i] != best_b || le[i] != best_e) &&
			    (!loop->has_outer ||
			     le[i] - lb[i] < loop->outer_end - loop->outer_begin)) {
				loop->has_outer = 1;
				loop->outer_begin = lb[i];
				loop->outer_end = le[i];
			}
		}
		if (loop->has_outer)
			loop_name(p, loop->outer_begin, loop->outer_label,
				  sizeof(loop->outer_label));
	}
	{
		size_t real = 0;

		for (i = loop->begin; i < loop->end; i++)
			if (p->insn[i].cls != DAG_NOP &&
			    !(p->insn[i].flags & DAG_F_BRANCH))
				real++;
		if (!real)
			return ppr_err_set(err, PPR_EFORMAT, p->file,
					   p->insn[loop->begin].line, 0,
					   "empty loop '%s': no instructions "
					   "besides the branch", loop->label);
	}
	return 0;
}
