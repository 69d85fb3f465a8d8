#!/bin/bash
# grip check, --car and import-torcs: exit codes, JSON keys and figures computed by hand.
# Usage: cli_cars.sh <path-to-grip> <source-dir>
grip="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check <description> <condition-exit-status>
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
# json <file> <python expression over d> -> exit status
json() { python3 -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"; }

for car in "$src"/data/cars/*.ini; do
  name=$(basename "$car" .ini)
  "$grip" check "$car" --json > "$tmp/$name.json" 2> "$tmp/$name.err"
  check "check $name exits 0" $?
  if [ "$name" = semi-trailer ] || [ "$name" = three-wheeler ]; then
    # Both tip before they slide, as the real ones do, and grip check says so; that is their
    # only warning. A laden semi-trailer's static stability factor (0.39) is below its tyres'
    # friction (real ones roll over at 0.35-0.5 g); a Reliant Robin's (t/2)(a/L)/h = 0.69 is
    # below mu 0.85 (tests/cli_shipped_axles.sh checks the figures).
    json "$tmp/$name.json" "d['ok'] is True and d['errors'] == [] and len(d['warnings']) == 1 and 'rolls over before it slides' in d['warnings'][0]"
    check "check $name: ok, the rollover warning only" $?
  else
    json "$tmp/$name.json" "d['ok'] is True and d['errors'] == [] and d['warnings'] == []"
    check "check $name: ok, no errors or warnings" $?
    [ ! -s "$tmp/$name.err" ]
    check "check $name: nothing on stderr" $?
  fi
  json "$tmp/$name.json" "all(k in d for k in ('mass_kg','front_load_fraction','peak_power_kw','peak_power_rpm','ca_kg_per_m','errors','gears'))"
  check "check $name: JSON keys" $?
done

# Corvette: 1409 + 30 kg; 257 kW at 5600 rpm (GM: 345 hp); CG of body (x 0.02655) and fuel
# (x -0.9): x = (1409*0.02655 - 30*0.9)/1439 = 0.0072339, front share (x + 1.3275)/2.655 = 0.50272;
# ride 1.6097 Hz = sqrt(37000/(0.5*0.50272*1439))/2pi.
json "$tmp/corvette-c5.json" "d['mass_kg'] == 1439 and abs(d['peak_power_kw'] - 257.05) < 0.1 and d['peak_power_rpm'] == 5600 and abs(d['front_load_fraction'] - 0.50272) < 1e-4 and d['ca_kg_per_m'] == 0 and abs(d['ride_frequency_front_hz'] - 1.6097) < 1e-3"
check "corvette figures" $?
# Single-seater CA: 0.5*1.29*1.8*1.5 = 1.7415 + 4*1.29*0.4*sin12*cos12 = 0.41975
# + 4*1.29*0.7*sin14*cos14 = 0.84786 -> 3.0091 kg/m.
json "$tmp/single-seater.json" "abs(d['ca_kg_per_m'] - 3.0091) < 1e-3 and abs(d['mass_kg'] - 650) < 1e-9"
check "single-seater downforce CA 3.0091 kg/m" $?
# Hatchback: 191 N*m at 5000 rpm = 100.0 kW; 62/38 split of the body with the tank behind.
json "$tmp/hatchback-100kw.json" "abs(d['peak_power_kw'] - 100.0) < 0.05 and d['peak_power_rpm'] == 5000"
check "hatchback 100 kW at 5000 rpm" $?

# A broken car: exit 1, the error with file:line in the JSON and on stderr for --car.
printf '[body]\nmass = 1000\n[engine]\ntorque = 1000:100, 3000-400\n' > "$tmp/bad.ini"
"$grip" check "$tmp/bad.ini" --json > "$tmp/bad.json"
check "check of a bad car exits 1" $([ $? -eq 1 ]; echo $?)
json "$tmp/bad.json" "d['ok'] is False and len(d['errors']) == 1 and 'bad.ini:4: engine.torque' in d['errors'][0]"
check "bad car: error names bad.ini:4: engine.torque" $?
"$grip" accel --car "$tmp/bad.ini" > /dev/null 2> "$tmp/accel.err"
check "accel --car bad exits 1" $([ $? -eq 1 ]; echo $?)
grep -q "bad.ini:4: engine.torque" "$tmp/accel.err"
check "accel --car bad prints file:line" $?
printf '[body]\nmass = 1000\nshine = 3\n' > "$tmp/warn.ini"
"$grip" brake --car "$tmp/warn.ini" --json > /dev/null 2> "$tmp/warn.err"
check "brake --car with an unknown key exits 0" $?
grep -q "warning: .*warn.ini:3: body.shine: unknown key" "$tmp/warn.err"
check "unknown key printed as a warning" $?
for cmd in accel brake park bench; do "$grip" $cmd --help | grep -q -- "--car"; check "$cmd has --car" $?; done
"$grip" park --car builtin --seconds 2 --settle 1 --json > /dev/null
check "park --car builtin" $?
"$grip" bench --car "$src/data/cars/kart.ini" --vehicles 2 --seconds 0.1 --json > /dev/null
check "bench --car kart" $?

# import-torcs: the fixture becomes a car file that checks clean and keeps the figures.
"$grip" import-torcs "$src/tests/data/torcs/cars/fixcar" -o "$tmp/fix.ini"
check "import-torcs exits 0" $?
"$grip" check "$tmp/fix.ini" --json > "$tmp/fix.json"
check "imported car checks" $?
# 1200 kg + 50 l; TORCS's downforce at rest: (0.3+0.4)*2*exp(-3*(1.5*0.44)^4) + 4*1.23*(0.2*sin10 + 0.5*sin15)
# = 0.79236 + 0.80757
json "$tmp/fix.json" "d['mass_kg'] == 1250 and abs(d['front_load_fraction'] - 0.5) < 1e-12 and abs(d['ca_kg_per_m'] - 1.59990) < 1e-4"
check "imported fixture: mass 1250 kg, 50 % front, CA 1.59990" $?
"$grip" --help | grep -q "import-torcs"
check "import-torcs listed in grip --help" $?
"$grip" import-torcs "$src/tests/data/torcs/cars/fixcar/broken.xml" -o "$tmp/x.ini" 2> "$tmp/imp.err"
check "import of a broken car exits 1" $([ $? -eq 1 ]; echo $?)
grep -q "broken.xml:4: Car/mass: 'heavy' is not a number" "$tmp/imp.err"
check "import error names file:line" $?
# A range error in a TORCS setup: file:line of the attribute.
printf '<?xml version="1.0"?>\n<params name="s" type="template">\n<section name="Car">\n<attnum name="mass" unit="kg" val="1e300"/>\n</section>\n</params>\n' > "$tmp/setup.xml"
"$grip" import-torcs "$src/tests/data/torcs/cars/fixcar" --setup "$tmp/setup.xml" -o "$tmp/x.ini" 2> "$tmp/imp.err"
rc=$?
[ $rc -eq 1 ] && grep -q "^grip import-torcs: $tmp/setup.xml:4: Car/mass: 1e+300 kg is out of range (allowed 1 .. 1e+06 kg)" "$tmp/imp.err"
check "import range error: exit 1 with file:line" $?

# Refused cars: exit 1 and file:line: key: message; grip check's warnings: exit 0.
printf '[engine]\ntorque = 1000:0, 6000:0\n' > "$tmp/zero.ini"
"$grip" check "$tmp/zero.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "zero.ini:2: engine.torque: the engine's torque curve is zero everywhere" "$tmp/err"
check "all-zero torque curve refused" $?
printf '[tyre.front]\nlat_mu = 0\n' > "$tmp/nogrip.ini"
"$grip" check "$tmp/nogrip.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "nogrip.ini:2: tyre.front.lat_mu: 0 is out of range (allowed 0.05 .. 10)" "$tmp/err"
check "lat_mu = 0 refused" $?
printf '[gearbox]\nupshift_rpm = 7000\n' > "$tmp/shift.ini"
"$grip" check "$tmp/shift.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 0 ] && grep -q "^grip check: warning: shift: gearbox.upshift_rpm: 7000 rpm is not below the rev limiter" "$tmp/err"
check "upshift above the limiter: warning, exit 0" $?
"$grip" check "$tmp/shift.ini" --json | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["ok"] and any("upshift_rpm" in w for w in d["warnings"]) else 1)'
check "the warning is in the JSON warnings" $?
for c in "$src"/data/cars/*.ini; do
  case "$(basename "$c")" in semi-trailer.ini | three-wheeler.ini) continue ;; esac # their rollover warning: above
  "$grip" check "$c" > /dev/null 2> "$tmp/err" && [ ! -s "$tmp/err" ]
  check "$(basename "$c") checks without warnings" $?
done
# Trailers: the caravan's coupling carries 6 % of its 900 kg (the lever rule, axle at x = 0,
# CG at 0.222 m, coupling at 3.7 m: 900 * 9.80665 * 0.222 / 3.7 = 529.56 N); it has no engine.
json "$tmp/caravan.json" "abs(d['coupling_load_n'] - 529.559) < 0.01 and d['engine'] is False and len(d['axle_loads_n']) == 1"
check "caravan: coupling load 529.56 N by the lever rule, no engine" $?
"$grip" race --car "$src/data/cars/hatchback-caravan.ini" --laps 1 > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "tows a trailer" "$tmp/err"
check "race refuses a combination: exit 1, says why" $?
"$grip" accel --car "$src/data/cars/caravan.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "has no engine (a trailer)" "$tmp/err"
check "accel refuses a trailer: exit 1, says why" $?
mkdir "$tmp/dir.ini"
"$grip" check "$tmp/dir.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "dir.ini: is a directory" "$tmp/err"
check "a directory: is a directory" $?
exit $fail
