#!/bin/sh
# predict.sh - `ppr predict` and `ppr bcsr` on small generated inputs: the
# JSON keys, figures that follow from each other, every kernel, the
# advice, and usage/runtime errors.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
M=$ROOT/machines
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
jnum() {
	sed -n "s/^	\"$2\":[	 ]*\\([-0-9.e+]*\\),*\$/\\1/p" "$1" | head -n 1
}
jstr() {
	sed -n "s/^	\"$2\":[	 ]*\"\\(.*\\)\",*\$/\\1/p" "$1" | head -n 1
}

"$PPR" predict --machine "$M/haswell.json" --kernel spmv-csr \
	gen:laplace2d:n=50 --format json > "$tmp/p.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok || bad "predict spmv-csr exit $rc: $(cat "$tmp/err")"
for k in ppr_version machine units time_s gflops bottleneck phases levels \
	 ecm roofline advice; do
	grep -q "^	\"$k\"" "$tmp/p.json" && ok || bad "json key $k"
done
[ "$(jstr "$tmp/p.json" machine)" = haswell ] && ok || bad "machine name"
# gflops = flops / time_s / 1e9
t=$(jnum "$tmp/p.json" time_s); g=$(jnum "$tmp/p.json" gflops)
f=$(jnum "$tmp/p.json" flops)
[ "$f" = 24600 ] && ok || bad "flops $f (2 x nnz of laplace2d n=50 = 2 x 12300)"
awk -v t="$t" -v g="$g" -v f="$f" 'BEGIN { d = f / t / 1e9 - g;
	exit !(d < 1e-6 * g && d > -1e-6 * g) }' && ok || bad "gflops $g vs $f / $t"
grep -q '"name":	"L3"' "$tmp/p.json" && ok || bad "levels L3"
grep -q '"text":	".*BCSR\|"text":	".*best of 64' "$tmp/p.json" && ok || bad "advice text"
# the CSR kernel's advice sets the model's best BCSR shape against this
# prediction of the CSR kernel (time_s), not against the selection's 1x1:
# predicted_speedup = time_s / the pick's time from ppr bcsr (same
# machine, same matrix; the csv's time has 6 digits), and below 1.02 the
# text says to keep CSR
for mat in gen:laplace2d:n=50 gen:fem3d:n=6,dof=3 \
	   gen:random:n=3000,per_row=20 gen:random:n=4000,per_row=6; do
	"$PPR" predict --machine "$M/haswell.json" --kernel spmv-csr "$mat" \
		--format json > "$tmp/a.json" 2>/dev/null || bad "predict $mat"
	"$PPR" bcsr --machine "$M/haswell.json" "$mat" --format json \
		> "$tmp/b.json" 2>/dev/null || bad "bcsr $mat json"
	"$PPR" bcsr --machine "$M/haswell.json" "$mat" --format csv \
		> "$tmp/b.csv" 2>/dev/null || bad "bcsr $mat csv"
	pk=$(jstr "$tmp/b.json" pick)
	tp=$(awk -F, -v s="$pk" '$2 == s { print $5 }' "$tmp/b.csv")
	tc=$(jnum "$tmp/a.json" time_s)
	sp=$(sed -n 's/^		"predicted_speedup":[	 ]*\([-0-9.e+]*\),*$/\1/p' "$tmp/a.json")
	awk -v c="$tc" -v p="$tp" -v s="$sp" 'BEGIN { if (!(p > 0 && s > 0))
		exit 1; d = c / p / s - 1; exit !(d < 1e-4 && d > -1e-4) }' &&
		ok || bad "$mat: advice speedup $sp, CSR $tc s / pick $pk $tp s"
	if awk -v s="$sp" 'BEGIN { exit !(s < 1.02) }'; then
		grep -q '"text":	".*keep CSR: the model.s best of the 64 BCSR shapes ('"$pk"',' \
			"$tmp/a.json" && ok || bad "$mat: speedup $sp without keep CSR"
	elif [ "$pk" = 1x1 ]; then
		grep -q '"text":	".*try BCSR 1x1 (this matrix.s data run by the BCSR kernel' \
			"$tmp/a.json" && ok || bad "$mat: speedup $sp without try BCSR 1x1"
	else
		grep -q '"text":	".*try BCSR '"$pk"' (fill' "$tmp/a.json" &&
			ok || bad "$mat: speedup $sp without try BCSR $pk"
	fi
done

# every kernel, table output
for args in "--kernel spmv-bcsr --block 3x3 gen:fem3d:n=5,dof=3 --no-advice" \
	    "--kernel conv1d --variant avx2-aligned --n 4096" \
	    "--kernel conv1d --variant naive --n 4096" \
	    "--kernel fft1d --n 1024" "--kernel fft3d --n 16"; do
	# shellcheck disable=SC2086
	"$PPR" predict --machine "$M/zen4-epyc.json" $args > "$tmp/t" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q '^PPR prediction: ' "$tmp/t" && \
		grep -q '^  ECM ' "$tmp/t" && grep -q '^  Roofline ' "$tmp/t" && \
		{ grep -q '^advice: ' "$tmp/t" || [ -z "${args##*--no-advice*}" ]; } && \
		ok || bad "predict $args: exit $rc $(cat "$tmp/err")"
done
grep -q '^3-D FFT 16^3' "$tmp/t" && ok || bad "fft3d intensity line"
# 16^3: 5 N log2 N / (3 passes x 32 N bytes) = 5 x 12 / 96 = 0.625
"$PPR" predict --machine "$M/haswell.json" --kernel fft3d --n 16 \
	--no-advice --format json > "$tmp/f.json" 2>/dev/null || bad "fft3d 16"
