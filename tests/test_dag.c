/*
 * test_dag.c - the instruction-DAG scheduler: the assembly front end over
 * the kernels' compiled loops, malformed input with exact errors, the
 * IR of single instructions, analytic scheduling cases worked out by hand
 * on both built-in cores, and the paper's hand counts.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "dag/dag.h"
#include "t.h"

#define ASM_DIR "tests/data/asm"

/* ---- 1. every collected kernel loop parses, and has a loop --------------- */

static void test_corpus(void)
{
	DIR *d = opendir(ASM_DIR);
	struct dirent *e;
	int files = 0;

	if (!d) {
		T_SKIP(ASM_DIR " not found (run from the project root)");
		return;
	}
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char path[512];
		struct dag_prog *p;
		struct dag_loop l;
		struct ppr_err err = { 0 };
		char buf[1400];
		int rc;

		if (!(n > 2 && !strcmp(e->d_name + n - 2, ".s")) &&
		    !(n > 8 && !strcmp(e->d_name + n - 8, ".objdump")))
			continue;
		snprintf(path, sizeof(path), ASM_DIR "/%s", e->d_name);
		p = dag_prog_new();
		rc = dag_asm_parse_file(p, path, &err);
		if (rc)
			fprintf(stderr, "  %s\n", ppr_err_format(&err, buf, sizeof(buf)));
		T_CHECK(rc == 0);
		if (!rc) {
			rc = dag_loop_find(p, NULL, &l, &err);
			T_CHECK(rc == 0);
			T_CHECK(!l.whole_file);      /* every kernel has a loop */
			T_CHECK(l.end > l.begin + 1);
		}
		/* the native (AVX-512) loops schedule on zen5, the haswell
		   ones on haswell, with a sane result */
		if (!rc) {
			const struct dag_core *c = dag_core_builtin(
				strstr(e->d_name, "haswell") ? "haswell" : "zen5");
			struct dag_result r;

			rc = dag_sched_run(p, &l, c, NULL, &r, &err);
			if (rc)
				fprintf(stderr, "  %s\n", ppr_err_format(&err, buf, sizeof(buf)));
			T_CHECK(rc == 0);
			T_CHECK(r.cycles_per_iter > 0.5 && r.cycles_per_iter < 100);
			T_CHECK(r.cycles_per_iter + 1e-9 >= r.port_bound * 0.99);
			T_CHECK(r.cycles_per_iter + 1e-9 >= r.frontend_bound * 0.99);
		}
		dag_prog_free(p);
		files++;
	}
	closedir(d);
	T_CHECK(files >= 28);
}

/* ---- 2. malformed input: exact one-line errors ----------------------------- */

static const struct {
	int line;
	const char *text;
	const char *err;   /* formatted ppr_err */
} bad_rows[] = {
	{ __LINE__, ".L1:\n\tfoo %eax, %ebx\n\tjne .L1\n",
	  "t.s:2: unknown instruction 'foo'" },
	{ __LINE__, "\tvaddpz %ymm0, %ymm1, %ymm2\n",
	  "t.s:1: unknown instruction 'vaddpz'" },
	{ __LINE__, "\tmovq %rxx, %rax\n", "t.s:1: bad register '%rxx'" },
	{ __LINE__, "\tvaddps %ymm32, %ymm1, %ymm2\n",
	  "t.s:1: bad register '%ymm32'" },
	{ __LINE__, "\tmovq (%rax,%rbx,3), %rcx\n",
	  "t.s:1: bad operand '(%rax,%rbx,3)'" },
	{ __LINE__, "\tmovq (%rax, %rcx\n", "t.s:1: bad operand '(%rax, %rcx'" },
	{ __LINE__, "\tmovq 8(%rax) junk, %rcx\n",
	  "t.s:1: bad operand '8(%rax) junk'" },
	{ __LINE__, "\taddq %rax\n", "t.s:1: bad operand count in 'addq %rax'" },
	{ __LINE__, "\tmovq %rax, $1\n", "t.s:1: bad operand '$1'" },
	{ __LINE__, "\tvmovups %ymm0{%k9}, (%rax)\n",
	  "t.s:1: bad register '%k9'" },
	{ __LINE__, "\t.text\n# only comments\n\t.p2align 4\n",
	  "t.s: no instructions" },
	{ __LINE__, "", "t.s: no instructions" },
};

static const struct {
	int line;
	const char *text;
	const char *err;
} bad_loops[] = {
	{ __LINE__, "\tnop\n.L1:\n\tjmp .L1\n",
	  "t.s:3: empty loop: the branch to '.L1' is its only instruction" },
	{ __LINE__, ".L2:\n\tnop\n\tnopw 0(%rax,%rax,1)\n\tjne .L2\n",
	  "t.s:2: empty loop '.L2': no instructions besides the branch" },
};

static void test_errors(void)
{
	char buf[1400];

	for (size_t i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		struct dag_prog *p = dag_prog_new();
		struct ppr_err err = { 0 };
		int rc = dag_asm_parse(p, bad_rows[i].text,
				       strlen(bad_rows[i].text), "t.s", &err);

		T_CHECK_AT(rc < 0, bad_rows[i].line);
		T_STR_AT(ppr_err_format(&err, buf, sizeof(buf)), bad_rows[i].err,
			 bad_rows[i].line);
		dag_prog_free(p);
	}
	for (size_t i = 0; i < sizeof(bad_loops) / sizeof(bad_loops[0]); i++) {
		struct dag_prog *p = dag_prog_new();
		struct ppr_err err = { 0 };
		struct dag_loop l;
		int rc = dag_asm_parse(p, bad_loops[i].text,
				       strlen(bad_loops[i].text), "t.s", &err);

		T_CHECK_AT(rc == 0, bad_loops[i].line);
		rc = dag_loop_find(p, NULL, &l, &err);
		T_CHECK_AT(rc < 0, bad_loops[i].line);
		T_STR_AT(ppr_err_format(&err, buf, sizeof(buf)), bad_loops[i].err,
			 bad_loops[i].line);
		dag_prog_free(p);
	}
	/* an AVX-512 mask instruction on Haswell is an error, not free */
	{
		static const char txt[] = ".L1:\n\tkxnorw %k0, %k0, %k1\n\tdec %ecx\n\tjne .L1\n";
		struct dag_prog *p = dag_prog_new();
		struct ppr_err err = { 0 };
		struct dag_loop l;
		struct dag_result r;

		T_CHECK(dag_asm_parse(p, txt, strlen(txt), "t.s", &err) == 0);
		T_CHECK(dag_loop_find(p, NULL, &l, &err) == 0);
		T_CHECK(dag_sched_run(p, &l, dag_core_builtin("haswell"), NULL, &r,
				      &err) == PPR_ENOTSUP);
		T_STR(ppr_err_format(&err, buf, sizeof(buf)),
		      "t.s:2: instruction 'kxnorw' (class mask_op) is not "
		      "available on core 'haswell'");
		dag_prog_free(p);
	}
}

