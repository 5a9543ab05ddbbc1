#!/bin/sh
# ci-valgrind.sh [PPR] - a representative set of ppr commands under
# valgrind memcheck (--error-exitcode=1 --leak-check=full): matrix info of a
# small file and a generator, trace generation and conversion, sim on a
# small din trace, dag on a test .s file, machine show, predict and bcsr
# when present.  Also the same commands' error paths on broken input (an
# error exit must not leak either).  PPR defaults to build/ppr (build it
# without sanitizers: valgrind and ASan do not mix).
#
# Prints one line per command and a final "N passed, N failed"; exits
# non-zero on any memcheck error or unexpected exit status.
cd "$(dirname "$0")/.." || exit 2
PPR=${1:-${PPR:-build/ppr}}
PPR=$(cd "$(dirname "$PPR")" && pwd)/$(basename "$PPR")
if ! command -v valgrind >/dev/null 2>&1; then
	echo "ci-valgrind: valgrind is not installed" >&2
	exit 2
fi
if [ ! -x "$PPR" ]; then
	echo "ci-valgrind: $PPR is not built" >&2
	exit 2
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ppr-vg.XXXXXX")
trap 'rm -rf "$T"' EXIT
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
pass=0; fail=0

# want: expected exit status of ppr itself (0 ok, 1 runtime error, 2 usage)
vg() {
	want=$1; shift
	$VG "$PPR" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq "$want" ]; then
		pass=$((pass + 1))
		echo "ok    ppr $*"
	else
		fail=$((fail + 1))
		echo "FAIL  ppr $* (exit $rc, want $want; 99 = memcheck error)"
		sed 's/^/      /' "$T/err" | head -n 30
	fi
}

MTX=tests/fuzz/corpus/fuzz_mm/coord_real_general.mtx
SYM=tests/fuzz/corpus/fuzz_mm/coord_int_sym.mtx
MACH=machines/haswell.json
ASM=$(ls tests/data/asm/*.s 2>/dev/null | head -n 1)

vg 0 matrix info "$MTX"
vg 0 matrix info "$SYM" --format json
vg 0 matrix info gen:laplace2d:n=30
vg 1 matrix info tests/fuzz/corpus/fuzz_mm/bad_index.mtx
vg 1 matrix info tests/fuzz/corpus/fuzz_mm/bad_huge_size.mtx
vg 1 --max-memory 1K matrix info gen:laplace2d:n=30
vg 0 trace --kernel spmv-csr gen:laplace2d:n=12 -t din -o "$T/csr.din"
vg 0 trace convert "$T/csr.din" "$T/csr.ppr"
vg 0 trace convert -t lackey "$T/csr.ppr" "$T/csr.lackey"
vg 0 trace info "$T/csr.lackey"
vg 1 trace info tests/fuzz/corpus/fuzz_trace_din/bad_label.din
vg 0 sim --machine "$MACH" --trace "$T/csr.din"
vg 0 sim --machine machines/zen4-epyc.json --trace "$T/csr.ppr" --format json
vg 1 sim --machine "$MACH" --trace tests/fuzz/corpus/fuzz_trace_lackey/bad_op.lackey
vg 0 machine show "$MACH"
vg 1 machine show tests/fuzz/corpus/fuzz_machine/bad_types.json
[ -n "$ASM" ] && vg 0 dag --asm "$ASM" --machine "$MACH"
vg 1 dag --asm tests/fuzz/corpus/fuzz_asm/bad_insn.s --machine "$MACH"
if "$PPR" predict --help >/dev/null 2>&1; then
	vg 0 predict --machine "$MACH" --kernel spmv-csr gen:laplace2d:n=20
	vg 1 predict --machine "$MACH" --kernel spmv-csr tests/fuzz/corpus/fuzz_mm/bad_value.mtx
fi
if "$PPR" bcsr --help >/dev/null 2>&1; then
	vg 0 bcsr --machine "$MACH" gen:laplace2d:n=12
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
