#!/bin/bash
# A whole race of a TORCS 1.3.7 (Debian package torcs) robot alone, text mode, with its pit stops
# (race-30-laps.txt): run_torcs_robot.sh with a 30-minute time-out.
# usage: run_torcs_race.sh ROBOT IDX TRACK CATEGORY LAPS
#   -> prints "robot idx car track best= top= time= laps= dmg= pits="
TORCS_TIMEOUT=1800 exec "$(dirname "$0")/run_torcs_robot.sh" "$@"
