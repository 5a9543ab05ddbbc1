/*
 * table.c - the kernel table and kernel instances: input set-up, native
 * and instrumented runs, flop and byte counts, checks against plain
 * reference kernels.
 */
#include "kernels/kernels_int.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "matrix/matrix.h"

const struct kernel_desc kernel_desc_list[] = {
	{ "spmv-csr", KERNEL_SPMV_CSR, 1, "MATRIX",
	  "y = A x, CSR, double values, 32-bit column indices" },
	{ "spmv-bcsr", KERNEL_SPMV_BCSR, 1, "--block RxC MATRIX",
	  "y = A x, BCSR r x c (r, c in 1..8), unrolled per shape" },
	{ "conv1d", KERNEL_CONV1D, 0,
	  "--variant naive|avx2-unaligned|avx2-aligned --n N",
	  "1-D convolution, single precision, kernel length 16" },
	{ "fft1d", KERNEL_FFT1D, 0, "--n N",
	  "radix-2 complex double FFT, N a power of two" },
	{ "fft3d", KERNEL_FFT3D, 0, "--n N",
	  "3-D FFT of N^3 complex doubles as 1-D transforms per dimension" },
	{ NULL, 0, 0, NULL, NULL },
};

struct kernel_run {
	const struct kernel_desc *desc;
	struct kernel_params p;
	char input[512];
	char describe[768];
	char symbol[64];
	char note[256];
	double flops, bytes;
	uint64_t footprint;

	/* SpMV */
	struct csr a;
	int a_borrowed;		/* a is a shallow copy of params.csr */
	struct bcsr b;
	double *x, *y;
	uint64_t xlen, ylen;
	struct kern_csr_args csr;
	struct kern_bcsr_args bcsr;
	int place;		/* -1: the linker's copy; else spmv_place.c's */

	/* conv1d */
	float *in, *out;
	void *copies_alloc, *out_alloc; /* the allocations they lie in */
	float kernel[CONV_KLEN], krev[CONV_KLEN];
	int use_avx2;
	struct kern_conv_args conv;

	/* FFT */
	double *data, *orig, *tw, *scratch;
	uint32_t *rev;
	uint64_t fft_total;	/* complex values */
	struct kern_fft_args fft;
};

const struct kernel_desc *kernel_desc_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; kernel_desc_list[i].name; i++)
		if (!strcmp(kernel_desc_list[i].name, name))
			return &kernel_desc_list[i];
	return NULL;
}

int kernel_block_parse(const char *s, unsigned *r, unsigned *c)
{
	if (!s || strlen(s) != 3 || (s[1] != 'x' && s[1] != 'X') ||
	    s[0] < '1' || s[0] > '8' || s[2] < '1' || s[2] > '8')
		return PPR_EINVAL;
	*r = (unsigned)(s[0] - '0');
	*c = (unsigned)(s[2] - '0');
	return 0;
}

static const char *const variant_names[] = {
	"naive", "avx2-unaligned", "avx2-aligned",
};

int kernel_variant_parse(const char *s, enum conv_variant *v)
{
	unsigned i;

	for (i = 0; i < 3; i++)
		if (s && !strcmp(s, variant_names[i])) {
			*v = (enum conv_variant)i;
			return 0;
		}
	return PPR_EINVAL;
}

const char *kernel_variant_name(enum conv_variant v)
{
	return (unsigned)v < 3 ? variant_names[v] : "?";
}

/* ---- helpers ---------------------------------------------------------- */

/* xorshift64*: reproducible input values in [-1, 1). */
static double rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return (double)((x * 2685821657736338717ull) >> 11) * 0x1p-52 - 1.0;
}

/* Bytes the kernel may still allocate: MemAvailable from /proc/meminfo
 * (0 when it cannot be read: no check). */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	uint64_t kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNu64, &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static int mem_check(uint64_t need, const char *what, struct ppr_err *err)
{
	uint64_t avail = mem_available();

	if (avail && need > avail - avail / 10)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "%s needs %.2f GiB but only %.2f GiB of "
				   "memory is available", what,
				   (double)need / (1u << 30),
				   (double)avail / (1u << 30));
	return 0;
}

static int is_pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static unsigned ilog2(uint64_t n)
{
	unsigned b = 0;

	while ((1ull << b) < n)
		b++;
	return b;
}