grep -q '"dram_intensity_pencil":	0.625' "$tmp/f.json" && ok || bad "fft3d 16 intensity $(grep dram_intensity "$tmp/f.json")"
"$PPR" predict --machine "$M/haswell.json" --kernel spmv-csr gen:laplace2d:n=20 \
	--no-advice --format csv > "$tmp/c" || bad "csv exit"
[ "$(wc -l < "$tmp/c")" -eq 4 ] && ok || bad "csv lines"
sed -n 2p "$tmp/c" | grep -q ',ppr,' && ok || bad "csv ppr row"

# errors
"$PPR" predict --kernel spmv-csr gen:laplace2d:n=5 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--machine is required' "$tmp/e" && ok || bad "no machine: $rc"
"$PPR" predict --machine "$M/haswell.json" --kernel spmv-csr > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && ok || bad "no matrix: $rc"
"$PPR" predict --machine "$M/haswell.json" --kernel nope > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown kernel 'nope'" "$tmp/e" && ok || bad "bad kernel: $rc"
"$PPR" predict --machine "$M/haswell.json" --kernel spmv-bcsr --block 9x1 gen:laplace2d:n=5 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && ok || bad "bad block: $rc"
"$PPR" predict --machine "$M/haswell.json" --kernel spmv-csr "$tmp/missing.mtx" > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 1 ] && grep -q '^ppr: error: .*missing.mtx' "$tmp/e" && ok || bad "missing matrix: $rc $(cat "$tmp/e")"
printf '{"name": "x",\n "clock_ghz": "fast"}\n' > "$tmp/bad.json"
"$PPR" predict --machine "$tmp/bad.json" --kernel fft1d --n 64 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 1 ] && grep -q '^ppr: error: .*bad.json:' "$tmp/e" && ok || bad "bad machine: $rc $(cat "$tmp/e")"

# ppr bcsr: FEM with dense 3x3 node blocks, 64 shapes
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=3 --reps 1 \
	--format json > "$tmp/b.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok || bad "bcsr exit $rc: $(cat "$tmp/err")"
for k in ppr_version machine units pick shapes measured_best share_of_best \
	 cost_spmv_equivalents; do
	grep -q "^	\"$k\"" "$tmp/b.json" && ok || bad "bcsr json key $k"
done
n=$(grep -c '"rank":' "$tmp/b.json")
[ "$n" = 64 ] && ok || bad "bcsr shapes: $n"
pick=$(jstr "$tmp/b.json" pick)
case $pick in [1-8]x[1-8]) ok ;; *) bad "pick '$pick'" ;; esac
grep -q '"measured_best":	null' "$tmp/b.json" && ok || bad "measured_best null without --measure"
# why each shape: its loop-exit changes a run (what the branch predictor
# must learn) and its bound, in the JSON, the CSV (the same figures) and
# the table's columns
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=3 --format csv \
	> "$tmp/b.csv" 2>/dev/null || bad "bcsr csv exit"
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys,csv
d=json.load(open(sys.argv[1])); rows=list(csv.DictReader(open(sys.argv[2])))
assert d["learned_exit_changes"] > 0 and "exit_changes" in d["units"], d["units"]
names={"compute","memory-instructions","regular-transfer","irregular-transfer","in-core-schedule","late-lines"}
sh={x["shape"]: x for x in d["shapes"]}
assert all(x["bottleneck"] in names and x["exit_changes"] >= 0 for x in sh.values())
assert any(x["exit_changes"] > 0 for x in sh.values())  # boundary nodes: shorter rows
assert len(rows) == 64
for r in rows:
    x=sh[r["shape"]]
    assert r["bottleneck"] == x["bottleneck"], (r, x)
    assert abs(float(r["exit_changes"]) - x["exit_changes"]) <= 0.5, (r, x)
    assert abs(float(r["stall_cycles"]) - x["stall_cycles"]) <= 0.5, (r, x)
' "$tmp/b.json" "$tmp/b.csv" && ok || bad "bcsr exit_changes and bottleneck"
else grep -q '"exit_changes"' "$tmp/b.json" && ok || bad "bcsr exit_changes"; fi
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=3 > "$tmp/bt.txt" 2>/dev/null
grep -q '^rank .* exits mispredicted  bound$' "$tmp/bt.txt" &&
	grep -q '^exits:   the branch predictor learns about [0-9]* changes' "$tmp/bt.txt" &&
	grep -Eq '^ +1 +[1-8]x[1-8] .* [0-9]+ +[0-9.]+%  (compute|memory-instructions|regular-transfer|irregular-transfer|in-core-schedule)$' "$tmp/bt.txt" &&
	ok || bad "bcsr table exits and bound: $(sed -n 1,14p "$tmp/bt.txt")"
# candidates: the pick first (ratio 1), then the shapes predicted within
# the margin, in order (those within the tie of the pick may be faster)
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); c=d["candidates"]; s=c["shapes"]
assert c["margin"] == 0.15, c
assert s[0]["shape"] == d["pick"] and s[0]["predicted_time_ratio"] == 1, s
r=[x["predicted_time_ratio"] for x in s]
assert r[1:] == sorted(r[1:]) and all(1 - d["tie"] <= x <= 1.15 for x in r), r
t={x["shape"]: x["predicted_time_s"] for x in d["shapes"]}
p=t[d["pick"]]
assert sorted(x["shape"] for x in s) == sorted(k for k, v in t.items() if v <= p * 1.15), s
assert "measured_gflops" not in s[0] and c["choice"] is None, c
' "$tmp/b.json" && ok || bad "bcsr candidates"
else grep -q '"candidates"' "$tmp/b.json" && ok || bad "bcsr candidates"; fi
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=3 --reps 1 \
	> "$tmp/b.txt" 2> /dev/null
grep -q -E '^close: +(no other shape predicted within 15% of the pick|[1-8]x[1-8] [-+][0-9.]+%)' \
	"$tmp/b.txt" && ok || bad "bcsr close line: $(grep close "$tmp/b.txt")"
