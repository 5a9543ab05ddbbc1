/*
 * core.c - built-in core models (ports, latencies, widths) and checks.
 *
 * Notes:
 * - Figures are facts from public sources, named per table; where a source
 *   gives a range (load latency by addressing mode, divider latency by
 *   operand) the table takes the value the project's kernels hit (indexed
 *   addressing; double-precision divide).
 * - One cost per operation class, not per instruction form: a class's
 *   micro-ops all share one port set.  Loads and stores are separate
 *   micro-ops added by the scheduler (load ports, store-address and
 *   store-data ports), so "vfmadd231pd (%rax),%ymm1,%ymm0" is a load
 *   micro-op plus an FP_FMA micro-op.
 * - A class with valid = 0 is absent on that core (AVX-512 mask
 *   operations on Haswell): scheduling it is an error, not free.
 */
#include <string.h>

#include "dag/dag.h"
#include "dag/dag_int.h"

#define P(n) (1u << (n))
#define C(lat, n, ports, occ) { (lat), (n), (ports), (occ), 1 }

/*
 * Haswell (the paper's Xeon E5-2680 v3).  Sources: Intel 64 and IA-32
 * Architectures Optimization Reference Manual (Haswell chapter: 8 ports,
 * 4-wide rename, 192-entry ROB, 60-entry scheduler, 2 loads + 1 store per
 * cycle, port 7 store-address for simple addresses, FMA on p0/p1 latency
 * 5, FP add on p1 latency 3, shuffles on p5, move elimination and zero
 * idioms); Agner Fog's instruction tables and uops.info for the per-class
 * latencies (load-to-use 5 cycles GPR with an index register, 6 for
 * vector registers; lea with three terms 3 cycles on p1; vperm* lane
 * crossing 3 cycles on p5; divider figures for vdivpd ymm).
 */
static const struct dag_core haswell = {
	.name = "haswell",
	.issue_width = 4,
	.retire_width = 4,
	.rob_size = 192,
	.sched_size = 60,
	.nports = 8,
	.port_name = { "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7" },
	.cost = {
		[DAG_NOP] = C(0, 0, 0, 1),
		[DAG_INT_ALU] = C(1, 1, P(0) | P(1) | P(5) | P(6), 1),
		[DAG_INT_SHIFT] = C(1, 1, P(0) | P(6), 1),
		[DAG_INT_MUL] = C(3, 1, P(1), 1),
		[DAG_INT_DIV] = C(36, 1, P(0), 20),
		[DAG_LEA] = C(1, 1, P(1) | P(5), 1),
		[DAG_LEA3] = C(3, 1, P(1), 1),
		[DAG_MOV] = C(1, 1, P(0) | P(1) | P(5) | P(6), 1),
		[DAG_BRANCH] = C(1, 1, P(6), 1),
		[DAG_CALL] = C(1, 1, P(6), 1),
		[DAG_LOAD] = C(0, 0, 0, 1),
		[DAG_STORE] = C(0, 0, 0, 1),
		[DAG_PREFETCH] = C(0, 0, 0, 1),
		[DAG_FP_ADD] = C(3, 1, P(1), 1),
		[DAG_FP_MUL] = C(5, 1, P(0) | P(1), 1),
		[DAG_FP_FMA] = C(5, 1, P(0) | P(1), 1),
		[DAG_FP_DIV] = C(13, 1, P(0), 7),
		[DAG_FP_DIVD] = C(20, 1, P(0), 14),
		[DAG_FP_CVT] = C(4, 1, P(1), 1),
		[DAG_VEC_MOV] = C(1, 1, P(0) | P(1) | P(5), 1),
		[DAG_VEC_LOGIC] = C(1, 1, P(0) | P(1) | P(5), 1),
		[DAG_VEC_INT] = C(1, 1, P(1) | P(5), 1),
		[DAG_VEC_SHUF] = C(1, 1, P(5), 1),
		[DAG_VEC_PERM] = C(3, 1, P(5), 1),
		/* gathers: occupancy per 4 elements (Agner Fog: vgatherdpd ymm
		   about one per 4-5 cycles on Haswell) */
		[DAG_VEC_GATHER] = C(6, 1, P(0) | P(5), 4),
		[DAG_VZEROUPPER] = C(0, 4, P(0) | P(1) | P(5) | P(6), 1),
		/* no AVX-512 on Haswell: DAG_MASK_OP left invalid */
	},
	.load_ports = P(2) | P(3),
	.store_addr_ports = P(2) | P(3) | P(7),
	.store_data_ports = P(4),
	.load_lat_gpr = 5,
	.load_lat_vec = 6,
	.line_split_slots = 2,
	.line_split_latency = 4,
	.store_forward_lat = 5,
	.wide512_occupancy = 1,
	.load512_slots = 1,
	.move_elim_gpr = 1,
	.move_elim_vec = 1,
	.zero_idioms = 1,
	.macro_fusion = 1,
	.unlaminate_indexed = 1,
};

