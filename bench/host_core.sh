# host_core.sh - sourced by the benches that set `ppr dag` against this
# machine: host_core sets CPU to the built-in core model of the CPU the
# bench runs on (`ppr machine detect --caches-only` names it from CPUID:
# zen4, zen5, haswell or goldencove), zen4 for the other family 19h
# cores (Zen 3), zen5 when it names none; a CPU given by the
# caller is kept.  Needs PPR.
host_core() {
	[ -n "$CPU" ] && return 0
	CPU=$("$PPR" machine detect --caches-only 2>&1 |
	      sed -n 's/^  core model: \([a-z0-9]*\) (built in.*/\1/p')
	# AMD family 19h outside Zen 4's models (Zen 3: Milan, Vermeer,
	# Cezanne) has no core of its own; Zen 4's is the nearest (same
	# pipes and latencies, machines/zen3-milan.json)
	[ -n "$CPU" ] || ! "$PPR" machine detect --caches-only 2>&1 |
		grep -q 'none built in for CPUID family 19h' || CPU=zen4
	[ -n "$CPU" ] || CPU=zen5
}
