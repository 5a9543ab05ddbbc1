#!/bin/sh
# Where `ppr machine detect` takes the caches from: --caches auto|sysfs|cpuid,
# --sysfs DIR, the fallback to CPUID.  --caches-only stops before any
# measurement, so nothing here runs a bandwidth kernel, and nothing assumes
# this machine has (or lacks) a sysfs cache description.  --clock-only
# measures the clock alone (about 0.2 s).
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
# --clock-only: the clock alone, six 'key value' lines on stdout, each a
# positive number, the windows' fastest rate at least their median and the
# share not interrupted in (0, 1]; it excludes --caches-only (usage, 2)
$PPR machine detect --clock-only --runs 1 > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l < "$tmp/out")" -eq 6 ] \
	&& awk '{ v[$1] = $2; if (!($2 > 0)) bad = 1 }
		END { exit !(!bad && ("clock_ghz" in v) && ("window_ms" in v) &&
			     v["windows"] == 400 &&
			     v["fastest_window_ghz"] >= v["median_window_ghz"] &&
			     v["uninterrupted"] <= 1) }' "$tmp/out" \
	&& grep -q "^  core clock in 400 windows of " "$tmp/err" \
	&& ok || bad "--clock-only: rc=$rc $(cat "$tmp/out" "$tmp/err")"
$PPR machine detect --clock-only --caches-only > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] \
	&& grep -q "^ppr: machine detect: --caches-only and --clock-only exclude each other$" "$tmp/err" \
	&& ok || bad "--clock-only --caches-only: rc=$rc $(head -n 1 "$tmp/err")"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
