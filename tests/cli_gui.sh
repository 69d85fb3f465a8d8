#!/usr/bin/env bash
# grip and grip-gui: the commands that draw or read input devices (drive, watch, input, plot, a
# replay in a window) run in grip-gui beside grip, so that grip itself loads none of SDL2,
# OpenGL, assimp, SDL2_ttf or PLplot (CMakeLists.txt, app/main.c):
# - grip needs none of those libraries, grip-gui has them;
# - each such command, asked of grip, answers as grip-gui does (its usage, its exit status);
#   `replay --no-window` stays in grip;
# - a grip copied without grip-gui still runs its other commands, and says which program is
#   missing with exit status 3 for a drawing command.
# Usage: bash cli_gui.sh PATH-TO-GRIP SOURCE-DIR
set -u
grip="$1"
build="$(cd "$(dirname "$grip")" && pwd)"
gui="$build/grip-gui"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
command -v readelf > /dev/null || { echo "readelf is not installed"; exit 77; }
[ -x "$gui" ] || { echo "grip-gui was not built (neither the viewer nor PLplot found): skipped"; exit 77; }

# What each program asks the dynamic loader for.
readelf -d "$grip" | grep NEEDED > "$work/grip.needed"
readelf -d "$gui" | grep NEEDED > "$work/gui.needed"
for lib in SDL2 epoxy assimp plplot; do
  grep -qi "$lib" "$work/grip.needed" && bad "grip needs $lib: $(grep -i "$lib" "$work/grip.needed")"
done
grep -qiE "SDL2|plplot" "$work/gui.needed" || bad "grip-gui needs neither SDL2 nor PLplot: $(cat "$work/gui.needed")"
n_grip=$(ldd "$grip" | wc -l) n_gui=$(ldd "$gui" | wc -l)
[ "$n_grip" -lt 20 ] || bad "grip loads $n_grip shared libraries"

# The drawing commands through grip, against grip-gui itself: the same usage and status.
cmds=()
grep -q SDL2 "$work/gui.needed" && cmds+=("drive --help" "watch --help" "input --help" "replay --help" "drive --no-such-option")
grep -qi plplot "$work/gui.needed" && cmds+=("plot --help" "plot engine --no-such-option")
[ ${#cmds[@]} -gt 0 ] || bad "grip-gui has no drawing command"
for args in "${cmds[@]}"; do
  # shellcheck disable=SC2086
  "$grip" $args > "$work/a.out" 2> "$work/a.err"; a=$?
  # shellcheck disable=SC2086
  "$gui" $args > "$work/b.out" 2> "$work/b.err"; b=$?
  [ "$a" = "$b" ] || bad "grip $args: status $a, grip-gui's $b"
  cmp -s "$work/a.out" "$work/b.out" && cmp -s "$work/a.err" "$work/b.err" || bad "grip $args: output differs from grip-gui's"
  [ -s "$work/a.out" ] || [ -s "$work/a.err" ] || bad "grip $args: no output"
done
# A replay without a window stays in grip: its usage has no window options.
"$grip" replay --help --no-window > "$work/r.out" 2>&1
grep -q -- "--frames" "$work/r.out" && bad "grip replay --no-window went to grip-gui"

# grip alone: its own commands run, a drawing command names what is missing.
mkdir "$work/alone"
cp "$grip" "$work/alone/grip"
out="$(cd / && PATH=/usr/bin:/bin "$work/alone/grip" bench --vehicles 2 --seconds 0.02 --json)" || bad "grip alone: bench failed"
grep -q '"vehicles":2' <<<"$out" || bad "grip alone: bench printed '$out'"
for args in "${cmds[@]}"; do
  # shellcheck disable=SC2086
  PATH=/usr/bin:/bin "$work/alone/grip" $args > "$work/c.out" 2> "$work/c.err"; c=$?
  [ "$c" = 3 ] || bad "grip alone, $args: status $c, not 3"
  grep -q "grip-gui" "$work/c.err" || bad "grip alone, $args: the message does not name grip-gui: $(cat "$work/c.err")"
done

[ $fail -eq 0 ] && echo "cli_gui: ok (grip loads $n_grip shared libraries, grip-gui $n_gui; ${#cmds[@]} commands handed over)"
exit $fail
