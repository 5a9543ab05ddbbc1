/*
 * dag.h - the instruction-DAG scheduler of ppr: an instruction IR, an
 * x86-64 AT&T assembly front end (gcc/clang .s files and objdump -d
 * listings), a per-machine core model (ports, latencies, widths) and a
 * scheduler that runs a loop body on that model until it reaches a steady
 * state.  It yields the in-core time of PPR eq. (1): cycles per iteration
 * of the whole loop, S_DAG(compute) and S_DAG(memory).
 *
 * Ownership: dag_prog_new() returns a program the caller frees with
 * dag_prog_free(); dag_sched_run() fills a caller-owned struct dag_result
 * (fixed-size arrays, nothing to free).  Built-in cores are
 * static and never freed.  Every function returns 0 or a negative PPR_E*
 * code and fills the optional struct ppr_err.
 */
#ifndef PPR_DAG_H
#define PPR_DAG_H

#include <stddef.h>
#include <stdint.h>

#include "common/ppr_err.h"

/* ---- registers ---------------------------------------------------------- */

/*
 * Architectural registers after canonicalisation: %eax, %ax and %al are
 * all DAG_REG_GPR+0; %xmm3, %ymm3 and %zmm3 are DAG_REG_VEC+3.
 */
enum {
	DAG_REG_NONE = -1,
	DAG_REG_GPR = 0,      /* 16: rax rcx rdx rbx rsp rbp rsi rdi r8..r15 */
	DAG_REG_RIP = 16,
	DAG_REG_VEC = 17,     /* 32: xmm/ymm/zmm 0..31 */
	DAG_REG_MASK = 49,    /* 8: k0..k7 */
	DAG_REG_FLAGS = 57,
	DAG_NREGS = 58,
};

/* ---- instruction IR ----------------------------------------------------- */

/*
 * Operation class: the key of the core model's latency/port table.  A
 * memory operand adds a load and/or store micro-op on top of the class's
 * own micro-ops (a pure load such as vmovups (%rax),%ymm0 is DAG_LOAD).
 */
enum dag_class {
	DAG_NOP = 0,       /* nop, endbr64, vzeroupper-free no-ops */
	DAG_INT_ALU,       /* add sub and or xor cmp test inc dec neg not mov-imm
			      movzx movsx setcc cmov cltq */
	DAG_INT_SHIFT,     /* shl shr sar rol ror */
	DAG_INT_MUL,       /* imul */
	DAG_INT_DIV,       /* div idiv */
	DAG_LEA,           /* lea with at most two address terms */
	DAG_LEA3,          /* lea base+index+disp (slow lea) */
	DAG_MOV,           /* GPR register move (eliminable) */
	DAG_BRANCH,        /* jcc jmp (and a fused cmp/test+jcc) */
	DAG_CALL,          /* call ret push pop leave (stack engine ignored) */
	DAG_LOAD,          /* pure load: mov/vmov/broadcast/movslq from memory */
	DAG_STORE,         /* pure store: the store-data micro-op */
	DAG_PREFETCH,      /* prefetcht0/1/2/nta: a load slot, no result */
	DAG_FP_ADD,        /* add sub min max (ss sd ps pd) */
	DAG_FP_MUL,        /* mul */
	DAG_FP_FMA,        /* vfmadd/vfmsub/vfnmadd/vfnmsub 132/213/231 */
	DAG_FP_DIV,        /* div sqrt, single precision */
	DAG_FP_DIVD,       /* div sqrt, double precision */
	DAG_FP_CVT,        /* conversions */
	DAG_VEC_MOV,       /* vector register move (eliminable) */
	DAG_VEC_LOGIC,     /* and or xor andn blend (bitwise) */
	DAG_VEC_INT,       /* vpadd vpsub vpcmp, integer vector ALU */
	DAG_VEC_SHUF,      /* in-lane shuffles, unpacks, vpermil, movhpd, broadcast
			      from a register, movd/movq gpr<->xmm */
	DAG_VEC_PERM,      /* cross-lane: vpermpd vpermq vperm2f128 vinsert/
			      vextract128, vbroadcast to ymm from xmm */
	DAG_VEC_GATHER,    /* vgather*: one load per element + merge */
	DAG_MASK_OP,       /* AVX-512 mask-register ops (kxnor, kmov) */
	DAG_VZEROUPPER,
	DAG_NCLASSES
};

/* What an instruction counts as in PPR eq. (1). */
enum dag_fpkind { DAG_FPK_NONE = 0, DAG_FPK_ADD, DAG_FPK_MUL, DAG_FPK_FMA };

