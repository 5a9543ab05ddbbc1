#!/bin/sh
# ppr bcsr --svg: the 8x8 heatmap of a real prediction (and with --measure
# the measured grid beside it), the pick and the measured best marked as
# the table says.
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cnt() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
PPR_CACHE_DIR=$tmp/cache; export PPR_CACHE_DIR; mkdir -p "$PPR_CACHE_DIR"
M=gen:fem3d:n=4,dof=3

$PPR bcsr -m machines/haswell.json $M --svg "$tmp/h.svg" > "$tmp/out" 2>/dev/null && ok || bad "bcsr --svg exit"
[ "$(cnt 'class="heat-cell heat-pred"' "$tmp/h.svg")" = 64 ] && ok || bad "64 predicted cells"
[ "$(cnt 'class="heat-cell heat-meas"' "$tmp/h.svg")" = 0 ] && ok || bad "no measured grid without --measure"
pick=$(sed -n 's/^pick: *\([1-8]x[1-8]\).*/\1/p' "$tmp/out")
[ -n "$pick" ] && grep -q "pick: $pick<" "$tmp/h.svg" && ok || bad "pick '$pick' marked in the svg"
grep -q "BCSR shapes: $M on haswell" "$tmp/h.svg" && ok || bad "title"
$PPR bcsr -m machines/haswell.json $M --measure --reps 2 --svg "$tmp/m.svg" > "$tmp/mout" 2>/dev/null && ok || bad "--measure --svg exit"
[ "$(cnt 'class="heat-cell heat-meas"' "$tmp/m.svg")" = 64 ] && ok || bad "64 measured cells"
best=$(sed -n 's/^measured best: *\([1-8]x[1-8]\).*/\1/p' "$tmp/mout")
[ -n "$best" ] && grep -q "measured best: $best<" "$tmp/m.svg" && ok || bad "measured best '$best' marked"
[ "$(cnt 'class="colour-scale"' "$tmp/m.svg")" = 2 ] && ok || bad "a colour scale per grid"
$PPR bcsr -m machines/haswell.json $M --svg "$tmp/nodir/h.svg" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "nodir/h.svg" "$tmp/err" && ok || bad "unwritable svg: rc=$rc $(cat "$tmp/err")"

# threads: 1 and 2 threads (option and PPR_THREADS) give the same JSON
# apart from the timings; a bad PPR_THREADS is a one-line error (exit 1)
untimed() { grep -v -E '"(prediction_wall_s|prediction_parts_s|incore_points|block_counts|x_simulation|evaluation|csr_spmv_time_s|cost_spmv_equivalents|incore_cached|incore_builtin)":' "$1"; }
$PPR bcsr -m machines/zen4-epyc.json gen:fem3d:n=10,dof=2 --threads 1 --reps 1 -f json > "$tmp/t1.json" 2>/dev/null && ok || bad "--threads 1 exit"
PPR_THREADS=2 $PPR bcsr -m machines/zen4-epyc.json gen:fem3d:n=10,dof=2 --reps 1 -f json > "$tmp/t2.json" 2>/dev/null && ok || bad "PPR_THREADS=2 exit"
PPR_THREADS=junk $PPR bcsr -m machines/zen4-epyc.json gen:fem3d:n=10,dof=2 --threads 3 --reps 1 -f json > "$tmp/t3.json" 2>/dev/null && ok || bad "--threads 3 overrides PPR_THREADS"
[ "$(grep -c '"rank":' "$tmp/t1.json")" = 64 ] && ok || bad "64 shapes with 1 thread"
untimed "$tmp/t1.json" > "$tmp/u1"; untimed "$tmp/t2.json" > "$tmp/u2"; untimed "$tmp/t3.json" > "$tmp/u3"
cmp -s "$tmp/u1" "$tmp/u2" && cmp -s "$tmp/u1" "$tmp/u3" && ok || bad "1, 2 and 3 threads differ: $(diff "$tmp/u1" "$tmp/u2" | head -n 4)"
for v in 0 -1 2x "" 99999999999; do
	PPR_THREADS=$v $PPR bcsr -m machines/zen4-epyc.json gen:laplace2d:n=5 > /dev/null 2> "$tmp/e"; rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l < "$tmp/e")" = 1 ] && grep -q "^ppr: error: .*PPR_THREADS '$v'" "$tmp/e" && ok || bad "PPR_THREADS='$v': rc=$rc $(cat "$tmp/e")"
