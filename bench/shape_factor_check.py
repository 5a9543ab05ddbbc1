#!/usr/bin/env python3
"""shape_factor_check.py - could a per-shape correction of `ppr bcsr`'s
predicted times fix its picks?  Asked of stored `ppr bcsr --measure`
passes, offline.

    BCSR_JSON_DIR=d1 sh bench/predict_bcsr.sh      # a pass, measured
    python3 bench/shape_factor_check.py d1 d2 ...   # the check

Each directory holds one pass: a JSON per matrix with every shape's
predicted time and measured GFLOPS.  A factor f on a shape multiplies its
predicted time; the pick is made as ppr bcsr makes it (the least fill of
the shapes within its tie of the fastest) and scored as
bench/predict_bcsr.sh scores it (its measured GFLOPS over the best's).

The factors: coordinate descent over the shapes (--shapes, default the
eight width-1 shapes) on a grid (--grid), maximising the least share of
the best over all passes, then the mean.  Printed:
  - fitted on everything: the most any such correction can do on these
    passes (it has seen the answers);
  - each pass held out (fitted on the others, with two passes or more):
    the same matrices measured again;
  - the matrices split in halves at random (--splits seeds, each half
    held out once): matrices the fit has not seen.
On the Zen 5 guest (2026-12-06, model/README.md) the first reached a
least share of 0.926, the held-out halves were worse in 6 of 12, and
factors fitted on one day's passes were worse on the next day's: the
picks' errors are the matrices' own, not the shapes'.  So ppr has no
such correction; this script is how to ask again of new passes.

To score given factors (ones fitted here on other passes) with ppr's own
terms, the factors on the in-core cycles as a machine file would apply
them: bench/rescore_forms.py --scale RxC=F,...
"""
import argparse
import glob
import json
import os
import random
import sys


def load(d):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        if f.endswith(".2.json"):
            continue
        j = json.load(open(f))
        if "shapes" not in j:
            continue
        if not all("measured_gflops" in s for s in j["shapes"]):
            sys.exit("%s: no measured_gflops (not a --measure pass)" % f)
        out[os.path.basename(f)[:-5]] = j
    if not out:
        sys.exit("%s: no ppr bcsr --measure JSON" % d)
    return out


def score(p, fac):
    """min, mean, count at 0.95 of the picks' share of the best."""
    sh = []
    for j in p.values():
        best = max(s["measured_gflops"] for s in j["shapes"])
        t = {s["shape"]: s["predicted_time_s"] * fac.get(s["shape"], 1.0)
             for s in j["shapes"]}
        # model_bcsr_pick: of the shapes within the tie of the fastest,
        # the least fill (then the faster)
        lim = min(t.values()) * (1 + max(j.get("tie", 0), 0))
        pick = min((s for s in j["shapes"] if t[s["shape"]] <= lim),
                   key=lambda s: (s["fill"], t[s["shape"]]))
        sh.append(pick["measured_gflops"] / best)
    if not sh:
        return 1.0, 1.0, 0
    return min(sh), sum(sh) / len(sh), sum(1 for v in sh if v >= 0.95)


def objective(passes, fac):
    r = [score(p, fac) for p in passes]
    return min(x[0] for x in r), sum(x[1] for x in r) / len(r)


def fit(passes, shapes, grid, rounds):
    fac = {s: 1.0 for s in shapes}
    best = objective(passes, fac)
    for _ in range(rounds):
        moved = False
        for s in shapes:
            cur = fac[s]
            for g in grid:
                fac[s] = g
                v = objective(passes, fac)
                if v > best:
                    best, cur, moved = v, g, True
            fac[s] = cur
        if not moved:
            break
    return {s: v for s, v in fac.items() if v != 1.0}, best


def fmt(r):
    return "min %.3f mean %.4f, %d at 0.95" % r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", help="BCSR_JSON_DIR passes")
    ap.add_argument("--shapes", default=",".join("%dx1" % r
                                                 for r in range(1, 9)))
    ap.add_argument("--grid", default="0.9,0.95,1,1.05,1.1")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--splits", type=int, default=6)
    a = ap.parse_args()
    shapes = a.shapes.split(",")
    grid = [float(g) for g in a.grid.split(",")]
    passes = [load(d) for d in a.dirs]

    print("as measured:")
    for d, p in zip(a.dirs, passes):
        print("  %-40s %s" % (d, fmt(score(p, {}))))
    if len(passes) > 1:
        print("each pass held out (fitted on the others):")
        for i, d in enumerate(a.dirs):
            fac, _ = fit([p for k, p in enumerate(passes) if k != i],
                         shapes, grid, a.rounds)
            print("  %-40s %s -> %s  %s" % (d, fmt(score(passes[i], {})),
                                            fmt(score(passes[i], fac)),
                                            json.dumps(fac)))
    names = sorted(set.intersection(*(set(p) for p in passes)))
    worse = 0
    print("matrices split in halves (fitted on one, scored on the other):")
    for seed in range(a.splits):
        rnd = random.Random(seed)
        sh = names[:]
        rnd.shuffle(sh)
        halves = (set(sh[:len(sh) // 2]), set(sh[len(sh) // 2:]))
        for tr, te in (halves, halves[::-1]):
            fac, _ = fit([{k: v for k, v in p.items() if k in tr}
                          for p in passes], shapes, grid, a.rounds)
            test = [{k: v for k, v in p.items() if k in te} for p in passes]
            b, f = objective(test, {}), objective(test, fac)
            worse += f < b
            print("  split %d: min %.3f mean %.4f -> min %.3f mean %.4f  %s"
                  % (seed, b[0], b[1], f[0], f[1], json.dumps(fac)))
    print("  held-out halves worse with the fit: %d of %d"
          % (worse, 2 * a.splits))
    fac, best = fit(passes, shapes, grid, a.rounds)
    print("fitted on all: min %.3f mean %.4f (as measured: min %.3f mean %.4f)"
          % (best[0], best[1], *objective(passes, {})))
    print("factors: %s" % json.dumps(fac))


if __name__ == "__main__":
    main()
