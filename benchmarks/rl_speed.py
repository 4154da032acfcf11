"""Steps per second of the RL environments against raw engine actions per second.

    PYTHONPATH=. python benchmarks/rl_speed.py [--games N] [--rounds R] [--seed S] [--clock C]

For each configuration it measures, in rounds of back-to-back runs: the engine's random-play
speed (the loop of ``glade.core.bench.run_bench``, ``glade bench``); the loop ``docs/rl.md``
shows for the AEC environment (``for agent in env.agent_iter()``, ``last()``, then
``step(env.sample_legal())``, the ``documented loop`` figure); the parallel environment's
documented loop (``actions = env.sample_actions(observations)``, one ``step`` for every agent
acting together: one move, or in Living Forest's draw phase every spirit still drawing; its
figure counts moves);
the AEC environment with the move read from the mask (through a bool view, as docs/rl.md
advises, and straight from the int8 mask, the ``int8 mask read`` figure); and the batched
runner (64 games, one ``step`` per batch, the choice from ``runner.legal``). For 1-player
Harmonies it also runs the Gymnasium environment made from the registered id
(``gymnasium.make("glade/HarmoniesSolo-v0")``, ``step(env.unwrapped.sample_legal())``), with
raw and with normalised observations. Each figure includes choosing the random move, as the
engine's does.

``--clock cpu`` (the default) times each run by the process's CPU time (``time.process_time``),
which other jobs on a shared machine disturb far less than wall time (``--clock wall``). Speeds
are the best round's; ratios are the medians of the rounds' ratios (each round runs the engine
and every loop back to back). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import gymnasium

import glade.rl
from glade.core.bench import play_random
from glade.rl import VectorGames
from glade.rl.aec import GladeAECEnv
from glade.rl.encoders import make_encoder
from glade.rl.parallel import GladeParallelEnv

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = time.process_time  # set by --clock

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("harmonies", {"players": 1}),
    ("harmonies", {"players": 2}),
    ("harmonies", {"players": 4}),
    ("living-forest", {"players": 2}),
    ("living-forest", {"players": 4}),
]


def engine_actions_per_s(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    """The engine's random play (the loop of ``glade bench``), timed by ``clock``."""
    start = clock()
    actions, _scores, _states = play_random(game, games, seed, options)
    return actions / (clock() - start)


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
    start = clock()
    steps = play_documented(env, games, seed)
    return steps / (clock() - start)


def parallel_steps_per_s(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    """Full games with the parallel environment's documented loop, in moves per second: a step
    plays every agent acting in it (several in Living Forest's draw phase), and every move
    applied counts (the game's log holds one entry per move)."""
    env = GladeParallelEnv(GladeAECEnv(make_encoder(game, **options)))
    moves = 0
    start = clock()
    for g in range(games):
        observations, _infos = env.reset(seed=seed + g)
        while env.agents:
            actions = env.sample_actions(observations)
            observations, _r, _te, _tr, _i = env.step(actions)
        game_state = env.aec_env.game
        assert game_state is not None
        moves += len(game_state.log)
    return moves / (clock() - start)


def solo_steps_per_s(games: int, seed: int, normalize: bool) -> float:
    """Full games of the registered Gymnasium solo env (``docs/rl.md``'s loop), steps per second."""
    env = gymnasium.make(glade.rl.SOLO_ID, normalize=normalize)
    sample = env.unwrapped.sample_legal  # type: ignore[attr-defined]
    steps = 0
    start = clock()
    for g in range(games):
        env.reset(seed=seed + g)
        while True:
            _obs, _reward, terminated, truncated, _info = env.step(sample())
            steps += 1
            if terminated or truncated:
                break
    return steps / (clock() - start)


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
    start = clock()
    steps = play_aec(env, games, seed, bool_view)
    return steps / (clock() - start)


def vector_steps_per_s(
    game: str, options: dict[str, Any], games: int, seed: int, batch: int = 64
) -> float:
    """Batched runner until ``games`` games have finished."""
    runner = VectorGames(game, num_games=batch, seed=seed, **options)
    rng = random.Random(seed)
    runner.reset()
    steps = 0
    start = clock()
    while len(runner.finished) < games:
        runner.step([rng.choice(ids) for ids in runner.legal])
        steps += batch
    return steps / (clock() - start)


def measure(
    game: str, options: dict[str, Any], games: int, rounds: int, seed: int
) -> dict[str, Any]:
    """Rounds of the engine and every loop back to back; the ratios are the medians of each
    round's ratios to that round's engine (the machine is shared, so a round's figures meet the
    same load), the speeds the best round's."""
    loops: dict[str, Any] = {
        "documented": lambda: documented_steps_per_s(game, options, games, seed),
        "parallel": lambda: parallel_steps_per_s(game, options, games, seed),
        "aec": lambda: aec_steps_per_s(game, options, games, seed),
        "aec_int8_read": lambda: aec_steps_per_s(game, options, games, seed, bool_view=False),
        "vector": lambda: vector_steps_per_s(game, options, games, seed),
    }
    if game == "harmonies" and options.get("players") == 1:
        loops["gym_solo"] = lambda: solo_steps_per_s(games, seed, normalize=False)
        loops["gym_solo_normalized"] = lambda: solo_steps_per_s(games, seed, normalize=True)
    engine: list[float] = []
    speeds: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(rounds):
        engine.append(engine_actions_per_s(game, options, games, seed))
        for name, loop in loops.items():
            speeds[name].append(loop())
    row: dict[str, Any] = {
        "game": game,
        "options": options,
        "engine_actions_per_s": round(max(engine)),
    }
    for name, values in speeds.items():
        row[f"{name}_steps_per_s"] = round(max(values))
        ratios = [v / e for v, e in zip(values, engine, strict=True)]
        row[f"{name}_ratio"] = round(statistics.median(ratios), 3)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="RL environment speed against the engine's.")
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of back-to-back runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu or wall time")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    rows = []
    for game, options in CONFIGS:
        row = measure(game, options, args.games, args.rounds, args.seed)
        rows.append(row)
        parts = [f"engine {row['engine_actions_per_s']:,}/s"]
        for key in row:
            if key.endswith("_steps_per_s"):
                name = key.removesuffix("_steps_per_s")
                parts.append(f"{name} {row[key]:,}/s ({row[name + '_ratio']:.0%})")
        print(f"{game} {options}: " + "  ".join(parts), flush=True)
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
