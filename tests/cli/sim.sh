#!/bin/sh
# sim.sh - golden tests of `ppr sim`: small din and lackey traces whose
# counts are worked out by hand (in the comments), the output formats, and
# error cases with their exact message and exit status.
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

# val CSVFILE LEVEL COLUMN: one field of `ppr sim --format csv` output
val() {
	awk -F, -v lv="$2" -v col="$3" '
		{ sub(/\r$/, "") }
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$1 == lv && c { print $c; exit }' "$1"
}

# expect CSVFILE LEVEL COLUMN VALUE
expect() {
	got=$(val "$1" "$2" "$3")
	if [ "$got" = "$4" ]; then ok; else bad "$(basename "$1") $2 $3: got '$got', want '$4'"; fi
}

# sim OUT args...: run ppr sim --format csv, fail the test if it fails
sim() {
	out=$1
	shift
	if "$PPR" sim --format csv "$@" > "$out" 2> "$tmp/err"; then ok
	else bad "ppr sim $*: exit $?: $(cat "$tmp/err")"; fi
}

# ---- 1. a stream: 64 loads of 8 B over 512 B = 8 lines -------------------
# Each line misses once per level (cold caches): L1 64 accesses, 8 misses;
# L2 and L3 see the 8 misses and miss each.
i=0
while [ $i -lt 64 ]; do
	printf 'r %x 8\n' $((0x10000 + 8 * i))
	i=$((i + 1))
done > "$tmp/stream.din"
sim "$tmp/stream.csv" --machine "$M/compat/dinero-p2.json" --trace "$tmp/stream.din"
expect "$tmp/stream.csv" L1 accesses 64
expect "$tmp/stream.csv" L1 misses 8
expect "$tmp/stream.csv" L1 load_misses 8
expect "$tmp/stream.csv" L1 "bytes_from_below [B]" 512
expect "$tmp/stream.csv" L2 accesses 8
expect "$tmp/stream.csv" L2 misses 8
expect "$tmp/stream.csv" L3 misses 8
expect "$tmp/stream.csv" L3 evictions 0

# ---- 2. LRU thrash: 9 lines 4 KiB apart (one L1 set, 8 ways), 3 rounds ---
# L1 (64 sets): all 27 miss.  L2 (512 sets, 8-way): lines 0 and 8 share a
# set, the 9 lines fit: 9 misses.  With --3c: L1 has 9 compulsory misses and
# 18 conflict misses (a fully-associative LRU of 512 lines would hit).
: > "$tmp/thrash.din"
for r in 1 2 3; do
	i=0
	while [ $i -lt 9 ]; do
		printf 'r %x 8\n' $((0x100000 + 4096 * i)) >> "$tmp/thrash.din"
		i=$((i + 1))
	done
done
sim "$tmp/thrash.csv" --machine "$M/compat/dinero-p2.json" --trace "$tmp/thrash.din" --3c
expect "$tmp/thrash.csv" L1 accesses 27
expect "$tmp/thrash.csv" L1 misses 27
expect "$tmp/thrash.csv" L1 compulsory 9
expect "$tmp/thrash.csv" L1 capacity 0
expect "$tmp/thrash.csv" L1 conflict 18
expect "$tmp/thrash.csv" L1 evictions 19
expect "$tmp/thrash.csv" L2 accesses 27
expect "$tmp/thrash.csv" L2 misses 9
expect "$tmp/thrash.csv" L2 compulsory 9

# ---- 3. write-back: a store, then 8 loads into the same L1 set ------------
# The 9th line evicts the dirty one: 1 write-back of 64 B from L1.  The
# write-back is not an L2 access (L2 sees the 9 demand misses).
{
	echo "w 200000 8"
	i=1
	while [ $i -le 8 ]; do
		printf 'r %x 8\n' $((0x200000 + 4096 * i))
		i=$((i + 1))
	done
} > "$tmp/wb.din"
sim "$tmp/wb.csv" --machine "$M/compat/dinero-p2.json" --trace "$tmp/wb.din"
expect "$tmp/wb.csv" L1 misses 9
expect "$tmp/wb.csv" L1 store_misses 1
expect "$tmp/wb.csv" L1 evictions 1
expect "$tmp/wb.csv" L1 writebacks 1
expect "$tmp/wb.csv" L1 "bytes_to_below [B]" 64
expect "$tmp/wb.csv" L2 accesses 9
expect "$tmp/wb.csv" L2 writebacks 0

