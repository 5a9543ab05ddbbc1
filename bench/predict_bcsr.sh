#!/bin/sh
# predict_bcsr.sh - BCSR shape selection, measured: for every matrix in
# ../shared/matrices/medium and generated matrices larger than the L3,
# `ppr bcsr --measure`: the pick, the measured best, the share of the
# best the pick reaches, and the prediction's cost in CSR SpMV
# equivalents.  Summary: min and mean share, mean cost.
#
#   PPR=./ppr MACHINE=machines/zen4-epyc.json sh bench/predict_bcsr.sh
#   BCSR_BIG=0 skips the generated matrices over the L3 (minutes each);
#   BCSR_MED=0 skips the medium ones, BCSR_ONLY='glob' keeps the medium
#   ones whose file name matches; BCSR_JSON_DIR=dir keeps each
#   matrix's JSON there, KEEP_MACHINE=file the machine file refreshed
#   for this host (together: bench/rescore_bcsr.sh scores a changed
#   model or machine file against the same measurements, and
#   bench/rescore_forms.py other ways of combining the terms).  The
#   in-core schedules of the 64 kernels are computed once per machine
#   and executable (cached, see model/bcsr_select.c) before the loop;
#   their one-time cost is printed
#   apart.  "moved": ppr bcsr's CSR time before and after the 64 shapes
#   differ by over 20% (speed_moved), so that matrix's shares are suspect.
#   Measured figures: least thread CPU time per SpMV over
#   ROUNDS rounds x REPS samples (ppr bcsr --measure), the samples spread
#   over the kernels' four code placements, the fastest kept
#   (kernels/README.md).
#   Slow spells: before a matrix, a probe slower than 1.4x the least probe
#   so far waits 20 s and probes again (at most 3 times); a matrix whose
#   run is "moved" is measured again, at most BCSR_RETRY times (default
#   2), the last run kept ("runs" column).
#   "cost3": the median cost of three fresh processes, this run's and
#   two predict-only runs of `ppr bcsr` after it (a fresh process's cost
#   on the smallest matrices, whose SpMV takes 3-10 us, moves by up to
#   2.5x between runs: page faults, the other tenants; the summary gives
#   the mean of both).
#   BCSR_TWICE=1 measures every matrix again in a second process: "2nd"
#   is the pick's share of the best in that run, and "re-meas" the share
#   that the first run's measured best reaches in the second run, i.e.
#   how well a measurement predicts another measurement on this machine,
#   the ceiling for any model of it.
#   VALIDATION=file writes the machine file the picks were predicted
#   with plus the "validation" section's bcsr_pick from this pass
#   (bench/bcsr_validation.py; machines/README.md), which `ppr bcsr`
#   then reports as its "trust" line.
#   When the machine file already carries a bcsr_pick validation (an
#   earlier pass's), the summary ends with an out-of-sample check of it:
#   its least and mean share beside this pass's, and the matrices where
#   the pick fell below its least.
#   "close" is what `ppr bcsr --measure-close` would choose: the fastest
#   measured of the pick and the shapes predicted within its margin ("nc"
#   shapes in all), as a share of the best; with BCSR_TWICE=1, "close2"
#   is the 1st run's choice judged by the 2nd run's measurements (a
#   choice and its judge from different measurements).
#   "csr GF": the CSR kernel measured (ppr bcsr --vs-csr, its least time);
#   "adv": what --vs-csr advises, the pick (bcsr) or keeping CSR, and
#   "adv%": the advised kernel's share of the best of CSR and the 64
#   shapes; the summary sets it beside converting to the pick always.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MED=$ROOT/../shared/matrices/medium
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# measure on the fastest CPU (ppr bcsr --cpu; a slow probe looks again),
# the machine file refreshed on it too (bench/machine_here.sh)
. "$ROOT/bench/speed_probe.sh"
speed_pick_cpu
. "$ROOT/bench/machine_here.sh"
machine_here "$tmp"
if [ -n "$BCSR_JSON_DIR" ]; then
	mkdir -p "$BCSR_JSON_DIR" || exit 1
fi

list=""
if [ "${BCSR_MED:-1}" = 0 ]; then
	:
elif [ -d "$MED" ]; then
	for f in "$MED"/*; do
		case $f in *.mtx|*.mtx.gz|*.rb|*.rua|*.rsa|*.psa|*.rra) ;; *) continue ;; esac
		# shellcheck disable=SC2254
		case ${f##*/} in ${BCSR_ONLY:-*}) list="$list $f" ;; esac
	done
else
	echo "(../shared/matrices/medium absent: generated matrices only)"
fi
if [ "${BCSR_BIG:-1}" = 1 ]; then
	# over the L3 of the machines shipped (32 MiB): >= 3 over 5e6 nonzeros
	list="$list gen:fem3d:n=40,dof=2 gen:fem3d:n=36,dof=3 gen:laplace3d:n=120 gen:rmat:scale=20,edge_factor=8"