/*
 * AMD Zen 5 (family 1Ah: the EPYC 9005 "Turin" this project's tests run
 * on).  Sources: AMD Software Optimization Guide for the AMD Zen5
 * Microarchitecture (pub. 58455: 8-wide dispatch, 448-entry retire queue,
 * 6 ALUs with 3 branch units, 4 AGUs, 4 loads / 2 stores per cycle, two
 * of them 512-bit, a full-width 512-bit FP datapath with FP0/FP1
 * multiply-FMA, FP2/FP3 add, FP4/FP5 store-data and FP-to-int, move
 * elimination and zero idioms, cmp/test+jcc fusion); FP add 2 cycles and
 * FMA 4 cycles, L1 load-to-use 4 cycles integer and 7 cycles FP, as
 * published for Zen 5.  Measured here with bench/dag_lat.sh (core clock
 * from a dependent-add chain): FP add 2, mul 3, FMA 4, GPR load 4 cycles;
 * 4 GPR loads but only 2 FP/vector loads (scalar, xmm or ymm) per cycle,
 * hence vec_load_ports = 2 of the 4 AGUs; 2 stores per cycle; a store and
 * a reload of the same stack slot cost nothing (memory renaming), hence
 * store_forward_lat 0.
 * Ports: 0-5 ALU0-5, 6-9 AGU0-3, 10-15 FP0-5.
 */
#define ZALU (P(0) | P(1) | P(2) | P(3) | P(4) | P(5))
#define ZAGU (P(6) | P(7) | P(8) | P(9))
#define ZFP(n) P(10 + (n))

/*
 * Zen 4 (EPYC 9004 "Genoa", family 19h models 10h-1Fh).  Sources: AMD
 * Software Optimization Guide for AMD Family 19h processors (pub. 56665:
 * 6 macro-ops dispatched per cycle, 320-entry retire queue retiring 8,
 * 4 ALUs, 3 AGUs and at most 3 memory operations per cycle of which 2
 * stores, FP0/FP1 multiply and FMA, FP2/FP3 add, FP4/FP5 store data and
 * conversions, 512-bit operations on 256-bit datapaths, i.e. two
 * cycles); Chips and Cheese's Zen 4 articles (2022) for the integer
 * schedulers (four 24-entry queues shared by the ALUs and AGUs).
 * Measured here (bench/dag_lat.sh on the test guest's Zen 4 host,
 * 2026-11-26, core clock from a dependent-add chain): FP add 3, mul 3,
 * FMA 4, GPR load 4, vector load 7 cycles (a load + vmovq chain 9);
 * 2 FMA and 2 FP adds per cycle; 3 GPR loads but 2 vector loads per
 * cycle, and mixes of 4 loads of both kinds 1.46-1.50 cycles (3 load
 * ports, 2 of them for vector loads: 1.33); a store and a reload of the
 * same stack slot nearly free (memory renaming, a 1-cycle round trip);
 * a loop of 48 eliminated moves, or of loads and FP operations, 6
 * instructions per cycle.
 * Ports: 0-3 ALU0-3, 4-6 AGU0-2, 7-12 FP0-5.
 */
#define Z4ALU (P(0) | P(1) | P(2) | P(3))
#define Z4AGU (P(4) | P(5) | P(6))
#define Z4FP(n) P(7 + (n))

