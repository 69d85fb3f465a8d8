#!/usr/bin/env bash
# libgrip links cleanly into someone else's program:
# - libgrip.so exports only grip_* symbols, and each is a function declared in include/grip;
# - a program with its own `vehicle_step` and `engine_torque` (names grip used inside before its
#   internal functions took the grip_ prefix) links against libgrip.so and against libgrip.a
#   and calls its own, while grip's step still moves the car; libgrip.a's globals are all grip_;
# - the public headers compile as C++ with g++ -Wall -Wextra -Werror -pedantic.
# Usage: bash cli_symbols.sh PATH-TO-GRIP SOURCE-DIR
set -u
build="$(cd "$(dirname "$1")" && pwd)"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
so="$(ls "$build"/libgrip.so.* 2>/dev/null | head -n 1)"
[ -n "$so" ] || { echo "FAIL: no libgrip.so in $build"; exit 1; }
command -v nm > /dev/null || { echo "nm is not installed"; exit 77; }

nm -D --defined-only "$so" | awk '{print $3}' | sort -u > "$work/exported"
count=$(wc -l < "$work/exported")
[ "$count" -ge 50 ] || bad "only $count exported symbols: the public API is missing"
while read -r sym; do
  case "$sym" in
    grip_*) grep -qw "$sym" "$src"/include/grip/*.h || bad "$sym is exported but not declared in include/grip" ;;
    *) bad "libgrip.so exports '$sym', which is not prefixed grip_" ;;
  esac
done < "$work/exported"
# Every GRIP_API function in the headers is exported (none lost to the hidden default).
grep -ho "GRIP_API[^(]*grip_[a-z0-9_]*(" "$src"/include/grip/*.h | grep -o "grip_[a-z0-9_]*($" | tr -d '(' | sort -u > "$work/declared"
# A public function declared without GRIP_API would be hidden: refuse it here.
unmarked=$(grep -hE "^(const )?[a-z_0-9]+[ *]+grip_[a-z0-9_]*\(" "$src"/include/grip/*.h | grep -v "^typedef")
[ -z "$unmarked" ] || bad "public functions declared without GRIP_API: $unmarked"
missing=$(comm -23 "$work/declared" "$work/exported")
[ -z "$missing" ] || bad "declared GRIP_API but not exported: $missing"

# The static library: its internal functions are hidden from libgrip.so but a static link sees
# every global symbol, so each must carry grip's prefix too.
if [ -f "$build/libgrip.a" ]; then
  stat_bad=$(nm --defined-only "$build/libgrip.a" 2>/dev/null | awk '$2 ~ /^[TDBRVWG]$/ {print $3}' | grep -v '^grip_' | sort -u | tr '\n' ' ')
  [ -z "$stat_bad" ] || bad "libgrip.a has global symbols without the grip_ prefix: $stat_bad"
fi

cat > "$work/clash.c" <<'C'
#include <grip/grip.h>
#include <stdio.h>
/* The embedder's own functions, with names grip uses internally. */
int vehicle_step(int x) { return x + 1; }
double engine_torque(double rpm) { return rpm * 0.5; }
int main(void) {
  grip_world_def wd = grip_default_world_def();
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_def car = grip_default_vehicle_def();
  grip_vehicle_id id = grip_create_vehicle(world, &car);
  grip_vehicle_place(world, id, 0.0, 0.0, 0.0);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  grip_vehicle_set_input(world, id, &in);
  for (int i = 0; i < 500; ++i) grip_world_step(world, 0.002);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  grip_destroy_world(world);
  printf("%d %.1f %.3f\n", vehicle_step(41), engine_torque(84.0), s.pose.position.x);
  return vehicle_step(41) == 42 && engine_torque(84.0) == 42.0 && s.pose.position.x > 0.5 ? 0 : 1;
}
C
extra=""
grep -q "^GRIP_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null && extra="-fsanitize=address,undefined"
cc $extra -std=c11 -Wall -Werror -I"$src/include" -o "$work/clash" "$work/clash.c" -L"$build" -lgrip -lm \
  2> "$work/cc.log" || bad "a program with its own vehicle_step/engine_torque does not link: $(cat "$work/cc.log")"
if [ -x "$work/clash" ]; then
  out="$(LD_LIBRARY_PATH="$build" "$work/clash")" || bad "clash program failed: $out"
fi
# The same program linked against the static library.
if [ -f "$build/libgrip.a" ]; then
  cc $extra -std=c11 -Wall -Werror -I"$src/include" -o "$work/clash-static" "$work/clash.c" "$build/libgrip.a" -lm \
    2> "$work/cc-static.log" || bad "with libgrip.a, a program with its own vehicle_step/engine_torque does not link: $(cat "$work/cc-static.log")"
  [ -x "$work/clash-static" ] && { "$work/clash-static" > /dev/null || bad "static clash program failed"; }
fi

# The public headers as C++.
if command -v g++ > /dev/null; then
  printf '#include <grip/grip.h>\nint main() { grip_world_def d = grip_default_world_def(); return d.gravity.z < 0 ? 0 : 1; }\n' > "$work/h.cpp"
  g++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$src/include" -c "$work/h.cpp" -o "$work/h.o" \
    2> "$work/cxx.log" || bad "the public headers do not compile as C++: $(head -c 2000 "$work/cxx.log")"
else
  echo "g++ not installed: C++ header check skipped"
fi
[ $fail -eq 0 ] && echo "cli_symbols: ok ($count exported symbols, all grip_; own vehicle_step/engine_torque: $out)"
exit $fail
