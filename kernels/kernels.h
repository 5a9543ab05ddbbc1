/*
 * kernels.h - the numerical kernels of ppr in native and instrumented form,
 * the measurement harness, and hardware counters.
 *
 * Kernels: SpMV CSR, SpMV BCSR r x c (all 64 shapes), 1-D convolution
 * (single precision, kernel length 16; naive, AVX2 unaligned, AVX2 on
 * shifted aligned copies), radix-2 FFT 1-D and 3-D (complex double).
 *
 * Each kernel body is written once (kernels/<name>_body.h) and compiled twice:
 * natively, where the access hooks compile to nothing, and instrumented,
 * where every memory reference goes into a struct ppr_sink in batches.
 * What is timed and what is simulated therefore cannot drift apart.
 *
 * One table (kernel_desc_list) names the kernels for `ppr measure`,
 * `ppr trace --kernel` and `ppr predict`.
 *
 * Ownership: kernel_run_new() returns an instance the caller frees with
 * kernel_run_free() (NULL is a no-op); it owns the input data.  Strings
 * in struct kernel_params are borrowed for the call only.
 */
#ifndef PPR_KERNELS_H
#define PPR_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/ppr_access.h"
#include "common/ppr_err.h"

/* ---- the kernel table ----------------------------------------------- */

enum kernel_id {
	KERNEL_SPMV_CSR = 0,
	KERNEL_SPMV_BCSR,
	KERNEL_CONV1D,
	KERNEL_FFT1D,
	KERNEL_FFT3D,
};

enum conv_variant {
	CONV_NAIVE = 0,		/* the paper's algorithm 1, scalar */
	CONV_AVX2_UNALIGNED,	/* algorithm 2, _mm256_loadu_ps */
	CONV_AVX2_ALIGNED,	/* algorithm 3, 4 shifted copies of the input */
};

#define CONV_KLEN 16	/* kernel length: fixed, as in the paper */

struct kernel_desc {
	const char *name;	/* command-line name, e.g. "spmv-bcsr" */
	enum kernel_id id;
	int needs_matrix;	/* takes a MATRIX argument (file or gen:) */
	const char *usage;	/* options it takes, one line */
	const char *summary;
};

/* The table, terminated by an entry with name == NULL. */
extern const struct kernel_desc kernel_desc_list[];

/* NULL when no kernel has that name. */
const struct kernel_desc *kernel_desc_find(const char *name);

struct csr;

/* Everything that selects one kernel instance.  Zero = defaults. */
struct kernel_params {
	const char *kernel;	/* table name */
	const char *input;	/* matrix path or gen: spec (SpMV only) */
	/* SpMV: an already loaded matrix, borrowed (must outlive the run;
	 * not freed by it); 'input' then only labels it.  Lets a sweep over
	 * the 64 BCSR shapes load the matrix once. */
	const struct csr *csr;
	unsigned block_r, block_c;	/* spmv-bcsr: 1..8 */
	enum conv_variant variant;	/* conv1d */
	uint64_t n;		/* conv1d: input length; fft1d: n; fft3d: n per dim */
	uint64_t seed;		/* input values (0: fixed default) */
	int no_simd;		/* conv1d: force the portable fallback */
};

/* Parse "RxC" (1..8 each); 0 or PPR_EINVAL. */
int kernel_block_parse(const char *s, unsigned *r, unsigned *c);
/* Parse "naive|avx2-unaligned|avx2-aligned"; 0 or PPR_EINVAL. */
int kernel_variant_parse(const char *s, enum conv_variant *v);
const char *kernel_variant_name(enum conv_variant v);

struct kernel_run;

/*
 * Set up an instance: load/generate the input, build BCSR or the aligned
 * copies, allocate outputs.  Checks memory first (PPR_ENOMEM with the
 * amount needed).  Fills err on failure.
 */
int kernel_run_new(const struct kernel_params *p, struct kernel_run **out,
		   struct ppr_err *err);
void kernel_run_free(struct kernel_run *r);

/* One execution of the native kernel (the timed thing). */
void kernel_run_native(struct kernel_run *r);

/*
 * One execution of the instrumented kernel: same arithmetic, and every
 * data reference of the hot loop emitted into sink in batches of
 * KERNEL_EMIT_BATCH.  Returns 0 or the first error sink->emit returned
 * (the computation still completes).
 */
