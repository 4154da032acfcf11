"""Checks shared by the RL environment tests of both games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from glade.rl import harmonies_v0, living_forest_v0

# every env module and player count (with the options that change the encoding), for the
# library and parallel-env tests
CONFIGS = [
    (harmonies_v0, {"players": 1}),
    (harmonies_v0, {"players": 2}),
    (harmonies_v0, {"players": 3, "spirits": True}),
    (harmonies_v0, {"players": 4, "side": "B"}),
    (living_forest_v0, {"players": 2}),
    (living_forest_v0, {"players": 3}),
    (living_forest_v0, {"players": 4}),
]
IDS = [f"{m.__name__.split('.')[-1]}-{o['players']}p" for m, o in CONFIGS]


def check_masks_against_engine(
    env: Any, rng: random.Random, first_seed: int, samples: int, stop_mid_game: bool = False
) -> int:
    """Play random masked steps (at least 1,500, game after game from ``first_seed``) and check
    at each that every masked index is legal in the engine, every engine-legal action has its
    index, and ``samples`` random indices agree with the engine; returns the steps played.
    ``stop_mid_game``: stop as soon as 1,500 steps are played in a second game or later."""
    steps = 0
    games = 0
    while steps < 1500:
        env.reset(seed=first_seed + games)
        games += 1
        game = env.game
        assert game is not None
        table = game.action_table()
        for agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            assert seat in game.to_act
            mask = obs["action_mask"]
            masked = set(np.flatnonzero(mask).tolist())
            assert masked, "a seat to act always has a legal move"
            for code in masked:  # every masked-legal index is legal in the engine
                assert game.why_illegal(seat, code) is None
            for action in game.legal_actions(seat):  # every engine-legal action has a masked index
                if action.type != "undo":
                    assert game.action_id(action) in masked
                    assert table[game.action_id(action)] == action
            for code in rng.sample(range(len(mask)), samples):
                assert (game.why_illegal(seat, code) is None) == (code in masked)
            env.step(rng.choice(sorted(masked)))
            steps += 1
            if stop_mid_game and steps >= 1500 and games > 1:
                break
    return steps
