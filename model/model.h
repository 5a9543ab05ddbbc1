/*
 * model.h - the PPR model (eq. 1-4 of docs/ppr-model.md) and, on the same
 * inputs, the ECM model (Kerncraft's form) and the Roofline.
 *
 * Everything here is arithmetic over plain inputs: cycles from the DAG,
 * bytes and misses from the simulator, bandwidths from the machine file.
 * Cycles are core cycles; bandwidths are bytes per core cycle.
 */
#ifndef PPR_MODEL_H
#define PPR_MODEL_H

#include <stdint.h>

#include "common/ppr_err.h"

#define MODEL_MAX_LEVELS 4

enum model_bottleneck {
	MODEL_BOUND_COMPUTE = 0,  /* S_DAG(compute) is the larger term */
	MODEL_BOUND_MEMORY_INSTR, /* memory instructions dominate the memory side */
	MODEL_BOUND_REGULAR,      /* regular (prefetched) data transfer dominates */
	MODEL_BOUND_IRREGULAR,    /* irregular misses dominate */
	MODEL_BOUND_CORE,         /* the full in-core schedule (a dependency
				     chain through loads and arithmetic)
				     exceeds both sides (core_cycles) */
	MODEL_BOUND_LATE_LINES,   /* the loop waits for regular lines its
				     line-crossing loads find missing
				     (late_cycles, model/predict.c) */
};

/*
 * Inputs of one PPR evaluation.  Level i of the arrays is the cache level
 * i+1 (0: L1).  bw[i] is the bandwidth, in bytes per cycle, at which lines
 * come into level i from the level below it (bw[0]: L2->L1, bw[1]: L3->L2,
 * bw[nlevels-1]: memory->last level).
 */
struct model_ppr_in {
	double flops;             /* A + M + 2*I_FMA */
	double compute_cycles;    /* S_DAG(A, M, I_FMA) */
	double memory_cycles;     /* S_DAG(L, S) */
	double core_cycles;       /* optional (0: unused): the whole loop's
				     schedule, a lower bound on the time */
	double late_cycles;       /* optional (0: unused): the schedule
				     with the loads waiting for late lines
				     (model/predict.c), a lower bound too */
	double stall_cycles;      /* optional (0: none): cycles that no
				     overlap hides (branch mispredictions
				     flush the pipeline), added to eq. 4 */
	double regular_bytes;     /* bytes of regular (prefetchable) data */
	unsigned regular_from;    /* level the regular data comes from:
				     0 = L1 (no transfer), 1 = L2, ...,
				     nlevels = memory */
	/* Alternative to regular_bytes/regular_from when regular data comes
	 * from several levels: bytes by origin level (index as regular_from,
	 * 1..nlevels); used only when regular_bytes == 0. */
	double regular_by_origin[MODEL_MAX_LEVELS + 1];
	double irregular_misses[MODEL_MAX_LEVELS]; /* misses of irregular
						       data at each level */
	/* Optional (0: none), with overlap: of irregular_misses[i], those of
	 * far references (no prefetcher finds them, model/predict.c), and
	 * the cycles one costs beyond S_DAG(memory) when it misses level i
	 * and level i+1 (memory after the last) serves it; a far_cost of 0
	 * charges the link times of the lines it moves from beyond L2, as
	 * for the other irregular lines. */
	double far_misses[MODEL_MAX_LEVELS];
	double far_cost[MODEL_MAX_LEVELS];
	int overlap;              /* 0: eq. (4) as the paper, memory side =
				     S_DAG(L,S) + T_regular + T_irregular;
				     1: transfers overlap each other and the
				     memory instructions (AMD Zen), memory
				     side = max(S_DAG(L,S) + the irregular
				     lines from beyond L2, slowest link),
				     each link carrying the regular and
				     irregular lines that cross it */
	/* Optional (0: the paper's sum), without overlap: the share of the
	 * shorter of S_DAG(L,S) and T_regular + T_irregular that the longer
	 * hides, 0..1: memory side = S + T - hidden_share * min(S, T) (1:
	 * max(S, T)).  `ppr bcsr` takes it from the machine file
	 * (hierarchy.bcsr_hidden_share). */
	double hidden_share;
	/* Optional (0: none), with overlap: the share, 0..1, of S_DAG(L,S)
	 * plus the not-hidden cycles of what the caches serve (t_far less
	 * its references served by memory) that runs after the stream from
	 * memory instead of under it: the last link's time becomes that
	 * link's lines plus this share (model/ppr.c notes; model/predict.c
	 * computes it from memory.far_stream_serial). */
	double stream_serial;
	/* Optional (0: none), with overlap: cycles added to the last
	 * link's time with stream_serial's, for x's references that jump
	 * between its streams (model/predict.c computes them from
	 * memory.stream_jump_cycles). */
	double jump_cycles;
	unsigned nlevels;
	double bw[MODEL_MAX_LEVELS];
	unsigned line_size;
	double clock_ghz;
};