static const struct dag_core zen4 = {
	.name = "zen4",
	/* AMD gives 6 macro-ops dispatched per cycle from an op cache that
	   delivers 9 (AnandTech's Zen 4 review).  Measured here
	   (2026-11-26, loops in L1, thread CPU time, clock from an add
	   chain): a loop of 2 to 5 macro-ops runs 1.06 cycles an iteration
	   whatever its body, and nested rows of L iterations (L + 1) x 1.06
	   cycles a row: one fetch block a cycle, ending at every loop
	   branch, the inner loop's exit too (fetch_width 9, fetch_rate
	   0.94).  Without that front end, 5.5 macro-ops a cycle sustained
	   had been fitted (issue_rate): it priced BCSR 1x1 rows of 7 blocks
	   8% fast and 2x1 ones 8% slow (bench/dag_bcsr_grid.sh on
	   gen:banded:n=2000,bw=3: measured / model 1.08 and 0.91; now 1.03
	   and 1.00).  Dispatch is now AMD's 6. */
	.issue_width = 6,
	.fetch_width = 9,
	.fetch_rate = 0.94,
	/* 3 load ports, but loops that keep all three busy do not sustain
	   3 a cycle: gcc's CSR loop (6 loads per 2 nonzeros) runs 11.45,
	   19.97 and 79.0 cycles a row of 8, 16 and 64 nonzeros in L1
	   (measured here, 2026-11-26); modelled 11.21, 20.80, 78.40 with
	   2.5 loads a cycle on average, 10.68, 18.65, 67.50 without the
	   limit.  A fit, not AMD's figure */
	.load_rate = 2.5,
	.retire_width = 8,
	.rob_size = 320,
	/* Not modelled (prf_free_gpr, prf_free_vec, load_queue 0), though
	   measured: AMD gives 224 integer and 192 FP/vector physical
	   registers, Chips and Cheese ("Zen 4 part 2", 2022) 136 loads in
	   flight.  Measured here (2026-11-28, bench/dag_lat.sh "window":
	   two pointer chases missing to DRAM with N independent writers
	   after each; the misses overlap while the writers fit, 170-200 ns
	   an iteration, and do not beyond, 340-360 ns): lea into GPRs
	   overlap up to N = 202 and not from 204, vpaddq into xmm up to
	   152 and not from 156 (154 half), L1-hit loads up to 132 and not
	   from 136, where the 320-entry ROB allows 318; zero idioms and
	   eliminated moves take no register (300 overlap); FP adds waiting
	   on a miss overlap fully at N = 64, partly at 96-122 (233-267
	   ns), not from 128 (a 64-entry FP scheduler and 64 more queued).
	   With 204 / 154 / 134 the model prices the BCSR kernels on rows
	   of 32 blocks (values in L2, x in L1) closer to measured (1x1
	   -10.0% -> -2.4%, 2x1 -17.8% -> -11.9%, 4x1 -13.0% -> -10.8%), CSR
	   SpMV and the convolution the same, but ppr bcsr picks worse: on
	   the two stored passes of 2026-11-27 the mean share of the best
	   goes 0.9941 / 0.9935 -> 0.9927 / 0.9918 and bcsstk16 from 6x1,
	   its best, to 3x3 at 0.947 / 0.933.  6x1 is priced right then
	   (10.84 GFLOPS predicted, 10.40 measured; 12.22 before) and 3x3
	   stays 17% fast (11.34 against 9.70), an error of its own: its
	   block's loop body, 8 blocks unrolled, runs 49.5 cycles measured
	   and 46.1 modelled, without its 5 shuffles a block 42.9 and 43.1.
	   A machine file can set them ("free_registers_gpr",
	   "free_registers_vec", "load_queue"). */
	/* 4 x 24 integer entries and the FP scheduler's 64.  The queues
	   measured here (bench/dag_lat.sh, "scheduler fill"): lea waiting
	   on a 12-cycle imul chain fit 96 ALU entries (N = 16..96 within
	   0-19%); loads waiting on it fit an AGU queue of 32 whose loads
	   keep their entries until the data returns (5 of 6 cases within
	   2%; N = 48 measured 33.6 cycles, 48 modelled).  FP ops have a
	   queue too ("FP fill": N vaddsd waiting on a chain of 12 vmulsd
	   ran 9.1, 13.2, 17.0, 22.0, 29.5, 40.0, 57.0, 74.4 cycles an
	   iteration at N = 8, 16, 24, 32, 48, 64, 96, 128, 2026-11-27;
	   6.0 ... 64 modelled without a queue, 7.0 ... 69 with one of 64),
	   but not modelled: with it BCSR 6x1 is predicted up to 7.7%
	   slower and bcsstk16's pick moves from 6x1, its measured best, to
	   3x3 at 0.933 of it (the pass of 23:27 re-predicted); nothing
	   else the product predicts moves */
	.sched_size = 160,
	.nqueues = 2,
	.queue_ports = { Z4ALU, Z4AGU },
	.queue_size = { 96, 32 },
	.load_holds_queue = 1,
	.nports = 13,
	.port_name = { "alu0", "alu1", "alu2", "alu3",
		       "agu0", "agu1", "agu2",
		       "fp0", "fp1", "fp2", "fp3", "fp4", "fp5" },
	.cost = {
		[DAG_NOP] = C(0, 0, 0, 1),
		[DAG_INT_ALU] = C(1, 1, Z4ALU, 1),
		[DAG_INT_SHIFT] = C(1, 1, Z4ALU, 1),
		[DAG_INT_MUL] = C(3, 1, P(1), 1),
		[DAG_INT_DIV] = C(14, 1, P(2), 7),
		[DAG_LEA] = C(1, 1, Z4ALU, 1),
		[DAG_LEA3] = C(2, 1, Z4ALU, 1),
		[DAG_MOV] = C(1, 1, Z4ALU, 1),
		[DAG_BRANCH] = C(1, 1, P(0) | P(3), 1),
		[DAG_CALL] = C(1, 1, P(0) | P(3), 1),
		[DAG_LOAD] = C(0, 0, 0, 1),
		[DAG_STORE] = C(0, 0, 0, 1),
		[DAG_PREFETCH] = C(0, 0, 0, 1),
		[DAG_FP_ADD] = C(3, 1, Z4FP(2) | Z4FP(3), 1),
		[DAG_FP_MUL] = C(3, 1, Z4FP(0) | Z4FP(1), 1),
		[DAG_FP_FMA] = C(4, 1, Z4FP(0) | Z4FP(1), 1),
		[DAG_FP_DIV] = C(10, 1, Z4FP(1), 3),
		[DAG_FP_DIVD] = C(13, 1, Z4FP(1), 5),
		[DAG_FP_CVT] = C(3, 1, Z4FP(2) | Z4FP(3), 1),
		[DAG_VEC_MOV] = C(1, 1, Z4FP(0) | Z4FP(1) | Z4FP(2) |
				  Z4FP(3), 1),
		[DAG_VEC_LOGIC] = C(1, 1, Z4FP(0) | Z4FP(1) | Z4FP(2) |
				    Z4FP(3), 1),
		[DAG_VEC_INT] = C(1, 1, Z4FP(0) | Z4FP(1) | Z4FP(2) |
				  Z4FP(3), 1),
		/* measured here: 3 in-lane shuffles (vshufpd ymm) per
		   cycle */
		[DAG_VEC_SHUF] = C(1, 1, Z4FP(1) | Z4FP(2) | Z4FP(3), 1),
		[DAG_VEC_PERM] = C(3, 1, Z4FP(1) | Z4FP(2), 1),
		/* measured here (4 independent gathers per iteration,
		   L1-resident, thread CPU time, clock from an add chain):
		   vgatherdpd ymm 5.0 cycles each, zmm 9.0 (modelled 10:
		   twice the ymm's, wide512_occupancy) */
		[DAG_VEC_GATHER] = C(6, 1, Z4FP(4), 5),
		[DAG_MASK_OP] = C(1, 1, Z4FP(0) | Z4FP(1), 1),
		[DAG_VZEROUPPER] = C(0, 1, Z4FP(0) | Z4FP(1) | Z4FP(2) |
				     Z4FP(3), 1),
	},
	.load_ports = Z4AGU,
	.vec_load_ports = P(4) | P(5),
	.store_addr_ports = Z4AGU,
	.store_data_ports = Z4FP(4) | Z4FP(5),
	.vec_load_slots = 0,
	.load_lat_gpr = 4,
	.load_lat_vec = 7,
	/* not measured on this core: Zen 5's (+1 with a scaled index or
	   base + index + displacement, +1 sign-extending) */
	.load_lat_complex = 1,
	.load_lat_sext = 1,
	.line_split_slots = 2,
	/* measured here: 32-byte loads streaming over 16 KiB at 4, 8, 12,
	   16 and 20-byte steps (a line crossed by 44, 38, 44, 25, 44% of
	   them) cost 2.2, 2.4, 2.3, 3.1 and 2.5 slots per crossing load:
	   2.5 on average (kernels/conv_avx2.c's loops: unaligned 4-byte
	   steps, aligned 16-byte) */
	.line_split_mean = 2.5,
	/* measured here: 16 line-crossing zmm loads 26.6 cycles (16
	   aligned 17.9), i.e. 3.3 slots of the 2 vector load ports each;
	   16 line-crossing ymm loads 18.2 cycles (2.3 slots) */
	.line_split512_slots = 3,
	.line_split_latency = 1,
	.store_forward_lat = 0,
	/* 512-bit operations on the 256-bit datapaths */
	.wide512_occupancy = 2,
	.load512_slots = 2,
	.move_elim_gpr = 1,
	.move_elim_vec = 1,
	.zero_idioms = 1,
	.macro_fusion = 1,
	.unlaminate_indexed = 0,
};

