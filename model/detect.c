/*
 * detect.c - measure the machine ppr runs on: caches from sysfs, the core
 * clock, FMA peak, read bandwidth per working-set size, load latency.
 *
 * Notes:
 * - Cycles come from chains of dependent instructions whose latency is a
 *   known number of core cycles (integer add: 1 cycle), timed with the
 *   thread's CPU-time clock (CLOCK_THREAD_CPUTIME_ID).  The TSC runs at a fixed rate that is not the core
 *   clock (here about 2.6 GHz against 3.7 GHz under load), so it is never
 *   used as a cycle counter.
 * - Bandwidth kernels are x86-64 inline assembly so the compiler can
 *   neither vectorise them differently nor delete the loads: 256-bit aligned
 *   loads into registers that are never used (as likwid-bench's "load"
 *   kernel does), 8 loads per 256 bytes.  Without AVX, 128-bit loads.
 * - Each run repeats the kernel until at least min_seconds have passed, so
 *   timer resolution does not matter; runs are summarised by min / median /
 *   max.  The machine is shared and virtualised: take the median.
 * - The pointer chase asks for transparent huge pages (madvise); where the
 *   kernel refuses, the latency includes TLB misses.
 * - Nothing here needs hardware performance counters.
 * - Usable capacity: on a virtual machine the last level is shared with
 *   the host's other tenants, whose lines take part of it; a read sweep
 *   over working sets finds where the bandwidth falls from the level's
 *   to the memory's (halfway), and `ppr machine detect` writes that share
 *   of the ways as the level's usable_ways.  On the zen4-epyc guest
 *   (32 MiB L3) it falls between 12 and 16 MiB.
 */
#include "model/model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "common/xalloc.h"

/*
 * The thread's CPU time, not wall time: time the thread spends descheduled
 * (this machine is shared) does not count, so a figure does not drop when
 * another process takes the core.
 */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void summarise(double *v, unsigned n, struct detect_stat *st)
{
	qsort(v, n, sizeof(*v), cmp_double);
	st->runs = n;
	st->min = v[0];
	st->max = v[n - 1];
	st->median = (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- sysfs ---------------------------------------------------------- */

static int read_line(const char *dir, const char *name, char *buf, size_t n)
{
	char path[1024];
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = 0;
	return 0;
}

static int read_u64(const char *dir, const char *name, uint64_t *out,
		    struct ppr_err *err)
{
	char buf[64], *end;
	unsigned long long v;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_line(dir, name, buf, sizeof(buf)))
		return ppr_err_set(err, PPR_EIO, path, 0, 0,
				   "cannot read: %s", strerror(errno));
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return ppr_err_set(err, PPR_EFORMAT, path, 1, 0,
				   "'%s' is not a number", buf);
	/* sizes are printed as e.g. "48K" or "1024K" or "32M" */
	if (*end == 'K')
		v <<= 10, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	else if (*end == 'G')
		v <<= 30, end++;
	if (*end)
		return ppr_err_set(err, PPR_EFORMAT, path, 1, 0,
				   "'%s' is not a number", buf);
	*out = v;
	return 0;
}

int detect_caches_sysfs(const char *root, struct detect_cache *out,
			unsigned *n, struct ppr_err *err)
{
	unsigned i, k = 0;
	int rc;

	for (i = 0; i < 16 && k < DETECT_MAX_CACHES; i++) {
		char dir[900], probe[32];
		uint64_t v;
		struct detect_cache *c = &out[k];

		snprintf(dir, sizeof(dir), "%s/index%u", root, i);
		if (read_line(dir, "level", probe, sizeof(probe)))
			break;
		memset(c, 0, sizeof(*c));
		if ((rc = read_u64(dir, "level", &v, err)))
			return rc;
		c->level = (unsigned)v;
		if (read_line(dir, "type", c->type, sizeof(c->type)))
			return ppr_err_set(err, PPR_EIO, dir, 0, 0,
					   "cannot read cache type");
		if ((rc = read_u64(dir, "size", &c->size, err)) ||
		    (rc = read_u64(dir, "number_of_sets", &c->sets, err)))
			return rc;
		if ((rc = read_u64(dir, "ways_of_associativity", &v, err)))
			return rc;
		c->ways = (uint32_t)v;
		if ((rc = read_u64(dir, "coherency_line_size", &v, err)))
			return rc;
		c->line_size = (uint32_t)v;
		k++;
	}
	if (!k)
		return ppr_err_set(err, PPR_ENOENT, root, 0, 0,
				   "no cache description found");
	*n = k;
	return 0;
}

/* ---- core clock ----------------------------------------------------- */

#if defined(__x86_64__)
/* 100 dependent adds per iteration: 100 cycles (latency 1). */
static void add_chain(uint64_t iters)
{
	uint64_t x = 0;

	while (iters--)
		__asm__ volatile(".rept 100\n\taddq $1, %0\n\t.endr"
				 : "+r"(x));
	__asm__ volatile("" : : "r"(x));
}
#endif

int detect_core_clock(unsigned runs, struct detect_stat *ghz,
		      struct ppr_err *err)
{
#if defined(__x86_64__)
	double v[64];
	uint64_t iters = 1000000;
	unsigned r;

	if (!runs || runs > 64)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64");
	add_chain(iters); /* warm up: let the clock ramp */
	for (r = 0; r < runs; r++) {
		double t0, t;

		/* grow the chain until a run takes >= 20 ms */
		for (;;) {
			t0 = now_s();
			add_chain(iters);
			t = now_s() - t0;
			if (t >= 0.02)
				break;
			iters *= 2;
		}
		v[r] = (double)iters * 100 / t / 1e9;
	}
	summarise(v, runs, ghz);
	return 0;
#else
	(void)runs; (void)ghz;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "clock measurement needs x86-64");
#endif
}

