"""Steps per second of the RL environments against raw engine actions per second.

    PYTHONPATH=. python benchmarks/rl_speed.py [--games N] [--seed S]

For each configuration it prints the engine's random-play speed (``glade.core.bench.run_bench``),
the AEC environment's speed (``last()`` + masked random ``step()`` per move), the batched
runner's speed (64 games, one ``step`` per batch) and each ratio to the engine. The last line is
one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from glade.core.bench import run_bench
from glade.rl import VectorGames
from glade.rl.aec import GladeAECEnv
from glade.rl.encoders import make_encoder

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("harmonies", {"players": 1}),
    ("harmonies", {"players": 2}),
    ("harmonies", {"players": 4}),
]


def aec_steps_per_s(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    """Full games through the AEC interface: ``last()`` then a masked random ``step()``."""
    env = GladeAECEnv(make_encoder(game, **options))
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def vector_steps_per_s(
    game: str, options: dict[str, Any], games: int, seed: int, batch: int = 64
) -> float:
    """Batched runner: random legal actions chosen from the batched masks with numpy."""
    runner = VectorGames(game, num_games=batch, seed=seed, **options)
    rng = np.random.default_rng(seed)
    _obs, masks, _seats = runner.reset()
    steps = 0
    start = time.perf_counter()
    while len(runner.finished) < games:
        # a random legal index per row: argmax of random keys on the legal entries
        keys = rng.random(masks.shape, dtype=np.float32) * masks
        actions = keys.argmax(axis=1)
        _obs, masks, _seats, _rewards, _dones = runner.step(actions)
        steps += batch
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = []
    for game, options in CONFIGS:
        engine = run_bench(game, args.games, args.seed, options)["actions_per_s"]
        aec = aec_steps_per_s(game, options, args.games, args.seed)
        vec = vector_steps_per_s(game, options, args.games, args.seed)
        row = {
            "game": game,
            "options": options,
            "engine_actions_per_s": round(engine),
            "aec_steps_per_s": round(aec),
            "aec_ratio": round(aec / engine, 3),
            "vector_steps_per_s": round(vec),
            "vector_ratio": round(vec / engine, 3),
        }
        rows.append(row)
        print(
            f"{game} {options}: engine {engine:,.0f}/s  aec {aec:,.0f}/s ({aec / engine:.0%})  "
            f"vector {vec:,.0f}/s ({vec / engine:.0%})"
        )
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
