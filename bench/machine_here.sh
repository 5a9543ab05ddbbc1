# machine_here.sh - sourced by the benches that set predictions against
# measurements taken here.  machine_here DIR sets MACHINE: as given by the
# caller; else the shipped file that describes this host's caches and
# core (machines/zen4-epyc.json for the Zen 5 host the project started
# on, machines/zen4-genoa.json for the Zen 4 host since 2026-11-26,
# machines/xeon-gnr.json for the Granite Rapids host of 2026-12-01,
# machines/xeon-spr.json for the Sapphire Rapids host of 2026-12-02,
# machines/zen3-milan.json for the Zen 3 host of 2026-12-03),
# refreshed for the host the bench runs on (`ppr machine detect --base`,
# about 20 s: clock, last-level share and bandwidth, memory;
# machines/README.md), written into DIR; REFRESH=0 keeps the file as it
# is.  The guest's host changes between boots (3.48 GHz on 2026-11-24,
# 4.16-4.26 GHz on 2026-11-25, a Zen 4 at 3.65 GHz on 2026-11-26), and a
# file measured on another host predicts this one 20% slow.  The refresh
# measures on CPU SPEED_CPU when set (call speed_pick_cpu first).  Needs
# PPR and ROOT; sets CPU as bench/host_core.sh does.
machine_here() {
	MACHINE_REFRESHED=0
	[ -n "$MACHINE" ] && return 0
	# the shipped base whose caches are this host's (detect --base
	# checks them before it measures anything) and whose core is the
	# one CPUID names (bench/host_core.sh)
	. "$ROOT/bench/host_core.sh"
	host_core
	# and whose caches' sets and ways are the ones detect reads here
	# (the Granite and Sapphire Rapids guests share a core model)
	MACHINE=$ROOT/machines/zen4-epyc.json
	here_caches=$("$PPR" machine detect --caches-only 2>&1 |
		sed -n 's/^  cache .* \([0-9]*\)-way *\([0-9]*\) sets.*/\2x\1/p' |
		tr '\n' ' ')
	for f in "$ROOT/machines/zen3-milan.json" "$ROOT/machines/xeon-spr.json" "$ROOT/machines/xeon-gnr.json" \
		 "$ROOT/machines/zen4-genoa.json" "$ROOT/machines/zen4-epyc.json"; do
		"$PPR" machine show --format json "$f" 2> /dev/null |
			grep -q "\"core_model\":	\"$CPU\"" || continue
		file_caches=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%dx%d" % (l["sets"], l["ways"]) for l in d["hierarchy"]["levels"]), end=" ")' "$f")
		if [ "$file_caches" = "$here_caches" ]; then
			MACHINE=$f
			break
		fi
	done
	[ "${REFRESH:-1}" = 0 ] && return 0
	# on the CPU the bench measures on, when it picked one (SPEED_CPU,
	# bench/speed_probe.sh): a guest's vCPUs run at different clocks
	# (2026-12-07 16:32: 3.553 and 3.383 GHz), and the file's clock is
	# the one its predictions are set against; else detect's own pick,
	# the fastest
	if "$PPR" machine detect --base "$MACHINE" ${SPEED_CPU:+--cpu "$SPEED_CPU"} \
		-o "$1/here.json" 2> "$1/here.err"; then
		echo "machine: $MACHINE refreshed for this host"
		MACHINE_BASE=$MACHINE
		MACHINE_DIR=$1
		MACHINE=$1/here.json
		MACHINE_REFRESHED=1
		grep '^ppr: base ' "$1/here.err"
	else
		echo "machine refresh failed, predicting with $MACHINE as it is: $(tail -n 1 "$1/here.err")"
	fi
}

# machine_refresh_best: when machine_here refreshed the file, refresh it
# again and keep, field by field, the faster of the two readings: the
# higher clock, bandwidths (the L3's, memory's, the CSR stream table's)
# and usable ways, the lower memory latency.  A bench that measures in
# rounds minutes apart and scores the least of them (bench/
# predict_spmv.sh) calls it after each round, so the file, like the
# measurements, is the machine's own speed: on a shared guest the noise is
# one-sided.  One refresh in a slow spell (2026-11-27 12:33: memory 29.0
# GB/s where 32.7 at 12:05, the CSR table's 55-nonzero row 21.5 GB/s where
# 27.7) predicted gen:fem3d:n=24,dof=3 at +34% against a least-of-rounds
# measurement; the two refreshes' best, +4.2%.  Needs python3.
machine_refresh_best() {
	[ "$MACHINE_REFRESHED" = 1 ] || return 0
	"$PPR" machine detect --base "$MACHINE_BASE" ${SPEED_CPU:+--cpu "$SPEED_CPU"} \
		-o "$MACHINE_DIR/again.json" \
		2> "$MACHINE_DIR/again.err" || {
		echo "machine refresh failed, keeping the earlier one: $(tail -n 1 "$MACHINE_DIR/again.err")" >&2
		return 0; }
	python3 - "$MACHINE" "$MACHINE_DIR/again.json" <<'PYEOF' >&2
import json, sys
path, again = sys.argv[1], sys.argv[2]
a, b = json.load(open(path)), json.load(open(again))
moved = []
def best(obj, other, key, pick, name):
    if key in obj and key in other and pick(obj[key], other[key]) != obj[key]:
        moved.append("%s %s -> %s" % (name, obj[key], other[key]))
        obj[key] = other[key]
best(a, b, "clock_ghz", max, "clock")
best(a["memory"], b["memory"], "bandwidth_gbs", max, "memory")
best(a["memory"], b["memory"], "latency_ns", min, "latency")
for x, y in zip(a["memory"].get("csr_bandwidth_gbs", []),
                b["memory"].get("csr_bandwidth_gbs", [])):
    if x[0] == y[0] and y[1] > x[1]:
        moved.append("CSR %s nonzeros %s -> %s" % (x[0], x[1], y[1]))
        x[1] = y[1]
for la, lb in zip(a["hierarchy"]["levels"], b["hierarchy"]["levels"]):
    best(la, lb, "bandwidth_bytes_per_cycle", max, la["name"] + " bandwidth")
    best(la, lb, "usable_ways", max, la["name"] + " usable ways")
json.dump(a, open(path, "w"), indent=1)
print("machine refreshed again, the faster reading kept: " +
      (", ".join(moved) if moved else "nothing moved"))
PYEOF
}

# machine_keep: with KEEP_MACHINE=file, copy the machine file the bench
# predicted with there (refreshed for this host), so a changed model or
# file can be scored later against the same measurements
# (bench/rescore_bcsr.sh; bench/predict_spmv.sh with ROUNDS=0).
machine_keep() {
	[ -n "$KEEP_MACHINE" ] || return 0
	cp "$MACHINE" "$KEEP_MACHINE" && echo "machine file kept as $KEEP_MACHINE"
}