/* ---- FMA peak ------------------------------------------------------- */

#if defined(__x86_64__)
/* 12 independent vfmadd231pd ymm chains: 12 FMAs x 4 doubles x 2 flops. */
static void fma_chains(uint64_t iters)
{
	__asm__ volatile(
		"vxorpd %%ymm0, %%ymm0, %%ymm0\n\t"
		"vmovapd %%ymm0, %%ymm1\n\tvmovapd %%ymm0, %%ymm2\n\t"
		"vmovapd %%ymm0, %%ymm3\n\tvmovapd %%ymm0, %%ymm4\n\t"
		"vmovapd %%ymm0, %%ymm5\n\tvmovapd %%ymm0, %%ymm6\n\t"
		"vmovapd %%ymm0, %%ymm7\n\tvmovapd %%ymm0, %%ymm8\n\t"
		"vmovapd %%ymm0, %%ymm9\n\tvmovapd %%ymm0, %%ymm10\n\t"
		"vmovapd %%ymm0, %%ymm11\n\tvmovapd %%ymm0, %%ymm12\n\t"
		"vmovapd %%ymm0, %%ymm13\n\t"
		"1:\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm0\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm1\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm2\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm3\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm4\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm5\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm6\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm7\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm8\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm9\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm10\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm11\n\t"
		"decq %0\n\t"
		"jnz 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(iters)
		:
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "cc");
}
/* The same with 512-bit registers (AVX-512F): 12 x 8 doubles x 2 flops. */
static void fma_chains512(uint64_t iters)
{
	__asm__ volatile(
		"vpxorq %%zmm0, %%zmm0, %%zmm0\n\t"
		"vmovapd %%zmm0, %%zmm1\n\tvmovapd %%zmm0, %%zmm2\n\t"
		"vmovapd %%zmm0, %%zmm3\n\tvmovapd %%zmm0, %%zmm4\n\t"
		"vmovapd %%zmm0, %%zmm5\n\tvmovapd %%zmm0, %%zmm6\n\t"
		"vmovapd %%zmm0, %%zmm7\n\tvmovapd %%zmm0, %%zmm8\n\t"
		"vmovapd %%zmm0, %%zmm9\n\tvmovapd %%zmm0, %%zmm10\n\t"
		"vmovapd %%zmm0, %%zmm11\n\tvmovapd %%zmm0, %%zmm12\n\t"
		"vmovapd %%zmm0, %%zmm13\n\t"
		"1:\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm0\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm1\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm2\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm3\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm4\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm5\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm6\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm7\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm8\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm9\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm10\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm11\n\t"
		"decq %0\n\t"
		"jnz 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(iters)
		:
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "cc");
}
#endif

