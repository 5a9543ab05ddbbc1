#!/bin/sh
# dag_lat.sh - microbenchmarks that check the core model's latencies and
# throughputs on THIS machine (run by `make bench`; prints figures).
#
# The core clock is measured with a chain of dependent integer adds (1 cycle
# each), not with the TSC (which ticks at a fixed rate that differs from the
# core clock).  Every other figure is then time x core clock / operations.
# Each case is run 5 times; min and median are printed (the machine is
# shared and noisy: trust the min).  Then load mixes and scheduler fill
# (thread CPU time, fastest of 101), each beside ppr's figure for this CPU's core model (bench/host_core.sh).
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
PPR=${PPR:-$ROOT/$BUILD/ppr}
[ -x "$PPR" ] || PPR=$ROOT/ppr
. "$ROOT/bench/host_core.sh"
host_core
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cat > "$tmp/lat.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
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

/* a register addend: Golden Cove and later add small immediates in the
   renamer at no latency (model/detect.c, add_chain) */
LOOP(int_add, "movl $1, %%ecx\n\t", "addq %%rcx, %%rax", "rax", "rcx", "cc")
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

LOOP(shuf_tp, "", "vunpckhpd %%ymm1, %%ymm2, %%ymm3\n\tvpermilpd $5, %%ymm1, %%ymm4\n\t"
     "vshufpd $5, %%ymm1, %%ymm2, %%ymm5\n\tvunpcklpd %%ymm1, %%ymm2, %%ymm6",
     "xmm3", "xmm4", "xmm5", "xmm6")
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
/* AVX2 gathers of 4 doubles, independent (the mask re-armed each time) */
LOOP(gat_tp, "vpxor %%xmm1, %%xmm1, %%xmm1\n\t",
     "vpcmpeqd %%ymm3, %%ymm3, %%ymm3\n\tvgatherdpd %%ymm3, (%1,%%xmm1,8), %%ymm2",
     "xmm1", "xmm2", "xmm3", "memory")
/* a loop of 11 mixed operations and its dec/jnz, no port saturated (4
 * ALU, 3 loads, 4 FP, 1 store; 16 iterations per call of 16 "ops"):
 * what dispatch sustains in a short loop, not in straight-line code */
static __attribute__((noinline)) void mix11(long n)
{
	void *p = self;

	n *= 16;
	__asm__ volatile(".p2align 6\n1:\n\t"
		"addq $1, %%r8\n\taddq $1, %%r9\n\taddq $1, %%r10\n\t"
		"movq (%1), %%r11\n\tmovq 8(%1), %%rax\n\tvmovsd 16(%1), %%xmm0\n\t"
		"vaddsd %%xmm1, %%xmm1, %%xmm2\n\tvmulsd %%xmm1, %%xmm1, %%xmm3\n\t"
		"vaddsd %%xmm1, %%xmm1, %%xmm4\n\tmovq %%r8, 64(%1)\n\t"
		"vmulsd %%xmm1, %%xmm1, %%xmm5\n\tdec %0\n\tjnz 1b\n\t"
		: "+r"(n), "+r"(p) : : "r8", "r9", "r10", "r11", "rax", "xmm0",
		  "xmm2", "xmm3", "xmm4", "xmm5", "memory", "cc");
}

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

/* usage: lat [CPU [clock]]: on CPU (pinned); "clock": the add chains' clock
   line alone */