# the 3x3 shape of a dof=3 FEM matrix has no fill
tr -d ' \t\n' < "$tmp/b.json" | grep -q '"shape":"3x3","rank":[0-9]*,"nblocks":[0-9]*,"fill":1,' \
	&& ok || bad "3x3 fill 1"
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:laplace2d:n=6 --measure --reps 1 \
	--format json > "$tmp/bm.json" 2>/dev/null || bad "bcsr --measure exit"
s=$(jnum "$tmp/bm.json" share_of_best)
awk -v s="$s" 'BEGIN { exit !(s > 0 && s <= 1) }' && ok || bad "share_of_best '$s'"
# (three tabs: the shapes array's entries, not the candidates')
[ "$(grep -c '^			"measured_gflops":	[0-9]' "$tmp/bm.json")" = 64 ] && ok || bad "measured per shape"
# the CSR time is measured again after the shapes, and whether it moved
grep -q '"csr_spmv_time_after_s":	[0-9]' "$tmp/bm.json" && ok || bad "csr_spmv_time_after_s"
grep -q -E '"speed_moved":	(true|false)' "$tmp/bm.json" && ok || bad "speed_moved"
# each shape measured at its 4 code placements (even with --reps 1), the
# fastest kept
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for s in d["shapes"]:
    p=s["measured_gflops_by_code_offset"]
    assert sorted(p)==["0","16","32","48"], p
    assert all(v > 0 for v in p.values()), p
    assert abs(max(p.values())-s["measured_gflops"]) <= 1e-9*s["measured_gflops"], s
' "$tmp/bm.json" && ok || bad "measured_gflops_by_code_offset"
else grep -q '"measured_gflops_by_code_offset"' "$tmp/bm.json" && ok || bad "by_code_offset"; fi
# the head to head: the 4 measured fastest and the pick, side by side;
# the paired share is the pick's median relative speed over the best's
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); p=d["paired"]
g={s["shape"]: s["measured_gflops"] for s in d["shapes"]}
top=sorted(g, key=lambda k: (-g[k], k))[:4]
fin=[f["shape"] for f in p["finalists"]]
want=top + ([d["pick"]] if d["pick"] not in top else [])
assert fin == want, (fin, want)
rel={f["shape"]: f["relative_speed"] for f in p["finalists"]}
assert all(v > 0 for v in rel.values()), rel
assert p["measured_best"] == max(rel, key=rel.get), p
assert abs(p["share_of_best"] - rel[d["pick"]] / max(rel.values())) < 1e-12, p
assert 0 < p["share_of_best"] <= 1 and p["passes"] == 7 and p["wall_s"] > 0, p
assert all(f["code_offset_bytes"] in (0, 16, 32, 48) for f in p["finalists"]), p
' "$tmp/bm.json" && ok || bad "bcsr --measure paired"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["paired"] is None' "$tmp/b.json" \
	&& ok || bad "paired null without --measure"
else grep -q '"paired":' "$tmp/bm.json" && ok || bad "paired"; fi
# --measure-close: only the pick and the close shapes run; the choice is
# the fastest of them; --margin 0.5 takes in more shapes than 0.15
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=3 --reps 1 \
	--rounds 1 --margin 0.5 --measure-close --format json > "$tmp/bc.json" \
	2> "$tmp/err" && ok || bad "bcsr --measure-close: $(cat "$tmp/err")"
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); c=d["candidates"]; s=c["shapes"]
assert c["margin"] == 0.5, c
t={x["shape"]: x["predicted_time_s"] for x in d["shapes"]}
p=t[d["pick"]]
assert sorted(x["shape"] for x in s) == sorted(k for k, v in t.items() if v <= p * 1.5), s
assert len(s) > 1, s
meas={x["shape"]: x["measured_gflops"] for x in s}
assert all(v > 0 for v in meas.values()), s
other=[x for x in d["shapes"] if x["shape"] not in meas]
assert other and all("measured_gflops" not in x for x in other), "only the candidates run"
assert c["choice"] == max(meas, key=meas.get), c
assert abs(c["pick_share_of_choice"] - meas[d["pick"]] / max(meas.values())) < 1e-12, c
assert d["measured_best"] is None and d["share_of_best"] is None, d
assert d["measurement_wall_s"] > 0, d
assert d["cost_with_measurement_spmv_equivalents"] > d["cost_spmv_equivalents"], d
' "$tmp/bc.json" && ok || bad "bcsr --measure-close json"
else grep -q '"choice":	"[1-8]x[1-8]"' "$tmp/bc.json" && ok || bad "bcsr choice"; fi
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=3 --reps 1 \
	--rounds 1 --measure-close > "$tmp/bc.txt" 2> /dev/null
grep -q -E '^choice: +[1-8]x[1-8], the fastest of the pick and the close shapes measured: [0-9.]+ GFLOPS' \
	"$tmp/bc.txt" && ok || bad "bcsr choice line: $(grep choice "$tmp/bc.txt")"
