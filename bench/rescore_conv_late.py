#!/usr/bin/env python3
"""rescore_conv_late.py - the last level's late_line_cycles (machines/
README.md) scored against stored runs of bench/predict_conv.sh, offline.

    PPR=./build/ppr python3 bench/rescore_conv_late.py [--machine F]
        [--lat 12,16,20,22] LOG...

Each LOG is the output of one bench/predict_conv.sh run.  For each
figure it re-predicts the last level's two vector convolutions (`ppr
predict` at the bench's last-level size, the figure written into a copy
of the machine file) and scores them against each run's cells, the way
the bench does: each cell's fastest round, predicted at the clock read
right after that round (a last-level cell's cycles do not depend on the
bandwidths, so cycles x that clock).  It prints each cell's error of the
predicted speed and, per figure, how many cells lie past 10%.  Figures
fitted on some runs can be checked on the others by listing those alone.
"""
import json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PPR = os.environ.get("PPR", os.path.join(ROOT, "build", "ppr"))
FLOPS_PER_BLOCK = 16 * 16 * 2      # 16 outputs, 16 taps, an FMA each
VARIANTS = ("avx2-unaligned", "avx2-aligned")


def usage():
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    sys.exit(2)


def parse(path, level):
    """[(variant, round clock GHz, measured GFLOPS, n)] of one log"""
    clock, cells = {}, []
    for line in open(path):
        m = re.match(r"\s+round (\d+): [\d.]+ GB/s, ([\d.]+) GHz", line)
        if m:
            clock[int(m.group(1))] = float(m.group(2))
            continue
        m = re.match(r"%s\s+(\d+) (avx2-\S+)\s+(\d+)\s+[\d.]+\s+([\d.]+)"
                     % re.escape(level), line)
        if m and int(m.group(3)) in clock:
            cells.append((m.group(2), clock[int(m.group(3))],
                          float(m.group(4)), int(m.group(1))))
    return cells


def main(argv):
    machine = os.path.join(ROOT, "machines", "zen4-epyc.json")
    lats = [12, 16, 18, 20, 22, 24]
    logs = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--machine", "--lat") and i + 1 < len(argv):
            if a == "--machine":
                machine = argv[i + 1]
            else:
                try:
                    lats = [int(x) for x in argv[i + 1].split(",")]
                except ValueError:
                    usage()
            i += 2
        elif a.startswith("-"):
            usage()
        else:
            logs.append(a)
            i += 1
    if not logs:
        usage()
    mf = json.load(open(machine))
    level = mf["hierarchy"]["levels"][-1]["name"]
    runs = [(p, parse(p, level)) for p in logs]
    runs = [(p, c) for p, c in runs if c]
    if not runs:
        sys.exit("rescore_conv_late.py: no %s cells with round clocks in "
                 "the logs" % level)
    n = runs[0][1][0][3]
    tmp = tempfile.mkdtemp()
    over_all = {}
    for lat in lats:
        d = json.loads(json.dumps(mf))
        d["hierarchy"]["levels"][-1]["late_line_cycles"] = lat
        p = os.path.join(tmp, "m.json")
        json.dump(d, open(p, "w"))
        cyc = {}
        for v in VARIANTS:
            out = subprocess.run([PPR, "predict", "--machine", p, "--kernel",
                                  "conv1d", "--variant", v, "--n", str(n),
                                  "--no-advice", "--format", "json"],
                                 capture_output=True, text=True, check=True)
            cyc[v] = FLOPS_PER_BLOCK * d["clock_ghz"] / \
                json.loads(out.stdout)["gflops"]
        over, text = 0, []
        for path, cells in runs:
            errs = []
            for v, ghz, meas, _ in cells:
                pred = FLOPS_PER_BLOCK * ghz / cyc[v]
                e = 100 * (pred - meas) / meas
                over += abs(e) > 10
                errs.append("%s %+.1f%%" % (v.split("-")[1][:3], e))
            text.append("  %s: %s" % (path, ", ".join(errs)))
        over_all[lat] = over
        print("%s late_line_cycles %d (unaligned %.2f, aligned %.2f cycles a "
              "block): %d of %d cells past 10%%"
              % (level, lat, cyc[VARIANTS[0]], cyc[VARIANTS[1]], over,
                 sum(len(c) for _, c in runs)))
        print("\n".join(text))
    best = min(over_all, key=lambda k: (over_all[k], k))
    print("fewest cells past 10%%: %d (%d)" % (best, over_all[best]))


if __name__ == "__main__":
    main(sys.argv[1:])
