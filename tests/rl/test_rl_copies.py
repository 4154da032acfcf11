"""Every environment pickles, cloud-pickles and deep-copies, and the copy continues exactly.

Each test plays an environment some random legal moves, copies it three ways (``pickle``,
``cloudpickle``, ``copy.deepcopy``) at several points of a game (the start, the middle of a turn,
late), then plays the original and every copy on with the same actions and compares everything
each step gives (observations, masks, rewards, terminations, infos, the random moves each
environment's own generator draws), into the next unseeded game, whose seed comes from a
generator the copy must carry too. The same tests run on the plain source (``GLADE_PURE=1`` and
``GLADE_RL_PURE=1``) in a subprocess, ``test_the_plain_build_passes_these_tests`` (there without
the cloudpickle cases: cloudpickle goes through the same ``__reduce__`` as pickle).
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cloudpickle
import gymnasium
import numpy as np
import pytest

import glade.rl
from glade.core import compiled
from glade.rl import VectorGames, harmonies_v0, living_forest_v0
from glade.rl.kernels import use_compiled

ROOT = Path(__file__).resolve().parents[2]
PURE = bool(os.environ.get(compiled.ENV))

COPIERS: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "cloudpickle": lambda env: cloudpickle.loads(cloudpickle.dumps(env)),
    "deepcopy": copy.deepcopy,
}


def same(a: Any, b: Any) -> None:
    """``a`` and ``b`` hold the same values (arrays: dtype and bytes), recursively."""
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape
        if a.dtype == object:  # (a vector env's final observations and infos)
            for x, y in zip(a.tolist(), b.tolist(), strict=True):
                same(x, y)
        else:
            assert a.tobytes() == b.tobytes()
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b)
        for key in a:
            same(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    else:
        assert type(a) is type(b) and a == b, (a, b)


# ---------------------------------------------------------------------- AEC
def aec_steps(env: Any, rng: random.Random, count: int) -> list[Any]:
    """``count`` AEC steps (dead steps and unseeded resets included), and what each gave."""
    out: list[Any] = []
    for _ in range(count):
        if not env.agents:
            env.reset()
            out.append(("reset", env.game.fingerprint()))
            continue
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            out.append(("dead", reward))
            continue
        drawn = env.sample_legal()  # the env's own generator, carried by the copy
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert drawn in legal
        action = rng.choice(legal)
        env.step(action)
        out.append((env.agent_selection, obs, reward, info, drawn, action, env.state()))
    return out


AEC_CASES = [
    (harmonies_v0, {"players": 1}, 5),
    (harmonies_v0, {"players": 2, "spirits": True}, 3),
    (harmonies_v0, {"players": 3, "side": "B", "reward": "shaped"}, 11),
    (harmonies_v0, {"players": 2, "normalize": True, "max_cycles": 60}, 2),
    (living_forest_v0, {"players": 2}, 40),
    (living_forest_v0, {"players": 3, "reward": "shaped", "normalize": True}, 9),
]


@pytest.mark.parametrize("module,options,first", AEC_CASES)
@pytest.mark.parametrize("how", list(COPIERS))
def test_an_aec_copy_continues_exactly(module: Any, options: Any, first: int, how: str) -> None:
    env = module.env(**options)
    env.reset(seed=first)
    rng = random.Random(first)
    length = 260 if module is harmonies_v0 else 900
    resets = 0
    for played in (0, first, 3 * first + 1):  # the start, a few moves in, later
        aec_steps(env, rng, played)
        twin = COPIERS[how](env)
        assert twin is not env and twin.game is not env.game
        assert twin.game.fingerprint() == env.game.fingerprint()
        state = rng.getstate()
        ahead = aec_steps(env, rng, length)
        rng.setstate(state)
        same(aec_steps(twin, rng, length), ahead)
        resets += sum(step[0] == "reset" for step in ahead)
    assert resets, "the runs reach an unseeded reset"


def test_an_unreset_aec_env_and_its_clone() -> None:
    env = harmonies_v0.env(players=2)
    twin = env.clone()
    twin.reset(seed=4)
    env.reset(seed=4)
    assert twin.game.fingerprint() == env.game.fingerprint()


# ---------------------------------------------------------------------- parallel
def parallel_steps(env: Any, rng: random.Random, count: int) -> list[Any]:
    out: list[Any] = []
    observations = env._views or {}
    for _ in range(count):
        if not env.agents:
            observations, infos = env.reset()
            out.append(("reset", observations, infos))
            continue
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"]).tolist()
            actions[agent] = rng.choice(legal) if legal else 0
        result = env.step(actions)
        observations = result[0]
        out.append((actions, *result, env.state()))
    return out


@pytest.mark.parametrize(
    "module,options", [(harmonies_v0, {"players": 2}), (living_forest_v0, {"players": 3})]
)
@pytest.mark.parametrize("how", list(COPIERS))
def test_a_parallel_copy_continues_exactly(module: Any, options: Any, how: str) -> None:
    env = module.parallel_env(**options)
    env.reset(seed=11)
    rng = random.Random(2)
    length = 150 if module is harmonies_v0 else 1000
    resets = 0
    for played in (0, 13, 40):
        parallel_steps(env, rng, played)
        twin = COPIERS[how](env)
        assert twin.aec_env is not env.aec_env
        state = rng.getstate()
        ahead = parallel_steps(env, rng, length)
        rng.setstate(state)
        same(parallel_steps(twin, rng, length), ahead)
        resets += sum(step[0] == "reset" for step in ahead)
    assert resets, "the runs reach an unseeded reset"


# ---------------------------------------------------------------------- Gymnasium
def gym_steps(env: Any, rng: random.Random, count: int) -> list[Any]:
    out: list[Any] = []
    done = env.unwrapped.game.is_over
    for _ in range(count):
        if done:
            out.append(("reset", *env.reset()))
            done = False
            continue
        mask = env.unwrapped.action_masks()
        drawn = env.unwrapped.sample_legal()
        assert mask[drawn]
        action = rng.choice(np.flatnonzero(mask).tolist())
        if rng.random() < 0.05:  # now and then an illegal action, refused
            action = int(np.flatnonzero(~mask)[0])
        result = env.step(action)
        done = result[2] or result[3]
        out.append((drawn, action, *result))
    return out


GYM_CASES = [
    (glade.rl.SOLO_ID, {}),
    (glade.rl.SOLO_ID, {"spirits": True, "normalize": True}),
    (glade.rl.HARMONIES_VS_BOTS_ID, {"opponents": ("greedy",), "reward": "shaped"}),
    (glade.rl.HARMONIES_VS_BOTS_ID, {"players": 3, "opponents": ("random", "greedy")}),
    (glade.rl.LIVING_FOREST_VS_BOTS_ID, {"opponents": ("greedy",)}),
]


@pytest.mark.parametrize("env_id,kwargs", GYM_CASES)
@pytest.mark.parametrize("how", list(COPIERS))
def test_a_gymnasium_copy_continues_exactly(env_id: str, kwargs: Any, how: str) -> None:
    env = gymnasium.make(env_id, **kwargs)
    env.reset(seed=5)
    rng = random.Random(3)
    length = 120 if "Living" not in env_id else 600
    resets = 0
    for played in (0, 9, 30):
        gym_steps(env, rng, played)
        twin = COPIERS[how](env)
        assert twin.unwrapped is not env.unwrapped
        state = rng.getstate()
        ahead = gym_steps(env, rng, length)
        rng.setstate(state)
        same(gym_steps(twin, rng, length), ahead)
        resets += sum(step[0] == "reset" for step in ahead)
    assert resets, "the runs reach an unseeded reset"


def test_a_policy_opponent_needs_cloudpickle() -> None:
    """A policy function defined in a test pickles with cloudpickle (plain pickle refuses a
    local function, as it does any), and the copy's opponent plays as the original's."""
    picks = random.Random(0)

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[picks.randrange(int(mask.sum()))])

    env = glade.rl.OpponentsEnv("harmonies", players=2, opponents=(policy,))
    env.reset(seed=1)
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(env)
    twin = cloudpickle.loads(cloudpickle.dumps(env))
    rng = random.Random(9)
    state = rng.getstate()
    ahead = gym_steps(env, rng, 80)
    rng.setstate(state)
    same(gym_steps(twin, rng, 80), ahead)


# ---------------------------------------------------------------------- vector envs
def vector_steps(env: Any, rng: random.Random, count: int) -> list[Any]:
    out: list[Any] = []
    for _ in range(count):
        masks = env.call("action_masks")
        actions = np.array([rng.choice(np.flatnonzero(m).tolist()) for m in masks])
        out.append((actions, *env.step(actions)))
    return out


@pytest.mark.parametrize("how", list(COPIERS))
def test_a_gymnasium_vector_env_copy_continues_exactly(how: str) -> None:
    env = gymnasium.make_vec(glade.rl.HARMONIES_VS_BOTS_ID, num_envs=3, opponents=("greedy",))
    env.reset(seed=[1, 2, 3])
    rng = random.Random(4)
    vector_steps(env, rng, 20)
    twin = COPIERS[how](env)
    state = rng.getstate()
    ahead = vector_steps(env, rng, 100)  # past the end of the first games: autoresets
    rng.setstate(state)
    same(vector_steps(twin, rng, 100), ahead)
    assert any(step[2].any() for step in ahead), "games ended and were reset"


def runner_steps(runner: VectorGames, rng: random.Random, count: int) -> list[Any]:
    out: list[Any] = []
    for _ in range(count):
        actions = [rng.choice(legal) for legal in runner.legal]
        out.append((actions, *runner.step(actions), list(runner.finished)))
    return out


@pytest.mark.parametrize("game,players", [("harmonies", 2), ("living-forest", 2)])
@pytest.mark.parametrize("how", list(COPIERS))
def test_a_batched_runner_copy_continues_exactly(game: str, players: int, how: str) -> None:
    runner = VectorGames(game, num_games=3, seed=7, players=players)
    runner.reset()
    rng = random.Random(6)
    runner_steps(runner, rng, 37)
    twin = COPIERS[how](runner)
    assert twin.compiled == runner.compiled == use_compiled(None)
    state = rng.getstate()
    length = 250 if game == "harmonies" else 1200
    ahead = runner_steps(runner, rng, length)
    rng.setstate(state)
    same(runner_steps(twin, rng, length), ahead)
    assert runner.finished, "games finished and were replaced"


# ---------------------------------------------------------------------- the plain build
@pytest.mark.skipif(PURE, reason="this is the run on the plain source")
def test_the_plain_build_passes_these_tests() -> None:
    """The tests above, on the plain source of the engines and the RL kernels' Python twins."""
    env = {**os.environ, compiled.ENV: "1", "GLADE_RL_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist"]
        + [str(Path(__file__)), "-k", "not plain_build and not cloudpickle and not one_build"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    # pyproject's addopts give one -q, so the summary line says "N passed"
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary


CROSS = """
import pickle, sys
import numpy as np
env = pickle.loads(sys.stdin.buffer.read())
out = []
for _ in range(40):
    obs, reward, terminated, truncated, info = env.last()
    out.append((obs["observation"].tobytes().hex(), obs["action_mask"].tobytes().hex(), reward))
    env.step(None if terminated or truncated else env.sample_legal())
print(repr(out))
"""


@pytest.mark.skipif(PURE, reason="this is the run on the plain source")
@pytest.mark.parametrize("module", [harmonies_v0, living_forest_v0])
def test_a_pickle_of_one_build_continues_in_the_other(module: Any) -> None:
    """An AEC env pickled here (compiled) and unpickled on the plain source plays on the same."""
    env = module.env(players=2)
    env.reset(seed=12)
    aec_steps(env, random.Random(1), 25)
    data = pickle.dumps(env)
    here = []
    for _ in range(40):
        obs, reward, terminated, truncated, _ = env.last()
        here.append(
            (obs["observation"].tobytes().hex(), obs["action_mask"].tobytes().hex(), reward)
        )
        env.step(None if terminated or truncated else env.sample_legal())
    plain = {**os.environ, compiled.ENV: "1", "GLADE_RL_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CROSS], input=data, cwd=ROOT, env=plain, capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().strip() == repr(here)
