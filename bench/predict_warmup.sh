#!/bin/sh
# predict_warmup.sh - how a CSR SpMV's measured time moves with the
# untimed runs before it, beside `ppr predict`'s steady state.
#
# The model predicts repeated SpMVs with the loop exits learned as far as
# the machine's branch.learned_exit_changes lets them be (model/predict.c).
# The branch predictor learns a matrix's sequence of row lengths over
# runs, not within one: on the Zen 4 guest (2026-11-27) de2010 ran
# 139-190 us a SpMV after 1 untimed run and 56-60 us after 20 or more,
# vt2010 279 us after 1, 254 after 100, 226 after 1000, and small
# matrices (bcspwr10) the same after 1 as after 1000.  So "steady state"
# depends on how many SpMVs a program runs; this prints the curve.
#
# For each matrix (MATRICES, default below) and each warm-up count
# (WARMUPS, default "1 5 20 50 200 1000"): `ppr measure --kernel spmv-csr
# --reps REPS --warmup W`, ROUNDS rounds (default 2) one after the other,
# each cell's least median kept (the host's other tenants only slow runs
# down).  Columns: the median time per warm-up count in us; then the
# prediction, its exit changes per run and the mispredicted ones (JSON
# phases branch_events, branch_misses), and the cycles per change the
# measured curve gives between the first and the last warm-up count.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-genoa.json}
MED=$ROOT/../shared/matrices/medium
REPS=${REPS:-10}
ROUNDS=${ROUNDS:-2}
WARMUPS=${WARMUPS:-"1 5 20 50 200 1000"}
MATRICES=${MATRICES:-"bcspwr10.mtx de2010.mtx vt2010.mtx nh2010.mtx delaunay_n16.mtx.gz"}
if [ ! -d "$MED" ]; then
	echo "predict_warmup.sh: skipped: $MED is absent (../shared beside the project root)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
ghz=$(sed -n 's/^[[:space:]]*"clock_ghz":[[:space:]]*\([0-9.]*\).*/\1/p' "$MACHINE" | head -n 1)
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	r=$((r + 1))
	for m in $MATRICES; do
		for w in $WARMUPS; do
			t=$("$PPR" measure --kernel spmv-csr --reps "$REPS" --warmup "$w" "$MED/$m" 2>/dev/null |
				sed -n 's/^time *min [0-9.e+-]* s, median \([0-9.e+-]*\) s.*/\1/p')
			[ -n "$t" ] && printf '%s\t%s\t%s\n' "$m" "$w" "$t" >> "$tmp/raw"
		done
	done
done
for m in $MATRICES; do
	"$PPR" predict --machine "$MACHINE" --kernel spmv-csr --no-advice \
		--format json "$MED/$m" 2>/dev/null | tr -d ' \t' > "$tmp/p.json"
	pt=$(sed -n 's/^"time_s":\([0-9.e+-]*\),*$/\1/p' "$tmp/p.json" | head -n 1)
	ch=$(sed -n 's/^"branch_events":\([0-9.e+-]*\),*$/\1/p' "$tmp/p.json" | head -n 1)
	bm=$(sed -n 's/^"branch_misses":\([0-9.e+-]*\),*$/\1/p' "$tmp/p.json" | head -n 1)
	printf '%s\t%s\t%s\t%s\n' "$m" "${pt:-0}" "${ch:-0}" "${bm:-0}" >> "$tmp/pred"
done
python3 - "$tmp/raw" "$tmp/pred" "$ghz" "$WARMUPS" "$MACHINE" <<'PY'
import sys
raw, pred, ghz, warm, machine = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4].split(), sys.argv[5]
best = {}
for ln in open(raw):
    m, w, t = ln.split("\t")
    k = (m, w)
    best[k] = min(best.get(k, 1e99), float(t))
print("CSR SpMV median time (us) by untimed runs before it (least of the rounds);")
print("predicted with %s (%.3f GHz)" % (machine, ghz))
hdr = "%-22s" % "matrix" + "".join("%9s" % ("w=" + w) for w in warm)
print(hdr + "%10s %9s %9s %11s" % ("predicted", "changes", "mispred", "cy/change"))
for ln in open(pred):
    m, pt, ch, bm = ln.rstrip("\n").split("\t")
    pt, ch, bm = float(pt), float(ch), float(bm)
    row = "%-22s" % m[:22]
    ts = [best.get((m, w)) for w in warm]
    row += "".join("%9.1f" % (t * 1e6) if t else "%9s" % "-" for t in ts)
    gain = ""
    if ts[0] and ts[-1] and ch > 0:
        gain = "%11.1f" % ((ts[0] - ts[-1]) * ghz * 1e9 / ch)
    print(row + "%10.1f %9.0f %9.0f %s" % (pt * 1e6, ch, bm, gain))
print("cy/change: (time after the first count - after the last) in core cycles")
print("per exit change of one run: what the runs between them learned.")
PY