static const struct dag_core zen5 = {
	.name = "zen5",
	/* AMD gives 8-wide dispatch; measured here (bench/dag_lat.sh,
	   "front end"), a loop body with nothing else limiting sustains
	   6.6-6.9 instructions per cycle (48 eliminated moves, 4-byte nops,
	   or loads + FP adds + FP muls per iteration), never 8: 7 */
	.issue_width = 7,
	.retire_width = 8,
	/* The BCSR selection's window (bcsr_window): 224, half AMD's
	   448-entry retire queue, which ppr dag keeps.  Measured here
	   (bench/dag_lat.sh "window", two pointer chases missing to DRAM
	   with N writers between them, 2026-12-04): zero idioms overlap
	   the misses up to 430 (the 448), GPR writers up to about 198,
	   vector writers 380-420, L1-hit loads about 190, FP adds waiting
	   on the miss 64 fully and up to about 190 partly.  None of those
	   limits, modelled (free_registers_gpr, free_registers_vec,
	   load_queue), moves the BCSR loops below; a
	   window of 224 does: the 1x1 and 2x1 kernels on rows of constant
	   length in L1 (gen:random, x in 4 KB), cycles a block measured /
	   with 448 / with 224: 1x1 rows of 64 1.40 / 1.25 / 1.41, of 128
	   1.58 / 1.34 / 1.58; 2x1 block rows of 32 blocks 1.50 / 1.35 /
	   1.48, of 62 1.59 / 1.32 / 1.57 (shorter rows are not moved).
	   Which structure it is was not found (an FP queue of 36 over
	   fp0-fp3 fits as well but contradicts the 64 waiting FP adds; a
	   sibling SMT thread halving the retire queue does not show in the
	   zero-idiom test).  Rescored on the two stored `ppr bcsr --measure`
	   passes of 2026-12-04 (model/README.md): windows of 192-288 pick
	   the same shapes, mean share of the best 0.9874 -> 0.9930 and
	   0.9819 -> 0.9887, least 0.839 -> 0.882 and 0.815 -> 0.887.  As
	   the core's whole window it would take other chain-bound loops
	   off (bench/dag_accuracy.sh, CSR rows of 64 in L1: clang's 1.49
	   -> 2.16 cycles a nonzero, measured 1.54; gcc's 1.31 -> 1.45,
	   measured 1.22), so it is the BCSR points' only. */
	.rob_size = 448,
	.bcsr_window = 224,
	.sched_size = 200,
	/* ALU and AGU schedulers, measured here (bench/dag_lat.sh,
	   "scheduler fill"): N loads whose address waits on a 36-cycle imul
	   chain stall dispatch once about 48 are waiting (N = 8..96, 12%
	   from the measured times with loads holding their entry until the
	   data returns; 19% if they left at issue); the same test with
	   dependent lea fits 72-88 ALU entries (88 taken).  FP ops showed no
	   queue limit (up to 96 waiting, port-bound): none modelled. */
	.nqueues = 2,
	.queue_ports = { ZALU, ZAGU },
	.queue_size = { 88, 48 },
	.load_holds_queue = 1,
	.nports = 16,
	.port_name = { "alu0", "alu1", "alu2", "alu3", "alu4", "alu5",
		       "agu0", "agu1", "agu2", "agu3",
		       "fp0", "fp1", "fp2", "fp3", "fp4", "fp5" },
	.cost = {
		[DAG_NOP] = C(0, 0, 0, 1),
		[DAG_INT_ALU] = C(1, 1, ZALU, 1),
		[DAG_INT_SHIFT] = C(1, 1, ZALU, 1),
		[DAG_INT_MUL] = C(3, 1, P(1) | P(2) | P(3), 1),
		[DAG_INT_DIV] = C(14, 1, P(2), 7),
		[DAG_LEA] = C(1, 1, ZALU, 1),
		[DAG_LEA3] = C(2, 1, ZALU, 1),
		[DAG_MOV] = C(1, 1, ZALU, 1),
		[DAG_BRANCH] = C(1, 1, P(0) | P(1) | P(2), 1),
		[DAG_CALL] = C(1, 1, P(0) | P(1) | P(2), 1),
		[DAG_LOAD] = C(0, 0, 0, 1),
		[DAG_STORE] = C(0, 0, 0, 1),
		[DAG_PREFETCH] = C(0, 0, 0, 1),
		[DAG_FP_ADD] = C(2, 1, ZFP(2) | ZFP(3), 1),
		[DAG_FP_MUL] = C(3, 1, ZFP(0) | ZFP(1), 1),
		[DAG_FP_FMA] = C(4, 1, ZFP(0) | ZFP(1), 1),
		[DAG_FP_DIV] = C(10, 1, ZFP(1), 3),
		[DAG_FP_DIVD] = C(13, 1, ZFP(1), 5),
		[DAG_FP_CVT] = C(3, 1, ZFP(2) | ZFP(3), 1),
		[DAG_VEC_MOV] = C(1, 1, ZFP(0) | ZFP(1) | ZFP(2) | ZFP(3), 1),
		[DAG_VEC_LOGIC] = C(1, 1, ZFP(0) | ZFP(1) | ZFP(2) | ZFP(3), 1),
		[DAG_VEC_INT] = C(1, 1, ZFP(0) | ZFP(1) | ZFP(2) | ZFP(3), 1),
		/* in-lane shuffles on all four FP pipes: measured here
		   (bench/dag_lat.sh) 4 per cycle for vunpckhpd, vpermilpd,
		   vshufpd, vshufps, vpshufd, vmovddup (xmm, ymm, zmm); the
		   class also holds vmovd/vmovq GPR->xmm, measured 1 per
		   cycle, which the kernels do not use */
		[DAG_VEC_SHUF] = C(1, 1, ZFP(0) | ZFP(1) | ZFP(2) | ZFP(3), 1),
		[DAG_VEC_PERM] = C(3, 1, ZFP(1) | ZFP(2), 1),
		/* gathers: one gather unit, occupancy per 4 elements.
		   Measured here with thread CPU time (4 independent gathers
		   per iteration, L1-resident, core clock from an add chain):
		   vgatherdpd ymm 4.00 cycles each, zmm 7.0, stable across
		   runs.  Two ports at 5 (the earlier noisy estimate) made
		   them 2.5 cycles and BCSR/CSR with gathers up to 39% fast.
		   The unit is modelled as the fp4 slot, which otherwise only
		   takes store data (fp5 takes that too). */
		[DAG_VEC_GATHER] = C(6, 1, ZFP(4), 4),
		[DAG_MASK_OP] = C(1, 1, ZFP(0) | ZFP(1), 1),
		[DAG_VZEROUPPER] = C(0, 1, ZFP(0) | ZFP(1) | ZFP(2) | ZFP(3), 1),
	},
	.load_ports = ZAGU,
	.vec_load_ports = P(6) | P(7),
	.store_addr_ports = ZAGU,
	.store_data_ports = ZFP(4) | ZFP(5),
	/* measured here (bench/dag_lat.sh, "load mix", unrolled, L1):
	   4 GPR loads per cycle, 2 FP loads per cycle, and mixes cost
	   more than either: 2 FP + 2 GPR 1.41-1.61 cycles, 4 FP + 2 GPR
	   2.50, 4 FP + 3 GPR 2.76, 6 FP + 2 GPR 3.45-3.50, and gcc's CSR
	   pair of nonzeros (2 index loads, the 2 x loads they address, 2
	   value loads) 2.36-2.49.  An FP load takes 2 of the 4 load slots
	   of a cycle (vec_load_slots).  Until 2026-11-24 the rule was "at
	   most 3 loads in a cycle with an FP load", which gave that CSR
	   pair 2.00 cycles (in-core-bound CSR SpMV 12-17% fast); with the
	   slots, bench/dag_accuracy.sh's MAPE went from 5.0% (worst 15%,
	   CSR gcc) to 4.5% (worst 12%, BCSR 4x4 clang).  Interleaved
	   independent mixes (F G F G) run faster than the slots say
	   (1.17-1.37 cycles per 2 + 2 against 1.5): the mechanism is not
	   known, and compiled kernels' index loads feed their x loads. */
	.vec_load_slots = 2,
	.load_lat_gpr = 4,
	.load_lat_vec = 7,
	/* measured here (bench/dag_row.sh, load-to-load chains, L1):
	   base + displacement or base + index 4 cycles, a scaled index or
	   base + index + displacement 5, movslq / movsbq +1 more (6 for
	   movslq (b,i,4)), movzbl / movl none; vector loads also +1 with a
	   scaled index */
	.load_lat_complex = 1,
	.load_lat_sext = 1,
	.line_split_slots = 2,
	.line_split_latency = 1,
	.store_forward_lat = 0,
	.wide512_occupancy = 1,
	.load512_slots = 2,
	.move_elim_gpr = 1,
	.move_elim_vec = 1,
	.zero_idioms = 1,
	.macro_fusion = 1,
	.unlaminate_indexed = 0,
};

