#!/bin/sh
# ppr compare: simulated (ppr sim / ppr predict JSON) vs measured misses
# (ppr measure JSON, PAPI text, perf stat CSV) per level.
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cnt() { grep -o "$1" "$2" | wc -l | tr -d ' '; }

# a streaming read of 200000 bytes: 3125 L1D misses, the L2 next-line
# prefetcher leaves 1 L2 miss, 1 L3 miss
awk 'BEGIN { for (i = 0; i < 200000; i += 8) printf "0 %x\n", 1048576 + i }' > "$tmp/t.din"
$PPR sim -m machines/haswell.json -t "$tmp/t.din" -F din --format json > "$tmp/sim.json" && ok || bad "ppr sim"
printf 'PAPI_L1_DCM : 3300\nPAPI_L2_DCM : 2\nPAPI_L3_TCM : 1\n' > "$tmp/papi.txt"
$PPR compare --sim "$tmp/sim.json" --measured "$tmp/papi.txt" > "$tmp/out" && ok || bad "table exit"
grep -Eq '^L1D +3125 +3300 +\+5\.6%  PAPI_L1_DCM' "$tmp/out" && ok || bad "L1D row: $(cat "$tmp/out")"
grep -Eq '^L2 +1 +2 +\+100\.0%  PAPI_L2_DCM' "$tmp/out" && ok || bad "L2 row"
$PPR compare -s "$tmp/sim.json" -M "$tmp/papi.txt" -f csv > "$tmp/csv" && ok || bad "csv exit"
grep -qx 'L1D,3125,3300,PAPI_L1_DCM,0.056' "$tmp/csv" && ok || bad "csv row: $(cat "$tmp/csv")"
$PPR compare -s "$tmp/sim.json" -M "$tmp/papi.txt" -f json > "$tmp/json" && ok || bad "json exit"
grep -q '"ppr_version"' "$tmp/json" && grep -q '"units"' "$tmp/json" && grep -q '"error":	0.056' "$tmp/json" && ok || bad "json content"
# --svg: grouped bars, two per level
$PPR compare -s "$tmp/sim.json" -M "$tmp/papi.txt" --svg "$tmp/b.svg" > /dev/null && ok || bad "svg exit"
[ "$(cnt 'class="bar bar-s0"' "$tmp/b.svg")" = 3 ] && [ "$(cnt 'class="bar bar-s1"' "$tmp/b.svg")" = 3 ] && ok || bad "3+3 bars"
grep -q "Misses per level on haswell" "$tmp/b.svg" && ok || bad "bars title"
# perf stat -x, CSV, with --map and --runs
printf '6600,,L1-dcache-load-misses:u,1000,100.00,,\n40,,l2_rqsts.miss,1000,100.00,,\n<not supported>,,LLC-load-misses,0,100.00,,\n' > "$tmp/perf.csv"
$PPR compare -s "$tmp/sim.json" -M "$tmp/perf.csv" --runs 2 --map L2=l2_rqsts.miss -f csv > "$tmp/p" && ok || bad "perf exit"
grep -q '^L1D,3125,3300,L1-dcache-load-misses:u,0.056$' "$tmp/p" && ok || bad "perf L1D: $(cat "$tmp/p")"
grep -q '^L2,1,20,l2_rqsts.miss,19$' "$tmp/p" && ok || bad "perf L2 mapped"
grep -q '^L3,1,,LLC-load-misses (unavailable),$' "$tmp/p" && ok || bad "unsupported event"
# ppr measure JSON (fake counters: summed over reps, divided by "reps")
PPR_COUNTERS=fake $PPR measure --kernel spmv-csr gen:laplace2d:n=30 --reps 4 \
	--counters PAPI_L1_DCM,PAPI_L2_DCM --format json > "$tmp/m.json" 2>/dev/null && ok || bad "measure fake"
$PPR predict -m machines/haswell.json -k spmv-csr gen:laplace2d:n=30 --no-advice --format json > "$tmp/pred.json" 2>/dev/null && ok || bad "predict"
$PPR compare -s "$tmp/pred.json" -M "$tmp/m.json" -f csv > "$tmp/mm" && ok || bad "measure json exit"
# the fake backend counts 1000*(i+1) per interval: 1000 and 2000 per run
grep -q '^L1D,[0-9]*,1000,PAPI_L1_DCM,' "$tmp/mm" && grep -q '^L2,[0-9]*,2000,PAPI_L2_DCM,' "$tmp/mm" && ok || bad "per-run counts: $(cat "$tmp/mm")"
# errors
$PPR compare -s "$tmp/sim.json" 2>/dev/null; [ $? -eq 2 ] && ok || bad "missing --measured: exit 2"
$PPR compare -s "$tmp/sim.json" -M "$tmp/papi.txt" --map L2 2>/dev/null; [ $? -eq 2 ] && ok || bad "bad --map: exit 2"
$PPR compare -s "$tmp/sim.json" -M "$tmp/papi.txt" --map L2=NOPE 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "no event 'NOPE'" "$tmp/err" && ok || bad "unknown mapped event: rc=$rc"
printf 'PAPI_L1_DCM : lots\n' > "$tmp/badpapi.txt"
$PPR compare -s "$tmp/sim.json" -M "$tmp/badpapi.txt" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "badpapi.txt:1" "$tmp/err" && ok || bad "bad papi: rc=$rc $(cat "$tmp/err")"
echo '{"x":1}' > "$tmp/nolevels.json"
$PPR compare -s "$tmp/nolevels.json" -M "$tmp/papi.txt" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "field 'levels'" "$tmp/err" && ok || bad "no levels: rc=$rc"
$PPR compare --help | grep -q "usage: ppr compare" && ok || bad "help"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
