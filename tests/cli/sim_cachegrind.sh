#!/bin/sh
# sim_cachegrind.sh - agreement of `ppr sim` with valgrind's cachegrind on a
# real program (issue 2, "Must show").
#
# A small program of our own runs twice under valgrind: under lackey
# (--trace-mem=yes, the reference trace) and under cachegrind with
# --I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64.  It does a CSR SpMV
# (regular streams, irregular x), a histogram that compiles to
# read-modify-write instructions (lackey 'M'), and a sweep of unaligned
# loads that straddle cache lines.  The lackey trace is replayed with
# `ppr sim --machine machines/compat/cachegrind.json`; D1 and LL read and
# write misses (plus I1/LL instruction misses and the access counts) must
# agree within 0.1% per counter.  Cachegrind counts a modify as one data
# read, so ppr's read figures are its load + modify ones (machines/README.md).
#
# Workloads: a generated matrix (N rows, 8 random columns each), and, when
# ../shared/matrices is there, nasa4704 (symmetric, expanded; converted to
# a binary CSR natively first so that valgrind does not trace the parsing).
#
# Skips when valgrind or a C compiler is missing.  15-35 s here (2 cores,
# depending on load): four valgrind runs.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOL=${TOL:-0.001}
N=${N:-10000}
MATRIX=${MATRIX:-$ROOT/../shared/matrices/medium/nasa4704.mtx}

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

/* argv[1]: a row count (generated matrix) or a binary CSR file:
 * long n, long nnz, long rp[n+1], int ci[nnz] */
int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : "20000";
	long n, nnz, k = 0, i, j;
	int per = 8, reps = 2, r;
	long *rp;
	int *ci;
	double *v, *x, *y, sum = 0;
	unsigned *hist = calloc(4096, sizeof(*hist));
	unsigned char *raw = malloc(64 * 4096 + 64);

	if (arg[0] >= '0' && arg[0] <= '9') {
		n = strtol(arg, NULL, 10);
		nnz = n * per;
		rp = malloc((size_t)(n + 1) * sizeof(*rp));
		ci = malloc((size_t)nnz * sizeof(*ci));
		if (!rp || !ci)
			return 1;
		for (i = 0; i < n; i++) {
			rp[i] = k;
			for (j = 0; j < per; j++)
				ci[k++] = (int)(rnd() % (unsigned)n);
		}
		rp[n] = k;
	} else {
		FILE *f = fopen(arg, "rb");

		if (!f || fread(&n, sizeof(n), 1, f) != 1 ||
		    fread(&nnz, sizeof(nnz), 1, f) != 1)
			return 1;
		rp = malloc((size_t)(n + 1) * sizeof(*rp));
		ci = malloc((size_t)nnz * sizeof(*ci));
		if (!rp || !ci ||
		    fread(rp, sizeof(*rp), (size_t)n + 1, f) != (size_t)n + 1 ||
		    fread(ci, sizeof(*ci), (size_t)nnz, f) != (size_t)nnz)
			return 1;
		fclose(f);
	}
	v = malloc((size_t)nnz * sizeof(*v));
	x = malloc((size_t)n * sizeof(*x));
	y = calloc((size_t)n, sizeof(*y));
	if (!v || !x || !y || !hist || !raw)
		return 1;
	for (k = 0; k < nnz; k++)
		v[k] = 1.0 / (double)(k % 7 + 1);
	for (i = 0; i < n; i++)
		x[i] = (double)i;
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
	for (k = 0; k < nnz; k++)
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

# Matrix Market coordinate -> the binary CSR above (symmetric expanded).
cat > "$tmp/mtx2bin.c" <<'CONV'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char line[1024];
	long m, n, nz, k, e = 0, i, j, *rp, *ri, *cj, *fill;
	int sym;
	int *ci;
	FILE *f, *o;

	if (argc != 3 || !(f = fopen(argv[1], "r")) ||
	    !fgets(line, sizeof(line), f))
		return 1;
	sym = strstr(line, "symmetric") != NULL ||
	      strstr(line, "hermitian") != NULL;
	do {
		if (!fgets(line, sizeof(line), f))
			return 1;
	} while (line[0] == '%');
	if (sscanf(line, "%ld %ld %ld", &m, &n, &nz) != 3 || m <= 0)
		return 1;
	ri = malloc(2 * (size_t)nz * sizeof(*ri));
	cj = malloc(2 * (size_t)nz * sizeof(*cj));
	rp = calloc((size_t)m + 1, sizeof(*rp));
	fill = calloc((size_t)m + 1, sizeof(*fill));
	if (!ri || !cj || !rp || !fill)
		return 1;
	for (k = 0; k < nz; k++) {
		if (!fgets(line, sizeof(line), f) ||
		    sscanf(line, "%ld %ld", &i, &j) != 2)
			return 1;
		ri[e] = i - 1;
		cj[e++] = j - 1;
		if (sym && i != j) {
			ri[e] = j - 1;
			cj[e++] = i - 1;
		}
	}
	fclose(f);
	for (k = 0; k < e; k++)
		rp[ri[k] + 1]++;
	for (i = 0; i < m; i++)
		rp[i + 1] += rp[i];
	ci = malloc((size_t)e * sizeof(*ci));
	if (!ci)
		return 1;
	for (k = 0; k < e; k++)
		ci[rp[ri[k]] + fill[ri[k]]++] = (int)cj[k];
	if (!(o = fopen(argv[2], "wb")) || fwrite(&m, sizeof(m), 1, o) != 1 ||
	    fwrite(&e, sizeof(e), 1, o) != 1 ||
	    fwrite(rp, sizeof(*rp), (size_t)m + 1, o) != (size_t)m + 1 ||
	    fwrite(ci, sizeof(*ci), (size_t)e, o) != (size_t)e || fclose(o))
		return 1;
	printf("%ld rows, %ld nonzeros\n", m, e);
	return 0;
}
CONV

