"""grip's objects in Python: cars, tracks, worlds with vectorised inputs and states, the robot,
the race, scenes and .tir tyres. Units are SI (docs/python.md lists every field)."""

import os

import numpy as np

from ._native import (GripError, LoadError, check_result, encode, error_buffer, error_text, ffi,
                      lib)


def _names(count_fn, name_fn):
    return tuple(ffi.string(name_fn(i)).decode() for i in range(count_fn()))


#: Columns of a state array (World.get_states), in order; units in STATE_UNITS.
STATE_FIELDS = _names(lib.gpy_state_field_count, lib.gpy_state_field_name)
STATE_UNITS = dict(zip(STATE_FIELDS, _names(lib.gpy_state_field_count, lib.gpy_state_field_unit)))
STATE_INDEX = {name: i for i, name in enumerate(STATE_FIELDS)}
# Per wheel (World.get_wheels): the state's wheel fields without their _fl/_fr/... suffix.
WHEEL_FIELDS = [name.rstrip("_") for name in _names(lib.gpy_wheel_field_count, lib.gpy_wheel_field_name)]
WHEEL_UNITS = dict(zip(WHEEL_FIELDS, _names(lib.gpy_wheel_field_count, lib.gpy_wheel_field_unit)))
#: Columns of an input array (World.set_inputs): throttle 0..1, brake 0..1, steering -1..1
#: (+ left), handbrake 0..1, clutch 0..1 (1 = pressed), gear (-1..n; automatic: >0 drive,
#: 0 neutral, -1 reverse), automatic (0 or 1).
INPUT_FIELDS = _names(lib.gpy_input_field_count, lib.gpy_input_field_name)
INPUT_INDEX = {name: i for i, name in enumerate(INPUT_FIELDS)}
#: Columns of a race table row (race()).
RACE_FIELDS = _names(lib.gpy_race_field_count, lib.gpy_race_field_name)
_LOCATION_FIELDS = lib.gpy_location_field_count()
_POINT_FIELDS = lib.gpy_point_field_count()


def default_inputs(count):
    """count × len(INPUT_FIELDS) inputs at rest: pedals and steering 0, automatic drive."""
    a = np.zeros((count, len(INPUT_FIELDS)))
    a[:, INPUT_INDEX["gear"]] = 1.0
    a[:, INPUT_INDEX["automatic"]] = 1.0
    return a


def _as_rows(array, columns, what):
    a = np.ascontiguousarray(array, dtype=np.float64)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2 or a.shape[1] != columns:
        raise ValueError(f"{what}: expected an array of shape (N, {columns}), got {np.shape(array)}")
    return a


def _ptr(array, ctype="double *"):
    return ffi.cast(ctype, ffi.from_buffer(array))


class Car:
    """A car definition: a car file, "builtin" (the Corvette C5), "torcs:NAME", or car-file text
    (Car.from_text). Raises LoadError with the loader's "file:line: key: ..." message."""

    def __init__(self, spec="builtin"):
        err = error_buffer()
        handle = lib.gpy_car_open(encode(str(spec)), err, len(err))
        if handle == ffi.NULL:
            raise LoadError(error_text(err))
        self._attach(handle)

    @classmethod
    def from_text(cls, text, name="<text>", base_dir=None):
        err = error_buffer()
        handle = lib.gpy_car_parse(text.encode(), encode(name), encode(base_dir), err, len(err))
        if handle == ffi.NULL:
            raise LoadError(error_text(err))
        car = cls.__new__(cls)
        car._attach(handle)
        return car

    @classmethod
    def with_overrides(cls, base="builtin", overrides=None, name=None):
        """A car from base (a car file or "builtin") with car-file keys replaced, e.g.
        {"aero.cl_rear": -0.3, "diff.rear.preload": 150, "tyre.front.lat_mu": 1.1}: the key is
        "section.key" as in docs/car-format.md. Written as a car file with `base = ...`."""
        text = car_file_text(base, overrides or {}, name)
        return cls.from_text(text, name=name or "<overrides>", base_dir=os.getcwd())

    def _attach(self, handle):
        self._handle = ffi.gc(handle, lib.gpy_car_free)
        self.name = ffi.string(lib.gpy_car_name(handle)).decode()
        # The trailer a combination file names ([trailer], docs/car-format.md); "" for none.
        self.trailer = ffi.string(lib.gpy_car_trailer(handle)).decode()
        self.warnings = [ffi.string(lib.gpy_car_warning(handle, i)).decode()
                         for i in range(lib.gpy_car_warning_count(handle))]
        f = ffi.new("double[6]")
        lib.gpy_car_figures(handle, f)
        self.mass, self.length, self.width, self.wheelbase = f[0], f[1], f[2], f[3]
        self.rev_limit_rpm, self.forward_gears = f[4], int(f[5])

    @property
    def definition(self):
        return lib.gpy_car_def(self._handle)

    def save(self, path):
        """Writes every key of the car to path (grip_car_save)."""
        err = error_buffer()
        if lib.gpy_car_save(self._handle, encode(str(path)), err, len(err)) != 0:
            raise LoadError(error_text(err))

    def __repr__(self):
        return f"Car({self.name!r}, mass={self.mass:g} kg)"


