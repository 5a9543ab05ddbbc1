#!/bin/sh
# Where `ppr machine detect` takes the caches from: --caches auto|sysfs|cpuid,
# --sysfs DIR, the fallback to CPUID.  --caches-only stops before any
# measurement, so nothing here runs a bandwidth kernel, and nothing assumes
# this machine has (or lacks) a sysfs cache description.  --clock-only
# measures the clock alone (about 0.2 s).  --base refreshes a machine file:
# its checks run before any measurement; one real run (--runs 1, on a fake
# sysfs of two levels, about 10 s, twice: --attempts 2 with --drift-limit 0)
# checks what it keeps and what it changes, and the second attempt.
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# usage errors: exit 2
$PPR machine detect --caches bogus 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^ppr: machine detect: --caches must be auto, sysfs or cpuid, not 'bogus'$" "$tmp/err" \
	&& ok || bad "--caches bogus: rc=$rc $(head -n 1 "$tmp/err")"
$PPR machine detect --caches cpuid --sysfs "$tmp" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^ppr: machine detect: --sysfs needs --caches auto or sysfs$" "$tmp/err" \
	&& ok || bad "--caches cpuid --sysfs: rc=$rc $(head -n 1 "$tmp/err")"
$PPR machine detect --attempts 0 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^ppr: machine detect: --attempts must be 1..10, not '0'$" "$tmp/err" \
	&& ok || bad "--attempts 0: rc=$rc $(head -n 1 "$tmp/err")"
$PPR machine detect --drift-limit -1 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^ppr: machine detect: --drift-limit must be 0..100 (percent), not '-1'$" "$tmp/err" \
	&& ok || bad "--drift-limit -1: rc=$rc $(head -n 1 "$tmp/err")"
$PPR machine detect --help > "$tmp/help" && grep -q -- "--caches auto|sysfs|cpuid" "$tmp/help" \
	&& grep -q -- "--caches-only" "$tmp/help" && ok || bad "help lacks --caches"

# an explicit --sysfs that has no description stays an error (no fallback)
for src in auto sysfs; do
	$PPR machine detect --caches $src --sysfs "$tmp/nowhere" --caches-only > "$tmp/out" 2> "$tmp/err"; rc=$?
	[ $rc -eq 1 ] && [ "$(grep -c '^ppr: error:' "$tmp/err")" -eq 1 ] \
		&& grep -q "^ppr: error: $tmp/nowhere: no cache description found$" "$tmp/err" \
		&& ! grep -q CPUID "$tmp/err" && ok || bad "--caches $src, missing --sysfs: rc=$rc $(cat "$tmp/err")"
done

# a fake sysfs tree: its caches, named as the source; nothing on stdout
mk() { # dir level type size ways sets
	mkdir -p "$1"
	echo "$2" > "$1/level"; echo "$3" > "$1/type"; echo "$4" > "$1/size"
	echo "$5" > "$1/ways_of_associativity"; echo "$6" > "$1/number_of_sets"
	echo 64 > "$1/coherency_line_size"
}
mk "$tmp/sys/index0" 1 Data 48K 12 64
mk "$tmp/sys/index1" 2 Unified 1024K 16 1024
$PPR machine detect --sysfs "$tmp/sys" --caches-only -o "$tmp/m.json" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q "^  caches from sysfs $tmp/sys$" "$tmp/err" \
	&& grep -q "^  cache L1 Data  *48 KiB  12-way  *64 sets 64 B lines$" "$tmp/err" \
	&& grep -q "^  cache L2 Unified  *1024 KiB  16-way  *1024 sets" "$tmp/err" \
	&& [ ! -s "$tmp/out" ] && [ ! -e "$tmp/m.json" ] && ok || bad "fake sysfs: rc=$rc $(cat "$tmp/err")"
# a broken description is an error even under auto: never replaced by CPUID
echo 1024Q > "$tmp/sys/index1/size"
$PPR machine detect --sysfs "$tmp/sys" --caches-only 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "index1/size:1: '1024Q' is not a number" "$tmp/err" \
	&& ! grep -q CPUID "$tmp/err" && ok || bad "broken sysfs: rc=$rc $(cat "$tmp/err")"

