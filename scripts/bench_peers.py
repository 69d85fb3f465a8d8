#!/usr/bin/python3
"""grip's vehicle step beside Bullet's btRaycastVehicle, and grip on two threads beside one,
measured interleaved in one run (docs/performance.md).

usage: scripts/bench_peers.py [--build build] [--vehicles 100] [--seconds 10] [--rounds 3]
                              [--threads-vehicles 100,1000,10000] [--threads-seconds 2]
                              [--no-peer] [--no-threads] [--json FILE]

Peer: each round runs `grip bench --vehicles N --threads 1 --seconds S --json` and
`bullet_vehicles N S` (bench/peers/bullet_vehicles.cpp, built by CMake when Bullet is found)
one after the other, and prints both ns per vehicle-step, wall and process CPU, and the ratio
Bullet / grip. Threads: each round runs `grip bench --vehicles N --threads 1` and `--threads 2`
one after the other for every N, and prints wall ns per vehicle-step and the speed-up, then
`--threads 2 --separate-worlds` (the cars in two worlds stepped by one thread each, nothing
shared: the most two threads of one process get on this machine), then
two `--threads 1` runs side by side: their summed throughput against one run alone is what the
machine can give two threads at that moment (2.0 on two idle cores; a shared VM gives less). The
last lines give the medians over the rounds, and the ratios of the fastest runs (the minima:
on a virtual machine whose host takes the core away now and then, a run can only be slowed,
never sped up, so the fastest runs are the least disturbed). On a machine shared with other
jobs, CPU time is the steadier figure for the peer ratio; a thread speed-up needs an idle
second core, so the load average is printed with each round.
"""
import argparse, json, os, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_json(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout.strip().splitlines()[-1])


def capacity(cmd, one_ns):
    """The machine's own parallel capacity at that moment: two runs of cmd (a one-thread bench)
    side by side, their summed throughput against one run alone that took one_ns a vehicle-step
    (2.0 on two idle cores)."""
    pair = [subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    side = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in pair]
    return sum(one_ns / x["ns_per_vehicle_step"] for x in side)


def programs(build):
    """grip and the Bullet peer in a build folder; exits when grip is not there."""
    grip = os.path.join(build, "grip")
    if not os.path.exists(grip):
        sys.exit("no %s: build grip first" % grip)
    return grip, os.path.join(build, "bullet_vehicles")