fi
"$PPR" bcsr --machine "$MACHINE" --reps 1 --format json gen:laplace2d:n=8 \
	> "$tmp/w.json" 2> /dev/null &&
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print("in-core schedules: %s (%.3f s)" % ("already cached" if d["incore_cached"]
      else "computed and cached", d["prediction_wall_s"]))' "$tmp/w.json"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# the machine's speed before each matrix (bench/speed_probe.sh: shared
# guests have slow spells of minutes in which short-row kernels run up to
# 2x slower, and some shapes more than others); the CPU picked above
[ -n "$SPEED_CPU" ] && echo "measuring on CPU $SPEED_CPU, the fastest probe ($SPEED_PROBE us)"
RETRY=${BCSR_RETRY:-2}
# each matrix's JSON: BCSR_JSON_DIR, else kept for the validation in tmp
jdir=${BCSR_JSON_DIR:-$tmp/json}
mkdir -p "$jdir" || exit 1
TWICE=${BCSR_TWICE:-0}
printf '%-34s %9s %5s %6s %9s %9s %6s %7s %7s %8s %5s %4s' matrix nnz pick best \
	"pick GF" "best GF" share cost cost3 "probe us" moved runs
printf ' %6s %3s %8s %4s %6s %6s %6s' close nc "csr GF" adv adv% paired pbest
[ "$TWICE" = 1 ] && printf ' %6s %7s %6s' 2nd re-meas close2
echo
# measure: run ppr bcsr --measure on $1 into $2, again while "moved"
# (at most RETRY more times); sets runs
measure() {
	runs=0
	while :; do
		runs=$((runs + 1))
		"$PPR" bcsr --machine "$MACHINE" --measure --reps "$REPS" \
			--rounds "$ROUNDS" ${SPEED_CPU:+--cpu "$SPEED_CPU"} --vs-csr \
			--format json "$1" > "$2" 2> "$tmp/e" ||
			return 1
		grep -q '"speed_moved":[[:space:]]*true' "$2" || return 0
		[ "$runs" -gt "$RETRY" ] && return 0
	done
}
for mtx in $list; do
	name=$(basename "$mtx")
	speed_wait 1.4 20
	if ! measure "$mtx" "$tmp/o.json"; then
		echo "$name: FAILED: $(tail -n 1 "$tmp/e")"
		continue
	fi
	cp "$tmp/o.json" "$jdir/$name.json"
	runs1=$runs
	if [ "$TWICE" = 1 ]; then
		if ! measure "$mtx" "$tmp/o2.json"; then
			echo "$name: FAILED (2nd run): $(tail -n 1 "$tmp/e")"
			continue
		fi
		cp "$tmp/o2.json" "$jdir/$name.2.json"
	else
		: > "$tmp/o2.json"
	fi
	# two more fresh processes, predict only, for the cost's median
	for t in 1 2; do
		"$PPR" bcsr --machine "$MACHINE" --reps "$REPS" --format json \
			${SPEED_CPU:+--cpu "$SPEED_CPU"} \
			"$mtx" > "$tmp/p$t.json" 2> /dev/null || : > "$tmp/p$t.json"
	done
	cost3=$(python3 -c 'import json,sys
c=[]
for f in sys.argv[1:]:
    try: c.append(json.load(open(f))["cost_spmv_equivalents"])
    except Exception: pass
c.sort()
print(c[len(c) // 2] if c else 0)' "$tmp/o.json" "$tmp/p1.json" "$tmp/p2.json")
	set -- $(python3 -c 'import json,os,sys
d=json.load(open(sys.argv[1]))
g={s["shape"]: s["measured_gflops"] for s in d["shapes"]}
c=d["candidates"]
r=[d["pick"], d["measured_best"], d["share_of_best"],
   d["cost_spmv_equivalents"], d["nnz"], g[d["pick"]], g[d["measured_best"]],
   "yes" if d.get("speed_moved") else "no", c["choice_share_of_best"],
   len(c["shapes"])]
k=d["csr_kernel"]
top=max(max(g.values()), k["measured_gflops"])
adv=g[d["pick"]] if k["advice"] == "bcsr" else k["measured_gflops"]
r += [k["measured_gflops"], k["advice"], adv / top, g[d["pick"]] / top]
p=d.get("paired") or {"share_of_best": d["share_of_best"], "measured_best": d["measured_best"]}
r += [p["share_of_best"], p["measured_best"]]
if os.path.getsize(sys.argv[2]):
    e=json.load(open(sys.argv[2]))
    h={s["shape"]: s["measured_gflops"] for s in e["shapes"]}
    b=max(h.values())
    r += [h[d["pick"]] / b, h[d["measured_best"]] / b, h[c["choice"]] / b]
print(*r)' "$tmp/o.json" "$tmp/o2.json")
	pick=$1 best=$2 share=$3 cost=$4 nnz=$5 pg=$6 bg=$7 mv=$8 cl=$9 nc=${10}
	cg=${11} adv=${12} advs=${13} picks=${14} psh=${15} pbest=${16}
	shift 16
	printf '%-34s %9.0f %5s %6s %9.3f %9.3f %6.3f %7.1f %7.1f %8s %5s %4s %6.3f %3d %8.3f %4s %6.3f %6.3f %6s' "$name" "$nnz" \
		"$pick" "$best" "$pg" "$bg" "$share" "$cost" "$cost3" "$SPEED_PROBE" "$mv" "$runs1" "$cl" "$nc" \
		"$cg" "$adv" "$advs" "$psh" "$pbest"
	printf '%s\t%s\t%s\n' "$name" "$share" "$pick" >> "$tmp/shares"
	if [ "$TWICE" = 1 ]; then
		printf ' %6.3f %7.3f %6.3f\n' "$1" "$2" "$3"
		echo "$share $cost $1 $2 $cl $nc $3 $cost3 $advs $picks $psh" >> "$tmp/all"
	else
		echo
		echo "$share $cost 0 0 $cl $nc 0 $cost3 $advs $picks $psh" >> "$tmp/all"
	fi
done
machine_keep
if [ -n "${VALIDATION:-}" ]; then
	python3 "$ROOT/bench/bcsr_validation.py" "$jdir" "$MACHINE" "$VALIDATION" \
		"BCSR_BIG=${BCSR_BIG:-1} REPS=$REPS ROUNDS=$ROUNDS sh bench/predict_bcsr.sh" || exit 1
fi
if [ -s "$tmp/all" ]; then
	awk -v twice="$TWICE" '{ n++; s += $1; c += $2; if (n == 1 || $1 < m) m = $1;
	       if ($1 >= 0.95) k++
	       s2 += $3; if (n == 1 || $3 < m2) m2 = $3; if ($3 >= 0.95) k2++
	       s3 += $4; if (n == 1 || $4 < m3) m3 = $4; if ($4 >= 0.95) k3++
	       s5 += $5; if (n == 1 || $5 < m5) m5 = $5; if ($5 >= 0.95) k5++; nc += $6
	       s7 += $7; if (n == 1 || $7 < m7) m7 = $7; if ($7 >= 0.95) k7++; c3 += $8
	       s9 += $9; if (n == 1 || $9 < m9) m9 = $9; if ($9 >= 0.95) k9++
	       s10 += $10; if (n == 1 || $10 < m10) m10 = $10; if ($10 >= 0.95) k10++
	       s11 += $11; if (n == 1 || $11 < m11) m11 = $11; if ($11 >= 0.95) k11++ }
	     END { printf "load average after: '"$(cut -d' ' -f1-3 /proc/loadavg)"'\n";
		   printf "summary: %d matrices, share of best min %.3f mean %.3f, >= 0.95 on %d; mean cost %.1f SpMV equivalents (%.1f with each matrix'"'"'s median of 3 fresh runs)\n", n, m, s / n, k, c / n, c3 / n
		   printf "head to head (the 4 measured fastest and the pick again, side by side, median relative speed): the pick reaches min %.3f mean %.3f of the best, >= 0.95 on %d\n", m11, s11 / n, k11
		   printf "close choice (the fastest of the pick and the close shapes, %.1f shapes on average): min %.3f mean %.3f of the best, >= 0.95 on %d\n", nc / n, m5, s5 / n, k5
		   printf "CSR kernel beside the 64 shapes (--vs-csr): the advice (the pick or CSR) reaches min %.3f mean %.3f of the best of the 65, >= 0.95 on %d; the pick always: min %.3f mean %.3f, >= 0.95 on %d\n", m9, s9 / n, k9, m10, s10 / n, k10
		   if (twice == 1) {
			printf "2nd run: the pick reaches min %.3f mean %.3f of the best, >= 0.95 on %d\n", m2, s2 / n, k2
			printf "re-measurement: the 1st run'"'"'s measured best reaches min %.3f mean %.3f of the 2nd run'"'"'s best, >= 0.95 on %d\n", m3, s3 / n, k3
			printf "close choice of the 1st run in the 2nd: min %.3f mean %.3f of the best, >= 0.95 on %d\n", m7, s7 / n, k7
		   } }' "$tmp/all"
fi
# an out-of-sample check of the validation the machine file already
# carries (from an earlier pass): its figures beside this pass's, and the
# matrices where the pick fell below the least it gave
if [ -s "$tmp/shares" ]; then
	python3 - "$MACHINE" "$tmp/shares" <<'PY'
import json, sys
v = json.load(open(sys.argv[1])).get("validation", {}).get("bcsr_pick")
rows = [ln.rstrip("\n").split("\t") for ln in open(sys.argv[2])]
sh = [float(r[1]) for r in rows]
if v and sh:
    below = ["%s %.3f (%s)" % (r[0], float(r[1]), r[2]) for r in rows
             if float(r[1]) < v["min_share"]]
    print("against the file's validation (%s): it had the pick at least %.3f, mean %.3f, "
          ">= 0.95 on %d of %d; here %.3f, %.3f, %d of %d; below its least: %s"
          % (v["date"], v["min_share"], v["mean_share"], v["at_least_95"], v["matrices"],
             min(sh), sum(sh) / len(sh), sum(x >= 0.95 for x in sh), len(sh),
             "%d (%s)" % (len(below), ", ".join(below)) if below else "none"))
PY
fi