/* Instruction flags. */
enum {
	DAG_F_LOAD = 1u << 0,       /* reads its memory operand */
	DAG_F_STORE = 1u << 1,      /* writes its memory operand */
	DAG_F_BRANCH = 1u << 2,     /* jcc/jmp */
	DAG_F_COND = 1u << 3,       /* conditional branch */
	DAG_F_ZERO_IDIOM = 1u << 4, /* xor r,r and friends: no input deps */
	DAG_F_MOVE = 1u << 5,       /* reg-reg move, eliminable at rename */
	DAG_F_ALIGNED = 1u << 6,    /* memory operand known aligned (vmovaps) */
	DAG_F_FUSED = 1u << 7,      /* jcc macro-fused with the previous insn */
	DAG_F_NOACCESS = 1u << 8,   /* memory operand is not accessed (lea) */
	DAG_F_BCAST = 1u << 9,      /* AVX-512 embedded broadcast {1toN} */
};

#define DAG_MAX_SRC 8
#define DAG_MAX_DST 3

struct dag_mem {
	int base;          /* DAG_REG_*, DAG_REG_NONE if absent */
	int index;         /* DAG_REG_GPR.. or DAG_REG_VEC.. (gather) */
	unsigned scale;    /* 1, 2, 4, 8 */
	long disp;         /* numeric displacement (0 when symbolic) */
	char sym[48];      /* symbolic displacement, "" if none */
};

struct dag_insn {
	char mnem[24];          /* mnemonic as written (lower case) */
	enum dag_class cls;
	enum dag_fpkind fpk;
	unsigned flags;         /* DAG_F_* */
	unsigned vbits;         /* vector width 128/256/512; 0: GPR/scalar */
	unsigned scalar;        /* 1: scalar FP (ss/sd) */
	unsigned mem_size;      /* bytes accessed by the memory operand */
	unsigned nelem;         /* gather: elements loaded */
	int has_mem;
	struct dag_mem mem;
	int nsrc, ndst;
	int src[DAG_MAX_SRC];   /* registers read (memory address regs are
				   in mem, not here) */
	int dst[DAG_MAX_DST];   /* registers written */
	long line;              /* line in the input file */
	unsigned long addr;     /* objdump address (0 in .s files) */
	char target[64];        /* branch target label ("" if none) */
	unsigned long target_addr; /* objdump branch target */
	int has_target_addr;
	char text[96];          /* the instruction as written, trimmed */
};

struct dag_label {
	char name[64];
	size_t at;              /* index of the next instruction */
};

/* A parsed assembly file: a flat list of instructions and labels. */
struct dag_prog {
	char file[256];
	int objdump;            /* 1: parsed from objdump -d output */
	struct dag_insn *insn;
	size_t n, cap;
	struct dag_label *label;
	size_t nlabel, labcap;
};

struct dag_prog *dag_prog_new(void);
void dag_prog_free(struct dag_prog *p);

/*
 * Parse AT&T assembly text (a gcc/clang .s file or an objdump -d listing;
 * detected per line) and append it to p.  'name' names the input in
 * errors ("file:line: unknown instruction 'foo'").  Directives and
 * comments are skipped; an instruction the front end does not know is an
 * error, never silently free.
 */
int dag_asm_parse(struct dag_prog *p, const char *text, size_t len,
		  const char *name, struct ppr_err *err);
int dag_asm_parse_file(struct dag_prog *p, const char *path,
		       struct ppr_err *err);

/* Parse one instruction (no label) into *out; for tests and the IR. */
int dag_insn_parse(const char *line, struct dag_insn *out, const char *name,
		   long lineno, struct ppr_err *err);

const char *dag_class_name(enum dag_class c);
const char *dag_reg_name(int reg);

/* ---- loops --------------------------------------------------------------- */

/*
 * A loop: instructions [begin, end) with insn[end-1] the backward branch
 * to insn[begin].  When the loop sits inside another loop, outer_* give
 * the enclosing loop (has_outer = 1).
 */
struct dag_loop {
	size_t begin, end;
	char label[64];
	int has_outer;
	size_t outer_begin, outer_end;
	char outer_label[64];
	int whole_file;         /* no backward branch: the whole file */
};

/*
 * Find the loop to analyse: the innermost loop (a label and the backward
 * branch to it; among several innermost loops the one with the most
 * floating-point work per iteration, then the most instructions: the
 * vectorised main loop rather than a remainder loop), the loop at 'label'
 * if non-NULL, or the whole file when there is no backward branch.
 */
int dag_loop_find(const struct dag_prog *p, const char *label,
		  struct dag_loop *loop, struct ppr_err *err);

/* ---- core model ---------------------------------------------------------- */

#define DAG_MAX_PORTS 16
#define DAG_MAX_QUEUES 4

/* Cost of one operation class. */
struct dag_cost {
	unsigned latency;   /* cycles from inputs ready to result ready */
	unsigned uops;      /* micro-ops issued (each on one port of 'ports') */
	uint32_t ports;     /* bit i: port i can execute a micro-op */
	unsigned occupancy; /* cycles each micro-op holds its port (1: fully
			       pipelined; dividers more; gathers: per 4
			       elements) */
	int valid;          /* 0: the class is not filled in */
};