/*
 * Intel Golden Cove and its server successors (Sapphire Rapids, Emerald
 * Rapids' Raptor Cove, Granite Rapids' Redwood Cove: the same execution
 * core; Redwood Cove has a 64 KiB L1I).  Sources: Intel 64 and IA-32
 * Architectures Optimization Reference Manual (Golden Cove chapter:
 * 6-wide rename and allocation, 512-entry ROB, 8-wide retirement, 12
 * ports: ALUs on p0, p1, p5, p6 and p10, branches on p0 and p6, loads on
 * p2, p3 and p11, store addresses on p7 and p8, store data on p4 and p9,
 * FMA on p0 and p1, the new fast FP adders on p1 and p5, shuffles on
 * p5); Chips and Cheese's "Popping the Hood on Golden Cove" (2021: a
 * 97-entry math scheduler beside the memory schedulers, 3 loads a cycle,
 * 2 of them 512-bit); uops.info's Alder Lake-P tables (64-bit adds of
 * small immediates done in the renamer at no latency: not modelled, the
 * kernels' only such adds are pointer steps off the critical chain).
 * Measured here (bench/dag_lat.sh on this project's Granite Rapids
 * guest, 2026-12-01, clock from a register-add chain): FP add 2.00, mul
 * 3.00, FMA 3.98, GPR load 5.00 cycles, a vector load + vmovq 7.97 (the
 * vmovq 3, uops.info); 2 FMA and 2 FP adds a cycle; 3 ymm loads a cycle,
 * and mixes of FP and GPR loads 1.36 cycles per 4 (3 a cycle of either
 * kind); 2 stores a cycle; a store and a reload of the same stack slot
 * 0.5 cycles a pair (no forwarding latency); the four in-lane shuffles
 * of the test (vunpck[lh]pd, vpermilpd, vshufpd ymm) 0.75 cycles each,
 * between p5 alone (1.0) and p1 + p5 (0.5): p1 + p5 taken (below);
 * vgatherdpd ymm 2.42 cycles each; 48 eliminated moves or nops 6 a
 * cycle; lea writers (up to 220), vpaddq (up to 170) and L1-hit loads
 * (up to 150) all overlap two DRAM misses (no register-file or
 * load-queue limit reached), FP adds waiting on a miss up to 96 and not
 * from 122 (the 97-entry scheduler).
 * Ports: 0-11 p0-p11.
 */