/* ---- 3. the IR of single instructions ------------------------------------ */

static const struct {
	int line;
	const char *text;
	enum dag_class cls;
	unsigned flags;       /* DAG_F_LOAD/STORE/ZERO_IDIOM/MOVE/FUSED subset */
	const char *srcs;     /* register names read, space separated */
	const char *dsts;
	unsigned mem_size;
} ir_rows[] = {
	{ __LINE__, "movslq (%rsi,%rax,4), %rdx", DAG_LOAD, DAG_F_LOAD, "", "rdx", 4 },
	{ __LINE__, "vfmadd231sd (%r8,%rdx,8), %xmm1, %xmm0", DAG_FP_FMA,
	  DAG_F_LOAD, "xmm1 xmm0", "xmm0", 8 },
	{ __LINE__, "vfmadd132ps %ymm2, %ymm0, %ymm6", DAG_FP_FMA, 0,
	  "ymm2 ymm0 ymm6", "ymm6", 0 },
	{ __LINE__, "vaddsd %xmm2, %xmm1, %xmm0", DAG_FP_ADD, 0, "xmm2 xmm1", "xmm0", 0 },
	{ __LINE__, "addsd %xmm2, %xmm0", DAG_FP_ADD, 0, "xmm2 xmm0", "xmm0", 0 },
	{ __LINE__, "vmovupd (%r8,%rdx,8), %ymm1", DAG_LOAD, DAG_F_LOAD, "", "ymm1", 32 },
	{ __LINE__, "vmovaps %ymm2, (%rcx,%rdi,4)", DAG_STORE,
	  DAG_F_STORE | DAG_F_ALIGNED, "ymm2", "", 32 },
	{ __LINE__, "vmovapd %ymm6, %ymm1", DAG_VEC_MOV, DAG_F_MOVE, "ymm6", "ymm1", 0 },
	{ __LINE__, "movq %r11, %r15", DAG_MOV, DAG_F_MOVE, "r11", "r15", 0 },
	{ __LINE__, "movl %r14d, %ebp", DAG_MOV, DAG_F_MOVE, "r14", "rbp", 0 },
	{ __LINE__, "movl $0, %eax", DAG_INT_ALU, 0, "", "rax", 0 },
	{ __LINE__, "vxorpd %xmm0, %xmm0, %xmm0", DAG_VEC_LOGIC,
	  DAG_F_ZERO_IDIOM, "", "xmm0", 0 },
	{ __LINE__, "xorl %r10d, %r10d", DAG_INT_ALU, DAG_F_ZERO_IDIOM, "",
	  "flags r10", 0 },
	{ __LINE__, "vpxor %xmm1, %xmm2, %xmm3", DAG_VEC_LOGIC, 0, "xmm1 xmm2", "xmm3", 0 },
	{ __LINE__, "vbroadcastss 4(%rdx), %ymm2", DAG_LOAD, DAG_F_LOAD, "", "ymm2", 4 },
	{ __LINE__, "vbroadcastsd %xmm1, %ymm6", DAG_VEC_PERM, 0, "xmm1", "ymm6", 0 },
	{ __LINE__, "vfmadd132ps (%rdx){1to8}, %ymm0, %ymm1", DAG_FP_FMA,
	  DAG_F_LOAD | DAG_F_BCAST, "ymm0 ymm1", "ymm1", 4 },
	{ __LINE__, "vmovhpd -32(%rax), %xmm0, %xmm0", DAG_VEC_SHUF, DAG_F_LOAD,
	  "xmm0", "xmm0", 8 },
	{ __LINE__, "vinsertf128 $0x1, %xmm0, %ymm2, %ymm2", DAG_VEC_PERM, 0,
	  "xmm0 ymm2", "ymm2", 0 },
	{ __LINE__, "vextractf128 $1, %ymm0, (%rax)", DAG_VEC_PERM, DAG_F_STORE,
	  "ymm0", "", 16 },
	{ __LINE__, "leaq 0(,%rax,4), %rbx", DAG_LEA, 0, "rax", "rbx", 0 },
	{ __LINE__, "leaq 8(%rax,%rcx,4), %rbx", DAG_LEA3, 0, "rax rcx", "rbx", 0 },
	{ __LINE__, "cmpl %ecx, %eax", DAG_INT_ALU, 0, "rcx rax", "flags", 0 },
	{ __LINE__, "addq $8, (%rax)", DAG_INT_ALU, DAG_F_LOAD | DAG_F_STORE,
	  "", "flags", 8 },
	{ __LINE__, "incq %rax", DAG_INT_ALU, 0, "rax", "flags rax", 0 },
	{ __LINE__, "imulq %r10, %rax", DAG_INT_MUL, 0, "r10 rax", "flags rax", 0 },
	/* the three-operand form writes its destination without reading it */
	{ __LINE__, "imulq $3, %r10, %rax", DAG_INT_MUL, 0, "r10", "flags rax", 0 },
	{ __LINE__, "salq $5, %rdx", DAG_INT_SHIFT, 0, "rdx", "flags rdx", 0 },
	{ __LINE__, "seta %al", DAG_INT_ALU, 0, "flags rax", "rax", 0 },
	{ __LINE__, "cltq", DAG_INT_ALU, 0, "rax", "rax", 0 },
	{ __LINE__, "jne .L4", DAG_BRANCH, DAG_F_BRANCH | DAG_F_COND, "flags", "", 0 },
	{ __LINE__, "prefetcht0 256(%rax)", DAG_PREFETCH, DAG_F_LOAD, "", "", 1 },
	{ __LINE__, "vgatherdpd %ymm3, (%r8,%xmm1,8), %ymm0", DAG_VEC_GATHER,
	  DAG_F_LOAD, "ymm3 ymm0", "ymm3 ymm0", 8 },
	{ __LINE__, "vaddpd %zmm1, %zmm2, %zmm3{%k1}", DAG_FP_ADD, 0,
	  "k1 zmm1 zmm2 zmm3", "zmm3", 0 },
	{ __LINE__, "vaddpd %zmm1, %zmm2, %zmm3{%k1}{z}", DAG_FP_ADD, 0,
	  "k1 zmm1 zmm2", "zmm3", 0 },
	{ __LINE__, "cs nopw 0x0(%rax,%rax,1)", DAG_NOP, 0, "", "", 0 },
	{ __LINE__, "xchg %ax,%ax", DAG_NOP, 0, "", "", 0 },
	{ __LINE__, "vzeroupper", DAG_VZEROUPPER, 0, "", "", 0 },
};