int detect_fma_peak(double clock_ghz, unsigned runs, struct detect_stat *fpc,
		    struct ppr_err *err)
{
#if defined(__x86_64__)
	double v[64];
	uint64_t iters = 100000;
	unsigned r;
	int wide;

	if (!runs || runs > 64 || !(clock_ghz > 0))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64 and the clock positive");
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
		return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
				   "this CPU has no AVX2/FMA: FMA peak not measured");
	wide = __builtin_cpu_supports("avx512f");
	fma_chains(iters);
	for (r = 0; r < runs; r++) {
		double t0, t, f256, f512 = 0;

		for (;;) {
			t0 = now_s();
			fma_chains(iters);
			t = now_s() - t0;
			if (t >= 0.02)
				break;
			iters *= 2;
		}
		f256 = (double)iters * 12 * 8 / (t * clock_ghz * 1e9);
		if (wide) {
			t0 = now_s();
			fma_chains512(iters);
			t = now_s() - t0;
			f512 = (double)iters * 12 * 16 / (t * clock_ghz * 1e9);
		}
		v[r] = fmax(f256, f512);
	}
	summarise(v, runs, fpc);
	return 0;
#else
	(void)clock_ghz; (void)runs; (void)fpc;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "FMA peak measurement needs x86-64");
#endif
}

/* ---- read bandwidth ------------------------------------------------- */

#if defined(__x86_64__)
static void load_avx(const char *p, const char *end)
{
	__asm__ volatile(
		"1:\n\t"
		"vmovdqa 0(%0), %%ymm0\n\tvmovdqa 32(%0), %%ymm1\n\t"
		"vmovdqa 64(%0), %%ymm2\n\tvmovdqa 96(%0), %%ymm3\n\t"
		"vmovdqa 128(%0), %%ymm4\n\tvmovdqa 160(%0), %%ymm5\n\t"
		"vmovdqa 192(%0), %%ymm6\n\tvmovdqa 224(%0), %%ymm7\n\t"
		"addq $256, %0\n\t"
		"cmpq %1, %0\n\t"
		"jb 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(p)
		: "r"(end)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "cc", "memory");
}

static void load_sse(const char *p, const char *end)
{
	__asm__ volatile(
		"1:\n\t"
		"movdqa 0(%0), %%xmm0\n\tmovdqa 16(%0), %%xmm1\n\t"
		"movdqa 32(%0), %%xmm2\n\tmovdqa 48(%0), %%xmm3\n\t"
		"movdqa 64(%0), %%xmm4\n\tmovdqa 80(%0), %%xmm5\n\t"
		"movdqa 96(%0), %%xmm6\n\tmovdqa 112(%0), %%xmm7\n\t"
		"movdqa 128(%0), %%xmm0\n\tmovdqa 144(%0), %%xmm1\n\t"
		"movdqa 160(%0), %%xmm2\n\tmovdqa 176(%0), %%xmm3\n\t"
		"movdqa 192(%0), %%xmm4\n\tmovdqa 208(%0), %%xmm5\n\t"
		"movdqa 224(%0), %%xmm6\n\tmovdqa 240(%0), %%xmm7\n\t"
		"addq $256, %0\n\t"
		"cmpq %1, %0\n\t"
		"jb 1b\n\t"
		: "+r"(p)
		: "r"(end)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "cc", "memory");
}
#endif

int detect_read_bandwidth(uint64_t bytes, unsigned runs,
			  struct detect_stat *gbs, struct ppr_err *err)
{
#if defined(__x86_64__)
	double v[64];
	char *buf;
	uint64_t reps = 1;
	unsigned r;
	int avx;

