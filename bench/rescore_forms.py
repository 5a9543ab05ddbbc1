#!/usr/bin/env python3
"""rescore_forms.py - score other ways of combining ppr bcsr's terms
against stored measurements, without rebuilding ppr.

bench/rescore_bcsr.sh judges a changed program or machine file: it runs
`ppr bcsr` again on every stored matrix.  This script judges a changed
*formula*: it predicts each stored matrix once (ppr bcsr --format json,
with MACHINE), keeps every shape's terms (core_cycles, compute_cycles,
memory_instr_cycles, t_regular_cycles, t_irregular_cycles,
stall_cycles), and picks again under each variant asked for:

  T = max(core, compute, M + R - h * min(M, R)) + stall
      M = memory_instr_cycles * f(shape), core and compute * f(shape),
      R = t_regular_cycles + t_irregular_cycles

which is eq. (4) as model/bcsr_select.c evaluates it with the machine's
bcsr_hidden_share h (model/ppr.c, overlap off).  The first line printed
is that formula at the machine's own h with no factors; it must agree
with ppr's own picks (printed beside it: "ppr"), or the replica is
stale.  Shapes whose block rows hold long rows are evaluated by ppr in
two parts; the replica adds them as one, so a few such shapes differ by
up to about 5% (the agreement line shows whether a pick moved).

  MACHINE=m.json python3 bench/rescore_forms.py DIR [DIR ...] \
      [--hidden 0.6,0.8] [--scale 1x1=0.95] [--scale 3x1=1.08,4x1=1.08]

DIR: directories of bench/predict_bcsr.sh (BCSR_JSON_DIR).  MACHINE may
be a comma-separated list, one file per DIR (each pass with its own
refreshed machine file).  Prints, per variant, each directory's least
and mean share of the measured best and how many matrices reach 0.95,
then the whole set's.
"""
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def usage(msg=None):
    if msg:
        sys.stderr.write("rescore_forms: %s\n" % msg)
    sys.stderr.write("usage: MACHINE=file[,file...] python3 bench/rescore_forms.py "
                     "DIR [DIR ...] [--hidden H,...] [--scale RxC=F,...]\n")
    sys.exit(2)


def parse_args(argv):
    dirs, hidden, scales = [], [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--hidden", "--scale"):
            if i + 1 >= len(argv):
                usage("%s needs a value" % a)
            v = argv[i + 1]
            if a == "--hidden":
                try:
                    hs = [float(x) for x in v.split(",")]
                except ValueError:
                    usage("--hidden: not a number in '%s'" % v)
                if any(not 0 <= h <= 1 for h in hs):
                    usage("--hidden: shares are 0..1")
                hidden.extend(hs)
            else:
                fac = {}
                for item in v.split(","):
                    shape, _, f = item.partition("=")
                    try:
                        fac[shape] = float(f)
                    except ValueError:
                        usage("--scale: expected RxC=F, got '%s'" % item)
                    if not re.fullmatch(r"[1-8]x[1-8]", shape) or fac[shape] <= 0:
                        usage("--scale: expected RxC=F (R, C in 1..8, F > 0), got '%s'"
                              % item)
                scales.append(fac)
            i += 2
        elif a.startswith("-"):
            usage("unknown option %s" % a)
        else:
            dirs.append(a)
            i += 1
    if not dirs:
        usage("no directory of stored measurements given")
    return dirs, hidden, scales


def predict(ppr, machine, stored):
    """ppr bcsr's prediction of each stored matrix: {name: (pred, measured)}"""
    out = {}
    for f in sorted(glob.glob(os.path.join(stored, "*.json"))):
        if f.endswith(".2.json"):
            continue
        name = os.path.basename(f)[:-5]
        d = json.load(open(f))
        g = {s["shape"]: s.get("measured_gflops", 0) for s in d["shapes"]}
        if not g or max(g.values()) <= 0:
            continue
        r = subprocess.run([ppr, "bcsr", "--machine", machine, "--format",
                            "json", d["matrix"]], capture_output=True,
                           text=True)
        if r.returncode:
            err = r.stderr.strip().splitlines()
            print("%s: predict failed: %s" % (name, err[-1] if err else r.returncode))
            continue
        out[name] = (json.loads(r.stdout), g)
    return out


def cycles(s, h, fac):
    f = fac.get(s["shape"], 1.0)
    core = s["core_cycles"] * f
    comp = s["compute_cycles"] * f
    mem = s["memory_instr_cycles"] * f
    reg = s["t_regular_cycles"] + s["t_irregular_cycles"]
    return max(core, comp, mem + reg - h * min(mem, reg)) + s["stall_cycles"]


def score(data, pick_of):
    shares = []
    for name, (pred, g) in data.items():
        p = pick_of(pred)
        shares.append(g.get(p, 0) / max(g.values()))
    return shares


def line(label, per_dir):
    parts, allv = [], []
    for d, v in per_dir:
        allv += v
        parts.append("%s %.3f/%.4f/%d" % (os.path.basename(d.rstrip("/")), min(v),
                                          sum(v) / len(v), sum(x >= 0.95 for x in v)))
    print("%-28s %s | all: min %.3f mean %.4f, %d of %d at 0.95" %
          (label, "  ".join(parts), min(allv), sum(allv) / len(allv),
           sum(x >= 0.95 for x in allv), len(allv)))


def main():
    dirs, hidden, scales = parse_args(sys.argv[1:])
    machines = os.environ.get("MACHINE", "")
    if not machines:
        usage("MACHINE not set")
    machines = machines.split(",")
    if len(machines) not in (1, len(dirs)):
        usage("MACHINE: one file, or one per directory")
    if len(machines) == 1:
        machines = machines * len(dirs)
    ppr = os.environ.get("PPR", os.path.join(ROOT, os.environ.get("BUILD", "build"), "ppr"))
    if not os.access(ppr, os.X_OK):
        usage("no ppr at %s (build it, or set PPR)" % ppr)
    data = []
    for d, m in zip(dirs, machines):
        if not os.path.isdir(d):
            usage("%s is not a directory" % d)
        try:
            mj = json.load(open(m))
        except (OSError, ValueError) as e:
            usage("MACHINE %s: %s" % (m, e))
        h = mj.get("hierarchy", {}).get("bcsr_hidden_share", 0)
        data.append((d, predict(ppr, m, d), h))
        if not data[-1][1]:
            sys.exit("rescore_forms: no matrix scored in %s" % d)

    def by_formula(hh, fac):
        def pick(pred):
            c = {s["shape"]: cycles(s, hh, fac) for s in pred["shapes"]}
            return min(c, key=c.get)
        return pick

    line("ppr", [(d, score(dd, lambda p: p["pick"])) for d, dd, h in data])
    line("replica (each file's h)", [(d, score(dd, by_formula(h, {}))) for d, dd, h in data])
    for hh in hidden:
        line("h=%g" % hh, [(d, score(dd, by_formula(hh, {}))) for d, dd, h in data])
    for fac in scales:
        label = ",".join("%s*%g" % kv for kv in sorted(fac.items()))
        line(label, [(d, score(dd, by_formula(h, fac))) for d, dd, h in data])


if __name__ == "__main__":
    main()
