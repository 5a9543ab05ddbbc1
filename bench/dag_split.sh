#!/bin/sh
# dag_split.sh - the cost of a line-crossing (and page-crossing) 256-bit
# load on THIS machine: the figures behind the core model's
# line_split_load_slots / line_split_load_latency (machines/*.json core
# object) and the convolution's split rates (model/loops.c).
#
# Each case is a loop of 16 loads (or a dependent chain) on L1-resident
# data; thread CPU time (CLOCK_THREAD_CPUTIME_ID), fastest of RUNS (default
# 31) runs; the core clock from a chain of dependent 1-cycle adds timed the
# same way (fastest run).  Printed: cycles per load (throughput cases) or
# per link (latency cases), min and median over the runs.
#   tp_*    16 independent vmovups ymm loads per iteration
#   lat_*   vmovdqu ymm -> vmovq -> address of the next load (a chain);
#           minus the unsplit chain = the extra latency of a split
#   conv_*  the convolution's access pattern per block of 16 outputs
#           (16 broadcasts + 32 FMAs with a memory operand, 2 chains of
#           16 FMAs, stores of 2 vectors): the share of split loads of
#           algorithm 2 (7/16) and algorithm 3 (1/4); out is 2 KiB from
#           in modulo 4 KiB, and, for algorithm 2, 64 and 128 bytes
#           (4K aliasing: the stores look like they overlap the next
#           blocks' loads)
set -e
RUNS=${RUNS:-31}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cat > "$tmp/split.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static char *buf;

/* 16 loads of 32 bytes at base + o0..o15 (string of offsets), n times */
#define TP(name, offs) \
static __attribute__((noinline)) void name(long n) \
{ \
	char *p = buf; \
	__asm__ volatile("1:\n\t" offs "\n\tdec %0\n\tjnz 1b\n" \
			 : "+r"(n), "+r"(p) : : "xmm0", "xmm1", "xmm2", \
			   "xmm3", "memory", "cc"); \
}
#define L(o, r) "vmovups " #o "(%1), %%ymm" #r "\n\t"
#define L4(a, b, c, d) L(a, 0) L(b, 1) L(c, 2) L(d, 3)

TP(tp_nosplit, L4(0, 32, 64, 96) L4(128, 160, 192, 224)
	       L4(256, 288, 320, 352) L4(384, 416, 448, 480))
TP(tp_nosplit16, L4(16, 80, 144, 208) L4(272, 336, 400, 464)
		 L4(16, 80, 144, 208) L4(272, 336, 400, 464))
TP(tp_split, L4(48, 112, 176, 240) L4(304, 368, 432, 496)
	     L4(48, 112, 176, 240) L4(304, 368, 432, 496))
TP(tp_split4, L4(60, 124, 188, 252) L4(316, 380, 444, 508)
	      L4(60, 124, 188, 252) L4(316, 380, 444, 508))
TP(tp_page, L4(4080, 8176, 4080, 8176) L4(4080, 8176, 4080, 8176)
	    L4(4080, 8176, 4080, 8176) L4(4080, 8176, 4080, 8176))
/* one split in 2 / 4 loads (the rest unsplit, same lines) */
TP(tp_half, L4(48, 0, 112, 64) L4(176, 128, 240, 192)
	    L4(48, 0, 112, 64) L4(176, 128, 240, 192))
TP(tp_quarter, L4(48, 0, 16, 32) L4(112, 64, 80, 96)
	       L4(176, 128, 144, 160) L4(240, 192, 208, 224))

/* chain: the loaded qword is the base address again */
#define LAT(name, off) \
static __attribute__((noinline)) void name(long n) \
{ \
	char *p = buf; \
	__asm__ volatile("1:\n\t.rept 16\n\tvmovdqu " #off "(%1), %%ymm0\n\t" \
			 "vmovq %%xmm0, %1\n\t.endr\n\tdec %0\n\tjnz 1b\n" \
			 : "+r"(n), "+r"(p) : : "xmm0", "memory", "cc"); \
}
LAT(lat_nosplit, 0)
LAT(lat_split, 48)
LAT(lat_page, 4080)

