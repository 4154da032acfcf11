"""The compiled RL kernels: built and in use, and byte-identical to the pure-Python code."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import glade
from glade.rl import VectorGames, kernels
from glade.rl.aec import GladeAECEnv
from glade.rl.encoders import make_encoder
from glade.rl.harmonies_encoding import HarmoniesEncoder
from glade.rl.living_forest_encoding import LivingForestEncoder

HARMONIES = [
    {"players": 1, "side": "A", "spirits": True},
    {"players": 1, "side": "B", "spirits": False},
    {"players": 2, "side": "A", "spirits": False},
    {"players": 2, "side": "B", "spirits": True},
    {"players": 3, "side": "A", "spirits": True},
    {"players": 4, "side": "B", "spirits": False},
]


def test_the_compiled_kernels_are_built_and_used_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("GLADE_RL_PURE", raising=False)
    assert kernels.COMPILED, (
        "glade.rl._kernels is not built: `pip install -e .` compiles it (setup.py); "
        "without it every RL speed figure measures the pure-Python fallback"
    )
    compiled = kernels.compiled_module()
    assert compiled.__file__ is not None and not compiled.__file__.endswith(".py")
    source = Path(kernels.__file__).with_name("_kernels.pyx")
    assert Path(compiled.__file__).stat().st_mtime >= source.stat().st_mtime, (
        f"{compiled.__file__} is older than {source.name}: rebuild it (`pip install -e .`)"
    )
    assert isinstance(HarmoniesEncoder(2).kernel, compiled.HarmoniesKernel)
    assert isinstance(LivingForestEncoder(3).kernel, compiled.LivingForestKernel)
    runner = VectorGames("living-forest", num_games=2, players=2)
    assert runner.compiled and runner._k is compiled
    env = GladeAECEnv(make_encoder("harmonies", players=2))
    assert env._seat_view is compiled.seat_view and env._play is compiled.play
    assert isinstance(env, compiled.AECCore)  # last() and step() run compiled


def test_the_pure_python_path_can_be_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    assert HarmoniesEncoder(2, compiled=False).kernel is None
    monkeypatch.setenv("GLADE_RL_PURE", "1")
    assert make_encoder("living-forest", players=2).kernel is None  # type: ignore[attr-defined]
    assert not VectorGames("harmonies", num_games=1, players=1).compiled
    monkeypatch.delenv("GLADE_RL_PURE")
    assert not VectorGames("harmonies", num_games=1, players=1, compiled=False).compiled
    assert VectorGames("living-forest", num_games=1, compiled=True).compiled


def _pair(game: str, options: dict[str, Any]) -> tuple[Any, Any]:
    if game == "harmonies":
        return HarmoniesEncoder(**options, compiled=True), HarmoniesEncoder(
            **options, compiled=False
        )
    return LivingForestEncoder(**options, compiled=True), LivingForestEncoder(
        **options, compiled=False
    )


def _play_both(game: str, options: dict[str, Any], min_steps: int, seed: int) -> int:
    """Random games, until ``min_steps`` moves were played, seen through both encoders (reused
    across games, as the environments do); every seat's observation is compared after every
    move (even games) or only now and then (odd games)."""
    rng = random.Random(seed)
    fast, slow = _pair(game, {k: v for k, v in options.items()})
    game_options = {k: v for k, v in options.items() if k != "live_scores"}
    steps = 0
    out = np.empty(fast.size, dtype=np.float32)
    g = 0
    while steps < min_steps:
        state = glade.new_game(game, seed=seed + g, **game_options)
        fast.reset(state)
        slow.reset(state)
        every_step = g % 2 == 0  # odd games: several moves between two observations
        while True:
            if every_step or rng.random() < 0.3 or state.is_over:
                for seat in range(state.num_players):
                    want = slow.observe(seat)
                    got = fast.observe(seat)
                    assert got.dtype == np.float32 and got.shape == want.shape
                    assert got.tobytes() == want.tobytes(), (game, options, g, steps, seat)
                    fast.observe(seat, out=out)
                    assert out.tobytes() == want.tobytes()
            if state.is_over:
                break
            seat = state.to_act[0]
            code = rng.choice(state.legal_action_ids(seat))
            state.apply_action_id(seat, code, checked=True)
            fast.after(seat, code)
            slow.after(seat, code)
            steps += 1
        g += 1
    return g


@pytest.mark.parametrize("options", HARMONIES)
def test_harmonies_compiled_observations_equal_the_python_ones(options: dict[str, Any]) -> None:
    assert _play_both("harmonies", options, min_steps=1500, seed=70) >= 2


def test_harmonies_live_scores_compiled_equal_the_python_ones() -> None:
    options = {"players": 2, "side": "A", "spirits": True, "live_scores": True}
    assert _play_both("harmonies", options, min_steps=600, seed=5) >= 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_living_forest_compiled_observations_equal_the_python_ones(players: int) -> None:
    assert _play_both("living-forest", {"players": players}, min_steps=3000, seed=90) >= 2


def test_masks_and_batch_action_checks_equal_the_python_ones() -> None:
    compiled = kernels.compiled_module()
    rng = random.Random(3)
    for n in (1, 7, 210, 1130):
        for _ in range(50):
            ids = sorted(rng.sample(range(n), rng.randint(0, min(n, 40))))
            got = compiled.legal_mask(ids, n)
            assert got.dtype == np.int8 and got.tobytes() == kernels.legal_mask(ids, n).tobytes()
        legal = [sorted(rng.sample(range(n), rng.randint(1, min(n, 20)))) for _ in range(9)]
        a = np.full((9, n), 7, dtype=np.int8)
        b = np.full((9, n), 7, dtype=np.int8)
        compiled.fill_masks(a, legal)
        kernels.fill_masks(b, legal)
        assert np.array_equal(a, b) and a.sum() == sum(len(ids) for ids in legal)
        ok = [rng.choice(ids) for ids in legal]
        cases: list[list[Any]] = [ok, ok[:-1], [*ok[:-1], True], [*ok[:-1], 1.0], [-1, *ok[1:]]]
        cases.append([*ok[:-1], n])
        for i in range(9):
            if len(legal[i]) < n:
                bad = next(c for c in range(n) if c not in legal[i])
                cases.append([*ok[:i], bad, *ok[i + 1 :]])
        for codes in cases:
            assert compiled.first_illegal(codes, a) == kernels.first_illegal(codes, b), codes


def test_seat_view_and_play_equal_the_python_ones() -> None:
    """The AEC environment's two per-move calls: the same legal moves, arrays and next seats
    compiled or not; a move outside the legal list returns -2 and changes nothing."""
    compiled = kernels.compiled_module()
    rng = random.Random(8)
    for game, options in (("harmonies", {"players": 3}), ("living-forest", {"players": 2})):
        fast = make_encoder(game, **options, compiled=True)
        slow = make_encoder(game, **options, compiled=False)
        a = glade.new_game(game, seed=31, **options)
        b = glade.new_game(game, seed=31, **options)
        fast.reset(a)
        slow.reset(b)
        n = fast.n_actions
        moves = 0
        while not a.is_over:
            seat = a.to_act[0]
            legal, view = compiled.seat_view(fast.kernel, a, seat, n)
            legal2, view2 = kernels.seat_view(slow, b, seat, n)
            assert legal == legal2
            for key in ("observation", "action_mask"):
                assert view[key].tobytes() == view2[key].tobytes()
            if moves % 10 == 0:
                illegal = next(c for c in range(n) if c not in legal)
                before = a.fingerprint()
                assert compiled.play(fast.kernel, a, seat, illegal, legal) == -2
                assert kernels.play(slow, b, seat, illegal, legal2) == -2
                assert a.fingerprint() == before == b.fingerprint()
            code = rng.choice(legal)
            following = compiled.play(fast.kernel, a, seat, code, legal)
            assert following == kernels.play(slow, b, seat, code, legal2)
            assert following == (a.to_act[0] if not a.is_over else -1)
            moves += 1
        assert moves > 50 and b.is_over
        with pytest.raises(ValueError, match="there is no seat"):
            compiled.seat_view(fast.kernel, a, fast.players, n)


def _run_vector(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch, pure: bool
) -> list[Any]:
    if pure:
        monkeypatch.setenv("GLADE_RL_PURE", "1")
    else:
        monkeypatch.delenv("GLADE_RL_PURE", raising=False)
    runner = VectorGames(game, num_games=5, seed=11, **options)
    assert runner.compiled is not pure
    rng = random.Random(4)
    trace: list[Any] = [runner.reset()]
    while len(runner.finished) < 6:
        actions = [rng.choice(ids) for ids in runner.legal]
        if rng.random() < 0.5:
            actions = np.array(actions, dtype=np.int64)  # type: ignore[assignment]
        trace.append(runner.step(actions))
    trace.append(runner.finished)
    return trace


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("harmonies", {"players": 1}),
        ("harmonies", {"players": 3}),
        ("living-forest", {"players": 4}),
    ],
)
def test_the_batched_runner_gives_the_same_arrays_compiled_or_not(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _run_vector(game, options, monkeypatch, pure=False)
    slow = _run_vector(game, options, monkeypatch, pure=True)
    assert fast[-1] == slow[-1] and len(fast[-1]) > 0  # the same games finished, same results
    for got, want in zip(fast[:-1], slow[:-1], strict=True):
        for a, b in zip(got, want, strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_every_batched_observation_is_a_fresh_array() -> None:
    runner = VectorGames("living-forest", num_games=3, seed=2, players=2)
    obs, masks, _seats = runner.reset()
    kept_obs, kept_masks = obs.copy(), masks.copy()
    obs2, masks2, *_ = runner.step([ids[0] for ids in runner.legal])
    assert not np.shares_memory(obs, obs2) and not np.shares_memory(masks, masks2)
    assert np.array_equal(obs, kept_obs) and np.array_equal(masks, kept_masks)
    masks2[:] = 1  # scribbling on a returned mask does not make an illegal move legal
    illegal = next(c for c in range(runner.n_actions) if c not in runner.legal[0])
    with pytest.raises(glade.IllegalAction):
        runner.step([illegal, *(ids[0] for ids in runner.legal[1:])])


def test_aec_observations_are_fresh_and_identical_compiled_or_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for game, options in (("harmonies", {"players": 2}), ("living-forest", {"players": 3})):
        monkeypatch.delenv("GLADE_RL_PURE", raising=False)
        fast = GladeAECEnv(make_encoder(game, **options))
        monkeypatch.setenv("GLADE_RL_PURE", "1")
        slow = GladeAECEnv(make_encoder(game, **options))
        rng = random.Random(6)
        for env in (fast, slow):
            env.reset(seed=21)
        steps = 0
        while fast.agents:
            agent = fast.agent_selection
            assert agent == slow.agent_selection
            a, b = fast.observe(agent), slow.observe(agent)
            again = fast.observe(agent)
            assert not np.shares_memory(a["observation"], again["observation"])
            assert not np.shares_memory(a["action_mask"], again["action_mask"])
            for key in ("observation", "action_mask"):
                assert a[key].tobytes() == b[key].tobytes()
            if fast.terminations[agent]:
                fast.step(None)
                slow.step(None)
                continue
            a["action_mask"][:] = 1  # the user's copy: changing it changes nothing inside
            action = rng.choice(np.flatnonzero(b["action_mask"]).tolist())
            fast.step(action)
            slow.step(action)
            steps += 1
        assert steps > 50 and not slow.agents


def test_the_kernels_refuse_a_seat_that_is_not_in_the_game() -> None:
    for encoder in (HarmoniesEncoder(2, compiled=True), LivingForestEncoder(3, compiled=True)):
        state = glade.new_game(encoder.game_name, seed=1, **encoder.options)
        encoder.reset(state)
        before = encoder.observe(0)
        for seat in (-1, encoder.players, 31):
            with pytest.raises(ValueError, match="there is no seat"):
                encoder.observe(seat)
            with pytest.raises(ValueError, match="there is no seat"):
                encoder.after(seat, 0)
        assert encoder.observe(0).tobytes() == before.tobytes()
    unbound = LivingForestEncoder(2, compiled=True)
    with pytest.raises(RuntimeError, match="reset"):
        unbound.observe(0)


# A whole episode of each game, as a user without a C compiler plays it: the compiled module
# cannot be imported, so the encoders, masks and the AEC environment's last()/step() all run
# in Python. It prints what was seen; the test compares it with the compiled path.
_EPISODE = """
import hashlib, json, random, sys
import numpy as np
if sys.argv[1] == "pure":
    sys.modules["glade.rl._kernels"] = None  # as if it had never been built
