#!/usr/bin/env bash
# grip drive / replay: pictures checked by numbers (tests/viewer_check.py), rendering changes no
# physics (same state hash with and without the window), replays re-simulate to the recorded hash,
# a corrupted replay gives file:line, a click places the car on the ray–terrain hit.
# Runs headless under Xvfb with Mesa's llvmpipe. Skips (77) without the viewer or xvfb-run.
# Usage: bash cli_drive.sh PATH-TO-GRIP SOURCE-DIR
set -u
grip="$1"
src="$(cd "$2" && pwd)"
check="/usr/bin/python3 $src/tests/viewer_check.py"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
field() { /usr/bin/python3 -c "import json,sys; d=json.load(open('$1')); print($2)"; }

# --- replay files need no window: checked first, with or without the viewer. -------------------
"$grip" drive --help >/dev/null 2>&1 && have_viewer=1 || have_viewer=0
if [ $have_viewer = 1 ]; then
  "$grip" drive --no-window --frames 300 --opponents 2 --autopilot --record "$work/run.replay" --json > "$work/rec.json" \
    || bad "drive --no-window --record failed"
  want=$(field "$work/rec.json" "d['state_hash']")
  "$grip" replay "$work/run.replay" --no-window --json --telemetry "$work/tel.csv" > "$work/rep.json" \
    || bad "replay of a recorded drive does not reproduce its hash"
  got=$(field "$work/rep.json" "d['state_hash']")
  [ "$got" = "$want" ] || bad "replay hash $got != drive hash $want"
  rows=$(wc -l < "$work/tel.csv")
  # 300 frames of 1/60 s = 5 s (499 steps), a row per 0.1 s per car: 50 x 3 rows + header.
  [ "$rows" -ge 148 ] && [ "$rows" -le 152 ] || bad "telemetry has $rows lines, expected about 151"
  # A changed input: the hash must differ, and the command say so with exit 1.
  /usr/bin/python3 - "$work/run.replay" "$work/bad.replay" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
for i, l in enumerate(lines):
    if l.startswith('i 100 0 '):
        w = l.split(); w[3] = '0.5' if w[3] != '0.5' else '0.25'; lines[i] = ' '.join(w); break
else:
    for i, l in enumerate(lines):
        if l.startswith('i ') and int(l.split()[1]) > 50:
            w = l.split(); w[3] = '0.5' if w[3] != '0.5' else '0.25'; lines[i] = ' '.join(w); break
