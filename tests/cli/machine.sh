#!/bin/sh
# Golden tests of `ppr machine show` and the error paths of `ppr machine detect`.
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

out=$($PPR machine show machines/haswell.json) && ok || bad "show haswell exit"
for want in "Machine:           haswell" "Clock:             2.700 GHz" \
	"Number of sets:    24576" "Associativity:     20" "Prefetch:          next-line"; do
	case "$out" in *"$want"*) ok ;; *) bad "show haswell lacks '$want'" ;; esac
done
$PPR machine show --format json machines/zen4-epyc.json > "$tmp/z.json" && ok || bad "show json exit"
grep -q '"ppr_version"' "$tmp/z.json" && grep -q '"size_bytes":	49152' "$tmp/z.json" && ok || bad "json content"
grep -q '"units":	{' "$tmp/z.json" && grep -q '"\*_bytes_per_cycle":	"B per core cycle"' "$tmp/z.json" && ok || bad "json units"
# CSV: a row per cache level and one for memory, CRLF line ends (RFC 4180);
# haswell.json's figures (L3 32 B/cy at 2.7 GHz = 86.4 GB/s; memory 34.56
# GB/s = 12.8 B/cy, 70 ns = 189 cycles)
$PPR machine show -f csv machines/haswell.json > "$tmp/h.csv" && ok || bad "show csv exit"
tr -d '\r' < "$tmp/h.csv" > "$tmp/h.txt"
[ "$(head -n 1 "$tmp/h.txt")" = "machine,level,type,size_bytes,ways,usable_ways,sets,usable_sets,line_bytes,replacement,inclusion,write_policy,prefetch,bandwidth_bytes_per_cycle,bandwidth_gbs,latency_cycles,latency_ns" ] &&
	ok || bad "csv header: $(head -n 1 "$tmp/h.txt")"
grep -qx 'haswell,L3,unified,31457280,20,20,24576,24576,64,lru,inclusive,write-back,none,32,86.4,36,' "$tmp/h.txt" &&
	ok || bad "csv L3 row: $(grep L3 "$tmp/h.txt")"
grep -qx 'haswell,memory,memory,,,,,,,,,,,12.8,34.56,189,70' "$tmp/h.txt" && ok || bad "csv memory row: $(grep memory "$tmp/h.txt")"
[ "$(wc -l < "$tmp/h.txt")" = 5 ] && [ "$(tr -cd '\r' < "$tmp/h.csv" | wc -c)" = 5 ] && ok || bad "csv: header + 4 rows, CRLF"
# the shared L3's usable ways, and a split L1 (instruction cache second)
$PPR machine show -f csv machines/zen4-epyc.json | tr -d '\r' > "$tmp/z.txt"
sed -n 3p "$tmp/z.txt" | grep -q '^zen4-epyc,L1I,instruction,32768,' && ok || bad "csv split L1: $(sed -n 3p "$tmp/z.txt")"
grep -q '^zen4-epyc,L3,unified,33554432,16,9,' "$tmp/z.txt" && ok || bad "csv usable ways: $(grep L3 "$tmp/z.txt")"
$PPR machine show -f xml machines/haswell.json 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && head -n 1 "$tmp/e" | grep -qx "ppr: machine show: --format must be table, csv or json" && ok || bad "show -f xml: $rc $(head -n 1 "$tmp/e")"

# the shared L3: physical geometry, and the ways the program gets
out=$($PPR machine show machines/zen4-epyc.json) && ok || bad "show zen4 exit"
for want in "Size:              32.0 MiB" "Associativity:     16" "Usable ways:       9 (18.0 MiB"; do
	case "$out" in *"$want"*) ok ;; *) bad "show zen4 lacks '$want'" ;; esac
done
grep -q '"usable_ways":	9' "$tmp/z.json" && ok || bad "json usable_ways"
# the core model: the file's own, or the one ppr falls back to
grep -q '"core_model":	"zen5"' "$tmp/z.json" && ok || bad "json core_model"
out=$($PPR machine show machines/zen4-genoa.json) && ok || bad "show genoa exit"
for want in "Core model:        zen4 (6-wide, ROB 320, 13 ports)" "Associativity:     8"; do
	case "$out" in *"$want"*) ok ;; *) bad "show genoa lacks '$want'" ;; esac
