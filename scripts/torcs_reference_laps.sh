#!/bin/bash
# TORCS's own robots driving car1-trb1 alone on every TORCS track: the reference laps of
# tests/data/torcs-reference/laps-car1-trb1.txt. Needs Debian's `torcs` (1.3.7).
# usage: scripts/torcs_reference_laps.sh [LAPS] > tests/data/torcs-reference/laps-car1-trb1.txt
# Robots and their car1-trb1 index: bt 2, berniw 3, inferno 3, olethros 2 (lliaw and tita are
# copies of inferno). One line per robot and track, as run_torcs_robot.sh prints it.
set -u
laps=${1:-4}
here=$(dirname "$0")
run=$here/../tests/data/torcs-reference/run_torcs_robot.sh
dir=/usr/share/games/torcs/tracks
for cat in road oval dirt; do
  for t in "$dir/$cat"/*/; do
    name=$(basename "$t")
    [ -f "$t/$name.xml" ] || continue
    for ri in "bt 2" "berniw 3" "inferno 3" "olethros 2"; do
      set -- $ri
      bash "$run" "$1" "$2" "$name" "$cat" "$laps"
    done
  done
done