struct model_ppr_out {
	double t_process;     /* eq. 1: max(compute, memory instr), cycles */
	double t_regular;     /* eq. 2, cycles */
	double t_irregular;   /* eq. 3, cycles */
	double t_irr_level[MODEL_MAX_LEVELS]; /* eq. 3 term per level */
	double memory_side;   /* S_DAG(L,S) + T_regular + T_irregular, or
				 with overlap the max of S_DAG(L,S) plus
				 the irregular terms beyond L2, and
				 t_link[] */
	double t_link[MODEL_MAX_LEVELS]; /* overlap: cycles of the lines
					    crossing into level i */
	double t_far;         /* overlap: cycles added to S_DAG(memory) for
				 the irregular lines (from beyond L2, and
				 far references from any level) */
	double t_serial;      /* overlap: cycles added to the last link's
				 time (stream_serial's share), 0 without */
	int link_max;         /* overlap: the slowest link (-1: none) */
	double cycles;        /* eq. 4 denominator */
	double time_s;
	double gflops;
	enum model_bottleneck bottleneck;
};

/*
 * The narrowest bandwidth on the path from level 'from' (1..nlevels, or
 * nlevels for memory) to L2 (eq. 2's Min_Bandwidth); for from <= 1 (data
 * in L1 or L2) the L2->L1 bandwidth is the only link.
 */
double model_min_bandwidth(const double *bw, unsigned nlevels,
			   unsigned from);

int model_ppr_eval(const struct model_ppr_in *in, struct model_ppr_out *out,
		   struct ppr_err *err);

/*
 * Where the order of two predictions on one machine changes with the
 * memory bandwidth: a and b re-evaluated by eq. (1)-(4) with the last
 * link's bandwidth (memory into the last cache level) scaled by 1/16 ..
 * 16, their simulated traffic, in-core schedules and late lines kept as
 * predicted.  Returns 1 and sets *gbs to the bandwidth (GB/s: bytes per
 * cycle times the clock) at which their GFLOPS are equal, the crossing
 * nearest the predicted bandwidth (within 0.1%); 0 when the order is the
 * same over the whole range (or both are the same there: the memory link
 * does not bind either); PPR_EINVAL (negative) when a or b cannot be
 * evaluated or they are not on the same machine (levels, bandwidths,
 * clock).
 */
#define MODEL_CROSSOVER_RANGE 16.0
int model_ppr_mem_crossover(const struct model_ppr_in *a,
			    const struct model_ppr_in *b, double *gbs,
			    struct ppr_err *err);

/*
 * ECM in Kerncraft's form: T = max(T_OL, T_nOL + sum of transfer terms),
 * where the transfer term of level i is the bytes crossing into level i
 * divided by its bandwidth.
 */
struct model_ecm_in {
	double flops;
	double t_ol;          /* overlapping in-core cycles (arithmetic) */
	double t_nol;         /* non-overlapping cycles (loads/stores) */
	unsigned nlevels;
	double bytes[MODEL_MAX_LEVELS]; /* bytes into level i from below */
	double bw[MODEL_MAX_LEVELS];
	double clock_ghz;
};

