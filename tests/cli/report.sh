#!/bin/sh
# ppr report: one self-contained HTML page from results files.
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cnt() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
R=tests/data/report/results.jsonl

$PPR report $R -o "$tmp/r.html" 2> "$tmp/err" && ok || bad "report exit: $(cat "$tmp/err")"
grep -q "8 records -> $tmp/r.html" "$tmp/err" && ok || bad "summary: $(cat "$tmp/err")"
head -c 15 "$tmp/r.html" | grep -q "<!DOCTYPE html>" && ok || bad "doctype"
# self-contained: no external resources at all
grep -Eiq '(src|href)="?(https?:)?//|<link |@import|url\(' "$tmp/r.html" && bad "external reference" || ok
[ "$(cnt '<svg ' "$tmp/r.html")" = 4 ] && ok || bad "1 roofline + 3 heatmaps"
[ "$(cnt 'class="result-row"' "$tmp/r.html")" = 6 ] && ok || bad "6 ok rows"
[ "$(cnt 'class="error-record"' "$tmp/r.html")" = 2 ] && ok || bad "2 error records"
grep -q "cannot open matrix &#39;/nonexistent.mtx&#39;: No such file or directory" "$tmp/r.html" && ok || bad "error reason"
[ "$(cnt 'class="dot dot-pred"' "$tmp/r.html")" = 3 ] && ok || bad "3 dots"
[ "$(cnt 'class="heat-cell heat-pred"' "$tmp/r.html")" = 192 ] && ok || bad "3 x 64 predicted cells"
[ "$(cnt 'class="heat-cell heat-meas"' "$tmp/r.html")" = 64 ] && ok || bad "one measured grid"
[ "$(cnt 'class="heat-pick"' "$tmp/r.html")" = 3 ] && ok || bad "3 picks"
grep -q "Intel Xeon E5-2680 v3" "$tmp/r.html" && ok || bad "machine description"
grep -q '<table class="sortable"' "$tmp/r.html" && grep -q "addEventListener('click'" "$tmp/r.html" && ok || bad "sortable table"
grep -q 'data-v="4.8488' "$tmp/r.html" && ok || bad "numeric sort key of the banded pick"
# two files, title, deterministic
$PPR report $R $R -t "A <b>" -o "$tmp/2.html" 2>/dev/null && ok || bad "two files exit"
[ "$(cnt 'class="result-row"' "$tmp/2.html")" = 12 ] && ok || bad "12 rows from two files"
grep -q "<title>A &lt;b&gt;</title>" "$tmp/2.html" && ok || bad "escaped title"
$PPR report $R -o "$tmp/r2.html" 2>/dev/null; cmp -s "$tmp/r.html" "$tmp/r2.html" && ok || bad "not deterministic"
# a machine file that cannot be read: warning, page without roofline; --machine fallback
sed 's|machines/haswell.json|nowhere/haswell.json|g' $R > "$tmp/moved.jsonl"
$PPR report "$tmp/moved.jsonl" -o "$tmp/m.html" 2> "$tmp/err" && ok || bad "moved machine exit"
grep -q "warning: machine 'nowhere/haswell.json'" "$tmp/err" && ok || bad "warning: $(cat "$tmp/err")"
[ "$(cnt 'class="dot dot-pred"' "$tmp/m.html")" = 0 ] && ok || bad "no roofline without machine"
$PPR report "$tmp/moved.jsonl" --machine machines/haswell.json -o "$tmp/m2.html" 2>/dev/null
[ "$(cnt 'class="dot dot-pred"' "$tmp/m2.html")" = 3 ] && ok || bad "--machine fallback"
# a CSR prediction with a validation: the measured time to expect, the
# record's expected_error.time_range_s; an empty cell without one
$PPR sweep -q -j 1 -m machines/zen4-epyc.json -m machines/haswell.json gen:laplace3d:n=12 \
	-o "$tmp/v.jsonl" 2> "$tmp/err" || bad "sweep: $(cat "$tmp/err")"
$PPR report "$tmp/v.jsonl" -o "$tmp/v.html" 2> "$tmp/err" || bad "report of it: $(cat "$tmp/err")"
lo=$(sed -n 's/.*zen4-epyc.*"time_range_s":{"low":\([^,]*\),"high":\([^}]*\)}.*/\1/p' "$tmp/v.jsonl")
hi=$(sed -n 's/.*zen4-epyc.*"time_range_s":{"low":\([^,]*\),"high":\([^}]*\)}.*/\2/p' "$tmp/v.jsonl")
cell=$(awk -v lo="$lo" -v hi="$hi" 'BEGIN { printf "data-v=\"%.10g\">%.4g to %.4g</td>", lo, lo, hi }')
[ -n "$lo" ] && grep -qF "$cell" "$tmp/v.html" && ok || bad "range cell '$cell'"
[ "$(cnt 'data-v="[^"]*">[^<]* to [^<]*</td>' "$tmp/v.html")" = 1 ] && ok || bad "one range cell (haswell.json has no validation)"
# errors
$PPR report tests/data/report/bad.jsonl -o "$tmp/b.html" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^ppr: error: tests/data/report/bad.jsonl:[0-9]*: ' "$tmp/err")" = 5 ] && ok || bad "bad lines: rc=$rc $(cat "$tmp/err")"
[ ! -s "$tmp/b.html" ] && ok || bad "no page from a bad file"
$PPR report 2>/dev/null; [ $? -eq 2 ] && ok || bad "no file must exit 2"
$PPR report "$tmp/none.jsonl" 2> "$tmp/err"; [ $? -eq 1 ] && grep -q "none.jsonl" "$tmp/err" && ok || bad "missing file"
$PPR report --help | grep -q "usage: ppr report" && ok || bad "help"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