/*
 * A core model.  Plain data: built-in tables (dag_core_builtin) or filled
 * from the "core" object of a machine file (machines/core_model.c).
 */
struct dag_core {
	char name[48];
	unsigned issue_width;    /* fused micro-ops renamed/dispatched per cycle */
	double issue_rate;       /* sustained dispatch per cycle on average,
				    below issue_width (0: issue_width): a
				    cycle dispatches the whole slots of the
				    credit it has accumulated, at most
				    issue_width */
	double load_rate;        /* loads issued per cycle on average, below
				    the load ports' count (0: no limit but
				    the ports) */
	/* Front end (0: none, dispatch is fed without limit).  A cycle
	   delivers one fetch block of at most fetch_width fused micro-ops
	   into an op queue of op_queue entries; a block ends after a loop
	   branch (a backward conditional branch, taken or leaving the loop:
	   the predictor ends a block at every branch it has seen taken).
	   fetch_rate: blocks per cycle on average (0: 1). */
	unsigned fetch_width;
	double fetch_rate;
	unsigned op_queue;
	unsigned retire_width;   /* micro-ops retired per cycle */
	unsigned rob_size;       /* reorder-buffer entries (micro-ops) */
	/* The window the BCSR selection's in-core points are scheduled in
	   (model/bcsr_select.c), below rob_size where the width-1 kernels'
	   block rows overlap less than the reorder buffer allows (fitted,
	   dag/core.c's zen5); 0: rob_size.  ppr dag does not use it. */
	unsigned bcsr_window;
	/* Physical registers free for renaming (the register file less the
	   architectural registers; 0: not modelled): every in-flight
	   instruction that writes a GPR or vector register holds one from
	   rename until it retires (the previous mapping of its destination
	   is freed then).  Eliminated moves and zero idioms hold none. */
	unsigned prf_free_gpr, prf_free_vec;
	/* Loads in flight from dispatch until they retire (a gather counts
	   one per element; 0: not modelled). */
	unsigned load_queue;
	unsigned sched_size;     /* scheduler (reservation station) entries */
	/* Separate scheduler queues inside the sched_size total (0 queues:
	   one unified scheduler).  A micro-op waits in the first queue
	   whose ports include one of its ports; a full queue stalls
	   dispatch (Zen: integer ALU and AGU schedulers). */
	unsigned nqueues;
	uint32_t queue_ports[DAG_MAX_QUEUES];
	unsigned queue_size[DAG_MAX_QUEUES];
	int load_holds_queue;    /* a load keeps its queue entry until its
				    data returns (issue + latency) */
	unsigned nports;
	char port_name[DAG_MAX_PORTS][12];
	struct dag_cost cost[DAG_NCLASSES];
	uint32_t load_ports;      /* ports executing load micro-ops */
	uint32_t vec_load_ports;  /* the subset that loads into vector/FP
				     registers (0: all load ports) */
	uint32_t store_addr_ports;
	uint32_t store_data_ports;
	unsigned vec_load_mix_width; /* loads issued in a cycle in which a
				       vector/FP load issues (0: no limit
				       beyond the load ports) */
	unsigned vec_load_slots;  /* load slots a vector/FP load takes of
				     the cycle's budget of one slot per
				     load port (0 or 1: no budget) */
	unsigned load_lat_gpr;    /* load-to-use latency into a GPR */
	unsigned load_lat_vec;    /* into a vector/FP register */
	unsigned load_lat_complex; /* extra cycles of a load whose address
				      has a scaled index (scale > 1) or
				      base + index + displacement */
	unsigned load_lat_sext;   /* extra cycles of a sign-extending GPR
				     load (movslq, movsbq...) */
	unsigned line_split_slots;   /* load slots of a line-crossing load */
	double line_split_mean;  /* load slots of a line-crossing load on
				    average, between whole slots (0:
				    line_split_slots) */
	unsigned line_split512_slots; /* of a line-crossing 64-byte load (0:
					 the larger of line_split_slots and
					 load512_slots) */
	unsigned line_split_latency; /* extra latency of a line-crossing load */
	unsigned store_forward_lat;  /* store -> dependent load */
	unsigned wide512_occupancy;  /* port cycles of a 512-bit FP/vector uop */
	unsigned load512_slots;      /* load slots of a 64-byte load */
	int move_elim_gpr;        /* reg-reg GPR moves eliminated at rename */
	int move_elim_vec;        /* reg-reg vector moves eliminated */
	int zero_idioms;          /* xor r,r etc. break dependencies, no port */
	int macro_fusion;         /* cmp/test/add/sub/and/inc/dec + jcc fuse */
	int unlaminate_indexed;   /* micro-fused load+op with an index register
				     splits into two fused-domain uops (Haswell) */
};