# CPUID: on x86-64 it describes at least an L1 data cache, or fails in one
# line; elsewhere it says it needs x86-64
check_cpuid() { # rc stderr-file what
	if [ "$1" -eq 0 ]; then
		grep -q "^  caches from CPUID " "$2" && grep -Eq "^  cache L1 (Data|Unified) " "$2" \
			&& ok || bad "$3: $(cat "$2")"
		# what was left out is one line, and only when something was
		[ "$(grep -c '^  caches left out: ' "$2")" -le 1 ] && ok || bad "$3: left-out lines"
	elif [ "$1" -eq 1 ]; then
		[ "$(grep -c '^ppr: error:' "$2")" -eq 1 ] && ok || bad "$3: not one error line: $(cat "$2")"
		case $(uname -m) in
		x86_64|amd64) ;;
		*) grep -q "needs x86-64" "$2" && ok || bad "$3: $(cat "$2")" ;;
		esac
	else
		bad "$3: rc=$1 $(cat "$2")"
	fi
}
$PPR machine detect --caches cpuid --caches-only > "$tmp/out" 2> "$tmp/err"; rc=$?
check_cpuid $rc "$tmp/err" "--caches cpuid"
! grep -q "sysfs" "$tmp/err" && ok || bad "--caches cpuid mentions sysfs: $(cat "$tmp/err")"

# auto with the default directory: sysfs where it has a description, else
# CPUID, saying that sysfs had none
$PPR machine detect --caches-only > "$tmp/out" 2> "$tmp/err"; rc=$?
if grep -q "^  caches from sysfs " "$tmp/err"; then
	[ $rc -eq 0 ] && ok || bad "auto, sysfs: rc=$rc"
else
	check_cpuid $rc "$tmp/err" "auto"
	[ $rc -ne 0 ] || grep -q "): sysfs has none at /sys/devices/system/cpu/cpu0/cache$" "$tmp/err" \
		&& ok || bad "auto without sysfs: $(cat "$tmp/err")"
fi
# --clock-only: the clock alone, 'key value' lines on stdout, each a
# positive number but cpu's and ran_on_cpu's (the CPU measured on, chosen
# by --cpu fastest, which tests/cli/machine.sh checks); the windows'
# fastest rate at least their 95th percentile, that at least their
# median; the clock written the faster of the 20 ms runs' and the 95th
# percentile; the share not interrupted in (0, 1]; it excludes
# --caches-only (usage, 2)
$PPR machine detect --clock-only --runs 1 > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l < "$tmp/out")" -ge 10 ] \
	&& awk '{ v[$1] = $2; if (!($2 > 0) && $1 != "cpu" && $1 != "ran_on_cpu") bad = 1 }
		END { c = v["runs_ghz"] > v["p95_window_ghz"] ? v["runs_ghz"] : v["p95_window_ghz"]
		      exit !(!bad && ("clock_ghz" in v) && ("window_ms" in v) &&
			     v["windows"] == 400 &&
			     v["fastest_window_ghz"] >= v["p95_window_ghz"] &&
			     v["p95_window_ghz"] >= v["median_window_ghz"] &&
			     v["clock_ghz"] == c && ("cpu" in v) && ("ran_on_cpu" in v) &&
			     v["uninterrupted"] <= 1) }' "$tmp/out" \
	&& grep -q "^  core clock in 400 windows of " "$tmp/err" \
	&& ok || bad "--clock-only: rc=$rc $(cat "$tmp/out" "$tmp/err")"
$PPR machine detect --clock-only --caches-only > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] \
	&& grep -q "^ppr: machine detect: --caches-only and --clock-only exclude each other$" "$tmp/err" \
	&& ok || bad "--clock-only --caches-only: rc=$rc $(head -n 1 "$tmp/err")"

# --base: usage, a missing or broken base, a base for other caches (all
# before measuring: one error line naming the file, exit 1)
$PPR machine detect --base machines/zen4-epyc.json --clock-only > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^ppr: machine detect: --base writes a whole machine file; not with --caches-only or --clock-only$" "$tmp/err" \
	&& ok || bad "--base --clock-only: rc=$rc $(head -n 1 "$tmp/err")"
echo 1024K > "$tmp/sys/index1/size"
$PPR machine detect --sysfs "$tmp/sys" --base "$tmp/none.json" -o "$tmp/r.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^ppr: error:' "$tmp/err")" -eq 1 ] && grep -q "none.json" "$tmp/err" \
	&& ! grep -q "measuring" "$tmp/err" && [ ! -e "$tmp/r.json" ] && ok || bad "--base missing: rc=$rc $(cat "$tmp/err")"
