#!/usr/bin/env bash
# The grip tool's vehicle commands: JSON keys of the issue, exit status 2 on bad options.
set -u
grip="$1"
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=$((fail + 1)); else echo "ok: $1"; fi; }
has_keys() { # json keys...
  local json="$1"; shift
  for k in "$@"; do grep -q "\"$k\":" <<<"$json" || { echo "missing key $k in $json"; return 1; }; done
}
j=$("$grip" accel --dt 0.01 --json)
check "accel keys" 'has_keys "$j" t_0_100_s t_0_200_s quarter_mile_s quarter_mile_kmh top_speed_kmh top_gear'
j=$("$grip" brake --from 100 --json)
check "brake keys" 'has_keys "$j" distance_m time_s peak_decel_g wheels_locked'
j=$("$grip" park --slope 30 --seconds 5 --json)
check "park keys" 'has_keys "$j" creep_mm_per_min'
j=$("$grip" bench --vehicles 4 --seconds 0.2 --json)
check "bench keys" 'has_keys "$j" vehicles steps ns_per_vehicle_step cpu_ns_per_vehicle_step realtime_factor bytes_per_vehicle shared_bytes'
check "bench counts" 'grep -q "\"vehicles\":4" <<<"$j" && grep -q "\"steps\":100" <<<"$j"'
# One car type for all the cars: the shared bytes do not grow with the number of cars, and the
# bytes per car fall towards the car's own state as more cars share them.
j40=$("$grip" bench --vehicles 40 --seconds 0.02 --json)
num() { /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
check "bench shared per type" '[ "$(num "$j" shared_bytes)" = "$(num "$j40" shared_bytes)" ]'
check "bench bytes per car fall" '/usr/bin/python3 -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(0 if b < a else 1)" "$(num "$j" bytes_per_vehicle)" "$(num "$j40" bytes_per_vehicle)"'
# --separate-worlds: 7 cars split 4 + 3 into two worlds on two threads; the first world ends in the
# state a 4-car bench reaches alone (nothing passes between the worlds); a usage error with fewer
# cars than threads.
js=$("$grip" bench --vehicles 7 --threads 2 --separate-worlds --seconds 0.2 --json)
j4=$("$grip" bench --vehicles 4 --threads 1 --seconds 0.2 --json)
check "bench --separate-worlds keys" 'has_keys "$js" ns_per_vehicle_step cpu_ns_per_vehicle_step separate_worlds state_hash && grep -q "\"separate_worlds\":2" <<<"$js" && grep -q "\"vehicles\":7" <<<"$js"'
check "bench --separate-worlds: the first world as alone" '[ "$(num "$js" state_hash)" = "$(num "$j4" state_hash)" ]'
"$grip" bench --vehicles 1 --threads 2 --separate-worlds --seconds 0.1 >/dev/null 2>&1; rc=$?
check "bench --separate-worlds: fewer cars than threads, exit 2" '[ $rc -eq 2 ]'
# on a track: 8 cars in 3 lanes 435 m apart follow their lanes for 20 s without touching a wall
# or each other, at a mean speed between 30 and 144 km/h (the followers' 40 m/s cap)
j=$("$grip" bench --track default --vehicles 8 --seconds 20 --dt 0.01 --threads 1 --json)
check "bench --track keys" 'has_keys "$j" vehicles steps ns_per_vehicle_step cpu_ns_per_vehicle_step bytes_per_vehicle shared_bytes mean_speed_kmh contact_vehicle_steps'
# the world's memory does not depend on its ground: the same 8 cars hold as many bytes on the
# plane; one thread uses no more CPU time than the wall clock saw (1 % for the clocks' reads)
j8=$("$grip" bench --vehicles 8 --seconds 0.02 --threads 1 --json)
check "bench --track memory as on the plane" '[ "$(num "$j" bytes_per_vehicle)" = "$(num "$j8" bytes_per_vehicle)" ] && [ "$(num "$j" shared_bytes)" = "$(num "$j8" shared_bytes)" ]'
check "bench --track CPU time within the wall time" '/usr/bin/python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(not (0 < d[\"cpu_ns_per_vehicle_step\"] <= 1.01 * d[\"ns_per_vehicle_step\"]))" "$j"'
check "bench --track drives" '/usr/bin/python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(not (d[\"steps\"] == 2000 and d[\"contact_vehicle_steps\"] == 0 and 30 < d[\"mean_speed_kmh\"] < 144))" "$j"'
# --separate-worlds on a track: one world is the bench itself (the same state hash); in two worlds
# (4 + 4 cars) the cars, which never touch, end at the same speeds, summed in the same order
# (the mean bit for bit), and touch nothing.
js1=$("$grip" bench --track default --vehicles 8 --seconds 20 --dt 0.01 --threads 1 --separate-worlds --json)
js2=$("$grip" bench --track default --vehicles 8 --seconds 20 --dt 0.01 --threads 2 --separate-worlds --json)
check "bench --track --separate-worlds: one world is the bench" '[ "$(num "$js1" state_hash)" = "$(num "$j" state_hash)" ] && grep -q "\"separate_worlds\":1" <<<"$js1"'
check "bench --track --separate-worlds: two worlds, the same cars" '[ "$(num "$js2" mean_speed_kmh)" = "$(num "$j" mean_speed_kmh)" ] && [ "$(num "$js2" contact_vehicle_steps)" = 0 ] && grep -q "\"separate_worlds\":2" <<<"$js2" && [ "$(num "$js2" state_hash)" != "$(num "$j" state_hash)" ]'
"$grip" bench --track default --vehicles 1 --threads 2 --separate-worlds --seconds 0.1 >/dev/null 2>&1; rc=$?
check "bench --track --separate-worlds: fewer cars than threads, exit 2" '[ $rc -eq 2 ]'
err=$("$grip" bench --track default --vehicles 1000 --seconds 0.1 2>&1 >/dev/null); rc=$?
check "bench --track: too many cars, exit 1 and why" '[ $rc -eq 1 ] && grep -q "do not fit" <<<"$err"'
j=$("$grip" steady --speed 50 --steer-deg 20 --json)
check "steady keys" 'has_keys "$j" radius_m wheelbase_m road_wheel_angle_deg yaw_rate_dps lateral_g slip_angle_front_deg slip_angle_rear_deg body_slip_deg roll_deg'
j=$("$grip" skidpad --radius 40 --dt 0.01 --json)
check "skidpad keys" 'has_keys "$j" max_lateral_g understeer_gradient_deg_per_g bicycle_understeer_gradient_deg_per_g limit_behaviour'
j=$("$grip" stepsteer --speed 80 --steer-deg 30 --json)
check "stepsteer keys" 'has_keys "$j" yaw_rate_rise_time_s yaw_rate_overshoot_pct steady_yaw_rate_dps'
j=$("$grip" park --cross-slope 30 --seconds 5 --json)
check "park across" 'has_keys "$j" creep_mm_per_min'
for bad in "accel --dt 1" "accel --dt abc" "brake --from" "park --slope 500" "bench --vehicles 0" "accel --bogus" "nosuchcommand" ""; do
  "$grip" $bad >/dev/null 2>&1
  rc=$?
  check "exit 2 for 'grip $bad'" '[ $rc -eq 2 ]'
done
msg=$("$grip" accel --dt 1 2>&1 >/dev/null)
check "message names the option and range" 'grep -q -- "--dt" <<<"$msg" && grep -q "0.0001" <<<"$msg"'
echo "$fail failed"
[ $fail -eq 0 ]