struct model_ecm_out {
	double t_data[MODEL_MAX_LEVELS]; /* T_L1L2, T_L2L3, T_L3Mem, cycles */
	double cycles;
	double time_s;
	double gflops;
};

int model_ecm_eval(const struct model_ecm_in *in, struct model_ecm_out *out,
		   struct ppr_err *err);

/*
 * Roofline: min(peak, bandwidth x operational intensity).  The DRAM
 * roofline uses the bytes from memory; the cache-aware variant takes one
 * ceiling per level (bytes into that level and its bandwidth) and the
 * tightest wins.  The time is max(flops / peak, bytes / bandwidth of each
 * level), the same bound written as a time: it equals flops / gflops when
 * there are flops, and stays the traffic's time when there are none (a
 * kernel without flops gets 0 GFLOPS, not the peak).
 */
struct model_roofline_in {
	double flops;
	double peak_gflops;
	unsigned nlevels;        /* levels with traffic (last = memory) */
	double bytes[MODEL_MAX_LEVELS + 1];
	double bw_gbs[MODEL_MAX_LEVELS + 1]; /* GB/s per level */
};

struct model_roofline_out {
	double intensity[MODEL_MAX_LEVELS + 1]; /* flops/byte per level */
	double ceiling_gflops[MODEL_MAX_LEVELS + 1];
	double gflops;          /* min over peak and all ceilings; 0 without
				   flops */
	double time_s;          /* max(flops / peak, bytes / bandwidth) */
	int limiting;           /* -1: peak (or no work); else the level */
	double dram_intensity;  /* flops per byte from memory */
	double dram_gflops;     /* classic DRAM roofline */
};

int model_roofline_eval(const struct model_roofline_in *in,
			struct model_roofline_out *out, struct ppr_err *err);

const char *model_bottleneck_name(enum model_bottleneck b);

/* ---- machine detection (model/detect.c) ------------------------------ */

struct detect_cache {
	unsigned level;          /* 1, 2, 3 ... */
	char type[16];           /* "Data", "Instruction", "Unified" */
	uint64_t size;           /* bytes */
	uint32_t ways;
	uint64_t sets;
	uint32_t line_size;
};

#define DETECT_MAX_CACHES 8

/*
 * Read the caches of cpu0 from sysfs.  root is normally
 * "/sys/devices/system/cpu/cpu0/cache" (tests pass a fake tree).  Fills up
 * to DETECT_MAX_CACHES entries in index order.
 */
int detect_caches_sysfs(const char *root, struct detect_cache *out,
			unsigned *n, struct ppr_err *err);

/*
 * What CPUID said, as raw registers (EAX, EBX, ECX, EDX per leaf), so the
 * decoding runs on fixed values in tests.  Leaves the CPU does not have
 * are zero; det_leaf4[] is read only on GenuineIntel, det_amd[] only when
 * 0x80000001 ECX bit 22 (TOPOEXT) is set.
 */
#define DETECT_CPUID_SUBLEAVES 16
struct detect_cpuid_regs {
	char vendor[13];         /* CPUID 0 EBX EDX ECX, "GenuineIntel" */
	uint32_t max_leaf;       /* CPUID 0 EAX */
	uint32_t max_ext_leaf;   /* CPUID 0x80000000 EAX (0: none) */
	uint32_t ext1_ecx;       /* CPUID 0x80000001 ECX */
	uint32_t det_leaf4[DETECT_CPUID_SUBLEAVES][4];  /* leaf 4, subleaf i */
	uint32_t det_amd[DETECT_CPUID_SUBLEAVES][4];    /* 0x8000001D, subleaf i */
	uint32_t amd_l1[4];      /* 0x80000005 */
	uint32_t amd_l2l3[4];    /* 0x80000006 */
};

