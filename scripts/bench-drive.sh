#!/usr/bin/env bash
# The viewer's frame-time benchmark (issue 11, docs/viewer.md), headless under Xvfb with Mesa's
# llvmpipe at 1280 x 720, 600 frames each:
#   1. grip drive on TORCS's e-track-4 with its own model and 8 cars (yours on autopilot);
#   2. the hills scene on a 4097 x 4097 terrain (1 m grid, written by scripts/make_hills_bt.py).
# Prints the figures and exits 1 when a median frame time is above the target (33 ms, 30 frames
# per s). A benchmark: run it on an otherwise idle machine (the load average is printed).
# Usage: scripts/bench-drive.sh [PATH-TO-GRIP] [TARGET-MS]
set -eu
grip="${1:-./build/grip}"
target="${2:-33}"
command -v xvfb-run >/dev/null || { echo "bench-drive: needs xvfb-run (apt-get install xvfb xauth)" >&2; exit 2; }
[ -f /usr/share/games/torcs/tracks/road/e-track-4/e-track-4.acc ] \
  || { echo "bench-drive: needs torcs-data (e-track-4's model)" >&2; exit 2; }
export LIBGL_ALWAYS_SOFTWARE=1
src="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
report() { # JSON, title, load before, load after
/usr/bin/python3 - "$1" "$target" "$3" "$4" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); target = float(sys.argv[2])
p = d['pass_ms_median']
print('%s, 1280x720, llvmpipe, %d frames (load average %s -> %s)' % (sys.argv[5], d['frames'], sys.argv[3], sys.argv[4]))
print('  frame ms: median %.1f  p99 %.1f   (target: median <= %g)' % (d['frame_ms_median'], d['frame_ms_p99'], target))
print('  CPU ms per frame (all threads, median) %.1f: on an idle machine with n cores the frame takes at least that / n'
      % d['frame_cpu_ms_median'])
print('  pass ms (medians, submission): physics %.2f  scene %.1f  hud %.1f  swap %.1f'
      % (p['physics'], p['scene'], p['hud'], p['swap']))
print('  physics steps per s %.1f   draw calls %d   triangles %d' % (d['physics_steps_per_s'], d['draw_calls'], d['triangles']))
ok = d['frame_ms_median'] <= target
print('  ' + ('PASS' if ok else 'FAIL: median above the target'))
sys.exit(0 if ok else 1)
PY
}
run() { # JSON, grip drive options...
  local out="$1"; shift
  xvfb-run -a -s "-screen 0 1280x720x24" "$grip" drive --frames 600 --width 1280 --height 720 --json "$@" > "$out"
}
rc=0
load_before=$(cut -d' ' -f1 /proc/loadavg)
run "$work/et4.json" --track torcs:e-track-4 --opponents 7 --autopilot
report "$work/et4.json" "grip drive, e-track-4 model, 8 cars" "$load_before" "$(cut -d' ' -f1 /proc/loadavg)" || rc=1
/usr/bin/python3 "$src/scripts/make_hills_bt.py" "$work/big.bt" --cols 4097 --rows 4097 --cell 1
sed -e 's|^terrain = hills.bt|terrain = big.bt|' -e 's|\.\./cars/|'"$src"'/data/cars/|' "$src/data/scenes/hills.ini" > "$work/big.ini"
load_before=$(cut -d' ' -f1 /proc/loadavg)
run "$work/big.json" --scene "$work/big.ini"
report "$work/big.json" "grip drive, hills on a 4097 x 4097 terrain (1 m grid), 3 cars" "$load_before" "$(cut -d' ' -f1 /proc/loadavg)" || rc=1
exit $rc