#define GALU (P(0) | P(1) | P(5) | P(6) | P(10))
#define GVEC (P(0) | P(1) | P(5))

static const struct dag_core goldencove = {
	.name = "goldencove",
	.issue_width = 6,
	.retire_width = 8,
	.rob_size = 512,
	.sched_size = 167,
	/* the math scheduler and the memory ones (97 and 70 entries,
	   Chips and Cheese) */
	.nqueues = 2,
	.queue_ports = { GALU, P(2) | P(3) | P(11) | P(7) | P(8) },
	.queue_size = { 97, 48 },
	.load_holds_queue = 0,
	.nports = 12,
	.port_name = { "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8",
		       "p9", "p10", "p11" },
	.cost = {
		[DAG_NOP] = C(0, 0, 0, 1),
		[DAG_INT_ALU] = C(1, 1, GALU, 1),
		[DAG_INT_SHIFT] = C(1, 1, P(0) | P(6), 1),
		[DAG_INT_MUL] = C(3, 1, P(1), 1),
		[DAG_INT_DIV] = C(15, 1, P(1), 10),
		/* all five LEA units single-cycle, three-term forms too
		   (Intel's Golden Cove disclosure) */
		[DAG_LEA] = C(1, 1, GALU, 1),
		[DAG_LEA3] = C(1, 1, GALU, 1),
		[DAG_MOV] = C(1, 1, GALU, 1),
		[DAG_BRANCH] = C(1, 1, P(0) | P(6), 1),
		[DAG_CALL] = C(1, 1, P(6), 1),
		[DAG_LOAD] = C(0, 0, 0, 1),
		[DAG_STORE] = C(0, 0, 0, 1),
		[DAG_PREFETCH] = C(0, 0, 0, 1),
		[DAG_FP_ADD] = C(2, 1, P(1) | P(5), 1),
		[DAG_FP_MUL] = C(3, 1, P(0) | P(1), 1),
		[DAG_FP_FMA] = C(4, 1, P(0) | P(1), 1),
		[DAG_FP_DIV] = C(11, 1, P(0), 4),
		[DAG_FP_DIVD] = C(14, 1, P(0), 8),
		[DAG_FP_CVT] = C(4, 1, P(0) | P(1), 1),
		[DAG_VEC_MOV] = C(1, 1, GVEC, 1),
		[DAG_VEC_LOGIC] = C(1, 1, GVEC, 1),
		[DAG_VEC_INT] = C(1, 1, GVEC, 1),
		/* in-lane shuffles on p1 and p5: the four of bench/dag_lat.sh
		   run 0.75 cycles each, between p5 alone and both, but the 64
		   compiled BCSR kernels (bench/dag_bcsr_grid.sh on
		   gen:banded:n=200,bw=10, 2026-12-01) put them on both: with
		   p5 alone shapes of r and c >= 2 ran 0.75-0.93 of the model's
		   cycles (median |error| 16.3%), with p1 + p5 0.92-1.11 (5.5%) */
		[DAG_VEC_SHUF] = C(1, 1, P(1) | P(5), 1),
		[DAG_VEC_PERM] = C(3, 1, P(5), 1),
		/* measured 2.42 cycles a ymm gather: 2 whole cycles of one
		   port */
		[DAG_VEC_GATHER] = C(8, 1, P(0), 2),
		[DAG_MASK_OP] = C(1, 1, P(0) | P(5), 1),
		[DAG_VZEROUPPER] = C(0, 1, GVEC, 1),
	},
	.load_ports = P(2) | P(3) | P(11),
	.store_addr_ports = P(7) | P(8),
	.store_data_ports = P(4) | P(9),
	.load_lat_gpr = 5,
	.load_lat_vec = 5,
	.line_split_slots = 2,
	.line_split_latency = 2,
	.store_forward_lat = 0,
	/* 512-bit FMAs on p0 (p0 and p1 fused) and p5; 2 of the 3 load
	   ports take 64-byte loads: 1 slot each (not modelled finer) */
	.wide512_occupancy = 1,
	.load512_slots = 1,
	.move_elim_gpr = 1,
	.move_elim_vec = 1,
	.zero_idioms = 1,
	.macro_fusion = 1,
	.unlaminate_indexed = 1,
};