/* ---- set-up per kernel ------------------------------------------------ */

static int setup_spmv(struct kernel_run *r, struct ppr_err *err)
{
	uint64_t seed = r->p.seed ? r->p.seed : 0x9e3779b97f4a7c15ull;
	uint64_t i;
	int rc;

	if (r->p.csr) {
		r->a = *r->p.csr;
		r->a_borrowed = 1;
		if (!r->input[0])
			snprintf(r->input, sizeof(r->input), "(matrix)");
	} else {
		if (!r->p.input || !*r->p.input)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "kernel '%s' needs a matrix (a "
					   "file or gen:...)", r->desc->name);
		rc = matrix_load(r->p.input, &r->a, NULL, err);
		if (rc)
			return rc;
	}
	r->xlen = r->a.cols;
	r->ylen = r->a.rows;
	if (r->desc->id == KERNEL_SPMV_BCSR) {
		unsigned br = r->p.block_r, bc = r->p.block_c;

		if (br < 1 || br > 8 || bc < 1 || bc > 8)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "spmv-bcsr needs --block RxC with "
					   "R and C in 1..8");
		rc = matrix_bcsr_build(&r->a, br, bc, &r->b, err);
		if (rc)
			return rc;
		r->xlen = r->b.bcols * bc;
		r->ylen = r->b.brows * br;
	}
	r->x = xaligned_alloc((r->xlen ? r->xlen : 1) * sizeof(double));
	r->y = xaligned_alloc((r->ylen ? r->ylen : 1) * sizeof(double));
	for (i = 0; i < r->xlen; i++)
		r->x[i] = i < r->a.cols ? rnd(&seed) : 0.0;
	memset(r->y, 0, (r->ylen ? r->ylen : 1) * sizeof(double));

	r->flops = 2.0 * (double)r->a.nnz;
	if (r->desc->id == KERNEL_SPMV_CSR) {
		r->csr = (struct kern_csr_args){
			.rows = r->a.rows, .row_ptr = r->a.row_ptr,
			.col_idx = r->a.col_idx, .vals = r->a.vals,
			.x = r->x, .y = r->y,
		};
		r->footprint = (r->a.rows + 1) * 8 + r->a.nnz * 12 +
			       r->a.cols * 8 + r->a.rows * 8;
		snprintf(r->symbol, sizeof(r->symbol), "kern_spmv_csr");
		snprintf(r->describe, sizeof(r->describe),
			 "spmv-csr %s (%" PRIu64 " x %" PRIu64 ", nnz %"
			 PRIu64 ")", r->input, r->a.rows, r->a.cols,
			 r->a.nnz);
	} else {
		unsigned br = r->p.block_r, bc = r->p.block_c;

		r->bcsr = (struct kern_bcsr_args){
			.r = br, .c = bc, .brows = r->b.brows,
			.bptr = r->b.brow_ptr, .bcol = r->b.bcol_idx,
			.vals = r->b.vals, .x = r->x, .y = r->y,
		};
		r->footprint = (r->b.brows + 1) * 8 + r->b.nblocks * 4 +
			       r->b.nblocks * br * bc * 8 + r->xlen * 8 +
			       r->ylen * 8;
		snprintf(r->symbol, sizeof(r->symbol), "%s",
			 kern_bcsr_symbol(br, bc));
		snprintf(r->describe, sizeof(r->describe),
			 "spmv-bcsr %ux%u %s (%" PRIu64 " x %" PRIu64
			 ", nnz %" PRIu64 ", %" PRIu64 " blocks, fill %.3f)",
			 br, bc, r->input, r->a.rows, r->a.cols, r->a.nnz,
			 r->b.nblocks,
			 r->a.nnz ? (double)r->b.nblocks * br * bc /
				    (double)r->a.nnz : 0.0);
	}
	r->bytes = (double)r->footprint;
	return 0;
}

/* conv1d's native arrays (setup_conv): each at a different multiple
 * of CONV_STEP past in, modulo CONV_SPAN. */
#define CONV_SPAN ((uint64_t)2 << 20)
#define CONV_STEP ((uint64_t)320 << 10)

/* The first address in alloc (CONV_SPAN bytes to spare) that lies off
 * bytes past ref modulo CONV_SPAN. */
