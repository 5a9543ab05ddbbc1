#!/bin/sh
# predict_spmv.sh - CSR SpMV time, predicted (PPR, ECM, Roofline) vs
# measured (`ppr measure`, median of REPS warm runs of the kernel's
# fastest code placement, kernels/README.md, after its default warm-up of
# up to 500 runs, which the branch predictor needs to learn the exits of
# some matrices: bench/predict_warmup.sh; WARMUP=1 measures as before
# 2026-11-27, bench/measure_rounds.sh; the least of ROUNDS
# such medians, default 3, since on a shared machine a neighbour only
# slows a round) on the medium matrices and a few generated ones; errors
# side by side, median absolute error and the worst per model.
# The rounds go over the whole list in turn, so a matrix's rounds lie
# minutes apart: this guest's speed moves by up to 2x for minutes at a
# time (Pd's median 6.3 to 15.6 us), presumably with the load on its
# core's sibling.  MEASURED=file keeps every round's figure (matrix <tab>
# seconds) and the least over the file is used, so model changes can be
# scored against the same measurements and more rounds added later;
# ROUNDS=0 measures nothing new (MACHINE=file then scores a machine file
# of your own against them; KEEP_MACHINE=file keeps the machine file the
# predictions used, refreshed for this host, for that).  Each round
# keeps both the median and the least of its REPS runs (matrix <tab>
# median <tab> min; older files have the median only); STAT=min scores
# against the least run instead of the median: on a shared guest the
# noise is one-sided (a neighbour only slows a run), so the least run is
# the estimate of the machine's own speed, which is what the model
# predicts.  Before each matrix a speed probe waits out slow spells
# (bench/measure_rounds.sh; PROBE=0: none, PROBE_SLOW: the factor,
# default 1.3): a run without it measured every cache-resident matrix
# 25-34% slow in all three rounds (2026-11-27).
# VALIDATION=file writes the machine file the predictions used with a
# "validation" section added (machines/README.md): every matrix scored,
# its PPR error summarised over all of them and split by the share of the
# predicted time that is mispredicted loop exits (at least EXIT_SHARE,
# default 0.5, or less), which `ppr predict` then reports beside its
# figure.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MED=$ROOT/../shared/matrices/medium
REPS=${REPS:-10}
ROUNDS=${ROUNDS:-3}
STAT=${STAT:-median}
case $STAT in median) col=2 ;; min) col=3 ;; *) echo "STAT: median or min" >&2; exit 2 ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# the machine file refreshed on the CPU the first round measures on
# (bench/speed_probe.sh; measure_rounds looks again, and each round's
# refresh, machine_refresh_best, runs on the CPU that round measured on)
. "$ROOT/bench/speed_probe.sh"
[ "${PROBE:-1}" = 1 ] && speed_pick_cpu
. "$ROOT/bench/machine_here.sh"
machine_here "$tmp"
list="gen:laplace3d:n=60 gen:fem3d:n=24,dof=3 gen:rmat:scale=18"
# SPMV_RANDOM=1 adds the matrices of bench/random_matrices.txt (random
# columns, whose x no prefetcher finds: the far references of
# model/predict.c; and the rmat series); their rows follow the others and
# have their own summary.
RANDOM_LIST=$(grep -v '^#' "$ROOT/bench/random_matrices.txt")
[ -d "$MED" ] && for f in "$MED"/*; do
	case $f in *.mtx|*.mtx.gz|*.rb|*.rua|*.rsa|*.psa|*.rra) list="$list $f" ;; esac
done
nbase=$(echo $list | wc -w)
# SPMV_BIG=1 (default) adds the generated matrices over the L3 that
# bench/predict_bcsr.sh selects BCSR shapes for (the issue's "same
# matrices"), with their own summary; SPMV_BIG=0 leaves them out.
BIG_LIST="gen:fem3d:n=40,dof=2 gen:fem3d:n=36,dof=3 gen:laplace3d:n=120 gen:rmat:scale=20,edge_factor=8"
[ "${SPMV_BIG:-1}" = 1 ] && list="$list $BIG_LIST"
nbig=$(echo $list | wc -w)
[ "${SPMV_RANDOM:-0}" = 1 ] && list="$list $(echo $RANDOM_LIST)"
echo "load: $(uptime | sed 's/.*load average: //'); scored against each round's $STAT"
raw=${MEASURED:-$tmp/raw}
. "$ROOT/bench/measure_rounds.sh"
# after each round the machine file is refreshed again and each figure
# keeps its faster reading (bench/machine_here.sh), as the scoring keeps
# the least of the rounds' measurements
ROUND_HOOK=machine_refresh_best
# shellcheck disable=SC2086
measure_rounds "$raw" $list
printf '%-30s %11s %11s %8s %8s %8s\n' matrix "measured s" "PPR s" "PPR err" \
	"ECM err" "Roof err"
i=0
for mtx in $list; do
	i=$((i + 1))
	errf=$tmp/err
	[ "$i" -gt "$nbase" ] && errf=$tmp/err_big
	[ "$i" -gt "$nbig" ] && errf=$tmp/err_random
	name=$(basename "$mtx")
	"$PPR" predict --machine "$MACHINE" --kernel spmv-csr --no-advice \
		--format json "$mtx" 2>/dev/null | tr -d ' \t\n' > "$tmp/p" || {
		echo "$name: predict failed"; continue; }
	meas=$([ -f "$raw" ] && awk -F '\t' -v n="$mtx" -v c="$col" '$1 == n && $c != "" { print $c }' "$raw" |
		sort -g | head -n 1)
	[ -n "$meas" ] || { echo "$name: measure failed"; continue; }
	set -- $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
ph = d["phases"]
r = (d.get("expected_error") or {}).get("time_range_s") or {}
print(d["time_s"], d["ecm"]["time_s"], d["flops"], d["roofline"]["gflops"],
      ph.get("branch_stalls", 0) / ph["total"] if ph["total"] > 0 else 0,
      r.get("low", "-"), r.get("high", "-"))' "$tmp/p")
	ppr=$1 ecm=$2 flops=$3 rgf=$4 bshare=$5
	# the measured time the machine file's own validation expects
	# (`ppr predict`'s time_range_s): whether this measurement is in it
	[ "$6" != - ] && printf '%s\t%s\t%s\t%s\n' "$name" "$meas" "$6" "$7" >> "$tmp/range"
	awk -v n="$name" -v m="$meas" -v p="$ppr" -v b="$bshare" \
		'BEGIN { printf "%s\t%.6g\t%.6g\n", n, p / m - 1, b }' >> "$tmp/val"
	awk -v n="$name" -v m="$meas" -v p="$ppr" -v e="$ecm" -v f="$flops" -v r="$rgf" 'BEGIN {
		rt = f / (r * 1e9);
		printf "%-30s %11.4g %11.4g %+7.1f%% %+7.1f%% %+7.1f%%\n", n, m, p,
			100 * (p / m - 1), 100 * (e / m - 1), 100 * (rt / m - 1) }'
	awk -v m="$meas" -v p="$ppr" -v e="$ecm" -v f="$flops" -v r="$rgf" 'BEGIN {
		rt = f / (r * 1e9); a = p / m - 1; b = e / m - 1; c = rt / m - 1;
		if (a < 0) a = -a; if (b < 0) b = -b; if (c < 0) c = -c;
		print a, b, c }' >> "$errf"
done
echo "load: $(uptime | sed 's/.*load average: //')"
machine_keep
summary() {
	for col in 1 2 3; do
		sort -g -k$col,$col "$1" | awk -v c=$col -v name="$(echo PPR ECM Roofline | cut -d' ' -f$col)" -v what="$2" '
			{ v[NR] = $c; if ($c > mx) mx = $c }
			END { med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
			      printf "%-8s median |error| %.1f%%, worst %.1f%% (%d %s)\n", name, 100 * med, 100 * mx, NR, what }'
	done
}
[ -s "$tmp/err" ] && summary "$tmp/err" matrices
[ -s "$tmp/err_big" ] && summary "$tmp/err_big" "matrices over the L3"
[ -s "$tmp/err_random" ] && summary "$tmp/err_random" "random-column matrices"
# an out-of-sample check of the validation the file already carries: the
# range `ppr predict` gives (its group's extreme errors) against these
# measurements
[ -s "$tmp/range" ] && awk -F '\t' '
	{ n++; if ($2 < $3) { lo++; l = l " " $1 } else if ($2 > $4) { hi++; h = h " " $1 } }
	END { printf "measured within the time range of the file'"'"'s validation: %d of %d " \
		"(faster than it: %d%s; slower: %d%s)\n", n - lo - hi, n, lo, l, hi, h }' "$tmp/range"
if [ -n "${VALIDATION:-}" ] && [ -s "$tmp/val" ]; then
	python3 - "$MACHINE" "$tmp/val" "$VALIDATION" "${EXIT_SHARE:-0.5}" \
		"$(date -u '+%Y-%m-%d %H:%M UTC')" \
		"SPMV_RANDOM=${SPMV_RANDOM:-0} SPMV_BIG=${SPMV_BIG:-1} STAT=$STAT sh bench/predict_spmv.sh" <<'PY' || exit 1
import json, math, sys
base, rows, out, cut, date, cmd = sys.argv[1:7]
cut = float(cut)
r = []
for line in open(rows):
    n, e, b = line.rstrip("\n").split("\t")
    r.append((n, float(e), float(b)))
def group(g):
    a = sorted(abs(e) for _, e, _ in g)
    k = len(a)
    med = a[k // 2] if k % 2 else (a[k // 2 - 1] + a[k // 2]) / 2
    lo = min(g, key=lambda x: x[1])
    hi = max(g, key=lambda x: x[1])
    return {"matrices": k, "median_abs_error": round(med, 4),
            "p90_abs_error": round(a[math.ceil(0.9 * k) - 1], 4),
            "min_error": round(lo[1], 4), "min_matrix": lo[0],
            "max_error": round(hi[1], 4), "max_matrix": hi[0]}
v = {"date": date, "command": cmd, "exit_share": cut, "all": group(r)}
ex = [x for x in r if x[2] >= cut]
rest = [x for x in r if x[2] < cut]
if ex:
    v["exits"] = group(ex)
if rest:
    v["rest"] = group(rest)
m = json.load(open(base))
m.setdefault("validation", {})["spmv_csr"] = v  # other members kept
with open(out, "w") as f:
    json.dump(m, f, indent=2)
    f.write("\n")
print("validation written to %s: %d matrices, median |error| %.1f%%, "
      "%d with at least %.0f%% mispredicted loop exits" %
      (out, len(r), 100 * v["all"]["median_abs_error"], len(ex), 100 * cut))
PY
fi
exit 0