/* the convolution per block: w = broadcast(k[j]); acc0 += w * in[j..j+7];
 * acc1 += w * in[j+8..j+15]; j = 0..15; 2 stores.  'step' bytes between
 * the loads of successive taps: 4 (algorithm 2, 7 of 16 split) or the
 * aligned copies' pattern (algorithm 3: 16-byte steps over 4 copies, 1 of
 * 4 split).  The block advances 64 bytes. */
#define T2(o, k) "vbroadcastss " #k "(%3), %%ymm2\n\t" \
	"vfmadd231ps " #o "(%1), %%ymm2, %%ymm0\n\t" \
	"vfmadd231ps " #o "+32(%1), %%ymm2, %%ymm1\n\t"
#define Z "vxorps %%xmm0, %%xmm0, %%xmm0\n\tvxorps %%xmm1, %%xmm1, %%xmm1\n\t"
#define S "vmovups %%ymm0, (%2)\n\tvmovups %%ymm1, 32(%2)\n\t" \
	"add $64, %1\n\tadd $64, %2\n\t"
static __attribute__((noinline)) void conv2(long n, char *in, char *out,
					    float *k)
{
	__asm__ volatile("1:\n\t" Z
		T2(0, 0) T2(4, 4) T2(8, 8) T2(12, 12) T2(16, 16) T2(20, 20)
		T2(24, 24) T2(28, 28) T2(32, 32) T2(36, 36) T2(40, 40)
		T2(44, 44) T2(48, 48) T2(52, 52) T2(56, 56) T2(60, 60) S
		"dec %0\n\tjnz 1b\n"
		: "+r"(n), "+r"(in), "+r"(out) : "r"(k)
		: "xmm0", "xmm1", "xmm2", "memory", "cc");
}
/* copies s = 0..3 at in + s*C (C = 16 KiB + 256), tap
 * 4q+s at copy s offset 16q */
#define C3 "16640"
#define T3(q, s, k) "vbroadcastss " #k "(%3), %%ymm2\n\t" \
	"vfmadd231ps " #q "*16+" #s "*" C3 "(%1), %%ymm2, %%ymm0\n\t" \
	"vfmadd231ps " #q "*16+32+" #s "*" C3 "(%1), %%ymm2, %%ymm1\n\t"
static __attribute__((noinline)) void conv3(long n, char *in, char *out,
					    float *k)
{
	__asm__ volatile("1:\n\t" Z
		T3(0, 0, 0) T3(0, 1, 4) T3(0, 2, 8) T3(0, 3, 12)
		T3(1, 0, 16) T3(1, 1, 20) T3(1, 2, 24) T3(1, 3, 28)
		T3(2, 0, 32) T3(2, 1, 36) T3(2, 2, 40) T3(2, 3, 44)
		T3(3, 0, 48) T3(3, 1, 52) T3(3, 2, 56) T3(3, 3, 60) S
		"dec %0\n\tjnz 1b\n"
		: "+r"(n), "+r"(in), "+r"(out) : "r"(k)
		: "xmm0", "xmm1", "xmm2", "memory", "cc");
}

static char *cin, *cout;
static float kk[16];
static void c2(long n) { conv2(n, cin, cout + 2048, kk); }
/* out 64 / 128 bytes after in modulo 4 KiB (out right behind in on the
 * heap): the stores 4K-alias the next blocks' loads */
static void c2a64(long n) { conv2(n, cin, cout + 64, kk); }
static void c2a128(long n) { conv2(n, cin, cout + 128, kk); }
static void c3(long n) { conv3(n, cin, cout + 2048, kk); }
/* the same with every load unsplit: 64-byte aligned input */
static __attribute__((noinline)) void conv0(long n, char *in, char *out,
					    float *k)
{
	__asm__ volatile("1:\n\t" Z
		T2(0, 0) T2(0, 4) T2(0, 8) T2(0, 12) T2(0, 16) T2(0, 20)
		T2(0, 24) T2(0, 28) T2(0, 32) T2(0, 36) T2(0, 40)
		T2(0, 44) T2(0, 48) T2(0, 52) T2(0, 56) T2(0, 60) S
		"dec %0\n\tjnz 1b\n"
		: "+r"(n), "+r"(in), "+r"(out) : "r"(k)
		: "xmm0", "xmm1", "xmm2", "memory", "cc");
}
static void c0(long n) { conv0(n, cin, cout + 2048, kk); }

