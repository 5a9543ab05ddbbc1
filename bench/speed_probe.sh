# speed_probe.sh - sourced by the benches that measure on a shared guest
# (bench/predict_bcsr.sh, bench/measure_rounds.sh): wait out slow spells.
# On this guest the speed of cache-resident kernels moves by 1.4-1.5x (up
# to 2x for short rows) for seconds to minutes at a time while the core
# clock (a dependent add chain) does not move (2026-11-27: nasa4704 35 us,
# then 51 us, then 35 again): the core's other hardware thread,
# presumably, busy with a neighbour.  A matrix measured in such a spell is
# not comparable with the others.  Needs PPR.
#
# speed_probe: the machine's speed now, as the median of a short CSR SpMV
# on rows of 2 nonzeros, in microseconds (empty if it fails).
# speed_wait FACTOR SECONDS: probe; while the probe is over FACTOR times
# the least probe so far (SPEED_MIN), wait SECONDS and probe again, at most
# 3 times.  Sets SPEED_PROBE (the last probe), adds the waits to
# SPEED_WAITS and keeps SPEED_MIN.
SPEED_MIN=""
SPEED_WAITS=0
speed_probe() {
	"$PPR" measure --kernel spmv-csr --reps 20 --format csv \
		gen:random:n=8000,per_row=2,seed=1 2> /dev/null |
		awk -F, 'NR == 2 { printf "%.2f", $(NF - 5) * 1e6 }'
}
speed_wait() {
	SPEED_PROBE=$(speed_probe)
	_sw_t=0
	while [ -n "$SPEED_MIN" ] && [ -n "$SPEED_PROBE" ] && [ "$_sw_t" -lt 3 ] &&
	      awk -v p="$SPEED_PROBE" -v m="$SPEED_MIN" -v f="$1" \
		'BEGIN { exit !(p > f * m) }'; do
		sleep "$2"
		SPEED_PROBE=$(speed_probe)
		_sw_t=$((_sw_t + 1))
		SPEED_WAITS=$((SPEED_WAITS + 1))
	done
	if [ -n "$SPEED_PROBE" ] && { [ -z "$SPEED_MIN" ] ||
	   awk -v p="$SPEED_PROBE" -v m="$SPEED_MIN" 'BEGIN { exit !(p < m) }'; }; then
		SPEED_MIN=$SPEED_PROBE
	fi
}