int main(int argc, char **argv)
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
		{ "shuffle_ymm_throughput", shuf_tp, 64, "cy/op" },
		{ "store_gpr_throughput", st_tp, 64, "cy/op" },
		{ "gather_ymm_throughput", gat_tp, 16, "cy/op" },
		{ "loop_of_12_mixed_ops", mix11, 16, "cy/iter" },
	};
	long n = 2000000;
	double ghz[5], t, f;

	if (argc > 1) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(atoi(argv[1]), &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("lat: sched_setaffinity");
			return 1;
		}
	}
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
	if (argc > 2) {
		printf("core clock on CPU %s (dependent adds): %.3f GHz max, %.3f median\n",
		       argv[1], f, ghz[2]);
		return 0;
	}
	printf("core clock (dependent adds): %.3f GHz max, %.3f median\n", f, ghz[2]);
	{
		/* and in 400 windows of about 0.2 ms, as ppr machine detect
		   times the clock it writes (cli/cmd_machine.c,
		   clock_written): runs this short are often not interrupted.
		   Its own chain, not `ppr machine detect --clock-only`: this
		   is the yardstick detect's clock is checked against */
		static double w[400];
		long nw = (long)(2e-4 * f * 1e9 / 16) + 1;

		for (int r = 0; r < 400; r++) {
			t = now();
			int_add(nw);
			w[r] = 16.0 * nw / (now() - t) / 1e9;
		}
		qsort(w, 400, sizeof(double), cmp);
		printf("core clock in 400 windows of 0.2 ms: %.3f GHz 95th percentile, "
		       "%.3f fastest, %.3f median\n", w[379], w[399],
		       0.5 * (w[199] + w[200]));
	}
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
# A virtual machine's vCPUs can run at different clocks (the Zen 5 guest,
# 2026-12-07: 1.1-1.7% apart), and `ppr machine detect` measures on the
# fastest CPU by its add chains (--cpu fastest): so the chains' clock on
# every CPU this shell may use, then every figure on the fastest (LAT_CPU=N:
# on CPU N), which is the one to hold detect's clock against.
. "$ROOT/bench/speed_probe.sh"
cpus=$(speed_cpus)
echo "== dag_lat: the core clock of each CPU"
best=${LAT_CPU:-}
top=0
for c in $cpus; do
	line=$("$tmp/lat" "$c" clock) || exit 1
	echo "$line"
	g=$(echo "$line" | awk '{ print $(NF - 4) }')
	if [ -z "${LAT_CPU:-}" ] && awk -v g="$g" -v t="$top" 'BEGIN { exit !(g > t) }'; then
		best=$c top=$g
	fi
done
echo "== dag_lat: core-model latencies measured on this machine (CPU ${best:-any})"
"$tmp/lat" $best
if [ -x "$PPR" ]; then
	echo "-- the same figures from the $CPU model (ppr dag --cpu $CPU --dump-core):"
	"$PPR" dag --cpu "$CPU" --dump-core | grep -E '"(load_latency_gpr|load_latency_vec|store_forward_latency)"|"(fp_add|fp_mul|fp_fma|int_alu)"' | sed 's/^ */   /'
fi

# ---- load mixes and scheduler fill (the Zen 5 core model's
# vector_load_mix_width and scheduler_queues) --------------------------------
# Each case is a loop in its own assembly function, run on L1-resident data
# (index arrays of pseudo-random ints < 512, so dependent loads stay in
# 4 KiB); thread CPU time, fastest of 101 runs of 400 calls, core clock from
# a dependent-add chain timed the same way.  Beside each figure: ppr dag on
# the same loop (--cpu "$CPU").
cat > "$tmp/mix.c" <<'EOC'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern void kern(long n, void *idx, void *a, void *b);

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static __attribute__((noinline)) void adds(long n)
{
	long a = 0, one = 1;

	/* a register addend: Golden Cove and later add small immediates
	   in the renamer at no latency (model/detect.c, add_chain) */
	__asm__ volatile("" : "+r"(one));
	__asm__ volatile("1:\n.rept 16\naddq %2, %1\n.endr\ndec %0\njnz 1b\n"
			 : "+r"(n), "+r"(a) : "r"(one) : "cc");
}

