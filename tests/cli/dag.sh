#!/bin/sh
# dag.sh - golden tests of `ppr dag`: figures worked out by hand (see
# tests/test_dag.c for the tables they come from), the output formats, the
# paper mode, and error cases with their exact message and exit status.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
A=$ROOT/tests/data/asm
M=$ROOT/machines
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# near GOT WANT RELTOL: numbers within a relative tolerance
near() {
	if awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN {
		d = g - w; if (d < 0) d = -d; m = (w < 0 ? -w : w);
		exit !(g != "" && d <= t * m + 1e-12) }'; then ok
	else bad "$4: got '$1', want '$2' (rel tol $3)"; fi
}

# jnum FILE KEY: a top-level number of the JSON output (one key per line)
jnum() {
	sed -n "s/^	\"$2\":[	 ]*\\([-0-9.e+]*\\),*\$/\\1/p" "$1" | head -n 1
}
jstr() {
	sed -n "s/^	\"$2\":[	 ]*\"\\(.*\\)\",*\$/\\1/p" "$1" | head -n 1
}

# expect_fail STATUS MESSAGE args...: exit status and first stderr line
expect_fail() {
	want_rc=$1
	want_msg=$2
	shift 2
	"$PPR" dag "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	got=$(head -n 1 "$tmp/err")
	if [ $rc -eq "$want_rc" ] && [ "$got" = "$want_msg" ]; then ok
	else bad "ppr dag $*: exit $rc '$got', want $want_rc '$want_msg'"; fi
}

# ---- 1. a dependent FP add chain: 3 cycles on Haswell, 2 on Zen 5 --------
printf '.L1:\n\tvaddsd %%xmm1, %%xmm0, %%xmm0\n\tdecl %%ecx\n\tjne .L1\n' > "$tmp/chain.s"
if "$PPR" dag --asm "$tmp/chain.s" --cpu haswell --format json > "$tmp/c.json" 2> "$tmp/err"; then ok
else bad "chain haswell: $(cat "$tmp/err")"; fi
near "$(jnum "$tmp/c.json" cycles_per_iteration)" 3 0.02 "haswell add chain"
near "$(jnum "$tmp/c.json" compute_cycles)" 3 0.02 "haswell add chain compute"
near "$(jnum "$tmp/c.json" memory_cycles)" 0 0.02 "haswell add chain memory"
[ "$(jstr "$tmp/c.json" bottleneck)" = "dependency chain" ] && ok || bad "bottleneck: $(jstr "$tmp/c.json" bottleneck)"
grep -q '"ppr_version"' "$tmp/c.json" && ok || bad "json lacks ppr_version"
grep -q '"ports":' "$tmp/c.json" && ok || bad "json lacks ports"
"$PPR" dag --asm "$tmp/chain.s" --cpu zen --format json > "$tmp/z.json" 2>/dev/null
near "$(jnum "$tmp/z.json" cycles_per_iteration)" 2 0.02 "zen5 add chain"
# the same from the machine files' "core" sections
"$PPR" dag --asm "$tmp/chain.s" --machine "$M/haswell.json" --format json > "$tmp/m.json" 2>/dev/null
near "$(jnum "$tmp/m.json" cycles_per_iteration)" 3 0.02 "haswell.json add chain"
"$PPR" dag --asm "$tmp/chain.s" --machine "$M/zen4-epyc.json" --format json > "$tmp/m.json" 2>/dev/null
near "$(jnum "$tmp/m.json" cycles_per_iteration)" 2 0.02 "zen4-epyc.json add chain"

# ---- 2. the gcc CSR inner loop: the FMA chain, 5 cycles per nonzero ------
if [ -f "$A/spmv_csr.gcc-haswell.s" ]; then
	"$PPR" dag --asm "$A/spmv_csr.gcc-haswell.s" --cpu haswell > "$tmp/t.txt" 2> "$tmp/err" && ok || bad "csr table: $(cat "$tmp/err")"
	grep -q '^Loop: *\.L4 ' "$tmp/t.txt" && ok || bad "csr loop is not .L4"
	grep -q '^Cycles/iteration: *5\.00 cy' "$tmp/t.txt" && ok || bad "csr: $(grep Cycles "$tmp/t.txt")"
	grep -q 'vfmadd231sd' "$tmp/t.txt" && ok || bad "critical chain lacks the FMA"
	# nested: 8 nonzeros per row, rows overlap: well under 5 per nonzero
	"$PPR" dag --asm "$A/spmv_csr.gcc-haswell.s" --cpu haswell --inner-trips 8 \
		--format json > "$tmp/n.json" 2>/dev/null
	v=$(jnum "$tmp/n.json" cycles_per_inner_iteration)
	awk -v v="$v" 'BEGIN { exit !(v != "" && v < 4) }' && ok || bad "nested csr per nonzero $v, want < 4"
	# objdump input gives the same loop and figure
	"$PPR" dag --asm "$A/spmv_csr.gcc-haswell.objdump" --cpu haswell --format csv > "$tmp/o.csv" 2>/dev/null
	v=$(awk -F, 'NR == 2 { print $6 }' "$tmp/o.csv")
	near "$v" 5 0.02 "objdump csr"
