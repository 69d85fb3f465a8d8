#!/usr/bin/env bash
# grip race: defaults with no data files, JSON keys, telemetry, replay bytes, usage errors.
set -u
GRIP=$1
SRC=$2
fail=0
check() { if ! eval "$1"; then echo "FAIL: $1"; fail=1; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

out=$("$GRIP" race --laps 1 --json); rc=$?
check "[ $rc -eq 0 ]"
check "echo '$out' | python3 -c 'import json,sys; d=json.load(sys.stdin); c=d[\"cars\"][0]; \
  sys.exit(0 if d[\"realtime_factor\"]>0 and c[\"laps\"]==1 and c[\"name\"]==\"robot-1\" and \
  c[\"car\"]==\"corvette-c5\" and c[\"total_time_s\"]>0 and c[\"best_lap_s\"]>0 and \
  c[\"top_speed_kmh\"]>50 and c[\"off_track_s\"]>=0 else 1)'"
# plan_lap_s: the robot's predicted flying lap on Grip Park (docs/driver.md: 48.6 s with the
# cornering drag and shift time), a lap driven within 2 % of it, and no barrier touched.
out=$("$GRIP" race --laps 2 --json)
check "echo '$out' | /usr/bin/python3 -c 'import json,sys; c=json.load(sys.stdin)[\"cars\"][0]; \
  sys.exit(0 if 48.1<c[\"plan_lap_s\"]<49.1 and abs(c[\"best_lap_s\"]/c[\"plan_lap_s\"]-1)<0.02 and \
  c[\"wall_contact_s\"]==0 else 1)'"

"$GRIP" race --laps 1 --cars 2 --telemetry a.csv --telemetry-rate 5 --json > a.json; check "[ $? -eq 0 ]"
"$GRIP" race --laps 1 --cars 2 --telemetry b.csv --telemetry-rate 5 --json > b.json; check "[ $? -eq 0 ]"
check "cmp -s a.csv b.csv"
# the race's end state: the same race hashes the same bit for bit; the tyre-state race (below)
# another
hash_a=$(python3 -c 'import json; print(json.load(open("a.json"))["state_hash"])')
check "[ \"$hash_a\" = \"$(python3 -c 'import json; print(json.load(open("b.json"))["state_hash"])')\" ]"
check "echo '$hash_a' | grep -Eq '^[0-9a-f]{16}$'"
check "head -1 a.csv | grep -q '^time_s,car,lap,distance_m,lateral_m,x_m,y_m,z_m,speed_kmh,throttle,brake,steering,gear,rpm,lat_g,long_g,slip_ratio_fl,slip_angle_fl,load_fl'"
check "[ \$(wc -l < a.csv) -gt 400 ]"

out=$("$GRIP" race --laps 1); check "echo '$out' | grep -q 'robot-1'"

# Tyre state: off by default (no tyre columns, no "tyres" key); --tyre-state on with a cold start
# (--tyre-temp 20) reports per-wheel temperatures above the start, the ideal-gas pressure rise
# from the 220 kPa set at 20 degC, and the telemetry's tyre columns; a bad switch is a usage error.
check "! head -1 a.csv | grep -q tyre_surface"
check "! grep -q tyres a.json"
"$GRIP" race --laps 1 --tyre-state on --tyre-temp 20 --no-fuel --telemetry t.csv --json > t.json; check "[ $? -eq 0 ]"
check "[ \"$(python3 -c 'import json; print(json.load(open("t.json"))["state_hash"])')\" != \"$hash_a\" ]"
check "head -1 t.csv | grep -q ',tyre_surface_k_fl,tyre_carcass_k_fl,tyre_gas_k_fl,tyre_pressure_kpa_fl,tread_mm_fl,tyre_grip_fl'"
check "/usr/bin/python3 -c 'import json,sys; t=json.load(open(\"t.json\"))[\"cars\"][0][\"tyres\"]; \
  ok=all(293.15<s<450 for s in t[\"surface_temperature_k\"]) and \
  all(abs((p+101325)-(220000+101325)*g/293.15)<1e-3 for p,g in zip(t[\"pressure_pa\"],t[\"gas_temperature_k\"])) and \
  all(0<d<0.008 for d in t[\"tread_depth_m\"]) and len(t[\"lap_grip\"])==1; sys.exit(0 if ok else 1)'"
"$GRIP" race --laps 1 --tyre-state on --tyre-temp 20 --tyre-pressure 180 --no-fuel --json > p.json; check "[ $? -eq 0 ]"
check "/usr/bin/python3 -c 'import json,sys; t=json.load(open(\"p.json\"))[\"cars\"][0][\"tyres\"]; \
  sys.exit(0 if all(abs((p+101325)-(180000+101325)*g/293.15)<1e-3 for p,g in zip(t[\"pressure_pa\"],t[\"gas_temperature_k\"])) else 1)'"
"$GRIP" race --laps 1 --tyre-state maybe >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" race --laps 1 --tyre-temp 500 >/dev/null 2>&1; check "[ $? -eq 2 ]"

"$GRIP" race --car ferrari >/dev/null 2>err.txt; check "[ $? -eq 1 ]"; check "grep -q ferrari err.txt"
"$GRIP" race --laps 0 >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" race --bogus >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" race --track nonexistent.track >/dev/null 2>&1; check "[ $? -eq 1 ]"
# --robot-rate: robots deciding at 50 Hz at dt 0.002 (every 10th step) lap the built-in track
# within 1 % of deciding every step, and --robot-rate overrides a --robot file's control_rate
# (the same race, byte for byte); 0 Hz is out of range (a usage error).
"$GRIP" race --laps 2 --dt 0.002 --json > every.json; check "[ $? -eq 0 ]"
"$GRIP" race --laps 2 --dt 0.002 --robot-rate 50 --json > rate50.json; check "[ $? -eq 0 ]"
check "/usr/bin/python3 -c 'import json; a=json.load(open(\"every.json\"))[\"cars\"][0]; b=json.load(open(\"rate50.json\"))[\"cars\"][0]; \
  import sys; sys.exit(0 if b[\"finished\"] and b[\"off_track_s\"]==0 and abs(b[\"best_lap_s\"]/a[\"best_lap_s\"]-1)<0.01 and b[\"best_lap_s\"]!=a[\"best_lap_s\"] else 1)'"
printf 'control_rate = 10\n' > slow.robot
"$GRIP" race --laps 1 --dt 0.002 --robot slow.robot --robot-rate 50 --telemetry r1.csv --json > /dev/null; check "[ $? -eq 0 ]"
"$GRIP" race --laps 1 --dt 0.002 --robot-rate 50 --telemetry r2.csv --json > /dev/null; check "[ $? -eq 0 ]"
check "cmp -s r1.csv r2.csv"
"$GRIP" race --laps 1 --robot-rate 0 >/dev/null 2>&1; check "[ $? -eq 2 ]"
printf 'mu_factor = 0.8\nlook_ahead = 3\n' > bad.robot
err=$("$GRIP" race --robot bad.robot 2>&1); check "[ $? -eq 1 ]"
check "echo '$err' | grep -q 'bad.robot:2: look_ahead: unknown parameter'"
# Every car's outcome: JSON status/reason/finished, and the time cap reported as such.
out=$("$GRIP" race --laps 2 --time-cap 30 --json); rc=$?
check "[ $rc -eq 0 ]"
check "echo '$out' | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); c=d[\"cars\"][0]; \
  sys.exit(0 if d[\"status\"]==\"time cap\" and d[\"time_cap_s\"]==30 and c[\"finished\"] is False and \
  c[\"status\"]==\"running at time cap\" and c[\"reason\"] is None and c[\"laps\"]==0 and \
  c[\"best_lap_s\"] is None and c[\"total_time_s\"] is None and c[\"lap_times_s\"]==[] else 1)'"
out=$("$GRIP" race --laps 1 --json)
check "echo '$out' | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); c=d[\"cars\"][0]; \
  sys.exit(0 if d[\"status\"]==\"complete\" and c[\"finished\"] is True and c[\"status\"]==\"finished\" and \
  c[\"reason\"] is None and c[\"retired_time_s\"] is None else 1)'"
# Text: no nan, no bare '*', a dash for no lap, the status and a legend for it.
"$GRIP" race --laps 2 --time-cap 30 > cap.txt
check "grep -q 'running$' cap.txt"
check "grep -q '^legend: .*running = still racing when the time cap of 30 s came' cap.txt"
check "grep -q '—' cap.txt"
check "grep -q 'ended at its time cap (30 s)' cap.txt"
check "! grep -qi 'nan' cap.txt"
check "! grep -q '[0-9]\*' cap.txt"
# A car that runs dry: DNF with its reason and the legend.
printf '[fuel]\nmass = 0.15\n' > dry.ini
"$GRIP" race --car dry.ini --laps 2 > dry.txt; check "[ $? -eq 0 ]"
check "grep -q 'DNF (out of fuel) at' dry.txt"
check "grep -q '^legend: DNF = did not finish, retired (out of fuel' dry.txt"

# Tracks the car cannot race on: refused with a clear message, exit 1.
printf 'name Tight\nwidth 8\nstraight 50\narc left radius 5.2 angle 180\nstraight 50\narc left radius 5.2 angle 180\n' > tight.track
"$GRIP" race --track tight.track >/dev/null 2>err.txt; check "[ $? -eq 1 ]"
check "grep -q 'grip race: .*radius of 5.20 m, under the car.s turning radius of 5.43 m' err.txt"
printf 'name Narrow\nwidth 1.5\nstraight 100\narc left radius 30 angle 180\nstraight 100\narc left radius 30 angle 180\n' > narrow.track
"$GRIP" race --track narrow.track >/dev/null 2>err.txt; check "[ $? -eq 1 ]"
check "grep -q 'grip race: .*1.50 m wide at its narrowest, under the car.s width of 1.87 m' err.txt"
"$GRIP" race --time-cap 0 >/dev/null 2>&1; check "[ $? -eq 2 ]"
# Fuel and pit stops (docs/driver.md, "Pit stops and fuel"): --fuel takes auto, full or kg.
"$GRIP" race --fuel lots >/dev/null 2>err.txt; check "[ $? -eq 2 ]"; check "grep -q 'fuel: .lots. is not auto, full' err.txt"
"$GRIP" race --fuel -3 >/dev/null 2>&1; check "[ $? -eq 2 ]"
# auto without a pit lane (the built-in track without its pit statement): fuel for the
# distance (3 laps of ~0.4 kg with margin), under the car's own 30 kg, no stop
grep -v '^pit ' "$SRC/data/tracks/park.track" > nopit.track
"$GRIP" race --track nopit.track --fuel auto --json > auto.json; check "[ $? -eq 0 ]"
check "/usr/bin/python3 -c 'import json; d=json.load(open(\"auto.json\")); c=d[\"cars\"][0]; exit(0 if d[\"pit_lane\"] is False and c[\"finished\"] and c[\"pit_stops\"]==0 and 0.5 < c[\"start_fuel_kg\"] < 3 and c[\"start_fuel_kg\"] > c[\"fuel_used_kg\"] else 1)'"
# the built-in track has a pit lane (data/tracks/park.track); 3 laps on auto fuel need no stop
"$GRIP" race --fuel auto --json > auto2.json; check "[ $? -eq 0 ]"
check "/usr/bin/python3 -c 'import json; d=json.load(open(\"auto2.json\")); c=d[\"cars\"][0]; exit(0 if d[\"pit_lane\"] is True and c[\"finished\"] and c[\"pit_stops\"]==0 and 0.5 < c[\"start_fuel_kg\"] < 3 else 1)'"
# an oval with a pit lane on the right and fuel for 1.5 laps: one stop of 2 s + fuel / 8
printf 'name Pit Oval\nwidth 12\nkerb 1\nrunoff 15\nrunoff-surface asphalt\nstraight 500\narc left radius 100 angle 180\nstraight 500\narc left radius 100 angle 180\npit side right entry 1478.3 start 20 end 320 exit 450 speed-limit 20\n' > pit.track
"$GRIP" race --track pit.track --laps 3 --fuel 0.7 --json > pit.json; check "[ $? -eq 0 ]"
check "/usr/bin/python3 -c 'import json; d=json.load(open(\"pit.json\")); c=d[\"cars\"][0]; exit(0 if d[\"pit_lane\"] is True and c[\"finished\"] and c[\"pit_stops\"]==1 and abs(c[\"pit_service_s\"] - 2 - c[\"refuelled_kg\"]/8) < 0.011 and c[\"pit_lane_s\"] > 15 and c[\"pit_limit_excess_ms\"] <= 0 and c[\"off_track_s\"]==0 and c[\"wall_contact_s\"]==0 else 1)'"
"$GRIP" race --track pit.track --laps 3 --fuel 0.7 --telemetry pit1.csv > pit.txt
"$GRIP" race --track pit.track --laps 3 --fuel 0.7 --telemetry pit2.csv > /dev/null
check "cmp -s pit1.csv pit2.csv" # a race with a stop is deterministic too
check "grep -q '^fuel robot-1: 0.7 kg at the start, .* kg used; 1 pit stop(s), .* s in the pit lane' pit.txt"
printf 'straight 500\narc left radius 100 angle 180\nstraight 500\narc left radius 100 angle 180\npit side right entry 1478.3 start 20 end 320\n' > nopit.track
"$GRIP" race --track nopit.track >/dev/null 2>err.txt; check "[ $? -eq 1 ]"; check "grep -q 'nopit.track:5: pit: missing exit' err.txt"
# grip soak, a short one: 2 cars then 1 alone, 6 simulated minutes each (the CI soak with 16 cars
# is tests/test_soak.c): passes, and says so in its keys.
"$GRIP" soak --cars 2 --hours 0.1 --quiet --json > soak.json; check "[ $? -eq 0 ]"
check "/usr/bin/python3 -c 'import json; d=json.load(open(\"soak.json\")); exit(0 if d[\"passed\"] is True and d[\"retired\"]==0 and d[\"retirements\"]==[] and abs(d[\"drift_pct\"]) < 0.1 and d[\"heap_growth_bytes\"]==0 and d[\"field_laps\"] >= 2*5 and d[\"verdict\"]==\"passed\" else 1)'"
"$GRIP" soak --hours 0 >/dev/null 2>&1; check "[ $? -eq 2 ]"
exit $fail