int main(int argc, char **argv)
{
	long n = atol(argv[1]);
	double ops = atof(argv[2]), f = 0, best = 1e30;
	int *idx = aligned_alloc(4096, 65536);
	double *a = aligned_alloc(4096, 65536), *b = aligned_alloc(4096, 65536);

	for (int i = 0; i < 65536 / 4; i++)
		idx[i] = (int)(((unsigned)i * 2654435761u) >> 7) % 512;
	for (int i = 0; i < 65536 / 8; i++)
		a[i] = b[i] = 1.0;
	for (int r = 0; r < 101; r++) {
		double t = now(), g;

		adds(100000);
		t = now() - t;
		g = 16.0 * 100000 / t / 1e9;
		if (g > f)
			f = g;
		t = now();
		for (int k = 0; k < 400; k++)
			kern(n, idx, a, b);
		t = (now() - t) / 400;
		if (t < best)
			best = t;
	}
	printf("%.2f\n", best * f * 1e9 / ((double)n * ops));
	return 0;
}
EOC
${CC:-cc} -O2 -c -o "$tmp/mix.o" "$tmp/mix.c" || exit 1
# case NAME OPS N BODY...: BODY lines are the loop body (rdi counts down;
# rsi = index array, rdx = a, rcx = b; r8 = a); prints measured and ppr
mcase() {
	name=$1 ops=$2 n=$3
	shift 3
	{
		printf '\t.text\n\t.globl kern\nkern:\n\tpushq %%rbx\n\tpushq %%r12\n'
		printf '\tmovq %%rdx, %%r8\n\tmovq %%rsi, %%rdx\n\tmovl $3, %%r11d\n'
		# operands of the FP cases: zero, never stale bits (denormals)
		printf '\tvxorpd %%xmm5, %%xmm5, %%xmm5\n\tvxorpd %%xmm8, %%xmm8, %%xmm8\n\tvxorpd %%xmm9, %%xmm9, %%xmm9\n'
		printf '%s' "${MPRE:-}"
		printf '\t.p2align 6\n'
		[ -n "${MPAD:-}" ] && printf '\t.skip %d, 0x90\n' "$MPAD"
		printf '.Lk:\n'
		for l in "$@"; do printf '\t%s\n' "$l"; done
		printf '\tdecq %%rdi\n\tjnz .Lk\n\tpopq %%r12\n\tpopq %%rbx\n\tret\n'
		printf '\t.section .note.GNU-stack,"",@progbits\n'
	} > "$tmp/k.s"
	m=-
	if ${CC:-cc} -c -o "$tmp/k.o" "$tmp/k.s" 2> /dev/null &&
	   ${CC:-cc} -o "$tmp/k" "$tmp/mix.o" "$tmp/k.o" 2> /dev/null; then
		m=$("$tmp/k" "$n" "$ops")
	fi
	p=-
	[ -x "$PPR" ] && p=$("$PPR" dag --asm "$tmp/k.s" --cpu "$CPU" ${TRIPS:+--inner-trips} ${TRIPS:+$TRIPS} --format json 2> /dev/null |
		sed -n 's/^	"cycles_per_iteration":[	 ]*\([0-9.]*\),*$/\1/p' |
		awk -v o="$ops" '{ printf "%.2f", $1 / o }')
	printf '%-28s %10s %10s\n' "$name" "$m" "$p"
}
rep4() { for i in 1 2 3 4; do for l in "$@"; do printf '%s\n' "$l"; done; done; }
G1='movslq (%rdx,%rdi,4), %r9'; G2='movslq 4096(%rdx,%rdi,4), %r10'
G3='movq (%rcx,%rdi,8), %r11'; G4='movq 8192(%r8,%rdi,8), %rax'
F1='vmovsd (%rcx,%rdi,8), %xmm0'; F2='vmovsd (%r8,%rdi,8), %xmm3'
F3='vmovsd 8192(%rcx,%rdi,8), %xmm4'
echo "== load mixes: F FP + G GPR loads per group, 4 groups per iteration (cycles per group)"
printf '%-28s %10s %10s\n' case measured ppr
oldifs=$IFS
IFS='
'
mcase "F1 G0" 4 1000 $(rep4 "$F1")
mcase "F2 G0" 4 1000 $(rep4 "$F1" "$F2")
mcase "F2 G1" 4 1000 $(rep4 "$G1" "$F1" "$F2")
mcase "F1 G2" 4 1000 $(rep4 "$F1" "$G1" "$G2")
mcase "F0 G4" 4 1000 $(rep4 "$G1" "$G2" "$G3" "$G4")
mcase "F1 G3" 4 1000 $(rep4 "$F1" "$G1" "$G2" "$G3")
mcase "F2 G2" 4 1000 $(rep4 "$G1" "$G2" "$F1" "$F2")
mcase "F2 G3" 4 1000 $(rep4 "$F1" "$F2" "$G1" "$G2" "$G3")
mcase "F3 G1" 4 1000 $(rep4 "$F1" "$F2" "$F3" "$G1")
# The width-1 BCSR kernels' mix (3 FP + 1 GPR loads a block) with one FP
# operation more or with an accumulator's add chain, four groups and one
# group an iteration.  On the Zen 5 guest of 2026-12-03 the four-group
# loops ran at the loads' rate (1.5-1.7) or the chain's (2.0), as ppr has
# them; the one-group loops too (1.60 and 1.98 with the operands zeroed;
# one earlier run with stale operands read 1.97 for the shuffle), so the
# compiled kernels' gap is not the mix (model/README.md, "Measured on
# 2026-12-03 (18:56-").
mcase "F3 G1 + vunpcklpd" 4 1000 $(rep4 "$F1" "$F2" "$F3" "$G1" 'vunpcklpd %xmm9, %xmm8, %xmm7')
mcase "F3 G1 + vmulpd" 4 1000 $(rep4 "$F1" "$F2" "$F3" "$G1" 'vmulpd %xmm9, %xmm8, %xmm7')
mcase "F3 G1 + vaddpd chain" 4 1000 $(rep4 "$F1" "$F2" "$F3" "$G1" 'vaddpd %xmm9, %xmm5, %xmm5')
mcase "1 group: F3 G1 + vunpcklpd" 1 4000 "$F1" "$F2" "$F3" "$G1" 'vunpcklpd %xmm9, %xmm8, %xmm7'
mcase "1 group: F3 G1 + add chain" 1 4000 "$F1" "$F2" "$F3" "$G1" 'vaddpd %xmm9, %xmm5, %xmm5'
echo "== scheduler fill: N loads (lea) waiting on a 12-imul chain per iteration (cycles per iteration)"
printf '%-28s %10s %10s\n' case measured ppr
chain() {
	printf 'movq %%r11, %%r10\n'
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do printf 'imulq %%r10, %%r10\n'; done
	printf 'movq %%r10, %%rax\nandl $0, %%eax\n'
}
fill() { i=0; while [ $i -lt "$1" ]; do printf '%s\n' "$2"; i=$((i + 1)); done; }
for N in 8 16 32 48 64 96; do
	mcase "loads N=$N" 1 200 $(chain) $(fill $N 'movq (%rdx,%rax,8), %r9')