else
	echo "skipped: $A not found"
fi

# ---- 3. paper mode: section 5 and section 4 hand counts exactly ----------
"$PPR" dag --paper all --cpu haswell --format csv > "$tmp/p.csv" 2> "$tmp/err" && ok || bad "paper: $(cat "$tmp/err")"
for row in "conv1 128 128" "conv2 16 32" "conv3 16 16" "csr 1 5"; do
	set -- $row
	got=$(awk -F, -v k="$1" '$1 == k { print $8 " " $9 }' "$tmp/p.csv")
	[ "$got" = "$2 $3" ] && ok || bad "paper $1: got '$got', want '$2 $3'"
done
"$PPR" dag --paper conv2 --machine "$M/haswell.json" > "$tmp/p.txt" 2>/dev/null
grep -q '^conv2 .* 16 *32$' "$tmp/p.txt" && ok || bad "paper conv2 table: $(cat "$tmp/p.txt")"

# ---- 4. errors ------------------------------------------------------------
printf '.L1:\n\tvfoo %%xmm1, %%xmm0\n\tjne .L1\n' > "$tmp/bad.s"
expect_fail 1 "ppr: error: $tmp/bad.s:2: unknown instruction 'vfoo'" --asm "$tmp/bad.s"
printf '\taddq %%rax, %%rzz\n' > "$tmp/reg.s"
expect_fail 1 "ppr: error: $tmp/reg.s:1: bad register '%rzz'" --asm "$tmp/reg.s"
printf '.L1:\n\tjmp .L1\n' > "$tmp/empty.s"
expect_fail 1 "ppr: error: $tmp/empty.s:2: empty loop: the branch to '.L1' is its only instruction" --asm "$tmp/empty.s"
printf '\t.text\n' > "$tmp/none.s"
expect_fail 1 "ppr: error: $tmp/none.s: no instructions" --asm "$tmp/none.s"
expect_fail 1 "ppr: error: $tmp/nope.s: cannot open '$tmp/nope.s': No such file or directory" --asm "$tmp/nope.s"
expect_fail 1 "ppr: error: $tmp/chain.s: no loop at label '.L9'" --asm "$tmp/chain.s" --loop .L9
expect_fail 2 "ppr: dag: unknown --cpu 'p4' (expected haswell, zen4, zen5, zen, goldencove or glc)" --asm "$tmp/chain.s" --cpu p4
expect_fail 2 "ppr: dag: give exactly one of --asm, --paper, --kernel, --dump-core" --cpu haswell
expect_fail 2 "ppr: dag: --inner-trips must be an integer in 1..100000, not '0'" --asm "$tmp/chain.s" --inner-trips 0
expect_fail 1 "ppr: error: unknown paper kernel 'conv4' (conv1, conv2, conv3, csr)" --paper conv4
"$PPR" dag --help > "$tmp/h" 2>&1 && grep -q '^usage: ppr dag' "$tmp/h" && ok || bad "--help"

