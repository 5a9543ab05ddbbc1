#!/bin/sh
# ppr bcsr --svg: the 8x8 heatmap of a real prediction (and with --measure
# the measured grid beside it), the pick and the measured best marked as
# the table says.
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cnt() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
M=gen:fem3d:n=4,dof=3

$PPR bcsr -m machines/haswell.json $M --svg "$tmp/h.svg" > "$tmp/out" 2>/dev/null && ok || bad "bcsr --svg exit"
[ "$(cnt 'class="heat-cell heat-pred"' "$tmp/h.svg")" = 64 ] && ok || bad "64 predicted cells"
[ "$(cnt 'class="heat-cell heat-meas"' "$tmp/h.svg")" = 0 ] && ok || bad "no measured grid without --measure"
pick=$(sed -n 's/^pick: *\([1-8]x[1-8]\).*/\1/p' "$tmp/out")
[ -n "$pick" ] && grep -q "pick: $pick<" "$tmp/h.svg" && ok || bad "pick '$pick' marked in the svg"
grep -q "BCSR shapes: $M on haswell" "$tmp/h.svg" && ok || bad "title"
$PPR bcsr -m machines/haswell.json $M --measure --reps 2 --svg "$tmp/m.svg" > "$tmp/mout" 2>/dev/null && ok || bad "--measure --svg exit"
[ "$(cnt 'class="heat-cell heat-meas"' "$tmp/m.svg")" = 64 ] && ok || bad "64 measured cells"
best=$(sed -n 's/^measured best: *\([1-8]x[1-8]\).*/\1/p' "$tmp/mout")
[ -n "$best" ] && grep -q "measured best: $best<" "$tmp/m.svg" && ok || bad "measured best '$best' marked"
[ "$(cnt 'class="colour-scale"' "$tmp/m.svg")" = 2 ] && ok || bad "a colour scale per grid"
$PPR bcsr -m machines/haswell.json $M --svg "$tmp/nodir/h.svg" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "nodir/h.svg" "$tmp/err" && ok || bad "unwritable svg: rc=$rc $(cat "$tmp/err")"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
