#!/bin/sh
# Run every benchmark; each prints its own figures.
BUILD=${BUILD:-build}
for b in "$BUILD"/bench/bench_*; do
	[ -x "$b" ] || continue
	echo "== $(basename "$b")"
	"$b" || echo "benchmark $(basename "$b") failed"
done
for b in bench/*.sh; do
	[ -f "$b" ] || continue
	echo "== $b"
	PPR="$(pwd)/ppr" BUILD="$BUILD" sh "$b" || echo "benchmark $b failed"
done