/* Where the caches came from and what was left out (for the user). */
struct detect_cpuid_note {
	const char *source;      /* static text naming the leaves used */
	char left_out[640];      /* "" or "L3 508 MiB: why; ..." */
	int partial;             /* a data/unified level exists nearer memory
				  * than the last one returned, left out */
	int legacy;              /* the ways (and so the sets) of levels 2
				  * and beyond come from AMD's legacy
				  * 0x80000006 codes */
};

/*
 * Associativity of an AMD 0x80000006 code (L2 ECX / L3 EDX bits 15:12):
 * the ways, or 0 (disabled), DETECT_ASSOC_SEE_1D (code 9), DETECT_ASSOC_FULL
 * (code 0xF) or DETECT_ASSOC_RESERVED (code 7).
 */
#define DETECT_ASSOC_SEE_1D   (-1)
#define DETECT_ASSOC_FULL     (-2)
#define DETECT_ASSOC_RESERVED (-3)
int detect_amd_assoc(unsigned code);

/*
 * Decode the caches from CPUID registers: Intel leaf 4 on GenuineIntel;
 * on AuthenticAMD / HygonGenuine leaf 0x8000001D when TOPOEXT is set and
 * it lists caches, else the legacy leaves 0x80000005 / 0x80000006 (never
 * their L3: see detect.c).  A level whose geometry is not known (and the
 * data levels beyond it) is left out and named in note->left_out; no
 * usable first-level data cache is PPR_ENOENT.  note may be NULL.
 */
int detect_caches_cpuid_decode(const struct detect_cpuid_regs *r,
			       struct detect_cache *out, unsigned *n,
			       struct detect_cpuid_note *note,
			       struct ppr_err *err);

/*
 * Whether a machine file's level (size_bytes, sets, ways, cl_size in
 * geo[]) describes the detected cache k: DETECT_BASE_SAME when all four
 * agree; DETECT_BASE_SIZE when k's ways came from AMD's legacy leaf
 * (legacy set, level 2 or beyond) and only the size and line agree (a
 * hypervisor's legacy code can differ from 0x8000001D's: see detect.c);
 * DETECT_BASE_OTHER otherwise.
 */
enum { DETECT_BASE_OTHER, DETECT_BASE_SAME, DETECT_BASE_SIZE };
int detect_base_level_match(const struct detect_cache *k, int legacy,
			    const double geo[4]);

/*
 * The same from this CPU's CPUID (x86-64 only: PPR_ENOTSUP elsewhere), for
 * machines whose sysfs has no cache description (virtual machines,
 * containers).
 */
int detect_caches_cpuid(struct detect_cache *out, unsigned *n,
			struct detect_cpuid_note *note, struct ppr_err *err);

/*
 * The built-in core model (dag_core_builtin) of a CPU from its CPUID vendor
 * string, leaf 1 EAX and leaf 7 (subleaf 0) EDX: "zen4" for AMD family
 * 19h models 10h-1Fh, 60h-7Fh and A0h-AFh (Genoa, Raphael, Phoenix,
 * Bergamo), "zen5" for family 1Ah, "haswell" for Intel family 6 models
 * 3Ch, 3Fh, 45h, 46h, "goldencove" for Intel family 6 models 8Fh, CFh,
 * ADh, AEh (Sapphire, Emerald, Granite Rapids) and for any other Intel
 * family 6 model whose leaf 7 EDX has AMX-TILE and AVX512-FP16 (a
 * hypervisor may show another model: this project's Granite Rapids guest
 * reads model A7h, Rocket Lake's, which has neither); NULL for any other.
 * *family and *model get the display family and model (either may be
 * NULL).
 */
const char *detect_core_decode(const char *vendor, uint32_t leaf1_eax,
			       uint32_t leaf7_edx, unsigned *family,
			       unsigned *model);

/* The same for this CPU (NULL off x86-64). */
const char *detect_core_name(unsigned *family, unsigned *model);

/* Summary of repeated timings. */
struct detect_stat {
	double min, median, max;
	unsigned runs;
};

