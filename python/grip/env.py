"""A driving environment with Gymnasium's conventions, without depending on Gymnasium.

TrackEnv: one car on a track. ``reset(seed=None, options=None) -> (obs, info)``,
``step(action) -> (obs, reward, terminated, truncated, info)``, ``action_space`` and
``observation_space`` as Box bounds.

VecTrackEnv: K independent cars, each in its own world (cars of one world would collide), all
stepped by one C call per step. ``reset`` and ``step`` take and return K rows. A car whose
episode ends is reset in the same step (Gymnasium 0.29's SyncVectorEnv convention): its row
holds the new episode's first observation, and ``info["final_observation"][k]`` the last one.

Observation (float64, OBSERVATION_FIELDS, SI units): forward speed m/s; the track's curvature
(1/m, + left) at each look-ahead distance ahead of the car; lateral offset from the centre line
(m, + left); heading error (rad, car heading minus track heading, + = pointing left); slip ratio
of each wheel (FL, FR, RL, RR); slip angle of each wheel (rad); engine speed (rpm); gear (-1..n).

Action (2 floats in [-1, 1]): steering (+1 full lock left) and throttle/brake (> 0 throttle,
< 0 brake). Automatic gearbox.

Reward: progress along the track's centre line in the step (m; negative when going backwards).
Terminated: the car left the world (grip_vehicle_state.out_of_world), went beyond a barrier, or is
more than off_track_margin m beyond the road edge. Truncated: after max_steps steps.
"""

import math

import numpy as np

from . import core
from ._native import check_result, ffi, lib

_WHEELS = ("fl", "fr", "rl", "rr")


class Box:
    """Bounds of an array space (Gymnasium's Box, reduced): low, high, shape, dtype; sample()
    draws uniformly with the space's own generator (seed() sets it)."""

    def __init__(self, low, high, dtype=np.float64):
        self.low = np.asarray(low, dtype=dtype)
        self.high = np.asarray(high, dtype=dtype)
        self.shape = self.low.shape
        self.dtype = np.dtype(dtype)
        self._rng = np.random.default_rng()

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def sample(self):
        return self._rng.uniform(self.low, self.high).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self):
        return f"Box(shape={self.shape}, low={self.low.tolist()}, high={self.high.tolist()})"


