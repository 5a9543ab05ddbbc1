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
#
# The spell is often one core's: on 2026-11-27 (13:00) BCSR 1x1 of rajat19
# took 4.4 us on CPU 0 and 2.5 us on CPU 1, and a whole `ppr bcsr
# --measure` pass that ran on CPU 0 measured most matrices at 1.8 GFLOPS.
# So a slow probe first probes every CPU this shell may use (speed_pick_cpu)
# and moves to the fastest; the benches measure with --cpu "$SPEED_CPU".
# SPEED_CPU empty (CPU_PICK=0, or one CPU): no --cpu, as before.
SPEED_MIN=""
SPEED_WAITS=0
SPEED_CPU=""
speed_probe() {
	"$PPR" measure --kernel spmv-csr --reps 20 --format csv \
		${SPEED_CPU:+--cpu "$SPEED_CPU"} \
		gen:random:n=8000,per_row=2,seed=1 2> /dev/null |
		awk -F, 'NR == 2 { printf "%.2f", $(NF - 5) * 1e6 }'
}
# the CPUs this shell may run on, one per line ("0-1,4" -> 0 1 4)
speed_cpus() {
	sed -n 's/^Cpus_allowed_list:[	 ]*//p' /proc/self/status 2> /dev/null |
		tr ',' '\n' | awk -F- 'NF { for (c = $1; c <= (NF > 1 ? $2 : $1); c++) print c }'
}
# speed_pick_cpu: probe every CPU, SPEED_CPU = the fastest (unchanged with
# CPU_PICK=0 or a single CPU); SPEED_PROBE = its probe
speed_pick_cpu() {
	[ "${CPU_PICK:-1}" = 1 ] || return 0
	_sp_best="" _sp_cpu="" _sp_n=0
	for _c in $(speed_cpus); do
		_sp_n=$((_sp_n + 1))
		_p=$(SPEED_CPU=$_c speed_probe)
		[ -n "$_p" ] || continue
		if [ -z "$_sp_best" ] || awk -v p="$_p" -v b="$_sp_best" 'BEGIN { exit !(p < b) }'; then
			_sp_best=$_p _sp_cpu=$_c
		fi
	done
	[ -n "$_sp_cpu" ] && [ "$_sp_n" -gt 1 ] || return 0
	SPEED_CPU=$_sp_cpu
	SPEED_PROBE=$_sp_best
}
speed_wait() {
	SPEED_PROBE=$(speed_probe)
	# slow here: maybe only this CPU is
	if [ -n "$SPEED_MIN" ] && [ -n "$SPEED_PROBE" ] &&
	   awk -v p="$SPEED_PROBE" -v m="$SPEED_MIN" -v f="$1" \
		'BEGIN { exit !(p > f * m) }'; then
		speed_pick_cpu
	fi
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
