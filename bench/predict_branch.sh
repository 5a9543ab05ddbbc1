#!/bin/sh
# predict_branch.sh - the CSR loop-exit figures of model/predict.h
# (MODEL_CSR_EXIT_MISS_CYCLES, MODEL_BRANCH_LEARN_ROWS), measured: CSR
# SpMV on N rows of random length 1..9 (fixed seed) against N rows of
# constant length 5, columns within 512 so x stays in L1.  The extra
# cycles per row of the random rows, divided by their exit changes per row
# (model_spmv_csr_exit_changes: pair count or parity differs from the
# previous row, 1.44 per row for uniform 1..9), is the cost of one
# mispredicted exit; the N where the extra cost appears is how many rows
# of exits the predictor learns over repeated runs.
# Figures: median and min of REPS warm runs (`ppr measure`), wall time.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
REPS=${REPS:-50}
SIZES=${SIZES:-"4000 8000 12000 14000 16000 20000 32000 64000 128000"}
ghz=$(sed -n 's/^ *"clock_ghz": *\([0-9.]*\).*/\1/p' "$MACHINE" | head -n 1)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
gen() { # rows kind(r|c) file
	awk -v n="$1" -v k="$2" 'BEGIN {
		srand(12345); nnz = 0
		for (i = 0; i < n; i++) { l[i] = (k == "r") ? 1 + int(rand() * 9) : 5; nnz += l[i] }
		print "%%MatrixMarket matrix coordinate real general"
		print n, 512, nnz
		for (i = 0; i < n; i++)
			for (t = 0; t < l[i]; t++)
				print i + 1, (i * 3 + t * 37) % 512 + 1, 1.5 }' > "$3"
}
meas() {
	"$PPR" measure --kernel spmv-csr --reps "$REPS" "$1" 2>/dev/null |
		sed -n 's/^time *min \([0-9.e+-]*\) s, median \([0-9.e+-]*\) s.*/\1 \2/p'
}
printf 'clock %s GHz, %s reps per point\n' "$ghz" "$REPS"
printf '%8s %9s %12s %12s %14s\n' rows changes "extra cy/row" "(min runs)" "cy per change"
for n in $SIZES; do
	gen "$n" r "$tmp/r.mtx"
	gen "$n" c "$tmp/c.mtx"
	ch=$("$PPR" predict --machine "$MACHINE" --kernel spmv-csr --cold \
		--no-advice --format json "$tmp/r.mtx" 2>/dev/null |
		sed -n 's/^[	 ]*"branch_events":[	 ]*\([0-9.e+]*\),*$/\1/p')
	set -- $(meas "$tmp/r.mtx") $(meas "$tmp/c.mtx")
	awk -v n="$n" -v ch="$ch" -v g="$ghz" -v rmin="$1" -v rmed="$2" \
		-v cmin="$3" -v cmed="$4" 'BEGIN {
		e = (rmed - cmed) * g * 1e9 / n; em = (rmin - cmin) * g * 1e9 / n
		printf "%8d %9d %12.2f %12.2f %14.2f\n", n, ch, e, em, e * n / ch }'
done
