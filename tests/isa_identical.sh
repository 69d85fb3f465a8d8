#!/bin/bash
# The step's hot functions in their AVX2 copies (src/isa.h) against a build that has only the
# baseline copy (-DGRIP_ISA_CLONES=OFF): the same results bit for bit. Compared: the state hashes
# of the plane and track benchmarks, and the telemetry and results of races and runs over each
# kind of ground (plane, built-in track, TORCS track, heightfield) and of vehicle (two axles,
# three axles and three wheels, a semi-trailer, the full Magic Formula from a .tir, the tyre
# state): their telemetry, and their results with the state hash of the world as each ended
# (the telemetry's few digits alone can hide a difference in the last bit). Exit 77 (skipped)
# on a CPU without AVX2, where both builds run the baseline copy.
# usage: isa_identical.sh GRIP SOURCE_DIR WORK_DIR [C_COMPILER]: the build without the copies
# is made with the compiler GRIP was built with (two compilers may differ in their last bits).
set -uo pipefail
clones=$1 src=$(cd "$2" && pwd) work=$3 compiler=${4:-cc}
if ! grep -qw avx2 /proc/cpuinfo; then
  echo "SKIP: this CPU has no AVX2, so the AVX2 copies cannot run here"
  exit 77
fi
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# The library under test has the copies, and this CPU runs them.
mkdir -p "$work"
nm "$clones" > "$work/symbols.avx2"
for f in vehicle_step_cloned drivetrain_step_cloned simple_mf_evaluate_set_cloned track_raycast_flat_n_cloned \
         ground_contact_step_cloned contact_solve_cloned probe ground_rays; do
  grep -Eq " $f\.avx2(\.0)?$" "$work/symbols.avx2" || bad "no AVX2 copy of $f in $clones"
done
[ "$("$clones" version | sed -n 's/^step code: //p')" = avx2 ] || bad "grip version does not say step code: avx2"

# The same sources without the copies.
if ! { cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DGRIP_BUILD_TESTS=OFF \
         -DGRIP_ISA_CLONES=OFF -DGRIP_PYTHON=OFF -DCMAKE_C_COMPILER="$compiler" > "$work/build.log" 2>&1 &&
       cmake --build "$work/build" -j 2 --target grip >> "$work/build.log" 2>&1; }; then
  cat "$work/build.log"
  echo "FAIL: the build without the copies"
  exit 1
fi
baseline="$work/build/grip"
[ "$("$baseline" version | sed -n 's/^step code: //p')" = baseline ] || bad "the build without copies does not say baseline"
nm "$baseline" > "$work/symbols.baseline"
grep -Eq ' vehicle_step_cloned\.avx2(\.0)?$' "$work/symbols.baseline" && bad "the build without copies has AVX2 copies"

hash_of() { "$@" | grep -o '"state_hash":"[0-9a-f]*"'; }
for args in "bench --vehicles 100 --seconds 2 --threads 1 --json" \
            "bench --vehicles 64 --seconds 2 --threads 2 --json" \
            "bench --track default --vehicles 16 --seconds 4 --threads 1 --json"; do
  a=$(hash_of "$clones" $args) b=$(hash_of "$baseline" $args)
  echo "grip $args: avx2 $a, baseline $b"
  [ -n "$a" ] && [ "$a" = "$b" ] || bad "the state hashes differ"
done

# A car on the full Magic Formula (a .tir from MFeval's examples).
printf '[car]\nbase = %s\nname = hatchback on MF 6.1\n[tyre.front]\ntir = %s\n[tyre.rear]\ntir = %s\n' \
  "$src/data/cars/hatchback-100kw.ini" "$src/tests/data/mfeval/MagicFormula61_Paramerters.tir" \
  "$src/tests/data/mfeval/MagicFormula61_Paramerters.tir" > "$work/mf.ini"

