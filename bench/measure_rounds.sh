# measure_rounds.sh - sourced by bench/predict_spmv.sh and bench/fit_far.sh.
# measure_rounds FILE MATRIX...: ROUNDS rounds over the matrices in turn,
# each `$PPR measure --kernel spmv-csr --reps $REPS`, appending one line per
# matrix and round to FILE: matrix <tab> median s <tab> least s.
# Slow spells: before each matrix a speed probe (bench/speed_probe.sh)
# slower than PROBE_SLOW (default 1.3) times the least probe so far waits
# 10 s and probes again, at most 3 times; PROBE=0 measures without
# probing.  A whole 3-round SpMV run without it measured the small
# matrices 25-34% slow (2026-11-27).  Untimed runs before each
# measurement: `ppr measure`'s default (up to 500 runs or 0.5 s: the
# branch predictor learns a matrix's row lengths over runs, and the model
# predicts that learned state; bench/predict_warmup.sh); WARMUP=N passes
# --warmup N instead (N = 1: the measurements before 2026-11-27).
# Needs PPR and ROOT.
. "$ROOT/bench/speed_probe.sh"
measure_rounds() {
	_raw=$1
	shift
	_r=0
	SPEED_MIN=""
	# start on the fastest CPU (bench/speed_probe.sh)
	[ "${PROBE:-1}" = 1 ] && speed_pick_cpu
	while [ "$_r" -lt "$ROUNDS" ]; do
		_r=$((_r + 1))
		SPEED_WAITS=0
		for _mtx in "$@"; do
			[ "${PROBE:-1}" = 1 ] && speed_wait "${PROBE_SLOW:-1.3}" 10
			_m=$("$PPR" measure --kernel spmv-csr --reps "$REPS" \
				${WARMUP:+--warmup "$WARMUP"} \
				${SPEED_CPU:+--cpu "$SPEED_CPU"} "$_mtx" 2>/dev/null |
				sed -n 's/^time *min \([0-9.e+-]*\) s, median \([0-9.e+-]*\) s.*/\2\t\1/p')
			[ -n "$_m" ] && printf '%s\t%s\n' "$_mtx" "$_m" >> "$_raw"
		done
		echo "round $_r of $ROUNDS measured: load $(uptime | sed 's/.*load average: //'); $SPEED_WAITS waits of 10 s for a slow probe (least probe ${SPEED_MIN:-none} us${SPEED_CPU:+, now on CPU $SPEED_CPU})" >&2
		# the caller's hook after each round (predict_spmv.sh:
		# machine_refresh_best)
		[ -n "$ROUND_HOOK" ] && $ROUND_HOOK
	done
}