/*
 * Core clock in GHz from chains of dependent integer adds (1-cycle latency
 * on every x86-64 core of the last two decades), timed with the thread's
 * CPU-time clock: cycles are counted by the chain, not read from the TSC.
 * The figures are GHz per run (higher = fewer stalls: take the median).
 */
int detect_core_clock(unsigned runs, struct detect_stat *ghz,
		      struct ppr_err *err);

/*
 * How far off one attempt of `ppr machine detect` is, as a share: the
 * larger of how far its clock moved from its start to its end (drift) and
 * how far its start clock ghz reads under the fastest reading of all the
 * attempts so far (fastest >= ghz; interruptions and other tenants only
 * slow the add chains).  The attempt with the least is written, and one
 * over the --drift-limit makes detect run again.
 */
double detect_attempt_offness(double ghz, double drift, double fastest);

/*
 * Which of n CPUs' clocks ghz[] (each the best of its add-chain runs; 0:
 * not measured) is the fastest: its index, the first of equals, or -1
 * when none was measured.  `ppr machine detect` measures on that CPU.
 */
int detect_fastest(const double *ghz, unsigned n);

/*
 * The add chains of detect_core_clock in n short windows of about
 * window_s each.  CPU time also counts time the thread loses to
 * interruptions (on a shared guest, a few per millisecond), so a window
 * that contains one runs slow: the fastest windows give the core's clock,
 * the share of windows within 2% of the fastest how often a run that
 * short is not interrupted.  detect_core_clock's 20 ms runs nearly always
 * are: their clock is the rate long runs get.  The 95th percentile is
 * the core's clock as short kernels (a least-of-runs SpMV of a few
 * microseconds to a millisecond) see it, without the fastest window
 * alone deciding it.
 */
struct detect_clock_windows {
	unsigned windows;
	double window_s;        /* measured length of one window */
	double fastest_ghz, median_ghz;
	double p95_ghz;         /* 95th percentile (nearest rank below) */
	double uninterrupted;   /* share of windows within 2% of the fastest */
};

int detect_clock_windows(unsigned n, double window_s,
			 struct detect_clock_windows *out,
			 struct ppr_err *err);

/* The summary of n per-window clock rates (sorts ghz); PPR_EINVAL when
 * n is 0.  window_s is left to the caller. */
int detect_clock_windows_summarise(double *ghz, unsigned n,
				   struct detect_clock_windows *out);

/*
 * Peak double-precision FMA throughput in flops per cycle, from many
 * independent 256-bit FMA chains (needs AVX2+FMA; PPR_ENOTSUP otherwise).
 */
int detect_fma_peak(double clock_ghz, unsigned runs, struct detect_stat *fpc,
		    struct ppr_err *err);

/* Read bandwidth over a working set of 'bytes' (GB/s per run). */
int detect_read_bandwidth(uint64_t bytes, unsigned runs,
			  struct detect_stat *gbs, struct ppr_err *err);

/*
 * memory.writeback_share: runs alternate a read stream over 'bytes' and a
 * copy of those bytes to another array of 'bytes' (plain loads and
 * stores: each byte copied is two fills, its source's and its
 * destination's (write-allocate), and one write-back).  With R the best
 * read rate and C the best copy rate (bytes copied per second), the
 * copy's time is (2 + share) x bytes / R: share = R / C - 2, clamped to
 * 0..1.  *read_gbs and *copy_gbs: R and C.
 */
int detect_writeback_share(uint64_t bytes, unsigned runs, double *share,
			   double *read_gbs, double *copy_gbs,
			   struct ppr_err *err);

/*
 * The first level's fill_load_cycles (model/predict.c: fills on the
 * loads): a stream of 6 loads a line (two from the stream, four that hit
 * L1; 16-byte loads without AVX: 4 + 4), its cycles per line with the
 * stream over l1_bytes (resident in L1) and over l2_bytes (in L2), best
 * of 'runs' each at clock_ghz: *cycles = the difference, at least 0.
 */
