# measure_rounds.sh - sourced by bench/predict_spmv.sh and bench/fit_far.sh.
# measure_rounds FILE MATRIX...: ROUNDS rounds over the matrices in turn,
# each `$PPR measure --kernel spmv-csr --reps $REPS`, appending one line per
# matrix and round to FILE: matrix <tab> median s <tab> least s.
measure_rounds() {
	_raw=$1
	shift
	_r=0
	while [ "$_r" -lt "$ROUNDS" ]; do
		_r=$((_r + 1))
		for _mtx in "$@"; do
			_m=$("$PPR" measure --kernel spmv-csr --reps "$REPS" "$_mtx" 2>/dev/null |
				sed -n 's/^time *min \([0-9.e+-]*\) s, median \([0-9.e+-]*\) s.*/\2\t\1/p')
			[ -n "$_m" ] && printf '%s\t%s\n' "$_mtx" "$_m" >> "$_raw"
		done
		echo "round $_r of $ROUNDS measured: load $(uptime | sed 's/.*load average: //')" >&2
	done
}