# with --measure (all 64), the choice's share of the best as well
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); c=d["candidates"]
g={x["shape"]: x["measured_gflops"] for x in d["shapes"]}
cand=[x["shape"] for x in c["shapes"]]
ch=max(cand, key=g.get)
assert c["choice"] == ch, (c, ch)
assert abs(c["choice_share_of_best"] - g[ch] / max(g.values())) < 1e-12, c
' "$tmp/bm.json" && ok || bad "bcsr --measure choice"
fi
# --vs-csr: the CSR kernel predicted as ppr predict -k spmv-csr predicts
# it (the same time), set against the pick: pick_speedup = its time /
# the pick's, advice bcsr from 1.02 on; without it csr_kernel is null;
# with --measure the CSR kernel's measured figure and whether the advice
# was right
grep -q '"csr_kernel":	null' "$tmp/b.json" && ok || bad "csr_kernel null without --vs-csr"
for mat in gen:fem3d:n=6,dof=3 gen:random:n=3000,per_row=20; do
	"$PPR" bcsr --machine "$M/zen4-epyc.json" "$mat" --vs-csr --format json \
		> "$tmp/v.json" 2> "$tmp/err" || bad "bcsr --vs-csr $mat: $(cat "$tmp/err")"
	"$PPR" predict --machine "$M/zen4-epyc.json" -k spmv-csr "$mat" \
		--no-advice --format json > "$tmp/vp.json" 2>/dev/null || bad "predict $mat"
	tc=$(jnum "$tmp/vp.json" time_s)
	vc=$(sed -n 's/^		"predicted_time_s":[	 ]*\([-0-9.e+]*\),*$/\1/p' "$tmp/v.json" | head -n 1)
	sp=$(sed -n 's/^		"pick_speedup":[	 ]*\([-0-9.e+]*\),*$/\1/p' "$tmp/v.json")
	ad=$(sed -n 's/^		"advice":[	 ]*"\(.*\)",*$/\1/p' "$tmp/v.json")
	pk=$(jstr "$tmp/v.json" pick)
	tp=$(tr -d '\n\t ' < "$tmp/v.json" | sed -n 's/.*"shape":"'"$pk"'","rank":[0-9]*,"nblocks":[0-9]*,"fill":[0-9.e+-]*,"nblocks_rel_err":[0-9.e+-]*,"predicted_time_s":\([0-9.e+-]*\),.*/\1/p')
	awk -v a="$tc" -v b="$vc" -v s="$sp" -v p="$tp" -v ad="$ad" 'BEGIN {
		if (!(a > 0 && b > 0 && p > 0)) exit 1
		d = b / a - 1; if (d > 1e-9 || d < -1e-9) exit 1
		d = b / p / s - 1; if (d > 1e-9 || d < -1e-9) exit 1
		exit !((s >= 1.02 && ad == "bcsr") || (s < 1.02 && ad == "csr")) }' &&
		ok || bad "$mat --vs-csr: CSR $vc (predict $tc), pick $pk $tp, speedup $sp, advice $ad"
	"$PPR" bcsr --machine "$M/zen4-epyc.json" "$mat" --vs-csr > "$tmp/v.txt" 2>/dev/null
	grep -q -E '^csr: +the CSR kernel predicted [0-9.e+-]+ s \([0-9.]+ GFLOPS\); the pick [0-9.]+x of it: (keep CSR|convert to BCSR '"$pk"') \(predicting it took' \
		"$tmp/v.txt" && ok || bad "$mat --vs-csr line: $(grep '^csr:' "$tmp/v.txt")"
done
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:laplace2d:n=6 --measure --reps 1 \
	--rounds 1 --vs-csr --format json > "$tmp/vm.json" 2>/dev/null || bad "bcsr --measure --vs-csr exit"
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); c=d["csr_kernel"]
g={x["shape"]: x["measured_gflops"] for x in d["shapes"]}
p=g[d["pick"]]
assert c["measured_gflops"] > 0, c
assert abs(c["measured_pick_speedup"] - p / c["measured_gflops"]) < 1e-9 * p, c
assert c["advice_right"] == ((c["advice"] == "bcsr") == (p > c["measured_gflops"])), c
assert c["prediction_wall_s"] > 0, c
' "$tmp/vm.json" && ok || bad "bcsr --measure --vs-csr json"
else grep -q '"advice_right"' "$tmp/vm.json" && ok || bad "advice_right"; fi
# --measure-close measures the CSR kernel among the candidates too
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=3 --measure-close \
	--reps 1 --rounds 1 --vs-csr > "$tmp/vc.txt" 2>/dev/null || bad "bcsr --measure-close --vs-csr exit"
grep -q -E '^measured CSR kernel: [0-9.]+ GFLOPS \(measured among the shapes\); the pick [0-9.]+x of it' \
	"$tmp/vc.txt" && ok || bad "measured CSR kernel line: $(grep -i 'csr kernel' "$tmp/vc.txt")"
"$PPR" bcsr --machine "$M/zen4-epyc.json" --margin 1.5 gen:laplace2d:n=5 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--margin '1.5'" "$tmp/e" && ok || bad "bcsr bad margin: $rc"
"$PPR" bcsr --machine "$M/zen4-epyc.json" --tie -0.1 gen:laplace2d:n=5 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--tie '-0.1'" "$tmp/e" && ok || bad "bcsr bad tie: $rc"
# the pick among near ties: by default (tie 0.02) the least fill of the
# shapes predicted within 2% of the fastest; --tie 0 picks the fastest
if command -v python3 > /dev/null 2>&1; then
for t in default 0 0.1; do
	ta=; [ $t = default ] || ta="--tie $t"
	"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:fem3d:n=6,dof=2 $ta \
		--format json > "$tmp/bt.json" 2> /dev/null
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); t=float(sys.argv[2])
assert d["tie"] == t, d["tie"]
s={x["shape"]: x for x in d["shapes"]}
f=min(x["predicted_time_s"] for x in d["shapes"])
near=[x for x in d["shapes"] if x["predicted_time_s"] <= f * (1 + t)]
p=s[d["pick"]]
assert p in near and p["rank"] == 1, p
assert all(p["fill"] <= x["fill"] for x in near), near
if t == 0: assert p["predicted_time_s"] == f, p
' "$tmp/bt.json" "$( [ $t = default ] && echo 0.02 || echo $t)" && ok || bad "bcsr --tie $t"
done
fi
# a tie that moves the pick: the 3-D Laplacian's fastest is not 1x1, which
# is the least fill of all and within 100% of it; the table says why
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:laplace3d:n=12 --tie 0 \
	--format csv 2> /dev/null | sed -n 2p > "$tmp/t0"
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:laplace3d:n=12 --tie 1 \
	> "$tmp/t1" 2> /dev/null
