#!/bin/sh
# predict_branch.sh - the CSR loop-exit figures of a machine file's
# "branch" section (loop_exit_miss_cycles, learned_exit_changes; defaults
# in machines/machine.h), measured: CSR SpMV on N rows of random length
# LO..HI (fixed seed; 1..9, then 10..18) against N rows of the constant
# mean length, columns within 512 so x stays in L1.  The extra cycles of
# the random rows divided by their exit changes
# (model_spmv_csr_exit_changes: pair count or parity differs from the
# previous row) is the cost of one mispredicted exit once nothing is
# learned; where the extra cost appears, and how it grows, against the
# exit changes of one run, is what the predictor learns over repeated
# runs (the last column: the model's cycles per change, to compare with
# the measured ones; the capacity is learned_exit_changes, less for rows
# of more pairs than learned_exit_trips, model/predict.c).
# LENGTHS="lo-hi ..." replaces the two ranges (long rows: "30-38 60-68");
# "a/b" is rows of a or b nonzeros at random (their reference rows: the
# mean).  PERIOD=P repeats the random rows' first P lengths through the
# run: what a history predictor keeps is the period, not the run
# (LENGTHS=0/6 PERIOD=10000 SIZES=100000 loses no exit on zen4-epyc,
# PERIOD=0 loses 23-24 cycles a change; the model follows it with the
# machine's branch.history_rows, model/predict.c).
# ROWS_FROM="a.mtx b.mtx.gz" (Matrix Market) adds rows whose
# lengths are those of the first SIZES rows of each matrix (symmetric
# ones expanded), e.g. the road graphs vt2010 and de2010, against rows of
# their rounded mean length.
# KERNEL=spmv-bcsr (BLOCK=1x1 default) measures BCSR's block-row exits on
# the same rows instead: one exit per block row, so fewer changes per row
# than CSR's (pair loop and parity test), lost at the same row counts
# (MODEL_BCSR_LEARNED_SHARE, model/predict.h).
# With the machine's branch.history_rows (machines/README.md) the model
# fills the capacity with the rows' distinct histories, not the changes:
# ROWS_FROM on structured matrices (Pd, rajat01: no exit lost at 7,000
# changes on xeon-gnr) against random rows shows why.
# COLS=C (default 512, x in L1) spreads the columns over C: over 512 they
# are a Park-Miller sequence, so x is gathered at random from a vector of
# 8C bytes (C=49152: 384 KiB, in L2; 1048576: 8 MiB, in L3), for the
# random and the constant rows alike: the extra cycles are then the
# exits' cost with the next row's gathers further away.
# Figures: median and min of REPS warm runs (`ppr measure`), wall time;
# the model column is `ppr predict`'s mispredicted exits of a warm run
# times loop_exit_miss_cycles, per change (each column per change of the
# kernel measured).
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
REPS=${REPS:-50}
SIZES=${SIZES:-"4000 8000 14000 16000 32000 64000"}
KERNEL=${KERNEL:-spmv-csr}
case $KERNEL in
spmv-csr) KARGS="--kernel spmv-csr" ;;
spmv-bcsr) KARGS="--kernel spmv-bcsr --block ${BLOCK:-1x1}" ;;
*) echo "predict_branch.sh: KERNEL is spmv-csr or spmv-bcsr, not '$KERNEL'" >&2; exit 2 ;;
esac
ghz=$(sed -n 's/^[[:space:]]*"clock_ghz":[[:space:]]*\([0-9.]*\).*/\1/p' "$MACHINE" | head -n 1)
miss=$(sed -n 's/^[[:space:]]*"loop_exit_miss_cycles":[[:space:]]*\([0-9.]*\).*/\1/p' "$MACHINE" | head -n 1)
learned=$(sed -n 's/^[[:space:]]*"learned_exit_changes":[[:space:]]*\([0-9.]*\).*/\1/p' "$MACHINE" | head -n 1)
trips=$(sed -n 's/^[[:space:]]*"learned_exit_trips":[[:space:]]*\([0-9.]*\).*/\1/p' "$MACHINE" | head -n 1)
hist=$(sed -n 's/^[[:space:]]*"history_rows":[[:space:]]*\([0-9.]*\).*/\1/p' "$MACHINE" | head -n 1)
miss=${miss:-25} learned=${learned:-10000} trips=${trips:-0} hist=${hist:-0}
COLS=${COLS:-512}
case $COLS in
''|*[!0-9]*) echo "predict_branch.sh: COLS is a count of columns, not '$COLS'" >&2; exit 2 ;;
esac
[ "$COLS" -ge 512 ] || { echo "predict_branch.sh: COLS is 512 or more, not $COLS" >&2; exit 2; }
# the column of nonzero t of row i: within 512, the pattern x in L1 was
# always measured with; else the next of a Park-Miller sequence (16807 x
# 2^31 fits a double exactly)
COLFN='function col(i, t) {
	if (cols <= 512) return (i * 3 + t * 37) % 512 + 1
	if (!pm) pm = 12345
	pm = (pm * 16807) % 2147483647
	return pm % cols + 1
}
'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
gen() { # rows lo hi kind(r|c) file [two: lo or hi at random]
	awk -v n="$1" -v lo="$2" -v hi="$3" -v k="$4" -v two="${6:-0}" \
		-v per="${PERIOD:-0}" -v cols="$COLS" "$COLFN"'BEGIN {
		srand(12345); nnz = 0
		for (i = 0; i < n; i++) {
			if (k != "r")
				l[i] = int((lo + hi) / 2)
			else if (per > 0 && i >= per)
				l[i] = l[i - per]
			else if (two)
				l[i] = rand() < 0.5 ? lo : hi
			else
				l[i] = lo + int(rand() * (hi - lo + 1))
			nnz += l[i]
		}
		print "%%MatrixMarket matrix coordinate real general"
		print n, cols, nnz
		for (i = 0; i < n; i++)
			for (t = 0; t < l[i]; t++)
				print i + 1, col(i, t), 1.5 }' > "$5"
}
# rows of a matrix's row lengths: rows src kind(r|c) file (src may be
# gzip-compressed, as the shipped medium/*.mtx.gz are)
genfrom() {
	case $2 in
	*.gz) gzip -dc "$2" ;;
	*) cat "$2" ;;
	esac | awk -v n="$1" -v k="$3" -v cols="$COLS" "$COLFN"'BEGIN { hdr = 1 }
		NR == 1 { sym = tolower($0) ~ /symmetric|hermitian/; next }
		/^%/ { next }
		hdr { rows = $1; hdr = 0; next }
		{ l[$1 - 1]++; if (sym && $1 != $2) l[$2 - 1]++ }
		END {
			if (n > rows) n = rows
			for (i = 0; i < n; i++) nnz += l[i]
			m = int(nnz / n + 0.5)
			if (k == "c") nnz = m * n
			print "%%MatrixMarket matrix coordinate real general"
			print n, cols, nnz
			for (i = 0; i < n; i++) {
				len = (k == "c") ? m : l[i]
				for (t = 0; t < len; t++)
					print i + 1, col(i, t), 1.5
			} }' > "$4"
}
meas() {
	# shellcheck disable=SC2086
	"$PPR" measure $KARGS --reps "$REPS" "$1" 2>/dev/null |
		sed -n 's/^time *min \([0-9.e+-]*\) s, median \([0-9.e+-]*\) s.*/\1 \2/p'
}
printf '%s: clock %s GHz, %s reps per point\n' "$KARGS" "$ghz" "$REPS"
printf 'loop_exit_miss_cycles %s, learned_exit_changes %s, learned_exit_trips %s, history_rows %s%s%s\n' "$miss" "$learned" "$trips" "$hist" \
	"$([ "${PERIOD:-0}" -gt 0 ] && echo ", random rows repeating every $PERIOD rows")" \
	"$([ "$COLS" -gt 512 ] && echo ", columns at random over $COLS")"
