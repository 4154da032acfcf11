"""The compiled fast paths (agent_iter, sample_legal, normalised views, the solo env's step, the
parallel env's step) give exactly what the pure-Python paths give."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from glade.rl import harmonies_v0, kernels, living_forest_v0
from glade.rl.common import Normaliser
from glade.rl.encoders import make_encoder

# Seeded episodes of every fast path, played by the documented loops (sample_legal, with some
# unmasked actions for the solo env, which refuses them); prints a digest of everything seen.
_PLAY = """
import hashlib, json, sys
import numpy as np
if sys.argv[1] == "pure":
    sys.modules["glade.rl._kernels"] = None  # as if it had never been built
import gymnasium
import glade.rl
from glade.rl import harmonies_v0, kernels, living_forest_v0
from glade.rl.solo import HarmoniesSoloEnv

def feed(digest, *items):
    for item in items:
        if isinstance(item, dict):
            for key in sorted(item):
                feed(digest, key, item[key])
        elif isinstance(item, np.ndarray):
            digest.update(item.tobytes() + str(item.dtype).encode())
        else:
            digest.update(repr(item).encode())

seen = {"compiled": kernels.COMPILED, "solo core": HarmoniesSoloEnv.__mro__[1].__name__}
for name, make in (
    ("harmonies aec", lambda: harmonies_v0.env(players=3, normalize=True)),
    ("living-forest aec", lambda: living_forest_v0.env(players=2, normalize=True)),
):
    env, digest, steps = make(), hashlib.sha256(), 0
    env.reset(seed=21)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        feed(digest, agent, obs, reward, terminated, truncated, info)
        env.step(None if terminated or truncated else env.sample_legal())
        steps += 1
    seen[name] = [steps, digest.hexdigest()]
for name, make in (
    ("harmonies parallel", lambda: harmonies_v0.parallel_env(players=2, normalize=True)),
    ("living-forest parallel", lambda: living_forest_v0.parallel_env(players=3)),
    ("harmonies parallel 4p", lambda: harmonies_v0.parallel_env(players=4)),
    ("living-forest parallel 4p", lambda: living_forest_v0.parallel_env(players=4, normalize=True)),
):
    env, digest, steps = make(), hashlib.sha256(), 0
    for seed in (8, 9):
        observations, infos = env.reset(seed=seed)
        feed(digest, observations, infos)
        kept = None
        while env.agents:
            if steps % 3:  # the documented loop (its views come back two steps later)
                actions = env.sample_actions(observations)
            else:
                actions = {a: env.sample_legal(a, observations[a]) for a in env.agents}
            if steps % 11 == 0:  # now and then a step's output is kept a while (not recycled)
                kept = out if steps else None
            out = env.step(actions)
            feed(digest, actions, *out)
            if kept is not None and steps % 11 == 5:
                feed(digest, *kept)  # what was kept still shows its own step
                kept = None
            observations = out[0]
            steps += 1
    seen[name] = [steps, digest.hexdigest()]
for normalize in (False, True):
    env, digest, steps = gymnasium.make(glade.rl.SOLO_ID, normalize=normalize), hashlib.sha256(), 0
    for seed in (3, 4):
        feed(digest, *env.reset(seed=seed))
        while True:
            action = (steps * 37) % 1130 if steps % 5 == 0 else env.unwrapped.sample_legal()
            out = env.step(action)
            feed(digest, action, *out, env.unwrapped.refusal, env.unwrapped.action_masks())
            steps += 1
            if out[2] or out[3]:
                break
    seen[f"solo {normalize}"] = [steps, digest.hexdigest()]
