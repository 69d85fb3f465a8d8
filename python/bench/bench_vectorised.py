"""Time per vehicle-step of N cars stepped from Python through the vectorised calls, against the
C benchmark (`grip bench`), on one thread. Not a test: run it by hand (docs/python.md).

    /usr/bin/python3 python/bench/bench_vectorised.py [--vehicles 1000] [--seconds 2] [--grip build/grip]

The Python loop is the one an agent runs: every step it sets all N inputs from one array, steps
the world, and reads all N states into one preallocated array. The scenario is grip bench's: the
built-in car, 30 m apart on flat ground, full throttle, front wheels at 0.05 rad, dt 0.002 s.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import grip  # noqa: E402


def python_bench(vehicles, seconds, dt, read_states=True):
    world = grip.World(threads=1)
    car = grip.Car()
    for i in range(vehicles):
        world.add_vehicle(car, 0.0, 30.0 * i, 0.0)
    inputs = grip.default_inputs(vehicles)
    inputs[:, grip.INPUT_INDEX["throttle"]] = 1.0
    # grip bench: steering input = 0.05 rad x ratio / max wheel angle (C5: 16 / 8.17)
    inputs[:, grip.INPUT_INDEX["steering"]] = min(1.0, 0.05 * 16.0 / 8.17)
    states = np.empty((vehicles, len(grip.STATE_FIELDS)))
    steps = int(round(seconds / dt))
    start = time.perf_counter()
    for _ in range(steps):
        world.set_inputs(inputs)
        world.step(dt)
        if read_states:
            world.get_states(states)
    elapsed = time.perf_counter() - start
    return elapsed * 1e9 / (steps * vehicles)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser()
    p.add_argument("--vehicles", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--dt", type=float, default=0.002)
    p.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    p.add_argument("--grip", default=os.path.join(here, "..", "..", "build", "grip"))
    a = p.parse_args()
    c, py, py_step = [], [], []
    for _ in range(a.repeat):
        out = subprocess.run([a.grip, "bench", "--vehicles", str(a.vehicles), "--seconds", str(a.seconds),
                              "--dt", str(a.dt), "--threads", "1", "--json"], check=True, capture_output=True,
                             text=True).stdout
        c.append(json.loads(out)["ns_per_vehicle_step"])
        py.append(python_bench(a.vehicles, a.seconds, a.dt))
        py_step.append(python_bench(a.vehicles, a.seconds, a.dt, read_states=False))
    print(f"{a.vehicles} cars, {a.seconds} s at dt {a.dt} s, one thread, best of {a.repeat}:")
    print(f"  C   grip bench                               {min(c):8.1f} ns per vehicle-step")
    print(f"  Python set_inputs + step + get_states        {min(py):8.1f} ns per vehicle-step"
          f"  ({min(py) / min(c):.3f} x C)")
    print(f"  Python set_inputs + step                     {min(py_step):8.1f} ns per vehicle-step"
          f"  ({min(py_step) / min(c):.3f} x C)")


if __name__ == "__main__":
    main()
