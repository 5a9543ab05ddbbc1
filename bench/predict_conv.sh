#!/bin/sh
# predict_conv.sh - the three convolution algorithms, predicted vs
# measured, at sizes resident in each cache level and in memory
# (`ppr conv --measure`); and the paper's Tables 4-6 on haswell.json.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
"$PPR" conv --paper --machine "$ROOT/machines/haswell.json"
echo
# Sizes: input + output (8 B per element) of 32 KiB (L1D), 512 KiB (L2),
# 8 MiB (L3) and 256 MiB (memory) on zen4-epyc.json; the aligned variant
# also reads 4 copies of the input (5x the input bytes).
SIZES=${SIZES:-4096,65536,1048576,33554432}
echo "load: $(uptime | sed 's/.*load average: //')"
"$PPR" conv --machine "$MACHINE" --measure --reps "${REPS:-10}" --sizes "$SIZES"
echo "load: $(uptime | sed 's/.*load average: //')"