# ---- 4. lackey: I, L, S, M and straddling references ----------------------
cat > "$tmp/t.lackey" <<'LK'
==1== Lackey, an example Valgrind tool
I  00400000,4
 L 00001000,8
 S 00001008,8
 M 00001010,4
I  00400004,4
 L 0000103c,8
I  0040003e,4
 L 00002000,8
LK
# cachegrind.json (split I1/D1, a straddling reference counts once):
#   I1: 3 fetches; 0x400000 miss, 0x400004 hit, 0x40003e spans lines
#       0x400000 (hit) and 0x400040 (miss): one access, a miss -> 2 misses.
#   D1: L 0x1000 miss, S hit, M hit, L 0x103c spans 0x1000 (hit) and 0x1040
#       (miss): a miss, L 0x2000 miss -> 5 accesses, 3 load misses.
#   LL: the 3 D1 and 2 I1 misses arrive whole; the straddling ones find one
#       line absent each -> 5 accesses, 5 misses.
sim "$tmp/cg.csv" --machine "$M/compat/cachegrind.json" --trace "$tmp/t.lackey" --trace-format lackey
expect "$tmp/cg.csv" I1 accesses 3
expect "$tmp/cg.csv" I1 ifetch_misses 2
expect "$tmp/cg.csv" D1 accesses 5
expect "$tmp/cg.csv" D1 load_accesses 3
expect "$tmp/cg.csv" D1 store_accesses 1
expect "$tmp/cg.csv" D1 modify_accesses 1
expect "$tmp/cg.csv" D1 load_misses 3
expect "$tmp/cg.csv" D1 store_misses 0
expect "$tmp/cg.csv" D1 modify_misses 0
expect "$tmp/cg.csv" LL accesses 5
expect "$tmp/cg.csv" LL load_misses 3
expect "$tmp/cg.csv" LL ifetch_misses 2
expect "$tmp/cg.csv" LL writebacks 0
# dinero-p2.json (one unified L1, straddling references touch each line):
#   10 L1 accesses (the two straddlers count 2 each): ifetch 4 with 2
#   misses, load 4 with 3 misses, store 1 and modify 1 hitting.
sim "$tmp/d.csv" --machine "$M/compat/dinero-p2.json" --trace "$tmp/t.lackey" --trace-format lackey
expect "$tmp/d.csv" L1 accesses 10
expect "$tmp/d.csv" L1 misses 5
expect "$tmp/d.csv" L1 ifetch_accesses 4
expect "$tmp/d.csv" L1 ifetch_misses 2
expect "$tmp/d.csv" L1 load_accesses 4
expect "$tmp/d.csv" L1 load_misses 3
expect "$tmp/d.csv" L1 modify_misses 0

# ---- 5. tags: --tag irregular marks text-trace references -----------------
sim "$tmp/irr.csv" --machine "$M/compat/dinero-p2.json" --trace "$tmp/stream.din" --tag irregular
expect "$tmp/irr.csv" L1 irregular_misses 8
expect "$tmp/irr.csv" L1 regular_accesses 0

# ---- 6. haswell.json: the paper's next-line prefetch into L2 --------------
# A stream of 8 lines: L1 misses 8; each regular L1 miss looked up in L2
# prefetches the next line from L3 into L2, so only the first L2 access
# misses (7 prefetched lines are hit: 8 issued, 7 useful).
sim "$tmp/hsw.csv" --machine "$M/haswell.json" --trace "$tmp/stream.din"
expect "$tmp/hsw.csv" L1D misses 8
expect "$tmp/hsw.csv" L2 accesses 8
expect "$tmp/hsw.csv" L2 misses 1
expect "$tmp/hsw.csv" L2 prefetches_issued 8
expect "$tmp/hsw.csv" L2 prefetches_useful 7

