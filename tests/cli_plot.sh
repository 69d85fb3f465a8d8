#!/usr/bin/env bash
# grip plot: every kind writes a PNG of the asked size, an SVG that parses and a PDF; the numbers
# behind the pictures (--csv) against figures obtained another way (tests/plot_check.py); bad
# input. Skipped (77) when the tool was built without PLplot.
# Usage: cli_plot.sh <path-to-grip> <source-dir>
set -u
grip="$1"
src="$2"
py=/usr/bin/python3
check_py="$src/tests/plot_check.py"
# Under ASan: the system libraries behind PLplot's cairo driver keep some memory to exit.
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$src/tests/plot_lsan.supp:print_suppressions=0"
"$grip" plot --help > /dev/null 2>&1
if [ $? -eq 3 ]; then echo "SKIPPED: grip was built without PLplot (libplplot-dev plplot-driver-cairo)"; exit 77; fi
[ -x "$py" ] || { echo "SKIPPED: $py not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check <description> <exit-status>
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
pycheck() { "$py" "$check_py" "$@"; check "plot_check.py $1" $?; }

corvette="$src/data/cars/corvette-c5.ini"
single="$src/data/cars/single-seater.ini"
hatch="$src/data/cars/hatchback-100kw.ini"

# Telemetry of two cars, three laps each, 50 rows per second.
"$grip" race --car "$corvette" --laps 3 --telemetry "$tmp/a.csv" --telemetry-rate 50 --json > "$tmp/race_a.json"
check "race A with telemetry" $?
"$grip" race --car "$hatch" --laps 3 --telemetry "$tmp/b.csv" --telemetry-rate 50 --json > "$tmp/race_b.json"
check "race B with telemetry" $?
"$grip" track info default --json > "$tmp/track.json"

# 1. Every kind: PNG of the default size and of another, SVG, PDF.
kinds=(
  "engine --car $corvette"
  "tyre --car $corvette --axle rear"
  "gg --telemetry $tmp/a.csv --car $corvette --lap 2"
  "lap --telemetry $tmp/a.csv --track default --lap 2"
  "compare --telemetry $tmp/a.csv $tmp/b.csv --laps 2 2 --labels corvette-c5 hatchback-100kw"
  "handling --car $corvette --dt 0.005"
)
for k in "${kinds[@]}"; do
  name=${k%% *}
  # shellcheck disable=SC2086
  "$grip" plot $k -o "$tmp/$name.png" > "$tmp/out" 2>&1
  check "plot $name -o PNG exits 0 ($(head -c 200 "$tmp/out"))" $?
  [ -s "$tmp/$name.png" ]; check "plot $name: PNG not empty" $?
  pycheck png "$tmp/$name.png" 1200 800
  # shellcheck disable=SC2086
  "$grip" plot $k -o "$tmp/$name.small.png" --width 900 --height 500 > /dev/null 2>&1
  pycheck png "$tmp/$name.small.png" 900 500
  # shellcheck disable=SC2086
  "$grip" plot $k -o "$tmp/$name.svg" > /dev/null 2>&1
  pycheck svg "$tmp/$name.svg" 1200 800
  # shellcheck disable=SC2086
  "$grip" plot $k -o "$tmp/$name.pdf" > /dev/null 2>&1
  pycheck pdf "$tmp/$name.pdf"
done

# 2. The numbers behind the pictures.
for car in "$corvette" "$single" "$hatch"; do
  "$grip" plot engine --car "$car" -o "$tmp/e.png" --csv "$tmp/e.csv" && "$grip" check "$car" --json > "$tmp/check.json"
  check "plot engine --csv ($car)" $?
  pycheck engine "$tmp/e.csv" "$car" "$tmp/check.json"
done
for axle in front rear; do
  "$grip" plot tyre --car "$single" --axle "$axle" -o "$tmp/t.png" --csv "$tmp/t.csv"
  check "plot tyre --csv ($axle)" $?
  pycheck tyre-simple "$tmp/t.csv" "$single" "$axle"
done
mfeval="$src/../shared/reference/mfeval"
if [ -f "$mfeval/MagicFormula61_Paramerters.tir" ]; then
  tir="$mfeval/MagicFormula61_Paramerters.tir"
  "$grip" plot tyre --tir "$tir" -o "$tmp/t.png" --csv "$tmp/t.csv"
  check "plot tyre --tir --csv" $?
  # The point of the largest |Fy| at FNOMIN (load_1), evaluated by grip tire.
  read -r fz alpha < <(awk -F, '$1 == "fy_alpha_deg" && $2 == "load_1" { f = $4 < 0 ? -$4 : $4; if (f > m) { m = f; a = $3; z = $5 } }
                                 END { printf "%s %.17g\n", z, a * 3.14159265358979323846 / 180 }' "$tmp/t.csv")
  "$grip" tire --tir "$tir" --fz "$fz" --alpha "$alpha" --json > "$tmp/tire.json"
  pycheck tyre-tir "$tmp/t.csv" "$tmp/tire.json" "$mfeval/MagicFormula61_Paramerters.csv"
else
  echo "note: $mfeval not installed: the .tir check against grip tire and MFeval is left out"
fi
"$grip" plot gg --telemetry "$tmp/a.csv" --car "$corvette" --lap 2 -o "$tmp/g.png" --csv "$tmp/g.csv"
pycheck gg "$tmp/g.csv" "$tmp/a.csv" 2
"$grip" plot gg --telemetry "$tmp/b.csv" -o "$tmp/g.png" --csv "$tmp/g.csv"
pycheck gg "$tmp/g.csv" "$tmp/b.csv" ""
for lap in 2 3; do
  "$grip" plot lap --telemetry "$tmp/a.csv" --lap $lap -o "$tmp/l.png" --csv "$tmp/l.csv"
  pycheck lap "$tmp/l.csv" "$tmp/a.csv" $lap "$tmp/track.json"
done
"$grip" plot compare --telemetry "$tmp/a.csv" "$tmp/b.csv" --laps 2 3 -o "$tmp/c.png" --csv "$tmp/c.csv"
pycheck compare "$tmp/c.csv" "$tmp/race_a.json" 2 "$tmp/race_b.json" 3
"$grip" plot compare --telemetry "$tmp/b.csv" --laps 3 2 -o "$tmp/c.png" --csv "$tmp/c.csv"
pycheck compare "$tmp/c.csv" "$tmp/race_b.json" 3 "$tmp/race_b.json" 2
"$grip" plot compare --telemetry "$tmp/a.csv" --laps 1 3 -o "$tmp/c.png" --csv "$tmp/c.csv"
pycheck compare "$tmp/c.csv" "$tmp/race_a.json" 1 "$tmp/race_a.json" 3
for car in "$corvette" "$hatch"; do
  "$grip" plot handling --car "$car" --radius 40 -o "$tmp/h.png" --csv "$tmp/h.csv"
  check "plot handling --csv ($car)" $?
  "$grip" skidpad --car "$car" --radius 40 --json > "$tmp/skidpad.json"
  pycheck handling "$tmp/h.csv" "$car" 40 "$tmp/skidpad.json"
done

# 3. Bad input: usage errors exit 2, files that do not load exit 1 with a message.
expect_rc() { # expect_rc <status> <description> args...
  local want="$1" what="$2"; shift 2
  "$grip" plot "$@" > /dev/null 2> "$tmp/err"
  local rc=$?
  [ $rc -eq "$want" ]; check "$what: exit $want (got $rc: $(head -c 160 "$tmp/err"))" $?
}
expect_rc 2 "no kind"
expect_rc 2 "unknown kind" bogus -o "$tmp/x.png"
expect_rc 2 "no -o" engine
expect_rc 2 "unknown extension" engine -o "$tmp/x.gif"
expect_rc 2 "unknown option" engine --bogus -o "$tmp/x.png"
expect_rc 2 "width out of range" engine --width 10 -o "$tmp/x.png"
expect_rc 2 "bad axle" tyre --axle middle -o "$tmp/x.png"
expect_rc 2 "gg without telemetry" gg -o "$tmp/x.png"
expect_rc 2 "compare the same lap" compare --telemetry "$tmp/a.csv" --laps 2 2 -o "$tmp/x.png"
expect_rc 1 "unwritable output" engine -o "$tmp/no/such/dir/x.png"
expect_rc 1 "missing car" engine --car "$tmp/none.ini" -o "$tmp/x.png"
expect_rc 1 "missing telemetry" gg --telemetry "$tmp/none.csv" -o "$tmp/x.png"
expect_rc 1 "missing lap" lap --telemetry "$tmp/a.csv" --lap 9 -o "$tmp/x.png"
expect_rc 1 "missing track" lap --telemetry "$tmp/a.csv" --track "$tmp/none.track" -o "$tmp/x.png"
head -3 "$tmp/a.csv" > "$tmp/bad.csv"
echo "1.0,1,1,abc" >> "$tmp/bad.csv"
expect_rc 1 "bad telemetry row" gg --telemetry "$tmp/bad.csv" -o "$tmp/x.png"
grep -q "bad.csv:4:" "$tmp/err"; check "bad telemetry row: file:line message" $?
printf 'a,b\n1,2\n' > "$tmp/other.csv"
expect_rc 1 "not a telemetry file" lap --telemetry "$tmp/other.csv" -o "$tmp/x.png"
grep -q "no column" "$tmp/err"; check "not a telemetry file: names the missing column" $?

[ $fail -eq 0 ] && echo "all plot checks passed"
exit $fail
