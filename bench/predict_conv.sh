#!/bin/sh
# predict_conv.sh - the three convolution algorithms, predicted vs
# measured, at sizes resident in each cache level and in memory
# (`ppr conv --measure`); and the paper's Tables 4-6 on haswell.json.
PPR=${PPR:-./ppr}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-$ROOT/machines/zen4-epyc.json}
"$PPR" conv --paper --machine "$ROOT/machines/haswell.json"
echo
"$PPR" conv --machine "$MACHINE" --measure --reps "${REPS:-10}" ${SIZES:+--sizes "$SIZES"}
