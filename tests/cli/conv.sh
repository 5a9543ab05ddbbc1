#!/bin/sh
# conv.sh - `ppr conv`: the paper's Tables 4-6 predicted rows exactly on
# machines/haswell.json (JSON and table), the section 5.3 advice, the
# model mode on small sizes, the validation's trust line, and usage errors.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
M=$ROOT/machines
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# the "predicted_gflops" arrays of the JSON, one line per algorithm
"$PPR" conv --paper --machine "$M/haswell.json" --format json > "$tmp/p.json"
rc=$?
[ $rc -eq 0 ] && ok || bad "conv --paper json exit $rc"
tr -d ' \t\n' < "$tmp/p.json" | grep -o '"predicted_gflops":\[[^]]*\]' \
	> "$tmp/rows"
want='"predicted_gflops":[10.8,10.63,10.47,10.02]
"predicted_gflops":[43.2,40.66,38.4,32.91]
"predicted_gflops":[86.4,57.6,43.2,24.69]'
[ "$(cat "$tmp/rows")" = "$want" ] && ok || bad "Tables 4-6 rows: $(cat "$tmp/rows")"
for k in ppr_version machine units; do
	grep -q "\"$k\"" "$tmp/p.json" && ok || bad "json key $k"
done
# advice: aligned while the data fits in L3, unaligned beyond
tr -d ' \t\n' < "$tmp/p.json" | grep -o '"best":.*' > "$tmp/best"
for pair in 'L1D","variant":"avx2-aligned' 'L2","variant":"avx2-aligned' \
	    'L3","variant":"avx2-aligned' 'memory","variant":"avx2-unaligned'; do
	grep -q "$pair" "$tmp/best" && ok || bad "advice $pair"
done
"$PPR" conv --paper --machine "$M/haswell.json" > "$tmp/t" || bad "table exit"
grep -q '^3   avx2-aligned         16      16     8    86.40    57.60    43.20    24.69$' "$tmp/t" \
	&& ok || bad "table row 3: $(grep aligned "$tmp/t")"
grep -q 'memory=avx2-unaligned' "$tmp/t" && ok || bad "table advice"
"$PPR" conv --paper --machine "$M/haswell.json" --format csv > "$tmp/c" || bad "csv exit"
[ "$(sed -n 3p "$tmp/c")" = "2,avx2-unaligned,16,32,2,43.20,40.66,38.40,32.91" ] \
	&& ok || bad "csv row 2: $(sed -n 3p "$tmp/c")"

# model mode, two small sizes: one line per algorithm and size, a best
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024,4096 --format json \
	> "$tmp/m.json" 2> /dev/null || bad "model mode exit"
n=$(grep -c '"predicted_gflops"' "$tmp/m.json")
[ "$n" = 6 ] && ok || bad "model mode: $n algorithm rows"
grep -q '"best"' "$tmp/m.json" && ok || bad "model mode best"
# each size's pick: the runner-up and its margin; from memory, the
# bandwidth at which the runner-up would lead, and a machine file with the
# memory bandwidth 3% beyond it (re-predicted, not re-evaluated) picks the
# runner-up, 3% short of it the same best.  zen4-epyc.json with a 1 MiB
# L3 (its whole), so that 4 MiB of data is memory's and quick to simulate
# (there avx2-aligned leads above about 39 GB/s, unaligned below); from
# L1, no crossing.
if command -v python3 > /dev/null 2>&1; then
	python3 - "$M/zen4-epyc.json" "$tmp/small.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
l3 = d["hierarchy"]["levels"][-1]
l3.update(size_bytes=1024 * 1024, sets=1024, ways=16)
l3.pop("usable_ways", None)
json.dump(d, open(sys.argv[2], "w"))
PY
	"$PPR" conv --machine "$tmp/small.json" --sizes 1024,524288 --format json \
		> "$tmp/x.json" 2> /dev/null || bad "crossover run exit"
	if python3 - "$tmp/x.json" "$tmp/small.json" "$tmp" > "$tmp/xs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s0, s1 = d["sizes"]
assert "margin" in d["units"] and "memory_gbs" in d["units"], d["units"]
m = json.load(open(sys.argv[2]))
assert "crossover_memory_gbs" not in s0, s0
assert s0["runner_up"] != s0["best"] and s0["margin"] >= 0, s0
x, f = s1["crossover_memory_gbs"], s1["memory_gbs"]
up = s1["runner_up_leads"] == "above"
assert up == (x > f), s1
bw = m["memory"]["bandwidth_gbs"]
for name, k in (("beyond", 1.03), ("short", 0.97)):
    m["memory"]["bandwidth_gbs"] = bw * x / f * (k if up else 1 / k)
    json.dump(m, open("%s/%s.json" % (sys.argv[3], name), "w"))
