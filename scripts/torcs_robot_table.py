#!/usr/bin/python3
"""Races car1-trb1 alone on every TORCS track with grip's robot and writes the table of
docs/driver.md ("Every TORCS track") between its markers.

usage: scripts/torcs_robot_table.py [--grip build/grip] [--laps 3] [--dt 0.01] [--tracks a,b]
                                    [--robot FILE] [--no-write] [--json FILE]

For each track of Debian's torcs-data (/usr/share/games/torcs/tracks/CATEGORY/NAME) it runs
`grip race --track torcs:NAME --car torcs:car1-trb1 --laps N --dt DT --json` and reports the
best executed lap, the plan's predicted lap (plan_lap_s), their ratio, the time off the road,
the time touching a barrier, and TORCS's best robot on that track where
tests/data/torcs-reference/laps-car1-trb1.txt has one (best of bt, berniw, inferno, olethros).
"""
import argparse, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACKS = "/usr/share/games/torcs/tracks"
REF = os.path.join(ROOT, "tests/data/torcs-reference/laps-car1-trb1.txt")
DOC = os.path.join(ROOT, "docs/driver.md")
BEGIN = "<!-- torcs-robot-table: begin (scripts/torcs_robot_table.py) -->"
END = "<!-- torcs-robot-table: end -->"


def references():
    best = {}
    if not os.path.exists(REF):
        return best
    for line in open(REF):
        f = line.split()
        if len(f) < 5 or not f[4].startswith("best="):
            continue
        try:
            t = float(f[4][5:])
        except ValueError:
            continue
        if t <= 0:
            continue
        track, robot = f[3], f[0]
        if track not in best or t < best[track][0]:
            best[track] = (t, robot)
    return best


def tracks():
    out = []
    for cat in ("road", "oval", "dirt"):
        d = os.path.join(TRACKS, cat)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if os.path.exists(os.path.join(d, name, name + ".xml")):
                out.append((cat, name))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grip", default=os.path.join(ROOT, "build/grip"))
    ap.add_argument("--laps", type=int, default=3)
    ap.add_argument("--dt", default="0.01")
    ap.add_argument("--tracks", default="")
    ap.add_argument("--robot", default="", help="robot parameters (grip race --robot); the table is then not written")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    ref = references()
    want = set(a.tracks.split(",")) if a.tracks else None
    rows = []
    for cat, name in tracks():
        if want and name not in want:
            continue
        cmd = [a.grip, "race", "--track", "torcs:" + name, "--car", "torcs:car1-trb1",
               "--laps", str(a.laps), "--dt", a.dt, "--json", "--quiet"]
        if a.robot:
            cmd += ["--robot", a.robot]
        p = subprocess.run(cmd, capture_output=True, text=True)
        row = {"category": cat, "track": name}
        if p.returncode != 0:
            row["error"] = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        else:
            c = json.loads(p.stdout)["cars"][0]
            for k in ("laps", "status", "reason", "best_lap_s", "plan_lap_s", "off_track_s",
                      "wall_contact_s", "top_speed_kmh"):
                row[k] = c.get(k)
        if name in ref:
            row["torcs_best_s"], row["torcs_robot"] = ref[name]
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)
    lines = ["| track | category | laps | grip best lap (s) | plan lap (s) | best / plan | "
             "off the road (s) | wall contact (s) | TORCS best robot (s) | grip / TORCS |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append("| %s | %s | refused: %s | | | | | | | |" % (r["track"], r["category"], r["error"]))
            continue
        best, plan = r.get("best_lap_s"), r.get("plan_lap_s")
        laps = "%d" % r["laps"] + ("" if r["status"] == "finished" else " (%s)" % (r.get("reason") or r["status"]))
        ratio = "%+.1f %%" % (100 * (best / plan - 1)) if best and plan else "—"
        tb = r.get("torcs_best_s")
        tref = "%.2f (%s)" % (tb, r["torcs_robot"]) if tb else "—"
        tratio = "%+.1f %%" % (100 * (best / tb - 1)) if tb and best else "—"
        lines.append("| %s | %s | %s | %s | %s | %s | %.1f | %.1f | %s | %s |" % (
            r["track"], r["category"], laps, "%.2f" % best if best else "—",
            "%.2f" % plan if plan else "—", ratio, r["off_track_s"], r["wall_contact_s"], tref, tratio))
    table = "\n".join(lines)
    print(table)
    if not a.no_write and not want and not a.robot:
        doc = open(DOC).read()
        if BEGIN in doc and END in doc:
            head, rest = doc.split(BEGIN, 1)
            _, tail = rest.split(END, 1)
            open(DOC, "w").write(head + BEGIN + "\n" + table + "\n" + END + tail)
            print("wrote the table into docs/driver.md", file=sys.stderr)
        else:
            print("docs/driver.md has no table markers; not written", file=sys.stderr)


if __name__ == "__main__":
    main()