grep -q '^1,1x1,' "$tmp/t0" && bad "laplace3d n=12: 1x1 the fastest, the tie test moves nothing" || ok
grep -q '^pick: *1x1,' "$tmp/t1" && grep -q 'least fill (1.00) of the shapes predicted within 100% of the fastest' "$tmp/t1" \
	&& ok || bad "bcsr --tie 1: $(head -n 5 "$tmp/t1")"
"$PPR" bcsr gen:laplace2d:n=5 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && ok || bad "bcsr no machine: $rc"
"$PPR" bcsr --machine "$M/zen4-epyc.json" --sample 2 gen:laplace2d:n=5 > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && ok || bad "bcsr bad sample: $rc"
"$PPR" bcsr --machine "$M/zen4-epyc.json" "gen:nosuch:n=3" > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -ne 0 ] && grep -q '^ppr' "$tmp/e" && ok || bad "bcsr bad generator: $rc"


# Traffic of regular data prefetched into L2 reaches the levels below: on a
# machine whose 64 KiB L3 the matrix (49,600 nonzeros, 595,200 B of values
# and indices) overflows, the L3 must show at least those bytes coming from
# memory, and the DRAM intensity must stay below 2 flops per 12 bytes.
"$PPR" predict --machine "$ROOT/tests/data/machines/tiny-prefetch.json" \
	--kernel spmv-csr gen:laplace2d:n=100 --no-advice --format json \
	> "$tmp/tp.json" 2> "$tmp/err" && ok || bad "tiny-prefetch predict: $(cat "$tmp/err")"
l3reg=$(sed -n 's/^[	 ]*"bytes_regular":[	 ]*\([0-9.e+]*\),*$/\1/p' "$tmp/tp.json" | sed -n 3p)
dint=$(sed -n 's/^[	 ]*"dram_intensity":[	 ]*\([0-9.e+-]*\),*$/\1/p' "$tmp/tp.json" | head -n 1)
awk -v b="$l3reg" 'BEGIN { exit !(b + 0 >= 595200) }' && ok || bad "L3 regular bytes $l3reg < 595200 (prefetch fills lost)"
awk -v d="$dint" 'BEGIN { exit !(d + 0 > 0 && d + 0 < 2 / 12) }' && ok || bad "DRAM intensity $dint not in (0, 0.167)"

# A valid empty matrix predicts zero work and gets no BCSR advice (the
# selection has nothing to block), exit 0, for CSR and BCSR.
printf '%%%%MatrixMarket matrix coordinate real general\n3 4 0\n' > "$tmp/empty.mtx"
for k in "spmv-csr" "spmv-bcsr --block 2x2"; do
	# shellcheck disable=SC2086
	"$PPR" predict --machine "$M/zen4-epyc.json" --kernel $k "$tmp/empty.mtx" \
		--format json > "$tmp/e.json" 2> "$tmp/err"; rc=$?
	[ $rc -eq 0 ] && ok || bad "empty matrix $k: exit $rc $(cat "$tmp/err")"
	[ "$(jnum "$tmp/e.json" flops)" = 0 ] && ok || bad "empty matrix $k: flops"
	grep -q '"text":	"the matrix has no nonzeros: no work, no BCSR advice"' \
		"$tmp/e.json" && ok || bad "empty matrix $k: advice"
	grep -q '"alternative"' "$tmp/e.json" && bad "empty matrix $k: names a shape" || ok
	# No flops: the Roofline gives 0 GFLOPS in no time, not the peak.
	sed -n '/"roofline":/,/}/p' "$tmp/e.json" > "$tmp/er.json"
	grep -q '^		"gflops":	0,$' "$tmp/er.json" && grep -q '^		"time_s":	0,$' "$tmp/er.json" &&
		ok || bad "empty matrix $k: roofline $(tr -d '\n\t' < "$tmp/er.json")"
	grep -q '"dram_intensity":	null' "$tmp/er.json" && ok || bad "empty matrix $k: dram_intensity not null"
done
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel spmv-csr "$tmp/empty.mtx" \
	--no-advice > "$tmp/e.txt" 2> "$tmp/err"
grep -q '^  Roofline  *0  *0.000  (no flops: the Roofline bounds only the traffic.s time, and there is none)$' \
	"$tmp/e.txt" && ok || bad "empty matrix roofline row: $(grep Roofline "$tmp/e.txt")"
# no error range from the validation, whose matrices all had work to do
grep -qx 'error:      not known: the matrix has no nonzeros (the errors of a validation are those of matrices with work to do)' \
	"$tmp/e.txt" && ! grep -q 'measured time to expect' "$tmp/e.txt" && ok || bad "empty matrix error note: $(grep -A2 '^error' "$tmp/e.txt")"
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel spmv-csr "$tmp/empty.mtx" \
	--no-advice --format json > "$tmp/e.json" 2> "$tmp/err"
grep -q '^	"expected_error":	null' "$tmp/e.json" && ok || bad "empty matrix expected_error: $(grep expected_error "$tmp/e.json")"
"$PPR" bcsr --machine "$M/zen4-epyc.json" "$tmp/empty.mtx" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "ppr: error: $tmp/empty.mtx: the matrix has no nonzeros: no BCSR shape to pick" ] &&
	ok || bad "bcsr of an empty matrix: rc=$rc $(cat "$tmp/err")"

# Far references (model/predict.c): random columns on zen4-epyc, whose
# far_miss_cycles make them cost, are counted and named in the advice with
# their share of the time; a 5-point Laplacian's x has none to speak of.
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel spmv-csr \
	gen:random:n=20000,per_row=8,seed=2 --format json > "$tmp/r.json" 2> "$tmp/err" ||
	bad "predict random: $(cat "$tmp/err")"