open(sys.argv[2], 'w').write('\n'.join(lines))
PY
  "$grip" replay "$work/bad.replay" --no-window > "$work/bad.out" 2> "$work/bad.err"
  [ $? = 1 ] || bad "a replay with a changed input did not exit 1"
  grep -q "differs" "$work/bad.err" || bad "no 'differs' message for a changed replay: $(cat "$work/bad.err")"
  # Corrupted files: file:line and exit 1.
  sed 's/^dt .*/dt fast/' "$work/run.replay" > "$work/c1.replay"
  "$grip" replay "$work/c1.replay" --no-window > /dev/null 2> "$work/c1.err"
  [ $? = 1 ] || bad "a corrupted dt did not exit 1"
  grep -q "c1.replay:3: dt:" "$work/c1.err" || bad "corrupted dt: expected c1.replay:3: dt: ..., got $(cat "$work/c1.err")"
  head -c 2000 "$work/run.replay" > "$work/c2.replay"
  "$grip" replay "$work/c2.replay" --no-window > /dev/null 2> "$work/c2.err"
  [ $? = 1 ] || bad "a truncated replay did not exit 1"
  grep -q "c2.replay:" "$work/c2.err" || bad "truncated replay: no file:line message: $(cat "$work/c2.err")"

  # --- car systems in drives and replays: the person's ESC key pressed at 1 s and again at
  # 3.5 s (--toggle, the keys' path). The drive reports ESC off at the end, and that it acted only
  # while on (at most the 250 steps from 1 to 3.5 s); the recording (version 3) holds exactly the
  # two switch lines at steps 100 and 350; it replays to its hash; flipping the first switch
  # record (on -> off) changes the hash; the same drive without the key presses ends elsewhere.
  "$grip" drive --no-window --frames 300 --autopilot --toggle esc@1,esc@3.5 --record "$work/sys.replay" --json \
    > "$work/sys.json" || bad "drive --toggle failed"
  [ "$(field "$work/sys.json" "d['car']['systems']['esc']['on']")" = False ] || bad "ESC not off after two presses"
  esc_steps=$(field "$work/sys.json" "d['car']['systems']['esc']['active_steps']")
  [ "$esc_steps" -gt 0 ] && [ "$esc_steps" -le 250 ] || bad "ESC acted in $esc_steps steps, expected 1 .. 250"
  [ "$(head -1 "$work/sys.replay")" = "grip-replay 3" ] || bad "the recording is not format version 3"
  [ "$(grep '^s ' "$work/sys.replay" | tr '\n' ';')" = "s 100 0 0 0 1;s 350 0 0 0 2;" ] \
    || bad "switch records: $(grep '^s ' "$work/sys.replay" | tr '\n' ';')"
  "$grip" replay "$work/sys.replay" --no-window --json > "$work/sysrep.json" || bad "the drive with ESC switches does not replay"
  [ "$(field "$work/sysrep.json" "d['state_hash']")" = "$(field "$work/sys.json" "d['state_hash']")" ] \
    || bad "replay hash of the ESC drive differs"
  sed 's/^s 100 0 0 0 1$/s 100 0 0 0 2/' "$work/sys.replay" > "$work/sysflip.replay"
  "$grip" replay "$work/sysflip.replay" --no-window > /dev/null 2> "$work/sysflip.err"
  [ $? = 1 ] || bad "a replay with its ESC switch flipped did not exit 1"
  grep -q "differs" "$work/sysflip.err" || bad "flipped switch: no 'differs' message: $(cat "$work/sysflip.err")"
  "$grip" drive --no-window --frames 300 --autopilot --json > "$work/nosys.json" || bad "drive without toggles failed"
  [ "$(field "$work/nosys.json" "d['state_hash']")" != "$(field "$work/sys.json" "d['state_hash']")" ] \
    || bad "switching ESC on for 2.5 s left the drive's hash unchanged"
  [ "$(field "$work/nosys.json" "d['car']['systems']['esc']['active_steps']")" = 0 ] || bad "ESC acted while off"
  "$grip" drive --no-window --frames 10 --toggle warp@1 > /dev/null 2> "$work/tog.err"
  [ $? != 0 ] && grep -q -- "--toggle" "$work/tog.err" || bad "a bad --toggle was not refused"
  # Version 1 files are still read: the first recording (no switches) as version 1 replays to its
  # hash; a switch line in a version 1 file is refused with file:line.
  sed '1s/.*/grip-replay 1/' "$work/run.replay" > "$work/v1.replay"
  "$grip" replay "$work/v1.replay" --no-window --json > "$work/v1.json" || bad "a version 1 replay does not replay"
  [ "$(field "$work/v1.json" "d['state_hash']")" = "$want" ] || bad "version 1 replay hash differs"
  sed '1s/.*/grip-replay 1/' "$work/sys.replay" > "$work/v1s.replay"
  "$grip" replay "$work/v1s.replay" --no-window > /dev/null 2> "$work/v1s.err"
  [ $? = 1 ] && grep -q "v1s.replay:[0-9]*: s: system switches need format version 2" "$work/v1s.err" \
    || bad "a switch line in a version 1 file: $(cat "$work/v1s.err")"

  # --- sector splits and the delta to the best lap, against the telemetry: the times at which
  # the car's distance passes L/3, 2L/3 and the line, interpolated between its 10 Hz rows. 80 s:
  # a standing first lap (the best so far), then part of a faster flying lap (delta < 0).
  L=$("$grip" track info default --json | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['length_m'])")
  "$grip" drive --no-window --frames 4800 --autopilot --json --telemetry "$work/sect.csv" > "$work/sect.json" \
    || bad "drive for the sector splits"
  /usr/bin/python3 - "$work/sect.json" "$work/sect.csv" "$L" <<'PY' || bad "sector splits / delta to best"
import csv, json, sys
d = json.load(open(sys.argv[1]))['car']; L = float(sys.argv[3])
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r['car'] == '1']
# Unwrapped distance: a drop by more than L/2 is a pass of the line; the grid is behind it.
pts, offset, prev = [], None, None
for r in rows:
    x = float(r['distance_m'])
    if offset is None:
        offset = -L if x > 0.5 * L else 0.0
    elif x < prev - 0.5 * L:
        offset += L
    prev = x
    pts.append((float(r['time_s']), offset + x))
def time_at(x):
    for (t0, x0), (t1, x1) in zip(pts, pts[1:]):
        if x0 < x <= x1:
            return t0 + (t1 - t0) * (x - x0) / (x1 - x0)
    return None
marks = [time_at(L / 3), time_at(2 * L / 3), time_at(L)]
want_splits = marks  # lap 1 starts at time 0
start2 = marks[2]
now = d.get('delta_to_best_s')
x_now = pts[-1][1]
t_now = pts[-1][0]
want_delta = (t_now - start2) - time_at(x_now - L)
print('splits %s (telemetry %s); delta at %.1f s: %s (telemetry, last row %.3f)' % (d['best_splits_s'], ['%.3f' % m for m in want_splits], t_now, now, want_delta))
ok = all(abs(a - b) < 0.02 for a, b in zip(d['best_splits_s'], want_splits)) and d['last_splits_s'] == d['best_splits_s']
ok = ok and abs(d['best_lap_s'] - want_splits[2]) < 0.02 and d['laps'] == 1
# The JSON's delta is at the run's end (79.99 s), the telemetry's last row at 79.9 s: the
# delta changes little in 0.09 s (|d delta/dt| < 0.2 here).
ok = ok and now is not None and now < -1.0 and abs(now - want_delta) < 0.03
sys.exit(0 if ok else 1)
PY
fi

