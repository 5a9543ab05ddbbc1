#!/bin/sh
# predict_conv.sh - the three convolution algorithms, predicted vs
# measured, at sizes resident in each cache level and in memory
# (`ppr conv --measure`); and the paper's Tables 4-6 on haswell.json.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$PPR" conv --paper --machine "$ROOT/machines/haswell.json"
echo
# Sizes: ppr conv's defaults for the machine (input + output, 8 B per
# element, a quarter of each level's capacity, the L3 at the share
# usable_ways leaves to the program; memory 4x that): on zen4-epyc.json
# n = 1536, 32768, 589824 and 9437184.  Every variant's data stays in the
# level named, the aligned one's too (4 shifted copies of the input and
# the output: 5x the input bytes).  Until 2026-11-25 the list was
# 4096,65536,1048576,33554432: the aligned variant's 20 MB at 1048576 did
# not fit the 18 MB L3 share (nor its data at 4096 / 65536 L1 / L2).
# SIZES=n,n,... overrides.
if [ -n "$SIZES" ]; then
	set -- --sizes "$SIZES"
else
	set --
fi
# The memory-resident figures move with the host's memory bandwidth:
# `ppr machine detect` read 30-34 GB/s on 2026-11-24 and 42-43 GB/s on
# 2026-11-25 (zen4-epyc.json keeps 35).  The bench predicts with the file
# refreshed for this host (bench/machine_here.sh); when it is not
# (REFRESH=0 or a MACHINE given), it also measures the bandwidth now
# (detect's median of 3 runs; FRESH_BW=0: not) and prints every variant's
# error again with the file's memory bandwidth replaced by that figure, so
# that the model's error and the host's drift can be told apart.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$ROOT/bench/machine_here.sh"
machine_here "$tmp"
echo "load: $(uptime | sed 's/.*load average: //')"
"$PPR" conv --machine "$MACHINE" --measure --reps "${REPS:-10}" "$@" |
	tee "$tmp/meas"
echo "load: $(uptime | sed 's/.*load average: //')"
# (not needed when machine_here refreshed the file: its bandwidth is fresh)
[ "${FRESH_BW:-$((1 - MACHINE_REFRESHED))}" = 1 ] || exit 0
"$PPR" machine detect --runs 3 > /dev/null 2> "$tmp/det" || {
	echo "ppr machine detect failed: no fresh bandwidth"; exit 0; }
bw=$(sed -n 's/^ *memory read bandwidth *min *[0-9.]* *median *\([0-9.]*\).*/\1/p' "$tmp/det")
[ -n "$bw" ] || { echo "no memory bandwidth in detect's output"; exit 0; }
python3 - "$MACHINE" "$bw" "$tmp/fresh.json" <<'PY' || exit 0
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("memory", {})["bandwidth_gbs"] = float(sys.argv[2])
json.dump(d, open(sys.argv[3], "w"), indent=1)
PY
"$PPR" conv --machine "$tmp/fresh.json" "$@" --format json > "$tmp/fresh" 2>/dev/null ||
	{ echo "ppr conv with the fresh bandwidth failed"; exit 0; }
echo
echo "with the memory bandwidth measured now: $bw GB/s (machine file: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["memory"]["bandwidth_gbs"])' "$MACHINE"))"
python3 - "$tmp/meas" "$tmp/fresh" <<'PY'
import json, sys
meas = {}
for ln in open(sys.argv[1]):
    f = ln.split()
    if len(f) == 9 and f[2] in ("naive", "avx2-unaligned", "avx2-aligned"):
        meas[(int(f[1]), f[2])] = (float(f[5]), float(f[7]))
print("%-10s %-15s %10s %10s %8s %8s" % ("n", "variant", "pred GF/s", "meas GF/s",
                                      "error", "vs best"))
for s in json.load(open(sys.argv[2]))["sizes"]:
    best_p = max(a["predicted_gflops"] for a in s["algorithms"])
    for a in s["algorithms"]:
        k = (s["n"], a["variant"])
        if k not in meas:
            continue
        p = a["predicted_gflops"]; m, b = meas[k]
        print("%-10d %-15s %10.3f %10.3f %+7.1f%% %+7.1f%%" %
              (s["n"], a["variant"], p, m, 100 * (p / m - 1), 100 * (p / b - 1)))
    mb = max((meas[(s["n"], a["variant"])][0], a["variant"]) for a in s["algorithms"]
             if (s["n"], a["variant"]) in meas)
    print("  -> best (predicted): %s; measured best: %s" % (s["best"], mb[1]))
PY
