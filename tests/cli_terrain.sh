#!/usr/bin/env bash
# grip terrain info / sample: JSON keys and figures, exit codes and error messages.
# Usage: bash cli_terrain.sh PATH-TO-GRIP SOURCE-DIR
set -u
grip="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# Writes bytes given as hex pairs ("0a ff ...").
hex() { local h; for h in $1; do printf "\\x$h"; done; }

# A .bt 1.3 file written byte by byte from the format description: 4 columns x 3 rows of
# int16, horizontal units metres, datum 6326, extents left 0 right 40 bottom 0 top 30 (10 m
# cells, samples at the cell centres x = 5 + 10c, y = 5 + 10r), vertical scale 1.0.
# Heights h(c, r) = 2c + r, stored column by column, south to north: the plane
# z = 0.2 x + 0.1 y - 1.5 through the cell centres.
bt="$work/plane.bt"
{
  printf 'binterr1.3'
  hex "04 00 00 00  03 00 00 00"            # columns, rows
  hex "02 00  00 00  01 00  00 00  b6 18"     # 2-byte, not float, metres, no UTM, datum 6326
  hex "00 00 00 00 00 00 00 00"              # left 0.0
  hex "00 00 00 00 00 00 44 40"              # right 40.0
  hex "00 00 00 00 00 00 00 00"              # bottom 0.0
  hex "00 00 00 00 00 00 3e 40"              # top 30.0
  hex "00 00  00 00 80 3f"                   # no .prj, vertical scale 1.0f
  head -c 190 /dev/zero                      # pad the header to 256 bytes
  for c in 0 1 2 3; do
    for r in 0 1 2; do
      v=$((2 * c + r)); hex "$(printf '%02x' "$v") 00"
    done
  done
} > "$bt"
[ "$(wc -c < "$bt")" -eq $((256 + 24)) ] || bad "test file has $(wc -c < "$bt") bytes"

get() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
expect_near() { near "$2" "$3" "$4" || bad "$1 = '$2', expected $3"; }

out="$("$grip" terrain info "$bt" --json)" || bad "info --json exit $?"
[ "$(echo "$out" | get rows)" = 3 ] || bad "rows: $out"
[ "$(echo "$out" | get cols)" = 4 ] || bad "cols: $out"
expect_near min_height_m "$(echo "$out" | get min_height_m)" 0 0
expect_near max_height_m "$(echo "$out" | get max_height_m)" 8 0
expect_near extent_x_m "$(echo "$out" | get extent_x_m)" 40 0
expect_near extent_y_m "$(echo "$out" | get extent_y_m)" 30 0
expect_near origin_x_m "$(echo "$out" | get origin_x_m)" 5 0
[ "$(echo "$out" | get datum)" = 6326 ] || bad "datum: $out"

text="$("$grip" terrain info "$bt")" || bad "info exit $?"
echo "$text" | grep -q "4 columns x 3 rows" || bad "info text: $text"

# Between samples: on the plane. z(12, 17) = 2.4 + 1.7 - 1.5 = 2.6; normal (-0.2, -0.1, 1)/|.|
out="$("$grip" terrain sample "$bt" --x 12 --y 17 --json)" || bad "sample exit $?"
expect_near height_m "$(echo "$out" | get height_m)" 2.6 1e-9
normal="$(echo "$out" | sed -n 's/.*"normal":\[\([^]]*\)\].*/\1/p')"
IFS=, read -r nx ny nz <<< "$normal"
l=$(awk 'BEGIN { printf "%.15f", sqrt(1.05) }')
expect_near normal_x "$nx" "$(awk -v l="$l" 'BEGIN { printf "%.15f", -0.2 / l }')" 1e-8
expect_near normal_y "$ny" "$(awk -v l="$l" 'BEGIN { printf "%.15f", -0.1 / l }')" 1e-8
expect_near normal_z "$nz" "$(awk -v l="$l" 'BEGIN { printf "%.15f", 1 / l }')" 1e-8

