#!/bin/sh
# dag_mca.sh - `ppr dag` beside llvm-mca on the kernel loops in
# tests/data/asm (run by `make bench`; prints a table).
#
# The loop is the one ppr picks (innermost, largest); its lines are cut out
# of the .s file and given to llvm-mca as is.  Haswell files: ppr's haswell
# core vs `llvm-mca -mcpu=haswell`; native files (this machine, Zen 5 with
# AVX-512): ppr's zen5 core vs the newest Zen model llvm-mca knows
# (znver4 if this llvm-mca has it, else znver3, which lacks AVX-512 and so
# is only indicative).  Figures: cycles per iteration of that loop, and
# per unit of work (nonzero, 2x2 / 4x4 block, output, butterfly: the loop's
# flops over the unit's 2 / 8 / 32 / 32 / 10 flops).  Haswell rows use
# machines/haswell.json (its "core" section).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
PPR=${PPR:-$ROOT/$BUILD/ppr}
[ -x "$PPR" ] || PPR=$ROOT/ppr
A=$ROOT/tests/data/asm
MCA=${MCA:-llvm-mca}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "== dag_mca: ppr dag vs llvm-mca, cycles per loop iteration"
if ! command -v "$MCA" > /dev/null 2>&1; then
	echo "skipped: $MCA not installed"
	exit 0
fi
zen=znver3
echo 'nop' | "$MCA" -mcpu=znver4 > /dev/null 2>&1 && zen=znver4

# jnum FILE KEY
jnum() {
	sed -n "s/^	\"$2\":[	 ]*\\([-0-9.e+]*\\),*\$/\\1/p" "$1" | head -n 1
}
jstr() {
	sed -n "s/^	\"$2\":[	 ]*\"\\(.*\\)\",*\$/\\1/p" "$1" | head -n 1
}

printf '%-30s %-6s %8s %8s %8s %8s %9s %9s  %s\n' file loop ppr mca mca_rt diff% ppr/unit mca/unit "ppr bottleneck"
for f in "$A"/*.s; do
	b=$(basename "$f" .s)
	case $b in
	*haswell) core="--machine $ROOT/machines/haswell.json"; mcpu=haswell ;;
	*) core="--cpu zen5"; mcpu=$zen ;;
	esac
	case $b in
	spmv_csr*) fpu=2 ;; spmv_bcsr22*) fpu=8 ;; spmv_bcsr44*) fpu=32 ;;
	conv*) fpu=32 ;; fft*) fpu=10 ;; *) fpu=0 ;;
	esac
	if ! "$PPR" dag --asm "$f" $core --format json > "$tmp/p.json" 2> "$tmp/err"; then
		printf '%-30s ppr error: %s\n' "$b" "$(cat "$tmp/err")"
		continue
	fi
	first=$(jnum "$tmp/p.json" first_line)
	last=$(jnum "$tmp/p.json" last_line)
	sed -n "${first},${last}p" "$f" | grep -v '^[[:space:]]*\.' > "$tmp/loop.s"
	"$MCA" -mcpu=$mcpu -iterations=200 "$tmp/loop.s" > "$tmp/mca" 2>/dev/null
	mca=$(awk '/^Total Cycles:/ { c = $3 } /^Iterations:/ { n = $2 }
		END { if (n) printf "%.2f", c / n }' "$tmp/mca")
	rt=$(awk '/Block RThroughput:/ { print $3 }' "$tmp/mca")
	ppr=$(jnum "$tmp/p.json" cycles_per_iteration)
	fl=$(jnum "$tmp/p.json" flops_per_iteration)
	printf '%-30s %-6s %8.2f %8s %8s %8s %s  %s\n' "$b" "$(jstr "$tmp/p.json" loop)" \
		"$ppr" "${mca:--}" "${rt:--}" \
		"$(awk -v p="$ppr" -v m="$mca" 'BEGIN { if (m > 0) printf "%+.0f", 100 * (p - m) / m; else print "-" }')" \
		"$(awk -v p="$ppr" -v m="$mca" -v f="$fl" -v u="$fpu" 'BEGIN {
			if (f > 0 && u > 0) printf "%9.2f %9s", p * u / f, (m > 0 ? sprintf("%.2f", m * u / f) : "-")
			else printf "%9s %9s", "-", "-" }')" \
		"$(jstr "$tmp/p.json" bottleneck)"
done
echo "(native rows: llvm-mca $zen; ppr zen5 with AVX-512 and 2 vector loads/cycle)"
