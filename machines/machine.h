/*
 * machine.h - machine description files (JSON, in machines/) and their loader.
 *
 * A machine file describes one CPU: clock, cores, the cache hierarchy (as a
 * struct sim_config the simulator takes as is), the bandwidth of each level
 * to the level above it, memory bandwidth and latency, and peak figures.
 * Every key, its unit and its default are documented in machines/README.md.
 * The loader rejects unknown keys, wrong types, missing required keys and
 * inconsistent geometry with one line "file:line:col: msg" in err.
 *
 * Ownership: machine_load*() fill a caller-provided struct machine (its
 * previous contents are ignored); the strings it points to are owned by the
 * struct and freed by machine_release() (which accepts a zeroed struct and
 * leaves one behind).  On failure nothing is left to release.
 */
#ifndef PPR_MACHINE_H
#define PPR_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "common/ppr_err.h"
#include "dag/dag.h"
#include "sim/sim.h"

/* Figures of one cache level that the simulator does not need. */
struct machine_level {
	/* bytes per core cycle this level delivers to the level above it
	 * (Kerncraft's upstream_throughput); for the first level, to the
	 * registers; 0 = not given */
	double bandwidth_bytes_per_cycle;
	double latency_cycles;          /* load-to-use latency; 0 = not given */
	/* cycles a far irregular reference (model/predict.c) costs beyond
	 * the core's own schedule when this level serves it, with
	 * hierarchy.transfers_overlap (and in `ppr bcsr`, whose eq. (4)
	 * adds it to S_DAG(memory)); 0 = not given (its link time) */
	double far_miss_cycles;
	/* the latency a regular line this level serves shows to a loop
	 * whose vector loads cross lines (model/predict.c: late lines);
	 * 0 = not modelled */
	double late_line_cycles;
	/* the share of the dirty lines written back into this level whose
	 * bytes take its incoming bandwidth in the PPR model (as memory's
	 * writeback_share; 1 when not given) */
	double writeback_share;
	/* the cycles a line filled into this level takes from the loads
	 * that read it, its data array written instead of read (the first
	 * data level only: model/predict.c adds them to S_DAG(memory));
	 * 0 = not modelled */
	double fill_load_cycles;
	unsigned shared_by_cores;       /* cores sharing one instance */
	/* The physical geometry: size and ways as the file gives them.  The
	 * simulated level (hier.levels[]) has usable_ways ways when the file
	 * sets it (capacity other tenants leave to the program). */
	uint64_t size_bytes;
	uint32_t ways;
};

#define MACHINE_CSR_BW_MAX 16

/*
 * One group of a validation: CSR SpMV predicted with this machine file
 * against the times measured on the machine it describes, the error of a
 * matrix being predicted / measured - 1.
 */
struct machine_val_group {
	unsigned matrices;	/* 0: the group is absent */
	double median_abs;	/* median |error| */
	double p90_abs;		/* 90th percentile of |error| */
	double min_err;		/* the most negative error (too fast) */
	double max_err;		/* the most positive error (too slow) */
	char *min_matrix;	/* where each was ("" if not given) */
	char *max_matrix;
};

/*
 * The "validation" section's "spmv_csr": what bench/predict_spmv.sh
 * (VALIDATION=FILE) measured of the file's predictions, so `ppr predict`
 * can say how far its figure may be off.  all: every matrix scored;
 * exits / rest: those whose predicted time is at least / under
 * exit_share mispredicted loop exits (branch stalls), the part of the
 * model that errs most (model/README.md).
 */
struct machine_validation {
	int have;
	char *date;		/* when measured ("" if not given) */
	char *command;		/* how ("" if not given) */
	double exit_share;	/* 0..1; 0 when no exits / rest groups */
	struct machine_val_group all, exits, rest;
};

/*
 * The "validation" section's "bcsr_pick": how close `ppr bcsr`'s pick came
 * to the measured best of the 64 shapes (its measured GFLOPS over the
 * best's) on the matrices of bench/predict_bcsr.sh, as
 * bench/bcsr_validation.py summarises a pass (VALIDATION=FILE).
 */
struct machine_val_bcsr {
	int have;
	char *date, *command;	/* "" if not given */
	unsigned matrices;
	unsigned at_least_95;	/* matrices where the share was >= 0.95 */
	double mean_share, min_share;	/* 0..1 */
	char *min_matrix, *min_pick, *min_best;	/* "" if not given */
	double close_min_share;	/* --measure-close's choice; 0: not given */
	double cost_mean;	/* SpMV equivalents; 0: not given */
};

/*
 * The "validation" section's "conv": how far `ppr conv`'s predicted GFLOPS
 * were from the measured ones (predicted / measured - 1 per cell: the
 * three algorithms at each size) and at how many sizes its best was the
 * measured best, as bench/predict_conv.sh (VALIDATION=FILE) summarises a
 * pass.
 */