# ---- 5. --kernel: the native kernels' extracted loops ------------------------
kj() { "$PPR" dag --kernel "$@" --format json > "$tmp/k.json" 2> "$tmp/kerr"; }
if kj spmv-csr gen:laplace2d:n=20; then
	ok
	[ "$(jstr "$tmp/k.json" unit)" = nonzero ] && ok || bad "csr unit"
	case $(jstr "$tmp/k.json" file) in kern_spmv_csr*) ok ;; *) bad "csr symbol $(jstr "$tmp/k.json" file)" ;; esac
	short=$(jnum "$tmp/k.json" cycles_per_unit)
	ts=$(jnum "$tmp/k.json" inner_trips)
	awk -v v="$short" -v t="$ts" 'BEGIN { exit !(v > 0.2 && v < 5 && t >= 1 && t <= 5) }' && ok || bad "csr short rows: $short cy/nonzero, $ts trips"
	kj spmv-csr gen:random:n=256,per_row=64 && ok || bad "csr long: $(cat "$tmp/kerr")"
	tl=$(jnum "$tmp/k.json" inner_trips)
	awk -v s="$ts" -v l="$tl" 'BEGIN { exit !(l >= 8 * s) }' && ok || bad "long rows: $tl trips vs $ts"
	# without an input: the inner loop alone, no nesting
	kj spmv-csr && [ "$(jnum "$tmp/k.json" inner_trips)" = 0 ] && ok || bad "csr without input"
	kj spmv-bcsr gen:laplace2d:n=12 --block 4x4 && ok || bad "bcsr: $(cat "$tmp/kerr")"
	[ "$(jstr "$tmp/k.json" unit)" = block ] && [ "$(jnum "$tmp/k.json" flops_per_unit)" = 32 ] && ok || bad "bcsr 4x4 unit"
	case $(jstr "$tmp/k.json" file) in *4x4*) ok ;; *) bad "bcsr symbol $(jstr "$tmp/k.json" file)" ;; esac
	kj conv1d --variant naive --n 256 && ok || bad "conv naive: $(cat "$tmp/kerr")"
	cn=$(jnum "$tmp/k.json" cycles_per_unit)
	kj conv1d --variant avx2-unaligned --n 256 && ok || bad "conv avx2"
	cu=$(jnum "$tmp/k.json" cycles_per_unit)
	[ "$(jstr "$tmp/k.json" unit)" = output ] && ok || bad "conv unit"
	awk -v n="$cn" -v u="$cu" 'BEGIN { exit !(u > 0 && n > 2 * u) }' && ok || bad "naive $cn not slower than avx2 $cu cy/output"
	kj fft1d --n 256 && [ "$(jstr "$tmp/k.json" unit)" = butterfly ] && ok || bad "fft: $(cat "$tmp/kerr")"
	kj spmv-csr gen:laplace2d:n=8 --machine "$M/haswell.json" && [ "$(jstr "$tmp/k.json" core)" = haswell ] && ok || bad "--machine haswell: $(cat "$tmp/kerr")"
	"$PPR" dag --kernel conv1d --n 64 > "$tmp/k.txt" 2>&1 && grep -q '^Cycles/output  *[0-9.]* cy' "$tmp/k.txt" && grep -q '^Kernel: *conv1d' "$tmp/k.txt" && ok || bad "kernel table: $(head -3 "$tmp/k.txt")"
	expect_fail 2 "ppr: dag: unknown kernel 'spmv' (expected spmv-csr, spmv-bcsr, conv1d, fft1d or fft3d)" --kernel spmv
	expect_fail 2 "ppr: dag: kernel conv1d takes no MATRIX argument ('gen:laplace2d:n=4')" --kernel conv1d gen:laplace2d:n=4
	expect_fail 2 "ppr: dag: --block goes with spmv-bcsr" --kernel spmv-csr --block 2x2
	expect_fail 2 "ppr: dag: --block, --variant and --n go with --kernel" --asm "$tmp/chain.s" --n 4
	expect_fail 1 "ppr: error: cannot open matrix '$tmp/no.mtx': No such file or directory" --kernel spmv-csr "$tmp/no.mtx"
else
	bad "kernel mode: $(cat "$tmp/kerr")"
fi

# ---- 6. movsd/movss loads write the whole register: no chain through them --
printf '.L1:\n\tmovsd (%%rdi), %%xmm0\n\tmulsd %%xmm2, %%xmm0\n\tmovsd %%xmm0, (%%rsi)\n\taddq $8, %%rdi\n\taddq $8, %%rsi\n\tdecq %%rcx\n\tjne .L1\n' > "$tmp/movsd.s"
"$PPR" dag --asm "$tmp/movsd.s" --format json > "$tmp/m.json" 2>/dev/null
v=$(jnum "$tmp/m.json" cycles_per_iteration)
awk -v v="$v" 'BEGIN { exit !(v != "" && v < 3) }' && ok || bad "movsd load chained: $v cy/iter"

# ---- 7. zen5 gathers: one unit, 4 cycles per ymm gather (measured here) ----
printf '.L1:\n' > "$tmp/g.s"
for k in 2 3 4 5; do printf '\tkxnorw %%k0, %%k0, %%k1\n\tvxorpd %%ymm%d, %%ymm%d, %%ymm%d\n\tvgatherdpd (%%rdi,%%xmm0,8), %%ymm%d{%%k1}\n' $k $k $k $k >> "$tmp/g.s"; done
printf '\tdecq %%rcx\n\tjne .L1\n' >> "$tmp/g.s"
"$PPR" dag --asm "$tmp/g.s" --cpu zen5 --format json > "$tmp/g.json" 2> "$tmp/gerr"
near "$(jnum "$tmp/g.json" cycles_per_iteration)" 16 0.1 "4 ymm gathers on zen5 $(cat "$tmp/gerr")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