done
printf '{"name":"x","hierarchy":{"levels":[{"name":"L1","size_bytes":1024,"ways":4,"cl_size":64}]}}\n' > "$tmp/n.json"
out=$($PPR machine show "$tmp/n.json") && ok || bad "show no-core exit"
case "$out" in *"Core model:        none in the file (ppr uses zen5's)"*) ok ;; *) bad "show no-core: $out" ;; esac
# memory's late lines given as a latency: shown with their cycles at the clock
printf '{"name":"x","clock_ghz":4,"hierarchy":{"levels":[{"name":"L1","size_bytes":1024,"ways":4,"cl_size":64}]},"memory":{"bandwidth_gbs":30,"late_line_ns":6}}\n' > "$tmp/ns.json"
out=$($PPR machine show "$tmp/ns.json") && ok || bad "show late_line_ns exit"
case "$out" in *"late line 6 ns (24 cy)"*) ok ;; *) bad "show late_line_ns: $out" ;; esac
$PPR machine show --format json "$tmp/ns.json" > "$tmp/ns.out" && ok || bad "show late_line_ns json exit"
grep -q '"late_line_cycles":	24' "$tmp/ns.out" && grep -q '"late_line_ns":	6' "$tmp/ns.out" && ok || bad "json late_line_ns"
# the cost of x's jumps between its streams (memory.stream_jump_cycles)
printf '{"name":"x","clock_ghz":4,"hierarchy":{"levels":[{"name":"L1","size_bytes":1024,"ways":4,"cl_size":64}]},"memory":{"bandwidth_gbs":30,"stream_jump_cycles":0.7}}\n' > "$tmp/jump.json"
out=$($PPR machine show "$tmp/jump.json") && ok || bad "show stream_jump_cycles exit"
case "$out" in *"jumps between x's streams 0.7 cy"*) ok ;; *) bad "show stream_jump_cycles: $out" ;; esac
$PPR machine show --format json "$tmp/jump.json" > "$tmp/jump.out" && ok || bad "show stream_jump_cycles json exit"
grep -q '"stream_jump_cycles":	0.7' "$tmp/jump.out" && ok || bad "json stream_jump_cycles"
printf '{"name":"x","hierarchy":{"levels":[{"name":"L1","size_bytes":1024,"ways":4,"cl_size":64,"usable_ways":5}]}}\n' > "$tmp/u.json"
$PPR machine show "$tmp/u.json" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "u.json:1:.*'usable_ways'" "$tmp/err" && ok || bad "usable_ways > ways: rc=$rc $(cat "$tmp/err")"

$PPR machine show machines/none.json 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "cannot open machine file 'machines/none.json'" "$tmp/err" && ok || bad "missing file: rc=$rc $(cat "$tmp/err")"
$PPR machine frob 2> /dev/null; [ $? -eq 2 ] && ok || bad "unknown subcommand must exit 2"
$PPR machine detect --runs 0 2> /dev/null; [ $? -eq 2 ] && ok || bad "--runs 0 must exit 2"
$PPR machine detect --sysfs "$tmp/nowhere" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "no cache description found" "$tmp/err" && ok || bad "bad sysfs: rc=$rc $(cat "$tmp/err")"
# --cpu: a CPU this process may not run on, or not a number, is bad usage
$PPR machine detect --clock-only --cpu 1000 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "CPU 1000 is not one this process may run on (allowed: " "$tmp/err" && ok ||
	bad "--cpu 1000: rc=$rc $(head -1 "$tmp/err")"
$PPR machine detect --clock-only --cpu fast 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "'fast' is not a CPU number" "$tmp/err" && ok || bad "--cpu fast: rc=$rc"
# the clock measured where asked: the first CPU this process may use, any
# (unpinned, no CPU timed), and fastest (every CPU timed, the one measured
# the fastest of them)
first=$(sed -n 's/^Cpus_allowed_list:[	 ]*//p' /proc/self/status | sed 's/[-,].*//')
ncpu=$(sed -n 's/^Cpus_allowed_list:[	 ]*//p' /proc/self/status | tr ',' '\n' |
	awk -F- 'NF { n += (NF > 1 ? $2 - $1 + 1 : 1) } END { print n }')
out=$($PPR machine detect --clock-only --runs 1 --cpu "$first" 2> /dev/null) && ok || bad "--cpu $first exit"
echo "$out" | grep -qx "cpu $first" && echo "$out" | grep -qx "ran_on_cpu $first" &&
	! echo "$out" | grep -q '^cpu[0-9]*_ghz' && ok ||
	bad "--cpu $first: $(echo "$out" | grep ^cpu)"
out=$($PPR machine detect --clock-only --runs 1 --cpu any 2> /dev/null) && ok || bad "--cpu any exit"
echo "$out" | grep -qx "cpu any" && ok || bad "--cpu any: $(echo "$out" | grep ^cpu)"
out=$($PPR machine detect --clock-only --runs 1 2> "$tmp/err") && ok || bad "--cpu fastest exit"
if [ "$ncpu" -gt 1 ]; then
	[ "$(echo "$out" | grep -c '^cpu[0-9]*_ghz [0-9.]*$')" -eq "$ncpu" ] && ok ||
		bad "fastest: $ncpu CPUs, timed: $(echo "$out" | grep -c '^cpu[0-9]*_ghz')"
	echo "$out" | awk '$1 == "cpu" { c = $2 } /^cpu[0-9]+_ghz/ { k = $1; sub(/^cpu/, "", k); sub(/_ghz$/, "", k); g[k] = $2; if ($2 > m) m = $2 }
		/^ran_on_cpu/ { r = $2 } END { exit !(c in g && g[c] == m && r == c) }' && ok ||
		bad "fastest: not measured on the fastest CPU: $(echo "$out" | grep -e ^cpu -e ^ran_on)"
	grep -q "measuring on CPU [0-9]*, the fastest" "$tmp/err" && ok || bad "fastest: stderr lacks the CPU"
else
	echo "$out" | grep -qx "cpu $first" && ok || bad "one CPU: $(echo "$out" | grep ^cpu)"
fi
$PPR machine --help | grep -q "ppr machine detect" && ok || bad "help"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