static float *conv_place(void *alloc, const void *ref, uint64_t off)
{
	return (float *)((char *)alloc + (((uintptr_t)ref + off -
					   (uintptr_t)alloc) &
					  (CONV_SPAN - 1)));
}

static int setup_conv(struct kernel_run *r, struct ppr_err *err)
{
	uint64_t seed = r->p.seed ? r->p.seed : 0x2545f4914f6cdd1dull;
	uint64_t n = r->p.n, stride, i, need;
	int k, s;

	if (n < CONV_KLEN)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "conv1d needs --n N with N >= %d (the "
				   "kernel length)", CONV_KLEN);
	if (n > (UINT64_MAX / 64))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "conv1d --n %" PRIu64 " is too large", n);
	stride = (n + 15) & ~(uint64_t)15;	/* floats, multiple of 64 B */
	need = (2 * stride + (r->p.variant == CONV_AVX2_ALIGNED ?
			      4 * stride : 0)) * sizeof(float);
	if (mem_check(need, "conv1d", err))
		return PPR_ENOMEM;
	/* Native placement, two rules.  (1) 4 KiB aliasing: out starts 2 KiB
	 * from in (and from the aligned copies) modulo 4 KiB.  Where glibc's
	 * heap puts it, right behind in (64 bytes on from in modulo 4 KiB),
	 * out's stores 4K-alias the next blocks' loads and the measurement
	 * is of the allocator's placement, not of the algorithm: algorithm 2
	 * runs 42-47 cycles per block there, 32-33 at other offsets
	 * (bench/dag_split.sh, conv_alg2 cases; the kernel itself with out
	 * at in + 64/128 modulo 4 KiB).  (2) Streams apart by nearly a
	 * multiple of a large power of two (2026-11-27, Zen 4 guest, 16 Mi
	 * floats per array, from memory): the four copies back to back (64
	 * MiB apart) ran algorithm 3 at 26-30 GFLOPS, 20-26 with 4-8 KiB
	 * more between them, 37-43 with 16 KiB-1 MiB more; out 2-16 KiB
	 * past a multiple of 64 MiB from in (separate allocations land
	 * there) ran algorithm 2 at 40-46 GFLOPS, 54-55 with 32 KiB or
	 * more (its in-core rate).  Likely DRAM bank conflicts: the
	 * streams' lines then fall in the same banks, in different rows.
	 * So each array starts a different multiple of CONV_STEP past in
	 * modulo CONV_SPAN: any two at least 318 KiB from a multiple of 2
	 * MiB apart, the 4 KiB rule kept.  The instrumented form has its
	 * own fixed layout (layout()): the simulated traffic is the same. */
	r->in = xaligned_alloc(stride * sizeof(float));
	r->out_alloc = xaligned_alloc(stride * sizeof(float) + CONV_SPAN);
	r->out = conv_place(r->out_alloc, r->in, CONV_STEP + 2048);
	for (i = 0; i < n; i++)
		r->in[i] = (float)rnd(&seed);
	for (i = n; i < stride; i++)
		r->in[i] = 0.0f;
	memset(r->out, 0, stride * sizeof(float));
	for (k = 0; k < CONV_KLEN; k++)
		r->kernel[k] = (float)rnd(&seed);
	for (k = 0; k < CONV_KLEN; k++)
		r->krev[k] = r->kernel[CONV_KLEN - 1 - k];
	r->conv = (struct kern_conv_args){
		.variant = r->p.variant, .n = n, .nout = n - CONV_KLEN + 1,
		.in = r->in, .krev = r->krev, .out = r->out,
	};
	if (r->p.variant == CONV_AVX2_ALIGNED) {
		/* The paper's algorithm 3 copies once, before the loop. */
		uint64_t each = stride * sizeof(float) + CONV_SPAN;

		r->copies_alloc = xaligned_alloc(4 * each);
		for (s = 0; s < 4; s++) {
			float *c = conv_place((char *)r->copies_alloc +
					      (uint64_t)s * each, r->in,
					      (uint64_t)(2 + s) * CONV_STEP);

			memcpy(c, r->in + s, (n - (uint64_t)s) * sizeof(float));
			for (i = n - (uint64_t)s; i < stride; i++)
				c[i] = 0.0f;
			r->conv.copies[s] = c;
		}
	}
	r->use_avx2 = 0;
	if (r->p.variant != CONV_NAIVE) {
		if (r->p.no_simd)
			snprintf(r->note, sizeof(r->note),
				 "AVX2 disabled on request: running the "
				 "portable 8-wide fallback");
		else if (!kernel_cpu_has_avx2())
			snprintf(r->note, sizeof(r->note),
				 "this CPU lacks AVX2/FMA: running the "
				 "portable 8-wide fallback (same loads, "
				 "scalar arithmetic)");
		else
			r->use_avx2 = 1;
	}
	snprintf(r->symbol, sizeof(r->symbol), "%s",
		 kern_conv_symbol(r->p.variant, r->use_avx2));
	r->flops = 2.0 * CONV_KLEN * (double)r->conv.nout;
	r->footprint = (r->p.variant == CONV_AVX2_ALIGNED ? 4 * n : n) * 4 +
		       r->conv.nout * 4 + CONV_KLEN * 4;
	r->bytes = (double)r->footprint;
	snprintf(r->describe, sizeof(r->describe),
		 "conv1d %s n=%" PRIu64 " (%" PRIu64 " outputs, kernel "
		 "length %d, single precision)",
		 kernel_variant_name(r->p.variant), n, r->conv.nout,
		 CONV_KLEN);
	return 0;
}