# Outside: an error naming the file; with --clamp the border continues level along x:
# z(5, 17) = 1 + 1.7 - 1.5 = 1.2, normal (0, -0.1, 1)/|.|
"$grip" terrain sample "$bt" --x -100 --y 17 --json > /dev/null 2> "$work/err"
rc=$?
[ $rc -eq 1 ] || bad "outside: exit $rc"
grep -q "^grip terrain sample: $bt: " "$work/err" || bad "outside message: $(cat "$work/err")"
out="$("$grip" terrain sample "$bt" --x -100 --y 17 --clamp --json)" || bad "clamp exit $?"
expect_near clamped_height "$(echo "$out" | get height_m)" 1.2 1e-9

# Broken and missing files.
head -c 100 "$bt" > "$work/short.bt"
"$grip" terrain info "$work/short.bt" 2> "$work/err" >/dev/null
rc=$?
[ $rc -ne 0 ] || bad "truncated header accepted"
grep -q "^grip terrain info: $work/short.bt: offset 100: truncated header" "$work/err" || bad "message: $(cat "$work/err")"
head -c 270 "$bt" > "$work/cut.bt"
"$grip" terrain info "$work/cut.bt" 2> "$work/err" >/dev/null && bad "truncated data accepted"
grep -q "^grip terrain info: $work/cut.bt: offset 270: heights truncated" "$work/err" || bad "message: $(cat "$work/err")"
"$grip" terrain info "$work/none.bt" 2> "$work/err" >/dev/null && bad "missing file accepted"
grep -q "^grip terrain info: $work/none.bt: cannot open" "$work/err" || bad "message: $(cat "$work/err")"
mkdir "$work/dir.bt"
"$grip" terrain info "$work/dir.bt" 2> "$work/err" >/dev/null; rc=$?
[ $rc -eq 1 ] || bad "directory: exit $rc"
grep -q "^grip terrain info: $work/dir.bt: is a directory" "$work/err" || bad "message: $(cat "$work/err")"

# Non-physical magnitudes (docs/terrain.md, "Limits"): a vertical scale of 1e30 (float
# 0x7149f2ca) and a height of 3e38 m (float 0x7f61b1e6, in a float file) are refused.
{ head -c 62 "$bt"; hex "ca f2 49 71"; tail -c +67 "$bt"; } > "$work/vscale.bt"
"$grip" terrain info "$work/vscale.bt" 2> "$work/err" >/dev/null; rc=$?
[ $rc -eq 1 ] || bad "vertical scale 1e30: exit $rc"
grep -q "^grip terrain info: $work/vscale.bt: offset 62: vertical scale 1e+30 is out of range (allowed 0 = 1, or 1e-06 .. 1000 m per unit)" "$work/err" ||
  bad "message: $(cat "$work/err")"
{
  head -c 18 "$bt"; hex "04 00  01 00"; tail -c +23 "$bt" | head -c 234   # 4-byte float heights
  for k in 0 1 2 3 4 5 6 7 8 9 10; do hex "00 00 80 3f"; done               # 1.0 m
  hex "e6 b1 61 7f"                                                        # 3e38 m, the last sample
} > "$work/high.bt"
"$grip" terrain info "$work/high.bt" 2> "$work/err" >/dev/null; rc=$?
[ $rc -eq 1 ] || bad "height 3e38: exit $rc"
grep -q "^grip terrain info: $work/high.bt: offset 300: height 3e+38 m (row 2, column 3) is out of range (allowed -20000 .. 20000 m)" "$work/err" ||
  bad "message: $(cat "$work/err")"

# Usage errors exit 2.
"$grip" terrain sample "$bt" --x 1 2>/dev/null; rc=$?; [ $rc -eq 2 ] || bad "missing --y: exit $rc"
"$grip" terrain info "$bt" --bogus 2>/dev/null; rc=$?; [ $rc -eq 2 ] || bad "bad option: exit $rc"
"$grip" terrain frobnicate 2>/dev/null; rc=$?; [ $rc -eq 2 ] || bad "bad sub-command: exit $rc"
"$grip" terrain 2>/dev/null; rc=$?; [ $rc -eq 2 ] || bad "no sub-command: exit $rc"

[ $fail -eq 0 ] && echo "cli_terrain: ok"
exit $fail
