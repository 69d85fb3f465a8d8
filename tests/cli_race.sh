#!/usr/bin/env bash
# grip race: defaults with no data files, JSON keys, telemetry, replay bytes, usage errors.
set -u
GRIP=$1
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

"$GRIP" race --laps 1 --cars 2 --telemetry a.csv --telemetry-rate 5 --json > a.json; check "[ $? -eq 0 ]"
"$GRIP" race --laps 1 --cars 2 --telemetry b.csv --telemetry-rate 5 --json > b.json; check "[ $? -eq 0 ]"
check "cmp -s a.csv b.csv"
check "head -1 a.csv | grep -q '^time_s,car,lap,distance_m,lateral_m,x_m,y_m,z_m,speed_kmh,throttle,brake,steering,gear,rpm,lat_g,long_g,slip_ratio_fl,slip_angle_fl,load_fl'"
check "[ \$(wc -l < a.csv) -gt 400 ]"

out=$("$GRIP" race --laps 1); check "echo '$out' | grep -q 'robot-1'"

"$GRIP" race --car ferrari >/dev/null 2>err.txt; check "[ $? -eq 1 ]"; check "grep -q ferrari err.txt"
"$GRIP" race --laps 0 >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" race --bogus >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" race --track nonexistent.track >/dev/null 2>&1; check "[ $? -eq 1 ]"
printf 'mu_factor = 0.8\nlook_ahead = 3\n' > bad.robot
err=$("$GRIP" race --robot bad.robot 2>&1); check "[ $? -eq 1 ]"
check "echo '$err' | grep -q 'bad.robot:2: look_ahead: unknown parameter'"
exit $fail
