"""Parameter sweeps on Dask: car-file keys × tracks × robot settings, one race per run.

    table = grip.sweep(grid={"aero.cl_rear": [-0.2, -0.4], "diff.rear.preload": [50, 150]},
                       random={"tyre.front.lat_mu": (0.9, 1.2)}, samples=5, seed=1,
                       tracks=["default"], robot={"mu_factor": [0.8, 0.9]}, laps=1, workers=2)

Runs are the product of: every combination of the `grid` values, `samples` draws of the
`random` ranges (uniform, from numpy's generator seeded with `seed`, drawn here before anything
is sent to a worker), the tracks, and every combination of the `robot` values. Each run is an
independent race (sim/race.c, the same as `grip race`) of a car written as a car file with
`base = <car>` and the run's keys (docs/car-format.md names every key as section.key).

The table (a pandas DataFrame, one row per run, in run order) holds the run's inputs and the
race figures of the car that finished first: laps, finished, total_time_s, best_lap_s,
top_speed_kmh, off_track_s, max_edge_excess_m, progress_m, plan_lap_time_s, and error (the
loader's message when the car does not load, else ""). No wall-clock figure is in it, so the same
sweep gives the same table on one worker or many.

Dask: `scheduler=None` starts a LocalCluster of `workers` processes (one thread each) on this
machine; `scheduler="tcp://host:8786"` uses a running cluster (docs/python.md), whose workers
must have the grip package installed and see the car, track and .tir files at the same paths;
`client=` reuses a dask.distributed Client.
"""

import itertools
import os

import numpy as np

RESULT_COLUMNS = ("laps", "finished", "total_time_s", "best_lap_s", "top_speed_kmh", "off_track_s",
                  "max_edge_excess_m", "progress_m", "plan_lap_time_s", "error")


def _combinations(values):
    keys = list(values)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(list(values[k]) for k in keys))]


def plan_runs(grid=None, random=None, samples=0, seed=0, tracks=("default",), robot=None, car="builtin"):
    """The list of runs (dicts: run, car, track, car keys, robot keys) a sweep executes."""
    grid, random, robot = dict(grid or {}), dict(random or {}), dict(robot or {})
    overlap = set(grid) & set(random)
    if overlap:
        raise ValueError(f"sweep: keys both in grid and random: {sorted(overlap)}")
    if random and samples < 1:
        raise ValueError("sweep: random ranges need samples >= 1")
    draws = [{}]
    if random:
        rng = np.random.default_rng(seed)
        draws = []
        for _ in range(samples):
            draws.append({k: float(rng.uniform(lo, hi)) for k, (lo, hi) in random.items()})
    if isinstance(tracks, str):
        tracks = [tracks]
    car_spec = car if car in (None, "builtin", "corvette-c5") else os.path.abspath(str(car))
    runs = []
    for track in tracks:
        track_spec = track if track == "default" or str(track).startswith("torcs:") else os.path.abspath(str(track))
        for g in _combinations(grid):
            for d in draws:
                for r in _combinations(robot):
                    runs.append({"run": len(runs), "car": car_spec or "builtin", "track": track_spec,
                                 "car_keys": {**g, **d}, "robot_keys": r})
    return runs


def run_one(run, laps=1, dt=0.01, max_time=0.0):
    """Runs one sweep entry (in a worker) and returns its table row."""
    from . import core

    row = {"run": run["run"], "track": run["track"]}
    row.update({k: v for k, v in run["car_keys"].items()})
    row.update({f"robot.{k}": v for k, v in run["robot_keys"].items()})
    empty = {c: np.nan for c in RESULT_COLUMNS}
    empty.update({"laps": 0, "finished": False, "error": ""})
    try:
        car = core.Car.with_overrides(run["car"], run["car_keys"], name=f"run-{run['run']}")
        track = core.Track(run["track"])
        robot = core.Robot(track, car, run["robot_keys"])
        result = core.race(track, car, laps=laps, dt=dt, robot=run["robot_keys"], max_time=max_time)
    except core.GripError as e:
        empty["error"] = str(e)
        row.update(empty)
        return row
    first = result["cars"][0]
    for c in RESULT_COLUMNS[:-2]:
        row[c] = first[c]
    row["plan_lap_time_s"] = robot.plan_lap_time
    row["error"] = ""
    return row