static int setup_fft(struct kernel_run *r, struct ppr_err *err)
{
	uint64_t seed = r->p.seed ? r->p.seed : 0x853c49e6748fea9bull;
	uint64_t n = r->p.n, total, i, need;
	int dims = r->desc->id == KERNEL_FFT3D ? 3 : 1;

	if (n < 2 || !is_pow2(n))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s needs --n N, a power of two >= 2 "
				   "(got %" PRIu64 ")", r->desc->name, n);
	if (n > (1ull << 31) || (dims == 3 && n > (1ull << 20)))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "%s --n %" PRIu64 " is too large",
				   r->desc->name, n);
	total = dims == 3 ? n * n * n : n;
	if (total > (UINT64_MAX / 64))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "%s --n %" PRIu64 " is too large",
				   r->desc->name, n);
	/* data + a pristine copy to reset between repetitions */
	need = 2 * total * 16 + n * 4 + n * 16 + 4 * n * 16;
	if (mem_check(need, r->desc->name, err))
		return PPR_ENOMEM;
	r->fft_total = total;
	r->data = xaligned_alloc(total * 16);
	r->orig = xaligned_alloc(total * 16);
	r->rev = xaligned_alloc(n * sizeof(uint32_t));
	r->tw = xaligned_alloc(n * 16);
	r->scratch = xaligned_alloc(4 * n * 16);
	for (i = 0; i < 2 * total; i++)
		r->orig[i] = rnd(&seed);
	memcpy(r->data, r->orig, total * 16);
	kern_fft_tables(n, r->rev, r->tw);
	r->fft = (struct kern_fft_args){
		.n = n, .dims = dims, .data = r->data, .rev = r->rev,
		.tw = r->tw, .scratch = r->scratch,
	};
	r->flops = 5.0 * (double)total * (double)ilog2(total);
	r->footprint = total * 16 + n * 4 + (n - 1) * 16 +
		       (dims == 3 ? 4 * n * 16 : 0);
	/* compulsory: read and write the data once */
	r->bytes = 2.0 * (double)total * 16;
	snprintf(r->symbol, sizeof(r->symbol), "%s",
		 dims == 3 ? "kern_fft3d" : "kern_fft1d");
	if (dims == 3)
		snprintf(r->describe, sizeof(r->describe),
			 "fft3d n=%" PRIu64 " (%" PRIu64 "^3 complex double, "
			 "%.1f MiB)", n, n, (double)total * 16 / 1048576.0);
	else
		snprintf(r->describe, sizeof(r->describe),
			 "fft1d n=%" PRIu64 " (complex double, %.1f KiB)", n,
			 (double)total * 16 / 1024.0);
	return 0;
}

int kernel_run_new(const struct kernel_params *p, struct kernel_run **out,
		   struct ppr_err *err)
{
	struct kernel_run *r = NULL;
	const struct kernel_desc *d;
	int rc;