[ $have_viewer = 1 ] || { echo "skipped: grip was built without the viewer (SDL2, libepoxy, cglm, SDL2_ttf, stb)"; exit 77; }
command -v xvfb-run >/dev/null || { echo "skipped: xvfb-run not installed (apt-get install xvfb xauth)"; exit 77; }
export LIBGL_ALWAYS_SOFTWARE=1
# Under ASan the windowed runs skip leak detection only: libdbus and Mesa (loaded by SDL2 and
# libGL) keep a few allocations to exit. The headless and replay runs above and below keep it.
run() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" xvfb-run -a -s "-screen 0 1024x768x24" "$grip" drive "$@"; }
W=480
H=270

# --- the frame: not blank, sky above ground. ---------------------------------------------------
run --frames 60 --width $W --height $H --no-hud --screenshot "$work/sky.png" --json > "$work/sky.json" \
  || bad "drive --screenshot failed"
$check sky "$work/sky.png" || bad "sky/ground check"

# --- the chase camera: the car covers the screen centre (against the same frame without it). --
run --frames 90 --autopilot --width $W --height $H --no-hud --screenshot "$work/car.png" --json > "$work/car.json" \
  || bad "drive with the car failed"
run --frames 90 --autopilot --width $W --height $H --no-hud --hide-car --screenshot "$work/nocar.png" > /dev/null \
  || bad "drive --hide-car failed"
$check centre "$work/car.png" "$work/nocar.png" || bad "car at the screen centre"

# --- projection: a world point lands where the camera pose predicts (three points, two cameras).
for cam in chase map; do
  run --frames 20 --camera $cam --width $W --height $H --no-hud --json > "$work/pose.json" || bad "pose run"
  # Points in view, set from the pose printed for the same deterministic frames: along the line of
  # sight (f), to its right (s) and up (u) from the target, m.
  pts=$(/usr/bin/python3 - "$work/pose.json" <<'PY'
import json, math, sys
c = json.load(open(sys.argv[1]))['camera']
e, t, up = c['eye_m'], c['target_m'], c['up']
n = lambda v: [x / math.sqrt(sum(y * y for y in v)) for x in v]
f = n([a - b for a, b in zip(t, e)])
s = n([f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]])
u = [s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]]
dist = math.sqrt(sum((a - b) ** 2 for a, b in zip(t, e)))
if dist < 50:  # chase: around the target
    offsets = ((5, 1, 0.5), (-2, -1.5, 0.3), (10, 2.5, 1.5))
else:  # the map camera, high up: 40 m from the eye, so that the 0.5 m cube covers pixels
    offsets = ((40 - dist, 3, 2), (40 - dist, -5, -3), (30 - dist, 0, 6))
for along, right, upwards in offsets:
    print(','.join('%.4f' % (t[i] + along * f[i] + right * s[i] + upwards * u[i]) for i in range(3)))
