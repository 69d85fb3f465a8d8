"""Sweeps on Dask: the same table on one worker or two, and each row what the grip tool gives."""
import json
import subprocess

import pandas as pd
import pytest

import grip
from grip.dask_sweep import main as sweep_main
from grip.dask_sweep import plan_runs

SWEEP = dict(grid={"aero.cl_rear": [-0.1, -0.4], "diff.rear.preload": [50, 200]},
             random={"tyre.front.lat_mu": (0.9, 1.2)}, samples=5, seed=11, robot=None, laps=1)


@pytest.fixture(scope="module")
def tables():
    one = grip.sweep(workers=1, **SWEEP)
    two = grip.sweep(workers=2, **SWEEP)
    return one, two


def test_twenty_runs_same_table_on_one_and_two_workers(tables):
    one, two = tables
    assert len(one) == 20
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    assert (one["error"] == "").all() and one["finished"].all()
    # the parameters matter: not every run gives the same lap
    assert one["best_lap_s"].nunique() == 20


def test_a_row_equals_the_grip_tool_on_the_same_car_file(tables, tmp_path, grip_tool):
    one, _ = tables
    row = one.iloc[13]
    keys = {k: row[k] for k in ("aero.cl_rear", "diff.rear.preload", "tyre.front.lat_mu")}
    car_file = tmp_path / "run13.ini"
    car_file.write_text(grip.car_file_text("builtin", keys))
    out = subprocess.run([grip_tool, "race", "--car", str(car_file), "--laps", "1", "--json", "--quiet"],
                         check=True, capture_output=True, text=True).stdout
    tool = json.loads(out)["cars"][0]
    assert row["best_lap_s"] == pytest.approx(tool["best_lap_s"], rel=1e-9)
    assert row["top_speed_kmh"] == pytest.approx(tool["top_speed_kmh"], rel=1e-9)


def test_the_random_draws_are_seeded_and_in_range():
    a = plan_runs(**{k: v for k, v in SWEEP.items() if k != "laps"})
    b = plan_runs(**{k: v for k, v in SWEEP.items() if k != "laps"})
    assert a == b and len(a) == 20
    mus = {r["car_keys"]["tyre.front.lat_mu"] for r in a}
    assert len(mus) == 5 and all(0.9 <= m <= 1.2 for m in mus)


def test_a_bad_key_is_reported_in_the_table():
    t = grip.sweep(grid={"aero.cd": [0.3, 99.0]}, laps=1, workers=1)
    assert t.loc[0, "error"] == "" and t.loc[1, "error"].startswith("run-1:4: ") and t.loc[1, "error"].endswith("aero.cd: 99 is out of range (allowed 0 .. 10)")


def test_command_line_writes_the_csv(tmp_path):
    csv = tmp_path / "t.csv"
    rc = sweep_main(["--param", "aero.cl_rear=-0.1,-0.3", "--robot", "mu_factor=0.8,0.9", "--workers", "1",
                     "--csv", str(csv)])
    assert rc == 0
    t = pd.read_csv(csv)
    assert len(t) == 4 and list(t["robot.mu_factor"]) == [0.8, 0.9, 0.8, 0.9]