printf '{\n  "name": "x",\n  "clock_ghz": "fast"\n}\n' > "$tmp/broken.json"
$PPR machine detect --sysfs "$tmp/sys" --base "$tmp/broken.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^ppr: error: $tmp/broken.json:3:" "$tmp/err" && ! grep -q "measuring" "$tmp/err" \
	&& ok || bad "--base broken: rc=$rc $(cat "$tmp/err")"
# zen4-epyc.json has an L1I and an L3 besides; this fake machine's L2 is
# 512 KiB: another CPU
mk "$tmp/sys2/index0" 1 Data 48K 12 64
mk "$tmp/sys2/index1" 2 Unified 512K 8 1024
$PPR machine detect --sysfs "$tmp/sys2" --base machines/zen4-epyc.json 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^ppr: error: machines/zen4-epyc.json: hierarchy.levels 'L2': 'size_bytes' is 1048576, this machine's is 524288: the base describes another CPU$" "$tmp/err" \
	&& ! grep -q "measuring" "$tmp/err" && ok || bad "--base other CPU: rc=$rc $(cat "$tmp/err")"
# a real refresh of a two-level base written here: the result keeps the
# base's name, branch and far-reference keys, its L1D bandwidth and fill_load_cycles (the
# core's design) and its description; takes this run's clock, memory and
# L2 (the last level) usable ways and bandwidth; loads; and says in its
# source what changed (the usable ways written are the ones the source
# names: a measurement can find the base's 3 again, as on the Zen 4
# guest on 2026-11-26)
cat > "$tmp/base.json" <<'JSON'
{
  "name": "two-level",
  "description": "a base for the refresh test",
  "source": "written by hand",
  "clock_ghz": 1.25,
  "hierarchy": {
    "transfers_overlap": true,
    "levels": [
      { "name": "L1D", "size_bytes": 49152, "sets": 64, "ways": 12, "cl_size": 64,
        "bandwidth_bytes_per_cycle": 128, "fill_load_cycles": 0.75 },
      { "name": "L2", "size_bytes": 1048576, "sets": 1024, "ways": 16, "cl_size": 64,
        "bandwidth_bytes_per_cycle": 1.5, "far_miss_cycles": 0.3, "late_line_cycles": 44, "usable_ways": 3 }
    ]
  },
  "memory": { "bandwidth_gbs": 0.5, "latency_ns": 9999, "far_miss_cycles": 20,
              "late_line_cycles": 107 },
  "branch": { "loop_exit_miss_cycles": 25, "learned_exit_trips": 32 }
}
JSON
# --drift-limit 0: every attempt's clock moved more than the limit, so
# it detects twice (--attempts 2), writes the attempt that moved least,
# and warns
$PPR machine detect --sysfs "$tmp/sys" --runs 1 --attempts 2 --drift-limit 0 \
	--base "$tmp/base.json" -o "$tmp/r.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^  core clock at the end: ' "$tmp/err")" -eq 2 ] \
	&& grep -q '^ppr: the core clock moved [-+][0-9.]*% during detection: detecting again (attempt 2 of 2)$' "$tmp/err" \
	&& grep -q '^  written: attempt [12] of 2, whose clock moved [-+][0-9.]*%$' "$tmp/err" \
	&& grep -q '^ppr: warning: the core clock moved [-+][0-9.]*% during detection in every attempt: ' "$tmp/err" \
	&& [ "$(grep -c '^ppr: base ' "$tmp/err")" -eq 1 ] \
	&& ok || bad "--attempts 2 --drift-limit 0: rc=$rc $(cat "$tmp/err")"
