#!/bin/sh
# fit_late.sh - fits a machine file's late_line_cycles (machines/README.md,
# model/predict.c's notes: late lines): the latency a loop whose vector
# loads cross lines sees on the regular lines the last level and memory
# serve.
#
# 1. Measures the convolution's algorithm 2 (avx2-unaligned: 7 of its 16
#    pairs of loads cross a line) at ppr conv's default sizes for the last
#    level and for memory (`ppr conv --measure`, ROUNDS rounds, the fastest
#    round's median kept: the host's tenants only ever slow a run down),
#    in cycles at the core clock read right after each round (`ppr machine
#    detect --clock-only`): a shared guest's clock moves by 10% within
#    minutes (3.37-3.70 GHz on 2026-12-06), and GFLOPS at the file's clock
#    put that into the fitted latency.
# 2. For each, finds by bisection the load latency at which the loop's
#    schedule (`ppr dag` on the machine's core, every load at that
#    latency) takes the measured cycles per block of 16 outputs.  For the
#    last level, where algorithm 2's schedule stays flat up to about 18
#    cycles a load, the figure is then the one whose predictions of
#    algorithms 2 and 3 (whose loads cross lines too) have the least
#    larger error (a scan of 0-120 cycles through `ppr predict`).
# 3. Predicts both sizes with the fitted figures through `ppr predict`
#    and prints each error, and the other two algorithms' predictions
#    with them (algorithm 3's loads cross lines too; algorithm 1's do not).
# It prints the figures to paste into the last level and memory, and
# memory's also as a latency in ns (memory.late_line_ns: the fitted cycles
# at the clock of the round they came from), which the file's clock turns
# back into cycles: a DRAM's latency does not follow the core clock.
# KEEP=dir keeps each round's ppr conv JSON there (m1.json, ...) and its
# clock (c1.txt, ...), and with ROUNDS=0 the rounds kept there are fitted
# again without measuring (a round without its clock: the file's).
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/xeon-gnr.json}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-10}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
"$PPR" conv --machine "$MACHINE" --format json > "$tmp/sizes.json" 2>/dev/null ||
	{ echo "fit_late.sh: ppr conv --machine $MACHINE failed" >&2; exit 1; }
sizes=$(python3 - "$tmp/sizes.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["sizes"]
print("%d,%d" % (s[-2]["n"], s[-1]["n"]))
PY
) || exit 1
echo "machine: $MACHINE; sizes (last level, memory): $sizes"
dir=${KEEP:-$tmp}
mkdir -p "$dir" || exit 1
r=1
while [ "$r" -le "$ROUNDS" ]; do
	"$PPR" conv --machine "$MACHINE" --measure --reps "$REPS" \
		--sizes "$sizes" --format json > "$dir/m$r.json" 2>/dev/null ||
		{ echo "fit_late.sh: round $r: ppr conv --measure failed" >&2; exit 1; }
	"$PPR" machine detect --clock-only --runs 3 > "$dir/c$r.txt" 2>/dev/null ||
		rm -f "$dir/c$r.txt"
	echo "round $r of $ROUNDS measured, then the clock: $(sed -n 's/^clock_ghz //p' "$dir/c$r.txt" 2>/dev/null) GHz"
	r=$((r + 1))
done
[ "$ROUNDS" -gt 0 ] || ROUNDS=$(ls "$dir"/m[0-9]*.json 2>/dev/null | wc -l)
[ "$ROUNDS" -gt 0 ] || { echo "fit_late.sh: no measurements (ROUNDS=0 and nothing in KEEP)" >&2; exit 1; }
python3 - "$PPR" "$MACHINE" "$tmp" "$ROUNDS" "$dir" <<'PY'
import json, os, subprocess, sys
ppr, machine, tmp, rounds, kept = (sys.argv[1], sys.argv[2], sys.argv[3],
                                   int(sys.argv[4]), sys.argv[5])
mf = json.load(open(machine))
clock = mf["clock_ghz"]
FLOPS_PER_BLOCK = 16 * 16 * 2      # 16 outputs, 16 taps, an FMA each

# the fastest round's median per (size, variant), in cycles a block at
# the clock read right after its round
def round_clock(r):
    try:
        for line in open(os.path.join(kept, "c%d.txt" % r)):
            if line.startswith("clock_ghz "):
                return float(line.split()[1])
    except OSError:
        pass
    return clock

