#!/bin/sh
# fit_late.sh - fits a machine file's late_line_cycles (machines/README.md,
# model/predict.c's notes: late lines): the latency a loop whose vector
# loads cross lines sees on the regular lines the last level and memory
# serve.
#
# 1. Measures the convolution's algorithm 2 (avx2-unaligned: 7 of its 16
#    pairs of loads cross a line) at ppr conv's default sizes for the last
#    level and for memory (`ppr conv --measure`, ROUNDS rounds, the fastest
#    round's median kept: the host's tenants only ever slow a run down).
# 2. For each, finds by bisection the load latency at which the loop's
#    schedule (`ppr dag` on the machine's core, every load at that
#    latency) takes the measured cycles per block of 16 outputs.
# 3. Predicts both sizes with the fitted figures through `ppr predict`
#    and prints each error, and the other two algorithms' predictions
#    with them (algorithm 3's loads cross lines too; algorithm 1's do not).
# It prints the figures to paste into the last level and memory.
# KEEP=dir keeps each round's ppr conv JSON there (m1.json, ...), and with
# ROUNDS=0 the rounds kept there are fitted again without measuring.
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
	echo "round $r of $ROUNDS measured"
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

# the fastest round's median per (size, variant)
meas = {}
for r in range(1, rounds + 1):
    for s in json.load(open(os.path.join(kept, "m%d.json" % r)))["sizes"]:
        for a in s["algorithms"]:
            k = (s["n"], a["variant"])
            meas[k] = max(meas.get(k, 0), a["measured_gflops"])
ns = sorted({k[0] for k in meas})

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
    want = FLOPS_PER_BLOCK * clock / meas[(n, "avx2-unaligned")]
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
    print("n=%d: measured %.3f GFLOPS = %.1f cycles a block; the schedule "
          "takes that with loads of %d cycles" %
          (n, meas[(n, "avx2-unaligned")], want, lat))
d = json.loads(json.dumps(mf))
d["hierarchy"]["levels"][-1]["late_line_cycles"] = fit[0]
d.setdefault("memory", {})["late_line_cycles"] = fit[1]
p = os.path.join(tmp, "fitted.json")
json.dump(d, open(p, "w"), indent=1)
print("\n%-8s %-16s %10s %10s %8s" % ("n", "variant", "pred GF/s", "meas GF/s", "error"))
for n in ns:
    for v in ("naive", "avx2-unaligned", "avx2-aligned"):
        out = subprocess.run([ppr, "predict", "--machine", p, "--kernel",
                              "conv1d", "--variant", v, "--n", str(n),
                              "--no-advice", "--format", "json"],
                             capture_output=True, text=True, check=True).stdout
        g = json.loads(out)["gflops"]
        m = meas[(n, v)]
        print("%-8d %-16s %10.3f %10.3f %+7.1f%%" % (n, v, g, m, 100 * (g - m) / m))
print('\nlast level: "late_line_cycles": %d' % fit[0])
print('memory:     "late_line_cycles": %d' % fit[1])
PY
