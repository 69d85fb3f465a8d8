#!/usr/bin/env bash
# grip scene info|run and grip race --scene: JSON figures against the scene file and an analytic
# terrain, exit codes, file:line errors.
# Usage: bash cli_scene.sh PATH-TO-GRIP SOURCE-DIR
set -u
grip="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
py() { python3 -c "import json,sys; d=json.load(open('$1')); $2" || bad "$3"; }

# The plane z = 0.05 x - 0.025 y + 20 on 61 x 41 samples 2.5 m apart, centred on the origin
# (x -75 .. 75, y -50 .. 50 at the sample centres), written by the same generator as hills.bt.
python3 "$src/scripts/make_hills_bt.py" "$work/plane.bt" --plane 0.05 -0.025 20 --cols 61 --rows 41 --cell 2.5 \
  || { echo "cannot write the terrain"; exit 1; }
cat > "$work/t.ini" <<'INI'
[scene]
name = Plane test
terrain = plane.bt
[camera]
mode = fixed
position = -60, -40, 40
target = 0, 0, 20
fov_deg = 50
[car one]
x = 12
y = -8
heading_deg = 30
brake = 1
[car two]
file = hatch.ini
x = -30
y = 20
heading_deg = 180
speed_kmh = 36
gear = neutral
INI
cp "$src/data/cars/hatchback-100kw.ini" "$work/hatch.ini"

"$grip" scene info "$work/t.ini" --json > "$work/info.json" || bad "scene info exit $?"
py "$work/info.json" "g=d['ground']; sys.exit(0 if d['scene']=='Plane test' and g['kind']=='terrain' and g['rows']==41 and g['cols']==61 and abs(g['x_min_m']+75)<1e-9 and abs(g['x_max_m']-75)<1e-9 and abs(g['y_min_m']+50)<1e-9 and abs(g['y_max_m']-50)<1e-9 else 1)" "terrain figures: $(cat "$work/info.json")"
py "$work/info.json" "c=d['camera']; sys.exit(0 if c['mode']=='fixed' and c['position_m']==[-60,-40,40] and c['target_m']==[0,0,20] and c['fov_deg']==50 else 1)" "camera"
# Ground under car one: 0.05*12 - 0.025*(-8) + 20 = 20.8; car two: -1.5 - 0.5 + 20 = 18.0.
py "$work/info.json" "a,b=d['cars']; sys.exit(0 if a['name']=='one' and a['car']=='corvette-c5' and a['x_m']==12 and a['y_m']==-8 and abs(a['heading_deg']-30)<1e-9 and abs(a['ground_z_m']-20.8)<1e-5 and abs(a['z_m']-20.8)<1e-5 and b['name']=='two' and b['car']=='hatchback-100kw' and abs(b['z_m']-18.0)<1e-5 and abs(abs(b['heading_deg'])-180)<1e-9 and b['speed_kmh']==36 else 1)" "cars: $(cat "$work/info.json")"
"$grip" scene info "$work/t.ini" | grep -q "terrain .*plane.bt: 61 x 41 samples" || bad "info text"

# 1 s: car one stays braked on the slope; car two coasts in neutral from 10 m/s heading -x, down
# the 5 % grade (ground z rises with x): a = g*0.05/sqrt(1.0025) - f*g - drag/m
# = 0.490 - 0.118 (f 0.012) - 0.04 (1/2*0.32*2.1*1.29*100/1100) = 0.33 m/s^2, so it runs
# 10 + 0.33/2 = 10.17 m (wheel inertia takes a little of the gain).
"$grip" scene run "$work/t.ini" --seconds 1 --dt 0.002 --json > "$work/run.json" || bad "scene run exit $?"
py "$work/run.json" "a,b=d['cars']; sys.exit(0 if abs(d['seconds']-1)<1e-9 and a['stayed_on_ground'] and abs(a['height_above_ground_m'])<0.005 and a['distance_m']<0.01 and b['stayed_on_ground'] and 10.05<b['distance_m']<10.25 and abs(b['height_above_ground_m'])<0.005 and b['min_compression_m']<=b['max_compression_m'] else 1)" "run: $(cat "$work/run.json")"