	if (!runs || runs > 64)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64");
	bytes = (bytes + 255) & ~(uint64_t)255;
	if (bytes < 4096)
		bytes = 4096;
	buf = xaligned_alloc(bytes);
	memset(buf, 1, bytes);
	__builtin_cpu_init();
	avx = __builtin_cpu_supports("avx");
	for (r = 0; r < runs; r++) {
		double t0, t;
		uint64_t k;

		for (;;) {
			t0 = now_s();
			for (k = 0; k < reps; k++) {
				if (avx)
					load_avx(buf, buf + bytes);
				else
					load_sse(buf, buf + bytes);
			}
			t = now_s() - t0;
			if (t >= 0.02)
				break;
			reps *= 2;
		}
		v[r] = (double)bytes * reps / t / 1e9;
	}
	free(buf);
	summarise(v, runs, gbs);
	return 0;
#else
	(void)bytes; (void)runs; (void)gbs;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "bandwidth measurement needs x86-64");
#endif
}

/* ---- usable capacity of a shared level ------------------------------ */

double detect_capacity_crossing(const uint64_t *ws, const double *gbs,
				unsigned n, double level_gbs,
				double below_gbs)
{
	double half = 0.5 * (level_gbs + below_gbs);
	unsigned i;

	if (!n)
		return 0;
	if (gbs[0] < half)
		return (double)ws[0];
	for (i = 1; i < n; i++)
		if (gbs[i] < half) {
			double f = (gbs[i - 1] - half) / (gbs[i - 1] - gbs[i]);

			return (double)ws[i - 1] +
			       f * (double)(ws[i] - ws[i - 1]);
		}
	return (double)ws[n - 1];
}

int detect_usable_capacity(uint64_t lo, uint64_t hi, uint64_t step,
			   uint64_t below, unsigned runs,
			   struct detect_capacity *out, struct ppr_err *err)
{
	struct detect_stat st;
	uint64_t ws;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!lo || !step || hi < lo || below <= hi ||
	    (hi - lo) / step + 1 > DETECT_MAX_POINTS)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "capacity sweep: need 0 < lo <= hi < below "
				   "and at most %d working sets",
				   DETECT_MAX_POINTS);
	for (ws = lo; ws <= hi; ws += step) {
		if ((rc = detect_read_bandwidth(ws, runs, &st, err)))
			return rc;
		out->ws[out->npoints] = ws;
		out->gbs[out->npoints++] = st.median;
	}
	if ((rc = detect_read_bandwidth(below, runs, &st, err)))
		return rc;
	out->below_gbs = st.median;
	out->level_gbs = out->gbs[0];
	out->bytes = detect_capacity_crossing(out->ws, out->gbs,
					      out->npoints, out->level_gbs,
					      out->below_gbs);
	return 0;
}

/* ---- latency -------------------------------------------------------- */

int detect_latency(uint64_t bytes, unsigned runs, struct detect_stat *ns,
		   struct ppr_err *err)
{
	double v[64];
	size_t nlines, i, *perm;
	void **buf;
	const size_t stride = 64 / sizeof(void *);
	uint64_t x = 88172645463325252ull;
	unsigned r;

	if (!runs || runs > 64 || bytes < 4096)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64 and the set >= 4 KiB");
	nlines = bytes / 64;
	if (posix_memalign((void **)&buf, (size_t)2 << 20, nlines * 64))
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "cannot allocate %llu bytes for the chase",
				   (unsigned long long)bytes);
	/* Huge pages where the kernel allows them, so the chase measures the
	 * memory, not page walks (4 KiB pages over 256 MiB miss the TLB on
	 * nearly every load). */
	madvise(buf, nlines * 64, MADV_HUGEPAGE);
	perm = xmalloc(nlines * sizeof(*perm));
	for (i = 0; i < nlines; i++)
		perm[i] = i;
	/* Fisher-Yates with xorshift64: a random cycle through all lines. */
	for (i = nlines - 1; i > 0; i--) {
		size_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % (i + 1);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < nlines; i++)
		buf[perm[i] * stride] = &buf[perm[(i + 1) % nlines] * stride];
	free(perm);
	for (r = 0; r < runs; r++) {
		void **p = &buf[0];
		uint64_t steps = nlines * 4 + 100000, k;
		double t0, t;

		for (k = 0; k < nlines; k++) /* warm */
			p = (void **)*p;
		t0 = now_s();
		for (k = 0; k < steps; k++)
			p = (void **)*p;
		t = now_s() - t0;
		__asm__ volatile("" : : "r"(p));
		v[r] = t / (double)steps * 1e9;
	}
	free(buf);
	summarise(v, runs, ns);
	return 0;
}
