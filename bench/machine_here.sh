# machine_here.sh - sourced by the benches that set predictions against
# measurements taken here.  machine_here DIR sets MACHINE: as given by the
# caller; else the shipped file that describes this host's caches and
# core (machines/zen4-epyc.json for the Zen 5 host the project started
# on, machines/zen4-genoa.json for the Zen 4 host since 2026-11-26),
# refreshed for the host the bench runs on (`ppr machine detect --base`,
# about 20 s: clock, last-level share and bandwidth, memory;
# machines/README.md), written into DIR; REFRESH=0 keeps the file as it
# is.  The guest's host changes between boots (3.48 GHz on 2026-11-24,
# 4.16-4.26 GHz on 2026-11-25, a Zen 4 at 3.65 GHz on 2026-11-26), and a
# file measured on another host predicts this one 20% slow.  Needs PPR
# and ROOT; sets CPU as bench/host_core.sh does.
machine_here() {
	MACHINE_REFRESHED=0
	[ -n "$MACHINE" ] && return 0
	# the shipped base whose caches are this host's (detect --base
	# checks them before it measures anything) and whose core is the
	# one CPUID names (bench/host_core.sh)
	. "$ROOT/bench/host_core.sh"
	host_core
	MACHINE=$ROOT/machines/zen4-epyc.json
	for f in "$ROOT/machines/zen4-genoa.json" "$ROOT/machines/zen4-epyc.json"; do
		if "$PPR" machine show --format json "$f" 2> /dev/null |
		   grep -q "\"core_model\":	\"$CPU\""; then
			MACHINE=$f
			break
		fi
	done
	[ "${REFRESH:-1}" = 0 ] && return 0
	if "$PPR" machine detect --base "$MACHINE" -o "$1/here.json" 2> "$1/here.err"; then
		echo "machine: $MACHINE refreshed for this host"
		MACHINE=$1/here.json
		MACHINE_REFRESHED=1
		grep '^ppr: base ' "$1/here.err"
	else
		echo "machine refresh failed, predicting with $MACHINE as it is: $(tail -n 1 "$1/here.err")"
	fi
}