cyc, at = {}, {}
for r in range(1, rounds + 1):
    ghz = round_clock(r)
    for s in json.load(open(os.path.join(kept, "m%d.json" % r)))["sizes"]:
        for a in s["algorithms"]:
            k = (s["n"], a["variant"])
            c = FLOPS_PER_BLOCK * ghz / a["measured_gflops"]
            if k not in cyc or c < cyc[k]:
                cyc[k], at[k] = c, ghz
ns = sorted({k[0] for k in cyc})

def dag_cycles(lat):
    d = json.loads(json.dumps(mf))
    core = d.setdefault("core", {})
    if "name" not in core:
        sys.exit("fit_late.sh: %s has no core section" % machine)
    core["load_latency_vec"] = core["load_latency_gpr"] = lat
    p = os.path.join(tmp, "dag.json")
    json.dump(d, open(p, "w"))
    out = subprocess.run([ppr, "dag", "--kernel", "conv1d", "--variant",
                          "avx2-unaligned", "--machine", p, "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["cycles_per_iteration"]

fit = []
for n in ns:
    want = cyc[(n, "avx2-unaligned")]
    lo, hi = 1, 1000     # the core model's longest load latency
    if dag_cycles(lo) >= want:
        lat = 0          # no slower than the loop's own schedule
    else:
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if dag_cycles(mid) < want:
                lo = mid
            else:
                hi = mid
        lat = hi
    fit.append(lat)
    print("n=%d: measured %.1f cycles a block at %.3f GHz; the schedule takes "
          "that with loads of %d cycles (%.2f ns)"
          % (n, want, at[(n, "avx2-unaligned")], lat,
             lat / at[(n, "avx2-unaligned")]))
# The last level against both vector algorithms: algorithm 2's schedule
# does not move below about 18 cycles a load (its fit is anything there),
# and algorithm 3's loads cross lines too.  The figure whose predictions
# of the two have the least larger error (the least figure of a tie)
# through `ppr predict` at the last level's size.
def predicted_cycles(d, n, v):
    """cycles a block that `ppr predict` gives with machine file d"""
    p = os.path.join(tmp, "predict.json")
    json.dump(d, open(p, "w"))
    out = subprocess.run([ppr, "predict", "--machine", p, "--kernel", "conv1d",
                          "--variant", v, "--n", str(n), "--no-advice",
                          "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return FLOPS_PER_BLOCK * clock / json.loads(out)["gflops"]

scan = json.loads(json.dumps(mf))
best = None
for lat in range(0, 121):
    scan["hierarchy"]["levels"][-1]["late_line_cycles"] = lat
    worst = max(abs(cyc[(ns[0], v)] / predicted_cycles(scan, ns[0], v) - 1)
                for v in ("avx2-unaligned", "avx2-aligned"))
    if best is None or worst < best[1] - 1e-12:
        best = (lat, worst)
print("n=%d: algorithms 2 and 3 together: loads of %d cycles (larger error "
      "%.1f%%); algorithm 2 alone: %d" % (ns[0], best[0], 100 * best[1], fit[0]))
fit[0] = best[0]
# memory's latency as a latency (memory.late_line_ns): the cycles at the
# clock of the round they were measured in
mem_ns = fit[1] / at[(ns[1], "avx2-unaligned")]
d = json.loads(json.dumps(mf))
d["hierarchy"]["levels"][-1]["late_line_cycles"] = fit[0]
d.setdefault("memory", {})["late_line_cycles"] = fit[1]
d["memory"].pop("late_line_ns", None)   # a file gives one of the two
print("\n%-8s %-16s %10s %10s %8s" % ("n", "variant", "pred cy/blk", "meas cy/blk",
                                     "error"))
for n in ns:
    for v in ("naive", "avx2-unaligned", "avx2-aligned"):
        g = predicted_cycles(d, n, v)
        m = cyc[(n, v)]
        # the error of the predicted speed, as ppr conv prints it
        print("%-8d %-16s %10.2f %10.2f %+7.1f%%" % (n, v, g, m, 100 * (m - g) / g))
print('\nlast level: "late_line_cycles": %d' % fit[0])
print('memory:     "late_line_cycles": %d' % fit[1])
print('   or as a latency (the cycles at their round\'s clock, %.3f GHz): '
      '"late_line_ns": %.2f' % (at[(ns[1], "avx2-unaligned")], mem_ns))
PY