done
for N in 16 32 48 64 96; do
	mcase "lea N=$N" 1 200 $(chain) $(fill $N 'leaq 1(%rax), %r9')
done
echo "== FP fill: N FP adds waiting on a 12-vmulsd chain per iteration (cycles per iteration; an FP queue, not modelled: dag/core.c)"
printf '%-28s %10s %10s\n' case measured ppr
# xmm11 = xmm1 = 1.0 before the loop (no denormals)
MPRE='	movabsq $0x3ff0000000000000, %rax
	vmovq %rax, %xmm11
	vmovapd %xmm11, %xmm1
'
fchain() {
	printf 'vmovapd %%xmm11, %%xmm10\n'
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do printf 'vmulsd %%xmm10, %%xmm10, %%xmm10\n'; done
}
for N in 8 16 24 32 48 64 96 128; do
	mcase "fp add N=$N" 1 200 $(fchain) $(fill $N 'vaddsd %xmm10, %xmm1, %xmm2')
done
MPRE=
IFS=$oldifs
echo "== loop placement: one 9-op loop (2 adds, 3 vaddpd, 3 vmulpd, dec/jnz; 43 bytes) starting P bytes into a 64-byte line (cycles per iteration)"
printf '%-28s %10s %10s\n' case measured ppr
# On the Zen 5 guest of 2026-12-03 it ran 1.5 cycles (the multiplies'
# two pipes) from most starts, 2.0-3.6 from 24-32 (model/README.md, "Measured
# on 2026-12-03 (18:56-"); ppr does not model where a loop lies.
IFS='
'
for MPAD in 20 24 28 32 36 40; do
	mcase "start at P=$MPAD" 1 2000 'addq $32, %rax' 'addq $4, %r9' \
		'vaddpd %xmm9, %xmm8, %xmm10' 'vaddpd %xmm9, %xmm8, %xmm11' \
		'vaddpd %xmm9, %xmm8, %xmm12' 'vmulpd %xmm9, %xmm8, %xmm13' \
		'vmulpd %xmm9, %xmm8, %xmm14' 'vmulpd %xmm9, %xmm8, %xmm15'