#define KERNEL_EMIT_BATCH 4096
int kernel_run_instrumented(struct kernel_run *r, const struct ppr_sink *sink);
/* The instrumented stream does not carry the arrays' real addresses:
 * each array of the run is placed at a fixed virtual address (in a fixed
 * order, each on a fresh 4 KiB page, from 0x10000000), so the same input
 * gives the same stream, and the same simulated misses, in every run,
 * whatever malloc and address-space randomisation do.  This maps a pointer into one of the run's arrays
 * to its address in the stream (other pointers are returned as is). */
uint64_t kernel_run_trace_addr(const struct kernel_run *r, const void *p);

/*
 * Code placement (kernels/spmv_place.c, conv.c, conv_avx2.c).  The SpMV
 * kernels, the naive convolution and the AVX2 ones also exist as
 * copies whose code starts KERNEL_CODE_OFFSET_STEP * k bytes into a
 * 64-byte line (k = 0..3); the speed of a short-row SpMV can differ by
 * 2x between them.  kernel_run_code_offsets() is how many copies this
 * run's kernel has (0 for FFT and the portable vector convolution, or
 * when the compiler could not place code).  kernel_run_set_code_offset(r,
 * k) makes kernel_run_native
 * run copy k (0..n-1), or the linker's copy (-1, the default); -1 on an
 * out-of-range k.
 */
#define KERNEL_CODE_OFFSET_STEP 16
#define KERNEL_CODE_OFFSETS 4
int kernel_run_code_offsets(const struct kernel_run *r);
int kernel_run_set_code_offset(struct kernel_run *r, int k);
int kernel_run_code_offset(const struct kernel_run *r);

/* Restore the output / in-place data to its initial state (FFT is in
 * place: each repetition transforms the same input). */
void kernel_run_reset(struct kernel_run *r);
/* 1 if kernel_run_reset does something (executions are not repeatable
 * back to back without it), else 0. */
int kernel_run_needs_reset(const struct kernel_run *r);

/* Useful floating-point operations of one execution (SpMV: 2*nnz, not
 * counting BCSR fill; conv: 2*16 per output; FFT: 5 N log2 N). */
double kernel_run_flops(const struct kernel_run *r);
/* Compulsory bytes of one execution: each array read/written once. */
double kernel_run_bytes(const struct kernel_run *r);
/* Bytes of the data set (all arrays the hot loop touches). */
uint64_t kernel_run_footprint(const struct kernel_run *r);
/* Name of the noinline native function holding the hot loop, e.g.
 * "kern_spmv_bcsr_4x4" (for objdump and callgrind --toggle-collect). */
const char *kernel_run_symbol(const struct kernel_run *r);
/* Human description: "spmv-bcsr 4x4 gen:fem3d:n=20,dof=3 (24000 x 24000,
 * nnz 1889568, 214296 blocks, fill 1.02)". */
const char *kernel_run_describe(const struct kernel_run *r);
/* Non-NULL when the native path is a fallback (e.g. no AVX2): why. */
const char *kernel_run_note(const struct kernel_run *r);

/* Output vector for checks: y (SpMV), out (conv, float), data (FFT,
 * interleaved re,im).  *n is the element count, *elem_size 8 or 4. */
const void *kernel_run_output(const struct kernel_run *r, size_t *n,
			      size_t *elem_size);
/* Max relative error of the output against a plain reference kernel,
 * computed in double (conv, SpMV) or a direct DFT (FFT, only for n <=
 * 4096 in 1-D or n <= 16 in 3-D, else PPR_ENOTSUP). */
int kernel_run_check(struct kernel_run *r, double *max_rel_err,
		     struct ppr_err *err);

/* 1 if this CPU runs the AVX2+FMA kernels natively. */
int kernel_cpu_has_avx2(void);

/* ---- instrumented emission (used by the kernels; public for tests) -- */

/* Count references by op and tag: a sink for tests and `ppr measure`. */
struct kernel_access_count {
	uint64_t n[PPR_NOPS][PPR_NTAGS];
	uint64_t bytes[PPR_NOPS][PPR_NTAGS];
	uint64_t batches;
};
void kernel_access_count_sink(struct kernel_access_count *c,
			      struct ppr_sink *sink);

/* ---- hardware counters ---------------------------------------------- */

#define COUNTER_MAX_EVENTS 16
#define COUNTER_NAME_MAX 128

enum counter_status {
	COUNTER_OK = 0,
	COUNTER_UNAVAILABLE,	/* could not be opened / not supported */
	COUNTER_NOT_COUNTED,	/* opened but never scheduled (perf) */
};