struct machine_val_conv {
	int have;
	char *date, *command;	/* "" if not given */
	unsigned cells, within_10;	/* cells scored; of them within 10% */
	double median_abs;	/* median |error| */
	double worst_err;	/* the error largest in magnitude, signed */
	char *worst_cell;	/* where ("" if not given) */
	unsigned sizes, best_right;	/* sizes; of them the best right */
};

struct machine {
	char *name;          /* short identifier ("haswell") */
	char *description;   /* one line for humans ("" if absent) */
	char *source;        /* where the figures come from ("" if absent) */
	char *path;          /* the file it was loaded from */
	double clock_ghz;    /* core clock the figures refer to */
	unsigned cores;

	/* The hierarchy, complete: every field of every level is set. */
	struct sim_config hier;
	/* Per level, same numbering as hier.levels[] ... */
	struct machine_level level[SIM_MAX_LEVELS];
	/* ... and the L1I when hier.split_l1. */
	struct machine_level l1i;

	double mem_bandwidth_gbs;  /* sustained, GB/s (10^9 bytes/s): what
				      the model uses */
	double mem_peak_bandwidth_gbs; /* theoretical (channels x rate), GB/s;
					  0 = not given; informational */
	double mem_latency_ns;     /* 0 = not given */
	double mem_far_miss_cycles; /* as machine_level's, served by memory */
	double mem_late_line_cycles; /* as machine_level's, from memory; with
					memory.late_line_ns, that times
					clock_ghz */
	/* memory.late_line_ns (optional, >= 0; 0: not given): the same
	 * figure as a latency, for a DRAM whose latency does not follow the
	 * core clock; the file gives one of the two keys. */
	double mem_late_line_ns;
	/* memory.far_stream_serial (optional, >= 0; 0: none): how far
	 * references hold up a stream from memory.  With phi the far
	 * references' share of the first level's misses, the share
	 * min(1, this x phi) of the core's memory time runs after the
	 * stream instead of under it (model_ppr_in.stream_serial,
	 * model/predict.c), with hierarchy.transfers_overlap only. */
	double mem_far_stream_serial;
	/* memory.stream_jump_cycles (optional, >= 0; 0: none): cycles
	 * an SpMV from memory loses per near reference of x that jumps
	 * from one of x's streams to another (a 5-point Laplacian takes x
	 * at i - n, i, i + n: 3 jumps a row), added to the memory link's
	 * time (model_ppr_in.jump_cycles, model/predict.c), with
	 * hierarchy.transfers_overlap only. */
	double mem_stream_jump_cycles;
	/* memory.writeback_share (optional, 0..1, default 1): the share of
	 * the dirty lines written back to memory that takes the memory
	 * link's bandwidth in the PPR model (model/predict.c).  One core's
	 * memory bandwidth is set by the fills it keeps in flight; write-
	 * backs leave without holding a fill buffer, so while the DRAM is
	 * not saturated they cost it little.  1: counted like fills. */
	double mem_writeback_share;
	/* memory.csr_bandwidth_gbs (optional): the memory bandwidth CSR SpMV
	 * streams get, by mean nonzeros per row (row_nnz increasing),
	 * measured by `ppr machine detect` on banded matrices; 0 points:
	 * CSR uses mem_bandwidth_gbs like every kernel.  See
	 * machine_csr_bandwidth(). */
	unsigned csr_bw_points;
	double csr_bw_row_nnz[MACHINE_CSR_BW_MAX];
	double csr_bw_gbs[MACHINE_CSR_BW_MAX];
	int transfers_overlap;     /* hierarchy.transfers_overlap: 1 = line
				      transfers overlap each other and the
				      load/store instructions (AMD Zen); 0 =
				      they add up (the paper's eq. 4) */
	double bcsr_hidden_share;  /* hierarchy.bcsr_hidden_share, 0..1: the
				      share of the shorter of S_DAG(memory)
				      and the transfers that `ppr bcsr`'s
				      eq. (4) hides under the longer; 0 =
				      the paper's sum (model/bcsr_select.c) */
	double bcsr_miss_load_ratio; /* hierarchy.bcsr_miss_load_ratio,
				      0..1: the x misses the core keeps in
				      flight per load it keeps in flight;
				      `ppr bcsr` prices a shape's far
				      references at max(1, ratio x its loads
				      per x load) times the far_miss_cycles
				      fitted on CSR; 0 = no such scaling
				      (model/bcsr_select.c) */

	/* Peak figures of one core. */
	double flops_per_cycle_dp;
	double flops_per_cycle_sp;
	unsigned simd_width_bits;
	int fma;
	double load_bytes_per_cycle;   /* L1 -> registers */
	double store_bytes_per_cycle;  /* registers -> L1 */