"$CC" -O2 -g -o "$tmp/prog" "$tmp/prog.c" || skip "cannot compile the test program"

pass=0
fail=0

get() { sed -n "s/^$1=//p" "$2" | head -n 1; }

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

sum() { echo $(( ${1:-0} + ${2:-0} )); }

# run LABEL ARG: both valgrind tools on "prog ARG", replay, compare
run() {
	label=$1
	d=$tmp/$label
	mkdir -p "$d"
	echo "== $label"
	if ! valgrind --tool=lackey --trace-mem=yes --log-file="$d/lackey.log" \
		"$tmp/prog" "$2" > "$d/lackey.out" 2>&1; then
		echo "FAIL $label: valgrind lackey did not run"
		fail=$((fail + 1))
		return
	fi
	if ! valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 \
		--D1=32768,8,64 --LL=33554432,16,64 \
		--cachegrind-out-file="$d/cg.out" --log-file="$d/cg.log" \
		"$tmp/prog" "$2" > "$d/cg.stdout" 2>&1; then
		echo "FAIL $label: valgrind cachegrind did not run"
		fail=$((fail + 1))
		return
	fi
	if ! "$PPR" sim --machine "$ROOT/machines/compat/cachegrind.json" \
		--trace "$d/lackey.log" --trace-format lackey --format json \
		> "$d/ppr.json" 2> "$d/ppr.err"; then
		echo "FAIL $label: ppr sim failed: $(cat "$d/ppr.err")"
		fail=$((fail + 1))
		return
	fi
	# cachegrind: "events: Ir I1mr ..." + "summary: n n ..." -> name=value
	awk '/^events:/ { for (i = 2; i <= NF; i++) ev[i] = $i }
	     /^summary:/ { for (i = 2; i <= NF; i++) print ev[i] "=" $i }' \
		"$d/cg.out" > "$d/cg.vals"
	# ppr JSON (one key per line): <level>_<key>=value per level
	awk -F'[:,]' '
		{ gsub(/[ \t"]/, "") }
		$1 == "name" { lv = $2 }
		lv != "" && $1 ~ /_misses$|_accesses$/ { print lv "_" $1 "=" $2 }' \
		"$d/ppr.json" > "$d/ppr.vals"
	p() { get "$1" "$d/ppr.vals"; }
	c() { get "$1" "$d/cg.vals"; }
	check D1mr "$(c D1mr)" "$(sum "$(p D1_load_misses)" "$(p D1_modify_misses)")"
	check D1mw "$(c D1mw)" "$(p D1_store_misses)"
	check DLmr "$(c DLmr)" "$(sum "$(p LL_load_misses)" "$(p LL_modify_misses)")"
	check DLmw "$(c DLmw)" "$(p LL_store_misses)"
	check I1mr "$(c I1mr)" "$(p I1_ifetch_misses)"
	check ILmr "$(c ILmr)" "$(p LL_ifetch_misses)"
	check Dr "$(c Dr)" "$(sum "$(p D1_load_accesses)" "$(p D1_modify_accesses)")"
	check Dw "$(c Dw)" "$(p D1_store_accesses)"
	check Ir "$(c Ir)" "$(p I1_ifetch_accesses)"
	[ -n "$KEEP" ] || rm -f "$d/lackey.log"
}

run generated "$N"
if [ -r "$MATRIX" ]; then
	if "$CC" -O2 -o "$tmp/mtx2bin" "$tmp/mtx2bin.c" &&
	   "$tmp/mtx2bin" "$MATRIX" "$tmp/matrix.bin" > "$tmp/conv.out"; then
		echo "matrix $(basename "$MATRIX"): $(cat "$tmp/conv.out")"
		run "$(basename "$MATRIX" .mtx)" "$tmp/matrix.bin"
	else
		echo "FAIL: cannot convert $MATRIX"
		fail=$((fail + 1))
	fi
else
	echo "note: $MATRIX not found; generated matrix only"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
