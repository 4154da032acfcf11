"""The single-agent Gymnasium environment glade/HarmoniesSolo-v0."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import glade
import glade.rl
from glade import IllegalAction
from glade.core import BadInput
from glade.rl import HarmoniesSoloEnv


@pytest.mark.parametrize("kwargs", [{}, {"side": "B", "spirits": True}])
def test_check_env_passes(kwargs: dict) -> None:
    check_env(HarmoniesSoloEnv(**kwargs))
    made = gymnasium.make("glade/HarmoniesSolo-v0", **kwargs)
    check_env(made.unwrapped)
    made.close()


def run(env: gymnasium.Env, seed: int) -> tuple[list, float, dict]:
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    trace = [obs]
    total = 0.0
    while True:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        trace.append(obs)
        total += reward
        if terminated:
            return trace, total, info


def test_rewards_add_up_to_the_final_score_and_seeding_repeats_the_game() -> None:
    env = gymnasium.make("glade/HarmoniesSolo-v0", spirits=True)
    trace, total, info = run(env, 17)
    assert total == info["score"] > 0
    assert info["suns"] == env.unwrapped.game.result()["suns"]
    again, total2, _ = run(env, 17)
    assert total2 == total and len(again) == len(trace)
    assert all(np.array_equal(a, b) for a, b in zip(trace, again, strict=True))
    game = env.unwrapped.game
    assert game.seed == 17 and game.is_over
    replay = glade.new_game("harmonies", seed=17, players=1, spirits=True)
    for seat, code, _ in game.log:
        replay.apply_action_id(seat, code)
    assert replay.result()["scores"] == [info["score"]]


def test_the_mask_in_info_is_the_engine_legal_set() -> None:
    env = HarmoniesSoloEnv()
    obs, info = env.reset(seed=3)
    rng = random.Random(0)
    for _ in range(40):
        game = env.game
        assert game is not None
        assert np.flatnonzero(info["action_mask"]).tolist() == sorted(game.legal_action_ids(0))
        obs, _, terminated, _, info = env.step(
            rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        )
        if terminated:
            break


def test_an_illegal_action_is_refused_or_raised_and_changes_nothing() -> None:
    env = HarmoniesSoloEnv()
    obs, info = env.reset(seed=5)
    assert env.game is not None
    before = env.game.fingerprint()
    end = env.game.space.END
    obs2, reward, terminated, truncated, info2 = env.step(end)
    assert reward == 0.0 and not terminated and not truncated
    assert info2["illegal_action"] is True and set(info2) == set(info)
    assert env.refusal is not None and "refused" in env.refusal and "central space" in env.refusal
    assert np.array_equal(obs, obs2) and env.game.fingerprint() == before
    strict = HarmoniesSoloEnv(illegal_action="raise")
    strict.reset(seed=5)
    with pytest.raises(IllegalAction, match="not legal"):
        strict.step(end)
    with pytest.raises(IllegalAction, match="numbered"):
        strict.step(-1)
    with pytest.raises(BadInput, match="illegal_action"):
        HarmoniesSoloEnv(illegal_action="punish")


def test_ansi_render_shows_the_solo_board() -> None:
    env = HarmoniesSoloEnv(render_mode="ansi", spirits=True)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "seat 0 (you)" in text and "choose:" in text
