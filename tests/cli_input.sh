#!/usr/bin/env bash
# grip sound, grip input and grip steady's steering torque: exit codes, messages and JSON keys
# (docs/input.md). The input parts skip without the viewer (SDL2).
# Usage: bash cli_input.sh PATH-TO-GRIP SOURCE-DIR
set -u
grip="$1"
src="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
field() { /usr/bin/python3 -c "import json,sys; d=json.load(open('$1')); print($2)"; }

# grip steady reports the steering torque: self-centring (negative in a left turn).
"$grip" steady --steer-deg 60 --json > "$work/steady.json" || bad "grip steady failed"
t=$(field "$work/steady.json" "d['steering_torque_nm']")
/usr/bin/python3 -c "import sys; sys.exit(0 if -20 < $t < -2 else 1)" || bad "steering_torque_nm $t not in -20..-2 N*m at 60 deg"

# grip sound: a 16-bit mono WAV of the right length, and its usage errors.
"$grip" sound --rpm-sweep 1000:7000 --seconds 1 -o "$work/s.wav" --json > "$work/sound.json" || bad "grip sound failed"
[ "$(field "$work/sound.json" "d['samples']")" = 48000 ] || bad "grip sound: not 48000 samples"
size=$(stat -c %s "$work/s.wav")
[ "$size" = $((44 + 2 * 48000)) ] || bad "WAV is $size bytes, expected $((44 + 2 * 48000))"
"$grip" sound --seconds 1 -o "$work/x.wav" > /dev/null 2>&1; [ $? = 2 ] || bad "grip sound without --rpm-sweep: exit not 2"
"$grip" sound --rpm-sweep 1000 -o "$work/x.wav" > /dev/null 2>&1; [ $? = 2 ] || bad "grip sound --rpm-sweep 1000: exit not 2"
"$grip" sound --rpm-sweep 1000:2000 > /dev/null 2>&1; [ $? = 2 ] || bad "grip sound without -o: exit not 2"
"$grip" sound --rpm-sweep 1000:2000 -o /nonexistent/dir/x.wav > /dev/null 2>&1; [ $? = 1 ] || bad "unwritable WAV: exit not 1"
printf '[sound]\ncylinders = 6.5\n' > "$work/half.ini"
msg=$("$grip" sound --car "$work/half.ini" --rpm-sweep 1000:2000 -o "$work/x.wav" 2>&1 >/dev/null)
[ $? = 1 ] && echo "$msg" | grep -q "half.ini:2: sound.cylinders: 6.5 is not a whole number" || bad "[sound] cylinders 6.5: '$msg'"

if ! "$grip" input --help > /dev/null 2>&1; then
  echo "grip input: built without the viewer, skipped"
  exit $fail
fi
# grip input list sees SDL's virtual wheel.
"$grip" input list --virtual-wheel --seconds 0 --json > "$work/list.json" || bad "grip input list failed"
[ "$(field "$work/list.json" "len(d['devices'])")" = 1 ] || bad "input list: not one device"
[ "$(field "$work/list.json" "d['devices'][0]['axes'], d['devices'][0]['buttons'], d['devices'][0]['hats']")" = "3 20 1" ] \
  || bad "input list: virtual wheel not 3 axes, 20 buttons, 1 hat"
# The shipped files check; a bad one gives file:line and exit 1, in grip drive too (before any window).
for f in "$src"/data/input/*.ini; do "$grip" input check "$f" > /dev/null || bad "input check $f"; done
printf '[steer]\naxis = joy:axis0\nleft = key:NoSuchKey\n' > "$work/badkey.ini"
msg=$("$grip" input check "$work/badkey.ini" 2>&1); [ $? = 1 ] || bad "bad key name: exit not 1"
echo "$msg" | grep -q "badkey.ini:3: key:NoSuchKey: not a key name" || bad "bad key name message: '$msg'"
printf '[brake]\naxis = joy:axis2\ncurve = 9\n' > "$work/badcurve.ini"
msg=$("$grip" drive --input "$work/badcurve.ini" --no-window --frames 1 2>&1); [ $? = 1 ] || bad "drive --input bad: exit not 1"
echo "$msg" | grep -q "badcurve.ini:3: curve: 9 is out of range (allowed 0.2 .. 5)" || bad "drive --input message: '$msg'"
exit $fail