static void regs_str(const int *r, int n, char *buf, size_t len)
{
	size_t k = 0;
	const char *names[DAG_MAX_SRC];
	int m = 0;

	/* sort by name for a stable comparison */
	for (int i = 0; i < n; i++)
		names[m++] = dag_reg_name(r[i]);
	for (int i = 0; i < m; i++)
		for (int j = i + 1; j < m; j++)
			if (strcmp(names[j], names[i]) < 0) {
				const char *t = names[i];

				names[i] = names[j];
				names[j] = t;
			}
	buf[0] = 0;
	for (int i = 0; i < m; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "",
				      names[i]);
}

static void sort_words(const char *in, char *out, size_t len)
{
	char tmp[128], *w[16];
	int n = 0;
	size_t k = 0;

	snprintf(tmp, sizeof(tmp), "%s", in);
	{
		char *p = tmp;

		while (*p && n < 16) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			w[n++] = p;
			while (*p && *p != ' ')
				p++;
			if (*p)
				*p++ = 0;
		}
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (strcmp(w[j], w[i]) < 0) {
				char *t = w[i];

				w[i] = w[j];
				w[j] = t;
			}
	out[0] = 0;
	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(out + k, len - k, "%s%s", i ? " " : "", w[i]);
}

static void test_ir(void)
{
	for (size_t i = 0; i < sizeof(ir_rows) / sizeof(ir_rows[0]); i++) {
		struct dag_insn in;
		struct ppr_err err = { 0 };
		char got[128], want[128];
		const unsigned mask = DAG_F_LOAD | DAG_F_STORE | DAG_F_ZERO_IDIOM |
				      DAG_F_MOVE | DAG_F_BRANCH | DAG_F_COND |
				      DAG_F_ALIGNED | DAG_F_BCAST;
		int rc = dag_insn_parse(ir_rows[i].text, &in, "t.s", 1, &err);
		int l = ir_rows[i].line;

		T_CHECK_AT(rc == 0, l);
		if (rc)
			continue;
		T_STR_AT(dag_class_name(in.cls), dag_class_name(ir_rows[i].cls), l);
		T_EQ_U64_AT(in.flags & mask, ir_rows[i].flags, l);
		regs_str(in.src, in.nsrc, got, sizeof(got));
		/* vector registers print as xmmN whatever their width */
		sort_words(ir_rows[i].srcs, want, sizeof(want));
		for (char *c = want; *c; c++)
			if ((*c == 'y' || *c == 'z') && c[1] == 'm' && c[2] == 'm')
				*c = 'x';
		sort_words(want, want, sizeof(want));
		T_STR_AT(got, want, l);
		regs_str(in.dst, in.ndst, got, sizeof(got));
		sort_words(ir_rows[i].dsts, want, sizeof(want));
		for (char *c = want; *c; c++)
			if ((*c == 'y' || *c == 'z') && c[1] == 'm' && c[2] == 'm')
				*c = 'x';
		sort_words(want, want, sizeof(want));
		T_STR_AT(got, want, l);
		T_EQ_U64_AT(in.mem_size, ir_rows[i].mem_size, l);
	}
}

/* ---- 4. scheduling cases worked out by hand --------------------------------- */

static int sched_core(const char *text, const struct dag_core *c,
		      const struct dag_sched_opts *o, struct dag_result *r)
{
	struct dag_prog *p = dag_prog_new();
	struct ppr_err err = { 0 };
	struct dag_loop l;
	char buf[1400];
	int rc;

	rc = dag_asm_parse(p, text, strlen(text), "case.s", &err);
	if (!rc)
		rc = dag_loop_find(p, NULL, &l, &err);
	if (!rc)
		rc = dag_sched_run(p, &l, c, o, r, &err);
	if (rc)
		fprintf(stderr, "  %s\n", ppr_err_format(&err, buf, sizeof(buf)));
	dag_prog_free(p);
	return rc;
}

static int sched_text(const char *text, const char *cpu,
		      const struct dag_sched_opts *o, struct dag_result *r)
{
	return sched_core(text, dag_core_builtin(cpu), o, r);
}

/*
 * Expected cycles per iteration, by hand, from the tables in dag/core.c:
 * Haswell FP add 3 cy on p1, FMA 5 cy on p0/p1, loads 5 (GPR) / 6 (vector)
 * on p2/p3; Zen 5 FP add 2 cy on fp2/fp3, FMA 4 cy on fp0/fp1, loads 4
 * (GPR) / 7 (vector) on 4 AGUs, vector loads on 2 of them.
 */
