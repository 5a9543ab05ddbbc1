#!/bin/sh
# dag_lat.sh - microbenchmarks that check the core model's latencies and
# throughputs on THIS machine (run by `make bench`; prints figures).
#
# The core clock is measured with a chain of dependent integer adds (1 cycle
# each), not with the TSC (which ticks at a fixed rate that differs from the
# core clock).  Every other figure is then time x core clock / operations.
# Each case is run 5 times; min and median are printed (the machine is
# shared and noisy: trust the min).
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
PPR=${PPR:-$ROOT/$BUILD/ppr}
[ -x "$PPR" ] || PPR=$ROOT/ppr
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cat > "$tmp/lat.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *self[8] __attribute__((aligned(64)));

#define LOOP(name, setup, body, ...) \
static __attribute__((noinline)) void name(long n) \
{ \
	void *p = self; \
	__asm__ volatile(setup "1:\n\t.rept 16\n\t" body "\n\t.endr\n\tdec %0\n\tjnz 1b\n" \
			 : "+r"(n), "+r"(p) : : __VA_ARGS__); \
}

LOOP(int_add, "", "addq $1, %%rax", "rax", "cc")
LOOP(fp_add, "vxorpd %%xmm0,%%xmm0,%%xmm0\n\t", "vaddsd %%xmm1, %%xmm0, %%xmm0", "xmm0", "xmm1")
LOOP(fp_mul, "vxorpd %%xmm0,%%xmm0,%%xmm0\n\t", "vmulsd %%xmm1, %%xmm0, %%xmm0", "xmm0", "xmm1")
LOOP(fp_fma, "vxorpd %%xmm0,%%xmm0,%%xmm0\n\t", "vfmadd231pd %%ymm1, %%ymm2, %%ymm0", "xmm0", "xmm1")
LOOP(ld_gpr, "", "movq (%1), %1", "memory", "cc")
LOOP(ld_vec, "", "vmovq (%1), %%xmm0\n\tvmovq %%xmm0, %1", "xmm0", "memory")
LOOP(st_fwd, "", "movq %1, -16(%%rsp)\n\tmovq -16(%%rsp), %1", "memory", "cc")
LOOP(fma_tp, "", "vfmadd231pd %%ymm1, %%ymm2, %%ymm3\n\tvfmadd231pd %%ymm1, %%ymm2, %%ymm4\n\t"
     "vfmadd231pd %%ymm1, %%ymm2, %%ymm5\n\tvfmadd231pd %%ymm1, %%ymm2, %%ymm6\n\t"
     "vfmadd231pd %%ymm1, %%ymm2, %%ymm7\n\tvfmadd231pd %%ymm1, %%ymm2, %%ymm8\n\t"
     "vfmadd231pd %%ymm1, %%ymm2, %%ymm9\n\tvfmadd231pd %%ymm1, %%ymm2, %%ymm10",
     "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10")
LOOP(add_tp, "", "vaddpd %%ymm1, %%ymm2, %%ymm3\n\tvaddpd %%ymm1, %%ymm2, %%ymm4\n\t"
     "vaddpd %%ymm1, %%ymm2, %%ymm5\n\tvaddpd %%ymm1, %%ymm2, %%ymm6",
     "xmm3", "xmm4", "xmm5", "xmm6")
LOOP(ld_tp, "", "vmovapd (%1), %%ymm3\n\tvmovapd 32(%1), %%ymm4\n\t"
     "vmovapd (%1), %%ymm5\n\tvmovapd 32(%1), %%ymm6",
     "xmm3", "xmm4", "xmm5", "xmm6", "memory")

LOOP(ldg_tp, "", "movq (%1), %%r8\n\tmovq 8(%1), %%r9\n\t"
     "movq 16(%1), %%r10\n\tmovq 24(%1), %%r11",
     "r8", "r9", "r10", "r11", "memory")
LOOP(ldx_tp, "", "vmovapd (%1), %%xmm3\n\tvmovapd 16(%1), %%xmm4\n\t"
     "vmovapd 32(%1), %%xmm5\n\tvmovapd 48(%1), %%xmm6",
     "xmm3", "xmm4", "xmm5", "xmm6", "memory")
LOOP(lds_tp, "", "vmovsd (%1), %%xmm3\n\tvmovsd 8(%1), %%xmm4\n\t"
     "vmovsd 16(%1), %%xmm5\n\tvmovsd 24(%1), %%xmm6",
     "xmm3", "xmm4", "xmm5", "xmm6", "memory")
LOOP(st_tp, "", "movq %%r8, -16(%%rsp)\n\tmovq %%r8, -24(%%rsp)\n\t"
     "movq %%r8, -32(%%rsp)\n\tmovq %%r8, -40(%%rsp)",
     "memory")

struct cse {
	const char *name;
	void (*fn)(long);
	double ops;          /* operations per 16-line block */
	const char *unit;
};

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static const struct cse cases[] = {
		{ "int_add_latency", int_add, 16, "cy/op" },
		{ "fp_add_latency", fp_add, 16, "cy/op" },
		{ "fp_mul_latency", fp_mul, 16, "cy/op" },
		{ "fp_fma_latency", fp_fma, 16, "cy/op" },
		{ "load_gpr_latency", ld_gpr, 16, "cy/op" },
		{ "load_vec+movq_latency", ld_vec, 16, "cy/op" },
		{ "store_forward_roundtrip", st_fwd, 16, "cy/op" },
		{ "fma_ymm_throughput", fma_tp, 128, "cy/op" },
		{ "fp_add_ymm_throughput", add_tp, 64, "cy/op" },
		{ "load_ymm_throughput", ld_tp, 64, "cy/op" },
		{ "load_xmm_throughput", ldx_tp, 64, "cy/op" },
		{ "load_sd_throughput", lds_tp, 64, "cy/op" },
		{ "load_gpr_throughput", ldg_tp, 64, "cy/op" },
		{ "store_gpr_throughput", st_tp, 64, "cy/op" },
	};
	long n = 2000000;
	double ghz[5], t, f;

	for (int i = 0; i < 8; i++)
		self[i] = &self[0];
	/* core clock from the 1-cycle add chain */
	int_add(n);
	for (int r = 0; r < 5; r++) {
		t = now();
		int_add(n);
		t = now() - t;
		ghz[r] = 16.0 * n / t / 1e9;
	}
	qsort(ghz, 5, sizeof(double), cmp);
	f = ghz[4];   /* fastest run: least disturbed */
	printf("core clock (dependent adds): %.3f GHz max, %.3f median\n", f, ghz[2]);
	printf("%-26s %10s %10s\n", "case", "min cy/op", "median");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		double cy[5];

		cases[c].fn(n / 4);
		for (int r = 0; r < 5; r++) {
			t = now();
			cases[c].fn(n);
			t = now() - t;
			cy[r] = t * f * 1e9 / (cases[c].ops * n);
		}
		qsort(cy, 5, sizeof(double), cmp);
		printf("%-26s %10.2f %10.2f\n", cases[c].name, cy[0], cy[2]);
	}
	return 0;
}
EOF
${CC:-cc} -O2 -mavx2 -mfma -o "$tmp/lat" "$tmp/lat.c"
echo "== dag_lat: core-model latencies measured on this machine"
"$tmp/lat"
if [ -x "$PPR" ]; then
	echo "-- the same figures from the zen5 model (ppr dag --cpu zen --dump-core):"
	"$PPR" dag --cpu zen --dump-core | grep -E '"(load_latency_gpr|load_latency_vec|store_forward_latency)"|"(fp_add|fp_mul|fp_fma|int_alu)"' | sed 's/^ */   /'
fi
