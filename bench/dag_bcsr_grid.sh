#!/bin/sh
# dag_bcsr_grid.sh - in-core accuracy of the model on the 64 compiled BCSR
# kernels (run by `make bench`; prints two 8x8 grids and a summary).
#
# One small banded matrix (default gen:banded:n=200,bw=10: 4,090
# nonzeros, every shape's arrays in L1 or L2), `ppr bcsr --measure
# --sample 1`: each shape's least CPU time per SpMV (fastest of the four
# code placements) is turned into core cycles per block with the core
# clock of a dependent-add chain timed the same way (`ppr machine detect
# --clock-only`: the fastest of 400 windows of 0.2 ms; on a shared guest
# CPU time also counts time lost to interruptions, which a 20 ms run
# nearly always contains), and set against the model's in-core cycles
# per block: the larger of
# S_DAG(compute), S_DAG(memory) and the whole loop's schedule, plus the
# branch stalls (no transfer term: the data are in L1/L2).
#   MATRIX=gen:... sh bench/dag_bcsr_grid.sh
#   MACHINE=file (default machines/zen4-epyc.json)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
PPR=${PPR:-$ROOT/$BUILD/ppr}
[ -x "$PPR" ] || PPR=$ROOT/ppr
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
MATRIX=${MATRIX:-gen:banded:n=200,bw=10}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

"$PPR" machine detect --clock-only --runs 1 > "$tmp/clk" 2> /dev/null || {
	echo "dag_bcsr_grid: ppr machine detect --clock-only failed"
	exit 0
}
ghz=$(awk '$1 == "fastest_window_ghz" { print $2 }' "$tmp/clk")
echo "core clock (dependent adds): $(awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }' "$tmp/clk")"
if ! "$PPR" bcsr --machine "$MACHINE" --measure --sample 1 --format json \
	"$MATRIX" > "$tmp/o.json" 2> "$tmp/e"; then
	echo "dag_bcsr_grid: ppr bcsr failed: $(tail -n 1 "$tmp/e")"
	exit 0
fi
python3 - "$tmp/o.json" "$ghz" <<'EOF'
import json, statistics, sys

d = json.load(open(sys.argv[1]))
ghz = float(sys.argv[2])
meas, model, ratio = {}, {}, {}
for s in d["shapes"]:
    nb = s["nblocks"]
    t = 2 * d["nnz"] / (s["measured_gflops"] * 1e9)
    meas[s["shape"]] = t * ghz * 1e9 / nb
    model[s["shape"]] = (max(s["compute_cycles"], s["memory_instr_cycles"],
                             s["core_cycles"]) + s["stall_cycles"]) / nb
    ratio[s["shape"]] = meas[s["shape"]] / model[s["shape"]]
print("matrix %s (%d nonzeros), machine %s; moved: %s" %
      (d["matrix"], d["nnz"], d["machine"],
       "yes" if d.get("speed_moved") else "no"))
print("measured core cycles per block (rows r, columns c):")
print("  r\\c" + "".join("%7d" % c for c in range(1, 9)))
for r in range(1, 9):
    print("  %d  " % r + "".join("%7.2f" % meas["%dx%d" % (r, c)]
                                 for c in range(1, 9)))
print("measured / model in-core:")
print("  r\\c" + "".join("%7d" % c for c in range(1, 9)))
for r in range(1, 9):
    print("  %d  " % r + "".join("%7.2f" % ratio["%dx%d" % (r, c)]
                                 for c in range(1, 9)))
def summ(keys):
    e = [abs(ratio[k] - 1) for k in keys]
    w = max(keys, key=lambda k: abs(ratio[k] - 1))
    return "median |error| %.1f%%, worst %s %+.1f%%" % (
        100 * statistics.median(e), w, 100 * (ratio[w] - 1))
allk = list(ratio)
print("all 64 shapes: " + summ(allk))
print("width 1 (r x 1): " + summ(["%dx1" % r for r in range(1, 9)]))
print("widths 2-8: " + summ([k for k in allk if not k.endswith("x1")]))
EOF