/* One event: what was asked, what was programmed, what was read. */
struct counter_event {
	char name[COUNTER_NAME_MAX];	/* as asked: PAPI_L1_DCM, or native */
	char native[256];	/* native event encoded (libpfm4 fstr) */
	char unit[32];		/* imported perf CSV: unit column */
	enum counter_status status;
	uint64_t value;		/* sum over the measured intervals */
	double fvalue;		/* same, for non-integral imported values */
	double scale;		/* perf multiplexing: time_enabled/time_running */
	char why[256];		/* when status != COUNTER_OK */
};

struct counter_set {
	size_t n;
	struct counter_event ev[COUNTER_MAX_EVENTS];
	char source[64];	/* "perf_event", "fake", "papi-import", ... */
	char pmu[64];		/* PMU used for the mapping (e.g. "skx") */
};

/*
 * A counter backend: open the events of a set, start/stop around each
 * measured interval (counts accumulate), read into the set, close.
 * Backends: perf_event (libpfm4 encoding + perf_event_open) and fake
 * (deterministic counts for tests: event i counts 1000*(i+1) per
 * start/stop interval).
 */
struct counter_backend {
	const char *name;
	int (*open)(struct counter_backend *b, struct counter_set *s,
		    struct ppr_err *err);
	int (*start)(struct counter_backend *b);
	int (*stop)(struct counter_backend *b);
	int (*read)(struct counter_backend *b, struct counter_set *s);
	void (*close)(struct counter_backend *b);
	void *state;
};

/*
 * Fill set->ev[].name from "EV,EV,..." (PAPI presets or libpfm4 native
 * names); PPR_EINVAL with a message on an empty name or too many.
 */
int counter_set_parse(struct counter_set *s, const char *list,
		      struct ppr_err *err);

/* Pick a backend: "perf" or "fake"; NULL means env PPR_COUNTERS, else
 * perf.  PPR_EINVAL on an unknown name. */
int counter_backend_init(struct counter_backend *b, const char *name,
			 struct ppr_err *err);

/*
 * Map one event name to the native event for a PMU (libpfm4 PMU name such
 * as "hsw", "skx", "icl", "amd64_fam17h_zen1"; NULL = the active core
 * PMU).  PAPI presets map through a per-family table, falling back to
 * the generic perf event; other names are passed to libpfm4 as they are.
 * Writes the fully qualified libpfm4 event string to native.  Returns 0
 * or PPR_ENOENT / PPR_ENOTSUP with a message.
 */
int counter_event_resolve(const char *name, const char *pmu, char *native,
			  size_t native_len, struct ppr_err *err);

/* Why counters cannot be used here (perf_event_paranoid, ENOENT...);
 * fills buf with one sentence, returns buf. */
char *counter_explain_unavailable(int errnum, char *buf, size_t n);

/*
 * Import counts measured elsewhere into a set:
 *   papi: papi_command_line-style "EVENT : value" lines (other chatter is
 *         skipped; a line "NAME : junk" is an error);
 *   perf: `perf stat -x,` CSV: value,unit,event[,run,pct,...]; values
 *         "<not supported>" / "<not counted>" are recorded as unavailable.
 * 'name' labels errors ("file:line: ..."); buf need not be NUL-terminated.
 */
int counter_import_papi(struct counter_set *s, const char *name,
			const char *buf, size_t len, struct ppr_err *err);
int counter_import_perf_csv(struct counter_set *s, const char *name,
			    const char *buf, size_t len, struct ppr_err *err);

/* ---- measurement harness -------------------------------------------- */