from pettingzoo.test import api_test
from glade.rl import harmonies_v0, kernels, living_forest_v0
from glade.rl.aec import GladeAECEnv
seen = {"compiled": kernels.COMPILED, "core": [c.__name__ for c in GladeAECEnv.__mro__][1]}
for name, make in (("harmonies", lambda: harmonies_v0.env(players=2, spirits=True)),
                   ("living-forest", lambda: living_forest_v0.env(players=3))):
    api_test(make(), num_cycles=30)
    env, rng, digest, steps = make(), random.Random(4), hashlib.sha256(), 0
    env.reset(seed=12)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        digest.update(repr((agent, reward, terminated, truncated, info)).encode())
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    seen[name] = [steps, digest.hexdigest()]
print(json.dumps(seen))
"""


def test_the_pure_python_aec_protocol_plays_the_same_episodes_as_the_compiled_one() -> None:
    runs = {}
    for mode in ("pure", "compiled"):
        done = subprocess.run(
            [sys.executable, "-c", _EPISODE, mode],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        runs[mode] = json.loads(done.stdout.strip().splitlines()[-1])
    assert runs["pure"]["compiled"] is False and runs["pure"]["core"] == "_PythonCore"
    assert runs["compiled"]["compiled"] is True and runs["compiled"]["core"] == "AECCore"
    for game in ("harmonies", "living-forest"):
        assert runs["pure"][game][0] > 50  # a whole game, to its end
        assert runs["pure"][game] == runs["compiled"][game]