# the usable ways written are the ones the source names; all 16 (a host
# whose own L2 is larger than the fake 1 MiB, as Granite Rapids' 2 MiB) are
# the level's default, which the file leaves out
[ $rc -eq 0 ] && $PPR machine show "$tmp/r.json" > "$tmp/show" 2>> "$tmp/err" \
	&& grep -q '"name":	"two-level"' "$tmp/r.json" \
	&& grep -q '"description":	"a base for the refresh test"' "$tmp/r.json" \
	&& grep -q '"learned_exit_trips":	32' "$tmp/r.json" \
	&& grep -q '"far_miss_cycles":	20' "$tmp/r.json" \
	&& grep -q '"far_miss_cycles":	0.3' "$tmp/r.json" \
	&& grep -q '"late_line_cycles":	44' "$tmp/r.json" \
	&& grep -q '"fill_load_cycles":	0.75' "$tmp/r.json" \
	&& grep -Eq '^  fills into L1D: [0-9.]+ cycles a line with the stream in it, [0-9.]+ from the next level: [0-9.]+ a fill \(fill_load_cycles\)$' "$tmp/err" \
	&& grep -Eq 'B/cy, write-back share 1\.00 -> [0-9]\.[0-9][0-9]' "$tmp/r.json" \
	&& [ "$(grep -c '"writeback_share":' "$tmp/r.json")" -eq 2 ] \
	&& grep -q '"late_line_cycles":	107' "$tmp/r.json" \
	&& grep -q '"bandwidth_bytes_per_cycle":	128' "$tmp/r.json" \
	&& ! grep -q '"bandwidth_bytes_per_cycle":	1.5' "$tmp/r.json" \
	&& uw=$(sed -n 's/.*L2 usable ways 3 -> \([0-9]*\).*/\1/p' "$tmp/r.json" | head -1) \
	&& [ -n "$uw" ] && { grep -Eq "\"usable_ways\":	$uw,?\$" "$tmp/r.json" ||
		{ [ "$uw" = 16 ] && ! grep -q '"usable_ways"' "$tmp/r.json"; }; } \
	&& ! grep -q '"clock_ghz":	1.25' "$tmp/r.json" \
	&& ! grep -q '"bandwidth_gbs":	0.5' "$tmp/r.json" \
	&& ! grep -q '"latency_ns":	9999' "$tmp/r.json" \
	&& grep -q '"csr_bandwidth_gbs":	\[\[5, [0-9.]*\], \[7, [0-9.]*\], \[9, ' "$tmp/r.json" \
	&& grep -q '"source":	"written by hand; refreshed by ppr .* machine detect --base: clock 1.250 -> .* GHz, memory 0.5 -> .* GB/s and 9999 -> .* ns, write-back share 1.00 -> [01].[0-9][0-9] (and its CSR stream table), L2 usable ways 3 -> ' "$tmp/r.json" \
	&& grep -Eq '"writeback_share":	(0|1|0\.[0-9]+),?$' "$tmp/r.json" \
	&& grep -q "^ppr: base $tmp/base.json refreshed by ppr" "$tmp/err" \
	&& ok || bad "--base refresh: rc=$rc $(cat "$tmp/err" "$tmp/r.json")"
# a base with a level beyond the ones detected (as when CPUID's legacy
# leaf leaves the L3 out): that level keeps the base's usable ways and
# bandwidth, and so does the L2, which is not the base's last level; the
# source says the L3 was not measured
sed -e 's/"usable_ways": 3 }/"usable_ways": 3 },\
      { "name": "L3", "size_bytes": 33554432, "sets": 32768, "ways": 16, "cl_size": 64,\
        "inclusion": "exclusive", "bandwidth_bytes_per_cycle": 2.5, "usable_ways": 9 }/' \
	"$tmp/base.json" > "$tmp/base3.json"
$PPR machine detect --sysfs "$tmp/sys" --runs 1 --attempts 1 \
	--base "$tmp/base3.json" -o "$tmp/r3.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && $PPR machine show "$tmp/r3.json" > "$tmp/show" 2>> "$tmp/err" \
	&& grep -q '"bandwidth_bytes_per_cycle":	1.5' "$tmp/r3.json" \
	&& grep -q '"bandwidth_bytes_per_cycle":	2.5' "$tmp/r3.json" \
	&& grep -Eq '"usable_ways":	3,?$' "$tmp/r3.json" \
	&& grep -Eq '"usable_ways":	9,?$' "$tmp/r3.json" \
	&& ! grep -q 'L2 usable ways' "$tmp/r3.json" \
	&& grep -q '(and its CSR stream table), L3 not measured (left out of the detection): the base.s usable ways 9 and bandwidth 2.5 B/cy kept; measured on CPU [0-9]*, the ' "$tmp/r3.json" \
	&& ok || bad "--base with a level beyond: rc=$rc $(cat "$tmp/err" "$tmp/r3.json")"

# On a host whose caches come from AMD's legacy CPUID leaf (the
# Firecracker guest of an EPYC family 1Ah: L2 read as 8-way, the L3 left
# out), the shipped Zen 5 file refreshes: the L2 keeps its 16 ways and
# 1024 sets, the L3 its usable ways, and the beyond-L2 sweep is named
$PPR machine detect --caches-only > "$tmp/out" 2> "$tmp/err"
if ASAN_OPTIONS=help=1 "$PPR" --version 2>&1 | grep -q AddressSanitizer; then
	# a whole detection takes 40-50 s under ASan on that guest; the
	# three-level base above covers the refresh under the sanitizers
	echo "  skipped: the --base refresh of a legacy-CPUID host (an AddressSanitizer build)"