	*out = NULL;
	d = kernel_desc_find(p->kernel);
	if (!d)
		return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
				   "unknown kernel '%s' (known: spmv-csr, "
				   "spmv-bcsr, conv1d, fft1d, fft3d)",
				   p->kernel ? p->kernel : "");
	r = xcalloc(1, sizeof(*r));
	r->desc = d;
	r->place = -1;
	r->p = *p;
	snprintf(r->input, sizeof(r->input), "%s", p->input ? p->input : "");
	r->p.input = r->input;
	switch (d->id) {
	case KERNEL_SPMV_CSR:
	case KERNEL_SPMV_BCSR:
		rc = setup_spmv(r, err);
		break;
	case KERNEL_CONV1D:
		rc = setup_conv(r, err);
		break;
	case KERNEL_FFT1D:
	case KERNEL_FFT3D:
		rc = setup_fft(r, err);
		break;
	default:
		rc = PPR_EINVAL;
		break;
	}
	if (rc)
		goto fail;
	*out = r;
	return 0;
fail:
	kernel_run_free(r);
	return rc;
}

void kernel_run_free(struct kernel_run *r)
{
	if (!r)
		return;
	if (!r->a_borrowed)
		matrix_csr_release(&r->a);
	matrix_bcsr_release(&r->b);
	free(r->x);
	free(r->y);
	free(r->in);
	free(r->copies_alloc);
	free(r->out_alloc);
	free(r->data);
	free(r->orig);
	free(r->tw);
	free(r->scratch);
	free(r->rev);
	free(r);
}

void kernel_run_native(struct kernel_run *r)
{
	switch (r->desc->id) {
	case KERNEL_SPMV_CSR:
		if (r->place >= 0)
			kern_csr_native_at(&r->csr, r->place);
		else
			kern_csr_native(&r->csr);
		break;
	case KERNEL_SPMV_BCSR:
		if (r->place >= 0)
			kern_bcsr_native_at(&r->bcsr, r->place);
		else
			kern_bcsr_native(&r->bcsr);
		break;
	case KERNEL_CONV1D:
		if (r->place >= 0)
			kern_conv_native_at(&r->conv, r->use_avx2, r->place);
		else
			kern_conv_native(&r->conv, r->use_avx2);
		break;
	case KERNEL_FFT1D:
	case KERNEL_FFT3D:
		kern_fft_native(&r->fft);
		break;
	}
}

/* Register the arrays the kernel references, in a fixed order, for the
 * emitter's reproducible address layout (kernels_int.h). */
static void layout(const struct kernel_run *r, struct kern_layout *em)
{
	uint64_t stride;
	unsigned s;

	switch (r->desc->id) {
	case KERNEL_SPMV_CSR:
		kern_layout_add(em, r->a.row_ptr, (r->a.rows + 1) * 8);
		kern_layout_add(em, r->a.col_idx, r->a.nnz * 4);
		kern_layout_add(em, r->a.vals, r->a.nnz * 8);
		break;
	case KERNEL_SPMV_BCSR:
		kern_layout_add(em, r->b.brow_ptr, (r->b.brows + 1) * 8);
		kern_layout_add(em, r->b.bcol_idx, r->b.nblocks * 4);
		kern_layout_add(em, r->b.vals,
				 r->b.nblocks * r->b.r * r->b.c * 8);
		break;
	case KERNEL_CONV1D:
		stride = ((r->conv.n + 15) & ~(uint64_t)15) * sizeof(float);
		kern_layout_add(em, r->in, stride);
		kern_layout_add(em, r->krev, sizeof(r->krev));
		/* the copies, apart natively (setup_conv), back to back in
		 * the trace as until 2026-11-27 */
		if (r->copies_alloc) {
			for (s = 0; s < 3; s++)
				kern_layout_add_packed(em, r->conv.copies[s],
						       stride);
			kern_layout_add(em, r->conv.copies[3], stride);
		}
		kern_layout_add(em, r->out, stride);
		return;
	case KERNEL_FFT1D:
	case KERNEL_FFT3D:
		kern_layout_add(em, r->data, r->fft_total * 16);
		kern_layout_add(em, r->rev, r->fft.n * 4);
		kern_layout_add(em, r->tw, r->fft.n * 16);
		kern_layout_add(em, r->scratch, 4 * r->fft.n * 16);
		return;
	}
	kern_layout_add(em, r->x, (r->xlen ? r->xlen : 1) * 8);
	kern_layout_add(em, r->y, (r->ylen ? r->ylen : 1) * 8);
}