static const struct {
	int line;
	const char *what;
	const char *text;
	double hsw, zen;          /* cycles per iteration */
	double hsw_c, zen_c;      /* S_DAG(compute); < 0: not checked */
	double hsw_m, zen_m;      /* S_DAG(memory); < 0: not checked */
	const char *bottleneck_hsw;
} cases[] = {
	{ __LINE__, "dependent FP add: its latency",
	  ".L1:\n\tvaddsd %xmm1, %xmm0, %xmm0\n\tdecl %ecx\n\tjne .L1\n",
	  3, 2, 3, 2, 0, 0, "dependency chain" },
	{ __LINE__, "chain of 4 dependent adds: 4 x latency",
	  ".L1:\n\tvaddsd %xmm1, %xmm0, %xmm0\n\tvaddsd %xmm2, %xmm0, %xmm0\n"
	  "\tvaddsd %xmm3, %xmm0, %xmm0\n\tvaddsd %xmm4, %xmm0, %xmm0\n"
	  "\tdecl %ecx\n\tjne .L1\n", 12, 8, 12, 8, -1, -1, "dependency chain" },
	{ __LINE__, "8 independent adds: n / FP-add ports",
	  ".L1:\n\tvaddps %ymm8, %ymm9, %ymm0\n\tvaddps %ymm8, %ymm9, %ymm1\n"
	  "\tvaddps %ymm8, %ymm9, %ymm2\n\tvaddps %ymm8, %ymm9, %ymm3\n"
	  "\tvaddps %ymm8, %ymm9, %ymm4\n\tvaddps %ymm8, %ymm9, %ymm5\n"
	  "\tvaddps %ymm8, %ymm9, %ymm6\n\tvaddps %ymm8, %ymm9, %ymm7\n"
	  "\tdecl %ecx\n\tjne .L1\n", 8, 4, 8, 4, -1, -1, "ports" },
	{ __LINE__, "dependent FMA: the FMA latency",
	  ".L1:\n\tvfmadd231pd %ymm1, %ymm2, %ymm0\n\tdecl %ecx\n\tjne .L1\n",
	  5, 4, 5, 4, 0, 0, "dependency chain" },
	{ __LINE__, "load -> load chain: 2 x load latency",
	  ".L1:\n\tmovq (%rax), %rbx\n\tmovq 8(%rbx), %rax\n\tdecl %ecx\n\tjne .L1\n",
	  10, 8, 0, 0, 10, 8, "dependency chain" },
	{ __LINE__, "load -> load with a scaled index: Zen 5 one cycle more "
	  "(load_latency_complex_address, bench/dag_row.sh: 5.06)",
	  ".L1:\n\tmovq (%rsi,%rax,8), %rax\n\tdecl %ecx\n\tjne .L1\n",
	  5, 5, 0, 0, 5, 5, "dependency chain" },
	{ __LINE__, "load -> load, base + index + displacement: Zen 5 +1 (5.01)",
	  ".L1:\n\tmovl 8(%rsi,%rax), %eax\n\tdecl %ecx\n\tjne .L1\n",
	  5, 5, 0, 0, 5, 5, "dependency chain" },
	{ __LINE__, "load -> load, base + index, zero-extending: Zen 5 4 (4.00)",
	  ".L1:\n\tmovl (%rsi,%rax), %eax\n\tdecl %ecx\n\tjne .L1\n",
	  5, 4, 0, 0, 5, 4, "dependency chain" },
	{ __LINE__, "sign-extending load with a scaled index: Zen 5 4 + 1 + 1 "
	  "(load_latency_sign_extend; measured 6.00)",
	  ".L1:\n\tmovslq (%rsi,%rax,4), %rax\n\tdecl %ecx\n\tjne .L1\n",
	  5, 6, 0, 0, 5, 6, "dependency chain" },
	{ __LINE__, "chain through an eliminated move keeps its latency",
	  ".L1:\n\tvaddsd %xmm1, %xmm0, %xmm2\n\tvmovapd %xmm2, %xmm0\n"
	  "\tdecl %ecx\n\tjne .L1\n", 3, 2, 3, 2, -1, -1, "dependency chain" },
	{ __LINE__, "zero idiom breaks the chain: add throughput",
	  ".L1:\n\tvxorpd %xmm0, %xmm0, %xmm0\n\tvaddsd %xmm1, %xmm0, %xmm0\n"
	  "\tvaddsd %xmm2, %xmm3, %xmm4\n\tdecl %ecx\n\tjne .L1\n",
	  2, 1, 2, 1, -1, -1, "ports" },
	{ __LINE__, "FMA with a memory operand: compute is the chain, memory "
	  "the load port", ".L1:\n\tvfmadd231pd (%rax), %ymm1, %ymm0\n"
	  "\taddq $32, %rax\n\tdecl %ecx\n\tjne .L1\n", 5, 4, 5, 4, 0.5, 0.5,
	  "dependency chain" },
	{ __LINE__, "four aligned 32-byte loads: 2 per cycle (Zen 5: 2 of its "
	  "4 AGUs load vector registers)",
	  ".L1:\n\tvmovaps (%rax), %ymm0\n\tvmovaps 32(%rax), %ymm1\n"
	  "\tvmovaps 64(%rax), %ymm2\n\tvmovaps 96(%rax), %ymm3\n"
	  "\taddq $128, %rax\n\tcmpq %rax, %rdx\n\tjne .L1\n",
	  2, 2, 0, 0, 2, 2, "ports" },
	{ __LINE__, "2 FP + 2 GPR loads: Haswell 2 load ports; Zen 5 an FP "
	  "load takes 2 of the 4 load slots (vector_load_slots): 6 / 4",
	  ".L1:\n\tvmovsd (%rax), %xmm0\n\tvmovsd 8(%rax), %xmm1\n"
	  "\tmovq 16(%rax), %rbx\n\tmovq 24(%rax), %rdx\n\tdecl %ecx\n"
	  "\tjne .L1\n", 2, 1.5, 0, 0, 2, 1.5, "ports" },
	{ __LINE__, "gcc's CSR pair of nonzeros: 2 index loads, the 2 x loads "
	  "they address, 2 value loads as mulsd operands; Zen 5 (4 x 2 + 2) "
	  "/ 4 load slots (measured 2.36-2.49), Haswell 6 loads on 2 ports",
	  ".L1:\n\tmovl (%rcx,%rax,4), %edx\n\tmovsd (%r8,%rdx,8), %xmm0\n"
	  "\tmulsd (%rsi,%rax,8), %xmm0\n\tmovl 4(%rcx,%rax,4), %edx\n"
	  "\taddsd %xmm0, %xmm1\n\tmovsd (%r8,%rdx,8), %xmm0\n"
	  "\tmulsd 8(%rsi,%rax,8), %xmm0\n\taddq $2, %rax\n"
	  "\taddsd %xmm0, %xmm2\n\tcmpq %rdi, %rax\n\tjb .L1\n",
	  3, 2.5, -1, -1, 3, 2.5, "ports" },
};

/*
 * Separate scheduler queues limit how far the core looks ahead: 32 loads
 * per iteration wait on a 36-cycle imul chain that starts afresh each
 * iteration.  With one 200-entry scheduler several iterations overlap
 * (the 3 imul ports bound it: 12 / 3 = 4 cycles ... 8 for 32 loads on 4
 * AGUs); Zen 5's 48-entry AGU queue holds one iteration's loads and a
 * half, so iterations barely overlap (measured here 25.5 cycles).
 */
