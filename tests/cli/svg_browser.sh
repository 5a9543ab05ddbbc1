#!/bin/sh
# needs: chromium (Debian package `chromium`), python3 (PNG decoding)
# The SVGs (roofline, heatmap, compare bars) and the HTML report opened in
# headless Chromium: each renders (the screenshot is not blank: many
# colours, enough non-white pixels) and its DOM holds the expected
# elements (axes, roofs, dots, exactly 64 cells per heatmap grid); the
# report's script runs without errors and sorts numerically.
# Skips with a message when chromium or python3 is absent.
PPR=${PPR:-./ppr}
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
CHROME=""
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { CHROME=$c; break; }
done
if [ -z "$CHROME" ] || ! command -v python3 >/dev/null 2>&1; then
	echo "skipped: headless browser test needs chromium (apt-get install chromium) and python3"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cnt() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
browse() { # browse MODE URL OUT [W,H]
	prof=$(mktemp -d "$tmp/prof.XXXXXX")
	if [ "$1" = shot ]; then
		timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update \
			--disable-sync --no-first-run --user-data-dir="$prof" \
			--screenshot="$3" --window-size="${4:-1200,900}" "$2" \
			> "$prof.log" 2>&1
	else
		timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update \
			--disable-sync --no-first-run --user-data-dir="$prof" \
			--dump-dom "$2" > "$3" 2> "$prof.log"
	fi
}
# PNG check: decode (zlib + row filters), print "W H distinct nonwhite%"
cat > "$tmp/png.py" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
p, idat = 8, b''
while p < len(d):
    n, t = struct.unpack('>I4s', d[p:p + 8])
    if t == b'IHDR':
        w, h, bd, ct = struct.unpack('>IIBB', d[p + 8:p + 18])
    elif t == b'IDAT':
        idat += d[p + 8:p + 8 + n]
    p += 12 + n
assert bd == 8 and ct in (2, 6), 'unexpected PNG type'
bpp = 3 if ct == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[x] = (line[x] + pr) & 255
    rows.append(bytes(line)); prev = line
cols, nonwhite = set(), 0
for r in rows:
    for x in range(0, stride, bpp):
        px = r[x:x + 3]
        cols.add(px)
        if px != b'\xff\xff\xff': nonwhite += 1
print(w, h, len(cols), '%.2f' % (100.0 * nonwhite / (w * h)))
PY
# check_png FILE MIN_COLOURS MIN_NONWHITE_PERCENT what
check_png() {
	r=$(python3 "$tmp/png.py" "$1" 2>&1) || { bad "$4: PNG undecodable: $r"; return; }
	set -- "$1" "$2" "$3" "$4" $r
	if [ "$7" -ge "$2" ] && awk "BEGIN { exit !($8 >= $3) }"; then ok
	else bad "$4: screenshot looks blank ($7 colours, $8% non-white)"; fi
}

$PPR roofline -m machines/haswell.json tests/data/report/results.jsonl --integer -o "$tmp/roof.svg" 2>/dev/null || bad "roofline"
bcsr=$(grep '"kernel":"bcsr"' tests/data/report/results.jsonl | grep measured_best | head -n 1)
$PPR report tests/data/report/results.jsonl -o "$tmp/report.html" 2>/dev/null || bad "report"
# the heatmap alone: the report's first heatmap svg element, as a file
awk '/<div class="chart heatmap">/{on=1; next} on && /^<svg /{p=1} p{print} p && /^<\/svg>/{exit}' \
	"$tmp/report.html" > "$tmp/heat.svg"
printf 'PAPI_L1_DCM : 3300\nPAPI_L2_DCM : 40\nPAPI_L3_TCM : 2\n' > "$tmp/papi.txt"
awk 'BEGIN { for (i = 0; i < 200000; i += 8) printf "0 %x\n", 1048576 + i }' > "$tmp/t.din"
$PPR sim -m machines/haswell.json -t "$tmp/t.din" -F din --format json > "$tmp/sim.json" &&
	$PPR compare -s "$tmp/sim.json" -M "$tmp/papi.txt" --svg "$tmp/bars.svg" > /dev/null || bad "compare"
