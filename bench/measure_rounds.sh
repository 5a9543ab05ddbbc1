# measure_rounds.sh - sourced by bench/predict_spmv.sh and bench/fit_far.sh.
# measure_rounds FILE MATRIX...: ROUNDS rounds over the matrices in turn,
# each `$PPR measure --kernel spmv-csr --reps $REPS`, appending one line per
# matrix and round to FILE: matrix <tab> median s <tab> least s.
# Slow spells: before each matrix a probe (the median of a short CSR SpMV
# on rows of 2 nonzeros, as bench/predict_bcsr.sh probes) slower than
# PROBE_SLOW (default 1.3) times the least probe so far waits 10 s and
# probes again, at most 3 times; PROBE=0 measures without probing.  On
# this guest the speed of cache-resident kernels moves by 1.4-1.5x for
# seconds to minutes at a time while the core clock (a dependent add
# chain) does not move (2026-11-27: nasa4704 35 us, then 51 us, then 35
# again; a whole 3-round SpMV run measured the small matrices 25-34% slow):
# the core's other hardware thread, presumably, busy with a neighbour.
speed_probe() {
	"$PPR" measure --kernel spmv-csr --reps 20 --format csv \
		gen:random:n=8000,per_row=2,seed=1 2> /dev/null |
		awk -F, 'NR == 2 { printf "%.2f", $(NF - 5) * 1e6 }'
}
measure_rounds() {
	_raw=$1
	shift
	_r=0
	_pmin=""
	while [ "$_r" -lt "$ROUNDS" ]; do
		_r=$((_r + 1))
		_waits=0
		for _mtx in "$@"; do
			if [ "${PROBE:-1}" = 1 ]; then
				_pr=$(speed_probe)
				_t=0
				while [ -n "$_pmin" ] && [ -n "$_pr" ] && [ "$_t" -lt 3 ] &&
				      awk -v p="$_pr" -v m="$_pmin" -v s="${PROBE_SLOW:-1.3}" \
					'BEGIN { exit !(p > s * m) }'; do
					sleep 10
					_pr=$(speed_probe)
					_t=$((_t + 1))
					_waits=$((_waits + 1))
				done
				if [ -n "$_pr" ] && { [ -z "$_pmin" ] ||
				   awk -v p="$_pr" -v m="$_pmin" 'BEGIN { exit !(p < m) }'; }; then
					_pmin=$_pr
				fi
			fi
			_m=$("$PPR" measure --kernel spmv-csr --reps "$REPS" "$_mtx" 2>/dev/null |
				sed -n 's/^time *min \([0-9.e+-]*\) s, median \([0-9.e+-]*\) s.*/\2\t\1/p')
			[ -n "$_m" ] && printf '%s\t%s\n' "$_mtx" "$_m" >> "$_raw"
		done
		echo "round $_r of $ROUNDS measured: load $(uptime | sed 's/.*load average: //'); $_waits waits of 10 s for a slow probe (least probe ${_pmin:-none} us)" >&2
	done
}