static __attribute__((noinline)) void adds(long n)
{
	long a = 0, one = 1;

	/* a register addend: Golden Cove and later add small immediates
	   in the renamer at no latency (model/detect.c, add_chain) */
	__asm__ volatile("" : "+r"(one));
	__asm__ volatile("1:\n.rept 16\naddq %2, %1\n.endr\ndec %0\njnz 1b\n"
			 : "+r"(n), "+r"(a) : "r"(one) : "cc");
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct cse {
	const char *name;
	void (*fn)(long);
	long n;         /* iterations per run */
	double ops;     /* loads / links / blocks per iteration */
	const char *unit;
};

int main(int argc, char **argv)
{
	static const struct cse cases[] = {
		{ "tp_nosplit (32B-aligned)", tp_nosplit, 100000, 16, "cy/load" },
		{ "tp_nosplit16 (16B, in line)", tp_nosplit16, 100000, 16, "cy/load" },
		{ "tp_split (all @48)", tp_split, 100000, 16, "cy/load" },
		{ "tp_split4 (all @60)", tp_split4, 100000, 16, "cy/load" },
		{ "tp_half (1 in 2 split)", tp_half, 100000, 16, "cy/load" },
		{ "tp_quarter (1 in 4 split)", tp_quarter, 100000, 16, "cy/load" },
		{ "tp_page (all cross 4K)", tp_page, 20000, 16, "cy/load" },
		{ "lat_nosplit", lat_nosplit, 20000, 16, "cy/link" },
		{ "lat_split (@48)", lat_split, 20000, 16, "cy/link" },
		{ "lat_page (@4080)", lat_page, 20000, 16, "cy/link" },
		{ "conv_nosplit (0 of 32)", c0, 100, 1, "cy/block" },
		{ "conv_alg3 (8 of 32 split)", c3, 100, 1, "cy/block" },
		{ "conv_alg2 (14 of 32 split)", c2, 100, 1, "cy/block" },
		{ "conv_alg2, out = in+64 mod 4K", c2a64, 100, 1, "cy/block" },
		{ "conv_alg2, out = in+128 mod 4K", c2a128, 100, 1, "cy/block" },
	};
	int runs = argc > 1 ? atoi(argv[1]) : 31;
	double f = 0, *v;

	if (runs < 3)
		runs = 3;
	v = calloc((size_t)runs, sizeof(double));
	buf = aligned_alloc(4096, 16384);
	/* the conv blocks: 100 blocks x 64 B per copy, 4 copies: L1 */
	cin = aligned_alloc(4096, 4 * 16640 + 4096);
	cout = aligned_alloc(4096, 65536);
	if (!v || !buf || !cin || !cout)
		return 1;
	memset(buf, 0, 16384);
	memset(cin, 0, 4 * 16640 + 4096);
	for (int i = 0; i < 16; i++)
		kk[i] = 0.0f;
	*(char **)(buf + 0) = buf;
	*(char **)(buf + 48) = buf;
	*(char **)(buf + 4080) = buf;
	for (int r = 0; r < runs; r++) {
		double t = now(), g;

		adds(100000);
		t = now() - t;
		g = 16.0 * 100000 / t / 1e9;
		if (g > f)
			f = g;
	}
	printf("core clock (dependent adds, fastest of %d): %.3f GHz\n", runs, f);
	printf("%-30s %9s %9s\n", "case", "min", "median");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		cases[c].fn(cases[c].n);
		for (int r = 0; r < runs; r++) {
			double t = now();

			for (int k = 0; k < 20; k++)
				cases[c].fn(cases[c].n);
			t = now() - t;
			v[r] = t * f * 1e9 / (20.0 * cases[c].n * cases[c].ops);
		}
		qsort(v, (size_t)runs, sizeof(double), cmp);
		printf("%-30s %9.2f %9.2f %s\n", cases[c].name, v[0],
		       v[runs / 2], cases[c].unit);
	}
	free(v);
	return 0;
}
EOF
${CC:-cc} -O2 -mavx2 -mfma -o "$tmp/split" "$tmp/split.c"
echo "== dag_split: line- and page-crossing 256-bit loads on this machine"
echo "load: $(uptime | sed 's/.*load average: //')"
"$tmp/split" "$RUNS"
echo "load: $(uptime | sed 's/.*load average: //')"
