#!/bin/sh
# predict_bcsr.sh - BCSR shape selection, measured: for every matrix in
# ../shared/matrices/medium and generated matrices larger than the L3,
# `ppr bcsr --measure`: the pick, the measured best, the share of the
# best the pick reaches, and the prediction's cost in CSR SpMV
# equivalents.  Summary: min and mean share, mean cost.
#
#   PPR=./ppr MACHINE=machines/zen4-epyc.json sh bench/predict_bcsr.sh
#   BCSR_BIG=0 skips the generated matrices over the L3 (minutes each);
#   BCSR_MED=0 skips the medium ones; BCSR_JSON_DIR=dir keeps each
#   matrix's JSON there.  The in-core schedules of the 64
#   kernels are computed once per machine and executable (cached, see
#   model/bcsr_select.c) before the loop; their one-time cost is printed
#   apart.  "moved": ppr bcsr's CSR time before and after the 64 shapes
#   differ by over 20% (speed_moved), so that matrix's shares are suspect.
#   Measured figures: least thread CPU time per SpMV over
#   ROUNDS rounds x REPS samples (ppr bcsr --measure), the samples spread
#   over the kernels' four code placements, the fastest kept
#   (kernels/README.md).
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
MED=$ROOT/../shared/matrices/medium
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

list=""
if [ "${BCSR_MED:-1}" = 0 ]; then
	:
elif [ -d "$MED" ]; then
	for f in "$MED"/*; do
		case $f in *.mtx|*.mtx.gz|*.rb|*.rua|*.rsa|*.psa|*.rra) list="$list $f" ;; esac
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
# probe: the machine's speed before each matrix, as the median of a short
# CSR SpMV on rows of 2 nonzeros (shared guests have slow spells of
# minutes in which short-row kernels run up to 2x slower, and some shapes
# more than others: a matrix measured in one is not comparable)
probe() {
	"$PPR" measure --kernel spmv-csr --reps 20 --format csv \
		gen:random:n=8000,per_row=2,seed=1 2> /dev/null |
		awk -F, 'NR == 2 { printf "%.2f", $(NF - 5) * 1e6 }'
}
printf '%-34s %9s %5s %6s %9s %9s %6s %7s %8s %5s\n' matrix nnz pick best \
	"pick GF" "best GF" share cost "probe us" moved
for mtx in $list; do
	name=$(basename "$mtx")
	pr=$(probe)
	if ! "$PPR" bcsr --machine "$MACHINE" --measure --reps "$REPS" --rounds "$ROUNDS" \
		--format json "$mtx" > "$tmp/o.json" 2> "$tmp/e"; then
		echo "$name: FAILED: $(tail -n 1 "$tmp/e")"
		continue
	fi
	[ -n "$BCSR_JSON_DIR" ] && cp "$tmp/o.json" "$BCSR_JSON_DIR/$name.json"
	set -- $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
g={s["shape"]: s["measured_gflops"] for s in d["shapes"]}
print(d["pick"], d["measured_best"], d["share_of_best"],
      d["cost_spmv_equivalents"], d["nnz"], g[d["pick"]], g[d["measured_best"]],
      "yes" if d.get("speed_moved") else "no")' "$tmp/o.json")
	pick=$1 best=$2 share=$3 cost=$4 nnz=$5 pg=$6 bg=$7 mv=$8
	printf '%-34s %9.0f %5s %6s %9.3f %9.3f %6.3f %7.1f %8s %5s\n' "$name" "$nnz" \
		"$pick" "$best" "$pg" "$bg" "$share" "$cost" "$pr" "$mv"
	echo "$share $cost" >> "$tmp/all"
done
if [ -s "$tmp/all" ]; then
	awk '{ n++; s += $1; c += $2; if (n == 1 || $1 < m) m = $1;
	       if ($1 >= 0.95) k++ }
	     END { printf "load average after: '"$(cut -d' ' -f1-3 /proc/loadavg)"'\n";
		   printf "summary: %d matrices, share of best min %.3f mean %.3f, >= 0.95 on %d; mean cost %.1f SpMV equivalents\n", n, m, s / n, k, c / n }' "$tmp/all"
fi