# ---- 6c. inclusion as the machine files state it --------------------------
# zen4-epyc.json, exclusive L3 (victim of L2): 17 lines 64 KiB apart share
# one L1D set (64 sets) and one L2 set (1024 sets, 16-way): all 17 miss
# everywhere, and the 17th evicts line 0 from L2 into L3.  Line 0 again:
# L1D and L2 miss, L3 hits (18 L3 accesses, 17 misses, 1 hit) and hands
# the line up to L2, which evicts line 1 into L3: 2 L2 evictions.
{
	i=0
	while [ $i -le 16 ]; do
		printf 'r %x 8\n' $((0x4000000 + 65536 * i))
		i=$((i + 1))
	done
	echo "r 4000000 8"
} > "$tmp/excl.din"
sim "$tmp/excl.csv" --machine "$M/zen4-epyc.json" --trace "$tmp/excl.din"
expect "$tmp/excl.csv" L1D misses 18
expect "$tmp/excl.csv" L2 misses 18
expect "$tmp/excl.csv" L2 evictions 2
expect "$tmp/excl.csv" L3 accesses 18
expect "$tmp/excl.csv" L3 misses 17
expect "$tmp/excl.csv" L3 hits 1
# haswell.json, inclusive L3 (24,576 sets, 20-way): lines 1.5 MiB apart
# share one set in every level.  A0, then (Ak, A0) for k = 1..20, then A0:
# A0 stays in L1D (hit every other access) but is least recent in L3,
# which evicts it when A20 arrives and back-invalidates it in L1D; so the
# last A0 misses.  41 references; L1D misses 1 + 20 + 1 = 22, all of which
# miss L3 too.  Irregular tags keep the next-line prefetcher out of it.
{
	echo "r 8000000 8"
	k=1
	while [ $k -le 20 ]; do
		printf 'r %x 8\n' $((0x8000000 + 1572864 * k))
		echo "r 8000000 8"
		k=$((k + 1))
	done
} > "$tmp/incl.din"
sim "$tmp/incl.csv" --machine "$M/haswell.json" --trace "$tmp/incl.din" --tag irregular
expect "$tmp/incl.csv" L1D accesses 41
expect "$tmp/incl.csv" L1D misses 22
expect "$tmp/incl.csv" L3 misses 22
expect "$tmp/incl.csv" L3 back_invalidations 1
expect "$tmp/incl.csv" L2 prefetches_issued 0

# ---- 6b. the ppr binary format carries op, size and tag -----------------
# The lackey trace converted to ppr replays to the same counts; a din stream
# converted with --tag irregular keeps its tags.
if "$PPR" trace convert --from lackey "$tmp/t.lackey" "$tmp/t.ppr" 2> "$tmp/err"; then
	ok
	sim "$tmp/cgp.csv" --machine "$M/compat/cachegrind.json" --trace "$tmp/t.ppr" --trace-format ppr
	cmp -s "$tmp/cgp.csv" "$tmp/cg.csv" && ok || bad "ppr-format replay differs from lackey replay"
	sim "$tmp/cga.csv" --machine "$M/compat/cachegrind.json" --trace "$tmp/t.ppr"
	cmp -s "$tmp/cga.csv" "$tmp/cg.csv" && ok || bad "auto-detected ppr replay differs"
else
	bad "ppr trace convert: $(cat "$tmp/err")"
fi
if "$PPR" trace convert --tag irregular "$tmp/stream.din" "$tmp/irr.ppr" 2> "$tmp/err"; then
	sim "$tmp/irrp.csv" --machine "$M/compat/dinero-p2.json" --trace "$tmp/irr.ppr"
	expect "$tmp/irrp.csv" L1 irregular_misses 8
	expect "$tmp/irrp.csv" L1 regular_accesses 0
