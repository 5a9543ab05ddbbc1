#!/bin/sh
# kernels_callgrind.sh - instrumented vs real execution (issue 3).
#
# For each case: the D1 and LL data misses that the instrumented kernel's
# reference stream produces through machines/compat/cachegrind.json
# (`ppr trace --kernel` then `ppr sim`), against what valgrind callgrind
# counts for the NATIVE kernel function alone (--toggle-collect=<symbol>)
# with the same geometry (--I1=32768,8,64 --D1=32768,8,64
# --LL=33554432,16,64).  Both start cold: the trace starts with empty
# caches; `ppr measure --flush --flush-mb 64` streams 64 MiB (twice the LL)
# right before the one timed execution.  Tolerance: 2% relative per count.
#
# Skips (with a message) without valgrind; cases on ../shared matrices
# skip when ../shared is absent.  FULL=1 adds the larger cases (LL- and
# memory-sized data, slower under valgrind).
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SH=$ROOT/../shared/matrices
MACH=$ROOT/machines/compat/cachegrind.json
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
skip=0
TOL=${TOL:-0.02}

if ! command -v valgrind > /dev/null 2>&1; then
	echo "skipped: valgrind not installed (instrumented vs callgrind check)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# valgrind cannot run a binary built with AddressSanitizer (make
# SANITIZE=address,...): skip rather than fail.
if grep -q -a __asan_init "$PPR" 2> /dev/null; then
	echo "skipped: $PPR is built with AddressSanitizer, which valgrind cannot run"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# sim_misses TRACE LEVEL: misses of LEVEL in ppr sim csv output
sim_misses() {
	"$PPR" sim -m "$MACH" -t "$1" --format csv > "$tmp/sim.csv" 2> "$tmp/sim.err" || return 1
	awk -F, -v lv="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "misses") c = i; next }
		$1 == lv { print $c; exit }' "$tmp/sim.csv"
}

# within A B: |A-B| <= TOL * max(A,B)
within() {
	awk -v a="$1" -v b="$2" -v t="$TOL" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = a > b ? a : b; exit !(d <= t * m) }'
}

# case LABEL KERNEL_ARGS...  (the kernel arguments of measure and trace)
check_case() {
	label=$1
	shift
	"$PPR" trace "$@" -o "$tmp/k.trc" 2> "$tmp/trace.err" || {
		fail=$((fail + 1)); echo "FAIL $label: ppr trace: $(cat "$tmp/trace.err")"; return; }
	sd1=$(sim_misses "$tmp/k.trc" D1) && sll=$(sim_misses "$tmp/k.trc" LL) || {
		fail=$((fail + 1)); echo "FAIL $label: ppr sim: $(cat "$tmp/sim.err")"; return; }
	sym=$("$PPR" measure "$@" --code-offset linked --reps 1 --warmup 0 --format csv 2> /dev/null |
		awk -F, 'NR == 2 { n = split($0, f, ","); for (i = 1; i <= n; i++) if (f[i] ~ /^kern_/) { print f[i]; exit } }')
	[ -n "$sym" ] || { fail=$((fail + 1)); echo "FAIL $label: no kernel symbol"; return; }
	rm -f "$tmp/cg.out"
	valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 \
		--D1=32768,8,64 --LL=33554432,16,64 --toggle-collect="$sym" \
		--callgrind-out-file="$tmp/cg.out" \
		"$PPR" measure "$@" --code-offset linked --reps 1 --warmup 0 --flush --flush-mb 64 \
		> /dev/null 2> "$tmp/cg.err" || {
		fail=$((fail + 1)); echo "FAIL $label: valgrind: $(tail -3 "$tmp/cg.err")"; return; }
	set -- $(awk '/^events:/ { for (i = 2; i <= NF; i++) ev[i - 1] = $i }
		/^totals:/ { for (i = 2; i <= NF; i++) v[ev[i - 1]] = $i }
		END { print v["D1mr"] + v["D1mw"], v["DLmr"] + v["DLmw"], v["Dr"] + v["Dw"] }' "$tmp/cg.out")
	cd1=$1 cll=$2 cacc=$3
	res=ok
	if within "$sd1" "$cd1"; then pass=$((pass + 1)); else fail=$((fail + 1)); res=FAIL; fi
	if within "$sll" "$cll"; then pass=$((pass + 1)); else fail=$((fail + 1)); res=FAIL; fi
	printf '%-4s %-44s %-26s D1 ppr %9s callgrind %9s   LL ppr %9s callgrind %9s   (callgrind data refs %s)\n' \
		"$res" "$label" "$sym" "$sd1" "$cd1" "$sll" "$cll" "$cacc"
}

shared() { # shared LABEL FILE KERNEL_ARGS...: skip when ../shared is absent
	label=$1 f=$2
	shift 2
	if [ -f "$SH/$f" ]; then check_case "$label" "$@" "$SH/$f"
	else skip=$((skip + 1)); echo "skipped: $label: $SH/$f absent"; fi
}

# ---- quick set (make test) ----------------------------------------------
check_case "csr laplace2d n=40 (130 KB: > D1)" --kernel spmv-csr gen:laplace2d:n=40
shared "csr FEM bcsstk13 (1 MB)" medium/bcsstk13.mtx --kernel spmv-csr
shared "bcsr 2x2 FEM bcsstk13" medium/bcsstk13.mtx --kernel spmv-bcsr --block 2x2
shared "bcsr 4x4 FEM bcsstk13" medium/bcsstk13.mtx --kernel spmv-bcsr --block 4x4
shared "csr circuit rajat01" medium/rajat01.mtx --kernel spmv-csr
shared "csr power-law wiki-Vote" medium/wiki-Vote.mtx --kernel spmv-csr
check_case "conv naive n=16384 (L1-sized x4)" --kernel conv1d --variant naive --n 16384
check_case "conv avx2-unaligned n=65536" --kernel conv1d --variant avx2-unaligned --n 65536
check_case "conv avx2-aligned n=65536" --kernel conv1d --variant avx2-aligned --n 65536
check_case "fft1d n=16384 (256 KB)" --kernel fft1d --n 16384

# ---- FULL=1: LL- and memory-sized -----------------------------------------
if [ "$FULL" = 1 ]; then
	shared "csr power-law MIT8 (6 MB)" medium/MIT8.mtx --kernel spmv-csr
	shared "bcsr 2x2 FEM bcsstk38" medium/bcsstk38.mtx --kernel spmv-bcsr --block 2x2
	shared "bcsr 4x4 FEM bcsstk38" medium/bcsstk38.mtx --kernel spmv-bcsr --block 4x4
	check_case "csr laplace3d n=80 (50 MB: > LL)" --kernel spmv-csr gen:laplace3d:n=80
	check_case "bcsr 4x4 fem3d n=16 dof=4 (> LL)" --kernel spmv-bcsr --block 4x4 gen:fem3d:n=16,dof=4
	check_case "conv avx2-unaligned n=4M (16 MB)" --kernel conv1d --variant avx2-unaligned --n 4194304
	check_case "conv avx2-aligned n=4M (80 MB: > LL)" --kernel conv1d --variant avx2-aligned --n 4194304
	check_case "fft1d n=1M (16 MB)" --kernel fft1d --n 1048576
	check_case "fft1d n=4M (64 MB: > LL)" --kernel fft1d --n 4194304
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