static const char *const builtin_names[] = { "haswell", "zen4", "zen5", "zen",
					      "goldencove", NULL };

const struct dag_core *dag_core_builtin(const char *name)
{
	if (!name)
		return NULL;
	if (!strcmp(name, "haswell") || !strcmp(name, "hsw"))
		return &haswell;
	if (!strcmp(name, "zen4"))
		return &zen4;
	if (!strcmp(name, "zen5") || !strcmp(name, "zen"))
		return &zen5;
	if (!strcmp(name, "goldencove") || !strcmp(name, "glc"))
		return &goldencove;
	return NULL;
}

const char *const *dag_core_builtin_names(void)
{
	return builtin_names;
}

static const char *const class_names[DAG_NCLASSES] = {
	[DAG_NOP] = "nop",
	[DAG_INT_ALU] = "int_alu",
	[DAG_INT_SHIFT] = "int_shift",
	[DAG_INT_MUL] = "int_mul",
	[DAG_INT_DIV] = "int_div",
	[DAG_LEA] = "lea",
	[DAG_LEA3] = "lea3",
	[DAG_MOV] = "mov",
	[DAG_BRANCH] = "branch",
	[DAG_CALL] = "call",
	[DAG_LOAD] = "load",
	[DAG_STORE] = "store",
	[DAG_PREFETCH] = "prefetch",
	[DAG_FP_ADD] = "fp_add",
	[DAG_FP_MUL] = "fp_mul",
	[DAG_FP_FMA] = "fp_fma",
	[DAG_FP_DIV] = "fp_div",
	[DAG_FP_DIVD] = "fp_divd",
	[DAG_FP_CVT] = "fp_cvt",
	[DAG_VEC_MOV] = "vec_mov",
	[DAG_VEC_LOGIC] = "vec_logic",
	[DAG_VEC_INT] = "vec_int",
	[DAG_VEC_SHUF] = "vec_shuf",
	[DAG_VEC_PERM] = "vec_perm",
	[DAG_VEC_GATHER] = "vec_gather",
	[DAG_MASK_OP] = "mask_op",
	[DAG_VZEROUPPER] = "vzeroupper",
};

