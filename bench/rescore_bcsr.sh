#!/bin/sh
# rescore_bcsr.sh - score `ppr bcsr`'s picks against stored measurements:
# for every matrix JSON that bench/predict_bcsr.sh kept (BCSR_JSON_DIR,
# written by `ppr bcsr --measure`), predict again with MACHINE (no
# measurement: seconds for the 43 matrices) and set the new pick's
# measured GFLOPS against the measured best of that run.  So a changed
# model or machine file is judged on the same measurements, not on a new
# pass whose noise moves single shapes by up to 2x (model/README.md).
#
#   BCSR_JSON_DIR=dir KEEP_MACHINE=here.json sh bench/predict_bcsr.sh
#   MACHINE=here.json sh bench/rescore_bcsr.sh dir      # as measured
#   MACHINE=changed.json sh bench/rescore_bcsr.sh dir   # the change
#
# Prints each matrix whose pick falls under 0.95 of its best, then the
# summary line of bench/predict_bcsr.sh (min and mean share, how many at
# 0.95 or more).  Without a directory (as `make bench` runs it) it says
# so and exits 0.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
PPR=${PPR:-$ROOT/$BUILD/ppr}
[ -x "$PPR" ] || PPR=$ROOT/ppr
dir=$1
if [ -z "$dir" ]; then
	echo "rescore_bcsr: no directory of stored measurements given (see its header): skipped"
	exit 0
fi
if [ ! -d "$dir" ] || [ -z "$MACHINE" ]; then
	echo "usage: MACHINE=file sh bench/rescore_bcsr.sh DIR (DIR from BCSR_JSON_DIR)" >&2
	exit 2
fi
# one pass over the stored runs (not BCSR_TWICE's second runs, *.2.json):
# each matrix predicted again, its new pick scored on the stored shapes
python3 - "$PPR" "$MACHINE" "$dir" <<'EOF'
import glob, json, os, subprocess, sys
ppr, machine, dir_ = sys.argv[1:4]
shares = []
for f in sorted(glob.glob(os.path.join(dir_, "*.json"))):
    if f.endswith(".2.json"):
        continue
    name = os.path.basename(f)[:-5]
    d = json.load(open(f))
    r = subprocess.run([ppr, "bcsr", "--machine", machine, "--format", "json",
                        d["matrix"]], capture_output=True, text=True)
    if r.returncode:
        err = r.stderr.strip().splitlines()
        print("%s: predict failed: %s" % (name, err[-1] if err else r.returncode))
        continue
    pick = json.loads(r.stdout)["pick"]
    g = {s["shape"]: s["measured_gflops"] for s in d["shapes"]}
    best = max(g, key=g.get)
    share = g[pick] / g[best]
    shares.append(share)
    if share < 0.95:
        print("%-34s pick %s (stored run's pick %s), measured best %s: %.3f"
              % (name, pick, d["pick"], best, share))
if not shares:
    sys.exit("rescore_bcsr: no matrix scored in %s" % dir_)
n = len(shares)
print("summary: %d matrices, share of best min %.3f mean %.4f, >= 0.95 on %d"
      % (n, min(shares), sum(shares) / n, sum(s >= 0.95 for s in shares)))
EOF