else
	bad "ppr trace convert --tag: $(cat "$tmp/err")"
fi
# stdin
"$PPR" sim -m "$M/compat/dinero-p2.json" -t - -F din -f csv < "$tmp/stream.din" > "$tmp/stdin.csv" &&
	cmp -s "$tmp/stdin.csv" "$tmp/stream.csv" && ok || bad "trace from stdin differs"

# ---- 7. formats -----------------------------------------------------------
head -n 1 "$tmp/stream.csv" | grep -q '^level,accesses,hits,misses,miss_rate,' && ok ||
	bad "csv header: $(head -n 1 "$tmp/stream.csv")"
[ "$(wc -l < "$tmp/stream.csv")" -eq 4 ] && ok || bad "csv: expected 4 lines"
if "$PPR" sim -m "$M/compat/dinero-p2.json" -t "$tmp/stream.din" -f json > "$tmp/s.json"; then
	for k in '"ppr_version":' '"machine":	"dinero-p2"' '"accesses":	64' \
		 '"levels":' '"name":	"L1"' '"load_misses":	8' '"store_misses":	0' \
		 '"units":'; do
		grep -q "$k" "$tmp/s.json" && ok || bad "json: no $k"
	done
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["levels"][0]["misses"] == 8' "$tmp/s.json" && ok || bad "json does not parse"
	fi
else
	bad "json run failed"
fi
"$PPR" sim -m "$M/compat/dinero-p2.json" -t "$tmp/stream.din" > "$tmp/s.txt" && ok || bad "table run failed"
grep -q '^L1: 32 KiB, 8-way, 64 sets, 64 B lines' "$tmp/s.txt" && ok || bad "table: no L1 header"
grep -q '^  misses  *8  *8 ' "$tmp/s.txt" && ok || bad "table: no misses row"
"$PPR" sim -m "$M/compat/dinero-p2.json" -t "$tmp/stream.din" -f csv -o "$tmp/o.csv" > "$tmp/o.stdout" && ok || bad "-o run failed"
cmp -s "$tmp/o.csv" "$tmp/stream.csv" && ok || bad "-o output differs"
[ -s "$tmp/o.stdout" ] && bad "-o also wrote stdout" || ok
"$PPR" sim --help > "$tmp/h.txt" 2>&1 && grep -q '^usage: ppr sim' "$tmp/h.txt" && ok || bad "--help"

# ---- 8. errors: exact message and exit status -----------------------------
# experr STATUS "FIRST STDERR LINE" args...
experr() {
	want_rc=$1
	want=$2
	shift 2
	"$PPR" sim "$@" > "$tmp/e.out" 2> "$tmp/e.err"
	rc=$?
	got=$(head -n 1 "$tmp/e.err")
	if [ "$rc" -eq "$want_rc" ] && [ "$got" = "$want" ] && [ ! -s "$tmp/e.out" ]; then ok
	else bad "ppr sim $*: exit $rc, '$got' (want $want_rc, '$want')"; fi
}
D=tests/data/machines
cd "$ROOT" || exit 1
experr 2 "ppr: sim: --machine is required" --trace "$tmp/stream.din"
experr 2 "ppr: sim: --trace is required" --machine "$M/haswell.json"
experr 2 "ppr: sim: unknown format 'xml' (expected table, csv or json)" -m x -t y --format xml
experr 2 "ppr: sim: unknown trace format 'foo' (expected auto, din, lackey or ppr)" -m x -t y -F foo
experr 2 "ppr: sim: unknown option '--bogus'" --bogus
experr 2 "ppr: sim: option '--trace' needs a value" -m x --trace
experr 2 "ppr: sim: unexpected argument 'extra'" -m x -t y extra
experr 1 "ppr: error: $D/bad-ways.json:5:44: 'ways' must be a positive integer" -m $D/bad-ways.json -t "$tmp/stream.din"
experr 1 "ppr: error: $D/bad-syntax.json:5:43: syntax error near '\"'" -m $D/bad-syntax.json -t "$tmp/stream.din"
experr 1 "ppr: error: $D/bad-unknown.json:6:9: unknown key 'replacement' in 'levels[]' (allowed: name, role, size_bytes, sets, ways, cl_size, replacement_policy, seed, inclusion, write_back, write_allocate, prefetch, prefetch_degree, prefetch_distance, index, bandwidth_bytes_per_cycle, latency_cycles, far_miss_cycles, late_line_cycles, shared_by_cores, usable_ways, usable_by, lru_sets_share, writeback_share, fill_load_cycles)" -m $D/bad-unknown.json -t "$tmp/stream.din"
experr 1 "ppr: error: cannot open machine file 'no/such.json': No such file or directory" -m no/such.json -t "$tmp/stream.din"
experr 1 "ppr: error: cannot open trace '$tmp/none.din': No such file or directory" -m "$M/haswell.json" -t "$tmp/none.din"
printf 'r 1000 8\nr zz 8\n' > "$tmp/bad.din"
experr 1 "ppr: error: $tmp/bad.din:2: record 2: bad hex digit 'z' in address" -m "$M/haswell.json" -t "$tmp/bad.din"

