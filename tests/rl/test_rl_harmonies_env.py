"""The Harmonies PettingZoo environment: API conformance, masks vs the engine, seeding, errors."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from rl_support import check_masks_against_engine

import glade
from glade import IllegalAction
from glade.core import BadInput
from glade.rl import harmonies_v0
from glade.rl.harmonies_encoding import HarmoniesEncoder


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 2},
        {"players": 3, "side": "B"},
        {"players": 4, "spirits": True},
        {"players": 1, "side": "B", "spirits": True},
    ],
)
def test_pettingzoo_api_test_passes(options: dict) -> None:
    env = harmonies_v0.env(**options)
    api_test(env, num_cycles=150)
    assert env.possible_agents == [f"player_{i}" for i in range(options["players"])]


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: harmonies_v0.env(players=2, spirits=True), num_cycles=60)


def play(env: harmonies_v0.raw_env, seed: int, steps: int) -> list:
    """Masked random play from a seeded reset; returns everything observed."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter(steps):
        obs, reward, terminated, truncated, _ = env.last()
        seen.append(
            (agent, obs["observation"].copy(), obs["action_mask"].copy(), reward, terminated)
        )
        action = (
            None
            if terminated or truncated
            else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        )
        env.step(action)
    return seen


def test_seeding_reproduces_episodes_exactly() -> None:
    a = play(harmonies_v0.env(players=3, spirits=True), 5, 400)
    b = play(harmonies_v0.env(players=3, spirits=True), 5, 400)
    assert len(a) == len(b) > 100
    for x, y in zip(a, b, strict=True):
        assert x[0] == y[0] and x[3] == y[3] and x[4] == y[4]
        assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])
    c = play(harmonies_v0.env(players=3, spirits=True), 6, 400)
    assert any(not np.array_equal(x[1], y[1]) for x, y in zip(a, c, strict=False))


def test_reset_seed_is_the_game_seed_and_unseeded_resets_follow_the_first_seed() -> None:
    env = harmonies_v0.env(players=2)
    env.reset(seed=42)
    assert env.game is not None
    assert env.game.fingerprint() == glade.new_game("harmonies", seed=42, players=2).fingerprint()
    env.reset()
    first = env.game.fingerprint()
    again = harmonies_v0.env(players=2)
    again.reset(seed=42)
    again.reset()
    assert again.game is not None and again.game.fingerprint() == first


@pytest.mark.parametrize(
    "options", [{"players": 1, "spirits": True}, {"players": 2, "side": "B"}, {"players": 4}]
)
def test_masks_match_the_engine_over_thousands_of_random_steps(options: dict) -> None:
    env = harmonies_v0.env(**options)
    steps = check_masks_against_engine(env, random.Random(3), first_seed=1000, samples=25)
    assert steps >= 1500


def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing() -> None:
    env = harmonies_v0.env(players=2)
    env.reset(seed=9)
    assert env.game is not None
    before = env.game.fingerprint()
    obs, *_ = env.last()
    space = env.game.space
    assert obs["action_mask"][space.END] == 0
    with pytest.raises(
        IllegalAction, match="take the tokens of one central space first|must take the tokens"
    ):
        env.step(space.END)
    with pytest.raises(IllegalAction, match="no action 99999"):
        env.step(99999)
    with pytest.raises(IllegalAction, match="must choose an action"):
        env.step(None)
    with pytest.raises(IllegalAction, match="index"):
        env.step(True)
    with pytest.raises(IllegalAction, match="index"):
        env.step(1.5)
    for outside in (2**70, -1, np.int64(-1), np.int64(len(obs["action_mask"]))):
        with pytest.raises(IllegalAction, match="no action"):
            env.step(outside)
    with pytest.raises(IllegalAction, match="cannot play action"):
        env.step(np.int64(space.END))  # in range, not legal: the reason, whatever its type
    with pytest.raises(IllegalAction, match="cannot play action"):
        env.step(np.int32(space.END))
    assert env.game.fingerprint() == before
    assert env.agent_selection == "player_0"
    env.step(np.int64(space.TAKE + 2))  # numpy integers are accepted
    assert env.game.took