const char *dag_class_name(enum dag_class c)
{
	if ((int)c < 0 || c >= DAG_NCLASSES)
		return "?";
	return class_names[c];
}

int dag_class_from_name(const char *name)
{
	for (int i = 0; i < DAG_NCLASSES; i++)
		if (!strcmp(class_names[i], name))
			return i;
	return -1;
}

int dag_core_check(const struct dag_core *c, struct ppr_err *err)
{
	uint32_t all;

	if (!c->nports || c->nports > DAG_MAX_PORTS)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s': ports must be 1..%d", c->name,
				   DAG_MAX_PORTS);
	all = c->nports == 32 ? ~0u : (1u << c->nports) - 1;
	if (!c->issue_width || !c->retire_width || !c->rob_size ||
	    !c->sched_size)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s': issue/retire width, rob and "
				   "scheduler size must be positive", c->name);
	if (c->issue_rate < 0 || c->issue_rate > c->issue_width ||
	    (c->issue_rate > 0 && c->issue_rate < 1))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s': issue rate must be 1..issue "
				   "width, or 0", c->name);
	if (c->fetch_rate < 0 || c->fetch_rate > 1 || c->load_rate < 0 ||
	    (c->op_queue && c->op_queue < c->fetch_width))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s': fetch rate must be 0..1, load "
				   "rate not negative, op queue at least the "
				   "fetch width", c->name);
	if (c->line_split_mean < 0 ||
	    (c->line_split_mean > 0 && c->line_split_mean < 1))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s': line-split load slots on average "
				   "must be 1 or more, or 0", c->name);
	if (c->nqueues > DAG_MAX_QUEUES)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s': at most %d scheduler queues",
				   c->name, DAG_MAX_QUEUES);
	for (unsigned q = 0; q < c->nqueues; q++)
		if (!c->queue_ports[q] || (c->queue_ports[q] & ~all) ||
		    !c->queue_size[q])
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "core '%s': scheduler queue %u needs "
					   "ports in range and a positive size",
					   c->name, q + 1);
	if (!c->load_ports || (c->load_ports & ~all) ||
	    (c->vec_load_ports & ~c->load_ports) || !c->store_addr_ports ||
	    (c->store_addr_ports & ~all) || !c->store_data_ports ||
	    (c->store_data_ports & ~all))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "core '%s': load/store ports out of range",
				   c->name);
	for (int i = 0; i < DAG_NCLASSES; i++) {
		const struct dag_cost *k = &c->cost[i];

		if (!k->valid)
			continue;
		if ((k->ports & ~all) || (k->uops && !k->ports))
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "core '%s': class '%s' has no valid "
					   "port", c->name, class_names[i]);
		if (!k->occupancy)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "core '%s': class '%s' occupancy must "
					   "be positive", c->name, class_names[i]);
	}
	return 0;
}