struct measure_opts {
	unsigned reps;		/* timed repetitions (default 10) */
	unsigned warmup;	/* untimed first runs (default 1) */
	/* then more untimed runs, up to warmup_max runs in all, while they
	 * have taken less than warmup_s seconds (0: none): the branch
	 * predictor learns a matrix's loop exits over runs, not within one
	 * (bench/predict_warmup.sh) */
	unsigned warmup_max;
	double warmup_s;
	/* > 0: when warmup_max runs took less than warmup_s, go on in
	 * blocks of twice as many runs while a block runs at least
	 * MEASURE_WARMUP_GAIN faster a run than the one before, until
	 * warmup_learn_s seconds of warm-up in all (see MEASURE_WARMUP_MAX) */
	double warmup_learn_s;
	int flush;		/* evict caches before each repetition */
	uint64_t flush_bytes;	/* buffer streamed to flush (0: default) */
	struct counter_backend *counters;	/* NULL: no counters */
	struct counter_set *set;	/* events to count (opened here) */
	/* Which copy of the kernel (kernel_run_set_code_offset) is timed:
	 * MEASURE_CODE_LINKED the linker's; MEASURE_CODE_BEST each placed
	 * copy first (screen_reps samples each, default 3) and then the
	 * fastest; MEASURE_CODE_FIXED copy code_offset.  Kernels without
	 * placed copies always run the linker's. */
	int code_mode;
	int code_offset;
	unsigned screen_reps;
	/* batch_s > 0: when one execution takes less than batch_s seconds
	 * (the least of 3 untimed ones), each timed sample is that many
	 * executions back to back, divided by their number, so that the
	 * clock's own cost (about 20 ns a reading on the Zen 4 guest, 1/30
	 * of a 1,024-output convolution) and the pipeline's fill and drain
	 * are not charged to a short kernel.  Not with flush, nor for
	 * kernels whose data is reset between executions (the FFT), nor with
	 * counters (they count per timed sample). */
	double batch_s;
};
enum { MEASURE_CODE_LINKED = 0, MEASURE_CODE_BEST, MEASURE_CODE_FIXED };
/* `ppr measure`'s default warm-up: up to 500 untimed runs while they take
 * less than 0.5 s.  On the Zen 4 guest (2026-11-27, bench/predict_warmup.sh)
 * de2010's CSR SpMV took 140 us after 1 untimed run, 128 after 5 and
 * 56-60 after 20 or more; vt2010 went on learning slowly (276 us after
 * 1, 260 after 50, 223 after 1000); small matrices are learned at once.
 * Until 2026-11-27 (16:00 UTC) at most 50: then de2010 measured 106-114
 * us after 50 runs, 58 after 100 and 57-58 after 200-2000 (the whole SpMV
 * bench had measured it at 114 us in three rounds, -50% for the model). */
#define MEASURE_WARMUP_MAX 500
#define MEASURE_WARMUP_S 0.5
/* ... and then on while the runs still get faster (2026-12-04, the Zen 5
 * guest): vsp_befref's CSR SpMV measured 71-77 us in some processes and
 * 93-120 us in others after the 500 runs (the same code copy, with or
 * without address randomisation: where the predictor's learning stands
 * after 500 runs is luck), and 79-84 us in every process after 5,000 or
 * 20,000; astro-ph 182 -> 156 us, de2010 189 -> 180, vt2010 and
 * delaunay_n16 no change.  Blocks of 500, 1000, 2000, ... runs, while one
 * is at least 1% faster a run than the one before, up to 2 s in all. */
#define MEASURE_WARMUP_LEARN_S 2.0
#define MEASURE_WARMUP_GAIN 0.01

struct measure_result {
	unsigned reps;
	unsigned warmup_runs;	/* untimed runs made */
	double time_min_s, time_median_s, time_max_s, time_mean_s;
	double flops, bytes;	/* per execution */
	double gflops;		/* flops / median time / 1e9 */
	double gflops_best;	/* flops / min time / 1e9 */
	double bytes_per_s;	/* compulsory bytes / median time */
	int code_offset;	/* copy timed: -1 the linker's, else k */
	unsigned batch;		/* executions per timed sample (>= 1) */
	double batch_probe_s;	/* least of the 3 probe executions that
				 * chose batch (0: no probe was made) */
	unsigned code_offsets;	/* copies screened (MEASURE_CODE_BEST) */
	/* least screening time per copy */
	double code_screen_min_s[KERNEL_CODE_OFFSETS];
	int counters_ok;	/* 1 if the set was read */
	char counters_why[512];	/* otherwise: why not */
};

/*
 * Warm up, then time opts->reps executions of the native kernel with
 * CLOCK_MONOTONIC (resetting in-place data between runs outside the timed
 * region).  Counters, when asked, count only the timed executions; if
 * they cannot be opened the timing still happens and counters_why says
 * why.  Returns 0 or a negative code with err.
 */
int kernel_measure(struct kernel_run *r, const struct measure_opts *opts,
		   struct measure_result *res, struct ppr_err *err);

/* Stream over a buffer larger than the last-level cache (write then
 * read), so the next execution starts with cold caches.  bytes 0: the
 * default below. */
void kernel_cache_flush(uint64_t bytes);
/* 4x the largest cache sysfs reports for cpu0, at least 64 MiB (256 MiB
 * when sysfs says nothing). */
uint64_t kernel_flush_default_bytes(void);

#endif