class VecTrackEnv:
    """K cars on a track, each in its own world, stepped together (see the module's doc).

    track, car: a Track / Car or their specs ("default", "builtin", a file). dt: physics step
    (s); frame_skip: physics steps per env step (the action is held). max_steps: env steps before
    truncation. lookahead: distances (m) ahead at which the track's curvature is observed.
    start: "grid" (the race's pole slot, at rest) or "random" (a random distance along the track,
    lateral offset within a quarter of the road width, heading error within ±0.1 rad, speed
    0..max_start_speed m/s; drawn from the seed)."""

    metadata = {"render_modes": []}

    def __init__(self, num_envs=1, track="default", car="builtin", dt=0.01, frame_skip=1, max_steps=3000,
                 lookahead=(10.0, 30.0, 60.0, 100.0), start="grid", max_start_speed=20.0,
                 off_track_margin=4.0):
        if start not in ("grid", "random"):
            raise ValueError(f"start must be 'grid' or 'random', not {start!r}")
        self.num_envs = int(num_envs)
        self.track = track if isinstance(track, core.Track) else core.Track(track)
        self.car = car if isinstance(car, core.Car) else core.Car(car)
        self.dt, self.frame_skip, self.max_steps = float(dt), int(frame_skip), int(max_steps)
        self.lookahead = np.asarray(lookahead, dtype=np.float64)
        self.start, self.max_start_speed = start, float(max_start_speed)
        self.off_track_margin = float(off_track_margin)

        names = (["speed"] + [f"curvature_{d:g}m" for d in self.lookahead] + ["lateral", "heading_error"]
                 + [f"slip_ratio_{w}" for w in _WHEELS] + [f"slip_angle_{w}" for w in _WHEELS]
                 + ["engine_rpm", "gear"])
        self.observation_fields = tuple(names)
        # Bounds: the track's widest road plus the termination margin (the lateral offset of a
        # terminal observation is clipped to it); |curvature| <= 1 / the smallest radius; the
        # tyre model keeps |kappa| <= 1 and |alpha| < pi/2; the engine cannot turn backwards.
        samples = self.track.points(np.arange(0.0, self.track.length, 1.0))
        self.max_lateral = 0.5 * float(samples[:, 5].max()) + self.off_track_margin + 5.0
        kmax = 1.0 / self.track.min_radius if math.isfinite(self.track.min_radius) else 0.0
        nla = len(self.lookahead)
        low = ([-150.0] + [-kmax] * nla + [-self.max_lateral, -math.pi] + [-1.0] * 4 + [-math.pi / 2] * 4
               + [0.0, -1.0])
        high = ([150.0] + [kmax] * nla + [self.max_lateral, math.pi] + [1.0] * 4 + [math.pi / 2] * 4
                + [1.5 * self.car.rev_limit_rpm, float(self.car.forward_gears)])
        self.single_observation_space = Box(low, high)
        self.single_action_space = Box([-1.0, -1.0], [1.0, 1.0])
        self.observation_space = Box(np.tile(low, (self.num_envs, 1)), np.tile(high, (self.num_envs, 1)))
        self.action_space = Box(-np.ones((self.num_envs, 2)), np.ones((self.num_envs, 2)))

        k = self.num_envs
        self._worlds = [None] * k
        self._world_ptrs = ffi.new("grip_world *[]", k)
        self._gpy_ptrs = ffi.new("gpy_world *[]", k)
        self._ids = np.zeros((k, 2), dtype=np.uint32)
        self._ids_ptr = core._ptr(self._ids, "grip_vehicle_id *")
        self._inputs = core.default_inputs(k)
        self._inputs_ptr = core._ptr(self._inputs)
        self._scratch = np.zeros_like(self._inputs)
        self._scratch_ptr = core._ptr(self._scratch)
        self._states = np.zeros((k, len(core.STATE_FIELDS)))
        self._states_ptr = core._ptr(self._states)
        self._xy = np.zeros((k, 2))
        self._hints = np.full(k, -1, dtype=np.int32)
        self._distance = np.zeros(k)
        self._steps = np.zeros(k, dtype=np.int64)
        self._rngs = [np.random.default_rng() for _ in range(k)]
        s = core.STATE_INDEX
        self._cols_slip = [s[f"slip_ratio_{w}"] for w in _WHEELS] + [s[f"slip_angle_{w}"] for w in _WHEELS]

    # --- episodes -----------------------------------------------------------------------
    def _start_pose(self, k):
        if self.start == "grid":
            x, y, heading = self.track.grid_slot(0)
            return x, y, heading, 0.0
        rng = self._rngs[k]
        p = self.track.points([rng.uniform(0.0, self.track.length)])[0]
        lateral = rng.uniform(-0.25, 0.25) * p[5]
        x, y = p[0] - math.sin(p[3]) * lateral, p[1] + math.cos(p[3]) * lateral
        return x, y, p[3] + rng.uniform(-0.1, 0.1), rng.uniform(0.0, self.max_start_speed)

    def _reset_one(self, k):
        world = core.World(self.track)
        x, y, heading, speed = self._start_pose(k)
        world.add_vehicle(self.car, x, y, heading, speed)
        self._worlds[k] = world
        self._world_ptrs[k] = world._world
        self._gpy_ptrs[k] = world._handle
        self._ids[k] = world._ids[0]
        self._hints[k] = -1
        self._steps[k] = 0
        self._inputs[k] = core.default_inputs(1)[0]

    def reset(self, seed=None, options=None):
        """Starts every car's episode. seed: an int (car k uses seed + k) or a list of K seeds."""
        if seed is not None:
            seeds = list(seed) if np.ndim(seed) else [int(seed) + k for k in range(self.num_envs)]
            self._rngs = [np.random.default_rng(s) for s in seeds]
            self.action_space.seed(seeds[0])
        for k in range(self.num_envs):
            self._reset_one(k)
        obs, _, _ = self._observe()
        self._distance[:] = self._loc[:, 0]
        return obs, {}

    # --- stepping -----------------------------------------------------------------------
    def _observe(self):
        bad = lib.gpy_get_states(self._world_ptrs, 1, self._ids_ptr, self.num_envs, self._states_ptr)
        if bad >= 0:
            raise RuntimeError(f"vehicle {bad} is gone")
        st = self._states
        s = core.STATE_INDEX
        self._xy[:, 0] = st[:, s["x"]]
        self._xy[:, 1] = st[:, s["y"]]
        loc = self.track.locate(self._xy, self._hints)
        self._loc = loc
        ahead = self.track.points((loc[:, :1] + self.lookahead[None, :]).ravel())[:, 4]
        heading_error = np.remainder(st[:, s["yaw"]] - loc[:, 5] + math.pi, 2.0 * math.pi) - math.pi
        obs = np.concatenate([st[:, [s["speed"]]], ahead.reshape(self.num_envs, -1),
                              np.clip(loc[:, [1]], -self.max_lateral, self.max_lateral),
                              heading_error[:, None], st[:, self._cols_slip],
                              st[:, [s["engine_rpm"], s["gear"]]]], axis=1)
        off_far = (np.abs(loc[:, 1]) - 0.5 * loc[:, 4] > self.off_track_margin) | (loc[:, 3] >= 3.0)
        return obs, off_far, st[:, s["out_of_world"]] != 0.0

    def step(self, actions, autoreset=True):
        a = np.asarray(actions, dtype=np.float64).reshape(self.num_envs, 2)
        if not np.all(np.isfinite(a)):
            raise ValueError(f"step: actions must be finite, got {a}")
        a = np.clip(a, -1.0, 1.0)
        i = core.INPUT_INDEX
        self._inputs[:, i["steering"]] = a[:, 0]
        self._inputs[:, i["throttle"]] = np.maximum(a[:, 1], 0.0)
        self._inputs[:, i["brake"]] = np.maximum(-a[:, 1], 0.0)
        bad = lib.gpy_set_inputs(self._world_ptrs, 1, self._ids_ptr, self.num_envs, self._inputs_ptr,
                                 self._scratch_ptr)
        if bad >= 0:
            raise ValueError(f"step: input row {bad} rejected: {self._inputs[bad]}")
        check_result(lib.gpy_worlds_step(self._gpy_ptrs, self.num_envs, self.dt, self.frame_skip), "step")
        self._steps += 1
        obs, off_far, out_of_world = self._observe()
        length = self.track.length
        reward = np.remainder(self._loc[:, 0] - self._distance + 0.5 * length, length) - 0.5 * length
        self._distance[:] = self._loc[:, 0]
        terminated = off_far | out_of_world
        truncated = (self._steps >= self.max_steps) & ~terminated
        info = {"distance": self._loc[:, 0].copy(), "out_of_world": out_of_world, "off_track": off_far}
        done = terminated | truncated
        if autoreset and np.any(done):
            info["final_observation"] = [obs[k].copy() if done[k] else None for k in range(self.num_envs)]
            for k in np.flatnonzero(done):
                self._reset_one(int(k))
            new_obs, _, _ = self._observe()
            obs[done] = new_obs[done]
            self._distance[done] = self._loc[done, 0]
        return obs, reward, terminated, truncated, info

    # --- inspection ---------------------------------------------------------------------
    def state_hash(self, k=0):
        """grip_world_state_hash of car k's world."""
        return self._worlds[k].state_hash()

    def states(self):
        """The last K × len(STATE_FIELDS) state array read (see grip.STATE_FIELDS)."""
        return self._states.copy()

    def close(self):
        self._worlds = [None] * self.num_envs


class TrackEnv:
    """One car on a track (VecTrackEnv with one car, without the automatic reset): the same
    arguments except num_envs."""

    metadata = VecTrackEnv.metadata

    def __init__(self, **kwargs):
        self._vec = VecTrackEnv(num_envs=1, **kwargs)
        self.observation_space = self._vec.single_observation_space
        self.action_space = self._vec.single_action_space
        self.observation_fields = self._vec.observation_fields

    @property
    def track(self):
        return self._vec.track

    @property
    def car(self):
        return self._vec.car

    def reset(self, seed=None, options=None):
        obs, info = self._vec.reset(seed=seed, options=options)
        return obs[0], info

    def step(self, action):
        obs, reward, terminated, truncated, info = self._vec.step(np.reshape(action, (1, 2)), autoreset=False)
        return (obs[0], float(reward[0]), bool(terminated[0]), bool(truncated[0]),
                {key: value[0] for key, value in info.items()})

    def state_hash(self):
        return self._vec.state_hash(0)

    def states(self):
        return self._vec.states()[0]

    def close(self):
        self._vec.close()