uint64_t kernel_run_trace_addr(const struct kernel_run *r, const void *p)
{
	struct kern_layout l;

	kern_layout_init(&l);
	layout(r, &l);
	return kern_layout_map(&l, (uint64_t)(uintptr_t)p);
}

int kernel_run_instrumented(struct kernel_run *r, const struct ppr_sink *sink)
{
	struct kern_emit *em = xmalloc(sizeof(*em));
	int rc;

	kern_emit_init(em, sink);
	layout(r, &em->lay);
	switch (r->desc->id) {
	case KERNEL_SPMV_CSR:
		kern_csr_instr(&r->csr, em);
		break;
	case KERNEL_SPMV_BCSR:
		kern_bcsr_instr(&r->bcsr, em);
		break;
	case KERNEL_CONV1D:
		kern_conv_instr(&r->conv, em);
		break;
	case KERNEL_FFT1D:
	case KERNEL_FFT3D:
		kern_fft_instr(&r->fft, em);
		break;
	}
	rc = kern_emit_flush(em);
	free(em);
	return rc;
}

int kernel_run_needs_reset(const struct kernel_run *r)
{
	return r->data && r->orig;
}

void kernel_run_reset(struct kernel_run *r)
{
	if (kernel_run_needs_reset(r))
		memcpy(r->data, r->orig, r->fft_total * 16);
}

double kernel_run_flops(const struct kernel_run *r)
{
	return r->flops;
}

double kernel_run_bytes(const struct kernel_run *r)
{
	return r->bytes;
}

uint64_t kernel_run_footprint(const struct kernel_run *r)
{
	return r->footprint;
}

int kernel_run_code_offsets(const struct kernel_run *r)
{
	if (r->desc->id == KERNEL_CONV1D)
		return kern_conv_placements(r->conv.variant, r->use_avx2);
	if (r->desc->id != KERNEL_SPMV_CSR && r->desc->id != KERNEL_SPMV_BCSR)
		return 0;
	return kern_spmv_placements();
}

int kernel_run_set_code_offset(struct kernel_run *r, int k)
{
	if (k < -1 || k >= kernel_run_code_offsets(r))
		return -1;
	r->place = k;
	return 0;
}

int kernel_run_code_offset(const struct kernel_run *r)
{
	return r->place;
}

const char *kernel_run_symbol(const struct kernel_run *r)
{
	return r->symbol;
}

const char *kernel_run_describe(const struct kernel_run *r)
{
	return r->describe;
}

const char *kernel_run_note(const struct kernel_run *r)
{
	return r->note[0] ? r->note : NULL;
}

const void *kernel_run_output(const struct kernel_run *r, size_t *n,
			      size_t *elem_size)
{
	switch (r->desc->id) {
	case KERNEL_SPMV_CSR:
	case KERNEL_SPMV_BCSR:
		*n = r->a.rows;
		*elem_size = sizeof(double);
		return r->y;
	case KERNEL_CONV1D:
		*n = r->conv.nout;
		*elem_size = sizeof(float);
		return r->out;
	case KERNEL_FFT1D:
	case KERNEL_FFT3D:
		*n = 2 * r->fft_total;
		*elem_size = sizeof(double);
		return r->data;
	}
	*n = 0;
	*elem_size = 0;
	return NULL;
}

/* ---- reference checks ------------------------------------------------- */

/*
 * Errors are normwise per output: |got - ref| / sum_k |a_k * b_k| over the
 * terms of that output, which bounds the rounding error of any summation
 * order (a plain relative error blows up under cancellation).
 */
static double check_spmv(const struct kernel_run *r)
{
	double worst = 0.0;
	uint64_t i, k;

	for (i = 0; i < r->a.rows; i++) {
		double ref = 0.0, mag = 0.0;

		for (k = r->a.row_ptr[i]; k < r->a.row_ptr[i + 1]; k++) {
			double t = r->a.vals[k] * r->x[r->a.col_idx[k]];

			ref += t;
			mag += fabs(t);
		}
		if (mag > 0.0 && fabs(r->y[i] - ref) / mag > worst)
			worst = fabs(r->y[i] - ref) / mag;
		else if (mag == 0.0 && r->y[i] != 0.0)
			worst = INFINITY;
	}
	return worst;
}

