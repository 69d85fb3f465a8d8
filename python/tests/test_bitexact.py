"""Python runs give the same bits as the same runs written in C (grip_c_reference, which calls
grip's C API without the Python shim): the world state hash and each car's x, y, speed, rpm."""
import json
import os
import subprocess

import numpy as np
import pytest

import grip

CARS = ["builtin", "data/cars/kart.ini", "data/cars/offroad-4wd.ini", "data/cars/single-seater.ini"]


def car_path(source_dir, spec):
    return spec if spec == "builtin" else os.path.join(source_dir, spec)


def figures(states):
    return [[s[grip.STATE_INDEX[k]] for k in ("x", "y", "speed", "engine_rpm")] for s in states]


@pytest.mark.parametrize("car", CARS)
@pytest.mark.parametrize("n,steps,dt", [(1, 400, 0.001), (7, 300, 0.004), (12, 100, 0.01)])
def test_flat_vectorised_inputs_match_c(c_reference, source_dir, car, n, steps, dt):
    spec = car_path(source_dir, car)
    expected_hash, expected = c_reference("flat", spec, n, steps, dt)
    world = grip.World()
    c = grip.Car(spec)
    for i in range(n):
        world.add_vehicle(c, 0.0, 30.0 * i, 0.1 * i)
    inputs = grip.default_inputs(n)
    i = np.arange(n)
    inputs[:, grip.INPUT_INDEX["throttle"]] = (i % 4) / 3.0
    inputs[:, grip.INPUT_INDEX["brake"]] = np.where(i % 5 == 4, 0.2, 0.0)
    inputs[:, grip.INPUT_INDEX["steering"]] = ((i % 7) - 3) / 6.0
    world.set_inputs(inputs)
    world.step(dt, steps)
    assert world.state_hash() == expected_hash
    assert figures(world.get_states()) == expected  # exact: the C side prints 17 digits


def test_threads_give_the_same_bits(c_reference):
    expected_hash, _ = c_reference("flat", "builtin", 9, 200, 0.002)
    world = grip.World(threads=2)
    car = grip.Car()
    for i in range(9):
        world.add_vehicle(car, 0.0, 30.0 * i, 0.1 * i)
    inputs = grip.default_inputs(9)
    i = np.arange(9)
    inputs[:, 0] = (i % 4) / 3.0
    inputs[:, 1] = np.where(i % 5 == 4, 0.2, 0.0)
    inputs[:, 2] = ((i % 7) - 3) / 6.0
    world.set_inputs(inputs)
    for _ in range(200):
        world.step(0.002)
    assert world.state_hash() == expected_hash


@pytest.mark.parametrize("k,steps", [(1, 1500), (3, 2000)])
def test_robots_match_c(c_reference, k, steps):
    expected_hash, expected = c_reference("robots", "default", "builtin", k, steps, 0.01)
    track = grip.Track("default")
    car = grip.Car()
    world = grip.World(track)
    for slot in range(k):
        world.add_vehicle(car, *track.grid_slot(slot))
    robots = [grip.Robot(track, car) for _ in range(k)]
    for _ in range(steps):
        grip.drive(world, robots, 0.01)
        world.step(0.01)
    assert world.state_hash() == expected_hash
    assert figures(world.get_states()) == expected
    # and the robot drove: the leading car is well down the track
    assert max(s[2] for s in expected) > 20.0


def test_race_matches_the_grip_tool(grip_tool):
    out = subprocess.run([grip_tool, "race", "--laps", "2", "--cars", "2", "--json", "--quiet"], check=True,
                         capture_output=True, text=True).stdout
    tool = json.loads(out)
    py = grip.race(grip.Track("default"), grip.Car(), laps=2, cars=2)
    assert len(py["cars"]) == len(tool["cars"]) == 2
    for a, b in zip(py["cars"], tool["cars"]):
        assert a["name"] == b["name"] and a["grid"] == b["grid"] and a["laps"] == b["laps"]
        # the tool prints 10 significant digits
        for key in ("total_time_s", "best_lap_s", "top_speed_kmh"):
            assert a[key] == pytest.approx(b[key], rel=1e-9, abs=1e-9)
        assert a["lap_times_s"] == pytest.approx(b["lap_times_s"], rel=1e-9)
