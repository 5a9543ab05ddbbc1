#!/bin/sh
# trace.sh - golden tests of `ppr trace convert` and `ppr trace info`:
# round trips through every format, pipes, file sizes worked out by hand,
# and error cases with their exact message and exit status.
PPR=${PPR:-./ppr}
case $PPR in /*) ;; */*) PPR=$(pwd)/$PPR ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run args...: the command must succeed
run() {
	if "$@" > "$tmp/out" 2> "$tmp/err"; then ok
	else bad "$*: exit $?: $(cat "$tmp/err")"; fi
}

# fails STATUS MESSAGE args...: exit STATUS, first stderr line MESSAGE
fails() {
	want_status=$1
	want_msg=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	status=$?
	msg=$(head -n 1 "$tmp/err")
	if [ "$status" = "$want_status" ] && [ "$msg" = "$want_msg" ]; then ok
	else bad "$*: exit $status '$msg', want exit $want_status '$want_msg'"; fi
}

same() {
	if cmp -s "$1" "$2"; then ok; else bad "$1 and $2 differ"; fi
}

# csv FILE COLUMN: a field of the data row of `trace info --format csv`
csv() {
	awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		NR == 2 { print $c }' "$1"
}

expect_eq() {
	if [ "$1" = "$2" ]; then ok; else bad "$3: got '$1', want '$2'"; fi
}

# ---- 1. seq: 1000 loads of 8 B, 8 B apart ------------------------------
# ppr size: 32 header + 6 (first record: control byte + 5-byte varint of
# the zigzag delta 0x20000000) + 999 one-byte records + 17 trailer = 1054.
i=0
while [ $i -lt 1000 ]; do
	printf 'r %x 8\n' $((0x10000000 + 8 * i))
	i=$((i + 1))
done > "$tmp/seq.din"
run "$PPR" trace convert "$tmp/seq.din" "$tmp/seq.ppr"
expect_eq "$(wc -c < "$tmp/seq.ppr" | tr -d ' ')" 1054 "seq.ppr size"
run "$PPR" trace convert --to din "$tmp/seq.ppr" "$tmp/back.din"
same "$tmp/seq.din" "$tmp/back.din"
# options may follow the file names
run "$PPR" trace convert "$tmp/seq.ppr" "$tmp/back2.din" --to din
same "$tmp/seq.din" "$tmp/back2.din"
# --tag irregular reaches the ppr records; din output drops it, saying so
run "$PPR" trace convert --tag irregular "$tmp/seq.din" "$tmp/irr.ppr"
run "$PPR" trace info --format csv -o "$tmp/irr.csv" "$tmp/irr.ppr"
expect_eq "$(csv "$tmp/irr.csv" irregular)" 1000 "irregular tags"
fails 0 "ppr: warning: 1000 irregular tags lost: din traces carry no tag" \
	"$PPR" trace convert --to din "$tmp/irr.ppr" "$tmp/irr.din"
run "$PPR" trace info --format csv -o "$tmp/seq.csv" "$tmp/seq.ppr"
expect_eq "$(csv "$tmp/seq.csv" records)" 1000 "seq records"
expect_eq "$(csv "$tmp/seq.csv" loads)" 1000 "seq loads"
expect_eq "$(csv "$tmp/seq.csv" format)" ppr "seq format"
expect_eq "$(csv "$tmp/seq.csv" "bytes [B]")" 1054 "seq bytes"

# ---- 2. pipes: stdin and stdout ------------------------------------------
if "$PPR" trace convert - - < "$tmp/seq.din" |
	"$PPR" trace convert --to din - - > "$tmp/pipe.din"; then ok
else bad "pipe convert failed"; fi
same "$tmp/seq.din" "$tmp/pipe.din"
# through a pipe the header count stays unknown; the trailer has it
"$PPR" trace convert - - < "$tmp/seq.din" > "$tmp/pipe.ppr"
run "$PPR" trace info --format json "$tmp/pipe.ppr"
if grep -q '"records":[[:space:]]*1000' "$tmp/out"; then ok
else bad "json records: $(cat "$tmp/out")"; fi
grep -q '"bytes":[[:space:]]*"B of the input read"' "$tmp/out" && grep -q '"ppr_version"' "$tmp/out" &&
	ok || bad "json units and version: $(cat "$tmp/out")"

