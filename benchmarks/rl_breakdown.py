"""Where an RL step's time goes: CPU microseconds per move, one variant at a time.

    PYTHONPATH=. python benchmarks/rl_breakdown.py [--games N] [--rounds R] [GAME PLAYERS ...]

Each variant plays ``--games`` random games and reports its best round's CPU time
(``time.process_time``, less sensitive than wall time to other jobs on a shared machine) per
move: the engine alone, one game at a time (as ``glade bench``); the engine alone with 64 games
played in turn (the runner's memory pattern); the batched runner of 64 games; the AEC
environment (``last()`` then a masked random ``step()``, as ``rl_speed.py``); and the AEC
environment with the observation switched off (encoder calls do nothing), which leaves the
PettingZoo protocol, the legal-move mask and the benchmark's own move choice; and the parallel
environment's documented loop (``sample_actions``, then one ``step`` for every agent acting).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from rl_speed import play_aec

from glade import new_game
from glade.rl import VectorGames, kernels
from glade.rl.aec import GladeAECEnv
from glade.rl.encoders import make_encoder
from glade.rl.parallel import GladeParallelEnv

legal_mask = kernels.compiled_module().legal_mask

BATCH = 64


def engine(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    for g in range(games):
        state = new_game(game, seed=seed + g, **options)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply_action_id(seat, rng.choice(state.legal_action_ids(seat)), checked=True)
            moves += 1
    return (time.process_time() - start) / moves


def engine_interleaved(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    rng = random.Random(seed)
    states = [new_game(game, seed=seed + i, **options) for i in range(BATCH)]
    next_seed = seed + BATCH
    finished = moves = 0
    start = time.process_time()
    while finished < games:
        for i, state in enumerate(states):
            seat = state.to_act[0]
            state.apply_action_id(seat, rng.choice(state.legal_action_ids(seat)), checked=True)
            moves += 1
            if state.is_over:
                finished += 1
                states[i] = new_game(game, seed=next_seed, **options)
                next_seed += 1
    return (time.process_time() - start) / moves


def runner(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    games_runner = VectorGames(game, num_games=BATCH, seed=seed, **options)
    rng = random.Random(seed)
    games_runner.reset()
    moves = 0
    start = time.process_time()
    while len(games_runner.finished) < games:
        games_runner.step([rng.choice(ids) for ids in games_runner.legal])
        moves += BATCH
    return (time.process_time() - start) / moves


class _Blind:
    """Stands in for the encoder when the observation is switched off."""

    def after(self, seat: int, code: int) -> None:
        pass


def _blind_view(kernel: Any, state: Any, seat: int, n_actions: int) -> tuple[list[int], Any]:
    legal = state.legal_action_ids(seat)
    return legal, {"observation": None, "action_mask": legal_mask(legal, n_actions)}


def _aec(game: str, options: dict[str, Any], games: int, seed: int, observe: bool) -> float:
    env = GladeAECEnv(make_encoder(game, **options))
    if not observe:
        env._kernel = _Blind()
        env._seat_view = _blind_view
        env._play = kernels.play  # the membership test, the move, the next seat
    start = time.process_time()
    moves = play_aec(env, games, seed)
    return (time.process_time() - start) / moves


def aec(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    return _aec(game, options, games, seed, observe=True)


def aec_without_observation(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    return _aec(game, options, games, seed, observe=False)


def parallel(game: str, options: dict[str, Any], games: int, seed: int) -> float:
    """The parallel environment's documented loop, per move (a step plays every agent acting
    in it: several in Living Forest's draw phase)."""
    env = GladeParallelEnv(GladeAECEnv(make_encoder(game, **options)))
    moves = 0
    start = time.process_time()
    for g in range(games):
        observations, _infos = env.reset(seed=seed + g)
        while env.agents:
            observations, *_ = env.step(env.sample_actions(observations))
        state = env.aec_env.game
        assert state is not None
        moves += len(state.log)
    return (time.process_time() - start) / moves


VARIANTS: list[tuple[str, Callable[[str, dict[str, Any], int, int], float]]] = [
    ("engine", engine),
    ("engine, 64 games in turn", engine_interleaved),
    ("batched runner", runner),
    ("AEC env", aec),
    ("AEC env, no observation", aec_without_observation),
    ("parallel env", parallel),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CPU microseconds per RL step, by variant.")
    parser.add_argument("configs", nargs="*", default=["harmonies", "2", "living-forest", "4"])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if len(args.configs) % 2:
        parser.error("give configurations as GAME PLAYERS pairs")
    pairs = list(zip(args.configs[::2], args.configs[1::2], strict=True))
    for game, players in pairs:
        options = {"players": int(players)}
        print(f"{game} {options}: CPU microseconds per move (best of {args.rounds})")
        base = 0.0
        for name, variant in VARIANTS:
            best = min(variant(game, options, args.games, args.seed) for _ in range(args.rounds))
            base = base or best
            print(f"  {name:<26} {best * 1e6:6.2f} us   ({base / best:.0%} of the engine's speed)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