static void test_queues(void)
{
	static const char txt[] =
		".L1:\n\tmovq %r11, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n"
		"\tmovq %r10, %rax\n\tandl $0, %eax\n"
		"LOADS\tdecq %rdi\n\tjnz .L1\n";
	char text[4096];
	struct dag_core one = *dag_core_builtin("zen5");
	const struct dag_core *zen = dag_core_builtin("zen5");
	struct dag_prog *p = dag_prog_new();
	struct ppr_err err = { 0 };
	struct dag_loop l;
	struct dag_result rq, r1;
	const char *at = strstr(txt, "LOADS");
	size_t n = (size_t)(at - txt);

	memcpy(text, txt, n);
	for (int i = 0; i < 32; i++) {
		static const char ld[] = "\tmovq (%rdx,%rax,8), %r9\n";

		memcpy(text + n, ld, sizeof(ld) - 1);
		n += sizeof(ld) - 1;
	}
	memcpy(text + n, at + 5, strlen(at + 5) + 1);
	one.nqueues = 0;
	T_CHECK(zen->nqueues == 2);
	T_CHECK(dag_asm_parse(p, text, strlen(text), "q.s", &err) == 0);
	T_CHECK(dag_loop_find(p, NULL, &l, &err) == 0);
	T_CHECK(dag_sched_run(p, &l, zen, NULL, &rq, &err) == 0);
	T_CHECK(dag_sched_run(p, &l, &one, NULL, &r1, &err) == 0);
	T_NEAR(r1.cycles_per_iter, 8.0, 0.05);     /* 32 loads / 4 AGUs */
	/* the queue: well above the unified figure, below no overlap at all
	   (36 chain + 4 load + 8 issue) */
	T_CHECK(rq.cycles_per_iter > 2 * r1.cycles_per_iter);
	T_CHECK(rq.cycles_per_iter < 48);
	T_STR(dag_bottleneck_name(rq.bottleneck), "latency (reorder window)");
	dag_prog_free(p);
}

/*
 * Physical registers and loads held until retirement (prf_free_gpr,
 * prf_free_vec, load_queue): a 12-imul chain (36 cycles) and N
 * independent writers per iteration.  Without limits the next
 * iterations' chains start under the window (12 cycles an iteration,
 * the one multiplier); with fewer free registers of the writers' kind
 * (or load entries) than the writers after the chain, the next chain
 * cannot dispatch before this one retires (36 cycles or more); a limit
 * on the other kind changes nothing.
 */
static double regs_run(const char *fill, unsigned n, unsigned gpr,
		       unsigned vec, unsigned ldq)
{
	static const char head[] =
		".L1:\n\tmovq %r11, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n"
		"\timulq %r10, %r10\n\timulq %r10, %r10\n\timulq %r10, %r10\n";
	static const char tail[] = "\tdecq %rdi\n\tjnz .L1\n";
	char text[8192];
	struct dag_core c = *dag_core_builtin("zen4");
	struct dag_result r = { 0 };
	size_t k = strlen(head);

	memcpy(text, head, k);
	for (unsigned i = 0; i < n; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k, fill,
				      2 + i % 12);
	memcpy(text + k, tail, sizeof(tail));
	c.nqueues = 0;
	c.prf_free_gpr = gpr;
	c.prf_free_vec = vec;
	c.load_queue = ldq;
	T_CHECK(sched_core(text, &c, NULL, &r) == 0);
	return r.cycles_per_iter;
}

static void test_registers(void)
{
	static const char vec[] = "\tvpaddq %%xmm1, %%xmm0, %%xmm%u\n";
	static const char gpr[] = "\tleaq %u(%%r8), %%r9\n";
	static const char ld[] = "\tmovq %u(%%rdx), %%r9\n";
	double free_run = regs_run(vec, 32, 0, 0, 0);

	T_NEAR(free_run, 12.0, 0.5);
	T_CHECK(regs_run(vec, 32, 0, 24, 0) >= 36);
	T_NEAR(regs_run(vec, 32, 24, 0, 0), free_run, 0.5);
	T_NEAR(regs_run(vec, 32, 0, 100, 0), free_run, 0.5);
	T_NEAR(regs_run(gpr, 32, 0, 0, 0), 12.0, 0.5);
	T_CHECK(regs_run(gpr, 32, 24, 0, 0) >= 36);
	T_NEAR(regs_run(gpr, 32, 0, 24, 0), 12.0, 0.5);
	T_NEAR(regs_run(ld, 32, 0, 0, 0), 12.0, 0.5);
	T_CHECK(regs_run(ld, 32, 0, 0, 24) >= 36);
	T_NEAR(regs_run(ld, 32, 0, 0, 100), 12.0, 0.5);
	/* limits below one instruction's needs: it still dispatches into an
	   empty file (a 4-element gather, a 1-entry load queue) */
	{
		static const char txt[] =
			".L1:\n\tvgatherdpd %ymm1, (%rdx,%xmm2,8), %ymm3\n"
			"\tvpaddq %xmm1, %xmm0, %xmm4\n"
			"\tdecq %rdi\n\tjnz .L1\n";
		struct dag_core c = *dag_core_builtin("zen4");
		struct dag_result r = { 0 };

		c.prf_free_gpr = 1;
		c.prf_free_vec = 1;
		c.load_queue = 1;
		T_CHECK(sched_core(txt, &c, NULL, &r) == 0);
		T_CHECK(r.cycles_per_iter > 0 && r.cycles_per_iter < 100);
	}
}

/*
 * The two rules for load mixes on one loop of 2 FP + 2 GPR loads: the
 * slot budget (an FP load takes vec_load_slots of the 4 load slots: 6 /
 * 4) and the older cap (at most vec_load_mix_width loads in a cycle with
 * an FP load: 4 / 3); with neither, the 2 vector-load AGUs alone (1).
 */