/* "haswell", "zen4", "zen5" (alias "zen") or "goldencove" (alias "glc");
   NULL if unknown. */
const struct dag_core *dag_core_builtin(const char *name);
/* Names of the built-in cores, NULL-terminated. */
const char *const *dag_core_builtin_names(void);
/* Check a core for consistency (ports in range, widths > 0...). */
int dag_core_check(const struct dag_core *c, struct ppr_err *err);
/* Index of the class named 'name' ("fp_fma"...) or -1. */
int dag_class_from_name(const char *name);

/* ---- scheduler ----------------------------------------------------------- */

enum dag_align {
	DAG_ALIGN_EXPECTED = 0, /* unaligned vector loads of unknown alignment
				   split a line at the expected rate
				   (size - element) / line */
	DAG_ALIGN_ALIGNED,      /* no load crosses a line */
	DAG_ALIGN_SPLIT,        /* every unaligned-capable vector load of 32 B
				   or more crosses a line (the paper's
				   assumption for _mm256_loadu_ps) */
};

struct dag_sched_opts {
	unsigned iterations;     /* loop iterations simulated (0: 200) */
	unsigned inner_trips;    /* > 0: schedule the enclosing loop with the
				    inner loop run this many times per outer
				    iteration */
	enum dag_align align;
	unsigned align_bytes;    /* DAG_ALIGN_EXPECTED: the loads start on
				    multiples of this many bytes (a power of
				    two below the line; 0 or <= the element
				    size: any element), so (size -
				    align_bytes) / line of them split */
	unsigned line_size;      /* 0: 64 */
};

enum dag_bottleneck {
	DAG_BOUND_PORTS = 0,     /* a port's throughput */
	DAG_BOUND_CHAIN,         /* a loop-carried dependency chain */
	DAG_BOUND_FRONTEND,      /* issue width */
	DAG_BOUND_WINDOW,        /* reorder window / latency not hidden */
};

#define DAG_MAX_CHAIN 64

struct dag_result {
	double cycles_per_iter;  /* steady state, per analysed iteration
				    (outer iteration when nested) */
	double cycles_per_inner; /* nested: per inner iteration; else = above */
	double ipc;              /* instructions per cycle */
	double uops_per_iter;    /* unfused micro-ops per iteration */
	double fused_per_iter;   /* fused-domain micro-ops per iteration */
	unsigned insns_per_iter;
	double port_pressure[DAG_MAX_PORTS]; /* port-cycles per iteration */
	double compute_cycles;   /* S_DAG(A, M, I_FMA) per iteration */
	double memory_cycles;    /* S_DAG(L, S) per iteration */
	double frontend_bound;   /* fused uops / issue rate (else width) */
	double port_bound;       /* max port pressure */
	double chain_bound;      /* critical loop-carried chain, cycles/iter */
	enum dag_bottleneck bottleneck;
	int bottleneck_port;     /* when DAG_BOUND_PORTS */
	size_t chain[DAG_MAX_CHAIN]; /* instruction indices of the chain */
	unsigned chain_len;
	int chain_reg;           /* register carried by the chain */
	unsigned iterations;     /* simulated */
	unsigned adds, muls, fmas, loads, stores; /* per iteration (eq. 1) */
	double flops_per_iter;   /* floating-point operations per iteration
				    (vector lanes counted, an FMA counts 2) */
	unsigned split_loads_x1000; /* line-crossing loads per 1000 iters */
};

int dag_sched_run(const struct dag_prog *p, const struct dag_loop *loop,
		  const struct dag_core *core,
		  const struct dag_sched_opts *opts, struct dag_result *out,
		  struct ppr_err *err);

const char *dag_bottleneck_name(enum dag_bottleneck b);

/* ---- paper mode ---------------------------------------------------------- */

/*
 * The paper's hand counts (ppr-model.md sections 4-5) from instruction
 * counts: 'kernel' is conv1 | conv2 | conv3 (per block of 16 outputs) or
 * csr (per nonzero).  Haswell figures: 2 FP ports, 2 loads + 1 store per
 * cycle, a 256-bit unaligned load takes two load slots, a dependent load
 * waits 3 cycles.
 */
struct dag_paper {
	const char *kernel;
	const char *unit;        /* "block of 16 outputs" / "nonzero" */
	unsigned adds, muls, fmas, loads, stores;
	double compute_cycles;
	double memory_cycles;
	const char *how;         /* one line: how the counts were made */
};

int dag_paper_eval(const char *kernel, const struct dag_core *core,
		   struct dag_paper *out, struct ppr_err *err);
/* Names accepted by dag_paper_eval, NULL-terminated. */
const char *const *dag_paper_kernels(void);

#endif