def _format_value(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def car_file_text(base, overrides, name=None):
    """The text of a car file that starts from base and sets overrides {"section.key": value}."""
    lines = ["[car]"]
    if base not in (None, "builtin", "corvette-c5"):
        base = str(base)
        if base.startswith("torcs:"):
            raise LoadError(f"{base}: a TORCS car cannot be a base; convert it first "
                            "(grip import-torcs)")
        lines.append(f"base = {os.path.abspath(base)}")
    if name:
        lines.append(f"name = {name}")
    sections = {}
    for full_key, value in overrides.items():
        section, dot, key = str(full_key).rpartition(".")
        if not dot or not section or not key:
            raise LoadError(f"{full_key}: a car key is section.key, e.g. aero.cd or "
                            "diff.rear.preload (docs/car-format.md)")
        if section == "car":
            lines.append(f"{key} = {_format_value(value)}")
        else:
            sections.setdefault(section, []).append(f"{key} = {_format_value(value)}")
    for section, keys in sections.items():
        lines.append(f"[{section}]")
        lines.extend(keys)
    return "\n".join(lines) + "\n"


class Track:
    """A race track: "default" (the built-in Grip Park), a .track file, a TORCS .xml, or
    "torcs:NAME"."""

    def __init__(self, spec="default"):
        err = error_buffer()
        name = ffi.new("char[128]")
        handle = lib.gpy_track_open(encode(str(spec)), name, len(name), err, len(err))
        if handle == ffi.NULL:
            raise LoadError(error_text(err))
        self._handle = ffi.gc(handle, lib.grip_track_destroy)
        self.spec = str(spec)
        self.name = ffi.string(name).decode()
        s = ffi.new("double[6]")
        lib.gpy_track_stats(handle, s)
        self.length, self.width, self.min_radius = s[0], s[1], s[2]
        self.z_min, self.z_max, self.closure_error = s[3], s[4], s[5]

    def locate(self, xy, hints=None):
        """Locates points xy (N × 2, m). Returns an N × 7 array: distance m, lateral m (+ left),
        surface z m, zone (0 road, 1 kerb, 2 run-off, 3 beyond the barrier), road width m,
        centre-line heading rad, curvature 1/m. hints: an int32 array of N segments (-1
        initially) kept between calls for an O(1) search."""
        xy = _as_rows(xy, 2, "Track.locate")
        n = xy.shape[0]
        if hints is None:
            hints = np.full(n, -1, dtype=np.int32)
        if hints.dtype != np.int32 or hints.shape != (n,) or not hints.flags.c_contiguous:
            raise ValueError("Track.locate: hints must be a contiguous int32 array of N entries")
        out = np.empty((n, _LOCATION_FIELDS))
        lib.gpy_track_locate(self._handle, n, _ptr(xy), _ptr(hints, "int *"), _ptr(out))
        return out

    def points(self, distances):
        """The centre line at distances (m, wrapped): N × 8 array of x, y, z (m), heading (rad),
        curvature (1/m, + left), width (m), banking (rad), slope (1)."""
        d = np.ascontiguousarray(np.atleast_1d(distances), dtype=np.float64)
        out = np.empty((d.shape[0], _POINT_FIELDS))
        lib.gpy_track_points(self._handle, d.shape[0], _ptr(d), _ptr(out))
        return out

    def grid_slot(self, slot):
        """The race's grid slot (0-based): (x m, y m, heading rad)."""
        o = ffi.new("double[3]")
        lib.gpy_track_grid_slot(self._handle, slot, o)
        return o[0], o[1], o[2]

    def __repr__(self):
        return f"Track({self.name!r}, length={self.length:.1f} m)"


class World:
    """A world on flat ground (track=None) or on a Track (its surface and barriers), holding N
    vehicles whose inputs and states move as N-row numpy arrays in single C calls.

    threads > 1 steps the vehicles on that many threads (results are bit-identical)."""

    def __init__(self, track=None, threads=1):
        err = error_buffer()
        self.track = track
        handle = lib.gpy_world_create(track._handle if track is not None else ffi.NULL, int(threads),
                                      err, len(err))
        if handle == ffi.NULL:
            raise GripError(error_text(err))
        self._handle = ffi.gc(handle, lib.gpy_world_destroy)
        self._world = lib.gpy_world_handle(handle)
        self._worlds = ffi.new("grip_world *[1]", [self._world])
        self._cars = []  # keeps each vehicle's Car (its definition) alive
        self._ids = np.zeros((0, 2), dtype=np.uint32)
        self._ids_ptr = None
        self._scratch = np.zeros((0, len(INPUT_FIELDS)))

    # --- vehicles -----------------------------------------------------------------------
    def add_vehicle(self, car, x=0.0, y=0.0, heading=0.0, speed=0.0):
        """Adds a car placed on the ground at (x, y) m with heading rad (from +x,
        counter-clockwise), moving forward at speed m/s. Returns its row in the arrays.
        A combination (a car file with [trailer]) is refused: the Python API has no hitches yet
        (tow it in a scene, grip scene run or grip drive; or add its base car alone)."""
        if car.trailer:
            raise GripError(f"{car.name} tows a trailer ({car.trailer}); World.add_vehicle adds "
                            "a car alone (use its base file, or a scene)")
        err = error_buffer()
        vid = lib.gpy_world_add_vehicle(self._handle, car.definition, float(x), float(y),
                                        float(heading), float(speed), err, len(err))
        if vid.index == 0:
            raise GripError(error_text(err))
        self._cars.append(car)
        self._ids = np.ascontiguousarray(np.vstack([self._ids, [[vid.index, vid.generation]]]),
                                         dtype=np.uint32)
        self._ids_ptr = _ptr(self._ids, "grip_vehicle_id *")
        self._scratch = np.zeros((len(self._cars), len(INPUT_FIELDS)))
        self._scratch_ptr = _ptr(self._scratch)
        return len(self._cars) - 1

    def place(self, row, x, y, heading=0.0):
        """Puts vehicle row on the ground at (x, y) m, heading rad, at rest."""
        vid = ffi.new("grip_vehicle_id *", tuple(int(v) for v in self._ids[row]))
        check_result(lib.grip_vehicle_place(self._world, vid[0], float(x), float(y), float(heading)),
                     f"place vehicle {row} at ({x}, {y})")

    def __len__(self):
        return len(self._cars)

    @property
    def vehicle_count(self):
        return lib.grip_world_vehicle_count(self._world)

    # --- stepping -----------------------------------------------------------------------
    def step(self, dt=0.01, steps=1):
        """Advances every vehicle by dt s (1e-4 .. 0.02), `steps` times."""
        check_result(lib.gpy_world_step(self._handle, float(dt), int(steps)), f"step dt={dt}")

    def state_hash(self):
        """64-bit hash of every vehicle's dynamic state (grip_world_state_hash)."""
        return int(lib.grip_world_state_hash(self._world))

    # --- vectorised inputs and states ---------------------------------------------------
    def set_inputs(self, inputs):
        """Sets all N vehicles' inputs from an N × 7 array (INPUT_FIELDS), applied from the next
        step. All rows or none: a NaN or out-of-range row raises ValueError naming it."""
        a = _as_rows(inputs, len(INPUT_FIELDS), "World.set_inputs")
        if a.shape[0] != len(self._cars):
            raise ValueError(f"World.set_inputs: {a.shape[0]} rows for {len(self._cars)} vehicles")
        bad = lib.gpy_set_inputs(self._worlds, 0, self._ids_ptr, a.shape[0], _ptr(a), self._scratch_ptr)
        if bad >= 0:
            raise ValueError(f"World.set_inputs: row {bad} rejected (ranges: throttle, brake, "
                             f"handbrake, clutch 0..1; steering -1..1; gear -1..n; automatic 0/1): "
                             f"{dict(zip(INPUT_FIELDS, a[bad]))}")

    def get_inputs(self):
        out = np.empty((len(self._cars), len(INPUT_FIELDS)))
        lib.gpy_get_inputs(self._worlds, 0, self._ids_ptr, len(self._cars), _ptr(out))
        return out

    def get_states(self, out=None):
        """Every vehicle's state as an N × len(STATE_FIELDS) array (one C call). Pass a
        preallocated float64 C-contiguous array as out to reuse it."""
        n = len(self._cars)
        if out is None:
            out = np.empty((n, len(STATE_FIELDS)))
        elif out.shape != (n, len(STATE_FIELDS)) or out.dtype != np.float64 or not out.flags.c_contiguous:
            raise ValueError(f"World.get_states: out must be a C-contiguous float64 array of shape "
                             f"({n}, {len(STATE_FIELDS)})")
        bad = lib.gpy_get_states(self._worlds, 0, self._ids_ptr, n, _ptr(out))
        if bad >= 0:
            raise GripError(f"World.get_states: vehicle {bad} is not valid")
        return out


    def get_wheels(self, row):
        """Every wheel of vehicle row, any count (a three-wheeler's 3, a 6x4's 6), as a
        wheels × len(WHEEL_FIELDS) array in wheel order: axle by axle from the front, left
        before right."""
        if not 0 <= int(row) < len(self._cars):
            raise GripError(f"World.get_wheels: no vehicle {row}")
        vid = ffi.new("grip_vehicle_id *", {"index": int(self._ids[row, 0]), "generation": int(self._ids[row, 1])})
        count = lib.gpy_get_wheels(self._world, vid[0], ffi.NULL, 0)
        out = np.empty((count, len(WHEEL_FIELDS)))
        if count:
            lib.gpy_get_wheels(self._world, vid[0], _ptr(out), count)
        return out


def state_column(states, name):
    """A column of a state array by field name, e.g. state_column(s, "speed")."""
    return states[:, STATE_INDEX[name]]


class Robot:
    """The robot driver (docs/driver.md) for one car on a track. params: {"mu_factor": 0.9, ...}
    (robot_params keys)."""

    def __init__(self, track, car, params=None):
        keys, values, keep = _param_arrays(params)
        err = error_buffer()
        handle = lib.gpy_robot_create(track._handle, car.definition, len(keep) // 2, keys, values, err,
                                      len(err))
        if handle == ffi.NULL:
            raise LoadError(error_text(err))
        self._handle = ffi.gc(handle, lib.robot_destroy)
        self.track, self.car = track, car

    @property
    def plan_lap_time(self):
        """s, the lap time the robot's speed plan predicts for a flying lap."""
        return lib.robot_plan_lap_time(self._handle)

    @property
    def plan_top_speed(self):
        """m/s, the car's estimated top speed."""
        return lib.robot_plan_top_speed(self._handle)


def drive(world, robots, dt):
    """Lets robots[i] set the input of vehicle row i of world (len(robots) rows, all of them),
    each seeing the others as in a race. One C call."""
    if len(robots) != len(world):
        raise ValueError(f"drive: {len(robots)} robots for {len(world)} vehicles")
    if not hasattr(world, "_robot_hints") or len(world._robot_hints) != len(robots):
        world._robot_hints = np.full(len(robots), -1, dtype=np.int32)
    handles = ffi.new("robot *[]", [r._handle for r in robots])
    check_result(lib.gpy_robots_drive(handles, world._worlds, 0, world._ids_ptr, len(robots),
                                      robots[0].track._handle, _ptr(world._robot_hints, "int *"), float(dt)),
                 "drive")


def _param_arrays(params):
    keep = []
    for k, v in (params or {}).items():
        keep.append(ffi.new("char[]", str(k).encode()))
        keep.append(ffi.new("char[]", _format_value(v).encode()))
    keys = ffi.new("const char *[]", keep[0::2]) if keep else ffi.NULL
    values = ffi.new("const char *[]", keep[1::2]) if keep else ffi.NULL
    return keys, values, keep


def race(track, car, laps=3, cars=1, dt=0.01, robot=None, max_time=0.0, telemetry=None):
    """Runs a race (sim/race.c, as `grip race`) and returns a dict: "cars" (a list of dicts in
    finishing order with RACE_FIELDS, "name" and "lap_times_s"), "sim_time_s", "wall_time_s",
    "realtime_factor", "steps". robot: robot parameters {key: value}."""
    keys, values, keep = _param_arrays(robot)
    err = error_buffer()
    handle = lib.gpy_race_run(track._handle, car.definition, car.name.encode(), len(keep) // 2, keys,
                              values, int(laps), int(cars), float(dt), float(max_time),
                              encode(telemetry), err, len(err))
    if handle == ffi.NULL:
        raise GripError(error_text(err))
    handle = ffi.gc(handle, lib.gpy_race_free)
    row = ffi.new("double[]", len(RACE_FIELDS))
    results = []
    for k in range(lib.gpy_race_car_count(handle)):
        lib.gpy_race_car(handle, k, row)
        r = dict(zip(RACE_FIELDS, list(row)))
        for key in ("grid", "laps"):
            r[key] = int(r[key])
        r["finished"] = bool(r["finished"])
        r["position"] = k + 1
        r["name"] = ffi.string(lib.gpy_race_car_name(handle, k)).decode()
        r["lap_times_s"] = [lib.gpy_race_lap_time(handle, k, lap) for lap in range(r["laps"])]
        results.append(r)
    t = ffi.new("double[4]")
    lib.gpy_race_totals(handle, t)
    return {"cars": results, "sim_time_s": t[0], "wall_time_s": t[1], "realtime_factor": t[2],
            "steps": int(t[3])}


class Scene:
    """A scene file (docs/scene.md): its world with the cars at their starts. robots=True builds
    the robots of the cars that have `driver = robot`; step() lets them drive."""

    def __init__(self, path, robots=True):
        err = error_buffer()
        handle = lib.gpy_scene_open(encode(str(path)), 1 if robots else 0, err, len(err))
        if handle == ffi.NULL:
            raise LoadError(error_text(err))
        self._handle = ffi.gc(handle, lib.gpy_scene_free)
        self._world = lib.gpy_scene_world(handle)
        self._worlds = ffi.new("grip_world *[1]", [self._world])
        n = lib.gpy_scene_car_count(handle)
        self.car_names = [ffi.string(lib.gpy_scene_car_name(handle, i)).decode() for i in range(n)]
        ids = [lib.gpy_scene_car_id(handle, i) for i in range(n)]
        self._ids = np.array([[i.index, i.generation] for i in ids], dtype=np.uint32).reshape(n, 2)
        self._ids_ptr = _ptr(self._ids, "grip_vehicle_id *")

    def step(self, dt=0.01, steps=1):
        check_result(lib.gpy_scene_step(self._handle, float(dt), int(steps)), f"scene step dt={dt}")

    def get_states(self):
        out = np.empty((len(self.car_names), len(STATE_FIELDS)))
        lib.gpy_get_states(self._worlds, 0, self._ids_ptr, len(self.car_names), _ptr(out))
        return out

    def state_hash(self):
        return int(lib.grip_world_state_hash(self._world))


class Tyre:
    """A Magic Formula tyre from a .tir file (MF 5.2, 6.1, 6.2; docs/mf-tyre.md)."""

    def __init__(self, path):
        err = error_buffer()
        handle = lib.gpy_tir_load(encode(str(path)), err, len(err))
        if handle == ffi.NULL:
            raise LoadError(error_text(err))
        self._handle = ffi.gc(handle, lib.gpy_tir_free)

    def forces(self, fz, kappa=0.0, alpha=0.0, gamma=0.0, vx=20.0):
        """Steady-state Fx, Fy (N) and Mz (N·m) as an N × 3 array; arguments broadcast: Fz N,
        slip ratio, slip angle rad, inclination rad, forward speed m/s."""
        rows = np.ascontiguousarray(np.stack(np.broadcast_arrays(
            *(np.asarray(v, dtype=np.float64) for v in (fz, kappa, alpha, gamma, vx))), axis=-1).reshape(-1, 5))
        out = np.empty((rows.shape[0], 3))
        lib.gpy_tir_evaluate(self._handle, rows.shape[0], _ptr(rows), _ptr(out))
        return out


__all__ = ["Car", "Track", "World", "Robot", "Scene", "Tyre", "race", "drive", "car_file_text",
           "default_inputs", "state_column", "STATE_FIELDS", "STATE_UNITS", "STATE_INDEX",
           "INPUT_FIELDS", "INPUT_INDEX", "RACE_FIELDS", "GripError", "LoadError"]
