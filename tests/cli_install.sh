#!/usr/bin/env bash
# `cmake --install --prefix P` gives a grip.pc whose prefix is P (the file is relocatable:
# prefix=${pcfiledir}/../..), and a program compiled and linked with pkg-config's flags
# against the installed library runs.
# Usage: bash cli_install.sh PATH-TO-GRIP SOURCE-DIR
set -u
grip="$1"
build="$(cd "$(dirname "$grip")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
command -v pkg-config > /dev/null || { echo "pkg-config is not installed"; exit 77; }

prefix="$work/opt/grip"
cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
pc="$(find "$prefix" -name grip.pc | head -n 1)"
[ -n "$pc" ] || bad "no grip.pc under the prefix"
export PKG_CONFIG_PATH="$(dirname "$pc")"
got="$(cd / && pkg-config --variable=prefix grip)"
[ "$(cd "$got" 2>/dev/null && pwd)" = "$(cd "$prefix" && pwd)" ] || bad "pkg-config prefix '$got' is not '$prefix'"
grep -q /usr/local "$pc" && bad "grip.pc still names /usr/local: $(cat "$pc")"
inc="$(pkg-config --variable=includedir grip)"
[ -f "$inc/grip/grip.h" ] || bad "includedir '$inc' has no grip/grip.h"

# A tiny program: a car on flat ground, one second at full throttle, must move forward.
cat > "$work/t.c" <<'C'
#include <grip/grip.h>
#include <stdio.h>
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
  printf("%.3f\n", s.pose.position.x);
  return s.pose.position.x > 0.5 ? 0 : 1;
}
C
extra=""
# A sanitizer build's library needs the sanitizer runtime in the program too.
grep -q "^GRIP_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null && extra="-fsanitize=address,undefined"
# shellcheck disable=SC2046
cc $extra $(pkg-config --cflags grip) -o "$work/t" "$work/t.c" $(pkg-config --libs --static grip) -static-libgcc \
  2> "$work/cc.log" || bad "compile/link with pkg-config flags failed: $(cat "$work/cc.log")"
if [ -x "$work/t" ]; then
  # Linked against the installed shared library when both exist: point the loader there.
  export LD_LIBRARY_PATH="$(pkg-config --variable=libdir grip)"
  x="$("$work/t")" || bad "program failed (x = $x)"
  if ldd "$work/t" 2>/dev/null | grep -q "libgrip.so"; then
    ldd "$work/t" | grep libgrip | grep -q "$prefix" || bad "linked against another libgrip: $(ldd "$work/t" | grep libgrip)"
  fi
fi
# The tool: grip, and grip-gui beside it when it was built; the installed grip hands a drawing
# command to the installed grip-gui (the same usage as grip-gui's own).
[ -x "$prefix/bin/grip" ] || bad "no bin/grip under the prefix"
if [ -x "$build/grip-gui" ]; then
  [ -x "$prefix/bin/grip-gui" ] || bad "grip-gui was built but not installed"
  for args in "plot --help" "drive --help"; do
    # shellcheck disable=SC2086
    "$build/grip-gui" $args > "$work/want.txt" 2>&1 || continue # not in this grip-gui
    # shellcheck disable=SC2086
    "$prefix/bin/grip" $args > "$work/got.txt" 2>&1 || bad "installed grip $args failed: $(cat "$work/got.txt")"
    cmp -s "$work/want.txt" "$work/got.txt" || bad "installed grip $args differs from grip-gui's"
  done
fi
[ $fail -eq 0 ] && echo "cli_install: ok (x after 1 s: $x m)"
exit $fail