static double check_conv(const struct kernel_run *r)
{
	double worst = 0.0;
	uint64_t i;
	int k;

	for (i = 0; i < r->conv.nout; i++) {
		double ref = 0.0, mag = 0.0;

		/* out[i] = sum_k in[i+k] * kernel[15-k] */
		for (k = 0; k < CONV_KLEN; k++) {
			double t = (double)r->in[i + k] *
				   (double)r->kernel[CONV_KLEN - 1 - k];

			ref += t;
			mag += fabs(t);
		}
		if (mag > 0.0 && fabs(r->out[i] - ref) / mag > worst)
			worst = fabs(r->out[i] - ref) / mag;
	}
	return worst;
}

/* Direct DFT along one axis of a 3-D array (or 1-D: n1 = n2 = 1). */
static void dft_axis(const double *in, double *out, uint64_t n,
		     uint64_t count, uint64_t stride, uint64_t outer_stride,
		     uint64_t inner)
{
	uint64_t o, t, k, j;

	for (o = 0; o < count; o++)
		for (t = 0; t < inner; t++) {
			const double *src = in + 2 * (o * outer_stride + t);
			double *dst = out + 2 * (o * outer_stride + t);

			for (k = 0; k < n; k++) {
				long double sr = 0, si = 0;

				for (j = 0; j < n; j++) {
					long double ang = -2.0L * 3.14159265358979323846264338327950288L *
						(long double)((j * k) % n) / (long double)n;
					long double c = cosl(ang), s = sinl(ang);
					long double xr = src[2 * j * stride];
					long double xi = src[2 * j * stride + 1];

					sr += xr * c - xi * s;
					si += xr * s + xi * c;
				}
				dst[2 * k * stride] = (double)sr;
				dst[2 * k * stride + 1] = (double)si;
			}
		}
}

static int check_fft(const struct kernel_run *r, double *worst,
		     struct ppr_err *err)
{
	uint64_t n = r->fft.n, total = r->fft_total, i;
	double *ref, *tmp, mag = 0.0, e = 0.0;

	if ((r->fft.dims == 1 && n > 4096) || (r->fft.dims == 3 && n > 16))
		return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
				   "the direct DFT check is limited to n <= "
				   "4096 (1-D) and n <= 16 (3-D)");
	ref = xmalloc(total * 16);
	tmp = xmalloc(total * 16);
	if (r->fft.dims == 1) {
		dft_axis(r->orig, ref, n, 1, 1, 0, 1);
	} else {
		/* x: stride 1, n^2 lines; y: stride n; z: stride n^2 */
		dft_axis(r->orig, tmp, n, n * n, 1, n, 1);
		dft_axis(tmp, ref, n, n, n, n * n, n);
		dft_axis(ref, tmp, n, 1, n * n, 0, n * n);
		memcpy(ref, tmp, total * 16);
	}
	/* Normwise: max |X - Xref| / sum |x_j| (the DFT's own bound). */
	for (i = 0; i < total; i++)
		mag += hypot(r->orig[2 * i], r->orig[2 * i + 1]);
	for (i = 0; i < total; i++) {
		double d = hypot(r->data[2 * i] - ref[2 * i],
				 r->data[2 * i + 1] - ref[2 * i + 1]);

		if (d > e)
			e = d;
	}
	free(ref);
	free(tmp);
	*worst = mag > 0 ? e / mag : e;
	return 0;
}

int kernel_run_check(struct kernel_run *r, double *max_rel_err,
		     struct ppr_err *err)
{
	switch (r->desc->id) {
	case KERNEL_SPMV_CSR:
	case KERNEL_SPMV_BCSR:
		*max_rel_err = check_spmv(r);
		return 0;
	case KERNEL_CONV1D:
		*max_rel_err = check_conv(r);
		return 0;
	case KERNEL_FFT1D:
	case KERNEL_FFT3D:
		return check_fft(r, max_rel_err, err);
	}
	return PPR_EINVAL;
}
