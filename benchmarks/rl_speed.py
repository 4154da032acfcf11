"""Steps per second of the RL environments against raw engine actions per second.

    PYTHONPATH=. python benchmarks/rl_speed.py [--games N] [--rounds R] [--seed S]

For each configuration it measures, in rounds of back-to-back runs: the engine's random-play
speed (``glade.core.bench.run_bench``); the loop ``docs/rl.md`` shows (``last()`` then
``step(env.sample_legal())``, the ``documented loop`` figure); the AEC environment (``last()`` then a random legal
``step()`` per move, the choice read from the mask through a bool view, as docs/rl.md advises,
and again read straight from the int8 mask, the ``int8 mask read`` figure); and the batched
runner (64 games, one ``step`` per batch, the choice from ``runner.legal``). Each figure includes
choosing the random move, as the engine's does. Speeds are the best round's; ratios are the
medians of the rounds' ratios. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from glade.core.bench import run_bench
from glade.rl import VectorGames
from glade.rl.aec import GladeAECEnv
from glade.rl.encoders import make_encoder

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("harmonies", {"players": 1}),
    ("harmonies", {"players": 2}),
    ("harmonies", {"players": 4}),
    ("living-forest", {"players": 2}),
    ("living-forest", {"players": 4}),
]


def play_documented(env: GladeAECEnv, games: int, seed: int) -> int:
    """Play ``games`` games with the loop of ``docs/rl.md``: ``last()``, then ``step()`` with
    ``env.sample_legal()`` (or None once the agent is done); returns the moves played."""
    steps = 0
    for g in range(games):
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            _obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(env.sample_legal())
                steps += 1
    return steps


def documented_steps_per_s(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    """Full games with the documented loop, in steps per second."""
    env = GladeAECEnv(make_encoder(game, **options))
    start = time.perf_counter()
    steps = play_documented(env, games, seed)
    return steps / (time.perf_counter() - start)


def play_aec(env: GladeAECEnv, games: int, seed: int, bool_view: bool = True) -> int:
    """Play ``games`` games through the AEC interface: ``last()`` then a masked random
    ``step()``, the move read from the mask (through a bool view, as ``docs/rl.md`` advises, or
    straight from the int8 array); returns the moves played."""
    rng = random.Random(seed)
    steps = 0
    for g in range(games):
        env.reset(seed=seed + g)
        while env.agents:
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            legal = (mask.view(bool) if bool_view else mask).nonzero()[0]
            env.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def aec_steps_per_s(
    game: str, options: dict[str, Any], games: int, seed: int, bool_view: bool = True
) -> float:
    """Full games through the AEC interface, in steps per second."""
    env = GladeAECEnv(make_encoder(game, **options))
    start = time.perf_counter()
    steps = play_aec(env, games, seed, bool_view)
    return steps / (time.perf_counter() - start)


def vector_steps_per_s(
    game: str, options: dict[str, Any], games: int, seed: int, batch: int = 64
) -> float:
    """Batched runner until ``games`` games have finished."""
    runner = VectorGames(game, num_games=batch, seed=seed, **options)
    rng = random.Random(seed)
    runner.reset()
    steps = 0
    start = time.perf_counter()
    while len(runner.finished) < games:
        runner.step([rng.choice(ids) for ids in runner.legal])
        steps += batch
    return steps / (time.perf_counter() - start)


def measure(
    game: str, options: dict[str, Any], games: int, rounds: int, seed: int
) -> dict[str, Any]:
    """Rounds of engine, AEC (the agent reading the mask through a bool view, then straight from
    the int8 array) and runner back to back; the ratios are the medians of each round's ratios
    (the machine is shared, so a round's figures meet the same load), the speeds the best
    round's."""
    engine: list[float] = []
    aec: list[float] = []
    aec_int8: list[float] = []
    vec: list[float] = []
    documented: list[float] = []
    for _ in range(rounds):
        engine.append(run_bench(game, games, seed, options)["actions_per_s"])
        documented.append(documented_steps_per_s(game, options, games, seed))
        aec.append(aec_steps_per_s(game, options, games, seed))
        aec_int8.append(aec_steps_per_s(game, options, games, seed, bool_view=False))
        vec.append(vector_steps_per_s(game, options, games, seed))
    return {
        "game": game,
        "options": options,
        "engine_actions_per_s": round(max(engine)),
        "documented_steps_per_s": round(max(documented)),
        "documented_ratio": round(
            statistics.median(d / e for d, e in zip(documented, engine, strict=True)), 3
        ),
        "aec_steps_per_s": round(max(aec)),
        "aec_ratio": round(statistics.median(a / e for a, e in zip(aec, engine, strict=True)), 3),
        "aec_int8_read_ratio": round(
            statistics.median(a / e for a, e in zip(aec_int8, engine, strict=True)), 3
        ),
        "vector_steps_per_s": round(max(vec)),
        "vector_ratio": round(
            statistics.median(v / e for v, e in zip(vec, engine, strict=True)), 3
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="RL environment speed against the engine's.")
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of back-to-back runs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = []
    for game, options in CONFIGS:
        row = measure(game, options, args.games, args.rounds, args.seed)
        rows.append(row)
        print(
            f"{game} {options}: engine {row['engine_actions_per_s']:,}/s  "
            f"documented loop {row['documented_steps_per_s']:,}/s ({row['documented_ratio']:.0%})  "
            f"aec {row['aec_steps_per_s']:,}/s ({row['aec_ratio']:.0%}; "
            f"int8 mask read {row['aec_int8_read_ratio']:.0%})  "
            f"vector {row['vector_steps_per_s']:,}/s ({row['vector_ratio']:.0%})"
        )
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