int detect_fill_load_cycles(uint64_t l1_bytes, uint64_t l2_bytes,
			    double clock_ghz, unsigned runs, double *cycles,
			    double *l1_cpl, double *l2_cpl,
			    struct ppr_err *err);

/*
 * The capacity of a cache level a program actually gets, when the level
 * is shared with cores it does not run on (a virtual machine's host runs
 * other tenants on the same L3): read bandwidth (median of runs) over
 * working sets from lo to hi bytes in steps of step; the level's own
 * figure is the median at lo, the figure below it the median at 'below'
 * bytes (memory: several times the level).  The usable capacity is where
 * the bandwidth first falls under the halfway point between the two,
 * interpolated linearly between the two working sets around it.
 */
#define DETECT_MAX_POINTS 64
struct detect_capacity {
	unsigned npoints;
	uint64_t ws[DETECT_MAX_POINTS];   /* working sets, bytes */
	double gbs[DETECT_MAX_POINTS];    /* median read bandwidth, GB/s */
	double level_gbs, below_gbs;      /* plateau and the level below */
	double bytes;                     /* usable capacity, bytes */
};
int detect_usable_capacity(uint64_t lo, uint64_t hi, uint64_t step,
			   uint64_t below, unsigned runs,
			   struct detect_capacity *out, struct ppr_err *err);
/*
 * A last level larger than this is taken to be a virtual machine shown its
 * host's whole L3, of which the guest gets a small share (this project's
 * Granite Rapids guest, 2026-12-01: 480 MiB shown, read bandwidth falling
 * between 60 and 90 MiB).  `ppr machine detect` sweeps it in two passes
 * (doubling working sets bracket the fall, then the linear sweep: its
 * sixteenths of the level were coarser than the share and it read up to
 * 1.5 times the level), and working sets meant to lie beyond it are sized
 * from the usable share (detect_beyond_share), not from the level: 8
 * times the level, 3840 MiB there, made detection take 10 minutes and the
 * pointer chase 463 ns, its TLB misses included, where 256 MiB read
 * 173-183 ns.
 */
#define DETECT_BIG_LEVEL ((uint64_t)64 << 20)
/* Bytes that lie beyond a usable share of 'usable' bytes: 8 times it,
 * whole MiB, at least 256 MiB (memory's working sets of detect, ppr conv's
 * memory-resident size). */
uint64_t detect_beyond_share(double usable);
/* The ways of a level (size bytes in ways ways) that a program gets when
 * its read bandwidth lost DETECT_CAPACITY_FALL of its fall at usable
 * bytes (detect_usable_capacity): usable / size of the ways, rounded, at
 * least 1 and at most ways.  0 for a level without size or ways. */
unsigned detect_usable_ways(double usable, double size, unsigned ways);
/* The share of the fall from the level's bandwidth to the one below at
 * which the level's usable capacity ends (model/detect.c). */
#define DETECT_CAPACITY_FALL 0.1
/* The crossing alone (no measurement): past the sweep's highest point,
 * where the bandwidth falls under level_gbs - DETECT_CAPACITY_FALL *
 * (level_gbs - below_gbs) for good: interpolated between the last
 * working set at or above that and the next; ws[n-1] when the last is
 * (the level holds them all), ws[0] when the highest point is already
 * under it. */
double detect_capacity_crossing(const uint64_t *ws, const double *gbs,
				unsigned n, double level_gbs,
				double below_gbs);

/* Memory bandwidth (GB/s) of the CSR SpMV kernel on a banded matrix of
 * about 'bytes' with rows of row_nnz (odd) nonzeros (model/detect.c). */
int detect_csr_bandwidth(uint64_t bytes, unsigned row_nnz, unsigned runs,
			 struct detect_stat *gbs, struct ppr_err *err);

/* Load-to-use latency by pointer chase over 'bytes' (ns per load). */
int detect_latency(uint64_t bytes, unsigned runs, struct detect_stat *ns,
		   struct ppr_err *err);

#endif
