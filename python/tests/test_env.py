"""The environment: Gymnasium's conventions, reproducible resets, C-identical stepping, bounds."""
import math

import numpy as np
import pytest

import grip


def test_reset_with_the_same_seed_gives_the_same_observation():
    env = grip.TrackEnv(start="random")
    a, _ = env.reset(seed=42)
    b, _ = env.reset(seed=42)
    c, _ = env.reset(seed=43)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    # another environment object, same seed: same start
    d, _ = grip.TrackEnv(start="random").reset(seed=42)
    assert np.array_equal(a, d)
    # the start is where the observation says: on the road, moving forward at <= 20 m/s
    names = env.observation_fields
    assert abs(a[names.index("lateral")]) <= 0.25 * 12.0 + 1e-9
    assert 0.0 <= a[names.index("speed")] <= 20.0 + 0.5
    assert abs(a[names.index("heading_error")]) <= 0.1 + 1e-6


def test_grid_start_is_the_race_pole_slot():
    env = grip.TrackEnv()
    obs, info = env.reset(seed=0)
    track = env.track
    x, y, heading = track.grid_slot(0)
    s = env.states()
    assert s[grip.STATE_INDEX["x"]] == pytest.approx(x, abs=1e-9)
    assert s[grip.STATE_INDEX["y"]] == pytest.approx(y, abs=1e-9)
    # pole slot: 6 m behind the line, 3 m left of the centre line
    assert obs[env.observation_fields.index("lateral")] == pytest.approx(3.0, abs=1e-6)
    assert obs[env.observation_fields.index("speed")] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("steer,pedal,steps,dt", [(0.0, 1.0, 400, 0.01), (0.1, 0.8, 300, 0.01),
                                                  (-0.05, 0.6, 500, 0.005), (0.0, -0.5, 200, 0.002)])
def test_constant_action_matches_c_stepping(c_reference, steer, pedal, steps, dt):
    expected_hash, expected = c_reference("track", "default", "builtin", steps, dt, steer, pedal)
    env = grip.TrackEnv(dt=dt, max_steps=10 * steps)
    env.reset(seed=0)
    total = 0.0
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step([steer, pedal])
        assert not terminated and not truncated
        total += reward
    assert env.state_hash() == expected_hash
    s = env.states()
    assert [s[grip.STATE_INDEX[k]] for k in ("x", "y", "speed", "engine_rpm")] == expected[0]
    if pedal > 0:
        # reward = progress along the centre line: close to the distance driven on a near-straight
        # start (the pole slot faces down the track)
        x0, y0, _ = env.track.grid_slot(0)
        driven = math.hypot(expected[0][0] - x0, expected[0][1] - y0)
        assert total == pytest.approx(driven, rel=0.05)


def test_vector_env_matches_c_per_car(c_reference):
    actions = np.array([[0.0, 1.0], [0.1, 0.8], [-0.05, 0.6]])
    env = grip.VecTrackEnv(num_envs=3, dt=0.01)
    env.reset(seed=1)
    for _ in range(300):
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not terminated.any() and not truncated.any()
    for k, (steer, pedal) in enumerate(actions):
        expected_hash, _ = c_reference("track", "default", "builtin", 300, 0.01, steer, pedal)
        assert env.state_hash(k) == expected_hash


def test_observation_bounds_hold_over_a_random_action_run():
    env = grip.VecTrackEnv(num_envs=4, start="random", frame_skip=2, max_steps=400)
    obs, _ = env.reset(seed=7)
    space = env.single_observation_space
    names = env.observation_fields
    seen_speed, episodes_ended = 0.0, 0
    rng = np.random.default_rng(3)
    for _ in range(1500):
        # random actions biased to throttle, so the car reaches speed and leaves the road
        actions = np.column_stack([rng.uniform(-1, 1, 4), rng.uniform(-0.3, 1, 4)])
        obs, reward, terminated, truncated, info = env.step(actions)
        for row in obs:
            assert space.contains(row), dict(zip(names, row))
        if "final_observation" in info:
            for row in info["final_observation"]:
                if row is not None:
                    assert space.contains(row), dict(zip(names, row))
        assert np.all(np.abs(reward) <= 150.0 * 0.02 + 1e-9)  # |progress| <= top speed x step
        seen_speed = max(seen_speed, obs[:, 0].max())
        episodes_ended += int(np.sum(terminated | truncated))
    assert seen_speed > 10.0
    assert episodes_ended > 0


def test_spaces_follow_gymnasium_conventions():
    env = grip.TrackEnv()
    assert env.action_space.shape == (2,)
    assert env.observation_space.shape == (len(env.observation_fields),)
    obs, info = env.reset(seed=0)
    assert isinstance(info, dict) and obs.shape == env.observation_space.shape
    out = env.step(env.action_space.sample())
    assert len(out) == 5 and isinstance(out[1], float) and isinstance(out[2], bool) and isinstance(out[3], bool)


def test_truncated_at_the_step_limit():
    env = grip.TrackEnv(max_steps=5)
    env.reset(seed=0)
    flags = [env.step([0.0, 0.0])[3] for _ in range(5)]
    assert flags == [False] * 4 + [True]


def test_terminated_when_driving_off_far():
    env = grip.TrackEnv(max_steps=5000)
    env.reset(seed=0)
    for n in range(5000):
        obs, reward, terminated, truncated, info = env.step([1.0, 1.0])  # full lock left, full throttle
        if terminated:
            break
    assert terminated and (info["off_track"] or info["out_of_world"])
