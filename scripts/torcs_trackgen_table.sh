#!/bin/bash
# Track geometry from TORCS's own track builder, for every track Debian's torcs-data installs.
# Needs the `torcs` package (trackgen) and xvfb-run (trackgen opens a GL context).
# usage: scripts/torcs_trackgen_table.sh [TRACK_DIR] > tests/data/torcs-reference/tracks-trackgen.txt
# One line per track: category name nseg length width XSize YSize ZSize DeltaX DeltaY DeltaZ (m) DeltaAng (rad),
# as trackgen -z prints them (-z: compute the track's parameters and exit, no files written).
set -eu
dir=${1:-/usr/share/games/torcs/tracks}
for cat_dir in "$dir"/*/; do
  cat=$(basename "$cat_dir")
  for track_dir in "$cat_dir"*/; do
    name=$(basename "$track_dir")
    [ -f "$track_dir/$name.xml" ] || continue
    out=$(cd /tmp && timeout 120 xvfb-run -a /usr/games/trackgen -c "$cat" -n "$name" -z 2>&1 || true)
    get() { printf '%s\n' "$out" | sed -n "s/^$1 *= *\([^ ]*\).*/\1/p" | head -1; }
    echo "$cat $name nseg=$(get nseg) length=$(get length) width=$(get width) XSize=$(get XSize)" \
         "YSize=$(get YSize) ZSize=$(get ZSize) DeltaX=$(get 'Delta X') DeltaY=$(get 'Delta Y')" \
         "DeltaZ=$(get 'Delta Z') DeltaAng=$(get 'Delta Ang')"
  done
done
