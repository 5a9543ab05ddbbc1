#!/bin/sh
# bench/sweep.sh - the sweep's figures: a sweep over ../shared/matrices
# (small, medium, reader_cases) plus 3 generated matrices over 5e6 nonzeros:
#   1. every valid input has an ok record, every invalid one an error record
#      with its reason (valid = `ppr matrix info` accepts it), no crash;
#   2. SIGKILL halfway + restart = the uninterrupted run (ppr sweep diff);
#   3. two shards run separately and merged = the single run;
#   4. wall time --jobs 1 vs --jobs 2, min and median of REPS runs each,
#      interleaved, with the load average (the machine is shared).
# Env: PPR (./ppr), MACHINE (machines/zen4-epyc.json), KIND (predict when
# `ppr predict` exists, else info), REPS (3), SETS (small medium
# reader_cases), GENS (3 specs), IGNORE (result fields that are timed),
# EXTRA (more sweep options, e.g. --timeout 600), TOL (relative tolerance
# of the result comparisons; default 0 = exact).  REPS=0 skips step 4.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; *) PPR=$(pwd)/$PPR ;; esac
MACHINE=${MACHINE:-machines/zen4-epyc.json}
case $MACHINE in /*) ;; *) MACHINE=$(pwd)/$MACHINE ;; esac
SHARED=${SHARED:-../shared/matrices}
REPS=${REPS:-3}
SETS=${SETS:-small medium reader_cases}
GENS=${GENS:-gen:laplace3d:n=100 gen:fem3d:n=29,dof=3 gen:fem3d:n=38,dof=2}
IGNORE=${IGNORE:-prediction_wall_s prediction_parts_s cost_spmv_equivalents csr_spmv_time_s}
TOL=${TOL:-0}
if [ -z "$KIND" ]; then
	if "$PPR" predict --help >/dev/null 2>&1; then KIND=predict; else KIND=info; fi
fi
if [ "$KIND" = predict ]; then JOB="--machine $MACHINE --kernel spmv-csr"; else JOB="--info"; fi
if [ ! -d "$SHARED" ]; then echo "bench/sweep.sh: $SHARED absent: skipped"; exit 0; fi
tmp=$(mktemp -d /tmp/ppr_bench_sweep.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
INPUTS=""
for s in $SETS; do INPUTS="$INPUTS $SHARED/$s"; done
INPUTS="$INPUTS $GENS"
ign="--tol $TOL"; for f in $IGNORE; do ign="$ign --ignore $f"; done
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
lines() { wc -l <"$1" | tr -d ' '; }
# shellcheck disable=SC2086
sweep() { "$PPR" sweep $JOB $EXTRA $INPUTS "$@"; }

echo "== ppr sweep bench: kind $KIND, $(nproc) cores, load $(load)"
sweep --dry-run 2>"$tmp/dry.err" >"$tmp/dry"
total=$(lines "$tmp/dry")
echo "inputs: $total ($SETS + $GENS)"
for g in $GENS; do
	printf '  %s: nnz %s\n' "$g" "$("$PPR" matrix info "$g" --format json | sed -n 's/^[[:space:]]*"nnz":[[:space:]]*\([0-9]*\),*$/\1/p')"
done

# 1. uninterrupted run (also the first --jobs 2 timing)
t0=$(now); sweep -j 2 -q -o "$tmp/a.jsonl" 2>"$tmp/a.err"; rc=$?; t1=$(now)
echo "uninterrupted --jobs 2: exit $rc, $(lines "$tmp/a.jsonl") records, $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s; $(tail -n 1 "$tmp/a.err")"
j2=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')
nok=$(grep -c '"status":"ok"' "$tmp/a.jsonl"); nerr=$(grep -c '"status":"error"' "$tmp/a.jsonl")
echo "  ok $nok, error $nerr"
# valid = matrix info accepts it
bad_valid=0; bad_invalid=0; nvalid=0; ninvalid=0
awk '{print $NF}' "$tmp/dry" >"$tmp/inputs"
while IFS= read -r f; do
	rec=$(grep -F "{\"key\":{\"input\":\"$f\"," "$tmp/a.jsonl")
	if "$PPR" matrix info "$f" >/dev/null 2>&1; then
		nvalid=$((nvalid + 1))
		echo "$rec" | grep -q '"status":"ok"' || { bad_valid=$((bad_valid + 1)); echo "  valid but not predicted: $f: $(echo "$rec" | sed -n 's/.*"error":"\([^"]*\)".*/\1/p')"; }
	else
		ninvalid=$((ninvalid + 1))
		echo "$rec" | grep -q '"status":"error","error":"[^"]' || { bad_invalid=$((bad_invalid + 1)); echo "  invalid without an error record: $f"; }
	fi