done
# a built-in core model's points come from the program's table (a
# sanitizer build has none: then from the cache file or computed)
tbl=${BUILD:-build}/gen/bcsr_incore.c
if [ -f "$tbl" ] && ! grep -q 'nbuiltin = 0;' "$tbl"; then want=true; else want=false; fi
grep -q "\"incore_builtin\":	$want" "$tmp/t1.json" && { [ $want = false ] || grep -q '"incore_cached":	true' "$tmp/t1.json"; } && ok || bad "zen4-epyc.json: incore_builtin not $want"
# the in-core cache, on a core model that is not built in (zen4-epyc's
# with a reorder buffer one entry larger): cold (no cache), warm, and a
# damaged cache file (recomputed) give the same JSON; without a cache
# directory too
MC=$tmp/custom-core.json
sed 's/"rob_size": *\([0-9]*\)/"rob_size": 1\1/' machines/zen4-epyc.json > "$MC"
grep -q '"rob_size": *1[0-9]' "$MC" && ok || bad "custom core file"
rm -rf "$tmp/cache"/*
$PPR bcsr -m "$MC" gen:fem3d:n=10,dof=2 --reps 1 -f json > "$tmp/c1.json" 2>/dev/null && ok || bad "cold cache exit"
grep -q '"incore_cached":	false' "$tmp/c1.json" && grep -q '"incore_builtin":	false' "$tmp/c1.json" && ok || bad "cold: incore_cached false"
$PPR bcsr -m "$MC" gen:fem3d:n=10,dof=2 --reps 1 -f json > "$tmp/c2.json" 2>/dev/null && ok || bad "warm cache exit"
grep -q '"incore_cached":	true' "$tmp/c2.json" && grep -q '"incore_builtin":	false' "$tmp/c2.json" && ok || bad "warm: incore_cached true"
# a value overwritten (the sum no longer matches), then a file cut short
for f in "$tmp/cache"/bcsr-incore-*.bin; do printf 'junkjunk' | dd of="$f" bs=1 seek=1000 conv=notrunc 2>/dev/null; done
$PPR bcsr -m "$MC" gen:fem3d:n=10,dof=2 --reps 1 -f json > "$tmp/c3.json" 2>/dev/null && ok || bad "damaged cache exit"
grep -q '"incore_cached":	false' "$tmp/c3.json" && ok || bad "damaged cache: recomputed"
for f in "$tmp/cache"/bcsr-incore-*.bin; do truncate -s -1 "$f"; done
$PPR bcsr -m "$MC" gen:fem3d:n=10,dof=2 --reps 1 -f json > "$tmp/c5.json" 2>/dev/null && ok || bad "short cache exit"
grep -q '"incore_cached":	false' "$tmp/c5.json" && ok || bad "short cache file: recomputed"
PPR_CACHE_DIR= $PPR bcsr -m "$MC" gen:fem3d:n=10,dof=2 --reps 1 -f json > "$tmp/c4.json" 2>/dev/null && ok || bad "no cache exit"
for k in 1 2 3 4 5; do untimed "$tmp/c$k.json" > "$tmp/v$k"; done
cmp -s "$tmp/v1" "$tmp/v2" && cmp -s "$tmp/v1" "$tmp/v3" && cmp -s "$tmp/v1" "$tmp/v4" && cmp -s "$tmp/v1" "$tmp/v5" && ok || bad "cached and uncached results differ"
# a write keeps the 16 newest cache files (each rebuild writes one);
# other files stay
rm -rf "$tmp/cache"/*
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	touch -d "2020-01-$k" "$tmp/cache/bcsr-incore-00000000000000$(printf %02d $k).bin"
done
touch -d 2019-01-01 "$tmp/cache/keep.me"
$PPR bcsr -m "$MC" gen:laplace2d:n=6 > /dev/null 2>&1 && ok || bad "prune run exit"
[ "$(ls "$tmp/cache" | grep -c '^bcsr-incore-.*\.bin$')" = 16 ] && ok || bad "16 cache files kept: $(ls "$tmp/cache" | wc -l)"
[ -f "$tmp/cache/keep.me" ] && [ ! -f "$tmp/cache/bcsr-incore-0000000000000001.bin" ] && [ -f "$tmp/cache/bcsr-incore-0000000000000020.bin" ] && ok || bad "oldest pruned, others kept"
$PPR bcsr -m "$MC" gen:laplace2d:n=6 -f json 2> /dev/null | grep -q '"incore_cached":	true' && ok || bad "the new file survives the prune"
$PPR bcsr -m machines/zen4-epyc.json gen:laplace2d:n=5 --threads 0 > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok || bad "--threads 0: rc=$rc"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
