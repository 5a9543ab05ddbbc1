#!/bin/sh
# kernels.sh - golden tests of `ppr trace --kernel`: the instrumented
# streams' counts by op and tag, worked out by hand below, their replay
# through `ppr sim`, the text formats, and errors with exit codes.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# counts LABEL "loads stores regular irregular" KERNEL_ARGS...
counts() {
	label=$1 want=$2
	shift 2
	if ! "$PPR" trace "$@" -o "$tmp/t.trc" 2> "$tmp/err"; then
		bad "$label: ppr trace $*: $(cat "$tmp/err")"; return
	fi
	got=$("$PPR" trace info --format csv "$tmp/t.trc" |
		awk -F, 'NR == 2 { print $4, $5, $8, $9 }')
	if [ "$got" = "$want" ]; then ok
	else bad "$label: loads stores regular irregular = '$got', want '$want'"; fi
}

# CSR, gen:laplace2d:n=40: R = 1600 rows, NNZ = 5*40^2 - 4*40 = 7840.
# loads: row_ptr R+1, col_idx NNZ, vals NNZ, x NNZ = 25121; stores: y R;
# regular: all but x = 1601 + 2*7840 + 1600 = 18881; irregular: x = 7840.
counts "csr" "25121 1600 18881 7840" --kernel spmv-csr gen:laplace2d:n=40
# BCSR 3x2 on gen:fem3d:n=4,dof=3: 192 rows -> 64 block rows, 1600 blocks
# (ppr matrix info --fill).  loads: bptr 65 + bcol 1600 + vals 6*1600 +
# x 2*1600 = 14465; stores: y 3*64 = 192; irregular: x 3200.
counts "bcsr 3x2" "14465 192 11457 3200" --kernel spmv-bcsr --block 3x2 gen:fem3d:n=4,dof=3
# conv naive n=1000: 985 outputs x (16 in + 16 kernel) loads, 985 stores.
counts "conv naive" "31520 985 32505 0" --kernel conv1d --variant naive --n 1000
# conv AVX2 n=175: 160 outputs = 10 blocks x (32 vector + 16 broadcast
# loads, 2 vector stores); no scalar tail.
counts "conv aligned" "480 20 500 0" --kernel conv1d --variant avx2-aligned --n 175
counts "conv unaligned" "480 20 500 0" --kernel conv1d --variant avx2-unaligned --n 175
# fft1d n=8: rev 8 loads; swaps 1<->4, 3<->6 (2 regular + 2 irregular
# loads and stores); 3 stages x 4 butterflies x (3 loads, 2 stores).
counts "fft1d" "48 28 72 4" --kernel fft1d --n 8
# fft3d n=2: x: 4 lines x (2 rev + 3 loads, 2 stores) = 20/8; y and z:
# 2 groups each x (gather 4 irregular loads + 4 stores, 2 lines on the
# scratch 10/4, scatter 4 loads + 4 irregular stores) = 36/24 each.
counts "fft3d" "92 56 116 32" --kernel fft3d --n 2
# --runs 3 traces three executions back to back
counts "fft1d x3" "144 84 216 12" --kernel fft1d --n 8 --runs 3

# ---- replay: CSR fits the LL, so LL misses = compulsory lines ---------
"$PPR" trace --kernel spmv-csr gen:laplace2d:n=40 -o "$tmp/c.trc" 2> /dev/null
"$PPR" sim -m "$ROOT/machines/compat/cachegrind.json" -t "$tmp/c.trc" --format csv > "$tmp/s.csv" 2> "$tmp/err" || bad "sim: $(cat "$tmp/err")"
ll=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "misses") c = i; next } $1 == "LL" { print $c }' "$tmp/s.csv")
# lines: row_ptr 12808 B, col_idx 31360, vals 62720, x 12800, y 12800 =
# 132488 B = 2070.1 lines; +1 line per array when not line-aligned.
if [ -n "$ll" ] && [ "$ll" -ge 2071 ] && [ "$ll" -le 2076 ]; then ok
else bad "csr LL misses '$ll', want 2071..2076 (compulsory lines)"; fi

# ---- text formats -------------------------------------------------------
"$PPR" trace --kernel fft1d --n 8 -t din -o "$tmp/t.din" 2> "$tmp/err" || bad "din: $(cat "$tmp/err")"
n=$(grep -c . "$tmp/t.din")
[ "$n" = 76 ] && ok || bad "din records $n, want 76"
"$PPR" trace --kernel fft1d --n 8 -t lackey -o - > "$tmp/t.lk" 2> "$tmp/err" || bad "lackey: $(cat "$tmp/err")"
n=$(grep -c -E '^ [LS] ' "$tmp/t.lk")
[ "$n" = 76 ] && ok || bad "lackey records $n, want 76"

# ---- errors -------------------------------------------------------------
# run STATUS args...
run() {
	want=$1
	shift
	"$PPR" "$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] && ok || bad "ppr $*: exit $got, want $want"
}
has() { grep -F -q -- "$2" "$1" && ok || bad "$(basename "$1") lacks '$2': $(head -c 300 "$1")"; }
run 2 trace --kernel fft1d --n 8
has "$tmp/err" "--kernel needs -o FILE"
run 2 trace --kernel nope -o "$tmp/x"
has "$tmp/err" "unknown kernel 'nope'"
run 2 trace --kernel spmv-csr -o "$tmp/x"
has "$tmp/err" "spmv-csr needs a MATRIX argument"
run 2 trace --kernel spmv-bcsr gen:laplace2d:n=4 -o "$tmp/x"
has "$tmp/err" "spmv-bcsr needs --block RxC"
run 2 trace --kernel conv1d --n 100 -o "$tmp/x"
has "$tmp/err" "conv1d needs --variant"
run 2 trace --kernel fft1d --n 8 -o "$tmp/x" -t elf
run 1 trace --kernel fft1d --n 12 -o "$tmp/x"
has "$tmp/err" "ppr: error: fft1d needs --n N, a power of two >= 2 (got 12)"
[ ! -e "$tmp/x" ] && ok || bad "a failed trace left '$tmp/x' behind"
run 1 trace --kernel spmv-csr "$tmp/missing.mtx" -o "$tmp/x"
has "$tmp/err" "ppr: error:"
run 1 trace --kernel fft1d --n 8 -o "$tmp/nodir/x.trc"
has "$tmp/err" "ppr: error:"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
