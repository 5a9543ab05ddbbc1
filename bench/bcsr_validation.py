#!/usr/bin/env python3
"""bcsr_validation.py - the "validation" section's "bcsr_pick" from a pass
of bench/predict_bcsr.sh (machines/README.md).

    python3 bench/bcsr_validation.py DIR MACHINE.json OUT.json [COMMAND]

DIR holds the pass's `ppr bcsr --measure --format json` files
(BCSR_JSON_DIR; a second run's *.2.json are left out).  OUT is MACHINE
with validation.bcsr_pick set from them (other validation members kept):
the pick's measured share of the best shape's GFLOPS, mean and least,
how many reached 0.95, where the least was, what --measure-close's choice
reached at least, and the mean cost in SpMV equivalents.
"""
import datetime
import json
import os
import sys


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    src, base, out = argv[1:4]
    cmd = argv[4] if len(argv) == 5 else ""
    rows = []
    for f in sorted(os.listdir(src)):
        if not f.endswith(".json") or f.endswith(".2.json"):
            continue
        path = os.path.join(src, f)
        try:
            with open(path) as fh:
                d = json.load(fh)
            share = float(d["share_of_best"])
            close = float(d["candidates"]["choice_share_of_best"])
            cost = float(d["cost_spmv_equivalents"])
            pick, best = d["pick"], d["measured_best"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.stderr.write("%s: not a ppr bcsr --measure result: %s\n"
                             % (path, e))
            return 1
        rows.append((f[:-len(".json")], share, close, cost, pick, best))
    if not rows:
        sys.stderr.write("%s: no ppr bcsr JSON files\n" % src)
        return 1
    low = min(rows, key=lambda r: r[1])
    v = {
        "date": datetime.datetime.now(datetime.timezone.utc)
        .strftime("%Y-%m-%d %H:%M UTC"),
        "command": cmd,
        "matrices": len(rows),
        "at_least_95": sum(1 for r in rows if r[1] >= 0.95),
        "mean_share": round(sum(r[1] for r in rows) / len(rows), 4),
        "min_share": round(low[1], 4),
        "min_matrix": low[0],
        "min_pick": low[4],
        "min_best": low[5],
        "close_min_share": round(min(r[2] for r in rows), 4),
        "cost_mean": round(sum(r[3] for r in rows) / len(rows), 2),
    }
    with open(base) as fh:
        m = json.load(fh)
    m.setdefault("validation", {})["bcsr_pick"] = v
    with open(out, "w") as fh:
        json.dump(m, fh, indent=2)
        fh.write("\n")
    print("validation written to %s: %d matrices, the pick's share of the "
          "best mean %.3f, least %.3f (%s), >= 0.95 on %d"
          % (out, v["matrices"], v["mean_share"], v["min_share"],
             v["min_matrix"], v["at_least_95"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
