#!/bin/bash
# fuzz.sh - the fuzz targets of tests/fuzz (see docs/robustness.md).
#
#   scripts/fuzz.sh deps                  install clang + libFuzzer if missing
#   scripts/fuzz.sh replay BUILD          replay corpus + regress files through
#                                         BUILD/fuzz/<target> (make test does)
#   scripts/fuzz.sh run BUILD SECS JOBS [TARGET...]
#                                         run each libFuzzer target
#                                         BUILD/fuzz/lf/<t> for SECS seconds,
#                                         JOBS at a time; new crashing inputs
#                                         go to tests/fuzz/regress/<t>/<sha1>
#   scripts/fuzz.sh seed BUILD            regenerate tests/fuzz/corpus/ from
#                                         the project's own inputs (needs
#                                         BUILD/ppr); run by hand, then commit
#
# run: libFuzzer's new inputs stay in BUILD/fuzz/work/<t>/ (not committed);
# the committed seeds and regression files are read, never written.  When
# ../shared/matrices/reader_cases exists, the matrix targets also read it
# as a seed directory (referenced in place, nothing is copied).  A summary
# line per target gives executions, coverage and the verdict; the exit
# status is non-zero if any target crashed, leaked, timed out or ran out
# of memory.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
CORPUS=tests/fuzz/corpus
REGRESS=tests/fuzz/regress
# seeds read in place (not copied into the corpus)
ASM_INPUTS=tests/data/asm
SHARED_CASES=../shared/matrices/reader_cases

targets_all() {
	for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done
}

cmd_deps() {
	local need=""
	command -v clang >/dev/null 2>&1 || need="$need clang"
	if command -v clang >/dev/null 2>&1; then
		local lf
		lf=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)
		[ -f "$lf" ] || need="$need libclang-rt-14-dev"
	fi
	[ -z "$need" ] && return 0
	echo "fuzz.sh: installing missing packages:$need" >&2
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >&2
}

cmd_replay() {
	local build=$1 t bin out fail=0 n=0
	for t in $(targets_all); do
		bin=$build/fuzz/$t
		if [ ! -x "$bin" ]; then
			echo "fuzz replay: $bin not built" >&2
			fail=1
			continue
		fi
		set -- "$CORPUS/$t" "$REGRESS/$t"
		# the assembly target also replays the DAG's test inputs in place
		[ "$t" = fuzz_asm ] && set -- "$@" "$ASM_INPUTS"
		if ! out=$("$bin" "$@" 2>&1); then
			printf '%s\n' "$out" | tail -n 20 >&2
			echo "fuzz replay: FAILED $t" >&2
			fail=1
			continue
		fi
		n=$((n + 1))
		printf '%s\n' "$out" | tail -n 1
	done
	[ $fail -eq 0 ] && echo "fuzz replay: $n targets, no failure"
	return $fail
}

# One target: run, then keep any artifact as a regression file.
run_one() {
	local build=$1 secs=$2 t=$3
	local bin=$build/fuzz/lf/$t work=$build/fuzz/work/$t
	local art=$build/fuzz/artifacts/$t log=$build/fuzz/logs/$t.log
	local extra=() a h kept=0 rc
	mkdir -p "$work" "$art" "$(dirname "$log")" "$REGRESS/$t"
	case $t in
	fuzz_mm | fuzz_rb | fuzz_mm_gz)
		[ -d "$SHARED_CASES" ] && extra+=("$SHARED_CASES") ;;
	fuzz_asm) extra+=("$ASM_INPUTS") ;;
	esac
	# -rss_limit_mb: a parser that allocates what a tiny file declares
	# is a bug (the matrix targets set a 256 MiB working-set limit).
	# FUZZ_SEED fixes libFuzzer's mutation sequence: a run of N seconds
	# then explores a prefix of the same sequence as a longer run with the
	# same seed and corpus, so CI can replay what was checked beforehand.
	[ -n "${FUZZ_SEED:-}" ] && extra+=("-seed=$FUZZ_SEED")
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-malloc_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$art/" "$work" "$CORPUS/$t" "$REGRESS/$t" \
		"${extra[@]}" >"$log" 2>&1
	rc=$?
	for a in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-* \
		"$art"/slow-unit-*; do
		[ -f "$a" ] || continue
		case $(basename "$a") in slow-unit-*) continue ;; esac
		h=$(sha1sum "$a" | cut -c1-40)
		if [ ! -f "$REGRESS/$t/$h" ]; then
			cp "$a" "$REGRESS/$t/$h"
			echo "fuzz: $t: new regression file $REGRESS/$t/$h ($(basename "$a" | cut -d- -f1))" >&2
		fi
		kept=$((kept + 1))
		rm -f "$a"
	done
	local execs cov ft secs_run verdict=ok
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	secs_run=$(grep -E '^Done [0-9]+ runs in' "$log" | tail -n 1 | \
		sed 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/')
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
	if [ $rc -ne 0 ] || [ $kept -ne 0 ]; then
		verdict="FAILED (rc $rc, $kept artifact(s); log $log)"
	fi
	printf '%-18s %6ss %12s execs  cov %6s  ft %6s  corpus %5s  %s\n' \
		"$t" "${secs_run:-?}" "${execs:-?}" "${cov:-?}" "${ft:-?}" \
		"$(find "$work" -type f | wc -l)" "$verdict"
	[ "$verdict" = ok ]
}

cmd_run() {
	local build=$1 secs=$2 jobs=$3
	shift 3
	local list=("$@") t fail=0 pids=() names=() i
	[ ${#list[@]} -eq 0 ] && mapfile -t list < <(targets_all)
	# A new parser gets its target by adding tests/fuzz/fuzz_<name>.c
	# (and seeds in tests/fuzz/seed.sh): the Makefile and this loop find it.
	mkdir -p "$build/fuzz/logs"
	for t in "${list[@]}"; do
		if [ ! -x "$build/fuzz/lf/$t" ]; then
			echo "fuzz: $build/fuzz/lf/$t not built" >&2
			fail=1
			continue
		fi
		run_one "$build" "$secs" "$t" >"$build/fuzz/logs/$t.summary" &
		pids+=($!)
		names+=("$t")
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n
		done
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || fail=1
	done
	printf '%-18s %7s %12s        %10s  %9s  %12s\n' target secs executions coverage features corpus
	for t in "${names[@]}"; do
		cat "$build/fuzz/logs/$t.summary"
	done
	return $fail
}

# ---- seeds: written here from the project's own inputs -----------------
cmd_seed() {
	local build=$1 ppr=$ROOT/$1/ppr d
	[ -x "$ppr" ] || { echo "fuzz seed: build $ppr first" >&2; return 1; }
	tests/fuzz/seed.sh "$ppr"
}

case ${1:-} in
deps) cmd_deps ;;
replay) shift; cmd_replay "${1:-build}" ;;
run) shift; [ $# -ge 3 ] || { echo "usage: $0 run BUILD SECS JOBS [TARGET...]" >&2; exit 2; }
	cmd_run "$@" ;;
seed) shift; cmd_seed "${1:-build}" ;;
*) sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
