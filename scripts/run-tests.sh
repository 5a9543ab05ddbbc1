#!/bin/sh
# Run every unit test binary and the golden CLI tests; print one closing
# line "N passed, N failed, N skipped" and exit non-zero on any failure.
BUILD=${BUILD:-build}
# The CLI tests run this build's binary, not ./ppr (the copy of whichever
# build ran last).
case $BUILD in /*) PPR_BIN=$BUILD/ppr ;; *) PPR_BIN=$(pwd)/$BUILD/ppr ;; esac
pass=0; fail=0; skip=0; failed_bins=""; times=""
# run NAME COMMAND...: runs it, counts its closing line, times it
run() {
	name=$1; shift
	t0=$(date +%s)
	out=$("$@" 2>&1); rc=$?
	times="$times$(($(date +%s) - t0)) $name
"
	printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed' | sed 's/^/  /'
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	p=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	s=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0})); skip=$((skip + ${s:-0}))
	if [ $rc -ne 0 ] || [ -z "$line" ]; then
		[ -z "$line" ] && fail=$((fail + 1))
		failed_bins="$failed_bins $name"
	fi
}
VG=""
[ "$VALGRIND" = 1 ] && VG="valgrind -q --error-exitcode=1 --leak-check=full"
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "== $(basename "$t")"
	run "$(basename "$t")" $VG "$t"
done
for t in tests/cli/*.sh; do
	[ -f "$t" ] || continue
	echo "== $t"
	run "$t" env PPR="$PPR_BIN" BUILD="$BUILD" FULL="$FULL" sh "$t"
done
# The slowest five, so a test that grows shows up before CI's time limit.
printf '%s' "$times" | sort -rn | head -n 5 | awk '{ printf "slowest: %s s %s\n", $1, $2 }'
[ -n "$failed_bins" ] && echo "failing:$failed_bins"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ -z "$failed_bins" ]
