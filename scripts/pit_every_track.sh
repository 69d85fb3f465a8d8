#!/bin/bash
# Every TORCS track with a pit lane (torcs-data): car1-trb1 alone, 2 laps with fuel for 1.5 laps
# (one lap's consumption measured first with a full tank), so it must stop once. One line per
# track: consumption, the stop (service time, fuel, time on the pit road), time off the road and
# at a wall, the largest speed over the lane's limit, the lap times. docs/driver.md quotes it.
# usage: scripts/pit_every_track.sh [path/to/grip]
set -u
G=${1:-build/grip}
tracks=$(for d in /usr/share/games/torcs/tracks/*/*/; do basename "$d"; done)
for t in $tracks; do
  json=$("$G" race --track torcs:$t --car torcs:car1-trb1 --laps 1 --fuel full --quiet --json) || continue
  pit=$(echo "$json" | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['pit_lane'])")
  [ "$pit" = "True" ] || continue
  per=$(echo "$json" | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['cars'][0]['fuel_used_kg'])")
  kg=$(/usr/bin/python3 -c "print(round(1.5*$per, 3))")
  "$G" race --track torcs:$t --car torcs:car1-trb1 --laps 2 --fuel $kg --quiet --json | /usr/bin/python3 -c "
import json,sys; c=json.load(sys.stdin)['cars'][0]
print('%-12s %5.2f kg/lap, start %6.3f kg: %-8s stops %d, served %.2f s for %.2f kg, pit road %.1f s, off %.2f s, wall %.2f s, over limit %.2f m/s, laps %s' % (
  '$t', $per, $kg, c['status'], c['pit_stops'], c['pit_service_s'], c['refuelled_kg'], c['pit_lane_s'],
  c['off_track_s'], c['wall_contact_s'], c['pit_limit_excess_ms'], [round(x, 2) for x in c['lap_times_s']]))"
done
