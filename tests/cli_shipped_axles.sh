#!/bin/bash
# The truck (3 axles, 6 wheels) and the three-wheeler (one front wheel) through every tool:
# grip check, race (robot, results, telemetry), brake, skidpad, accel. Figures computed by hand
# from the car files (their comment blocks give the sources).
# Usage: cli_shipped_axles.sh <path-to-grip> <source-dir>
grip="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check <description> <condition-exit-status>
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"; }
truck="$src/data/cars/truck-6x4.ini"
robin="$src/data/cars/three-wheeler.ini"

# grip check: the sourced axle loads (5900 kg steer axle, 1650 kg per tandem axle; 40 % of
# 436 kg on the Robin's front wheel) within 1 %; the truck's top speed is the 2100 rpm governor
# in top gear: 2100*pi/30 * 0.51 / 3.40 m/s = 118.75 km/h.
"$grip" check "$truck" --json > "$tmp/truck.json" 2> "$tmp/truck.err"
check "check truck: exit 0" $?
json "$tmp/truck.json" "d['ok'] and d['warnings'] == [] and len(d['axle_loads_n']) == 3 and all(abs(a / 9.81 - e) < 0.01 * e for a, e in zip(d['axle_loads_n'], (5900, 1650, 1650)))"
check "check truck: ok, 3 axle loads 5900/1650/1650 kg within 1 %" $?
json "$tmp/truck.json" "abs(d['top_speed_kmh'] - 118.75) < 0.1 and d['top_speed_gear'] == 12"
check "check truck: top speed 118.75 km/h (rev limit in 12th)" $?
"$grip" check "$robin" --json > "$tmp/robin.json" 2> "$tmp/robin.err"
check "check three-wheeler: exit 0" $?
# Its one warning is the truth about a Reliant: (t/2)(a/L)/h = 0.69 is below the tyres' 0.85.
json "$tmp/robin.json" "d['ok'] and len(d['warnings']) == 1 and 'rolls over before it slides' in d['warnings'][0] and abs(d['axle_loads_n'][0] / 9.81 - 174.4) < 1.8"
check "check three-wheeler: ok, the rollover warning only, 174.4 kg on the front wheel" $?

# Races: the robot finishes 2 laps with no time off the track, at dt 0.01 and 0.005.
for car in "$truck" "$robin"; do
  name=$(basename "$car" .ini)
  for dt in 0.01 0.005; do
    "$grip" race --car "$car" --laps 2 --dt $dt --json --quiet > "$tmp/race.json"
    json "$tmp/race.json" "d['cars'][0]['status'] == 'finished' and d['cars'][0]['laps'] == 2 and d['cars'][0]['off_track_s'] == 0"
    check "race $name dt $dt: 2 laps finished, 0 s off track" $?
  done
done

# Telemetry and results over every wheel: 6 and 3 per-wheel columns (w1..), tyre arrays of 6 and 3.
"$grip" race --car "$truck" --laps 1 --quiet --tyre-state on --telemetry "$tmp/t.csv" --json > "$tmp/rt.json"
head -1 "$tmp/t.csv" | tr ',' '\n' > "$tmp/cols"
[ "$(grep -c '^slip_ratio_w' "$tmp/cols")" = 6 ] && grep -q '^load_w6$' "$tmp/cols" && grep -q '^tyre_grip_w6$' "$tmp/cols"
check "telemetry truck: 6 wheels' columns" $?
awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$tmp/t.csv"
check "telemetry truck: every row as wide as the header" $?
# Over the lap (rows after the first second) the six wheel loads add up to the weight, 9200 kg,
# and the tandem's four wheels carry ~1650 kg per axle: 8.09 kN each on average.
/usr/bin/python3 - "$tmp/t.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if float(r['time_s']) > 1.0]
total = sum(sum(float(r['load_w%d' % i]) for i in range(1, 7)) for r in rows) / len(rows)
tandem = sum(sum(float(r['load_w%d' % i]) for i in range(3, 7)) for r in rows) / len(rows) / 4
print('  mean wheel-load sum %.0f N = %.0f kg, tandem wheel %.0f N' % (total, total / 9.81, tandem))
sys.exit(0 if abs(total / 9.81 - 9200) < 0.02 * 9200 and abs(tandem - 1650 * 9.81 / 2) < 0.05 * 1650 * 9.81 / 2 else 1)
PY
check "telemetry truck: wheel loads add up to 9200 kg, tandem wheels ~8.1 kN" $?
json "$tmp/rt.json" "all(len(v) == 6 for k, v in d['cars'][0]['tyres'].items() if not k.startswith('lap_'))"
check "race truck --tyre-state on: 6 tyres in the results" $?
"$grip" race --car "$robin" --laps 1 --quiet --tyre-state on --telemetry "$tmp/r.csv" --json > "$tmp/rr.json"
[ "$(head -1 "$tmp/r.csv" | tr ',' '\n' | grep -c '^slip_ratio_w')" = 3 ]
check "telemetry three-wheeler: 3 wheels' columns" $?
json "$tmp/rr.json" "all(len(v) == 3 for k, v in d['cars'][0]['tyres'].items() if not k.startswith('lap_'))"
check "race three-wheeler --tyre-state on: 3 tyres in the results" $?