print(json.dumps(seen))
"""


def test_the_fast_paths_play_the_same_episodes_as_the_pure_python_ones() -> None:
    runs = {}
    for mode in ("pure", "compiled"):
        done = subprocess.run(
            [sys.executable, "-c", _PLAY, mode],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        runs[mode] = json.loads(done.stdout.strip().splitlines()[-1])
    assert runs["pure"]["compiled"] is False and runs["pure"]["solo core"] == "_PythonCore"
    assert runs["compiled"]["compiled"] is True and runs["compiled"]["solo core"] == "SoloCore"
    for key, value in runs["pure"].items():
        if isinstance(value, list):
            assert value[0] > 40, key  # whole games, to their end
            assert value == runs["compiled"][key], key


@pytest.mark.skipif(not kernels.COMPILED, reason="the compiled kernels are not built")
def test_the_compiled_normaliser_gives_numpys_bytes() -> None:
    encoder = make_encoder("harmonies", players=2)
    normaliser = Normaliser(encoder)
    rng = np.random.default_rng(0)
    low, high = encoder.low.astype(np.float32), encoder.high.astype(np.float32)
    for _ in range(20):
        obs = (low + rng.random(encoder.size, dtype=np.float32) * (high - low)).astype(np.float32)
        obs[:5] = low[:5] - 3  # below the bounds: clipped to 0
        obs[5:10] = high[5:10] + 3  # above: clipped to 1
        fast = normaliser(obs)
        assert fast.dtype == np.float32 and fast.tobytes() == normaliser.numpy(obs).tobytes()
        assert fast.min() >= 0 and fast.max() <= 1
    as_float64 = normaliser(obs.astype(np.float64))  # not float32: NumPy's path, NumPy's result
    assert np.allclose(as_float64, normaliser.numpy(obs))
    with pytest.raises(ValueError, match="needs bounds"):
        kernels.compiled_module().normalise(obs[:10], normaliser.low, normaliser.scale)


def test_agent_iter_stops_as_pettingzoos_does() -> None:
    env = living_forest_v0.env(players=2)
    env.reset(seed=1)
    assert list(env.agent_iter(0)) == [] and list(env.agent_iter(-3)) == []
    agents = env.agent_iter(5)
    first = []
    for agent in agents:
        first.append(agent)
        env.step(env.sample_legal())
    assert len(first) == 5
    assert len(list(zip(range(3), iter(agents), strict=False))) == 3  # each iter() starts anew
    huge = env.agent_iter(10**30)  # beyond a C integer: still a limit no game reaches
    assert next(iter(huge)) == env.agent_selection
    odd = env.agent_iter(2.5)  # not a whole number: PettingZoo's own iterator
    assert len(list(zip(range(10), odd, strict=False))) == 3
    env.close()


def test_sample_legal_draws_legal_moves_and_refuses_without_a_game() -> None:
    env = harmonies_v0.env(players=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.sample_legal()
    env.reset(seed=3)
    for _ in range(40):
        obs, *_ = env.last()
        code = env.sample_legal()
        assert obs["action_mask"][code] == 1
        assert obs["action_mask"][env.sample_legal(obs["action_mask"])] == 1
        env.step(code)
    parallel = harmonies_v0.parallel_env(players=2)
    observations, infos = parallel.reset(seed=3)
    active = infos["player_0"]["active_agent"]
    for agent, observation in observations.items():
        code = parallel.sample_legal(agent, observation)
        assert code == 0 if agent != active else observation["action_mask"][code] == 1
        copy = {k: v.copy() for k, v in observation.items()}  # not the env's own: read its mask
        assert parallel.sample_legal(agent, copy) == 0 or agent == active


@pytest.mark.skipif(not kernels.COMPILED, reason="the compiled kernels are not built")
@pytest.mark.parametrize("normalize", [False, True])
def test_parallel_views_are_recycled_only_when_nobody_can_see_them(normalize: bool) -> None:
    import weakref

    env = living_forest_v0.parallel_env(players=4, normalize=normalize)
    observations, infos = env.reset(seed=5)
    watched: list[tuple[int, Any]] = []  # (step, weak reference to an array handed out)
    kept: list[tuple[np.ndarray, np.ndarray]] = []  # (array still held, its bytes then)
    recycled = 0
    for step in range(300):
        if not env.agents:
            break
        if step % 7 == 0:  # keep an observation, a mask, a NumPy view and an info dict
            agent = env.agents[step % len(env.agents)]
            view = observations[agent]
            kept.append((view["observation"], view["observation"].copy()))
            kept.append((view["action_mask"][::2], view["action_mask"][::2].copy()))
            kept.append((infos[agent]["scores"], infos[agent]["scores"].copy()))
            held_info = infos[agent]
            held_copy = dict(held_info)
        ids = {id(v["observation"]) for v in observations.values()}
        for _, ref in watched[-8:]:
            if id(ref()) in ids and ref() is not None:
                recycled += 1
        watched.extend((step, weakref.ref(v["observation"])) for v in observations.values())
        observations, _rewards, _terminations, _truncations, infos = env.step(
            env.sample_actions(observations)
        )
        for array, then in kept:  # nothing anyone holds is ever written again
            assert array.tobytes() == then.tobytes()
        if step % 7 == 3:
            assert held_info == held_copy  # a kept info dict keeps its step's values
    assert recycled > 100  # the documented loop's views do come back
    # whole mappings kept (a replay buffer of steps' outputs): never changed, entries included
    observations, infos = env.reset(seed=6)
    held: list[tuple[Any, dict[str, Any], dict[str, bytes]]] = []
    given: list[int] = []  # the id of each step's mapping
    again = 0
    for step in range(200):
        if not env.agents:
            break
        again += len(given) >= 2 and id(observations) == given[-2]
        given.append(id(observations))
        if step % 5 == 0:
            entries = dict(observations)
            data = {a: v["observation"].tobytes() for a, v in entries.items()}
            held.append((observations, entries, data))
        actions = env.sample_actions(observations)
        if step % 5 == 1:  # changed by its user, then dropped
            del observations["player_0"]
            observations["player_9"] = {"observation": np.zeros(3), "action_mask": np.zeros(3)}
        observations, _rewards, _terminations, _truncations, infos = env.step(actions)
        assert list(observations) == env.agents  # every agent's view, whatever was done above
        for mapping, entries, data in held:
            assert dict(mapping) == entries  # the same view objects, nothing added or removed
            for agent, view in entries.items():
                assert view["observation"].tobytes() == data[agent]
    assert again > 50, again  # the mappings nobody holds come back
    # a recycled view is a complete, current one: the same as a fresh view made now
    for agent, view in observations.items():
        env_views = env._views
        assert view is env_views[agent]
    from glade.rl.parallel import GladeParallelEnv

    fresh = GladeParallelEnv._full_observe_all(env)
    for agent, view in fresh.items():
        assert view["observation"].tobytes() == observations[agent]["observation"].tobytes()
        assert view["action_mask"].tobytes() == observations[agent]["action_mask"].tobytes()