[ -n "$bcsr" ] && ok || bad "fixture has a measured bcsr record"

# all browser runs at once (each is ~3 s, mostly waiting), then the checks
browse shot "file://$tmp/roof.svg" "$tmp/roof.png" 960,640 &
browse dom "file://$tmp/roof.svg" "$tmp/roof.dom" &
browse shot "file://$tmp/heat.svg" "$tmp/heat.png" 1240,620 &
browse dom "file://$tmp/heat.svg" "$tmp/heat.dom" &
browse shot "file://$tmp/bars.svg" "$tmp/bars.png" 700,500 &
browse dom "file://$tmp/bars.svg" "$tmp/bars.dom" &
browse shot "file://$tmp/report.html" "$tmp/report.png" 1200,900 &
browse dom "file://$tmp/report.html#sort=7d" "$tmp/report.dom" &
wait

# roofline
check_png "$tmp/roof.png" 20 3 roofline
[ "$(cnt 'class="axis x-axis"' "$tmp/roof.dom")" = 1 ] && [ "$(cnt 'class="axis y-axis"' "$tmp/roof.dom")" = 1 ] && ok || bad "roofline axes in DOM"
[ "$(cnt 'class="roof roof-' "$tmp/roof.dom")" = 9 ] && ok || bad "roofline: 9 roofs in DOM"
[ "$(cnt 'class="dot dot-pred"' "$tmp/roof.dom")" = 3 ] && [ "$(cnt 'class="dot dot-meas"' "$tmp/roof.dom")" = 1 ] && ok || bad "roofline dots in DOM"
# heatmap (predicted + measured grids)
check_png "$tmp/heat.png" 40 25 heatmap
[ "$(cnt 'class="heat-cell heat-pred"' "$tmp/heat.dom")" = 64 ] && ok || bad "heatmap: 64 predicted cells"
[ "$(cnt 'class="heat-cell heat-meas"' "$tmp/heat.dom")" = 64 ] && ok || bad "heatmap: 64 measured cells"
[ "$(cnt 'class="heat-pick"' "$tmp/heat.dom")" = 1 ] && [ "$(cnt 'class="heat-best"' "$tmp/heat.dom")" = 1 ] && ok || bad "heatmap marks"
[ "$(cnt 'class="colour-scale"' "$tmp/heat.dom")" = 2 ] && ok || bad "heatmap: a colour scale per grid"
# compare bars
check_png "$tmp/bars.png" 10 5 bars
[ "$(cnt 'class="bar bar-s' "$tmp/bars.dom")" = 6 ] && ok || bad "bars: 6 in DOM"
# the report: renders, script runs without error, sorts numerically
check_png "$tmp/report.png" 40 5 report
grep -q '<body data-js-ok="1">' "$tmp/report.dom" && ok || bad "report script did not run or failed: $(grep -o '<body[^>]*>' "$tmp/report.dom")"
[ "$(cnt '<svg ' "$tmp/report.dom")" = 4 ] && [ "$(cnt 'class="heat-cell heat-pred"' "$tmp/report.dom")" = 192 ] && ok || bad "report charts in DOM"
[ "$(cnt 'class="dot dot-pred"' "$tmp/report.dom")" = 3 ] && ok || bad "report roofline dots"
# GFLOP/s column (7) descending after the sort: numbers in order
grep -o 'class="result-row">\(<td[^>]*>[^<]*</td>\)\{8\}' "$tmp/report.dom" |
	sed 's/.*data-v="\([^"]*\)">[^<]*<\/td>$/\1/' > "$tmp/col"
[ "$(wc -l < "$tmp/col")" = 6 ] && sort -g -r -c "$tmp/col" 2>/dev/null && ok || bad "sorted by GFLOP/s descending: $(tr '\n' ' ' < "$tmp/col")"
grep -q 'class="sortable desc">GFLOP/s' "$tmp/report.dom" && ok || bad "sorted header marked"
[ -n "$KEEP_SHOTS" ] && cp "$tmp"/*.png "$KEEP_SHOTS"/ 2>/dev/null
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
