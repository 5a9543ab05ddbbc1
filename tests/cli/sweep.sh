#!/bin/sh
# CLI tests of `ppr sweep`, `ppr sweep merge`, `ppr sweep diff`: inputs,
# error records, timeout, memory limit, resume after SIGKILL and after a
# partial last line, shards + merge = single run, duplicates and gaps, CSV,
# and the GNU parallel recipe of docs/sweep.md.  Jobs are `matrix info`
# (--info: fast); bench/sweep.sh runs `ppr predict` sweeps.
# Run from the project root with PPR=path/to/ppr.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; *) PPR=$(pwd)/$PPR ;; esac
SHARED=../shared/matrices
pass=0; fail=0; skip=0
tmp=$(mktemp -d /tmp/ppr_cli_sweep.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP: $*"; }

# expect_rc WANT CMD... : exit status (stdout in $tmp/out, stderr in $tmp/err)
expect_rc() {
	want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$* -> exit $rc, want $want"; head -5 "$tmp/err"; fi
}
lines() { wc -l <"$1" | tr -d ' '; }
# count_status FILE ok|error
count_status() { grep -c "\"status\":\"$2\"" "$1"; }
# rec_of FILE INPUT : the record line of INPUT
rec_of() { grep -F "{\"key\":{\"input\":\"$2\"," "$1"; }

# --- usage -------------------------------------------------------------------
expect_rc 0 "$PPR" sweep --help
grep -q '^usage: ppr sweep' "$tmp/out" && ok || bad "help on stdout"
expect_rc 2 "$PPR" sweep --info -o "$tmp/x.jsonl"
grep -q 'no INPUT' "$tmp/err" && ok || bad "no input message"
expect_rc 2 "$PPR" sweep --info gen:laplace2d:n=4
grep -q 'no results file' "$tmp/err" && ok || bad "no -o message"
expect_rc 2 "$PPR" sweep --info --shard 2/2 gen:laplace2d:n=4 -o "$tmp/x.jsonl"
expect_rc 2 "$PPR" sweep --info --shard 1 gen:laplace2d:n=4 -o "$tmp/x.jsonl"
expect_rc 2 "$PPR" sweep --info --jobs 0 gen:laplace2d:n=4 -o "$tmp/x.jsonl"
expect_rc 2 "$PPR" sweep gen:laplace2d:n=4 -o "$tmp/x.jsonl"
grep -q -- '--machine' "$tmp/err" && ok || bad "predict without machine: message"
expect_rc 1 "$PPR" sweep --info @"$tmp/nolist" -o "$tmp/x.jsonl"
[ "$(lines "$tmp/err")" = 1 ] && ok || bad "missing @list: one line"

# --- inputs: directories, @lists, gen specs, order, duplicates ----------------
mkdir -p "$tmp/d/sub" "$tmp/d/.hidden"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n3 3 3\n' >"$tmp/d/a.mtx"
cp "$tmp/d/a.mtx" "$tmp/d/sub/b.mtx"
gzip -c "$tmp/d/a.mtx" >"$tmp/d/sub/c.mtx.gz"
cp "$tmp/d/a.mtx" "$tmp/d/.hidden/h.mtx"
echo 'not a matrix' >"$tmp/d/notes.txt"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n' >"$tmp/d/sub/bad.mtx"
printf '# inputs\n\ngen:laplace2d:n=10\n  %s  \ngen:random:n=100,per_row=3,seed=4\n%s/d/a.mtx\n' \
	"$tmp/d/sub/b.mtx" "$tmp" >"$tmp/list"
expect_rc 0 "$PPR" sweep --info -j 2 "$tmp/d" @"$tmp/list" "$tmp/none.mtx" gen:laplace2d:n=10 \
	-o "$tmp/r1.jsonl" --csv "$tmp/r1.csv"
# a.mtx, sub/b.mtx, sub/bad.mtx, sub/c.mtx.gz, none.mtx, 2 gen = 7
[ "$(lines "$tmp/r1.jsonl")" = 7 ] && ok || bad "7 records (dirs recursive, .gz, no hidden/.txt, duplicates once), got $(lines "$tmp/r1.jsonl")"
[ "$(count_status "$tmp/r1.jsonl" ok)" = 5 ] && ok || bad "5 ok records"
[ "$(count_status "$tmp/r1.jsonl" error)" = 2 ] && ok || bad "2 error records"
rec_of "$tmp/r1.jsonl" "$tmp/d/sub/bad.mtx" | grep -qF "\"error\":\"$tmp/d/sub/bad.mtx:3: row index 4 is out of range 1..3\"" \
	&& ok || bad "bad file: the child's one-line reason in the record"
rec_of "$tmp/r1.jsonl" "$tmp/none.mtx" | grep -q '"status":"error","error":"[^"]*none.mtx' && ok || bad "missing file: error record naming it"
rec_of "$tmp/r1.jsonl" "gen:laplace2d:n=10" | grep -q '"result":{.*"nnz":460' && ok || bad "gen record carries the child's JSON (nnz 460)"
grep -q '"inputs_total":7' "$tmp/r1.jsonl" && ok || bad "inputs_total 7"
grep -q 'h.mtx' "$tmp/r1.jsonl" && bad "hidden directory searched" || ok
grep -q '7 of 7 jobs' "$tmp/err" && grep -q '5 done, 2 failed, 0 skipped' "$tmp/err" && ok || bad "summary: $(tail -1 "$tmp/err")"
grep -q '^\[7/7\] ' "$tmp/err" && ok || bad "plain progress lines when stderr is not a terminal"
# run order: generator specs first, then files largest first (-j 1 appends
# records in the order jobs run)
printf '%%%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n' >"$tmp/small.mtx"
expect_rc 0 "$PPR" sweep --info -j 1 "$tmp/small.mtx" "$tmp/d/a.mtx" gen:laplace2d:n=3 -o "$tmp/order.jsonl"
[ "$(sed -n 's/^{"key":{"input":"\([^"]*\)".*/\1/p' "$tmp/order.jsonl" | tr '\n' ' ')" = "gen:laplace2d:n=3 $tmp/d/a.mtx $tmp/small.mtx " ] \
	&& ok || bad "run order: gen first, then larger files first: $(cut -c1-60 "$tmp/order.jsonl" | tr '\n' ' ')"
# dry run: sorted input order
"$PPR" sweep --info --dry-run "$tmp/d" @"$tmp/list" "$tmp/none.mtx" >"$tmp/dry" 2>/dev/null
sort -c "$tmp/dry" 2>/dev/null; awk '{print $NF}' "$tmp/dry" | LC_ALL=C sort -c && ok || bad "inputs in sorted order"

# --- CSV -----------------------------------------------------------------------
head -n 1 "$tmp/r1.csv" | grep -q '^input,machine,kernel,options,status,time_s,time_low_s,time_high_s,ecm_time_s,roofline_time_s,gflops,bottleneck,pick,nnz,elapsed_s,error' && ok || bad "csv header"
[ "$(lines "$tmp/r1.csv")" = 8 ] && ok || bad "csv: header + 7 rows"
grep -q '^"gen:random:n=100,per_row=3,seed=4",,none,fill,ok,,,,,,,,,300,' "$tmp/r1.csv" && ok || bad "csv: quoted input with commas, nnz"
grep -q "bad.mtx,,none,fill,error,.*row index 4 is out of range" "$tmp/r1.csv" && ok || bad "csv: error row"
[ "$(tr -cd '\r' <"$tmp/r1.csv" | wc -c)" = 8 ] && ok || bad "csv: CRLF line ends (RFC 4180)"
# the measured time a CSR prediction's validation implies: its record's
# expected_error.time_range_s in the CSV; empty with a machine file without
expect_rc 0 "$PPR" sweep -j 1 -q -m machines/zen4-epyc.json -m machines/haswell.json \
	gen:laplace3d:n=20 -o "$tmp/rng.jsonl" --csv "$tmp/rng.csv"
rng=$(awk -F, 'NR > 1 && $2 ~ /zen4-epyc/ { print $6, $7, $8 }' "$tmp/rng.csv")
set -- $rng
[ $# = 3 ] && awk -v t="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(lo > 0 && lo < t && t < hi) }' \
	&& ok || bad "csv: time_low_s < time_s < time_high_s with a validation: '$rng'"
jr=$(sed -n 's/.*"time_range_s":{"low":\([^,]*\),"high":\([^}]*\)}.*/\1 \2/p' "$tmp/rng.jsonl")
set -- $jr
[ $# = 2 ] && awk -v a="$1" -v b="$2" -v lo="$(echo "$rng" | cut -d' ' -f2)" -v hi="$(echo "$rng" | cut -d' ' -f3)" \
	'BEGIN { d = (a - lo) / a; e = (b - hi) / b; exit !(d * d < 1e-16 && e * e < 1e-16) }' \
	&& ok || bad "csv range = the record's time_range_s (to 1e-8, the CSV's 9 digits): '$jr' / '$rng'"
awk -F, 'NR > 1 && $2 ~ /haswell/ { exit !($6 > 0 && $7 == "" && $8 == "") }' "$tmp/rng.csv" \
	&& ok || bad "csv: no range without a validation: $(grep haswell "$tmp/rng.csv")"
# the ECM's and the Roofline's times beside PPR's: the records' ecm.time_s
# and roofline.time_s (to the CSV's 9 digits)
mt=$(sed -n 's/.*"ecm":{[^}]*"time_s":\([^,}]*\).*"roofline":{[^}]*"time_s":\([^,}]*\).*/\1 \2/p' "$tmp/rng.jsonl" | head -n 1)
cm=$(awk -F, 'NR == 2 { print $9, $10 }' "$tmp/rng.csv")
[ -n "$mt" ] && awk -v a="$mt" -v b="$cm" 'BEGIN { split(a, x, " "); split(b, y, " ");
	d = (x[1] - y[1]) / x[1]; e = (x[2] - y[2]) / x[2]; exit !(x[2] > 0 && d * d < 1e-16 && e * e < 1e-16) }' \
	&& ok || bad "csv: ecm_time_s, roofline_time_s '$cm' != the record's '$mt'"

# --- resume: nothing to do; partial last line dropped --------------------------
cp "$tmp/r1.jsonl" "$tmp/r1.orig"
expect_rc 0 "$PPR" sweep --info -j 2 "$tmp/d" @"$tmp/list" "$tmp/none.mtx" -o "$tmp/r1.jsonl"
grep -q '0 done, 0 failed, 7 skipped' "$tmp/err" && ok || bad "rerun skips all: $(tail -1 "$tmp/err")"
cmp -s "$tmp/r1.jsonl" "$tmp/r1.orig" && ok || bad "rerun left the file unchanged"
# cut the file: 4 complete records + half of the 5th
head -n 4 "$tmp/r1.orig" >"$tmp/r2.jsonl"
sed -n 5p "$tmp/r1.orig" | head -c 60 >>"$tmp/r2.jsonl"
expect_rc 0 "$PPR" sweep --info -j 2 "$tmp/d" @"$tmp/list" "$tmp/none.mtx" -o "$tmp/r2.jsonl"
grep -q "r2.jsonl:5: dropped a partial last record" "$tmp/err" && ok || bad "partial line warning: $(head -1 "$tmp/err")"
grep -q '4 skipped' "$tmp/err" && ok || bad "4 skipped after the cut"
[ "$(lines "$tmp/r2.jsonl")" = 7 ] && ok || bad "7 records after resume"
expect_rc 0 "$PPR" sweep diff "$tmp/r1.orig" "$tmp/r2.jsonl"
grep -q '(same)' "$tmp/err" && ok || bad "resumed = uninterrupted"
# a broken complete line is an error naming file:line, not silently skipped
{ head -n 2 "$tmp/r1.orig"; echo '{"key": 3}'; } >"$tmp/r3.jsonl"
expect_rc 1 "$PPR" sweep --info "$tmp/d" -o "$tmp/r3.jsonl"
grep -q "r3.jsonl:3: not a sweep record" "$tmp/err" && ok || bad "broken line: $(cat "$tmp/err")"

# --- diff can fail -------------------------------------------------------------
sed 's/"nnz":460,/"nnz":461,/' "$tmp/r1.orig" >"$tmp/r1.mod"
expect_rc 3 "$PPR" sweep diff "$tmp/r1.orig" "$tmp/r1.mod"
grep -q 'differ: gen:laplace2d:n=10 .*: result.nnz' "$tmp/err" && ok || bad "diff names result.nnz"
expect_rc 0 "$PPR" sweep diff --tol 0.01 "$tmp/r1.orig" "$tmp/r1.mod"
expect_rc 3 "$PPR" sweep diff --tol 0.001 "$tmp/r1.orig" "$tmp/r1.mod"
expect_rc 2 "$PPR" sweep diff --tol x "$tmp/r1.orig" "$tmp/r1.mod"
head -n 6 "$tmp/r1.orig" >"$tmp/r1.short"
expect_rc 3 "$PPR" sweep diff "$tmp/r1.orig" "$tmp/r1.short"
grep -q '1 only in A' "$tmp/err" && ok || bad "diff: a key only in A"

# --- timeout, memory limit: error records, the sweep goes on --------------------
# (laplace3d n=150 takes 10 s here; laplace2d n=5 0.02 s, 0.9 s under ASAN on a loaded machine)
expect_rc 0 "$PPR" sweep --info --timeout 2 gen:laplace3d:n=150 gen:laplace2d:n=5 -o "$tmp/t.jsonl"
rec_of "$tmp/t.jsonl" gen:laplace3d:n=150 | grep -q '"status":"error","error":"timeout after 2 s (killed)"' && ok || bad "timeout record: $(cut -c1-300 "$tmp/t.jsonl")"
rec_of "$tmp/t.jsonl" gen:laplace2d:n=5 | grep -q '"status":"ok"' && ok || bad "sweep went on after the timeout"
if ASAN_OPTIONS=help=1 "$PPR" --version 2>&1 | grep -q AddressSanitizer; then
	skipped "--job-memory (RLIMIT_AS) is not enforced on an AddressSanitizer build"
else
	expect_rc 0 "$PPR" sweep --info --job-memory 24 gen:laplace3d:n=80 gen:laplace2d:n=5 -o "$tmp/m.jsonl"
	rec_of "$tmp/m.jsonl" gen:laplace3d:n=80 | grep -q '"status":"error","error":"[^"]*memory' && ok || bad "memory-limit record: $(head -c 400 "$tmp/m.jsonl")"
	rec_of "$tmp/m.jsonl" gen:laplace2d:n=5 | grep -q '"status":"ok"' && ok || bad "sweep went on after out of memory"
	# --retry-errors reruns the error key (here: still too big, a second record)
	expect_rc 0 "$PPR" sweep --info --job-memory 24 --retry-errors gen:laplace3d:n=80 gen:laplace2d:n=5 -o "$tmp/m.jsonl"
	[ "$(lines "$tmp/m.jsonl")" = 3 ] && grep -q '1 failed, 1 skipped' "$tmp/err" && ok || bad "--retry-errors: $(tail -1 "$tmp/err")"
fi

# --- a worker that crashes in a job: an error record, the sweep goes on --------
"$PPR" sweep --info -j 1 gen:laplace2d:n=5 gen:laplace3d:n=150 gen:random:n=100,per_row=3,seed=4 \
	-o "$tmp/seg.jsonl" 2>"$tmp/seg.err" &
spid=$!
i=0
while [ "$(cat "$tmp/seg.jsonl" 2>/dev/null | wc -l)" -lt 1 ] && [ $i -lt 400 ]; do sleep 0.02; i=$((i + 1)); done
sleep 0.2
pkill -ABRT -P $spid
wait $spid; rc=$?
[ $rc = 0 ] && ok || bad "sweep with a crashed job: exit $rc"
rec_of "$tmp/seg.jsonl" gen:laplace3d:n=150 | grep -q '"status":"error","error":"killed by signal 6 (Aborted)' && ok || bad "crash record: $(rec_of "$tmp/seg.jsonl" gen:laplace3d:n=150 | cut -c1-200)"
rec_of "$tmp/seg.jsonl" gen:random:n=100,per_row=3,seed=4 | grep -q '"status":"ok"' && ok || bad "the job after the crash ran in a new worker"

# --- jobs run one after another in a worker = each job in a fresh process ------
set -- gen:laplace2d:n=30 gen:random:n=300,per_row=5,seed=2 "$tmp/d/a.mtx" "$tmp/d/sub/bad.mtx" gen:laplace3d:n=9
expect_rc 0 "$PPR" sweep --info -j 1 "$@" -o "$tmp/one.jsonl"
for f in "$@"; do "$PPR" sweep --info -j 1 "$f" -o "$tmp/each.jsonl" 2>/dev/null; done
expect_rc 0 "$PPR" sweep diff "$tmp/one.jsonl" "$tmp/each.jsonl"
grep -q '5 keys in A, 5 in B: 0 only in A, 0 only in B, 0 differ (same)' "$tmp/err" && ok || bad "one worker = a process per job: $(cat "$tmp/err")"

# --- SIGKILL halfway, restart = uninterrupted run ------------------------------
set -- gen:laplace3d:n=30 gen:laplace3d:n=32 gen:laplace3d:n=34 gen:laplace3d:n=36 \
	gen:laplace3d:n=38 gen:laplace3d:n=40 gen:laplace3d:n=42 gen:laplace3d:n=44 \
	gen:laplace3d:n=46 gen:laplace3d:n=48
"$PPR" sweep --info -j 2 "$@" -o "$tmp/full.jsonl" 2>/dev/null
"$PPR" sweep --info -j 2 "$@" -o "$tmp/k.jsonl" 2>/dev/null &
spid=$!
i=0
while [ "$(cat "$tmp/k.jsonl" 2>/dev/null | wc -l)" -lt 3 ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
workers=$(pgrep -P $spid)
kill -9 $spid 2>/dev/null; wait $spid 2>/dev/null
nk=$(lines "$tmp/k.jsonl")
[ "$nk" -ge 3 ] && [ "$nk" -lt 10 ] && ok || bad "killed halfway ($nk of 10 records)"
[ -n "$workers" ] && ok || bad "no worker process seen while the sweep ran"
i=0; alive=$workers
while [ -n "$alive" ] && [ $i -lt 40 ]; do
	sleep 0.05; i=$((i + 1)); alive=""
	for w in $workers; do kill -0 "$w" 2>/dev/null && alive="$alive $w"; done
done
[ -z "$alive" ] && ok || bad "workers outlived the killed sweep:$alive"
expect_rc 0 "$PPR" sweep --info -j 2 "$@" -o "$tmp/k.jsonl"
grep -q "$nk skipped" "$tmp/err" && ok || bad "restart skipped the $nk done: $(tail -1 "$tmp/err")"
expect_rc 0 "$PPR" sweep diff "$tmp/full.jsonl" "$tmp/k.jsonl"
grep -q '10 keys in A, 10 in B: 0 only in A, 0 only in B, 0 differ (same)' "$tmp/err" && ok || bad "killed+restarted = uninterrupted: $(cat "$tmp/err")"

# SIGTERM: children killed, completed records kept, exit 128+15, resumable
"$PPR" sweep --info -j 2 "$@" -o "$tmp/int.jsonl" 2>"$tmp/int.err" &
spid=$!
i=0
while [ "$(cat "$tmp/int.jsonl" 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $spid; wait $spid; rc=$?
[ $rc = 143 ] && ok || bad "SIGTERM: exit $rc, want 143"
grep -q '(interrupted)' "$tmp/int.err" && ok || bad "SIGTERM: summary says interrupted"
[ "$(tail -c 1 "$tmp/int.jsonl" | od -An -c | tr -d ' ')" = '\n' ] && ok || bad "SIGTERM: no partial line"
expect_rc 0 "$PPR" sweep --info -j 2 "$@" -o "$tmp/int.jsonl"
expect_rc 0 "$PPR" sweep diff "$tmp/full.jsonl" "$tmp/int.jsonl"

# --- shards + merge = single run; gaps; duplicates -----------------------------
: >"$tmp/dry.all"
for s in 0 1 2; do
	"$PPR" sweep --info --shard $s/3 "$@" -o "$tmp/s$s.jsonl" 2>/dev/null || bad "shard $s/3"
	"$PPR" sweep --info --shard $s/3 --dry-run "$@" 2>/dev/null | awk '{print $1}' >>"$tmp/dry.all"
done
[ "$(sort -n "$tmp/dry.all" | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 " ] && ok || bad "shards: disjoint, cover all inputs"
[ "$(lines "$tmp/s1.jsonl")" = 3 ] && grep -q '"shard":"1/3","input_index":4,' "$tmp/s1.jsonl" && ok || bad "shard 1/3 = inputs 1,4,7"
expect_rc 0 "$PPR" sweep merge "$tmp/s0.jsonl" "$tmp/s1.jsonl" "$tmp/s2.jsonl" -o "$tmp/merged.jsonl"
grep -q '10 keys (10 ok, 0 error), 0 duplicates dropped, no gaps' "$tmp/err" && ok || bad "merge summary: $(cat "$tmp/err")"
expect_rc 0 "$PPR" sweep diff "$tmp/full.jsonl" "$tmp/merged.jsonl"
grep -q '(same)' "$tmp/err" && ok || bad "merge(shards) = single run"
expect_rc 0 "$PPR" sweep merge "$tmp/s0.jsonl" "$tmp/s2.jsonl" -o "$tmp/gap.jsonl"
grep -q 'gap: 3 of 10 inputs have no record' "$tmp/err" && ok || bad "gap count: $(cat "$tmp/err")"
grep -q 'gap: shard 1/3 has no record at all' "$tmp/err" && ok || bad "missing shard named"
grep -q 'gap: input #4 (shard 1/3)' "$tmp/err" && ok || bad "missing input named"
expect_rc 3 "$PPR" sweep merge --strict "$tmp/s0.jsonl" "$tmp/s2.jsonl" -o "$tmp/gap.jsonl"
# duplicates: an error record and an ok record of one key -> the ok one
rec_of "$tmp/s1.jsonl" gen:laplace3d:n=32 | sed 's/"status":"ok"/"status":"error","error":"made up"/' >"$tmp/dup.jsonl"
expect_rc 0 "$PPR" sweep merge "$tmp/dup.jsonl" "$tmp/s0.jsonl" "$tmp/s1.jsonl" "$tmp/s2.jsonl" -o "$tmp/m2.jsonl"
grep -q 'duplicate key (gen:laplace3d:n=32 .*kept .*s1.jsonl:[0-9]* (the ok one)' "$tmp/err" && ok || bad "duplicate: ok kept: $(head -2 "$tmp/err")"
grep -q '1 duplicates dropped' "$tmp/err" && ok || bad "duplicate count"
expect_rc 0 "$PPR" sweep diff "$tmp/full.jsonl" "$tmp/m2.jsonl"
# same status twice -> the newest (the single run was written before the shards)
expect_rc 0 "$PPR" sweep merge "$tmp/s0.jsonl" "$tmp/full.jsonl" -o "$tmp/m3.jsonl" --csv "$tmp/m3.csv"
grep -q 'duplicate key (gen:laplace3d:n=30 .*kept .*s0.jsonl:1 (the newest)' "$tmp/err" && ok || bad "duplicate: newest kept: $(head -2 "$tmp/err")"
[ "$(lines "$tmp/m3.csv")" = 11 ] && ok || bad "merge --csv: header + 10 rows"
# merge output is sorted by key: merging it again changes nothing
"$PPR" sweep merge "$tmp/m3.jsonl" -o "$tmp/m4.jsonl" 2>/dev/null
cmp -s "$tmp/m3.jsonl" "$tmp/m4.jsonl" && ok || bad "merge is idempotent"

# --- the GNU parallel recipe of docs/sweep.md (2 shards) -----------------------
if command -v parallel >/dev/null 2>&1; then
	( cd "$tmp" && parallel --will-cite --halt now,fail=1 \
		"$PPR" sweep --info -j 1 --shard {}/2 "$@" -o part{}.jsonl ::: 0 1 ) 2>"$tmp/par.err" \
		&& ok || { bad "parallel recipe failed"; head -5 "$tmp/par.err"; }
	expect_rc 0 "$PPR" sweep merge "$tmp"/part0.jsonl "$tmp"/part1.jsonl -o "$tmp/par.jsonl"
	grep -q 'no gaps' "$tmp/err" && ok || bad "parallel: no gaps"
	expect_rc 0 "$PPR" sweep diff "$tmp/full.jsonl" "$tmp/par.jsonl"
	grep -q '(same)' "$tmp/err" && ok || bad "parallel shards merged = single run"
else
	skipped "GNU parallel not installed (scripts/install-deps.sh installs it)"
fi

# --- --bcsr --measure-close: passed to ppr bcsr only, part of the key ------
expect_rc 0 "$PPR" sweep -q --bcsr --measure-close -k spmv-csr \
	-m machines/zen4-epyc.json gen:laplace2d:n=6 -o "$tmp/mc.jsonl"
if command -v python3 >/dev/null 2>&1; then python3 -c 'import json,sys
r={x["key"]["kernel"]: x for x in map(json.loads, open(sys.argv[1]))}
b=r["bcsr"]; p=r["spmv-csr"]
assert b["status"] == "ok" and b["key"]["options"] == "measure-close", b["key"]
c=b["result"]["candidates"]
assert c["choice"] in [x["shape"] for x in c["shapes"]], c
assert all(x["measured_gflops"] > 0 for x in c["shapes"]), c
assert p["key"]["options"] == "" and "measured_gflops" not in json.dumps(p["result"]), p["key"]
' "$tmp/mc.jsonl" && ok || bad "sweep --bcsr --measure-close records"
else grep -q '"options":"measure-close"' "$tmp/mc.jsonl" && ok || bad "sweep measure-close key"; fi

# --- ../shared/matrices/reader_cases: every file a record, as matrix info says --
if [ -d "$SHARED/reader_cases" ]; then
	expect_rc 0 "$PPR" sweep --info -j 2 "$SHARED/reader_cases" -o "$tmp/rc.jsonl"
	nf=$(find "$SHARED/reader_cases" -type f \( -name '*.mtx' -o -name '*.mtx.gz' -o -name '*.r[su]a' -o -name '*.rb' -o -name '*.psa' -o -name '*.cua' -o -name '*.rra' \) | wc -l)
	[ "$(lines "$tmp/rc.jsonl")" = "$nf" ] && ok || bad "reader_cases: $(lines "$tmp/rc.jsonl") records for $nf files"
	mism=0
	for f in "$SHARED"/reader_cases/*; do
		case $f in *.tsv|*.md) continue ;; esac
		if "$PPR" matrix info "$f" >/dev/null 2>"$tmp/e1"; then want='"status":"ok"'
		else want="\"status\":\"error\",\"error\":\"$(sed 's/^ppr: error: //; s/\\/\\\\/g; s/"/\\"/g' "$tmp/e1" | tail -n 1)\""; fi
		rec_of "$tmp/rc.jsonl" "$f" | grep -qF "$want" || { mism=$((mism + 1)); [ $mism -le 3 ] && echo "  mismatch: $f: want $want"; }
	done
	[ $mism = 0 ] && ok || bad "reader_cases: $mism records differ from matrix info's verdict"
else
	skipped "$SHARED/reader_cases absent"
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
