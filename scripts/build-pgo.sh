#!/bin/bash
# A profile-guided Release build of grip in DIR (default build-pgo), GCC only:
#   1. an instrumented build of the grip tool (GRIP_PGO=generate),
#   2. a training run: races on the built-in track (robots every step and at 50 Hz, one car and
#      eight), the plane and track benchmarks, and e-track-4 with TORCS's car1-trb1 when Debian's
#      torcs-data is installed,
#   3. the whole project rebuilt with those profiles (GRIP_PGO=use): DIR/grip, DIR/libgrip.*.
# Results are bit-identical to the plain build (the profiles change code layout and inlining, not
# the arithmetic); docs/performance.md has what it gains.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-pgo}
jobs=${JOBS:-2}
mkdir -p "$dir"
profile="$(cd "$dir" && pwd)/pgo-profile"
rm -rf "$profile"
common=(-DCMAKE_BUILD_TYPE=Release -DGRIP_BUILD_TESTS=OFF -DGRIP_PGO_DIR="$profile")

echo "build-pgo: 1/3 instrumented build in $dir"
cmake -S . -B "$dir" "${common[@]}" -DGRIP_PGO=generate >/dev/null
cmake --build "$dir" -j "$jobs" --target grip >/dev/null

echo "build-pgo: 2/3 training"
g="$dir/grip"
"$g" race --laps 2 --dt 0.002 --quiet >/dev/null
"$g" race --laps 2 --dt 0.002 --robot-rate 50 --quiet >/dev/null
"$g" race --cars 8 --laps 1 --quiet >/dev/null
"$g" bench --vehicles 100 --seconds 4 --threads 1 >/dev/null
"$g" bench --track default --vehicles 32 --seconds 4 --threads 1 >/dev/null
if "$g" race --track torcs:e-track-4 --car torcs:car1-trb1 --dt 0.002 --laps 1 --robot-rate 50 --quiet >/dev/null 2>&1; then
  echo "build-pgo:     with TORCS's e-track-4 and car1-trb1"
else
  echo "build-pgo:     without TORCS data (apt-get install torcs-data adds a TORCS track to the training)"
fi

echo "build-pgo: 3/3 optimised build"
cmake -S . -B "$dir" "${common[@]}" -DGRIP_PGO=use >/dev/null
cmake --build "$dir" -j "$jobs" >/dev/null
echo "build-pgo: done: $dir/grip"