grep -q '"text":	".*no prefetcher finds (random columns) take [0-9]*% of the predicted time' \
	"$tmp/r.json" && ok || bad "far-reference advice: $(grep '"text"' "$tmp/r.json")"
share=$(sed -n 's/^		"far_reference_share":[	 ]*\([0-9.e-]*\).*/\1/p' "$tmp/r.json")
awk -v s="$share" 'BEGIN { exit !(s > 0.05 && s < 1) }' && ok || bad "far_reference_share '$share'"
grep -q '"misses_far":	[1-9]' "$tmp/r.json" && ok || bad "misses_far of random columns"
grep -q '"not_hidden":' "$tmp/r.json" && ok || bad "phases.not_hidden"
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel spmv-csr \
	gen:laplace2d:n=300 --format json > "$tmp/l.json" 2> "$tmp/err" ||
	bad "predict laplace2d: $(cat "$tmp/err")"
grep -q 'no prefetcher finds' "$tmp/l.json" &&
	bad "far-reference advice on a 5-point Laplacian" || ok
share=$(sed -n 's/^		"far_reference_share":[	 ]*\([0-9.e-]*\).*/\1/p' "$tmp/l.json")
awk -v s="$share" 'BEGIN { exit !(s != "" && s < 0.01) }' && ok ||
	bad "far_reference_share of a 5-point Laplacian '$share'"
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel spmv-csr \
	gen:random:n=20000,per_row=8,seed=2 > "$tmp/r.txt" 2> "$tmp/err" || bad "table"
grep -q '^  not hidden ' "$tmp/r.txt" && grep -q '(far)' "$tmp/r.txt" && ok ||
	bad "table: not hidden / (far) column"

# the memory link: CSR takes zen4-epyc.json's CSR stream table at its row
# length (laplace2d n=30: 4,380 nonzeros in 900 rows, 4.87 per row, below
# the table's first row length: its 25.6 GB/s), and says so in the table;
# conv1d keeps the memory bandwidth (35)
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel spmv-csr --format json \
	gen:laplace2d:n=30 > "$tmp/ml.json" 2> /dev/null &&
tr -d ' \t\n' < "$tmp/ml.json" | grep -q '"memory_link":{"bandwidth_gbs":25.6[0-9]*,"source":"csr_bandwidth_gbs","row_nnz":4.86' \
	&& ok || bad "memory_link of CSR: $(grep -A4 memory_link "$tmp/ml.json")"
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel spmv-csr gen:laplace2d:n=30 \
	2> /dev/null | grep -q '^  memory link: 25.6 GB/s, what CSR streams get at 4.9 nonzeros per row' \
	&& ok || bad "memory link line in the table"
"$PPR" predict --machine "$M/zen4-epyc.json" --kernel conv1d --variant naive --n 4096 \
	--format json > "$tmp/mc.json" 2> /dev/null &&
tr -d ' \t\n' < "$tmp/mc.json" | grep -q '"memory_link":{"bandwidth_gbs":35,"source":"bandwidth_gbs"}' \
	&& ok || bad "memory_link of conv1d: $(grep -A3 memory_link "$tmp/mc.json")"

# a shared last level (usable_ways): near its edge the prediction is made
# again with one way fewer and one more; fewer ways cannot be faster.  The
# tiny machine's L2 keeps 8 of 16 ways of 4 KiB: laplace2d n=25 (about 51
# KB) is near that edge, n=100 (about 600 KB) far from it
cat > "$tmp/shared.json" <<'JSON'
{ "name": "tiny-shared", "clock_ghz": 2.0,
  "hierarchy": { "levels": [
    { "name": "L1D", "size_bytes": 1024, "sets": 4, "ways": 4, "cl_size": 64,
      "bandwidth_bytes_per_cycle": 64 },
    { "name": "L2", "size_bytes": 65536, "sets": 64, "ways": 16, "cl_size": 64,
      "bandwidth_bytes_per_cycle": 32, "usable_ways": 8 } ] },
  "memory": { "bandwidth_gbs": 16 } }
JSON
"$PPR" predict --machine "$tmp/shared.json" --kernel spmv-csr --format json \
	gen:laplace2d:n=25 > "$tmp/sh.json" 2> /dev/null &&
tr -d ' \t\n' < "$tmp/sh.json" | grep -q '"shared_level":{"level":"L2","ways":16,"usable_ways":8,' &&
awk -F'[:,}]' '/time_s_one_way_less/ { l = $2 } /time_s_one_way_more/ { m = $2 }
	END { exit !(l > 0 && m > 0 && l >= m) }' "$tmp/sh.json" \
	&& ok || bad "shared_level near the edge: $(grep -A6 shared_level "$tmp/sh.json")"
"$PPR" predict --machine "$tmp/shared.json" --kernel spmv-csr gen:laplace2d:n=25 2> /dev/null |
	grep -q '^  L2 share: 8 of 16 ways usable (it moves with the host.s other tenants): .* s with 7 ways, .* s with 9$' \
	&& ok || bad "shared level line in the table"
"$PPR" predict --machine "$tmp/shared.json" --kernel spmv-csr --format json \
	gen:laplace2d:n=100 > "$tmp/sh2.json" 2> /dev/null && ! grep -q shared_level "$tmp/sh2.json" \
	&& ok || bad "shared_level far from the edge"
# a last level that is DIP in part of its sets (lru_sets_share): predicted
# again with every set LRU and every set DIP; a loop larger than the share
# keeps more of itself under DIP, so that time is not the longer one, and
# the file's own time lies between the two (within 1%: the duel is not
# exactly linear in the share); plain DIP gets no such pair
sed 's/"usable_ways": 8 }/"usable_ways": 8, "replacement_policy": "dip", "lru_sets_share": 0.5 }/' \
	"$tmp/shared.json" > "$tmp/shared_dip.json"
