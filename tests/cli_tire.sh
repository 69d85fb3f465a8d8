#!/bin/bash
# grip tire: CSV and JSON output against MFeval 4.0's reference values, and bad input.
# Usage: cli_tire.sh <path-to-grip> <source-dir>
grip="$1"
src="$2"
ref="$src/tests/data/mfeval"
[ -d "$ref" ] || { echo "SKIPPED: $ref not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check <description> <condition-exit-status>
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}

# 1. Every 13th row of the reference (34 rows), with a header line, through --csv.
awk -F, 'NR == 1 { print "Fz,kappa,alpha,gamma,Vx"; next }
         (NR - 2) % 13 == 0 { print $1 "," $2 "," $3 "," $4 "," $6 }' \
  "$ref/MagicFormula61_Paramerters.csv" > "$tmp/in.csv"
awk -F, 'NR > 1 && (NR - 2) % 13 == 0 { print $8 "," $9 "," $13 }' \
  "$ref/MagicFormula61_Paramerters.csv" > "$tmp/expect.csv"
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" --csv "$tmp/in.csv" > "$tmp/out.csv"
check "grip tire --csv exits 0" $?
head -1 "$tmp/out.csv" | grep -qx 'Fz,kappa,alpha,gamma,Vx,Fx,Fy,Mz'
check "CSV header" $?
tail -n +2 "$tmp/out.csv" | cut -d, -f6-8 > "$tmp/got.csv"
paste -d, "$tmp/got.csv" "$tmp/expect.csv" | awk -F, '
  function abs(x) { return x < 0 ? -x : x }
  function tol(e, a) { return abs(e) * 1e-3 > a ? abs(e) * 1e-3 : a }
  { n++
    if (abs($1 - $4) > tol($4, 1) || abs($2 - $5) > tol($5, 1) || abs($3 - $6) > tol($6, 0.1)) {
      printf "row %d: got %s,%s,%s want %s,%s,%s\n", n, $1, $2, $3, $4, $5, $6; bad++ } }
  END { printf "%d rows compared\n", n; exit (n == 34 && bad == 0) ? 0 : 1 }'
check "34 rows match MFeval within 0.1 % / 1 N / 0.1 N*m" $?
# Full precision: 17 significant digits in the forces.
tail -n 1 "$tmp/out.csv" | cut -d, -f6 | grep -Eq '^-?[0-9]\.?[0-9]{15,}|^-?[0-9]{2,}\.[0-9]{10,}'
check "values printed with %.17g" $?

# 2. One point as JSON: row 1 of the reference (Fz 3376, kappa -0.3, alpha -0.2, gamma 0).
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" --fz 3376 --kappa -0.3 --alpha -0.2 \
  --gamma 0 --vx 16.6 --json > "$tmp/point.json"
check "grip tire --json exits 0" $?
for key in fx fy mz mx my; do
  grep -q "\"$key\":" "$tmp/point.json"
  check "JSON has $key" $?
done
fx=$(sed 's/.*"fx":\([^,}]*\).*/\1/' "$tmp/point.json")
mx=$(sed 's/.*"mx":\([^,}]*\).*/\1/' "$tmp/point.json")
awk -v fx="$fx" -v mx="$mx" 'BEGIN { exit ((fx + 3014.776480928409) ^ 2 < 1e-6 && (mx + 22.210571513608038) ^ 2 < 1e-6) ? 0 : 1 }'
check "JSON fx -3014.78 N and mx -22.21 N*m as MFeval" $?

# 3. Bad input.
printf 'Fz,kappa,alpha,gamma,Vx\n4000,0.1,0,0,16\n4000,abc,0,0,16\n' > "$tmp/bad.csv"
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" --csv "$tmp/bad.csv" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "bad.csv:3: kappa: 'abc' is not a number" "$tmp/err"
check "non-number in CSV: exit 1, file:line message" $?
printf '4000,0.1,0,0\n' > "$tmp/short.csv"
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" --csv "$tmp/short.csv" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "short.csv:1: expected 5 values" "$tmp/err"
check "short CSV row: exit 1, file:line message" $?
printf 'Fz,kappa,alpha,gamma,Vx\nFz,kappa,alpha,gamma,Vx\n' > "$tmp/twohead.csv"
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" --csv "$tmp/twohead.csv" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "twohead.csv:2: Fz: 'Fz' is not a number" "$tmp/err"
check "only the first line may be a header" $?
printf '[MODEL]\nFITTYP = 61\n[VERTICAL]\nFNOMIN = -5\n' > "$tmp/bad.tir"
"$grip" tire --tir "$tmp/bad.tir" --fz 1000 > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "bad.tir:4: FNOMIN: -5 N is out of range (allowed 10 .. 1e+06 N)" "$tmp/err"
check "bad .tir: exit 1, file:line: key message" $?
"$grip" tire --tir "$tmp/missing.tir" --fz 1000 > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "missing.tir: cannot open" "$tmp/err"
check "missing .tir: exit 1" $?
"$grip" tire --fz 1000 > /dev/null 2>&1
[ $? -eq 2 ]
check "no --tir: exit 2" $?
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" > /dev/null 2>&1
[ $? -eq 2 ]
check "no --csv and no --fz: exit 2" $?
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" --fz 1000 --bogus > /dev/null 2>&1
[ $? -eq 2 ]
check "unknown option: exit 2" $?
"$grip" tire --tir "$ref/MagicFormula61_Paramerters.tir" --fz abc > /dev/null 2>&1
[ $? -eq 2 ]
check "--fz abc: exit 2" $?

exit $fail