print(s1["best"], s1["runner_up"])
PY
	then
		read -r best runner < "$tmp/xs"
		for side in beyond short; do
			"$PPR" conv --machine "$tmp/$side.json" --sizes 524288 \
				--format json > "$tmp/$side.out" 2> /dev/null ||
				bad "crossover $side exit"
		done
		grep -q "\"best\":	\"$runner\"" "$tmp/beyond.out" && ok ||
			bad "beyond the crossover: not $runner: $(grep '"best"' "$tmp/beyond.out")"
		grep -q "\"best\":	\"$best\"" "$tmp/short.out" && ok ||
			bad "short of the crossover: not $best: $(grep '"best"' "$tmp/short.out")"
		"$PPR" conv --machine "$tmp/small.json" --sizes 524288 > "$tmp/xt" 2> /dev/null
		grep -q "^     $runner would lead \(above\|below\) [0-9.]* GB/s from memory (this file: [0-9.]*)$" \
			"$tmp/xt" && ok || bad "crossover table line: $(cat "$tmp/xt")"
	else
		bad "crossover json: $(cat "$tmp/xs")"
	fi
else
	echo "conv.sh: python3 not found: the crossover checks skipped"
fi
# --measure: median and best-run GFLOPS per algorithm, errors of both, the
# measured best; csv rows carry all ten fields
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
	--format json > "$tmp/mm.json" 2> /dev/null || bad "measure exit"
for k in measured_gflops measured_gflops_best error error_best; do
	[ "$(grep -c "\"$k\":" "$tmp/mm.json")" = 3 ] && ok || bad "measure key $k"
done
grep -q '"measured_best":	"' "$tmp/mm.json" && ok || bad "measured_best"
# each kernel timed at the fastest of its four code placements (AVX2 ones
# only where the CPU has AVX2), or at the linker's with --code-offset linked
n=$(grep -c '"code_offset":	\(0\|16\|32\|48\)' "$tmp/mm.json")
if grep -q avx2 /proc/cpuinfo 2> /dev/null; then want=3; else want=1; fi
[ "$n" = "$want" ] && ok || bad "code_offset: $n placed of 3, want $want"
grep -q '"code_offset":	"B into a 64-byte line"' "$tmp/mm.json" && ok || bad "code_offset unit"
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
	--code-offset linked --format json > "$tmp/ml.json" 2> /dev/null || bad "linked exit"
[ "$(grep -c '"code_offset":	"linked"' "$tmp/ml.json")" = 3 ] && ok || bad "code_offset linked"
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
	> "$tmp/mt" 2> /dev/null || bad "measure table exit"
grep -q '^measured: each kernel at the fastest of its code placements' "$tmp/mt" \
	&& ok || bad "table placement line: $(tail -n 1 "$tmp/mt")"
"$PPR" conv --machine "$M/zen4-epyc.json" --measure --code-offset 8 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--code-offset '8'" "$tmp/e" && ok || bad "bad --code-offset: exit $rc $(cat "$tmp/e")"
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
	--format csv > "$tmp/mc" 2> /dev/null || bad "measure csv exit"
[ "$(awk -F, 'NF != 11' "$tmp/mc" | wc -l)" -eq 0 ] && [ "$(wc -l < "$tmp/mc")" -eq 4 ] \
	&& ok || bad "measure csv fields: $(cat "$tmp/mc")"
# --batch-us: runs back to back a sample when one run is shorter (1024
# outputs take microseconds, even under valgrind: 2 ms is several); 0:
# one run a sample; the count in the JSON, the CSV and the table
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
	--batch-us 2000 --format json > "$tmp/mb.json" 2> /dev/null || bad "batch exit"
n=$(grep -o '"runs_per_sample":	[0-9]*' "$tmp/mb.json" | awk '$2 > 1' | wc -l)
[ "$n" = 3 ] && ok || bad "batched: $n of 3 over one run a sample"
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
	--batch-us 0 --format csv > "$tmp/mb0" 2> /dev/null || bad "batch 0 exit"
[ "$(awk -F, 'NR > 1 && $11 != 1' "$tmp/mb0" | wc -l)" -eq 0 ] && \
	[ "$(head -n 1 "$tmp/mb0" | cut -d, -f11)" = runs_per_sample ] \
	&& ok || bad "batch 0 csv: $(cat "$tmp/mb0")"
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
	--batch-us 0 > "$tmp/mbt" 2> /dev/null || bad "batch 0 table exit"
grep -q '^timed: one run a sample$' "$tmp/mbt" && ok || bad "batch 0 table line"
grep -q '^timed: [0-9]*-[0-9]* runs back to back a sample' "$tmp/mt" \
	&& ok || bad "default batch table line: $(grep timed "$tmp/mt")"
