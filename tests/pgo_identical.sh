#!/bin/bash
# The profile-guided build (scripts/build-pgo.sh) against the plain Release build it is run from:
# the same results bit for bit, as docs/performance.md says (the profiles change inlining, code
# layout and unrolling, never the arithmetic): the plane and track benchmarks' state hashes and
# the telemetry of two races, byte for byte.
# usage: pgo_identical.sh PLAIN_GRIP SOURCE_DIR WORK_DIR
set -euo pipefail
plain=$1 src=$2 work=$3
mkdir -p "$work"
if ! "$src/scripts/build-pgo.sh" "$work/build" > "$work/build.log" 2>&1; then
  cat "$work/build.log"
  echo "FAIL: scripts/build-pgo.sh"
  exit 1
fi
pgo="$work/build/grip"
fail=0
hash_of() { "$@" | grep -o '"state_hash":"[0-9a-f]*"'; }
for args in "bench --vehicles 100 --seconds 2 --threads 1 --json" \
            "bench --track default --vehicles 16 --seconds 4 --threads 1 --json"; do
  a=$(hash_of $plain $args) b=$(hash_of $pgo $args)
  echo "grip $args: plain $a, profile-guided $b"
  [ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: the state hashes differ"; fail=1; }
done
for args in "race --laps 1 --dt 0.002" "race --cars 4 --laps 1 --robot-rate 50"; do
  $plain $args --quiet --telemetry "$work/plain.csv" --telemetry-rate 100 > /dev/null
  $pgo $args --quiet --telemetry "$work/pgo.csv" --telemetry-rate 100 > /dev/null
  rows=$(wc -l < "$work/plain.csv")
  if [ "$rows" -gt 1000 ] && cmp -s "$work/plain.csv" "$work/pgo.csv"; then
    echo "grip $args: $rows telemetry rows, byte for byte the same"
  else
    echo "FAIL: grip $args: the telemetry differs ($rows rows)"
    fail=1
  fi
done
exit $fail
