#!/bin/sh
# make demo: the main job of ppr on built-in defaults, on the paper's
# Haswell (machines/haswell.json), with generated matrices (no files needed).
set -e
PPR=${PPR:-./ppr}
M=machines/haswell.json
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

step $PPR machine show $M
# How fast is CSR SpMV on a 3-D Laplacian, and why?
step $PPR predict --machine $M --kernel spmv-csr gen:laplace3d:n=64
# Which BCSR block shape should a 3-dof FEM matrix use?
step $PPR bcsr --machine $M gen:fem3d:n=20,dof=3 --top 8
# Aligned or unaligned vector loads for 1-D convolution, per data size
# (the paper's Tables 4-6).
step $PPR conv --paper --machine $M