"$PPR" predict --machine "$tmp/shared_dip.json" --kernel spmv-csr --format json \
	gen:laplace2d:n=25 > "$tmp/sh4.json" 2> /dev/null &&
awk -F'[:,}]' '/"time_s":[ \t]*[0-9]/ && !t { t = $2 } /time_s_all_sets_lru/ { l = $2 }
	/time_s_all_sets_dip/ { d = $2 }
	END { exit !(d > 0 && l > d && t <= l * 1.01 && t >= d * 0.99) }' "$tmp/sh4.json" \
	&& ok || bad "DIP share level: $(grep -A8 shared_level "$tmp/sh4.json")"
"$PPR" predict --machine "$tmp/shared_dip.json" --kernel spmv-csr gen:laplace2d:n=25 2> /dev/null |
	grep -q "^  L2 keeping none of a stream larger than it (LRU): .* s; keeping DIP's part of it: .* s" \
	&& ok || bad "DIP share line in the table"
sed 's/, "lru_sets_share": 0.5//' "$tmp/shared_dip.json" > "$tmp/shared_dip1.json"
"$PPR" predict --machine "$tmp/shared_dip1.json" --kernel spmv-csr --format json \
	gen:laplace2d:n=25 > "$tmp/sh5.json" 2> /dev/null && grep -q time_s_one_way_less "$tmp/sh5.json" &&
	! grep -q time_s_all_sets "$tmp/sh5.json" && ok || bad "plain DIP: no policy pair"
# tree-PLRU simulates power-of-two ways only: near the edge no neighbours
# are predicted, and the prediction itself still works
sed 's/"usable_ways": 8 }/"usable_ways": 8, "replacement_policy": "plru" }/' \
	"$tmp/shared.json" > "$tmp/shared_plru.json"
"$PPR" predict --machine "$tmp/shared_plru.json" --kernel spmv-csr --format json \
	gen:laplace2d:n=25 > "$tmp/sh3.json" 2> "$tmp/e" && ! grep -q shared_level "$tmp/sh3.json" \
	&& grep -q '"time_s"' "$tmp/sh3.json" && ok || bad "PLRU shared level: $(cat "$tmp/e")"

# ppr bcsr --cpu N: the measurements on that CPU, reported; bad values exit 2
cpu0=$(sed -n 's/^Cpus_allowed_list:[	 ]*\([0-9]*\).*/\1/p' /proc/self/status)
if [ -n "$cpu0" ]; then
	"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:laplace2d:n=6 --reps 1 \
		--cpu "$cpu0" --format json > "$tmp/bcpu.json" 2> "$tmp/e" &&
		[ "$(jnum "$tmp/bcpu.json" cpu)" = "$cpu0" ] && ok ||
		bad "bcsr --cpu $cpu0: $(cat "$tmp/e")"
fi
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:laplace2d:n=6 --reps 1 \
	--format json > "$tmp/bcpu.json" 2> "$tmp/e" &&
	grep -q '"cpu":	null' "$tmp/bcpu.json" && ok || bad "bcsr without --cpu: cpu not null"
"$PPR" bcsr --machine "$M/zen4-epyc.json" gen:laplace2d:n=6 --cpu 1024 \
	> /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q "cpu: '1024' is not a CPU number (allowed: " "$tmp/e" && ok ||
	bad "bcsr --cpu 1024: exit $rc: $(head -n 1 "$tmp/e")"

# The machine file's validation (bench/predict_spmv.sh VALIDATION=F): the
# error line of spmv-csr, its group by the share of mispredicted loop
# exits (R-MAT scale 10 predicts about 0.43 of its time in them on
# haswell.json: the "exits" group when the split is 0.4, "rest" at 0.5);
# none without a validation, and none for other kernels.
val_file() {  # val_file EXIT_SHARE OUT
	awk -v x="$1" 'NR == 1 { print "{ \"validation\": {\"spmv_csr\": {" \
		"\"date\": \"2026-12-07\", \"command\": \"sh b.sh\", " \
		"\"exit_share\": " x ", \"all\": {\"matrices\": 6, " \
		"\"median_abs_error\": 0.04, \"p90_abs_error\": 0.25, " \
		"\"min_error\": -0.25, \"min_matrix\": \"vt2010.mtx\", " \
		"\"max_error\": 0.12, \"max_matrix\": \"w.mtx\"}, " \
		"\"exits\": {\"matrices\": 2, \"median_abs_error\": 0.2, " \
		"\"p90_abs_error\": 0.25, \"min_error\": -0.25, " \
		"\"max_error\": 0.1}, \"rest\": {\"matrices\": 4, " \
		"\"median_abs_error\": 0.03, \"p90_abs_error\": 0.12, " \
		"\"min_error\": -0.05, \"max_error\": 0.12, " \
		"\"max_matrix\": \"w.mtx\"}}},"; next } { print }' \
		"$M/haswell.json" > "$2"
}
val_file 0.4 "$tmp/v4.json"
val_file 0.5 "$tmp/v5.json"
"$PPR" predict -m "$tmp/v4.json" -k spmv-csr gen:rmat:scale=10 --no-advice \
	> "$tmp/v4.txt" 2> "$tmp/e" || bad "predict with a validation: $(cat "$tmp/e")"
grep -qF "error:      this file's validation (2026-12-07, sh b.sh): CSR SpMV on 6 matrices, median |error| 4.0%, 90% within 25.0%, from -25.0% (vt2010.mtx) to +12.0% (w.mtx)" \
	"$tmp/v4.txt" && ok || bad "validation line: $(grep '^error' "$tmp/v4.txt")"
grep -q "^            4[0-9]% of this prediction is mispredicted loop exits: on the 2 matrices with at least 40%, median |error| 20.0%, 90% within 25.0%, from -25.0% to +10.0%\$" \
	"$tmp/v4.txt" && ok || bad "exits group line: $(grep -A1 '^error' "$tmp/v4.txt")"