"$PPR" conv --machine "$M/zen4-epyc.json" --measure --batch-us x > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--batch-us 'x'" "$tmp/e" && ok || bad "bad --batch-us: exit $rc $(cat "$tmp/e")"
# --cpu N (with --measure): reported in the table and JSON, null without;
# without --measure, or a CPU this process may not use: bad usage (2)
cpu0=$(sed -n 's/^Cpus_allowed_list:[	 ]*\([0-9]*\).*/\1/p' /proc/self/status)
if [ -n "$cpu0" ]; then
	"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
		--cpu "$cpu0" --format json > "$tmp/mcpu.json" 2> /dev/null || bad "--cpu exit"
	grep -q "\"cpu\":	$cpu0," "$tmp/mcpu.json" && ok || bad "--cpu $cpu0 not reported"
	"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --reps 2 \
		--cpu "$cpu0" > "$tmp/mcpu" 2> /dev/null || bad "--cpu table exit"
	grep -q "^measured on CPU $cpu0 only (--cpu)" "$tmp/mcpu" && ok || bad "--cpu table line"
fi
grep -q '"cpu":	null' "$tmp/mm.json" && ok || bad "no --cpu: cpu not null"
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --cpu 0 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--cpu needs --measure" "$tmp/e" && ok || bad "--cpu without --measure: exit $rc"
"$PPR" conv --machine "$M/zen4-epyc.json" --sizes 1024 --measure --cpu 1024 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--cpu: '1024' is not a CPU number" "$tmp/e" && ok || bad "--cpu 1024: exit $rc $(head -n 1 "$tmp/e")"

# the machine file's validation of the convolution: a trust line last,
# JSON validation (null without one), machine show's "Validated:" line;
# none in paper mode (its figures are the paper's, not this file's)
awk 'NR == 1 { print "{ \"validation\": {\"conv\": {\"date\": \"2026-12-08\", " \
	"\"command\": \"sh c.sh\", \"cells\": 12, \"within_10\": 11, " \
	"\"median_abs_error\": 0.041, \"worst_error\": -0.123, " \
	"\"worst_cell\": \"L3 naive n=589824\", \"sizes\": 4, " \
	"\"best_right\": 3}},"; next } { print }' "$M/haswell.json" > "$tmp/vc.json"
"$PPR" conv --machine "$tmp/vc.json" --sizes 1024 > "$tmp/vt" 2> "$tmp/e" || bad "conv with a validation: $(cat "$tmp/e")"
[ "$(tail -n 1 "$tmp/vt")" = "trust: on this file's validation (2026-12-08, sh c.sh), 11 of 12 cells within 10% of their measured GFLOPS, median |error| 4.1%, worst -12.3% (L3 naive n=589824); the best right at 3 of 4 sizes" ] \
	&& ok || bad "trust line: $(tail -n 1 "$tmp/vt")"
"$PPR" conv --machine "$M/haswell.json" --sizes 1024 2> /dev/null | tail -n 1 |
	grep -q '^trust: not known: this machine file has no validation of the convolution' \
	&& ok || bad "no validation: not known"
if command -v python3 > /dev/null 2>&1; then
	"$PPR" conv --machine "$tmp/vc.json" --sizes 1024 -f json > "$tmp/vj" 2> /dev/null
	"$PPR" conv --machine "$M/haswell.json" --sizes 1024 -f json > "$tmp/nj" 2> /dev/null
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["validation"]
assert v["within_10"] == 11 and v["cells"] == 12 and v["best_right"] == 3, v
assert v["worst_error"] == -0.123 and v["worst_cell"] == "L3 naive n=589824", v
assert json.load(open(sys.argv[2]))["validation"] is None' "$tmp/vj" "$tmp/nj" \
		&& ok || bad "json validation"
fi
"$PPR" conv --paper --machine "$tmp/vc.json" | grep -q '^trust:' && bad "paper mode printed a trust line" || ok
"$PPR" machine show "$tmp/vc.json" 2> /dev/null | grep -qF "Validated:         convolution, 2026-12-08: 11 of 12 cells within 10%, median |error| 4.1%, worst -12.3%; best right at 3 of 4 sizes" \
	&& ok || bad "machine show: $("$PPR" machine show "$tmp/vc.json" 2>&1 | grep Valid)"

# errors
"$PPR" conv --paper > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && ok || bad "no --machine: exit $rc"
"$PPR" conv --machine "$M/haswell.json" --sizes 10,abc > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--sizes" "$tmp/e" && ok || bad "bad sizes: exit $rc"
"$PPR" conv --machine "$tmp/none.json" --paper > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 1 ] && grep -q '^ppr: error: .*none.json' "$tmp/e" && ok || bad "missing machine: exit $rc $(cat "$tmp/e")"
"$PPR" conv --help > "$tmp/h"; rc=$?
[ $rc -eq 0 ] && grep -q '^usage: ppr conv' "$tmp/h" && ok || bad "help"
# bad --sizes: usage error (2) whose first line says what is expected
for sz in 16 "1024,,2048" "1k" "64,$(seq -s, 100 100 1700)"; do
	"$PPR" conv --machine "$M/zen4-epyc.json" --sizes "$sz" > /dev/null 2> "$tmp/e"; rc=$?
	[ $rc -eq 2 ] && [ "$(head -n 1 "$tmp/e")" = "ppr: --sizes '$sz': expected comma-separated lengths >= 64, at most 16 of them" ] &&
		ok || bad "--sizes '$sz': rc=$rc $(head -n 1 "$tmp/e")"
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