elif grep -q "AMD legacy cache leaves" "$tmp/err" && grep -q "core model: zen5 " "$tmp/err" \
	&& grep -q "^  cache L2 Unified  *1024 KiB " "$tmp/err"; then
	$PPR machine detect --runs 1 --attempts 1 --base machines/zen4-epyc.json \
		-o "$tmp/z5.json" 2> "$tmp/err"; rc=$?
	[ $rc -eq 0 ] && grep -q "^ppr: base: L2 keeps the base's 16 ways and 1024 sets: this CPU's legacy CPUID leaf reads 8-way (the same size and line, the same core model zen5)$" "$tmp/err" \
		&& $PPR machine show "$tmp/z5.json" > "$tmp/show" 2>> "$tmp/err" \
		&& grep -q "L3 not measured (left out of the detection): the base's usable ways 9 and bandwidth 26.0 B/cy kept (read bandwidth beyond the level above lost a tenth of its fall to memory's at [0-9.]* MiB)" "$tmp/z5.json" \
		&& grep -q '"sets":	1024,' "$tmp/z5.json" \
		&& ! grep -q '"sets":	2048,' "$tmp/z5.json" \
		&& ok || bad "--base zen4-epyc.json on a legacy-CPUID host: rc=$rc $(cat "$tmp/err")"
else
	echo "  skipped: this host's caches do not come from AMD's legacy CPUID leaf of a Zen 5 (the --base refresh of a legacy host)"
fi
# a last level over 64 MiB (a guest shown the host's whole L3): a coarse
# pass of doubling working sets from twice the L2 brackets the fall before
# the linear sweep, and memory's working sets are 8 times the usable part
# (at least 256 MiB), not 8 times the level shown (one real run, --runs 1)
mk "$tmp/big/index0" 1 Data 48K 12 64
mk "$tmp/big/index1" 2 Unified 1024K 16 1024
mk "$tmp/big/index2" 3 Unified 262144K 16 262144
$PPR machine detect --sysfs "$tmp/big" --runs 1 --attempts 1 -o "$tmp/big.json" 2> "$tmp/err"; rc=$?
usable=$(sed -n 's/^  L3 .* usable \([0-9.]*\) MiB (a tenth of the fall lost)$/\1/p' "$tmp/err")
memws=$(sed -n 's/^  measuring memory read bandwidth (\([0-9]*\) MiB)\.\.\.$/\1/p' "$tmp/err")
[ $rc -eq 0 ] && grep -q "^  measuring where L3's read bandwidth falls (256 MiB shown: doubling working sets)\.\.\.$" "$tmp/err" \
	&& [ "$(sed -n 's/^ *\([0-9.]*\) MiB .*(median, coarse pass)$/\1/p' "$tmp/err" | head -n 3 | tr '\n' ' ')" = "2.0 4.0 8.0 " ] \
	&& [ -n "$usable" ] && [ -n "$memws" ] \
	&& awk -v u="$usable" -v m="$memws" 'BEGIN { w = int(8 * u); if (w < 256) w = 256;
		exit !(m >= w - 1 && m <= w + 1) }' \
	&& $PPR machine show "$tmp/big.json" > /dev/null 2>> "$tmp/err" \
	&& ok || bad "large last level: rc=$rc usable=$usable memory set=$memws $(cat "$tmp/err")"
# memory's read bandwidth is read again at the end and the faster of the
# two readings written (one decimal)
ends=$(sed -n 's/^  memory read bandwidth at the end: \([0-9.]*\) GB\/s (\([0-9.]*\) at first): .* written$/\1 \2/p' "$tmp/err")
wrote=$(sed -n 's/^[[:space:]]*"bandwidth_gbs":[[:space:]]*\([0-9.]*\),*$/\1/p' "$tmp/big.json" | tail -n 1)
[ -n "$ends" ] && [ -n "$wrote" ] && echo "$ends $wrote" | awk '{ m = $1 > $2 ? $1 : $2;
	exit !(m - $3 < 0.051 && $3 - m < 0.051) }' \
	&& ok || bad "memory read again at the end: readings '$ends', written '$wrote'"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