static void test_load_mix_rules(void)
{
	static const char txt[] =
		".L1:\n\tvmovsd (%rax), %xmm0\n\tvmovsd 8(%rax), %xmm1\n"
		"\tmovq 16(%rax), %rbx\n\tmovq 24(%rax), %rdx\n"
		"\tdecl %ecx\n\tjne .L1\n";
	struct dag_core c = *dag_core_builtin("zen5");
	struct dag_prog *p = dag_prog_new();
	struct ppr_err err = { 0 };
	struct dag_loop l;
	struct dag_result r;

	T_CHECK(dag_asm_parse(p, txt, strlen(txt), "mix.s", &err) == 0);
	T_CHECK(dag_loop_find(p, NULL, &l, &err) == 0);
	T_CHECK(c.vec_load_slots == 2 && c.vec_load_mix_width == 0);
	T_CHECK(dag_sched_run(p, &l, &c, NULL, &r, &err) == 0);
	T_NEAR(r.cycles_per_iter, 1.5, 0.02);
	c.vec_load_slots = 0;
	c.vec_load_mix_width = 3;
	T_CHECK(dag_sched_run(p, &l, &c, NULL, &r, &err) == 0);
	T_NEAR(r.cycles_per_iter, 4.0 / 3, 0.02);
	c.vec_load_mix_width = 0;
	T_CHECK(dag_sched_run(p, &l, &c, NULL, &r, &err) == 0);
	T_NEAR(r.cycles_per_iter, 1.0, 0.02);
	dag_prog_free(p);
}

static void test_sched(void)
{
	struct dag_sched_opts o = { .iterations = 400,
				    .align = DAG_ALIGN_ALIGNED };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dag_result r;
		int l = cases[i].line;

		T_CHECK_AT(sched_text(cases[i].text, "haswell", &o, &r) == 0, l);
		T_NEAR_AT(r.cycles_per_iter, cases[i].hsw, 0.02, l);
		if (cases[i].hsw_c >= 0)
			T_NEAR_AT(r.compute_cycles, cases[i].hsw_c, 0.02, l);
		if (cases[i].hsw_m >= 0)
			T_NEAR_AT(r.memory_cycles, cases[i].hsw_m, 0.02, l);
		T_STR_AT(dag_bottleneck_name(r.bottleneck),
			 cases[i].bottleneck_hsw, l);
		T_CHECK_AT(sched_text(cases[i].text, "zen5", &o, &r) == 0, l);
		T_NEAR_AT(r.cycles_per_iter, cases[i].zen, 0.02, l);
		if (cases[i].zen_c >= 0)
			T_NEAR_AT(r.compute_cycles, cases[i].zen_c, 0.02, l);
		if (cases[i].zen_m >= 0)
			T_NEAR_AT(r.memory_cycles, cases[i].zen_m, 0.02, l);
	}
}

/* The critical chain names the instructions of the recurrence. */
static void test_chain(void)
{
	static const char txt[] =
		".L1:\n"
		"\tmovslq (%rsi,%rax,4), %rdx\n"
		"\tvmovsd (%rdi,%rax,8), %xmm1\n"
		"\tincq %rax\n"
		"\tvfmadd231sd (%r8,%rdx,8), %xmm1, %xmm0\n"
		"\tcmpl %eax, %ecx\n"
		"\tjg .L1\n";
	struct dag_result r;

	T_CHECK(sched_text(txt, "haswell", NULL, &r) == 0);
	/* the CSR inner loop: the FMA accumulation chain, 5 cycles */
	T_NEAR(r.cycles_per_iter, 5.0, 0.02);
	T_NEAR(r.chain_bound, 5.0, 1e-9);
	T_STR(dag_reg_name(r.chain_reg), "xmm0");
	T_EQ_U64(r.chain_len, 1);
	T_EQ_U64(r.chain[0], 3);
	T_EQ_U64(r.loads, 3);
	T_EQ_U64(r.fmas, 1);
	T_NEAR(r.flops_per_iter, 2.0, 1e-12);     /* one scalar FMA */
	/* 3 loads on 2 ports */
	T_NEAR(r.memory_cycles, 1.5, 0.02);
}

/* Short rows overlap in the reorder window (nested loops). */
static void test_nested(void)
{
	static const char txt[] =
		".L5:\n"
		"\tmovslq (%r11,%r10), %rax\n"
		"\tvxorpd %xmm0, %xmm0, %xmm0\n"
		".L4:\n"
		"\tmovslq (%rsi,%rax,4), %rdx\n"
		"\tvmovsd (%rdi,%rax,8), %xmm1\n"
		"\tincq %rax\n"
		"\tvfmadd231sd (%r8,%rdx,8), %xmm1, %xmm0\n"
		"\tcmpl %eax, %ecx\n"
		"\tjg .L4\n"
		"\tvmovsd %xmm0, (%r9,%r10,2)\n"
		"\taddq $4, %r10\n"
		"\tcmpq %rbx, %r10\n"
		"\tjne .L5\n";
	struct dag_sched_opts o = { .inner_trips = 8 };
	struct dag_result in, nest;

	T_CHECK(sched_text(txt, "haswell", NULL, &in) == 0);
	T_NEAR(in.cycles_per_iter, 5.0, 0.02);      /* inner loop alone */
	T_CHECK(sched_text(txt, "haswell", &o, &nest) == 0);
	/* 8 trips: the row's chain is 8 x 5 = 40 cycles, but successive rows
	   overlap; the loads (3 per nonzero + 1 per row on 2 ports: 12.5 cy
	   per row) and the window bound it instead: well under 5 per
	   nonzero */
	T_CHECK(nest.cycles_per_inner < 0.8 * in.cycles_per_iter);
	T_CHECK(nest.cycles_per_iter >= 12.5 - 1e-9);
	T_NEAR(nest.cycles_per_inner * 8, nest.cycles_per_iter, 1e-9);
	/* a remainder loop beside the chosen (unrolled) loop is assumed not
	   to run: only the main loop's work counts */
	{
		static const char two[] =
			".L5:\n\tvxorpd %xmm0, %xmm0, %xmm0\n"
			".L6:\n\tvaddsd (%rax), %xmm0, %xmm0\n\tdecq %rcx\n\tjne .L6\n"
			".L4:\n\tvaddsd (%rax), %xmm0, %xmm0\n\tvaddsd 8(%rax), %xmm0, %xmm0\n"
			"\tdecq %rdx\n\tjne .L4\n"
			"\tvmovsd %xmm0, (%r9)\n\tdecq %rbx\n\tjne .L5\n";
		struct dag_result r;
		struct dag_sched_opts o3 = { .inner_trips = 3 };

		T_CHECK(sched_text(two, "haswell", &o3, &r) == 0);
		T_NEAR(r.flops_per_iter, 6.0, 1e-12);
		T_EQ_U64(r.insns_per_iter, 1 + 3 * 4 + 3);
	}
	/* no enclosing loop: an error */
	{
		static const char one[] = ".L1:\n\tincq %rax\n\tjne .L1\n";
		struct dag_prog *p = dag_prog_new();
		struct ppr_err err = { 0 };
		struct dag_loop l;
		struct dag_result r;

		T_CHECK(dag_asm_parse(p, one, strlen(one), "t.s", &err) == 0);
		T_CHECK(dag_loop_find(p, NULL, &l, &err) == 0);
		T_CHECK(dag_sched_run(p, &l, dag_core_builtin("haswell"), &o, &r,
				      &err) == PPR_EINVAL);
		dag_prog_free(p);
	}
}