printf '%-7s %8s %9s %9s %12s %12s %14s %10s\n' lengths rows branches changes \
	"extra cy/row" "(min runs)" "cy per change" "model"
# a matrix's path may hold '-' (astro-ph.mtx): its entries are marked
# "file:" so that only LENGTHS are read as ranges
for len in ${LENGTHS:-1-9 10-18} $(for f in $ROWS_FROM; do echo "file:$f"; done); do
	case $len in
	file:*) ;;
	*/*) lo=${len%/*} hi=${len#*/} two=1 ;;
	*) lo=${len%-*} hi=${len#*-} two=0 ;;
	esac
	for n in $SIZES; do
		case $len in
		file:*) genfrom "$n" "${len#file:}" r "$tmp/r.mtx"
		   genfrom "$n" "${len#file:}" c "$tmp/c.mtx"
		   label=$(basename "${len#file:}" .gz)
		   label=${label%.mtx} ;;
		*) gen "$n" "$lo" "$hi" r "$tmp/r.mtx" "$two"
		   gen "$n" "$lo" "$hi" c "$tmp/c.mtx" "$two"; label=$len ;;
		esac
		# shellcheck disable=SC2086
		"$PPR" predict --machine "$MACHINE" $KARGS \
			--no-advice --format json "$tmp/r.mtx" 2>/dev/null |
			tr -d ' \t' > "$tmp/p.json"
		ch=$(sed -n 's/^"branch_events":\([0-9.e+]*\),*$/\1/p' "$tmp/p.json")
		br=$(sed -n 's/^"branches":\([0-9.e+]*\),*$/\1/p' "$tmp/p.json")
		bm=$(sed -n 's/^"branch_misses":\([0-9.e+-]*\),*$/\1/p' "$tmp/p.json")
		n=$(sed -n 2p "$tmp/r.mtx" | cut -d' ' -f1) # rows the matrix has
		# shellcheck disable=SC2046 # min and median: two words each
		set -- $(meas "$tmp/r.mtx") $(meas "$tmp/c.mtx")
		awk -v len="$label" -v n="$n" -v ch="$ch" -v br="${br:-0}" -v g="$ghz" \
			-v miss="$miss" -v bm="${bm:-0}" \
			-v rmin="$1" -v rmed="$2" -v cmin="$3" -v cmed="$4" 'BEGIN {
			e = (rmed - cmed) * g * 1e9 / n; em = (rmin - cmin) * g * 1e9 / n
			u = ch > 0 ? bm / ch : 0
			printf "%-7s %8d %9d %9d %12.2f %12.2f %14.2f %10.2f\n", len, n, br, ch, e, em, (ch > 0 ? e * n / ch : 0), u * miss }'
	done
done
