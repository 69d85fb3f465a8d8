"""grip from Python: the vehicle-dynamics engine, its loaders, the robot and the race, with
NumPy arrays for N cars at once, a Gymnasium-style environment, and parameter sweeps on Dask.

    import grip
    world = grip.World()
    car = grip.Car("builtin")
    world.add_vehicle(car, 0.0, 0.0)
    inputs = grip.default_inputs(1); inputs[:, grip.INPUT_INDEX["throttle"]] = 1.0
    world.set_inputs(inputs)
    world.step(0.002, steps=1000)
    states = world.get_states()        # 1 × len(grip.STATE_FIELDS), SI units

docs/python.md describes every call, field and unit.
"""

from ._native import GripError, LoadError
from .core import (INPUT_FIELDS, INPUT_INDEX, RACE_FIELDS, STATE_FIELDS, STATE_INDEX, STATE_UNITS,
                   WHEEL_FIELDS, WHEEL_UNITS, Car, Robot, Scene, Track, Tyre, World, car_file_text, default_inputs, drive, race,
                   state_column)
from .env import Box, TrackEnv, VecTrackEnv

__version__ = "0.1.0"


def sweep(*args, **kwargs):
    """grip.dask_sweep.sweep (imported on first use: it needs dask and pandas)."""
    from .dask_sweep import sweep as run
    return run(*args, **kwargs)


__all__ = ["Car", "Track", "World", "Robot", "Scene", "Tyre", "race", "drive", "sweep",
           "car_file_text", "default_inputs", "state_column", "STATE_FIELDS", "STATE_UNITS",
           "STATE_INDEX", "WHEEL_FIELDS", "WHEEL_UNITS", "INPUT_FIELDS", "INPUT_INDEX", "RACE_FIELDS",
           "GripError", "LoadError",
           "TrackEnv", "VecTrackEnv", "Box"]
