#!/bin/sh
# predict_conv.sh - the three convolution algorithms, predicted vs
# measured, at sizes resident in each cache level and in memory
# (`ppr conv --measure`); and the paper's Tables 4-6 on haswell.json.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
"$PPR" conv --paper --machine "$ROOT/machines/haswell.json"
echo
# Sizes: ppr conv's defaults for the machine (input + output, 8 B per
# element, a quarter of each level's capacity, the L3 at the share
# usable_ways leaves to the program; memory 4x that): on zen4-epyc.json
# n = 1536, 32768, 589824 and 9437184.  Every variant's data stays in the
# level named, the aligned one's too (4 shifted copies of the input and
# the output: 5x the input bytes).  Until 2026-11-25 the list was
# 4096,65536,1048576,33554432: the aligned variant's 20 MB at 1048576 did
# not fit the 18 MB L3 share (nor its data at 4096 / 65536 L1 / L2).
# SIZES=n,n,... overrides.
if [ -n "$SIZES" ]; then
	set -- --sizes "$SIZES"
else
	set --
fi
echo "load: $(uptime | sed 's/.*load average: //')"
"$PPR" conv --machine "$MACHINE" --measure --reps "${REPS:-10}" "$@"
echo "load: $(uptime | sed 's/.*load average: //')"
