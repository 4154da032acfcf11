"""Random-play throughput of any game (``glade bench``): games/s, actions/s, copy cost."""

from __future__ import annotations

import random
import time
from typing import Any

from .chance import choice
from .compiled import status
from .game import Game


def play_random(
    name: str, games: int, seed: int, options: dict[str, Any], keep: int = 0
) -> tuple[int, list[float], list[Game]]:
    """Random play of ``games`` games: (actions played, final scores, up to ``keep`` mid-game
    states). The loop every throughput figure is measured with (``glade bench``, the RL speed
    benchmark): the same choice of seat and move, and one copy of the state in mid-game."""
    from .registry import new_game

    rng = random.Random(seed)
    actions = 0
    scores: list[float] = []
    snapshots: list[Game] = []
    for i in range(games):
        game = new_game(name, seed=seed + i, **options)
        mid = rng.randrange(20, 60)
        n = 0
        while not game.is_over:
            to_act = game.to_act
            seat = to_act[0] if len(to_act) == 1 else choice(rng, to_act)
            ids = game.legal_action_ids(seat)
            if not ids:  # a seat that may only undo (to_act[0] always has a move)
                seat = to_act[0]
                ids = game.legal_action_ids(seat)
            game.apply_action_id(seat, choice(rng, ids), checked=True)
            n += 1
            if n == mid:
                if len(snapshots) < keep:
                    snapshots.append(game)  # the copy timing uses states from mid-game
                game = game.copy()
        actions += n
        scores.extend(game.result()["scores"])
    return actions, scores, snapshots


def run_bench(name: str, games: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    start = time.perf_counter()
    actions, scores, snapshots = play_random(name, games, seed, options, keep=200)
    elapsed = time.perf_counter() - start
    reps = 0
    t0 = time.perf_counter()
    while reps < 2000 and snapshots:
        for snap in snapshots:
            snap.copy()
            reps += 1
    copy_us = (time.perf_counter() - t0) / reps * 1e6 if reps else 0.0
    return {
        "game": name,
        "options": options,
        "games": games,
        "seed": seed,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "actions_per_game": round(actions / games, 1),
        "copy_us": round(copy_us, 2),
        "mean_score": round(sum(scores) / len(scores), 2) if scores else 0.0,
        "engines": status(),
    }