# ---- 3. lackey: I, L, S, M with valgrind chatter -------------------------
cat > "$tmp/a.lackey" <<'EOF'
==1== Lackey, an example Valgrind tool
I  0400d7d4,3
 L 7ff0000e8,8
 S 7ff0000e0,8
 M 0421ecb0,4
I  0400d7d7,5
==1== 
EOF
run "$PPR" trace convert "$tmp/a.lackey" "$tmp/a.ppr"
run "$PPR" trace convert --to lackey "$tmp/a.ppr" "$tmp/b.lackey"
grep -v '^==' "$tmp/a.lackey" > "$tmp/a.clean"
same "$tmp/a.clean" "$tmp/b.lackey"
run "$PPR" trace info --format csv -o "$tmp/a.csv" "$tmp/a.ppr"
expect_eq "$(csv "$tmp/a.csv" ifetches)" 2 "lackey ifetches"
expect_eq "$(csv "$tmp/a.csv" modifies)" 1 "lackey modifies"
# din has no modify: a read and a write, with a warning
fails 0 "ppr: warning: 1 modify references written as a read and a write (din has no modify)" \
	"$PPR" trace convert --to din "$tmp/a.ppr" "$tmp/a.din"
expect_eq "$(grep -c . "$tmp/a.din")" 6 "din lines from lackey"

# ---- 4. traditional din: word-oriented, labels 3/4 skipped ---------------
printf '0 1001\n1 2002\n2 3003\n3 4000\n4 0\n' > "$tmp/t.din"
fails 0 "ppr: warning: skipped 1 din misc records (label 3 or 'm')" \
	"$PPR" trace convert --to din "$tmp/t.din" "$tmp/t2.din"
printf 'r 1000 4\nw 2000 4\ni 3000 4\n' > "$tmp/t.want"
same "$tmp/t.want" "$tmp/t2.din"

# ---- 5. errors -----------------------------------------------------------
printf 'r 1000 8\nr 10g0 8\n' > "$tmp/bad.din"
fails 1 "ppr: error: $tmp/bad.din:2: record 2: bad hex digit 'g' in address" \
	"$PPR" trace convert "$tmp/bad.din" "$tmp/bad.ppr"
if [ -e "$tmp/bad.ppr" ]; then bad "partial output left behind"; else ok; fi
head -c 500 "$tmp/seq.ppr" > "$tmp/trunc.ppr"
fails 1 "ppr: error: $tmp/trunc.ppr: record 464 (byte 500): truncated trace: end marker missing" \
	"$PPR" trace info "$tmp/trunc.ppr"
fails 1 "ppr: error: input and output are the same file '$tmp/seq.ppr'" \
	"$PPR" trace convert "$tmp/seq.ppr" "$tmp/seq.ppr"
fails 1 "ppr: error: cannot open trace '$tmp/none.din': No such file or directory" \
	"$PPR" trace convert "$tmp/none.din" "$tmp/x.ppr"
fails 2 "ppr: trace convert: expected IN and OUT, got 1 argument" \
	"$PPR" trace convert "$tmp/seq.din"
fails 2 "ppr: trace convert: unknown output format 'xml'" \
	"$PPR" trace convert --to xml "$tmp/seq.din" "$tmp/x"
fails 2 "ppr: trace: unknown subcommand 'frob'" "$PPR" trace frob
fails 1 "ppr: error: $tmp/seq.din:1: record 1: bad op 'r' (want I, L, S or M)" \
	"$PPR" trace info --from lackey "$tmp/seq.din"
run "$PPR" trace --help
if head -n 1 "$tmp/out" | grep -q '^usage: ppr trace convert'; then ok
else bad "help on stdout"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
