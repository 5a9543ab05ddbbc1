# machine_here.sh - sourced by the benches that set predictions against
# measurements taken here.  machine_here DIR sets MACHINE: as given by the
# caller; else machines/zen4-epyc.json refreshed for the host the bench
# runs on (`ppr machine detect --base`, about 20 s: clock, last-level
# share and bandwidth, memory; machines/README.md), written into DIR;
# REFRESH=0 keeps the file as it is.  The guest's host changes between
# boots (3.48 GHz on 2026-11-24, 4.16-4.26 GHz on 2026-11-25), and a file
# measured on another host predicts this one 20% slow.  Needs PPR and ROOT.
machine_here() {
	MACHINE_REFRESHED=0
	[ -n "$MACHINE" ] && return 0
	MACHINE=$ROOT/machines/zen4-epyc.json
	[ "${REFRESH:-1}" = 0 ] && return 0
	if "$PPR" machine detect --base "$MACHINE" -o "$1/here.json" 2> "$1/here.err"; then
		MACHINE=$1/here.json
		MACHINE_REFRESHED=1
		grep '^ppr: base ' "$1/here.err"
	else
		echo "machine refresh failed, predicting with $MACHINE as it is: $(tail -n 1 "$1/here.err")"
	fi
}