same_telemetry() { # same_telemetry NAME GRIP-ARGS...: both builds' telemetry and results, byte for byte
  local name=$1
  shift
  "$clones" "$@" --quiet --json --telemetry "$work/$name.avx2.csv" --telemetry-rate 100 > "$work/$name.avx2.json"
  local ra=$?
  "$baseline" "$@" --quiet --json --telemetry "$work/$name.base.csv" --telemetry-rate 100 > "$work/$name.base.json"
  local rb=$?
  local rows
  rows=$(wc -l < "$work/$name.avx2.csv")
  # the results without their timings (CPU and wall time differ from run to run)
  strip() { python3 -c "import json,sys
timings = {'realtime_factor', 'wall_time_s', 'ns_per_car_step', 'cpu_ns_per_car_step', 'startup_s', 'startup_cpu_s',
           'load_s', 'setup_s'}
def clean(x):
  if isinstance(x, dict): return {k: clean(v) for k, v in x.items() if k not in timings}
  if isinstance(x, list): return [clean(v) for v in x]
  return x
print(json.dumps(clean(json.load(open(sys.argv[1]))), sort_keys=True))" "$1"; }
  if [ $ra = 0 ] && [ $rb = 0 ] && [ "$rows" -gt 500 ] && cmp -s "$work/$name.avx2.csv" "$work/$name.base.csv" &&
     [ "$(strip "$work/$name.avx2.json")" = "$(strip "$work/$name.base.json")" ]; then
    echo "$name: $rows telemetry rows and the results (state hash $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['state_hash'])" "$work/$name.avx2.json")), byte for byte the same"
  else
    bad "$name: exit $ra / $rb, $rows rows: the telemetry or the results differ"
  fi
}
same_telemetry builtin race --laps 1 --dt 0.002
same_telemetry four_cars race --cars 4 --laps 1 --robot-rate 50
same_telemetry scene race --scene "$src/data/scenes/park-race.ini" --laps 1
same_telemetry truck race --car "$src/data/cars/truck-6x4.ini" --laps 1 --time-cap 60
same_telemetry three_wheeler race --car "$src/data/cars/three-wheeler.ini" --laps 1 --time-cap 60
same_telemetry full_mf race --car "$work/mf.ini" --laps 1 --time-cap 60
same_telemetry tyre_state race --tyre-state on --laps 1 --dt 0.005
if "$clones" race --track torcs:e-track-4 --car torcs:car1-trb1 --time-cap 1 --quiet > /dev/null 2>&1; then
  same_telemetry torcs race --track torcs:e-track-4 --car torcs:car1-trb1 --dt 0.002 --robot-rate 50 --cars 2 \
    --time-cap 40
else
  echo "no TORCS data (apt-get install torcs-data): the TORCS race left out"
fi

# Scenes: a heightfield (the hills), and a semi-trailer and a car with a caravan on the plane,
# turning: the state hash of the world as the run ended, and where every car ends.
cat > "$work/towing.ini" <<EOF
[scene]
name = Towing
ground = plane
[car semi]
file = $src/data/cars/truck-6x4-semi.ini
x = 0
y = 0
throttle = 0.6
steer = 0.3
[car hatch]
file = $src/data/cars/hatchback-caravan.ini
x = 0
y = -80
throttle = 0.8
steer = -0.2
EOF
ends() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['state_hash'], json.dumps(d['cars'], sort_keys=True))" "$1"; }
for scene in "$src/data/scenes/hills.ini" "$work/towing.ini"; do
  name=$(basename "$scene" .ini)
  for b in clones baseline; do
    "${!b}" scene run "$scene" --seconds 20 --json > "$work/$name.$b.json" || bad "scene run $name ($b)"
  done
  cars=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['cars']))" "$work/$name.clones.json" 2>/dev/null)
  if [ "${cars:-0}" -ge 3 ] && [ "$(ends "$work/$name.clones.json")" = "$(ends "$work/$name.baseline.json")" ]; then
    echo "scene $name: the end state of its $cars cars the same (state hash $(ends "$work/$name.clones.json" | cut -d' ' -f1))"
  else
    bad "scene $name: the end states differ"
  fi
done
exit $fail
