#!/usr/bin/env bash
# grip track info: exit codes, JSON keys and figures of the shipped tracks.
set -u
GRIP=$1
SRC=$2
fail=0
check() { if ! eval "$1"; then echo "FAIL: $1"; fail=1; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# default (built in): Grip Park, 850 + 145*pi m long, 12 segments, closes
out=$("$GRIP" track info default --json); rc=$?
check "[ $rc -eq 0 ]"
for key in length_m width_m segments min_radius_m elevation_range_m closure_error_m; do
  check "echo '$out' | grep -q '\"$key\":'"
done
check "echo '$out' | python3 -c 'import json,sys,math; d=json.load(sys.stdin); \
  sys.exit(0 if abs(d[\"length_m\"]-(850+145*math.pi))<1e-6 and d[\"segments\"]==12 and \
  d[\"width_m\"]==12 and d[\"min_radius_m\"]==30 and abs(d[\"elevation_range_m\"]-4)<1e-9 and \
  d[\"closure_error_m\"]<1e-9 else 1)'"

# the oval file: 800 + 200*pi m
out=$("$GRIP" track info "$SRC/data/tracks/oval.track" --json); rc=$?
check "[ $rc -eq 0 ]"
check "echo '$out' | python3 -c 'import json,sys,math; d=json.load(sys.stdin); \
  sys.exit(0 if abs(d[\"length_m\"]-(800+200*math.pi))<1e-6 and d[\"min_radius_m\"]==100 else 1)'"

# plain text
out=$("$GRIP" track info default); rc=$?
check "[ $rc -eq 0 ]"
check "echo '$out' | grep -q '^length  *1305.531 m'"

# usage errors: exit 2
"$GRIP" track info default --bogus >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" track info >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" track frobnicate >/dev/null 2>&1; check "[ $? -eq 2 ]"
"$GRIP" track >/dev/null 2>&1; check "[ $? -eq 2 ]"

# load errors: exit 1 and file:line: key: message
printf 'width 12\nstraight 100\narc left radius 0 angle 90\n' > "$tmp/bad.track"
"$GRIP" track info "$tmp/bad.track" 2>"$tmp/err" >/dev/null; rc=$?
check "[ $rc -eq 1 ]"
check "grep -q 'bad.track:3: radius: 0 is out of range (allowed 5 .. 100000 m)' '$tmp/err'"
"$GRIP" track info "$tmp/none.track" 2>"$tmp/err" >/dev/null; rc=$?
check "[ $rc -eq 1 ]"
check "grep -q 'none.track: cannot open' '$tmp/err'"
printf '<params><section name="Main Track">\n' > "$tmp/bad.xml"
"$GRIP" track info "$tmp/bad.xml" 2>"$tmp/err" >/dev/null; rc=$?
check "[ $rc -eq 1 ]"
check "grep -q 'bad.xml:[0-9]*: XML:' '$tmp/err'"
"$GRIP" track info torcs:no-such-track 2>/dev/null >/dev/null; rc=$?
check "[ $rc -eq 1 ]"

# TORCS by name, when installed
if [ -f /usr/share/games/torcs/tracks/oval/michigan/michigan.xml ]; then
  out=$("$GRIP" track info torcs:michigan --json); rc=$?
  check "[ $rc -eq 0 ]"
  check "echo '$out' | grep -q '\"segments\":248'"
else
  echo "note: torcs-data not installed, torcs:michigan not checked"
fi
# The broken inputs of the fuzz corpus: exit 1 and their exact file:line: key: message.
corpus="$2/tests/fuzz/corpus/track"
expect() { # expect FILE MESSAGE
  "$GRIP" track info "$corpus/$1" 2>"$tmp/err" >/dev/null; rc=$?
  check "[ $rc -eq 1 ]"
  check "grep -qF '$corpus/$1$2' '$tmp/err'"
}
expect single-straight.track ":1: closure: the track does not close: its last segment ends 200 m from its start (allowed at most 2 m"
expect open-51m.track ":1: closure: the track does not close: its last segment ends 51.8 m from its start (allowed at most 1.73 m"
expect radius-1-circle.track ":1: radius: 1 is out of range (allowed 5 .. 100000 m)"
expect width-1e300.track ":1: width: 1e300 is out of range (allowed 1 .. 200 m)"
expect length-4.6e150.track ":1: straight: 4.6e150 is out of range (allowed > 0 .. 100000 m)"
expect huge-lengths.track ": binary data (NUL byte) in a text file"
# the same file's text before its NUL byte: its second line's radius
tr '\0' '\n' < "$corpus/huge-lengths.track" > "$tmp/huge.track"
"$GRIP" track info "$tmp/huge.track" 2>"$tmp/err" >/dev/null; rc=$?
check "[ $rc -eq 1 ]"
check "grep -qF 'huge.track:2: radius: 055555555555527775 is out of range (allowed 5 .. 100000 m)' '$tmp/err'"
mkdir "$tmp/dir.track"
"$GRIP" track info "$tmp/dir.track" 2>"$tmp/err" >/dev/null; rc=$?
check "[ $rc -eq 1 ]"
check "grep -qF 'grip track info: $tmp/dir.track: is a directory' '$tmp/err'"

exit $fail
