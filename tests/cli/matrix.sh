#!/bin/sh
# Golden tests of `ppr matrix info`: outputs, exit codes, one-line errors.
# Run from the project root with PPR=path/to/ppr.
PPR=${PPR:-./ppr}
pass=0; fail=0; skip=0
tmp=$(mktemp -d /tmp/ppr_cli_matrix.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_rc WANT CMD... : exit status
expect_rc() {
	want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$* -> exit $rc, want $want"; cat "$tmp/err"; fi
}
# json_num KEY FILE : the number after "KEY": in cJSON output
json_num() { sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.e+]*\),\{0,1\}$/\1/p" "$2" | head -n 1; }
# near A B REL : |A-B| <= REL*max(|A|,|B|)
near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
	m = a < 0 ? -a : a; n = b < 0 ? -b : b; if (n > m) m = n; exit !(d <= r * m) }'; }

# --- generators: counts from formulas --------------------------------------
expect_rc 0 "$PPR" matrix info gen:laplace2d:n=10 --format json
[ "$(json_num nnz "$tmp/out")" = 460 ] && ok || bad "laplace2d n=10 nnz $(json_num nnz "$tmp/out") != 460"
[ "$(json_num rows "$tmp/out")" = 100 ] && ok || bad "laplace2d n=10 rows"
grep -q '"ppr_version":' "$tmp/out" && ok || bad "json lacks ppr_version"
grep -q '"row_length":	"nonzeros per row"' "$tmp/out" && ok || bad "json lacks units"
near "$(json_num mean "$tmp/out")" 4.6 1e-12 && ok || bad "row mean"

expect_rc 0 "$PPR" matrix info gen:fem3d:n=4,dof=3 --fill --format json
# natural 3x3 blocks: fill exactly 1
f33=$(sed -n '/"3x3":/,/}/p' "$tmp/out" | json_num fill /dev/stdin)
near "$f33" 1.0 1e-12 && ok || bad "fem3d dof=3 3x3 fill '$f33' != 1"
[ "$(grep -c '"[1-8]x[1-8]":' "$tmp/out")" = 64 ] && ok || bad "json fill lacks 64 shapes"

expect_rc 0 "$PPR" matrix info gen:laplace3d:n=5 --fill
grep -q '^nnz *725$' "$tmp/out" && ok || bad "laplace3d n=5 nnz (7*125-6*25=725)"
[ "$(grep -c '^ *[1-8]  *[0-9]*\.[0-9]\{6\}' "$tmp/out")" = 8 ] && ok || bad "table: 8 fill rows"

expect_rc 0 "$PPR" matrix info gen:random:n=100,per_row=3,seed=4 --fill --format csv
[ "$(wc -l <"$tmp/out")" = 65 ] && ok || bad "csv: header + 64 rows"
grep -q '^"gen:random:n=100,per_row=3,seed=4",300,1,1,300,1.000000$' "$tmp/out" && ok || bad "csv 1x1 row (RFC 4180 quoted name)"
cp "$tmp/out" "$tmp/long.csv"
# -f is --format, as in the other commands
expect_rc 0 "$PPR" matrix info gen:random:n=100,per_row=3,seed=4 --fill -f csv
cmp -s "$tmp/out" "$tmp/long.csv" && ok || bad "-f csv differs from --format csv"

# --- files ------------------------------------------------------------------
printf '%%%%MatrixMarket matrix coordinate complex hermitian\n3 3 2\n2 1 1 2\n3 3 4 0\n' >"$tmp/h.mtx"
expect_rc 0 "$PPR" matrix info "$tmp/h.mtx"
grep -q '^nnz *3$' "$tmp/out" && ok || bad "hermitian nnz 3"
grep -q 'only the real part is kept' "$tmp/err" && ok || bad "complex note on stderr"
gzip -c "$tmp/h.mtx" >"$tmp/h.mtx.gz"
expect_rc 0 "$PPR" matrix info "$tmp/h.mtx.gz" --format json
grep -q '"gzipped":[[:space:]]*true' "$tmp/out" && ok || bad "gzip flag"

# --- errors: one line, file:line, exit 1 -------------------------------------
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n' >"$tmp/bad.mtx"
expect_rc 1 "$PPR" matrix info "$tmp/bad.mtx"
[ "$(cat "$tmp/err")" = "ppr: error: $tmp/bad.mtx:3: row index 4 is out of range 1..3" ] && ok || bad "error text: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "nothing on stdout after an error"
expect_rc 1 "$PPR" matrix info "$tmp/none.mtx"
[ "$(wc -l <"$tmp/err")" = 1 ] && ok || bad "missing file: one line"

# --- usage: exit 2; help: exit 0 on stdout ------------------------------------
expect_rc 2 "$PPR" matrix info
expect_rc 2 "$PPR" matrix info gen:laplace2d:n=3 --format xml
expect_rc 2 "$PPR" matrix info gen:laplace9d:n=3
grep -q "unknown generator 'laplace9d'" "$tmp/err" && ok || bad "unknown generator message"
expect_rc 2 "$PPR" matrix info gen:laplace2d:q=3
expect_rc 2 "$PPR" matrix frobnicate
expect_rc 0 "$PPR" matrix info --help
grep -q '^usage: ppr matrix info' "$tmp/out" && ok || bad "help on stdout"

# --- the shared collection, when present -----------------------------------------
S=../shared/matrices
if [ -f "$S/NBLOCKS_RxC.tsv" ]; then
	expect_rc 0 "$PPR" matrix info "$S/small/bcsstk01.rsa" --fill --format csv
	want=$(awk -F'\t' '$1 == "small/bcsstk01.rsa" { print $12 }' "$S/NBLOCKS_RxC.tsv")
	got=$(awk -F, '$3 == 2 && $4 == 2 { print $5 }' "$tmp/out")
	[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "bcsstk01 2x2 blocks $got != $want"
else
	echo "skipped: ../shared/matrices absent"
	skip=$((skip + 1))
fi

if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