# Race on a track scene: the scene's names and cars in the results.
out="$("$grip" race --scene "$src/data/scenes/park-race.ini" --laps 1 --json)" || bad "race --scene exit $?"
echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); n=sorted((c['name'],c['car']) for c in d['cars']); sys.exit(0 if n==[('f3000','single-seater'),('hatch','hatchback-100kw'),('vette','corvette-c5')] and all(c['laps']==1 for c in d['cars']) else 1)" \
  || bad "race --scene results: $out"

# Errors: a broken scene gives file:line and status 1; bad usage 2.
printf '[scene]\nterrain = plane.bt\n[car a]\nx = 12\ny = oops\n' > "$work/bad.ini"
err="$("$grip" scene info "$work/bad.ini" 2>&1)"; rc=$?
[ $rc -eq 1 ] || bad "broken scene exit $rc"
echo "$err" | grep -q "bad.ini:5: y: 'oops' is not a number" || bad "broken scene message: $err"
printf '[scene]\nterrain = plane.bt\n[car a]\nx = 74\ny = 0\n' > "$work/out.ini"
err="$("$grip" scene info "$work/out.ini" 2>&1)"; rc=$?
[ $rc -eq 1 ] || bad "outside exit $rc"
echo "$err" | grep -q "out.ini:5: x, y: car 'a' at (74.000, 0.000) reaches outside the terrain" || bad "outside: $err"
"$grip" scene info "$work/missing.ini" >/dev/null 2>&1; [ $? -eq 1 ] || bad "missing file exit"
"$grip" scene info >/dev/null 2>&1; [ $? -eq 2 ] || bad "no file exit"
"$grip" scene run "$work/t.ini" --seconds -1 >/dev/null 2>&1; [ $? -eq 2 ] || bad "bad --seconds exit"
"$grip" scene fly "$work/t.ini" >/dev/null 2>&1; [ $? -eq 2 ] || bad "unknown subcommand exit"
"$grip" race --scene "$src/data/scenes/park-race.ini" --cars 2 >/dev/null 2>&1; [ $? -eq 2 ] || bad "--scene with --cars"
err="$("$grip" race --scene "$work/t.ini" 2>&1)"; rc=$?
[ $rc -eq 1 ] || bad "race on a terrain scene exit $rc"
echo "$err" | grep -q "t.ini:3: terrain: a race needs a track scene" || bad "race terrain message: $err"
# a towed car: scene info names its tow; races refuse it (file:line of tow)
printf '[scene]\ntrack = default\n[car lead]\n[car van]\ntow = lead\ntow_point = -2.6, 0, 0.45\ncoupling = 2.6, 0, 0.45\n' > "$work/tow.ini"
out="$("$grip" scene info "$work/tow.ini" --json)" || bad "towed scene info exit $?"
echo "$out" | python3 -c 'import json,sys; c=json.load(sys.stdin)["cars"]; sys.exit(0 if c[1]["towed_by"]=="lead" and c[1]["hitch"]=="ball" and c[0]["towed_by"]=="" and abs(((c[0]["x_m"]-c[1]["x_m"])**2+(c[0]["y_m"]-c[1]["y_m"])**2)**0.5-5.2)<1e-6 else 1)' \
  || bad "towed scene info: $out"
err="$("$grip" race --scene "$work/tow.ini" 2>&1)"; rc=$?
[ $rc -eq 1 ] || bad "race with a towed car exit $rc"
echo "$err" | grep -q "tow.ini:5: tow: car 'van' is towed; races have no trailers" || bad "race towed message: $err"
"$grip" help 2>&1 | grep -q "scene" || "$grip" 2>&1 | grep -q "scene" || bad "scene not in help"
exit $fail