def sweep(grid=None, random=None, samples=0, seed=0, tracks=("default",), robot=None, car="builtin", laps=1,
          dt=0.01, max_time=0.0, scheduler=None, workers=None, client=None):
    """Runs the sweep on Dask and returns a pandas DataFrame (see the module's doc)."""
    import pandas as pd
    from dask.distributed import Client, LocalCluster

    runs = plan_runs(grid, random, samples, seed, tracks, robot, car)
    own_cluster = own_client = None
    if client is None:
        if scheduler is None:
            n = int(workers or os.cpu_count() or 1)
            own_cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                       dashboard_address=None, scheduler_kwargs={"dashboard": False})
            scheduler = own_cluster
        own_client = client = Client(scheduler)
    try:
        futures = client.map(run_one, runs, laps=laps, dt=dt, max_time=max_time, pure=False)
        rows = client.gather(futures)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()
    table = pd.DataFrame(rows).sort_values("run", kind="stable").reset_index(drop=True)
    return table


def _parse_values(text):
    out = []
    for v in text.split(","):
        v = v.strip()
        try:
            out.append(float(v) if any(ch in v for ch in ".eE") or not v.lstrip("-").isdigit() else int(v))
        except ValueError:
            out.append(v)
    return out


def main(argv=None):
    """`python3 -m grip sweep ...` (also installed by pip as `grip-sweep`)."""
    import argparse
    import sys

    p = argparse.ArgumentParser(prog="grip sweep", description="Race a grid or random sample of car "
                                "parameters x tracks x robot settings on Dask; prints or writes the table.")
    p.add_argument("--car", default="builtin", help="base car: builtin or a car file (default builtin)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=V1,V2,...",
                   help="grid values of a car-file key, e.g. aero.cl_rear=-0.2,-0.4 (repeatable)")
    p.add_argument("--random", action="append", default=[], metavar="KEY=LOW:HIGH",
                   help="uniform range of a car-file key, drawn --samples times (repeatable)")
    p.add_argument("--samples", type=int, default=0, help="random draws (with --random)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random draws (default 0)")
    p.add_argument("--track", action="append", default=[], help="track(s) (default: default)")
    p.add_argument("--robot", action="append", default=[], metavar="KEY=V1,V2,...",
                   help="robot parameter values, e.g. mu_factor=0.8,0.9 (repeatable)")
    p.add_argument("--laps", type=int, default=1, help="laps per race (default 1)")
    p.add_argument("--dt", type=float, default=0.01, help="step, s (default 0.01)")
    p.add_argument("--workers", type=int, default=None, help="LocalCluster worker processes (default: cores)")
    p.add_argument("--scheduler", default=None, help="address of a running Dask scheduler, e.g. tcp://host:8786")
    p.add_argument("--csv", default=None, help="write the table to this CSV file")
    a = p.parse_args(argv)

    def pairs(items, what):
        out = {}
        for item in items:
            key, eq, value = item.partition("=")
            if not eq or not key or not value:
                p.error(f"{what} {item!r}: expected KEY=VALUE")
            out[key.strip()] = value
        return out

    grid = {k: _parse_values(v) for k, v in pairs(a.param, "--param").items()}
    random = {}
    for k, v in pairs(a.random, "--random").items():
        lo, colon, hi = v.partition(":")
        try:
            random[k] = (float(lo), float(hi))
        except ValueError:
            p.error(f"--random {k}={v}: expected LOW:HIGH numbers")
        if not colon:
            p.error(f"--random {k}={v}: expected LOW:HIGH")
    robot = {k: _parse_values(v) for k, v in pairs(a.robot, "--robot").items()}
    try:
        table = sweep(grid=grid, random=random, samples=a.samples, seed=a.seed, tracks=a.track or ["default"],
                      robot=robot, car=a.car, laps=a.laps, dt=a.dt, workers=a.workers, scheduler=a.scheduler)
    except (ValueError, OSError) as e:
        print(f"grip sweep: {e}", file=sys.stderr)
        return 1
    if a.csv:
        table.to_csv(a.csv, index=False)
    else:
        import pandas as pd
        with pd.option_context("display.max_rows", None, "display.width", 200):
            print(table.to_string(index=False))
    return 1 if (table["error"] != "").any() else 0


def console_main():
    """Entry point of the `grip-sweep` console script (pip install)."""
    import sys
    sys.exit(main())