done
MPAD=
IFS=$oldifs
echo "== fetch blocks: one a cycle, ending at every loop branch (Zen 4's fetch_width, fetch_rate): cycles per iteration; rows of 7 inner iterations, cycles per row"
printf '%-28s %10s %10s\n' case measured ppr
IFS='
'
mcase "loop of 2 macro-ops" 1 1000 'movl $1, %r9d'
mcase "loop of 5 macro-ops" 1 1000 'movl $1, %r9d' 'movl $1, %r10d' \
	'movl $1, %eax' 'movl $1, %ebx'
TRIPS=7
mcase "rows of 7 x 2 macro-ops" 1 1000 'movl $7, %r12d' '.Lin:' \
	'movl $1, %r9d' 'decl %r12d' 'jnz .Lin'
TRIPS=
IFS=$oldifs
echo "== front end: 48 instructions per iteration, nothing else limiting (cycles per instruction; 0.125 = 8 per cycle)"
printf '%-28s %10s %10s\n' case measured ppr
IFS='
'
mcase "48 eliminated moves" 48 1000 $(fill 24 'movq %rax, %r9'; fill 24 'movq %rbx, %r10')
mcase "48 4-byte nops" 48 1000 $(fill 48 'nopl 0(%rax)')
mcase "24 loads + 24 FP add/mul" 48 1000 $(i=0; while [ $i -lt 12 ]; do
	printf '%s\n' 'movq (%rdx), %rax' 'movq 8(%rdx), %r12' \
		'vaddpd %ymm1, %ymm2, %ymm3' 'vmulpd %ymm1, %ymm2, %ymm5'; i=$((i + 1)); done)
