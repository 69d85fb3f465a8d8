#!/usr/bin/env bash
# grip under Valgrind's memcheck: no memory error, and the same state hashes as the same runs
# without it (Valgrind runs each floating-point instruction as the CPU would, so any difference
# is a read of memory that was never written). It also keeps the step's AVX2 copy runnable under
# Valgrind, which users run their own programs under with grip in them (a draft of the tyre
# step on 32-byte vectors had GCC build a constant with a VEX `vmovq xmm, xmm` form that
# Valgrind 3.19 stops at with SIGILL).
# Skipped without valgrind, and for a build under AddressSanitizer (the two do not mix).
set -u
GRIP=$1
SRC=$2
fail=0
if ! command -v valgrind > /dev/null; then
  echo "SKIP: valgrind is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
if ldd "$GRIP" | grep -q libasan; then
  echo "SKIP: $GRIP is built with AddressSanitizer"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

hash_of() { grep -o '"state_hash": *"[0-9a-f]*"' "$1" | grep -o '[0-9a-f]\{16\}'; }
# same_under_valgrind NAME GRIP-ARGS...: exit 0 and the same hash, with and without memcheck
same_under_valgrind() {
  local name=$1
  shift
  "$GRIP" "$@" > "$name.native" 2>&1
  local native=$?
  valgrind --quiet --error-exitcode=99 --log-file="$name.log" "$GRIP" "$@" > "$name.valgrind" 2>&1
  local checked=$?
  local a b
  a=$(hash_of "$name.native") b=$(hash_of "$name.valgrind")
  if [ $native -eq 0 ] && [ $checked -eq 0 ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
    echo "$name: no memory error, state hash $a with and without memcheck"
  else
    echo "FAIL: $name: exit $native natively, $checked under memcheck; hashes '$a' and '$b'"
    head -40 "$name.log" "$name.valgrind"
    fail=1
  fi
}

echo "$("$GRIP" version | sed -n 's/^step code: //p') step code natively, $(valgrind --quiet "$GRIP" version |
  sed -n 's/^step code: //p') under memcheck"
same_under_valgrind plane bench --vehicles 8 --seconds 0.2 --threads 1 --json
same_under_valgrind plane_threads bench --vehicles 8 --seconds 0.2 --threads 2 --json
same_under_valgrind track bench --track default --vehicles 4 --seconds 0.2 --threads 1 --json
same_under_valgrind race race --cars 2 --time-cap 1 --dt 0.005 --quiet --json
same_under_valgrind truck race --car "$SRC/data/cars/truck-6x4.ini" --time-cap 1 --dt 0.005 --quiet --json
same_under_valgrind three_wheeler race --car "$SRC/data/cars/three-wheeler.ini" --time-cap 1 --dt 0.005 --quiet --json
same_under_valgrind hills scene run "$SRC/data/scenes/hills.ini" --seconds 0.5 --json
exit $fail