def test_bad_configuration_is_refused_in_a_sentence() -> None:
    with pytest.raises(BadInput, match="1 to 4 players"):
        harmonies_v0.env(players=5)
    with pytest.raises(BadInput, match="unknown reward"):
        harmonies_v0.env(reward="elo")
    with pytest.raises(BadInput, match="at least 2 players"):
        harmonies_v0.env(players=1, reward="win_loss")
    with pytest.raises(BadInput, match="render mode"):
        harmonies_v0.env(render_mode="svg")
    with pytest.raises(BadInput, match="max_cycles"):
        harmonies_v0.env(max_cycles=0)
    with pytest.raises(BadInput, match="normalize"):
        harmonies_v0.env(normalize="yes")
    env = harmonies_v0.env()
    for seed in (-1, 2**63, "7", 1.0, True):
        with pytest.raises(BadInput, match="a seed is a whole number"):
            env.reset(seed=seed)
    env.reset(seed=np.int64(3))
    assert env.game is not None and env.game.seed == 3


def finish(env: harmonies_v0.raw_env, seed: int) -> dict:
    """Play a random game to the end; return the final cumulative reward of every agent."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, _, info = env.last()
        if terminated:
            final[agent] = (reward, info)
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return final


def test_rewards_come_at_the_end_in_every_mode() -> None:
    for mode in ("score_diff", "score", "win_loss"):
        env = harmonies_v0.env(players=3, reward=mode)
        final = finish(env, 21)
        scores = final["player_0"][1]["scores"]
        winners = np.flatnonzero(final["player_0"][1]["winners"]).tolist()
        assert set(final) == {"player_0", "player_1", "player_2"}
        for i in range(3):
            got = final[f"player_{i}"][0]
            if mode == "score":
                assert got == scores[i]
            elif mode == "score_diff":
                assert got == scores[i] - max(s for j, s in enumerate(scores) if j != i)
            else:
                assert got == ((1.0 if len(winners) == 1 else 0.0) if i in winners else -1.0)
    solo_env = harmonies_v0.env(players=1)
    solo = finish(solo_env, 4)
    assert solo["player_0"][0] == solo["player_0"][1]["scores"][0] > 0
    with pytest.raises(RuntimeError, match="every agent has left"):
        solo_env.step(0)
    with pytest.raises(KeyError, match="no agent 'player_9'"):
        solo_env.observe("player_9")


def test_observation_shows_nothing_hidden() -> None:
    """Two games that differ only in hidden information look the same to the seat."""
    game = glade.new_game("harmonies", seed=77, players=3, spirits=True)
    twin = game.copy()
    rng = random.Random(0)
    rng.shuffle(twin.pouch)  # same counts, other order
    rng.shuffle(twin.deck)
    assert twin.pouch != game.pouch and twin.deck != game.deck
    twin.boards[1].offer = tuple(c for c in range(32, 42) if c not in game.boards[1].offer)[:2]
    twin.boards[2].offer = tuple(reversed(game.boards[2].offer))
    for g, tw in ((game, twin),):
        a, b = HarmoniesEncoder(3, "A", True), HarmoniesEncoder(3, "A", True)
        a.reset(g)
        b.reset(tw)
        assert np.array_equal(a.observe(0), b.observe(0))
    # but the seat's own offer is visible to it
    mine = HarmoniesEncoder(3, "A", True)
    mine.reset(game)
    seg = mine.segment("board[me].spirit_offer")
    assert mine.observe(0)[seg.start : seg.stop].sum() == 2
    other = mine.segment("board[next1].spirit_offer")
    assert mine.observe(0)[other.start : other.stop].sum() == 0


def test_render_draws_the_table() -> None:
    env = harmonies_v0.env(players=2, render_mode="ansi")
    env.reset(seed=2)
    assert env.game is not None
    env.step(env.game.space.TAKE)
    color = env.game.hand[0]
    cell = env.game.space.layout.names.index("0,0")
    env.step(env.game.space.PLACE + color * env.game.space.n + cell)
    text = env.render()
    assert isinstance(text, str)
    assert "seat 0" in text and "seat 1" in text and "0,0" in text and "4,-2" in text
    letter = "WMTGYR"[color]
    assert f"[  {letter}  ]" in text
    assert "Harmonies" in text.splitlines()[0]
    quiet = harmonies_v0.env(players=2)
    quiet.reset(seed=2)
    assert quiet.render() is None  # no render mode: a warning, no text