IFS=$oldifs
echo "== window: two pointer chases missing to DRAM, N writers after each (ns an iteration; the misses overlap while the N fit the core's window: about 170-200 ns, else about 340; dag/core.c's notes; limits: Zen 4 host / Zen 5 host)"
printf '%-28s %10s %10s\n' case measured limit
cat > "$tmp/win.c" <<'EOC'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern void kern(long n, void **p, void **q, void *buf);

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* 256 MiB of lines in one random cycle: every load of a chase misses */
int main(int argc, char **argv)
{
	long n = atol(argv[1]);
	size_t lines = (size_t)1 << 22, i;
	char *buf = aligned_alloc(4096, lines * 64);
	size_t *perm = malloc(lines * sizeof(*perm));
	unsigned long long x = 88172645463325252ULL;
	double best = 1e30;
	void *p, *q;

	if (!buf || !perm)
		return 1;
	for (i = 0; i < lines; i++)
		perm[i] = i;
	for (i = lines - 1; i > 0; i--) {
		size_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % (i + 1));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < lines; i++)
		*(void **)(buf + perm[i] * 64) = buf + perm[(i + 1) % lines] * 64;
	p = buf + perm[0] * 64;
	q = buf + perm[lines / 2] * 64;
	for (int r = 0; r < 7; r++) {
		double t = now();

		kern(n, &p, &q, buf);
		t = now() - t;
		if (t < best)
			best = t;
	}
	printf("%.0f\n", best * 1e9 / (double)n);
	return 0;
}
EOC
${CC:-cc} -O2 -c -o "$tmp/win.o" "$tmp/win.c" || exit 1
# wcase NAME LIMIT BODY...: kern(n, &p, &q, buf): each iteration loads
# p = *p, runs BODY, loads q = *q, runs BODY again; r8 = buf (L1 hits),
# xmm1 = 1.0; WFP=1: xmm0 = the loaded pointer's bits after each load (an
# FP-side op waiting on the miss, for BODY to wait on)
wcase() {
	name=$1 lim=$2
	shift 2
	{
		printf '\t.text\n\t.globl kern\nkern:\n\tpushq %%rbx\n\tpushq %%r12\n\tpushq %%r13\n\tpushq %%r14\n\tpushq %%r15\n'
		printf '\tmovq %%rsi, %%r15\n\tmovq %%rdx, %%r11\n\tmovq %%rcx, %%r8\n\tmovq (%%rsi), %%rax\n\tmovq (%%rdx), %%rcx\n'
		printf '\tmovabsq $0x3ff0000000000000, %%rbx\n\tvmovq %%rbx, %%xmm1\n'
		printf '\t.p2align 6\n.Lw:\n\tmovq (%%rax), %%rax\n'
		[ -n "$WFP" ] && printf '\tvmovq %%rax, %%xmm0\n'
		for l in "$@"; do printf '\t%s\n' "$l"; done
		printf '\tmovq (%%rcx), %%rcx\n'
		[ -n "$WFP" ] && printf '\tvmovq %%rcx, %%xmm0\n'
		for l in "$@"; do printf '\t%s\n' "$l"; done
		printf '\tdecq %%rdi\n\tjnz .Lw\n\tmovq %%rax, (%%r15)\n\tmovq %%rcx, (%%r11)\n'
		printf '\tpopq %%r15\n\tpopq %%r14\n\tpopq %%r13\n\tpopq %%r12\n\tpopq %%rbx\n\tret\n'
		printf '\t.section .note.GNU-stack,"",@progbits\n'
	} > "$tmp/w.s"
	m=-
	if ${CC:-cc} -c -o "$tmp/w.o" "$tmp/w.s" 2> /dev/null &&
	   ${CC:-cc} -o "$tmp/w" "$tmp/win.o" "$tmp/w.o" 2> /dev/null; then
		m=$("$tmp/w" 200000)
	fi
	printf '%-28s %10s %10s\n' "$name" "$m" "$lim"
}
IFS='
'
# ws FORMAT N: N lines of FORMAT, whose %d (one or more) is xmm3..xmm14 in turn
ws() { i=0; while [ $i -lt "$2" ]; do r=$((3 + i % 12)); printf "$1\n" | sed "s/%d/$r/g"; i=$((i + 1)); done; }
gw() { set -- r9 r10 r12 r13 r14 rbx rsi rdx; i=0; while [ $i -lt "$N" ]; do eval "r=\${$((i % 8 + 1))}"; printf 'leaq 1(%%r8), %%%s\n' "$r"; i=$((i + 1)); done; }
gl() { set -- r9 r10 r12 r13 r14 rbx rsi rdx; i=0; while [ $i -lt "$N" ]; do eval "r=\${$((i % 8 + 1))}"; printf 'movq %d(%%r8), %%%s\n' $((i % 64 * 8)) "$r"; i=$((i + 1)); done; }
for N in 190 202 206 220; do wcase "lea N=$N" "GPR 204 / 198" $(gw); done
for N in 140 152 156 170 380 420; do wcase "vpaddq N=$N" "vec 154 / 400" $(ws 'vpaddq %%xmm1, %%xmm2, %%xmm%d' $N); done
for N in 120 132 136 150 180 200; do wcase "loads N=$N" "loads 134 / 190" $(gl); done
WFP=1
for N in 64 96 122 128 160 200; do wcase "vaddpd on the miss N=$N" "FP 64+64" $(ws 'vaddpd %%xmm0, %%xmm1, %%xmm%d' $N); done
WFP=
for N in 300 430 460; do wcase "vpxor (zero idiom) N=$N" "ROB 320 / 448" $(ws 'vpxor %%xmm%d, %%xmm%d, %%xmm%d' $N); done
IFS=$oldifs