# the time that group's -25% and +10% imply, to the table's 4 digits
t=$(sed -n 's/^PPR prediction: \([^ ]*\) s,.*/\1/p' "$tmp/v4.txt")
set -- $(sed -n 's/^            measured time to expect: \([^ ]*\) to \([^ ]*\) s (this prediction \/ (1 + error) at the extremes of those 2)$/\1 \2/p' "$tmp/v4.txt")
[ $# = 2 ] && awk -v t="$t" -v lo="$1" -v hi="$2" 'function rel(a, b) { return (a > b ? a - b : b - a) / b }
	BEGIN { exit !(rel(lo, t / 1.10) < 2e-3 && rel(hi, t / 0.75) < 2e-3) }' \
	&& ok || bad "time range line: t=$t $(grep 'measured time' "$tmp/v4.txt")"
"$PPR" predict -m "$tmp/v5.json" -k spmv-csr gen:rmat:scale=10 --no-advice \
	-f json > "$tmp/v5.json.out" 2> "$tmp/e" || bad "predict json: $(cat "$tmp/e")"
if command -v python3 > /dev/null 2>&1; then python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); e = d["expected_error"]; p = d["phases"]
assert abs(e["branch_share"] - p["branch_stalls"] / p["total"]) < 1e-12, e
assert 0.4 <= e["branch_share"] < 0.5, e
assert e["group"] == "rest" and e["matrices"] == 4, e
assert e["max_matrix"] == "w.mtx" and e["min_matrix"] == "", e
assert e["all"]["matrices"] == 6 and e["all"]["p90_abs_error"] == 0.25, e
assert e["exit_share"] == 0.5 and e["date"] == "2026-12-07", e
# measured = predicted / (1 + error), at the rest group: -5% and +12%
r, t = e["time_range_s"], d["time_s"]
assert abs(r["low"] / (t / 1.12) - 1) < 1e-12, (r, t)
assert abs(r["high"] / (t / 0.95) - 1) < 1e-12, (r, t)' "$tmp/v5.json.out" \
	&& ok || bad "expected_error json"
fi
"$PPR" predict -m "$M/haswell.json" -k spmv-csr gen:laplace2d:n=20 \
	--no-advice > "$tmp/nv.txt" 2> "$tmp/e"
grep -q "^error:      not known: this machine file has no validation" "$tmp/nv.txt" \
	&& ok || bad "no validation: $(grep '^error' "$tmp/nv.txt")"
"$PPR" predict -m "$M/haswell.json" -k spmv-csr gen:laplace2d:n=20 \
	--no-advice -f json 2> "$tmp/e" | grep -q '^	"expected_error":	null' \
	&& ok || bad "no validation: expected_error not null"
"$PPR" predict -m "$tmp/v4.json" -k conv1d --n 4096 --no-advice > "$tmp/c.txt" 2> "$tmp/e" &&
	! grep -q "^error:" "$tmp/c.txt" && ok || bad "conv1d printed an error line"
"$PPR" machine show "$tmp/v4.json" 2> "$tmp/e" | grep -qF "Validated:         CSR SpMV on 6 matrices, 2026-12-07: median |error| 4.0%, 90% within 25.0%, -25.0% to +12.0%; 2 with 40% or more mispredicted loop exits: median 20.0%, -25.0% to +10.0%" \
	&& ok || bad "machine show: no Validated line: $(cat "$tmp/e")"

# ppr bcsr's trust line from the validation's bcsr_pick; "not known"
# without one; JSON validation (null without)
awk 'NR == 1 { print "{ \"validation\": {\"bcsr_pick\": {\"date\": " \
	"\"2026-12-07\", \"matrices\": 43, \"at_least_95\": 38, " \
	"\"mean_share\": 0.989, \"min_share\": 0.91, \"min_matrix\": " \
	"\"bcsstk16.mtx.gz\", \"min_pick\": \"3x1\", \"min_best\": \"6x1\", " \
	"\"close_min_share\": 0.993}},"; next } { print }' \
	"$M/haswell.json" > "$tmp/vb.json"
"$PPR" bcsr -m "$tmp/vb.json" gen:laplace2d:n=20 --reps 1 > "$tmp/vb.txt" 2> "$tmp/e" &&
	grep -qxF "trust:   on this file's validation (2026-12-07), the pick reached 0.989 of the measured best on average, 0.95 or more on 38 of 43 matrices, 0.910 at least (bcsstk16.mtx.gz: 3x1 picked, best 6x1); measuring the close shapes too (--measure-close) reached 0.993 at least" \
	"$tmp/vb.txt" && ok || bad "bcsr trust line: $(grep '^trust' "$tmp/vb.txt") $(cat "$tmp/e")"
"$PPR" bcsr -m "$tmp/vb.json" gen:laplace2d:n=20 --reps 1 -f json 2> "$tmp/e" |
	grep -q '^	\(	\)*"min_best":	"6x1",' && ok || bad "bcsr json validation: $(cat "$tmp/e")"
"$PPR" bcsr -m "$M/haswell.json" gen:laplace2d:n=20 --reps 1 2> "$tmp/e" |
	grep -q "^trust:   not known: this machine file has no validation of the picks" \
	&& ok || bad "bcsr without a validation: no 'not known'"
"$PPR" bcsr -m "$M/haswell.json" gen:laplace2d:n=20 --reps 1 -f json 2> "$tmp/e" |
	grep -q '^	"validation":	null' && ok || bad "bcsr json: validation not null"
"$PPR" machine show "$tmp/vb.json" 2> "$tmp/e" | grep -qxF "Validated:         BCSR picks on 43 matrices, 2026-12-07: 0.989 of the measured best on average, 0.910 at least, 0.95 or more on 38" \
	&& ok || bad "machine show: no BCSR Validated line"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