	/* The "branch" section: cycles one mispredicted exit of a loop costs
	 * (the CSR inner loop's), and how many changes of a loop's exit
	 * pattern per run the predictor learns over repeated runs of the
	 * same kernel. */
	double loop_exit_miss_cycles;
	double learned_exit_changes;
	/* Loops of up to this many iterations per run of the loop have
	 * their exits learned up to learned_exit_changes; beyond it the
	 * capacity falls as (learned_exit_trips / trips)^3.  0: no such
	 * limit (the default). */
	double learned_exit_trips;
	/* CSR's exits beyond learned_exit_changes: the share
	 * csr_unlearned_max x (1 - (learned_exit_changes / changes)^
	 * csr_unlearned_exponent) mispredicts (defaults 1 and 1: the share
	 * 1 - learned / changes). */
	double csr_unlearned_exponent;
	double csr_unlearned_max;
	/* BCSR's capacity in block-row exit changes; < 0 (absent):
	 * learned_exit_changes x MODEL_BCSR_LEARNED_SHARE (model/predict.h) */
	double bcsr_learned_exit_changes;
	/* CSR: > 0 counts what fills the predictor as the distinct
	 * (lengths of the previous history_rows rows, this row's length)
	 * of the rows whose exits change, not the changes: a sequence of
	 * lengths that repeats is held in fewer entries than one that does
	 * not (model_spmv_csr_exit_contexts).  0 (default): the changes. */
	double exit_history_rows;

	/* The in-core model of the "core" section (machines/core_model.c),
	 * for the instruction-DAG scheduler; has_core = 0 when absent. */
	int has_core;
	struct dag_core core;

	/* The "validation" section (optional): how far this file's CSR
	 * SpMV predictions were from measured times (machine_validation). */
	struct machine_validation val_csr;
	struct machine_val_bcsr val_bcsr;
	struct machine_val_conv val_conv;
};

/*
 * Defaults of the "branch" section: measured on the zen4-epyc machine (a
 * Zen 5 core) with bench/predict_branch.sh; see model/predict.h.
 */
#define MACHINE_LOOP_EXIT_MISS_CYCLES 25.0
#define MACHINE_LEARNED_EXIT_CHANGES 10000.0
/* The most rows of history the "branch" section's history_rows takes. */
#define MACHINE_MAX_HISTORY_ROWS 64

/* The memory bandwidth (GB/s) of CSR SpMV streams at a mean of row_nnz
 * nonzeros per row: memory.csr_bandwidth_gbs interpolated linearly in
 * row_nnz, the end points' figures beyond them; mem_bandwidth_gbs when
 * the file has no such table. */
double machine_csr_bandwidth(const struct machine *m, double row_nnz);

/* The validation sections as JSON, in the file's own keys, for output
 * (`ppr machine show`, `ppr predict`, `ppr bcsr`); the caller owns the
 * result.  machine_validation_json: NULL when the file has none. */
struct cJSON;
/* machine_val_group_add: a group's keys into the object o */
void machine_val_group_add(struct cJSON *o, const struct machine_val_group *g);
struct cJSON *machine_val_bcsr_json(const struct machine_val_bcsr *b);
struct cJSON *machine_val_conv_json(const struct machine_val_conv *c);
struct cJSON *machine_validation_json(const struct machine *m);
/* A validation's provenance for a sentence: " (date, command)", " (date)",
 * " (command)", or "" when the file gives neither; in buf. */
const char *machine_val_when(char *buf, size_t n, const char *date,
			     const char *command);

/* Load a machine file. */
int machine_load(const char *path, struct machine *out, struct ppr_err *err);
/* The same from text[0..len); 'name' is used in errors and as path. */
int machine_load_string(const char *name, const char *text, size_t len,
			struct machine *out, struct ppr_err *err);
void machine_release(struct machine *m);
/* A machine file's text, unparsed (at most MACHINE_MAX_FILE bytes): *text
 * is malloc'd, not terminated; the caller frees it. */
int machine_read_text(const char *path, char **text, size_t *len,
		      struct ppr_err *err);

/*
 * The bandwidth at which lines come into level i from the level below, in
 * bytes per core cycle, for i in 0..hier.nlevels-1 (the last one is
 * memory, converted with clock_ghz): the bw[] of model_ppr_in /
 * model_ecm_in.  Returns hier.nlevels.
 */
unsigned machine_fill_bandwidths(const struct machine *m,
				 double bw[SIM_MAX_LEVELS]);

/*
 * Policy names as machine files spell them ("lru", "non_inclusive",
 * "next_line" ...), for output that scripts feed back; static strings,
 * "?" for a value outside the enum.
 */
const char *machine_repl_name(enum sim_repl r);
const char *machine_inclusion_name(enum sim_incl i);
const char *machine_prefetch_name(enum sim_prefetch p);

/* A core model as a machine file's "core" object, the form the loader
 * reads (ppr dag --dump-core, ppr machine detect); NULL when out of
 * memory.  The caller owns it (cJSON_Delete). */
struct cJSON;
struct cJSON *machine_core_to_json(const struct dag_core *c);

#endif
