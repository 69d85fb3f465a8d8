#!/bin/bash
# A whole race of a TORCS 1.3.7 (Debian package torcs) robot alone, text mode, with its pit stops
# (grip's tests/data/torcs-reference/race-30-laps.txt; run_torcs_robot.sh with a longer time-out
# and the results' "pits stops").
# usage: run_torcs_race.sh ROBOT IDX TRACK CATEGORY LAPS
#   -> prints "robot idx car track best= top= time= laps= dmg= pits="
set -eu
robot=$1 idx=$2 track=$3 cat=$4 laps=${5:-3}
home=$(mktemp -d)
cat > $home/race.xml <<XML
<?xml version="1.0" encoding="UTF-8"?>
<params name="Quick Race" type="param" mode="mw">
  <section name="Header"><attstr name="name" val="Quick Race"/><attnum name="priority" val="10"/></section>
  <section name="Tracks"><attnum name="maximum number" val="1"/>
    <section name="1"><attstr name="name" val="$track"/><attstr name="category" val="$cat"/></section></section>
  <section name="Races"><section name="1"><attstr name="name" val="Quick Race"/></section></section>
  <section name="Quick Race">
    <attnum name="distance" val="0"/><attstr name="type" val="race"/>
    <attstr name="starting order" val="drivers list"/><attstr name="restart" val="yes"/>
    <attstr name="display mode" val="results only"/>
    <section name="Starting Grid"><attnum name="rows" val="1"/><attnum name="distance to start" val="25"/>
      <attnum name="distance between columns" val="20"/><attnum name="offset within a column" val="10"/>
      <attnum name="initial speed" val="0"/><attnum name="initial height" val="0.2"/></section>
    <attnum name="laps" val="$laps"/>
  </section>
  <section name="Drivers"><attnum name="maximum number" val="40"/>
    <section name="1"><attnum name="idx" val="$idx"/><attstr name="module" val="$robot"/></section></section>
</params>
XML
HOME=$home timeout 1800 /usr/games/torcs -r $home/race.xml >/dev/null 2>&1 || true
res=$(ls $home/.torcs/results/race/*.xml 2>/dev/null | head -1)
if [ -z "$res" ]; then echo "$robot $idx ? $track FAILED"; rm -rf $home; exit 0; fi
python3 - "$res" "$robot" "$idx" "$track" <<'PY'
import sys,re
t=open(sys.argv[1]).read()
def g(n):
    m=re.search(r'name="%s" val="([^"]*)"'%n,t); return m.group(1) if m else '?'
print(sys.argv[2], sys.argv[3], g('car'), sys.argv[4], 'best=%s'%g('best lap time'), 'top=%s'%g('top speed'), 'time=%s'%g('time'), 'laps=%s'%g('laps'), 'dmg=%s'%g('dammages'), 'pits=%s'%g('pits stops'))
PY
rm -rf $home
