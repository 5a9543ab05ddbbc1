#!/bin/sh
# ppr roofline: roofs from the machine file, dots from results files, errors.
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cnt() { grep -o "$1" "$2" | wc -l | tr -d ' '; }

$PPR roofline --machine machines/haswell.json tests/data/report/results.jsonl \
	-o "$tmp/r.svg" 2> "$tmp/err" && ok || bad "roofline exit: $(cat "$tmp/err")"
# three predict records (laplace2d, banded, random); bcsr records have no dot
[ "$(cnt 'class="dot dot-pred"' "$tmp/r.svg")" = 3 ] && ok || bad "3 predicted dots"
[ "$(cnt 'class="dot dot-meas"' "$tmp/r.svg")" = 1 ] && ok || bad "1 measured dot"
[ "$(cnt 'class="roof roof-bandwidth"' "$tmp/r.svg")" = 3 ] && ok || bad "3 bandwidth roofs"
[ "$(cnt 'class="roof roof-compute"' "$tmp/r.svg")" = 1 ] && ok || bad "1 peak roof"
[ "$(cnt 'class="roof roof-ceiling"' "$tmp/r.svg")" = 3 ] && ok || bad "3 ceilings"
[ "$(cnt 'class="roof roof-integer"' "$tmp/r.svg")" = 0 ] && ok || bad "no integer roofs by default"
for want in "peak (FMA, SIMD) 43.2 GFLOP/s" "no FMA 21.6 GFLOP/s" "no SIMD (scalar) 10.8 GFLOP/s" \
	"scalar add latency-bound 0.9 GFLOP/s" "DRAM 34.56 GB/s" "L3 86.4 GB/s" \
	"Roofline: haswell, one core at 2.70 GHz" "operational intensity (flops per byte)" \
	"gen:laplace2d:n=200 spmv-csr (L2 bytes)"; do
	grep -qF "$want" "$tmp/r.svg" && ok || bad "svg lacks '$want'"
done
grep -q "3 dots -> $tmp/r.svg" "$tmp/err" && ok || bad "summary line: $(cat "$tmp/err")"
# deterministic
$PPR roofline --machine machines/haswell.json tests/data/report/results.jsonl -o "$tmp/r2.svg" 2>/dev/null
cmp -s "$tmp/r.svg" "$tmp/r2.svg" && ok || bad "output not deterministic"
# integer roofs
$PPR roofline --machine machines/haswell.json --integer -o "$tmp/i.svg" 2>/dev/null && ok || bad "--integer exit"
[ "$(cnt 'class="roof roof-integer"' "$tmp/i.svg")" = 2 ] && ok || bad "2 integer roofs"
grep -q "INT64 vector peak" "$tmp/i.svg" && grep -q "GINTOP/s" "$tmp/i.svg" && ok || bad "integer labels"
# to stdout, other machine file
$PPR roofline --machine machines/zen4-epyc.json | grep -q "Roofline: zen4" && ok || bad "stdout / zen4"
# records predicted for another machine: left out, with a warning
$PPR roofline --machine machines/zen4-epyc.json tests/data/report/results.jsonl -o "$tmp/z.svg" 2> "$tmp/err" && ok || bad "zen4 with haswell records"
[ "$(cnt 'class="dot dot-pred"' "$tmp/z.svg")" = 0 ] && grep -q "warning: 3 records predicted for another machine than 'zen4" "$tmp/err" && ok || bad "other machine: $(cat "$tmp/err")"
# --kernel INPUT: one ppr predict child per input
$PPR roofline -m machines/haswell.json -k spmv-csr gen:laplace2d:n=50 -o "$tmp/k.svg" 2>/dev/null && ok || bad "--kernel exit"
[ "$(cnt 'class="dot dot-pred"' "$tmp/k.svg")" = 1 ] && ok || bad "--kernel: 1 dot"
$PPR roofline -m machines/haswell.json -k spmv-csr /nonexistent.mtx -o "$tmp/k2.svg" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "nonexistent.mtx: ppr predict failed" "$tmp/err" && ok || bad "failing input: rc=$rc $(cat "$tmp/err")"
# an input without flops (an empty matrix): no dot, and a warning naming it
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 0\n' > "$tmp/empty.mtx"
$PPR roofline -m machines/haswell.json -k spmv-csr "$tmp/empty.mtx" -o "$tmp/e.svg" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(cnt 'class="dot dot-pred"' "$tmp/e.svg")" = 0 ] &&
	grep -q "empty.mtx: no flops or no traffic to place on the roofline; no dot" "$tmp/err" &&
	ok || bad "empty matrix: rc=$rc $(cat "$tmp/err")"
# errors
$PPR roofline tests/data/report/results.jsonl 2> "$tmp/err"; [ $? -eq 2 ] && ok || bad "no --machine must exit 2"
$PPR roofline -m machines/haswell.json gen:laplace2d:n=5 2> "$tmp/err"; [ $? -eq 2 ] && ok || bad "input without --kernel must exit 2"
$PPR roofline -m machines/haswell.json tests/data/report/bad.jsonl -o "$tmp/b.svg" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c 'bad.jsonl:[0-9]*:' "$tmp/err")" = 5 ] && ok || bad "bad lines: rc=$rc $(cat "$tmp/err")"
$PPR roofline -m machines/none.json 2> "$tmp/err"; [ $? -eq 1 ] && ok || bad "missing machine must exit 1"
$PPR roofline --help | grep -q "usage: ppr roofline" && ok || bad "help"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