# ---- 9. FULL=1: issue 2's exactness workloads through the CLI -------------
# rand: 20,000,000 loads at 0x10000000 + 8*(xs() >> 41), xorshift64* seeded
# 0x9E3779B97F4A7C15; seq: 50,000,000 loads at 0x10000000 + 8*i.  Dinero IV
# and pycachesim give, on dinero-p2: rand 19,990,191 / 19,921,551 /
# 10,169,058 misses, seq 6,250,000 at each level; pycachesim on
# haswell-nine: rand L3 10,770,332.  Streamed as din text through stdin.
if [ "$FULL" = 1 ] && command -v "${CC:-cc}" >/dev/null 2>&1; then
	cat > "$tmp/gen.c" <<'GEN'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	static char buf[1 << 16];
	size_t o = 0;
	uint64_t x = 0x9E3779B97F4A7C15ull, n, i, a;
	int rnd = argc > 1 && !strcmp(argv[1], "rand");

	n = rnd ? 20000000 : 50000000;
	for (i = 0; i < n; i++) {
		if (rnd) {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			a = 0x10000000 + 8 * ((x * 0x2545F4914F6CDD1Dull) >> 41);
		} else {
			a = 0x10000000 + 8 * i;
		}
		o += (size_t)snprintf(buf + o, 64, "r %llx 8\n",
				      (unsigned long long)a);
		if (o > sizeof(buf) - 64) {
			fwrite(buf, 1, o, stdout);
			o = 0;
		}
	}
	fwrite(buf, 1, o, stdout);
	return 0;
}
GEN
	if "${CC:-cc}" -O2 -o "$tmp/gen" "$tmp/gen.c"; then
		"$tmp/gen" rand | "$PPR" sim -m "$M/compat/dinero-p2.json" -t - -F din -f csv > "$tmp/rand.csv"
		expect "$tmp/rand.csv" L1 misses 19990191
		expect "$tmp/rand.csv" L2 misses 19921551
		expect "$tmp/rand.csv" L3 misses 10169058
		"$tmp/gen" rand | "$PPR" sim -m "$M/compat/haswell-nine.json" -t - -F din -f csv > "$tmp/randh.csv"
		expect "$tmp/randh.csv" L3 misses 10770332
		"$tmp/gen" seq | "$PPR" sim -m "$M/compat/dinero-p2.json" -t - -F din -f csv > "$tmp/seq.csv"
		expect "$tmp/seq.csv" L1 misses 6250000
		expect "$tmp/seq.csv" L2 misses 6250000
		expect "$tmp/seq.csv" L3 misses 6250000
	else
		bad "cannot compile the workload generator"
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