PY
)
  for p in $pts; do
    run --frames 20 --camera $cam --width $W --height $H --no-hud --hide-car --marker "$p" \
      --screenshot "$work/m.png" --json > "$work/m.json" || bad "marker run"
    $check marker "$work/m.png" "$work/m.json" ${p//,/ } || bad "marker $p with the $cam camera"
  done
done

# --- frame statistics (--stats): produced and consistent; the speed target is a benchmark
# (scripts/bench-drive.sh), not checked here. The default track with 4 cars is drawn with 26
# calls: per car a body, its brake lights and 4 wheels (6), then the track and the ground plane.
run --frames 30 --opponents 3 --autopilot --width $W --height $H --stats --json > "$work/stats.json" || bad "--stats run"
/usr/bin/python3 - "$work/stats.json" <<'PY' || bad "frame statistics"
import json, sys
d = json.load(open(sys.argv[1]))
p = d['pass_ms_median']
ok = True
def need(cond, what):
    global ok
    if not cond:
        print('stats: ' + what, d, file=sys.stderr); ok = False
need(d['draw_calls'] == 26, 'draw_calls %d != 26' % d['draw_calls'])
need(d['pass_ms_finished'] is True, 'pass_ms_finished')
need(all(p[k] >= 0 for k in ('physics', 'scene', 'hud', 'swap')), 'negative pass time')
# Every frame's time is the sum of its passes, so its median is at least each pass's median.
need(d['frame_ms_median'] + 1e-9 >= max(p.values()), 'frame median below a pass median')
need(d['frame_ms_p99'] >= d['frame_ms_median'], 'p99 below the median')
need(p['scene'] > 0 and d['triangles'] > 1000, 'no scene drawn')
# Every pixel gets geometry or sky, so at least one fragment each; more is overdraw.
need(1.0 <= d['fragments_per_pixel'] < 4.0, 'fragments per pixel %g' % d['fragments_per_pixel'])
sys.exit(0 if ok else 1)
PY

# --- the HUD's region is drawn (and nothing else changes). -------------------------------------
run --frames 30 --width 1280 --height 720 --screenshot "$work/hud.png" > /dev/null || bad "HUD run"
run --frames 30 --width 1280 --height 720 --no-hud --screenshot "$work/nohud.png" > /dev/null || bad "no-HUD run"
$check hud "$work/hud.png" "$work/nohud.png" || bad "HUD region"

# --- car systems on the HUD (top right): the person's ABS and ESC keys pressed (--toggle): ABS
# and ESC green (on), TC grey (off); untouched, all grey. A second car with ABS in its car file,
# braking hard from 100 km/h, followed: its ABS amber (acting in that step), and the person's
# ESC key changes the person's car, not the followed one. The JSON says the same.
run --frames 60 --autopilot --width 1280 --height 720 --toggle abs@0.2,esc@0.3 --screenshot "$work/sys-on.png" \
  --json > "$work/sys-on.json" || bad "HUD systems run"
$check systems "$work/sys-on.png" on,off,on || bad "HUD: ABS and ESC switched on"
[ "$(field "$work/sys-on.json" "[d['car']['systems'][k]['on'] for k in ('abs', 'tc', 'esc')]")" = "[True, False, True]" ] \
  || bad "JSON systems after the ABS and ESC keys"
$check systems "$work/hud.png" off,off,off || bad "HUD: systems off by default"
{ cat "$src/data/cars/corvette-c5.ini"; printf '\n[systems]\nabs = yes\n'; } > "$work/abs.ini"
printf '[scene]\ntrack = default\n[camera]\nmode = chase\n[car me]\nfile = builtin\nx = 20\ny = -4\n[car braking]\nfile = abs.ini\ndriver = none\nx = 60\ny = 4\nspeed_kmh = 100\nbrake = 1\n' \
  > "$work/abs-scene.ini"
run --scene "$work/abs-scene.ini" --follow 2 --frames 40 --width 1280 --height 720 --toggle esc@0 \
  --screenshot "$work/sys-acting.png" --json > "$work/sys-acting.json" || bad "HUD ABS acting run"
$check systems "$work/sys-acting.png" acting,off,off || bad "HUD: the braking car's ABS acting"
[ "$(field "$work/sys-acting.json" "d['car']['systems']['abs']['acting'] and d['car']['systems']['abs']['active_steps'] > 0")" = True ] \
  || bad "JSON: ABS not acting on the braking car"

# --- rendering changes no physics: the windowed run's hash equals the headless one. ------------
for opts in "--autopilot" "--autopilot --opponents 3 --dt 0.005"; do
  run --frames 240 $opts --width 320 --height 180 --json > "$work/win.json" || bad "windowed $opts"
  "$grip" drive --no-window --frames 240 $opts --json > "$work/nowin.json" || bad "headless $opts"
  a=$(field "$work/win.json" "d['state_hash']")
  b=$(field "$work/nowin.json" "d['state_hash']")
  [ "$a" = "$b" ] || bad "$opts: windowed hash $a != headless $b"
  s=$(field "$work/win.json" "d['steps']")
  [ "$s" -gt 0 ] || bad "$opts: no steps"
done
# A windowed recording replays too.
run --frames 120 --autopilot --opponents 1 --width 320 --height 180 --record "$work/w.replay" --json > "$work/w.json" \
  || bad "windowed --record"
"$grip" replay "$work/w.replay" --no-window > /dev/null || bad "windowed recording does not replay to its hash"
# grip watch: a robot race in the window; its replay reproduces it.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" xvfb-run -a -s "-screen 0 1024x768x24" "$grip" watch \
  --cars 3 --frames 120 --width 320 --height 180 --record "$work/watch.replay" > /dev/null || bad "grip watch"
"$grip" replay "$work/watch.replay" --no-window > /dev/null || bad "grip watch recording does not replay to its hash"

# --- click-to-place on the hills terrain: the car lands on the ray–terrain hit. ----------------
for spec in "map 240 135" "map 100 60" "chase 240 200" "orbit 300 180"; do
  set -- $spec
  run --scene "$src/data/scenes/hills.ini" --frames 10 --camera "$1" --width $W --height $H --no-hud \
    --click "$2,$3" --json > "$work/click.json" || { bad "click run $spec"; continue; }
  $check click "$work/click.json" "$src/data/scenes/hills.bt" "$2" "$3" || bad "click $spec"
done

# --- the scene's texture draped on the terrain by its extent, north up. --------------------------
$check write-quadrants "$work/quad.png" 64
cp "$src/data/scenes/hills.bt" "$work/hills.bt"
sed -e 's/^terrain = hills.bt/terrain = hills.bt\ntexture = quad.png/' "$src/data/scenes/hills.ini" \
  | sed 's|\.\./cars/|'"$src"'/data/cars/|' > "$work/textured.ini"
grep -q "^texture = quad.png" "$work/textured.ini" || bad "test scene without texture line"
run --scene "$work/textured.ini" --frames 2 --camera map --width $W --height $H --no-hud --hide-car \
  --screenshot "$work/drape.png" --json > "$work/drape.json" || bad "textured terrain run"
$check drape "$work/drape.png" "$work/drape.json" "$work/hills.bt" || bad "texture drape"

# --- ... and by its georeference when it has a world file (quad.pgw: the image covers x -90..50,
# y -50..70 m of the terrain's projected metres): each quadrant where the world file puts it,
# the terrain's own colours around it. A world file that is not six numbers is said on stderr
# and the image goes back to the extent.
$check write-world-file "$work/quad.pgw" 64 -90 50 -50 70
run --scene "$work/textured.ini" --frames 2 --camera map --width $W --height $H --no-hud --hide-car \
  --screenshot "$work/georef.png" --json > "$work/georef.json" 2> "$work/georef.err" || bad "georeferenced texture run"
$check georef "$work/georef.png" "$work/georef.json" "$work/hills.bt" -90 50 -50 70 || bad "texture by its world file"
[ -s "$work/georef.err" ] && bad "georeferenced texture: unexpected messages: $(cat "$work/georef.err")"
printf '1\n0\n0\n' > "$work/quad.pgw"
run --scene "$work/textured.ini" --frames 2 --camera map --width $W --height $H --no-hud --hide-car \
  --screenshot "$work/badwf.png" --json > "$work/badwf.json" 2> "$work/badwf.err" || bad "bad world file run"
grep -q "quad.pgw: a world file holds six numbers, this one 3" "$work/badwf.err" || bad "bad world file: no message ($(cat "$work/badwf.err"))"
$check drape "$work/badwf.png" "$work/badwf.json" "$work/hills.bt" || bad "bad world file: not draped over the extent"
rm -f "$work/quad.pgw"

# --- textures GDAL reads: a GeoTIFF placed by its own geotransform (gdal_translate -a_ullr: the
# same extent as the world file above, none beside it), and an SGI .rgb (no georeference: over
# the terrain's extent). Without GDAL the tool says the type needs it, naming the file.
grip_has_gdal=0
if command -v gdal_translate >/dev/null; then
  grip_has_gdal=1
  gdal_translate -q -of GTiff -a_ullr -90 70 50 -50 "$work/quad.png" "$work/quad.tif" || bad "gdal_translate GTiff"
  gdal_translate -q -of SGI "$work/quad.png" "$work/quad.rgb" || bad "gdal_translate SGI"
  for kind in tif rgb; do
    sed "s/^texture = quad.png/texture = quad.$kind/" "$work/textured.ini" > "$work/textured-$kind.ini"
    run --scene "$work/textured-$kind.ini" --frames 2 --camera map --width $W --height $H --no-hud --hide-car \
      --screenshot "$work/gdal-$kind.png" --json > "$work/gdal-$kind.json" 2> "$work/gdal-$kind.err" || bad "$kind texture run"
    if grep -q "needs GDAL" "$work/gdal-$kind.err"; then
      grep -q "quad.$kind: this texture type needs GDAL" "$work/gdal-$kind.err" || bad "$kind: message without the file name"
      echo "note: grip built without GDAL: the $kind texture is refused with a message, as it should be"
      grip_has_gdal=0
      continue
    fi
    [ -s "$work/gdal-$kind.err" ] && bad "$kind texture: unexpected messages: $(cat "$work/gdal-$kind.err")"
    if [ $kind = tif ]; then
      $check georef "$work/gdal-tif.png" "$work/gdal-tif.json" "$work/hills.bt" -90 50 -50 70 || bad "GeoTIFF not placed by its geotransform"
    else
      $check drape "$work/gdal-rgb.png" "$work/gdal-rgb.json" "$work/hills.bt" || bad "SGI texture not draped over the extent"
    fi
  done
else
  echo "note: gdal_translate missing (apt-get install gdal-bin): the GeoTIFF and SGI texture checks are left out"
fi

# --- the wheels are drawn where the car puts them: the built-in car at rest on the start
# straight, heading 30 degrees (grip drive gives car 1's steering to the keyboard: unsteered),
# its body hidden; each wheel centre from data/cars/corvette-c5.ini (axle x, half track,
# radius), projected through the printed pose.
printf '[scene]\ntrack = default\n[camera]\nmode = chase\n[car w]\nfile = builtin\nx = 60\ny = 2\nheading_deg = 30\nsteer = 1\n' \
  > "$work/wheels.ini"
run --scene "$work/wheels.ini" --frames 60 --camera orbit --width $W --height $H --no-hud --hide-body \
  --screenshot "$work/wheels.png" --json > "$work/wheels.json" || bad "wheels run"
run --scene "$work/wheels.ini" --frames 60 --camera orbit --width $W --height $H --no-hud --hide-car \
  --screenshot "$work/nowheels.png" > /dev/null || bad "wheels run without the car"
$check wheels "$work/wheels.png" "$work/nowheels.png" "$work/wheels.json" "$src/data/cars/corvette-c5.ini" 30 \
  || bad "wheels not where the car file puts them"

# --- ... and turned, spun and lifted by the state. grip watch keeps a scene car's constant
# inputs (grip drive would give car 1 to the keyboard). Steer: the built-in car at rest, heading
# 30 degrees, steer input 1 held, seen from the scene's fixed camera 25 m straight above (fov 11
# degrees: nearly orthographic); each wheel's outline must lie along heading + its steer angle.
# Spin and suspension: the car dropped from 0.3 m rolling at 1 m/s, a fixed camera looking along
# the left rear wheel's axle; at 0.09, 0.19 s (airborne, full droop), 0.29, 0.39 s (landing) and
# 0.49 s the wheel's centre is where its compression puts it and its red mark where its
# rotation puts it, and it turns by spin x time between frames.
car_ini="$src/data/cars/corvette-c5.ini"
printf '[scene]\ntrack = default\n[camera]\nmode = fixed\nposition = 60.5, 2.3, 25\ntarget = 60.5, 2.3, 0\nfov_deg = 11\n[car w]\nfile = builtin\nx = 60\ny = 2\nheading_deg = 30\nsteer = 1\n' \
  > "$work/steer.ini"
watch() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" xvfb-run -a -s "-screen 0 1024x768x24" "$grip" watch "$@"; }
watch --scene "$work/steer.ini" --frames 60 --width 960 --height 540 --no-hud --hide-body \
  --screenshot "$work/steer.png" --json > "$work/steer.json" || bad "steer run"
watch --scene "$work/steer.ini" --frames 60 --width 960 --height 540 --no-hud --hide-car \
  --screenshot "$work/steer-nocar.png" > /dev/null || bad "steer run without the car"
$check wheel-steer "$work/steer.png" "$work/steer-nocar.png" "$work/steer.json" "$car_ini" || bad "wheels not turned by their steer angles"
printf '[scene]\ntrack = default\n[camera]\nmode = fixed\nposition = 58.85, 5.2885, 0.45\ntarget = 58.85, 2.7885, 0.45\nfov_deg = 45\n[car w]\nfile = builtin\nx = 60\ny = 2\nz = 0.3\nheading_deg = 0\nspeed_kmh = 3.6\n' \
  > "$work/spin.ini"
watch --scene "$work/spin.ini" --frames 6 --width 960 --height 540 --no-hud --hide-car \
  --screenshot "$work/spin-nocar.png" > /dev/null || bad "spin run without the car"
spin_args=""
for f in 6 12 18 24 30; do
  watch --scene "$work/spin.ini" --frames $f --width 960 --height 540 --no-hud --hide-body \
    --screenshot "$work/spin$f.png" --json > "$work/spin$f.json" || bad "spin run $f"
  spin_args="$spin_args $work/spin$f.png $work/spin$f.json"
done
$check wheel-spin "$car_ini" "$work/spin-nocar.png" $spin_args || bad "wheels do not follow their suspension and rotation"

# --- translucent model parts (windows): a car file whose [visual] model (written here: a green
# wall behind panes, tests/viewer_check.py) has a pane whose texture has alpha 64/255 and one
# whose material has AC3D's trans 0.5. Each translucent pane's pixel must be the blend of the
# same pane opaque and the wall seen directly: a·pane + (1 − a)·wall.
# Without assimp no model is drawn (and nothing is said per car): the check is left out then.
$check write-glass-model "$work"
(cat "$src/data/cars/corvette-c5.ini"; printf '\n[visual]\nmodel = glass.ac\n') > "$work/glass.ini"
printf '[scene]\ntrack = default\n[camera]\nmode = chase\n[car g]\nfile = glass.ini\nx = 60\ny = 2\nheading_deg = 0\n' \
  > "$work/glass-scene.ini"
run --scene "$work/glass-scene.ini" --frames 30 --width $W --height $H --no-hud --screenshot "$work/glass.png" \
  --json > "$work/glass.json" 2> "$work/glass.err" || bad "glass model run"
[ -s "$work/glass.err" ] && bad "glass model: $(cat "$work/glass.err")"
if grep -q '"car_model"' "$work/glass.json"; then
  $check glass "$work/glass.png" "$work/glass.json" || bad "translucent panes"
else
  echo "note: no car model drawn (grip built without assimp): the translucency check is left out"
fi

# --- the chase camera never goes into a wall or the ground. A car parked by the wall of the
# start straight (default track: width 12, kerb 1, run-off 8, so the walls stand at y = ±15 m),
# turned 35 degrees away from it: 6 m behind it is 1.4 m beyond the wall. The eye must stay on
# the track side, and the car must be seen (no wall between the eye and the car). Then on the
# hills, a car facing downhill with a low, long chase camera whose unclamped eye is underground.
for side in "12.5 -35 15" "-12.5 35 -15"; do
  set -- $side
  printf '[scene]\ntrack = default\n[camera]\nmode = chase\n[car wall]\nfile = builtin\nx = 60\ny = %s\nheading_deg = %s\n' \
    "$1" "$2" > "$work/wall.ini"
  run --scene "$work/wall.ini" --frames 60 --width $W --height $H --no-hud --screenshot "$work/wall.png" \
    --json > "$work/wall.json" || bad "wall run $side"
  run --scene "$work/wall.ini" --frames 60 --width $W --height $H --no-hud --hide-car --screenshot "$work/wall-nocar.png" \
    > /dev/null || bad "wall run without the car $side"
  $check chase-wall "$work/wall.json" "$3" || bad "chase camera beyond the wall ($side)"
  $check centre "$work/wall.png" "$work/wall-nocar.png" "$work/wall.json" || bad "chase camera by the wall: the car is hidden ($side)"
done
sed -e 's|^terrain = hills.bt|terrain = '"$src"'/data/scenes/hills.bt|' -e 's|\.\./cars/|'"$src"'/data/cars/|' \
    -e 's/^distance = 7/distance = 15/' -e 's/^height = 2.5/height = 0.3/' \
    "$src/data/scenes/hills.ini" | awk '/^\[car hatch\]/{print; print "heading_deg = 180"; skip=1; next} skip && /^heading_deg/{skip=0; next} {print}' \
    | sed 's/^throttle = 0.7/throttle = 0/' > "$work/downhill.ini"
run --scene "$work/downhill.ini" --frames 60 --width $W --height $H --no-hud --json > "$work/downhill.json" \
  || bad "downhill chase run"
$check chase-terrain "$work/downhill.json" "$src/data/scenes/hills.bt" || bad "chase camera under the terrain"

# --- a 4097 x 4097 terrain (scripts/make_hills_bt.py: the hills on a 1 m grid, 16.8 M heights)
# is drawn through its level-of-detail tree: 9 levels (16-quad nodes: 4096 = 16 * 2^8), the
# nodes near the car at every sample, and a frame of at most 200 000 triangles where the full
# grid has 33.5 M. Its frame time is measured by scripts/bench-drive.sh.
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  /usr/bin/python3 "$src/scripts/make_hills_bt.py" "$work/big.bt" --cols 4097 --rows 4097 --cell 1
  sed -e 's|^terrain = hills.bt|terrain = big.bt|' -e 's|\.\./cars/|'"$src"'/data/cars/|' "$src/data/scenes/hills.ini" > "$work/big.ini"
  run --scene "$work/big.ini" --frames 20 --width $W --height $H --no-hud --stats --screenshot "$work/big.png" \
    --json > "$work/big.json" || bad "4097 x 4097 terrain run"
  $check sky "$work/big.png" || bad "4097 x 4097 terrain: sky over ground"
  /usr/bin/python3 - "$work/big.json" <<'PY' || bad "4097 x 4097 terrain: level of detail"
import json, sys
d = json.load(open(sys.argv[1])); t = d['terrain_lod']
print('big terrain: %d nodes, finest level %d of %d, %d triangles, %d draw calls' % (t['nodes_drawn'], t['finest_level'], t['levels'], d['triangles'], d['draw_calls']))
sys.exit(0 if t['levels'] == 9 and t['finest_level'] == 0 and t['nodes_drawn'] >= 9 and d['triangles'] < 200000 else 1)
PY
  rm -f "$work/big.bt"
else
  echo "note: numpy missing: the 4097 x 4097 terrain check is left out"
fi

# --- a TORCS track from its own model (assimp; needs torcs-data): it loads, lines up with the
# track (else the tool falls back and says so), and the car stands on its road in view (300 frames: past the start gantry).--------
if [ -f /usr/share/games/torcs/tracks/road/e-track-4/e-track-4.acc ]; then
  run --track torcs:e-track-4 --autopilot --frames 300 --width $W --height $H --no-hud --screenshot "$work/et4.png" \
    > /dev/null 2> "$work/et4.err" || bad "e-track-4 run"
  ! grep -q "generated mesh" "$work/et4.err" || bad "e-track-4's model was not used: $(cat "$work/et4.err")"
  run --track torcs:e-track-4 --autopilot --frames 300 --width $W --height $H --no-hud --hide-car --screenshot "$work/et4-nocar.png" \
    > /dev/null 2>&1 || bad "e-track-4 run without the car"
  $check sky "$work/et4.png" || bad "e-track-4 model: sky over ground"
  $check centre "$work/et4.png" "$work/et4-nocar.png" || bad "e-track-4 model: the car is not in view on its road"
else
  echo "note: torcs-data not installed: the TORCS model check is left out"
fi

# --- a TORCS car from its own model (assimp + GDAL for its SGI texture; needs torcs-data): its
# bounding box in the design frame equals the .acc file's vertices read here, turned to z up
# ((x, y, z) -> (x, -z, y)), and its length is the car's body length from its XML; the car
# covers the screen centre in the chase camera. -------------------------------------------------
acc=/usr/share/games/torcs/cars/car1-trb1/car1-trb1.acc
if [ -f "$acc" ]; then
  run --car torcs:car1-trb1 --autopilot --frames 90 --width $W --height $H --no-hud --screenshot "$work/trb.png" \
    --json > "$work/trb.json" 2> "$work/trb.err" || bad "torcs car model run"
  run --car torcs:car1-trb1 --autopilot --frames 90 --width $W --height $H --no-hud --hide-car \
    --screenshot "$work/trb-nocar.png" > /dev/null 2>&1 || bad "torcs car model run without the car"
  $check centre "$work/trb.png" "$work/trb-nocar.png" "$work/trb.json" || bad "TORCS car model: not where the camera puts it"
  /usr/bin/python3 - "$work/trb.json" "$acc" "${acc%.acc}.xml" "$grip_has_gdal" <<'PY' || bad "TORCS car model: bounding box"
import json, re, sys
d = json.load(open(sys.argv[1]))
m = d.get('car_model')
if not m:
    sys.exit('no car_model in the JSON: the model was not drawn')
lines = open(sys.argv[2], errors='replace').read().split('\n')
lo, hi = [1e9] * 3, [-1e9] * 3
i = 0
while i < len(lines):
    if lines[i].startswith('numvert'):
        n = int(lines[i].split()[1])
        for j in range(n):
            x, y, z = (float(t) for t in lines[i + 1 + j].split()[:3])
            for k, c in enumerate((x, -z, y)):
                lo[k] = min(lo[k], c); hi[k] = max(hi[k], c)
        i += n
    i += 1
err = max(abs(a - b) for a, b in zip(lo + hi, m['lo_m'] + m['hi_m']))
length = float(re.search(r'name="body length"[^>]*val="([0-9.]+)"', open(sys.argv[3]).read()).group(1))
print('car model: %d triangles, box %s .. %s (file: %s .. %s, |diff| %.2g m), length %.3f m (XML %.3f)'
      % (m['triangles'], m['lo_m'], m['hi_m'], lo, hi, err, m['hi_m'][0] - m['lo_m'][0], length))
# Its windows (texels of alpha 51/255 in car1-trb1.rgb, read through GDAL) are drawn blended: a
# few of its triangles.
print('translucent triangles: %d of %d' % (m['translucent_triangles'], m['triangles']))
ok = err < 1e-4 and abs((m['hi_m'][0] - m['lo_m'][0]) - length) < 0.05 and m['triangles'] > 1000
if sys.argv[4] == '1':
    ok = ok and 50 <= m['translucent_triangles'] < m['triangles'] // 4
sys.exit(0 if ok else 1)
PY
  # Its windows are translucent: where the rear glass of the .acc file (texels of alpha < 100,
  # the SGI texture converted by gdal_translate) projects, the car's inside shows, not the
  # glass's black texels.
  # (grip without GDAL reads no SGI texture, so draws no texture alpha: left out then.)
  if [ $grip_has_gdal = 1 ]; then
    gdal_translate -q -of PNG "${acc%.acc}.rgb" "$work/trb-texture.png" || bad "gdal_translate of car1-trb1.rgb"
    $check torcs-windows "$work/trb.png" "$work/trb.json" "$acc" "$work/trb-texture.png" || bad "TORCS car: windows drawn black"
  fi
  # Its brake lamps (the XML's Graphic Objects/Light entries of type brake/brake2, read by the
  # checker with its own XML parser) glow red at the pixels the camera puts them while the robot
  # brakes, and not under full throttle. The first braking moment comes from the run's telemetry
  # (no window: rendering changes no physics); a frame is 1/60 s.
  "$grip" drive --car torcs:car1-trb1 --autopilot --no-window --frames 1200 --telemetry "$work/trb.csv" \
    > /dev/null 2>&1 || bad "torcs car telemetry run"
  frames=$(/usr/bin/python3 - "$work/trb.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['car'] == '1']
for a, b in zip(rows, rows[1:]):
    if float(a['brake']) >= 0.3 and float(b['brake']) >= 0.3:
        print(int(round(float(a['time_s']) * 60)) + 3, int(round(float(rows[1]['time_s']) * 60)) + 180)
        break
PY
)
  set -- $frames
  if [ $# -eq 2 ]; then
    run --car torcs:car1-trb1 --autopilot --frames "$1" --width 960 --height 540 --no-hud \
      --screenshot "$work/trb-brake.png" --json > "$work/trb-brake.json" 2>/dev/null || bad "torcs car braking run"
    $check lamps "$work/trb-brake.png" "$work/trb-brake.json" "${acc%.acc}.xml" lit || bad "TORCS car: brake lamps not lit while braking"
    run --car torcs:car1-trb1 --autopilot --frames "$2" --width 960 --height 540 --no-hud \
      --screenshot "$work/trb-throttle.png" --json > "$work/trb-throttle.json" 2>/dev/null || bad "torcs car throttle run"
    $check lamps "$work/trb-throttle.png" "$work/trb-throttle.json" "${acc%.acc}.xml" dark || bad "TORCS car: brake lamps lit without the brake"
  else
    bad "TORCS car: no braking moment in 20 s of telemetry"
  fi
else
  echo "note: torcs-data not installed: the TORCS car model check is left out"
fi

# A trailer (scene tow =): the tow bar and drawbar between the two cars, seen from above. The
# built-in car's body box ends 4.565/2 = 2.2825 m from its centre; the ball is 2.6 m behind the
# towing car's centre and the trailer's coupling 2.6 m ahead of its own.
printf '[scene]\nground = plane\n[camera]\nmode = fixed\nposition = -2.6, -0.5, 12\ntarget = -2.6, 0, 0\nfov_deg = 30\n[car car]\nx = 0\ny = 0\nbrake = 1\n[car trailer]\ntow = car\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\nbrake = 1\n' \
  > "$work/tow.ini"
run --scene "$work/tow.ini" --frames 30 --width $W --height $H --no-hud --camera fixed --screenshot "$work/tow.png" \
  --json > "$work/tow.json" 2>/dev/null || bad "towing run"
$check drawbar "$work/tow.png" "$work/tow.json" -2.2825 -2.6 0.45 -2.9175 || bad "no drawbar between a car and its trailer"

exit $fail