done <"$tmp/inputs"
echo "valid inputs: $nvalid, predicted ok: $((nvalid - bad_valid)); invalid: $ninvalid, error records with a reason: $((ninvalid - bad_invalid))"
grep -o '"error":"[^"]*"' "$tmp/a.jsonl" | sed 's/"error":"[^"]*reader_cases\/\([^"]*\)"/\1/' | head -n 5 | sed 's/^/  e.g. /'
grep -q 'signal' "$tmp/a.jsonl" && echo "  CRASHES: $(grep -c 'killed by signal' "$tmp/a.jsonl") records killed by a signal" || echo "  no child killed by a signal"

# 2. SIGKILL halfway, restart
half=$((total / 2))
sweep -j 2 -q -o "$tmp/k.jsonl" 2>/dev/null &
pid=$!
while [ "$(cat "$tmp/k.jsonl" 2>/dev/null | wc -l)" -lt "$half" ] && kill -0 $pid 2>/dev/null; do sleep 0.2; done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -z "$(tail -c 1 "$tmp/k.jsonl")" ]; then nl=yes; else nl="no (a partial last line)"; fi
echo "SIGKILL after $(lines "$tmp/k.jsonl") of $total records (file ends with a newline: $nl)"
sweep -j 2 -q -o "$tmp/k.jsonl" 2>"$tmp/k.err"
echo "restart: $(grep -v '^ppr: warning' "$tmp/k.err" | tail -n 1)"
# shellcheck disable=SC2086
"$PPR" sweep diff $ign "$tmp/a.jsonl" "$tmp/k.jsonl" 2>&1 | tail -n 3 | sed 's/^/  killed+restarted vs uninterrupted: /'

# 3. two shards, merged
for s in 0 1; do sweep -j 2 -q --shard $s/2 -o "$tmp/s$s.jsonl" 2>/dev/null; done
"$PPR" sweep merge "$tmp/s0.jsonl" "$tmp/s1.jsonl" -o "$tmp/m.jsonl" 2>&1 | tail -n 1 | sed 's/^/  /'
# shellcheck disable=SC2086
"$PPR" sweep diff $ign "$tmp/a.jsonl" "$tmp/m.jsonl" 2>&1 | tail -n 3 | sed 's/^/  shards merged vs single run: /'

# 4. --jobs 1 vs --jobs 2, interleaved
[ "$REPS" -ge 1 ] || exit 0
t1s=""; t2s="$j2"
r=1
while [ $r -le "$REPS" ]; do
	l0=$(load)
	rm -f "$tmp/t.jsonl"; t0=$(now); sweep -j 1 -q -o "$tmp/t.jsonl" 2>/dev/null; t1=$(now)
	a=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}'); t1s="$t1s $a"
	if [ $r -lt "$REPS" ]; then
		rm -f "$tmp/t.jsonl"; t0=$(now); sweep -j 2 -q -o "$tmp/t.jsonl" 2>/dev/null; t1=$(now)
		b=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}'); t2s="$t2s $b"
	else b="(first run)"; fi
	echo "  rep $r: --jobs 1 $a s, --jobs 2 $b s (load before $l0, after $(load))"
	r=$((r + 1))
done
stats() { echo "$1" | tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {printf "min %.2f s, median %.2f s", v[1], (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
m1=$(echo "$t1s" | tr ' ' '\n' | grep . | sort -g | head -n 1)
m2=$(echo "$t2s" | tr ' ' '\n' | grep . | sort -g | head -n 1)
echo "--jobs 1: $(stats "$t1s")"
echo "--jobs 2: $(stats "$t2s")"
echo "speedup (min/min): $(awk -v a="$m1" -v b="$m2" 'BEGIN{printf "%.2fx", a/b}') (goal >= 1.8x on an idle machine; load now $(load))"