def load():
    try:
        return float(open("/proc/loadavg").read().split()[0])
    except (OSError, ValueError):
        return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--vehicles", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads-vehicles", default="100,1000,10000")
    ap.add_argument("--threads-seconds", type=float, default=2.0)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--no-threads", action="store_true")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    grip, peer = programs(a.build)
    do_peer = not a.no_peer
    if do_peer and not os.path.exists(peer):
        print("no %s (Bullet not found when configuring: install libbullet-dev): peer left out" % peer)
        do_peer = False
    out = {"peer": [], "threads": []}
    nv = [int(x) for x in a.threads_vehicles.split(",") if x] if not a.no_threads else []
    for rnd in range(1, a.rounds + 1):
        if do_peer:
            g = run_json([grip, "bench", "--vehicles", str(a.vehicles), "--threads", "1", "--seconds",
                          str(a.seconds), "--json"])
            b = run_json([peer, str(a.vehicles), str(a.seconds)])
            row = {"round": rnd, "load": load(), "grip_ns": g["ns_per_vehicle_step"],
                   "grip_cpu_ns": g["cpu_ns_per_vehicle_step"], "bullet_ns": b["ns_per_vehicle_step"],
                   "bullet_cpu_ns": b["cpu_ns_per_vehicle_step"]}
            row["ratio_cpu"] = row["bullet_cpu_ns"] / row["grip_cpu_ns"]
            row["ratio_wall"] = row["bullet_ns"] / row["grip_ns"]
            out["peer"].append(row)
            print("round %d (load %.1f): %d vehicles, %g s: grip %.0f ns (CPU %.0f), Bullet %.0f ns (CPU %.0f): "
                  "Bullet / grip %.2f (CPU %.2f)" % (rnd, row["load"], a.vehicles, a.seconds, row["grip_ns"],
                                                     row["grip_cpu_ns"], row["bullet_ns"], row["bullet_cpu_ns"],
                                                     row["ratio_wall"], row["ratio_cpu"]), flush=True)
        for n in nv:
            r = {}
            cmd = lambda k: [grip, "bench", "--vehicles", str(n), "--threads", str(k), "--seconds",
                             str(a.threads_seconds), "--json"]
            for k in (1, 2):
                r[k] = run_json(cmd(k))
            # The ceiling for two threads of one process: the cars in two separate worlds, one per
            # thread, nothing shared or waited for per step.
            sep = run_json(cmd(2) + ["--separate-worlds"])
            machine = capacity(cmd(1), r[1]["ns_per_vehicle_step"])
            row = {"round": rnd, "load": load(), "vehicles": n, "one_ns": r[1]["ns_per_vehicle_step"],
                   "two_ns": r[2]["ns_per_vehicle_step"], "one_cpu_ns": r[1]["cpu_ns_per_vehicle_step"],
                   "two_cpu_ns": r[2]["cpu_ns_per_vehicle_step"], "capacity": machine,
                   "separate_ns": sep["ns_per_vehicle_step"]}
            row["separate"] = row["one_ns"] / row["separate_ns"]
            row["speedup"] = row["one_ns"] / row["two_ns"]
            out["threads"].append(row)
            print("round %d (load %.1f): %d vehicles, %g s: one thread %.0f ns, two %.0f ns: %.2fx "
                  "(CPU per vehicle-step %.0f / %.0f ns); two separate worlds on two threads: %.2fx; "
                  "two one-thread runs side by side: %.2fx one" % (
                      rnd, row["load"], n, a.threads_seconds, row["one_ns"], row["two_ns"], row["speedup"],
                      row["one_cpu_ns"], row["two_cpu_ns"], row["separate"], machine), flush=True)
    med = statistics.median
    if out["peer"]:
        p = out["peer"]
        print("median of %d: grip %.0f ns (CPU %.0f), Bullet %.0f ns (CPU %.0f): Bullet / grip %.2f (CPU %.2f)" % (
            len(p), med(x["grip_ns"] for x in p), med(x["grip_cpu_ns"] for x in p), med(x["bullet_ns"] for x in p),
            med(x["bullet_cpu_ns"] for x in p), med(x["ratio_wall"] for x in p), med(x["ratio_cpu"] for x in p)))
        print("fastest of %d: grip %.0f ns CPU, Bullet %.0f ns CPU: Bullet / grip %.2f" % (
            len(p), min(x["grip_cpu_ns"] for x in p), min(x["bullet_cpu_ns"] for x in p),
            min(x["bullet_cpu_ns"] for x in p) / min(x["grip_cpu_ns"] for x in p)))
    for n in nv:
        t = [x for x in out["threads"] if x["vehicles"] == n]
        print("median of %d: %d vehicles: two threads %.2fx one; two separate worlds %.2fx; the machine's "
              "capacity (two one-thread runs side by side) %.2fx" % (len(t), n, med(x["speedup"] for x in t),
                                                                    med(x["separate"] for x in t),
                                                                    med(x["capacity"] for x in t)))
        print("fastest of %d: %d vehicles: one thread %.0f ns, two %.0f ns: %.2fx; two separate worlds %.0f ns: "
              "%.2fx" % (len(t), n, min(x["one_ns"] for x in t), min(x["two_ns"] for x in t),
                         min(x["one_ns"] for x in t) / min(x["two_ns"] for x in t),
                         min(x["separate_ns"] for x in t), min(x["one_ns"] for x in t) / min(x["separate_ns"] for x in t)))
    if a.json:
        json.dump(out, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
