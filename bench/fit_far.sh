#!/bin/sh
# fit_far.sh - fits a machine file's far_miss_cycles (machines/README.md):
# what an irregular reference that no prefetcher finds costs beyond the
# core's schedule, per level that serves it (model/predict.c, model/ppr.c).
#
# 1. Measures CSR SpMV on the matrices of bench/random_matrices.txt
#    (`ppr measure`, median of REPS runs, ROUNDS rounds, the least kept;
#    MEASURED=file keeps the rounds as bench/predict_spmv.sh does, and
#    ROUNDS=0 measures nothing new).
# 2. Predicts them with the machine file's far_miss_cycles removed (their
#    lines then cost their link times, the model without far costs), and
#    reads each prediction's parts from the JSON: S_DAG(memory), the link
#    times, the irregular and far misses per level, the branch stalls.
# 3. Searches costs for the levels after L1 (a grid: L2 0-3, L3 0-40,
#    memory 0-300 cycles) for the least mean squared log error of the
#    times, evaluating the model's overlap form (model/ppr.c,
#    transfers_overlap, with memory.far_stream_serial's share) on those
#    parts.
# 4. Predicts again with the fitted costs through `ppr predict` itself and
#    prints each error, so a slip in step 3's copy of the formula shows.
# It prints the costs as JSON to paste into the machine file's levels
# (far_miss_cycles) and memory.  Only for machines with
# hierarchy.transfers_overlap: without it the far costs are not used.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
REPS=${REPS:-10}
ROUNDS=${ROUNDS:-3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
list=$(grep -v '^#' "$ROOT/bench/random_matrices.txt")
raw=${MEASURED:-$tmp/raw}
. "$ROOT/bench/measure_rounds.sh"
# shellcheck disable=SC2086
measure_rounds "$raw" $list
[ -s "$raw" ] || { echo "fit_far.sh: no measurements (ROUNDS=0 and no MEASURED file)" >&2; exit 1; }
python3 - "$MACHINE" "$tmp/nofar.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
if not d.get("hierarchy", {}).get("transfers_overlap"):
    sys.exit("fit_far.sh: %s has no hierarchy.transfers_overlap: far costs are not used" % sys.argv[1])
for l in d["hierarchy"]["levels"]:
    l.pop("far_miss_cycles", None)
d.get("memory", {}).pop("far_miss_cycles", None)
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
i=0
for mtx in $list; do
	i=$((i + 1))
	"$PPR" predict --machine "$tmp/nofar.json" --kernel spmv-csr --no-advice \
		--format json "$mtx" > "$tmp/p$i.json" 2>/dev/null ||
		{ echo "$mtx: predict failed" >&2; rm -f "$tmp/p$i.json"; }
	printf '%s\t%s\n' "$i" "$mtx" >> "$tmp/index"
done
python3 - "$tmp" "$raw" "$MACHINE" <<'PY' > "$tmp/fit" || exit 1
import json, math, os, sys
tmp, raw, machine = sys.argv[1:4]
meas = {}
for ln in open(raw):
    f = ln.rstrip("\n").split("\t")
    if len(f) >= 2 and f[1]:
        meas[f[0]] = min(meas.get(f[0], 1e99), float(f[1]))
mf = json.load(open(machine))
line = mf["hierarchy"]["levels"][0]["cl_size"]
rows = []
for ln in open(os.path.join(tmp, "index")):
    i, mtx = ln.rstrip("\n").split("\t")
    p = os.path.join(tmp, "p%s.json" % i)
    if mtx in meas and os.path.exists(p):
        rows.append((mtx, json.load(open(p)), meas[mtx]))
if not rows:
    sys.exit("fit_far.sh: nothing to fit")
nlev = len(rows[0][1]["levels"])

def cycles(d, cost):
    # model/ppr.c, transfers_overlap: the memory side is the slowest of
    # S_DAG(memory) + the lines not hidden, and each link
    lev, ph = d["levels"], d["phases"]
    bw = [l["bandwidth_bytes_per_cycle"] for l in lev]
    irr = [l["misses_irregular"] for l in lev]
    far = [min(l["misses_far"], l["misses_irregular"]) for l in lev]
    t = sum((irr[i] - far[i]) * line / bw[i] for i in range(1, nlev))
    t_mem = 0
    for i in range(nlev):
        served = far[i] - (far[i + 1] if i + 1 < nlev else 0)
        if served <= 0:
            continue
        if cost[i] > 0:
            x = served * cost[i]
        else:
            x = served * sum(line / bw[j] for j in range(1, i + 1))
        t += x
        if i + 1 == nlev:
            t_mem = x
    side = max([ph["memory_instructions"] + t] + ph["link_cycles"])
    # memory.far_stream_serial: that share after the stream from memory
    share = ph.get("stream_serial_share", 0)
    if share > 0:
        side = max(side, ph["link_cycles"][-1] +
                   share * (ph["memory_instructions"] + t - t_mem))
    return max(ph["compute"], side, d["loop"]["accumulator_chain_cycles"]) + ph["branch_stalls"]

def score(cost):
    return sum(math.log(cycles(d, cost) / (d["clock_ghz"] * 1e9) / m) ** 2
               for _, d, m in rows) / len(rows)

# 2026-12-01, the Granite Rapids guest (194 ns to memory, 15 GB/s a core):
# the fit reached the old grid's edges (L2 1.5, L3 12, memory 60), so it
# spans twice as far and more
grid = [[x / 10 for x in range(0, 31)], [x / 2 for x in range(0, 81)],
        [5.0 * x for x in range(0, 61)]]
best = None
for a in grid[0]:
    for b in grid[1]:
        for c in grid[2]:
            cost = [a, b, c][:nlev] + [0] * max(0, nlev - 3)
            s = score(cost)
            if best is None or s < best[0]:
                best = (s, cost)
cost = best[1]
print("COST " + " ".join("%g" % x for x in cost))
for mtx, d, m in rows:
    t0 = cycles(d, [0] * nlev) / (d["clock_ghz"] * 1e9)
    print("ROW %s %.4g %.4g" % (mtx, m, t0))
PY
set -- $(sed -n 's/^COST //p' "$tmp/fit")
python3 - "$MACHINE" "$tmp/fitted.json" "$@" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
cost = [float(x) for x in sys.argv[3:]]
lv = d["hierarchy"]["levels"]
data = [l for l in lv if l.get("role", "unified") != "instruction"]
out = {}
for i, c in enumerate(cost):
    name = data[i + 1]["name"] if i + 1 < len(data) else "memory"
    tgt = data[i + 1] if i + 1 < len(data) else d.setdefault("memory", {})
    tgt["far_miss_cycles"] = c
    out[name] = c
json.dump(d, open(sys.argv[2], "w"), indent=1)
print("fitted far_miss_cycles (served by): " + json.dumps(out))
PY
printf '%-40s %11s %11s %8s %11s %8s\n' matrix "measured s" "no far s" "error" "fitted s" "error"
sed -n 's/^ROW //p' "$tmp/fit" | while read -r mtx m t0; do
	t1=$("$PPR" predict --machine "$tmp/fitted.json" --kernel spmv-csr --no-advice \
		--format json "$mtx" 2>/dev/null | sed -n 's/^	"time_s":[	 ]*\([0-9.e+-]*\),*$/\1/p')
	[ -n "$t1" ] || { echo "$mtx: predict failed"; continue; }
	awk -v n="$mtx" -v m="$m" -v a="$t0" -v b="$t1" 'BEGIN {
		printf "%-40s %11.4g %11.4g %+7.1f%% %11.4g %+7.1f%%\n", n, m, a,
			100 * (a / m - 1), b, 100 * (b / m - 1) }'
done | tee "$tmp/table"
awk '{ a = $4; b = $6; gsub(/[%+-]/, "", a); gsub(/[%+-]/, "", b); print a, b }' "$tmp/table" |
	sort -g -k1,1 > "$tmp/e1"
for c in 1 2; do
	case $c in 1) name="without far costs" ;; *) name=fitted ;; esac
	sort -g -k$c,$c "$tmp/e1" | awk -v c=$c -v name="$name" '
		{ v[NR] = $c; if ($c > mx) mx = $c }
		END { if (!NR) exit; med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		      printf "%-18s median |error| %.1f%%, worst %.1f%% (%d matrices)\n", name, med, mx, NR }'
done