# grip brake: the truck's load-shared brakes (~1 g) stop it no shorter than a slide at its best
# tyre mu 0.9 would, v^2/(2 mu g) = 27.78^2/(2*0.9*9.81) = 43.7 m from 100 km/h, and lock the
# light tandem but not the loaded steer axle (so not every wheel); the three-wheeler locks all 3.
"$grip" brake --car "$truck" --json > "$tmp/b.json"
json "$tmp/b.json" "d['wheels_locked'] is False and d['distance_m'] > 0.95 * 43.7 and d['peak_decel_g'] > 0.7"
check "brake truck: stops above the mu 0.9 slide, not every wheel locked" $?
"$grip" brake --car "$robin" --json > "$tmp/b.json"
json "$tmp/b.json" "d['wheels_locked'] is True and d['distance_m'] > 0.95 * 27.78**2 / (2 * 0.85 * 9.81)"
check "brake three-wheeler: all 3 wheels lock" $?

# grip skidpad: the three-wheeler tips (a wheel lifts below its rollover threshold 0.691 g and
# below the tyres' 0.85); the truck slides without lifting a wheel (its (t/2)/h ~ 0.87 > 0.8).
"$grip" skidpad --car "$robin" --json > "$tmp/s.json"
json "$tmp/s.json" "d['limit_behaviour'] == 'rollover' and 0.4 < d['wheel_lift_g'] < 0.691 and d['max_lateral_g'] < 0.691"
check "skidpad three-wheeler: rollover, below the threshold 0.691 g" $?
"$grip" skidpad --car "$truck" --json > "$tmp/s.json"
json "$tmp/s.json" "d['limit_behaviour'] != 'rollover' and 'wheel_lift_g' not in d and 0.5 < d['max_lateral_g'] < 0.8"
check "skidpad truck: slides (no wheel lift), limit below mu 0.8" $?

# grip stepsteer's settled yaw rate equals grip steady's at the same speed and steering-wheel
# angle (50 km/h, 40 deg) within 1 %: two tools, one steady state, read from every wheel.
for car in "$truck" "$robin"; do
  name=$(basename "$car" .ini)
  "$grip" stepsteer --car "$car" --speed 50 --steer-deg 40 --json > "$tmp/st.json"
  "$grip" steady --car "$car" --speed 50 --steer-deg 40 --json > "$tmp/sy.json"
  /usr/bin/python3 -c "import json; a=json.load(open('$tmp/st.json')); b=json.load(open('$tmp/sy.json')); exit(0 if a['valid'] and b['steady'] and abs(a['steady_yaw_rate_dps'] - b['yaw_rate_dps']) < 0.01 * b['yaw_rate_dps'] else 1)"
  check "stepsteer $name: steady yaw rate = grip steady's within 1 %" $?
  "$grip" sine-dwell --car "$car" --json > "$tmp/sd.json"
  json "$tmp/sd.json" "d['pass'] in (True, False) and len(d['runs']) > 0 and d['steer_at_0_3g_deg'] > 0"
  check "sine-dwell $name: runs" $?
done
# ISO 3888-2 lane change: the three-wheeler passes from 30 km/h up, its lateral acceleration held
# under its rollover threshold (0.691 g, +2 % for the 1 s peaks); the truck's 6.3 m body cannot
# thread a car's cones at any speed (it runs and reports every run failed).
"$grip" lane-change --car "$robin" --json > "$tmp/lc.json"
json "$tmp/lc.json" "d['max_speed_kmh'] is not None and d['max_speed_kmh'] >= 30 and d['at_max']['max_lateral_g'] < 1.02 * 0.691"
check "lane-change three-wheeler: passes, under its rollover threshold" $?
"$grip" lane-change --car "$truck" --json > "$tmp/lc.json"
json "$tmp/lc.json" "d['max_speed_kmh'] is None and d['runs'] > 0"
check "lane-change truck: runs, no passing speed" $?
exit $fail