/* A sustained dispatch rate below the width: 21 eliminated vector moves
 * and a fused dec/jnz (22 slots, no port) take 22 / rate cycles. */
static void test_issue_rate(void)
{
	char text[2048];
	size_t n = 0;
	struct dag_core c = *dag_core_builtin("zen4");
	struct dag_prog *p = dag_prog_new();
	struct ppr_err err = { 0 };
	struct dag_loop l;
	struct dag_result r;

	n += (size_t)snprintf(text + n, sizeof(text) - n, ".L1:\n");
	for (int i = 0; i < 21; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\tvmovapd %%ymm1, %%ymm%d\n", 2 + i % 8);
	snprintf(text + n, sizeof(text) - n, "\tdecq %%rdi\n\tjnz .L1\n");
	T_CHECK(dag_asm_parse(p, text, strlen(text), "r.s", &err) == 0);
	T_CHECK(dag_loop_find(p, NULL, &l, &err) == 0);
	c.fetch_width = 0;                     /* dispatch alone */
	c.issue_rate = 5.5;
	T_CHECK(dag_sched_run(p, &l, &c, NULL, &r, &err) == 0);
	T_NEAR(r.cycles_per_iter, 22 / 5.5, 0.05);
	T_NEAR(r.frontend_bound, 22 / 5.5, 1e-9);
	c.issue_rate = 0;                      /* the width: 6 */
	T_CHECK(dag_sched_run(p, &l, &c, NULL, &r, &err) == 0);
	T_NEAR(r.cycles_per_iter, 22 / 6.0, 0.05);
	c.issue_rate = 5;
	T_CHECK(dag_sched_run(p, &l, &c, NULL, &r, &err) == 0);
	T_NEAR(r.cycles_per_iter, 22 / 5.0, 0.05);
	c.issue_rate = 6.5;                    /* above the width */
	T_CHECK(dag_core_check(&c, &err) == PPR_EINVAL);
	dag_prog_free(p);
}

/* The front end: one fetch block a cycle (fetch_rate on average), at
 * most fetch_width slots, ending at every loop branch. */
static void test_fetch(void)
{
	/* 2 slots an iteration (the counter's chain: 1 cycle) */
	static const char small[] =
		".L1:\n\taddq $1, %rax\n\tdecq %rdi\n\tjnz .L1\n";
	/* rows of inner iterations of 2 slots, 2 slots of outer work */
	static const char nest[] =
		".L0:\n\taddq $1, %r8\n"
		".L1:\n\taddq $1, %rax\n\tdecq %rdi\n\tjnz .L1\n"
		"\tdecq %rsi\n\tjnz .L0\n";
	struct dag_core c = *dag_core_builtin("zen4");
	struct dag_sched_opts o = { 0 };
	struct dag_result r;

	T_EQ_U64(c.fetch_width, 9);
	c.fetch_rate = 0;                      /* a block every cycle */
	T_CHECK(sched_core(small, &c, &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 1.0, 0.02);
	c.fetch_rate = 0.5;
	T_CHECK(sched_core(small, &c, &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 2.0, 0.02);
	/* a row of 7 inner iterations: 7 blocks (the exit one too) and
	 * the outer branch's block: 8 cycles */
	c = *dag_core_builtin("zen4");
	c.fetch_rate = 0;
	o.inner_trips = 7;
	T_CHECK(sched_core(nest, &c, &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 8.0, 0.05);
	c.fetch_width = 0;     /* dispatch alone: the counter's 7 cycles */
	T_CHECK(sched_core(nest, &c, &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 7.0, 0.1);
	c.fetch_width = 9;
	/* a body of 20 slots: 3 blocks of at most 9 an iteration */
	{
		char text[1024];
		size_t n = 0;

		n += (size_t)snprintf(text + n, sizeof(text) - n, ".L1:\n");
		for (int i = 0; i < 19; i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "\tvmovapd %%ymm1, %%ymm%d\n",
					      2 + i % 8);
		snprintf(text + n, sizeof(text) - n, "\tdecq %%rdi\n\tjnz .L1\n");
		o.inner_trips = 0;
		c.issue_width = 8;             /* dispatch: 20 / 8 cycles */
		c.retire_width = 8;
		T_CHECK(sched_core(text, &c, &o, &r) == 0);
		T_NEAR(r.cycles_per_iter, 3.0, 0.05);
	}
	c = *dag_core_builtin("zen4");
	c.fetch_rate = 1.5;
	T_CHECK(dag_core_check(&c, NULL) == PPR_EINVAL);
	c.fetch_rate = 0.9;
	c.op_queue = 4;                        /* below the fetch width */
	T_CHECK(dag_core_check(&c, NULL) == PPR_EINVAL);
}

/* A sustained load rate below the load ports' count: 3 independent loads
 * an iteration take 3 / load_rate cycles. */
static void test_load_rate(void)
{
	static const char txt[] =
		".L1:\n\tmovq (%rdx), %rax\n\tmovq 8(%rdx), %r9\n"
		"\tmovq 16(%rdx), %r10\n\tdecq %rdi\n\tjnz .L1\n";
	struct dag_core c = *dag_core_builtin("zen4");
	struct dag_sched_opts o = { 0 };
	struct dag_result r;

	T_NEAR(c.load_rate, 2.5, 0);
	c.fetch_width = 0;
	T_CHECK(sched_core(txt, &c, &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 3 / 2.5, 0.03);
	c.load_rate = 0;                       /* the 3 load ports */
	T_CHECK(sched_core(txt, &c, &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 1.0, 0.03);
	c.load_rate = -1;
	T_CHECK(dag_core_check(&c, NULL) == PPR_EINVAL);
}

/* Line-crossing loads take two load slots. */
static void test_split(void)
{
	static const char txt[] =
		".L1:\n\tvmovups (%rax), %ymm0\n\tvmovups 32(%rax), %ymm1\n"
		"\tvmovups 64(%rax), %ymm2\n\tvmovups 96(%rax), %ymm3\n"
		"\taddq $128, %rax\n\tcmpq %rax, %rdx\n\tjne .L1\n";
	struct dag_sched_opts o = { .align = DAG_ALIGN_ALIGNED };
	struct dag_result r;

	T_CHECK(sched_text(txt, "haswell", &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 2.0, 0.02);
	o.align = DAG_ALIGN_SPLIT;             /* the paper's assumption */
	T_CHECK(sched_text(txt, "haswell", &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 4.0, 0.02);
	T_EQ_U64(r.split_loads_x1000, 4000);
	o.align = DAG_ALIGN_EXPECTED;          /* 28/64 of them split */
	T_CHECK(sched_text(txt, "haswell", &o, &r) == 0);
	T_NEAR(r.split_loads_x1000, 4000.0 * 28 / 64, 0.01);
	T_CHECK(r.cycles_per_iter > 2.0 && r.cycles_per_iter < 4.0);
	{
		double c4 = r.cycles_per_iter;

		/* known 16-byte starts: (32 - 16) / 64 = 1 in 4 split */
		o.align_bytes = 16;
		T_CHECK(sched_text(txt, "haswell", &o, &r) == 0);
		T_EQ_U64(r.split_loads_x1000, 1000);
		T_CHECK(r.cycles_per_iter > 2.0 + 0.01 &&
			r.cycles_per_iter < c4 - 0.01);
		/* 32-byte starts: a 32-byte load never crosses a line */
		o.align_bytes = 32;
		T_CHECK(sched_text(txt, "haswell", &o, &r) == 0);
		T_EQ_U64(r.split_loads_x1000, 0);
		T_NEAR(r.cycles_per_iter, 2.0, 0.02);
		/* no effect on the paper's every-load-splits assumption */
		o.align = DAG_ALIGN_SPLIT;
		T_CHECK(sched_text(txt, "haswell", &o, &r) == 0);
		T_EQ_U64(r.split_loads_x1000, 4000);
	}
	/* 64-byte loads on Zen 4 (2 vector load ports): 2 slots each
	 * aligned, 3 when they cross a line (line_split_load512_slots);
	 * Zen 5 keeps the larger of its line-split and 512-bit slots (2) */
	{
		static const char z[] =
			".L1:\n\tvmovups (%rax), %zmm0\n\tvmovups 64(%rax), %zmm1\n"
			"\tvmovups 128(%rax), %zmm2\n\tvmovups 192(%rax), %zmm3\n"
			"\taddq $256, %rax\n\tcmpq %rax, %rdx\n\tjne .L1\n";
		struct dag_sched_opts oz = { .align = DAG_ALIGN_ALIGNED };

		T_CHECK(sched_text(z, "zen4", &oz, &r) == 0);
		T_NEAR(r.cycles_per_iter, 4.0, 0.02);
		oz.align = DAG_ALIGN_SPLIT;
		T_CHECK(sched_text(z, "zen4", &oz, &r) == 0);
		T_NEAR(r.cycles_per_iter, 6.0, 0.02);
		T_CHECK(sched_text(z, "zen5", &oz, &r) == 0);
		T_NEAR(r.cycles_per_iter, 4.0, 0.02);
	}
	/* 32-byte ones on Zen 4: 2.5 slots per split on average
	 * (line_split_load_slots_mean), 2 and 3 in turn: 4 x 2.5 / 2
	 * vector load ports */
	o.align = DAG_ALIGN_SPLIT;
	o.align_bytes = 0;
	T_CHECK(sched_text(txt, "zen4", &o, &r) == 0);
	T_NEAR(r.cycles_per_iter, 5.0, 0.05);
	T_EQ_U64(r.split_loads_x1000, 4000);
}

/* Whole file without a backward branch is one loop body. */
static void test_whole_file(void)
{
	static const char txt[] = "\tvaddsd %xmm1, %xmm0, %xmm0\n"
				  "\tvmulsd %xmm2, %xmm0, %xmm0\n";
	struct dag_prog *p = dag_prog_new();
	struct ppr_err err = { 0 };
	struct dag_loop l;
	struct dag_result r;

	T_CHECK(dag_asm_parse(p, txt, strlen(txt), "t.s", &err) == 0);
	T_CHECK(dag_loop_find(p, NULL, &l, &err) == 0);
	T_CHECK(l.whole_file);
	T_CHECK(dag_sched_run(p, &l, dag_core_builtin("haswell"), NULL, &r,
			      &err) == 0);
	T_NEAR(r.cycles_per_iter, 8.0, 0.02);   /* add 3 + mul 5 */
	T_NEAR(r.flops_per_iter, 2.0, 1e-12);
	dag_prog_free(p);
}

/* ---- 5. the paper's hand counts (ppr-model.md sections 4-5) --------------- */

static void test_paper(void)
{
	static const struct {
		int line;
		const char *k;
		double compute, memory;
	} rows[] = {
		{ __LINE__, "conv1", 128, 128 },
		{ __LINE__, "conv2", 16, 32 },
		{ __LINE__, "conv3", 16, 16 },
		{ __LINE__, "csr", 1, 5 },
	};
	const struct dag_core *hsw = dag_core_builtin("haswell");
	struct dag_paper pp;
	struct ppr_err err = { 0 };

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		T_CHECK_AT(dag_paper_eval(rows[i].k, hsw, &pp, &err) == 0,
			   rows[i].line);
		T_CHECK_AT(pp.compute_cycles == rows[i].compute, rows[i].line);
		T_CHECK_AT(pp.memory_cycles == rows[i].memory, rows[i].line);
	}
	T_CHECK(dag_paper_eval("conv9", hsw, &pp, &err) == PPR_EINVAL);
}

int main(void)
{
	test_corpus();
	test_errors();
	test_ir();
	test_sched();
	test_queues();
	test_registers();
	test_load_mix_rules();
	test_chain();
	test_nested();
	test_split();
	test_issue_rate();
	test_fetch();
	test_load_rate();
	test_whole_file();
	test_paper();
	return t_done();
}
