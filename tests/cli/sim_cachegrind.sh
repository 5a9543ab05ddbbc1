#!/bin/sh
# sim_cachegrind.sh - agreement of `ppr sim` with valgrind's cachegrind on a
# real program (issue 2, "Must show").
#
# A small program of our own (CSR SpMV over a generated matrix, a histogram
# that compiles to read-modify-write instructions, and a sweep of unaligned
# loads that straddle cache lines) runs twice under valgrind: under lackey
# (--trace-mem=yes, the reference trace) and under cachegrind with
# --I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64.  The lackey trace is
# replayed with `ppr sim --machine machines/compat/cachegrind.json`, and
# D1/LL read and write misses (plus I1/LL instruction misses) must agree
# within 0.1% per counter.  Cachegrind counts a modify ('M') as one data
# read, so ppr's read misses are its load + modify misses (machines/README.md).
#
# Skips when valgrind or a C compiler is missing.  Runs in a few seconds.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOL=${TOL:-0.001}
N=${N:-20000}

skip() {
	echo "skipped: $1"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
}

command -v valgrind >/dev/null 2>&1 || skip "valgrind not installed"
valgrind -q --tool=none true > /dev/null 2>&1 || skip "valgrind cannot run here"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler ($CC)"

tmp=$(mktemp -d) || exit 1
[ -n "$KEEP" ] && echo "keeping $tmp" >&2
[ -z "$KEEP" ] && trap 'rm -rf "$tmp"' EXIT INT TERM

cat > "$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long s = 0x9E3779B97F4A7C15ull;

static unsigned rnd(void)
{
	s ^= s >> 12;
	s ^= s << 25;
	s ^= s >> 27;
	return (unsigned)((s * 0x2545F4914F6CDD1Dull) >> 33);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 20000;
	int per = 8, reps = 2;
	long *rp = malloc((size_t)(n + 1) * sizeof(*rp));
	int *ci = malloc((size_t)n * per * sizeof(*ci));
	double *v = malloc((size_t)n * per * sizeof(*v));
	double *x = malloc((size_t)n * sizeof(*x));
	double *y = calloc((size_t)n, sizeof(*y));
	unsigned *hist = calloc(4096, sizeof(*hist));
	unsigned char *raw = malloc(64 * 4096 + 64);
	double sum = 0;
	long k = 0;
	int i, j, r;

	if (!rp || !ci || !v || !x || !y || !hist || !raw)
		return 1;
	for (i = 0; i < n; i++) {
		rp[i] = k;
		for (j = 0; j < per; j++) {
			ci[k] = (int)(rnd() % (unsigned)n);
			v[k++] = 1.0 / (j + 1);
		}
		x[i] = i;
	}
	rp[n] = k;
	/* CSR SpMV: regular streams, irregular x */
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++) {
			double t = y[i];
			long p;

			for (p = rp[i]; p < rp[i + 1]; p++)
				t += v[p] * x[ci[p]];
			y[i] = t;
		}
	/* read-modify-write of memory: lackey 'M' records */
	for (k = 0; k < (long)n * per; k++)
		hist[ci[k] & 4095]++;
	/* 8-byte loads at offset 60 of each 64-byte block straddle a line */
	memset(raw, 1, 64 * 4096 + 64);
	for (r = 0; r < reps; r++)
		for (i = 0; i < 4096; i++) {
			double d;

			memcpy(&d, raw + 64 * i + 60, sizeof(d));
			sum += d;
		}
	for (i = 0; i < n; i++)
		sum += y[i];
	for (i = 0; i < 4096; i++)
		sum += hist[i];
	printf("%g\n", sum);
	return 0;
}
PROG

"$CC" -O2 -g -o "$tmp/prog" "$tmp/prog.c" || skip "cannot compile the test program"

valgrind --tool=lackey --trace-mem=yes --log-file="$tmp/lackey.log" \
	"$tmp/prog" "$N" > "$tmp/lackey.out" 2>&1 ||
	{ echo "FAIL: valgrind lackey did not run"; echo "0 passed, 1 failed"; exit 1; }
valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 \
	--D1=32768,8,64 --LL=33554432,16,64 \
	--cachegrind-out-file="$tmp/cg.out" --log-file="$tmp/cg.log" \
	"$tmp/prog" "$N" > "$tmp/cg.stdout" 2>&1 ||
	{ echo "FAIL: valgrind cachegrind did not run"; echo "0 passed, 1 failed"; exit 1; }
"$PPR" sim --machine "$ROOT/machines/compat/cachegrind.json" \
	--trace "$tmp/lackey.log" --trace-format lackey --format json \
	> "$tmp/ppr.json" 2> "$tmp/ppr.err" ||
	{ echo "FAIL: ppr sim failed:"; cat "$tmp/ppr.err"; echo "0 passed, 1 failed"; exit 1; }

# cachegrind: "events: Ir I1mr ..." and "summary: n n ..." -> name=value
awk '/^events:/ { for (i = 2; i <= NF; i++) ev[i] = $i }
     /^summary:/ { for (i = 2; i <= NF; i++) print ev[i] "=" $i }' \
	"$tmp/cg.out" > "$tmp/cg.vals"
# ppr JSON (one key per line): <level>_<key>=value for each level
awk -F'[:,]' '
	{ gsub(/[ \t"]/, "") }
	$1 == "name" { lv = $2 }
	lv != "" && $1 ~ /_misses$|_accesses$/ { print lv "_" $1 "=" $2 }' \
	"$tmp/ppr.json" > "$tmp/ppr.vals"

get() { sed -n "s/^$1=//p" "$2" | head -n 1; }

pass=0
fail=0
check() { # name cachegrind-value ppr-value
	if [ -z "$2" ] || [ -z "$3" ]; then
		echo "FAIL $1: missing value (cachegrind '$2', ppr '$3')"
		fail=$((fail + 1))
		return
	fi
	if awk -v a="$2" -v b="$3" -v t="$TOL" 'BEGIN {
		d = a - b; if (d < 0) d = -d; m = a > b ? a : b;
		exit !(d <= t * m) }'; then
		res=ok
		pass=$((pass + 1))
	else
		res=FAIL
		fail=$((fail + 1))
	fi
	awk -v n="$1" -v a="$2" -v b="$3" -v r="$res" 'BEGIN {
		m = a > b ? a : b; d = a - b; if (d < 0) d = -d;
		printf "%-4s %-5s cachegrind %10d  ppr %10d  diff %.4f%%\n",
		       r, n, a, b, m ? 100 * d / m : 0 }'
}

p() { get "$1" "$tmp/ppr.vals"; }
c() { get "$1" "$tmp/cg.vals"; }
sum() { echo $(( ${1:-0} + ${2:-0} )); }

check D1mr "$(c D1mr)" "$(sum "$(p D1_load_misses)" "$(p D1_modify_misses)")"
check D1mw "$(c D1mw)" "$(p D1_store_misses)"
check DLmr "$(c DLmr)" "$(sum "$(p LL_load_misses)" "$(p LL_modify_misses)")"
check DLmw "$(c DLmw)" "$(p LL_store_misses)"
check I1mr "$(c I1mr)" "$(p I1_ifetch_misses)"
check ILmr "$(c ILmr)" "$(p LL_ifetch_misses)"
check Dr "$(c Dr)" "$(sum "$(p D1_load_accesses)" "$(p D1_modify_accesses)")"
check Dw "$(c Dw)" "$(p D1_store_accesses)"
check Ir "$(c Ir)" "$(p I1_ifetch_accesses)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
